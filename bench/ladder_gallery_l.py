"""Half L of the ladder's gallery (issue 32): held out from the twelfth round of rules, frozen at aef8846, written after that
commit and run once. Families not in halves A-K: an augmented neural ODE classifying two rings (a fixed-step RK4 integrator
of a learned vector field), an LSTM sequence autoencoder (the last hidden state repeated over time into an LSTM decoder), a
U-Net with skip connections segmenting synthetic shapes (BCE plus soft Dice), a Transformer with rotary position embeddings
trained by a custom step that accumulates gradients over micro-batches, a Fourier-feature MLP (Tancik et al.: random Gaussian
features of the coordinates) regressing a 2-D field from scattered samples, a digit classifier under label noise trained with
the generalised cross-entropy, a deep knowledge-tracing LSTM (next-answer correctness per skill), a regression with a
log-normal likelihood on positive targets, an ensemble of small MLPs whose logits are averaged in the forward, a hypernetwork
generating a small regressor's weights from a task embedding, a TabTransformer (contextual embeddings of categorical columns
beside normalised numeric ones), and a capsule network with dynamic routing and the margin loss. Registered into
ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half K.

Protocol: written after the freeze (round 12, frozen at aef8846) without reading the ladder's rules (ntrain/ladder/*.py,
nbs/02_ladder, bench/RESULTS.md, CHANGELOG.md, AGENTS.md's ladder notes, the rule tests) or any earlier sweep's results;
only `ntrain.ladder`'s public signature and docstring and the factory format of halves A-K were read. Each program was
checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken
ones are broken as meant), never with the ladder. Committed before any ladder run, then run once, rungs 1-4, seeds 0-9 as
two processes (seeds 0-4, 5-9):
`OMP_NUM_THREADS=1 nice -n 10 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half L`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std

# ---------------------------------------------------------------- an augmented neural ODE, integrated by a fixed-step RK4
def _rings(seed, n=2500, n_valid=500):
    "sklearn's make_circles: two noisy concentric rings (not separable by a homeomorphism of the plane, hence the augmentation)."
    from sklearn.datasets import make_circles
    x, y = make_circles(n_samples=n, noise=0.08, factor=0.5, random_state=seed)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y)
    return (x[n_valid:], y[n_valid:]), (x[:n_valid], y[:n_valid])

class ODEFunc(nn.Module):  # the vector field f(h, t), time fed as an extra input
    def __init__(self, d, h=32):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d + 1, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, d))
    def forward(self, t, h): return self.net(torch.cat([h, t.expand(len(h), 1)], 1))

class AugmentedODE(nn.Module):  # Dupont et al. 2019: the input padded with zeros, dh/dt = f(h, t) over [0, 1] by RK4 in 10 steps, a linear head
    def __init__(self, aug=2, steps=10, k=2):
        super().__init__(); self.aug, self.steps = aug, steps
        self.f, self.head = ODEFunc(2 + aug), nn.Linear(2 + aug, k)
    def forward(self, x):
        h = torch.cat([x, x.new_zeros(len(x), self.aug)], 1)
        dt = 1.0 / self.steps
        for i in range(self.steps):  # the classical Runge-Kutta step, as torchdiffeq's fixed-grid 'rk4' solver
            t = torch.tensor([[i * dt]])
            k1 = self.f(t, h); k2 = self.f(t + dt / 2, h + dt / 2 * k1); k3 = self.f(t + dt / 2, h + dt / 2 * k2); k4 = self.f(t + dt, h + dt * k3)
            h = h + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return self.head(h)

@healthy('L')
def anode_rings(seed):  # CrossEntropyLoss, Adam 1e-3, batches of 128
    tr, va = _rings(seed)
    return dict(model=AugmentedODE, train=TensorDataset(*tr), valid=TensorDataset(*va), num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- an LSTM sequence autoencoder
T_SEQ = 30

def _waves(seed, n, split=0):
    "Two sines of random frequency, phase and amplitude plus noise, T_SEQ steps, one feature: (n, T_SEQ, 1)."
    g = _gen(seed * 307 + split)
    t = torch.arange(T_SEQ).float()
    f, ph, a = 0.1 + 0.4 * torch.rand(n, 2, 1, generator=g), 2 * math.pi * torch.rand(n, 2, 1, generator=g), 0.5 + torch.rand(n, 2, 1, generator=g)
    x = (a * torch.sin(f * t + ph)).sum(1) + 0.1 * torch.randn(n, T_SEQ, generator=g)
    return x[..., None]

class SeqAE(nn.Module):  # the LSTM autoencoder of the anomaly-detection tutorials: encode to the last hidden state, repeat it, decode
    def __init__(self, h=64, detach=False):
        super().__init__(); self.detach = detach
        self.enc, self.dec, self.out = nn.LSTM(1, h, batch_first=True), nn.LSTM(h, h, batch_first=True), nn.Linear(h, 1)
    def forward(self, x):
        _, (h, _) = self.enc(x)
        h = h[-1]
        if self.detach: h = h.detach()  # copied from a truncated-BPTT language model, which detaches its state between batches
        y, _ = self.dec(h[:, None].repeat(1, x.size(1), 1))
        return self.out(y)

@healthy('L')
def lstm_seq_ae(seed, **mk):  # MSELoss, Adam 1e-3, batches of 32
    x, vx = _waves(seed, 1500), _waves(seed, 300, split=1)
    return dict(model=lambda: SeqAE(**mk), train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a U-Net on synthetic shapes, BCE plus soft Dice
S_SEG = 32

def _shapes(seed, n, split=0):
    "One to three bright ellipses or rectangles on a noisy, unevenly lit background; the target their mask."
    g = _gen(seed * 311 + split)
    t = torch.arange(S_SEG).float()
    yy, xx = torch.meshgrid(t, t, indexing='ij')
    mask = torch.zeros(n, S_SEG, S_SEG)
    for k in range(n):
        for _ in range(int(torch.randint(1, 4, (1,), generator=g))):
            c, r = torch.rand(2, generator=g) * S_SEG, 3 + 5 * torch.rand(2, generator=g)
            if torch.rand(1, generator=g) < 0.5: m = ((xx - c[0]) / r[0]) ** 2 + ((yy - c[1]) / r[1]) ** 2 < 1
            else: m = ((xx - c[0]).abs() < r[0]) & ((yy - c[1]).abs() < r[1])
            mask[k][m] = 1
    light = torch.rand(n, 1, 1, generator=g) * xx / S_SEG
    img = 0.8 * mask + light + 0.35 * torch.randn(n, S_SEG, S_SEG, generator=g)
    return TensorDataset(img[:, None], mask[:, None])

def _double_conv(i, o): return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                                              nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

class UNet(nn.Module):  # Ronneberger et al. 2015, as milesial/Pytorch-UNet writes it, two levels deep
    def __init__(self, c=16):
        super().__init__()
        self.inc, self.down1, self.down2 = _double_conv(1, c), _double_conv(c, 2 * c), _double_conv(2 * c, 4 * c)
        self.up2, self.conv2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2), _double_conv(4 * c, 2 * c)
        self.up1, self.conv1 = nn.ConvTranspose2d(2 * c, c, 2, stride=2), _double_conv(2 * c, c)
        self.outc = nn.Conv2d(c, 1, 1)
    def forward(self, x):
        x1 = self.inc(x); x2 = self.down1(F.max_pool2d(x1, 2)); x3 = self.down2(F.max_pool2d(x2, 2))
        y = self.conv2(torch.cat([x2, self.up2(x3)], 1))
        y = self.conv1(torch.cat([x1, self.up1(y)], 1))
        return self.outc(y)  # logits

def dice_bce_loss(logits, mask, eps=1.0):  # BCEWithLogits plus 1 - soft Dice over the batch, as the Kaggle segmentation kernels
    p = torch.sigmoid(logits)
    dice = (2 * (p * mask).sum() + eps) / (p.sum() + mask.sum() + eps)
    return F.binary_cross_entropy_with_logits(logits, mask) + 1 - dice

@healthy('L')
def unet_dice(seed):  # Adam 1e-3, batches of 16
    return dict(model=UNet, train=_shapes(seed, 800), valid=_shapes(seed, 200, split=1), loss=dice_bce_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- a Transformer with rotary embeddings, gradient accumulation in a custom step
V_ROPE, T_ROPE = 16, 24

def _order_pairs(seed, n, split=0):
    "Random tokens 3..15 with one 1 and one 2 at random places; the label: does the 1 come before the 2 (needs positions)."
    g = _gen(seed * 313 + split)
    x = torch.randint(3, V_ROPE, (n, T_ROPE), generator=g)
    pos = torch.stack([torch.randperm(T_ROPE, generator=g)[:2] for _ in range(n)])
    x[torch.arange(n), pos[:, 0]] = 1; x[torch.arange(n), pos[:, 1]] = 2
    return TensorDataset(x, (pos[:, 0] < pos[:, 1]).long())

def _rotate(x, cos, sin):  # rotate the two halves of each head's features (the GPT-NeoX / LLaMA layout)
    x1, x2 = x.chunk(2, -1)
    return x * cos + torch.cat([-x2, x1], -1) * sin

class RoPEAttention(nn.Module):
    def __init__(self, d, heads, p=0.1, functional_dropout_bug=False):
        super().__init__(); self.h, self.p, self.bug = heads, p, functional_dropout_bug
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        hd = d // heads
        inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
        ang = torch.outer(torch.arange(T_ROPE).float(), inv)
        self.register_buffer('cos', torch.cat([ang.cos(), ang.cos()], -1), persistent=False)
        self.register_buffer('sin', torch.cat([ang.sin(), ang.sin()], -1), persistent=False)
    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        q, k = _rotate(q, self.cos[:T], self.sin[:T]), _rotate(k, self.cos[:T], self.sin[:T])
        att = (q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))).softmax(-1)
        att = F.dropout(att, self.p) if self.bug else F.dropout(att, self.p, training=self.training)
        return self.proj((att @ v).transpose(1, 2).reshape(B, T, D))

class RoPEBlock(nn.Module):
    def __init__(self, d, heads, **kw):
        super().__init__()
        self.ln1, self.attn, self.ln2 = nn.LayerNorm(d), RoPEAttention(d, heads, **kw), nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d), nn.Dropout(0.1))
    def forward(self, x): x = x + self.attn(self.ln1(x)); return x + self.mlp(self.ln2(x))

class RoPEClassifier(nn.Module):  # pre-norm blocks, no absolute positions, mean-pooled into a linear head
    def __init__(self, d=64, heads=4, layers=2, **kw):
        super().__init__()
        self.emb = nn.Embedding(V_ROPE, d)
        self.blocks = nn.Sequential(*[RoPEBlock(d, heads, **kw) for _ in range(layers)])
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, 2)
    def forward(self, x): return self.head(self.ln(self.blocks(self.emb(x))).mean(1))

ACCUM = 4

def step_accum(model, batch, opt):  # the batch split into ACCUM micro-batches, each loss scaled by 1/ACCUM, one optimizer step
    x, y = batch
    opt.zero_grad()
    total = 0.0
    for xs, ys in zip(x.chunk(ACCUM), y.chunk(ACCUM)):
        loss = F.cross_entropy(model(xs), ys) / ACCUM; loss.backward(); total = total + loss.detach()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0); opt.step()
    return total

def step_accum_no_zero_grad(model, batch, opt):  # the zero_grad dropped when the loop was rewritten for accumulation
    x, y = batch
    total = 0.0
    for xs, ys in zip(x.chunk(ACCUM), y.chunk(ACCUM)):
        loss = F.cross_entropy(model(xs), ys) / ACCUM; loss.backward(); total = total + loss.detach()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0); opt.step()
    return total

@healthy('L')
def rope_accum(seed, **mk):  # CrossEntropyLoss, AdamW 3e-4 with weight decay 0.01, batches of 64 as 4 micro-batches of 16, clipping at 1.0
    return dict(model=lambda: RoPEClassifier(**mk), train=_order_pairs(seed, 2000), valid=_order_pairs(seed, 400, split=1),
                loss=nn.CrossEntropyLoss(), num_classes=2, step=step_accum,
                optimizer=lambda p: torch.optim.AdamW(p, lr=3e-4, weight_decay=0.01), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a Fourier-feature MLP regressing a 2-D field
def _field_samples(seed, n_train=2000, n_valid=400):
    "A smooth field on [0, 1]^2 (a few plane waves and bumps) sampled at random points with a little noise."
    g = _gen(seed * 317)
    w, ph = 2 * math.pi * (1 + 3 * torch.rand(4, 2, generator=g)), 2 * math.pi * torch.rand(4, generator=g)
    c = torch.rand(3, 2, generator=g)
    def f(p):
        v = (torch.sin(p @ w.T + ph) * 0.25).sum(1)
        return v + sum(torch.exp(-((p - c[k]) ** 2).sum(1) / 0.02) for k in range(3))
    p = torch.rand(n_train + n_valid, 2, generator=g)
    v = f(p) + 0.05 * torch.randn(len(p), generator=g)
    return TensorDataset(p[:n_train], v[:n_train, None]), TensorDataset(p[n_train:], v[n_train:, None])

class FourierMLP(nn.Module):  # Tancik et al. 2020: gamma(v) = [cos 2 pi B v, sin 2 pi B v], B ~ N(0, sigma^2) fixed, then a ReLU MLP
    def __init__(self, m=128, sigma=3.0, h=128):
        super().__init__()
        self.register_buffer('B', torch.randn(m, 2) * sigma)
        self.mlp = nn.Sequential(nn.Linear(2 * m, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))
    def forward(self, v):
        a = 2 * math.pi * v @ self.B.T
        return self.mlp(torch.cat([torch.cos(a), torch.sin(a)], -1))

@healthy('L')
def fourier_features(seed):  # MSELoss, Adam 1e-3 as the paper's notebooks, batches of 256
    tr, va = _field_samples(seed)
    return dict(model=FourierMLP, train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- generalised cross-entropy under label noise
def _noisy(y, seed, rate=0.3, k=10):
    "Symmetric label noise: a fraction `rate` of the labels replaced by a uniformly random class."
    g = _gen(seed * 331)
    flip = torch.rand(len(y), generator=g) < rate
    return torch.where(flip, torch.randint(0, k, (len(y),), generator=g), y)

def gce_loss(logits, y, q=0.7):  # Zhang and Sabuncu 2018: (1 - p_y^q) / q, averaged
    p = F.softmax(logits, 1).gather(1, y[:, None]).squeeze(1).clamp_min(1e-7)
    return ((1 - p ** q) / q).mean()

class NoiseMLP(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Flatten(), nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))
    def forward(self, x): return self.net(x)

@healthy('L')
def gce_noisy(seed):  # 30% symmetric noise on the train labels, clean validation labels; SGD 0.01, momentum 0.9, weight decay 1e-4, batches of 128
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=NoiseMLP, train=TensorDataset(x, _noisy(y, seed)), valid=TensorDataset(vx, vy), loss=gce_loss, num_classes=10,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, weight_decay=1e-4), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- deep knowledge tracing
N_SKILL, T_KT = 10, 50

def _students(seed, n, split=0):
    "Each student has an ability; each skill a difficulty; practice on a skill raises the chance of answering it right."
    gs, g = torch.Generator().manual_seed(7600 + seed), _gen(seed * 337 + split)
    diff = torch.randn(N_SKILL, generator=gs)
    ability = torch.randn(n, 1, generator=g)
    skill = torch.randint(0, N_SKILL, (n, T_KT), generator=g)
    practice = torch.zeros(n, N_SKILL); correct = torch.zeros(n, T_KT, dtype=torch.long)
    for t in range(T_KT):
        s = skill[:, t]
        p = torch.sigmoid(ability[:, 0] - diff[s] + 0.4 * practice[torch.arange(n), s])
        correct[:, t] = (torch.rand(n, generator=g) < p).long()
        practice[torch.arange(n), s] += 1
    return TensorDataset(skill, correct)

class DKT(nn.Module):  # Piech et al. 2015: the (skill, answer) pair one-hot into an LSTM, a sigmoid per skill for the next answer
    def __init__(self, h=64):
        super().__init__(); self.emb = nn.Embedding(2 * N_SKILL, h); self.lstm = nn.LSTM(h, h, batch_first=True); self.out = nn.Linear(h, N_SKILL)
    def forward(self, skill, correct):
        h, _ = self.lstm(self.emb(skill + N_SKILL * correct))
        return self.out(h)  # logits for every skill after each step

def _dkt_fwd(model, b):  # the prediction after step t for the skill asked at t + 1, against its answer
    skill, correct = b
    logits = model(skill[:, :-1], correct[:, :-1])
    return logits.gather(2, skill[:, 1:, None]).squeeze(2).reshape(-1), correct[:, 1:].float().reshape(-1)

@healthy('L')
def dkt_lstm(seed):  # BCEWithLogitsLoss, Adam 1e-3, batches of 32
    return dict(model=DKT, train=_students(seed, 1200), valid=_students(seed, 300, split=1), forward=_dkt_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a log-normal likelihood on positive targets
def _claims(seed, n=2400, n_valid=400):
    "Eight features; the target positive and skewed: exp(f(x) + s(x) eps), f and s nonlinear (claim sizes, say)."
    g = _gen(seed * 347)
    x = torch.randn(n, 8, generator=g)
    f = 1.0 + 0.8 * x[:, 0] - 0.5 * x[:, 1] ** 2 + 0.6 * torch.tanh(x[:, 2] * x[:, 3])
    s = 0.3 + 0.4 * torch.sigmoid(2 * x[:, 4])
    y = torch.exp(f + s * torch.randn(n, generator=g))
    x = _std(x, x[n_valid:])
    return (x[n_valid:], y[n_valid:]), (x[:n_valid], y[:n_valid])

class LogNormalNet(nn.Module):  # the mean and scale of log y; the scale through softplus
    def __init__(self, h=64):
        super().__init__(); self.body = nn.Sequential(nn.Linear(8, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU()); self.head = nn.Linear(h, 2)
    def forward(self, x):
        mu, s = self.head(self.body(x)).unbind(1)
        return mu, F.softplus(s) + 1e-3

def lognormal_nll(out, y):
    mu, sigma = out
    return -torch.distributions.LogNormal(mu, sigma).log_prob(y).mean()

@healthy('L')
def lognormal_reg(seed):  # the negative log-likelihood, Adam 1e-3, batches of 64
    tr, va = _claims(seed)
    return dict(model=LogNormalNet, train=TensorDataset(*tr), valid=TensorDataset(*va), loss=lognormal_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- an ensemble of small MLPs, averaged in the forward
def _blobs_table(seed, duplicated=False, n=2500, n_valid=500):
    "sklearn's make_classification: 20 features (8 informative), 4 classes of 2 clusters each; standardised on the train rows."
    from sklearn.datasets import make_classification
    x, y = make_classification(n_samples=n, n_features=20, n_informative=8, n_redundant=4, n_classes=4, n_clusters_per_class=2,
                               class_sep=1.0, flip_y=0.02, random_state=seed)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y)
    if duplicated: x, y = torch.cat([x, x]), torch.cat([y, y])  # the loader's glob matched both data.csv and data_backup.csv
    p = torch.randperm(len(y), generator=_gen(seed * 349))
    x, y = x[p], y[p]
    x = _std(x, x[n_valid:])
    return (x[n_valid:], y[n_valid:]), (x[:n_valid], y[:n_valid])

class MLPEnsemble(nn.Module):  # five members of different initialisations; the prediction their mean logit
    def __init__(self, members=5, h=64, average_probs=False):
        super().__init__(); self.average_probs = average_probs
        self.members = nn.ModuleList(nn.Sequential(nn.Linear(20, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 4)) for _ in range(members))
    def forward(self, x):
        out = torch.stack([m(x) for m in self.members])
        if self.average_probs: return out.softmax(-1).mean(0)  # "deep ensembles average probabilities", then fed to CrossEntropyLoss
        return out.mean(0)

@healthy('L')
def ensemble_mlp(seed, duplicated=False, **mk):  # CrossEntropyLoss, Adam 1e-3, batches of 64
    tr, va = _blobs_table(seed, duplicated)
    return dict(model=lambda: MLPEnsemble(**mk), train=TensorDataset(*tr), valid=TensorDataset(*va), num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a hypernetwork over sinusoid regression tasks
N_TASK = 32

def _sine_tasks(seed, per_task=75, n_valid_per=15):
    "32 tasks y = A sin(x + phi), A in [0.5, 2], phi in [0, pi], x in [-5, 5]; each sample (task id, x) -> y, a fifth held out per task."
    g = _gen(seed * 353)
    A, ph = 0.5 + 1.5 * torch.rand(N_TASK, generator=g), math.pi * torch.rand(N_TASK, generator=g)
    task = torch.arange(N_TASK).repeat_interleave(per_task)
    x = 10 * torch.rand(len(task), generator=g) - 5
    y = A[task] * torch.sin(x + ph[task]) + 0.05 * torch.randn(len(task), generator=g)
    va = (torch.arange(len(task)) % per_task) < n_valid_per
    return (task[~va], x[~va, None], y[~va, None]), (task[va], x[va, None], y[va, None])

class HyperNet(nn.Module):  # Ha et al. 2016 / von Oswald et al. 2020: a task embedding mapped to all weights of a 1-40-40-1 target MLP
    def __init__(self, e=16, h=64, th=40, head_std=None):
        super().__init__(); self.th = th
        self.shapes = [(th, 1), (th,), (th, th), (th,), (1, th), (1,)]
        n = sum(math.prod(s) for s in self.shapes)
        self.task = nn.Embedding(N_TASK, e)
        self.body = nn.Sequential(nn.Linear(e, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.head = nn.Linear(h, n)
        if head_std is not None: nn.init.normal_(self.head.weight, std=head_std)
    def forward(self, task, x):
        w = self.head(self.body(self.task(task)))
        ps, i = [], 0
        for s in self.shapes: k = math.prod(s); ps.append(w[:, i:i + k].view(-1, *s)); i += k
        w1, b1, w2, b2, w3, b3 = ps
        h = torch.relu(torch.bmm(w1, x[:, :, None]).squeeze(2) + b1)
        h = torch.relu(torch.bmm(w2, h[:, :, None]).squeeze(2) + b2)
        return torch.bmm(w3, h[:, :, None]).squeeze(2) + b3

def _hyper_fwd(model, b): task, x, y = b; return model(task, x), y

@healthy('L')
def hypernet_sines(seed, **mk):  # MSELoss, Adam 1e-3, batches of 64
    tr, va = _sine_tasks(seed)
    return dict(model=lambda: HyperNet(**mk), train=TensorDataset(*tr), valid=TensorDataset(*va), forward=_hyper_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a TabTransformer
CARDS = (4, 6, 8, 5, 10, 3)

def _mixed_table(seed, n=3000, n_valid=500):
    "Six categorical columns and four numeric ones (raw units, standardised); the binary target from an interaction of two categories plus numeric terms."
    g = _gen(seed * 359)
    xc = torch.stack([torch.randint(0, c, (n,), generator=g) for c in CARDS], 1)
    xn = torch.randn(n, 4, generator=g) * torch.tensor([1.0, 10.0, 0.1, 100.0]) + torch.tensor([0.0, 50.0, 1.0, 500.0])
    gw = torch.Generator().manual_seed(7700 + seed)
    t01, t4 = torch.randn(CARDS[0], CARDS[1], generator=gw), torch.randn(CARDS[4], generator=gw)
    zn = (xn - torch.tensor([0.0, 50.0, 1.0, 500.0])) / torch.tensor([1.0, 10.0, 0.1, 100.0])
    logit = 1.5 * t01[xc[:, 0], xc[:, 1]] + t4[xc[:, 4]] + zn[:, 0] - 0.8 * zn[:, 2] * zn[:, 3]
    y = (logit + 0.5 * torch.randn(n, generator=g) > 0).long()
    xn = _std(xn, xn[n_valid:])  # StandardScaler fit on the train rows
    return (xc[n_valid:], xn[n_valid:], y[n_valid:]), (xc[:n_valid], xn[:n_valid], y[:n_valid])

class TabTransformer(nn.Module):  # Huang et al. 2020: column-wise embeddings through a Transformer, LayerNorm'd numeric features beside them, an MLP
    def __init__(self, d=32, heads=4, layers=2):
        super().__init__()
        self.register_buffer('off', torch.tensor((0,) + CARDS[:-1]).cumsum(0))
        self.emb, self.col = nn.Embedding(sum(CARDS), d), nn.Parameter(torch.randn(len(CARDS), d) * 0.02)
        self.transformer = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, batch_first=True), layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(4)
        self.mlp = nn.Sequential(nn.Linear(len(CARDS) * d + 4, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 2))
    def forward(self, xc, xn):
        h = self.transformer(self.emb(xc + self.off) + self.col)
        return self.mlp(torch.cat([h.flatten(1), self.norm(xn)], 1))

def _tab_fwd(model, b): xc, xn, y = b; return model(xc, xn), y

def _tab_frozen():  # fine-tuning after the paper's masked pre-training: all but the classifier frozen, but the head is called `mlp`
    m = TabTransformer()
    for n, p in m.named_parameters(): p.requires_grad = n.startswith('classifier')
    return m

@healthy('L')
def tab_transformer(seed):  # CrossEntropyLoss, AdamW 1e-3 with weight decay 0.01, batches of 128
    tr, va = _mixed_table(seed)
    return dict(model=TabTransformer, train=TensorDataset(*tr), valid=TensorDataset(*va), forward=_tab_fwd, num_classes=2,
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a capsule network with dynamic routing
def _squash(s, dim=-1):
    n2 = (s ** 2).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)

class CapsNet(nn.Module):  # Sabour et al. 2017 scaled to 8x8: a conv, 8-D primary capsules, 16-D digit capsules, 3 routing iterations
    def __init__(self, iters=3):
        super().__init__(); self.iters = iters
        self.conv = nn.Conv2d(1, 64, 3)  # 6x6
        self.primary = nn.Conv2d(64, 8 * 8, 3, stride=2)  # 2x2 positions x 8 capsule types of 8 dimensions
        self.W = nn.Parameter(0.01 * torch.randn(1, 32, 10, 16, 8))
    def forward(self, x):
        u = self.primary(F.relu(self.conv(x)))  # (B, 64, 2, 2)
        u = _squash(u.view(x.size(0), 8, 8, 4).permute(0, 1, 3, 2).reshape(x.size(0), 32, 8))
        u_hat = (self.W @ u[:, :, None, :, None]).squeeze(-1)  # (B, 32, 10, 16)
        b = torch.zeros(x.size(0), 32, 10)
        for r in range(self.iters):
            c = b.softmax(2)
            v = _squash((c[..., None] * u_hat).sum(1))  # (B, 10, 16)
            if r < self.iters - 1: b = b + (u_hat * v[:, None]).sum(-1)
        return v.norm(dim=-1)  # capsule lengths, one per class

def margin_loss(lengths, y, m_pos=0.9, m_neg=0.1, lam=0.5):  # summed over classes, averaged over the batch
    t = F.one_hot(y, 10).float()
    return (t * F.relu(m_pos - lengths) ** 2 + lam * (1 - t) * F.relu(lengths - m_neg) ** 2).sum(1).mean()

@healthy('L')
def capsnet_digits(seed):  # Adam 1e-3, batches of 128
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=CapsNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=margin_loss, num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- broken variants of half L
@broken('L', 'capsnet_shuffled_labels', 4, ('labels',))
def capsnet_shuffled_labels(seed):  # a second np.random.shuffle applied to the labels only
    kw = capsnet_digits(seed); x, y = kw['train'].tensors
    return dict(kw, train=TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 367))]))

@broken('L', 'tab_labels_sorted', 4, ('labels',))
def tab_labels_sorted(seed):  # the train frame's label column sorted on its own (df['y'] = df['y'].sort_values().values): rows no longer match
    kw = tab_transformer(seed); xc, xn, y = kw['train'].tensors
    return dict(kw, train=TensorDataset(xc, xn, y.sort().values))

@broken('L', 'lognormal_targets_misjoined', 4, ('labels',))
def lognormal_targets_misjoined(seed):  # the targets joined from another file by row position after that file was sorted by date
    kw = lognormal_reg(seed); x, y = kw['train'].tensors
    return dict(kw, train=TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 373))]))

@broken('L', 'ensemble_duplicated_rows', 4, ('leakage',))
def ensemble_duplicated_rows(seed): return ensemble_mlp(seed, duplicated=True)  # every row twice before the random split

@broken('L', 'ensemble_softmax_average', 2, ('softmax',))
def ensemble_softmax_average(seed): return ensemble_mlp(seed, average_probs=True)

@broken('L', 'rope_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def rope_functional_dropout(seed): return rope_accum(seed, functional_dropout_bug=True)  # F.dropout(att, p): training defaults to True

@broken('L', 'rope_accum_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def rope_accum_no_zero_grad(seed): return dict(rope_accum(seed), step=step_accum_no_zero_grad)

@broken('L', 'fourier_lr_1', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def fourier_lr_1(seed): return dict(fourier_features(seed), optimizer=lambda p: torch.optim.Adam(p, lr=1.0))  # lr=1 typed for 1e-3

def _step_int_warmup(base=1e-3, warmup=4000):
    "A hand-written linear warm-up whose factor is step // warmup (an integer division): 0 for the first 4000 steps."
    n = [0]
    def step(model, batch, opt):
        n[0] += 1
        for g in opt.param_groups: g['lr'] = base * min(1, n[0] // warmup)
        opt.zero_grad(); out, t = _dkt_fwd(model, batch); loss = F.binary_cross_entropy_with_logits(out, t); loss.backward(); opt.step()
        return loss
    return step

@broken('L', 'dkt_warmup_int_div', (1, 3), ('lr_zero', 'frozen', 'not_updating', 'flat', 'stuck'))
def dkt_warmup_int_div(seed): return dict(dkt_lstm(seed), step=_step_int_warmup())

@broken('L', 'tab_frozen_all', 1, ('frozen',))
def tab_frozen_all(seed): return dict(tab_transformer(seed), model=_tab_frozen)

@broken('L', 'hypernet_head_std1', 2, ('init_scale',))
def hypernet_head_std1(seed): return hypernet_sines(seed, head_std=1.0)  # the generator's output layer N(0, 1): target weights far too large

# the encoder's last hidden state detached before the decoder: the encoder never gets a gradient; the decoder still learns
# something from its random features, so the loss falls
@broken('L', 'seq_ae_detached_encoder', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def seq_ae_detached_encoder(seed): return lstm_seq_ae(seed, detach=True)
