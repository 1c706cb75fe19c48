"""Half K of the ladder's gallery (issue 32): held out from the eleventh round of rules, frozen after 9668732, written after
that commit and run once. Families not in halves A-J: a physics-informed net (a 1-D Poisson problem, u'' from autograd inside
the forward, the source term as the target), a SIREN fitting an image from its pixel coordinates (held-out pixels as the
validation set), a mixup classifier (soft targets mixed in the forward while training, hard labels in evaluation), a
conditional VAE of digits (the class fed to encoder and decoder), a graph autoencoder for link prediction (a GCN encoder, an
inner-product decoder, negatives sampled each step), a BPR matrix factorisation recommender over (user, item, negative item)
triples, a PixelCNN on binarised digits (masked convolutions), a keyword-spotting CNN on synthetic log spectrograms, a box
regressor with a smooth-L1 plus GIoU loss in a custom step that clips the gradient norm, an InceptionTime-style time-series
classifier, a weight-tied GPT-style language model with a linear learning-rate warm-up, and an EfficientNet-ish CNN
(MBConv blocks: depthwise convolutions, SiLU, BatchNorm, squeeze-and-excitation). Registered into ladder_gallery's
HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half J.

Protocol: written after the freeze (round 11, frozen after 9668732) without reading the ladder's rules (ntrain/ladder/*.py,
nbs/02_ladder, the ladder sections of bench/RESULTS.md, CHANGELOG.md, AGENTS.md's ladder notes) or any earlier sweep's
results; only `ntrain.ladder`'s public signature and docstring and the factory format of halves A-J were read. Each program
was checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the
broken ones are broken as meant), never with the ladder. Committed before any ladder run, then run once, rungs 1-4, seeds
0-9 as two processes (seeds 0-4, 5-9):
`OMP_NUM_THREADS=1 nice -n 10 timeout 2400 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half K`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one

# ---------------------------------------------------------------- a physics-informed net: -u'' = pi^2 sin(pi x), u(0) = u(1) = 0
def _collocation(seed, n, split=0):
    "n collocation points in (0, 1) and the source term f there; the exact solution is u = sin(pi x)."
    x = torch.rand(n, 1, generator=_gen(seed * 211 + split))
    return TensorDataset(x, math.pi ** 2 * torch.sin(math.pi * x))

class PINN(nn.Module):  # Raissi et al. 2019: a tanh MLP u(x), Xavier init
    def __init__(self, h=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 1))
        for m in self.net:
            if isinstance(m, nn.Linear): nn.init.xavier_normal_(m.weight); nn.init.zeros_(m.bias)
    def forward(self, x): return self.net(x)

BOUNDARY = torch.tensor([[0.0], [1.0]])

def _pinn_fwd(model, b):  # u'' at the collocation points by autograd (also during evaluation, which runs under no_grad), u at the boundary
    x, f = b
    with torch.enable_grad():
        x = x.clone().requires_grad_(True)
        u = model(x)
        u_x, = torch.autograd.grad(u.sum(), x, create_graph=True)
        u_xx, = torch.autograd.grad(u_x.sum(), x, create_graph=True)
    return (u_xx, model(BOUNDARY)), f

def pinn_loss(out, f):  # the PDE residual u'' + f, plus the boundary condition, each a mean square
    u_xx, u_b = out
    return F.mse_loss(u_xx, -f) + u_b.pow(2).mean()

@healthy('K')
def pinn_poisson(seed):  # Adam 1e-3, mini-batches of collocation points
    return dict(model=PINN, train=_collocation(seed, 2000), valid=_collocation(seed, 400, split=1), forward=_pinn_fwd, loss=pinn_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=200))

# ---------------------------------------------------------------- a SIREN fitting an image from its coordinates
S_SIREN = 48

def _image_pixels(seed, n_valid=460):
    "A smooth synthetic grey image (blobs, a ring, a ramp) of S_SIREN^2 pixels; coordinates in [-1, 1]^2; a random fifth held out."
    g = _gen(seed * 223)
    t = torch.linspace(-1, 1, S_SIREN)
    yy, xx = torch.meshgrid(t, t, indexing='ij')
    img = 0.3 * xx
    for _ in range(4):
        c, s, a = torch.rand(2, generator=g) * 1.6 - 0.8, 0.15 + 0.25 * torch.rand(1, generator=g), torch.rand(1, generator=g) * 2 - 1
        img = img + a * torch.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * s ** 2))
    r = ((xx - 0.2) ** 2 + (yy + 0.1) ** 2).sqrt()
    img = img + 0.5 * torch.sin(8 * r) * torch.exp(-2 * r)
    coords, vals = torch.stack([xx, yy], -1).reshape(-1, 2), img.reshape(-1, 1)
    p = torch.randperm(len(vals), generator=g)
    return (coords[p[n_valid:]], vals[p[n_valid:]]), (coords[p[:n_valid]], vals[p[:n_valid]])

class SineLayer(nn.Module):  # Sitzmann et al. 2020: sin(omega_0 (W x + b)), their initialisation
    def __init__(self, i, o, first=False, omega_0=30.0):
        super().__init__(); self.omega_0, self.linear = omega_0, nn.Linear(i, o)
        with torch.no_grad():
            bound = 1 / i if first else math.sqrt(6 / i) / omega_0
            self.linear.weight.uniform_(-bound, bound)
    def forward(self, x): return torch.sin(self.omega_0 * self.linear(x))

class Siren(nn.Module):
    def __init__(self, h=64):
        super().__init__()
        self.net = nn.Sequential(SineLayer(2, h, first=True), SineLayer(h, h), SineLayer(h, h), nn.Linear(h, 1))
        with torch.no_grad(): b = math.sqrt(6 / h) / 30.0; self.net[-1].weight.uniform_(-b, b)
    def forward(self, x): return self.net(x)

@healthy('K')
def siren_image(seed):  # MSE, Adam 1e-4 as in the paper
    tr, va = _image_pixels(seed)
    return dict(model=Siren, train=TensorDataset(*tr), valid=TensorDataset(*va), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-4), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- mixup on digits (soft targets)
class MixNet(nn.Module):  # a small CNN with BatchNorm
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
                                 nn.MaxPool2d(2), nn.Flatten(), nn.Linear(64 * 16, 128), nn.ReLU(), nn.Linear(128, 10))
    def forward(self, x): return self.net(x)

MIXUP_ALPHA = 1.0

def _mixup_fwd(model, b):  # Zhang et al. 2018 (facebookresearch/mixup-cifar10): mix pairs within the batch while training only
    x, y = b
    if not model.training: return model(x), y
    lam = float(torch.distributions.Beta(MIXUP_ALPHA, MIXUP_ALPHA).sample())
    idx = torch.randperm(len(x))
    t = F.one_hot(y, 10).float()
    return model(lam * x + (1 - lam) * x[idx]), lam * t + (1 - lam) * t[idx]  # CrossEntropyLoss takes class probabilities as targets

@healthy('K')
def mixup_digits(seed):  # CrossEntropyLoss, SGD 0.1 with momentum 0.9 and weight decay 1e-4, batches of 128, as the reference trains
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=MixNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), forward=_mixup_fwd, loss=nn.CrossEntropyLoss(),
                num_classes=10, optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-4), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a conditional VAE of digits
class CVAE(nn.Module):  # Sohn et al. 2015, as the common MNIST ports write it: the one-hot class joined to the encoder's and the decoder's inputs
    def __init__(self, h=256, z=8, c=10):
        super().__init__(); self.c = c
        self.enc, self.mu, self.logvar = nn.Linear(64 + c, h), nn.Linear(h, z), nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z + c, h), nn.ReLU(), nn.Linear(h, 64), nn.Sigmoid())
    def forward(self, x, y):
        c = F.one_hot(y, self.c).float()
        h = F.relu(self.enc(torch.cat([x.flatten(1), c], 1)))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(torch.cat([z, c], 1)).view_as(x), mu, logvar

def cvae_loss(out, x):  # BCE plus KL, summed over pixels and latents, averaged over the batch
    recon, mu, logvar = out
    bce = F.binary_cross_entropy(recon, x, reduction='sum')
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return (bce + kld) / x.size(0)

def _cvae_fwd(model, b): x, y = b; return model(x, y), x

@healthy('K')
def cvae_digits(seed):  # Adam 1e-3
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=CVAE, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), forward=_cvae_fwd, loss=cvae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a graph autoencoder for link prediction
def _sbm_links(seed, n=300, k=4, p_in=0.1, p_out=0.005, frac_valid=0.15):
    "A stochastic block model graph; 15% of its edges held out with as many non-edges; the GCN's adjacency from the train edges only."
    g = _gen(seed * 227)
    c = torch.arange(n) % k
    p = torch.where(c[:, None] == c[None, :], torch.tensor(p_in), torch.tensor(p_out))
    a = torch.triu((torch.rand(n, n, generator=g) < p).long(), 1)
    edges = a.nonzero()
    perm = torch.randperm(len(edges), generator=g); nv = int(frac_valid * len(edges))
    ev, et = edges[perm[:nv]], edges[perm[nv:]]
    full = (a + a.T).bool()
    neg, seen = [], set()
    while len(neg) < nv:
        i, j = torch.randint(0, n, (2,), generator=g).tolist()
        if i != j and not full[i, j] and (min(i, j), max(i, j)) not in seen: seen.add((min(i, j), max(i, j))); neg.append((i, j))
    at = torch.zeros(n, n); at[et[:, 0], et[:, 1]] = 1; at = at + at.T + torch.eye(n)
    d = at.sum(1).rsqrt(); adj = d[:, None] * at * d[None, :]
    x = torch.eye(n)  # featureless: one-hot node ids
    valid_edges = torch.cat([ev, torch.tensor(neg)])
    return OneItem(x, adj, et, torch.ones(len(et))), OneItem(x, adj, valid_edges, torch.cat([torch.ones(nv), torch.zeros(nv)]))

class GAE(nn.Module):  # Kipf and Welling 2016: a two-layer GCN encoder, the inner product as the decoder
    def __init__(self, n=300, h=32, z=16):
        super().__init__(); self.w1, self.w2 = nn.Linear(n, h), nn.Linear(h, z)
    def forward(self, x, adj): return adj @ self.w2(F.relu(adj @ self.w1(x)))

def _gae_fwd(model, b):  # while training, as many random pairs as there are positive edges, fresh each step, as PyG's GAE.recon_loss
    x, adj, edges, lab = b
    z = model(x, adj)
    if model.training:
        neg = torch.randint(0, len(x), edges.shape)
        edges, lab = torch.cat([edges, neg]), torch.cat([lab, torch.zeros(len(neg))])
    return (z[edges[:, 0]] * z[edges[:, 1]]).sum(1), lab

@healthy('K')
def gae_links(seed):  # BCEWithLogitsLoss, Adam 0.01, the whole graph each step
    tr, va = _sbm_links(seed)
    return dict(model=GAE, train=DataLoader(tr, collate_fn=_one), valid=DataLoader(va, collate_fn=_one), forward=_gae_fwd,
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=0.01), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- BPR matrix factorisation
U_BPR, I_BPR = 300, 400

def _bpr_triples(seed, per_user=20, n_valid=1200):
    "Users and items with 6 latent factors; each user's 20 items drawn by affinity; each (user, item) gets one random negative item."
    gw, g = torch.Generator().manual_seed(7300 + seed), _gen(seed * 229)
    pu, qi = torch.randn(U_BPR, 6, generator=gw), torch.randn(I_BPR, 6, generator=gw)
    items = torch.multinomial(torch.softmax(pu @ qi.T, 1), per_user, generator=g)
    u, i = torch.arange(U_BPR).repeat_interleave(per_user), items.flatten()
    seen = torch.zeros(U_BPR, I_BPR, dtype=torch.bool); seen[u, i] = True
    j = torch.randint(0, I_BPR, (len(u),), generator=g)
    while seen[u, j].any():
        bad = seen[u, j]; j[bad] = torch.randint(0, I_BPR, (int(bad.sum()),), generator=g)
    p = torch.randperm(len(u), generator=g); u, i, j = u[p], i[p], j[p]
    return (u[n_valid:], i[n_valid:], j[n_valid:]), (u[:n_valid], i[:n_valid], j[:n_valid])

class BPRMF(nn.Module):  # Rendle et al. 2009: user and item factors, the score their dot product; N(0, 0.01) as NCF's BPR code
    def __init__(self, k=32, pretrained=None):
        super().__init__()
        if pretrained is None:
            self.user, self.item = nn.Embedding(U_BPR, k), nn.Embedding(I_BPR, k)
            nn.init.normal_(self.user.weight, std=0.01); nn.init.normal_(self.item.weight, std=0.01)
        else:  # a warm start from an SVD of the interaction matrix; from_pretrained freezes by default
            self.user, self.item = nn.Embedding.from_pretrained(pretrained[0]), nn.Embedding.from_pretrained(pretrained[1])
    def forward(self, u, i, j): return (self.user(u) * self.item(i)).sum(1), (self.user(u) * self.item(j)).sum(1)

def _bpr_fwd(model, b): u, i, j = b; return model(u, i, j), torch.ones(len(u))  # the target: item i preferred to j

def bpr_loss(out, pref):  # -log sigmoid(x_ui - x_uj), averaged, as RecBole's BPRLoss
    pos, neg = out
    return -torch.log(1e-10 + torch.sigmoid(pref * (pos - neg))).mean()

@healthy('K')
def bpr_recs(seed, **mk):  # Adam 0.01
    tr, va = _bpr_triples(seed)
    return dict(model=lambda: BPRMF(**mk), train=TensorDataset(*tr), valid=TensorDataset(*va), forward=_bpr_fwd, loss=bpr_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=0.01), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- a PixelCNN on binarised digits
class MaskedConv2d(nn.Conv2d):  # van den Oord et al. 2016: mask 'A' hides the centre pixel, mask 'B' shows it
    def __init__(self, kind, *a, **k):
        super().__init__(*a, **k)
        m = torch.ones_like(self.weight); _, _, kh, kw = self.weight.shape
        m[:, :, kh // 2, kw // 2 + (kind == 'B'):] = 0; m[:, :, kh // 2 + 1:] = 0
        self.register_buffer('mask', m)
    def forward(self, x): return F.conv2d(x, self.weight * self.mask, self.bias, self.stride, self.padding)

class PixelCNN(nn.Module):
    def __init__(self, c=32):
        super().__init__()
        layers = [MaskedConv2d('A', 1, c, 5, padding=2), nn.BatchNorm2d(c), nn.ReLU()]
        for _ in range(3): layers += [MaskedConv2d('B', c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU()]
        self.net = nn.Sequential(*layers, nn.Conv2d(c, 1, 1))
    def forward(self, x): return self.net(x)  # one logit per pixel: p(x_ij = 1 | the pixels before it)

@healthy('K')
def pixelcnn_digits(seed):  # BCEWithLogitsLoss per pixel, Adam 1e-3
    (x, _), (vx, _) = _digits(seed)
    x, vx = (x > 0.5).float(), (vx > 0.5).float()
    return dict(model=PixelCNN, train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- keyword spotting on synthetic log spectrograms
N_MEL, N_FRAMES, N_WORDS = 20, 40, 6

def _spectrograms(seed, n, split=0):
    """Each keyword is three syllables drawn from 8 shared ones, each a pair of formant bands held for a while; time shift, stretch,
    level, a background syllable at random, multiplicative noise; log power."""
    gw, g = torch.Generator().manual_seed(7400 + seed), _gen(seed * 233 + split)
    sylls = torch.randint(1, N_MEL - 1, (8, 2), generator=gw)
    words = torch.randint(0, 8, (N_WORDS, 3), generator=gw)
    y = torch.randint(0, N_WORDS, (n,), generator=g)
    spec = 0.05 * torch.rand(n, N_MEL, N_FRAMES, generator=g)
    def put(k, syl, a, b, level):
        for f in sylls[syl]: spec[k, max(int(f) - 1, 0):int(f) + 1, a:b] += level
    for k in range(n):
        t, dur = int(torch.randint(0, 10, (1,), generator=g)), int(torch.randint(6, 10, (1,), generator=g))
        level = 0.1 + 0.4 * torch.rand(1, generator=g)
        for s in range(3): put(k, words[y[k], s], t + s * dur, t + (s + 1) * dur, level)
        b = int(torch.randint(0, N_FRAMES - 6, (1,), generator=g))  # background babble: one syllable somewhere
        put(k, int(torch.randint(0, 8, (1,), generator=g)), b, b + 6, 0.5 * torch.rand(1, generator=g))
    spec = spec * torch.exp(1.0 * torch.randn(n, N_MEL, N_FRAMES, generator=g))  # multiplicative noise on the power
    return torch.log(spec + 1e-3)[:, None], y

class KWSNet(nn.Module):  # the TensorFlow speech-commands tutorial's small CNN, in PyTorch
    def __init__(self, functional_dropout=False):
        super().__init__(); self.functional_dropout = functional_dropout
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())
        self.drop, self.fc = nn.Dropout(0.25), nn.Linear(32 * 5 * 10, N_WORDS)
    def forward(self, x):
        h = self.conv(x)
        h = F.dropout(h, 0.25) if self.functional_dropout else self.drop(h)  # F.dropout's training defaults to True
        return self.fc(h)

@healthy('K')
def kws_spectrogram(seed, **mk):  # CrossEntropyLoss, Adam 1e-3, inputs standardised with the train set's mean and std
    (x, y), (vx, vy) = _spectrograms(seed, 2400), _spectrograms(seed, 480, split=1)
    m, s = x.mean(), x.std()
    return dict(model=lambda: KWSNet(**mk), train=TensorDataset((x - m) / s, y), valid=TensorDataset((vx - m) / s, vy), num_classes=N_WORDS,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- box regression: smooth L1 plus GIoU, in a custom step
S_BOX = 24

def _box_images(seed, n, split=0):
    "A bright rectangle of random size on noise and a faint background gradient; the target its corners (x1, y1, x2, y2) / S_BOX."
    g = _gen(seed * 239 + split)
    wh = 4 + (S_BOX // 2 - 4) * torch.rand(n, 2, generator=g)
    xy1 = torch.rand(n, 2, generator=g) * (S_BOX - wh)
    boxes = torch.cat([xy1, xy1 + wh], 1)
    t = torch.arange(S_BOX).float() + 0.5
    inside = ((t[None, None, :] > boxes[:, 0, None, None]) & (t[None, None, :] < boxes[:, 2, None, None])
              & (t[None, :, None] > boxes[:, 1, None, None]) & (t[None, :, None] < boxes[:, 3, None, None])).float()
    img = inside + 0.3 * torch.randn(n, S_BOX, S_BOX, generator=g) + 0.2 * torch.rand(n, 1, 1, generator=g) * t[None, None, :] / S_BOX
    return TensorDataset(img[:, None], boxes / S_BOX)

class BoxNet(nn.Module):  # a CNN regressing (cx, cy, w, h) in [0, 1] through a sigmoid, returned as corners
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(3), nn.Flatten(), nn.Linear(64 * 9, 128), nn.ReLU(), nn.Linear(128, 4))
    def forward(self, x):
        cx, cy, w, h = torch.sigmoid(self.body(x)).unbind(1)
        return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)

def giou_loss(p, t, eps=1e-7):  # Rezatofighi et al. 2019, as torchvision.ops.generalized_box_iou_loss, averaged
    ix1, iy1, ix2, iy2 = torch.max(p[:, 0], t[:, 0]), torch.max(p[:, 1], t[:, 1]), torch.min(p[:, 2], t[:, 2]), torch.min(p[:, 3], t[:, 3])
    inter = (ix2 - ix1).clamp(min=0) * (iy2 - iy1).clamp(min=0)
    area = lambda b: (b[:, 2] - b[:, 0]).clamp(min=0) * (b[:, 3] - b[:, 1]).clamp(min=0)
    union = area(p) + area(t) - inter
    iou = inter / (union + eps)
    enc = (torch.max(p[:, 2], t[:, 2]) - torch.min(p[:, 0], t[:, 0])) * (torch.max(p[:, 3], t[:, 3]) - torch.min(p[:, 1], t[:, 1]))
    return (1 - iou + (enc - union) / (enc + eps)).mean()

def box_loss(p, t): return F.smooth_l1_loss(p, t, beta=1 / 9) + giou_loss(p, t)  # as the detection codebases weigh them, 1:1

def step_boxes(model, batch, opt):  # the detection codebases' step: the gradient norm clipped at 10
    x, t = batch
    opt.zero_grad()
    loss = box_loss(model(x), t); loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 10.0); opt.step(); return loss

def step_boxes_no_zero_grad(model, batch, opt):
    x, t = batch
    loss = box_loss(model(x), t); loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 10.0); opt.step(); return loss

@healthy('K')
def giou_boxes(seed):  # SGD 0.01 with momentum 0.9 and weight decay 1e-4, the custom step above
    return dict(model=BoxNet, train=_box_images(seed, 1500), valid=_box_images(seed, 300, split=1), loss=box_loss, step=step_boxes,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, weight_decay=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- an InceptionTime-style time-series classifier
L_TS = 64

def _sensor_series(seed, n, split=0):
    "Raw readings around 50 units (a slow random walk) with one of four events at a random place: a bump, a dip, a ramp, a burst."
    g = _gen(seed * 241 + split)
    y = torch.randint(0, 4, (n,), generator=g)
    x = 50 + torch.randn(n, L_TS, generator=g).cumsum(1) * 0.3 + 0.5 * torch.randn(n, L_TS, generator=g)
    t = torch.arange(16).float()
    shapes = torch.stack([4 * torch.sin(math.pi * t / 15), -4 * torch.sin(math.pi * t / 15), 4 * (t / 15) - 2, 3 * torch.sin(2.5 * t)])
    at = torch.randint(0, L_TS - 16, (n,), generator=g)
    for k in range(n): x[k, at[k]:at[k] + 16] += shapes[y[k]]
    return x[:, None], y

class InceptionModule(nn.Module):  # Fawaz et al. 2020: a bottleneck, kernels 9, 19, 39 and a max-pool branch, BatchNorm, ReLU
    def __init__(self, i, nf=16):
        super().__init__()
        self.bottleneck = nn.Conv1d(i, nf, 1, bias=False) if i > 1 else nn.Identity()
        b = nf if i > 1 else i
        self.convs = nn.ModuleList(nn.Conv1d(b, nf, k, padding=k // 2, bias=False) for k in (9, 19, 39))
        self.pool = nn.Sequential(nn.MaxPool1d(3, 1, padding=1), nn.Conv1d(i, nf, 1, bias=False))
        self.bn = nn.BatchNorm1d(4 * nf)
    def forward(self, x):
        b = self.bottleneck(x)
        return F.relu(self.bn(torch.cat([c(b) for c in self.convs] + [self.pool(x)], 1)))

class InceptionTime(nn.Module):  # three modules and a residual shortcut around them, global average pooling, a linear layer
    def __init__(self, k=4, nf=8):
        super().__init__()
        self.blocks = nn.Sequential(InceptionModule(1, nf), InceptionModule(4 * nf, nf), InceptionModule(4 * nf, nf))
        self.shortcut = nn.Sequential(nn.Conv1d(1, 4 * nf, 1, bias=False), nn.BatchNorm1d(4 * nf))
        self.fc = nn.Linear(4 * nf, k)
    def forward(self, x): return self.fc(F.relu(self.blocks(x) + self.shortcut(x)).mean(2))

@healthy('K')
def inception_time(seed, scale_valid=True):  # CrossEntropyLoss, Adam 1e-3, batches of 64 as the paper; the series standardised with the train set's statistics
    (x, y), (vx, vy) = _sensor_series(seed, 1200), _sensor_series(seed, 300, split=1)
    m, s = x.mean(), x.std()
    return dict(model=InceptionTime, train=TensorDataset((x - m) / s, y), valid=TensorDataset((vx - m) / s if scale_valid else vx, vy),
                num_classes=4, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a weight-tied GPT-style language model with a learning-rate warm-up
V_LM, T_LM = 50, 32

def _markov_tokens(seed, n):
    "A token stream from a sparse first-order Markov chain over V_LM words (2 likely successors each, 10% noise)."
    gc, g = torch.Generator().manual_seed(7500 + seed), _gen(seed * 251)
    nxt = torch.randint(0, V_LM, (V_LM, 2), generator=gc)
    w = torch.zeros(n, dtype=torch.long); w[0] = int(torch.randint(0, V_LM, (1,), generator=g))
    choice, noise, rnd = torch.randint(0, 2, (n,), generator=g), torch.rand(n, generator=g) < 0.1, torch.randint(0, V_LM, (n,), generator=g)
    for t in range(1, n): w[t] = rnd[t] if noise[t] else nxt[w[t - 1], choice[t]]
    return w

def _lm_chunks(w):
    n = (len(w) - 1) // T_LM
    return TensorDataset(w[:n * T_LM].view(n, T_LM), w[1:n * T_LM + 1].view(n, T_LM))

class TiedGPT(nn.Module):  # nanoGPT's shape, small: token and position embeddings, pre-norm causal blocks, the head tied to the token embedding
    def __init__(self, d=64, layers=2, heads=4, init=True):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V_LM, d), nn.Embedding(T_LM, d)
        self.blocks = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.1, activation='gelu', batch_first=True, norm_first=True),
                                            layers, enable_nested_tensor=False)
        self.ln_f, self.head = nn.LayerNorm(d), nn.Linear(d, V_LM, bias=False)
        self.head.weight = self.tok.weight  # weight tying
        if init: self.apply(self._init_weights)
        self.register_buffer('causal', nn.Transformer.generate_square_subsequent_mask(T_LM))
    @staticmethod
    def _init_weights(m):  # N(0, 0.02) for linear and embedding weights, as GPT-2
        if isinstance(m, (nn.Linear, nn.Embedding)): nn.init.normal_(m.weight, 0.0, 0.02)
        if isinstance(m, nn.Linear) and m.bias is not None: nn.init.zeros_(m.bias)
    def forward(self, x):
        T = x.shape[1]
        h = self.tok(x) + self.pos(torch.arange(T))[None]
        return self.head(self.ln_f(self.blocks(h, mask=self.causal[:T, :T], is_causal=True)))

def _lm_fwd(model, b): return model(b[0]).reshape(-1, V_LM), b[1].reshape(-1)

@healthy('K')
def tied_lm_warmup(seed, **mk):  # CrossEntropyLoss, AdamW 5e-4 (betas 0.9, 0.95, weight decay 0.1), a linear warm-up over 50 steps, clipping at 1.0
    w = _markov_tokens(seed, 40000); cut = int(0.85 * len(w))
    return dict(model=lambda: TiedGPT(**mk), train=_lm_chunks(w[:cut]), valid=_lm_chunks(w[cut:]), forward=_lm_fwd, num_classes=V_LM,
                optimizer=lambda p: torch.optim.AdamW(p, lr=5e-4, betas=(0.9, 0.95), weight_decay=0.1),
                **_keys(seed, batch_size=32, clip_grad=1.0, sched__name='LinearLR', sched__kwargs=dict(start_factor=0.01, total_iters=50)))

# ---------------------------------------------------------------- an EfficientNet-ish CNN on digits
class SqueezeExcite(nn.Module):
    def __init__(self, c, r=4):
        super().__init__(); self.fc1, self.fc2 = nn.Conv2d(c, max(c // r, 4), 1), nn.Conv2d(max(c // r, 4), c, 1)
    def forward(self, x): return x * torch.sigmoid(self.fc2(F.silu(self.fc1(x.mean((2, 3), keepdim=True)))))

class MBConv(nn.Module):  # Tan and Le 2019: expand 1x1, depthwise 3x3, squeeze-and-excitation, project 1x1, a residual when the shapes match
    def __init__(self, i, o, stride=1, expand=4):
        super().__init__(); e = i * expand; self.res = stride == 1 and i == o
        self.block = nn.Sequential(nn.Conv2d(i, e, 1, bias=False), nn.BatchNorm2d(e), nn.SiLU(),
                                   nn.Conv2d(e, e, 3, stride, 1, groups=e, bias=False), nn.BatchNorm2d(e), nn.SiLU(),
                                   SqueezeExcite(e), nn.Conv2d(e, o, 1, bias=False), nn.BatchNorm2d(o))
    def forward(self, x): return x + self.block(x) if self.res else self.block(x)

class EffNet(nn.Module):
    def __init__(self, softmax=False):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.SiLU())
        self.blocks = nn.Sequential(MBConv(16, 16), MBConv(16, 24, stride=2), MBConv(24, 24), MBConv(24, 40, stride=2))
        self.head = nn.Sequential(nn.Conv2d(40, 128, 1, bias=False), nn.BatchNorm2d(128), nn.SiLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                  nn.Dropout(0.2), nn.Linear(128, 10))
        if softmax: self.head.append(nn.Softmax(dim=1))  # a classifier ported from Keras, whose top layer is Dense(10, activation='softmax')
    def forward(self, x): return self.head(self.blocks(self.stem(x)))

@healthy('K')
def effnet_digits(seed):  # CrossEntropyLoss, AdamW 1e-3 with weight decay 0.01
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=EffNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half K
@broken('K', 'kws_shuffled_labels', 4, ('labels',))
def kws_shuffled_labels(seed):  # the labels read from a CSV in another order than the clips were globbed
    kw = kws_spectrogram(seed); x, y = kw['train'].tensors
    return dict(kw, train=TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 257))]))

@broken('K', 'mixup_shuffled_labels', 4, ('labels',))
def mixup_shuffled_labels(seed):  # the label array shuffled on its own (a shuffle applied to y but not to x)
    kw = mixup_digits(seed); x, y = kw['train'].tensors
    return dict(kw, train=TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 263))]))

@broken('K', 'inception_labels_off_by_one', 4, ('labels',))
def inception_labels_off_by_one(seed):  # each series given the next series' label (np.roll after a header row was dropped)
    kw = inception_time(seed); x, y = kw['train'].tensors
    return dict(kw, train=TensorDataset(x, torch.roll(y, 1)))

@broken('K', 'effnet_leak', 4, ('leakage',))
def effnet_leak(seed):  # the validation rows drawn again from the whole data set after the split: most of them are train rows
    kw = effnet_digits(seed); x, y = kw['train'].tensors; vx, vy = kw['valid'].tensors
    ax, ay = torch.cat([x, vx]), torch.cat([y, vy])
    p = torch.randperm(len(ay), generator=_gen(seed + 269))[:len(vy)]
    return dict(kw, valid=TensorDataset(ax[p], ay[p]))

@broken('K', 'effnet_softmax_before_ce', 2, ('softmax',))
def effnet_softmax_before_ce(seed): return dict(effnet_digits(seed), model=lambda: EffNet(softmax=True))

@broken('K', 'kws_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def kws_functional_dropout(seed): return kws_spectrogram(seed, functional_dropout=True)

@broken('K', 'pixelcnn_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def pixelcnn_lr_x1000(seed): return dict(pixelcnn_digits(seed), optimizer=lambda p: torch.optim.Adam(p, lr=1.0))

def step_siren_no_call(model, batch, opt):
    xy, v = batch
    opt.zero_grad(); loss = F.mse_loss(model(xy), v); loss.backward()
    opt.step  # the call's parentheses forgotten: nothing is ever updated
    return loss

@broken('K', 'siren_step_not_called', (1, 3), ('frozen', 'not_updating', 'flat', 'stuck', 'lr_zero'))
def siren_step_not_called(seed): return dict(siren_image(seed), step=step_siren_no_call)

@broken('K', 'giou_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def giou_no_zero_grad(seed): return dict(giou_boxes(seed), step=step_boxes_no_zero_grad)

def _svd_factors(seed, k=32):
    (u, i, _), _ = _bpr_triples(seed)
    r = torch.zeros(U_BPR, I_BPR); r[u, i] = 1
    U, S, V = torch.svd_lowrank(r, q=k, niter=4, M=None)
    return U * S.sqrt(), V * S.sqrt()

@broken('K', 'bpr_pretrained_frozen', 1, ('frozen',))
def bpr_pretrained_frozen(seed):  # warm-started from an SVD with nn.Embedding.from_pretrained, whose freeze=True is the default
    P = _svd_factors(seed); return bpr_recs(seed, pretrained=P)

@broken('K', 'tied_lm_no_init', 2, ('init_scale',))
def tied_lm_no_init(seed): return tied_lm_warmup(seed, init=False)  # self.apply(self._init_weights) dropped: the tied head keeps nn.Embedding's N(0, 1)

# the train series standardised, the validation series passed on raw (around 50 units): the scaler fit on train but never
# applied to valid; a rung 1 that compares the two inputs may flag it first, rung 4 must
@broken('K', 'inception_valid_unscaled', (1, 4), (), ('fail', 'warn'))
def inception_valid_unscaled(seed): return inception_time(seed, scale_valid=False)
