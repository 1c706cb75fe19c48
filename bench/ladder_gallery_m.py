"""Half M of the ladder's gallery (issue 32): held out from the fourteenth round of rules, written after that round's freeze
and run once. Families not in halves A-L: a GraphSAGE node classifier (mean aggregation of the neighbours beside the node's
own features, full batch), a WaveNet-style stack of gated dilated causal convolutions predicting a series' next value (the
Huber loss), a Set Transformer (induced set attention blocks, pooling by multi-head attention) counting the clusters in a
point set, a FiLM-conditioned CNN answering one of four questions about a digit, deep evidential regression (a Normal-Inverse-
Gamma head, its negative log-likelihood plus the evidence regulariser), neural collaborative filtering (NeuMF: GMF and MLP
towers over user and item embeddings, a sigmoid and BCELoss on implicit feedback with sampled negatives), a GRU encoder-decoder
with Bahdanau (additive) attention converting written dates to ISO format under teacher forcing, DeepFM for click-through
rates (first-order weights, a factorisation machine and a DNN over shared field embeddings), a MobileNet-style CNN of
depthwise-separable convolutions (ReLU6, label smoothing, SGD with Nesterov momentum), a Koopman autoencoder of a damped
pendulum (an encoder, a linear latent operator rolled forward, a decoder; a custom step), a MADE autoregressive density model
of binarised digits (masked linear layers), and a Kolmogorov-Arnold network (B-spline edge functions beside a SiLU base, as
efficient-kan) regressing a composed function. Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators;
ladder_gallery imports this module after half L.

Protocol: written after the freeze (round 14) without reading the ladder's rules (ntrain/ladder/*.py, nbs/02_ladder and the
rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's results; only
`ntrain.ladder`'s public signature and docstring and the factory format of halves A-L (their @broken lines for the rung and
cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a
few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before any ladder
run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 10 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half M`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
import math, datetime
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one

# ---------------------------------------------------------------- GraphSAGE, mean aggregator, full batch
N_SAGE, C_SAGE, F_SAGE = 1200, 6, 32

def _sbm_graph(seed):
    "A stochastic block model: six communities, noisy features around each community's mean, edges mostly inside a community."
    g = _gen(seed * 401)
    y = torch.randint(0, C_SAGE, (N_SAGE,), generator=g)
    mu = torch.randn(C_SAGE, F_SAGE, generator=g)
    x = 0.3 * mu[y] + torch.randn(N_SAGE, F_SAGE, generator=g)
    p = torch.where(y[:, None] == y[None, :], torch.tensor(0.012), torch.tensor(0.002))
    a = torch.triu((torch.rand(N_SAGE, N_SAGE, generator=g) < p).float(), 1); a = a + a.T
    adj = a / a.sum(1, keepdim=True).clamp(min=1)  # row-normalised: the mean over the neighbours
    perm = torch.randperm(N_SAGE, generator=g)
    tr, va = torch.zeros(N_SAGE, dtype=torch.bool), torch.zeros(N_SAGE, dtype=torch.bool)
    tr[perm[:720]] = True; va[perm[720:960]] = True
    return x, adj, y, tr, va

class SAGELayer(nn.Module):  # Hamilton et al. 2017: W [h_v ; mean_{u in N(v)} h_u], as PyG's SAGEConv (lin_l on the mean, lin_r on the root)
    def __init__(self, i, o):
        super().__init__(); self.lin_l, self.lin_r = nn.Linear(i, o), nn.Linear(i, o, bias=False)
    def forward(self, x, adj): return self.lin_l(adj @ x) + self.lin_r(x)

class GraphSAGE(nn.Module):
    def __init__(self, h=64, dropout=0.5):
        super().__init__(); self.conv1, self.conv2, self.dropout = SAGELayer(F_SAGE, h), SAGELayer(h, C_SAGE), dropout
    def forward(self, x, adj):
        h = F.relu(self.conv1(x, adj))
        h = F.dropout(h, self.dropout, training=self.training)
        return self.conv2(h, adj)

def _sage_fwd(model, b): x, adj, y, mask = b; return model(x, adj)[mask], y[mask]

@healthy('M')
def sage_nodes(seed, shuffled=False):  # CrossEntropyLoss, Adam 1e-2 with weight decay 5e-4, one full-graph batch
    x, adj, y, tr, va = _sbm_graph(seed)
    ytr = y
    if shuffled: ytr = y[torch.randperm(N_SAGE, generator=_gen(seed + 409))]  # the label vector permuted by the split's randperm, the features not
    return dict(model=GraphSAGE, train=DataLoader(OneItem(x, adj, ytr, tr), collate_fn=_one), valid=DataLoader(OneItem(x, adj, y, va), collate_fn=_one),
                forward=_sage_fwd, loss=nn.CrossEntropyLoss(), num_classes=C_SAGE,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- a WaveNet-style next-value predictor
T_WN = 64

def _series(seed, n, split=0):
    "Two sines of random period and phase, plus a slowly drifting AR(1) component and noise; the window and its next value."
    g = _gen(seed * 409 + split)
    t = torch.arange(T_WN + 1).float()
    per, ph, a = 6 + 20 * torch.rand(n, 2, 1, generator=g), 2 * math.pi * torch.rand(n, 2, 1, generator=g), 0.5 + torch.rand(n, 2, 1, generator=g)
    s = (a * torch.sin(2 * math.pi * t / per + ph)).sum(1)
    e = 0.1 * torch.randn(n, T_WN + 1, generator=g); ar = torch.zeros_like(e)
    for k in range(1, T_WN + 1): ar[:, k] = 0.9 * ar[:, k - 1] + e[:, k]
    s = s + ar + 0.05 * torch.randn(n, T_WN + 1, generator=g)
    return TensorDataset(s[:, None, :-1], s[:, -1:])

class CausalConv(nn.Conv1d):
    def __init__(self, i, o, k, dilation=1):
        super().__init__(i, o, k, dilation=dilation); self.pad = (k - 1) * dilation
    def forward(self, x): return super().forward(F.pad(x, (self.pad, 0)))

class WaveBlock(nn.Module):  # gated activation tanh * sigmoid, a 1x1 residual and a 1x1 skip output
    def __init__(self, c, d, p=0.2, functional_dropout=False):
        super().__init__(); self.p, self.functional_dropout = p, functional_dropout
        self.filt, self.gate = CausalConv(c, c, 2, d), CausalConv(c, c, 2, d)
        self.res, self.skip = nn.Conv1d(c, c, 1), nn.Conv1d(c, c, 1)
    def forward(self, x):
        h = torch.tanh(self.filt(x)) * torch.sigmoid(self.gate(x))
        h = F.dropout(h, self.p) if self.functional_dropout else F.dropout(h, self.p, training=self.training)
        return x + self.res(h), self.skip(h)

class WaveNet(nn.Module):  # van den Oord et al. 2016, for regression: dilations 1..32 (a receptive field of 64), the last step's skip sum to a head
    def __init__(self, c=24, dilations=(1, 2, 4, 8, 16, 32), **kw):
        super().__init__()
        self.inp = CausalConv(1, c, 2)
        self.blocks = nn.ModuleList(WaveBlock(c, d, **kw) for d in dilations)
        self.head = nn.Sequential(nn.ReLU(), nn.Conv1d(c, c, 1), nn.ReLU(), nn.Conv1d(c, 1, 1))
    def forward(self, x):
        h, skips = self.inp(x), 0
        for b in self.blocks: h, s = b(h); skips = skips + s
        return self.head(skips)[:, :, -1]  # the prediction made at the last step: the next value

@healthy('M')
def wavenet_next(seed, **mk):  # SmoothL1Loss (Huber), Adam 1e-3, batches of 64
    return dict(model=lambda: WaveNet(**mk), train=_series(seed, 1500), valid=_series(seed, 400, split=1), loss=nn.SmoothL1Loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a Set Transformer counting clusters
N_PTS = 40

def _cluster_sets(seed, n, split=0):
    "Sets of 40 points in the plane drawn from 1 to 4 Gaussian clusters; the label: the number of clusters minus one."
    g = _gen(seed * 419 + split)
    k = torch.randint(1, 5, (n,), generator=g)
    centres = 6 * torch.rand(n, 4, 2, generator=g) - 3
    which = (torch.rand(n, N_PTS, generator=g) * k[:, None]).long()
    pts = centres[torch.arange(n)[:, None], which] + 0.35 * torch.randn(n, N_PTS, 2, generator=g)
    return TensorDataset(pts, k - 1)

class MAB(nn.Module):  # Lee et al. 2019: multihead attention block, H = LN(X + MHA(X, Y)), out = LN(H + rFF(H))
    def __init__(self, d, heads=4):
        super().__init__()
        self.att = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln1, self.ln2, self.ff = nn.LayerNorm(d), nn.LayerNorm(d), nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
    def forward(self, x, y):
        h = self.ln1(x + self.att(x, y, y, need_weights=False)[0])
        return self.ln2(h + self.ff(h))

class ISAB(nn.Module):  # induced set attention: m inducing points attend to the set, the set attends back
    def __init__(self, d, m=8):
        super().__init__(); self.I = nn.Parameter(torch.randn(1, m, d) * d ** -0.5); self.mab0, self.mab1 = MAB(d), MAB(d)
    def forward(self, x): return self.mab1(x, self.mab0(self.I.expand(len(x), -1, -1), x))

class SetTransformer(nn.Module):  # encoder: two ISABs; decoder: pooling by multihead attention with one seed, a linear head
    def __init__(self, d=48, k=4, softmax=False):
        super().__init__(); self.softmax = softmax
        self.embed, self.enc = nn.Linear(2, d), nn.Sequential(ISAB(d), ISAB(d))
        self.S, self.pma = nn.Parameter(torch.randn(1, 1, d) * d ** -0.5), MAB(d)
        self.head = nn.Linear(d, k)
    def forward(self, x):
        h = self.enc(self.embed(x))
        out = self.head(self.pma(self.S.expand(len(x), -1, -1), h).squeeze(1))
        return out.softmax(-1) if self.softmax else out

@healthy('M')
def set_transformer_counts(seed, **mk):  # CrossEntropyLoss, Adam 1e-3, batches of 64
    return dict(model=lambda: SetTransformer(**mk), train=_cluster_sets(seed, 1600), valid=_cluster_sets(seed, 400, split=1),
                loss=nn.CrossEntropyLoss(), num_classes=4, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a FiLM-conditioned CNN answering questions about digits
QUESTIONS = (lambda d: d % 2 == 0, lambda d: d > 4, lambda d: (d == 2) | (d == 3) | (d == 5) | (d == 7), lambda d: d % 3 == 0)  # even, > 4, prime, a multiple of 3

def _qa(x, y, seed, per=2, split=0):
    "Each image asked `per` questions drawn at random among the four; the answer 0 or 1."
    g = _gen(seed * 421 + split)
    idx = torch.arange(len(y)).repeat(per)
    q = torch.randint(0, len(QUESTIONS), (len(idx),), generator=g)
    d = y[idx]
    a = torch.stack([f(d) for f in QUESTIONS], 1).gather(1, q[:, None]).squeeze(1).float()
    return x[idx], q, a

class FiLMBlock(nn.Module):  # Perez et al. 2018: conv, BatchNorm without affine, x * gamma + beta from the question, ReLU, a residual
    def __init__(self, c):
        super().__init__(); self.conv1, self.conv2, self.bn = nn.Conv2d(c, c, 1), nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c, affine=False)
    def forward(self, x, gamma, beta):
        x = F.relu(self.conv1(x))
        h = self.bn(self.conv2(x)) * gamma[:, :, None, None] + beta[:, :, None, None]
        return x + F.relu(h)

class FiLMNet(nn.Module):
    def __init__(self, c=32, blocks=2, e=16, detach_film=False):
        super().__init__(); self.c, self.blocks_n, self.detach_film = c, blocks, detach_film
        self.stem = nn.Sequential(nn.Conv2d(1, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU())
        self.q_emb = nn.Embedding(len(QUESTIONS), e)
        self.film = nn.Linear(e, 2 * c * blocks)  # the FiLM generator: one (gamma, beta) pair per block
        self.blocks = nn.ModuleList(FiLMBlock(c) for _ in range(blocks))
        self.head = nn.Sequential(nn.Linear(c, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x, q):
        gb = self.film(self.q_emb(q))
        if self.detach_film: gb = gb.detach()  # copied from the notebook that plotted the gammas
        gb = gb.view(-1, self.blocks_n, 2, self.c)
        h = self.stem(x)
        for i, blk in enumerate(self.blocks): h = blk(h, 1 + gb[:, i, 0], gb[:, i, 1])  # gamma around 1, as the paper's code
        return self.head(h.mean((2, 3))).squeeze(1)

def _film_fwd(model, b): x, q, a = b; return model(x, q), a

@healthy('M')
def film_questions(seed, rolled=False, **mk):  # BCEWithLogitsLoss, Adam 3e-4 with weight decay 1e-5 as the paper, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    x, q, a = _qa(x, y, seed); vx, vq, va = _qa(vx, vy, seed, split=1)
    if rolled: a = torch.roll(a, 1)  # the answers column written one row off (a header line counted as data when re-reading the CSV)
    return dict(model=lambda: FiLMNet(**mk), train=TensorDataset(x, q, a), valid=TensorDataset(vx, vq, va), forward=_film_fwd,
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=3e-4, weight_decay=1e-5), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- deep evidential regression
def _cubic(seed, n, split=0):
    "Amini et al. 2020's toy problem: y = x^3 + N(0, 3^2), x in [-4, 4], the target divided by a fixed 50 to lie within about [-1.5, 1.5]."
    g = _gen(seed * 431 + split)
    x = 8 * torch.rand(n, 1, generator=g) - 4
    y = x ** 3 + 3 * torch.randn(n, 1, generator=g)
    return TensorDataset(x, y / 50)

class EvidentialNet(nn.Module):  # the Normal-Inverse-Gamma head: gamma, nu > 0, alpha > 1, beta > 0
    def __init__(self, h=64):
        super().__init__(); self.body = nn.Sequential(nn.Linear(1, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU()); self.head = nn.Linear(h, 4)
    def forward(self, x):
        gamma, nu, alpha, beta = self.head(self.body(x)).unbind(-1)
        return gamma[:, None], F.softplus(nu)[:, None], (F.softplus(alpha) + 1)[:, None], F.softplus(beta)[:, None]

def evidential_loss(out, y, lam=0.01):  # NIG negative log-likelihood plus lam |y - gamma| (2 nu + alpha), averaged
    gamma, nu, alpha, beta = out
    omega = 2 * beta * (1 + nu)
    nll = (0.5 * torch.log(math.pi / nu) - alpha * torch.log(omega) + (alpha + 0.5) * torch.log(nu * (y - gamma) ** 2 + omega)
           + torch.lgamma(alpha) - torch.lgamma(alpha + 0.5))
    reg = (y - gamma).abs() * (2 * nu + alpha)
    return (nll + lam * reg).mean()

@healthy('M')
def evidential_reg(seed):  # Adam 5e-4 as the paper, batches of 128
    return dict(model=EvidentialNet, train=_cubic(seed, 2000), valid=_cubic(seed, 400, split=1), loss=evidential_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-4), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- neural collaborative filtering (NeuMF), implicit feedback
U_NCF, I_NCF = 300, 400

def _implicit(seed, per_user=24, held=3, neg=4):
    """Users' positives drawn by a softmax over latent affinities plus item popularity; the last `held` of each user held out;
    each positive with `neg` sampled items the user never touched (label 0), as the NCF repository's get_train_instances."""
    g = _gen(seed * 433)
    P, Q = torch.randn(U_NCF, 6, generator=g), torch.randn(I_NCF, 6, generator=g)
    pop = 1.5 * torch.randn(I_NCF, generator=g)
    logits = P @ Q.T + pop
    pos = torch.stack([torch.multinomial(logits[u].softmax(0), per_user, generator=g) for u in range(U_NCF)])
    seen = torch.zeros(U_NCF, I_NCF, dtype=torch.bool); seen[torch.arange(U_NCF)[:, None], pos] = True
    def instances(pu):
        u = torch.arange(U_NCF).repeat_interleave(pu.size(1)); i = pu.flatten()
        uu, ii, yy = [u], [i], [torch.ones(len(u))]
        for _ in range(neg):
            j = torch.randint(0, I_NCF, (len(u),), generator=g)
            bad = seen[u, j]
            while bad.any(): j[bad] = torch.randint(0, I_NCF, (int(bad.sum()),), generator=g); bad = seen[u, j]
            uu.append(u); ii.append(j); yy.append(torch.zeros(len(u)))
        return TensorDataset(torch.cat(uu), torch.cat(ii), torch.cat(yy))
    return instances(pos[:, :-held]), instances(pos[:, -held:])

