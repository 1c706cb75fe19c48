"""A probe, not a rule: what nearest-neighbour distances in input space see of leaks that are not exact copies (overlapping
windows, replicate scans, a board's symmetries, SMOTE's interpolations, analogues of one compound, a target encoding), each
broken program beside its healthy twin. Inputs (a sample's first item, tensors concatenated) are flattened and standardised by
the training samples' (a column constant there left as it is); N validation samples (N = min(400, the split)) are compared with N training samples drawn at random
(equal sizes, so a larger split does not look nearer by its size alone), with each other, and N training samples with the
other N. For each: the median distance to the nearest neighbour, the median ratio of the nearest to the 10th nearest, and
the share of samples whose nearest is under a quarter of their 10th ("near copies").

    OMP_NUM_THREADS=1 PYTHONPATH=.:bench python bench/ladder_near_copy_probe.py [SEED] > bench/results/near_copy_probe.txt"""
import sys, torch
from torch.utils.data import DataLoader
import ladder_gallery as G
import ladder_gallery_aa, ladder_gallery_ab, ladder_gallery_z  # noqa: F401 (register their halves)

PAIRS = [('rul_cnn_turbofan', 'rul_windows_split_by_row'), ('fraud_mlp_smote', 'fraud_smote_before_split'),
         ('tabresnet_houses', 'house_zip_encoded_before_split'), ('lstnet_substations', 'lstnet_windows_split_at_random'),
         ('nir_protein_cnn', 'nir_replicate_scans_split'), ('alphazero_tictactoe', 'alphazero_split_after_augmentation'),
         ('qsar_fingerprints', 'qsar_random_split')]

def inputs(ds, idx):
    if isinstance(ds, DataLoader): ds = ds.dataset
    xs = []
    for i in idx:
        s = ds[i]; x = s[0] if isinstance(s, (tuple, list)) else s
        x = torch.cat([t.float().flatten() for t in x if torch.is_tensor(t)]) if isinstance(x, (tuple, list)) else torch.as_tensor(x).float().flatten()
        xs.append(x)
    L = min(map(len, xs)); return torch.stack([x[:L] for x in xs])

def nearest(a, b, same=False):
    d = torch.cdist(a, b)
    if same: d.fill_diagonal_(float('inf'))
    s = d.sort(1).values; return s[:, 0], s[:, min(9, s.shape[1] - 1)]

def probe(name, seed):
    kw = (G.HEALTHY.get(name) or G.BROKEN[name][0])(seed)
    tr_ds, va_ds = kw['train'], kw['valid']
    ntr, nva = len(tr_ds.dataset if isinstance(tr_ds, DataLoader) else tr_ds), len(va_ds.dataset if isinstance(va_ds, DataLoader) else va_ds)
    n = min(400, nva, ntr // 2); g = torch.Generator().manual_seed(seed)
    p = torch.randperm(ntr, generator=g)[:2 * n].tolist()
    ta, tb, va = inputs(tr_ds, p[:n]), inputs(tr_ds, p[n:]), inputs(va_ds, torch.randperm(nva, generator=g)[:n].tolist())
    mu, sd = ta.mean(0), ta.std(0); sd[sd < 1e-6] = 1.0; ta, tb, va = (ta - mu) / sd, (tb - mu) / sd, (va - mu) / sd
    out = []
    for a, b, same in ((va, ta, False), (va, va, True), (tb, ta, False)):
        d1, d10 = nearest(a, b, same)
        out.append((float(d1.median()), float((d1 / d10).median()), float(((d1 / d10) < 0.25).float().mean())))
    return n, ta.shape[1], out

if __name__ == '__main__':
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    print(f'seed {seed}: median nearest distance, median nearest/10th, share of near copies (nearest < 1/4 of the 10th)')
    print('| program | kind | N | dim | valid -> train | valid -> valid | train -> train |'); print('|---|---|---|---|---|---|---|')
    for pair in PAIRS:
        for name in pair:
            n, dim, out = probe(name, seed)
            print(f"| {name} | {'healthy' if name in G.HEALTHY else 'broken'} | {n} | {dim} | " + ' | '.join(f'{a:.3g}, {b:.2f}, {c:.2f}' for a, b, c in out) + ' |', flush=True)
