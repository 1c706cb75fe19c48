"""Round 57 (issue 32), measured on the seen programs: rung 2 fails `init_scale` when the loss is far off its theory because
the last layer's inputs are large (`head_inputs`) and the model's float inputs are not standardised (`input_scale`: rms
beyond INPUT_SCALE, 100). For every program, the first training batch's float inputs (no model, no training): those
beyond INPUT_SCALE, the programs that rung 2 could fail this way (the rest of the rule needs the loss off theory with
large head inputs, which `bench/results` records as a rung-2 `init_scale` warning).
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_input_scale_scan.py . 0 /tmp/is_$p.json $p & done; wait
    python bench/ladder_input_scale_scan.py --table /tmp/is_0.json /tmp/is_1.json
Figures: bench/results/r57_input_scale_scan.txt (seed 0; halves A-AS)."""
import sys, os, tempfile


def table(rs:list):
    hit = [d for d in rs if 'rms' in d]
    print(f"{len(rs)} programs read, {len(hit)} with float inputs of rms beyond 100 "
          f"({sum(d['kind'] == 'healthy' for d in hit)} healthy), {sum('error' in d for d in rs)} errors")
    for d in sorted(hit, key=lambda d: (d['kind'], -d['rms'])):
        print(f"  {d['kind']:7} {d['half']:3} {d['name']:45} input rms {d['rms']:.3g}  largest {d['max']:.3g}")


def fill(f, d):
    from gallery_scan import ladder_bench
    from ntrain.ladder.init_loss import input_scale
    b = ladder_bench(f(d['seed']), tempfile.mkdtemp())
    if (xs := input_scale(b.first_batch()[0])): d.update(xs)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'rms' in d or 'error' in d, table)
