"""The leak check's cross-split copies against recurrence inside the training split, over every gallery program's data
(no training): for each program and seed, how many validation samples hash to a training sample (as `leak_check`), and how
many training samples share their hash with another training sample. Programs whose train split is a DataLoader are skipped.
Round 29 adds, where there are copies, how many carry the same target (`same`: the valid sample whole, its target with it,
is what every train sample of its inputs is) and rung 4's own judgement: `discrete` and `natural_copies`.
Figures: bench/results/r28_recurrence_scan.txt, bench/results/r29_recurrence_scan.txt. Two halves side by side:
`for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_recurrence_scan.py . 0,1 /tmp/rec_$p.json $p & done; wait` (about 2 min),
then `python bench/ladder_recurrence_scan.py --table /tmp/rec_0.json /tmp/rec_1.json`."""
import sys, json, importlib, collections, time, types
if sys.argv[1] == '--table':
    rs = [d for f in sys.argv[2:] for d in json.load(open(f))]
    print(f"{len(rs)} runs, {sum('error' in d for d in rs)} skipped (a DataLoader for the train split, or an error); the runs with copies:")
    for d in sorted((d for d in rs if d.get('cross')), key=lambda d: (d['kind'], d['name'], d['seed'])):
        print(f"{d['kind']:7} {d['half']} {d['name'][:38]:38} seed {d['seed']}  cross {d['cross']:5}/{d['nv']:5} = {d['cross'] / d['nv']:6.1%}  "
              f"recur {d['recur'] / d['nt']:6.1%}  same target {d['same'] / d['cross']:6.1%}  discrete {d.get('discrete')!s:5}  natural {d.get('natural')}")
    sys.exit()
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
            whole = (lambda s, i: dig((tr if s == 'train' else va)[i])) if raw is None else None
            cnt, tgt = collections.Counter(), collections.defaultdict(set)
            for i in range(nt):
                h = dig(get('train', i)); cnt[h] += 1
                if whole is not None: tgt[h].add(whole('train', i))
            cross = same = 0
            for i in range(nv):
                if (h := dig(get('valid', i))) in cnt:
                    cross += 1; same += whole is None or tgt[h] == {whole('valid', i)}
            recur = sum(c for c in cnt.values() if c >= 2)
            d = dict(name=name, kind=kind, half=G.HALF[name], seed=seed, nt=nt, nv=nv, cross=cross, recur=recur, same=same)
            if cross:  # round 29's rule, as rung 4 applies it
                leak = S.leak_check(types.SimpleNamespace(raw=raw, train=tr, valid=va))
                d.update(discrete=leak['discrete'], natural=S.natural_copies(leak))
        except Exception as e: d = dict(name=name, kind=kind, seed=seed, error=repr(e)[:200])
        res.append(d); json.dump(res, open(out, 'w'))
        if d.get('cross'): print(d, flush=True)
print('done', flush=True)
