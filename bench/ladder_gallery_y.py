"""Half Y of the ladder's gallery: held out from the rules frozen at 49a66b0 (round 37 and 37b), and run once on them.
Families not in halves A-X: PhaseNet (Zhu and Beroza: a 1-D U-Net with kernels of 7, stride-4 downsampling and batch norm, a
softmax over noise, P and S per sample, the cross-entropy against Gaussian label curves; Adam 1e-2) picking the P and S
arrivals of synthetic three-component seismograms, windows cut once from longer traces; TempCNN (Pelletier et al.: three
temporal convolutions with batch norm and dropout, a dense layer) classifying crop types from Sentinel-2-like pixel time
series of parcels with their own sowing dates and clouds, split by parcel; O'Shea and Hoydis' autoencoder of a communication
system (16 messages over 7 channel uses, the energy normalised, AWGN at Eb/N0 7 dB drawn in the forward, the cross-entropy
over the messages); scVI (Lopez et al., scvi-tools' defaults: log1p counts into a Gaussian encoder, a softmax decoder scaled
by the observed library size, a negative-binomial likelihood with gene-wise dispersions, the KL; a tuple output and a loss
of its own; Adam with eps 0.01) of synthetic single-cell counts; a GRU4Rec-style session recommender (an item embedding, a
GRU, scores over every item from its last state) trained on every prefix of each click session (Tan et al.'s augmentation),
the sessions split first; PCNN (Zeng et al., as OpenNRE's sentence-level model: word and position embeddings, piecewise max
pooling between the two entities, SGD 0.1; OpenNRE's (label, token, pos1, pos2, mask) items and a forward of its own)
extracting relations from a distantly supervised synthetic corpus, split by entity pair; deep hedging (Buehler et al.: one
network shared over 30 days that sees its previous holding, a learnt premium, proportional costs; the quadratic error of the
terminal wealth against the call's payoff, in dollars) under geometric Brownian motion; photometric redshifts (an ANNz-style
tanh MLP on five magnitudes and four colours, the MSE) of a magnitude-limited synthetic ugriz catalogue, the spectroscopic
redshifts merged on object ids; a linear SVM (the hinge loss on -1/+1 labels, weight decay as the L2 penalty, SGD) on the
bundled breast-cancer data; music auto-tagging (Choi et al.'s FCN-4 shrunk: 3x3 convolutions with batch norm and max pooling,
a 1x1 convolution to ten tags, BCE with logits) of synthetic log-frequency spectrograms mixing instruments, a beat and a
choir; HED (Xie and Tu: three VGG-style stages with side outputs upsampled to the input and fused, the class-balanced BCE
summed over pixels and outputs as the Caffe original, SGD with momentum; a tuple of four maps as the output) detecting the
edges of synthetic scenes of shapes; and learned image compression with a factorized prior (Balle et al.: GDN analysis and
synthesis transforms, additive uniform noise for the quantiser in training and rounding in evaluation, a learnt density per
latent channel, CompressAI's lambda * 255^2 * MSE + bits per pixel; a tuple output; Adam 1e-4) of digits upsampled to 16x16.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half X.

Protocol: written by a helper in a worktree at ec202e8, held out from the rules frozen at 49a66b0 (round 37 and 37b): the maintainer
read nothing of it before the freeze, and the helper wrote it without reading the ladder's rules (ntrain/ladder/*.py,
nbs/02_ladder and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's
results; only `ntrain.ladder`'s public signature and docstring and the factory format of halves A-X (their @broken lines for
the rung and cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind
(shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before
any ladder run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half Y`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
from collections import Counter
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- PhaseNet picking P and S arrivals on three-component seismograms
FS_PN, RAW_PN, WIN_PN, SIG_PN = 50, 1024, 512, 5  # 50 Hz; raw traces of 1024 samples (20 s) cut to windows of 512; label Gaussians of 5 samples (0.1 s)

def _seismograms(seed, n, split):
    """Raw three-component (Z, N, E) traces of a local event: a P burst (5-10 Hz, mostly on Z) at tp, an S burst (1.5-4 Hz,
    1.5-4 times larger, mostly on the horizontals) 25-200 samples later, each with a decaying coda; background noise of AR(1)
    colour and a 0.2-0.5 Hz microseism, the P amplitude 1.5-20 times the noise (log-uniform). Returns the traces (n, 3, 1024)
    and the catalogue's picks tp, ts in samples from the trace start."""
    g = _gen(seed * 1601 + split); t = torch.arange(RAW_PN).float()
    u = lambda a, b, *s: a + (b - a) * torch.rand(n, *s, generator=g)
    tp = torch.randint(260, 501, (n, 1), generator=g).float(); ts = tp + torch.randint(25, 201, (n, 1), generator=g).float()
    def burst(t0, f, tau, amp):
        dt = (t - t0).clamp(min=0); env = (t >= t0) * torch.exp(-dt / tau) * (1 - torch.exp(-dt / 2))
        ph = 2 * math.pi * torch.rand(n, 1, generator=g)
        w = torch.sin(2 * math.pi * f * t / FS_PN + ph) + 0.5 * torch.sin(2 * math.pi * 1.7 * f * t / FS_PN + 2 * ph)
        return amp * env * w
    p = burst(tp, u(5, 10, 1), u(15, 50, 1), 1.0); s = burst(ts, u(1.5, 4, 1), u(40, 120, 1), u(1.5, 4, 1))
    pol_p = torch.stack([torch.ones(n), u(-0.4, 0.4), u(-0.4, 0.4)], 1)[..., None]; pol_s = torch.stack([u(-0.25, 0.25), u(0.5, 1), u(0.5, 1)], 1)[..., None]
    sig = pol_p * p[:, None] + pol_s * s[:, None]
    e = torch.randn(n, 3, RAW_PN, generator=g); noise = torch.zeros_like(e)
    for k in range(1, RAW_PN): noise[..., k] = 0.8 * noise[..., k - 1] + e[..., k]
    noise = noise / noise.std(-1, keepdim=True) + u(0.5, 2, 3, 1) * torch.sin(2 * math.pi * u(0.2, 0.5, 3, 1) * t / FS_PN + 2 * math.pi * torch.rand(n, 3, 1, generator=g))
    snr = torch.exp(u(math.log(1.5), math.log(20), 1, 1))
    return sig * snr / 0.7 + noise, tp[:, 0], ts[:, 0]

def _pick_windows(seed, n, split, picks_from_trace_start=False):
    """Windows of 512 samples cut once when the dataset is written (the P arrival 20-250 samples in), each component demeaned and
    divided by its std as PhaseNet's reader; labels (n, 3, 512): Gaussians of sigma 5 samples at the P and S picks, noise the
    rest. picks_from_trace_start: the catalogue's picks (samples from the raw trace's start) used as they are, not shifted by
    the window's start."""
    x, tp, ts = _seismograms(seed, n, split); g = _gen(seed * 1601 + 7 + split)
    start = (tp - torch.randint(20, 251, (n,), generator=g).float()).long()
    w = torch.stack([x[k, :, int(start[k]):int(start[k]) + WIN_PN] for k in range(n)])
    w = (w - w.mean(-1, keepdim=True)) / w.std(-1, keepdim=True)
    ip, is_ = (tp, ts) if picks_from_trace_start else (tp - start, ts - start)
    i = torch.arange(WIN_PN).float()
    yp, ys = torch.exp(-(i - ip[:, None]) ** 2 / (2 * SIG_PN ** 2)), torch.exp(-(i - is_[:, None]) ** 2 / (2 * SIG_PN ** 2))
    y = torch.stack([(1 - yp - ys).clamp(min=0), yp, ys], 1)
    return TensorDataset(w, y)

