"""Half AW of the ladder's gallery: held out from the rules frozen at d6e8c50 (round 61), and run once on them.
Families not in halves A-AU, taken only from tabular data and business/finance, science and engineering, graphs, recommender
systems and ranking, time series and forecasting, and RL-style supervised models (a half written alongside took other
domains): red wine quality (Cortez et al. 2009, UCI: eleven physicochemical measurements, the sensory score 3-8; an MLP,
MSE on the score); ListMLE (Xia et al. 2008: the Plackett-Luce likelihood of the relevance order, an MLP scorer; queries of
varying length padded to 20 documents with a mask, a batch of three tensors and a forward of its own) on LETOR-style
query-document features; N-HiTS (Challu et al. 2022, shrunk: three stacks of MLP blocks on max-pooled inputs at rates 4, 2
and 1, backcast residuals, forecasts interpolated from coarse knots) forecasting a day of an hourly series from four days,
the last weeks validating; Monte Carlo value regression (a critic V(s) fitted to the discounted returns-to-go of cart-pole
episodes run by a noisy heuristic policy; MSE, SGD; episodes split); mortgage prepayment (a loan-month panel: refinance
incentive, loan age, LTV, FICO, balance, burnout; an MLP, BCE with logits; loans split); Graph U-Net (Gao and Ji 2019, shrunk:
GCN layers, one gPool to half the nodes by a learnt projection and its gUnpool with a skip; one full-graph item) classifying
the nodes of a community graph with bag-of-words features; CDAE (Wu et al. 2016: a corrupted implicit-feedback row, a
user embedding added to the hidden layer, a sigmoid decoder over all items, BCE; dict items) on a synthetic user-item log
with a few held-out items a user; yacht hydrodynamics (Gerritsma et al., UCI: five hull-geometry coefficients and the Froude
number to the residuary resistance, an MLP on log resistance); thyroid disease (Quinlan's ann-thyroid: age, sex, flags and
TSH, T3, TT4, T4U, FTI; three classes hyper/hypo/normal; an MLP with class-weighted cross-entropy); Montesinho forest fires
(Cortez and Morais 2007: coordinates, month, day, FFMC, DMC, DC, ISI, temperature, humidity, wind, rain to log1p of the
burned area; an MLP in a custom step porting the author's loop); pan-cancer type from gene expression (TCGA-like log2
expression of 500 genes, an MLP with dropout over five tumour types, the top-variance/ANOVA genes selected); and
Diebold-Li style yield-curve forecasting (eight maturities, the last twelve months of yields to next month's curve, an MLP;
split in time).
At most about 3500 training items a program (the critic's states; 1200 rows elsewhere) and under 115k trainable parameters; an epoch of a plain loop well under a second on one
busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AU.

Protocol: written by a helper in a worktree at 541fb05 (branch halfAW), held out from the rules frozen at d6e8c50 (round 61).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and import lines, half AO,
the module docstrings of the other halves and their @broken lines (for the conventions and the families taken, with greps of
the halves for candidate family names), and ladder_sweep.py's --half line. Each program was checked by hand only with a plain
torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seed 0
only. Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AW`; no program
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

def _rng(seed, k): return np.random.default_rng(1000 + seed * 3001 + k)

# ---------------------------------------------------------------- red wine quality (Cortez et al. 2009): an MLP on eleven measurements, MSE on the score
WINE_COLUMNS = ['fixed acidity', 'volatile acidity', 'citric acid', 'residual sugar', 'chlorides', 'free sulfur dioxide',
                'total sulfur dioxide', 'density', 'pH', 'sulphates', 'alcohol']

def _wine(seed, n=1500):
    "Measurements around the red wines' means; quality a rounded score driven by alcohol, volatile acidity and sulphates (mostly 5-6)."
    g = _rng(seed, 1); mu = np.array([8.3, 0.53, 0.27, 2.5, 0.087, 15.9, 46.5, 0.9967, 3.31, 0.66, 10.4]); sd = np.array([1.7, 0.18, 0.19, 1.4, 0.047, 10.5, 32.9, 0.0019, 0.15, 0.17, 1.07])
    Z = g.normal(size=(n, 11)); Z[:, 8] -= 0.6 * Z[:, 0]; Z[:, 7] += 0.6 * Z[:, 0] - 0.4 * Z[:, 10]; X = mu + sd * Z
    q = 5.6 + 0.45 * Z[:, 10] - 0.3 * Z[:, 1] + 0.22 * Z[:, 9] - 0.1 * Z[:, 9] ** 2 - 0.1 * Z[:, 6] + 0.08 * Z[:, 2] + g.normal(0, 0.55, n)
    return X.astype(np.float32), np.clip(np.round(q), 3, 8).astype(np.float32)

class WineMLP(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(11, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AW')
def wine_quality_mlp(seed, oversample_first=False):  # MSE on the score, Adam 1e-3, batches of 32; train_test_split 80/20, StandardScaler
    """oversample_first: the rare scores (3, 4, 7, 8) oversampled to 150 rows each by copies jittered with 2% Gaussian noise
    (a hand-rolled SMOTE-like balancing), done on the whole frame before train_test_split."""
    from sklearn.model_selection import train_test_split
    X, y = _wine(seed)
    if oversample_first:
        g = _rng(seed, 2); Xs, ys = [X], [y]
        for q in (3, 4, 7, 8):
            idx = np.where(y == q)[0]
            if len(idx) and len(idx) < 150:
                pick = g.choice(idx, 150 - len(idx)); Xs.append(X[pick] * (1 + g.normal(0, 0.02, (len(pick), 11))).astype(np.float32)); ys.append(y[pick])
        X, y = np.concatenate(Xs), np.concatenate(ys)
        keep = _rng(seed, 3).permutation(len(y))[:1500]; X, y = X[keep], y[keep]
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    Xtr, Xva = _std(_t(X[tr]), _t(X[tr])), _std(_t(X[va]), _t(X[tr]))
    return dict(model=WineMLP, train=TensorDataset(Xtr, _t(y[tr, None])), valid=TensorDataset(Xva, _t(y[va, None])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- ListMLE (Xia et al. 2008): the Plackett-Luce likelihood of the relevance order
def _letor(seed, queries=120, dmax=20, d=16):
    "Queries of 8-20 documents, 16 features each; graded relevance 0-4 from a shared weight vector, a per-query shift and noise."
    g = _rng(seed, 4); w = g.normal(size=d); X = np.zeros((queries, dmax, d), np.float32); R = np.zeros((queries, dmax), np.float32); M = np.zeros((queries, dmax), bool)
    for q in range(queries):
        n = int(g.integers(8, dmax + 1)); x = g.normal(size=(n, d)) + g.normal(0, 0.5, d); s = x @ w / np.sqrt(d) + g.normal(0, 0.4, n)
        X[q, :n] = x; R[q, :n] = np.digitize(s, np.quantile(s, [0.5, 0.75, 0.88, 0.95])); M[q, :n] = True
    return X, R, M

class DocScorer(nn.Module):
    def __init__(self, d=16):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x).squeeze(-1)

def listmle_loss(out, target, eps=1e-10):  # allRank's listMLE: shuffle ties, sort by relevance, -sum(log P-L) over the real documents
    scores, = out[:1]; rel, mask = target
    key = rel + 1e-3 * torch.rand_like(rel); key = key.masked_fill(~mask, -1.0)
    order = key.argsort(dim=1, descending=True); s = scores.gather(1, order); m = mask.gather(1, order)
    s = s.masked_fill(~m, float('-inf')); mx = s.max(dim=1, keepdim=True).values; e = (s - mx).exp()
    cums = e.flip(1).cumsum(1).flip(1); obs = torch.log(cums + eps) - (s - mx)
    return obs.masked_fill(~m, 0.0).sum(1).mean()

def listmle_loss_logcumsumexp(out, target):  # the same loss written with torch.logcumsumexp on the masked scores
    scores, = out[:1]; rel, mask = target
    key = rel + 1e-3 * torch.rand_like(rel); key = key.masked_fill(~mask, -1.0)
    order = key.argsort(dim=1, descending=True); s = scores.gather(1, order); m = mask.gather(1, order)
    s = s.masked_fill(~m, float('-inf'))
    obs = torch.logcumsumexp(s.flip(1), dim=1).flip(1) - s  # -inf - (-inf) at the padding: NaN
    return (obs * m).sum(1).mean()

def _listmle_fwd(model, b): x, rel, mask = b; return (model(x),), (rel, mask)

@healthy('AW')
def listmle_letor(seed, logcumsumexp=False):  # Adam 1e-3, batches of 8 queries; 96 queries train, 24 validate
    "logcumsumexp: the loss rewritten with torch.logcumsumexp, the padded scores filled with -inf and multiplied by the mask."
    X, R, M = _letor(seed); p = _rng(seed, 5).permutation(len(X)); tr, va = p[:96], p[96:]
    ds = lambda i: TensorDataset(_t(X[i]), _t(R[i]), torch.tensor(M[i]))
    return dict(model=DocScorer, train=ds(tr), valid=ds(va), forward=_listmle_fwd, loss=listmle_loss_logcumsumexp if logcumsumexp else listmle_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=8))

# ---------------------------------------------------------------- N-HiTS (Challu et al. 2022): stacks of MLPs on pooled inputs, interpolated forecasts
def _hourly_series(seed, hours=24 * 80):
    g = _rng(seed, 6); t = np.arange(hours)
    y = 10 + 3 * np.sin(2 * np.pi * t / 24 - 1) + 1.5 * np.sin(2 * np.pi * t / 168) + 0.8 * np.sin(4 * np.pi * t / 24) + np.cumsum(g.normal(0, 0.05, hours))
    ar = np.zeros(hours)
    for i in range(1, hours): ar[i] = 0.8 * ar[i - 1] + g.normal(0, 0.5)
    return (y + ar).astype(np.float32)

def nhits_windows(y, idx, L=96, H=24): return np.stack([y[i - L:i] for i in idx]), np.stack([y[i:i + H] for i in idx])

class NHiTSBlock(nn.Module):
    def __init__(self, L, H, pool, knots, h=128):
        super().__init__(); self.pool, self.H, self.L = pool, H, L
        self.mlp = nn.Sequential(nn.Linear(L // pool, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU()); self.back = nn.Linear(h, L); self.fore = nn.Linear(h, knots)
    def forward(self, x):
        z = self.mlp(F.max_pool1d(x[:, None], self.pool, self.pool)[:, 0]); f = F.interpolate(self.fore(z)[:, None], size=self.H, mode='linear', align_corners=True)[:, 0]
        return self.back(z), f

class NHiTS(nn.Module):
    def __init__(self, L=96, H=24):
        super().__init__(); self.blocks = nn.ModuleList([NHiTSBlock(L, H, 4, 2), NHiTSBlock(L, H, 2, 6), NHiTSBlock(L, H, 1, 24)])
    def forward(self, x):
        m = x.mean(1, keepdim=True); r = x - m; out = 0
        for b in self.blocks: bc, f = b(r); r = r - bc; out = out + f
        return out + m

@healthy('AW')
def nhits_hourly(seed, random_split=False):  # MAE, Adam 1e-3, batches of 32; windows every 2 hours, the last 12 days validate
    """Windows of 96 hours to the next 24, standardised by the training period. random_split: train_test_split over all the
    windows (overlapping windows of the same days on both sides)."""
    from sklearn.model_selection import train_test_split
    y = _hourly_series(seed); cut = len(y) - 24 * 12; s = (y[:cut].mean(), y[:cut].std()); y = (y - s[0]) / s[1]
    if random_split:
        idx = np.arange(96, len(y) - 24, 2); tr, va = train_test_split(idx, test_size=0.15, random_state=seed)
    else: tr, va = np.arange(96, cut - 24, 2), np.arange(cut, len(y) - 24, 2)
    (Xtr, Ytr), (Xva, Yva) = nhits_windows(y, tr), nhits_windows(y, va)
    return dict(model=NHiTS, train=TensorDataset(_t(Xtr), _t(Ytr)), valid=TensorDataset(_t(Xva), _t(Yva)), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Monte Carlo value regression: V(s) against discounted returns-to-go of cart-pole episodes
def _cartpole_episodes(seed, episodes=40, gamma=0.97, max_steps=120):
    "Classic cart-pole dynamics (Barto et al. 1983, gym's constants); a noisy PD policy on the pole's angle; reward 1 a step."
    g = _rng(seed, 7); out = []
    for e in range(episodes):
        s = g.uniform(-0.05, 0.05, 4); S, Rw = [], []; kp = g.uniform(0.3, 1.5); noise = g.uniform(0.1, 0.45)
        for t in range(max_steps):
            a = 1 if (kp * s[2] + 0.3 * s[3] + 0.02 * s[1] + g.normal(0, noise)) > 0 else 0
            x, xd, th, thd = s; f = 10.0 if a else -10.0; ct, st = np.cos(th), np.sin(th); tmp = (f + 0.05 * thd ** 2 * st) / 1.1
            tha = (9.8 * st - ct * tmp) / (0.5 * (4 / 3 - 0.1 * ct ** 2 / 1.1)); xa = tmp - 0.05 * tha * ct / 1.1
            S.append(s.copy()); Rw.append(1.0); s = np.array([x + 0.02 * xd, xd + 0.02 * xa, th + 0.02 * thd, thd + 0.02 * tha])
            if abs(s[0]) > 2.4 or abs(s[2]) > 0.21: break
        G = np.zeros(len(Rw)); acc = 0.0
        for t in reversed(range(len(Rw))): acc = Rw[t] + gamma * acc; G[t] = acc
        out.append((np.array(S, np.float32), G.astype(np.float32)))
    return out

class Critic(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
    def forward(self, s): return self.net(s)

@healthy('AW')
def mc_value_cartpole(seed, lr=0.01):  # MSE on returns-to-go, SGD with momentum 0.9, batches of 64; 32 episodes train, 8 validate
    "lr: the learning rate; 0.5 copied from a tutorial that regresses normalised returns (these run to about 33)."
    eps = _cartpole_episodes(seed); tr, va = eps[:32], eps[32:]
    cat = lambda E: TensorDataset(_t(np.concatenate([s for s, _ in E])), _t(np.concatenate([G for _, G in E])[:, None]))
    return dict(model=Critic, train=cat(tr), valid=cat(va), loss=nn.MSELoss(), optimizer=lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- mortgage prepayment: an MLP on a loan-month panel, BCE with logits
MORT_COLUMNS = ['incentive_bp', 'loan_age', 'ltv', 'fico', 'balance', 'burnout', 'month_of_year', 'coupon']

def _mortgages(seed, loans=150, months=10):
    "Loan-months: prepayment (about 4% a month) an S-curve in the refinance incentive, rising with age, falling with LTV and burnout."
    g = _rng(seed, 8); rows, ys, ids = [], [], []
    for l in range(loans):
        coupon = g.uniform(3, 7.5); fico = np.clip(g.normal(730, 45), 580, 820); bal = float(np.exp(g.normal(12.3, 0.5))); age0 = int(g.integers(1, 60)); ltv = np.clip(g.normal(75, 12), 30, 97); burn = 0.0
        for m in range(months):
            mkt = 4.6 + 0.6 * np.sin((age0 + m) / 9) + g.normal(0, 0.1); inc = (coupon - mkt) * 100; age = age0 + m
            z = -4.2 + 3.0 / (1 + np.exp(-(inc - 50) / 30)) + 0.6 * min(age, 30) / 30 - 0.03 * (ltv - 75) + 0.004 * (fico - 730) - 0.8 * burn + 0.3 * np.log(bal / 2e5) + g.normal(0, 0.4)
            y = float(g.random() < 1 / (1 + np.exp(-z)))
            rows.append([inc, age, ltv, fico, bal, burn, (age % 12) + 1, coupon]); ys.append(y); ids.append(l); burn += max(inc, 0) / 100
            if y: break
    return np.array(rows, np.float64), np.array(ys, np.float32), np.array(ids)

class PrepayMLP(nn.Module):
    def __init__(self, d=8):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AW')
def mortgage_prepay_mlp(seed, scale=True):  # BCE with logits, Adam 1e-3, batches of 64; GroupShuffleSplit by loan, a fifth validates
    "The columns standardised by the training months (scale False: the raw columns, balances in dollars and FICO scores, straight in)."
    from sklearn.model_selection import GroupShuffleSplit
    X, y, ids = _mortgages(seed); tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=ids))
    Xtr, Xva = (_std(_t(X[tr]), _t(X[tr])), _std(_t(X[va]), _t(X[tr]))) if scale else (_t(X[tr]), _t(X[va]))
    return dict(model=PrepayMLP, train=TensorDataset(Xtr, _t(y[tr, None])), valid=TensorDataset(Xva, _t(y[va, None])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Graph U-Net (Gao and Ji 2019): GCN layers, gPool and gUnpool, one full-graph item
def _community_graph(seed, n=400, c=4, f=60):
    "Nodes in four communities, edges mostly within (a planted partition), bag-of-words features drawn around each community's topic."
    g = _rng(seed, 9); y = g.integers(0, c, n); P = np.where(y[:, None] == y[None], 0.03, 0.004); A = np.triu(g.random((n, n)) < P, 1); A = (A | A.T).astype(np.float32)
    topics = g.random((c, f)) ** 3; X = (g.random((n, f)) < 0.12 * topics[y] / topics.mean()).astype(np.float32)
    return X, A, y

def _norm_adj(A): A = A + np.eye(len(A), dtype=np.float32); d = A.sum(1) ** -0.5; return (d[:, None] * A * d[None]).astype(np.float32)

class GUNet(nn.Module):
    def __init__(self, f=60, h=32, c=4, ratio=0.5):
        super().__init__(); self.g1, self.g2, self.g3 = nn.Linear(f, h), nn.Linear(h, h), nn.Linear(h, h); self.p = nn.Linear(h, 1, bias=False); self.out = nn.Linear(2 * h, c); self.ratio = ratio; self.drop = nn.Dropout(0.3)
    def forward(self, x, adj):
        h1 = F.relu(adj @ self.g1(self.drop(x)))
        score = self.p(h1).squeeze(-1) / self.p.weight.norm(); k = int(self.ratio * len(x)); idx = score.topk(k).indices
        hp = h1[idx] * torch.sigmoid(score[idx])[:, None]; ap = adj[idx][:, idx]; ap = ap / ap.sum(1, keepdim=True).clamp(min=1e-6)
        h2 = F.relu(ap @ self.g2(hp)); up = torch.zeros_like(h1).index_copy(0, idx, h2)
        h3 = F.relu(adj @ self.g3(up + h1)); return self.out(self.drop(torch.cat([h3, h1], 1)))

def _gunet_fwd(model, b):
    x, adj, y, mask = b; out = model(x, adj); return out[mask], y[mask]

@healthy('AW')
def graph_unet_nodes(seed, degree_relabel=False):  # cross-entropy on the training nodes, Adam 5e-3 with weight decay 5e-4; 60% of nodes train, 20% validate
    """degree_relabel: the graph read through networkx and relabelled with convert_node_labels_to_integers(ordering=
    'decreasing degree') for the adjacency and features, the labels kept in the file's node order."""
    X, A, y = _community_graph(seed); n = len(y)
    if degree_relabel:
        order = np.argsort(-A.sum(1), kind='stable'); A = A[order][:, order]; X = X[order]
    p = _rng(seed, 10).permutation(n); mtr, mva = np.zeros(n, bool), np.zeros(n, bool); mtr[p[:240]] = True; mva[p[240:320]] = True
    item = lambda m: OneItem(_t(X), _t(_norm_adj(A)), _t(y, torch.long), torch.tensor(m))
    return dict(model=GUNet, train=item(mtr), valid=item(mva), collate_fn=_one, forward=_gunet_fwd, num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-3, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- CDAE (Wu et al. 2016): a denoising autoencoder of each user's implicit feedback
def _implicit_log(seed, users=400, items=300, k=6):
    "Users and items with latent tastes; each user about 25 interactions drawn by taste and popularity; 3 held out a user."
    g = _rng(seed, 11); U, V = g.normal(size=(users, k)), g.normal(size=(items, k)); pop = g.normal(0, 1, items)
    R = np.zeros((users, items), np.float32); Hd = np.zeros((users, items), np.float32)
    for u in range(users):
        s = U[u] @ V.T / np.sqrt(k) * 2 + pop; p = np.exp(s - s.max()); p /= p.sum(); pick = g.choice(items, int(g.integers(18, 33)), replace=False, p=p)
        R[u, pick[3:]] = 1; Hd[u, pick[:3]] = 1
    return R, Hd

class CDAE(nn.Module):
    def __init__(self, users=400, items=300, h=50, corrupt=0.3):
        super().__init__(); self.enc = nn.Linear(items, h); self.user = nn.Embedding(users, h); self.dec = nn.Linear(h, items); self.drop = nn.Dropout(corrupt)
        nn.init.normal_(self.user.weight, 0, 0.01)
    def forward(self, x, uid): return self.dec(torch.sigmoid(self.enc(self.drop(x)) + self.user(uid)))

def _cdae_fwd(model, b): return model(b['input'], b['user']), b['target']

@healthy('AW')
def cdae_implicit(seed, held_in_input=False):  # BCE with logits over all items, Adam 1e-3, batches of 32; validation: the held-out items from the training rows
    """Training: each user's row rebuilt from itself (denoising); validation: the same row in, its 3 held-out items as targets.
    held_in_input: the held-out items left in the input rows (the interaction matrix built before the hold-out was taken out)."""
    R, Hd = _implicit_log(seed); users = len(R); inp = R + Hd if held_in_input else R
    tr_items = [dict(input=_t(inp[u]), user=torch.tensor(u), target=_t(inp[u])) for u in range(users)]
    va_items = [dict(input=_t(inp[u]), user=torch.tensor(u), target=_t(Hd[u])) for u in range(users)]
    return dict(model=CDAE, train=ListDataset(tr_items), valid=ListDataset(va_items), forward=_cdae_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- yacht hydrodynamics (Gerritsma et al., UCI): residuary resistance from hull geometry and Froude number
def _yacht(seed, n=1000):
    g = _rng(seed, 12); lcb = g.uniform(-5, 0, n); cp = g.uniform(0.53, 0.6, n); ld = g.uniform(4.3, 5.1, n); bd = g.uniform(2.8, 5.4, n); lb = g.uniform(2.7, 3.6, n); fr = g.uniform(0.125, 0.45, n)
    res = np.exp(np.log(0.5) + 26 * (fr - 0.125) ** 1.0 - 18 * np.maximum(fr - 0.4, 0) + 0.05 * lcb + 4 * (cp - 0.56) + 0.12 * (bd - 4) - 0.2 * (lb - 3.2) + g.normal(0, 0.08, n))
    return np.column_stack([lcb, cp, ld, bd, lb, fr]).astype(np.float32), res.astype(np.float32)

class HullMLP(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(6, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('AW')
def yacht_resistance_mlp(seed, target_1d=False):  # MSE on log resistance, Adam 3e-3, batches of 32; train_test_split 80/20
    "target_1d: y = np.log(df['Rr'].values), a 1-D target against the model's (B, 1) output."
    from sklearn.model_selection import train_test_split
    X, r = _yacht(seed); y = np.log(r); y = y if target_1d else y[:, None]; tr, va = train_test_split(np.arange(len(X)), test_size=0.2, random_state=seed)
    return dict(model=HullMLP, train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr])), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- thyroid disease (Quinlan's ann-thyroid): an MLP, class-weighted cross-entropy over three classes
def _thyroid(seed, n=1500):
    """ann-train.data's layout: age (0-1), sex, 14 binary flags, TSH, T3, TT4, T4U, FTI (scaled as the file); the class in the
    last column coded 1 (hyperthyroid), 2 (hypothyroid), 3 (normal), about 2.5%, 5% and 92.5%."""
    g = _rng(seed, 13); cls = g.choice([1, 2, 3], n, p=[0.04, 0.07, 0.89]); age = g.uniform(0.01, 0.9, n); sex = (g.random(n) < 0.3).astype(float); flags = (g.random((n, 14)) < 0.06).astype(float)
    tsh = np.where(cls == 1, g.gamma(2, 0.0008, n), np.where(cls == 2, g.gamma(3, 0.012, n), g.gamma(2, 0.001, n)))
    t3 = np.clip(g.normal(np.where(cls == 1, 0.035, np.where(cls == 2, 0.014, 0.02)), 0.006), 0.0005, None); tt4 = np.clip(g.normal(np.where(cls == 1, 0.16, np.where(cls == 2, 0.06, 0.11)), 0.025), 0.002, None)
    t4u = np.clip(g.normal(0.098, 0.02, n), 0.02, None); fti = tt4 / t4u / 10
    return np.column_stack([age, sex, flags, tsh, t3, tt4, t4u, fti]).astype(np.float32), cls

class ThyroidMLP(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(21, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
    def forward(self, x): return self.net(x)

@healthy('AW')
def thyroid_mlp(seed, codes_as_classes=False):  # class-weighted cross-entropy, Adam 1e-3, batches of 64; stratified train_test_split 80/20
    "The file's class codes 1-3 shifted to 0-2 (codes_as_classes: the codes taken as class indices into three logits)."
    from sklearn.model_selection import train_test_split
    X, cls = _thyroid(seed); y = cls if codes_as_classes else cls - 1
    tr, va = train_test_split(np.arange(len(X)), test_size=0.2, random_state=seed, stratify=cls)
    counts = np.bincount(cls - 1, minlength=3)[:3]; w = _t(len(cls) / (3 * counts))
    return dict(model=ThyroidMLP, train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr], torch.long)), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va], torch.long)),
                loss=nn.CrossEntropyLoss(weight=w), num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Montesinho forest fires (Cortez and Morais 2007): log1p burned area, a custom step
MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

def _forest_fires(seed, n=1200):
    "X, Y grid cells, month and weekday one-hot, the FWI codes and weather; log1p(area) zero for half the fires, larger when hot, dry and windy."
    g = _rng(seed, 14); m = g.choice(12, n, p=np.array([1, 1, 5, 1, 1, 2, 4, 18, 17, 2, 1, 1]) / 54); summer = np.isin(m, [6, 7, 8]).astype(float)
    temp = g.normal(12 + 10 * summer, 4); rh = np.clip(g.normal(55 - 15 * summer, 14), 15, 100); wind = g.gamma(4, 1, n); rain = (g.random(n) < 0.03) * g.exponential(1, n)
    ffmc = np.clip(g.normal(85 + 6 * summer, 4), 18, 96); dmc = g.gamma(3, 20 + 40 * summer); dc = g.gamma(4, 60 + 100 * summer); isi = np.clip(g.gamma(3, 2 + 2 * summer), 0, 56)
    z = 0.08 * (temp - 18) - 0.02 * (rh - 45) + 0.1 * (wind - 4) + 0.004 * (dmc - 100) + 0.05 * (isi - 9) + g.normal(0, 0.8, n)
    area = np.where(z + g.normal(0, 0.5, n) > 0, np.expm1(np.clip(1.2 + 1.1 * z + g.normal(0, 0.6, n), 0, None)), 0.0)
    X = np.column_stack([g.integers(1, 10, n), g.integers(2, 10, n), np.eye(12)[m], np.eye(7)[g.integers(0, 7, n)], ffmc, dmc, dc, isi, temp, rh, wind, rain])
    return X.astype(np.float32), np.log1p(area).astype(np.float32)

