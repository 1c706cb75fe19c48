"""Round 60 (issue 32), measured on the seen programs: a prediction summed from several heads (half AU's GIN: a linear
score of each layer's sum pooling, the input's included, added up) whose last head is small while another is large. Rung
2 failed `init_scale` for it in 7 of 10 seeds, where a model whose one last layer has large inputs (a sum over a graph's
nodes) gets a warning (`head_inputs`). For every program, the fresh model on its first training batch (no training):
`last_layer` as before and with `dominant=True` (the largest head of the last one's output shape, when the last one's
outputs are under half the prediction's), and `head_inputs` under each.
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_heads_scan.py . 0,1 /tmp/hd_$p.json $p & done; wait
    python bench/ladder_heads_scan.py --table /tmp/hd_0.json /tmp/hd_1.json
Figures: bench/results/r60_heads_scan.txt (seeds 0 and 1; halves A-AU)."""
import sys, os
from gallery_scan import print_rows


def table(rs:list):
    moved = [d for d in rs if d.get('dominant') and d['dominant'] != d.get('last')]
    print(f"{len(rs)} runs read (program x seed); a last layer found in {sum(bool(d.get('last')) for d in rs)}; another head dominant in "
          f"{len(moved)}; head_inputs changes in {sum(d.get('head_old') != d.get('head_new') for d in rs)}; {sum('error' in d for d in rs)} errors")
    print_rows(moved, lambda d: f"last {d['last']} -> {d['dominant']} (gain {d['gain']}); head_inputs {d['head_old']} -> {d['head_new']}")


def fill(f, d):
    from gallery_scan import program_bench
    from ntrain.ladder import init_loss as I
    b = program_bench(f, d)
    h0, h1 = I.last_layer(b), I.last_layer(b, dominant=True)
    ok = lambda h: h is not None and h['gain'] <= I.HEAD_GAIN and h['outputs'] >= h['prediction'] / 2
    d.update(last=h0 and h0['layer'], dominant=h1 and h1['layer'], gain=h1 and h1['gain'], head_old=ok(h0), head_new=ok(h1))


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: d.get('dominant') != d.get('last') or 'error' in d, table)