class NeuMF(nn.Module):  # He et al. 2017: a GMF tower (elementwise product) and an MLP tower, their last layers concatenated, a sigmoid
    def __init__(self, k_gmf=8, k_mlp=16, layers=(32, 16, 8)):
        super().__init__()
        self.u_gmf, self.i_gmf = nn.Embedding(U_NCF, k_gmf), nn.Embedding(I_NCF, k_gmf)
        self.u_mlp, self.i_mlp = nn.Embedding(U_NCF, k_mlp), nn.Embedding(I_NCF, k_mlp)
        mlp, d = [], 2 * k_mlp
        for o in layers: mlp += [nn.Linear(d, o), nn.ReLU()]; d = o
        self.mlp, self.predict = nn.Sequential(*mlp), nn.Linear(k_gmf + d, 1)
        for e in (self.u_gmf, self.i_gmf, self.u_mlp, self.i_mlp): nn.init.normal_(e.weight, std=0.01)
    def forward(self, u, i):
        g = self.u_gmf(u) * self.i_gmf(i)
        m = self.mlp(torch.cat([self.u_mlp(u), self.i_mlp(i)], -1))
        return torch.sigmoid(self.predict(torch.cat([g, m], -1))).squeeze(-1)

def _ncf_fwd(model, b): u, i, y = b; return model(u, i), y

