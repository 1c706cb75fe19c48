"""Issue 32, round 66 candidate (measured on the seen programs only): rung 2's regression check (`_regression_check`) fails
`init_scale` when the outputs' spread at init is beyond `REGRESSION_SURE` times the larger of the targets' spread and 1,
and blames the last layer's init scale. Half BC's KalmanNet (a filter's recursion diverging at some inits) and Lagrangian
network (accelerations through a Hessian's inverse) are false fails of it: no last layer makes their spread. No training:
for every program and seed, rung 2 as it runs (`rung2`), and for those whose outputs spread beyond the targets' (`over` > 1),
the last layer rung 2's other checks read (`last_layer`: its gain, the rms of its inputs and outputs, the prediction's)
and whether the raw inputs are unscaled (`input_scale`).
    for p in 0 1; do OMP_NUM_THREADS=1 HELD_OUT=BB,BD,BE python bench/ladder_regression_scale_scan.py . 0,1 /tmp/rs_$p.json $p & done; wait
    python bench/ladder_regression_scale_scan.py --table /tmp/rs_0.json /tmp/rs_1.json
Round 66 (`amplifier`): beyond `REGRESSION_SURE`, rung 2 fails only when the raw inputs are unscaled or a layer's gain is over
twice `HEAD_GAIN`, else warns. Figures: bench/results/r66_regression_scale_scan.txt (the scan before the rule, halves A-BC
but BB; then the programs beyond `REGRESSION_SURE` and half BC's KalmanNet seeds 5, 6 and 9 after it)."""
import sys, os
from gallery_scan import print_rows


def fill(f, d):
    from gallery_scan import program_bench
    from ntrain.ladder.init_loss import rung2, last_layer, input_scale, amplifier
    b = program_bench(f, d); r = rung2(b); n = r.numbers
    d['verdict'], d['causes'] = r.verdict, r.causes
    if 'out_rms' not in n: return
    d['over'] = round(n['out_rms'] / max(n['target_rms'], 1.0), 3)
    if d['over'] <= 1: return
    h = last_layer(b); xs = input_scale(b.first_batch()[0]); a = amplifier(b)
    d['amplifier'] = None if a is None else [a[0], round(a[1], 3)]
    d['head'] = None if h is None else {k: (round(v, 4) if isinstance(v, float) else v) for k, v in h.items()}
    d['input_rms'] = None if xs is None else round(xs['rms'], 3)


def table(rs:list):
    over = [r for r in rs if r.get('over', 0) > 1]
    print(f"{len(rs)} runs read; a regression's outputs spread beyond the targets' in {len(over)}; {sum('error' in r for r in rs)} errors")
    print_rows(over, lambda r: f"over {r['over']:.3g} {r['verdict']} {r['causes']}; last layer "
               + ('none' if not r.get('head') else f"{r['head']['layer']} gain {r['head']['gain']:.3g} in {r['head']['inputs']:.3g} out {r['head']['outputs']:.3g} pred {r['head']['prediction']:.3g}")
               + f"; raw inputs rms {r.get('input_rms')}; largest gain {r.get('amplifier')}")


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'error' in d or d.get('over', 0) > 2, table)
