"""Half BA of the ladder's gallery: held out from the rules frozen at f42d296 (round 63), and run once on them.
Families not in halves A-AY, taken only from tabular data and business/finance, science and engineering, graphs, recommender
systems and ranking, time series and forecasting, and RL-style supervised models (a half written alongside took other
domains): biased matrix factorisation (Funk's SVD as Koren, Bell and Volinsky 2009: a global mean, user and item biases and
16-d factors, MSE on 1-5 star ratings, Adam with weight decay; raw user and item ids through sklearn's LabelEncoder, a
batch of three tensors and a forward of its own) on a MovieLens-like ratings log; HAR-RV volatility forecasting (Corsi
2009: the log realized variance of the day, the trailing week and the trailing month and the day's absolute return, a
small MLP for the next day's log RV; split in time) on a simulated heterogeneous-autoregressive series; TAGCN (Du et al.
2017: topology-adaptive graph convolutions, one linear map per hop 0-2 of the normalised adjacency, two layers; one
full-graph item, a forward of its own) naming the departments of employees in an email graph from the words of their
mail; a DeepMAge-style epigenetic clock (Galkin et al. 2021 after Horvath 2013: an ELU MLP with dropout from 200 CpG beta
values to Horvath's transformed age F(age), MSE; three tissues a donor, donors split with GroupShuffleSplit, no groups
declared); uplift modelling on Hillstrom's MineThatData e-mail campaign (the women's e-mail against no e-mail; the
transformed outcome of Athey and Imbens 2015, Y* = Y (T - e) / (e (1 - e)), regressed by an MLP with MSE); freezing-of-gait
detection (the Daphnet FoG layout, Baechlin et al. 2010: ankle, thigh and trunk accelerometers, 2-s windows with 75%
overlap, a small 1-D CNN, two classes; subjects held out) on simulated gait with trembling freezes; upside-down RL
(Srivastava et al. 2019 / Schmidhuber 2019: a behaviour function from the state and the command (desired return,
horizon), the command's embedding gating the state's multiplicatively, the cross-entropy over four moves of hindsight
commands from logged episodes; a batch of three tensors and a forward of its own) on a 5 x 5 gridworld, held-out episodes
validating; radar returns of the ionosphere (Sigillito et al. 1989, UCI: 17 pulses' complex autocorrelations in 34 columns,
the second always 0; StandardScaler, an MLP, BCE with logits); erythemato-squamous diseases (Guvenir et al. 1998, UCI
Dermatology: 12 clinical and 22 histopathological attributes graded 0-3, family history, age with '?' missing; six
classes stored 1-6; an MLP, cross-entropy); phishing websites (Mohammad, Thabtah and McCluskey 2012, UCI: 30 features in
{-1, 0, 1}, Result -1/1; an MLP, BCE with logits); DeepCpf1-style CRISPR guide activity (Kim et al. 2018: one-hot 34-mer
target sequences, a convolution, average pooling, dense layers with dropout, a sigmoid output of the indel frequency read
from a column in percent; MSE); and inflammatory bowel disease from the gut microbiome (16S OTU counts of 100 taxa, the
centred log-ratio with a pseudocount, an MLP with dropout, BCE with logits).
At most 1200 training items a program (1000 or fewer for most) and under 20k trainable parameters; an epoch of a plain loop
well under half a second on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AY.

Protocol: written by a helper in a worktree at b4b7960 (branch halfBA), held out from the rules of round 63 (frozen at
f42d296; the maintainer records the freeze hash in RESULTS.md). The helper read none of the ladder's rules (ntrain/ladder/*,
nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests or any sweep's results, and never ran the
ladder on these programs (no ntrain.ladder call, no bench/ladder_sweep.py, no CLI); it ran no git log. It read
bench/ladder_gallery.py's head, helpers and tail (the import lines), half AO (its structure and contract), the module
docstrings of the other halves and the @broken lines of all of them (for the rung and cause conventions and the families
taken, with greps of the halves for candidate family names), and ladder_sweep.py's --half line. Each program was checked by
hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are
broken as meant), seed 0 (and 1). No program declares groups. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half BA`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- biased matrix factorisation (Koren, Bell and Volinsky 2009) of star ratings
def _ratings(seed, users=150, items=120, n=1500):
    """A ratings log (user id, item id, stars 1-5) as MovieLens' ratings.csv: raw ids (user 'u' + number, item 'm' +
    number), each user a bias and taste factors, each item a bias and factors, active users and popular items rated more."""
    g = np.random.default_rng(1000 + seed * 3001)
    bu, bi = g.normal(0, 0.5, users), g.normal(0, 0.6, items); P, Q = g.normal(0, 0.45, (users, 4)), g.normal(0, 0.45, (items, 4))
    pu, pi = g.dirichlet(np.ones(users) * 2), g.dirichlet(np.ones(items) * 1.5)
    pairs = set()
    while len(pairs) < n: pairs.add((int(g.choice(users, p=pu)), int(g.choice(items, p=pi))))
    pairs = sorted(pairs, key=lambda _: g.random()); u, i = np.array(pairs).T
    r = np.clip(np.round(3.6 + bu[u] + bi[i] + (P[u] * Q[i]).sum(1) + g.normal(0, 0.6, n)), 1, 5)
    uid, mid = np.array([f'u{1000 + 7 * k}' for k in u]), np.array([f'm{50 + 3 * k}' for k in i])
    return uid, mid, r.astype(np.float32)

class BiasedMF(nn.Module):
    def __init__(self, n_users, n_items, mu, k=16):
        super().__init__(); self.P, self.Q = nn.Embedding(n_users, k), nn.Embedding(n_items, k); self.bu, self.bi = nn.Embedding(n_users, 1), nn.Embedding(n_items, 1)
        nn.init.normal_(self.P.weight, std=0.1); nn.init.normal_(self.Q.weight, std=0.1); nn.init.zeros_(self.bu.weight); nn.init.zeros_(self.bi.weight)
        self.register_buffer('mu', torch.tensor(float(mu)))
    def forward(self, u, i): return self.mu + self.bu(u).squeeze(-1) + self.bi(i).squeeze(-1) + (self.P(u) * self.Q(i)).sum(-1)

def _mf_fwd(model, b): u, i, r = b; return model(u, i), r

@healthy('BA')
def funk_mf_ratings(seed, refit_encoders=False):  # MSE, Adam 5e-3 with weight decay 1e-5, batches of 64; a random train_test_split 80/20
    """The LabelEncoders fitted on the whole ratings frame, then the split (refit_encoders: the validation frame's ids
    encoded by encoders fitted on it alone, `valid_df.user = LabelEncoder().fit_transform(valid_df.user)`, as the notebook's
    preprocessing cell was run on each frame)."""
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import LabelEncoder
    uid, mid, r = _ratings(seed); tr, va = train_test_split(np.arange(len(r)), test_size=0.2, random_state=seed)
    ue, me = LabelEncoder().fit(uid), LabelEncoder().fit(mid); nu, ni = len(ue.classes_), len(me.classes_)
    u, i = ue.transform(uid), me.transform(mid)
    if refit_encoders: uv, iv = LabelEncoder().fit_transform(uid[va]), LabelEncoder().fit_transform(mid[va])
    else: uv, iv = u[va], i[va]
    mu = float(r[tr].mean())
    ds = lambda a, b, c: TensorDataset(torch.as_tensor(a, dtype=torch.long), torch.as_tensor(b, dtype=torch.long), _t(c))
    return dict(model=lambda: BiasedMF(nu, ni, mu), train=ds(u[tr], i[tr], r[tr]), valid=ds(uv, iv, r[va]), forward=_mf_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-3, weight_decay=1e-5), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- HAR-RV (Corsi 2009): next-day log realized variance from the day, week and month
def _har_series(seed, n=1300):
    "Daily log RV following a heterogeneous AR (day, week, month) with a leverage term, and the daily returns it scales."
    g = np.random.default_rng(1000 + seed * 3011); lrv = np.full(n + 30, -9.5); ret = np.zeros(n + 30)
    for t in range(22, n + 30):
        d, w, m = lrv[t - 1], lrv[t - 5:t].mean(), lrv[t - 22:t].mean()
        lrv[t] = -0.6 + 0.36 * d + 0.28 * w + 0.3 * m + 0.25 * max(-ret[t - 1] / np.exp(lrv[t - 1] / 2), 0) + g.normal(0, 0.45)
        ret[t] = np.exp(lrv[t] / 2) * g.standard_t(5) / np.sqrt(5 / 3)
    return lrv[30:], ret[30:]

def _trailing_mean(x, w):
    c = np.cumsum(np.concatenate([[0.0], x])); out = np.full(len(x), np.nan); out[w - 1:] = (c[w:] - c[:-w]) / w; return out

class HARNet(nn.Module):
    def __init__(self, d=4, h=32):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))
    def forward(self, x): return self.net(x)

@healthy('BA')
def har_rv_mlp(seed, centered=False):  # MSE on the standardised next-day log RV, Adam 1e-3, batches of 32; the last 20% of days validate
    """RV_w and RV_m the trailing 5- and 22-day means of log RV (centered: np.convolve(x, np.ones(w) / w, mode='same'),
    which centres the window, the days ahead inside it)."""
    lrv, ret = _har_series(seed)
    if centered: wk, mo = (np.convolve(lrv, np.ones(w) / w, mode='same') for w in (5, 22))
    else: wk, mo = _trailing_mean(lrv, 5), _trailing_mean(lrv, 22)
    X = np.column_stack([lrv, wk, mo, np.abs(ret) / np.exp(lrv.mean() / 2)])[21:-1]; y = lrv[22:, None]
    k = int(len(y) * 0.8); Xt, yt = _t(X), _t(y)
    return dict(model=HARNet, train=TensorDataset(_std(Xt[:k], Xt[:k]), _std(yt[:k], yt[:k])), valid=TensorDataset(_std(Xt[k:], Xt[:k]), _std(yt[k:], yt[:k])),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- TAGCN (Du et al. 2017): departments in an email graph
def _email_graph(seed, n=300, c=6, f=80):
    """Employees (nodes) in six departments, edges where two of them exchanged mail (mostly within a department), each
    node the normalised bag of words of its mail (each department a vocabulary of its own over a shared one)."""
    g = np.random.default_rng(1000 + seed * 3019); y = g.integers(0, c, n)
    topic = g.random((c, f)) ** 4; x = g.poisson(0.6 * (0.3 + topic[y] / topic.mean()) * 0.4).astype(np.float32)
    x = x / np.maximum(x.sum(1, keepdims=True), 1)
    P = np.where(y[:, None] == y[None], 0.05, 0.006); a = np.triu(g.random((n, n)) < P, 1); a = (a | a.T).astype(np.float32)
    a = a + np.eye(n, dtype=np.float32); d = 1 / np.sqrt(a.sum(1)); adj = d[:, None] * a * d[None]
    p = g.permutation(n); tr, va = np.zeros(n, bool), np.zeros(n, bool); tr[p[:150]] = True; va[p[150:250]] = True
    return _t(x), _t(adj), torch.as_tensor(y, dtype=torch.long), torch.as_tensor(tr), torch.as_tensor(va)

class TAGConv(nn.Module):
    "sum_k A^k X W_k over the hops k = 0..K (plain_list: the per-hop maps kept in a Python list, not an nn.ModuleList)."
    def __init__(self, i, o, K=2, plain_list=False):
        super().__init__(); self.K = K
        lins = [nn.Linear(i, o, bias=False) for _ in range(K + 1)]
        self.lins = lins if plain_list else nn.ModuleList(lins)
        self.bias = nn.Parameter(torch.zeros(o))
    def forward(self, x, adj):
        out, h = self.lins[0](x), x
        for k in range(1, self.K + 1): h = adj @ h; out = out + self.lins[k](h)
        return out + self.bias

class TAGCN(nn.Module):
    def __init__(self, f=80, h=16, c=6, plain_list=False):
        super().__init__(); self.c1, self.c2 = TAGConv(f, h, plain_list=plain_list), TAGConv(h, c, plain_list=plain_list)
    def forward(self, x, adj): return self.c2(F.dropout(F.relu(self.c1(F.dropout(x, 0.5, self.training), adj)), 0.5, self.training), adj)

def _tagcn_fwd(model, b): x, adj, y, m = b; return model(x, adj)[m], y[m]

@healthy('BA')
def tagcn_email(seed, plain_list=False):  # cross-entropy on the labelled nodes, Adam 0.01 with weight decay 5e-4; 150 nodes train, 100 validate
    x, adj, y, tr, va = _email_graph(seed)
    return dict(model=lambda: TAGCN(plain_list=plain_list), train=DataLoader(OneItem(x, adj, y, tr), collate_fn=_one), valid=DataLoader(OneItem(x, adj, y, va), collate_fn=_one),
                forward=_tagcn_fwd, num_classes=6, optimizer=lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- a DeepMAge-style epigenetic clock: age from CpG beta values
def horvath_F(age, adult=20): return np.where(age <= adult, np.log(age + 1) - np.log(adult + 1), (age - adult) / (adult + 1))

def _methylation(seed, donors=300, cpgs=200):
    """Three tissues (blood, saliva, buccal swab) of each donor, aged 2-90: each CpG's logit beta drifts with F(age) (a
    fifth of the sites strongly), a tissue offset, and the donor's own offsets shared by all their tissues; array noise."""
    g = np.random.default_rng(1000 + seed * 3023); age = np.round(g.uniform(2, 90, donors)); base = g.normal(0, 1.5, cpgs)
    slope = g.normal(0, 0.08, cpgs) + (g.random(cpgs) < 0.2) * g.choice([-1, 1], cpgs) * g.uniform(0.25, 0.5, cpgs)
    tissue, donor = g.normal(0, 0.3, (3, cpgs)), g.normal(0, 0.35, (donors, cpgs)) + g.normal(0, 0.5, (donors, 1)) * slope
    X, y, grp = [], [], []
    for d in range(donors):
        for t in range(3):
            X.append(1 / (1 + np.exp(-(base + slope * horvath_F(age[d]) * 3 + tissue[t] + donor[d] + g.normal(0, 0.25, cpgs))))); y.append(horvath_F(age[d])); grp.append(d)
    return np.array(X, np.float32), np.array(y, np.float32)[:, None], np.array(grp)

