"""Half X of the ladder's gallery: held out from the rules frozen at d3dad6e (round 31), and run once on them.
Families not in halves A-W: PatchTST (Nie et al.: RevIN, channel-independent patches of 16 with stride 8, a transformer
encoder, a flatten head; MSE, Adam 1e-4) forecasting the next 24 hours of an ETT-like series of seven channels from the last
96, split by time as the ETT loaders; CREPE (Kim et al.: six conv blocks with batch norm, max pooling and dropout over a raw
frame, a sigmoid per pitch bin of 20 cents, the binary cross-entropy to Gaussian-blurred targets) estimating the pitch of
synthetic harmonic frames; O'Shea's CNN2 classifying eight modulations from RadioML-like IQ frames (zero-padded 1x3 and 2x3
convolutions, dropout 0.5) through a channel with frequency, phase and timing offsets and AWGN at -4 to 18 dB; a 3-D CNN
(Hamida et al., as DeepHyperX: 3-D convolutions over 7x7 patches of 32 bands, strided along the spectrum, SGD) classifying
the land cover of a synthetic hyperspectral scene split by spatial blocks; K-NRM (Xiong et al.: a cosine translation
matrix over learnt word vectors, 11 RBF kernels with an exact-match one, the log soft-TF, tanh; the pairwise hinge on dict
batches of (query, better, worse) documents) re-ranking a first stage's top 10; a NeRF of a flatland scene (positional
encoding, an MLP with a skip, density and view-dependent colour, stratified samples, alpha compositing onto white; Adam
5e-4, batches of rays as (origin, direction, colour) tensors) with every 8th view held out as LLFF's; a restricted Boltzmann
machine trained by CD-1 in a custom step (the free-energy difference as the surrogate, the reconstruction error as the
loss the loop reports and validates; SGD with momentum) on binarised digits; CSRNet-style density-map counting (a VGG-like
front end, a dilated back end initialised N(0, 0.01), the summed MSE to densities times 100) of blobs on cluttered scenes,
the scenes split before they are cropped; the vanilla LSTM baseline of Social GAN (an encoder over displacements, a decoder fed
its own output, the ADE as the loss) forecasting 12 positions of pedestrians from 8, stationary walkers filtered out;
frame-level piano transcription (Onsets and Frames' acoustic stack shrunk: convolutions with batch norm and frequency max
pooling, a BiGRU, a frame head, BCE with logits) of synthetic log spectrograms against their piano rolls; a FoldingNet-style
autoencoder (Yang et al.: a PointNet encoder, two foldings of a 1-D grid) of 2-D outlines trained on the Chamfer distance;
and RotNet (Gidaris et al.: a network-in-network predicting which of four rotations each digit was turned by, the four
rotations made by a collate_fn; SGD with Nesterov momentum). Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its
decorators; ladder_gallery imports this module after half W.

Protocol: written by a helper in a worktree at 606344f, held out from the rules frozen at d3dad6e (round 31): the maintainer
read nothing of it before the freeze, and the helper wrote it without reading the ladder's rules (ntrain/ladder/*.py,
nbs/02_ladder and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's
results; only `ntrain.ladder`'s public signature and docstring and the factory format of halves A-W (their @broken lines for
the rung and cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind
(shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before
any ladder run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half X`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- PatchTST with RevIN forecasting an ETT-like hourly series
N_CH, LOOK, HOR, PATCH, STRIDE = 7, 96, 24, 16, 8

def _ett_like(seed, T=3000):
    """Seven hourly channels as ETTh (six loads, then an oil temperature): daily and weekly cycles with each channel's own
    amplitude and phase, a slowly wandering level, AR(1) noise (phi 0.7); the oil temperature a lagged smoothing of the loads."""
    g = _gen(seed * 1481); t = torch.arange(T).float()[:, None]
    amp_d, ph_d = 1 + torch.rand(N_CH, generator=g), 2 * math.pi * torch.rand(N_CH, generator=g)
    amp_w, ph_w = 0.6 * torch.rand(N_CH, generator=g), 2 * math.pi * torch.rand(N_CH, generator=g)
    level = torch.cumsum(0.03 * torch.randn(T, N_CH, generator=g), 0)
    e = 0.35 * torch.randn(T, N_CH, generator=g); ar = torch.zeros(T, N_CH)
    for k in range(1, T): ar[k] = 0.7 * ar[k - 1] + e[k]
    x = level + amp_d * torch.sin(2 * math.pi * t / 24 + ph_d) + amp_w * torch.sin(2 * math.pi * t / 168 + ph_w) + ar
    ot = torch.zeros(T); load = x[:, :-1].mean(1)
    for k in range(1, T): ot[k] = 0.9 * ot[k - 1] + 0.1 * load[k - 3 if k >= 3 else 0]
    x[:, -1] = 3 * ot + 0.1 * torch.randn(T, generator=g)
    return x

def _ett_windows(seed, shuffled_split=False):
    """Windows of 96 hours in, the next 24 out, stride 1. Healthy (the ETT loaders'): the timeline cut 80/20, the scaler fitted on
    the first 80%, the validation windows starting 96 hours before the cut. shuffled_split: every window of the scaled series
    made first, then a random 80/20 split of the windows (train_test_split's default shuffle)."""
    x = _ett_like(seed); T = len(x); cut = int(0.8 * T)
    if shuffled_split:
        x = (x - x.mean(0)) / x.std(0)
        w = x.unfold(0, LOOK + HOR, 1).transpose(1, 2)  # (N, 120, 7)
        p = torch.randperm(len(w), generator=_gen(seed * 1481 + 1)); k = len(w) // 5
        return TensorDataset(w[p[k:], :LOOK].contiguous(), w[p[k:], LOOK:].contiguous()), TensorDataset(w[p[:k], :LOOK].contiguous(), w[p[:k], LOOK:].contiguous())
    x = (x - x[:cut].mean(0)) / x[:cut].std(0)
    tr, va = x[:cut].unfold(0, LOOK + HOR, 1).transpose(1, 2), x[cut - LOOK:].unfold(0, LOOK + HOR, 1).transpose(1, 2)
    return TensorDataset(tr[:, :LOOK].contiguous(), tr[:, LOOK:].contiguous()), TensorDataset(va[:, :LOOK].contiguous(), va[:, LOOK:].contiguous())

class RevIN(nn.Module):  # Kim et al.: each input window normalised by its own mean and std, a learnt affine; undone on the output
    def __init__(self, c, eps=1e-5):
        super().__init__(); self.eps = eps; self.weight, self.bias = nn.Parameter(torch.ones(c)), nn.Parameter(torch.zeros(c))
    def norm(self, x):
        self.mean = x.mean(1, keepdim=True).detach(); self.stdev = (x.var(1, keepdim=True, unbiased=False) + self.eps).sqrt().detach()
        return (x - self.mean) / self.stdev * self.weight + self.bias
    def denorm(self, y): return (y - self.bias) / (self.weight + self.eps ** 2) * self.stdev + self.mean

class PatchTST(nn.Module):  # Nie et al.: channel-independent patches of 16 (stride 8, the end padded by repetition), a transformer encoder, a flatten head
    def __init__(self, d=64, heads=4, layers=2, ff=128, drop=0.1):
        super().__init__(); n_p = (LOOK - PATCH) // STRIDE + 2
        self.revin = RevIN(N_CH); self.embed = nn.Linear(PATCH, d)
        self.pos = nn.Parameter(torch.empty(1, n_p, d).uniform_(-0.02, 0.02)); self.drop = nn.Dropout(drop)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, heads, ff, drop, activation='gelu', batch_first=True), layers, enable_nested_tensor=False)
        self.head = nn.Sequential(nn.Flatten(-2), nn.Linear(n_p * d, HOR))
    def forward(self, x):  # (B, 96, 7) -> (B, 24, 7)
        z = self.revin.norm(x).transpose(1, 2)
        z = F.pad(z, (0, STRIDE), mode='replicate').unfold(-1, PATCH, STRIDE)  # (B, 7, 12, 16)
        B, C, P, _ = z.shape
        h = self.encoder(self.drop(self.embed(z).reshape(B * C, P, -1) + self.pos)).reshape(B, C, P, -1)
        return self.revin.denorm(self.head(h).transpose(1, 2))

