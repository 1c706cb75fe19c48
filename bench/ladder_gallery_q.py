"""Half Q of the ladder's gallery: held out from the nineteenth round of rules (frozen at 624370a), and run once
on them. Families not in halves A-P: a spatial transformer network on translated digits (the PyTorch tutorial's
log_softmax + nll_loss), a 1D Fourier neural operator learning the heat equation's solution operator, skip-gram word2vec with
negative sampling as labelled (centre, context) pairs and BCEWithLogits, a Deep & Cross Network (DCN-v2) for click-through
with a positive-class weight, co-teaching on noisy digit labels (two networks that pick each other's small-loss samples in a
custom step), a show-and-tell image captioner (a CNN encoder, an LSTM decoder with teacher forcing, padded captions), a
ListNet listwise ranker over queries of 20 documents with graded relevance, a tiny C3D video classifier of the direction of a
moving blob, a neural additive model on the bundled diabetes data in raw units (a dataclass output), a domain-adversarial
network (DANN: a gradient reversal layer, unlabelled target rows at ignore_index -100, a tuple output), a Tweedie-deviance
regression of insurance claim amounts in euros with a log link, and a DeepConvLSTM human-activity classifier on synthetic
accelerometer windows. Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports
this module after half P.

Protocol: written by a helper in a worktree at 6e38253, while round 19's last rule (rung 2's `head_inputs`) was written;
the maintainer read nothing of it before that rule was committed (624370a, the freeze), and the helper did so without reading the ladder's rules (ntrain/ladder/*.py,
nbs/02_ladder and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's
results; only `ntrain.ladder`'s public signature and docstring and the factory format of halves A-P (their @broken lines for
the rung and cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind
(shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before
any ladder run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half Q`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
from dataclasses import dataclass
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- a spatial transformer network on translated digits
def _canvas(x, g, size=16):
    "Each 8x8 digit pasted at a random place of a 16x16 canvas."
    n = len(x); out = torch.zeros(n, 1, size, size)
    r, c = torch.randint(0, size - 7, (n,), generator=g), torch.randint(0, size - 7, (n,), generator=g)
    for i in range(n): out[i, :, r[i]:r[i] + 8, c[i]:c[i] + 8] = x[i]
    return out

class STNet(nn.Module):  # pytorch tutorials, spatial_transformer_tutorial: a localisation net regresses an affine theta
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 16, 3, padding=1), nn.Conv2d(16, 32, 3, padding=1)
        self.conv2_drop = nn.Dropout2d(0.1)
        self.fc1, self.fc2 = nn.Linear(32 * 4 * 4, 64), nn.Linear(64, 10)
        self.localization = nn.Sequential(nn.Conv2d(1, 8, 5, padding=2), nn.MaxPool2d(2), nn.ReLU(True), nn.Conv2d(8, 10, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(10 * 4 * 4, 32), nn.ReLU(True), nn.Linear(32, 3 * 2))
        self.fc_loc[2].weight.data.zero_(); self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
    def stn(self, x):
        theta = self.fc_loc(self.localization(x).view(-1, 10 * 4 * 4)).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False)
    def forward(self, x):
        x = self.stn(x)
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = F.dropout(F.relu(self.fc1(x.view(-1, 32 * 4 * 4))), 0.2, training=self.training)
        return F.log_softmax(self.fc2(x), dim=1)

@healthy('Q')
def stn_digits(seed, off_by_one=False):  # F.nll_loss on log_softmax, Adam 1e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed * 809)
    x, vx = _canvas(x, g), _canvas(vx, g)
    if off_by_one: x, y = x[1:], y[:-1]  # a corrupt image dropped from the images array but not from the labels: each image gets its predecessor's label
    return dict(model=STNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=F.nll_loss, num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a 1D Fourier neural operator for the heat equation
N_X = 64

def _heat(seed, n, split=0):
    """Periodic initial conditions u0(x) (8 random Fourier modes, decaying amplitudes) and the solution u(x, T) of
    u_t = nu u_xx at T = 0.1, each sample its own nu in [0.005, 0.02]; inputs (u0, x, nu) as channels."""
    g = _gen(seed * 811 + split)
    k = torch.arange(1, 9).float()
    a, b = torch.randn(n, 8, generator=g) / k, torch.randn(n, 8, generator=g) / k
    nu = 0.005 + 0.015 * torch.rand(n, 1, generator=g)
    xs = torch.arange(N_X).float() / N_X
    ph = 2 * math.pi * k[:, None] * xs[None]  # (8, N_X)
    u0 = a @ ph.cos() + b @ ph.sin()
    dec = torch.exp(-nu * (2 * math.pi * k) ** 2 * 0.1)
    uT = (a * dec) @ ph.cos() + (b * dec) @ ph.sin()
    inp = torch.stack([u0, xs.expand(n, N_X), nu.expand(n, N_X) * 50], 1)
    return inp, uT[:, None]

class SpectralConv1d(nn.Module):
    def __init__(self, cin, cout, modes):
        super().__init__(); self.modes = modes
        scale = 1 / (cin * cout)
        self.weights = nn.Parameter(scale * torch.rand(cin, cout, modes, dtype=torch.cfloat))
    def forward(self, x):
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(x.size(0), self.weights.size(1), x.size(-1) // 2 + 1, dtype=torch.cfloat)
        out_ft[:, :, :self.modes] = torch.einsum('bix,iox->box', x_ft[:, :, :self.modes], self.weights)
        return torch.fft.irfft(out_ft, n=x.size(-1))

class FNO1d(nn.Module):  # Li et al. 2021 (neuraloperator's fourier_1d.py): lift, spectral + pointwise layers, GELU, project
    def __init__(self, modes=12, width=32, layers=3):
        super().__init__()
        self.fc0 = nn.Linear(3, width)
        self.spec = nn.ModuleList(SpectralConv1d(width, width, modes) for _ in range(layers))
        self.w = nn.ModuleList(nn.Conv1d(width, width, 1) for _ in range(layers))
        self.fc1, self.fc2 = nn.Linear(width, 64), nn.Linear(64, 1)
    def forward(self, x):
        x = self.fc0(x.permute(0, 2, 1)).permute(0, 2, 1)
        for i, (s, w) in enumerate(zip(self.spec, self.w)):
            x = s(x) + w(x)
            if i < len(self.spec) - 1: x = F.gelu(x)
        return self.fc2(F.gelu(self.fc1(x.permute(0, 2, 1)))).permute(0, 2, 1)

@healthy('Q')
def fno_heat(seed, lr=1e-3, leak=False):  # MSELoss, Adam 1e-3, batches of 20 (the script's batch size)
    x, y = _heat(seed, 1000); vx, vy = _heat(seed, 200, split=1)
    if leak:  # the "test" .mat regenerated by indexing the train arrays with a random sample of rows
        i = torch.randint(0, 1000, (200,), generator=_gen(seed * 821)); vx, vy = x[i], y[i]
    return dict(model=FNO1d, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=lr, weight_decay=1e-4), **_keys(seed, batch_size=20))

# ---------------------------------------------------------------- skip-gram word2vec with negative sampling, as labelled pairs
V_W2V, WIN, NEG = 120, 2, 4

def _skipgrams(seed, n_tokens, n_pairs, split=0):
    """A corpus from a fixed Markov chain over 120 words in 10 topics of 12 (a word's successor: its topic's words 80%, the
    next topic's 15%, any word 5%, topics' word order permuted); (centre, context) pairs within a window of 2 labelled 1, and 4
    negatives per positive drawn from the unigram distribution to the 3/4, labelled 0 (tf.keras skipgrams)."""
    g0 = _gen(seed * 823)
    topic = torch.randperm(V_W2V, generator=g0) % 10
    same, nxt = (topic[:, None] == topic[None]).float(), (topic[None] == (topic[:, None] + 1) % 10).float()
    P = 0.8 * same / 12 + 0.15 * nxt / 12 + 0.05 / V_W2V
    g = _gen(seed * 827 + split)
    w = torch.zeros(n_tokens, dtype=torch.long); w[0] = torch.randint(0, V_W2V, (1,), generator=g)
    for t in range(1, n_tokens): w[t] = torch.multinomial(P[w[t - 1]], 1, generator=g)
    c, o = [], []
    for d in range(1, WIN + 1): c += [w[:-d], w[d:]]; o += [w[d:], w[:-d]]
    c, o = torch.cat(c), torch.cat(o)
    uni = torch.bincount(w, minlength=V_W2V).float() ** 0.75
    neg = torch.multinomial(uni, len(c) * NEG, replacement=True, generator=g)
    centre = torch.cat([c, c.repeat(NEG)]); ctx = torch.cat([o, neg]); lab = torch.cat([torch.ones(len(c)), torch.zeros(len(neg))])
    keep = torch.randperm(len(lab), generator=g)[:n_pairs]
    return TensorDataset(torch.stack([centre[keep], ctx[keep]], 1), lab[keep])

class SkipGramNS(nn.Module):  # two embedding tables (input and output vectors), the logit their dot product
    def __init__(self, d=16):
        super().__init__(); self.target, self.context = nn.Embedding(V_W2V, d), nn.Embedding(V_W2V, d)
        nn.init.uniform_(self.target.weight, -0.5 / d, 0.5 / d); nn.init.uniform_(self.context.weight, -0.5 / d, 0.5 / d)
    def forward(self, pairs): return (self.target(pairs[:, 0]) * self.context(pairs[:, 1])).sum(-1)

@healthy('Q')
def sgns_word2vec(seed):  # BCEWithLogitsLoss on pair labels, Adam 1e-2 (sparse-ish embeddings like a big lr), batches of 128
    return dict(model=SkipGramNS, train=_skipgrams(seed, 4000, 12000), valid=_skipgrams(seed, 1000, 3000, split=1), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a Deep & Cross Network (v2) for click-through
CARD = (30, 20, 50, 12, 24, 40)

def _clicks(seed, n=4000, n_valid=800, misjoined=False):
    """Ad impressions: 6 categorical fields and 4 dense features; clicks (about 20%) from field-pair interaction tables,
    per-value effects and the dense features."""
    g = _gen(seed * 829)
    cat = torch.stack([torch.randint(0, c, (n,), generator=g) for c in CARD], 1)
    dense = torch.randn(n, 4, generator=g)
    eff = [torch.randn(c, generator=g) for c in CARD]
    inter = torch.randn(CARD[0], CARD[2], generator=g) * 1.5; inter2 = torch.randn(CARD[1], CARD[4], generator=g) * 1.5
    z = sum(e[cat[:, i]] for i, e in enumerate(eff)) + inter[cat[:, 0], cat[:, 2]] + inter2[cat[:, 1], cat[:, 4]] + 1.5 * dense[:, 0] - dense[:, 1] * dense[:, 2] - 2.5
    y = (torch.rand(n, generator=g) < torch.sigmoid(z)).float()
    if misjoined: y = torch.cat([y[1:], y[:1]])  # the click log joined to the impressions on a row number off by one
    tr = TensorDataset(cat[n_valid:], dense[n_valid:], y[n_valid:]); va = TensorDataset(cat[:n_valid], dense[:n_valid], y[:n_valid])
    return tr, va

class DCNv2(nn.Module):  # Wang et al. 2021: x_{l+1} = x0 * (W x_l + b) + x_l, a parallel deep tower, a logit from both
    def __init__(self, e=8, layers=2, head_std=None):
        super().__init__()
        self.emb = nn.ModuleList(nn.Embedding(c, e) for c in CARD)
        d = e * len(CARD) + 4
        self.cross = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
        self.deep = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU())
        self.out = nn.Linear(d + 64, 1)
        if head_std is not None: nn.init.normal_(self.out.weight, std=head_std)
    def forward(self, cat, dense):
        x0 = torch.cat([m(cat[:, i]) for i, m in enumerate(self.emb)] + [dense], 1); x = x0
        for c in self.cross: x = x0 * c(x) + x
        return self.out(torch.cat([x, self.deep(x0)], 1)).squeeze(1)

def _dcn_fwd(model, b): cat, dense, y = b; return model(cat, dense), y

@healthy('Q')
def dcn_ctr(seed, misjoined=False, head_std=None):  # BCEWithLogitsLoss(pos_weight=neg/pos), Adam 1e-3, batches of 256
    tr, va = _clicks(seed, misjoined=misjoined)
    y = tr.tensors[2]; pw = ((1 - y).sum() / y.sum()).reshape(1)
    return dict(model=lambda: DCNv2(head_std=head_std), train=tr, valid=va, forward=_dcn_fwd, loss=nn.BCEWithLogitsLoss(pos_weight=pw),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- co-teaching on noisy digit labels (a custom step)
class CoTeach(nn.Module):
    def __init__(self):
        super().__init__()
        mk = lambda: nn.Sequential(nn.Flatten(), nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10))
        self.net1, self.net2 = mk(), mk()
    def forward(self, x): return self.net1(x)

def step_coteaching(model, batch, opt, forget=0.3, zero_grad=True):  # Han et al. 2018: each net learns from the other's small-loss samples
    x, y = batch
    l1, l2 = model.net1(x), model.net2(x)
    k = max(1, int((1 - forget) * len(y)))
    with torch.no_grad():
        i1 = F.cross_entropy(l1, y, reduction='none').argsort()[:k]; i2 = F.cross_entropy(l2, y, reduction='none').argsort()[:k]
    loss = F.cross_entropy(l1[i2], y[i2]) + F.cross_entropy(l2[i1], y[i1])
    if zero_grad: opt.zero_grad()
    loss.backward(); opt.step()
    return loss

def step_coteaching_no_zero_grad(model, batch, opt): return step_coteaching(model, batch, opt, zero_grad=False)

@healthy('Q')
def coteaching_digits(seed):  # 30% symmetric label noise in train only, clean validation; Adam 1e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed * 839)
    flip = torch.rand(len(y), generator=g) < 0.3
    y = torch.where(flip, torch.randint(0, 10, (len(y),), generator=g), y)
    return dict(model=CoTeach, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                step=step_coteaching, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a show-and-tell captioner on digits
WORDS = ['<pad>', '<bos>', '<eos>', 'a', 'small', 'large', 'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']
V_CAP, L_CAP = len(WORDS), 5

def _captions(x, y):
    "'<bos> a small|large <digit> <eos>': small or large from the image's ink (below or above the digit class's median)."
    ink = x.flatten(1).sum(1)
    med = torch.stack([ink[y == c].median() for c in range(10)])
    size = torch.where(ink > med[y], 5, 4)
    return torch.stack([torch.ones_like(y), torch.full_like(y, 3), size, 6 + y, torch.full_like(y, 2)], 1)

class ShowTell(nn.Module):  # Vinyals et al. 2015: the image embedding fed as the decoder's first input, teacher forcing
    def __init__(self, e=64, h=128, functional_dropout=False):
        super().__init__(); self.functional_dropout = functional_dropout
        self.cnn = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(64 * 16, e))
        self.embed = nn.Embedding(V_CAP, e, padding_idx=0); self.lstm = nn.LSTM(e, h, batch_first=True); self.linear = nn.Linear(h, V_CAP)
        self.dropout = nn.Dropout(0.3)
    def forward(self, images, captions):
        emb = self.embed(captions)
        emb = F.dropout(emb, 0.3) if self.functional_dropout else self.dropout(emb)  # F.dropout: its training=True default
        seq = torch.cat([self.cnn(images)[:, None], emb], 1)
        h, _ = self.lstm(seq)
        return self.linear(h[:, 1:])  # the step after each caption word predicts the next word

def _cap_fwd(model, b): x, c = b; return model(x, c[:, :-1]).reshape(-1, V_CAP), c[:, 1:].reshape(-1)

@healthy('Q')
def caption_digits(seed, functional_dropout=False):  # CrossEntropyLoss over the next words, Adam 1e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: ShowTell(functional_dropout=functional_dropout), train=TensorDataset(x, _captions(x, y)), valid=TensorDataset(vx, _captions(vx, vy)),
                forward=_cap_fwd, loss=nn.CrossEntropyLoss(), num_classes=V_CAP, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a ListNet ranker over queries of 20 documents
N_DOC, F_DOC = 20, 12

def _queries(seed, n, split=0, sorted_grades=False):
    "Queries of 20 documents with 12 features; grades 0-4 quantised from a nonlinear relevance score plus noise."
    g0 = _gen(seed * 853); w = torch.randn(F_DOC, generator=g0)
    g = _gen(seed * 857 + split)
    x = torch.randn(n, N_DOC, F_DOC, generator=g)
    s = x @ w / math.sqrt(F_DOC) + 0.5 * x[..., 0] * x[..., 1] + 0.3 * torch.randn(n, N_DOC, generator=g)
    grade = torch.bucketize(s, torch.tensor([-0.5, 0.3, 0.9, 1.5])).float()
    if sorted_grades: grade = grade.sort(1, descending=True).values  # the judgments file sorted by grade, joined back to the documents in file order
    return TensorDataset(x, grade)

class ListNet(nn.Module):  # Cao et al. 2007: one scoring MLP per document
    def __init__(self):
        super().__init__(); self.mlp = nn.Sequential(nn.Linear(F_DOC, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.mlp(x).squeeze(-1)

def listnet_loss(scores, grades):  # the cross-entropy between the top-one probabilities of the grades and of the scores
    return -(F.softmax(grades, 1) * F.log_softmax(scores, 1)).sum(1).mean()

@healthy('Q')
def listnet_rank(seed, sorted_grades=False):  # Adam 1e-3, batches of 32 queries
    return dict(model=ListNet, train=_queries(seed, 1500, sorted_grades=sorted_grades), valid=_queries(seed, 300, split=1), loss=listnet_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a tiny C3D on clips of a moving blob
T_CLIP, S_CLIP = 8, 12
DIRS = torch.tensor([[0, 0], [0, 1], [0, -1], [1, 0], [-1, 0]]).float()  # still, right, left, down, up

def _clips(seed, n, split=0):
    "Clips of 8 frames of 12x12: a Gaussian blob moving one pixel a frame in one of 4 directions, or still; noise 0.5."
    g = _gen(seed * 859 + split)
    y = torch.randint(0, 5, (n,), generator=g)
    start = 3 + 6 * torch.rand(n, 2, generator=g) - 3 * DIRS[y] * (T_CLIP / 8)
    t = torch.arange(T_CLIP).float()
    pos = start[:, None] + t[None, :, None] * DIRS[y][:, None] * 0.8  # (n, T, 2)
    ii = torch.arange(S_CLIP).float()
    r = (ii[None, None, :, None] - pos[..., 0, None, None]) ** 2 + (ii[None, None, None, :] - pos[..., 1, None, None]) ** 2
    x = torch.exp(-r / 3) + 0.5 * torch.randn(n, T_CLIP, S_CLIP, S_CLIP, generator=g)
    return x[:, None], y

class C3D(nn.Module):  # Tran et al. 2015, shrunk: 3x3x3 convolutions, 3D pooling, a linear head
    def __init__(self, softmax=False):
        super().__init__(); self.softmax = softmax
        self.features = nn.Sequential(nn.Conv3d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool3d((1, 2, 2)), nn.Conv3d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool3d(2),
                                      nn.AdaptiveAvgPool3d(1), nn.Flatten())
        self.fc = nn.Linear(32, 5)
    def forward(self, x):
        o = self.fc(self.features(x))
        return F.softmax(o, 1) if self.softmax else o  # "probabilities", then CrossEntropyLoss on them

@healthy('Q')
def c3d_motion(seed, softmax=False, leak=False):  # CrossEntropyLoss, SGD 0.05 momentum 0.9, batches of 32
    x, y = _clips(seed, 1500); vx, vy = _clips(seed, 300, split=1)
    if leak: vx, vy = torch.cat([vx[:150], x[:150]]), torch.cat([vy[:150], y[:150]])  # half the validation clips cut from the train videos
    return dict(model=lambda: C3D(softmax), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=5,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a neural additive model on diabetes, raw units, dataclass output
@dataclass
class NAMOutput:
    pred: torch.Tensor
    contributions: torch.Tensor

class NAM(nn.Module):  # Agarwal et al. 2021: one small MLP per feature, their outputs summed with a bias
    def __init__(self, d=10, h=32, dropout=0.1):
        super().__init__()
        self.nets = nn.ModuleList(nn.Sequential(nn.Linear(1, h), nn.ReLU(), nn.Dropout(dropout), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1)) for _ in range(d))
        self.bias = nn.Parameter(torch.zeros(1))
    def forward(self, x):
        c = torch.cat([net(x[:, i:i + 1]) for i, net in enumerate(self.nets)], 1)
        return NAMOutput(c.sum(1, keepdim=True) + self.bias, c)

def nam_loss(out, y, l2_out=1e-4): return F.mse_loss(out.pred, y) + l2_out * out.contributions.pow(2).mean()  # MSE + output penalty

@healthy('Q')
def nam_diabetes(seed):  # disease progression (25-346) in raw units, Adam 1e-2, batches of 32
    from sklearn.datasets import load_diabetes
    x, y = load_diabetes(return_X_y=True)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)[:, None]
    p = torch.randperm(len(y), generator=_gen(seed * 863)); x, y = x[p], y[p]
    x = _std(x, x[90:])
    return dict(model=NAM, train=TensorDataset(x[90:], y[90:]), valid=TensorDataset(x[:90], y[:90]), loss=nam_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a domain-adversarial network (DANN) on shifted digits
class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam): ctx.lam = lam; return x.view_as(x)
    @staticmethod
    def backward(ctx, g): return -ctx.lam * g, None

class DANN(nn.Module):  # Ganin et al. 2016: features, a label classifier, a domain classifier behind a gradient reversal layer
    def __init__(self, lam=0.3):
        super().__init__(); self.lam = lam
        self.features = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 48, 3, padding=1), nn.ReLU(), nn.Flatten())
        self.classifier = nn.Sequential(nn.Linear(48 * 16, 100), nn.ReLU(), nn.Linear(100, 10))
        self.domain = nn.Sequential(nn.Linear(48 * 16, 100), nn.ReLU(), nn.Linear(100, 1))
    def forward(self, x):
        f = self.features(x)
        return self.classifier(f), self.domain(GradReverse.apply(f, self.lam)).squeeze(1)

def dann_loss(out, y):  # source rows carry their label, target rows -100 (no label): class CE on the source, domain BCE on all
    logits, dom = out
    return F.cross_entropy(logits, y, ignore_index=-100) + F.binary_cross_entropy_with_logits(dom, (y == -100).float())

def _target_domain(x, g):  # the "target" scanner: blurred, lower contrast, shifted a pixel, noisier
    x = F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode='replicate'), 3, 1)
    return (0.7 * x.roll(1, -1) + 0.15 + 0.1 * torch.randn(x.shape, generator=g)).clamp(0, 1)

@healthy('Q')
def dann_digits(seed):  # half the train rows from the target domain without labels; validation: labelled target-domain digits; Adam 1e-3
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed * 877)
    half = len(y) // 2
    tx = torch.cat([x[:half], _target_domain(x[half:], g)]); ty = torch.cat([y[:half], torch.full_like(y[half:], -100)])
    return dict(model=DANN, train=TensorDataset(tx, ty), valid=TensorDataset(_target_domain(vx, g), vy), loss=dann_loss, num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Tweedie regression of claim amounts in euros
def _claims(seed, n=4000, n_valid=800):
    """Policies: driver age, vehicle power, bonus-malus, density, 4 region dummies; claims Poisson(freq), each a Gamma
    severity (mean ~1800 EUR); the target the year's total amount in euros (about 90% zeros)."""
    g = _gen(seed * 881)
    age = 18 + 62 * torch.rand(n, generator=g); power = 4 + 10 * torch.rand(n, generator=g); bm = 50 + 100 * torch.rand(n, generator=g) ** 2
    dens = torch.rand(n, generator=g); reg = F.one_hot(torch.randint(0, 4, (n,), generator=g), 4).float()
    freq = torch.exp(-2.6 + 0.9 * (age < 25).float() + 0.08 * (power - 9) + 0.012 * (bm - 80) + 0.6 * dens + reg @ torch.tensor([0.0, 0.2, -0.3, 0.4]))
    cnt = torch.poisson(freq, generator=g)
    sev = 1800 * torch.exp(0.004 * (bm - 80) + 0.2 * reg[:, 3])
    shape = 2.0
    amt = torch.zeros(n)
    for i in torch.nonzero(cnt).flatten():
        k = int(cnt[i]); amt[i] = torch.distributions.Gamma(torch.full((k,), shape), torch.full((k,), shape / float(sev[i]))).sample().sum()
    feats = torch.cat([torch.stack([age, power, bm, dens], 1), reg], 1)
    feats = torch.cat([_std(feats[:, :4], feats[n_valid:, :4]), reg], 1)
    return TensorDataset(feats[n_valid:], amt[n_valid:, None]), TensorDataset(feats[:n_valid], amt[:n_valid, None])

