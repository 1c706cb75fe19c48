"""Half J of the ladder's gallery (issue 32): held out from the ninth round of rules, frozen at f13d9e5, written after that
commit and run once. Families not in halves A-I: a denoising diffusion model (DDPM noise prediction on 2-D points, a random
timestep and fresh noise every batch, no labels), a BERT-style masked token model (random masking each batch, targets -100
where nothing is masked), a VQ-VAE (a straight-through codebook, codebook and commitment losses), a PointNet classifier of
sampled 3-D point clouds of shapes, a bidirectional GRU over variable-length sequences with pack_padded_sequence (a collate_fn
that pads and returns the lengths), a Wide & Deep click-through model (BCE) over hashed categorical ids plus numerics (a batch of
three tensors), a sparse autoencoder (an L1 penalty on the code), a Bayes-by-backprop MLP (an ELBO: cross-entropy plus the KL
over the number of training rows), a heatmap keypoint regressor (MSE on Gaussian heatmaps), a focal-loss classifier on
imbalanced data, a mixture-of-experts classifier with a load-balancing auxiliary loss, and a Deep SVDD one-class model.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half I.

Protocol: written after the freeze f13d9e5 without reading the ladder's rules (ntrain/ladder/*.py, nbs/02_ladder, the ladder
sections of bench/RESULTS.md, CHANGELOG.md) or any earlier sweep's results; only `ntrain.ladder`'s public signature and
docstring and the factory format of halves A-I were read. Each program was checked by hand only with a plain torch loop of
its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder.
Committed before any ladder run, then run once, rungs 1-4, seeds 0-9 as two processes (seeds 0-4, 5-9):
`OMP_NUM_THREADS=1 nice -n 10 timeout 2400 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half J`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, Dataset, DataLoader
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std

class ListData(Dataset):
    def __init__(self, items): self.items = items
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]

# ---------------------------------------------------------------- a denoising diffusion model (DDPM) on 2-D points
T_DDPM = 100
BETAS = torch.linspace(1e-4, 0.02, T_DDPM)
ALPHA_BAR = torch.cumprod(1 - BETAS, 0)

def _roll_points(seed, n, split=0):  # the 2-D swiss roll, scaled to about unit variance
    from sklearn.datasets import make_swiss_roll
    x, _ = make_swiss_roll(n, noise=0.3, random_state=seed * 173 + split)
    return torch.tensor(x[:, [0, 2]] / 8.0, dtype=torch.float32)

def timestep_embedding(t, d=32):  # the transformer's sinusoids of the timestep
    half = d // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half) / half)
    a = t.float()[:, None] * freqs[None]
    return torch.cat([a.sin(), a.cos()], 1)

class NoiseNet(nn.Module):  # an MLP on (x_t, embedding of t) -> the predicted noise
    def __init__(self, h=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 + 32, h), nn.SiLU(), nn.Linear(h, h), nn.SiLU(), nn.Linear(h, h), nn.SiLU(), nn.Linear(h, 2))
    def forward(self, x, t): return self.net(torch.cat([x, timestep_embedding(t)], 1))

def _ddpm_fwd(model, b):  # Ho et al. 2020, algorithm 1: a random t, fresh noise, x_t in closed form; the noise is the target
    x0 = b[0]
    t = torch.randint(0, T_DDPM, (len(x0),))
    noise = torch.randn_like(x0)
    ab = ALPHA_BAR[t][:, None]
    xt = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
    return model(xt, t), noise

@healthy('J')
def ddpm_points(seed):  # MSE between the predicted and the true noise, Adam 1e-3
    return dict(model=NoiseNet, train=TensorDataset(_roll_points(seed, 4000)), valid=TensorDataset(_roll_points(seed, 800, split=1)),
                forward=_ddpm_fwd, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a BERT-style masked token model
V_MLM, L_MLM = 60, 32
MASK_ID = V_MLM  # one extra id for [MASK]

def _token_seqs(seed, n, split=0):
    "Sequences of L_MLM tokens from a sparse Markov chain over V_MLM words (each word has 3 likely successors, 10% noise)."
    gc, g = torch.Generator().manual_seed(7000 + seed), _gen(seed * 179 + split)
    nxt = torch.randint(0, V_MLM, (V_MLM, 3), generator=gc)
    w = torch.zeros(n, L_MLM, dtype=torch.long)
    w[:, 0] = torch.randint(0, V_MLM, (n,), generator=g)
    choice, noise, rnd = torch.randint(0, 3, (n, L_MLM), generator=g), torch.rand(n, L_MLM, generator=g) < 0.1, torch.randint(0, V_MLM, (n, L_MLM), generator=g)
    for t in range(1, L_MLM): w[:, t] = torch.where(noise[:, t], rnd[:, t], nxt[w[:, t - 1], choice[:, t]])
    return w

class MaskedLM(nn.Module):  # token and position embeddings, a 2-layer encoder, a head over the vocabulary
    def __init__(self, d=64, init_std=None):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V_MLM + 1, d), nn.Embedding(L_MLM, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 128, dropout=0.1, batch_first=True), 2, enable_nested_tensor=False)
        self.norm, self.head = nn.LayerNorm(d), nn.Linear(d, V_MLM)
        if init_std is not None:  # "initialise the weights as the paper says": N(0, init_std) for every linear layer
            for m in self.modules():
                if isinstance(m, nn.Linear): nn.init.normal_(m.weight, 0, init_std)
    def forward(self, x): return self.head(self.norm(self.enc(self.tok(x) + self.pos(torch.arange(x.shape[1]))[None])))

def mask_tokens(tokens, p=0.15):  # BERT: 15% chosen; of those 80% [MASK], 10% a random token, 10% left; labels -100 elsewhere
    chosen = torch.rand(tokens.shape) < p
    labels = torch.where(chosen, tokens, torch.full_like(tokens, -100))
    inputs = tokens.clone()
    r = torch.rand(tokens.shape)
    inputs[chosen & (r < 0.8)] = MASK_ID
    rnd = chosen & (r >= 0.8) & (r < 0.9)
    inputs[rnd] = torch.randint(0, V_MLM, (int(rnd.sum()),))
    return inputs, labels

def _mlm_fwd(model, b):
    inputs, labels = mask_tokens(b[0])
    return model(inputs).reshape(-1, V_MLM), labels.reshape(-1)

@healthy('J')
def masked_lm(seed, **mk):  # CrossEntropyLoss(ignore_index=-100), AdamW 1e-3, weight decay 0.01
    return dict(model=lambda: MaskedLM(**mk), train=TensorDataset(_token_seqs(seed, 3000)), valid=TensorDataset(_token_seqs(seed, 500, split=1)),
                forward=_mlm_fwd, loss=nn.CrossEntropyLoss(ignore_index=-100), num_classes=V_MLM,
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a VQ-VAE on digit images
class VQVAE(nn.Module):  # van den Oord et al. 2017: a conv encoder to 4 x 4 latents of 16 dims, a codebook of 32, straight-through
    def __init__(self, K=32, d=16, beta=0.25):
        super().__init__(); self.d, self.beta = d, beta
        self.enc = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 4, stride=2, padding=1), nn.ReLU(), nn.Conv2d(32, d, 1))
        self.codebook = nn.Embedding(K, d); self.codebook.weight.data.uniform_(-1 / K, 1 / K)
        self.dec = nn.Sequential(nn.Conv2d(d, 32, 3, padding=1), nn.ReLU(), nn.ConvTranspose2d(32, 32, 4, stride=2, padding=1), nn.ReLU(), nn.Conv2d(32, 1, 1))
    def forward(self, x):
        z = self.enc(x).permute(0, 2, 3, 1)  # B, 4, 4, d
        idx = torch.cdist(z.reshape(-1, self.d), self.codebook.weight).argmin(1)
        q = self.codebook(idx).view_as(z)
        vq = F.mse_loss(q, z.detach()) + self.beta * F.mse_loss(z, q.detach())
        zq = z + (q - z).detach()
        return self.dec(zq.permute(0, 3, 1, 2)), vq

def vqvae_loss(out, x): recon, vq = out; return F.mse_loss(recon, x) + vq  # the reconstruction error plus the codebook and commitment terms

@healthy('J')
def vqvae_digits(seed):  # Adam 1e-3, as the reference notebook (zalandoresearch pytorch-vq-vae) sets it
    (x, _), (vx, _) = _digits(seed)
    return dict(model=VQVAE, train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=vqvae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- PointNet on sampled 3-D point clouds
def _shape_points(k, m, g):
    "m points on the surface of shape k: 0 sphere, 1 cube, 2 cylinder, 3 cone, 4 torus."
    u, v = torch.rand(m, generator=g), torch.rand(m, generator=g)
    if k == 0:
        p = torch.randn(m, 3, generator=g); return p / p.norm(dim=1, keepdim=True)
    if k == 1:
        p = torch.rand(m, 3, generator=g) * 2 - 1
        ax, s = torch.randint(0, 3, (m,), generator=g), torch.randint(0, 2, (m,), generator=g).float() * 2 - 1
        p[torch.arange(m), ax] = s; return p
    th = 2 * math.pi * u
    if k == 2: return torch.stack([th.cos(), th.sin(), 2 * v - 1], 1)
    if k == 3: return torch.stack([(1 - v) * th.cos(), (1 - v) * th.sin(), 2 * v - 1], 1)
    ph = 2 * math.pi * v
    return torch.stack([(1 + 0.4 * ph.cos()) * th.cos(), (1 + 0.4 * ph.cos()) * th.sin(), 0.4 * ph.sin()], 1)

def _point_clouds(seed, n, m=128, split=0, unshuffled_labels=False):
    "n clouds of m points, classes in turn, each randomly rotated, scaled per axis and jittered; returned as (n, 3, m) and labels."
    g = _gen(seed * 181 + split)
    xs, ys = [], []
    for i in range(n):
        k = i % 5
        rot, _ = torch.linalg.qr(torch.randn(3, 3, generator=g))
        p = (_shape_points(k, m, g) * (0.8 + 0.4 * torch.rand(3, generator=g))) @ rot.T + 0.02 * torch.randn(m, 3, generator=g)
        xs.append(p.T); ys.append(k)
    x, y = torch.stack(xs), torch.tensor(ys)
    perm = torch.randperm(n, generator=g)
    return (x[perm], y) if unshuffled_labels else (x[perm], y[perm])  # the bug: the clouds shuffled, their labels not

class PointNet(nn.Module):  # Qi et al. 2017 without the T-nets: a shared MLP (1x1 convolutions), a max pool, an MLP head
    def __init__(self, k=5, softmax=False):
        super().__init__(); self.softmax = softmax
        self.feat = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU(), nn.Conv1d(64, 128, 1), nn.BatchNorm1d(128), nn.ReLU(),
                                  nn.Conv1d(128, 256, 1), nn.BatchNorm1d(256), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, k))
    def forward(self, x):
        o = self.head(self.feat(x).max(2).values)
        return F.softmax(o, dim=1) if self.softmax else o

@healthy('J')
def pointnet(seed, **mk):  # CrossEntropyLoss, Adam 1e-3
    (x, y), (vx, vy) = _point_clouds(seed, 1500, **mk), _point_clouds(seed, 300, split=1)
    return dict(model=PointNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=5,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a bidirectional GRU over packed variable-length sequences
def _var_signals(seed, n, split=0):
    "Sequences of 10-50 steps, 2 channels: a noisy sine of one of three frequencies and its running mean; the label is the frequency."
    g = _gen(seed * 191 + split)
    out = []
    for _ in range(n):
        k, L = int(torch.randint(0, 3, (1,), generator=g)), int(torch.randint(10, 51, (1,), generator=g))
        f = (0.15, 0.3, 0.5)[k] * (0.9 + 0.2 * float(torch.rand(1, generator=g)))
        s = torch.sin(f * torch.arange(L).float() + 2 * math.pi * float(torch.rand(1, generator=g))) + 0.3 * torch.randn(L, generator=g)
        out.append((torch.stack([s, s.cumsum(0) / torch.arange(1, L + 1)], 1), k))
    return out

def collate_packed(samples):  # padded (B, T, 2), the lengths, the labels
    seqs, ys = zip(*samples)
    return nn.utils.rnn.pad_sequence(list(seqs), batch_first=True), torch.tensor([len(s) for s in seqs]), torch.tensor(ys)

class BiGRU(nn.Module):
    def __init__(self, h=32, functional_dropout=False):
        super().__init__(); self.functional_dropout = functional_dropout
        self.gru = nn.GRU(2, h, batch_first=True, bidirectional=True); self.drop = nn.Dropout(0.3); self.fc = nn.Linear(2 * h, 3)
    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)  # h: (2, B, h), the last state of each direction
        h = torch.cat([h[0], h[1]], 1)
        h = F.dropout(h, 0.3) if self.functional_dropout else self.drop(h)  # F.dropout's training defaults to True
        return self.fc(h)

def _gru_fwd(model, b): return model(b[0], b[1]), b[2]

@healthy('J')
def bigru_packed(seed, **mk):  # CrossEntropyLoss, RMSprop 1e-3
    tr, va = ListData(_var_signals(seed, 1500)), ListData(_var_signals(seed, 300, split=1))
    return dict(model=lambda: BiGRU(**mk), train=DataLoader(tr, batch_size=32, shuffle=True, collate_fn=collate_packed),
                valid=DataLoader(va, batch_size=64, collate_fn=collate_packed), forward=_gru_fwd, num_classes=3,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Wide & Deep click-through prediction
CARD, BUCKETS = (50, 120, 20, 8, 300, 30), 1000

def _clicks(seed, n=10000, n_valid=2000):
    "Six categorical fields hashed into BUCKETS ids each, four numerics; the click from a logistic model with per-value effects and one cross."
    gw, g = torch.Generator().manual_seed(7100 + seed), _gen(seed * 193)
    eff = [0.6 * torch.randn(c, generator=gw) for c in CARD]
    cross = 0.8 * torch.randn(CARD[0], CARD[3], generator=gw)
    w = torch.tensor([0.5, -0.4, 0.3, 0.0])
    raw = torch.stack([torch.randint(0, c, (n,), generator=g) for c in CARD], 1)
    num = torch.randn(n, 4, generator=g)
    logit = -1.5 + sum(eff[f][raw[:, f]] for f in range(len(CARD))) + cross[raw[:, 0], raw[:, 3]] + num @ w
    y = (torch.rand(n, generator=g) < torch.sigmoid(logit)).float()
    ids = (raw * 2654435761 + torch.arange(len(CARD)) * 97) % BUCKETS  # the hashing trick, one table per field
    return (ids[n_valid:], num[n_valid:], y[n_valid:]), (ids[:n_valid], num[:n_valid], y[:n_valid])

class WideDeep(nn.Module):  # Cheng et al. 2016: a linear model on the ids and one hashed cross, plus an MLP on embeddings and numerics
    def __init__(self, F_=len(CARD), e=8):
        super().__init__()
        self.wide = nn.Embedding(F_ * BUCKETS + BUCKETS, 1)
        self.emb = nn.Embedding(F_ * BUCKETS, e)
        self.deep = nn.Sequential(nn.Linear(F_ * e + 4, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
        self.register_buffer('offsets', torch.arange(F_) * BUCKETS)
        for emb in (self.wide, self.emb): nn.init.normal_(emb.weight, 0, 1e-4)  # DeepCTR-torch's init_std
    def forward(self, ids, num):
        flat = ids + self.offsets
        crossed = len(CARD) * BUCKETS + (ids[:, 0] * 31 + ids[:, 3]) % BUCKETS
        wide = self.wide(torch.cat([flat, crossed[:, None]], 1)).sum(1)
        deep = self.deep(torch.cat([self.emb(flat).flatten(1), num], 1))
        return (wide + deep).squeeze(1)

def _wd_fwd(model, b): return model(b[0], b[1]), b[2]

@healthy('J')
def wide_deep(seed):  # BCEWithLogitsLoss, Adam 1e-3
    tr, va = _clicks(seed)
    return dict(model=WideDeep, train=TensorDataset(*tr), valid=TensorDataset(*va), forward=_wd_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- a sparse autoencoder: an L1 penalty on the code
class SparseAE(nn.Module):  # 64 pixels -> 256 ReLU units -> 64; returns the reconstruction and the code
    def __init__(self):
        super().__init__(); self.enc, self.dec = nn.Linear(64, 256), nn.Linear(256, 64)
    def forward(self, x):
        code = F.relu(self.enc(x.flatten(1))); return self.dec(code).view_as(x), code

L1_SPARSE = 1e-3

def sparse_loss(out, x): recon, code = out; return F.mse_loss(recon, x) + L1_SPARSE * code.abs().sum(1).mean()

@healthy('J')
def sparse_ae(seed):  # Adam 1e-3
    (x, _), (vx, _) = _digits(seed)
    return dict(model=SparseAE, train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=sparse_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Bayes by backprop on breast cancer
class BayesLinear(nn.Module):  # Blundell et al. 2015: a Gaussian posterior per weight, sigma = softplus(rho), a N(0, 1) prior
    def __init__(self, i, o, softplus=True):
        super().__init__(); self.softplus = softplus
        self.w_mu, self.w_rho = nn.Parameter(torch.empty(o, i).uniform_(-0.2, 0.2)), nn.Parameter(torch.full((o, i), -5.0))
        self.b_mu, self.b_rho = nn.Parameter(torch.zeros(o)), nn.Parameter(torch.full((o,), -5.0))
    def sigma(self, rho): return F.softplus(rho) if self.softplus else rho
    def kl(self, mu, rho):  # KL(N(mu, s^2) || N(0, 1))
        s = self.sigma(rho); return (0.5 * (s ** 2 + mu ** 2 - 1) - torch.log(s)).sum()
    def forward(self, x):
        if self.training:
            w = self.w_mu + self.sigma(self.w_rho) * torch.randn_like(self.w_mu)
            b = self.b_mu + self.sigma(self.b_rho) * torch.randn_like(self.b_mu)
        else: w, b = self.w_mu, self.b_mu  # the posterior mean at test time
        return F.linear(x, w, b), self.kl(self.w_mu, self.w_rho) + self.kl(self.b_mu, self.b_rho)

class BayesMLP(nn.Module):
    def __init__(self, softplus=True):
        super().__init__(); self.l1, self.l2 = BayesLinear(30, 32, softplus), BayesLinear(32, 2, softplus)
    def forward(self, x):
        h, kl1 = self.l1(x); out, kl2 = self.l2(F.relu(h)); return out, kl1 + kl2

def _cancer(seed, n_valid=114):
    from sklearn.datasets import load_breast_cancer
    x, y = load_breast_cancer(return_X_y=True)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y)
    p = torch.randperm(len(y), generator=_gen(seed)); x, y = x[p], y[p]
    x = _std(x, x[n_valid:])
    return (x[n_valid:], y[n_valid:]), (x[:n_valid], y[:n_valid])

def elbo_loss(n_train):
    def loss(out, y): logits, kl = out; return F.cross_entropy(logits, y) + kl / n_train  # the KL spread over the dataset
    return loss

@healthy('J')
def bayes_mlp(seed, **mk):  # Adam 1e-3, batches of 32
    (x, y), (vx, vy) = _cancer(seed)
    return dict(model=lambda: BayesMLP(**mk), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=elbo_loss(len(y)),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- heatmap keypoint regression
def _keypoint_images(seed, n, S=24, split=0, channel=True):
    "A bright disc (the keypoint) and a dimmer bar (a distractor) on noise; the target a Gaussian heatmap (sigma 1.5) at the disc's centre."
    g = _gen(seed * 197 + split)
    yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing='ij')
    c = 4 + (S - 8) * torch.rand(n, 2, generator=g)
    bar = 4 + (S - 8) * torch.rand(n, 2, generator=g)
    img = 0.2 * torch.randn(n, S, S, generator=g)
    img += ((xx[None] - c[:, 0, None, None]) ** 2 + (yy[None] - c[:, 1, None, None]) ** 2 < 4).float()
    img += 0.6 * (((xx[None] - bar[:, 0, None, None]).abs() < 4) & ((yy[None] - bar[:, 1, None, None]).abs() < 1)).float()
    heat = torch.exp(-((xx[None] - c[:, 0, None, None]) ** 2 + (yy[None] - c[:, 1, None, None]) ** 2) / (2 * 1.5 ** 2))
    return TensorDataset(img[:, None], heat[:, None] if channel else heat)

class HeatmapNet(nn.Module):  # a small fully convolutional net with BatchNorm, one heatmap channel out
    def __init__(self, freeze_bn=False):
        super().__init__()
        layers = []
        for i, o in ((1, 16), (16, 32), (32, 32)): layers += [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()]
        self.body, self.out = nn.Sequential(*layers), nn.Conv2d(32, 1, 1)
        if freeze_bn: self.freeze_bn()
    def freeze_bn(self):  # meant: freeze the BatchNorm layers' affine parameters
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d): m.eval()
            for p in m.parameters(): p.requires_grad = False  # one indentation level too far out: every parameter
    def forward(self, x): return self.out(self.body(x))

@healthy('J')
def heatmap_keypoints(seed, channel=True, **mk):  # MSE over the heatmap, Adam 1e-3
    return dict(model=lambda: HeatmapNet(**mk), train=_keypoint_images(seed, 1200, channel=channel), valid=_keypoint_images(seed, 300, split=1, channel=channel),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- focal loss on imbalanced data
def sigmoid_focal_loss(logits, y, alpha=0.25, gamma=2.0):  # Lin et al. 2017, as torchvision.ops writes it, averaged
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, y, reduction='none')
    p_t = p * y + (1 - p) * (1 - y)
    return ((alpha * y + (1 - alpha) * (1 - y)) * ce * (1 - p_t) ** gamma).mean()

def _imbalanced(seed, n=5000, n_valid=1000):
    from sklearn.datasets import make_classification
    x, y = make_classification(n, n_features=20, n_informative=8, n_redundant=4, weights=[0.95, 0.05], flip_y=0.01, class_sep=1.0, random_state=seed)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)
    x = _std(x, x[n_valid:])
    return (x[n_valid:], y[n_valid:]), (x[:n_valid], y[:n_valid])

def _focal_fwd(model, b): return model(b[0]).squeeze(1), b[1]

@healthy('J')
def focal_imbalanced(seed):  # one logit, the focal loss, SGD 0.01 with momentum 0.9
    (x, y), (vx, vy) = _imbalanced(seed)
    return dict(model=lambda: nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)),
                train=TensorDataset(x, y), valid=TensorDataset(vx, vy), forward=_focal_fwd, loss=sigmoid_focal_loss,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a mixture of experts with a load-balancing loss
class MoE(nn.Module):  # 4 MLP experts, a softmax gate; the Switch Transformer's balance loss E * sum_i f_i P_i
    def __init__(self, d=20, k=6, E=4, h=64):
        super().__init__(); self.E = E
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, k)) for _ in range(E))
        self.gate = nn.Linear(d, E)
    def forward(self, x):
        g = self.gate(x).softmax(1)
        out = torch.stack([e(x) for e in self.experts], 1)  # B, E, k
        f = F.one_hot(g.argmax(1), self.E).float().mean(0)
        return (g[:, :, None] * out).sum(1), self.E * (f * g.mean(0)).sum()

def moe_loss(out, y): logits, aux = out; return F.cross_entropy(logits, y) + 0.01 * aux

@healthy('J')
def moe_classifier(seed):  # Adam 1e-3
    from sklearn.datasets import make_classification
    x, y = make_classification(3000, n_features=20, n_informative=12, n_classes=6, n_clusters_per_class=2, class_sep=1.2, random_state=seed + 200)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y)
    x = _std(x, x[600:])
    return dict(model=MoE, train=TensorDataset(x[600:], y[600:]), valid=TensorDataset(x[:600], y[:600]), loss=moe_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Deep SVDD, one class
def _normal_points(seed, n, split=0):
    "The 'normal' class: the two moons lifted into 16 dimensions by a fixed random map, plus noise."
    from sklearn.datasets import make_moons
    m, _ = make_moons(n, noise=0.08, random_state=seed * 199 + split)
    A = torch.randn(2, 16, generator=torch.Generator().manual_seed(7200 + seed))
    return torch.tensor(m, dtype=torch.float32) @ A + 0.1 * torch.randn(n, 16, generator=_gen(seed * 199 + split))

class DeepSVDD(nn.Module):  # Ruff et al. 2018: no biases (they would let the net collapse onto c), the centre c fixed from the initial net
    def __init__(self, x_train):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 64, bias=False), nn.LeakyReLU(), nn.Linear(64, 32, bias=False), nn.LeakyReLU(), nn.Linear(32, 8, bias=False))
        with torch.no_grad(): c = self.net(x_train).mean(0)
        c[(c.abs() < 0.1) & (c < 0)], c[(c.abs() < 0.1) & (c >= 0)] = -0.1, 0.1  # as the reference code: keep c away from 0
        self.register_buffer('c', c)
    def forward(self, x): return self.net(x)

def _svdd_fwd(model, b): z = model(b[0]); return z, model.c.expand_as(z)

def svdd_loss(z, c): return ((z - c) ** 2).sum(1).mean()

@healthy('J')
def deep_svdd(seed):  # Adam 1e-4, weight decay 1e-6, as the paper sets them
    x, vx = _normal_points(seed, 3000), _normal_points(seed, 600, split=1)
    return dict(model=lambda: DeepSVDD(x), train=TensorDataset(x), valid=TensorDataset(vx), forward=_svdd_fwd, loss=svdd_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-4, weight_decay=1e-6), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- broken variants of half J
@broken('J', 'wide_deep_shuffled_clicks', 4, ('labels',))
def wide_deep_shuffled_clicks(seed):  # the click column shuffled apart from its rows (a join on the wrong key)
    kw = wide_deep(seed); ids, num, y = kw['train'].tensors
    return dict(kw, train=TensorDataset(ids, num, y[torch.randperm(len(y), generator=_gen(seed + 211))]))

@broken('J', 'pointnet_labels_unshuffled', 4, ('labels',))
def pointnet_labels_unshuffled(seed): return pointnet(seed, unshuffled_labels=True)

@broken('J', 'focal_leak', 4, ('leakage',))
def focal_leak(seed):  # the validation rows appended to the training set (an "use all the data" step after the split)
    kw = focal_imbalanced(seed); x, y = kw['train'].tensors; vx, vy = kw['valid'].tensors
    return dict(kw, train=TensorDataset(torch.cat([x, vx]), torch.cat([y, vy])))

@broken('J', 'pointnet_softmax_before_ce', 2, ('softmax',))
def pointnet_softmax_before_ce(seed): return dict(pointnet(seed), model=lambda: PointNet(softmax=True))

@broken('J', 'bigru_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def bigru_functional_dropout(seed): return bigru_packed(seed, functional_dropout=True)

@broken('J', 'vqvae_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def vqvae_lr_x1000(seed): return dict(vqvae_digits(seed), optimizer=lambda p: torch.optim.Adam(p, lr=1.0))

@broken('J', 'ddpm_lr_zero', 3, ('lr_zero', 'flat'))
def ddpm_lr_zero(seed): return dict(ddpm_points(seed), optimizer=lambda p: torch.optim.Adam(p, lr=0.0))

def step_sparse_no_zero_grad(model, batch, opt):
    x, _ = batch
    loss = sparse_loss(model(x), x); loss.backward(); opt.step(); return loss

@broken('J', 'sparse_ae_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def sparse_ae_no_zero_grad(seed): return dict(sparse_ae(seed), step=step_sparse_no_zero_grad)

@broken('J', 'heatmap_freeze_bn_all', 1, ('frozen',))
def heatmap_freeze_bn_all(seed): return heatmap_keypoints(seed, freeze_bn=True)

# the heatmaps stored without their channel axis, (B, 24, 24) against the net's (B, 1, 24, 24): MSELoss broadcasts to
# (B, B, 24, 24) (with a UserWarning) and the net can only learn the batch's mean heatmap
@broken('J', 'heatmap_target_broadcast', (3, 4), ('labels', 'not_falling', 'flat', 'stuck'))
def heatmap_target_broadcast(seed): return heatmap_keypoints(seed, channel=False)

# sigma used as rho itself (the softplus forgotten), rho initialised at -5 as for the softplus: log(sigma) is NaN from the start
@broken('J', 'bayes_sigma_no_softplus', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def bayes_sigma_no_softplus(seed): return bayes_mlp(seed, softplus=False)

@broken('J', 'mlm_init_std1', 2, ('init_scale',))
def mlm_init_std1(seed): return masked_lm(seed, init_std=1.0)
