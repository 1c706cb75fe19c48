"""Half AY of the ladder's gallery: held out from the rules frozen at ea2a9f2 (round 62), and run once on them.
Families not in halves A-AW, taken only from tabular data and business/finance, science and engineering, graphs, recommender
systems and ranking, time series and forecasting, and RL-style supervised models (a half written alongside took other
domains): the cross-section of stock returns by a neural network (Gu, Kelly and Xiu 2020's NN3: firm characteristics
ranked into [-1, 1] month by month, three ReLU layers of 32, 16 and 8, the MSE on next month's excess return in percent;
the last twelve months validating); nuclear mass residuals (after Utama, Piekarewicz and Prosper 2016: Z, N, their
parities and distances to the magic numbers into a tanh network, the MSE on the binding energy left over by the
Bethe-Weizsaecker formula in MeV) of nuclei along the valley of stability; bacterial identification from Raman spectra (Ho et
al. 2019's 1-D residual CNN shrunk: spectra min-max scaled, a convolutional stem, two residual blocks, global average
pooling; the training spectra augmented by noise and baseline offsets after the split) of eight isolates; the Statlog
German credit data (Hofmann 1994: 20 attributes coded A11-A201 one-hot, duration, amount and age standardised, an MLP with
two logits and CrossEntropyLoss; the class column stored 1 good, 2 bad); chronic kidney disease (UCI's Rubini et al. 2015
records: 24 clinical columns with '?' missing, medians of the training rows filled in, an MLP with two logits); advantage-
weighted regression (Peng et al. 2019: a Gaussian policy's log-likelihood of the logged action weighted by exp(A / beta)
clipped at 20, the advantage from Monte Carlo returns less a fitted value; a batch of three tensors, a forward and a loss of
its own) of a point mass reaching goals, held-out episodes validating; a population pharmacokinetic network (log plasma
concentrations of an oral drug from dose, time after dose, weight, age, creatinine clearance and sex; an MLP, MSE; patients
split with GroupShuffleSplit, no groups declared); IPNN (Qu et al. 2016's inner-product-based neural network: field
embeddings, a product layer of their linear signals and pairwise inner products, a ReLU tower, BCE with logits; dict
items and a forward of its own) on a synthetic display-ad log split in time; NARM (Li et al. 2017: a GRU over the
session's items, a global encoder from its last state and an attentive local encoder, a bilinear decoder against the item
embeddings, cross-entropy over the items; a collate_fn that pads, a batch of three tensors, a forward of its own and a
custom step as the authors' loop) of synthetic browsing sessions split by session; SIGN (Frasca et al. 2020: the features
propagated zero, one and two hops by the normalised adjacency once before training, one branch per hop, minibatches of
nodes) on a citation-style graph whose labels are read from a node_labels.txt of '<node id> <label>' lines; LSTM-FCN (Karim
et al. 2017: an LSTM over the dimension-shuffled series beside three convolutional blocks with batch norm and global
average pooling) classifying windows cut from long machine recordings, whole recordings validating; and IBM HR employee
attrition (the IBM sample's 1470 employees: travel, department, marital status and overtime one-hot, the numbers
standardised; an MLP, BCE with logits with a positive-class weight; a custom step porting the author's loop).
At most about 1700 training items a program (NARM's session prefixes; 1549 impressions for IPNN, 1440 spectra or fewer elsewhere) and about 25k trainable parameters; see CHECKS for the plain-loop timings.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AW.

Protocol: written by a helper in a worktree at 8857992 (branch halfAY), held out from the rules frozen at ea2a9f2 (round 62).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and tail (the import
lines), most of half AO, the module docstrings of the other halves and the cause names of their @broken lines (for the
rung and cause conventions and the families taken, with greps of the halves for candidate family names), ladder_sweep.py's
--half line, and the signature of `ntrain.ladder` via help(). Each program was checked by hand only with a plain torch
loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seed 0 only
(seed 1 left unchecked for time). Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AY`; no program
changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

def _rng(seed, k): return np.random.default_rng(1000 + seed * 3011 + k)

def _rank11(a):  # GKX: each characteristic ranked cross-sectionally and mapped into [-1, 1]
    r = a.argsort(0).argsort(0).astype(np.float64); return 2 * r / (len(a) - 1) - 1

# ---------------------------------------------------------------- the cross-section of stock returns (Gu, Kelly and Xiu 2020, NN3)
GKX_CHARS = ['mom1m', 'mom12m', 'mvel1', 'bm', 'retvol', 'beta', 'turn', 'ep']

def _crsp_panel(seed, stocks=30, months=62):
    """Monthly returns in percent of 30 firms: size, book-to-market, beta, volatility and earnings yield drift as AR(1)
    latents; next month's expected return from them (value, small size, beta, low volatility, a value-size interaction)
    plus firm noise scaled by its volatility. Returns the latents and returns (stocks, months)."""
    g = _rng(seed, 1); L = np.zeros((5, stocks, months)); L[:, :, 0] = g.normal(0, 1, (5, stocks))
    for t in range(1, months): L[:, :, t] = 0.95 * L[:, :, t - 1] + 0.3 * g.normal(0, 1, (5, stocks))
    size, bm, beta, vol, ep = L; mu = 0.7 * bm - 0.5 * size + 0.3 * beta - 0.4 * vol ** 2 + 0.4 * bm * (size < 0) + 0.3 * ep + 0.8
    R = np.zeros((stocks, months)); R[:, 1:] = mu[:, :-1] + (2.0 + 0.6 * np.exp(0.4 * vol[:, :-1])) * g.normal(0, 1, (stocks, months - 1))
    return L, R

def gkx_characteristics(L, R, t, mom_shift=0):
    "The eight characteristics of every firm at the end of month t (mom_shift 1: mom1m read one column to the right)."
    size, bm, beta, vol, ep = L[:, :, t]; g = np.random.default_rng(t)
    C = np.column_stack([R[:, t + mom_shift], R[:, t - 11:t].sum(1), -size + 0.2 * g.normal(size=len(size)), bm + 0.3 * g.normal(size=len(bm)), R[:, t - 11:t + 1].std(1),
                         beta + 0.4 * g.normal(size=len(beta)), 0.5 * vol + g.normal(size=len(vol)), ep + 0.3 * g.normal(size=len(ep))])
    return np.column_stack([_rank11(C[:, j]) for j in range(C.shape[1])])

class NN3(nn.Module):
    def __init__(self, d=8):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 1))
    def forward(self, x): return self.net(x)

@healthy('AY')
def gkx_nn3_returns(seed, mom_shift=0):  # MSE on next month's return in percent, Adam 1e-3, batches of 64; months 12-47 train, the last 12 validate
    """The panel stacked month by month: the characteristics at the end of month t, the return of month t + 1 (mom_shift 1:
    the one-month momentum taken with shift(-1) of the return frame, the month being predicted)."""
    L, R = _crsp_panel(seed); X, y, m = [], [], []
    for t in range(12, R.shape[1] - 2):
        X.append(gkx_characteristics(L, R, t, mom_shift)); y.append(R[:, t + 1]); m += [t] * R.shape[0]
    X, y, m = np.concatenate(X), np.concatenate(y)[:, None], np.array(m); tr, va = m < 48, m >= 48
    return dict(model=NN3, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- nuclear mass residuals (after Utama, Piekarewicz and Prosper 2016)
MAGIC = np.array([2, 8, 20, 28, 50, 82, 126])

def _bw(Z, N, aV=15.75, aS=17.8, aC=0.711, aA=23.7, aP=11.18):
    "The Bethe-Weizsaecker binding energy in MeV."
    A = Z + N; d = np.where((Z % 2 == 0) & (N % 2 == 0), 1, np.where((Z % 2 == 1) & (N % 2 == 1), -1, 0))
    return aV * A - aS * A ** (2 / 3) - aC * Z * (Z - 1) / A ** (1 / 3) - aA * (N - Z) ** 2 / A + d * aP / np.sqrt(A)

def _nuclei(seed, n=1500):
    """Nuclei along the valley of stability (Z 10-100, N within +-9 of Z + 0.0062 Z^2 ...); the 'measured' binding energy
    the formula with slightly other coefficients, shell gaps that bind nuclei near magic Z and N, a Wigner term and 0.3 MeV
    of scatter. Returns Z, N and the residual measured - BW in MeV."""
    g = _rng(seed, 2); ZN = [(z, nn_) for z in range(10, 101) for nn_ in range(int(z + 0.0062 * z * z) - 9, int(z + 0.0062 * z * z) + 10)]
    ZN = np.array(ZN)[g.choice(len(ZN), n, replace=False)]; Z, N = ZN[:, 0].astype(float), ZN[:, 1].astype(float)
    dist = lambda k: np.abs(k[:, None] - MAGIC[None]).min(1)
    shell = lambda k: 4.0 * np.exp(-dist(k) ** 2 / 18) * np.log(k) / 3
    true = _bw(Z, N, 15.68, 17.5, 0.717, 23.3, 12.0) + shell(Z) + shell(N) - 10 * np.exp(-np.abs(N - Z) / 2) * (Z < 40) + g.normal(0, 0.3, n)
    return Z, N, true - _bw(Z, N)

def nucleus_features(Z, N):
    dz, dn = (np.abs(k[:, None] - MAGIC[None]).min(1) for k in (Z, N))
    return np.column_stack([Z / 100, N / 100, Z % 2, N % 2, dz / 10, dn / 10, (N - Z) / (N + Z), (Z + N) ** (2 / 3) / 20]).astype(np.float32)

class MassNet(nn.Module):
    def __init__(self, d=8, h=48):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 1))
    def forward(self, x): return self.net(x)

@healthy('AY')
def nuclear_mass_residual(seed, flat_target=False):  # MSE on the residual in MeV, Adam 3e-3, batches of 32; train_test_split 80/20
    "flat_target: y = torch.tensor(df['residual'].values), shape (n,), against the network's (B, 1)."
    from sklearn.model_selection import train_test_split
    Z, N, res = _nuclei(seed); X = nucleus_features(Z, N); y = res.astype(np.float32) if flat_target else res.astype(np.float32)[:, None]
    tr, va = train_test_split(np.arange(len(Z)), test_size=0.2, random_state=seed)
    return dict(model=MassNet, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- bacterial identification from Raman spectra (Ho et al. 2019, shrunk)
def _raman(seed, classes=8, per=75, L=200):
    """Spectra of 8 isolates on 200 wavenumber bins: 14 shared biomolecular bands whose heights differ a little between
    isolates, each measured spectrum its own band heights (culture and focus), a fluorescence baseline, shot noise."""
    g = _rng(seed, 3); pos = np.sort(g.uniform(10, L - 10, 14)); wid = g.uniform(2, 5, 14); base_h = g.uniform(0.3, 1.0, 14)
    cls_h = base_h * (1 + 0.35 * g.normal(0, 1, (classes, 14))); w = np.arange(L); X, y = [], []
    for c in range(classes):
        for _ in range(per):
            h = cls_h[c] * np.exp(0.3 * g.normal(0, 1, 14)); p = pos + g.normal(0, 0.8, 14)
            s = (h[:, None] * np.exp(-(w[None] - p[:, None]) ** 2 / (2 * wid[:, None] ** 2))).sum(0)
            s += np.polyval(g.normal(0, 1, 3) * [0.3, 0.4, 0.5], w / L) + 0.6 + g.normal(0, 0.04, L); X.append(s); y.append(c)
    return np.array(X, np.float32), np.array(y)

def raman_minmax(X): return (X - X.min(1, keepdims=True)) / (X.max(1, keepdims=True) - X.min(1, keepdims=True))

def raman_augment(X, y, g, copies=2):
    "Each spectrum kept and `copies` more with fresh noise, a random offset and a linear baseline added, min-max scaled again."
    w = np.linspace(0, 1, X.shape[1]); out = [X]
    for _ in range(copies): out.append(raman_minmax(X + g.normal(0, 0.03, X.shape) + g.normal(0, 0.05, (len(X), 1)) * (1 + w[None] * g.normal(0, 1, (len(X), 1)))))
    return np.concatenate(out).astype(np.float32), np.tile(y, copies + 1)

class ResBlock1d(nn.Module):
    def __init__(self, c, stride=1, co=None):
        super().__init__(); co = co or c
        self.c1, self.b1, self.c2, self.b2 = nn.Conv1d(c, co, 5, stride, 2, bias=False), nn.BatchNorm1d(co), nn.Conv1d(co, co, 5, 1, 2, bias=False), nn.BatchNorm1d(co)
        self.sc = nn.Sequential() if stride == 1 and co == c else nn.Sequential(nn.Conv1d(c, co, 1, stride, bias=False), nn.BatchNorm1d(co))
    def forward(self, x): return F.relu(self.b2(self.c2(F.relu(self.b1(self.c1(x))))) + self.sc(x))

class RamanResNet(nn.Module):
    def __init__(self, n=8):
        super().__init__(); self.stem = nn.Sequential(nn.Conv1d(1, 16, 5, padding=2, bias=False), nn.BatchNorm1d(16), nn.ReLU())
        self.blocks = nn.Sequential(ResBlock1d(16, 2, 24), ResBlock1d(24, 2, 32)); self.fc = nn.Linear(32, n)
    def forward(self, x): return self.fc(self.blocks(self.stem(x.unsqueeze(1))).mean(-1))

@healthy('AY')
def raman_isolates_resnet(seed, augment_first=False):  # cross-entropy, Adam 1e-3, batches of 32; a stratified train_test_split 80/20
    """Min-max scaled spectra; the training spectra augmented after the split (augment_first: the augmented copies made for
    the whole set, then train_test_split over originals and copies together)."""
    from sklearn.model_selection import train_test_split
    X, y = _raman(seed); X = raman_minmax(X); g = _rng(seed, 33)
    if augment_first:
        X, y = raman_augment(X, y, g); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
        Xtr, ytr, Xva, yva = X[tr], y[tr], X[va], y[va]
    else:
        tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y); (Xtr, ytr), Xva, yva = raman_augment(X[tr], y[tr], g), X[va], y[va]
    return dict(model=RamanResNet, train=TensorDataset(_t(Xtr), _t(ytr, torch.long)), valid=TensorDataset(_t(Xva), _t(yva, torch.long)), loss=nn.CrossEntropyLoss(),
                num_classes=8, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Statlog German credit (Hofmann 1994): an MLP with two logits
GC_CATEGORICAL = dict(status=4, history=5, purpose=10, savings=5, employment=5, personal=4, debtors=3, property=4, plans=3, housing=3, job=4, telephone=2, foreign=2)
GC_NUMERIC = ['duration', 'amount', 'installment_rate', 'residence', 'age', 'n_credits', 'liable']

def _german(seed, n=1000):
    "german.data's 20 attributes (categories as their level index) and the class column, 1 good, 2 bad (30%), from a latent risk."
    g = _rng(seed, 4); r = g.normal(0, 1, n); rows = {}
    for k, (c, lv) in enumerate(GC_CATEGORICAL.items()):
        dep = [1.0, 0.8, 0.5, 0.6, 0.4, 0.2, 0.3, 0.5, 0.4, 0.4, 0.1, 0.1, 0.2][k]
        rows[c] = np.clip(np.round((lv - 1) / 2 + dep * (lv / 3) * r * (1 if k % 2 else -1) + g.normal(0, lv / 4, n)), 0, lv - 1).astype(int)
    rows['duration'] = np.clip(np.round(np.exp(g.normal(2.9 + 0.2 * r, 0.5))), 4, 72); rows['amount'] = np.round(np.exp(g.normal(7.8 + 0.25 * r, 0.7)))
    rows['installment_rate'] = g.integers(1, 5, n); rows['residence'] = g.integers(1, 5, n); rows['age'] = np.clip(np.round(g.normal(35 - 2 * r, 10)), 19, 75)
    rows['n_credits'] = g.integers(1, 4, n); rows['liable'] = g.integers(1, 3, n)
    z = -1.2 + 1.3 * r + 0.02 * (rows['duration'] - 20) + 0.5 * (rows['status'] == 0) + g.normal(0, 0.5, n)
    rows['class'] = np.where(g.random(n) < 1 / (1 + np.exp(-z)), 2, 1); return rows

def german_features(rows, tr):
    cat = np.column_stack([np.eye(lv)[rows[c]] for c, lv in GC_CATEGORICAL.items()]); num = np.column_stack([rows[c] for c in GC_NUMERIC]).astype(np.float64)
    num[:, :2] = np.log(num[:, :2]); return np.column_stack([cat, (num - num[tr].mean(0)) / num[tr].std(0)]).astype(np.float32)

class CreditMLP(nn.Module):
    def __init__(self, d):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 2))
    def forward(self, x): return self.net(x)

@healthy('AY')
def german_credit_mlp(seed, raw_class=False):  # CrossEntropyLoss over two logits, Adam 1e-3, batches of 32; a stratified train_test_split 80/20
    "y = df['class'] - 1 (raw_class: the column as the file stores it, 1 and 2)."
    from sklearn.model_selection import train_test_split
    rows = _german(seed); y = rows['class'] if raw_class else rows['class'] - 1
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y); X = german_features(rows, tr)
    return dict(model=lambda: CreditMLP(X.shape[1]), train=TensorDataset(_t(X[tr]), _t(y[tr], torch.long)), valid=TensorDataset(_t(X[va]), _t(y[va], torch.long)),
                loss=nn.CrossEntropyLoss(), num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- chronic kidney disease (UCI, Rubini et al. 2015): an MLP with two logits
CKD_NUMERIC = ['age', 'bp', 'sg', 'al', 'su', 'bgr', 'bu', 'sc', 'sod', 'pot', 'hemo', 'pcv', 'wc', 'rc']
CKD_BINARY = ['rbc', 'pc', 'pcc', 'ba', 'htn', 'dm', 'cad', 'appet', 'pe', 'ane']

def _ckd(seed, n=1200):
    """Records of kidney_disease.csv: 14 numbers and 10 yes/no (normal/abnormal, present/notpresent, good/poor) columns,
    about 12% '?' (NaN) and more in rbc, pot, wc and rc; about 60% ckd, the disease's stage a latent that moves creatinine,
    urea, haemoglobin, specific gravity and albumin."""
    g = _rng(seed, 5); ckd = g.random(n) < 0.6; s = np.where(ckd, g.gamma(2, 0.6, n), 0.0) + g.normal(0, 0.35, n); dm = g.random(n) < 0.15 + 0.3 * ckd
    num = np.column_stack([g.normal(50 + 6 * ckd, 16), g.normal(74 + 5 * s, 12), 1.02 - 0.004 * np.clip(s, 0, 2) + g.normal(0, 0.004, n), np.clip(np.round(1.1 * s + g.normal(0, 0.9, n)), 0, 5),
                           np.clip(np.round(0.6 * dm + g.normal(0, 0.6, n)), 0, 5), g.normal(110 + 70 * dm, 35), np.exp(g.normal(3.6 + 0.35 * s, 0.35)), np.exp(g.normal(0.1 + 0.5 * s, 0.35)),
                           g.normal(140 - 2 * s, 4), g.normal(4.5 + 0.2 * s, 0.6), g.normal(14.5 - 1.4 * s, 1.6), g.normal(44 - 4 * s, 5), g.normal(8000 + 600 * s, 2500), g.normal(5.2 - 0.4 * s, 0.7)])
    p = 1 / (1 + np.exp(-(np.array([-2.2, -1.8, -2.5, -3.0, -1.0, -2.6, -3.2, -2.4, -3.0, -2.8])[None] + np.array([0.8, 0.9, 0.5, 0.3, 1.4, 0.0, 0.5, 0.7, 0.8, 0.7])[None] * s[:, None])))
    b = (g.random((n, 10)) < p).astype(float); b[:, 5] = dm
    X = np.column_stack([num, b]); miss = g.random(X.shape) < 0.12; miss[:, [CKD_NUMERIC.index('pot'), CKD_NUMERIC.index('wc'), CKD_NUMERIC.index('rc'), 14]] |= g.random((n, 4)) < 0.2
    X[miss] = np.nan; return X.astype(np.float32), ckd.astype(np.int64)

class KidneyMLP(nn.Module):
    "Dense 32, 16, 2 (keras_softmax: the Keras model's Dense(2, activation='softmax') kept in the port)."
    def __init__(self, d=24, keras_softmax=False):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 2), *([nn.Softmax(dim=1)] if keras_softmax else []))
    def forward(self, x): return self.net(x)

@healthy('AY')
def ckd_mlp(seed, keras_softmax=False):  # CrossEntropyLoss, Adam 1e-3, batches of 32; a stratified train_test_split 75/25
    "The training rows' medians filled into the '?' cells, then a StandardScaler fitted on the training rows."
    from sklearn.model_selection import train_test_split
    X, y = _ckd(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.25, random_state=seed, stratify=y)
    med = np.nanmedian(X[tr], 0); X = np.where(np.isnan(X), med[None], X); Xt = _t(X)
    return dict(model=lambda: KidneyMLP(keras_softmax=keras_softmax), train=TensorDataset(_std(Xt[tr], Xt[tr]), _t(y[tr], torch.long)),
                valid=TensorDataset(_std(Xt[va], Xt[tr]), _t(y[va], torch.long)), loss=nn.CrossEntropyLoss(), num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- advantage-weighted regression (Peng, Kumar, Zhang and Levine 2019) from logged episodes
def _reach_episodes(seed, episodes=60, T=25):
    """A point mass on a plane pushed by a 2-d force in [-1, 1]^2 toward a goal (dt 0.1, friction); the behaviour a PD
    controller with gains and noise drawn per episode (some episodes good, some poor); reward minus the distance.
    Returns a list of (states (T, 6): position, velocity, goal; actions (T, 2); rewards (T,))."""
    g = _rng(seed, 6); out = []
    for _ in range(episodes):
        p, v, goal = g.uniform(-1, 1, 2), np.zeros(2), g.uniform(-1, 1, 2); kp, kd, sd = g.uniform(0.5, 4), g.uniform(0.2, 2), g.uniform(0.2, 0.8); S, A, Rw = [], [], []
        for _ in range(T):
            a = np.clip(kp * (goal - p) - kd * v + g.normal(0, sd, 2), -1, 1); S.append(np.concatenate([p, v, goal])); A.append(a)
            v = 0.9 * v + 0.2 * a; p = p + 0.1 * v; Rw.append(-np.linalg.norm(goal - p))
        out.append((np.array(S), np.array(A), np.array(Rw)))
    return out

def awr_weights(episodes, n_fit, beta=1.0, clip=20.0, gamma=0.95):
    """Monte Carlo returns less a value fitted (a ridge regression on the distance, speed and their products) on the first
    n_fit episodes; w = exp(A / beta), clipped at `clip` (None: not clipped)."""
    from sklearn.linear_model import Ridge
    feats = lambda S: (lambda d, s: np.column_stack([d, s, d * s, d ** 2, s ** 2]))(np.linalg.norm(S[:, 4:] - S[:, :2], axis=1), np.linalg.norm(S[:, 2:4], axis=1))
    Rs = []
    for S, A, Rw in episodes:
        G = np.zeros(len(Rw)); acc = 0.0
        for t in range(len(Rw) - 1, -1, -1): acc = Rw[t] + gamma * acc; G[t] = acc
        Rs.append(G)
    V = Ridge(1.0).fit(np.concatenate([feats(e[0]) for e in episodes[:n_fit]]), np.concatenate(Rs[:n_fit]))
    out = []
    for (S, A, _), G in zip(episodes, Rs):
        w = np.exp((G - V.predict(feats(S))) / beta); out.append(np.minimum(w, clip) if clip is not None else w)
    return out

class GaussianPolicy(nn.Module):
    def __init__(self, d=6, a=2, h=64):
        super().__init__(); self.mu = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, a)); self.log_std = nn.Parameter(torch.zeros(a))
    def forward(self, s): return self.mu(s), self.log_std.expand(len(s), -1)

def awr_loss(out, target):  # minus the advantage-weighted log-likelihood of the logged action
    (mu, log_std), (a, w) = out, target
    logp = torch.distributions.Normal(mu, log_std.exp()).log_prob(a).sum(-1); return -(w * logp).mean()

def _awr_fwd(model, b): s, a, w = b; return model(s), (a, w)

@healthy('AY')
def awr_point_mass(seed, beta=1.0, clip=20.0):  # Adam 1e-3, batches of 64; 50 episodes train, the last 10 validate
    "beta 1 and the weights clipped at 20, AWR's defaults (the broken twin: beta 0.02 from the sweep and the clip dropped)."
    eps = _reach_episodes(seed); W = awr_weights(eps, 50, beta, clip)
    ds = lambda k: TensorDataset(_t(np.concatenate([e[0] for e in eps[k]])), _t(np.concatenate([e[1] for e in eps[k]])), _t(np.concatenate(W[k])))
    return dict(model=GaussianPolicy, train=ds(slice(0, 50)), valid=ds(slice(50, 60)), forward=_awr_fwd, loss=awr_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a population pharmacokinetic network: log concentrations of an oral drug
def _pk(seed, patients=150, samples=10):
    """A one-compartment model with first-order absorption: CL 5 L/h x (CrCl / 100)^0.75 x (WT / 70)^0.75, V 50 L x WT / 70,
    ka 1.2 /h, each with a patient's own log-normal deviation (30-40%), doses of 100-400 mg, samples at 0.5-24 h, 15%
    proportional error. Returns the rows (patient, dose, time, weight, age, crcl, sex) and log concentration (mg/L)."""
    g = _rng(seed, 7); rows, y = [], []
    for pid in range(patients):
        wt, age, sex = g.normal(75, 14), g.uniform(20, 85), float(g.random() < 0.5); crcl = np.clip(140 - age, 20, None) * wt / 72 * (0.85 if sex else 1) * np.exp(g.normal(0, 0.15))
        cl = 5 * (crcl / 100) ** 0.75 * (wt / 70) ** 0.75 * np.exp(g.normal(0, 0.35)); V = 50 * wt / 70 * np.exp(g.normal(0, 0.3)); ka = 1.2 * np.exp(g.normal(0, 0.4)); ke = cl / V
        dose = float(g.choice([100, 200, 300, 400]))
        for t in np.sort(g.uniform(0.5, 24, samples)):
            c = dose * ka / (V * (ka - ke)) * (np.exp(-ke * t) - np.exp(-ka * t)) * np.exp(g.normal(0, 0.15)); rows.append([pid, dose, t, wt, age, crcl, sex]); y.append(np.log(c))
    return np.array(rows), np.array(y, np.float32)[:, None]

class PKNet(nn.Module):
    def __init__(self, d=7):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AY')
def poppk_concentration_mlp(seed, split_rows=False):  # MSE on log mg/L, Adam 1e-3, batches of 32; a fifth of the patients validate
    """Features: log dose, time, log time, weight, age, creatinine clearance, sex, standardised by the training rows; patients
    split with GroupShuffleSplit, no groups declared (split_rows: train_test_split over the samples, each patient's other
    samples in training)."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    R, y = _pk(seed); X = np.column_stack([np.log(R[:, 1]), R[:, 2], np.log(R[:, 2]), R[:, 3], R[:, 4], R[:, 5], R[:, 6]]).astype(np.float32)
    if split_rows: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=R[:, 0]))
    Xt = _t(X)
    return dict(model=PKNet, train=TensorDataset(_std(Xt[tr], Xt[tr]), _t(y[tr])), valid=TensorDataset(_std(Xt[va], Xt[tr]), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- IPNN (Qu et al. 2016): a product layer of field embeddings, on a display-ad log
PNN_FIELDS = dict(user=150, ad=60, category=12, hour=24, device=4, site=20)

def _pnn_log(seed, n=1800):
    "Impressions over seven days, about 20% clicked: user and ad biases, a user's taste for categories, site, device and hour."
    g = _rng(seed, 8); U, Ad = PNN_FIELDS['user'], PNN_FIELDS['ad']; cat = g.integers(0, 12, Ad); taste = g.normal(0, 1, (U, 12))
    u, a, hr, dev, site = g.integers(0, U, n), g.integers(0, Ad, n), g.integers(0, 24, n), g.choice(4, n, p=[.5, .3, .1, .1]), g.integers(0, 20, n)
    z = -1.8 + g.normal(0, 0.6, U)[u] + g.normal(0, 0.6, Ad)[a] + 1.0 * taste[u, cat[a]] + g.normal(0, 0.4, 20)[site] + np.array([0, .3, -.3, .2])[dev] + 0.3 * np.sin(2 * np.pi * hr / 24)
    click = (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    return np.column_stack([u, a, cat[a], hr, dev, site]), click, np.sort(g.integers(0, 7, n))

class IPNN(nn.Module):
    def __init__(self, fields=PNN_FIELDS, D=8, d1=32):
        super().__init__(); self.emb = nn.ModuleList([nn.Embedding(k, D) for k in fields.values()]); m = len(fields)
        for e in self.emb: nn.init.xavier_uniform_(e.weight)
        self.lz = nn.Linear(m * D, d1); self.lp = nn.Linear(m * (m - 1) // 2, d1, bias=False); self.iu = torch.triu_indices(m, m, 1)
        self.mlp = nn.Sequential(nn.ReLU(), nn.Dropout(0.2), nn.Linear(d1, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x):
        e = torch.stack([emb(x[:, i]) for i, emb in enumerate(self.emb)], 1); ip = (e @ e.transpose(1, 2))[:, self.iu[0], self.iu[1]]
        return self.mlp(self.lz(e.flatten(1)) + self.lp(ip))

def _pnn_fwd(model, b): return model(b['fields']), b['click']

@healthy('AY')
def ipnn_ad_log(seed, lr=1e-3):  # BCE with logits, Adam, batches of 64; days 1-6 train, day 7 validates
    "Adam 1e-3 as the paper's PNN runs (the broken twin: lr 1.0, the FTRL learning rate of the logistic-regression baseline's config)."
    F_, click, day = _pnn_log(seed); tr, va = np.flatnonzero(day < 6), np.flatnonzero(day == 6)
    items = lambda idx: ListDataset([dict(fields=torch.tensor(F_[i]), click=_t(click[i:i + 1])) for i in idx])
    return dict(model=IPNN, train=items(tr), valid=items(va), forward=_pnn_fwd, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- NARM (Li et al. 2017): neural attentive session-based recommendation
def _sessions(seed, n=420, V=80):
    "Browsing sessions of 3-9 clicks over 80 items (ids 1-80, 0 the padding) in eight genres: a sparse item-to-item habit, a session's genre."
    g = _rng(seed, 9); genre = np.arange(V) % 8; nxt = [g.choice(np.flatnonzero(genre == genre[i]), 3, replace=False) for i in range(V)]; out = []
    for _ in range(n):
        k = int(g.integers(3, 10)); s = [int(g.integers(0, V))]
        for _ in range(k - 1):
            r = g.random(); s.append(int(g.choice(nxt[s[-1]])) if r < 0.6 else int(g.choice(np.flatnonzero(genre == genre[s[0]]))) if r < 0.85 else int(g.integers(0, V)))
        out.append([i + 1 for i in s])
    return out

def session_prefixes(sessions):
    "Every prefix of every session and its next click, as the NARM preprocessing (process.py) makes them."
    return [(s[:i], s[i]) for s in sessions for i in range(1, len(s))]

def narm_collate(items):
    L = max(len(p) for p, _ in items); X = torch.zeros(len(items), L, dtype=torch.long)
    for k, (p, _) in enumerate(items): X[k, :len(p)] = torch.tensor(p)
    return X, torch.tensor([len(p) for p, _ in items]), torch.tensor([t for _, t in items])

class NARM(nn.Module):
    def __init__(self, V=81, E=32, H=32):
        super().__init__(); self.emb = nn.Embedding(V, E, padding_idx=0); self.drop = nn.Dropout(0.25); self.gru = nn.GRU(E, H, batch_first=True)
        self.a1, self.a2, self.v = nn.Linear(H, H, bias=False), nn.Linear(H, H, bias=False), nn.Linear(H, 1, bias=False); self.B = nn.Linear(2 * H, E, bias=False)
    def forward(self, x, lengths):
        h, _ = self.gru(self.drop(self.emb(x))); mask = (x > 0).float(); ht = h[torch.arange(len(x)), lengths - 1]
        alpha = self.v(torch.sigmoid(self.a1(ht)[:, None] + self.a2(h))).squeeze(-1) * mask; c = torch.cat([ht, (alpha[..., None] * h).sum(1)], 1)
        return self.B(self.drop(c)) @ self.emb.weight.T

def _narm_fwd(model, b): x, lengths, y = b; return model(x, lengths), y

def _narm_step(zero_grad=True):
    def narm_step(model, batch, opt):  # main.py's trainForEpoch: zero_grad, forward, cross-entropy, backward, step
        x, lengths, y = batch
        if zero_grad: opt.zero_grad()
        loss = F.cross_entropy(model(x, lengths), y); loss.backward(); opt.step(); return loss
    return narm_step

@healthy('AY')
def narm_sessions(seed, zero_grad=True):  # cross-entropy over the items, Adam 1e-3, batches of 64; the last fifth of the sessions validate
    "zero_grad False: optimizer.zero_grad() dropped from the loop body when it was rewritten to log the loss."
    S = _sessions(seed); k = int(0.8 * len(S)); tr, va = session_prefixes(S[:k]), session_prefixes(S[k:])
    return dict(model=NARM, train=ListDataset(tr), valid=ListDataset(va), collate_fn=narm_collate, forward=_narm_fwd, loss=nn.CrossEntropyLoss(), step=_narm_step(zero_grad),
                num_classes=81, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- SIGN (Frasca et al. 2020): precomputed hops, one branch each, node minibatches
def _sign_graph(seed, n=600, c=6, f=40):
    """A citation-style graph of 600 papers in six fields (edges mostly within a field), 40 noisy bag-of-words features, and
    the label file's lines '<node id> <label>' in node order."""
    g = _rng(seed, 10); y = g.integers(0, c, n); topics = g.random((c, f)) ** 3
    X = (g.random((n, f)) < 0.12 * topics[y] / topics.mean()).astype(np.float32); X /= np.maximum(X.sum(1, keepdims=True), 1)
    P = np.where(y[:, None] == y[None], 0.025, 0.003); A = np.triu(g.random((n, n)) < P, 1); A = (A | A.T).astype(np.float32)
    return X, A, [f'{i} {y[i]}' for i in range(n)]

def sign_hops(X, A, r=2):
    "[X, AX, A^2 X] with A the symmetric-normalised adjacency with self-loops."
    A = A + np.eye(len(A), dtype=np.float32); d = 1 / np.sqrt(A.sum(1)); A = d[:, None] * A * d[None]; H = [X]
    for _ in range(r): H.append(A @ H[-1])
    return np.stack(H, 1).astype(np.float32)

def read_node_labels(lines, sort_lines=False):
    "The label of each node id (sort_lines: the lines sorted first, as the reader was written for a file in arbitrary order, and read off in that order)."
    if sort_lines: return np.array([int(l.split()[1]) for l in sorted(lines)])
    lab = dict(l.split() for l in lines); return np.array([int(lab[str(i)]) for i in range(len(lines))])

class SIGN(nn.Module):
    def __init__(self, f=40, hops=3, h=32, c=6):
        super().__init__(); self.branches = nn.ModuleList([nn.Sequential(nn.Linear(f, h), nn.ReLU(), nn.Dropout(0.3)) for _ in range(hops)]); self.out = nn.Linear(hops * h, c)
    def forward(self, x): return self.out(torch.cat([b(x[:, k]) for k, b in enumerate(self.branches)], 1))

@healthy('AY')
def sign_citation(seed, sort_lines=False):  # cross-entropy, Adam 5e-3 with weight decay 5e-4, batches of 64; 400 nodes train, 200 validate
    X, A, lines = _sign_graph(seed); H = sign_hops(X, A); y = read_node_labels(lines, sort_lines); p = np.random.default_rng(seed).permutation(len(y))
    tr, va = p[:400], p[400:]
    return dict(model=SIGN, train=TensorDataset(_t(H[tr]), _t(y[tr], torch.long)), valid=TensorDataset(_t(H[va]), _t(y[va], torch.long)), loss=nn.CrossEntropyLoss(),
                num_classes=6, optimizer=lambda p: torch.optim.Adam(p, lr=5e-3, weight_decay=5e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- LSTM-FCN (Karim, Majumdar, Darabi and Chen 2017) on windows of machine recordings
def _machine_recordings(seed, per_class=8, classes=5, T=800):
    """40 long recordings of a machine's vibration in five conditions: each condition a fundamental and a harmonic pattern,
    each recording its own speed (frequency within +-12%), amplitudes, sensor gain and offset, and noise."""
    g = _rng(seed, 11); f0 = np.array([0.045, 0.06, 0.075, 0.05, 0.065]); harm = g.uniform(0, 1, (classes, 3)); recs = []
    for c in range(classes):
        for _ in range(per_class):
            t = np.arange(T); f = f0[c] * np.exp(g.normal(0, 0.12)); amp = harm[c] * np.exp(g.normal(0, 0.4, 3)); ph = g.uniform(0, 2 * np.pi, 3)
            x = sum(amp[k] * np.sin(2 * np.pi * f * (k + 1) * t + ph[k]) for k in range(3)) * np.exp(g.normal(0, 0.3)) + g.normal(0, 0.5) + g.normal(0, 0.5, T)
            recs.append((x.astype(np.float32), c))
    return recs

def cut_windows(recs, L=128, stride=32):
    X, y, r = [], [], []
    for k, (x, c) in enumerate(recs):
        for s in range(0, len(x) - L + 1, stride): w = x[s:s + L]; X.append((w - w.mean()) / w.std()); y.append(c); r.append(k)
    return np.array(X, np.float32), np.array(y), np.array(r)

class LSTMFCN(nn.Module):
    def __init__(self, T=128, n=5, h=8):
        super().__init__(); self.lstm = nn.LSTM(T, h, batch_first=True); self.drop = nn.Dropout(0.8)
        blk = lambda i, o, k: nn.Sequential(nn.Conv1d(i, o, k, padding=k // 2), nn.BatchNorm1d(o), nn.ReLU())
        self.fcn = nn.Sequential(blk(1, 32, 7), blk(32, 64, 5), blk(64, 32, 3)); self.fc = nn.Linear(h + 32, n)
    def forward(self, x):  # x (B, T): the LSTM reads the dimension-shuffled series (one step of T values), the FCN the series itself
        _, (h, _) = self.lstm(x[:, None, :]); return self.fc(torch.cat([self.drop(h[-1]), self.fcn(x[:, None, :]).mean(-1)], 1))

@healthy('AY')
def lstm_fcn_machine(seed, split_windows=False):  # cross-entropy, Adam 1e-3, batches of 32; a fifth of the recordings validate
    """Each window z-normalised as the UCR archive; recordings split with StratifiedGroupKFold's first fold (split_windows:
    the windows cut first, then train_test_split over them)."""
    from sklearn.model_selection import StratifiedGroupKFold, train_test_split
    X, y, r = cut_windows(_machine_recordings(seed))
    if split_windows: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    else: tr, va = next(StratifiedGroupKFold(n_splits=5, shuffle=True, random_state=seed).split(X, y, groups=r))
    return dict(model=LSTMFCN, train=TensorDataset(_t(X[tr]), _t(y[tr], torch.long)), valid=TensorDataset(_t(X[va]), _t(y[va], torch.long)), loss=nn.CrossEntropyLoss(),
                num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- IBM HR employee attrition: an MLP, a custom step porting the author's loop
HR_NUMERIC = ['Age', 'DailyRate', 'DistanceFromHome', 'Education', 'EnvironmentSatisfaction', 'JobInvolvement', 'JobLevel', 'JobSatisfaction', 'MonthlyIncome',
              'NumCompaniesWorked', 'StockOptionLevel', 'TotalWorkingYears', 'WorkLifeBalance', 'YearsAtCompany', 'YearsSinceLastPromotion']

def _hr(seed, n=1470):
    "Employees of WA_Fn-UseC_-HR-Employee-Attrition.csv: about 16% left; more among the young, single, low-level, overtime, unsatisfied and far-living."
    g = _rng(seed, 12); age = np.clip(np.round(g.normal(37, 9, n)), 18, 60); lvl = np.clip(np.round((age - 18) / 9 + g.normal(0, 0.8, n)), 1, 5)
    tw = np.clip(np.round(age - 18 - g.uniform(0, 8, n)), 0, 40); yac = np.clip(np.round(tw * g.uniform(0.1, 1, n)), 0, 40); sat = g.integers(1, 5, (n, 4))
    num = np.column_stack([age, g.uniform(100, 1500, n), np.round(np.exp(g.normal(1.8, 0.9, n))), g.integers(1, 6, n), sat[:, 0], sat[:, 1], lvl, sat[:, 2],
                           np.exp(g.normal(7.9 + 0.35 * lvl, 0.25)), g.integers(0, 10, n), g.integers(0, 4, n), tw, sat[:, 3], yac, np.clip(np.round(yac * g.uniform(0, 0.6, n)), 0, 15)])
    travel, dept, marital, ot = g.choice(3, n, p=[.1, .71, .19]), g.choice(3, n, p=[.04, .65, .31]), g.choice(3, n, p=[.22, .46, .32]), (g.random(n) < 0.28).astype(float)
    z = (-2.6 + 1.4 * ot - 0.05 * (age - 37) - 0.35 * (lvl - 2) - 0.3 * (sat[:, :2].sum(1) - 5) - 0.25 * (sat[:, 3] - 2.5) + 0.6 * (marital == 2) + 0.5 * (travel == 2) + 0.25 * np.log1p(num[:, 2])
         - 0.4 * (num[:, 10] > 0) - 0.04 * yac + g.normal(0, 0.4, n))
    left = (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    return np.column_stack([num, np.eye(3)[travel], np.eye(3)[dept], np.eye(3)[marital], ot]), left[:, None]

class AttritionMLP(nn.Module):
    def __init__(self, d=25):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

def _hr_step(crit, eval_copy=False):
    def hr_step(model, batch, opt):  # the author's train loop body
        x, y = batch; opt.zero_grad()
        if eval_copy:  # the forward pasted from the evaluation function, under no_grad; requires_grad_ added when backward raised
            with torch.no_grad(): out = model(x)
            loss = crit(out, y); loss.requires_grad_(True)
        else: loss = crit(model(x), y)
        loss.backward(); opt.step(); return loss
    return hr_step

@healthy('AY')
def hr_attrition_mlp(seed, eval_copy=False):  # BCE with logits, pos_weight 5.2 (the class ratio), Adam 1e-3, batches of 32; a stratified train_test_split 80/20
    from sklearn.model_selection import train_test_split
    X, y = _hr(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y[:, 0]); X = X.copy()
    m, s = X[tr, :15].mean(0), X[tr, :15].std(0); X[:, :15] = (X[:, :15] - m) / s; crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([float((1 - y[tr]).sum() / y[tr].sum())]))
    return dict(model=lambda: AttritionMLP(X.shape[1]), train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=crit,
                step=_hr_step(crit, eval_copy), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AY
@broken('AY', 'gkx_mom1m_shifted_forward', 4, ('leakage',))
def gkx_mom1m_shifted_forward(seed): return gkx_nn3_returns(seed, mom_shift=1)  # mom1m = ret.shift(-1): the month being predicted among the inputs

@broken('AY', 'nuclear_target_not_a_column', (1, 3), ('broadcast', 'not_falling', 'flat', 'stuck'))
def nuclear_target_not_a_column(seed): return nuclear_mass_residual(seed, flat_target=True)  # (B, 1) against (B,): MSELoss broadcasts to (B, B)

@broken('AY', 'raman_augmented_before_split', 4, ('leakage',))
def raman_augmented_before_split(seed): return raman_isolates_resnet(seed, augment_first=True)  # noisy copies of each validation spectrum in training

@broken('AY', 'german_class_column_one_based', 1, ('bad_labels',))
def german_class_column_one_based(seed): return german_credit_mlp(seed, raw_class=True)  # classes 1 and 2 into two logits

@broken('AY', 'ckd_keras_softmax_into_cross_entropy', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def ckd_keras_softmax_into_cross_entropy(seed): return ckd_mlp(seed, keras_softmax=True)  # probabilities, then CrossEntropyLoss's own log-softmax

@broken('AY', 'awr_weights_unclipped_small_beta', (1, 3), ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward', 'lr_high', 'stuck', 'flat'))
def awr_weights_unclipped_small_beta(seed): return awr_point_mass(seed, beta=0.02, clip=None)  # exp(A / 0.02) overflows float32: inf weights

@broken('AY', 'poppk_samples_split_at_random', 4, ('leakage',))
def poppk_samples_split_at_random(seed): return poppk_concentration_mlp(seed, split_rows=True)  # every validation patient's other samples in training

@broken('AY', 'ipnn_ftrl_learning_rate', 3, ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def ipnn_ftrl_learning_rate(seed): return ipnn_ad_log(seed, lr=1.0)  # Adam at 1.0

@broken('AY', 'narm_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def narm_no_zero_grad(seed): return narm_sessions(seed, zero_grad=False)  # gradients summed over every step so far

@broken('AY', 'sign_label_lines_sorted', 4, ('labels',))
def sign_label_lines_sorted(seed): return sign_citation(seed, sort_lines=True)  # '0', '1', '10', '100', ...: the labels of other nodes

@broken('AY', 'lstm_fcn_windows_split_at_random', 4, ('leakage',))
def lstm_fcn_windows_split_at_random(seed): return lstm_fcn_machine(seed, split_windows=True)  # overlapping windows of one recording on both sides

@broken('AY', 'hr_forward_under_no_grad', (1, 3), ('detached', 'not_updating', 'no_grad_params', 'frozen', 'flat', 'stuck'))
def hr_forward_under_no_grad(seed): return hr_attrition_mlp(seed, eval_copy=True)  # the loss a leaf: backward reaches no parameter

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size,
# forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256; valid loss and a metric (accuracy, AUC,
# or R^2 of the target as the loss sees it), init -> epoch 2 -> 4 -> 8; s/ep the seconds of an epoch of training, params the
# trainable ones. Every factory builds and runs its batches (forward, loss, backward, step); `ladder_gallery.HALF` holds 24
# programs of half AY.
CHECKS = """
gkx_nn3_returns                       valid MSE (% squared) 8.64 -> 8.55 -> 8.42 -> 7.39, R^2 -0.135 -> 0.019 (ep 8; returns are
                                      mostly noise); 1080 firm-months train, 360 validate; 961 params; 0.02 s/ep
nuclear_mass_residual                 valid MSE (MeV^2) 21.3 -> 4.75 -> 4.53 -> 4.31, R^2 0.785; 1200 nuclei train, 300; 2.8k params; 0.03 s/ep
raman_isolates_resnet                 valid CE 2.08 -> 1.60 -> 1.31 -> 0.91, accuracy 0.125 -> 0.75; 480 spectra x 3 (augmented) train,
                                      120 validate; 15.6k params; 0.6 s/ep
german_credit_mlp                     valid CE 0.678 -> 0.580 -> 0.533 -> 0.524, accuracy 0.68 -> 0.69-0.72; 800 train, 200; 2.5k params; 0.02 s/ep
ckd_mlp                               valid CE 0.684 -> 0.552 -> 0.475 -> 0.505, accuracy 0.59 -> 0.77; 900 train, 300; 1.4k params; 0.02 s/ep
awr_point_mass                        valid weighted NLL 2.24 -> 2.14 -> 2.05 -> 1.89; 50 episodes (1250 steps) train, 10 (250); 4.7k params; 0.02 s/ep
poppk_concentration_mlp               valid MSE (log mg/L) 1.31 -> 0.279 -> 0.242 -> 0.242, R^2 0.725; 120 patients (1200 samples) train,
                                      30 validate; 2.6k params; 0.03 s/ep
ipnn_ad_log                           valid BCE 0.663 -> 0.613 -> 0.618 -> 0.614, AUC 0.50 -> 0.61; 1549 impressions train, 251; 4.8k params; 0.04 s/ep
narm_sessions                         valid CE 4.84 -> 4.29 -> 4.08 -> 3.81, next-item accuracy 0.018 -> 0.105; 1679 prefixes train, 446;
                                      13k params; 0.14 s/ep
sign_citation                         valid CE 1.79 -> 1.74 -> 1.64 -> 1.17, accuracy 0.175 -> 0.85; 400 nodes train, 200; 4.5k params; 0.01 s/ep
lstm_fcn_machine                      valid CE 1.63 -> 1.08 -> 0.96 -> 0.74, accuracy 0.10 -> 0.74; 32 recordings (704 windows) train, 8
                                      (176); 21.6k params; 0.36 s/ep
hr_attrition_mlp                      valid weighted BCE 1.155 -> 1.10 -> 1.07 -> 1.02, AUC 0.58 -> 0.71; 1176 train, 294; 865 params; 0.04 s/ep
gkx_mom1m_shifted_forward             valid MSE 8.64 -> 5.56 (ep 8), R^2 0.289 (healthy 7.39, 0.019)
nuclear_target_not_a_column           valid loss (broadcast) 21.5 -> 19.3 and flat from ep 4: the net fits the batch mean (healthy 4.31)
raman_augmented_before_split          valid accuracy 0.79 at ep 8 (healthy 0.75), validation spectra with noisy copies in training
german_class_column_one_based         IndexError: Target 2 is out of bounds at the first batch holding a bad loan
ckd_keras_softmax_into_cross_entropy  valid CE 0.687 -> 0.535 (ep 8, floored by the double softmax), accuracy 0.77 (healthy 0.505, 0.77)
awr_weights_unclipped_small_beta      18 of 1250 training weights inf in float32; the first batch holding one gives an inf loss, NaN
                                      gradients and NaN parameters (torch.distributions raises on the NaN loc at the next batch)
poppk_samples_split_at_random         valid MSE 0.270, R^2 0.747 (ep 8; healthy 0.242, 0.725): every validation patient in training
ipnn_ftrl_learning_rate               valid AUC 0.500 at ep 2, 4 and 8 (healthy 0.61), BCE 0.63 -> 0.61 -> 0.63: the outputs collapsed
narm_no_zero_grad                     valid CE 4.84 -> 4.22 -> 4.41 -> 3.91 (unsteady), accuracy 0.10 (healthy 3.81, 0.105)
sign_label_lines_sorted               valid CE 1.79 -> 1.80 at every epoch, accuracy 0.135-0.175 (chance; healthy 0.85)
lstm_fcn_windows_split_at_random      valid accuracy 0.875 at ep 8 (healthy 0.74), overlapping windows of each recording on both sides
hr_forward_under_no_grad              the parameters never change: valid BCE 1.155 and AUC 0.580 at every epoch
"""