class PhaseNet(nn.Module):  # Zhu and Beroza 2019: a 1-D U-Net, kernels of 7, stride-4 downsampling, filters 8-11-16-22 (one level fewer for 512 samples), batch norm, softmax over noise/P/S
    def __init__(self, f=(8, 11, 16, 22)):
        super().__init__(); cbr = lambda a, b, s=1: nn.Sequential(nn.Conv1d(a, b, 7, stride=s, padding=3, bias=False), nn.BatchNorm1d(b), nn.ReLU())
        self.inc = cbr(3, f[0]); self.down = nn.ModuleList([nn.Sequential(cbr(f[i], f[i]), cbr(f[i], f[i + 1], 4)) for i in range(len(f) - 1)])
        self.bottom = cbr(f[-1], f[-1])
        self.up = nn.ModuleList([nn.Sequential(nn.ConvTranspose1d(f[i + 1], f[i], 7, stride=4, padding=2, output_padding=1, bias=False), nn.BatchNorm1d(f[i]), nn.ReLU())
                                 for i in reversed(range(len(f) - 1))])
        self.merge = nn.ModuleList([cbr(2 * f[i], f[i]) for i in reversed(range(len(f) - 1))]); self.out = nn.Conv1d(f[0], 3, 1)
    def forward(self, x):  # (B, 3, 512) -> logits (B, 3, 512)
        h = self.inc(x); skips = []
        for d in self.down: skips.append(d[0](h)); h = d[1](skips[-1])
        h = self.bottom(h)
        for u, m, s in zip(self.up, self.merge, reversed(skips)): h = m(torch.cat([s, u(h)], 1))
        return self.out(h)

