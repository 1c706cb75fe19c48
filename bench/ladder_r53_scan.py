"""Round 53 (issue 32): what its rules touch among the seen programs, with no training, and the verdicts before and after.

Data (no training; gallery_scan's command line, two processes side by side, about 10 min):
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_r53_scan.py . 0,1 /tmp/r53_$p.json $p & done; wait
    python bench/ladder_r53_scan.py --table /tmp/r53_0.json /tmp/r53_1.json
For each program and seed: whether its samples are dicts with no target key of ntrain's under a forward of its own (the
control's `_key_seen`), whether it declares groups (`missing_class` by group), the best input position's match with a class
target and its chance (`_class_in_inputs`, `INPUT_ALL_CHANCE`), and the median count of a validation sample's class among
1024 random training samples (`class_support`, `sparse_classes`; targets read from the samples: a tuple's second item, a
dict's 'labels'/'label'/'y').

Verdicts (rungs 1-4) of named programs on a tree, one JSON line a run, to compare two checkouts:
    OMP_NUM_THREADS=1 python bench/ladder_r53_scan.py --rerun TREE OUT.jsonl NSEEDS NAME...
Figures: bench/results/r53_seen_scan.txt, r53_seen_before_after.jsonl."""
import sys, os, json, time, tempfile
from collections import Counter
from collections.abc import Mapping


def table(files:list):
    rs = [d for f in files for d in json.load(open(f))]
    print(f"{len(rs)} runs ({len({d['name'] for d in rs})} programs, seeds {sorted({d['seed'] for d in rs})}), {sum('error' in d for d in rs)} errors")
    for title, keep in (('dict samples, no target key, a forward of your own', lambda d: d.get('dict_own')),
                        ('groups declared, class targets', lambda d: d.get('groups') and d.get('classes')),
                        ('a class target at one input position in 99% of samples or more', lambda d: d.get('m', 0) >= 0.99),
                        ('class support under 8 (median, of 1024 training samples)', lambda d: d.get('support', 99) < 8)):
        print(f'\n{title}:')
        for d in sorted((d for d in rs if keep(d)), key=lambda d: (d['half'], d['name'], d['seed'])):
            extra = {k: round(d[k], 4) if isinstance(d[k], float) else d[k] for k in ('m', 'chance', 'width', 'flag', 'support', 'n_classes') if k in d}
            print(f"  {d['kind']:7} {d['half']:3} {d['name']} seed {d['seed']} {extra}")
    for d in rs:
        if 'error' in d: print(f"  error {d['name']} seed {d['seed']}: {d['error']}")


def rerun(tree:str, out:str, nseeds:int, names:list):
    sys.path.insert(0, tree + '/bench'); sys.path.insert(0, tree)
    import ladder_gallery as G
    for n in names:
        for s in range(nseeds):
            t = time.time()
            try:
                rs = G.run(n, s, rungs='1-4').rungs
                v = {str(getattr(r, 'rung', k)): (r.verdict, r.causes) for k, r in (rs.items() if isinstance(rs, dict) else enumerate(rs, 1))}
                nat = [r.numbers.get('leak_natural') for r in (rs.values() if isinstance(rs, dict) else rs) if getattr(r, 'rung', 0) == 4]
            except Exception as e: v, nat = {'error': repr(e)[:200]}, []
            d = dict(tree=tree, name=n, seed=s, v=v, s=round(time.time() - t, 1))
            if nat and nat[0] is not None: d['leak_natural'] = nat[0]  # round 68: natural copies, the only leakage note
            with open(out, 'a') as fh: fh.write(json.dumps(d) + '\n')
            print(d, flush=True)


def scan():
    import torch
    from gallery_scan import scan_setup, run_scan, ladder_bench
    seeds, out, G, S, names = scan_setup(())
    from ntrain.ladder.diagnose import batch_targets
    seen = {}
    orig = S._class_in_inputs
    def spy(X, T):  # `_class_in_inputs`'s best position and its chance, recorded whatever it decides
        hit = (X == T[:, None]).double().mean(0); c = int(hit.argmax())
        vs, cv = T.unique(return_counts=True)
        seen.update(m=float(hit[c]), width=X.shape[1],
                    chance=float(sum(float((X[:, c] == v).double().mean()) * k / len(T) for v, k in zip(vs.tolist(), cv.tolist()))))
        return orig(X, T)
    S._class_in_inputs = spy
    def label(s):
        t = s.get('labels', s.get('label', s.get('y'))) if isinstance(s, Mapping) else batch_targets(s)
        return int(t) if torch.is_tensor(t) and t.numel() == 1 and not t.is_floating_point() and t.dtype != torch.bool else None
    def fill(f, d):
        kw = f(d['seed'])
        b = ladder_bench(kw, tempfile.mkdtemp())
        tr, va = b.task.train, b.task.valid
        s0 = tr[0]
        d.update(dict_own=isinstance(s0, Mapping) and S.target_slot(b.task, s0) is None and S.own_forward(b.task),
                 groups=b.task.groups is not None, classes=bool(b.class_targets or b.is_bce))
        seen.clear(); d['flag'] = bool(S.target_in_inputs(tr)); d.update(seen)
        g = torch.Generator(); g.manual_seed(0)
        t = [label(tr[i]) for i in torch.randperm(len(tr), generator=g)[:1024].tolist()]
        v = [label(va[i]) for i in range(min(len(va), 1024))]
        if t and v and None not in t[:5] and None not in v[:5]:
            c = Counter(t); sup = sorted(c.get(x, 0) for x in v if x is not None)
            d.update(support=sup[len(sup) // 2], n_classes=len(c))
    run_scan(G, names, seeds, out, fill, lambda d: d.get('dict_own') or d.get('m', 0) >= 0.99 or d.get('support', 99) < 5 or 'error' in d)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if sys.argv[1] == '--table': table(sys.argv[2:])
    elif sys.argv[1] == '--rerun': rerun(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:])
    else: scan()
