"""Round 51's `reads_own_target` over every seen gallery program (no training; a fresh model, seeds given): which programs'
targets are their inputs, and of those, which models read each target they predict (a fail at rung 4) or are
autoregressive without (a note); and which programs with no targets feed two inputs that are one tensor (`twin_inputs`). Halves still held out (`HELD_OUT`) are left out. Two halves side by side:
`for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_own_target_scan.py . 0 /tmp/own_$p.json $p & done; wait`,
then `python bench/ladder_own_target_scan.py --table /tmp/own_0.json /tmp/own_1.json`. Figures: bench/results/r51_own_target_scan.txt."""
import sys, json, time, tempfile
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
    for d in rs:
        if 'error' in d: print(f"  error {d['name']} seed {d['seed']}: {d['error']}")
    sys.exit()
from gallery_scan import scan_setup
seeds, out, G, S, names = scan_setup(HELD_OUT); res = []
import torch
from ntrain.ladder.session import LadderSession
from ntrain.ladder.kernel import bench

for seed in seeds:
    for name, kind in names:
        f = G.HEALTHY[name] if name in G.HEALTHY else G.BROKEN[name][0]
        t0 = time.time(); d = dict(name=name, kind=kind, half=G.HALF[name], seed=seed)
        try:
            with tempfile.TemporaryDirectory() as rd:
                s = LadderSession(run_dir=rd, **f(seed))
                b = bench(s.config(s._settings(None)), task=s.task, run_dir=rd, optimizer=s.optimizer, step=s.step, settings=s.thresholds)
                if s.plain: b.target_sets = s.task._user_sets
                torch.manual_seed(b.cfg.seed)
                tr = b.task.train
                if hasattr(tr, '__getitem__') and hasattr(tr, '__len__'):
                    d['same'] = S.targets_are_inputs(b.task, tr, n=64)
                    model = b.model()
                    if d['same'] is not None: d['r'] = S.reads_own_target(b, model, tr)
                    d['twins'] = S.twin_inputs(b, model, tr)
        except Exception as e: d['error'] = repr(e)[:200]
        d['s'] = round(time.time() - t0, 2); res.append(d); json.dump(res, open(out, 'w'))
        if d.get('same') is not None or d.get('twins'): print(d, flush=True)
print('done', flush=True)