class DeepMAge(nn.Module):
    def __init__(self, d=200):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ELU(), nn.Dropout(0.3), nn.Linear(64, 32), nn.ELU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('BA')
def epigenetic_clock(seed, split_samples=False):  # MSE on F(age), Adam 1e-3, batches of 32; a fifth of the donors validate
    """GroupShuffleSplit by donor (split_samples: train_test_split over the 900 samples, each donor's other tissues on the
    other side). Betas standardised per CpG by the training samples."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, y, grp = _methylation(seed)
    if split_samples: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=grp))
    Xt = _t(X)
    return dict(model=DeepMAge, train=TensorDataset(_std(Xt[tr], Xt[tr]), _t(y[tr])), valid=TensorDataset(_std(Xt[va], Xt[tr]), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- uplift on Hillstrom's MineThatData e-mail campaign: the transformed outcome (Athey and Imbens 2015)
def _hillstrom(seed, n=1200):
    """Customers of the women's e-mail and the no-e-mail arms (half each, randomised): recency 1-12, history in dollars,
    bought mens / womens, zip code (Urban, Suburban, Rural), newbie, channel (Phone, Web, Multichannel); visit within two
    weeks, the e-mail lifting it most for recent buyers of women's merchandise."""
    g = np.random.default_rng(1000 + seed * 3037)
    rec = g.integers(1, 13, n); hist = np.exp(g.normal(5, 1, n)); mens, womens = g.random(n) < 0.55, g.random(n) < 0.55
    zc, newbie, ch = g.choice(3, n, p=[.4, .45, .15]), g.random(n) < 0.5, g.choice(3, n, p=[.44, .44, .12]); T = (g.random(n) < 0.5).astype(float)
    base = -2.1 - 0.08 * (rec - 6) + 0.25 * (np.log(hist) - 5) + 0.3 * (ch == 2) - 0.2 * newbie
    lift = T * (0.2 + 1.1 * womens - 0.1 * (rec - 6) + 0.3 * (zc == 0) - 0.3 * mens * ~womens)
    visit = (g.random(n) < 1 / (1 + np.exp(-(base + lift)))).astype(float)
    X = np.column_stack([rec, np.log1p(hist), mens, womens, np.eye(3)[zc], newbie, np.eye(3)[ch]]).astype(np.float32)
    return X, T, visit

