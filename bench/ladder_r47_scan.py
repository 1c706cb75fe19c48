"""Round 47's two new rules over gallery programs, without training, as rung 4 computes them:
- `missing_class`: rung 4's draw of the fit's training samples (`_small_data`), the model's evaluation before training
  (`_evaluate`), and `missing_class` on their tallies (the fit's own draw is the tally; rung 4's later, larger draws are
  supersets of it). Printed: every program it would fail `labels`, healthy or broken, and the nearest misses (the
  smallest chance among classes absent from validation, whether or not validation holds one class only).
- `forward_target_slot` and `target_in_inputs(slot=...)` for programs with a forward of their own (`slot`, `in_inputs`):
  every program whose targets it finds in the inputs fails `leakage`.
And round 48's (`--r48`, halves A-AE still, AF and AG held out): `bce_targets_outside` on the first training batch's
targets (`bce_outside`), and `sample_inputs`'s `(label, text)` reading (`label_first`: the first training sample is a
pair whose first item is one number and whose second is not; then `overlap`, the leak check's copies).
Halves still held out (`HELD_OUT`) are left out.
`for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_r47_scan.py . 0,1 /tmp/r47_$p.json $p & done; wait`,
then `python bench/ladder_r47_scan.py --table /tmp/r47_0.json /tmp/r47_1.json`."""
import sys, json, time, math, tempfile
HELD_OUT = ('AG',) if '--r48' in sys.argv else ('AF', 'AG')  # halves not seen yet (round 47: A-AE are all seen; round 48: A-AF)
if sys.argv[1] == '--table' and '--r48' in sys.argv:
    rs = [d for f in sys.argv[2:] if f != '--r48' for d in json.load(open(f))]
    print(f"{len(rs)} runs ({len({d['name'] for d in rs})} programs, seeds {sorted({d['seed'] for d in rs})}), {sum('error' in d for d in rs)} errors")
    for d in rs:
        if d.get('bce_outside'): print(f"  bce_targets_outside: {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: {d['bce_outside']}")
    for d in rs:
        if d.get('label_first'): print(f"  (label, inputs) pair: {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: {d['overlap']} validation copies")
    for d in rs:
        if d.get('natural_was') != d.get('natural_now'): print(f"  natural_copies {d['natural_was']} -> {d['natural_now']}: {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: {d['overlap_all']}/{d['nv']} across, {d['recur']}/{d['nt']} within")
    print(f"  copies across the splits in {sum(bool(d.get('overlap_all')) for d in rs)} runs; natural (now) in {sum(bool(d.get('natural_now')) for d in rs)}")
    for d in rs:
        if 'error' in d: print(f"  error {d['name']} seed {d['seed']}: {d['error']}")
    sys.exit()
if sys.argv[1] == '--table':
    rs = [d for f in sys.argv[2:] for d in json.load(open(f))]
    print(f"{len(rs)} runs ({len({d['name'] for d in rs})} programs, seeds {sorted({d['seed'] for d in rs})}), "
          f"{sum('error' in d for d in rs)} errors, {sum(d.get('tallied', False) for d in rs)} with class tallies; flagged:")
    for d in rs:
        if d.get('r'): print(f"  {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: {d['r']}")
    print(f"forward of their own: {sum(d.get('own_forward', False) for d in rs)} runs, a target slot found in "
          f"{sum(d.get('slot') is not None for d in rs)}; targets in the inputs:")
    for d in rs:
        if d.get('in_inputs'): print(f"  {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: slot {d['slot']}, {d['in_inputs']}")
    print('nearest misses (an absent class: log10 of its chance at the lower bound of its share, its tally, n):')
    near = sorted((d for d in rs if d.get('near') and not d.get('r')), key=lambda d: d['near'][0])[:12]
    for d in near: print(f"  {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: {d['near']}")
    errs = [d for d in rs if 'error' in d]
    for d in errs[:20]: print(f"  error {d['name']} seed {d['seed']}: {d['error']}")
    sys.exit()
R48 = '--r48' in sys.argv
if R48: sys.argv.remove('--r48')
from gallery_scan import scan_setup, ladder_bench
seeds, out, G, S, names = scan_setup(HELD_OUT); res = []
import torch
from ntrain.ladder.session import LadderSession
from ntrain.ladder.kernel import bench

def scan(kw, rd, d):
    b = ladder_bench(kw, rd)
    torch.manual_seed(b.cfg.seed)
    if R48: return r48(b)
    model, own = b.model(), not S.batch_targets_are_the_loss(b.task)
    slot = S.forward_target_slot(b, model) if own else None
    d.update(own_forward=own, slot=slot, in_inputs=S.target_in_inputs(b.task.train, slot=slot) if slot is not None else None)
    if not (b.is_bce or b.class_targets): return None, None, False
    sub, k, N, nv, vl, within = S._small_data(b)
    targets = S._train_targets(b, model, sub) if b.is_bce or b.is_mse else None
    prior = S.train_prior(b, model, sub, targets) if targets else None
    e0 = S._evaluate(b, model, vl, within, prior)
    tt = targets if b.is_bce else S._train_targets(b, model, sub)
    train, m, counts, n, cols = S.class_tallies(b, tt, e0)
    gone = [(round(n * math.log10(1 - S._share_low(c, m)), 1), f'{c}/{m}', n) for name_, c in train.items() if 0 < c < m and not counts.get(name_, 0)]
    return S.missing_class(train, m, counts, n, cols), min(gone) if gone else None, bool(train)

d_leak = {}
def r48(b):
    from ntrain.ladder.one_step import bce_targets_outside
    from ntrain.core import to_device
    batch, idx = b.first_batch()
    model = b.model()
    with torch.no_grad(): t = b.forward(model, to_device(batch, b.device))[1]
    s0 = b.task.train[0] if hasattr(b.task.train, '__getitem__') else None
    lf = isinstance(s0, (tuple, list)) and len(s0) == 2 and S._one_value(s0[0]) and not S._one_value(s0[1])
    lk = S.leak_check(b.task, b.st.leak_max) if b.task.raw is None else None
    if lk is not None and lk['overlap']:  # round 48's natural_copies against round 47's (RECUR_SLACK alone)
        a, c = S.RECUR_SLACK; was = bool(lk.get('discrete')) and lk['overlap'] / max(lk['checked_valid'], 1) <= a * lk['recur'] / max(lk['checked_train'], 1) + c
        d_leak.update(overlap_all=lk['overlap'], nv=lk['checked_valid'], recur=lk['recur'], nt=lk['checked_train'], discrete=bool(lk.get('discrete')), natural_was=was, natural_now=S.natural_copies(lk))
    return bce_targets_outside(b, t, idx), lk['overlap'] if lf and lk is not None else None, lf

for seed in seeds:
    for name, kind in names:
        f = G.HEALTHY[name] if name in G.HEALTHY else G.BROKEN[name][0]
        t0 = time.time(); d = dict(name=name, kind=kind, half=G.HALF[name], seed=seed)
        try:
            with tempfile.TemporaryDirectory() as rd:
                if R48: d_leak.clear(); d['bce_outside'], d['overlap'], d['label_first'] = scan(f(seed), rd, d); d.update(d_leak)
                else: d["r"], d["near"], d["tallied"] = scan(f(seed), rd, d)
        except Exception as e: d['error'] = repr(e)[:200]
        d['s'] = round(time.time() - t0, 2); res.append(d); json.dump(res, open(out, 'w'))
        if d.get('r') or d.get('bce_outside') or d.get('label_first'): print(d, flush=True)
print('done', flush=True)
