"""The leak check's cross-split copies against recurrence inside the training split, over every gallery program's data
(no training): for each program and seed, how many validation samples hash to a training sample (as `leak_check`), and how
many training samples share their hash with another training sample. Programs whose train split is a DataLoader are skipped.
Figures: bench/results/r28_recurrence_scan.txt. Two halves side by side:
`for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_recurrence_scan.py . 0,1 /tmp/rec_$p.json $p & done; wait` (about 2 min)."""
import sys, json, importlib, collections, time
tree, seeds, out, part = sys.argv[1], [int(s) for s in sys.argv[2].split(',')], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, tree + '/bench'); sys.path.insert(0, tree)
S = importlib.import_module('ntrain.ladder.small_data')
G = importlib.import_module('ladder_gallery')
dig = S.digest
names = [(n, 'healthy') for n in G.HEALTHY] + [(n, 'broken') for n in G.BROKEN]
names = names[part::2]; res = []
for seed in seeds:
    for name, kind in names:
        f = G.HEALTHY[name] if name in G.HEALTHY else G.BROKEN[name][0]
        try:
            kw = f(seed); tr, va, raw = kw['train'], kw['valid'], kw.get('raw')
            get = (lambda s, i: raw(s, i)) if raw is not None else (lambda s, i: S.sample_inputs((tr if s == 'train' else va)[i]))
            nt, nv = min(len(tr), 50000), min(len(va), 50000)
            cnt = collections.Counter(dig(get('train', i)) for i in range(nt))
            cross = sum(dig(get('valid', i)) in cnt for i in range(nv))
            recur = sum(c for c in cnt.values() if c >= 2)
            d = dict(name=name, kind=kind, half=G.HALF[name], seed=seed, nt=nt, nv=nv, cross=cross, recur=recur)
        except Exception as e: d = dict(name=name, kind=kind, seed=seed, error=repr(e)[:200])
        res.append(d); json.dump(res, open(out, 'w'))
        if d.get('cross'): print(d, flush=True)
print('done', flush=True)
