"""Half H of the ladder's gallery (issue 32): held out from the seventh round of rules (`ladder rules, round 7 (frozen):` on r7),
written before that commit and run once after it. Families not in halves A-G: a GRU encoder-decoder (seq2seq) reversing digit
strings with teacher forcing, a mixture-density network on Bishop's inverse problem, DeepSets on 2-D point sets, a CTC
recogniser of symbol strings in noisy frames, a metric embedding trained with a batch-hard triplet loss, a two-headed
multi-task classifier with a summed loss, a matrix-factorisation recommender (user and item embeddings with biases), a small
vision transformer on digit patches.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half G.

Protocol, fixed before the freeze: written without reading the ladder's rules (ntrain/ladder/*.py, its notebooks) or
earlier sweeps' results, only `ntrain.ladder`'s public signature and the factory format of halves A-G. Each program was
checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken
ones are broken as meant), never with the ladder. After the `ladder rules, round 7 (frozen):` commit appears on r7, r7 is
merged and half H runs once, rungs 1-4, seeds 0-9 as two processes (seeds 0-4, 5-9):
`OMP_NUM_THREADS=1 nice -n 19 timeout 2400 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half H`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys

# ---------------------------------------------------------------- seq2seq: a GRU encoder-decoder reverses strings of digits
BOS = 10  # the decoder's start token; digits are 0-9

def _reversals(seed, n, L=7, split=0):
    "Strings of L digits; the target is the string reversed. Decoder input: BOS then the target shifted right (teacher forcing)."
    g = _gen(seed * 97 + split)
    src = torch.randint(0, 10, (n, L), generator=g)
    tgt = src.flip(1)
    return TensorDataset(src, torch.cat([torch.full((n, 1), BOS), tgt[:, :-1]], 1), tgt)

class Seq2Seq(nn.Module):  # the PyTorch seq2seq tutorial's shape, batched: the encoder's last hidden state starts the decoder
    def __init__(self, e=32, h=128, detach_encoder=False):
        super().__init__(); self.detach_encoder = detach_encoder
        self.src_emb, self.tgt_emb = nn.Embedding(10, e), nn.Embedding(11, e)
        self.enc, self.dec = nn.GRU(e, h, batch_first=True), nn.GRU(e, h, batch_first=True)
        self.out = nn.Linear(h, 10)
    def forward(self, src, tgt_in):
        _, hidden = self.enc(self.src_emb(src))
        if self.detach_encoder: hidden = hidden.detach()  # the truncated-BPTT habit copied from a language model: cuts the encoder off
        o, _ = self.dec(self.tgt_emb(tgt_in), hidden)
        return self.out(o)

def _s2s_fwd(model, b): return model(b[0], b[1]).reshape(-1, 10), b[2].reshape(-1)

@healthy('H')
def seq2seq_reverse(seed):  # CrossEntropyLoss over every target position, Adam 1e-3
    return dict(model=Seq2Seq, train=_reversals(seed, 3000), valid=_reversals(seed, 500, split=1), forward=_s2s_fwd, num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a mixture-density network: Bishop's inverse problem (one x, several y)
def _inverse_sine(seed, n, split=0):
    "Bishop (1994): x = y + 0.3 sin(2 pi y) + uniform noise in [-0.1, 0.1], y uniform in [0, 1]; predict y from x (multi-valued)."
    g = _gen(seed * 101 + split)
    y = torch.rand(n, 1, generator=g)
    x = y + 0.3 * torch.sin(2 * math.pi * y) + 0.2 * torch.rand(n, 1, generator=g) - 0.1
    return TensorDataset(x, y)

class MDN(nn.Module):  # a tanh hidden layer, then K mixing logits, K means and K log standard deviations
    def __init__(self, h=32, K=5):
        super().__init__(); self.body = nn.Sequential(nn.Linear(1, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh())
        self.pi, self.mu, self.log_sigma = nn.Linear(h, K), nn.Linear(h, K), nn.Linear(h, K)
    def forward(self, x): h = self.body(x); return self.pi(h), self.mu(h), self.log_sigma(h)

def mdn_nll(out, y):  # -log sum_k pi_k N(y; mu_k, sigma_k), averaged over the batch
    logit, mu, log_sigma = out
    log_n = -0.5 * ((y - mu) / log_sigma.exp()) ** 2 - log_sigma - 0.5 * math.log(2 * math.pi)
    return -torch.logsumexp(F.log_softmax(logit, 1) + log_n, 1).mean()

@healthy('H')
def mdn_inverse(seed):  # RMSprop 1e-3
    return dict(model=MDN, train=_inverse_sine(seed, 2000), valid=_inverse_sine(seed, 500, split=1), loss=mdn_nll,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- DeepSets: which shape a set of 2-D points was sampled from
def _point_sets(seed, n, N=100, split=0):
    """Sets of N points on the outline of a circle, a square or a triangle (the label), randomly rotated, scaled, shifted, noisy;
    then each set centred and scaled to unit radius, as point clouds are normalised before PointNet-style models."""
    g = _gen(seed * 103 + split)
    y = torch.randint(0, 3, (n,), generator=g)
    t = torch.rand(n, N, generator=g)
    circle = torch.stack([torch.cos(2 * math.pi * t), torch.sin(2 * math.pi * t)], -1)
    def polygon(k):  # points on a regular k-gon's edges
        e = (t * k).floor(); f = t * k - e
        a0, a1 = 2 * math.pi * e / k, 2 * math.pi * (e + 1) / k
        p0, p1 = torch.stack([a0.cos(), a0.sin()], -1), torch.stack([a1.cos(), a1.sin()], -1)
        return p0 + f[..., None] * (p1 - p0)
    pts = torch.stack([circle, polygon(4), polygon(3)], 1)[torch.arange(n), y]
    th = 2 * math.pi * torch.rand(n, generator=g)
    rot = torch.stack([torch.stack([th.cos(), -th.sin()], -1), torch.stack([th.sin(), th.cos()], -1)], -2)
    scale, shift = 0.5 + torch.rand(n, 1, 1, generator=g), 0.5 * torch.randn(n, 1, 2, generator=g)
    pts = pts @ rot.transpose(1, 2) * scale + shift + 0.03 * torch.randn(n, N, 2, generator=g)
    pts = pts - pts.mean(1, keepdim=True)
    return pts / pts.norm(dim=2).max(1).values[:, None, None], y

class DeepSets(nn.Module):  # Zaheer et al. 2017: phi on each point, the set's mean (a sum divided by its fixed size), rho on it
    def __init__(self, h=64, k=3, softmax=False):
        super().__init__(); self.softmax = softmax
        self.phi = nn.Sequential(nn.Linear(2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.rho = nn.Sequential(nn.Linear(h, h), nn.ReLU(), nn.Linear(h, k))
    def forward(self, pts):  # B, N, 2
        o = self.rho(self.phi(pts).mean(1))
        return o.softmax(1) if self.softmax else o

@healthy('H')
def deepsets_shapes(seed):  # CrossEntropyLoss, Adam 1e-3
    (x, y), (vx, vy) = _point_sets(seed, 2000), _point_sets(seed, 400, split=1)
    return dict(model=DeepSets, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=3,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- CTC: read a string of symbols from unsegmented noisy frames
def _frames(seed, n, T=40, S=6, A=5, D=12, split=0):
    "Strings of 2-S symbols from 1..A, each held for 2-4 frames with gaps of silence, as D-dim noisy frames (fixed prototypes); targets padded with 0."
    gp, g = torch.Generator().manual_seed(6161 + seed), _gen(seed * 107 + split)  # gp: the symbols' prototypes, shared by both splits
    proto = torch.randn(A + 1, D, generator=gp); proto[0] = 0  # row 0: silence
    x, y = torch.zeros(n, T, D), torch.zeros(n, S, dtype=torch.long)
    for i in range(n):
        L = int(torch.randint(2, S + 1, (1,), generator=g)); s = torch.randint(1, A + 1, (L,), generator=g)
        y[i, :L] = s; frames = [0] * int(torch.randint(0, 4, (1,), generator=g))
        for c in s.tolist(): frames += [c] * int(torch.randint(2, 5, (1,), generator=g)) + [0] * int(torch.randint(0, 3, (1,), generator=g))
        frames = (frames + [0] * T)[:T]
        x[i] = proto[torch.tensor(frames)]
    return x + 0.5 * torch.randn(n, T, D, generator=g), y

class CTCNet(nn.Module):  # a bidirectional GRU over frames, a log-probability per frame over blank + 5 symbols
    def __init__(self, d=12, h=48, c=6):
        super().__init__(); self.rnn, self.fc = nn.GRU(d, h, batch_first=True, bidirectional=True), nn.Linear(2 * h, c)
    def forward(self, x): o, _ = self.rnn(x); return self.fc(o).log_softmax(-1)  # B, T, C

def ctc_loss(log_probs, targets):  # targets padded with 0 (the blank, never a label): their lengths are the non-zero counts
    B, T = log_probs.shape[:2]
    return F.ctc_loss(log_probs.transpose(0, 1), targets, torch.full((B,), T, dtype=torch.long), (targets > 0).sum(1), blank=0, zero_infinity=True)

@healthy('H')
def ctc_symbols(seed):  # AdamW 3e-3
    (x, y), (vx, vy) = _frames(seed, 2000), _frames(seed, 400, split=1)
    return dict(model=CTCNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=ctc_loss,
                optimizer=lambda p: torch.optim.AdamW(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- metric learning: a batch-all triplet loss on digit embeddings
class Embedder(nn.Module):  # a small conv net to a unit-norm 32-d embedding
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(),
                                 nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 32))
    def forward(self, x): return F.normalize(self.net(x), dim=1)

def batch_all_triplet(emb, labels, margin=0.5):  # the batch-all strategy: every valid (anchor, positive, negative) in the batch, averaged over the active ones
    d = torch.cdist(emb, emb)
    same = labels[:, None] == labels[None, :]
    pos = same & ~torch.eye(len(labels), dtype=torch.bool)
    valid = pos[:, :, None] & ~same[:, None, :]
    t = F.relu(d[:, :, None] - d[:, None, :] + margin) * valid
    return t.sum() / ((t > 1e-16).sum() + 1e-16)

@healthy('H')
def triplet_digits(seed):  # batches of 128 so that every anchor has positives and negatives; Adam 1e-3
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=Embedder, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=batch_all_triplet,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- multi-task: two classification heads on one trunk, their losses summed
def _two_labels(x, y):
    "Column 0: the digit; column 1: a thick stroke (more ink than the median digit image of the whole set)."
    ink = x.flatten(1).sum(1)
    return torch.stack([y, (ink > ink.median()).long()], 1)

class TwoHeads(nn.Module):
    def __init__(self, h=128):
        super().__init__(); self.trunk = nn.Sequential(nn.Flatten(), nn.Linear(64, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.digit, self.thick = nn.Linear(h, 10), nn.Linear(h, 2)
    def forward(self, x): h = self.trunk(x); return self.digit(h), self.thick(h)

def two_task_loss(out, t): return F.cross_entropy(out[0], t[:, 0]) + F.cross_entropy(out[1], t[:, 1])

@healthy('H')
def multitask_heads(seed):  # SGD 0.05 with momentum 0.9
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=TwoHeads, train=TensorDataset(x, _two_labels(x, y)), valid=TensorDataset(vx, _two_labels(vx, vy)), loss=two_task_loss,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a recommender: matrix factorisation of ratings with user and item biases
def _ratings(seed, U=300, I=200, n=8000, n_valid=1500):
    "Ratings 1-5 from a rank-3 taste model plus user and item biases and noise, on distinct (user, item) pairs; the first n_valid pairs are validation."
    g = _gen(seed * 109)
    pu, qi = torch.randn(U, 3, generator=g), torch.randn(I, 3, generator=g)
    bu, bi = 0.5 * torch.randn(U, generator=g), 0.5 * torch.randn(I, generator=g)
    pairs = torch.randperm(U * I, generator=g)[:n]
    u, i = pairs // I, pairs % I
    r = (3.5 + bu[u] + bi[i] + 0.6 * (pu[u] * qi[i]).sum(1) + 0.3 * torch.randn(n, generator=g)).clamp(1, 5)
    x = torch.stack([u, i], 1)
    return (x[n_valid:], r[n_valid:, None]), (x[:n_valid], r[:n_valid, None])

class MF(nn.Module):  # dot product of embeddings plus biases, small normal init as the recommender tutorials set it
    def __init__(self, U=300, I=200, d=16):
        super().__init__(); self.u, self.i, self.bu, self.bi = nn.Embedding(U, d), nn.Embedding(I, d), nn.Embedding(U, 1), nn.Embedding(I, 1)
        for e in (self.u, self.i): nn.init.normal_(e.weight, std=0.05)
        for e in (self.bu, self.bi): nn.init.zeros_(e.weight)
        self.mu = nn.Parameter(torch.zeros(1))
    def forward(self, x):
        u, i = x[:, 0], x[:, 1]
        return (self.u(u) * self.i(i)).sum(1, keepdim=True) + self.bu(u) + self.bi(i) + self.mu

@healthy('H')
def mf_ratings(seed):  # MSE on ratings in their own 1-5 units, Adagrad 0.1
    (x, r), (vx, vr) = _ratings(seed)
    return dict(model=MF, train=TensorDataset(x, r), valid=TensorDataset(vx, vr), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adagrad(p, lr=0.1), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a small vision transformer on 2x2 patches of 8x8 digits
class TinyViT(nn.Module):  # patches, a class token, learned positions, 2 pre-norm encoder layers, the class token's head
    def __init__(self, d=64, p=2, always_dropout=False):
        super().__init__(); self.p, self.always_dropout = p, always_dropout
        n = (8 // p) ** 2
        self.patch = nn.Linear(p * p, d); self.cls = nn.Parameter(torch.zeros(1, 1, d)); self.pos = nn.Parameter(0.02 * torch.randn(1, n + 1, d))
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.1, batch_first=True, norm_first=True), 2, enable_nested_tensor=False)
        self.norm, self.drop, self.head = nn.LayerNorm(d), nn.Dropout(0.1), nn.Linear(d, 10)
    def forward(self, x):  # B, 1, 8, 8
        B, p = x.shape[0], self.p
        patches = x.unfold(2, p, p).unfold(3, p, p).reshape(B, -1, p * p)
        h = torch.cat([self.cls.expand(B, -1, -1), self.patch(patches)], 1) + self.pos
        h = self.norm(self.enc(h))[:, 0]
        h = F.dropout(h, 0.1, training=True) if self.always_dropout else self.drop(h)
        return self.head(h)

@healthy('H')
def vit_digits(seed):  # AdamW 1e-3, weight decay 0.05
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=TinyViT, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.05), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half H
# the encoder (and its embedding) never gets a gradient; the decoder still learns to read its random features, so the loss falls
@broken('H', 'seq2seq_detached_encoder', (1, 3), ('unused_params', 'detached', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def seq2seq_detached_encoder(seed): return dict(seq2seq_reverse(seed), model=lambda: Seq2Seq(detach_encoder=True))

@broken('H', 'mdn_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def mdn_lr_x1000(seed): return dict(mdn_inverse(seed), optimizer=lambda p: torch.optim.RMSprop(p, lr=1.0))

@broken('H', 'deepsets_softmax_before_ce', 2, ('softmax',))
def deepsets_softmax_before_ce(seed): return dict(deepsets_shapes(seed), model=lambda: DeepSets(softmax=True))

@broken('H', 'deepsets_labels_sorted', 4, ('labels',))
def deepsets_labels_sorted(seed):  # the label column sorted on its own (a sort applied to one array of two): labels of other samples
    kw = deepsets_shapes(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y.sort().values); return kw

@broken('H', 'vit_dropout_in_eval', 1, ('eval_mode',), ('warn', 'fail'))
def vit_dropout_in_eval(seed): return dict(vit_digits(seed), model=lambda: TinyViT(always_dropout=True))

def step_ctc_no_zero_grad(model, batch, opt):
    x, y = batch
    loss = ctc_loss(model(x), y); loss.backward(); opt.step(); return loss

@broken('H', 'ctc_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def ctc_no_zero_grad(seed): return dict(ctc_symbols(seed), step=step_ctc_no_zero_grad)

@broken('H', 'mf_leak', 4, ('leakage',))
def mf_leak(seed):  # a validation set that re-uses a quarter of the train ratings
    kw = mf_ratings(seed); x, r = kw['train'].tensors; vx, vr = kw['valid'].tensors
    kw['valid'] = TensorDataset(torch.cat([vx[:1125], x[:375]]), torch.cat([vr[:1125], r[:375]])); return kw

@broken('H', 'mf_shuffled_ratings', 4, ('labels',))
def mf_shuffled_ratings(seed):
    kw = mf_ratings(seed); x, r = kw['train'].tensors
    kw['train'] = TensorDataset(x, r[torch.randperm(len(r), generator=_gen(seed + 113))]); return kw

@broken('H', 'multitask_lr_zero', 3, ('lr_zero', 'flat'))
def multitask_lr_zero(seed): return dict(multitask_heads(seed), optimizer=lambda p: torch.optim.SGD(p, lr=0.0, momentum=0.9))

def _frozen_embedder():  # a "pretrained" backbone frozen for fine-tuning, and no new head added after it: nothing left to train
    m = Embedder(); m.net.requires_grad_(False); return m

@broken('H', 'triplet_all_frozen', 1, ('frozen',))
def triplet_all_frozen(seed): return dict(triplet_digits(seed), model=_frozen_embedder)