@healthy('M')
def neumf_implicit(seed):  # BCELoss on the sigmoid, Adam 1e-3, batches of 256
    tr, va = _implicit(seed)
    return dict(model=NeuMF, train=tr, valid=va, forward=_ncf_fwd, loss=nn.BCELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- a seq2seq with Bahdanau attention: written dates to ISO
SRC_CHARS = " ,.0123456789abcdefghijklmnopqrstuvwxyz"
TGT_CHARS = "0123456789-"
SRC_PAD, SRC_V, TGT_SOS, TGT_V, SRC_LEN, TGT_LEN = 0, len(SRC_CHARS) + 1, len(TGT_CHARS), len(TGT_CHARS) + 1, 20, 10
DATE_FORMATS = ('%d %B %Y', '%B %d, %Y', '%d %b %Y', '%d.%m.%Y', '%b %d %Y', '%d %B, %Y', '%Y %B %d')

def _dates(seed, n, split=0):
    "Random days 1950-2049 written in one of seven formats (lower case), the target the ISO date; source padded to 20 characters."
    g = _gen(seed * 439 + split)
    day0 = datetime.date(1950, 1, 1).toordinal()
    days = torch.randint(0, 36524, (n,), generator=g); fmts = torch.randint(0, len(DATE_FORMATS), (n,), generator=g)
    src, tgt = torch.full((n, SRC_LEN), SRC_PAD, dtype=torch.long), torch.zeros(n, TGT_LEN, dtype=torch.long)
    for k in range(n):
        d = datetime.date.fromordinal(day0 + int(days[k]))
        s = d.strftime(DATE_FORMATS[int(fmts[k])]).lower()
        src[k, :len(s)] = torch.tensor([SRC_CHARS.index(c) + 1 for c in s])
        tgt[k] = torch.tensor([TGT_CHARS.index(c) for c in d.isoformat()])
    tgt_in = torch.cat([torch.full((n, 1), TGT_SOS), tgt[:, :-1]], 1)  # teacher forcing: the decoder reads the previous true character
    return TensorDataset(src, tgt_in, tgt)

class BahdanauSeq2Seq(nn.Module):  # Bahdanau et al. 2015: a bidirectional GRU encoder, a GRU decoder whose input is joined to an additive-attention context
    def __init__(self, e=24, h=48):
        super().__init__()
        self.src_emb, self.tgt_emb = nn.Embedding(SRC_V, e, padding_idx=SRC_PAD), nn.Embedding(TGT_V, e)
        self.enc = nn.GRU(e, h, batch_first=True, bidirectional=True)
        self.init_h = nn.Linear(2 * h, h)
        self.W_enc, self.W_dec, self.v = nn.Linear(2 * h, h, bias=False), nn.Linear(h, h), nn.Linear(h, 1, bias=False)
        self.cell = nn.GRUCell(e + 2 * h, h)
        self.out = nn.Linear(h + 2 * h + e, TGT_V - 1)  # predicts digits and '-', never the start symbol
    def forward(self, src, tgt_in):
        enc, _ = self.enc(self.src_emb(src))  # (B, S, 2h)
        pad = src == SRC_PAD
        s = torch.tanh(self.init_h(enc.masked_fill(pad[..., None], 0).sum(1) / (~pad).sum(1, keepdim=True)))
        keys, outs = self.W_enc(enc), []
        for t in range(tgt_in.size(1)):
            emb = self.tgt_emb(tgt_in[:, t])
            score = self.v(torch.tanh(keys + self.W_dec(s)[:, None])).squeeze(-1).masked_fill(pad, -1e9)
            ctx = (score.softmax(1)[..., None] * enc).sum(1)
            s = self.cell(torch.cat([emb, ctx], -1), s)
            outs.append(self.out(torch.cat([s, ctx, emb], -1)))
        return torch.stack(outs, 1)  # (B, T, 11)

def _s2s_fwd(model, b): src, tgt_in, tgt = b; return model(src, tgt_in).reshape(-1, TGT_V - 1), tgt.reshape(-1)

@healthy('M')
def bahdanau_dates(seed, lr=1e-3):  # CrossEntropyLoss per character, Adam 1e-3, batches of 64, the gradient norm clipped at 1 as the tutorials
    return dict(model=BahdanauSeq2Seq, train=_dates(seed, 2000), valid=_dates(seed, 500, split=1), forward=_s2s_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=TGT_V - 1, optimizer=lambda p: torch.optim.Adam(p, lr=lr),
                **_keys(seed, batch_size=64, clip_grad=1.0))

# ---------------------------------------------------------------- DeepFM for click-through rates
CARDS_FM = (12, 30, 7, 50, 5, 100, 24, 9)

def _impressions(seed, duplicated=False, n=5000, n_valid=1000):
    """Eight categorical fields and three dense ones; the click drawn from a logit with field biases, two latent pairwise
    interactions and a dense term. Dense features log-transformed and standardised on the train rows."""
    g = _gen(seed * 443)
    xc = torch.stack([torch.randint(0, c, (n,), generator=g) for c in CARDS_FM], 1)
    xd = torch.exp(torch.randn(n, 3, generator=g)) * torch.tensor([3.0, 40.0, 1.0])
    gw = torch.Generator().manual_seed(8800 + seed)
    bias = [0.7 * torch.randn(c, generator=gw) for c in CARDS_FM]
    V = [torch.randn(c, 3, generator=gw) for c in CARDS_FM]
    ld = torch.log1p(xd)
    logit = (-1.8 + sum(bias[f][xc[:, f]] for f in range(len(CARDS_FM)))
             + 0.8 * (V[0][xc[:, 0]] * V[3][xc[:, 3]]).sum(1) + 0.8 * (V[1][xc[:, 1]] * V[5][xc[:, 5]]).sum(1)
             + 0.6 * (ld[:, 1] - ld[:, 1].mean()))
    y = (torch.rand(n, generator=g) < torch.sigmoid(logit)).float()
    if duplicated: xc, ld, y = torch.cat([xc, xc]), torch.cat([ld, ld]), torch.cat([y, y])  # both log shippers' copies of each impression kept
    p = torch.randperm(len(y), generator=_gen(seed * 449))
    xc, ld, y = xc[p], ld[p], y[p]
    ld = _std(ld, ld[n_valid:])
    return (xc[n_valid:], ld[n_valid:], y[n_valid:]), (xc[:n_valid], ld[:n_valid], y[:n_valid])

class DeepFM(nn.Module):  # Guo et al. 2017: first-order weights + FM pairwise term + a DNN, all over the same field embeddings
    def __init__(self, k=8, hidden=(64, 64), dropout=0.2):
        super().__init__()
        self.register_buffer('off', torch.tensor((0,) + CARDS_FM[:-1]).cumsum(0))
        n = sum(CARDS_FM)
        self.w = nn.Embedding(n, 1); self.emb = nn.Embedding(n, k); self.dense_w = nn.Linear(3, 1)
        self.dense_emb = nn.Parameter(torch.randn(3, k) * 0.01)  # each dense field a vector scaled by its value
        nn.init.normal_(self.w.weight, std=0.01); nn.init.normal_(self.emb.weight, std=0.01)
        layers, d = [], (len(CARDS_FM) + 3) * k
        for o in hidden: layers += [nn.Linear(d, o), nn.ReLU(), nn.Dropout(dropout)]; d = o
        self.dnn = nn.Sequential(*layers, nn.Linear(d, 1))
    def forward(self, xc, xd):
        idx = xc + self.off
        e = torch.cat([self.emb(idx), xd[..., None] * self.dense_emb], 1)  # (B, F, k)
        first = self.w(idx).sum((1, 2)) + self.dense_w(xd).squeeze(1)
        fm = 0.5 * (e.sum(1) ** 2 - (e ** 2).sum(1)).sum(1)
        return first + fm + self.dnn(e.flatten(1)).squeeze(1)  # a logit

def _fm_fwd(model, b): xc, xd, y = b; return model(xc, xd), y

@healthy('M')
def deepfm_ctr(seed, duplicated=False):  # BCEWithLogitsLoss, Adam 1e-3, batches of 256
    tr, va = _impressions(seed, duplicated)
    return dict(model=DeepFM, train=TensorDataset(*tr), valid=TensorDataset(*va), forward=_fm_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- a MobileNet-style CNN on digits
def _dw_sep(i, o, stride):  # depthwise 3x3, BN, ReLU6, pointwise 1x1, BN, ReLU6 (Howard et al. 2017)
    return nn.Sequential(nn.Conv2d(i, i, 3, stride, 1, groups=i, bias=False), nn.BatchNorm2d(i), nn.ReLU6(inplace=True),
                         nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU6(inplace=True))

class MobileNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6(inplace=True),
                                      _dw_sep(32, 64, 1), _dw_sep(64, 128, 2), _dw_sep(128, 128, 1), _dw_sep(128, 256, 2))
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(256, 10))
    def forward(self, x): return self.classifier(F.adaptive_avg_pool2d(self.features(x), 1).flatten(1))

