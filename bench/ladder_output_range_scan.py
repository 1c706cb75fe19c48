"""Round 54 (issue 32), measured on the seen programs before the rule: a prediction that comes straight from a bounded op
(a ReLU, sigmoid, tanh, softplus, exp ... after the output) while the targets lie outside its range (half AO's
qm7_relu_after_output: a ReLU after a regression on standardised energies). For every program, the fresh model on its
first training batch (no training), `ntrain.ladder.overfit.output_floor`: the op, the share of target values outside its
range, and the share of the start loss the range puts out of reach ((floor - exact) / start), against rung 3's
`overfit_ratio` (0.02), the share a memorised batch ends below.
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_output_range_scan.py . 0,1 /tmp/or_$p.json $p & done; wait
    python bench/ladder_output_range_scan.py --table /tmp/or_0.json /tmp/or_1.json
Figures: bench/results/r54_output_range_scan.txt (seeds 0 and 1; halves A-AO, all seen after round 53)."""
import sys, os, tempfile


def table(rs:list):
    hit = [d for d in rs if 'op' in d]
    print(f"{len(rs)} runs read (program x seed), {len(hit)} with a bounded prediction that puts some loss out of reach, "
          f"{sum('error' in d for d in rs)} errors")
    for d in sorted(hit, key=lambda d: (-d['unreachable'], d['name'], d['seed'])):
        print(f"  {d['kind']:7} {d['half']:3} {d['name']:45} seed {d['seed']}  {d['op']:8} targets outside {d['outside']:.3f}  "
              f"out of reach {d['unreachable']:.4f} of the start{'  > overfit_ratio' if d['unreachable'] > 0.02 else ''}")


def fill(f, d):
    from gallery_scan import ladder_bench
    from ntrain.ladder.overfit import output_floor
    b = ladder_bench(f(d['seed']), tempfile.mkdtemp())
    o = output_floor(b, b.first_batch()[0])
    if o: d.update(op=o['op'], outside=o['outside'], unreachable=(o['floor'] - o['exact']) / o['start'])


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'op' in d or 'error' in d, table)
