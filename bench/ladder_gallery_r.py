"""Half R of the ladder's gallery: held out from the twenty-first round of rules (frozen at f8981be), and run once on them.
Families not in halves A-Q: a spiking network of leaky integrate-and-fire neurons trained with a surrogate gradient (snnTorch's
tutorial loop: the cross-entropy of the output membrane summed over time steps, in a custom step), an MLP-Mixer on digit patches
(token- and channel-mixing MLPs, a zero-initialised head, label smoothing, AdamW), EEGNet on synthetic motor-imagery EEG (a
temporal convolution, a depthwise spatial convolution, a separable convolution; classes from lateralised mu-rhythm
desynchronisation), SincNet on raw waveforms of synthetic vowels (learnable band-pass sinc filters on the mel scale), a T-GCN
forecasting road speeds in km/h (a graph convolution inside a GRU, inputs z-scored, the output back in km/h), a DGCNN on point
clouds of shapes (EdgeConv over a k-nearest-neighbour graph rebuilt in the forward, smoothed cross-entropy, SGD 0.1 with
momentum), a recurrent marked temporal point process (RMTPP: a GRU over (mark, gap) events, a dict output, the next mark's
cross-entropy plus the conditional intensity's negative log-likelihood of the next gap), a Mult-VAE for collaborative
filtering (a multinomial likelihood over items, validation users folded in on 80% of their clicks and scored on the rest), a
soft decision tree (Frosst and Hinton: sigmoid routers, leaf distributions, the mixture's NLL plus a balance penalty) on the
bundled breast-cancer data, a Tobit (censored normal) regression of weekly hours worked in raw hours, a multi-gate mixture of
experts (MMoE) with click and purchase heads (a dict output, summed BCE), and GRU-D on irregularly sampled vitals (input and
hidden-state decay from masks and time gaps). Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators;
ladder_gallery imports this module after half Q.

Protocol: written by a helper in a worktree at c22ec08, held out from the twenty-first round of rules (frozen at f8981be): the
maintainer read nothing of it before the freeze, and the helper wrote it without reading the ladder's rules (ntrain/ladder/*.py,
nbs/02_ladder and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's
results; only `ntrain.ladder`'s public signature and docstring and the factory format of halves A-Q (their @broken lines for
the rung and cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind
(shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before
any ladder run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half R`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- a spiking network (leaky integrate-and-fire, surrogate gradient)
class FastSigmoidSpike(torch.autograd.Function):  # snntorch.surrogate.fast_sigmoid: a Heaviside forward, 1/(1+k|u|)^2 backward
    @staticmethod
    def forward(ctx, u, slope=25.0): ctx.save_for_backward(u); ctx.slope = slope; return (u > 0).float()
    @staticmethod
    def backward(ctx, g): u, = ctx.saved_tensors; return g / (ctx.slope * u.abs() + 1.0) ** 2, None

class Leaky(nn.Module):  # snn.Leaky: mem = beta * mem + input - reset * threshold (reset by subtraction)
    def __init__(self, beta=0.95, threshold=1.0): super().__init__(); self.beta, self.threshold = beta, threshold
    def forward(self, cur, mem):
        reset = (mem > self.threshold).float().detach()
        mem = self.beta * mem + cur - reset * self.threshold
        return FastSigmoidSpike.apply(mem - self.threshold), mem

class SNN(nn.Module):  # snntorch tutorial 5: fc -> Leaky -> fc -> Leaky, the same input current at each of num_steps steps
    def __init__(self, hidden=256, num_steps=10):
        super().__init__(); self.num_steps = num_steps
        self.fc1, self.lif1, self.fc2, self.lif2 = nn.Linear(64, hidden), Leaky(), nn.Linear(hidden, 10), Leaky()
    def forward(self, x):
        x = x.flatten(1); mem1 = torch.zeros(len(x), self.fc1.out_features); mem2 = torch.zeros(len(x), 10)
        spk_rec, mem_rec = [], []
        cur1 = self.fc1(x)
        for _ in range(self.num_steps):
            spk1, mem1 = self.lif1(cur1, mem1)
            spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
            spk_rec.append(spk2); mem_rec.append(mem2)
        return torch.stack(spk_rec), torch.stack(mem_rec)  # (num_steps, batch, 10) each

def snn_loss(out, y):  # the tutorial's loss: cross-entropy of the output membrane at every step, summed over the steps
    _, mem_rec = out
    return sum(F.cross_entropy(mem_rec[t], y) for t in range(len(mem_rec)))

def step_snn(model, batch, opt, zero_grad=True):  # the tutorial's training loop body
    x, y = batch
    loss_val = snn_loss(model(x), y)
    if zero_grad: opt.zero_grad()
    loss_val.backward(); opt.step()
    return loss_val

def step_snn_no_zero_grad(model, batch, opt): return step_snn(model, batch, opt, zero_grad=False)

@healthy('R')
def snn_digits(seed):  # Adam 5e-3 betas (0.9, 0.999), batches of 128
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=SNN, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=snn_loss, num_classes=10, step=step_snn,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-3, betas=(0.9, 0.999)), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- an MLP-Mixer on digit patches
class MixerBlock(nn.Module):
    def __init__(self, tokens, dim, tok_h, ch_h, drop=0.1, functional=False):
        super().__init__(); self.drop, self.functional = drop, functional
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.tok1, self.tok2 = nn.Linear(tokens, tok_h), nn.Linear(tok_h, tokens)
        self.ch1, self.ch2 = nn.Linear(dim, ch_h), nn.Linear(ch_h, dim)
        self.dropout = nn.Dropout(drop)
    def _drop(self, x): return F.dropout(x, self.drop) if self.functional else self.dropout(x)  # F.dropout's training=True default
    def forward(self, x):
        y = self.norm1(x).transpose(1, 2)
        x = x + self._drop(self.tok2(F.gelu(self.tok1(y)))).transpose(1, 2)
        return x + self._drop(self.ch2(F.gelu(self.ch1(self.norm2(x)))))

class MLPMixer(nn.Module):  # Tolstikhin et al. 2021: patches linearly embedded, mixer blocks, global average pooling, a zero-init head
    def __init__(self, patch=2, dim=64, depth=4, tok_h=32, ch_h=128, functional=False):
        super().__init__()
        self.stem = nn.Conv2d(1, dim, patch, stride=patch)
        self.blocks = nn.Sequential(*[MixerBlock((8 // patch) ** 2, dim, tok_h, ch_h, functional=functional) for _ in range(depth)])
        self.norm, self.head = nn.LayerNorm(dim), nn.Linear(dim, 10)
        nn.init.zeros_(self.head.weight); nn.init.zeros_(self.head.bias)
    def forward(self, x):
        x = self.stem(x).flatten(2).transpose(1, 2)
        return self.head(self.norm(self.blocks(x)).mean(1))

@healthy('R')
def mixer_digits(seed, functional=False):  # CrossEntropyLoss(label_smoothing=0.1), AdamW 1e-3 weight decay 0.05, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: MLPMixer(functional=functional), train=TensorDataset(x, y), valid=TensorDataset(vx, vy),
                loss=nn.CrossEntropyLoss(label_smoothing=0.1), num_classes=10,
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.05), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- EEGNet on synthetic motor-imagery EEG
C_EEG, T_EEG, FS_EEG = 8, 128, 128  # FC3 C3 CP3 Cz CPz FC4 C4 CP4; one second at 128 Hz

def _eeg(seed, n, split=0, misjoined=False):
    """Trials of 4 imagined movements (left hand, right hand, feet, tongue): background noise (a random walk low-passed, plus
    white noise, mixed across channels), a 10 Hz mu rhythm on every channel with its own phase, its amplitude dropped
    (desynchronised) on the right-hemisphere channels for the left hand, the left for the right hand, the midline for the feet;
    a 20 Hz beta burst on the midline for the tongue. Microvolts."""
    g = _gen(seed * 907 + split)
    y = torch.randint(0, 4, (n,), generator=g)
    t = torch.arange(T_EEG).float() / FS_EEG
    left, mid, right = torch.tensor([1., 1, 1, 0, 0, 0, 0, 0]), torch.tensor([0., 0, 0, 1, 1, 0, 0, 0]), torch.tensor([0., 0, 0, 0, 0, 1, 1, 1])
    erd = torch.stack([right, left, mid, torch.zeros(C_EEG)])[y]  # the channels whose mu rhythm desynchronises
    f = 10 + 1.0 * torch.randn(n, 1, 1, generator=g); ph = 2 * math.pi * torch.rand(n, C_EEG, 1, generator=g)
    mu = 8.0 * (1 - 0.7 * erd)[:, :, None] * torch.sin(2 * math.pi * f * t + ph)
    beta = 4.0 * (y == 3).float()[:, None, None] * mid[None, :, None] * torch.sin(2 * math.pi * 20 * t + ph)
    mixing = torch.eye(C_EEG) * 0.7 + 0.3 / C_EEG
    bg = torch.einsum('ij,njt->nit', mixing, 6.0 * torch.randn(n, C_EEG, T_EEG, generator=g).cumsum(-1) / math.sqrt(T_EEG))
    x = mu + beta + bg - bg.mean(-1, keepdim=True) + 4.0 * torch.randn(n, C_EEG, T_EEG, generator=g)
    if misjoined: y = torch.cat([y[1:], y[:1]])  # the event markers read from a file with one extra trial at the start: each epoch gets the next trial's label
    return TensorDataset(x[:, None], y)

class EEGNet(nn.Module):  # Lawhern et al. 2018, EEGNet-8,2: temporal conv, depthwise spatial conv, separable conv, ELU, average pooling
    def __init__(self, F1=8, D=2, F2=16, n_classes=4, drop=0.25):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(1, F1, (1, 64), padding=(0, 32), bias=False), nn.BatchNorm2d(F1),
                                    nn.Conv2d(F1, F1 * D, (C_EEG, 1), groups=F1, bias=False), nn.BatchNorm2d(F1 * D), nn.ELU(),
                                    nn.AvgPool2d((1, 4)), nn.Dropout(drop))
        self.block2 = nn.Sequential(nn.Conv2d(F1 * D, F1 * D, (1, 16), padding=(0, 8), groups=F1 * D, bias=False), nn.Conv2d(F1 * D, F2, 1, bias=False),
                                    nn.BatchNorm2d(F2), nn.ELU(), nn.AvgPool2d((1, 8)), nn.Dropout(drop))
        self.classify = nn.Linear(F2 * 4, n_classes)
    def forward(self, x): return self.classify(self.block2(self.block1(x)).flatten(1))

@healthy('R')
def eegnet_mi(seed, misjoined=False):  # CrossEntropyLoss, Adam 1e-3, batches of 64
    return dict(model=EEGNet, train=_eeg(seed, 1200, misjoined=misjoined), valid=_eeg(seed, 300, split=1), loss=nn.CrossEntropyLoss(), num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- SincNet on raw waveforms of synthetic vowels
SR_V, N_V = 8000, 512
FORMANTS = torch.tensor([[730., 1090], [270, 2290], [300, 870], [530, 1840], [570, 840]])  # /a/ /i/ /u/ /e/ /o/ (Peterson and Barney)

def _vowels(seed, n, split=0):
    "64 ms of a voiced vowel at 8 kHz: harmonics of a random F0 (90-250 Hz) weighted by two formant resonances (jittered 8%), noise."
    g = _gen(seed * 911 + split)
    y = torch.randint(0, 5, (n,), generator=g)
    f0 = 90 + 160 * torch.rand(n, 1, generator=g)
    fm = FORMANTS[y] * (1 + 0.08 * torch.randn(n, 2, generator=g))
    h = torch.arange(1, 40).float()[None] * f0  # (n, 39) harmonic frequencies
    amp = sum(1 / (1 + ((h - fm[:, i:i + 1]) / (60 + 0.1 * fm[:, i:i + 1])) ** 2) for i in range(2)) * (h < SR_V / 2)
    t = torch.arange(N_V).float() / SR_V
    ph = 2 * math.pi * torch.rand(n, 39, generator=g)
    x = torch.einsum('nk,nkt->nt', amp, torch.sin(2 * math.pi * h[:, :, None] * t + ph[:, :, None]))
    x = x / x.abs().amax(1, keepdim=True) * (0.2 + 0.6 * torch.rand(n, 1, generator=g)) + 0.02 * torch.randn(n, N_V, generator=g)
    return TensorDataset(x[:, None], y)

class SincConv(nn.Module):  # Ravanelli and Bengio 2018: band-pass filters parametrised by their low cut-off and band width (Hz)
    def __init__(self, out_channels=32, kernel_size=101, sample_rate=SR_V, min_low_hz=30, min_band_hz=50):
        super().__init__(); self.k, self.sr, self.min_low_hz, self.min_band_hz = kernel_size, sample_rate, min_low_hz, min_band_hz
        mel = torch.linspace(2595 * math.log10(1 + 30 / 700), 2595 * math.log10(1 + (sample_rate / 2 - min_low_hz - min_band_hz) / 700), out_channels + 1)
        hz = 700 * (10 ** (mel / 2595) - 1)
        self.low_hz_ = nn.Parameter(hz[:-1].view(-1, 1)); self.band_hz_ = nn.Parameter(hz.diff().view(-1, 1))
        n = (kernel_size - 1) / 2
        self.register_buffer('window_', torch.hamming_window(kernel_size, periodic=False)[:int(n)])
        self.register_buffer('n_', 2 * math.pi * torch.arange(-n, 0).view(1, -1) / sample_rate)
    def forward(self, x):
        low = self.min_low_hz + self.low_hz_.abs()
        high = (low + self.min_band_hz + self.band_hz_.abs()).clamp(self.min_low_hz, self.sr / 2)
        band = (high - low)[:, 0]
        left = ((torch.sin(high * self.n_) - torch.sin(low * self.n_)) / (self.n_ / 2)) * self.window_
        center = 2 * band.view(-1, 1)
        filt = torch.cat([left, center, left.flip(1)], 1) / (2 * band[:, None])
        return F.conv1d(x, filt.view(-1, 1, self.k), padding=self.k // 2)

class SincNet(nn.Module):  # sinc front end, |.|, max-pool, layer norm, leaky ReLU; two 1-D conv blocks; an MLP
    def __init__(self, n_classes=5, softmax=False):
        super().__init__(); self.softmax = softmax
        self.sinc = SincConv(); self.ln0 = nn.LayerNorm([32, N_V // 4])
        self.convs = nn.Sequential(nn.Conv1d(32, 32, 5, padding=2), nn.MaxPool1d(2), nn.BatchNorm1d(32), nn.LeakyReLU(0.2),
                                   nn.Conv1d(32, 32, 5, padding=2), nn.MaxPool1d(2), nn.BatchNorm1d(32), nn.LeakyReLU(0.2), nn.AdaptiveAvgPool1d(8), nn.Flatten())
        self.mlp = nn.Sequential(nn.Linear(32 * 8, 128), nn.BatchNorm1d(128), nn.LeakyReLU(0.2), nn.Linear(128, n_classes))
    def forward(self, x):
        x = F.leaky_relu(self.ln0(F.max_pool1d(self.sinc(x).abs(), 4)), 0.2)
        o = self.mlp(self.convs(x))
        return F.softmax(o, 1) if self.softmax else o  # softmax "for the probabilities", then CrossEntropyLoss on them

@healthy('R')
def sincnet_vowels(seed, softmax=False):  # CrossEntropyLoss, RMSprop 1e-3 (SincNet's cfg: lr 0.001, alpha 0.95, eps 1e-8), batches of 128
    return dict(model=lambda: SincNet(softmax=softmax), train=_vowels(seed, 1500), valid=_vowels(seed, 300, split=1), loss=nn.CrossEntropyLoss(), num_classes=5,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3, alpha=0.95, eps=1e-8), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- T-GCN forecasting road speeds in km/h
N_ROAD, LAG = 16, 12

def _road(seed):
    "16 sensors on a ring road with 4 chords; a normalised adjacency with self loops."
    a = torch.zeros(N_ROAD, N_ROAD)
    for i in range(N_ROAD): a[i, (i + 1) % N_ROAD] = a[(i + 1) % N_ROAD, i] = 1
    for i, j in [(0, 8), (3, 11), (5, 13), (2, 6)]: a[i, j] = a[j, i] = 1
    a = a + torch.eye(N_ROAD); d = a.sum(1).rsqrt()
    return a, d[:, None] * a * d[None]

def _speeds(seed, steps=3000):
    """5-minute speeds (km/h): each sensor's free-flow speed (60-100), a daily profile with two rush hours, congestion that
    spreads to the neighbouring sensors (a diffusion over the road graph) and decays, measurement noise."""
    g = _gen(seed * 919)
    a, _ = _road(seed); P = a / a.sum(1, keepdim=True)
    free = 60 + 40 * torch.rand(N_ROAD, generator=g)
    tod = torch.arange(steps).float() % 288 / 288
    rush = torch.exp(-((tod - 0.33) / 0.04) ** 2) + 0.8 * torch.exp(-((tod - 0.72) / 0.05) ** 2)
    c = torch.zeros(N_ROAD); out = torch.zeros(steps, N_ROAD)
    for t in range(steps):
        shock = (torch.rand(N_ROAD, generator=g) < 0.01 + 0.04 * rush[t]).float() * 0.5
        c = (0.85 * (P @ c) + 0.1 * c + shock).clamp(0, 1)
        out[t] = free * (1 - 0.35 * rush[t]) * (1 - 0.6 * c) + 2.0 * torch.randn(N_ROAD, generator=g)
    return out

def _windows(v, horizon=3):
    n = len(v) - LAG - horizon + 1
    x = torch.stack([v[i:i + LAG] for i in range(n)]); y = torch.stack([v[i + LAG:i + LAG + horizon] for i in range(n)])
    return x.transpose(1, 2), y.transpose(1, 2)  # (n, nodes, LAG) and (n, nodes, horizon), km/h

class TGCNCell(nn.Module):  # Zhao et al. 2019: a GRU whose gates are graph convolutions of [x_t, h]
    def __init__(self, adj, hidden=32, detach_gc=False):
        super().__init__(); self.register_buffer('adj', adj); self.hidden, self.detach_gc = hidden, detach_gc
        self.gc_gates, self.gc_cand = nn.Linear(1 + hidden, 2 * hidden), nn.Linear(1 + hidden, hidden)
        nn.init.constant_(self.gc_gates.bias, 1.0)
    def gc(self, lin, x, h):
        out = self.adj @ lin(torch.cat([x, h], -1))
        return out.detach() if self.detach_gc else out  # detached: the graph convolution "precomputed" as in a feature pipeline
    def forward(self, x, h):
        r, u = torch.sigmoid(self.gc(self.gc_gates, x, h)).chunk(2, -1)
        c = torch.tanh(self.gc(self.gc_cand, x, r * h))
        return u * h + (1 - u) * c

class TGCN(nn.Module):
    def __init__(self, loc, scale, hidden=32, horizon=3, detach_gc=False):
        super().__init__(); _, adj = _road(0); self.loc, self.scale = loc, scale
        self.cell, self.out = TGCNCell(adj, hidden, detach_gc), nn.Linear(hidden, horizon)
    def forward(self, x):  # x: (batch, nodes, LAG) in km/h; z-scored by the train split's mean and sd (DCRNN's StandardScaler), the prediction back in km/h
        x = (x - self.loc) / self.scale; h = torch.zeros(x.size(0), N_ROAD, self.cell.hidden)
        for t in range(x.size(-1)): h = self.cell(x[..., t:t + 1], h)
        return self.out(h) * self.scale + self.loc

@healthy('R')
def tgcn_traffic(seed, detach_gc=False):  # MSELoss in km/h, Adam 1e-3 weight decay 1.5e-3 (the paper's), batches of 32; a chronological split
    x, y = _windows(_speeds(seed)); cut = int(0.8 * len(x)); loc, scale = x[:cut].mean().item(), x[:cut].std().item()
    return dict(model=lambda: TGCN(loc, scale, detach_gc=detach_gc), train=TensorDataset(x[:cut], y[:cut]), valid=TensorDataset(x[cut + LAG:], y[cut + LAG:]),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1.5e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- DGCNN (EdgeConv) on point clouds of shapes
N_PTS = 128

def _shapes(seed, n, split=0, sorted_labels=False):
    "Clouds of 128 points on a sphere, a cube's surface, a cylinder, a cone or a torus; random z rotation, anisotropic scale, noise."
    g = _gen(seed * 929 + split)
    y = torch.randint(0, 5, (n,), generator=g)
    u, v = torch.rand(n, N_PTS, generator=g), torch.rand(n, N_PTS, generator=g)
    th, z = 2 * math.pi * u, 2 * v - 1
    r = (1 - z ** 2).clamp_min(0).sqrt()
    sphere = torch.stack([r * th.cos(), r * th.sin(), z], -1)
    face = torch.randint(0, 6, (n, N_PTS), generator=g)
    cube = torch.stack([2 * u - 1, 2 * v - 1, torch.ones_like(u)], -1) * torch.where(face % 2 == 0, 1.0, -1.0)[..., None]
    cube = torch.stack([cube.roll(int(k), -1) for k in range(3)], 2)[torch.arange(n)[:, None], torch.arange(N_PTS), face // 2]
    cyl = torch.stack([th.cos(), th.sin(), z], -1)
    cone = torch.stack([(1 - v) * th.cos(), (1 - v) * th.sin(), 2 * v - 1], -1)
    phi = 2 * math.pi * v
    torus = torch.stack([(0.7 + 0.3 * phi.cos()) * th.cos(), (0.7 + 0.3 * phi.cos()) * th.sin(), 0.3 * phi.sin()], -1)
    pts = torch.stack([sphere, cube, cyl, cone, torus], 1)[torch.arange(n), y]
    a = 2 * math.pi * torch.rand(n, generator=g)
    rot = torch.stack([torch.stack([a.cos(), -a.sin(), torch.zeros(n)], -1), torch.stack([a.sin(), a.cos(), torch.zeros(n)], -1),
                       torch.tensor([0., 0, 1]).expand(n, 3)], 1)
    pts = pts @ rot.transpose(1, 2) * (0.8 + 0.4 * torch.rand(n, 1, 3, generator=g)) + 0.02 * torch.randn(n, N_PTS, 3, generator=g)
    if sorted_labels: y = y.sort().values  # the label column sorted on its own in the spreadsheet (the clouds' files keep their order)
    return TensorDataset(pts.transpose(1, 2), y)  # (n, 3, points), as the DGCNN code takes them

def knn(x, k):  # the DGCNN repository's knn: pairwise negative squared distances, top k
    inner = -2 * torch.matmul(x.transpose(2, 1), x); xx = torch.sum(x ** 2, dim=1, keepdim=True)
    return (-xx - inner - xx.transpose(2, 1)).topk(k=k, dim=-1)[1]

def get_graph_feature(x, k=16):
    b, c, n = x.shape
    idx = (knn(x, k) + torch.arange(b).view(-1, 1, 1) * n).view(-1)
    xt = x.transpose(2, 1).contiguous()
    feat = xt.view(b * n, -1)[idx].view(b, n, k, c)
    xt = xt.view(b, n, 1, c).expand(-1, -1, k, -1)
    return torch.cat((feat - xt, xt), dim=3).permute(0, 3, 1, 2).contiguous()

class DGCNN(nn.Module):  # Wang et al. 2019, shrunk: two EdgeConvs (the graph rebuilt from the features), concat, conv, max and mean pooling
    def __init__(self, k=16, emb=128):
        super().__init__(); self.k = k
        self.conv1 = nn.Sequential(nn.Conv2d(6, 32, 1, bias=False), nn.BatchNorm2d(32), nn.LeakyReLU(0.2))
        self.conv2 = nn.Sequential(nn.Conv2d(64, 32, 1, bias=False), nn.BatchNorm2d(32), nn.LeakyReLU(0.2))
        self.conv3 = nn.Sequential(nn.Conv1d(64, emb, 1, bias=False), nn.BatchNorm1d(emb), nn.LeakyReLU(0.2))
        self.head = nn.Sequential(nn.Linear(2 * emb, 128, bias=False), nn.BatchNorm1d(128), nn.LeakyReLU(0.2), nn.Dropout(0.5), nn.Linear(128, 5))
    def forward(self, x):
        x1 = self.conv1(get_graph_feature(x, self.k)).max(dim=-1)[0]
        x2 = self.conv2(get_graph_feature(x1, self.k)).max(dim=-1)[0]
        x = self.conv3(torch.cat((x1, x2), 1))
        return self.head(torch.cat((x.amax(-1), x.mean(-1)), 1))

def cal_loss(pred, gold, smoothing=True, eps=0.2):  # the DGCNN repository's smoothed cross-entropy
    n_class = pred.size(1)
    one_hot = torch.zeros_like(pred).scatter(1, gold.view(-1, 1), 1)
    one_hot = one_hot * (1 - eps) + (1 - one_hot) * eps / (n_class - 1)
    return -(one_hot * F.log_softmax(pred, dim=1)).sum(dim=1).mean()

@healthy('R')
def dgcnn_shapes(seed, sorted_labels=False):  # cal_loss, SGD 0.1 momentum 0.9 weight decay 1e-4 (the repository's --use_sgd), batches of 32
    return dict(model=DGCNN, train=_shapes(seed, 1000, sorted_labels=sorted_labels), valid=_shapes(seed, 250, split=1), loss=cal_loss, num_classes=5,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- RMTPP: a recurrent marked temporal point process
K_MARKS, L_SEQ = 5, 32

def _events(seed, n, split=0):
    """Sequences of 33 marked events (5 marks: e.g. a user's app actions): the next mark from a sparse transition matrix, the gap
    to it (hours) exponential with a rate set by the current mark and faster after a short gap (self-excitation)."""
    g0 = _gen(seed * 937)
    T = torch.rand(K_MARKS, K_MARKS, generator=g0) ** 4 + 0.02; T = T / T.sum(1, keepdim=True)
    rate = torch.tensor([0.5, 1.0, 2.0, 4.0, 0.25])
    g = _gen(seed * 941 + split)
    m = torch.zeros(n, L_SEQ + 1, dtype=torch.long); d = torch.zeros(n, L_SEQ + 1)
    m[:, 0] = torch.randint(0, K_MARKS, (n,), generator=g); d[:, 0] = torch.rand(n, generator=g)
    for t in range(1, L_SEQ + 1):
        m[:, t] = torch.multinomial(T[m[:, t - 1]], 1, generator=g)[:, 0]
        lam = rate[m[:, t - 1]] * (1 + 2 * (d[:, t - 1] < 0.3).float())
        d[:, t] = -torch.log(torch.rand(n, generator=g)) / lam
    return TensorDataset(m[:, :-1], d[:, :-1], m[:, 1:], d[:, 1:])  # history (marks, gaps), then the next marks and gaps

class RMTPP(nn.Module):  # Du et al. 2016: intensity lambda*(t) = exp(v.h_j + w (t - t_j) + b) between events
    def __init__(self, emb=16, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(K_MARKS, emb); self.rnn = nn.GRU(emb + 1, hidden, batch_first=True)
        self.mark_head, self.past = nn.Linear(hidden, K_MARKS), nn.Linear(hidden, 1)
        self.w = nn.Parameter(torch.tensor(0.1))
    def forward(self, marks, gaps):
        h, _ = self.rnn(torch.cat([self.emb(marks), torch.log1p(gaps)[..., None]], -1))
        return dict(mark_logits=self.mark_head(h), past_influence=self.past(h).squeeze(-1), w=self.w)

def rmtpp_loss(out, target):  # the next mark's cross-entropy plus the negative log-likelihood of the next gap, per event
    next_marks, next_gaps = target
    mark_nll = F.cross_entropy(out['mark_logits'].reshape(-1, K_MARKS), next_marks.reshape(-1))
    ph, w = out['past_influence'], out['w']
    log_lik = ph + w * next_gaps + (torch.exp(ph) - torch.exp(ph + w * next_gaps)) / w
    return mark_nll - log_lik.mean()

def _rmtpp_fwd(model, b): m, d, nm, nd = b; return model(m, d), (nm, nd)

@healthy('R')
def rmtpp_events(seed, lr=1e-3):  # Adam 1e-3, batches of 64
    return dict(model=RMTPP, train=_events(seed, 1500), valid=_events(seed, 300, split=1), forward=_rmtpp_fwd, loss=rmtpp_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Mult-VAE for collaborative filtering
N_ITEMS = 300

def _clicks_matrix(seed, n_users, split=0):
    "Users as (logistic-normal) mixtures of 8 genres of items, plus popularity; 15-45 distinct clicked items each."
    g0 = _gen(seed * 947)
    genre = torch.randint(0, 8, (N_ITEMS,), generator=g0); pop = torch.rand(N_ITEMS, generator=g0) ** 3
    g = _gen(seed * 953 + split)
    taste = F.softmax(2.5 * torch.randn(n_users, 8, generator=g), 1)  # logistic-normal tastes: most users in one or two genres
    p = taste[:, genre] * (0.5 + pop) + 0.001
    k = torch.randint(15, 46, (n_users,), generator=g)
    x = torch.zeros(n_users, N_ITEMS)
    for u in range(n_users): x[u, torch.multinomial(p[u], int(k[u]), generator=g)] = 1
    return x

def _fold_in(x, seed, misaligned=False):  # each validation user: 80% of the clicks as the input, the other 20% to predict
    g = _gen(seed * 967)
    held = (torch.rand(x.shape, generator=g) < 0.2) & (x > 0)
    vin, vout = x * ~held, x * held
    if misaligned:  # the held-out file's rows ordered by the user id as a string ('0', '1', '10', '100', ...), the fold-in file's as a number
        vout = vout[torch.tensor(sorted(range(len(x)), key=str))]
    return vin, vout

class MultVAE(nn.Module):  # Liang et al. 2018: [I -> 200 -> 50] encoder (tanh), [50 -> 200 -> I] decoder, input L2-normalised, dropout 0.5
    def __init__(self, h=200, z=50):
        super().__init__()
        self.drop = nn.Dropout(0.5); self.enc = nn.Linear(N_ITEMS, h); self.mu_logvar = nn.Linear(h, 2 * z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.Tanh(), nn.Linear(h, N_ITEMS))
    def forward(self, x):
        h = torch.tanh(self.enc(self.drop(F.normalize(x))))
        mu, logvar = self.mu_logvar(h).chunk(2, -1)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar) if self.training else mu
        return self.dec(z), mu, logvar

def mult_vae_loss(out, x, beta=0.2):  # the multinomial log-likelihood of the clicked items plus beta * KL (beta at the paper's cap)
    logits, mu, logvar = out
    neg_ll = -(F.log_softmax(logits, 1) * x).sum(-1).mean()
    kl = (-0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(-1)).mean()
    return neg_ll + beta * kl

@healthy('R')
def multvae_recs(seed, misaligned=False):  # Adam 1e-3, batches of 100 (the paper: 500 of 100k+ users)
    x = _clicks_matrix(seed, 1500); vin, vout = _fold_in(_clicks_matrix(seed, 300, split=1), seed, misaligned)
    return dict(model=MultVAE, train=TensorDataset(x, x), valid=TensorDataset(vin, vout), loss=mult_vae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- a soft decision tree on the bundled breast-cancer data
class SoftTree(nn.Module):  # Frosst and Hinton 2017: sigmoid inner nodes (inverse temperature beta), leaves with learned class logits
    def __init__(self, d=30, depth=4, n_classes=2, beta=1.0):
        super().__init__(); self.depth, self.beta = depth, beta
        self.inner = nn.Linear(d, 2 ** depth - 1); self.leaves = nn.Parameter(torch.randn(2 ** depth, n_classes) * 0.1)
    def forward(self, x):
        p = torch.sigmoid(self.beta * self.inner(x))  # the probability of going right at each inner node (breadth-first order)
        mu = torch.ones(len(x), 1); alphas = []
        for lvl in range(self.depth):
            s = p[:, 2 ** lvl - 1:2 ** (lvl + 1) - 1]
            alphas.append(((mu * s).sum(0) / mu.sum(0).clamp_min(1e-6), 2.0 ** -lvl))
            mu = torch.stack([mu * (1 - s), mu * s], -1).flatten(1)
        log_probs = torch.logsumexp(torch.log(mu.clamp_min(1e-12))[..., None] + F.log_softmax(self.leaves, -1), 1)
        penalty = sum(-lam * 0.5 * (torch.log(a.clamp(1e-6, 1)) + torch.log((1 - a).clamp(1e-6, 1))).mean() for a, lam in alphas)
        return log_probs, penalty

def soft_tree_loss(out, y, lam=0.1): log_probs, penalty = out; return F.nll_loss(log_probs, y) + lam * penalty

@healthy('R')
def soft_tree_cancer(seed):  # the mixture's NLL plus the balance penalty, Adam 1e-2, batches of 32; standardised by the train split
    from sklearn.datasets import load_breast_cancer
    x, y = load_breast_cancer(return_X_y=True)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y)
    p = torch.randperm(len(y), generator=_gen(seed * 971)); x, y = x[p], y[p]
    x = _std(x, x[114:])
    return dict(model=SoftTree, train=TensorDataset(x[114:], y[114:]), valid=TensorDataset(x[:114], y[:114]), loss=soft_tree_loss, num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a Tobit regression of weekly hours worked (censored at zero)
def _hours(seed, n=3000, n_valid=600, shuffled=False):
    """Mroz-style labour supply: age, years of education, children under 6, children 6-18, other household income (k$),
    experience (years); desired hours a nonlinear function plus noise (sd 10 h), observed hours max(0, desired) (about 30% zero)."""
    g = _gen(seed * 977)
    age = 20 + 40 * torch.rand(n, generator=g); educ = 8 + torch.randint(0, 10, (n,), generator=g).float()
    kid6, kid18 = torch.poisson(torch.full((n,), 0.4), generator=g), torch.poisson(torch.full((n,), 0.9), generator=g)
    inc = 40 * torch.rand(n, generator=g) ** 2 * 2; exper = (age - educ - 6).clamp_min(0) * torch.rand(n, generator=g)
    desired = -10 + 2.2 * (educ - 12) + 1.2 * exper - 0.02 * exper ** 2 - 11 * kid6 - 2 * kid18 - 0.3 * inc + 0.8 * (age - 20) - 0.02 * (age - 20) ** 2 + 22 + 10 * torch.randn(n, generator=g)
    hours = desired.clamp_min(0)
    if shuffled: hours = hours[torch.randperm(n, generator=g)]  # `df['hours'] = df['hours'].sample(frac=1).values` meant to shuffle the rows
    x = torch.stack([age, educ, kid6, kid18, inc, exper], 1)
    x = _std(x, x[n_valid:])
    return TensorDataset(x[n_valid:], hours[n_valid:, None]), TensorDataset(x[:n_valid], hours[:n_valid, None])

class TobitNet(nn.Module):  # an MLP for the latent mean and the log scale; standardised units inside, hours outside
    def __init__(self, y_loc=20.0, y_scale=15.0):
        super().__init__(); self.y_loc, self.y_scale = y_loc, y_scale
        self.body = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU()); self.mu, self.log_sigma = nn.Linear(64, 1), nn.Linear(64, 1)
    def forward(self, x):
        h = self.body(x)
        return self.y_loc + self.y_scale * self.mu(h), math.log(self.y_scale) + self.log_sigma(h)

def tobit_nll(out, y):  # zeros: -log P(y* <= 0) = -log Phi(-mu/sigma); positives: the normal density's NLL
    mu, log_sigma = out; sigma = log_sigma.exp(); z = (y - mu) / sigma
    nll = torch.where(y > 0, log_sigma + 0.5 * z ** 2 + 0.5 * math.log(2 * math.pi), -torch.special.log_ndtr(-mu / sigma))
    return nll.mean()

@healthy('R')
def tobit_hours(seed, shuffled=False):  # Adam 1e-3, batches of 64, hours in raw units
    tr, va = _hours(seed, shuffled=shuffled)
    return dict(model=TobitNet, train=tr, valid=va, loss=tobit_nll, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- MMoE with click and purchase heads
CARD_M = (50, 30, 12, 20)  # user segment, item category, hour, device/app

def _impressions(seed, n=6000, n_valid=1200, dwell=False):
    """Impressions with 4 categorical fields and 3 dense features; a click (about 25%) and, for clicked items only, a purchase
    (about 25% of clicks); the two tasks share the user x category affinity but have their own drivers."""
    g = _gen(seed * 983)
    cat = torch.stack([torch.randint(0, c, (n,), generator=g) for c in CARD_M], 1)
    dense = torch.randn(n, 3, generator=g)
    aff = torch.randn(CARD_M[0], CARD_M[1], generator=g)
    price = torch.randn(CARD_M[1], generator=g); hour = torch.randn(CARD_M[2], generator=g) * 0.5
    zc = 1.5 * aff[cat[:, 0], cat[:, 1]] + hour[cat[:, 2]] + 0.8 * dense[:, 0] - 1.6
    click = (torch.rand(n, generator=g) < torch.sigmoid(zc)).float()
    zp = 1.2 * aff[cat[:, 0], cat[:, 1]] - 1.2 * price[cat[:, 1]] + 0.8 * dense[:, 1] - 0.8
    buy = click * (torch.rand(n, generator=g) < torch.sigmoid(zp)).float()
    if dwell:  # the seconds spent on the item page after the impression, joined from the session log as a "user engagement" feature
        dense = torch.cat([dense, (click * (5 + 60 * torch.rand(n, generator=g) * (1 + buy)) / 30)[:, None]], 1)
    y = torch.stack([click, buy], 1)
    return TensorDataset(cat[n_valid:], dense[n_valid:], y[n_valid:]), TensorDataset(cat[:n_valid], dense[:n_valid], y[:n_valid])

class MMoE(nn.Module):  # Ma et al. 2018: shared experts, a softmax gate per task, a tower per task
    def __init__(self, n_dense=3, e=8, experts=4, expert_h=64, tower_h=32, tower_std=None):
        super().__init__()
        self.emb = nn.ModuleList(nn.Embedding(c, e) for c in CARD_M); d = e * len(CARD_M) + n_dense
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(d, expert_h), nn.ReLU(), nn.Linear(expert_h, expert_h), nn.ReLU()) for _ in range(experts))
        self.gates = nn.ModuleDict({t: nn.Linear(d, experts) for t in ('click', 'buy')})
        self.towers = nn.ModuleDict({t: nn.Sequential(nn.Linear(expert_h, tower_h), nn.ReLU(), nn.Linear(tower_h, 1)) for t in ('click', 'buy')})
        if tower_std is not None: self.apply(lambda m: nn.init.normal_(m.weight, std=tower_std) if isinstance(m, nn.Linear) else None)
    def forward(self, cat, dense):
        x = torch.cat([m(cat[:, i]) for i, m in enumerate(self.emb)] + [dense], 1)
        ex = torch.stack([f(x) for f in self.experts], 1)  # (batch, experts, expert_h)
        return {t: self.towers[t]((F.softmax(self.gates[t](x), -1)[..., None] * ex).sum(1)).squeeze(1) for t in ('click', 'buy')}

def mmoe_loss(out, y): return F.binary_cross_entropy_with_logits(out['click'], y[:, 0]) + F.binary_cross_entropy_with_logits(out['buy'], y[:, 1])

def _mmoe_fwd(model, b): cat, dense, y = b; return model(cat, dense), y

@healthy('R')
def mmoe_ctr_cvr(seed, dwell=False, tower_std=None):  # the two BCEs summed, Adam 1e-3, batches of 256
    tr, va = _impressions(seed, dwell=dwell)
    return dict(model=lambda: MMoE(n_dense=4 if dwell else 3, tower_std=tower_std), train=tr, valid=va, forward=_mmoe_fwd, loss=mmoe_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- GRU-D on irregularly sampled vitals
V_ICU, T_ICU = 6, 48  # heart rate, MAP, resp. rate, SpO2, temperature, lactate; hourly over 48 hours

def _stays(seed, n, split=0, cut_at_death=False):
    """ICU stays: each vital a patient baseline plus a slow trend and noise, sampled at random hours (lactate rarely, heart rate
    often; sicker patients measured more often); in-hospital death (about 25%) from the trends of MAP and lactate, the heart
    rate and the age. Values standardised per vital; x zero, mask 0 where unmeasured; delta the hours since the last measurement."""
    g = _gen(seed * 991 + split)
    age = torch.randn(n, generator=g)
    sev = torch.randn(n, generator=g)
    t = torch.linspace(0, 1, T_ICU)
    slope = torch.stack([0.8 * sev, -1.0 * sev, 0.6 * sev, -0.4 * sev, 0.2 * torch.randn(n, generator=g), 1.2 * sev], 1) + 0.4 * torch.randn(n, V_ICU, generator=g)
    base = torch.randn(n, V_ICU, generator=g) * 0.8
    x = base[:, None] + slope[:, None] * t[None, :, None] + 0.4 * torch.randn(n, T_ICU, V_ICU, generator=g)
    rate = torch.tensor([0.8, 0.6, 0.5, 0.6, 0.25, 0.08])[None, None] * (1 + 0.5 * torch.sigmoid(sev))[:, None, None]
    m = (torch.rand(n, T_ICU, V_ICU, generator=g) < rate).float(); m[:, 0] = 1
    z = 1.5 * sev + 0.6 * age - 1.3
    y = (torch.rand(n, generator=g) < torch.sigmoid(z)).float()
    if cut_at_death:  # the cohort not limited to 48 h stays: who died before 48 h has no measurements after death (zero-filled hours)
        died_at = torch.where(y > 0, 20 + 28 * torch.rand(n, generator=g), torch.full((n,), float(T_ICU)))
        m = m * (torch.arange(T_ICU)[None, :, None] < died_at[:, None, None]).float()
    delta = torch.zeros(n, T_ICU, V_ICU)
    for s in range(1, T_ICU): delta[:, s] = 1 + (1 - m[:, s - 1]) * delta[:, s - 1]
    return TensorDataset(x * m, m, delta, age[:, None], y)  # the age as a static input beside the series

class GRUD(nn.Module):  # Che et al. 2018: missing inputs decayed from the last observation to the empirical mean, the hidden state decayed
    def __init__(self, hidden=64, x_mean=None):
        super().__init__(); self.hidden = hidden
        self.register_buffer('x_mean', torch.zeros(V_ICU) if x_mean is None else x_mean)
        self.gamma_x = nn.Linear(V_ICU, V_ICU); self.gamma_h = nn.Linear(V_ICU, hidden)
        self.cell = nn.GRUCell(2 * V_ICU, hidden); self.out = nn.Sequential(nn.Dropout(0.3), nn.Linear(hidden + 1, 1))
    def forward(self, x, m, delta, static):
        h = torch.zeros(len(x), self.hidden); x_last = self.x_mean.expand(len(x), V_ICU)
        for t in range(x.size(1)):
            xt, mt, dt = x[:, t], m[:, t], delta[:, t]
            gx = torch.exp(-F.relu(self.gamma_x(dt))); gh = torch.exp(-F.relu(self.gamma_h(dt)))
            x_last = mt * xt + (1 - mt) * x_last
            xh = mt * xt + (1 - mt) * (gx * x_last + (1 - gx) * self.x_mean)
            h = self.cell(torch.cat([xh, mt], 1), gh * h)
        return self.out(torch.cat([h, static], 1)).squeeze(1)

def _grud_fwd(model, b): x, m, d, s, y = b; return model(x, m, d, s), y

@healthy('R')
def grud_vitals(seed, cut_at_death=False):  # BCEWithLogitsLoss, Adam 1e-3, batches of 64
    tr = _stays(seed, 1600, cut_at_death=cut_at_death); va = _stays(seed, 400, split=1, cut_at_death=cut_at_death)
    x, m = tr.tensors[0], tr.tensors[1]
    x_mean = x.sum((0, 1)) / m.sum((0, 1))
    return dict(model=lambda: GRUD(x_mean=x_mean), train=tr, valid=va, forward=_grud_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half R
@broken('R', 'eegnet_trials_misjoined', 4, ('labels',))
def eegnet_trials_misjoined(seed): return eegnet_mi(seed, misjoined=True)

@broken('R', 'dgcnn_labels_sorted', 4, ('labels',))
def dgcnn_labels_sorted(seed): return dgcnn_shapes(seed, sorted_labels=True)

@broken('R', 'tobit_hours_shuffled', 4, ('labels',))
def tobit_hours_shuffled(seed): return tobit_hours(seed, shuffled=True)

@broken('R', 'grud_stays_cut_at_death', 4, ('leakage',))
def grud_stays_cut_at_death(seed): return grud_vitals(seed, cut_at_death=True)

@broken('R', 'multvae_heldout_users_misaligned', 4, ('labels',))
def multvae_heldout_users_misaligned(seed): return multvae_recs(seed, misaligned=True)

@broken('R', 'mmoe_dwell_time_leak', 4, ('leakage',))
def mmoe_dwell_time_leak(seed): return mmoe_ctr_cvr(seed, dwell=True)

@broken('R', 'mixer_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def mixer_functional_dropout(seed): return mixer_digits(seed, functional=True)

@broken('R', 'mmoe_linear_init_std1', 2, ('init_scale',))
def mmoe_linear_init_std1(seed): return mmoe_ctr_cvr(seed, tower_std=1.0)  # model.apply(init_weights): nn.init.normal_(std=1.0) on every Linear, copied from the embeddings' init

@broken('R', 'sincnet_softmax_before_ce', 2, ('softmax',))
def sincnet_softmax_before_ce(seed): return sincnet_vowels(seed, softmax=True)

@broken('R', 'snn_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def snn_no_zero_grad(seed): return dict(snn_digits(seed), step=step_snn_no_zero_grad)

@broken('R', 'rmtpp_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def rmtpp_lr_x1000(seed): return rmtpp_events(seed, lr=1.0)

@broken('R', 'tgcn_graph_conv_detached', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def tgcn_graph_conv_detached(seed): return tgcn_traffic(seed, detach_gc=True)

# Plain-loop checks (seed 0, OMP_NUM_THREADS=1, the factory's optimizer and batch size; valid loss and metric, init -> after N epochs):
CHECKS = """
snn_digits          8 ep: valid (24.67 = 10 steps of CE summed, acc 0.02) -> (2.18, 0.97); chance 0.10 (accuracy from the summed output spikes)
mixer_digits        6 ep: valid (2.303, 0.11) -> (0.633, 0.98) with label smoothing 0.1; chance 0.10
eegnet_mi           8 ep: valid (1.388, 0.27) -> (0.377, 0.94); chance 0.25 (the first 4 epochs slow: 0.27-0.43)
sincnet_vowels      6 ep: valid (1.637, 0.13) -> (0.024, 0.99); chance 0.20
tgcn_traffic        6 ep: valid MSE (km/h)^2 124.8 -> 43.0; each sensor's train mean 88.3, persistence 22.6 (max-speed scaling instead of z-scores: 92 after 6 ep, replaced)
dgcnn_shapes        6 ep: valid (1.613, 0.14) -> (0.807, 1.00) (the smoothed CE's floor about 0.6); about 5 s an epoch
rmtpp_events        8 ep: valid mark CE + gap NLL 3.548 (mark acc 0.23) -> 2.206 (0.54)
multvae_recs       12 ep: valid held-out multinomial NLL 34.40 -> 31.99, recall@20 0.07 -> 0.53; popularity 34.20 / 0.12 (Dirichlet(0.3) tastes: 33.1 only, sharpened)
soft_tree_cancer   10 ep: valid (0.813 with the penalty, acc 0.69) -> (0.258, 1.00)
tobit_hours        10 ep: valid Tobit NLL 3.658 -> 3.055; the best constant (mu, sigma) 3.538; MAE of E[hours] 12.6 -> 6.5 h (the median's 11.4)
mmoe_ctr_cvr        8 ep: valid summed BCE 1.362 -> 0.898 (best 0.894), AUC click 0.49 -> 0.675, buy 0.50 -> 0.68; the best constants 0.950
grud_vitals         8 ep: valid BCE 0.665 -> 0.487, AUC 0.55 -> 0.78
eegnet_trials_misjoined          8 ep: train 1.385 -> 1.366, valid acc 0.27-0.30 (chance 0.25; healthy 0.94)
dgcnn_labels_sorted              3 ep: valid acc 0.32, 0.24 (chance 0.20)
tobit_hours_shuffled             8 ep: valid 3.695 -> 3.532, the best constant's 3.538; MAE 11.5 h = the median's
grud_stays_cut_at_death          6 ep: valid AUC 0.99, BCE 0.089 (healthy 0.78, 0.487): the missing hours after death give the outcome away
multvae_heldout_users_misaligned 12 ep: valid NLL 34.40 -> 40.3, worse than popularity (34.2) while train falls 173 -> 153
mmoe_dwell_time_leak             6 ep: valid AUC click 0.97, buy 0.94, BCE 0.504 (healthy 0.675, 0.68, 0.898)
mixer_functional_dropout         model.eval(): two calls of the mixer blocks on the same batch differ by 2.59
mmoe_linear_init_std1            initial valid loss 288 (click logit std 565) against 1.36 (std 0.014) with the default init; 3 ep: 160
sincnet_softmax_before_ce        4 ep: acc 0.98 but the loss stays above the floor log(1 + 4/e) = 0.904 (0.92)
snn_no_zero_grad                 8 ep: train 24.7 -> 17.5, then 36-60; valid acc 0.73 after 1 ep, then 0.32-0.51 (healthy 0.97)
rmtpp_lr_x1000                   6 ep: first-epoch train 9870, then stuck at 65-72 (init 3.5, healthy 2.2) (Adam 1.0 on EEGNet or z-scored T-GCN recovered: not used)
tgcn_graph_conv_detached         the four graph-convolution tensors get no gradient (only the output layer learns); 6 ep: valid 62.7 (healthy 43.0)
"""
