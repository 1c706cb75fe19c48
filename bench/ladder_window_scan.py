"""Round 52's `shared_windows` over every gallery program's data (no training; seeds given): which programs' validation inputs
share runs of consecutive steps with training inputs at another place, on which sides, and what rung 4 would say (fail
from `WINDOW_SURE` with both sides, warn from `LEAK_SURE`, a note on one side). Halves still held out (`HELD_OUT`) are
left out. Two halves side by side:
`for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_window_scan.py . 0 /tmp/win_$p.json $p & done; wait`,
then `python bench/ladder_window_scan.py --table /tmp/win_0.json /tmp/win_1.json`. Figures: bench/results/r52_window_scan.txt."""
import sys, json
from gallery_scan import print_errors
HELD_OUT = ()  # halves not seen yet (round 60: A-AU are all seen)
def verdict(sw, S):
    if not sw or not sw['shared']: return None
    both = min(sw['earlier'], sw['later']) >= sw['shared'] / 4; share = sw['shared'] / sw['probed']
    return 'fail' if both and share >= S.WINDOW_SURE else 'warn' if both and share >= S.LEAK_SURE else 'note' if not both else None
if sys.argv[1] == '--table':
    import importlib; sys.path.insert(0, '.'); S = importlib.import_module('ntrain.ladder.small_data')
    rs = [d for f in sys.argv[2:] for d in json.load(open(f))]
    print(f"{len(rs)} runs ({len({d['name'] for d in rs})} programs, seeds {sorted({d['seed'] for d in rs})}), {sum('error' in d for d in rs)} errors; "
          f"checked (inputs with an axis of WINDOW_STEPS + WINDOW_SHIFT steps (16 before round 60), continuous) in {sum(d.get('r') is not None for d in rs)}; any shared run in {sum(bool(d.get('r') and d['r']['shared']) for d in rs)}:")
    for v in ('fail', 'warn', 'note'):
        for d in rs:
            if verdict(d.get('r'), S) == v: print(f"  {v:4} {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: {d['r']}")
    print_errors(rs)
    sys.exit()
from gallery_scan import scan_setup, run_scan
seeds, out, G, S, names = scan_setup(HELD_OUT)

def fill(f, d):
    kw = f(d['seed']); tr, va = (kw['task'].train, kw['task'].valid) if 'task' in kw else (kw['train'], kw.get('valid'))
    if va is not None and hasattr(tr, '__getitem__') and hasattr(va, '__getitem__') and not kw.get('raw') and getattr(kw.get('task'), 'raw', None) is None:
        d['r'] = S.shared_windows(tr, va)

run_scan(G, names, seeds, out, fill, lambda d: d.get('r') and d['r']['shared'])
