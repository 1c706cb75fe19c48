"""Rungs 1-2 over every gallery program (no training): rung 2's verdict, whether its loss has a theory, the outputs' spread,
the loss at init over what all-zero outputs score, and the last layer at init (`last_layer`: its gain, inputs' and outputs' rms).
Round 28's seen-data check (bench/results/r28_last_layer_scan.txt). Two halves of the programs run side by side:
`cd <repo> && for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_rung2_scan.py . 0,1 /tmp/scan_$p.json $p & done; wait` (about 4 min)."""
import sys, json, importlib, time
tree, seeds, out = sys.argv[1], [int(s) for s in sys.argv[2].split(',')], sys.argv[3]
part = int(sys.argv[4]) if len(sys.argv) > 4 else None  # 0/1: every other program
sys.path.insert(0, tree + '/bench'); sys.path.insert(0, tree)
R, I = importlib.import_module('ntrain.ladder.rungs'), importlib.import_module('ntrain.ladder.init_loss')
G = importlib.import_module('ladder_gallery')
orig = R.RUNGS[2]
def wrapped(b):
    r = orig(b)
    try:
        losses, counts, rows, items, seen, zero, spread = I._init_batches(b)
        p0 = seen[0][1]
        r.numbers['scan'] = dict(zero=zero, spread=spread, sd=float(p0.std()) if p0 is not None and p0.numel() > 1 else spread, last=I.last_layer(b))
    except Exception as e: r.numbers['scan'] = dict(error=repr(e)[:200])
    return r
R.RUNGS[2] = wrapped
names = [(n, 'healthy') for n in G.HEALTHY] + [(n, 'broken') for n in G.BROKEN]
if part is not None: names = names[part::2]
res = []
for seed in seeds:
    for name, kind in names:
        t = time.time()
        try: rr = G.run(name, seed, rungs='1-2')
        except Exception as e: res.append(dict(name=name, kind=kind, seed=seed, error=repr(e)[:200])); continue
        d = dict(name=name, kind=kind, half=G.HALF[name], seed=seed, secs=round(time.time() - t, 1))
        for r in rr.rungs:
            d[f'r{r.rung}'] = [r.verdict, r.causes]
            if r.rung == 2: d['theory'] = r.numbers.get('expected') is not None; d['scan'] = r.numbers.get('scan')
        res.append(d); json.dump(res, open(out, 'w'))
        print(name, seed, d.get('r2'), d.get('scan'), flush=True)