def _mobilenet_head_only():
    """Fine-tuning a checkpoint: everything frozen, then the head meant to be unfrozen, but `requires_grad` set on the Linear
    module (a plain attribute), not on its parameters: nothing trains."""
    m = MobileNet()
    for p in m.parameters(): p.requires_grad = False
    m.classifier[1].requires_grad = True
    return m

@healthy('M')
def mobilenet_digits(seed):  # CrossEntropyLoss with label smoothing 0.1, SGD 0.05 with Nesterov momentum 0.9 and weight decay 4e-5, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=MobileNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(label_smoothing=0.1),
                num_classes=10, optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=4e-5),
                **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a Koopman autoencoder of a damped pendulum
S_KOOP = 8

def _pendulum(seed, n, split=0, dt=0.1):
    "theta'' = -sin(theta) - 0.1 theta', RK4 at dt 0.1 from random starts (|theta| < 2.5, |omega| < 1.5); S_KOOP + 1 states (theta, omega)."
    g = _gen(seed * 457 + split)
    s = torch.stack([5 * torch.rand(n, generator=g) - 2.5, 3 * torch.rand(n, generator=g) - 1.5], 1)
    f = lambda s: torch.stack([s[:, 1], -torch.sin(s[:, 0]) - 0.1 * s[:, 1]], 1)
    out = [s]
    for _ in range(S_KOOP):
        k1 = f(s); k2 = f(s + dt / 2 * k1); k3 = f(s + dt / 2 * k2); k4 = f(s + dt * k3)
        s = s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4); out.append(s)
    seq = torch.stack(out, 1)  # (n, S_KOOP + 1, 2)
    return TensorDataset(seq, seq)  # an autoencoder: the trajectory is its own target

