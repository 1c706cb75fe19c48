"""Half BC of the ladder's gallery: held out from the rules frozen at 4665269 (round 64), and run once on them.
Families not in halves A-BA, taken only from tabular data and business/finance, science and engineering, graphs, recommender
systems and ranking, time series and forecasting, and RL-style supervised models (a half written alongside took other
domains): FT-Transformer (Gorishniy et al. 2021, shrunk: a feature tokenizer of numeric and categorical columns, a [CLS]
token, one pre-norm transformer layer, a LayerNorm-ReLU-linear head on [CLS], BCE with logits, AdamW; a batch of three
tensors and a forward of its own) predicting hotel booking cancellations (Antonio, de Almeida and Nunes 2019's columns:
lead time in days, ADR in euros, nights, previous cancellations, special requests, deposit type, market segment, customer
type); Sill's 1998 min-max monotonic network (groups of hyperplanes, the min over groups of the max within; weights
exp-parameterised and signed so the score rises with utilisation, debt ratio and past-due counts and falls with age and
income) scoring credit default on Give-Me-Some-Credit-style applicants, BCE with logits; a Lagrangian neural network
(Cranmer et al. 2020: an MLP L(q, q'), the accelerations from the Euler-Lagrange equations through torch.func's per-sample
Hessian and a pseudo-inverse; MSE on the accelerations, Adam, a custom step as the authors' loop) of a double pendulum;
NEIMS (Wei et al. 2019, shrunk: a molecular fingerprint through a ReLU MLP into forward and reverse (neutral-loss, aligned to
the precursor mass) spectrum heads mixed by a sigmoid gate; 1 - cosine on square-root intensities; dict items) predicting
electron-ionisation mass spectra of synthetic molecules with replicate spectra, split by molecule; SEAL (Zhang and Chen
2018, shrunk: the 1-hop enclosing subgraph of each candidate link with its target edge removed, DRNL node labels one-hot,
three GCN layers, sum pooling, an MLP, BCE with logits; a collate_fn that builds a block-diagonal batch) predicting links of
a latent-space social graph, held-out edges removed from the graph; STGCN (Yu, Yin and Zhu 2018, shrunk: one ST-Conv block
of gated temporal convolutions around a Chebyshev graph convolution, layer norm, an output temporal convolution; MSE on
z-scored speeds, RMSprop) forecasting road speeds 15 minutes ahead at 12 sensors from an hour, split by time; TSMixer
(Chen et al. 2023: RevIN, two mixer blocks of time-mixing and feature-mixing MLPs with residuals, a temporal projection;
MSE, Adam) forecasting seven channels 12 steps ahead from 48, windows cut within each period of the time split;
position-bias-aware learning to rank from clicks (PAL, Guo et al. 2019: P(click) = P(seen | position) P(relevant | document),
a position tower and a relevance tower, BCE on their product) on a synthetic click log of ten-slot result pages; SR-GNN (Wu
et al. 2019, shrunk: each session a graph of its items with normalised in- and out-adjacency, a gated graph step, a soft
attention readout with the last item, scores against every item embedding, cross-entropy; a collate_fn that pads the
session graphs, a forward of its own) on sessions from an item-transition chain; value iteration networks (Tamar et al.
2016, as kentsommer's PyTorch port: a reward map from the obstacle and goal images, K = 10 rounds of convolutional value
iteration with a max over action channels, the Q values at the agent's cell into a linear layer, logits and their softmax
returned; RMSprop 0.002; cross-entropy over four moves) imitating shortest-path experts on 8 x 8 gridworlds, held-out maps
validating; KalmanNet (Revach et al. 2022, shrunk: a GRU cell computing the Kalman gain from the normalised innovation and
update differences inside the filter's predict-update loop, MSE on the filtered states, Adam) tracking a noisy
constant-velocity target from position measurements; and a multi-species distribution model (a deep SDM after Botella et al.
2018: an MLP from climate, terrain, soil and land-cover covariates to 20 species' presence, BCE with logits over all species;
sites in spatial blocks, held-out blocks validating) of synthetic survey sites.
At most 1000 training items a program (about 800 for most) and under 80k trainable parameters; an epoch of a plain loop
well under a second on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half BA.

Protocol: written by a helper in a worktree at 950b9cf (branch halfBC), held out from the rules of round 64 (frozen at
4665269; the maintainer records the freeze hash in RESULTS.md). The helper read none of the ladder's rules (ntrain/ladder/*,
nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests or any sweep's results, and never ran the
ladder on these programs (no ntrain.ladder call, no bench/ladder_sweep.py, no CLI); it ran no git log. It read
bench/ladder_gallery.py's head, helpers and tail (the import lines), half BA (its structure and contract, as half AO's), the
module docstrings of the other halves and the @broken lines of all of them (for the rung and cause conventions and the
families taken, with greps of the halves for candidate family names), and ladder_sweep.py's --half line. Each program was
checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken
ones are broken as meant), seed 0 (and 1). No program declares groups. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half BC`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

_lt = lambda a: torch.as_tensor(np.asarray(a), dtype=torch.long)
_rng = lambda seed, k: np.random.default_rng(1000 + seed * 4001 + k)

# ---------------------------------------------------------------- FT-Transformer (Gorishniy et al. 2021): hotel booking cancellations
def _hotel(seed, n=1000):
    "Bookings as the hotel_bookings.csv columns: numeric (raw units) and categorical codes, is_canceled."
    g = _rng(seed, 1)
    dep = g.choice(3, n, p=[0.8, 0.15, 0.05])           # No Deposit, Non Refund, Refundable
    seg = g.choice(5, n, p=[0.45, 0.2, 0.15, 0.12, 0.08])  # Online TA, Offline TA/TO, Groups, Direct, Corporate
    cust = g.choice(4, n, p=[0.7, 0.2, 0.07, 0.03])      # Transient, Transient-Party, Contract, Group
    lead = np.round(g.gamma(1.2, 90 + 60 * (seg == 2), n)); adr = np.round(g.gamma(6, 17, n) * (1 + 0.3 * (seg == 0)), 2)
    nights = g.poisson(3, n) + 1; prev = g.poisson(0.15 + 0.4 * (seg == 2), n); req = g.poisson(0.6 * (seg != 2), n)
    z = (-1.4 + 0.006 * lead + 0.004 * (adr - 100) + 0.9 * np.minimum(prev, 3) - 0.7 * req + np.array([0, 2.8, -0.5])[dep]
         + np.array([0.4, -0.3, 0.6, -0.9, -1.0])[seg] + np.array([0.2, -0.3, -0.6, -0.8])[cust])
    y = (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    num = np.column_stack([lead, adr, nights, prev, req]).astype(np.float32); cat = np.column_stack([dep, seg, cust])
    return num, cat, y

class FTTransformer(nn.Module):
    def __init__(self, n_num=5, cards=(3, 5, 4), d=16, heads=2, batch_first=True):
        super().__init__()
        self.w, self.b = nn.Parameter(torch.randn(n_num, d) / d ** 0.5), nn.Parameter(torch.zeros(n_num, d))
        self.cat = nn.Embedding(sum(cards), d); self.register_buffer('off', torch.tensor(np.cumsum([0] + list(cards[:-1]))))
        self.cls = nn.Parameter(torch.randn(1, 1, d) / d ** 0.5)
        self.block = nn.TransformerEncoderLayer(d, heads, dim_feedforward=2 * d, dropout=0.1, batch_first=batch_first, norm_first=True)
        self.head = nn.Sequential(nn.LayerNorm(d), nn.ReLU(), nn.Linear(d, 1))
    def forward(self, xnum, xcat):
        tok = torch.cat([self.cls.expand(len(xnum), -1, -1), xnum[..., None] * self.w + self.b, self.cat(xcat + self.off)], 1)
        return self.head(self.block(tok)[:, 0]).squeeze(-1)

def _ft_fwd(model, b): xn, xc, y = b; return model(xn, xc), y

@healthy('BC')
def ft_transformer_hotel(seed, seq_first=False):  # BCE with logits, AdamW 1e-3 wd 1e-5, batches of 64; a random 80/20 split
    """Numeric columns standardised by the training split's statistics; tokens (batch, tokens, d) into a batch_first
    encoder layer (seq_first: nn.TransformerEncoderLayer's default batch_first=False, so attention runs across the bookings
    of the batch at each token position, and [CLS], the same vector in every row, reads only other rows' [CLS])."""
    num, cat, y = _hotel(seed); p = _rng(seed, 2).permutation(len(y)); tr, va = p[:800], p[800:]
    xn = _t(num); xn = _std(xn, xn[tr])
    ds = lambda i: TensorDataset(xn[i], _lt(cat[i]), _t(y[i]))
    return dict(model=lambda: FTTransformer(batch_first=not seq_first), train=ds(tr), valid=ds(va), forward=_ft_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=1e-5), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Sill's (1998) min-max monotonic network: credit default
def _credit(seed, n=1000):
    "Give Me Some Credit-like applicants: utilisation, age, 30-59 days late, debt ratio, log income, open lines, 90 days late."
    g = _rng(seed, 3)
    util = np.clip(g.beta(0.7, 1.6, n) * 1.3, 0, 1.5); age = np.clip(g.normal(50, 14, n), 21, 90); l30 = g.poisson(0.25 + 0.8 * util, n)
    debt = np.clip(g.gamma(2, 0.18, n), 0, 3); inc = g.normal(8.6, 0.55, n); lines = g.poisson(8, n); l90 = g.poisson(0.05 + 0.4 * util, n)
    z = -2.2 + 2.0 * util - 0.03 * (age - 50) + 0.55 * np.minimum(l30, 4) + 0.6 * debt - 0.5 * (inc - 8.6) + 0.9 * np.minimum(l90, 3) + 0.02 * (lines - 8)
    y = (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    return np.column_stack([util, age, l30, debt, inc, lines, l90]).astype(np.float32), y

class MinMaxNet(nn.Module):
    "Sill (1998): K groups of J hyperplanes; out = min_k max_j (w_kj . x + b_kj); monotone inputs' weights exp(z) * sign."
    def __init__(self, d=7, K=6, J=4, signs=(1, -1, 1, 1, -1, 0, 1)):
        super().__init__(); self.K, self.J = K, J
        self.z = nn.Parameter(torch.randn(K * J, d) * 0.3 - 1.0); self.b = nn.Parameter(torch.randn(K * J) * 0.1)
        s = torch.tensor(signs, dtype=torch.float32); self.register_buffer('s', s); self.register_buffer('free', (s == 0).float())
    def forward(self, x):
        w = torch.exp(self.z) * self.s + self.z * self.free
        h = (x @ w.T + self.b).view(-1, self.K, self.J)
        return h.max(-1).values.min(-1).values

@healthy('BC')
def minmax_credit(seed, shuffle_x_only=False):  # BCE with logits, Adam 5e-3, batches of 64; the first 800 of the shuffled rows train
    """The rows shuffled before the split by permuting X and y together (shuffle_x_only: `np.random.shuffle(X)` in place,
    the labels left in file order)."""
    X, y = _credit(seed); g = _rng(seed, 4)
    if shuffle_x_only: g.shuffle(X)
    else: p = g.permutation(len(y)); X, y = X[p], y[p]
    Xt = _t(X); Xs = _std(Xt, Xt[:800])
    return dict(model=MinMaxNet, train=TensorDataset(Xs[:800], _t(y[:800])), valid=TensorDataset(Xs[800:], _t(y[800:])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a Lagrangian neural network (Cranmer et al. 2020): the double pendulum
def _dp_accel(s, g=9.8):
    "Analytic accelerations of a double pendulum with unit masses and lengths; s = (t1, t2, w1, w2)."
    t1, t2, w1, w2 = s.T; d = t1 - t2; den = 3 - np.cos(2 * d)
    a1 = (-3 * g * np.sin(t1) - g * np.sin(t1 - 2 * t2) - 2 * np.sin(d) * (w2 ** 2 + w1 ** 2 * np.cos(d))) / den
    a2 = 2 * np.sin(d) * (2 * w1 ** 2 + 2 * g * np.cos(t1) + w2 ** 2 * np.cos(d)) / den
    return np.column_stack([a1, a2])

class LNN(nn.Module):
    def __init__(self, h=64):
        super().__init__(); self.L = nn.Sequential(nn.Linear(4, h), nn.Softplus(), nn.Linear(h, h), nn.Softplus(), nn.Linear(h, 1))
    def lag(self, s): return self.L(s).squeeze(-1)
    def forward(self, s):
        from torch.func import vmap, grad, hessian
        g = vmap(grad(self.lag))(s); H = vmap(hessian(self.lag))(s)  # (B, 4), (B, 4, 4)
        Hvv, Hvq = H[:, 2:, 2:], H[:, 2:, :2]
        rhs = g[:, :2] - (Hvq @ s[:, 2:, None]).squeeze(-1)
        return (torch.linalg.pinv(Hvv) @ rhs[..., None]).squeeze(-1)

def _lnn_step(zero_grad=True):
    def step(model, batch, opt):  # the authors' loop: forward, MSE on the accelerations, zero_grad, backward, step
        s, a = batch; loss = F.mse_loss(model(s), a)
        if zero_grad: opt.zero_grad()
        loss.backward(); opt.step(); return loss
    return step

@healthy('BC')
def lnn_double_pendulum(seed, zero_grad=True):  # MSE on the accelerations (rad/s^2), Adam 1e-3, batches of 64; 800 states train, 200 validate
    g = _rng(seed, 5); n = 1000
    s = np.column_stack([g.uniform(-np.pi / 2, np.pi / 2, (n, 2)), g.normal(0, 1.5, (n, 2))]).astype(np.float32)
    a = _dp_accel(s.astype(np.float64)).astype(np.float32)
    return dict(model=LNN, train=TensorDataset(_t(s[:800]), _t(a[:800])), valid=TensorDataset(_t(s[800:]), _t(a[800:])), loss=nn.MSELoss(),
                step=_lnn_step(zero_grad), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- NEIMS (Wei et al. 2019): EI mass spectra from fingerprints
def _spectra(seed, mols=300, reps=4, nfp=128, nb=200):
    """Molecules as sets of substructures (fingerprint bits); each bit a fragment ion at its own m/z and a neutral loss
    seen at M - mass; the precursor mass M an integer below 200; `reps` replicate spectra a molecule (noisy intensities)."""
    g = _rng(seed, 6); fmass = g.integers(15, 120, nfp); fint = g.gamma(1.5, 1.0, nfp); loss_int = g.gamma(1.2, 0.6, nfp)
    fps, Ms, specs, mol = [], [], [], []
    for m in range(mols):
        bits = np.zeros(nfp, np.float32); on = g.choice(nfp, g.integers(6, 14), replace=False); bits[on] = 1
        M = int(min(nb - 1, 60 + fmass[on].sum() // 4 + g.integers(0, 20)))
        base = np.zeros(nb); base[M] += 2.0 * g.random()
        for j in on:
            if fmass[j] < M: base[fmass[j]] += fint[j]; base[M - fmass[j]] += loss_int[j]
        for r in range(reps):
            sp = base * g.lognormal(0, 0.25, nb) + (g.random(nb) < 0.03) * g.random(nb) * 0.2 * (np.arange(nb) <= M)
            fps.append(bits); Ms.append(M); specs.append(np.sqrt(sp / sp.max())); mol.append(m)
    return np.array(fps), np.array(Ms), np.array(specs, np.float32), np.array(mol)

class NEIMS(nn.Module):
    def __init__(self, nfp=128, h=96, nb=200):
        super().__init__(); self.nb = nb
        self.body = nn.Sequential(nn.Linear(nfp, h), nn.ReLU(), nn.Dropout(0.2), nn.Linear(h, h), nn.ReLU())
        self.fwd, self.rev, self.gate = nn.Linear(h, nb), nn.Linear(h, nb), nn.Linear(h, nb)
    def forward(self, fp, M):
        h = self.body(fp); idx = torch.arange(self.nb, device=fp.device)
        src = M[:, None] - idx[None]  # reverse head: bin k predicts the neutral loss M - k
        rev = torch.gather(self.rev(h), 1, src.clamp(0, self.nb - 1)) * (src >= 0)
        gate = torch.sigmoid(self.gate(h)); out = F.relu(gate * self.fwd(h) + (1 - gate) * rev)
        return out * (idx[None] <= M[:, None])  # nothing above the precursor

def cosine_loss(pred, target): return (1 - F.cosine_similarity(pred, target, dim=1, eps=1e-6)).mean()
def _neims_fwd(model, b): return model(b['fp'], b['M']), b['spectrum']

@healthy('BC')
def neims_spectra(seed, split_spectra=False):  # 1 - cosine, Adam 1e-3, batches of 32; molecules split 80/20 (their replicates together)
    """Split by molecule (as NEIST's InChIKey split; split_spectra: the 1200 spectra split at random, so replicate spectra of
    one molecule land on both sides)."""
    fp, M, sp, mol = _spectra(seed); g = _rng(seed, 7)
    if split_spectra: p = g.permutation(len(mol)); tr, va = p[:960], p[960:]
    else: vm = g.permutation(mol.max() + 1)[:60]; va = np.flatnonzero(np.isin(mol, vm)); tr = np.flatnonzero(~np.isin(mol, vm))
    items = lambda ix: ListDataset([dict(fp=_t(fp[i]), M=torch.tensor(int(M[i])), spectrum=_t(sp[i])) for i in ix])
    return dict(model=NEIMS, train=items(tr), valid=items(va), forward=_neims_fwd, loss=cosine_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- SEAL (Zhang and Chen 2018): link prediction from enclosing subgraphs
def _social_graph(seed, n=220):
    "A latent-space graph: nodes in 2-D, edges likelier when close, plus triadic closure."
    g = _rng(seed, 8); z = g.random((n, 2)); d = np.linalg.norm(z[:, None] - z[None], axis=-1)
    A = np.triu(g.random((n, n)) < 0.5 * np.exp(-d / 0.06), 1); A = A | A.T
    for _ in range(300):
        i = g.integers(n); nb = np.flatnonzero(A[i])
        if len(nb) >= 2: a, b = g.choice(nb, 2, replace=False); A[a, b] = A[b, a] = True
    np.fill_diagonal(A, False); return A

def _drnl_subgraph(A, x, y, drop_target=True, cap=8):
    "The 1-hop enclosing subgraph of (x, y) with DRNL labels (Zhang and Chen 2018) and its normalised adjacency."
    nodes = [x, y] + sorted((set(np.flatnonzero(A[x])) | set(np.flatnonzero(A[y]))) - {x, y})
    S = A[np.ix_(nodes, nodes)].copy()
    if drop_target: S[0, 1] = S[1, 0] = False
    def bfs(src, skip):
        dist = np.full(len(nodes), 99); dist[src] = 0; frontier = [src]
        while frontier:
            nxt = []
            for u in frontier:
                for v in np.flatnonzero(S[u]):
                    if v != skip and dist[v] == 99: dist[v] = dist[u] + 1; nxt.append(v)
            frontier = nxt
        return dist
    dx, dy = bfs(0, 1), bfs(1, 0); d = dx + dy
    z = 1 + np.minimum(dx, dy) + (d // 2) * (d // 2 + d % 2 - 1); z[(dx == 99) | (dy == 99)] = 0; z[:2] = 1
    a = S.astype(np.float32) + np.eye(len(nodes), dtype=np.float32); dg = 1 / np.sqrt(a.sum(1))
    return np.eye(cap + 1, dtype=np.float32)[np.minimum(z, cap)], dg[:, None] * a * dg[None]

def seal_collate(items):
    xs, adjs, ys = zip(*items); sizes = [len(x) for x in xs]
    batch = torch.repeat_interleave(torch.arange(len(xs)), torch.tensor(sizes))
    return torch.cat(xs), torch.block_diag(*adjs), batch, torch.stack(ys)

class SEALGCN(nn.Module):
    def __init__(self, f=9, h=32):
        super().__init__(); self.convs = nn.ModuleList([nn.Linear(f, h), nn.Linear(h, h), nn.Linear(h, h)])
        self.mlp = nn.Sequential(nn.Linear(3 * h, h), nn.ReLU(), nn.Dropout(0.3), nn.Linear(h, 1))
    def forward(self, x, adj, batch):
        hs = []
        for c in self.convs: x = torch.tanh(adj @ c(x)); hs.append(x)
        h = torch.cat(hs, -1); out = torch.zeros(int(batch.max()) + 1, h.shape[1]).index_add_(0, batch, h)
        return self.mlp(out).squeeze(-1)

def _seal_fwd(model, b): x, adj, batch, y = b; return model(x, adj, batch), y

@healthy('BC')
def seal_links(seed, keep_target=False):  # BCE with logits, Adam 1e-3, batches of 32; 15% of the edges validate, removed from the graph
    """Training positives are the observed edges, each subgraph with its own target edge removed (keep_target: the
    enclosing subgraph extracted from the training graph as is, the positive link still in it)."""
    A = _social_graph(seed); g = _rng(seed, 9); n = len(A)
    E = np.argwhere(np.triu(A, 1)); E = E[g.permutation(len(E))]; nv = int(0.15 * len(E)); Ev, Et = E[:nv], E[nv:]
    At = np.zeros_like(A); At[Et[:, 0], Et[:, 1]] = At[Et[:, 1], Et[:, 0]] = True
    def negs(k):
        out = set()
        while len(out) < k:
            i, j = sorted(g.integers(0, n, 2))
            if i != j and not A[i, j]: out.add((i, j))
        return np.array(sorted(out))
    Et = Et[:450]; N = negs(len(Et) + len(Ev)); N = N[g.permutation(len(N))]; Nt, Nv = N[:len(Et)], N[len(Et):]
    def items(pos, neg, drop):
        return ListDataset([(_t(x), _t(adj), torch.tensor(float(lab))) for (i, j), lab in [(p, 1) for p in pos] + [(q, 0) for q in neg]
                            for x, adj in [_drnl_subgraph(At, i, j, drop_target=drop)]])
    return dict(model=SEALGCN, train=items(Et, Nt, not keep_target), valid=items(Ev, Nv, True), collate_fn=seal_collate, forward=_seal_fwd,
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- STGCN (Yu, Yin and Zhu 2018): road speeds at 12 sensors
def _road_speeds(seed, N=12, T=1400):
    "Speeds (km/h) every 5 minutes at 12 sensors along two corridors: a daily rush hour and jams that spread upstream."
    g = _rng(seed, 10); A = np.zeros((N, N))
    for i in range(N - 1):
        if i != 5: A[i, i + 1] = A[i + 1, i] = 1
    A[2, 8] = A[8, 2] = 1
    t = np.arange(T); rush = np.exp(-((t % 288 - 100) / 18.0) ** 2) + 0.7 * np.exp(-((t % 288 - 210) / 22.0) ** 2)
    jam = np.zeros((T, N)); 
    for k in range(25):
        s, i = g.integers(0, T), g.integers(0, N); jam[s:s + 30, i] += g.uniform(10, 25)
    for step in range(1, T):  # jams move upstream (to lower indices) and decay
        jam[step] += 0.55 * np.roll(jam[step - 1], -1) * (np.arange(N) < N - 1) + 0.35 * jam[step - 1]
    v = 95 - 35 * rush[:, None] * g.uniform(0.6, 1.2, N) - np.minimum(jam, 60) + g.normal(0, 2.5, (T, N))
    return np.clip(v, 5, 110).astype(np.float32), A

def _cheb_basis(A):
    d = A.sum(1); L = np.eye(len(A)) - A / np.sqrt(np.outer(d, d)).clip(1e-9); lam = np.linalg.eigvalsh(L).max()
    Lt = 2 * L / lam - np.eye(len(A)); return np.stack([np.eye(len(A)), Lt]).astype(np.float32)

class TemporalGLU(nn.Module):
    def __init__(self, i, o, k=3): super().__init__(); self.conv = nn.Conv2d(i, 2 * o, (k, 1)); self.res = nn.Conv2d(i, o, 1) if i != o else nn.Identity(); self.k = k
    def forward(self, x):  # x (B, C, T, N)
        p, q = self.conv(x).chunk(2, 1); return (p + self.res(x)[:, :, self.k - 1:]) * torch.sigmoid(q)

class STGCN(nn.Module):
    def __init__(self, cheb, N=12, T=12, c=16):
        super().__init__(); self.register_buffer('cheb', torch.tensor(cheb))
        self.t1, self.t2 = TemporalGLU(1, c), TemporalGLU(c, c); self.theta = nn.Parameter(torch.randn(2, c, c) * (1 / c) ** 0.5)
        self.norm = nn.LayerNorm([N, c]); self.out = nn.Conv2d(c, c, (T - 4, 1)); self.fc = nn.Linear(c, 1)
    def forward(self, x):  # x (B, T, N) z-scored speeds
        h = self.t1(x[:, None]); h = torch.relu(torch.einsum('knm,bctm,kcd->bdtn', self.cheb, h, self.theta)); h = self.t2(h)
        h = self.norm(h.permute(0, 2, 3, 1)).permute(0, 3, 1, 2); h = torch.relu(self.out(h))[:, :, 0]  # (B, c, N)
        return self.fc(h.transpose(1, 2)).transpose(1, 2)  # (B, 1, N): one output step, as the reference implementation's output layer

def _stgcn_fwd(squeeze=True):
    def fwd(model, b): x, y = b; out = model(x); return (out.squeeze(1) if squeeze else out), y
    return fwd

@healthy('BC')
def stgcn_speeds(seed, keep_step=False):  # MSE on z-scored speeds, RMSprop 1e-3, batches of 32; the last 20% of the time validates
    """An hour (12 steps) in, the speed 3 steps (15 minutes) ahead out at every sensor; the model's (B, 1, N) output
    squeezed to the target's (B, N) in the forward (keep_step: the (B, 1, N) output straight into nn.MSELoss against (B, N))."""
    v, A = _road_speeds(seed); k = int(len(v) * 0.8); m, s = v[:k].mean(), v[:k].std(); z = ((v - m) / s)[..., None]
    def windows(a):
        X = np.stack([a[t:t + 12, :, 0] for t in range(len(a) - 14)]); Y = np.stack([a[t + 14, :, 0] for t in range(len(a) - 14)])
        return TensorDataset(_t(X), _t(Y))
    tr, va = windows(z[:k]), windows(z[k:]); cheb = _cheb_basis(A)
    return dict(model=lambda: STGCN(cheb), train=tr, valid=va, forward=_stgcn_fwd(not keep_step), loss=nn.MSELoss(), optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3),
                **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- TSMixer (Chen et al. 2023): seven channels, 12 steps ahead
def _ett_like(seed, T=1500, C=7):
    "Hourly load-like channels: shared daily and weekly cycles, channel-specific mixes, a drifting level, AR noise; oil temperature last."
    g = _rng(seed, 11); t = np.arange(T)
    base = np.stack([np.sin(2 * np.pi * t / 24), np.cos(2 * np.pi * t / 24), np.sin(2 * np.pi * t / 168), np.cos(2 * np.pi * t / 168)], 1)
    W = g.normal(0, 1, (4, C)); noise = np.zeros((T, C))
    for i in range(1, T): noise[i] = 0.8 * noise[i - 1] + g.normal(0, 0.3, C)
    x = base @ W + noise + np.cumsum(g.normal(0, 0.02, (T, C)), 0)
    x[:, -1] = 0.6 * np.roll(x[:, :3].mean(1), 3) + 0.2 * noise[:, -1]
    return x.astype(np.float32)

class RevIN(nn.Module):
    def __init__(self, C): super().__init__(); self.a, self.b = nn.Parameter(torch.ones(C)), nn.Parameter(torch.zeros(C))
    def norm(self, x): self.mu, self.sd = x.mean(1, keepdim=True).detach(), (x.var(1, keepdim=True, unbiased=False) + 1e-5).sqrt().detach(); return (x - self.mu) / self.sd * self.a + self.b
    def denorm(self, y): return (y - self.b) / (self.a + 1e-10) * self.sd + self.mu

class MixerBlock(nn.Module):
    def __init__(self, L, C, h=32, p=0.1):
        super().__init__(); self.n1, self.n2 = nn.BatchNorm1d(L * C), nn.BatchNorm1d(L * C); self.L, self.C = L, C
        self.time = nn.Sequential(nn.Linear(L, L), nn.ReLU(), nn.Dropout(p)); self.feat = nn.Sequential(nn.Linear(C, h), nn.ReLU(), nn.Dropout(p), nn.Linear(h, C), nn.Dropout(p))
    def _bn(self, bn, x): return bn(x.flatten(1)).view_as(x)
    def forward(self, x):  # (B, L, C)
        x = x + self.time(self._bn(self.n1, x).transpose(1, 2)).transpose(1, 2); return x + self.feat(self._bn(self.n2, x))

class TSMixer(nn.Module):
    def __init__(self, L=48, H=12, C=7, blocks=2):
        super().__init__(); self.rev = RevIN(C); self.blocks = nn.Sequential(*[MixerBlock(L, C) for _ in range(blocks)]); self.proj = nn.Linear(L, H)
    def forward(self, x): return self.rev.denorm(self.proj(self.blocks(self.rev.norm(x)).transpose(1, 2)).transpose(1, 2))

@healthy('BC')
def tsmixer_ett(seed, split_windows=False):  # MSE on standardised channels, Adam 1e-3, batches of 32; the last 20% of the time validates
    """The series split in time (the last 20%), each period standardised by the training period and windowed on its own
    (split_windows: every window of the whole series cut first, then torch's random_split 80/20 of the windows)."""
    x = _ett_like(seed); k = int(len(x) * 0.8); x = (x - x[:k].mean(0)) / x[:k].std(0); L, H = 48, 12
    win = lambda a, step=1: (np.stack([a[t:t + L] for t in range(0, len(a) - L - H + 1, step)]), np.stack([a[t + L:t + L + H] for t in range(0, len(a) - L - H + 1, step)]))
    if split_windows:
        X, Y = win(x, 2); ds = TensorDataset(_t(X), _t(Y)); nt = int(0.8 * len(ds))
        tr, va = torch.utils.data.random_split(ds, [nt, len(ds) - nt], generator=torch.Generator().manual_seed(seed))
    else:
        (X, Y), (Xv, Yv) = win(x[:k], 2), win(x[k - L:], 2); tr, va = TensorDataset(_t(X), _t(Y)), TensorDataset(_t(Xv), _t(Yv))
    return dict(model=TSMixer, train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- PAL (Guo et al. 2019): position-bias-aware learning to rank from clicks
def _click_log(seed, queries=120, slots=10, d=12):
    "Result pages of ten slots: documents' features, their true relevance, the slot shown in, a click if seen and relevant."
    g = _rng(seed, 12); w = g.normal(0, 1, d); exam = 1 / (1 + np.arange(slots)) ** 0.8
    X, pos, click, rel = [], [], [], []
    for q in range(queries):
        f = g.normal(0, 1, (slots, d)) + g.normal(0, 0.5, d); r = 1 / (1 + np.exp(-(f @ w / 2 - 0.5)))
        order = np.argsort(-(f @ w + g.normal(0, 3, slots)))  # the production ranker's order: a noisy relevance
        for slot, j in enumerate(order): X.append(f[j]); pos.append(slot); rel.append(r[j]); click.append(float(g.random() < exam[slot] * r[j]))
    return np.array(X, np.float32), np.array(pos), np.array(click, np.float32), np.array(rel)

class PAL(nn.Module):
    def __init__(self, d=12, slots=10, h=32):
        super().__init__(); self.rel = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1)); self.pos = nn.Embedding(slots, 1)
    def forward(self, x, pos): return torch.sigmoid(self.pos(pos).squeeze(-1)) * torch.sigmoid(self.rel(x).squeeze(-1))  # P(seen) P(relevant)

def _pal_fwd(model, b): x, pos, c = b; return model(x, pos), c

@healthy('BC')
def pal_clicks(seed, logits_loss=False):  # BCE on P(click), Adam 1e-3, batches of 64; the last 20 queries' pages validate
    """nn.BCELoss on the product of the two probabilities (logits_loss: nn.BCEWithLogitsLoss, the CTR code's usual loss,
    kept when the model's output became P(seen) * P(relevant))."""
    X, pos, c, rel = _click_log(seed); k = 1000
    ds = lambda s: TensorDataset(_t(X[s]), _lt(pos[s]), _t(c[s]))
    return dict(model=PAL, train=ds(slice(0, k)), valid=ds(slice(k, None)), forward=_pal_fwd, loss=nn.BCEWithLogitsLoss() if logits_loss else nn.BCELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- SR-GNN (Wu et al. 2019): session-based recommendation
def _sessions(seed, n=1250, items=60):
    "Click sessions of 3-9 items from a sparse item-transition chain with occasional repeats; the last click the target."
    g = _rng(seed, 13); P = np.zeros((items, items))
    for i in range(items): P[i, g.choice(items, 4, replace=False)] = g.dirichlet(np.ones(4) * 0.7)
    out = []
    for _ in range(n):
        s = [int(g.integers(items))]
        for _ in range(g.integers(3, 10) - 1): s.append(int(g.choice(items, p=P[s[-1]])) if g.random() < 0.9 else int(g.integers(items)))
        out.append(s)
    return out

def srgnn_collate(batch):
    "Each session as a graph of its unique items: node ids, in/out adjacency normalised by degree, alias of each click, mask."
    seqs, ys = zip(*batch); n = max(len(set(s)) for s in seqs); T = max(len(s) for s in seqs); B = len(seqs)
    nodes, Ain, Aout, alias, mask = torch.zeros(B, n, dtype=torch.long), torch.zeros(B, n, n), torch.zeros(B, n, n), torch.zeros(B, T, dtype=torch.long), torch.zeros(B, T)
    for b, s in enumerate(seqs):
        u = sorted(set(s)); ix = {v: i for i, v in enumerate(u)}; nodes[b, :len(u)] = torch.tensor(u)
        for a, c in zip(s[:-1], s[1:]): Aout[b, ix[a], ix[c]] = 1
        Ain[b] = Aout[b].T; Aout[b] /= Aout[b].sum(1, keepdim=True).clamp_min(1); Ain[b] /= Ain[b].sum(1, keepdim=True).clamp_min(1)
        alias[b, :len(s)] = torch.tensor([ix[v] for v in s]); mask[b, :len(s)] = 1
    return nodes, Ain, Aout, alias, mask, torch.tensor(ys)

class SRGNN(nn.Module):
    def __init__(self, items=60, d=32):
        super().__init__(); self.emb = nn.Embedding(items, d); self.ein, self.eout = nn.Linear(d, d), nn.Linear(d, d); self.gru = nn.GRUCell(2 * d, d)
        self.q1, self.q2, self.qv = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, 1, bias=False); self.w3 = nn.Linear(2 * d, d, bias=False)
        for p in self.parameters(): nn.init.uniform_(p, -1 / d ** 0.5, 1 / d ** 0.5)
    def forward(self, nodes, Ain, Aout, alias, mask):
        h = self.emb(nodes); B, n, d = h.shape
        a = torch.cat([Ain @ self.ein(h), Aout @ self.eout(h)], -1); h = self.gru(a.reshape(B * n, -1), h.reshape(B * n, d)).view(B, n, d)
        seq = torch.gather(h, 1, alias[..., None].expand(-1, -1, d)); last = seq[torch.arange(B), mask.sum(1).long() - 1]
        alpha = self.qv(torch.sigmoid(self.q1(last)[:, None] + self.q2(seq))) * mask[..., None]
        s = self.w3(torch.cat([(alpha * seq).sum(1), last], -1)); return s @ self.emb.weight.T

def _srgnn_fwd(model, b): *x, y = b; return model(*x), y

@healthy('BC')
def srgnn_sessions(seed, sort_sessions=False):  # cross-entropy over 60 items, Adam 1e-3 wd 1e-5, batches of 50; the last 250 sessions validate
    """Each session's prefix the input and its last click the target, as the preprocess script's (sort_sessions: the
    prefixes sorted by length to batch sessions of a size together, `inputs.sort(key=len)`, the target list left as built)."""
    S = _sessions(seed); X, Y = [s[:-1] for s in S], [s[-1] for s in S]
    Xt, Yt = X[:1000], Y[:1000]
    if sort_sessions: Xt = sorted(Xt, key=len)
    return dict(model=SRGNN, train=ListDataset(list(zip(Xt, Yt))), valid=ListDataset(list(zip(X[1000:], Y[1000:]))), collate_fn=srgnn_collate,
                forward=_srgnn_fwd, loss=nn.CrossEntropyLoss(), num_classes=60,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-5), **_keys(seed, batch_size=50))

# ---------------------------------------------------------------- value iteration networks (Tamar et al. 2016): gridworld imitation
_MOVES = np.array([(-1, 0), (1, 0), (0, -1), (0, 1)])

def _gridworlds(seed, maps=125, per=8, S=8):
    "Random obstacle maps with a goal; from free cells, the expert's shortest-path move (ties broken at random)."
    g = _rng(seed, 14); out = []
    while len(out) < maps * per:
        obs = (g.random((S, S)) < 0.2).astype(np.float32); obs[[0, -1], :] = 1; obs[:, [0, -1]] = 1
        free = np.argwhere(obs == 0); gx, gy = free[g.integers(len(free))]
        dist = np.full((S, S), 99); dist[gx, gy] = 0; fr = [(gx, gy)]
        while fr:
            nxt = []
            for x, y in fr:
                for dx, dy in _MOVES:
                    if obs[x + dx, y + dy] == 0 and dist[x + dx, y + dy] == 99: dist[x + dx, y + dy] = dist[x, y] + 1; nxt.append((x + dx, y + dy))
            fr = nxt
        cand = [tuple(c) for c in free if 0 < dist[tuple(c)] < 99]
        if len(cand) < per: continue
        goal = np.zeros((S, S), np.float32); goal[gx, gy] = 10
        for j in g.choice(len(cand), per, replace=False):
            x, y = cand[j]; best = [a for a, (dx, dy) in enumerate(_MOVES) if dist[x + dx, y + dy] == dist[x, y] - 1]
            out.append((np.stack([obs, goal]), x, y, int(g.choice(best))))
    return out

class VIN(nn.Module):
    def __init__(self, l_h=50, l_q=8, k=10, actions=4):
        super().__init__(); self.k = k
        self.h = nn.Conv2d(2, l_h, 3, padding=1); self.r = nn.Conv2d(l_h, 1, 1, bias=False); self.q = nn.Conv2d(1, l_q, 3, padding=1, bias=False)
        self.w = nn.Parameter(torch.zeros(l_q, 1, 3, 3)); self.fc = nn.Linear(l_q, actions, bias=False); self.sm = nn.Softmax(dim=1)
    def forward(self, X, sx, sy):
        r = self.r(self.h(X)); q = self.q(r); v = q.max(1, keepdim=True).values
        for _ in range(self.k - 1): q = F.conv2d(torch.cat([r, v], 1), torch.cat([self.q.weight, self.w], 1), padding=1); v = q.max(1, keepdim=True).values
        q = F.conv2d(torch.cat([r, v], 1), torch.cat([self.q.weight, self.w], 1), padding=1)
        logits = self.fc(q[torch.arange(len(X)), :, sx, sy]); return logits, self.sm(logits)

def _vin_fwd(probs):
    def fwd(model, b): X, sx, sy, a = b; logits, p = model(X, sx, sy); return (p if probs else logits), a
    return fwd

@healthy('BC')
def vin_gridworld(seed, probs=False):  # cross-entropy over four moves, RMSprop 0.002 eps 1e-6, batches of 32; the last 25 maps validate
    """The model returns (logits, softmax(logits)) as the port; the loss takes the logits (probs: the second output, the
    one the port's test loop takes its argmax of, into nn.CrossEntropyLoss)."""
    D = _gridworlds(seed); k = 100 * 8
    ds = lambda rows: TensorDataset(_t(np.stack([r[0] for r in rows])), _lt([r[1] for r in rows]), _lt([r[2] for r in rows]), _lt([r[3] for r in rows]))
    return dict(model=VIN, train=ds(D[:k]), valid=ds(D[k:]), forward=_vin_fwd(probs), loss=nn.CrossEntropyLoss(), num_classes=4,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=0.002, eps=1e-6), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- KalmanNet (Revach et al. 2022): tracking a constant-velocity target
def _tracks(seed, n=750, T=30, dt=0.1):
    "Constant-velocity targets with process noise the filter does not know; positions measured with noise."
    g = _rng(seed, 15); Fm = np.array([[1, dt], [0, 1]]); q2, r2 = 0.5, 0.25
    Q = q2 * np.array([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]])
    x = np.zeros((n, T, 2)); y = np.zeros((n, T, 1)); s = np.column_stack([g.normal(0, 1, n), g.normal(0, 1, n)])
    for t in range(T):
        s = s @ Fm.T + g.multivariate_normal(np.zeros(2), Q, n); x[:, t] = s; y[:, t, 0] = s[:, 0] + g.normal(0, np.sqrt(r2), n)
    return y.astype(np.float32), x.astype(np.float32)

class KalmanNet(nn.Module):
    def __init__(self, h=32, dt=0.1):
        super().__init__(); self.register_buffer('F', torch.tensor([[1, dt], [0, 1.0]])); self.register_buffer('H', torch.tensor([[1.0, 0]]))
        self.inp = nn.Sequential(nn.Linear(1 + 2 + 1, h), nn.ReLU()); self.gru = nn.GRUCell(h, h); self.out = nn.Linear(h, 2); self.h = h
    def forward(self, y):  # y (B, T, 1) -> filtered states (B, T, 2)
        B, T, _ = y.shape; x = torch.zeros(B, 2); hid = torch.zeros(B, self.h); dx = torch.zeros(B, 2); y_prev = torch.zeros(B, 1); out = []
        for t in range(T):
            xp = x @ self.F.T; innov = y[:, t] - xp @ self.H.T
            feat = torch.cat([F.normalize(innov, dim=0), F.normalize(dx, dim=0), F.normalize(y[:, t] - y_prev, dim=0)], 1)
            hid = self.gru(self.inp(feat), hid); K = self.out(hid)  # the Kalman gain (2 x 1)
            xn = xp + K * innov; dx = xn - x; x = xn; y_prev = y[:, t]; out.append(x)
        return torch.stack(out, 1)

@healthy('BC')
def kalmannet_tracking(seed, lr=1e-3):  # MSE on the filtered states, Adam 1e-3 wd 1e-5, batches of 32; 600 tracks train, 150 validate
    y, x = _tracks(seed)
    return dict(model=KalmanNet, train=TensorDataset(_t(y[:600]), _t(x[:600])), valid=TensorDataset(_t(y[600:]), _t(x[600:])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=lr, weight_decay=1e-5), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a deep multi-species distribution model (after Botella et al. 2018)
def _survey(seed, n=1000, sp=20):
    """Survey sites on a 20 x 20 km region: covariates (temperature, precipitation, elevation, slope, soil pH, NDVI, four
    land-cover classes) smooth in space, each species a Gaussian niche; site ids 'S1'..'S1000' in survey order."""
    g = _rng(seed, 16); xy = g.random((n, 2)) * 20
    def field(scale):
        c = g.random((30, 2)) * 20; w = g.normal(0, 1, 30); d = np.linalg.norm(xy[:, None] - c[None], axis=-1)
        return (np.exp(-(d / scale) ** 2) * w).sum(1)
    elev = 600 + 300 * field(6); temp = 14 - 0.006 * (elev - 600) + 1.5 * field(8); prec = 800 + 120 * field(5) + 0.2 * (elev - 600)
    slope = np.abs(field(3)) * 10; ph = 6.5 + 0.6 * field(4); ndvi = 1 / (1 + np.exp(-(prec - 800) / 150 + 0.3 * np.abs(temp - 14)))
    lc = np.argmax(np.column_stack([field(4) for _ in range(4)]), 1); X = np.column_stack([temp, prec, elev, slope, ph, ndvi, np.eye(4)[lc]])
    Z = (X[:, :6] - X[:, :6].mean(0)) / X[:, :6].std(0); mu = g.normal(0, 0.8, (sp, 6)); tol = g.uniform(0.6, 1.5, (sp, 6)); imp = g.random((sp, 6)) < 0.5
    logit = 1.5 - 0.5 * (((Z[:, None] - mu[None]) / tol[None]) ** 2 * imp[None]).sum(-1) + g.normal(0, 1, (sp, 4))[:, lc].T
    Y = (g.random((n, sp)) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return X.astype(np.float32), Y, xy, np.array([f'S{i + 1}' for i in range(n)])

class DeepSDM(nn.Module):
    def __init__(self, d=10, sp=20, h=64):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Dropout(0.2), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, sp))
    def forward(self, x): return self.net(x)

@healthy('BC')
def deep_sdm_survey(seed, presence_by_site_id=False):  # BCE with logits over 20 species, Adam 1e-3, batches of 32; held-out 5 km blocks validate
    """Covariates from the sites file and presences from the observations file, both in survey order, joined by position
    (presence_by_site_id: the presence table comes out of a groupby on the site id, sorted as strings 'S1', 'S10', 'S100',
    ..., and is joined to the covariates by position)."""
    X, Y, xy, sid = _survey(seed)
    if presence_by_site_id: Y = Y[np.argsort(sid, kind='stable')]
    block = (xy[:, 0] // 5).astype(int) * 4 + (xy[:, 1] // 5).astype(int); vb = _rng(seed, 17).permutation(16)[:3]
    va = np.isin(block, vb); Xt = _t(X); Xs = _std(Xt, Xt[~va])
    return dict(model=DeepSDM, train=TensorDataset(Xs[~va], _t(Y[~va])), valid=TensorDataset(Xs[va], _t(Y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- the broken twins
@broken('BC', 'ft_transformer_batch_first_default', (1, 3), ('not_falling', 'flat', 'stuck'))
def ft_transformer_batch_first_default(seed): return ft_transformer_hotel(seed, seq_first=True)  # batch_first left False: every row's output is the same

@broken('BC', 'minmax_credit_x_shuffled_alone', 4, ('labels',))
def minmax_credit_x_shuffled_alone(seed): return minmax_credit(seed, shuffle_x_only=True)  # np.random.shuffle(X) in place, y in file order

@broken('BC', 'lnn_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def lnn_no_zero_grad(seed): return lnn_double_pendulum(seed, zero_grad=False)  # the custom loop never zeroes the gradients

@broken('BC', 'neims_replicates_split_at_random', 4, ('leakage',))
def neims_replicates_split_at_random(seed): return neims_spectra(seed, split_spectra=True)  # replicate spectra of one molecule on both sides

@broken('BC', 'seal_target_link_kept', 4, ('leakage',))
def seal_target_link_kept(seed): return seal_links(seed, keep_target=True)  # training positives carry their own edge; validation ones never do

@broken('BC', 'stgcn_output_step_not_squeezed', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def stgcn_output_step_not_squeezed(seed): return stgcn_speeds(seed, keep_step=True)  # (B, 1, N) against (B, N): MSE over (B, B, N)

@broken('BC', 'tsmixer_windows_split_at_random', 4, ('leakage',))
def tsmixer_windows_split_at_random(seed): return tsmixer_ett(seed, split_windows=True)  # overlapping windows on both sides of a random split

@broken('BC', 'pal_probability_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def pal_probability_into_bce_with_logits(seed): return pal_clicks(seed, logits_loss=True)  # P(seen) P(relevant) squashed again by the loss

@broken('BC', 'srgnn_sessions_sorted_targets_not', 4, ('labels',))
def srgnn_sessions_sorted_targets_not(seed): return srgnn_sessions(seed, sort_sessions=True)  # inputs sorted by length, targets in the old order

@broken('BC', 'vin_softmax_into_cross_entropy', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def vin_softmax_into_cross_entropy(seed): return vin_gridworld(seed, probs=True)  # the port's softmax output into nn.CrossEntropyLoss

@broken('BC', 'kalmannet_adam_lr_one', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def kalmannet_adam_lr_one(seed): return kalmannet_tracking(seed, lr=1.0)  # lr=1 for Adam

@broken('BC', 'deep_sdm_presences_sorted_by_site_id', 4, ('labels',))
def deep_sdm_presences_sorted_by_site_id(seed): return deep_sdm_survey(seed, presence_by_site_id=True)  # 'S1', 'S10', 'S100' order joined by position

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size,
# forward, loss (cross-entropy where none), step and collate_fn, train shuffled, valid in batches of the training size;
# valid loss init -> after 6 epochs; s/ep the seconds of an epoch of training, params the trainable ones. Every factory
# builds and runs its batches; `ladder_gallery.HALF` holds 24 programs of half BC.
CHECKS = """
ft_transformer_hotel                     valid BCE 0.700 -> 0.518; 800 bookings train, 200 validate; 2.6k params; 0.05 s/ep
minmax_credit                            valid BCE 0.647 -> 0.560; 800 applicants train, 200 validate; 0.2k params; 0.01 s/ep
lnn_double_pendulum                      valid MSE (rad/s^2)^2 4949 -> 86; 800 states train, 200 validate; 4.5k params; 0.10 s/ep
neims_spectra                            valid 1-cos 0.845 -> 0.414; 240 molecules (960 spectra) train, 60 validate; 80k params; 0.04 s/ep
seal_links                               valid BCE 0.667 -> 0.402; 586 links train, 104 validate; 5.6k params; 0.03 s/ep
stgcn_speeds                             valid MSE (z) 0.872 -> 0.119; 1106 windows train, 266 validate; 4.7k params; 0.18 s/ep
tsmixer_ett                              valid MSE (z) 1.543 -> 0.207; 571 windows train, the last 20% of time validates; 9.0k params; 0.10 s/ep
pal_clicks                               valid BCE 0.553 -> 0.395; 100 pages (1000 rows) train, 20 validate; 1.5k params; 0.02 s/ep
srgnn_sessions                           valid CE 4.097 -> 3.593; 1000 sessions train, 250 validate; 17.6k params; 0.14 s/ep
vin_gridworld                            valid CE 1.389 -> 0.723; 100 maps (800 states) train, 25 validate; 1.2k params; 0.14 s/ep
kalmannet_tracking                       valid MSE 0.718 -> 0.289; 600 tracks train, 150 validate; 6.6k params; 0.38 s/ep
deep_sdm_survey                          valid BCE 0.686 -> 0.483; 807 sites train, 3 held-out blocks validate; 6.2k params; 0.02 s/ep
ft_transformer_batch_first_default       valid BCE 0.705 -> 0.682, train 0.695 -> 0.685: flat at the base rate
minmax_credit_x_shuffled_alone           valid BCE 0.996 -> 0.878 (healthy 0.560): labels unrelated to rows
lnn_no_zero_grad                         valid MSE 4949 -> 92 (healthy 86): Adam on accumulated gradients still descends here
neims_replicates_split_at_random         valid 1-cos 0.846 -> 0.167 (healthy 0.414): replicates on both sides look better
seal_target_link_kept                    valid BCE 0.667 -> 0.406 (healthy 0.402) in 6 epochs: the shortcut not yet dominant
stgcn_output_step_not_squeezed           valid MSE 0.923 -> 0.941, train 1.16 -> 0.95: stuck at the batch mean (broadcast warning)
tsmixer_windows_split_at_random          valid MSE 1.633 -> 0.190 (healthy 0.207): overlapping windows on both sides
pal_probability_into_bce_with_logits     valid loss 0.796 -> 0.700, flat
srgnn_sessions_sorted_targets_not        valid CE 4.097 -> 3.816 (healthy 3.593)
vin_softmax_into_cross_entropy           valid CE 1.387 -> 1.025 (healthy 0.723)
kalmannet_adam_lr_one                    NaN in the first epoch
deep_sdm_presences_sorted_by_site_id     valid BCE 0.691 -> 0.622 (healthy 0.483)
"""
