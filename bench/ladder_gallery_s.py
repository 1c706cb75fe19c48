"""Half S of the ladder's gallery: held out from the rules frozen at 1627d81, and run once on them.
Families not in halves A-R: a DenseNet-BC on digits (dense connectivity, bottleneck and transition layers, torchvision's
functional dropout; SGD 0.1 with Nesterov momentum, the paper's), a DeepONet learning the antiderivative operator (a branch net
of a function's values at 51 sensors, a trunk net of the query point, their dot product; functions drawn from a Gaussian
random field), GloVe word vectors fitted to a co-occurrence matrix counted from a synthetic topic corpus (the weighted least
squares of log counts, Adagrad 0.05, held-out word pairs as the validation set), a Deep Interest Network for click-through
(attention of the candidate item over the user's padded behaviour history, Dice activations, BCE), a sparse variational
Gaussian process (whitened inducing points, an ARD RBF kernel, a dict output, the negative ELBO over minibatches), an echo
state network forecasting the Mackey-Glass series (a fixed random leaky reservoir, only the linear readout trained), MAML on
sine regression tasks (a batch of tasks; the forward adapts per-task weights on the support set with a second-order inner
step and predicts the query set, in evaluation too), LISTA (learned ISTA unrolled five times, initialised from the
dictionary) recovering sparse codes, a Weibull time-to-event net (WTTE-style censored log-likelihood, times in raw days), a
mean-precision beta regression of vote shares (SGD with momentum), a ConvLSTM predicting the next frames of bouncing squares
(per-pixel BCE, RMSprop, a custom step) and a ChebNet (Chebyshev spectral graph convolutions, K=3) classifying the nodes of a
co-purchase graph in one full-graph batch. Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators;
ladder_gallery imports this module after half R.

Protocol: written by a helper in a worktree at 9b391b1, held out from the rules frozen at 1627d81: the maintainer read nothing
of it before the freeze, and the helper wrote it without reading the ladder's rules (ntrain/ladder/*.py, nbs/02_ladder and the
rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's results; only
`ntrain.ladder`'s public signature and docstring and the factory format of halves A-R (their @broken lines for the rung and
cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a
few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before any ladder
run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half S`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- DenseNet-BC on digits
class DenseLayer(nn.Module):  # torchvision.models.densenet._DenseLayer: BN-ReLU-1x1 conv (bottleneck), BN-ReLU-3x3 conv, dropout
    def __init__(self, c_in, growth=12, bn_size=4, drop_rate=0.2, functional=False):
        super().__init__(); self.drop_rate, self.functional = drop_rate, functional
        self.norm1, self.conv1 = nn.BatchNorm2d(c_in), nn.Conv2d(c_in, bn_size * growth, 1, bias=False)
        self.norm2, self.conv2 = nn.BatchNorm2d(bn_size * growth), nn.Conv2d(bn_size * growth, growth, 3, padding=1, bias=False)
    def forward(self, feats):  # the list of every earlier feature map in the block
        h = self.conv1(F.relu(self.norm1(torch.cat(feats, 1))))
        h = self.conv2(F.relu(self.norm2(h)))
        if self.drop_rate > 0:  # functional: `F.dropout(h, p=self.drop_rate)` with torchvision's `training=self.training` left out
            h = F.dropout(h, p=self.drop_rate) if self.functional else F.dropout(h, p=self.drop_rate, training=self.training)
        return h

class DenseBlock(nn.Module):
    def __init__(self, n_layers, c_in, growth=12, **kw):
        super().__init__(); self.layers = nn.ModuleList(DenseLayer(c_in + i * growth, growth, **kw) for i in range(n_layers))
    def forward(self, x):
        feats = [x]
        for layer in self.layers: feats.append(layer(feats))
        return torch.cat(feats, 1)

class DenseNetBC(nn.Module):  # Huang et al. 2017, DenseNet-BC shrunk for 8x8: a 2k-channel stem, two dense blocks, a compressing transition
    def __init__(self, growth=12, layers=(3, 3), compression=0.5, functional=False):
        super().__init__()
        c = 2 * growth; self.stem = nn.Conv2d(1, c, 3, padding=1, bias=False)
        self.block1 = DenseBlock(layers[0], c, growth, functional=functional); c += layers[0] * growth
        c_t = int(c * compression)
        self.trans = nn.Sequential(nn.BatchNorm2d(c), nn.ReLU(), nn.Conv2d(c, c_t, 1, bias=False), nn.AvgPool2d(2))
        self.block2 = DenseBlock(layers[1], c_t, growth, functional=functional); c = c_t + layers[1] * growth
        self.norm, self.fc = nn.BatchNorm2d(c), nn.Linear(c, 10)
        for m in self.modules():  # torchvision's init
            if isinstance(m, nn.Conv2d): nn.init.kaiming_normal_(m.weight)
            elif isinstance(m, nn.Linear): nn.init.constant_(m.bias, 0)
    def forward(self, x):
        h = self.block2(self.trans(self.block1(self.stem(x))))
        return self.fc(F.adaptive_avg_pool2d(F.relu(self.norm(h)), 1).flatten(1))

@healthy('S')
def densenet_digits(seed, functional=False):  # CrossEntropyLoss, SGD 0.1 Nesterov momentum 0.9 weight decay 1e-4 (the paper's), batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: DenseNetBC(functional=functional), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(),
                num_classes=10, optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4),
                **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- DeepONet learning the antiderivative operator
GRID_O = 101  # [0, 1] at steps of 0.01; the sensors every other grid point (51)

def _antiderivative(seed, n_funcs, per_func=10, split=0):
    """u drawn from a zero-mean Gaussian random field (RBF kernel, length scale 0.2) on the grid; s(y) = int_0^y u by the
    trapezoid rule; each row one function's 51 sensor values, one query point y and s(y) (DeepXDE's antiderivative example)."""
    g = _gen(seed * 1009 + split)
    s = torch.linspace(0, 1, GRID_O, dtype=torch.float64)
    K = torch.exp(-0.5 * (s[:, None] - s[None]) ** 2 / 0.2 ** 2) + 1e-8 * torch.eye(GRID_O, dtype=torch.float64)
    u = (torch.linalg.cholesky(K) @ torch.randn(GRID_O, n_funcs, generator=g, dtype=torch.float64)).T.float()
    cum = torch.cat([torch.zeros(n_funcs, 1), torch.cumsum((u[:, 1:] + u[:, :-1]) / 2 * 0.01, 1)], 1)
    idx = torch.randint(0, GRID_O, (n_funcs, per_func), generator=g)
    sensors = u[:, ::2].repeat_interleave(per_func, 0)
    y = (idx.float() / (GRID_O - 1)).reshape(-1, 1)
    return TensorDataset(sensors, y, cum.gather(1, idx).reshape(-1, 1))

class DeepONet(nn.Module):  # Lu et al. 2021: G(u)(y) = sum_k b_k(u) t_k(y) + b0; branch [51, 40, 40], trunk [1, 40, 40], ReLU, Glorot normal
    def __init__(self, m=51, width=40, init_std=None):
        super().__init__()
        self.branch = nn.Sequential(nn.Linear(m, width), nn.ReLU(), nn.Linear(width, width))
        self.trunk = nn.Sequential(nn.Linear(1, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.b0 = nn.Parameter(torch.zeros(1))
        for mod in self.modules():
            if isinstance(mod, nn.Linear):  # init_std: "Glorot normal" written as nn.init.normal_(w, std=1.0)
                if init_std is None: nn.init.xavier_normal_(mod.weight)
                else: nn.init.normal_(mod.weight, std=init_std)
                nn.init.zeros_(mod.bias)
    def forward(self, u, y): return (self.branch(u) * self.trunk(y)).sum(-1, keepdim=True) + self.b0

def _deeponet_fwd(model, b): u, y, s = b; return model(u, y), s

@healthy('S')
def deeponet_antiderivative(seed, init_std=None):  # MSELoss, Adam 1e-3 (DeepXDE's example), batches of 128; validation on unseen functions
    return dict(model=lambda: DeepONet(init_std=init_std), train=_antiderivative(seed, 150), valid=_antiderivative(seed, 50, split=1),
                forward=_deeponet_fwd, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- GloVe on a co-occurrence matrix
V_G, TOPICS_G = 64, 8

def _cooccurrence(seed, window=5, n_docs=400, doc_len=150):
    """A corpus of 400 documents of 150 tokens: each document mixes two of 8 topics (8 words each, Zipf-like within the topic)
    with 20% background words; GloVe's symmetric window of 5, each pair counted 1/distance."""
    g = _gen(seed * 1013)
    topic = torch.arange(V_G) % TOPICS_G
    within = 1.0 / (1 + torch.arange(V_G) // TOPICS_G).float()
    docs = torch.stack([torch.randperm(TOPICS_G, generator=g)[:2] for _ in range(n_docs)])
    p = ((topic[None] == docs[:, :1]) * 0.55 + (topic[None] == docs[:, 1:]) * 0.25).float() * within / 1.6 + 0.2 * within / within.sum()
    tok = torch.multinomial(p, doc_len, replacement=True, generator=g)
    X = torch.zeros(V_G, V_G)
    for d in range(1, window + 1):
        a, b = tok[:, :-d].flatten(), tok[:, d:].flatten()
        X.index_put_((a, b), torch.full_like(a, 1.0 / d, dtype=torch.float32), accumulate=True)
        X.index_put_((b, a), torch.full_like(a, 1.0 / d, dtype=torch.float32), accumulate=True)
    return X

class GloVe(nn.Module):  # Pennington et al. 2014: w_i . w~_j + b_i + b~_j; the reference C code's init uniform in +-0.5/d
    def __init__(self, V=V_G, d=16):
        super().__init__()
        self.w, self.wt, self.b, self.bt = nn.Embedding(V, d), nn.Embedding(V, d), nn.Embedding(V, 1), nn.Embedding(V, 1)
        for e in (self.w, self.wt, self.b, self.bt): nn.init.uniform_(e.weight, -0.5 / d, 0.5 / d)
    def forward(self, i, j): return (self.w(i) * self.wt(j)).sum(-1) + self.b(i)[:, 0] + self.bt(j)[:, 0]

def glove_loss(pred, x, x_max=100.0, alpha=0.75):  # f(X_ij) (w_i . w~_j + b_i + b~_j - log X_ij)^2, f = min(1, (X/x_max)^alpha)
    f = (x / x_max).clamp(max=1.0) ** alpha
    return (f * (pred - torch.log(x)) ** 2).mean()

def _glove_fwd(model, b): i, j, x = b; return model(i, j), x

@healthy('S')
def glove_cooc(seed, misaligned=False):  # Adagrad 0.05 (the paper's), batches of 128; 15% of the nonzero pairs held out
    X = _cooccurrence(seed)
    i, j = X.nonzero(as_tuple=True); x = X[i, j]
    p = torch.randperm(len(x), generator=_gen(seed * 1019)); i, j, x = i[p], j[p], x[p]
    nv = int(0.15 * len(x)); ti, tj, tx = i[nv:], j[nv:], x[nv:]
    if misaligned:  # the pair file written in most_common() order (by count), the count column read from the dict's unsorted values()
        order = tx.argsort(descending=True); ti, tj = ti[order], tj[order]
    return dict(model=GloVe, train=TensorDataset(ti, tj, tx), valid=TensorDataset(i[:nv], j[:nv], x[:nv]), forward=_glove_fwd, loss=glove_loss,
                optimizer=lambda p: torch.optim.Adagrad(p, lr=0.05), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a Deep Interest Network for click-through
ITEMS_D, CATS_D, HIST_D = 150, 10, 12

def _din_catalog(seed):
    g = _gen(seed * 1021)
    cat = torch.cat([torch.zeros(1, dtype=torch.long), 1 + torch.randint(0, CATS_D, (ITEMS_D,), generator=g)])  # item 0: padding, category 0
    quality = torch.cat([torch.zeros(1), 0.5 * torch.randn(ITEMS_D, generator=g)])
    return cat, quality

def _behaviours(seed, n=3000, n_valid=600, off_by_one=False):
    """Users with two favourite categories and 4-12 past clicks (80% in the favourites, padded with item 0 at the end); a
    candidate item (half from the favourites); a click with a probability rising with the share of the history in the
    candidate's category, a match with the latest click, and the item's quality."""
    cat, quality = _din_catalog(seed)
    g = _gen(seed * 1031)
    by_cat = [torch.nonzero(cat == c)[:, 0] for c in range(CATS_D + 1)]
    fav = torch.stack([1 + torch.randperm(CATS_D, generator=g)[:2] for _ in range(n)])
    def draw(favs, p_fav):
        if torch.rand(1, generator=g).item() < p_fav:
            c = int(favs[torch.randint(0, 2, (1,), generator=g)]); pool = by_cat[c]
            return int(pool[torch.randint(0, len(pool), (1,), generator=g)])
        return 1 + int(torch.randint(0, ITEMS_D, (1,), generator=g))
    hist = torch.zeros(n, HIST_D, dtype=torch.long); cand = torch.zeros(n, dtype=torch.long)
    lens = torch.randint(4, HIST_D + 1, (n,), generator=g)
    for u in range(n):
        for t in range(int(lens[u])): hist[u, t] = draw(fav[u], 0.8)
        cand[u] = draw(fav[u], 0.5)
    same = ((cat[hist] == cat[cand][:, None]) & (hist > 0)).float()
    z = 4.0 * same.sum(1) / lens + 1.5 * same[torch.arange(n), lens - 1] + quality[cand] - 2.5
    y = (torch.rand(n, generator=g) < torch.sigmoid(z)).float()
    if off_by_one: y = torch.cat([y[-1:], y[:-1]])  # the click column read from a log whose header line was counted as a row
    return TensorDataset(hist[n_valid:], cand[n_valid:], y[n_valid:]), TensorDataset(hist[:n_valid], cand[:n_valid], y[:n_valid])

class Dice(nn.Module):  # DIN's data-adaptive activation: a sigmoid of the batch-normalised input gates x against alpha * x
    def __init__(self, d): super().__init__(); self.bn = nn.BatchNorm1d(d, affine=False, eps=1e-9); self.alpha = nn.Parameter(torch.zeros(d))
    def forward(self, x): p = torch.sigmoid(self.bn(x)); return p * x + (1 - p) * self.alpha * x

class DIN(nn.Module):  # Zhou et al. 2018: item and category embeddings, a local activation unit over [q, k, q - k, q * k] (weights not softmaxed), an MLP over [interest, q, interest * q]
    def __init__(self, item_cat, e=8):
        super().__init__(); self.register_buffer('item_cat', item_cat)
        self.item_emb, self.cat_emb = nn.Embedding(ITEMS_D + 1, e, padding_idx=0), nn.Embedding(CATS_D + 1, e, padding_idx=0)
        self.att = nn.Sequential(nn.Linear(8 * e, 80), nn.Sigmoid(), nn.Linear(80, 40), nn.Sigmoid(), nn.Linear(40, 1))
        self.mlp = nn.Sequential(nn.Linear(6 * e, 80), Dice(80), nn.Linear(80, 40), Dice(40), nn.Linear(40, 1))  # the official code's f1-f3
    def embed(self, ids): return torch.cat([self.item_emb(ids), self.cat_emb(self.item_cat[ids])], -1)
    def forward(self, hist, cand):
        k, q = self.embed(hist), self.embed(cand)
        qe = q[:, None].expand_as(k)
        w = self.att(torch.cat([qe, k, qe - k, qe * k], -1))[..., 0].masked_fill(hist == 0, 0.0)
        interest = (w[..., None] * k).sum(1)
        return self.mlp(torch.cat([interest, q, interest * q], -1))[:, 0]

def _din_fwd(model, b): hist, cand, y = b; return model(hist, cand), y

@healthy('S')
def din_ctr(seed, off_by_one=False):  # BCEWithLogitsLoss, Adam 1e-3, batches of 128
    tr, va = _behaviours(seed, off_by_one=off_by_one); item_cat, _ = _din_catalog(seed)
    return dict(model=lambda: DIN(item_cat), train=tr, valid=va, forward=_din_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a sparse variational Gaussian process
def _field(seed, n=3000, n_valid=500):
    "A smooth field over 3 inputs (a station's easting, northing, elevation: km, km, m) plus noise; inputs and target standardised."
    g = _gen(seed * 1033)
    e, nn_, h = 100 * torch.rand(n, generator=g), 100 * torch.rand(n, generator=g), 2000 * torch.rand(n, generator=g) ** 2
    f = torch.sin(e / 15) * torch.cos(nn_ / 25) + 0.8 * torch.exp(-((e - 60) ** 2 + (nn_ - 30) ** 2) / 400) - h / 1000
    y = f + 0.15 * torch.randn(n, generator=g)
    x = _std(torch.stack([e, nn_, h], 1), torch.stack([e, nn_, h], 1)[n_valid:]); y = (y - y[n_valid:].mean()) / y[n_valid:].std()
    return TensorDataset(x[n_valid:], y[n_valid:]), TensorDataset(x[:n_valid], y[:n_valid])

class SVGP(nn.Module):  # Hensman et al. 2015 as GPyTorch's tutorial: whitened Cholesky q(u), a ConstantMean, ScaleKernel(RBF(ARD)), Gaussian noise
    def __init__(self, z_init, jitter=1e-4):
        super().__init__(); M, d = z_init.shape; self.jitter = jitter
        self.Z = nn.Parameter(z_init.clone()); self.m = nn.Parameter(torch.zeros(M)); self.L = nn.Parameter(torch.eye(M))
        self.raw_lengthscale, self.raw_outputscale = nn.Parameter(torch.zeros(d)), nn.Parameter(torch.zeros(()))
        self.raw_noise, self.constant = nn.Parameter(torch.zeros(())), nn.Parameter(torch.zeros(()))
    def kernel(self, a, b):
        a, b = a / F.softplus(self.raw_lengthscale), b / F.softplus(self.raw_lengthscale)
        d2 = ((a ** 2).sum(-1)[:, None] + (b ** 2).sum(-1)[None] - 2 * a @ b.T).clamp_min(0)
        return F.softplus(self.raw_outputscale) * torch.exp(-0.5 * d2)
    def forward(self, x):
        M = len(self.Z)
        Lz = torch.linalg.cholesky(self.kernel(self.Z, self.Z) + self.jitter * torch.eye(M))
        A = torch.linalg.solve_triangular(Lz, self.kernel(self.Z, x), upper=False)  # (M, n): whitened cross-covariances
        S = torch.tril(self.L)
        mean = self.constant + A.T @ self.m
        var = F.softplus(self.raw_outputscale) - (A ** 2).sum(0) + ((S.T @ A) ** 2).sum(0)
        kl = 0.5 * ((S ** 2).sum() + (self.m ** 2).sum() - M - torch.log(torch.diagonal(S) ** 2).sum())
        return dict(mean=mean, var=var.clamp_min(1e-8), noise=F.softplus(self.raw_noise) + 1e-4, kl=kl)

def svgp_elbo_loss(n_train):  # gpytorch.mlls.VariationalELBO(likelihood, model, num_data=n_train), negated: the expected log-likelihood per point minus KL / n
    def loss(out, y):
        ell = -0.5 * math.log(2 * math.pi) - 0.5 * torch.log(out['noise']) - 0.5 * ((y - out['mean']) ** 2 + out['var']) / out['noise']
        return -(ell.mean() - out['kl'] / n_train)
    return loss

@healthy('S')
def svgp_field(seed):  # Adam 0.01 (the tutorial's), batches of 256, 32 inducing points started at the first 32 train inputs
    tr, va = _field(seed); z = tr.tensors[0][:32]
    return dict(model=lambda: SVGP(z), train=tr, valid=va, loss=svgp_elbo_loss(len(tr)), optimizer=lambda p: torch.optim.Adam(p, lr=0.01),
                **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- an echo state network on the Mackey-Glass series
WIN_E, HORIZON_E = 50, 10

def _mackey_glass(seed, steps=3000, tau=17, dt=0.1):
    "dx/dt = 0.2 x(t - tau) / (1 + x(t - tau)^10) - 0.1 x(t), Euler steps of 0.1, sampled every time unit after a transient."
    g = _gen(seed * 1039)
    hist = int(tau / dt); sub = int(1 / dt)
    x = (1.2 + 0.1 * (torch.rand(hist + 1, generator=g) - 0.5)).tolist()  # the history before t = 0
    out = []
    for t in range((steps + 300) * sub):
        xt, xd = x[-1], x[-1 - hist]
        x.append(xt + dt * (0.2 * xd / (1 + xd ** 10) - 0.1 * xt)); x.pop(0)
        if t % sub == 0: out.append(x[-1])
    return torch.tensor(out[300:], dtype=torch.float32)

def _esn_windows(seed):
    v = _mackey_glass(seed); n = len(v) - WIN_E - HORIZON_E + 1
    x = torch.stack([v[i:i + WIN_E] for i in range(n)]); y = v[WIN_E + HORIZON_E - 1:][:n, None]
    cut = int(0.8 * n)
    return TensorDataset(x[:cut], y[:cut]), TensorDataset(x[cut + WIN_E + HORIZON_E:], y[cut + WIN_E + HORIZON_E:])  # chronological, a gap

class ESN(nn.Module):  # a leaky-integrator echo state network (Lukosevicius 2012's recipe): sparse reservoir at spectral radius 0.9, leak 0.3
    def __init__(self, n=200, rho=0.9, leak=0.3, density=0.1, seed=0, freeze_all=False):
        super().__init__(); self.leak = leak; g = torch.Generator().manual_seed(seed)
        self.W_in, self.W = nn.Linear(1, n), nn.Linear(n, n, bias=False)
        with torch.no_grad():
            self.W_in.weight.uniform_(-1, 1, generator=g); self.W_in.bias.uniform_(-0.2, 0.2, generator=g)
            W = (torch.rand(n, n, generator=g) - 0.5) * (torch.rand(n, n, generator=g) < density).float()
            self.W.weight.copy_(W * rho / torch.linalg.eigvals(W).abs().max())
        self.readout = nn.Linear(n + 1, 1)
        if freeze_all: self.requires_grad_(False)  # meant to freeze the reservoir, written after the readout was added: all frozen
        else: self.W_in.requires_grad_(False); self.W.requires_grad_(False)
    def forward(self, u):  # u: (batch, WIN_E) values of the series; the window doubles as the washout
        h = torch.zeros(len(u), self.W.in_features)
        for t in range(u.size(1)): h = (1 - self.leak) * h + self.leak * torch.tanh(self.W_in(u[:, t:t + 1]) + self.W(h))
        return self.readout(torch.cat([h, u[:, -1:]], 1))

@healthy('S')
def esn_mackey_glass(seed, freeze_all=False):  # MSELoss on the value 10 steps ahead, Adam 5e-3 on the readout, batches of 64
    tr, va = _esn_windows(seed)
    return dict(model=lambda: ESN(seed=seed, freeze_all=freeze_all), train=tr, valid=va, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- MAML on sine regression tasks
def _sine_tasks(seed, n, split=0, k=10, k_query=10, next_task=False):
    "Finn et al.'s tasks: y = A sin(x + phase), A in [0.1, 5], phase in [0, pi], x in [-5, 5]; K=10 support and 10 query points."
    g = _gen(seed * 1049 + split)
    A, ph = 0.1 + 4.9 * torch.rand(n, 1, generator=g), math.pi * torch.rand(n, 1, generator=g)
    sx, qx = -5 + 10 * torch.rand(n, k, generator=g), -5 + 10 * torch.rand(n, k_query, generator=g)
    sy, qy = A * torch.sin(sx + ph), A * torch.sin(qx + ph)
    if next_task: qy = qy.roll(1, 0)  # the query file's tasks one ahead of the support file's (one task's rows dropped in the export)
    return TensorDataset(sx[..., None], sy[..., None], qx[..., None], qy[..., None])

class MAML(nn.Module):  # Finn et al. 2017: a 1-40-40-1 ReLU regressor; the forward takes one second-order SGD step (0.01) per task on its support set
    def __init__(self, inner_lr=0.01, inner_steps=1):
        super().__init__(); self.inner_lr, self.inner_steps = inner_lr, inner_steps
        self.net = nn.Sequential(nn.Linear(1, 40), nn.ReLU(), nn.Linear(40, 40), nn.ReLU(), nn.Linear(40, 1))
    @staticmethod
    def functional(x, w):  # the net with per-task weights: w = [W1, b1, W2, b2, W3, b3], each with a leading task dimension
        for i in range(0, len(w), 2):
            x = torch.baddbmm(w[i + 1][:, None], x, w[i].transpose(1, 2))
            if i < len(w) - 2: x = F.relu(x)
        return x
    def forward(self, sx, sy, qx):
        with torch.enable_grad():  # adaptation needs gradients in evaluation too (as learn2learn's and higher's evaluation loops)
            w = [p.expand(len(sx), *p.shape) for p in self.net.parameters()]
            for _ in range(self.inner_steps):
                inner = F.mse_loss(self.functional(sx, w), sy, reduction='none').mean((1, 2)).sum()
                grads = torch.autograd.grad(inner, w, create_graph=self.training)
                w = [wi - self.inner_lr * gi for wi, gi in zip(w, grads)]
        return self.functional(qx, w)

def _maml_fwd(model, b): sx, sy, qx, qy = b; return model(sx, sy, qx), qy

@healthy('S')
def maml_sines(seed, next_task=False):  # MSELoss on the query points after adaptation, Adam 1e-3 (the meta step), meta-batches of 25 tasks
    return dict(model=MAML, train=_sine_tasks(seed, 2000, next_task=next_task), valid=_sine_tasks(seed, 300, split=1), forward=_maml_fwd,
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=25))

# ---------------------------------------------------------------- LISTA recovering sparse codes
N_MEAS, N_ATOMS, K_SPARSE = 32, 64, 4

def _dictionary(seed):
    D = torch.randn(N_MEAS, N_ATOMS, generator=_gen(seed * 1051)); return D / D.norm(dim=0)

def _sparse_codes(seed, n, split=0):
    "Codes with 4 active atoms of 64 (amplitudes N(0, 1)), measured through a random unit-norm dictionary, plus noise 0.01."
    g = _gen(seed * 1061 + split)
    idx = torch.rand(n, N_ATOMS, generator=g).topk(K_SPARSE, 1).indices
    z = torch.zeros(n, N_ATOMS).scatter_(1, idx, torch.randn(n, K_SPARSE, generator=g))
    x = z @ _dictionary(seed).T + 0.01 * torch.randn(n, N_MEAS, generator=g)
    return TensorDataset(x, z)

class LISTA(nn.Module):  # Gregor and LeCun 2010: z <- soft(W_e x + S z, theta), W_e = D^T / L and S = I - D^T D / L at the start, T=5 unrolled
    def __init__(self, D, T=5, lam=0.1):
        super().__init__(); L = torch.linalg.matrix_norm(D, 2) ** 2; self.T = T
        self.We, self.S = nn.Linear(N_MEAS, N_ATOMS, bias=False), nn.Linear(N_ATOMS, N_ATOMS, bias=False)
        with torch.no_grad(): self.We.weight.copy_(D.T / L); self.S.weight.copy_(torch.eye(N_ATOMS) - D.T @ D / L)
        self.theta = nn.Parameter(torch.full((T,), float(lam / L)))
    @staticmethod
    def soft(v, th): return torch.sign(v) * F.relu(v.abs() - th)
    def forward(self, x):
        b = self.We(x); z = self.soft(b, self.theta[0])
        for k in range(1, self.T): z = self.soft(b + self.S(z), self.theta[k])
        return z

def code_sse(z, z_true): return ((z - z_true) ** 2).sum(1).mean()  # the code's squared error, summed over the atoms, averaged over the batch

@healthy('S')
def lista_codes(seed, lr=5e-4):  # Adam 5e-4, batches of 64
    D = _dictionary(seed)
    return dict(model=lambda: LISTA(D), train=_sparse_codes(seed, 2400), valid=_sparse_codes(seed, 600, split=1), loss=code_sse,
                optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a Weibull time-to-event net (censored, raw days)
def _patients(seed, n=2500, n_valid=500, visits=False):
    """Age, sex, BMI, systolic pressure, a biomarker (log-normal), treatment; a Weibull event time (shape 1.4) whose scale (days)
    falls with the risk; administrative censoring at 5 years and exponential drop-out (about 40% censored)."""
    g = _gen(seed * 1063)
    age, sex = 40 + 40 * torch.rand(n, generator=g), (torch.rand(n, generator=g) < 0.5).float()
    bmi, sbp = 27 + 5 * torch.randn(n, generator=g), 130 + 18 * torch.randn(n, generator=g)
    marker, treat = torch.exp(0.5 * torch.randn(n, generator=g)), (torch.rand(n, generator=g) < 0.5).float()
    risk = 0.04 * (age - 60) + 0.3 * sex + 0.6 * torch.log(marker) + 0.4 * ((sbp - 130) / 18) ** 2 + 0.02 * (bmi - 27) - 0.6 * treat
    T = 1500 * torch.exp(-risk) * (-torch.log(torch.rand(n, generator=g))) ** (1 / 1.4)
    C = (-3000 * torch.log(torch.rand(n, generator=g))).clamp(max=1825.0)
    t, e = torch.minimum(T, C), (T <= C).float()
    cols = [age, sex, bmi, sbp, marker, treat]
    if visits: cols.append(torch.poisson(t / 90, generator=g))  # clinic visits joined from the registry: counted until the event or the end of follow-up
    x = torch.stack(cols, 1); x = _std(x, x[n_valid:])
    y = torch.stack([t, e], 1)
    return TensorDataset(x[n_valid:], y[n_valid:]), TensorDataset(x[:n_valid], y[:n_valid])

class WeibullNet(nn.Module):  # WTTE-RNN's output layer on an MLP: alpha = exp(a) * the mean time (its init), beta = softplus(b)
    def __init__(self, d=6, t_mean=1000.0):
        super().__init__(); self.log_t0 = math.log(t_mean)
        self.body = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU()); self.head = nn.Linear(32, 2)
    def forward(self, x):
        a, b = self.head(self.body(x)).unbind(-1)
        return torch.exp(a + self.log_t0), F.softplus(b) + 1e-3

def weibull_nll(out, y):  # WTTE's continuous log-likelihood: e (log beta + beta log(t / alpha)) - (t / alpha)^beta (its -e log t dropped)
    alpha, beta = out; t, e = y[:, 0], y[:, 1]
    ta = t / alpha
    return -(e * (torch.log(beta) + beta * torch.log(ta)) - ta ** beta).mean()

@healthy('S')
def weibull_survival(seed, visits=False):  # RMSprop 1e-3, batches of 128; times in days, covariates standardised by the train split
    tr, va = _patients(seed, visits=visits)
    t_mean = tr.tensors[1][:, 0].mean().item()
    return dict(model=lambda: WeibullNet(d=7 if visits else 6, t_mean=t_mean), train=tr, valid=va, loss=weibull_nll,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a beta regression of vote shares
def _districts(seed, n=2500, n_valid=500, valid_in_train=False):
    """Districts: median age, share with a degree (%), unemployment (%), log population density, median income (k$), the
    share over 65 (%); a party's vote share Beta-distributed around a logistic function of them (precision about 40)."""
    g = _gen(seed * 1069)
    age, degree = 35 + 12 * torch.rand(n, generator=g), 10 + 40 * torch.rand(n, generator=g)
    unemp, dens = 3 + 9 * torch.rand(n, generator=g), 2 + 6 * torch.rand(n, generator=g)
    income = 25 + 0.8 * degree + 10 * torch.randn(n, generator=g); over65 = 0.8 * (age - 35) + 8 + 3 * torch.randn(n, generator=g)
    eta = 0.05 * (degree - 30) - 0.04 * (age - 41) + 0.5 * torch.tanh(dens - 5) + 0.08 * (unemp - 7.5) - 0.01 * (income - 50) - 0.2
    mu = torch.sigmoid(eta)
    with torch.random.fork_rng():
        torch.manual_seed(seed * 1069 + 7); share = torch.distributions.Beta(mu * 40, (1 - mu) * 40).sample()
    share = (share * (n - 1) + 0.5) / n  # Smithson and Verkuilen's squeeze away from 0 and 1
    x = torch.stack([age, degree, unemp, dens, income, over65], 1); x = _std(x, x[n_valid:])
    tr = TensorDataset(x[n_valid:], share[n_valid:, None]); va = TensorDataset(x[:n_valid], share[:n_valid, None])
    if valid_in_train: tr = TensorDataset(x, share[:, None])  # train = the whole table (the split's drop of the validation rows left out)
    return tr, va

class BetaRegNet(nn.Module):  # Ferrari and Cribari-Neto's mean-precision parametrisation: logit link for the mean, log link for the precision
    def __init__(self, d=6, h=32):
        super().__init__(); self.body = nn.Sequential(nn.Linear(d, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh()); self.mu, self.log_phi = nn.Linear(h, 1), nn.Linear(h, 1)
    def forward(self, x): h = self.body(x); return torch.sigmoid(self.mu(h)), torch.exp(self.log_phi(h))

def beta_nll(out, y):
    mu, phi = out; a, b = mu * phi, (1 - mu) * phi
    return -(torch.lgamma(phi) - torch.lgamma(a) - torch.lgamma(b) + (a - 1) * torch.log(y) + (b - 1) * torch.log1p(-y)).mean()

@healthy('S')
def beta_vote_share(seed, valid_in_train=False):  # SGD 1e-2 momentum 0.9, batches of 32
    tr, va = _districts(seed, valid_in_train=valid_in_train)
    return dict(model=BetaRegNet, train=tr, valid=va, loss=beta_nll, optimizer=lambda p: torch.optim.SGD(p, lr=1e-2, momentum=0.9),
                **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a ConvLSTM predicting the next frames of bouncing squares
H_F, T_F = 10, 8

def _bouncing(seed, n, split=0):
    "Two 3x3 squares moving at one pixel a frame in x and y, bouncing off the walls of a 10x10 canvas; 8 binary frames."
    g = _gen(seed * 1087 + split)
    frames = torch.zeros(n, T_F, 1, H_F, H_F)
    pos = torch.randint(0, H_F - 2, (n, 2, 2), generator=g); vel = torch.randint(0, 2, (n, 2, 2), generator=g) * 2 - 1
    for t in range(T_F):
        for s in range(2):
            for i in range(n):
                r, c = int(pos[i, s, 0]), int(pos[i, s, 1]); frames[i, t, 0, r:r + 3, c:c + 3] = 1
        nxt = pos + vel; bounce = (nxt < 0) | (nxt > H_F - 3); vel = torch.where(bounce, -vel, vel); pos = pos + vel
    return TensorDataset(frames[:, :-1], frames[:, 1:])  # frames 0..6 in, frames 1..7 to predict

class ConvLSTMCell(nn.Module):  # Shi et al. 2015 as the widely copied ConvLSTM_pytorch cell: one convolution of [x, h] for the four gates
    def __init__(self, c_in, c_h, k=3): super().__init__(); self.c_h = c_h; self.conv = nn.Conv2d(c_in + c_h, 4 * c_h, k, padding=k // 2)
    def forward(self, x, state):
        h, c = state
        i, f, o, g = self.conv(torch.cat([x, h], 1)).chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c

class ConvLSTMNet(nn.Module):  # two stacked cells, a 1x1 convolution to each next frame's pixel logits
    def __init__(self, hidden=(8, 8)):
        super().__init__(); self.cells = nn.ModuleList([ConvLSTMCell(1, hidden[0]), ConvLSTMCell(hidden[0], hidden[1])]); self.out = nn.Conv2d(hidden[1], 1, 1)
    def forward(self, frames):
        b = len(frames); states = [(torch.zeros(b, c.c_h, H_F, H_F), torch.zeros(b, c.c_h, H_F, H_F)) for c in self.cells]; outs = []
        for t in range(frames.size(1)):
            x = frames[:, t]
            for k, cell in enumerate(self.cells): states[k] = cell(x, states[k]); x = states[k][0]
            outs.append(self.out(x))
        return torch.stack(outs, 1)

def step_convlstm(model, batch, opt, zero_grad=True):  # the repository's training loop body
    inputs, targets = batch
    if zero_grad: opt.zero_grad()
    loss = F.binary_cross_entropy_with_logits(model(inputs), targets)
    loss.backward(); opt.step()
    return loss

def step_convlstm_no_zero_grad(model, batch, opt): return step_convlstm(model, batch, opt, zero_grad=False)

@healthy('S')
def convlstm_frames(seed):  # per-pixel BCEWithLogitsLoss, RMSprop 1e-3 alpha 0.9 (the paper's), batches of 16, a custom step
    return dict(model=ConvLSTMNet, train=_bouncing(seed, 600), valid=_bouncing(seed, 150, split=1), loss=nn.BCEWithLogitsLoss(), step=step_convlstm,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3, alpha=0.9), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- ChebNet on a co-purchase graph
N_CH, C_CH, F_CH = 500, 4, 100

def _copurchase(seed, reindexed=False):
    """500 products in 4 categories; bag-of-words features from the category's words (weak on their own); co-purchase edges
    mostly within a category; the scaled Laplacian L~ = 2 L / lambda_max - I with lambda_max taken as 2: -D^-1/2 A D^-1/2."""
    g = _gen(seed * 1091)
    y = torch.randint(0, C_CH, (N_CH,), generator=g)
    topics = torch.rand(C_CH, F_CH, generator=g) ** 2
    x = (torch.rand(N_CH, F_CH, generator=g) < 0.03 + 0.2 * topics[y]).float()
    x = x / x.sum(1, keepdim=True).clamp_min(1)
    p = torch.where(y[:, None] == y[None], 0.03, 0.004)
    a = torch.triu((torch.rand(N_CH, N_CH, generator=g) < p).float(), 1); a = a + a.T
    d = a.sum(1).clamp_min(1).rsqrt(); lap = -(d[:, None] * a * d[None])
    perm = torch.randperm(N_CH, generator=g)
    tr, va = torch.zeros(N_CH, dtype=torch.bool), torch.zeros(N_CH, dtype=torch.bool)
    for c in range(C_CH): tr[perm[y[perm] == c][:20]] = True  # 20 labelled nodes per class (Planetoid's split)
    va[perm[~tr[perm]][:200]] = True
    if reindexed:  # the graph relabelled by decreasing degree (networkx convert_node_labels_to_integers), the label file kept in the old node order
        order = a.sum(1).argsort(descending=True, stable=True)
        x, lap = x[order], lap[order][:, order]
    return x, lap, y, tr, va

class ChebConv(nn.Module):  # Defferrard et al. 2016: sum_k T_k(L~) X W_k with T_0 = X, T_1 = L~ X, T_k = 2 L~ T_{k-1} - T_{k-2}
    def __init__(self, f_in, f_out, K=3):
        super().__init__(); self.lins = nn.ModuleList(nn.Linear(f_in, f_out, bias=(k == 0)) for k in range(K))
    def forward(self, x, lap):
        t0, t1 = x, lap @ x; out = self.lins[0](t0) + self.lins[1](t1)
        for lin in self.lins[2:]: t0, t1 = t1, 2 * lap @ t1 - t0; out = out + lin(t1)
        return out

class ChebNet(nn.Module):  # Kipf and Welling's chebyshev baseline: two ChebConv layers (K=3), 16 hidden units, ReLU, dropout 0.5
    def __init__(self, hidden=16, dropout=0.5, softmax=False):
        super().__init__(); self.dropout, self.softmax = dropout, softmax
        self.conv1, self.conv2 = ChebConv(F_CH, hidden), ChebConv(hidden, C_CH)
    def forward(self, x, lap):
        h = F.relu(self.conv1(F.dropout(x, self.dropout, self.training), lap))
        o = self.conv2(F.dropout(h, self.dropout, self.training), lap)
        return F.softmax(o, 1) if self.softmax else o  # softmax "for the class probabilities", then CrossEntropyLoss on them

def _cheb_fwd(model, b): x, lap, y, mask = b; return model(x, lap)[mask], y[mask]

@healthy('S')
def chebnet_nodes(seed, reindexed=False, softmax=False):  # CrossEntropyLoss, Adam 1e-2 weight decay 5e-4, one full-graph batch
    x, lap, y, tr, va = _copurchase(seed, reindexed=reindexed)
    return dict(model=lambda: ChebNet(softmax=softmax), train=DataLoader(OneItem(x, lap, y, tr), collate_fn=_one),
                valid=DataLoader(OneItem(x, lap, y, va), collate_fn=_one), forward=_cheb_fwd, loss=nn.CrossEntropyLoss(), num_classes=C_CH,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- broken variants of half S
@broken('S', 'glove_counts_misaligned', 4, ('labels',))
def glove_counts_misaligned(seed): return glove_cooc(seed, misaligned=True)

@broken('S', 'din_clicks_off_by_one', 4, ('labels',))
def din_clicks_off_by_one(seed): return din_ctr(seed, off_by_one=True)

@broken('S', 'maml_query_next_task', 4, ('labels',))
def maml_query_next_task(seed): return maml_sines(seed, next_task=True)

@broken('S', 'chebnet_labels_reindexed', 4, ('labels',))
def chebnet_labels_reindexed(seed): return chebnet_nodes(seed, reindexed=True)

@broken('S', 'weibull_visits_leak', 4, ('leakage',))
def weibull_visits_leak(seed): return weibull_survival(seed, visits=True)

@broken('S', 'beta_valid_in_train', 4, ('leakage',))
def beta_valid_in_train(seed): return beta_vote_share(seed, valid_in_train=True)

@broken('S', 'densenet_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def densenet_functional_dropout(seed): return densenet_digits(seed, functional=True)

@broken('S', 'chebnet_softmax_before_ce', 2, ('softmax',))
def chebnet_softmax_before_ce(seed): return chebnet_nodes(seed, softmax=True)

@broken('S', 'deeponet_init_std1', 2, ('init_scale',))
def deeponet_init_std1(seed): return deeponet_antiderivative(seed, init_std=1.0)

@broken('S', 'convlstm_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def convlstm_no_zero_grad(seed): return dict(convlstm_frames(seed), step=step_convlstm_no_zero_grad)

@broken('S', 'lista_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def lista_lr_x1000(seed): return lista_codes(seed, lr=0.5)

@broken('S', 'esn_all_frozen', 1, ('frozen',))
def esn_all_frozen(seed): return esn_mackey_glass(seed, freeze_all=True)

# Plain-loop checks (seed 0, OMP_NUM_THREADS=1, the factory's optimizer and batch size; valid loss and metric, init -> after N epochs):
CHECKS = """
densenet_digits          6 ep: valid (2.321, acc 0.09) -> (0.280, 0.925), best 0.956 at ep 3 (SGD 0.1 with BN: valid bounces 0.90-0.96); chance 0.10; 0.66 s an epoch
deeponet_antiderivative 10 ep: valid MSE 0.588 -> 0.0073 (MSE / var(s) 2.72 -> 0.034) on 50 unseen functions
glove_cooc              20 ep: valid weighted LS 8.06 -> 0.202, corr(pred, log X) 0.08 -> 0.85; the best constant 0.600, biases only (fitted to convergence) 0.315
din_ctr                  8 ep: valid BCE 0.689 -> 0.584 (best at ep 2-6, then overfits), AUC 0.57 -> 0.72; the best constant 0.636; the generating logit's AUC 0.85
svgp_field              20 ep: valid negative ELBO 1.907 -> 0.396, RMSE (standardised target) 0.965 -> 0.248
esn_mackey_glass        12 ep: valid MSE 0.236 -> 0.0170; the train mean 0.052, persistence 0.079; 0.29 s an epoch
maml_sines              10 ep: valid query MSE after adaptation 3.97 -> 1.32; the zero prediction 4.10, the meta-learned net without adaptation 2.93
lista_codes             12 ep: valid code SSE 1.97 -> 0.39 (NMSE -3.2 -> -10.2 dB); the zero code 4.08
weibull_survival        12 ep: valid Weibull NLL 1.441 -> 1.068 (best 1.064), C-index 0.52 -> 0.76 (57% events)
beta_vote_share         10 ep: valid beta NLL 0.402 -> -1.164, MAE of the mean 0.165 -> 0.059; the constant beta (moments) -0.307 and 0.154
convlstm_frames         16 ep: valid per-pixel BCE 0.593 -> 0.221, pixel error 0.168 -> 0.094; the constant 0.453 and 0.168 (all off); a plateau near the
                        constant for about 10 epochs (RMSprop 1e-3 moving the output bias), then the motion is learned; 0.6 s an epoch
chebnet_nodes          200 steps (one each): valid (1.385, acc 0.29) -> (0.568, 0.815); chance 0.25; a logistic regression on the features alone 0.53
glove_counts_misaligned     20 ep: valid 0.644 -> 0.668 (worse than the best constant 0.600; healthy 0.202), corr(pred, log X) -0.14 to -0.17
din_clicks_off_by_one        8 ep: valid AUC 0.49-0.52, BCE 0.635 -> 0.671 while train falls 0.61 -> 0.57 (healthy 0.72, 0.584)
maml_query_next_task        10 ep: valid 4.02-4.06, the zero prediction's 4.10 (healthy 1.32); train stuck at 4.15
chebnet_labels_reindexed   200 steps: valid acc 0.22-0.28 (chance 0.25), loss 1.385 -> 1.844 while train falls 0.83 -> 0.45
weibull_visits_leak         12 ep: valid C-index 0.89, NLL 0.739 (healthy 0.76, 1.068): the visit count grows with the follow-up time
beta_valid_in_train         all 500 validation rows are in the train set (train = the whole table of 2500); 10 ep: valid -1.150, MAE 0.061
densenet_functional_dropout model.eval(): two calls on the same 128 digits differ by up to 4.87 in the logits (0 for the healthy model)
chebnet_softmax_before_ce  200 steps: train 1.10 -> 0.88, valid 1.059 and acc 0.705 (healthy 0.568, 0.815); the loss's floor log(1 + 3/e) = 0.744
deeponet_init_std1          initial valid MSE 3.4e5 (healthy 0.59); 4 ep: 4.8e4
convlstm_no_zero_grad       30 ep: valid BCE 0.593 -> 0.392 creeping, pixel error stuck at 0.168 (healthy 0.221 and 0.094 after 16)
lista_lr_x1000              Adam 0.5: first-epoch train SSE 7e8, valid 7e9 -> 4e14 after 4 ep (init 1.97)
esn_all_frozen              no parameter requires grad (the readout frozen with the reservoir); the first backward raises
                            "element 0 of tensors does not require grad"
"""