@healthy('X')
def patchtst_ett(seed, shuffled_split=False):  # MSELoss, Adam 1e-4 (the ETTh scripts'), batches of 32
    tr, va = _ett_windows(seed, shuffled_split=shuffled_split)
    return dict(model=PatchTST, train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- CREPE estimating the pitch of synthetic voiced frames
SR_P, FRAME_P, N_BINS, CENTS_0 = 8000, 512, 120, 1200 * math.log2(100 / 10)  # 120 bins of 20 cents from 100 Hz (about 395 Hz at the top)

def _pitched_frames(seed, n, split):
    """Frames of 512 samples at 8 kHz: 1-10 harmonics (random amplitudes falling with the harmonic number, random phases, a
    slight vibrato) of an f0 uniform in cents over the 120 bins, white noise at 5-30 dB, each frame standardised as CREPE's.
    Targets: CREPE's, a Gaussian of 25 cents around the true pitch over the bins."""
    g = _gen(seed * 1483 + split); t = torch.arange(FRAME_P) / SR_P
    cents = CENTS_0 + 20 * (N_BINS - 1) * torch.rand(n, 1, generator=g); f0 = 10 * 2 ** (cents / 1200)
    f = f0 * (1 + 0.01 * torch.sin(2 * math.pi * 5 * t + 2 * math.pi * torch.rand(n, 1, generator=g)))
    phase = 2 * math.pi * torch.cumsum(f / SR_P, 1); n_h = torch.randint(1, 11, (n, 1), generator=g); x = torch.zeros(n, FRAME_P)
    for h in range(1, 11):
        amp = torch.rand(n, 1, generator=g) / h * (h <= n_h) * (f0 * h < SR_P / 2)
        x += amp * torch.sin(h * phase + 2 * math.pi * torch.rand(n, 1, generator=g))
    snr = 5 + 25 * torch.rand(n, 1, generator=g)
    x = x + x.std(1, keepdim=True) * 10 ** (-snr / 20) * torch.randn(n, FRAME_P, generator=g)
    x = (x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True)
    bins = CENTS_0 + 20 * torch.arange(N_BINS).float()
    return TensorDataset(x, torch.exp(-(bins - cents) ** 2 / (2 * 25 ** 2)))

class CREPE(nn.Module):  # Kim et al.: six conv blocks (conv, ReLU, batch norm, max pool 2, dropout 0.25), a dense sigmoid layer over the bins; 'tiny', shrunk to 512 samples
    def __init__(self, filters=(64, 8, 8, 8, 16, 32), widths=(64, 17, 17, 17, 17, 17)):
        super().__init__(); layers, c = [], 1
        for k, (f, w) in enumerate(zip(filters, widths)):
            conv = nn.Conv1d(c, f, w, stride=4, padding=(w - 4) // 2) if k == 0 else nn.Conv1d(c, f, w, padding='same')
            layers += [conv, nn.ReLU(), nn.BatchNorm1d(f), nn.MaxPool1d(2), nn.Dropout(0.25)]; c = f
        self.conv = nn.Sequential(*layers); self.fc = nn.Linear(c * 2, N_BINS)
    def forward(self, x): return torch.sigmoid(self.fc(self.conv(x[:, None]).flatten(1)))

@healthy('X')
def crepe_pitch(seed, loss=None):  # BCELoss on the sigmoid outputs (CREPE's binary cross-entropy), Adam 1e-3 (Keras' default; the paper's 2e-4 barely moves this small net in 6 epochs), batches of 32
    return dict(model=CREPE, train=_pitched_frames(seed, 4000, 0), valid=_pitched_frames(seed, 800, 1), loss=loss or nn.BCELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- O'Shea's CNN classifying the modulation of synthetic IQ frames
MODS = ('BPSK', 'QPSK', '8PSK', 'QAM16', 'PAM4', 'GFSK', 'AM-DSB', 'WBFM')
N_IQ, SPS = 128, 8

def _smooth_message(n, g, L):  # a band-limited 'audio' message: three low tones with random phases, unit peak
    t = torch.arange(L).float(); m = torch.zeros(n, L)
    for _ in range(3): m += torch.rand(n, 1, generator=g) * torch.sin(2 * math.pi * (0.002 + 0.02 * torch.rand(n, 1, generator=g)) * t + 2 * math.pi * torch.rand(n, 1, generator=g))
    return m / m.abs().amax(1, keepdim=True)

def _modulated(c, n, g):
    "n complex baseband frames of 128 samples of modulation c, 8 samples a symbol, a raised-cosine-like pulse, before the channel."
    L = N_IQ + 4 * SPS; name = MODS[c]; sym_n = L // SPS
    if name in ('BPSK', 'QPSK', '8PSK'):
        M = dict(BPSK=2, QPSK=4)[name] if name != '8PSK' else 8
        s = torch.exp(2j * math.pi * torch.randint(0, M, (n, sym_n), generator=g) / M + (1j * math.pi / 4 if M == 4 else 0))
    elif name == 'QAM16':
        lv = torch.tensor([-3., -1., 1., 3.]); s = (lv[torch.randint(0, 4, (n, sym_n), generator=g)] + 1j * lv[torch.randint(0, 4, (n, sym_n), generator=g)]) / math.sqrt(10)
    elif name == 'PAM4':
        s = torch.tensor([-3., -1., 1., 3.])[torch.randint(0, 4, (n, sym_n), generator=g)].to(torch.complex64) / math.sqrt(5)
    if name in ('BPSK', 'QPSK', '8PSK', 'QAM16', 'PAM4'):
        up = s.repeat_interleave(SPS, 1); pulse = torch.hann_window(SPS + 1, periodic=False); pulse = pulse / pulse.sum()
        re = F.conv1d(up.real[:, None].float(), pulse.view(1, 1, -1), padding=SPS // 2)[:, 0, :L]; im = F.conv1d(up.imag[:, None].float(), pulse.view(1, 1, -1), padding=SPS // 2)[:, 0, :L]
        return torch.complex(re, im)
    if name == 'GFSK':
        bits = (2 * torch.randint(0, 2, (n, sym_n), generator=g) - 1).float().repeat_interleave(SPS, 1)
        k = torch.exp(-0.5 * ((torch.arange(2 * SPS + 1) - SPS) / (0.5 * SPS)) ** 2); k = k / k.sum()
        freq = F.conv1d(bits[:, None], k.view(1, 1, -1), padding=SPS)[:, 0, :L]
        return torch.exp(1j * math.pi * 0.5 * torch.cumsum(freq, 1) / SPS)
    m = _smooth_message(n, g, L)
    if name == 'AM-DSB': return (1 + 0.8 * m).to(torch.complex64)
    return torch.exp(1j * 2 * math.pi * 0.08 * torch.cumsum(m, 1))  # WBFM

def _radio_frames(seed, n_per, split):
    """RadioML-like frames: each modulation, then the channel: a random carrier frequency offset (up to 1% of the sample rate),
    phase and timing offset, AWGN at an SNR uniform in -4 to 18 dB; unit average power; (N, 2, 128) I and Q."""
    g = _gen(seed * 1487 + split); xs, ys = [], []
    for c in range(len(MODS)):
        s = _modulated(c, n_per, g); start = torch.randint(0, 4 * SPS, (n_per,), generator=g)
        s = torch.stack([s[k, start[k]:start[k] + N_IQ] for k in range(n_per)])
        t = torch.arange(N_IQ).float()
        s = s * torch.exp(1j * (2 * math.pi * 0.01 * (2 * torch.rand(n_per, 1, generator=g) - 1) * t + 2 * math.pi * torch.rand(n_per, 1, generator=g)))
        s = s / s.abs().pow(2).mean(1, keepdim=True).sqrt()
        snr = -4 + 22 * torch.rand(n_per, 1, generator=g); sd = 10 ** (-snr / 20) / math.sqrt(2)
        s = s + sd * torch.complex(torch.randn(n_per, N_IQ, generator=g), torch.randn(n_per, N_IQ, generator=g))
        s = s / s.abs().pow(2).mean(1, keepdim=True).sqrt()
        xs.append(torch.stack([s.real, s.imag], 1).float()); ys.append(torch.full((n_per,), c))
    x, y = torch.cat(xs), torch.cat(ys); p = torch.randperm(len(y), generator=g)
    return TensorDataset(x[p], y[p])

class VTCNN2(nn.Module):  # O'Shea et al. 2016's CNN2 (256 and 80 filters there, 64 and 16 here): zero-padded 1x3 and 2x3 convolutions, dropout 0.5, a dense 128
    def __init__(self, n_classes=len(MODS), uniform_init=False, drop=0.5):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 64, (1, 3), padding=(0, 2)), nn.Conv2d(64, 16, (2, 3), padding=(0, 2))
        self.fc1, self.fc2, self.drop = nn.Linear(16 * (N_IQ + 4), 128), nn.Linear(128, n_classes), nn.Dropout(drop)
        if uniform_init:  # the Keras model's kernel_initializer='glorot_uniform' ported as nn.init.uniform_ (whose range is [0, 1) unless a, b are given)
            for m in (self.conv1, self.conv2, self.fc1, self.fc2): nn.init.uniform_(m.weight); nn.init.zeros_(m.bias)
    def forward(self, x):
        h = self.drop(F.relu(self.conv1(x[:, None]))); h = self.drop(F.relu(self.conv2(h)))
        return self.fc2(self.drop(F.relu(self.fc1(h.flatten(1)))))

@healthy('X')
def radioml_cnn2(seed, uniform_init=False):  # CrossEntropyLoss, Adam 1e-3 (O'Shea's), batches of 128
    return dict(model=lambda: VTCNN2(uniform_init=uniform_init), train=_radio_frames(seed, 600, 0), valid=_radio_frames(seed, 150, 1),
                loss=nn.CrossEntropyLoss(), num_classes=len(MODS), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a 3-D CNN classifying the pixels of a synthetic hyperspectral scene
H_HS, N_BANDS, N_LC, P_HS = 64, 32, 6, 7

def _hsi_scene(seed):
    """A 64x64 scene of 32 bands: 28 Voronoi fields, each of one of six land covers, with its own variant of the cover's
    spectrum (smooth endmember curves: one shared curve plus each cover's own 25%; each field perturbed by a smooth curve of
    15%) and a field-own brightness; a smooth illumination over the scene, 10% of a neighbouring cover mixed in near the
    field borders, noise 0.05. Bands standardised."""
    g = _gen(seed * 1489); wl = torch.linspace(0, 1, N_BANDS)
    def curves(k, s):
        c = torch.rand(k, 3, 1, generator=g); w = 0.08 + 0.2 * torch.rand(k, 3, 1, generator=g); a = torch.rand(k, 3, 1, generator=g)
        return s * (a * torch.exp(-(wl - c) ** 2 / (2 * w ** 2))).sum(1)
    endm = 0.3 + curves(1, 1.0) + curves(N_LC, 0.25)  # one shared vegetation-like curve, each cover's own 25% on it
    n_f = 28; seeds = torch.rand(n_f, 2, generator=g) * H_HS; cover = torch.randint(0, N_LC, (n_f,), generator=g)
    spec = endm[cover] * (1 + curves(n_f, 0.15) - 0.07) * (0.85 + 0.3 * torch.rand(n_f, 1, generator=g))
    yy, xx = torch.meshgrid(torch.arange(H_HS).float(), torch.arange(H_HS).float(), indexing='ij')
    d = ((torch.stack([yy, xx], -1)[:, :, None] - seeds) ** 2).sum(-1)  # (H, W, fields)
    two = d.topk(2, -1, largest=False); field = two.indices[..., 0]
    border = (two.values[..., 1].sqrt() - two.values[..., 0].sqrt()) < 1.5
    img = spec[field] + 0.1 * border[..., None] * (spec[two.indices[..., 1]] - spec[field])
    illum = 1 + 0.15 * F.interpolate(torch.randn(1, 1, 4, 4, generator=g), size=H_HS, mode='bicubic', align_corners=True)[0, 0]
    img = img * illum[..., None] + 0.05 * torch.randn(H_HS, H_HS, N_BANDS, generator=g)
    img = (img - img.mean((0, 1))) / img.std((0, 1))
    return img.permute(2, 0, 1), cover[field]  # (32, 64, 64), (64, 64)

def _hsi_split(seed, random_pixels=False):
    """Patches of 7x7 pixels around every pixel (the scene reflect-padded), the centre's cover the label. Healthy: the scene cut
    into 16 blocks of 16x16, 4 of them (at random) valid; train pixels whose patch reaches into a valid block dropped.
    random_pixels: a stratified random 25% of the pixels valid, the rest train (the patches overlap across the split)."""
    img, lab = _hsi_scene(seed); r = P_HS // 2; g = _gen(seed * 1489 + 1)
    pad = F.pad(img[None], (r, r, r, r), mode='reflect')[0]
    patches = pad.unfold(1, P_HS, 1).unfold(2, P_HS, 1).permute(1, 2, 0, 3, 4).reshape(-1, N_BANDS, P_HS, P_HS)  # (4096, 32, 7, 7)
    y = lab.flatten()
    if random_pixels:
        va = torch.zeros(len(y), dtype=torch.bool)
        for c in range(N_LC):
            idx = (y == c).nonzero()[:, 0]; va[idx[torch.randperm(len(idx), generator=g)[:len(idx) // 4]]] = True
        tr = ~va
    else:
        blocks = torch.randperm(16, generator=g)[:4]; bv = torch.zeros(4, 4, dtype=torch.bool); bv.view(-1)[blocks] = True
        vmask = bv.repeat_interleave(16, 0).repeat_interleave(16, 1)
        near = F.max_pool2d(vmask[None, None].float(), P_HS, 1, r)[0, 0] > 0
        va, tr = vmask.flatten(), (~near).flatten()
    return TensorDataset(patches[tr][:, None], y[tr]), TensorDataset(patches[va][:, None], y[va])

class HSI3DCNN(nn.Module):  # Hamida et al.'s 3-D CNN shrunk (DeepHyperX's 'hamida'): 3-D convolutions over (bands, 7, 7), the spectral axis strided, a linear classifier
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv3d(1, 16, (3, 3, 3), padding=(1, 1, 1)); self.pool1 = nn.Conv3d(16, 16, (3, 1, 1), stride=(2, 1, 1), padding=(1, 0, 0))
        self.conv2 = nn.Conv3d(16, 24, (3, 3, 3)); self.pool2 = nn.Conv3d(24, 24, (3, 1, 1), stride=(2, 1, 1), padding=(1, 0, 0))
        self.conv3 = nn.Conv3d(24, 24, (3, 3, 3)); self.fc = nn.Linear(24 * 5 * 3 * 3, N_LC)
    def forward(self, x):
        x = F.relu(self.pool1(F.relu(self.conv1(x)))); x = F.relu(self.pool2(F.relu(self.conv2(x)))); x = F.relu(self.conv3(x))
        return self.fc(x.flatten(1))

@healthy('X')
def hsi_3dcnn(seed, random_pixels=False):  # CrossEntropyLoss, SGD 0.01 with momentum 0.9 and weight decay 5e-4 (DeepHyperX's for hamida), batches of 100
    tr, va = _hsi_split(seed, random_pixels=random_pixels)
    return dict(model=HSI3DCNN, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=N_LC,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, weight_decay=5e-4), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- K-NRM ranking documents with kernel pooling
V_IR, D_IR, Q_IR, L_IR, N_TOPIC = 500, 50, 4, 30, 20  # ids 1-99 general words, 100-499 twenty topics of 20 words; 0 pads

def _ir_vectors(seed):
    "word2vec-like vectors (the collection's own, trained beforehand): each topic's words around its topic's direction."
    g = _gen(seed * 1493); e = torch.randn(V_IR, D_IR, generator=g)
    centre = torch.randn(N_TOPIC, D_IR, generator=g)
    e[100:] = 1.2 * centre.repeat_interleave(20, 0) + e[100:]; e[0] = 0
    return e

def _ir_queries(seed, n_q, split, text_sorted_qrels=False):
    """Queries of 2-4 words of one topic, 10 candidates each (the first stage's top 10): two documents with relevance 2 (most of
    the query's words and words of its topic), three with 1 (one query word, or none, with topic words), five with 0 (another
    topic's words, one of them sharing a query word); documents 30 words, the rest general words. Pairs: each (better, worse)
    candidate pair of a query. text_sorted_qrels: the judgements read from a qrels file sorted by document id as text
    ('d10' before 'd2'), the candidates in the run's order."""
    g = _gen(seed * 1493 + 1 + split); ri = lambda a, b: int(torch.randint(a, b, (1,), generator=g))
    Q, D, R = [], [], []
    for _ in range(n_q):
        t = ri(0, N_TOPIC); tw = 100 + 20 * t + torch.randperm(20, generator=g); nq = ri(2, 5); qw = tw[:nq]
        q = torch.zeros(Q_IR, dtype=torch.long); q[:nq] = qw; docs, rels = [], []
        for rel in (2, 2, 1, 1, 1, 0, 0, 0, 0, 0):
            d = torch.randint(1, 100, (L_IR,), generator=g); pos = torch.randperm(L_IR, generator=g)
            if rel == 2: planted = torch.cat([qw[torch.randperm(nq, generator=g)[:max(2, nq - 1)]].repeat(2), tw[nq + torch.randperm(20 - nq, generator=g)[:4]]])
            elif rel == 1: planted = torch.cat([qw[torch.randperm(nq, generator=g)[:ri(0, 2)]], tw[nq + torch.randperm(20 - nq, generator=g)[:5]]])
            else:
                o = (t + ri(1, N_TOPIC)) % N_TOPIC; planted = 100 + 20 * o + torch.randperm(20, generator=g)[:6]
                if len(docs) == 5: planted = torch.cat([planted, qw[:1]])
            d[pos[:len(planted)]] = planted; docs.append(d); rels.append(rel)
        perm = torch.randperm(10, generator=g); docs = torch.stack(docs)[perm]; rels = torch.tensor(rels)[perm]
        if text_sorted_qrels: rels = rels[sorted(range(10), key=lambda k: f'd{k}')]
        Q.append(q); D.append(docs); R.append(rels)
    return torch.stack(Q), torch.stack(D), torch.stack(R)

class RankPairs(Dataset):  # one item a (query, better document, worse document) triple as a dict
    def __init__(self, q, d, r):
        self.items = [(i, a, b) for i in range(len(q)) for a in range(10) for b in range(10) if r[i, a] > r[i, b]]; self.q, self.d = q, d
    def __len__(self): return len(self.items)
    def __getitem__(self, k): i, a, b = self.items[k]; return dict(query=self.q[i], pos=self.d[i, a], neg=self.d[i, b])

class KNRM(nn.Module):  # Xiong et al. 2017: cosine translation matrix, 11 RBF kernels (an exact-match kernel at 1), log soft-TF summed over query words, tanh(w phi + b)
    def __init__(self, vectors, clamp=True):
        super().__init__(); self.clamp = clamp
        self.emb = nn.Embedding.from_pretrained(vectors, freeze=False, padding_idx=0)
        self.register_buffer('mu', torch.tensor([1.0] + [0.9 - 0.2 * k for k in range(10)])); self.register_buffer('sigma', torch.tensor([1e-3] + [0.1] * 10))
        self.dense = nn.Linear(11, 1)
    def forward(self, q, d):
        qm, dm = (q > 0).float(), (d > 0).float()
        sim = F.normalize(self.emb(q), dim=-1) @ F.normalize(self.emb(d), dim=-1).transpose(1, 2)  # (B, Q, L)
        k = torch.exp(-(sim[..., None] - self.mu) ** 2 / (2 * self.sigma ** 2)) * dm[:, None, :, None]
        tf = k.sum(2)  # (B, Q, 11)
        log_tf = torch.log(tf.clamp(min=1e-10)) * 0.01 if self.clamp else torch.log(tf) * 0.01
        return torch.tanh(self.dense((log_tf * qm[..., None]).sum(1))).squeeze(-1)

def _knrm_fwd(model, b): sp = model(b['query'], b['pos']); return (sp, model(b['query'], b['neg'])), torch.ones_like(sp)

def pairwise_hinge(out, target): sp, sn = out; return F.margin_ranking_loss(sp, sn, target, margin=1.0)

@healthy('X')
def knrm_ranking(seed, clamp=True):  # the pairwise hinge (margin 1), Adam 1e-3 (K-NRM's), batches of 64 pairs
    vec = _ir_vectors(seed)
    return dict(model=lambda: KNRM(vec, clamp=clamp), train=DataLoader(RankPairs(*_ir_queries(seed, 300, 0)), batch_size=64, shuffle=True),
                valid=DataLoader(RankPairs(*_ir_queries(seed, 80, 1)), batch_size=256), forward=_knrm_fwd, loss=pairwise_hinge,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a NeRF of a flatland scene (2-D, 1-D cameras)
N_PIX, N_SAMP, NEAR, FAR = 64, 32, 2.0, 6.0

def _flatland_rays(seed, n_views=100, hold=8, text_sorted_poses=False):
    """Five coloured opaque discs (radius 0.2-0.5) within 1.3 of the origin on a white background; 100 cameras on a circle of
    radius 4 looking at the origin (a jitter of 5 degrees), 64 pixels over a 50-degree field of view, the pixel the colour of
    the first disc its ray hits. Every 8th view (0, 8, ...) held out for validation, as LLFF's llffhold=8. text_sorted_poses: the poses read from
    sorted(glob('poses/*.txt')) ('r_10' before 'r_2'), the images by index."""
    g = _gen(seed * 1499); c = (torch.rand(5, 2, generator=g) * 2 - 1) * 0.9; rad = 0.2 + 0.3 * torch.rand(5, generator=g); col = torch.rand(5, 3, generator=g)
    ang = 2 * math.pi * torch.rand(n_views, generator=g); head = ang + math.pi + math.radians(5) * torch.randn(n_views, generator=g)
    def rays(a, h):
        o = 4 * torch.stack([a.cos(), a.sin()], -1)[:, None].expand(-1, N_PIX, 2)
        th = h[:, None] + torch.linspace(-1, 1, N_PIX) * math.radians(25)
        return o, torch.stack([th.cos(), th.sin()], -1)
    o, d = rays(ang, head)  # the images rendered from the true poses
    oc = o[..., None, :] - c; b = (oc * d[..., None, :]).sum(-1); disc = b ** 2 - ((oc ** 2).sum(-1) - rad ** 2)
    t = torch.where(disc > 0, -b - disc.clamp(min=0).sqrt(), torch.tensor(float('inf'))); t = torch.where(t > 0, t, torch.tensor(float('inf')))
    tmin, first = t.min(-1); rgb = torch.where(torch.isfinite(tmin)[..., None], col[first], torch.ones(3))
    if text_sorted_poses:
        p = sorted(range(n_views), key=lambda k: f'r_{k}.txt'); o, d = rays(ang[p], head[p])
    va = torch.arange(n_views) % hold == 0; fl = lambda z: z.reshape(-1, z.size(-1))
    return TensorDataset(fl(o[~va]), fl(d[~va]), fl(rgb[~va])), TensorDataset(fl(o[va]), fl(d[va]), fl(rgb[va]))

def _posenc(x, L): return torch.cat([x] + [f(2 ** k * math.pi * x) for k in range(L) for f in (torch.sin, torch.cos)], -1)

class FlatNeRF(nn.Module):  # Mildenhall et al. shrunk: 6 frequencies of (x, y), 4 x 128 ReLU with a skip, density (ReLU), colour (sigmoid) from the features and 2 frequencies of the direction
    def __init__(self, w=128, L=6, Ld=2):
        super().__init__(); self.L, self.Ld = L, Ld; din = 2 + 4 * L
        self.l1 = nn.Sequential(nn.Linear(din, w), nn.ReLU(), nn.Linear(w, w), nn.ReLU()); self.l2 = nn.Sequential(nn.Linear(w + din, w), nn.ReLU(), nn.Linear(w, w), nn.ReLU())
        self.sigma = nn.Linear(w, 1); self.rgb = nn.Sequential(nn.Linear(w + 2 + 4 * Ld, w // 2), nn.ReLU(), nn.Linear(w // 2, 3))
    def forward(self, o, d):  # stratified samples in training, evenly spaced in eval; alpha compositing onto white
        t = torch.linspace(NEAR, FAR, N_SAMP, device=o.device).expand(len(o), N_SAMP)
        if self.training: t = t + (torch.rand_like(t) - 0.5) * (FAR - NEAR) / N_SAMP
        x = _posenc(o[:, None] + d[:, None] * t[..., None], self.L); h = self.l1(x); h = self.l2(torch.cat([h, x], -1))
        sigma = F.relu(self.sigma(h)[..., 0]); c = torch.sigmoid(self.rgb(torch.cat([h, _posenc(d, self.Ld)[:, None].expand(-1, N_SAMP, -1)], -1)))
        delta = torch.cat([t[:, 1:] - t[:, :-1], torch.full_like(t[:, :1], 1e10)], 1)
        alpha = 1 - torch.exp(-sigma * delta); T = torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1 - alpha + 1e-10], 1), 1)[:, :-1]
        w = alpha * T; return (w[..., None] * c).sum(1) + (1 - w.sum(1, keepdim=True))

def _nerf_fwd(model, b): o, d, rgb = b; return model(o, d), rgb

@healthy('X')
def nerf_flatland(seed, text_sorted_poses=False):  # MSELoss, Adam 5e-4 (NeRF's), batches of 256 rays
    tr, va = _flatland_rays(seed, text_sorted_poses=text_sorted_poses)
    return dict(model=FlatNeRF, train=tr, valid=va, forward=_nerf_fwd, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=5e-4),
                **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- a restricted Boltzmann machine trained by contrastive divergence
class RBM(nn.Module):  # 64 binary visible units, 100 hidden; the forward a mean-field reconstruction (what the loop monitors)
    def __init__(self, nv=64, nh=100):
        super().__init__(); self.W = nn.Parameter(0.01 * torch.randn(nh, nv)); self.v_bias, self.h_bias = nn.Parameter(torch.zeros(nv)), nn.Parameter(torch.zeros(nh))
    def p_h(self, v): return torch.sigmoid(F.linear(v, self.W, self.h_bias))
    def p_v(self, h): return torch.sigmoid(F.linear(h, self.W.t(), self.v_bias))
    def free_energy(self, v): return -(v @ self.v_bias) - F.softplus(F.linear(v, self.W, self.h_bias)).sum(1)
    def forward(self, v): return self.p_v(self.p_h(v))

def _cd_step(k=1, flipped=False):
    def step_cd(model, batch, opt):  # CD-k: a Gibbs chain from the data, the free-energy difference as the surrogate loss; returns the reconstruction error
        v0, _ = batch; v = v0
        for _ in range(k): v = torch.bernoulli(model.p_v(torch.bernoulli(model.p_h(v))))
        opt.zero_grad()
        cd = model.free_energy(v).mean() - model.free_energy(v0).mean() if flipped else model.free_energy(v0).mean() - model.free_energy(v).mean()
        cd.backward(); opt.step()
        with torch.no_grad(): return F.mse_loss(model(v0), v0)
    return step_cd

@healthy('X')
def rbm_cd_digits(seed, flipped=False):  # binarised digits; the reconstruction MSE as the loss; SGD 0.1 with momentum 0.5 (Hinton's guide), batches of 20
    (x, _), (vx, _) = _digits(seed); xb, vxb = (x > 0.3).float().flatten(1), (vx > 0.3).float().flatten(1)
    return dict(model=RBM, train=TensorDataset(xb, xb), valid=TensorDataset(vxb, vxb), loss=nn.MSELoss(), step=_cd_step(flipped=flipped),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.5), **_keys(seed, batch_size=20))

# ---------------------------------------------------------------- density-map counting of blobs (CSRNet-style)
S_CR, SCALE_CR = 128, 100.0  # scenes of 128x128 cut into 64x64 crops; densities times 100 (the C^3 framework's LOG_PARA)

def _crowd_scenes(seed, n):
    """Scenes of 128x128: 5-150 small bright 'heads' (Gaussian blobs, sigma 0.8-1.6), half of them in one to three groups, on a
    cluttered background (a smooth texture, 3-8 large soft blobs, a few bright lines), noise 0.05. Density: a unit-mass
    Gaussian (sigma 2) at each head, summed 4x4 to the net's 1/4 resolution (its sum the count)."""
    g = _gen(seed * 1511); yy, xx = torch.meshgrid(torch.arange(S_CR).float(), torch.arange(S_CR).float(), indexing='ij')
    imgs, dens = torch.zeros(n, 1, S_CR, S_CR), torch.zeros(n, 1, S_CR // 4, S_CR // 4)
    for k in range(n):
        m = int(torch.randint(5, 151, (1,), generator=g)); grp = torch.rand(int(torch.randint(1, 4, (1,), generator=g)), 2, generator=g) * S_CR
        p = torch.rand(m, 2, generator=g) * S_CR; near = torch.rand(m, generator=g) < 0.5
        p[near] = (grp[torch.randint(0, len(grp), (int(near.sum()),), generator=g)] + 10 * torch.randn(int(near.sum()), 2, generator=g)).clamp(0, S_CR - 1)
        d2 = (yy[..., None] - p[:, 0]) ** 2 + (xx[..., None] - p[:, 1]) ** 2
        sig = 0.8 + 0.8 * torch.rand(m, generator=g)
        heads = ((0.5 + 0.5 * torch.rand(m, generator=g)) * torch.exp(-d2 / (2 * sig ** 2))).sum(-1)
        bg = 0.3 * F.interpolate(torch.rand(1, 1, 8, 8, generator=g), size=S_CR, mode='bicubic', align_corners=True)[0, 0]
        nb = int(torch.randint(3, 9, (1,), generator=g)); q = torch.rand(nb, 2, generator=g) * S_CR
        bg = bg + (0.4 * torch.rand(nb, generator=g) * torch.exp(-((yy[..., None] - q[:, 0]) ** 2 + (xx[..., None] - q[:, 1]) ** 2) / (2 * (4 + 6 * torch.rand(nb, generator=g)) ** 2))).sum(-1)
        for _ in range(int(torch.randint(0, 4, (1,), generator=g))):
            r = int(torch.randint(0, S_CR, (1,), generator=g)); bg[r:r + 1] += 0.5 if torch.rand(1, generator=g) < 0.5 else 0; bg[:, r:r + 1] += 0.3
        imgs[k, 0] = bg + heads + 0.05 * torch.randn(S_CR, S_CR, generator=g)
        dm = (torch.exp(-d2 / 8) / (8 * math.pi)).sum(-1)
        dens[k, 0] = F.avg_pool2d(dm[None, None], 4)[0, 0] * 16
    return imgs, dens * SCALE_CR

def _crops(imgs, dens):  # nine 64x64 crops of each scene, stride 32 (the density at 1/4: 16x16, stride 8)
    c = [(imgs[:, :, i:i + 64, j:j + 64], dens[:, :, i // 4:i // 4 + 16, j // 4:j // 4 + 16]) for i in (0, 32, 64) for j in (0, 32, 64)]
    return torch.stack([a for a, _ in c], 1).flatten(0, 1), torch.stack([b for _, b in c], 1).flatten(0, 1)

def _counting_split(seed, crops_first=False):
    """Healthy: 120 scenes train, 30 valid, each then cut into its crops. crops_first: every scene's crops made first (the
    preprocessing script's 'patches/' folder), then a random 80/20 split of the crops: overlapping crops of a scene on both sides."""
    imgs, dens = _crowd_scenes(seed, 150)
    if crops_first:
        x, d = _crops(imgs, dens); p = torch.randperm(len(x), generator=_gen(seed * 1511 + 1)); k = len(x) // 5
        return TensorDataset(x[p[k:]], d[p[k:]]), TensorDataset(x[p[:k]], d[p[:k]])
    return TensorDataset(*_crops(imgs[:120], dens[:120])), TensorDataset(*_crops(imgs[120:], dens[120:]))

class CSRNetLite(nn.Module):  # Li et al. 2018 shrunk: a VGG-style front end to 1/4 resolution, a dilated back end (dilation 2), a 1x1 density head; the back end N(0, 0.01) as theirs
    def __init__(self):
        super().__init__(); cr = lambda a, b, d=1: [nn.Conv2d(a, b, 3, padding=d, dilation=d), nn.ReLU()]
        self.frontend = nn.Sequential(*cr(1, 16), *cr(16, 16), nn.MaxPool2d(2), *cr(16, 32), *cr(32, 32), nn.MaxPool2d(2))
        self.backend = nn.Sequential(*cr(32, 32, 2), *cr(32, 32, 2), *cr(32, 16, 2)); self.out = nn.Conv2d(16, 1, 1)
        for m in [*self.backend, self.out]:
            if isinstance(m, nn.Conv2d): nn.init.normal_(m.weight, std=0.01); nn.init.zeros_(m.bias)
    def forward(self, x): return self.out(self.backend(self.frontend(x)))

@healthy('X')
def csrnet_counting(seed, crops_first=False):  # MSELoss (summed, as CSRNet's size_average=False), Adam 1e-4, batches of 8 crops
    tr, va = _counting_split(seed, crops_first=crops_first)
    return dict(model=CSRNetLite, train=tr, valid=va, loss=nn.MSELoss(reduction='sum'), optimizer=lambda p: torch.optim.Adam(p, lr=1e-4),
                **_keys(seed, batch_size=8))

# ---------------------------------------------------------------- pedestrian trajectories: 8 positions observed, 12 predicted
OBS, PRED, DT = 8, 12, 0.4

def _pedestrians(seed, n, split):
    """Tracks of 20 frames (0.4 s apart) in metres: a walking speed of 0.6-1.8 m/s that drifts, a heading whose turning rate
    wanders (a random walk, damped), some walkers slowing to a stop or starting to walk, a few standing still throughout (speed
    under 0.1 m/s); positions observed with noise 0.03 m."""
    g = _gen(seed * 1523 + split); T = OBS + PRED
    speed = 0.6 + 1.2 * torch.rand(n, 1, generator=g); still = torch.rand(n, generator=g) < 0.12; speed[still] = 0.05 * torch.rand(int(still.sum()), 1, generator=g)
    ramp = torch.ones(n, T); k = torch.rand(n, generator=g); t = torch.arange(T).float()
    stop, start = k < 0.1, (k >= 0.1) & (k < 0.2); at = torch.randint(4, 16, (n, 1), generator=g)
    ramp[stop] = (1 - (t - at[stop]).clamp(0, 5) / 5); ramp[start] = (t - at[start]).clamp(0, 5) / 5
    v = speed * ramp * (1 + torch.cumsum(0.03 * torch.randn(n, T, generator=g), 1))
    rate = torch.zeros(n, T); e = 0.04 * torch.randn(n, T, generator=g); rate[:, 0] = 0.15 * torch.randn(n, generator=g)
    for j in range(1, T): rate[:, j] = 0.9 * rate[:, j - 1] + e[:, j]
    head = 2 * math.pi * torch.rand(n, 1, generator=g) + torch.cumsum(rate, 1)
    step = DT * v[..., None] * torch.stack([head.cos(), head.sin()], -1)
    pos = 15 * torch.rand(n, 1, 2, generator=g) + torch.cumsum(step, 1)
    return pos + 0.03 * torch.randn(n, T, 2, generator=g)

def _trajectories(seed, n, split, filter_obs_only=False):
    """The walkers who stand still dropped (moved less than 0.5 m over the 20 frames). Inputs: the 8 observed positions;
    targets: the 12 next positions; both relative to the last observed position. filter_obs_only: the filter written into
    the observations' comprehension only, the targets from every track, the longer list cut to the shorter."""
    tracks = _pedestrians(seed, n, split); moving = lambda tr: float((tr[-1] - tr[0]).norm()) > 0.5
    obs = [tr[:OBS] - tr[OBS - 1] for tr in tracks if moving(tr)]
    fut = [tr[OBS:] - tr[OBS - 1] for tr in tracks if moving(tr)] if not filter_obs_only else [tr[OBS:] - tr[OBS - 1] for tr in tracks]
    fut = fut[:len(obs)]
    return TensorDataset(torch.stack(obs), torch.stack(fut))

class VanillaLSTM(nn.Module):  # Social GAN's 'vanilla LSTM' baseline: displacements embedded (16), an LSTM encoder (32), an LSTM decoder fed its own last displacement
    def __init__(self, emb=16, h=32):
        super().__init__(); self.emb = nn.Linear(2, emb); self.enc = nn.LSTM(emb, h, batch_first=True); self.dec = nn.LSTMCell(emb, h); self.out = nn.Linear(h, 2)
    def forward(self, obs):
        disp = obs[:, 1:] - obs[:, :-1]; _, (h, c) = self.enc(F.relu(self.emb(disp))); h, c = h[0], c[0]; last, preds = disp[:, -1], []
        for _ in range(PRED):
            h, c = self.dec(F.relu(self.emb(last)), (h, c)); last = self.out(h); preds.append(last)
        return torch.cumsum(torch.stack(preds, 1), 1)  # positions relative to the last observed one

def ade_loss(pred, fut): return (pred - fut).norm(dim=-1).mean()  # the average displacement error, metres

@healthy('X')
def trajectory_lstm(seed, filter_obs_only=False):  # the ADE as the loss, Adam 1e-3 (Social GAN's), batches of 64
    return dict(model=VanillaLSTM, train=_trajectories(seed, 4000, 0, filter_obs_only), valid=_trajectories(seed, 1000, 1, filter_obs_only), loss=ade_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- frame-level piano transcription from a log spectrogram
N_PITCH, BPS, N_FB, FPS_T, CLIP_T = 24, 2, 112, 31.25, 64  # 24 pitches (MIDI 48-71), 2 bins a semitone over 56 semitones, 31.25 frames a second (hop 512 at 16 kHz), clips of 64 frames

def _piano_clips(seed, n, split, roll_fs=FPS_T):
    """Clips of 2.05 s: 3-12 notes (onset uniform, 0.1-0.8 s long, velocity 0.3-1), each 6 harmonics of a random timbre
    decaying after its onset, with a 0.1 s release; the 'CQT' a Gaussian peak (width 0.6 bins) per partial, a noise floor,
    log(1 + 10 S). The piano roll (N, 64, 24) from the notes at `roll_fs` frames a second, cropped to the clip's 64 frames
    (roll_fs=100: pretty_midi's get_piano_roll default, 0.64 s of labels over a 2.05 s clip)."""
    g = _gen(seed * 1531 + split); fb = torch.arange(N_FB).float(); t = torch.arange(CLIP_T).float() / FPS_T
    X, Y = torch.zeros(n, CLIP_T, N_FB), torch.zeros(n, CLIP_T, N_PITCH)
    for k in range(n):
        m = int(torch.randint(3, 13, (1,), generator=g)); pitch = torch.randint(0, N_PITCH, (m,), generator=g)
        on = torch.rand(m, generator=g) * CLIP_T / FPS_T; off = on + 0.1 + 0.7 * torch.rand(m, generator=g); vel = 0.3 + 0.7 * torch.rand(m, generator=g)
        env = vel[:, None] * torch.exp(-1.5 * (t - on[:, None]).clamp(min=0)) * ((t >= on[:, None]) & (t < off[:, None] + 0.1)).float()
        env = env * torch.where(t < off[:, None], 1.0, 0.3)
        timbre = torch.rand(m, 6, generator=g) / torch.arange(1, 7).float()
        for h in range(6):
            centre = BPS * (pitch.float() + 12 * math.log2(h + 1))
            X[k] += (env[:, :, None] * timbre[:, h, None, None] * torch.exp(-(fb - centre[:, None, None]) ** 2 / (2 * 0.6 ** 2))).sum(0)
        X[k] = torch.log1p(10 * (X[k] + 0.02 * torch.rand(CLIP_T, N_FB, generator=g)))
        tr = torch.arange(CLIP_T).float() / roll_fs
        Y[k] = (((tr >= on[:, None]) & (tr < off[:, None])).float()[:, :, None] * F.one_hot(pitch, N_PITCH)[:, None].float()).amax(0)
    return TensorDataset(X[:, None], Y)

class AcousticModel(nn.Module):  # Onsets and Frames' acoustic stack (Kelz et al.'s convolutions, batch norm, max pools over frequency), shrunk; a BiGRU; a frame head
    def __init__(self, c=16, h=64):
        super().__init__(); cb = lambda a, b: [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU()]
        self.conv = nn.Sequential(*cb(1, c), *cb(c, c), nn.MaxPool2d((1, 2)), nn.Dropout(0.25), *cb(c, 2 * c), nn.MaxPool2d((1, 2)), nn.Dropout(0.25))
        self.fc = nn.Sequential(nn.Linear(2 * c * (N_FB // 4), 128), nn.Dropout(0.5)); self.rnn = nn.GRU(128, h, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * h, N_PITCH)
    def forward(self, x):  # (B, 1, T, F) -> frame logits (B, T, 24)
        z = self.conv(x); z = self.fc(z.transpose(1, 2).flatten(2)); return self.head(self.rnn(z)[0])

@healthy('X')
def piano_frames(seed, roll_fs=FPS_T):  # BCEWithLogitsLoss over frames and pitches, Adam 6e-4 (Onsets and Frames'), batches of 8 clips
    return dict(model=AcousticModel, train=_piano_clips(seed, 480, 0, roll_fs), valid=_piano_clips(seed, 120, 1, roll_fs), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=6e-4), **_keys(seed, batch_size=8))

# ---------------------------------------------------------------- a FoldingNet-style autoencoder of 2-D outlines, the Chamfer distance
N_PTS = 128

def _outlines(seed, n, split):
    """128 points on the outline of a circle, an ellipse, a square, a triangle, a five-pointed star or a cross, rotated and
    scaled (0.6-1.2) at random, jittered by 0.01."""
    g = _gen(seed * 1543 + split); u = torch.rand(n, N_PTS, generator=g); kind = torch.randint(0, 6, (n,), generator=g)
    def polygon(v, u):  # points at fractions u of the perimeter of the closed polygon v (k, 2)
        e = torch.roll(v, -1, 0) - v; L = e.norm(dim=1); c = torch.cumsum(L, 0) / L.sum(); i = torch.searchsorted(c, u.clamp(max=0.9999))
        f = (u - (c[i] - L[i] / L.sum())) / (L[i] / L.sum()); return v[i] + f[:, None] * e[i]
    a = torch.arange(5).float() * 2 * math.pi / 5 + math.pi / 2
    star = torch.stack([torch.stack([r * torch.cos(b), r * torch.sin(b)], -1) for b, r in zip(torch.stack([a, a + math.pi / 5], 1).flatten(), [1.0, 0.4] * 5)])
    cross = torch.tensor([[-.3, 1], [.3, 1], [.3, .3], [1, .3], [1, -.3], [.3, -.3], [.3, -1], [-.3, -1], [-.3, -.3], [-1, -.3], [-1, .3], [-.3, .3]])
    shapes = {2: torch.tensor([[-1., -1], [1, -1], [1, 1], [-1, 1]]) * 0.8, 3: torch.tensor([[0., 1], [-.87, -.5], [.87, -.5]]), 4: star, 5: cross}
    pts = torch.zeros(n, N_PTS, 2)
    for k in range(n):
        c = int(kind[k]); th = 2 * math.pi * u[k]
        pts[k] = torch.stack([th.cos(), th.sin()], -1) * (torch.tensor([1.0, 0.5]) if c == 1 else 1) if c < 2 else polygon(shapes[c], u[k])
    rot = 2 * math.pi * torch.rand(n, generator=g); R = torch.stack([torch.stack([rot.cos(), -rot.sin()], -1), torch.stack([rot.sin(), rot.cos()], -1)], -2)
    pts = pts @ R.transpose(1, 2) * (0.6 + 0.6 * torch.rand(n, 1, 1, generator=g)) + 0.01 * torch.randn(n, N_PTS, 2, generator=g)
    return TensorDataset(pts, pts)

class FoldingNet(nn.Module):  # Yang et al. 2018 for 2-D, shrunk: a PointNet encoder (shared MLP, max pool) to a 128-d codeword, two foldings (MLPs of 128) of a 1-D grid of 128 points
    def __init__(self, code=128, w=128, codeword_data=False):
        super().__init__(); self.codeword_data = codeword_data
        self.enc = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, code))
        self.fold1 = nn.Sequential(nn.Linear(code + 1, w), nn.ReLU(), nn.Linear(w, w), nn.ReLU(), nn.Linear(w, 2))
        self.fold2 = nn.Sequential(nn.Linear(code + 2, w), nn.ReLU(), nn.Linear(w, w), nn.ReLU(), nn.Linear(w, 2))
        self.register_buffer('grid', torch.linspace(-1, 1, N_PTS)[:, None])
    def forward(self, pts):
        cw = self.enc(pts).max(1)[0]
        if self.codeword_data: cw = cw.data  # Variable-era code: "the max's values as a plain tensor"
        cw = cw[:, None].expand(-1, N_PTS, -1)
        f1 = self.fold1(torch.cat([cw, self.grid.expand(len(pts), -1, -1)], -1))
        return self.fold2(torch.cat([cw, f1], -1))

def chamfer(a, b):  # the mean over both point sets of the squared distance to the nearest point of the other
    d = torch.cdist(a, b) ** 2; return d.min(2)[0].mean() + d.min(1)[0].mean()

@healthy('X')
def foldingnet_outlines(seed, codeword_data=False):  # the Chamfer distance, Adam 1e-4 (FoldingNet's), batches of 32
    return dict(model=lambda: FoldingNet(codeword_data=codeword_data), train=_outlines(seed, 2000, 0), valid=_outlines(seed, 500, 1), loss=chamfer,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- RotNet: predicting which of four rotations a digit was turned by
def collate_rotations(items, rotation_major=False):  # RotNet's: each image in its four rotations (0, 90, 180, 270 degrees), labels 0-3
    x = torch.stack([it[0] for it in items])
    if rotation_major:  # batched: all images at 0 degrees, then all at 90, ...; the labels still written per image
        xs = torch.cat([torch.rot90(x, k, (2, 3)) for k in range(4)])
    else: xs = torch.stack([torch.rot90(x, k, (2, 3)) for k in range(4)], 1).flatten(0, 1)
    return xs, torch.arange(4).repeat(len(x))

def _nin_block(a, b): return nn.Sequential(nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.Conv2d(b, b, 1), nn.BatchNorm2d(b), nn.ReLU(),
                                           nn.Conv2d(b, b, 1), nn.BatchNorm2d(b), nn.ReLU())

class RotNIN(nn.Module):  # Gidaris et al.'s network-in-network (three blocks: a 3x3 then two 1x1 convolutions), shrunk to 8x8 digits; a linear rotation head
    def __init__(self, c=32):
        super().__init__(); self.features = nn.Sequential(_nin_block(1, c), nn.MaxPool2d(2), _nin_block(c, 2 * c), nn.MaxPool2d(2), _nin_block(2 * c, 2 * c))
        self.head = nn.Linear(2 * c, 4)
    def forward(self, x): return self.head(self.features(x).mean((2, 3)))

@healthy('X')
def rotnet_digits(seed, rotation_major=False):  # CrossEntropyLoss, SGD 0.1 with Nesterov momentum 0.9 and weight decay 5e-4 (RotNet's), 32 images (128 rotations) a batch
    (x, y), (vx, vy) = _digits(seed); col = lambda items: collate_rotations(items, rotation_major)
    return dict(model=RotNIN, train=DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True, collate_fn=col),
                valid=DataLoader(TensorDataset(vx, vy), batch_size=90, collate_fn=col), loss=nn.CrossEntropyLoss(), num_classes=4,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=5e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half X
@broken('X', 'patchtst_windows_split_at_random', 4, ('leakage',))
def patchtst_windows_split_at_random(seed): return patchtst_ett(seed, shuffled_split=True)

@broken('X', 'hsi_random_pixel_split', 4, ('leakage',))
def hsi_random_pixel_split(seed): return hsi_3dcnn(seed, random_pixels=True)

@broken('X', 'crepe_sigmoid_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def crepe_sigmoid_into_bce_with_logits(seed): return crepe_pitch(seed, loss=nn.BCEWithLogitsLoss())  # "for numerical stability", the model's sigmoid left in

@broken('X', 'radioml_uniform_init', 2, ('init_scale',))
def radioml_uniform_init(seed): return radioml_cnn2(seed, uniform_init=True)

@broken('X', 'knrm_log_without_clamp', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def knrm_log_without_clamp(seed): return knrm_ranking(seed, clamp=False)  # log(0) where no word falls in a kernel (the exact-match kernel, the padded query words): -inf, then nan

@broken('X', 'nerf_poses_sorted_as_text', 4, ('labels',))
def nerf_poses_sorted_as_text(seed): return nerf_flatland(seed, text_sorted_poses=True)

@broken('X', 'rbm_free_energy_difference_flipped', 3, ('not_falling', 'flat', 'stuck', 'lr_high', 'nan', 'nan_params'))
def rbm_free_energy_difference_flipped(seed): return rbm_cd_digits(seed, flipped=True)  # F(v_k) - F(v_0): the data's free energy pushed up, the chain's down

@broken('X', 'csrnet_crops_split_after_cropping', 4, ('leakage',))
def csrnet_crops_split_after_cropping(seed): return csrnet_counting(seed, crops_first=True)

@broken('X', 'trajectory_filter_on_inputs_only', 4, ('labels',))
def trajectory_filter_on_inputs_only(seed): return trajectory_lstm(seed, filter_obs_only=True)

@broken('X', 'piano_roll_at_100_fps', 4, ('labels',))
def piano_roll_at_100_fps(seed): return piano_frames(seed, roll_fs=100.0)

@broken('X', 'foldingnet_codeword_data', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def foldingnet_codeword_data(seed): return foldingnet_outlines(seed, codeword_data=True)

@broken('X', 'rotnet_rotations_stacked_by_angle', 4, ('labels',))
def rotnet_rotations_stacked_by_angle(seed): return rotnet_digits(seed, rotation_major=True)

# Plain-loop checks (seed 0, seed 1 for the healthy ones; OMP_NUM_THREADS=1, the factory's optimizer, batch size and step, train
# shuffled, valid in batches of 256 unless the factory gives a DataLoader; valid loss (and metric), init -> after N epochs):
CHECKS = """
patchtst_ett                  6 ep: valid MSE 1.071 -> 0.215, still falling (repeating the last day 0.337); seed 1: 1.144 -> 0.275
                              (0.442); 3.6 s an epoch
crepe_pitch                  10 ep: valid BCE 0.690 -> 0.053, raw pitch accuracy (50 cents) 0.03 -> 0.87; seed 1: 0.701 -> 0.055,
                              0.84; first tried with the paper's Adam 2e-4: 0.122 and 0.05 after 6 ep (the all-low floor); 1.9 s
radioml_cnn2                 12 ep: valid CE 2.081 -> 1.092, accuracy 0.13 -> 0.56 (SNR -4 to 18 dB), flat for the first 2 epochs;
                              seed 1: 2.081 -> 1.479 (best 1.393), accuracy 0.38 (best 0.43), flat for 4 epochs; 2-3 s an epoch
hsi_3dcnn                     8 ep: valid CE 1.793 -> 0.835 (best 0.585 at 6 ep), accuracy 0.04 -> 0.77 (best 0.84), train 0.095;
                              seed 1: 1.792 -> 1.658 (best 0.882 at 7 ep, accuracy 0.74), noisy (4 valid blocks); first tried with
                              well-separated covers: 0.97 on both splits, made harder; 2.5 s an epoch
knrm_ranking                  5 ep: valid hinge 1.009 -> 0.429, pair accuracy 0.30 -> 0.96; seed 1: 1.009 -> 0.417, 0.965; 0.8 s
nerf_flatland                15 ep: valid MSE 0.219 -> 0.0069 (PSNR 6.6 -> 21.6), near the mean colour (0.117) for 5 epochs; seed 1:
                              0.170 -> 0.0199 (PSNR 17.0), flat for 3 epochs; 1.4 s an epoch; first tried with 60 views of 48
                              pixels: 10 steps an epoch, 40 ep to PSNR 23.6
rbm_cd_digits                 8 ep: valid reconstruction MSE 0.249 -> 0.053 (the per-pixel train marginal 0.133); seed 1: 0.249 ->
                              0.054; 0.1 s an epoch
csrnet_counting               8 ep: valid count MAE 20.3 -> 4.07 (the mean count 12.3; the summed MSE 2.5e7 -> 1.0e7 as the loop sums
                              it); seed 1: 18.9 -> 4.20 (11.8); 4.7 s an epoch, the factory 6 s
trajectory_lstm              10 ep: valid ADE 2.90 -> 0.98 m (best 0.97), FDE 2.27; constant velocity 1.15; seed 1: 2.98 -> 0.97
                              (1.13); first tried with twice the turning noise: 1.43 against 1.62; 0.3 s an epoch
piano_frames                  6 ep: valid BCE 0.687 -> 0.070, frame F1 0.10 -> 0.76 (0 until the third epoch); seed 1: 0.711 -> 0.078,
                              0.73; 6.5 s an epoch
foldingnet_outlines          20 ep: valid Chamfer 0.857 -> 0.0268, slow for the first 2 epochs; seed 1: 0.843 -> 0.0259; 2.7 s an
                              epoch (first tried 256 wide on 3000 shapes: 11 s an epoch, shrunk)
rotnet_digits                 6 ep: valid CE 1.390 -> 0.170 (best 0.126), rotation accuracy 0.25 -> 0.94; seed 1: 1.389 -> 0.143,
                              0.95; 1.2 s an epoch
patchtst_windows_split_at_random  each of the 576 valid windows has its 24 target hours inside train windows (558 have a train
                              window one hour away); 6 ep: valid 1.002 -> 0.195 (healthy 0.215, scaled by the train part's statistics)
hsi_random_pixel_split        every valid pixel's 7x7 patch overlaps train patches (3074 train, 1022 valid); 8 ep: valid 0.069, accuracy
                              0.97 (healthy 0.835, 0.77); seed 1: 0.114, 0.96 (healthy 1.658, 0.66)
crepe_sigmoid_into_bce_with_logits  initial valid 0.960 (healthy 0.690); 10 ep: 0.6932 = ln 2 (the floor: sigmoid(z) >= 0 is a logit
                              of 0 at best against the zero targets), raw pitch accuracy 0.035 (chance; healthy 0.87)
radioml_uniform_init          initial valid CE 2.09e5 (ln 8 = 2.08; logits of 5e6); 4 ep: 8136, accuracy 0.124
knrm_log_without_clamp        67% of the first batch's scores nan (log 0 = -inf for padded query words and missing exact matches),
                              the loss nan; every score nan after one epoch
nerf_poses_sorted_as_text     12 of the 100 views keep their pose (2 of the 13 held out); 15 ep: valid 0.220 -> 0.090 (PSNR 10.5;
                              healthy 21.6), train 0.090 (healthy 0.0067)
rbm_free_energy_difference_flipped  valid reconstruction MSE 0.249 -> 0.758 after 1 ep, there on (the digits reconstructed
                              inverted; healthy 0.053)
csrnet_crops_split_after_cropping  all 270 valid crops have crops of their scene (overlapping by a half or a quarter) in train; 8 ep:
                              count MAE 4.40 (healthy 4.07): no gain from them by then
trajectory_filter_on_inputs_only  3491 of 4000 walkers move; 5 inputs keep their own future; 10 ep: valid ADE 2.67 -> 2.41 from the
                              first epoch on (healthy 0.98; constant velocity 3.57 against the shifted targets)
piano_roll_at_100_fps         the labels cover 0.64 s of each 2.05 s clip; 20% of the frames' label rows equal the right ones (mostly
                              silent frames); 6 ep: valid 0.686 -> 0.158, frame F1 0.00 (healthy 0.070, 0.76)
foldingnet_codeword_data      no encoder parameter gets a gradient; 20 ep: valid 0.857 -> 0.0393 (healthy 0.0268; at 8 ep 0.086
                              against 0.080): the folds fit through the untrained encoder's random codeword
rotnet_rotations_stacked_by_angle  25% of the labels right (chance); 6 ep: valid 1.387 = ln 4, accuracy 0.25 (healthy 0.94)
"""