class KoopmanAE(nn.Module):  # Lusch et al. 2018 without the auxiliary eigenvalue net: phi, a linear K on the latent, phi^-1
    def __init__(self, z=8, h=64):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(2, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, z))
        self.dec = nn.Sequential(nn.Linear(z, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 2))
        self.K = nn.Linear(z, z, bias=False); nn.init.eye_(self.K.weight)
    def forward(self, seq):
        z = self.enc(seq)  # (B, S + 1, z)
        roll, zk = [], z[:, 0]
        for _ in range(seq.size(1) - 1): zk = self.K(zk); roll.append(zk)
        roll = torch.stack(roll, 1)
        return self.dec(z), self.dec(roll), z[:, 1:], roll

def koopman_loss(out, seq, a_pred=1.0, a_lin=0.1):  # reconstruction + prediction through K^k + linearity of the latent dynamics
    recon, pred, z_true, z_roll = out
    return F.mse_loss(recon, seq) + a_pred * F.mse_loss(pred, seq[:, 1:]) + a_lin * F.mse_loss(z_roll, z_true)

def step_koopman(model, batch, opt):
    seq, target = batch
    opt.zero_grad()
    loss = koopman_loss(model(seq), target); loss.backward(); opt.step()
    return loss

def step_koopman_no_zero_grad(model, batch, opt):  # the zero_grad lost when the three loss terms were split out for logging
    seq, target = batch
    recon, pred, z_true, z_roll = model(seq)
    l_rec, l_pred, l_lin = F.mse_loss(recon, target), F.mse_loss(pred, target[:, 1:]), F.mse_loss(z_roll, z_true)
    loss = l_rec + l_pred + 0.1 * l_lin; loss.backward(); opt.step()
    return loss

