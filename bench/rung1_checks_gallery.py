"""False alarms of rung 1's and rung 2's issue-33 causes on the healthy programs of the verdicts gallery (issue 32's
bench/ladder_gallery.py, on branch `verdicts` when this was written), by hand:

    OMP_NUM_THREADS=1 nice -n 10 python bench/rung1_checks_gallery.py GALLERY.py [SEEDS] [OUT.json]

Each healthy program runs the ladder's rungs 1-2 with `num_workers=2` (so the workers' check runs); an alarm is any of
`worker_rng`, `unused_params`, `string_labels`, `eval_state` named. Rung 2 is refused when rung 1 fails for another
reason: those runs count for rung 1 only, and are listed."""
import importlib.util, json, sys, time
from pathlib import Path
import torch
torch.set_num_threads(1)

GALLERY = sys.argv[1]
SEEDS = range(int(sys.argv[2]) if len(sys.argv) > 2 else 5)
OUT = sys.argv[3] if len(sys.argv) > 3 else str(Path(__file__).resolve().parent/'results/rung1_checks_gallery.json')
OURS = ('worker_rng', 'unused_params', 'string_labels', 'eval_state')

spec = importlib.util.spec_from_file_location('ladder_gallery', GALLERY); g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
rows, out = [], {}
for name in g.HEALTHY:
    runs = []
    for s in SEEDS:
        t0 = time.perf_counter()
        try:
            res = g.run(name, s, rungs='1-2', num_workers=2)
            runs.append(dict(rungs={r.rung: dict(verdict=r.verdict, causes=r.causes) for r in res.rungs}, seconds=round(time.perf_counter() - t0, 2)))
        except Exception as e: runs.append(dict(error=f'{type(e).__name__}: {e}'[:300]))
    alarms = sum(any(c in OURS for r in x.get('rungs', {}).values() for c in r['causes']) for x in runs)
    rung2 = sum(x.get('rungs', {}).get(2, {}).get('verdict') not in (None, 'refused') for x in runs)
    out[name] = runs; rows.append((name, g.HALF.get(name, '?'), f'{alarms}/{len(runs)}', f'{rung2}/{len(runs)}'))
    print(rows[-1], [sorted({c for r in x.get('rungs', {}).values() for c in r['causes']}) or x.get('error', '') for x in runs], flush=True)
Path(OUT).write_text(json.dumps(dict(gallery=GALLERY, seeds=list(SEEDS), runs=out), indent=1))
print('\n| healthy program | half | alarms (of the 4 causes) | rung 2 ran |\n|---|---|---|---|')
for r in rows: print('| ' + ' | '.join(r) + ' |')
