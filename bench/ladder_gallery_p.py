"""Half P of the ladder's gallery: held out from the eighteenth round of rules, written after that round's freeze (f7603b7)
and run once. Families not in halves A-O: a mean-teacher semi-supervised digits classifier (an EMA teacher updated in a
custom step, a consistency loss between the student and the teacher on noised inputs), an x-vector-style speaker classifier
with an additive-margin softmax (AM-softmax) over cosine scores of synthetic feature sequences, a DeepAR-style GRU forecaster
with a Gaussian likelihood in raw units (kilowatts), a Hamiltonian neural network on a damped-free spring (the dynamics from
the gradients of a learned scalar), a relational GCN classifying small graphs with two edge types, a CLIP-style image-text
contrastive model (digits and their spelled names, a model returning a dict), a TabNet-like attentive tabular classifier with
label smoothing, a multi-task regression with Kendall's uncertainty weighting in raw units, an LSTM language model with
AWD-style locked dropout on a synthetic Markov corpus, an RBF network regressing terrain elevation in metres, a sparse
autoencoder with an L1 penalty on another (fixed) network's activations, and a 1D CNN on imbalanced synthetic heartbeats with
class-weighted cross-entropy. Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery
imports this module after half O.

Protocol: written after the freeze (round 18, f7603b7) without reading the ladder's rules (ntrain/ladder/*.py, nbs/02_ladder
and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's results; only
`ntrain.ladder`'s public signature and docstring and the factory format of halves A-O (their @broken lines for the rung and
cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a
few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before any ladder
run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half P`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

deepar_loads and deepar_targets_misjoined were left out of the held-out run (`--only` the other 22) before it started:
the forecaster did not beat the train mean in the helper's own plain loop (bench/RESULTS.md, half P).
"""
from __future__ import annotations
import copy
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- a mean teacher on digits (EMA teacher in a custom step)
class MeanTeacher(nn.Module):
    def __init__(self):
        super().__init__()
        self.student = nn.Sequential(nn.Flatten(), nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
        self.teacher = copy.deepcopy(self.student)
        for p in self.teacher.parameters(): p.requires_grad_(False)
    def forward(self, x): return self.student(x)

def step_mean_teacher(model, batch, opt, zero_grad=True, ema=0.99, w=1.0):
    x, y = batch
    noisy = lambda t: (t + 0.1 * torch.randn_like(t)).clamp(0, 1)
    if zero_grad: opt.zero_grad()
    s = model.student(noisy(x))
    with torch.no_grad(): t = model.teacher(noisy(x))
    loss = F.cross_entropy(s, y) + w * F.mse_loss(s.softmax(-1), t.softmax(-1))
    loss.backward(); opt.step()
    with torch.no_grad():
        for pt, ps in zip(model.teacher.parameters(), model.student.parameters()): pt.mul_(ema).add_(ps, alpha=1 - ema)
    return loss

def step_mean_teacher_no_zero_grad(model, batch, opt): return step_mean_teacher(model, batch, opt, zero_grad=False)

@healthy('P')
def mean_teacher_digits(seed):  # CE + consistency, Adam 1e-3, batches of 64, EMA 0.99 in the custom step
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=MeanTeacher, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                step=step_mean_teacher, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- an x-vector-style speaker classifier with AM-softmax
N_SPK, T_SPK, D_SPK = 20, 50, 20

def _utterances(seed, n, split=0, shuffled=False):
    """Feature frames (20-dim, 50 frames): each speaker a mean vector and a modulation pattern, plus per-frame noise."""
    g0 = _gen(seed * 701); mu, mod = torch.randn(N_SPK, D_SPK, generator=g0), torch.randn(N_SPK, D_SPK, generator=g0)
    g = _gen(seed * 709 + split)
    y = torch.randint(0, N_SPK, (n,), generator=g)
    ph = torch.sin(torch.arange(T_SPK).float() / 4 + 6 * torch.rand(n, 1, generator=g))
    x = 0.6 * mu[y][:, :, None] + 0.4 * mod[y][:, :, None] * ph[:, None] + 1.0 * torch.randn(n, D_SPK, T_SPK, generator=g)
    if shuffled: y = y[torch.randperm(n, generator=g)]  # the labels list re-ordered by a shuffled directory walk
    return TensorDataset(x, y)

class XVector(nn.Module):  # TDNN frames (dilated conv1d), statistics pooling, an embedding, cosine scores against class weights
    def __init__(self, e=64):
        super().__init__()
        self.tdnn = nn.Sequential(nn.Conv1d(D_SPK, 64, 5, padding=2), nn.ReLU(), nn.BatchNorm1d(64), nn.Conv1d(64, 64, 3, dilation=2, padding=2), nn.ReLU(), nn.BatchNorm1d(64))
        self.embed = nn.Linear(128, e)
        self.W = nn.Parameter(torch.randn(N_SPK, e) * 0.01)
    def forward(self, x):
        h = self.tdnn(x); h = self.embed(torch.cat([h.mean(-1), h.std(-1)], 1))
        return F.normalize(h, dim=1) @ F.normalize(self.W, dim=1).t()  # cosines in [-1, 1]

def am_softmax_loss(cos, y, s=30.0, m=0.2):  # Wang et al. 2018: the margin subtracted from the target cosine, scaled by s
    return F.cross_entropy(s * (cos - m * F.one_hot(y, N_SPK)), y)

@healthy('P')
def amsoftmax_speakers(seed, shuffled=False):  # AM-softmax, Adam 1e-3, batches of 64
    return dict(model=XVector, train=_utterances(seed, 3000, shuffled=shuffled), valid=_utterances(seed, 600, split=1), loss=am_softmax_loss,
                num_classes=N_SPK, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a DeepAR-style Gaussian forecaster in kilowatts
CTX, HOR = 48, 1

def _load_windows(seed, n_series=60, n_valid_series=12, misjoined=False):
    """Hourly loads of buildings in kW: a base level (50-500 kW), a daily cycle, AR(1) noise. Windows of 48 hours, the target
    the next hour, in kW. Valid windows from held-out buildings."""
    g = _gen(seed * 719)
    L = 24 * 14
    base = 50 + 450 * torch.rand(n_series, 1, generator=g)
    t = torch.arange(L).float()
    e = torch.randn(n_series, L, generator=g); ar = torch.zeros_like(e)
    for k in range(1, L): ar[:, k] = 0.8 * ar[:, k - 1] + e[:, k]
    s = base * (1 + 0.3 * torch.sin(2 * math.pi * t / 24) + 0.05 * ar)
    idx = torch.arange(0, L - CTX - HOR, 6)
    def win(ss):
        x = torch.stack([ss[:, i:i + CTX] for i in idx], 1).reshape(-1, CTX)
        y = torch.stack([ss[:, i + CTX] for i in idx], 1).reshape(-1)
        return x, y
    x, y = win(s[n_valid_series:]); vx, vy = win(s[:n_valid_series])
    if misjoined: y = y.roll(len(idx))  # targets joined on a building id off by one: each window gets the next building's target
    return TensorDataset(x[:, :, None], y[:, None]), TensorDataset(vx[:, :, None], vy[:, None])

class DeepAR(nn.Module):
    def __init__(self, h=64):
        super().__init__(); self.rnn = nn.GRU(1, h, batch_first=True); self.mu, self.sig = nn.Linear(h, 1), nn.Linear(h, 1)
    def forward(self, x):
        h, _ = self.rnn(x); h = h[:, -1]
        return self.mu(h), F.softplus(self.sig(h)) + 1e-3

def gauss_nll(out, y): mu, sig = out; return F.gaussian_nll_loss(mu, y, sig ** 2)

@healthy('P')
def deepar_loads(seed, misjoined=False):  # Gaussian NLL in kW, Adam 1e-3, batches of 64
    tr, va = _load_windows(seed, misjoined=misjoined)
    return dict(model=DeepAR, train=tr, valid=va, loss=gauss_nll, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a Hamiltonian neural network on a spring
def _spring(seed, n, split=0):
    "States (q, p) of a mass on a spring (m=1, k=2); targets their time derivatives (p, -2q) plus noise."
    g = _gen(seed * 727 + split)
    r, th = 0.3 + 1.2 * torch.rand(n, generator=g), 2 * math.pi * torch.rand(n, generator=g)
    q, p = r * th.cos() / math.sqrt(2), r * th.sin()
    dq, dp = p + 0.05 * torch.randn(n, generator=g), -2 * q + 0.05 * torch.randn(n, generator=g)
    return TensorDataset(torch.stack([q, p], 1), torch.stack([dq, dp], 1))

class HNN(nn.Module):  # Greydanus et al. 2019: an MLP H(q, p); the vector field (dH/dp, -dH/dq)
    def __init__(self, h=200):
        super().__init__(); self.H = nn.Sequential(nn.Linear(2, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 1))
    def forward(self, x):
        with torch.enable_grad():
            x = x if x.requires_grad else x.clone().requires_grad_(True)
            dH = torch.autograd.grad(self.H(x).sum(), x, create_graph=True)[0]
        return torch.stack([dH[:, 1], -dH[:, 0]], 1)

@healthy('P')
def hnn_spring(seed, lr=1e-3):  # MSE on the derivatives, Adam 1e-3, batches of 64
    return dict(model=HNN, train=_spring(seed, 2000), valid=_spring(seed, 500, split=1), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a relational GCN on small graphs with two edge types
N_NODE = 12

def _rel_graphs(seed, n, split=0):
    """Graphs of 12 nodes with 3 colours and two relations (random edges, p=0.15 each). Label: more relation-0 than relation-1
    edges between a colour-0 and a colour-1 node."""
    g = _gen(seed * 733 + split)
    c = torch.randint(0, 3, (n, N_NODE), generator=g)
    A = (torch.rand(n, 2, N_NODE, N_NODE, generator=g) < 0.15).float(); A = torch.triu(A, 1); A = A + A.transpose(-1, -2)
    c0, c1 = (c == 0).float(), (c == 1).float()
    cnt = torch.einsum('bi,brij,bj->br', c0, A, c1)
    y = (cnt[:, 0] > cnt[:, 1]).long()
    return torch.cat([F.one_hot(c, 3).float()], -1), A, y

class RGCN(nn.Module):  # Schlichtkrull et al.: a weight per relation plus a self-loop weight, sum aggregation, a summed readout
    def __init__(self, h=64, layers=2):
        super().__init__()
        dims = [3] + [h] * layers
        self.rel = nn.ModuleList(nn.ModuleList(nn.Linear(dims[i], dims[i + 1], bias=False) for _ in range(2)) for i in range(layers))
        self.self_ = nn.ModuleList(nn.Linear(dims[i], dims[i + 1]) for i in range(layers))
        self.head = nn.Sequential(nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 2))
    def forward(self, x, A):
        for rel, sl in zip(self.rel, self.self_):
            x = F.relu(sl(x) + sum(A[:, r] @ W(x) for r, W in enumerate(rel)))
        return self.head(x.sum(1))

def _rgcn_fwd(model, b): x, A, y = b; return model(x, A), y

@healthy('P')
def rgcn_graphs(seed, leak=False):  # CrossEntropyLoss, Adam 1e-3, batches of 32
    x, A, y = _rel_graphs(seed, 3000); vx, vA, vy = _rel_graphs(seed, 600, split=1)
    if leak: vx, vA, vy = torch.cat([vx[:300], x[:300]]), torch.cat([vA[:300], A[:300]]), torch.cat([vy[:300], y[:300]])  # half the "validation" file built from the train pickle
    return dict(model=RGCN, train=TensorDataset(x, A, y), valid=TensorDataset(vx, vA, vy), forward=_rgcn_fwd, loss=nn.CrossEntropyLoss(),
                num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a CLIP-style image-text model on digits and their names
NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']
CHARS = sorted(set(''.join(NAMES))); L_NAME = 5

def _name_tokens(y):
    tok = torch.zeros(10, L_NAME, dtype=torch.long)
    for i, w in enumerate(NAMES): tok[i, :len(w)] = torch.tensor([1 + CHARS.index(ch) for ch in w])
    return tok[y]

class TinyCLIP(nn.Module):
    def __init__(self, d=64, detach_text=False):
        super().__init__(); self.detach_text = detach_text
        self.image = nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, d))
        self.tok = nn.Embedding(len(CHARS) + 1, 32, padding_idx=0); self.text = nn.GRU(32, d, batch_first=True)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))
    def forward(self, pixel_values, input_ids):
        i = F.normalize(self.image(pixel_values), dim=-1)
        _, h = self.text(self.tok(input_ids)); t = F.normalize(h[-1], dim=-1)
        if self.detach_text: t = t.detach()  # the text features cached with .detach() as in the zero-shot notebook
        li = self.logit_scale.exp() * i @ t.t()
        return dict(logits_per_image=li, logits_per_text=li.t())