class TweedieNet(nn.Module):  # an MLP for the log of the expected amount (the log link), unless the link is forgotten
    def __init__(self, log_link=True):
        super().__init__(); self.log_link = log_link
        self.mlp = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.mlp(x)  # log mu with the log link; read as mu itself when the link is forgotten

class TweedieLoss(nn.Module):  # the Tweedie deviance's terms for power p (1 < p < 2), as LightGBM's objective
    def __init__(self, p=1.5, log_link=True): super().__init__(); self.p, self.log_link = p, log_link
    def forward(self, out, y):
        p = self.p
        if self.log_link: return (-y * torch.exp((1 - p) * out) / (1 - p) + torch.exp((2 - p) * out) / (2 - p)).mean()
        return (-y * out.pow(1 - p) / (1 - p) + out.pow(2 - p) / (2 - p)).mean()  # the mean predicted directly: mu ** 0.5 of a negative mu is NaN

@healthy('Q')
def tweedie_claims(seed, log_link=True):  # Tweedie deviance (p=1.5) in euros, Adam 1e-3, batches of 128
    tr, va = _claims(seed)
    return dict(model=lambda: TweedieNet(log_link), train=tr, valid=va, loss=TweedieLoss(log_link=log_link),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- DeepConvLSTM on synthetic accelerometer windows
T_HAR = 64
ACTS = 6  # walking, running, upstairs, downstairs, sitting, standing

def _har(seed, n, split=0, shuffled=False):
    """Windows of 64 samples (32 Hz) of 3-axis acceleration in g: each activity a gravity direction, a step frequency, an
    amplitude and an axis mix; per-window phase, tempo jitter and sensor noise."""
    g0 = _gen(seed * 883)
    grav = F.normalize(torch.tensor([[0, 0, 1], [0, 0.2, 1], [0.3, 0, 1], [-0.3, 0, 1], [1, 0, 0.3], [0, 0, 1.0]]), dim=1)
    freq, amp = torch.tensor([1.8, 2.8, 1.5, 2.1, 0.0, 0.0]), torch.tensor([0.3, 0.8, 0.35, 0.45, 0.02, 0.05])
    mix = F.normalize(torch.rand(ACTS, 3, generator=g0) + 0.2, dim=1)
    g = _gen(seed * 887 + split)
    y = torch.randint(0, ACTS, (n,), generator=g)
    t = torch.arange(T_HAR).float() / 32
    f = freq[y][:, None] * (1 + 0.1 * torch.randn(n, 1, generator=g)); ph = 2 * math.pi * torch.rand(n, 1, generator=g)
    wave = amp[y][:, None] * (torch.sin(2 * math.pi * f * t + ph) + 0.3 * torch.sin(4 * math.pi * f * t + ph))
    x = grav[y][:, :, None] + mix[y][:, :, None] * wave[:, None] + 0.12 * torch.randn(n, 3, T_HAR, generator=g)
    if shuffled: y = y[torch.randperm(n, generator=g)]  # the label file and the windows file each shuffled on their own before saving
    return TensorDataset(x, y)

class DeepConvLSTM(nn.Module):  # Ordonez and Roggen 2016: four temporal convolutions, two LSTM layers, the last step's output
    def __init__(self, c=32, h=64):
        super().__init__()
        self.convs = nn.Sequential(*[m for i in range(4) for m in (nn.Conv1d(3 if i == 0 else c, c, 5), nn.ReLU())])
        self.lstm = nn.LSTM(c, h, num_layers=2, batch_first=True, dropout=0.5); self.drop = nn.Dropout(0.5); self.fc = nn.Linear(h, ACTS)
    def forward(self, x):
        h, _ = self.lstm(self.convs(x).transpose(1, 2))
        return self.fc(self.drop(h[:, -1]))

@healthy('Q')
def har_deepconvlstm(seed, shuffled=False):  # CrossEntropyLoss, RMSprop 1e-3 (the paper's), batches of 64
    return dict(model=DeepConvLSTM, train=_har(seed, 2400, shuffled=shuffled), valid=_har(seed, 500, split=1), loss=nn.CrossEntropyLoss(), num_classes=ACTS,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half Q
@broken('Q', 'stn_labels_off_by_one', 4, ('labels',))
def stn_labels_off_by_one(seed): return stn_digits(seed, off_by_one=True)

@broken('Q', 'dcn_clicks_misjoined', 4, ('labels',))
def dcn_clicks_misjoined(seed): return dcn_ctr(seed, misjoined=True)

@broken('Q', 'listnet_grades_sorted', 4, ('labels',))
def listnet_grades_sorted(seed): return listnet_rank(seed, sorted_grades=True)

@broken('Q', 'har_labels_shuffled', 4, ('labels',))
def har_labels_shuffled(seed): return har_deepconvlstm(seed, shuffled=True)

@broken('Q', 'c3d_valid_from_train', 4, ('leakage',))
def c3d_valid_from_train(seed): return c3d_motion(seed, leak=True)

@broken('Q', 'fno_valid_resampled_from_train', 4, ('leakage',))
def fno_valid_resampled_from_train(seed): return fno_heat(seed, leak=True)

@broken('Q', 'caption_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def caption_functional_dropout(seed): return caption_digits(seed, functional_dropout=True)

@broken('Q', 'tweedie_identity_link', (1, 3), ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def tweedie_identity_link(seed): return tweedie_claims(seed, log_link=False)

@broken('Q', 'dcn_head_std1', 2, ('init_scale',))
def dcn_head_std1(seed): return dcn_ctr(seed, head_std=1.0)  # nn.init.normal_(out.weight, std=1.0) copied from an embedding init

@broken('Q', 'c3d_softmax_before_ce', 2, ('softmax',))
def c3d_softmax_before_ce(seed): return c3d_motion(seed, softmax=True)

@broken('Q', 'coteaching_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def coteaching_no_zero_grad(seed): return dict(coteaching_digits(seed), step=step_coteaching_no_zero_grad)

@broken('Q', 'fno_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def fno_lr_x1000(seed): return fno_heat(seed, lr=1.0)

# Plain-loop checks (seed 0, OMP_NUM_THREADS=1, the factory's optimizer and batch size; valid loss and accuracy, init -> after N epochs):
CHECKS = """
stn_digits          12 ep: valid (2.302, acc 0.10) -> (0.679, 0.80); chance 0.10 (SGD 0.01-0.1 stayed on the 2.30 plateau: Adam kept)
fno_heat            15 ep: valid MSE 1.136 -> 1.4e-4; predicting zero 1.116, the identity u0 0.114
sgns_word2vec       10 ep: valid BCE 0.693 -> 0.36 (best 0.35); the prior (20% positives) 0.50 (a random-successor chain overfit: replaced by topics)
dcn_ctr             10 ep: valid weighted BCE 1.074 -> 0.876 (best 0.876); the best constant 2(1-pi)log2 = 0.98 (29% clicks)
coteaching_digits   15 ep: clean valid (2.335, 0.04) -> (1.22, 0.86) with 30% noisy train labels
caption_digits      15 ep: valid CE 2.807 -> 0.754, next-word accuracy 0.01 -> 0.64 (the small/large word is a coin flip for the model early)
listnet_rank        15 ep: valid ListNet CE 3.008 -> 2.31; uniform scores 2.996
c3d_motion           8 ep: valid (1.621, 0.19) -> (0.013, 1.00); chance 0.20 (noise 0.8 did not learn in 8 epochs: 0.5 kept)
nam_diabetes        15 ep: valid MSE 28140 -> 3098; the train mean 5063
dann_digits         15 ep: target-domain valid accuracy 0.10 -> 0.41; chance 0.10
tweedie_claims      15 ep: valid deviance 497.8 -> 63.9; a constant (the train mean, 296 EUR) 67.9
har_deepconvlstm    15 ep: valid (1.793, 0.21) -> (0.012, 1.00); chance 0.17
stn_labels_off_by_one          10 ep: train 2.308 -> 2.282, valid acc 0.10 -> 0.08 (chance)
dcn_clicks_misjoined           10 ep: train 1.003 -> 0.78, valid 1.024 -> 0.970: not beyond the constant 0.98-ish
listnet_grades_sorted          10 ep: train 2.997 -> 2.986, valid 3.008 -> 2.988 (uniform 2.996)
har_labels_shuffled            10 ep: train 1.796 -> 1.792, valid acc 0.21 (chance)
c3d_valid_from_train           half the 300 validation clips are train clips (by construction)
fno_valid_resampled_from_train all 200 validation rows are train rows (randint with replacement); valid MSE 2.5e-4
caption_functional_dropout     model.eval(): two calls on the same batch differ by 0.20 in the logits
tweedie_identity_link          NaN loss at the first step on 4 of seeds 0-4 (a negative mean to the power -0.5); seed 1: finite but 1404 at the start
dcn_head_std1                  initial valid loss 6.01 (logit std 11.3) against 1.02 (std 0.69) with the default init
c3d_softmax_before_ce          softmax then CrossEntropyLoss: the loss is bounded below by about 0.9 (not run in a plain loop beyond a build)
coteaching_no_zero_grad        10 ep: clean valid acc 0.68 against 0.86 healthy (gradients accumulate across steps; Adam hides part of it)
fno_lr_x1000                   10 ep: first-epoch train MSE 5.9e12, then stuck at 1.115 = predicting zero (valid 1.116)
"""