class FireMLP(nn.Module):
    def __init__(self, d=29):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

def _fire_step(zero_grad=True):
    def fire_step(model, batch, opt):  # the author's loop body ported as a step
        x, y = batch
        if zero_grad: opt.zero_grad()
        loss = F.mse_loss(model(x), y); loss.backward(); opt.step(); return loss
    return fire_step

@healthy('AW')
def forest_fires_mlp(seed, zero_grad=True):  # MSE on log1p(area), SGD 0.01 momentum 0.9, batches of 32; train_test_split 80/20, a custom step
    "zero_grad False: the optimizer.zero_grad() line lost when the loop was moved into a step function."
    from sklearn.model_selection import train_test_split
    X, y = _forest_fires(seed); tr, va = train_test_split(np.arange(len(X)), test_size=0.2, random_state=seed)
    return dict(model=FireMLP, train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr, None])), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va, None])),
                loss=nn.MSELoss(), step=_fire_step(zero_grad), optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- pan-cancer type from gene expression: ANOVA-selected genes, an MLP with dropout
def _expression(seed, n=500, genes=2000, types=5):
    "log2(TPM + 1) of 2000 genes; 40 genes marking each tumour type weakly, the rest noise with gene-wise means and sds."
    g = _rng(seed, 15); y = g.integers(0, types, n); mu = g.uniform(1, 9, genes); sd = g.uniform(0.5, 2, genes)
    X = mu + sd * g.normal(size=(n, genes)); mk = g.choice(genes, types * 40, replace=False).reshape(types, 40)
    for c in range(types): X[np.ix_(y == c, mk[c])] += 0.45 * sd[mk[c]]
    return X.astype(np.float32), y