def _clip_fwd(model, b): x, ids = b; return model(x, ids), None

def clip_loss(out, _):  # symmetric InfoNCE: the i-th image goes with the i-th caption (same-digit captions in a batch count as negatives, as in CLIP)
    li = out['logits_per_image']; t = torch.arange(len(li))
    return (F.cross_entropy(li, t) + F.cross_entropy(out['logits_per_text'], t)) / 2

@healthy('P')
def clip_digit_names(seed, **mk):  # symmetric contrastive loss, AdamW 1e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: TinyCLIP(**mk), train=TensorDataset(x, _name_tokens(y)), valid=TensorDataset(vx, _name_tokens(vy)), forward=_clip_fwd,
                loss=clip_loss, optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a TabNet-like attentive tabular classifier, label smoothing
def _tab(seed, sorted_labels=False):
    from sklearn.datasets import make_classification
    x, y = make_classification(n_samples=3000, n_features=30, n_informative=8, n_redundant=6, n_classes=4, n_clusters_per_class=2,
                               class_sep=1.2, random_state=seed)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y)
    p = torch.randperm(3000, generator=_gen(seed * 739)); x, y = x[p], y[p]
    x = _std(x, x[600:])
    if sorted_labels: y = torch.cat([y[:600], y[600:].sort().values])  # the train labels column sorted on its own in a spreadsheet
    return TensorDataset(x[600:], y[600:]), TensorDataset(x[:600], y[:600])

