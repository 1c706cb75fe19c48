"""Round 51's `reads_own_target` over every seen gallery program (no training; a fresh model, seeds given): which programs'
targets are their inputs, and of those, which models read each target they predict (a fail at rung 4) or are
autoregressive without (a note); and which programs with no targets feed two inputs that are one tensor (`twin_inputs`). Halves still held out (`HELD_OUT`) are left out. Two halves side by side:
`for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_own_target_scan.py . 0 /tmp/own_$p.json $p & done; wait`,
then `python bench/ladder_own_target_scan.py --table /tmp/own_0.json /tmp/own_1.json`. Figures: bench/results/r51_own_target_scan.txt."""
import sys, json, tempfile
from gallery_scan import ladder_bench, print_errors
HELD_OUT = ('AK', 'AL')  # halves not seen yet (round 51)
if sys.argv[1] == '--table':
    rs = [d for f in sys.argv[2:] for d in json.load(open(f))]
    print(f"{len(rs)} runs ({len({d['name'] for d in rs})} programs, seeds {sorted({d['seed'] for d in rs})}), {sum('error' in d for d in rs)} errors; "
          f"targets are inputs in {sum(d.get('same') is not None for d in rs)}; judged:")
    for d in rs:
        if d.get('same') is not None: print(f"  {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: item {d['same']!r}, {d.get('r')}")
    print(f"twin inputs in {sum(bool(d.get('twins')) for d in rs)}:")
    for d in rs:
        if d.get('twins'): print(f"  {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: {d['twins']}")
    print_errors(rs)
    sys.exit()
from gallery_scan import scan_setup, run_scan
seeds, out, G, S, names = scan_setup(HELD_OUT)
import torch

def fill(f, d):
    with tempfile.TemporaryDirectory() as rd:
        b = ladder_bench(f(d['seed']), rd)
        torch.manual_seed(b.cfg.seed)
        tr = b.task.train
        if hasattr(tr, '__getitem__') and hasattr(tr, '__len__'):
            d['same'] = S.targets_are_inputs(b.task, tr, n=64)
            model = b.model()
            if d['same'] is not None: d['r'] = S.reads_own_target(b, model, tr)
            d['twins'] = S.twin_inputs(b, model, tr)

run_scan(G, names, seeds, out, fill, lambda d: d.get('same') is not None or d.get('twins'))