@healthy('Y')
def phasenet_picks(seed, picks_from_trace_start=False):  # the cross-entropy against the soft label curves, Adam 1e-2 (PhaseNet's and SeisBench's), batches of 32
    return dict(model=PhaseNet, train=_pick_windows(seed, 2000, 0, picks_from_trace_start), valid=_pick_windows(seed, 500, 1, picks_from_trace_start),
                loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- TempCNN classifying crop types from Sentinel-2-like pixel time series
N_DATES, N_BANDS_TC, N_CROPS = 24, 4, 8  # 24 acquisition dates over a season, 4 bands (blue, green, red, near infrared), 8 crops

def _parcels(seed, n_parcels=400):
    """Pixel time series of 400 parcels (8-16 pixels each). Each crop's greenness follows a double logistic over the season
    (green-up, senescence, peak; winter wheat and barley alike, maize and sunflower alike, a meadow green throughout, one crop
    cut twice); each parcel shifts it by its own sowing date (sd 1 date) and scales it (0.85-1.15), has its own soil brightness,
    and 1-4 cloudy dates that cover all its pixels; pixels add their own noise (0.01) and a small greenness offset. Bands from
    the greenness: red and blue fall, near infrared rises. Returns x (N, 24, 4), y (N,), the parcel of each pixel (N,)."""
    g = _gen(seed * 1607); t = torch.arange(N_DATES).float()
    up = torch.tensor([3.0, 3.5, 9.0, 10.0, 6.0, 0.0, 5.0, 7.0]); down = torch.tensor([14.0, 13.0, 19.0, 18.5, 16.0, 30.0, 11.0, 21.0])
    peak = torch.tensor([0.75, 0.7, 0.85, 0.7, 0.8, 0.45, 0.65, 0.6]); base = torch.tensor([0.25, 0.25, 0.1, 0.1, 0.15, 0.45, 0.15, 0.15])
    crop = torch.randint(0, N_CROPS, (n_parcels,), generator=g); shift = torch.randn(n_parcels, generator=g)
    amp = 0.85 + 0.3 * torch.rand(n_parcels, generator=g); soil = 0.04 * torch.randn(n_parcels, generator=g)
    tt = t - shift[:, None]
    v = base[crop, None] + amp[:, None] * (peak - base)[crop, None] * (torch.sigmoid((tt - up[crop, None]) / 1.2) - torch.sigmoid((tt - down[crop, None]) / 1.2))
    cut = crop == 6; v[cut] = v[cut] + 0.5 * (torch.sigmoid((tt[cut] - 14) / 1.0) - torch.sigmoid((tt[cut] - 19) / 1.0)) * (peak[6] - base[6])  # regrowth after the first cut
    cloud = torch.zeros(n_parcels, N_DATES)
    for k in range(n_parcels): cloud[k, torch.randperm(N_DATES, generator=g)[:int(torch.randint(1, 5, (1,), generator=g))]] = 0.2 + 0.4 * torch.rand(1, generator=g)
    xs, ys, ps = [], [], []
    for k in range(n_parcels):
        m = int(torch.randint(8, 17, (1,), generator=g)); vv = (v[k] + 0.03 * torch.randn(m, 1, generator=g)).clamp(0, 1)
        refl = torch.stack([0.08 - 0.04 * vv, 0.1 - 0.02 * vv, 0.14 - 0.1 * vv, 0.2 + 0.35 * vv], -1) + soil[k]
        refl = refl + cloud[k][:, None] * (1 + 0.1 * torch.randn(m, N_DATES, 1, generator=g)) + 0.01 * torch.randn(m, N_DATES, N_BANDS_TC, generator=g)
        xs.append(refl); ys.append(torch.full((m,), int(crop[k]))); ps.append(torch.full((m,), k))
    return torch.cat(xs), torch.cat(ys), torch.cat(ps)

def _crop_split(seed, random_pixels=False):
    """Healthy: 80% of the parcels train, 20% valid (all of a parcel's pixels on one side). random_pixels: the pixels split 80/20
    at random (a parcel's pixels, its clouds and sowing date on both sides). Bands standardised by the train pixels' statistics."""
    x, y, parcel = _parcels(seed); g = _gen(seed * 1607 + 1)
    if random_pixels: va = torch.zeros(len(y), dtype=torch.bool); va[torch.randperm(len(y), generator=g)[:len(y) // 5]] = True
    else: vp = torch.randperm(int(parcel.max()) + 1, generator=g)[:(int(parcel.max()) + 1) // 5]; va = torch.isin(parcel, vp)
    mu, sd = x[~va].mean((0, 1)), x[~va].std((0, 1))
    return TensorDataset((x[~va] - mu) / sd, y[~va]), TensorDataset((x[va] - mu) / sd, y[va])

class TempCNN(nn.Module):  # Pelletier et al. 2019: three temporal convolutions (64 filters of 5, batch norm, ReLU, dropout 0.2), flattened into a dense 256, a softmax layer
    def __init__(self, c=64, h=256, drop=0.2):
        super().__init__(); blk = lambda a: [nn.Conv1d(a, c, 5, padding=2), nn.BatchNorm1d(c), nn.ReLU(), nn.Dropout(drop)]
        self.conv = nn.Sequential(*blk(N_BANDS_TC), *blk(c), *blk(c))
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(c * N_DATES, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Dropout(drop), nn.Linear(h, N_CROPS))
    def forward(self, x): return self.fc(self.conv(x.transpose(1, 2)))  # (B, 24 dates, 4 bands) -> logits

@healthy('Y')
def tempcnn_crops(seed, random_pixels=False):  # CrossEntropyLoss, Adam 1e-3, batches of 32
    tr, va = _crop_split(seed, random_pixels=random_pixels)
    return dict(model=TempCNN, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=N_CROPS,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- an autoencoder of a communication system (O'Shea and Hoydis 2017)
M_CH, N_CU, EBN0_DB = 16, 7, 7.0  # 16 messages (4 bits) over 7 channel uses, trained at Eb/N0 = 7 dB

class ChannelAE(nn.Module):  # O'Shea and Hoydis: a one-hot message, Dense(M, relu), Dense(n), the energy normalised to n, AWGN, Dense(M, relu), Dense(M) (softmax in Keras)
    def __init__(self, softmax_out=False):
        super().__init__(); self.softmax_out = softmax_out
        self.enc = nn.Sequential(nn.Linear(M_CH, M_CH), nn.ReLU(), nn.Linear(M_CH, N_CU))
        self.dec = nn.Sequential(nn.Linear(N_CU, M_CH), nn.ReLU(), nn.Linear(M_CH, M_CH))
        self.noise_std = math.sqrt(1 / (2 * (math.log2(M_CH) / N_CU) * 10 ** (EBN0_DB / 10)))
    def forward(self, m):  # message ids (B,) -> logits over the 16 messages; the channel's noise drawn afresh in training and evaluation alike (the BLER is measured through it)
        x = self.enc(F.one_hot(m, M_CH).float()); x = math.sqrt(N_CU) * F.normalize(x, dim=1)
        y = self.dec(x + self.noise_std * torch.randn_like(x))
        return F.softmax(y, dim=1) if self.softmax_out else y  # softmax_out: Keras' Dense(M, activation='softmax') ported as it is

def _messages(seed, n, split): m = torch.randint(0, M_CH, (n,), generator=_gen(seed * 1609 + split)); return TensorDataset(m, m.clone())

@healthy('Y')
def channel_autoencoder(seed, softmax_out=False):  # CrossEntropyLoss, Adam 1e-3, batches of 64 random messages
    return dict(model=lambda: ChannelAE(softmax_out=softmax_out), train=_messages(seed, 10000, 0), valid=_messages(seed, 2000, 1),
                loss=nn.CrossEntropyLoss(), num_classes=M_CH, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- scVI: a variational autoencoder of single-cell gene counts
N_GENES, N_TYPES = 200, 6

def _cells(seed, n=2500):
    """UMI counts of 200 genes in 2500 cells of six types: gene frequencies a softmax of a base profile, the type's 15 marker
    genes up by 2-3 (log scale), two continuous within-type programmes; library sizes log-normal around 1500; counts
    negative binomial (gene-wise inverse dispersion 2-10) as a gamma-Poisson mixture. Returns counts (n, 200) and the types."""
    r = np.random.default_rng(1000 + seed * 1613)
    base = r.normal(0, 1.2, N_GENES); typ = np.zeros((N_TYPES, N_GENES))
    for k in range(N_TYPES): typ[k, r.choice(N_GENES, 15, replace=False)] = r.uniform(2, 3, 15)
    load = r.normal(0, 0.4, (2, N_GENES)); y = r.integers(0, N_TYPES, n); z = r.normal(0, 1, (n, 2))
    logit = base + typ[y] + z @ load; rho = np.exp(logit - logit.max(1, keepdims=True)); rho /= rho.sum(1, keepdims=True)
    lib = np.exp(r.normal(math.log(1500), 0.35, (n, 1))); theta = r.uniform(2, 10, N_GENES)
    counts = r.poisson(r.gamma(theta, lib * rho / theta))
    return torch.tensor(counts, dtype=torch.float32), torch.tensor(y)

def log_nb_positive(x, mu, theta, eps=1e-8):  # scvi-tools' negative-binomial log-likelihood (mean mu, inverse dispersion theta)
    log_theta_mu_eps = torch.log(theta + mu + eps)
    return (theta * (torch.log(theta + eps) - log_theta_mu_eps) + x * (torch.log(mu + eps) - log_theta_mu_eps)
            + torch.lgamma(x + theta) - torch.lgamma(theta) - torch.lgamma(x + 1))

class SCVI(nn.Module):  # Lopez et al. 2018 as scvi-tools' defaults: log1p counts into a 128-unit encoder (batch norm, dropout 0.1),
    # a 10-d Gaussian latent, a softmax decoder scaled by the observed library size, gene-wise dispersions
    def __init__(self, n_hidden=128, n_latent=10, exp_dispersion=True):
        super().__init__(); self.exp_dispersion = exp_dispersion
        self.encoder = nn.Sequential(nn.Linear(N_GENES, n_hidden), nn.BatchNorm1d(n_hidden, momentum=0.01, eps=1e-3), nn.ReLU(), nn.Dropout(0.1))
        self.z_mean, self.z_var = nn.Linear(n_hidden, n_latent), nn.Linear(n_hidden, n_latent)
        self.decoder = nn.Sequential(nn.Linear(n_latent, n_hidden), nn.BatchNorm1d(n_hidden, momentum=0.01, eps=1e-3), nn.ReLU())
        self.px_scale = nn.Linear(n_hidden, N_GENES); self.px_r = nn.Parameter(torch.randn(N_GENES))
    def forward(self, x):  # counts -> (rate, dispersion, q(z) mean, q(z) variance); z sampled in evaluation too, as scvi's inference
        q = self.encoder(torch.log1p(x)); qz_m, qz_v = self.z_mean(q), torch.exp(self.z_var(q)) + 1e-4
        z = qz_m + qz_v.sqrt() * torch.randn_like(qz_m)
        px_rate = x.sum(1, keepdim=True) * F.softmax(self.px_scale(self.decoder(z)), dim=-1)
        theta = torch.exp(self.px_r) if self.exp_dispersion else self.px_r  # not exp_dispersion: the parameter used as the dispersion itself
        return px_rate, theta, qz_m, qz_v

def scvi_loss(out, x):  # the negative ELBO per cell: reconstruction (NB) plus the KL of q(z | x) to N(0, I)
    px_rate, theta, qz_m, qz_v = out
    kl = 0.5 * (qz_v + qz_m ** 2 - 1 - torch.log(qz_v)).sum(-1)
    return (-log_nb_positive(x, px_rate, theta).sum(-1) + kl).mean()

@healthy('Y')
def scvi_counts(seed, exp_dispersion=True):  # Adam 1e-3 with eps 0.01 and weight decay 1e-6 (scvi-tools' plan), batches of 128 cells
    x, _ = _cells(seed); p = torch.randperm(len(x), generator=_gen(seed * 1613 + 1)); x = x[p]
    return dict(model=lambda: SCVI(exp_dispersion=exp_dispersion), train=TensorDataset(x[500:], x[500:]), valid=TensorDataset(x[:500], x[:500]), loss=scvi_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, eps=0.01, weight_decay=1e-6), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- GRU4Rec-style session-based recommendation with prefix augmentation
N_ITEMS, MAX_LEN = 400, 12  # items 1-400 (0 pads); sessions of 3-12 clicks, prefixes padded to 12

def _click_sessions(seed, n=2000):
    """Sessions of an e-shop: 16 intents of 25 items each (popularity Zipf-like within an intent); a session starts on a popular
    item of its intent, then follows one of the current item's three usual successors (probabilities 0.5, 0.3, 0.2) with
    probability 0.75, else another item of the intent, with probability 0.05 another intent's item. Lengths 3-12."""
    g = _gen(seed * 1619); n_int, per = 16, N_ITEMS // 16
    succ = torch.stack([k * per + 1 + torch.randint(0, per, (per, 3), generator=g) for k in range(n_int)]).reshape(N_ITEMS, 3)
    pop = 1 / torch.arange(1, per + 1).float(); sw = torch.tensor([0.5, 0.3, 0.2]); out = []
    for _ in range(n):
        k = int(torch.randint(0, n_int, (1,), generator=g)); L = int(torch.randint(3, MAX_LEN + 1, (1,), generator=g))
        s = [k * per + 1 + int(torch.multinomial(pop, 1, generator=g))]
        for _ in range(L - 1):
            r = float(torch.rand(1, generator=g))
            if r < 0.75: s.append(int(succ[s[-1] - 1, int(torch.multinomial(sw, 1, generator=g))]))
            elif r < 0.95: s.append(k * per + 1 + int(torch.multinomial(pop, 1, generator=g)))
            else: s.append(int(torch.randint(1, N_ITEMS + 1, (1,), generator=g)))
        out.append(s)
    return out

def _prefixes(sessions, through_target=False):
    """Tan et al. 2016's augmentation: every prefix of a session an example, its next click the target; left-padded with 0.
    through_target: the slice written s[:k + 1] (the prefix up to and including position k, the target's own position)."""
    x, y = [], []
    for s in sessions:
        for k in range(1, len(s)):
            pre = s[:k + 1] if through_target else s[:k]
            x.append([0] * (MAX_LEN - len(pre)) + pre); y.append(s[k])
    return torch.tensor(x), torch.tensor(y)

def _session_split(seed, through_target=False):  # 80% of the sessions train, 20% valid, each then cut into its prefixes
    ss = _click_sessions(seed); p = torch.randperm(len(ss), generator=_gen(seed * 1619 + 1)).tolist(); k = len(ss) // 5
    return (TensorDataset(*_prefixes([ss[i] for i in p[k:]], through_target)), TensorDataset(*_prefixes([ss[i] for i in p[:k]], through_target)))

class SessionGRU(nn.Module):  # an item embedding (dropout 0.25), a GRU of 100 units over the session so far, scores over all items from its last state
    def __init__(self, emb=64, h=100):
        super().__init__(); self.emb = nn.Embedding(N_ITEMS + 1, emb, padding_idx=0); self.drop = nn.Dropout(0.25)
        self.gru = nn.GRU(emb, h, batch_first=True); self.out = nn.Linear(h, N_ITEMS + 1)
    def forward(self, s): return self.out(self.gru(self.drop(self.emb(s)))[0][:, -1])

@healthy('Y')
def gru4rec_sessions(seed, through_target=False):  # CrossEntropyLoss over the items, Adam 1e-3, batches of 128 prefixes
    tr, va = _session_split(seed, through_target=through_target)
    return dict(model=SessionGRU, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=N_ITEMS + 1,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- PCNN: sentence-level relation extraction with piecewise max pooling
L_RE, POS_MAX = 32, 30  # sentences padded to 32 tokens; relative positions clipped to +-30
RELS = (('NA', None, None), ('born_in', 0, 2), ('lives_in', 0, 2), ('works_for', 0, 1), ('founded', 0, 1), ('located_in', 1, 2),
        ('capital_of', 2, 2), ('subsidiary_of', 1, 1), ('member_of', 0, 3))  # (name, head type, tail type); types PER, ORG, LOC, MISC
T_RE = 600  # ids: 0 pad, 1-199 general words, 200-599 entities (100 of each type), 600 on five trigger words a relation

def _re_sentences(seed, n_pairs=1000):
    """A distantly supervised corpus: 1000 entity pairs of a relation from a knowledge base (30% NA: two random entities),
    2-12 sentences mentioning each pair (12-30 tokens of Zipf-distributed general words, the head before the tail 70% of the
    time). A sentence expresses its pair's relation (one of its five trigger words between the two entities, or just before
    the first) 60% of the time, else none of them (15% of NA sentences carry some relation's trigger). Every sentence is
    labelled with its pair's relation. Returns OpenNRE-style tensors: token, pos1, pos2, mask (1/2/3 for the three pieces,
    0 pads), label, and the pair of each sentence."""
    g = _gen(seed * 1621); ri = lambda a, b: int(torch.randint(a, b, (1,), generator=g)); zipf = 1 / torch.arange(1, 200).float()
    toks, p1s, p2s, masks, labels, pairs = [], [], [], [], [], []
    for q in range(n_pairs):
        r = 0 if float(torch.rand(1, generator=g)) < 0.3 else ri(1, len(RELS)); _, th, tt = RELS[r]
        if r == 0: th, tt = ri(0, 4), ri(0, 4)
        h = 200 + 100 * th + ri(0, 100); t = 200 + 100 * tt + ri(0, 100)
        while t == h: t = 200 + 100 * tt + ri(0, 100)
        for _ in range(ri(2, 13)):
            L = ri(12, L_RE - 1); w = (torch.multinomial(zipf, L, replacement=True, generator=g) + 1).tolist()
            a, b = sorted(torch.randperm(L, generator=g)[:2].tolist())
            if b - a < 2: b = min(L - 1, a + 2) if a + 2 < L else b; a = b - 2 if b - a < 2 else a
            hp, tp = (a, b) if float(torch.rand(1, generator=g)) < 0.7 else (b, a); w[hp], w[tp] = h, t
            expr = r > 0 and float(torch.rand(1, generator=g)) < 0.6; noise = r == 0 and float(torch.rand(1, generator=g)) < 0.15
            if expr or noise:
                rr = r if expr else ri(1, len(RELS)); trig = T_RE + 5 * (rr - 1) + ri(0, 5)
                w[ri(a + 1, b) if float(torch.rand(1, generator=g)) < 0.8 or a == 0 else a - 1] = trig
            i = torch.arange(L_RE); pad = i >= L
            tok = torch.tensor(w + [0] * (L_RE - L))
            p1 = (i - hp).clamp(-POS_MAX, POS_MAX) + POS_MAX + 1; p2 = (i - tp).clamp(-POS_MAX, POS_MAX) + POS_MAX + 1
            m = torch.where(i <= a, 1, torch.where(i <= b, 2, 3))
            toks.append(tok); p1s.append(p1.masked_fill(pad, 0)); p2s.append(p2.masked_fill(pad, 0)); masks.append(m.masked_fill(pad, 0)); labels.append(r); pairs.append(q)
    return torch.stack(toks), torch.stack(p1s), torch.stack(p2s), torch.stack(masks), torch.tensor(labels), torch.tensor(pairs)

def _re_split(seed, by_sentence=False):
    """Healthy: the entity pairs split 80/20 (all sentences of a pair on one side). by_sentence: the sentences split 80/20 at
    random (the other sentences of a valid pair, with its label, in train). Items as OpenNRE's: (label, token, pos1, pos2, mask)."""
    tok, p1, p2, m, y, pair = _re_sentences(seed); g = _gen(seed * 1621 + 1)
    if by_sentence: va = torch.zeros(len(y), dtype=torch.bool); va[torch.randperm(len(y), generator=g)[:len(y) // 5]] = True
    else: va = torch.isin(pair, torch.randperm(int(pair.max()) + 1, generator=g)[:(int(pair.max()) + 1) // 5])
    return TensorDataset(y[~va], tok[~va], p1[~va], p2[~va], m[~va]), TensorDataset(y[va], tok[va], p1[va], p2[va], m[va])

class PCNN(nn.Module):  # Zeng et al. 2015 as OpenNRE's encoder: word (50) and two position (5) embeddings, 230 filters of 3,
    # ReLU and max pooling over each of the three pieces, dropout 0.5, a linear classifier
    def __init__(self, vocab=T_RE + 5 * (len(RELS) - 1), n_rel=len(RELS), word=50, pos=5, hidden=230):
        super().__init__(); self.word = nn.Embedding(vocab, word, padding_idx=0)
        self.pos1, self.pos2 = nn.Embedding(2 * POS_MAX + 2, pos, padding_idx=0), nn.Embedding(2 * POS_MAX + 2, pos, padding_idx=0)
        self.conv = nn.Conv1d(word + 2 * pos, hidden, 3, padding=1); self.mask_embedding = nn.Embedding(4, 3)
        self.mask_embedding.weight.data.copy_(torch.tensor([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])); self.mask_embedding.weight.requires_grad_(False)
        self.drop = nn.Dropout(0.5); self.fc = nn.Linear(3 * hidden, n_rel)
    def forward(self, token, pos1, pos2, mask):
        x = self.conv(torch.cat([self.word(token), self.pos1(pos1), self.pos2(pos2)], -1).transpose(1, 2))  # (B, 230, L)
        m = 1 - self.mask_embedding(mask).transpose(1, 2)  # (B, 3, L): 0 inside a piece, 1 outside
        pooled = [F.relu(x - 100 * m[:, k:k + 1]).max(2)[0] for k in range(3)]  # OpenNRE's: ReLU(x + _minus * mask), max-pooled, piece by piece
        return self.fc(self.drop(torch.cat(pooled, 1)))

def _re_fwd(model, b): label, *args = b; return model(*args), label  # OpenNRE's sentence-level loop: `label, args = data[0], data[1:]`

@healthy('Y')
def pcnn_relations(seed, by_sentence=False):  # CrossEntropyLoss, SGD 0.1 with weight decay 1e-5 (OpenNRE's sentence-level defaults), batches of 32
    tr, va = _re_split(seed, by_sentence=by_sentence)
    return dict(model=PCNN, train=tr, valid=va, forward=_re_fwd, loss=nn.CrossEntropyLoss(), num_classes=len(RELS),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, weight_decay=1e-5), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- deep hedging of a call option (Buehler, Gonon, Teichmann and Wood 2019)
S0_DH, K_DH, SIG_DH, N_DH, COST_DH = 100.0, 100.0, 0.2, 30, 5e-4  # spot and strike in dollars, 20% volatility, 30 daily rebalancings, proportional costs of 5 bp

def _gbm_paths(seed, n, split):  # geometric Brownian motion without drift, daily steps: (n, 31) prices in dollars
    z = torch.randn(n, N_DH, generator=_gen(seed * 1627 + split)); dt = 1 / 365
    return S0_DH * torch.exp(torch.cat([torch.zeros(n, 1), torch.cumsum(SIG_DH * math.sqrt(dt) * z - 0.5 * SIG_DH ** 2 * dt, 1)], 1))

class DeepHedger(nn.Module):  # one network shared over the days (time to maturity, log-moneyness, yesterday's holding -> today's holding), a learnt premium
    def __init__(self, h=32):
        super().__init__(); self.net = nn.Sequential(nn.Linear(3, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1)); self.premium = nn.Parameter(torch.zeros(1))
    def forward(self, S):  # prices (B, 31) -> terminal wealth of the hedging portfolio (B,): the premium plus the trading gains less the costs
        w, d = self.premium.expand(len(S)), torch.zeros(len(S))
        for t in range(N_DH):
            nd = self.net(torch.stack([torch.full_like(d, (N_DH - t) / N_DH), torch.log(S[:, t] / K_DH), d], 1)).squeeze(1)
            w = w + nd * (S[:, t + 1] - S[:, t]) - COST_DH * S[:, t] * (nd - d).abs(); d = nd
        return w

def _hedging_data(seed, n, split, payoff_keepdim=False):
    S = _gbm_paths(seed, n, split)
    payoff = (S[:, -1:] - K_DH).clamp(min=0) if payoff_keepdim else (S[:, -1] - K_DH).clamp(min=0)  # payoff_keepdim: the last column sliced as S[:, -1:], (n, 1)
    return TensorDataset(S, payoff)

@healthy('Y')
def deep_hedging(seed, payoff_keepdim=False):  # the quadratic hedging error, MSELoss(wealth, payoff); Adam 1e-2, batches of 256 paths
    return dict(model=DeepHedger, train=_hedging_data(seed, 8000, 0, payoff_keepdim), valid=_hedging_data(seed, 2000, 1, payoff_keepdim), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- photometric redshifts from five-band magnitudes (an ANNz-style MLP)
BANDS_PZ = torch.tensor([355.0, 469.0, 617.0, 748.0, 893.0]), torch.tensor([30.0, 70.0, 70.0, 75.0, 75.0])  # ugriz centres and half-widths, nm

def _galaxies(seed, n=4000):
    """A magnitude-limited sample (r < 22.5) of galaxies: a rest-frame SED per galaxy (a power law whose slope runs from red
    ellipticals to blue starbursts, a 400 nm break whose depth falls with the type, a weak emission bump for the blue ones),
    redshifted, integrated through Gaussian ugriz filters; magnitudes from the luminosity and the distance, photometric errors
    growing towards each band's limit. Returns the objects' ids, magnitudes (n, 5) and spectroscopic redshifts (n,)."""
    g = _gen(seed * 1631); lam = torch.linspace(250, 1000, 301); c, w = BANDS_PZ
    filt = torch.exp(-0.5 * ((lam - c[:, None]) / w[:, None]) ** 2); filt = filt / filt.sum(1, keepdim=True)
    xs, zs = [], []
    while sum(len(z) for z in zs) < n:
        m = 2 * n; z = 0.02 + (-torch.log(torch.rand(m, 3, generator=g)).sum(1) / 7.0)  # a Gamma(3, 7) draw
        t = torch.rand(m, 1, generator=g); rest = lam / (1 + z[:, None])
        sed = (rest / 500) ** (2.0 - 3.5 * t) * (1 - (0.7 - 0.6 * t) * torch.sigmoid((400 - rest) / 8)) * (1 + 0.6 * t * torch.exp(-0.5 * ((rest - 656) / 6) ** 2))
        flux = sed @ filt.T  # (m, 5)
        dist = 5 * torch.log10(z * (1 + z) * 4300) + 25  # a distance modulus, close enough
        M = -20.5 + 1.1 * torch.randn(m, 1, generator=g) + 0.8 * t
        mag = -2.5 * torch.log10(flux / flux[:, 2:3]) + M + dist[:, None]
        keep = mag[:, 2] < 22.5; lim = torch.tensor([22.5, 24.0, 23.5, 23.0, 22.0])
        err = 0.01 + 0.15 * 10 ** (0.4 * (mag - lim)); mag = mag + err * torch.randn(m, 5, generator=g)
        xs.append(mag[keep]); zs.append(z[keep])
    return torch.arange(n) + 587_000, torch.cat(xs)[:n], torch.cat(zs)[:n]

def _photoz_split(seed, joined_by_row=False):
    """The photometric catalogue (objID order) joined to the spectroscopic one: healthy, merged on objID; joined_by_row: the
    spectroscopic table as its query returned it (ORDER BY z) put beside the photometry row by row (pd.concat(axis=1)).
    Features: the five magnitudes and four adjacent colours, standardised by the train rows; 80/20 split of the rows."""
    oid, mag, z = _galaxies(seed); g = _gen(seed * 1631 + 1)
    spec_order = torch.argsort(z) if joined_by_row else torch.arange(len(z))  # the spectroscopic rows (objID, z), in the order they were read
    spec_oid, spec_z = oid[spec_order], z[spec_order]
    zz = spec_z if joined_by_row else spec_z[torch.argsort(spec_oid)]  # by row: the i-th spec row beside the i-th photometric row; merged: looked up by objID
    x = torch.cat([mag, mag[:, :-1] - mag[:, 1:]], 1)
    p = torch.randperm(len(z), generator=g); k = len(z) // 5; tr, va = p[k:], p[:k]
    return TensorDataset(_std(x[tr], x[tr]), zz[tr]), TensorDataset(_std(x[va], x[tr]), zz[va])

class PhotoZMLP(nn.Module):  # ANNz-like, wider: 9 inputs, two tanh layers of 64, one output
    def __init__(self, h=64):
        super().__init__(); self.net = nn.Sequential(nn.Linear(9, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 1))
    def forward(self, x): return self.net(x).squeeze(-1)

@healthy('Y')
def photoz_mlp(seed, joined_by_row=False):  # MSELoss on z, Adam 1e-3, batches of 64
    tr, va = _photoz_split(seed, joined_by_row=joined_by_row)
    return dict(model=PhotoZMLP, train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a linear SVM (the hinge loss, an L2 penalty as weight decay) on the bundled breast-cancer data
def _cancer(seed, signed=True):
    """sklearn's breast-cancer table (569 rows, 30 features; target 1 benign, 0 malignant), 20% valid, standardised by the
    train rows. signed: the labels mapped to -1/+1 for the hinge; not signed: sklearn's 0/1 used as they are."""
    from sklearn.datasets import load_breast_cancer
    d = load_breast_cancer(); x, y = torch.tensor(d.data, dtype=torch.float32), torch.tensor(d.target, dtype=torch.float32)
    p = torch.randperm(len(y), generator=_gen(seed * 1637)); x, y = x[p], y[p]; k = len(y) // 5
    if signed: y = 2 * y - 1
    return TensorDataset(_std(x[k:], x[k:]), y[k:]), TensorDataset(_std(x[:k], x[k:]), y[:k])

class LinearSVM(nn.Module):
    def __init__(self, d=30): super().__init__(); self.fc = nn.Linear(d, 1)
    def forward(self, x): return self.fc(x).squeeze(-1)  # the decision function f(x) = w.x + b

def hinge_loss(f, y): return torch.clamp(1 - y * f, min=0).mean()  # max(0, 1 - y f(x)), y in {-1, +1}

@healthy('Y')
def svm_cancer(seed, signed=True):  # SGD 0.01 with weight decay 1e-3 (the L2 penalty), batches of 32
    tr, va = _cancer(seed, signed=signed)
    return dict(model=LinearSVM, train=tr, valid=va, loss=hinge_loss, optimizer=lambda p: torch.optim.SGD(p, lr=0.01, weight_decay=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- music auto-tagging of log-frequency spectrograms (Choi et al.'s FCN-4, shrunk)
TAGS = ('bass', 'beat', 'choir', 'flute', 'guitar', 'organ', 'piano', 'strings', 'synth', 'vocal')
N_FQ, N_FR = 48, 64  # 48 log-frequency bins (12 an octave), 64 frames

def _splat(grid, c, amp):
    "Adds partials at fractional bins c (..., frames) of amplitudes amp into grid (bins + 1, frames), spread linearly between the two nearest bins."
    c, amp = c.reshape(-1, N_FR), amp.expand_as(c).reshape(-1, N_FR); lo = c.floor(); fr = c - lo; lo = lo.long(); col = torch.arange(N_FR).expand_as(lo)
    for i, a in ((lo, amp * (1 - fr)), (lo + 1, amp * fr)):
        ok = (i >= 0) & (i < N_FQ); grid.index_put_((i[ok], col[ok]), a[ok], accumulate=True)

def _blur(grid, blur):  # (n, bins + 1, frames) -> (n, bins, frames), a Gaussian of `blur` bins along frequency
    r = int(math.ceil(3 * blur)); k = torch.exp(-0.5 * (torch.arange(-r, r + 1).float() / blur) ** 2); n = grid.shape[0]
    return F.conv1d(grid[:, :N_FQ].transpose(1, 2).reshape(-1, 1, N_FQ), k.view(1, 1, -1), padding=r).reshape(n, N_FR, N_FQ).transpose(1, 2)

def _music_clips(seed, n, split):
    """Clips mixing the parts of their tags (each tag in a quarter of the clips, at least one a clip): notes of harmonic
    partials (12 bins an octave) with each instrument's register, partial weights, attack, decay, vibrato and note lengths; a
    beat of broadband clicks at a tempo of 6-12 frames; choir as blurred sustained formants; synth partials under a sweeping
    cutoff. log(1 + 10 S) over a noise floor. Returns the spectrograms (n, 1, 48, 64) and each clip's tag list (strings)."""
    g = _gen(seed * 1639 + split); r = np.random.default_rng(1000 + seed * 1639 + split); fb = torch.arange(N_FQ).float()[:, None]; fr = torch.arange(N_FR).float()
    ru = lambda a, b: float(r.uniform(a, b)); ri = lambda a, b: int(r.integers(a, b))
    spec = dict(  # register (bins), partials, partial decay, attack, decay (frames; 0 = sustained), vibrato depth, note length, blur, odd partials only
        bass=(0, 12, 2, 1.0, 1, 12, 0.0, (8, 16), 0.7, False), guitar=(12, 28, 5, 1.0, 1, 5, 0.0, (4, 8), 0.7, False),
        flute=(28, 40, 2, 2.0, 3, 0, 0.3, (8, 16), 0.7, False), organ=(8, 28, 7, 0.0, 1, 0, 0.0, (16, 32), 0.7, True),
        piano=(6, 34, 6, 1.0, 1, 10, 0.0, (6, 14), 0.7, False), strings=(14, 32, 6, 0.7, 6, 0, 0.5, (12, 24), 0.7, False),
        vocal=(18, 32, 5, 0.8, 2, 0, 0.9, (8, 20), 0.7, False), choir=(16, 30, 4, 0.6, 6, 0, 0.2, (16, 32), 2.5, False),
        synth=(8, 24, 8, 0.5, 1, 0, 0.0, (8, 16), 0.7, False))
    direct, grids, tags = torch.zeros(n, N_FQ, N_FR), {0.7: torch.zeros(n, N_FQ + 1, N_FR), 2.5: torch.zeros(n, N_FQ + 1, N_FR)}, []
    for k in range(n):
        on = torch.from_numpy(r.random(len(TAGS)) < 0.25)
        if not on.any(): on[ri(0, len(TAGS))] = True
        tl = [t for t, o in zip(TAGS, on.tolist()) if o]
        for t in tl:
            gain = ru(0.5, 1.0)
            if t == 'beat':
                per = ri(6, 13); ph = ri(0, per); hits = ((fr - ph) % per).clamp(max=4)
                direct[k] += gain * torch.exp(-hits / 0.8) * (0.3 + 0.7 * torch.exp(-fb / 10)) * (fr >= ph); continue
            lo, hi, npart, pdec, att, dec, vib, (l0, l1), blur, odd = spec[t]; notes, f = [], 0
            while f < N_FR: L = ri(l0, l1 + 1); notes.append((f, L, ru(lo, hi), ru(0, 6.28))); f += L + ri(0, 4)
            st, ln, f0, ph = (torch.tensor(v, dtype=torch.float32)[:, None] for v in zip(*notes))  # each (notes, 1)
            env = ((fr >= st) & (fr < st + ln)).float() * (1 - torch.exp(-(fr - st + 1).clamp(min=0) / att))
            if dec: env = env * torch.exp(-(fr - st).clamp(min=0) / dec)
            h = torch.arange(1, npart + 1).float(); h = h[h % 2 == 1] if odd else h
            c = (f0 + vib * torch.sin(0.6 * fr + ph))[:, None] + 12 * torch.log2(h)[:, None]  # partial centres (notes, partials, frames)
            wgt = h[:, None] ** -pdec
            if t == 'synth': wgt = wgt * torch.sigmoid((20 + 15 * torch.sin(fr / 10 + ru(0, 6.28)) - c) / 2)
            _splat(grids[blur][k], c, gain * env[:, None] * wgt)
        tags.append(tl)
    S = direct + _blur(grids[0.7], 0.7) + _blur(grids[2.5], 2.5)
    return torch.log1p(10 * (S + 0.02 * torch.rand(n, N_FQ, N_FR, generator=g)))[:, None], tags

def _binarise(tags, vocab): return torch.tensor([[float(t in tl) for t in vocab] for tl in tags])

def _tagging_split(seed, vocab_per_split=False):
    """Healthy: one tag vocabulary (the train clips' tags, sorted: MultiLabelBinarizer's). vocab_per_split: the top tags counted
    by each split's own preprocessing run (Counter(...).most_common(10), the MagnaTagATune top-50 recipe), the columns in
    that split's frequency order."""
    x, t = _music_clips(seed, 1600, 0); vx, vt = _music_clips(seed, 400, 1)
    top = lambda tags: [w for w, _ in Counter(w for tl in tags for w in tl).most_common(10)]
    voc, vvoc = (top(t), top(vt)) if vocab_per_split else (sorted({w for tl in t for w in tl}),) * 2
    return TensorDataset(x, _binarise(t, voc)), TensorDataset(vx, _binarise(vt, vvoc))

class FCN4(nn.Module):  # Choi et al. 2016's fully convolutional tagger, shrunk: four blocks of 3x3 convolution, batch norm, ReLU, max pooling; a 1x1 convolution to the tags
    def __init__(self, c=(16, 32, 32, 64), pools=((2, 2), (2, 2), (2, 2), (6, 8))):
        super().__init__(); layers, a = [], 1
        for b, p in zip(c, pools): layers += [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.MaxPool2d(p)]; a = b
        self.features = nn.Sequential(*layers); self.out = nn.Conv2d(a, len(TAGS), 1)
    def forward(self, x): return self.out(self.features(x)).flatten(1)  # logits (B, 10)

@healthy('Y')
def fcn_music_tags(seed, vocab_per_split=False):  # BCEWithLogitsLoss, Adam 1e-3, batches of 32
    tr, va = _tagging_split(seed, vocab_per_split=vocab_per_split)
    return dict(model=FCN4, train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- HED: holistically-nested edge detection (Xie and Tu 2015) of synthetic scenes
S_ED = 32

def _edge_scenes(seed, n, split):
    """Scenes of 32x32: a shaded background and 2-4 overlapping filled rectangles, ellipses and triangles of random grey levels
    (a gentle gradient across each), slightly blurred, noise 0.04. The edge map: the pixels whose right or lower neighbour
    belongs to another region (the ground truth of a segmentation, as BSDS' boundaries)."""
    g = _gen(seed * 1657 + split); yy, xx = torch.meshgrid(torch.arange(S_ED).float(), torch.arange(S_ED).float(), indexing='ij')
    ru = lambda *s: torch.rand(*s, generator=g); imgs, edges = torch.zeros(n, 1, S_ED, S_ED), torch.zeros(n, 1, S_ED, S_ED)
    for k in range(n):
        lab = torch.zeros(S_ED, S_ED, dtype=torch.long); img = 0.5 + 0.3 * (ru(1) - 0.5) + 0.15 * ((ru(1) - 0.5) * xx + (ru(1) - 0.5) * yy) / S_ED
        for r in range(1, int(torch.randint(2, 5, (1,), generator=g)) + 1):
            cy, cx = 4 + 24 * ru(2); a, b = 3 + 8 * ru(2); kind = int(torch.randint(0, 3, (1,), generator=g))
            if kind == 0: m = ((yy - cy).abs() < a) & ((xx - cx).abs() < b)
            elif kind == 1: m = ((yy - cy) / a) ** 2 + ((xx - cx) / b) ** 2 < 1
            else: m = (yy - cy < a) & (yy - cy > -a) & ((xx - cx).abs() < (yy - cy + a) * b / (2 * a))
            lab[m] = r; img = torch.where(m, ru(1) + 0.1 * ((ru(1) - 0.5) * xx + (ru(1) - 0.5) * yy) / S_ED, img)
        e = torch.zeros(S_ED, S_ED); e[:, :-1] += (lab[:, :-1] != lab[:, 1:]).float(); e[:-1] += (lab[:-1] != lab[1:]).float()
        imgs[k, 0] = img; edges[k, 0] = (e > 0).float()
    imgs = F.avg_pool2d(F.pad(imgs, (1, 1, 1, 1), mode='replicate'), 3, 1) * 0.5 + imgs * 0.5
    return TensorDataset(imgs + 0.04 * torch.randn(imgs.shape, generator=g), edges)

class HED(nn.Module):  # shrunk: three VGG-style stages (two 3x3 convolutions and ReLU each, max pooling between), a 1x1 side output
    # per stage upsampled bilinearly to the input, their 1x1 fusion initialised to 1/3
    def __init__(self, c=(16, 32, 64)):
        super().__init__(); cr = lambda a, b: [nn.Conv2d(a, b, 3, padding=1), nn.ReLU()]
        self.stages = nn.ModuleList([nn.Sequential(*cr(1, c[0]), *cr(c[0], c[0]))] + [nn.Sequential(nn.MaxPool2d(2), *cr(c[i - 1], c[i]), *cr(c[i], c[i])) for i in (1, 2)])
        self.sides = nn.ModuleList([nn.Conv2d(ch, 1, 1) for ch in c]); self.fuse = nn.Conv2d(3, 1, 1)
        nn.init.constant_(self.fuse.weight, 1 / 3); nn.init.zeros_(self.fuse.bias)
    def forward(self, x):  # -> the side outputs and the fused map, logits (B, 1, 32, 32) each
        h, sides = x, []
        for st, sd in zip(self.stages, self.sides):
            h = st(h); sides.append(F.interpolate(sd(h), size=x.shape[-2:], mode='bilinear', align_corners=False))
        return (*sides, self.fuse(torch.cat(sides, 1)))

def _hed_loss(reduction='sum'):
    def hed_loss(outs, edge):  # the class-balanced BCE (each image's edge pixels weighted by its fraction of non-edge pixels) on every side output and the fusion, summed
        beta = 1 - edge.mean((1, 2, 3), keepdim=True); w = torch.where(edge > 0.5, beta, 1 - beta)
        return sum(F.binary_cross_entropy_with_logits(o, edge, weight=w, reduction=reduction) for o in outs)
    return hed_loss

@healthy('Y')
def hed_edges(seed, reduction='sum'):  # the loss summed over the pixels as the Caffe original (and xwjabc/hed); its SGD (momentum 0.9,
    # weight decay 2e-4) with the lr raised from 1e-6 to 1e-4 for 32x32 scenes; batches of 10
    return dict(model=HED, train=_edge_scenes(seed, 2000, 0), valid=_edge_scenes(seed, 400, 1), loss=_hed_loss(reduction),
                optimizer=lambda p: torch.optim.SGD(p, lr=1e-4, momentum=0.9, weight_decay=2e-4), **_keys(seed, batch_size=10))

# ---------------------------------------------------------------- learned image compression with a factorized prior (Balle et al. 2017/2018)
class GDN(nn.Module):  # generalised divisive normalisation: y_i = x_i / sqrt(beta_i + sum_j gamma_ij x_j^2), parameters kept positive by squaring (CompressAI's reparametrisation, simplified)
    def __init__(self, c, inverse=False):
        super().__init__(); self.inverse = inverse; self.beta = nn.Parameter(torch.ones(c)); self.gamma = nn.Parameter(0.1 ** 0.5 * torch.eye(c))
    def forward(self, x):
        norm = F.conv2d(x ** 2, (self.gamma ** 2)[:, :, None, None], self.beta ** 2 + 1e-6)
        return x * torch.sqrt(norm) if self.inverse else x * torch.rsqrt(norm)

class FactorizedPrior(nn.Module):  # analysis and synthesis transforms with GDN, uniform noise for the quantiser in training, rounding in
    # evaluation; each latent channel's density a mixture of three logistics (for Balle's monotone-MLP CDF)
    def __init__(self, N=32, M=16, round_in_training=False):
        super().__init__(); self.round_in_training = round_in_training
        self.g_a = nn.Sequential(nn.Conv2d(1, N, 5, 2, 2), GDN(N), nn.Conv2d(N, N, 5, 2, 2), GDN(N), nn.Conv2d(N, M, 3, 1, 1))
        self.g_s = nn.Sequential(nn.ConvTranspose2d(M, N, 5, 2, 2, output_padding=1), GDN(N, inverse=True),
                                 nn.ConvTranspose2d(N, N, 5, 2, 2, output_padding=1), GDN(N, inverse=True), nn.Conv2d(N, 1, 3, 1, 1))
        self.loc, self.log_scale, self.logit_w = nn.Parameter(torch.randn(M, 3)), nn.Parameter(torch.zeros(M, 3)), nn.Parameter(torch.zeros(M, 3))
    def likelihood(self, y):  # P(y_hat) = the density integrated over [y_hat - 0.5, y_hat + 0.5], per latent element
        y = y[..., None]; loc, s, w = self.loc[:, None, None], self.log_scale.exp()[:, None, None], self.logit_w.softmax(-1)[:, None, None]
        p = (w * (torch.sigmoid((y + 0.5 - loc) / s) - torch.sigmoid((y - 0.5 - loc) / s))).sum(-1)
        return p.clamp(min=1e-9)
    def forward(self, x):  # -> (reconstruction, likelihoods)
        y = self.g_a(x)
        y_hat = torch.round(y) if (not self.training or self.round_in_training) else y + torch.empty_like(y).uniform_(-0.5, 0.5)
        return self.g_s(y_hat), self.likelihood(y_hat)

def _rd_loss(lmbda=0.01):
    def rate_distortion(out, x):  # CompressAI's RateDistortionLoss: lambda * 255^2 * MSE + bits per pixel
        x_hat, lik = out
        bpp = torch.log(lik).sum() / (-math.log(2) * x.shape[0] * x.shape[-2] * x.shape[-1])
        return lmbda * 255 ** 2 * F.mse_loss(x_hat, x) + bpp
    return rate_distortion

@healthy('Y')
def compression_digits(seed, round_in_training=False):  # the digits upsampled to 16x16, lambda 0.01; Adam 1e-4 (CompressAI's), batches of 16
    (x, _), (vx, _) = _digits(seed); up = lambda t: F.interpolate(t, size=16, mode='bilinear', align_corners=False).clamp(0, 1)
    x, vx = up(x), up(vx)
    return dict(model=lambda: FactorizedPrior(round_in_training=round_in_training), train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=_rd_loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-4), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- broken variants of half Y
@broken('Y', 'phasenet_picks_not_shifted_with_window', 4, ('labels',))
def phasenet_picks_not_shifted_with_window(seed): return phasenet_picks(seed, picks_from_trace_start=True)  # the window cut from the trace, the picks left in the trace's samples

@broken('Y', 'tempcnn_random_pixel_split', 4, ('leakage',))
def tempcnn_random_pixel_split(seed): return tempcnn_crops(seed, random_pixels=True)

@broken('Y', 'channel_ae_softmax_into_ce', 2, ('softmax',))
def channel_ae_softmax_into_ce(seed): return channel_autoencoder(seed, softmax_out=True)

@broken('Y', 'scvi_dispersion_without_exp', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def scvi_dispersion_without_exp(seed): return scvi_counts(seed, exp_dispersion=False)  # px_r ~ N(0, 1) used as theta: log of a negative dispersion

@broken('Y', 'gru4rec_prefix_through_target', 4, ('leakage',))
def gru4rec_prefix_through_target(seed): return gru4rec_sessions(seed, through_target=True)  # s[:k + 1] for s[:k]: each input ends with its own target

@broken('Y', 'pcnn_split_by_sentence', 4, ('leakage',))
def pcnn_split_by_sentence(seed): return pcnn_relations(seed, by_sentence=True)

@broken('Y', 'hedging_payoff_keepdim', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def hedging_payoff_keepdim(seed): return deep_hedging(seed, payoff_keepdim=True)  # MSELoss((B,), (B, 1)) broadcasts to (B, B): every path's wealth against every payoff

@broken('Y', 'photoz_specz_joined_by_row', 4, ('labels',))
def photoz_specz_joined_by_row(seed): return photoz_mlp(seed, joined_by_row=True)

@broken('Y', 'svm_zero_one_labels', (3, 4), ('labels', 'not_falling', 'flat', 'stuck'))
def svm_zero_one_labels(seed): return svm_cancer(seed, signed=False)  # y = 0 rows: max(0, 1 - 0 * f) = 1, no gradient; the loss floors at the malignant fraction

@broken('Y', 'music_tag_vocab_per_split', 4, ('labels',))
def music_tag_vocab_per_split(seed): return fcn_music_tags(seed, vocab_per_split=True)

@broken('Y', 'hed_mean_loss_with_sum_lr', (1, 3), ('lr_zero', 'frozen', 'not_updating', 'flat', 'stuck'))
def hed_mean_loss_with_sum_lr(seed): return hed_edges(seed, reduction='mean')  # the loss averaged (the PyTorch default), the lr tuned for the summed loss kept: steps 40960 times smaller

@broken('Y', 'compression_round_in_training', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def compression_round_in_training(seed): return compression_digits(seed, round_in_training=True)  # torch.round in training too: a zero gradient to the whole analysis transform

# Plain-loop checks (seed 0, seed 1 for the healthy ones; OMP_NUM_THREADS=1 on a busy machine, the factory's optimizer, batch size
# and step, train shuffled, valid in batches of 256; valid loss (and metric), init -> after N epochs):
CHECKS = """
phasenet_picks                6 ep: valid CE 1.155 -> 0.052 (the labels' positional prior 0.200), P and S picked within 0.2 s 0.18 ->
                              0.998 and 0.998; seed 1: 1.155 -> 0.051, 0.998, 0.992; first tried with Adam 1e-3: 0.218 after 4 ep,
                              still above the prior; 1.2 s an epoch
tempcnn_crops                 6 ep: valid CE 2.082 -> 0.395 (best 0.261 at 4 ep), accuracy 0.12 -> 0.87 (best 0.91), train 0.055;
                              seed 1: 2.077 -> 0.578 (best 0.337 at 3 ep), 0.83 (best 0.87); 1.2 s an epoch
channel_autoencoder           6 ep: valid CE 2.807 (ln 16 = 2.773) -> 0.049, block error rate 0.92 -> 0.000-0.004 (the noise drawn in
                              evaluation too); seed 1: 2.811 -> 0.052, 0.0025; 0.2 s an epoch
scvi_counts                   8 ep: valid negative ELBO 697 -> 477 a cell, still falling (a per-gene NB of the train frequencies: 587);
                              seed 1: 692 -> 473 (590); 0.1 s an epoch
gru4rec_sessions              5 ep: valid CE 6.005 -> 2.97, recall@20 0.05 -> 0.855 (25 ep, prefixes then padded to 11: 2.61, 0.90);
                              seed 1: 6.002 -> 3.08, 0.84; 1.1 s an epoch
pcnn_relations               12 ep: valid CE 2.33 -> 1.51 (best 1.44 at 10 ep), accuracy 0.07 -> 0.56 (NA 0.3); seed 1: 2.31 -> 1.67
                              (best 1.53), 0.53; first tried with 900 pairs of 1-6 sentences: 0.35 (2484 sentences too few with
                              SGD 0.1); 1.6 s an epoch
deep_hedging                  8 ep: valid MSE 17.9 -> 0.49 dollars^2, still falling (unhedged variance 12.1; Black-Scholes delta
                              0.144), premium 1.85 (BS 2.29); seed 1: 17.2 -> 0.49; first tried with Adam 1e-3: 6.2 after 8 ep, the
                              premium 0.25; 0.4 s an epoch
photoz_mlp                    8 ep: valid MSE 0.259 -> 0.0064 (the variance of z 0.023), sigma_NMAD 0.050, outliers 2%; seed 1: 0.255
                              -> 0.0065, 0.049; 0.05 s an epoch
svm_cancer                   10 ep: valid hinge 0.973 -> 0.106, accuracy 0.56 -> 0.97; seed 1: 0.956 -> 0.097, 1.00; 0.01 s an epoch
fcn_music_tags                6 ep: valid BCE 0.695 -> 0.230, mean ROC-AUC 0.50 -> 0.963; seed 1: 0.696 -> 0.272 (best 0.259), 0.948;
                              3.5 s an epoch, the factory 3-4 s (first with 2500 clips and a Gaussian per partial: 11 s, made lighter)
hed_edges                     5 ep: the summed loss 512 -> 410 an image (train), fused-map F1 (0.5, no tolerance) 0 -> 0.50; seed 1:
                              5 ep: 509 -> 470, 0.37 (slower start); first tried with the Caffe lr 1e-6: 512 -> 509 in 5 ep (its
                              images are 150 times larger); 1e-3: dead at 0 F1; 3-4 s an epoch
compression_digits            6 ep: valid rate-distortion loss 152.5 -> 9.7, PSNR 7.1 -> 19.7 dB at 2.36 bpp; seed 1: 152.5 -> 9.8,
                              19.6 dB; 1.5 s an epoch
phasenet_picks_not_shifted_with_window  the label P sits a median 239 samples from the waveform's P (S labels inside the window for
                              59% of the clips); 6 ep: valid 0.157 = the labels' positional prior (0.157), picks within 0.2 s 0.11
                              and 0.09 (healthy 0.052, 0.998)
tempcnn_random_pixel_split    every valid pixel has pixels of its parcel (its clouds, sowing date and soil) in train; 6 ep: valid 0.035,
                              accuracy 0.99 (healthy 0.395, 0.87); seed 1: 0.033, 0.99 (healthy 0.578, 0.83)
channel_ae_softmax_into_ce    initial valid 2.771 = ln 16 exactly; 10 ep: 1.881, the floor log(1 + 15/e) = 1.86 (healthy 0.049), block
                              error rate still 0.000-0.003
scvi_dispersion_without_exp   103 of 200 dispersions negative at init: log(theta) nan, the first batch's loss nan, every loss nan after
gru4rec_prefix_through_target every input ends with its own target; 5 ep: valid 0.127, recall@20 0.999 (healthy 2.97, 0.855). (First
                              written as a split of the prefixes after the augmentation: 82% of the valid targets in a train input
                              continuing their prefix, but no gain in 25 ep, the GRU never supervised on those pairs: dropped)
pcnn_split_by_sentence        99% of the valid sentences have their entity pair (and label) in train; 12 ep: valid 1.09 (best 1.06),
                              accuracy 0.66 (healthy 1.51, 0.56); seed 1: 1.08, 0.64 (healthy 1.67, 0.53)
hedging_payoff_keepdim        MSELoss broadcasts (256,) against (256, 1) (a warning); 8 ep: valid 17.5 -> 12.4, the variance of the
                              payoff (12.1): the hedge learns only the mean; each path's own error 12.2 (healthy 0.49)
photoz_specz_joined_by_row    correlation of the joined z with the true one 0.03; 8 ep: valid 0.025 = the variance of z (healthy
                              0.0064), sigma_NMAD 0.11-0.12, outliers 19%
svm_zero_one_labels           the 0-labelled (malignant) 38% of the rows give max(0, 1 - 0 f) = 1 and no gradient; 10 ep: valid hinge
                              1.004 -> 0.384 heading for that floor (healthy 0.106); sign accuracy still 0.956 at 10 ep, the bias
                              growing
music_tag_vocab_per_split     the valid columns in the valid split's own frequency order: 0 of 10 columns match train's (seeds 0-9:
                              0-2); 6 ep: valid BCE 0.695 -> 1.06 rising, ROC-AUC 0.50 (healthy 0.230, 0.963)
hed_mean_loss_with_sum_lr     3 ep: valid 0.5062 -> 0.5059 (4 outputs of about 0.125), F1 0 (healthy: F1 0.5 at 5 ep)
compression_round_in_training every analysis-transform gradient exactly zero; 6 ep: valid 152.5 -> 54.7, PSNR 10.9 dB at 2.13 bpp
                              (healthy 9.7, 19.7 dB): the synthesis fits the untrained encoder's rounded codes
"""