class AttentiveTab(nn.Module):  # TabNet-like: per step, an attentive transformer gives a feature mask (softmax with prior), a feature transformer
    def __init__(self, d=30, h=64, steps=3, k=4, head_std=None):
        super().__init__()
        self.bn = nn.BatchNorm1d(d)
        self.att = nn.ModuleList(nn.Linear(h if i else d, d) for i in range(steps))
        self.ft = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * h), nn.GLU(), nn.Linear(h, 2 * h), nn.GLU()) for _ in range(steps))
        self.head = nn.Linear(h, k)
        if head_std: nn.init.normal_(self.head.weight, std=head_std)
    def forward(self, x):
        x = self.bn(x); prior, a, out = torch.ones_like(x), x, 0
        for att, ft in zip(self.att, self.ft):
            m = torch.softmax(att(a) * prior, -1) * x.size(1)
            prior = prior * (1.5 - m / x.size(1)).clamp_min(0.1)
            a = ft(x * m); out = out + F.relu(a)
        return self.head(out)

@healthy('P')
def tabnet_smoothing(seed, sorted_labels=False, head_std=None):  # CE with label smoothing 0.1, Adam 2e-3, batches of 128
    tr, va = _tab(seed, sorted_labels)
    return dict(model=lambda: AttentiveTab(head_std=head_std), train=tr, valid=va, loss=nn.CrossEntropyLoss(label_smoothing=0.1), num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- multi-task regression with Kendall uncertainty weights, raw units
def _houses(seed, n=3000, n_valid=600, duplicated=False):
    """Houses: 8 standardised features; targets the price in thousands of euros (~100-900) and the floor area in m^2 (~40-250)."""
    g = _gen(seed * 743)
    x = torch.randn(n, 8, generator=g)
    area = 120 + 35 * x[:, 0] + 15 * x[:, 1] * x[:, 2] + 8 * torch.randn(n, generator=g)
    price = 350 + 2.2 * (area - 120) + 60 * x[:, 3] + 40 * torch.tanh(x[:, 4]) + 30 * torch.randn(n, generator=g)
    y = torch.stack([price, area], 1)
    if duplicated: x, y = torch.cat([x, x[:n // 2]]), torch.cat([y, y[:n // 2]])  # a listings scrape appended twice before the split
    p = torch.randperm(len(y), generator=_gen(seed * 751)); x, y = x[p], y[p]
    return TensorDataset(x[n_valid:], y[n_valid:]), TensorDataset(x[:n_valid], y[:n_valid])

class KendallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU()); self.heads = nn.Linear(128, 2)
        self.log_var = nn.Parameter(torch.zeros(2))
    def forward(self, x): return self.heads(self.trunk(x)), self.log_var

def kendall_loss(out, y):  # Kendall et al. 2018: sum_i exp(-s_i) * MSE_i / 2 + s_i / 2
    pred, s = out
    return ((pred - y).pow(2).mean(0) * torch.exp(-s) / 2 + s / 2).sum()

@healthy('P')
def kendall_multitask(seed, duplicated=False):  # raw units, Adam 1e-3, batches of 64
    tr, va = _houses(seed, duplicated=duplicated)
    return dict(model=KendallNet, train=tr, valid=va, loss=kendall_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- an LSTM language model with AWD-style locked dropout
V_LM, T_LM = 50, 32

def _markov_text(seed, n, split=0):
    "Sequences from a fixed sparse Markov chain over 50 tokens (each token has 3 likely successors)."
    g0 = _gen(seed * 757)
    P = torch.full((V_LM, V_LM), 0.02 / V_LM)
    for i in range(V_LM): P[i, torch.randperm(V_LM, generator=g0)[:3]] += torch.tensor([0.6, 0.25, 0.13])
    P = P / P.sum(1, keepdim=True)
    g = _gen(seed * 761 + split)
    s = torch.zeros(n, T_LM + 1, dtype=torch.long); s[:, 0] = torch.randint(0, V_LM, (n,), generator=g)
    for t in range(T_LM): s[:, t + 1] = torch.multinomial(P[s[:, t]], 1, generator=g).squeeze(1)
    return TensorDataset(s[:, :-1], s[:, 1:])

class LockedDropout(nn.Module):
    def __init__(self, p, functional=False): super().__init__(); self.p, self.functional = p, functional
    def forward(self, x):
        if self.functional:  # rewritten "simpler" with F.dropout on a mask: training left at its default True
            return x * F.dropout(torch.ones_like(x[:, :1]), self.p)
        if not self.training or not self.p: return x
        m = x.new_empty(x.size(0), 1, x.size(2)).bernoulli_(1 - self.p) / (1 - self.p)  # one mask for all time steps
        return x * m

class AWDLM(nn.Module):
    def __init__(self, d=64, h=128, functional=False):
        super().__init__()
        self.emb, self.rnn, self.out = nn.Embedding(V_LM, d), nn.LSTM(d, h, batch_first=True), nn.Linear(h, V_LM)
        self.drop_in, self.drop_out = LockedDropout(0.3, functional), LockedDropout(0.3, functional)
    def forward(self, x): h, _ = self.rnn(self.drop_in(self.emb(x))); return self.out(self.drop_out(h))

def _lm_fwd(model, b): x, y = b; return model(x).reshape(-1, V_LM), y.reshape(-1)

@healthy('P')
def awd_lstm_lm(seed, functional=False):  # CrossEntropyLoss per token, Adam 2e-3, batches of 64
    return dict(model=lambda: AWDLM(functional=functional), train=_markov_text(seed, 2000), valid=_markov_text(seed, 400, split=1), forward=_lm_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=V_LM, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- an RBF network regressing elevation in metres
def _terrain(seed, n, split=0, flat=False):
    "Points (x, y) in km on a 10x10 km map; elevation in metres: hills as Gaussian bumps on a tilted plane, plus 5 m noise."
    g0 = _gen(seed * 769)
    c, hgt, w = 10 * torch.rand(8, 2, generator=g0), 100 + 400 * torch.rand(8, generator=g0), 0.8 + 1.5 * torch.rand(8, generator=g0)
    g = _gen(seed * 773 + split)
    p = 10 * torch.rand(n, 2, generator=g)
    z = 200 + 15 * p[:, 0] + (hgt * torch.exp(-((p[:, None] - c) ** 2).sum(-1) / (2 * w ** 2))).sum(1) + 5 * torch.randn(n, generator=g)
    return TensorDataset(p, z if flat else z[:, None])

class RBFNet(nn.Module):  # Gaussian units with learned centres and widths, a linear output
    def __init__(self, k=100):
        super().__init__()
        self.c = nn.Parameter(10 * torch.rand(k, 2)); self.log_w = nn.Parameter(torch.zeros(k)); self.out = nn.Linear(k, 1)
    def forward(self, p): return self.out(torch.exp(-((p[:, None] - self.c) ** 2).sum(-1) / (2 * self.log_w.exp() ** 2)))

@healthy('P')
def rbf_terrain(seed, flat=False):  # MSELoss in square metres, Adam 1e-2, batches of 64
    return dict(model=RBFNet, train=_terrain(seed, 3000, flat=flat), valid=_terrain(seed, 600, split=1, flat=flat), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a sparse autoencoder on another network's activations
def _activations(seed):
    "The 256 ReLU activations of a fixed, randomly initialised MLP layer on the digits (the 'model under study')."
    (x, _), (vx, _) = _digits(seed)
    torch.manual_seed(seed * 787); base = nn.Sequential(nn.Flatten(), nn.Linear(64, 256), nn.ReLU())
    with torch.no_grad(): a, va = base(x), base(vx)
    return TensorDataset(a, a), TensorDataset(va, va)

class SAE(nn.Module):  # an overcomplete dictionary: ReLU codes, a decoder with a pre-encoder bias
    def __init__(self, d=256, m=1024):
        super().__init__(); self.enc, self.dec = nn.Linear(d, m), nn.Linear(m, d)
    def forward(self, a):
        z = F.relu(self.enc(a - self.dec.bias)); return self.dec(z), z

def sae_loss(out, a, l1=1e-3): rec, z = out; return F.mse_loss(rec, a) + l1 * z.abs().sum(1).mean()

@healthy('P')
def sae_activations(seed):  # reconstruction MSE + L1 on the codes, Adam 1e-3, batches of 128
    tr, va = _activations(seed)
    return dict(model=SAE, train=tr, valid=va, loss=sae_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a 1D CNN on imbalanced heartbeats with class weights
T_BEAT = 96

def _beats(seed, n, split=0):
    "Beats of 96 samples: a QRS-like spike, its width and a P/T wave pattern per class; class frequencies 0.75/0.15/0.07/0.03."
    g = _gen(seed * 797 + split)
    y = torch.multinomial(torch.tensor([0.75, 0.15, 0.07, 0.03]), n, replacement=True, generator=g)
    t = torch.arange(T_BEAT).float()[None]
    width = torch.tensor([3.0, 6.0, 3.0, 3.0])[y][:, None]; pw = torch.tensor([0.25, 0.25, 0.0, 0.25])[y][:, None]; tw = torch.tensor([0.35, 0.35, 0.35, -0.35])[y][:, None]
    c = 48 + torch.randint(-4, 5, (n, 1), generator=g)
    x = torch.exp(-(t - c) ** 2 / (2 * width ** 2)) + pw * torch.exp(-(t - c + 20) ** 2 / 30) + tw * torch.exp(-(t - c - 25) ** 2 / 60)
    x = x + 0.15 * torch.randn(n, T_BEAT, generator=g)
    return TensorDataset(x[:, None], y)

def _beat_cnn(softmax=False):
    layers = [nn.Conv1d(1, 16, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2), nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 4)]
    return nn.Sequential(*layers, *([nn.Softmax(-1)] if softmax else []))

@healthy('P')
def weighted_beats(seed, softmax=False):  # CE with inverse-frequency class weights from the train labels, Adam 1e-3, batches of 64
    tr = _beats(seed, 3000)
    w = len(tr) / (4 * torch.bincount(tr.tensors[1], minlength=4).float().clamp_min(1))
    return dict(model=lambda: _beat_cnn(softmax), train=tr, valid=_beats(seed, 600, split=1), loss=nn.CrossEntropyLoss(weight=w), num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half P
@broken('P', 'speakers_labels_shuffled', 4, ('labels',))
def speakers_labels_shuffled(seed): return amsoftmax_speakers(seed, shuffled=True)

@broken('P', 'deepar_targets_misjoined', 4, ('labels',))
def deepar_targets_misjoined(seed): return deepar_loads(seed, misjoined=True)

@broken('P', 'tabnet_labels_sorted', 4, ('labels',))
def tabnet_labels_sorted(seed): return tabnet_smoothing(seed, sorted_labels=True)

@broken('P', 'rgcn_valid_from_train', 4, ('leakage',))
def rgcn_valid_from_train(seed): return rgcn_graphs(seed, leak=True)

@broken('P', 'kendall_listings_twice', 4, ('leakage',))
def kendall_listings_twice(seed): return kendall_multitask(seed, duplicated=True)

@broken('P', 'awd_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def awd_functional_dropout(seed): return awd_lstm_lm(seed, functional=True)

@broken('P', 'beats_softmax_before_ce', 2, ('softmax',))
def beats_softmax_before_ce(seed): return weighted_beats(seed, softmax=True)

@broken('P', 'tabnet_head_std_3', 2, ('init_scale',))
def tabnet_head_std_3(seed): return tabnet_smoothing(seed, head_std=3.0)  # nn.init.normal_(head.weight, std=3.0) from a port of an old init scheme

@broken('P', 'mean_teacher_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def mean_teacher_no_zero_grad(seed): return dict(mean_teacher_digits(seed), step=step_mean_teacher_no_zero_grad)

@broken('P', 'hnn_lr_x1000', (1, 3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def hnn_lr_x1000(seed): return hnn_spring(seed, lr=1.0)

@broken('P', 'clip_text_detached', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def clip_text_detached(seed): return clip_digit_names(seed, detach_text=True)

@broken('P', 'rbf_target_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def rbf_target_broadcast(seed): return rbf_terrain(seed, flat=True)  # MSELoss of (B, 1) against (B,) broadcasts to (B, B): it fits the mean