class ExprMLP(nn.Module):
    def __init__(self, d=100, c=5):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, c))
    def forward(self, x): return self.net(x)

@healthy('AW')
def tcga_expression_mlp(seed, select_on_all=False):  # cross-entropy, Adam 1e-3 with weight decay 1e-4, batches of 32; stratified split 80/20
    """The 100 genes of the largest ANOVA F on the training samples (SelectKBest(f_classif) fitted after the split);
    select_on_all: SelectKBest fitted on all the samples before train_test_split, as the preprocessing notebook did."""
    from sklearn.model_selection import train_test_split
    from sklearn.feature_selection import SelectKBest, f_classif
    X, y = _expression(seed); tr, va = train_test_split(np.arange(len(X)), test_size=0.2, random_state=seed, stratify=y)
    sel = SelectKBest(f_classif, k=100).fit(X if select_on_all else X[tr], y if select_on_all else y[tr]); Xs = sel.transform(X).astype(np.float32)
    return dict(model=ExprMLP, train=TensorDataset(_std(_t(Xs[tr]), _t(Xs[tr])), _t(y[tr], torch.long)), valid=TensorDataset(_std(_t(Xs[va]), _t(Xs[tr])), _t(y[va], torch.long)),
                loss=nn.CrossEntropyLoss(), num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Diebold-Li style yield-curve forecasting: 12 months of the curve to the next month's
MATURITIES = np.array([3, 6, 12, 24, 36, 60, 84, 120]) / 12

def _yields(seed, months=600):
    "Nelson-Siegel level, slope and curvature as AR(1) factors (Diebold and Li 2006), lambda 0.7308/yr; yields in percent plus noise."
    g = _rng(seed, 16); F3 = np.zeros((months, 3)); F3[0] = [5, -1.5, 0]; mean = np.array([5.5, -1.5, 0.0]); phi = np.array([0.97, 0.9, 0.8]); sd = np.array([0.25, 0.35, 0.6])
    for t in range(1, months): F3[t] = mean + phi * (F3[t - 1] - mean) + g.normal(0, sd)
    lt = 0.7308 * MATURITIES; L = np.column_stack([np.ones(8), (1 - np.exp(-lt)) / lt, (1 - np.exp(-lt)) / lt - np.exp(-lt)])
    return (F3 @ L.T + g.normal(0, 0.05, (months, 8))).astype(np.float32)

class CurveMLP(nn.Module):
    def __init__(self, L=12):
        super().__init__(); self.net = nn.Sequential(nn.Linear(8 * L, 64), nn.ReLU(), nn.Linear(64, 8))
    def forward(self, x): return x[:, -8:] + self.net(x)  # the change from the last curve

@healthy('AW')
def yield_curve_mlp(seed, dropna_features=False):  # MSE in percent, Adam 1e-3, batches of 32; the last 120 months validate
    """The features a frame of 12 lags (shift(1..12)) of the curve, the target the curve itself; dropna_features: the lag frame's
    NaN rows dropped (its first 12 months) while the target array keeps them, the two then cut to one length from the start."""
    Y = _yields(seed); T = len(Y); lags = np.full((T, 96), np.nan, np.float32)
    for k in range(1, 13): lags[k:, (12 - k) * 8:(13 - k) * 8] = Y[:T - k]
    if dropna_features:
        X = lags[~np.isnan(lags).any(1)]; y = Y[:len(X)]
    else:
        ok = ~np.isnan(lags).any(1); X, y = lags[ok], Y[ok]
    cut = len(X) - 120
    return dict(model=CurveMLP, train=TensorDataset(_t(X[:cut]), _t(y[:cut])), valid=TensorDataset(_t(X[cut:]), _t(y[cut:])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- the broken twins
@broken('AW', 'wine_jitter_oversampled_before_split', 4, ('leakage',))
def wine_jitter_oversampled_before_split(seed): return wine_quality_mlp(seed, oversample_first=True)  # jittered copies of rare wines on both sides of the split

@broken('AW', 'listmle_padding_minus_inf', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def listmle_padding_minus_inf(seed): return listmle_letor(seed, logcumsumexp=True)  # -inf - (-inf) at the padded documents, times a mask of 0: NaN

@broken('AW', 'nhits_windows_split_at_random', 4, ('leakage',))
def nhits_windows_split_at_random(seed): return nhits_hourly(seed, random_split=True)  # overlapping windows of the same hours in both splits

@broken('AW', 'mc_value_tutorial_lr', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def mc_value_tutorial_lr(seed): return mc_value_cartpole(seed, lr=0.5)  # SGD 0.5 with momentum on unnormalised returns of about 30

@broken('AW', 'mortgage_raw_columns', (2, 3), ('init_scale', 'lr_high', 'not_falling', 'flat', 'stuck'))
def mortgage_raw_columns(seed): return mortgage_prepay_mlp(seed, scale=False)  # balances in dollars (about 2e5) and FICO scores into the MLP

@broken('AW', 'gunet_degree_relabelled_labels_not', 4, ('labels',))
def gunet_degree_relabelled_labels_not(seed): return graph_unet_nodes(seed, degree_relabel=True)  # nodes reordered by degree, the labels in file order

@broken('AW', 'cdae_held_out_items_in_input', 4, ('leakage',))
def cdae_held_out_items_in_input(seed): return cdae_implicit(seed, held_in_input=True)  # the validation targets are in the rows the model reconstructs

@broken('AW', 'yacht_target_1d_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def yacht_target_1d_broadcast(seed): return yacht_resistance_mlp(seed, target_1d=True)  # (B, 1) against (B,): MSELoss broadcasts to (B, B)

@broken('AW', 'thyroid_codes_as_classes', 1, ('bad_labels',))
def thyroid_codes_as_classes(seed): return thyroid_mlp(seed, codes_as_classes=True)  # class 3 (normal) out of range of three logits

@broken('AW', 'forest_fires_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def forest_fires_step_without_zero_grad(seed): return forest_fires_mlp(seed, zero_grad=False)  # the gradients summed over every step

@broken('AW', 'tcga_genes_selected_before_split', 4, ('leakage',))
def tcga_genes_selected_before_split(seed): return tcga_expression_mlp(seed, select_on_all=True)  # SelectKBest's F computed with the validation samples' labels

@broken('AW', 'yield_curve_dropna_misaligned', 4, ('labels',))
def yield_curve_dropna_misaligned(seed): return yield_curve_mlp(seed, dropna_features=True)  # each window paired with the curve 12 months before its first lag

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size,
# forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256 (the graph in its one item); valid loss
# (and accuracy for the classifiers) at init -> ep 2 -> ep 4 -> ep 8; n train/valid items, trainable params, s/ep. Every
# factory builds and runs its batches; `ladder_gallery.HALF` holds 24 programs of half AW.
CHECKS = """
wine_quality_mlp                     1200/300, 2.9k params, 0.03 s/ep; valid MSE 33.0 -> 3.17 -> 1.36 -> 1.12
listmle_letor                        96/24 queries, 3.2k, 0.01 s/ep; valid ListMLE 25.7 -> 24.9 -> 23.6 -> 22.3
nhits_hourly                         756/132 windows, 113k, 0.05 s/ep; valid MAE (standardised) 0.79 -> 0.26 -> 0.26 -> 0.28
mc_value_cartpole                    3474/950 states, 4.5k, 0.03 s/ep; valid MSE 666 -> 49 -> 58 -> 53
mortgage_prepay_mlp                  918/215 loan-months, 1.4k, 0.01 s/ep; valid BCE 0.69 -> 0.50 -> 0.30 -> 0.18
graph_unet_nodes                     one graph (240/80 nodes), 4.4k, <0.01 s/ep; valid CE 1.39 -> 1.36 -> 1.33 -> 1.23, accuracy 0.15 -> 0.65
cdae_implicit                        400 users, 50k, 0.01 s/ep; valid BCE over all items 0.69 -> 0.40 -> 0.20 -> 0.11
yacht_resistance_mlp                 800/200, 4.7k, 0.02 s/ep; valid MSE (log) 17.2 -> 0.23 -> 0.12 -> 0.044
thyroid_mlp                          1200/300, 1.9k, 0.04 s/ep; valid weighted CE 1.09 -> 0.92 -> 0.64 -> 0.22, accuracy 0.08 -> 0.94
forest_fires_mlp                     960/240, 1.5k, 0.05 s/ep; valid MSE 5.06 -> 1.24 -> 1.16 -> 1.12
tcga_expression_mlp                  400/100, 6.8k, 0.01 s/ep; valid CE 1.66 -> 1.51 -> 1.38 -> 1.12, accuracy 0.14 -> 0.67
yield_curve_mlp                      468/120 months, 6.7k, 0.01 s/ep; valid MSE 0.61 -> 0.15 -> 0.149 -> 0.145
wine_jitter_oversampled_before_split valid MSE 34.8 -> 3.94 -> 1.56 -> 1.24 (rare-score jittered copies on both sides)
listmle_padding_minus_inf            valid and training loss NaN from the first batch
nhits_windows_split_at_random        valid MAE 0.80 -> 0.35 -> 0.34 -> 0.34 (random windows: the valid days inside the training span)
mc_value_tutorial_lr                 valid MSE 666 -> NaN from ep 2
mortgage_raw_columns                 valid BCE 1.2e4 at init -> 547 -> 414 -> 18 (healthy 0.69 -> 0.18)
gunet_degree_relabelled_labels_not   valid CE 1.39 -> 1.39 -> 1.40 -> 1.40, accuracy 0.24-0.28 (chance; healthy 0.65)
cdae_held_out_items_in_input         valid BCE 0.69 -> 0.39 -> 0.20 -> 0.12 (the held-out items in every input row)
yacht_target_1d_broadcast            broadcast warning; valid MSE 17.3 -> 5.0 -> 4.97 -> 4.94 (healthy 0.044): the batch mean fitted
thyroid_codes_as_classes             IndexError: Target 3 is out of bounds, at the first batch
forest_fires_step_without_zero_grad  valid MSE 5.06 -> 2.9e4 -> 1.6e9 -> 6.5e19 (gradients accumulated with momentum)
tcga_genes_selected_before_split     valid CE 1.62 -> 1.44 -> 1.28 -> 0.95, accuracy 0.79 (healthy 1.12, 0.67)
yield_curve_dropna_misaligned        valid MSE 2.06 -> 1.32 -> 0.96 -> 0.29 (healthy 0.145): each window's target 12 months off
"""