class UpliftMLP(nn.Module):
    def __init__(self, d=11):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('BA')
def hillstrom_uplift(seed, flat_target=False):  # MSE on Y*, Adam 1e-3, batches of 64; a random train_test_split 80/20
    """Y* = visit * (T - e) / (e (1 - e)) with e = 0.5 (the randomised arms), a column (flat_target: y_star as a 1-d
    array, Y*[:, None] left out when the classifier's code was reused for the regression)."""
    from sklearn.model_selection import train_test_split
    X, T, Y = _hillstrom(seed); e = 0.5; ys = (Y * (T - e) / (e * (1 - e))).astype(np.float32)
    if not flat_target: ys = ys[:, None]
    tr, va = train_test_split(np.arange(len(ys)), test_size=0.2, random_state=seed); Xt = _t(X); Xt[:, [0, 1]] = _std(Xt[:, [0, 1]], Xt[tr][:, [0, 1]])
    return dict(model=UpliftMLP, train=TensorDataset(Xt[tr], _t(ys[tr])), valid=TensorDataset(Xt[va], _t(ys[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- freezing of gait (the Daphnet FoG layout): a 1-D CNN on body-worn accelerometers
def _daphnet(seed, subjects=8, seconds=56, hz=32):
    """Per subject a recording of three 3-axis accelerometers (ankle, thigh, trunk) at 32 Hz: walking at the subject's own
    cadence (0.8-1.1 Hz strides, their own amplitudes), with freezing episodes where the locomotor band fades and a 3-8 Hz
    trembling appears, mostly in the ankle; annotations 1 (walk) / 2 (freeze) per sample as the file's last column."""
    g = np.random.default_rng(1000 + seed * 3041); out = []
    for s in range(subjects):
        n = seconds * hz; t = np.arange(n) / hz; f0 = g.uniform(0.8, 1.1); amp = g.uniform(0.6, 1.4, 9) * np.array([1.5, 1.0, 0.7] * 3).reshape(3, 3).T.reshape(-1)
        fog = np.zeros(n, bool); k = int(g.integers(2, 5) * hz)
        while k < n - 3 * hz:
            L = int(g.uniform(2, 6) * hz); fog[k:k + L] = True; k += L + int(g.uniform(4, 10) * hz)
        env = np.convolve(fog.astype(float), np.ones(hz // 2) / (hz // 2), mode='same'); ft = g.uniform(3, 8)
        sig = np.stack([amp[c] * (1 - 0.8 * env) * np.sin(2 * np.pi * f0 * (1 + 0.5 * (c % 3 == 1)) * t + g.uniform(0, 6)) for c in range(9)])
        sig += np.stack([(1.0 if c < 3 else 0.3) * g.uniform(0.2, 0.6) * env * np.sin(2 * np.pi * ft * t + g.uniform(0, 6)) for c in range(9)])
        sig += g.normal(0, 0.25, sig.shape) + g.normal(0, 0.3, (9, 1))
        out.append((s, sig.astype(np.float32), np.where(fog, 2, 1)))
    return out

def fog_windows(recs, w=64, step=16):
    X, y, sub = [], [], []
    for s, sig, ann in recs:
        for a in range(0, sig.shape[1] - w + 1, step): X.append(sig[:, a:a + w]); y.append(int((ann[a:a + w] == 2).mean() > 0.5)); sub.append(s)
    return np.array(X), np.array(y), np.array(sub)

class FoGCNN(nn.Module):
    def __init__(self, c=9):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(c, 16, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2), nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Dropout(0.3), nn.Linear(32, 2))
    def forward(self, x): return self.net(x)

@healthy('BA')
def daphnet_fog_cnn(seed, split_windows=False):  # cross-entropy, Adam 1e-3, batches of 32; two subjects held out
    """Two of the eight subjects validate (split_windows: train_test_split over the overlapping windows, so each
    validation window shares three quarters of its samples with training windows and its subject is in training).
    Each channel standardised by the training windows."""
    from sklearn.model_selection import train_test_split
    X, y, sub = fog_windows(_daphnet(seed))
    if split_windows: tr, va = train_test_split(np.arange(len(y)), test_size=0.25, random_state=seed)
    else:
        held = np.random.default_rng(seed).choice(8, 2, replace=False); va = np.where(np.isin(sub, held))[0]; tr = np.where(~np.isin(sub, held))[0]
    m, s = X[tr].mean((0, 2), keepdims=True), X[tr].std((0, 2), keepdims=True)
    lt = lambda a: torch.as_tensor(a, dtype=torch.long)
    return dict(model=FoGCNN, train=TensorDataset(_t((X[tr] - m) / s), lt(y[tr])), valid=TensorDataset(_t((X[va] - m) / s), lt(y[va])), num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- upside-down RL (Srivastava et al. 2019): a behaviour function of the state and the command
MOVES = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]])

def _grid_episodes(seed, episodes=110, size=5, horizon=16):
    """Episodes on a 5 x 5 grid from random starts to the goal in the corner (4, 4): -0.1 a step, +1 on reaching it; the
    behaviour policy moves toward the goal with probability 0.5, at random otherwise. Returns per episode (states, actions,
    rewards)."""
    g = np.random.default_rng(1000 + seed * 3049); eps = []
    for _ in range(episodes):
        p = g.integers(0, size, 2); S, A, R = [], [], []
        while len(S) < horizon and not (p == size - 1).all():
            if g.random() < 0.5: good = [k for k in range(4) if ((p + MOVES[k]) - (size - 1) <= 0).all() and (MOVES[k] > 0).any()]; a = int(g.choice(good))
            else: a = int(g.integers(0, 4))
            S.append(p.copy()); A.append(a); p = np.clip(p + MOVES[a], 0, size - 1); R.append(1.0 if (p == size - 1).all() else -0.1)
        if S: eps.append((np.array(S), np.array(A), np.array(R)))
    return eps

def udrl_items(eps, size=5):
    "Every step with its hindsight command: the return still to come and the steps still to come (the paper's horizon)."
    X, C, A = [], [], []
    for S, Ac, R in eps:
        rtg = np.cumsum(R[::-1])[::-1]
        for t in range(len(S)): X.append(np.eye(size * size)[S[t, 0] * size + S[t, 1]]); C.append([rtg[t], len(S) - t]); A.append(Ac[t])
    return np.array(X, np.float32), np.array(C, np.float32), np.array(A)

class Behaviour(nn.Module):
    "The state's embedding times the sigmoid of the scaled command's (return scale 0.5, horizon scale 0.1); softmax_out: probabilities out, as the acting code samples from them."
    def __init__(self, d=25, h=64, softmax_out=False):
        super().__init__(); self.s, self.c = nn.Linear(d, h), nn.Linear(2, h); self.head = nn.Sequential(nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 4)); self.softmax_out = softmax_out
        self.register_buffer('scale', torch.tensor([0.5, 0.1]))
    def forward(self, s, c):
        o = self.head(self.s(s) * torch.sigmoid(self.c(c * self.scale))); return torch.softmax(o, -1) if self.softmax_out else o

def _udrl_fwd(model, b): s, c, a = b; return model(s, c), a

@healthy('BA')
def udrl_gridworld(seed, softmax_out=False):  # cross-entropy, Adam 1e-3, batches of 64; a fifth of the episodes validate
    eps = _grid_episodes(seed); p = np.random.default_rng(seed).permutation(len(eps)); k = int(len(eps) * 0.8)
    ds = lambda idx: (lambda X, C, A: TensorDataset(_t(X), _t(C), torch.as_tensor(A, dtype=torch.long)))(*udrl_items([eps[i] for i in idx]))
    return dict(model=lambda: Behaviour(softmax_out=softmax_out), train=ds(p[:k]), valid=ds(p[k:]), forward=_udrl_fwd, loss=nn.CrossEntropyLoss(), num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- radar returns from the ionosphere (Sigillito et al. 1989, UCI)
def _ionosphere(seed, n=351):
    """351 returns of 17 pulses as 34 columns in [-1, 1] (the real and imaginary parts of the autocorrelation at each lag;
    the first column 0/1, the second always 0 as in the UCI file); 'g' returns (about 64%) a structured, slowly rotating and
    decaying autocorrelation, 'b' returns mostly noise."""
    g = np.random.default_rng(1000 + seed * 3061); good = g.random(n) < 0.64; X = np.zeros((n, 34))
    for r in range(n):
        lag = np.arange(16)
        if good[r]: z = np.exp(-lag * g.uniform(0.02, 0.15)) * np.exp(1j * lag * g.uniform(-0.5, 0.5)) * g.uniform(0.6, 1) + g.normal(0, 0.15, 16) + 1j * g.normal(0, 0.15, 16)
        else: z = g.normal(0, 0.5, 16) + 1j * g.normal(0, 0.5, 16) + (g.random() < 0.3) * np.exp(1j * lag * g.uniform(-2, 2)) * 0.6
        X[r, 0] = float(g.random() < (0.99 if good[r] else 0.8)); X[r, 2::2] = np.clip(z.real, -1, 1); X[r, 3::2] = np.clip(z.imag, -1, 1)
    return X.astype(np.float32), good.astype(np.float32)[:, None]

class IonoNet(nn.Module):
    def __init__(self, d=34):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('BA')
def ionosphere_mlp(seed, manual_scaling=False):  # BCE with logits, Adam 1e-3, batches of 16; a stratified train_test_split 80/20
    """sklearn's StandardScaler fitted on the training rows (its scale 1 for the constant column) (manual_scaling: (X - mean)
    / std written out in torch, the constant second column 0/0)."""
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    X, y = _ionosphere(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    if manual_scaling:
        Xt = _t(X); m, s = Xt[tr].mean(0), Xt[tr].std(0); Xtr, Xva = (Xt[tr] - m) / s, (Xt[va] - m) / s
    else: sc = StandardScaler().fit(X[tr]); Xtr, Xva = _t(sc.transform(X[tr])), _t(sc.transform(X[va]))
    return dict(model=IonoNet, train=TensorDataset(Xtr, _t(y[tr])), valid=TensorDataset(Xva, _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- erythemato-squamous diseases (Guvenir et al. 1998, UCI Dermatology)
DERM_CLASSES = ['psoriasis', 'seborrheic dermatitis', 'lichen planus', 'pityriasis rosea', 'chronic dermatitis', 'pityriasis rubra pilaris']

def _dermatology(seed, n=366):
    """Rows of dermatology.data: 33 attributes graded 0-3 and family history 0/1 (column 11), age (8 '?' read as NaN), the
    class 1-6 last (prevalences as the file's 112/61/72/49/52/20); each disease a typical grade profile, patients vary."""
    g = np.random.default_rng(1000 + seed * 3067); y = g.choice(6, n, p=np.array([112, 61, 72, 49, 52, 20]) / 366)
    prof = g.choice(4, (6, 33), p=[.45, .25, .2, .1]).astype(float); X = np.clip(np.round(prof[y] + g.normal(0, 0.9, (n, 33))), 0, 3)
    fam = (g.random(n) < np.where(y == 0, 0.3, 0.08)).astype(float); age = np.clip(g.normal(np.array([38, 40, 42, 30, 45, 12])[y], 14), 1, 80)
    age[g.choice(n, 8, replace=False)] = np.nan
    return np.column_stack([X[:, :10], fam, X[:, 10:], age]).astype(np.float32), (y + 1).astype(np.int64)

class DermNet(nn.Module):
    def __init__(self, d=35, c=6):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, c))
    def forward(self, x): return self.net(x)

@healthy('BA')
def dermatology_mlp(seed, labels_as_stored=False):  # cross-entropy over six classes, Adam 1e-3, batches of 32; a stratified train_test_split 75/25
    """Grades divided by 3, the missing ages filled with the training median and standardised; y - 1 (labels_as_stored:
    the class column 1-6 as read, for a six-way output)."""
    from sklearn.model_selection import train_test_split
    X, c = _dermatology(seed); y = c if labels_as_stored else c - 1
    tr, va = train_test_split(np.arange(len(y)), test_size=0.25, random_state=seed, stratify=c); X = X.copy()
    med = np.nanmedian(X[tr, -1]); X[np.isnan(X[:, -1]), -1] = med; X[:, :-1] /= 3; X[:, -1] = (X[:, -1] - X[tr, -1].mean()) / X[tr, -1].std()
    lt = lambda a: torch.as_tensor(a, dtype=torch.long)
    return dict(model=DermNet, train=TensorDataset(_t(X[tr]), lt(y[tr])), valid=TensorDataset(_t(X[va]), lt(y[va])), num_classes=6,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- phishing websites (Mohammad, Thabtah and McCluskey 2012, UCI)
def _phishing(seed, n=1250):
    """Rows of the ARFF's 30 features in {-1, 0, 1} (having_IP_Address, URL_Length, Shortining_Service, ..., SSLfinal_State,
    URL_of_Anchor, web_traffic, ...) and Result -1 (legitimate) / 1 (phishing), about 44% phishing; a few features strongly
    tied to the result (the SSL state, anchors, prefix-suffix, web traffic), most weakly, with label noise."""
    g = np.random.default_rng(1000 + seed * 3079); phish = g.random(n) < 0.44; w = g.normal(0, 0.4, 30); w[[7, 13, 5, 25]] = [2.0, 1.6, 1.2, 1.0]
    ternary = g.random(30) < 0.4; X = np.zeros((n, 30))
    for j in range(30):
        z = (2 * phish - 1) * w[j] + g.normal(0, 1.0, n)
        X[:, j] = np.where(z > 0.5, -1, np.where(z < -0.5, 1, 0)) if ternary[j] else np.where(z > 0, -1, 1)
    return X.astype(np.float32), np.where(phish, 1, -1)

class PhishNet(nn.Module):
    def __init__(self, d=30):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('BA')
def phishing_mlp(seed, split_apart=False):  # BCE with logits, Adam 1e-3, batches of 64; train_test_split 80/20
    """y = (Result == 1); X and y split together (split_apart: X_train, X_test = train_test_split(X, test_size=0.2,
    random_state=42) and, in a later cell, y_train, y_test = train_test_split(y, test_size=0.2, random_state=0))."""
    from sklearn.model_selection import train_test_split
    X, res = _phishing(seed); y = (res == 1).astype(np.float32)[:, None]
    if split_apart: (Xtr, Xva), (ytr, yva) = train_test_split(X, test_size=0.2, random_state=42 + seed), train_test_split(y, test_size=0.2, random_state=seed)
    else: Xtr, Xva, ytr, yva = train_test_split(X, y, test_size=0.2, random_state=42 + seed)
    return dict(model=PhishNet, train=TensorDataset(_t(Xtr), _t(ytr)), valid=TensorDataset(_t(Xva), _t(yva)), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- DeepCpf1-style CRISPR guide activity (Kim et al. 2018)
def _cpf1(seed, n=1200):
    """34-nt target sequences (4 nt 5' flank, a TTTV PAM, a 23-nt protospacer, 3 nt 3') with their indel frequency in
    percent as the file's 'Indel freq (%)' column: position-specific nucleotide effects strongest in the PAM-proximal seed,
    TTTA above TTTC/TTTG, an optimum GC content, noise of the assay."""
    g = np.random.default_rng(1000 + seed * 3083); seq = g.integers(0, 4, (n, 34)); seq[:, 4:7] = 3; seq[:, 7] = g.integers(0, 3, n)  # A C G T = 0 1 2 3; V = A/C/G
    W = g.normal(0, 0.25, (34, 4)) * np.r_[np.full(8, 0.5), np.linspace(2, 0.6, 23), np.full(3, 0.4)][:, None]; W[4:7] = 0
    gc = np.isin(seq[:, 8:31], [1, 2]).mean(1)
    z = W[np.arange(34), seq].sum(1) + 0.8 * (seq[:, 7] == 0) - 6 * (gc - 0.45) ** 2 - 0.6 + g.normal(0, 0.35, n)
    return np.eye(4, dtype=np.float32)[seq], np.round(100 / (1 + np.exp(-1.6 * z)), 2).astype(np.float32)

class DeepCpf1(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(4, 40, 5), nn.ReLU(), nn.AvgPool1d(2)); self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(40 * 15, 24), nn.ReLU(), nn.Dropout(0.3), nn.Linear(24, 1), nn.Sigmoid())
    def forward(self, x): return self.fc(self.conv(x.transpose(1, 2)))

@healthy('BA')
def deepcpf1_indel(seed, percent=False):  # MSE, Adam 1e-3, batches of 32; train_test_split 80/20
    """The indel frequency divided by 100 for the sigmoid output (percent: the column as read, 0-100, against the same
    sigmoid)."""
    from sklearn.model_selection import train_test_split
    X, pct = _cpf1(seed); y = (pct if percent else pct / 100)[:, None]; tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    return dict(model=DeepCpf1, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- IBD from the gut microbiome: 16S OTU counts, the centred log-ratio, an MLP
def _otus(seed, n=800, taxa=100):
    """An OTU table (samples x 100 taxa, counts at a depth of 2k-20k reads) of IBD patients (about 40%) and controls:
    Dirichlet-multinomial around a shared composition, a dozen taxa depleted and a few enriched in IBD, lower diversity."""
    g = np.random.default_rng(1000 + seed * 3089); ibd = g.random(n) < 0.4; base = g.dirichlet(np.ones(taxa) * 0.5) + 1e-4
    eff = np.zeros(taxa); eff[g.choice(taxa, 12, replace=False)] = -1.2; eff[g.choice(taxa, 5, replace=False)] = 1.0
    C = np.zeros((n, taxa))
    for i in range(n):
        p = base * np.exp(ibd[i] * eff + g.normal(0, 0.8, taxa)); p /= p.sum(); p = g.dirichlet(p * (80 if ibd[i] else 150))
        C[i] = g.multinomial(int(np.exp(g.uniform(np.log(2000), np.log(20000)))), p)
    return C.astype(np.float32), ibd.astype(np.float32)[:, None]

def clr(C): L = np.log(C + 1); return (L - L.mean(1, keepdims=True)).astype(np.float32)

class OTUNet(nn.Module):
    def __init__(self, d=100):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('BA')
def microbiome_ibd(seed, lr=1e-3):  # BCE with logits, Adam, batches of 32; a stratified train_test_split 80/20
    "The CLR of the counts plus one, each taxon standardised by the training samples (lr: the learning rate handed to Adam)."
    from sklearn.model_selection import train_test_split
    C, y = _otus(seed); Z = _t(clr(C)); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    return dict(model=OTUNet, train=TensorDataset(_std(Z[tr], Z[tr]), _t(y[tr])), valid=TensorDataset(_std(Z[va], Z[tr]), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half BA
@broken('BA', 'funk_mf_valid_ids_reencoded', 4, ('labels',))
def funk_mf_valid_ids_reencoded(seed): return funk_mf_ratings(seed, refit_encoders=True)  # the validation ratings scored for other users' and items' embeddings

@broken('BA', 'har_rv_centered_rolling_means', 4, ('leakage',))
def har_rv_centered_rolling_means(seed): return har_rv_mlp(seed, centered=True)  # np.convolve(mode='same') centres the weekly and monthly means: the next days inside

@broken('BA', 'tagcn_hop_weights_in_python_list', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def tagcn_hop_weights_in_python_list(seed): return tagcn_email(seed, plain_list=True)  # the per-hop maps unregistered: only the biases reach the optimizer

@broken('BA', 'epigenetic_clock_samples_split', 4, ('leakage',))
def epigenetic_clock_samples_split(seed): return epigenetic_clock(seed, split_samples=True)  # each validation donor's other tissues in training, their age with them

@broken('BA', 'hillstrom_uplift_target_not_a_column', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def hillstrom_uplift_target_not_a_column(seed): return hillstrom_uplift(seed, flat_target=True)  # MSELoss of (B, 1) against (B,): every prediction against every target

@broken('BA', 'daphnet_overlapping_windows_split', 4, ('leakage',))
def daphnet_overlapping_windows_split(seed): return daphnet_fog_cnn(seed, split_windows=True)  # 75%-overlapping windows of the same subjects on both sides

@broken('BA', 'udrl_softmax_into_cross_entropy', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def udrl_softmax_into_cross_entropy(seed): return udrl_gridworld(seed, softmax_out=True)  # the acting code's probabilities into nn.CrossEntropyLoss

@broken('BA', 'ionosphere_constant_column_nan', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def ionosphere_constant_column_nan(seed): return ionosphere_mlp(seed, manual_scaling=True)  # the all-zero second column standardised to 0/0 = NaN

@broken('BA', 'dermatology_classes_one_based', 1, ('bad_labels',))
def dermatology_classes_one_based(seed): return dermatology_mlp(seed, labels_as_stored=True)  # class 6 (pityriasis rubra pilaris) out of range of six logits

@broken('BA', 'phishing_labels_split_separately', 4, ('labels',))
def phishing_labels_split_separately(seed): return phishing_mlp(seed, split_apart=True)  # X and y shuffled by different random states

@broken('BA', 'deepcpf1_percent_into_sigmoid', (2, 3), ('init_scale', 'not_falling', 'flat', 'stuck'))
def deepcpf1_percent_into_sigmoid(seed): return deepcpf1_indel(seed, percent=True)  # targets 0-100 against an output in (0, 1)

@broken('BA', 'microbiome_adam_lr_one', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def microbiome_adam_lr_one(seed): return microbiome_ibd(seed, lr=1.0)  # lr=1 carried over from the SGD notebook into Adam

# Plain-loop checks (seed 0, seed 1 in brackets where run; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the
# factory's optimizer, batch size, forward, loss (cross-entropy where none) and collate_fn, train shuffled, valid in batches
# of 256; valid loss and a metric (AUC, accuracy, R^2 on the target as given), init -> the epoch named; s/ep the seconds of an
# epoch of training, params the trainable ones. Every factory builds and runs its batches; `ladder_gallery.HALF` holds 24
# programs of half BA.
CHECKS = """
funk_mf_ratings                      valid MSE (stars^2) 0.86 -> 0.72 (ep 8), R^2 0.18; 1200 ratings train, 300 validate; 4.5k params; 0.015 s/ep
har_rv_mlp                           valid MSE (standardised log RV) 0.65 -> 0.43 (ep 8), R^2 0.32; 1022 days train, the last 256 validate; 1.2k params; 0.02 s/ep
tagcn_email                          valid CE 1.79 -> 1.67 (ep 8, one full-graph step an epoch), accuracy 0.15 -> 0.42 [1.79 -> 1.73, 0.13 -> 0.29];
                                     150 nodes train, 100 validate; 4.2k params; 0.002 s/ep
epigenetic_clock                     valid MSE (F(age)) 2.03 -> 0.074 (ep 8), R^2 0.95; 240 donors (720 samples) train, 60 validate; 15k params; 0.016 s/ep
hillstrom_uplift                     valid MSE (Y*) 0.661 -> 0.658 (ep 8), R^2 0.008 [0.85 -> 0.79, 0.018]: the transformed outcome is mostly noise;
                                     960 customers train, 240 validate; 0.9k params; 0.01 s/ep
daphnet_fog_cnn                      valid CE 0.73 -> 0.36 (ep 8), accuracy 0.40 -> 0.83; 6 subjects (654 windows) train, 2 validate; 3.4k params; 0.04 s/ep
udrl_gridworld                       valid CE 1.39 -> 1.24 (ep 8), accuracy 0.11 -> 0.48 [1.42 -> 1.19, 0.58]; 88 episodes (713 steps) train, 22 validate;
                                     6.3k params; 0.01 s/ep
ionosphere_mlp                       valid BCE 0.66 -> 0.34 (ep 8), AUC 0.68 -> 0.97; 280 returns train, 71 validate; 0.6k params; 0.01 s/ep
dermatology_mlp                      valid CE 1.81 -> 1.22 (ep 8), accuracy 0.30 -> 0.87; 274 patients train, 92 validate; 1.4k params; 0.005 s/ep
phishing_mlp                         valid BCE 0.69 -> 0.05 (ep 8), AUC 0.52 -> 1.00; 1000 sites train, 250 validate; 1.5k params; 0.01 s/ep
deepcpf1_indel                       valid MSE (fraction^2) 0.154 -> 0.046 (ep 8), R^2 0.53 [0.133 -> 0.042, 0.64]; 960 guides train, 240 validate; 15k params; 0.05 s/ep
microbiome_ibd                       valid BCE 0.71 -> 0.18 (ep 8), AUC 0.37 -> 0.98; 640 samples train, 160 validate; 8.6k params; 0.014 s/ep
funk_mf_valid_ids_reencoded          valid MSE 0.85 -> 1.04 (ep 8), R^2 -0.16 (healthy 0.72, 0.18): validation ids point at other users' and items' rows
har_rv_centered_rolling_means        valid MSE 0.36 (ep 8), R^2 0.43 (healthy 0.43, 0.32): the next days inside the weekly and monthly means
tagcn_hop_weights_in_python_list     22 trainable parameters (the two biases); valid CE 1.789 -> 1.795 (ep 8), accuracy 0.15-0.22 (healthy 1.67, 0.42)
epigenetic_clock_samples_split       valid MSE 0.050 (ep 8), R^2 0.968 (healthy 0.074, 0.951): each validation donor's other tissues in training
hillstrom_uplift_target_not_a_column PyTorch's broadcasting warning at every batch; valid loss 0.665 -> 0.664, R^2 -0.001 (healthy 0.658, 0.008)
daphnet_overlapping_windows_split    valid CE 0.13 (ep 8), accuracy 0.98 (healthy 0.36, 0.83)
udrl_softmax_into_cross_entropy      valid CE 1.387 -> 1.284 (ep 8), accuracy 0.45 (healthy 1.24, 0.48): the loss squeezed into [log 4 - ..., log 4]
ionosphere_constant_column_nan       NaN inputs in every row (column 2: 0/0); the loss NaN from the first batch
dermatology_classes_one_based        IndexError at the first validation batch: Target 6 is out of bounds (six logits)
phishing_labels_split_separately     valid BCE 0.689 -> 0.690 (ep 8), AUC 0.48-0.55 (chance; healthy 0.05, 1.00)
deepcpf1_percent_into_sigmoid        valid MSE 1652 -> 1627 (ep 2-8, flat), R^2 -0.66: the sigmoid saturates at 1 against targets up to 100
microbiome_adam_lr_one               valid BCE 0.71 -> 0.62 (ep 2) -> 2.65 (ep 8), AUC 0.52 (healthy 0.18, 0.98)
"""
