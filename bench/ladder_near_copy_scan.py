"""Issue 32, round 64 candidate (measured on the seen programs only): near copies across the split, the largest kind of leak
the held-out halves left not caught (Cutout, jitter, shifted or noised copies made before a random split: AV wrn_cutout,
AW wine_jitter, AX cbam_shifted, AY raman_augmented). No training: for every program and seed, the inputs rung 4's leak
check hashes (`Task.raw` when given, else `sample_inputs` of the loaded samples), their floating values flattened and
standardised by the training samples' (a constant column left as it is), projected to `DIM` dimensions when wider.
Up to `NV` validation samples (spread evenly over the split) against up to `NT` training samples: each one's distances to
its nearest training samples, d1 <= d2 <= ...; the same for `NV` training samples against the other training samples.
A near copy is a sample whose nearest is nonzero (an exact copy is the leak check's) and under R times its K-th nearest.
Recorded: the shares for R in RATIOS and K in KS, valid -> train and train -> train, and the share of equal values
(bit for bit, nonzero) between each validation sample and its nearest.
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_near_copy_scan.py . 0,1 /tmp/nc_$p.json $p & done; wait
    python bench/ladder_near_copy_scan.py --table /tmp/nc_0.json /tmp/nc_1.json
Run on the four copies made before the split that held-out halves left not caught, beside SMOTE's pair and wine's healthy
MLP (ONLY=wine_jitter_oversampled_before_split,wrn_cutout_copies_split_after,cbam_shifted_copies_split_after,
raman_augmented_before_split,fraud_smote_before_split,fraud_mlp_smote,wine_mlp before the command): bench/results/r64_near_copy_probe.txt.
A probe, no rule: see bench/RESULTS.md, round 64."""
import sys, os
from gallery_scan import print_rows

NV, NT, DIM = 512, 4096, 256
RATIOS, KS = (0.05, 0.1, 0.2, 0.25), (5, 10, 20, 50)


def features(get, split:str, idx:list):
    import torch
    from torch.utils._pytree import tree_flatten
    xs = []
    for i in idx:
        ts = [t for t in tree_flatten(get(split, i))[0] if torch.is_tensor(t) and t.is_floating_point()]
        if not ts: return None
        xs.append(torch.cat([t.detach().float().reshape(-1) for t in ts]))
    if len({len(x) for x in xs}) != 1: return None
    return torch.stack(xs)


def shares(a, b, same:bool)->dict:
    import torch
    d = torch.cdist(a, b)
    if same: d[torch.arange(len(a)), torch.arange(len(a))] = float('inf')
    k = min(max(KS), d.shape[1] - int(same)); s = d.topk(k, 1, largest=False).values
    out, d1 = {}, s[:, 0]
    for K in KS:
        if K > k: continue
        for R in RATIOS: out[f'{R}@{K}'] = round(float(((d1 > 0) & (d1 < R * s[:, K - 1])).float().mean()), 4)
    out['exact'] = round(float((d1 == 0).float().mean()), 4)
    return out, d.argmin(1)


def fill(f, d):
    import torch
    from gallery_scan import program_bench
    from ntrain.ladder.small_data import sample_inputs, user_code
    b = program_bench(f, d); task = b.task
    if task.raw is not None: get = task.raw
    else:
        ds = dict(train=task.train, valid=task.valid)
        if not all(hasattr(v, '__getitem__') and hasattr(v, '__len__') for v in ds.values()): d['skip'] = 'loaders'; return
        get = lambda s, i: sample_inputs(ds[s][i])
    nt, nv = len(task.train), len(task.valid)
    if nt < 20 or nv < 2: d['skip'] = f'{nt} train, {nv} valid'; return
    ti = sorted({int(i * nt / min(nt, NT)) for i in range(min(nt, NT))}); vi = sorted({int(i * nv / min(nv, NV)) for i in range(min(nv, NV))})
    with user_code('data'): T, V = features(get, 'train', ti), features(get, 'valid', vi)
    if T is None or V is None or T.shape[1] != V.shape[1]: d['skip'] = 'no float inputs of one size'; return
    d['dim'] = T.shape[1]; d['nt'], d['nv'] = len(T), len(V)
    d['distinct'] = len(torch.unique(V[:64]))
    mu, sd = T.mean(0), T.std(0); sd[sd < 1e-6] = 1.0
    Tz, Vz = (T - mu) / sd, (V - mu) / sd
    if Tz.shape[1] > DIM:
        P = torch.randn(Tz.shape[1], DIM, generator=torch.Generator().manual_seed(0)) / DIM ** 0.5; Tz, Vz = Tz @ P, Vz @ P
    d['vt'], near = shares(Vz, Tz, False)
    tt_idx = torch.linspace(0, len(Tz) - 1, min(len(Tz), NV)).long()
    # train -> train: the sampled training rows against all the training rows, themselves left out
    dd = torch.cdist(Tz[tt_idx], Tz); dd[torch.arange(len(tt_idx)), tt_idx] = float('inf')
    k = min(max(KS), dd.shape[1] - 1); s = dd.topk(k, 1, largest=False).values; d1 = s[:, 0]
    d['tt'] = {f'{R}@{K}': round(float(((d1 > 0) & (d1 < R * s[:, K - 1])).float().mean()), 4) for K in KS if K <= k for R in RATIOS}
    d['tt']['exact'] = round(float((d1 == 0).float().mean()), 4)
    nz = (V != 0) | (T[near] != 0)
    eq = ((V == T[near]) & nz).float().sum(1) / nz.float().sum(1).clamp(min=1)
    d['equal_median'] = round(float(eq.median()), 4); d['equal_half'] = round(float((eq > 0.5).float().mean()), 4)


def table(rs:list, key:str='0.25@10', at:float=0.1):
    ok = [r for r in rs if 'vt' in r]
    print(f"{len(rs)} runs read; {len(ok)} with float inputs of one size; {sum('error' in r for r in rs)} errors; "
          f"{sum('skip' in r for r in rs)} skipped")
    for K in KS:
        for R in RATIOS:
            k = f'{R}@{K}'
            for a in (0.05, 0.1, 0.2):
                h = {r['name'] for r in ok if r['kind'] == 'healthy' and r['vt'].get(k, 0) >= a}
                bb = {r['name'] for r in ok if r['kind'] == 'broken' and r['vt'].get(k, 0) >= a}
                print(f"  near copy d1 < {R} d{K}, share >= {a}: healthy {len(h)}, broken {len(bb)}")
    print_rows([r for r in ok if len(ok) <= 40 or r['vt'].get(key, 0) >= at or r.get('equal_half', 0) >= 0.2],  # a few programs (ONLY=...): every one
               lambda r: f"dim {r['dim']} distinct {r['distinct']} vt {r['vt'].get(key)} tt {r['tt'].get(key)} exact {r['vt']['exact']} "
               f"equal_med {r['equal_median']} equal_half {r['equal_half']}")


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'error' in d or d.get('vt', {}).get('0.25@10', 0) >= 0.1, table)