@healthy('M')
def koopman_pendulum(seed):  # Adam 1e-3, batches of 64, the custom step above
    return dict(model=KoopmanAE, train=_pendulum(seed, 2000), valid=_pendulum(seed, 400, split=1), loss=koopman_loss, step=step_koopman,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- MADE on binarised digits
class MaskedLinear(nn.Linear):
    def __init__(self, i, o, normal_init=False):
        super().__init__(i, o); self.register_buffer('mask', torch.ones(o, i))
        if normal_init: nn.init.normal_(self.weight); nn.init.zeros_(self.bias)  # "initialise the weights from a normal", std left at its default 1
    def forward(self, x): return F.linear(x, self.mask * self.weight, self.bias)

class MADE(nn.Module):  # Germain et al. 2015 (as karpathy/pytorch-made): degrees 0..D-1 for the inputs, random degrees for the hidden units
    def __init__(self, d=64, hidden=(256, 256), seed=0, **kw):
        super().__init__()
        sizes = (d,) + tuple(hidden) + (d,)
        self.layers = nn.ModuleList(MaskedLinear(a, b, **kw) for a, b in zip(sizes, sizes[1:]))
        g = torch.Generator().manual_seed(seed)
        m = [torch.arange(d)] + [torch.randint(int(0), d - 1, (h,), generator=g) for h in hidden]
        for l, (a, b) in enumerate(zip(m, m[1:])): self.layers[l].mask.copy_((b[:, None] >= a[None, :]).float())
        self.layers[-1].mask.copy_((torch.arange(d)[:, None] > m[-1][None, :]).float())
    def forward(self, x):
        h = x.flatten(1)
        for l in self.layers[:-1]: h = F.relu(l(h))
        return self.layers[-1](h)  # a logit per pixel, each depending only on the pixels before it

def made_nll(logits, x): return F.binary_cross_entropy_with_logits(logits, x, reduction='sum') / len(x)  # nats per image

@healthy('M')
def made_digits(seed, **mk):  # Adam 1e-3, batches of 100
    (x, _), (vx, _) = _digits(seed)
    x, vx = (x.flatten(1) > 0.5).float(), (vx.flatten(1) > 0.5).float()
    return dict(model=lambda: MADE(**mk), train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=made_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- a Kolmogorov-Arnold network (B-spline edges)
class KANLinear(nn.Module):  # efficient-kan's layer: SiLU(x) W_base + sum_k B_k(x) c_k, cubic B-splines on a grid of 5 over [-1, 1]
    def __init__(self, i, o, grid=5, order=3, lo=-1.0, hi=1.0):
        super().__init__(); self.order = order
        h = (hi - lo) / grid
        self.register_buffer('knots', torch.arange(-order, grid + order + 1).float() * h + lo)
        self.base = nn.Linear(i, o)
        self.spline = nn.Parameter(torch.randn(o, i, grid + order) * 0.1)
    def bases(self, x):  # Cox-de Boor recursion, (B, i, grid + order)
        t, x = self.knots, x[..., None]
        b = ((x >= t[:-1]) & (x < t[1:])).to(x.dtype)
        for k in range(1, self.order + 1):
            b = (x - t[:-(k + 1)]) / (t[k:-1] - t[:-(k + 1)]) * b[..., :-1] + (t[k + 1:] - x) / (t[k + 1:] - t[1:-k]) * b[..., 1:]
        return b
    def forward(self, x): return self.base(F.silu(x)) + torch.einsum('bik,oik->bo', self.bases(x), self.spline)

class KAN(nn.Module):
    def __init__(self, widths=(4, 8, 4, 1)):
        super().__init__(); self.layers = nn.ModuleList(KANLinear(a, b) for a, b in zip(widths, widths[1:]))
    def forward(self, x):
        for i, l in enumerate(self.layers):
            x = l(x)
            if i < len(self.layers) - 1: x = torch.tanh(x)  # keep the next layer's inputs on its grid
        return x

def _kan_data(seed, n, split=0, flat_target=False):
    "The KAN paper's f = exp(0.5 sin(pi (x1^2 + x2^2)) + 0.5 sin(pi (x3^2 + x4^2))), x uniform on [-1, 1]^4, a little noise."
    g = _gen(seed * 461 + split)
    x = 2 * torch.rand(n, 4, generator=g) - 1
    y = torch.exp(0.5 * torch.sin(math.pi * (x[:, 0] ** 2 + x[:, 1] ** 2)) + 0.5 * torch.sin(math.pi * (x[:, 2] ** 2 + x[:, 3] ** 2)))
    y = y + 0.02 * torch.randn(n, generator=g)
    return TensorDataset(x, y if flat_target else y[:, None])  # flat: y of shape (n,) against the model's (n, 1), as read from a CSV column

@healthy('M')
def kan_spline(seed, flat_target=False):  # MSELoss, AdamW 1e-2 with weight decay 1e-4, batches of 128
    return dict(model=KAN, train=_kan_data(seed, 3000, flat_target=flat_target), valid=_kan_data(seed, 600, split=1, flat_target=flat_target),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=1e-4), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- broken variants of half M
@broken('M', 'film_answers_rolled', 4, ('labels',))
def film_answers_rolled(seed): return film_questions(seed, rolled=True)

@broken('M', 'sage_labels_shuffled', 4, ('labels',))
def sage_labels_shuffled(seed): return sage_nodes(seed, shuffled=True)

@broken('M', 'deepfm_duplicated_rows', 4, ('leakage',))
def deepfm_duplicated_rows(seed): return deepfm_ctr(seed, duplicated=True)  # every impression twice before the random split

@broken('M', 'set_softmax_before_ce', 2, ('softmax',))
def set_softmax_before_ce(seed): return set_transformer_counts(seed, softmax=True)

@broken('M', 'made_normal_init', 2, ('init_scale',))
def made_normal_init(seed): return made_digits(seed, normal_init=True)

@broken('M', 'wavenet_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def wavenet_functional_dropout(seed): return wavenet_next(seed, functional_dropout=True)  # F.dropout(h, p): training defaults to True

@broken('M', 'mobilenet_head_attr_frozen', 1, ('frozen',))
def mobilenet_head_attr_frozen(seed): return dict(mobilenet_digits(seed), model=_mobilenet_head_only)

@broken('M', 'koopman_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def koopman_no_zero_grad(seed): return dict(koopman_pendulum(seed), step=step_koopman_no_zero_grad)

@broken('M', 'neumf_stale_optimizer', (1, 3), ('frozen', 'not_updating', 'flat', 'stuck', 'lr_zero'))
def neumf_stale_optimizer(seed):  # the optimizer built over the NeuMF made before the pretrained GMF and MLP towers were loaded into a new one
    return dict(neumf_implicit(seed), optimizer=lambda p: torch.optim.Adam(NeuMF().parameters(), lr=1e-3))

@broken('M', 'bahdanau_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def bahdanau_lr_x1000(seed): return bahdanau_dates(seed, lr=1.0)

# the FiLM parameters detached: the question embedding and the FiLM generator never get a gradient; the CNN still learns
# what it can from the fixed random modulation, so the loss falls
@broken('M', 'film_detached_generator', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def film_detached_generator(seed): return film_questions(seed, detach_film=True)

@broken('M', 'kan_target_broadcast', (3, 4), ('labels', 'not_falling', 'flat', 'stuck'))
def kan_target_broadcast(seed): return kan_spline(seed, flat_target=True)  # MSELoss of (n, 1) against (n,) broadcasts to (n, n): it fits the mean
