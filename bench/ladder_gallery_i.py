"""Half I of the ladder's gallery (issue 32): held out from the eighth round of rules, frozen at 5990922 ("round 8, frozen"),
written after that commit and run once. Families not in halves A-H: a 2-D convolutional autoencoder, a RealNVP normalising
flow on 2-D points (no labels: the batch is the points alone), a temporal convolutional network (dilated causal convolutions)
forecasting the next value of a series, a label-smoothed classifier with warm-up and cosine decay, a DistMult knowledge-graph
model scoring every entity as the tail of (head, relation) (a batch of three integer-id tensors), graph classification over
many small graphs batched block-diagonally by a collate_fn of its own, a transformer encoder over padded variable-length
sequences with a key-padding mask (a collate_fn that pads and returns dict batches), an ordinal regression (CORAL: shared
weights, K-1 cumulative thresholds), a Cox proportional-hazards survival model (the partial likelihood over each batch).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half H.

Protocol: written after the freeze 5990922 without reading the ladder's rules (ntrain/ladder/*.py, nbs/02_ladder, the ladder
sections of bench/RESULTS.md, CHANGELOG.md) or any earlier sweep's results; only `ntrain.ladder`'s public signature and
docstring and the factory format of halves A-H were read. Each program was checked by hand only with a plain torch loop of
its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder.
Committed before any ladder run, then run once, rungs 1-4, seeds 0-9 as two processes (seeds 0-4, 5-9):
`OMP_NUM_THREADS=1 nice -n 19 timeout 2700 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half I`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, Dataset, DataLoader
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std

# ---------------------------------------------------------------- a 2-D convolutional autoencoder on digit images
class ConvAE(nn.Module):  # two strided convolutions down to 32 x 2 x 2, two transposed convolutions back, a sigmoid
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 16, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(nn.ConvTranspose2d(32, 16, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
                                     nn.ConvTranspose2d(16, 1, 3, stride=2, padding=1, output_padding=1), nn.Sigmoid())
    def forward(self, x): return self.decoder(self.encoder(x))

@healthy('I')
def conv_ae(seed):  # MSE between the image and its reconstruction, Adam 1e-3
    (x, _), (vx, _) = _digits(seed)
    return dict(model=ConvAE, train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a RealNVP flow on the two moons: maximum likelihood, no labels
def _moon_points(seed, n, split=0):
    from sklearn.datasets import make_moons
    x, _ = make_moons(n, noise=0.05, random_state=seed * 113 + split)
    return torch.tensor(x, dtype=torch.float32)

class Coupling(nn.Module):  # an affine coupling layer: the masked half conditions a scale (tanh-bounded) and a shift of the other half
    def __init__(self, mask, h=64):
        super().__init__(); self.register_buffer('mask', mask)
        self.s = nn.Sequential(nn.Linear(2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 2), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 2))
    def forward(self, x):  # data -> latent direction
        xm = x * self.mask
        s, t = self.s(xm) * (1 - self.mask), self.t(xm) * (1 - self.mask)
        return xm + (1 - self.mask) * (x * torch.exp(s) + t), s.sum(1)

class RealNVP(nn.Module):  # Dinh et al. 2017, for 2-D points: 6 couplings with alternating masks
    def __init__(self, n=6):
        super().__init__()
        self.layers = nn.ModuleList(Coupling(torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0])) for i in range(n))
    def forward(self, x):  # the latent point and the log-determinant of the Jacobian
        logdet = torch.zeros(len(x))
        for layer in self.layers: x, ld = layer(x); logdet = logdet + ld
        return x, logdet

def flow_nll(out, x):  # -log p(x) = -(log N(z; 0, I) + log|det J|), averaged over the batch; x itself is not needed again
    z, logdet = out
    return -(-0.5 * (z ** 2).sum(1) - math.log(2 * math.pi) + logdet).mean()

def _flow_fwd(model, b): return model(b[0]), b[0]  # the batch is [points]: the points are their own "target"

@healthy('I')
def realnvp_moons(seed):  # Adam 1e-3, batches of 128 points
    x, vx = _moon_points(seed, 3000), _moon_points(seed, 600, split=1)
    return dict(model=RealNVP, train=TensorDataset(x), valid=TensorDataset(vx), forward=_flow_fwd, loss=flow_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a temporal convolutional network forecasting the next value
def _series(seed, n, W=48, split=0):
    "Windows of W steps of a sum of two sines (random periods, phases and amplitudes) plus noise; the target is step W+1."
    g = _gen(seed * 127 + split)
    t = torch.arange(W + 1).float()
    p1, p2 = 8 + 16 * torch.rand(n, 1, generator=g), 3 + 5 * torch.rand(n, 1, generator=g)
    a1, a2 = 0.5 + torch.rand(n, 1, generator=g), 0.3 * torch.rand(n, 1, generator=g)
    ph = 2 * math.pi * torch.rand(n, 2, generator=g)
    s = a1 * torch.sin(2 * math.pi * t / p1 + ph[:, :1]) + a2 * torch.sin(2 * math.pi * t / p2 + ph[:, 1:]) + 0.05 * torch.randn(n, W + 1, generator=g)
    return TensorDataset(s[:, None, :W], s[:, W:])

class CausalBlock(nn.Module):  # Bai, Kolter and Koltun 2018: two dilated causal convolutions, dropout, a residual connection
    def __init__(self, cin, c, d, k=3, p=0.1, always_dropout=False):
        super().__init__(); self.pad, self.p, self.always_dropout = (k - 1) * d, p, always_dropout
        self.c1, self.c2 = nn.Conv1d(cin, c, k, dilation=d), nn.Conv1d(c, c, k, dilation=d)
        self.res = nn.Conv1d(cin, c, 1) if cin != c else nn.Identity()
    def drop(self, h): return F.dropout(h, self.p, training=True if self.always_dropout else self.training)
    def forward(self, x):
        h = self.drop(F.relu(self.c1(F.pad(x, (self.pad, 0)))))
        h = self.drop(F.relu(self.c2(F.pad(h, (self.pad, 0)))))
        return F.relu(h + self.res(x))

class TCN(nn.Module):
    def __init__(self, c=24, always_dropout=False):
        super().__init__()
        self.blocks = nn.Sequential(*[CausalBlock(1 if i == 0 else c, c, 2 ** i, always_dropout=always_dropout) for i in range(4)])
        self.head = nn.Linear(c, 1)
    def forward(self, x): return self.head(self.blocks(x)[:, :, -1])  # the last time step's features -> the next value

@healthy('I')
def tcn_forecast(seed):  # MSE, AdamW 2e-3
    return dict(model=TCN, train=_series(seed, 2000), valid=_series(seed, 400, split=1), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.AdamW(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a label-smoothed classifier, warm-up then cosine decay (OneCycle)
def _blobs(seed, n=2500, n_valid=500):
    from sklearn.datasets import make_classification
    x, y = make_classification(n, n_features=20, n_informative=10, n_redundant=4, n_classes=5, n_clusters_per_class=2,
                               class_sep=1.5, random_state=seed)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y)
    x = _std(x, x[n_valid:])
    return (x[n_valid:], y[n_valid:]), (x[:n_valid], y[:n_valid])

class SmoothMLP(nn.Module):
    def __init__(self, softmax=False):
        super().__init__(); self.softmax = softmax
        self.net = nn.Sequential(nn.Linear(20, 128), nn.GELU(), nn.Dropout(0.1), nn.Linear(128, 128), nn.GELU(), nn.Dropout(0.1), nn.Linear(128, 5))
    def forward(self, x):
        o = self.net(x)
        return o.softmax(1) if self.softmax else o

@healthy('I')
def smooth_onecycle(seed):  # CrossEntropyLoss(label_smoothing=0.1), AdamW 1e-3, weight decay 0.05, 10% warm-up then cosine
    (x, y), (vx, vy) = _blobs(seed)
    return dict(model=SmoothMLP, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(label_smoothing=0.1),
                num_classes=5, optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.05),
                **_keys(seed, batch_size=64, sched__name='onecycle', sched__pct_start=0.1))

# ---------------------------------------------------------------- DistMult on a synthetic knowledge graph, 1-N scoring
E_KG, R_KG = 150, 6

def _triples(seed, n=6000, n_valid=1000, E=E_KG, R=R_KG, k=8):
    "Unique (head, relation, tail) triples; a tail drawn from softmax(3 <u_h, d_r, u_t>) of low-rank latent factors; the first n_valid are validation."
    g = _gen(seed * 131)
    u, d = F.normalize(torch.randn(E, k, generator=g), dim=1) * 2, torch.randn(R, k, generator=g)
    seen, out = set(), []
    while len(out) < n:
        h, r = torch.randint(0, E, (512,), generator=g), torch.randint(0, R, (512,), generator=g)
        logits = 3.0 * ((u[h] * d[r]) @ u.T)
        t = torch.multinomial(logits.softmax(1), 1, generator=g).squeeze(1)
        for a, b, c in zip(h.tolist(), r.tolist(), t.tolist()):
            if (a, b, c) not in seen and len(out) < n: seen.add((a, b, c)); out.append((a, b, c))
    tr = torch.tensor(out)
    tr = tr[torch.randperm(n, generator=g)]
    return tr[n_valid:], tr[:n_valid]

class DistMult(nn.Module):  # Yang et al. 2015: score(h, r, t) = <e_h, w_r, e_t>, every entity scored as the tail at once
    def __init__(self, E=E_KG, R=R_KG, d=32, pretrained=None):
        super().__init__()
        if pretrained is None:
            self.ent, self.rel = nn.Embedding(E, d), nn.Embedding(R, d)
            nn.init.xavier_normal_(self.ent.weight); nn.init.xavier_normal_(self.rel.weight)
        else:  # warm-started from a previous run's vectors
            self.ent, self.rel = nn.Embedding.from_pretrained(pretrained[0]), nn.Embedding.from_pretrained(pretrained[1])
        self.drop = nn.Dropout(0.2)
    def forward(self, h, r): return self.drop(self.ent(h) * self.rel(r)) @ self.ent.weight.T

def _kg_fwd(model, b): return model(b[0], b[1]), b[2]  # the batch is (head, relation, tail), three integer tensors

def _kg_ds(t): return TensorDataset(t[:, 0], t[:, 1], t[:, 2])

@healthy('I')
def distmult_kg(seed):  # CrossEntropyLoss over the E entities (1vsAll), Adagrad 0.1
    tr, va = _triples(seed)
    return dict(model=DistMult, train=_kg_ds(tr), valid=_kg_ds(va), forward=_kg_fwd, num_classes=E_KG,
                optimizer=lambda p: torch.optim.Adagrad(p, lr=0.1), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- graph classification: many small graphs, one block-diagonal batch
def _small_graphs(seed, n, split=0):
    "Graphs of 8-20 nodes of three kinds (a random tree, a ring with 2-3 chords, a sparse random graph); node features: one-hot degree, capped at 7."
    g = _gen(seed * 137 + split)
    out = []
    for _ in range(n):
        k, m = int(torch.randint(0, 3, (1,), generator=g)), int(torch.randint(8, 21, (1,), generator=g))
        a = torch.zeros(m, m)
        if k == 0:
            for i in range(1, m): j = int(torch.randint(0, i, (1,), generator=g)); a[i, j] = a[j, i] = 1
        elif k == 1:
            for i in range(m): a[i, (i + 1) % m] = a[(i + 1) % m, i] = 1
            for _ in range(int(torch.randint(2, 4, (1,), generator=g))):
                i, j = torch.randint(0, m, (2,), generator=g).tolist()
                if i != j: a[i, j] = a[j, i] = 1
        else:
            a = (torch.rand(m, m, generator=g) < 2.5 / m).float().triu(1); a = a + a.T
        deg = a.sum(1).long().clamp(max=7)
        out.append((F.one_hot(deg, 8).float(), a, torch.tensor(k)))
    return out

class GraphList(Dataset):
    def __init__(self, graphs): self.graphs = graphs
    def __len__(self): return len(self.graphs)
    def __getitem__(self, i): return self.graphs[i]

def collate_graphs(samples):  # node features stacked, adjacencies block-diagonal, each node's graph index, the labels
    xs, adjs, ys = zip(*samples)
    batch = torch.cat([torch.full((len(x),), i) for i, x in enumerate(xs)])
    return torch.cat(xs), torch.block_diag(*adjs), batch, torch.stack(ys)

def collate_graphs_sorted(samples):  # packs the graphs largest first (the padding-saver habit), but the labels stay in the order given
    ys = torch.stack([s[2] for s in samples])
    xs, adjs, _ = zip(*sorted(samples, key=lambda s: -len(s[0])))
    batch = torch.cat([torch.full((len(x),), i) for i, x in enumerate(xs)])
    return torch.cat(xs), torch.block_diag(*adjs), batch, ys

class GIN(nn.Module):  # Xu et al. 2019: h <- MLP((1 + eps) h + sum of neighbours), 3 layers, a summed readout per graph
    def __init__(self, f=8, h=32, k=3):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(3))
        self.mlps = nn.ModuleList(nn.Sequential(nn.Linear(f if i == 0 else h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU()) for i in range(3))
        self.out = nn.Linear(h, k)
    def forward(self, x, adj, batch):
        for i, mlp in enumerate(self.mlps): x = mlp((1 + self.eps[i]) * x + adj @ x)
        pooled = torch.zeros(int(batch.max()) + 1, x.shape[1]).index_add_(0, batch, x)
        return self.out(pooled)

def _gin_fwd(model, b): return model(b[0], b[1], b[2]), b[3]

@healthy('I')
def gin_graphs(seed, collate=collate_graphs):  # CrossEntropyLoss, Adam 1e-2 as the GIN paper sets it; DataLoaders with the collate_fn
    tr, va = GraphList(_small_graphs(seed, 1000)), GraphList(_small_graphs(seed, 250, split=1))
    return dict(model=GIN, train=DataLoader(tr, batch_size=32, shuffle=True, collate_fn=collate), valid=DataLoader(va, batch_size=64, collate_fn=collate),
                forward=_gin_fwd, num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a transformer encoder over padded variable-length sequences
def _digit_strings(seed, n, split=0):
    "Strings of 4-24 digits as ids 1-10 (0 is padding); label 1 when the digits' mean is above 4.5."
    g = _gen(seed * 139 + split)
    out = []
    for _ in range(n):
        L = int(torch.randint(4, 25, (1,), generator=g)); d = torch.randint(0, 10, (L,), generator=g)
        out.append((d + 1, int(d.float().mean() > 4.5)))
    return out

def collate_pad(samples):  # pad to the longest in the batch; a dict batch as the tokenizers give
    seqs, labels = zip(*samples)
    tokens = nn.utils.rnn.pad_sequence(list(seqs), batch_first=True, padding_value=0)
    return dict(tokens=tokens, attention_mask=tokens != 0, labels=torch.tensor(labels))

class SeqEncoder(nn.Module):  # embeddings and learned positions, 2 encoder layers with a key-padding mask, a masked mean, a head
    def __init__(self, d=32, inverted_mask=False):
        super().__init__(); self.inverted_mask = inverted_mask
        self.emb, self.pos = nn.Embedding(11, d, padding_idx=0), nn.Embedding(32, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 64, dropout=0.1, batch_first=True), 2, enable_nested_tensor=False)
        self.head = nn.Linear(d, 2)
    def forward(self, tokens, attention_mask):
        h = self.emb(tokens) + self.pos(torch.arange(tokens.shape[1]))[None]
        # src_key_padding_mask is True where a position is padding; the inverted variant hands it the attention mask (True = a real token)
        h = self.enc(h, src_key_padding_mask=attention_mask if self.inverted_mask else ~attention_mask)
        m = attention_mask[..., None].float()
        return self.head((h * m).sum(1) / m.sum(1))

def _seq_fwd(model, b): return model(b['tokens'], b['attention_mask']), b['labels']

@healthy('I')
def padded_transformer(seed, **mk):  # CrossEntropyLoss, Adam 5e-4; the DataLoaders' collate_fn pads
    tr, va = GraphList(_digit_strings(seed, 2000)), GraphList(_digit_strings(seed, 400, split=1))
    return dict(model=lambda: SeqEncoder(**mk), train=DataLoader(tr, batch_size=32, shuffle=True, collate_fn=collate_pad),
                valid=DataLoader(va, batch_size=64, collate_fn=collate_pad), forward=_seq_fwd, num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- ordinal regression: CORAL (rank-consistent cumulative logits)
K_ORD = 5

def _ordinal(seed, n, split=0):
    "8 features; a latent score (linear plus a product term plus noise) cut at its quintiles of a reference draw into levels 0-4."
    g, gw = _gen(seed * 149 + split), torch.Generator().manual_seed(9191 + seed)
    w, ref = torch.randn(8, generator=gw), torch.randn(5000, 8, generator=gw)
    f = lambda x: x @ w + 0.5 * x[:, 0] * x[:, 1]
    cuts = torch.quantile(f(ref), torch.tensor([0.2, 0.4, 0.6, 0.8]))
    x = torch.randn(n, 8, generator=g)
    s = f(x) + 0.5 * torch.randn(n, generator=g)
    return x, torch.bucketize(s, cuts)

class CORAL(nn.Module):  # Cao, Mirjalili and Raschka 2020: one shared score, K-1 biases
    def __init__(self, h=32, K=K_ORD):
        super().__init__(); self.net = nn.Sequential(nn.Linear(8, h), nn.ReLU(), nn.Linear(h, 1, bias=False))
        self.bias = nn.Parameter(torch.zeros(K - 1))
    def forward(self, x): return self.net(x) + self.bias  # B, K-1 logits of P(level > k)

def coral_loss(logits, y):  # binary cross-entropy of each threshold against [y > k]
    levels = (y[:, None] > torch.arange(K_ORD - 1)[None]).float()
    return F.binary_cross_entropy_with_logits(logits, levels, reduction='none').sum(1).mean()

@healthy('I')
def coral_ordinal(seed):  # SGD 0.05 with momentum 0.9
    (x, y), (vx, vy) = _ordinal(seed, 2000), _ordinal(seed, 500, split=1)
    return dict(model=CORAL, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=coral_loss,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- survival: a Cox proportional-hazards network (DeepSurv)
def _survival(seed, n, split=0):
    "6 features; log-hazard linear plus a square term; event times exponential, censored by an independent exponential (about 30% censored)."
    g = _gen(seed * 151 + split)
    x = torch.randn(n, 6, generator=g)
    risk = x @ torch.tensor([0.8, -0.6, 0.4, 0.0, 0.0, 0.3]) + 0.4 * x[:, 2] ** 2
    t_event = -torch.log(torch.rand(n, generator=g)) / risk.exp()
    t_cens = -torch.log(torch.rand(n, generator=g)) / 0.4
    return x, torch.stack([torch.minimum(t_event, t_cens), (t_event <= t_cens).float()], 1)

def cox_loss(risk, target):  # the negative log partial likelihood (Breslow, no ties), over the batch, per event
    time, event = target[:, 0], target[:, 1]
    order = torch.argsort(time, descending=True)
    r, e = risk.squeeze(1)[order], event[order]
    return -((r - torch.logcumsumexp(r, 0)) * e).sum() / e.sum().clamp_min(1)

@healthy('I')
def cox_survival(seed):  # Adam 1e-3, batches of 128 so that each risk set is not tiny
    (x, t), (vx, vt) = _survival(seed, 2000), _survival(seed, 500, split=1)
    return dict(model=lambda: nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1)),
                train=TensorDataset(x, t), valid=TensorDataset(vx, vt), loss=cox_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- broken variants of half I
@broken('I', 'coral_shuffled_levels', 4, ('labels',))
def coral_shuffled_levels(seed):
    kw = coral_ordinal(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 157))]); return kw

@broken('I', 'distmult_leak', 4, ('leakage',))
def distmult_leak(seed):  # validation triples re-use a quarter of the train triples (the split made before a dedup step)
    tr, va = _triples(seed)
    return dict(distmult_kg(seed), valid=_kg_ds(torch.cat([va[:750], tr[:250]])))

def _pretrained_distmult(seed):  # "warm-started" from vectors saved by an earlier run; nn.Embedding.from_pretrained freezes them by default
    g = _gen(seed + 163)
    return lambda: DistMult(pretrained=(0.1 * torch.randn(E_KG, 32, generator=g), 0.1 * torch.randn(R_KG, 32, generator=g)))

@broken('I', 'distmult_frozen_pretrained', 1, ('frozen',))
def distmult_frozen_pretrained(seed): return dict(distmult_kg(seed), model=_pretrained_distmult(seed))

@broken('I', 'gin_collate_misaligned', 4, ('labels',))
def gin_collate_misaligned(seed): return gin_graphs(seed, collate=collate_graphs_sorted)

# the attention mask (True = a real token) handed over as src_key_padding_mask (True = padding): training runs and learns through
# the residual path, but in evaluation under no_grad (the fast path) a row without padding is masked whole and comes out NaN
@broken('I', 'transformer_mask_inverted', (1, 2, 4), ('nan', 'nan_forward', 'nan_params', 'nan_backward', 'nan_loss', 'eval_mode'))
def transformer_mask_inverted(seed): return padded_transformer(seed, inverted_mask=True)

@broken('I', 'conv_ae_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def conv_ae_lr_x1000(seed): return dict(conv_ae(seed), optimizer=lambda p: torch.optim.Adam(p, lr=1.0))

@broken('I', 'smooth_softmax_before_ce', 2, ('softmax',))
def smooth_softmax_before_ce(seed): return dict(smooth_onecycle(seed), model=lambda: SmoothMLP(softmax=True))

@broken('I', 'smooth_labels_from_one', 1, ('bad_labels',))
def smooth_labels_from_one(seed):  # classes numbered 1-5, as in the source file, passed on as they are
    kw = smooth_onecycle(seed); x, y = kw['train'].tensors; vx, vy = kw['valid'].tensors
    return dict(kw, train=TensorDataset(x, y + 1), valid=TensorDataset(vx, vy + 1))

def step_cox_no_zero_grad(model, batch, opt):
    x, t = batch
    loss = cox_loss(model(x), t); loss.backward(); opt.step(); return loss

@broken('I', 'cox_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def cox_no_zero_grad(seed): return dict(cox_survival(seed), step=step_cox_no_zero_grad)

@broken('I', 'tcn_dropout_in_eval', 1, ('eval_mode',), ('warn', 'fail'))
def tcn_dropout_in_eval(seed): return dict(tcn_forecast(seed), model=lambda: TCN(always_dropout=True))

@broken('I', 'realnvp_lr_zero', 3, ('lr_zero', 'flat'))
def realnvp_lr_zero(seed): return dict(realnvp_moons(seed), optimizer=lambda p: torch.optim.Adam(p, lr=0.0))
