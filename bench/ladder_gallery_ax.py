"""Half AX of the ladder's gallery: held out from the rules frozen at ea2a9f2 (round 62), and run once on them.
Families not in halves A-AW, taken only from computer vision, audio and speech, natural language, generative models and
self-supervised learning (a half written alongside took other domains): joint demosaicking (Gharbi et al. 2016, shrunk: the
RGGB Bayer mosaic packed into four half-resolution planes, a convolution stack, a sub-pixel upsampling and a full-resolution
layer over the masked mosaic, MSE; the training images flipped at access) of synthetic colour scenes with fine stripes;
inverse halftoning (a residual CNN from Floyd-Steinberg error-diffused digits back to their grey levels, MSE; a custom step
porting the author's loop); CBAM (Woo et al. 2018: channel attention from the average- and max-pooled features through a
shared MLP, spatial attention from a 7 x 7 convolution over the channel mean and max, in a small batch-normed CNN; random
one-pixel shifts of the training digits at access); LLNet low-light enhancement (Lore, Akintayo and Sarkar 2017, shrunk: a
stacked denoising autoencoder of sigmoid layers from darkened (gamma 2-5) and noisy 8 x 8 patches to the clean ones, MSE);
polyphonic sound event detection (a CRNN after Cakir et al. 2017 and the DCASE task 4 baseline: convolutions pooling
frequency only, a bidirectional GRU, a sigmoid per class per frame, BCE with logits; frame targets from onset/offset
annotations in seconds) of four event classes in synthetic log-mel clips; North Atlantic right whale up-call detection (the
Cornell/Marinexplore Kaggle challenge 2013: two-second hydrophone clips at 2 kHz, a log spectrogram up to 500 Hz through a
small CNN, one logit) among ship tones, down-sweeps and clicks; emoji prediction (Barbieri, Ballesteros and Saggion 2017: a
BiLSTM over tweet tokens, a masked mean, five emoji; a collate_fn that pads, dict batches, a forward of its own) of
synthetic tweets with retweet duplicates; character-based word segmentation (Chen et al. 2015: character embeddings, a
BiLSTM, a BMES tag per character, the padding's tags at -100; a collate_fn that pads) of an unspaced synthetic language;
the variational RNN (Chung et al. 2015: feature extractors of x and z, a prior and an encoder from the previous GRU state,
a Gaussian decoder, the KL plus the Gaussian NLL in a loss of its own over a tuple output) of noisy Lissajous pen
strokes; Shuffle and Learn (Misra, Zitnick and Hebert 2016: a shared CNN tower over three frames, their features
concatenated, two classes: the middle frame in order or not) on synthetic videos of moving blobs, split by video; context
prediction (Doersch, Gupta and Efros 2015: the relative position of a neighbouring patch to the centre patch, eight
classes, a shared tower, patches cut with a gap and jitter, the position drawn at access) on upsampled digits; and L3-Net
audio-visual correspondence (Arandjelovic and Zisserman 2017, shrunk: a vision tower, an audio tower over a log
spectrogram, fusion layers, two classes: does the sound come from the same clip as the frame; Adam) on
synthetic clips of eight sounding objects.
At most about 2900 training items a program (the CBAM's broken twin's augmented copies; 1437 or fewer elsewhere) and about
62k trainable parameters; an epoch of a plain loop 0.04-1.5 s on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AW.

Protocol: written by a helper in a worktree at 8857992 (branch halfAX), held out from the rules frozen at ea2a9f2 (round 62).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and import lines, half AO
whole, the module docstrings of the other halves and the @broken lines of the recent ones (for the rung and cause
conventions and the families taken, with greps of the halves for candidate family names, which showed a few of their
lines), ladder_sweep.py's --half line, and the signature of `ntrain.ladder` via help(). Each program was checked by hand only
with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as
meant), seed 0 (and 1 where cheap). Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AX`;
no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- joint demosaicking (Gharbi, Chaurasia, Paris and Durand 2016), shrunk
def _colour_scenes(seed, n=1500, S=16):
    """Linear-RGB scenes of 16 x 16: a colour gradient, three to five soft-edged rectangles and discs of random colours, and
    in half of them a patch of fine stripes (one to three pixels a period), the detail demosaicking gets wrong."""
    g = np.random.default_rng(1000 + seed * 3001); yy, xx = np.mgrid[0:S, 0:S] / (S - 1); out = np.empty((n, 3, S, S), np.float32)
    for i in range(n):
        a, b = g.uniform(0.1, 0.6, 3), g.uniform(-0.3, 0.3, (2, 3)); img = a[:, None, None] + b[0][:, None, None] * xx + b[1][:, None, None] * yy
        for _ in range(g.integers(3, 6)):
            c = g.uniform(0, 1, 3); cx, cy, r = g.uniform(0, 1, 3) * [1, 1, 0.35] + [0, 0, 0.1]
            m = 1 / (1 + np.exp(-(r - (np.hypot(xx - cx, yy - cy) if g.random() < 0.5 else np.maximum(abs(xx - cx), abs(yy - cy)))) * 40))
            img = img * (1 - m) + c[:, None, None] * m
        if g.random() < 0.5:
            th, per = g.uniform(0, np.pi), g.uniform(2, 4); s = 0.5 + 0.5 * np.sin(2 * np.pi * (xx * np.cos(th) + yy * np.sin(th)) * (S - 1) / per)
            m = ((abs(xx - g.uniform(0.2, 0.8)) < 0.25) & (abs(yy - g.uniform(0.2, 0.8)) < 0.25)).astype(float); c = g.uniform(0, 1, 3)
            img = img * (1 - m) + m * (s * c[:, None, None] + (1 - s) * (1 - c[:, None, None]))
        out[i] = np.clip(img, 0, 1)
    return out

def bayer_pack(rgb):
    "RGGB mosaic of a (3, H, W) image packed into (4, H/2, W/2): R, G at (0, 1), G at (1, 0), B."
    return torch.stack([rgb[0, 0::2, 0::2], rgb[1, 0::2, 1::2], rgb[1, 1::2, 0::2], rgb[2, 1::2, 1::2]])

class DemosaicSet(Dataset):
    def __init__(self, images, augment=False, flip_input_only=False): self.images, self.augment, self.flip_input_only = images, augment, flip_input_only
    def __len__(self): return len(self.images)
    def __getitem__(self, i):
        rgb = self.images[i]
        if self.augment and torch.rand(()) < 0.5:  # a horizontal flip, then one column shifted so the mosaic stays RGGB
            flipped = torch.roll(rgb.flip(-1), 1, -1)
            if self.flip_input_only: return bayer_pack(flipped), rgb
            rgb = flipped
        return bayer_pack(rgb), rgb

class DemosaicNet(nn.Module):  # Gharbi et al.'s: convolutions at half resolution, 12 channels to a 2x sub-pixel RGB, then one full-resolution layer over the masked mosaic
    def __init__(self, w=32, depth=4):
        super().__init__()
        layers, c = [], 4
        for _ in range(depth): layers += [nn.Conv2d(c, w, 3, padding=1), nn.ReLU()]; c = w
        self.body = nn.Sequential(*layers, nn.Conv2d(w, 12, 1)); self.up = nn.PixelShuffle(2)
        self.full = nn.Sequential(nn.Conv2d(3 + 3, w, 3, padding=1), nn.ReLU(), nn.Conv2d(w, 3, 1))
    def forward(self, packed):
        B, _, h, w = packed.shape; up = self.up(self.body(packed))
        mosaic = torch.zeros(B, 3, 2 * h, 2 * w); mosaic[:, 0, 0::2, 0::2] = packed[:, 0]; mosaic[:, 1, 0::2, 1::2] = packed[:, 1]
        mosaic[:, 1, 1::2, 0::2] = packed[:, 2]; mosaic[:, 2, 1::2, 1::2] = packed[:, 3]
        return self.full(torch.cat([up, mosaic], 1))

@healthy('AX')
def demosaic_gharbi(seed, flip_input_only=False):  # MSE, Adam 1e-3, batches of 32; 1200 scenes train (flipped at access), 300 validate
    "flip_input_only: the flip's result given to the mosaic and the unflipped image returned as the target."
    imgs = torch.from_numpy(_colour_scenes(seed))
    return dict(model=DemosaicNet, train=DemosaicSet(imgs[:1200], augment=True, flip_input_only=flip_input_only), valid=DemosaicSet(imgs[1200:]),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- inverse halftoning: a residual CNN from error-diffused digits to grey levels
def floyd_steinberg(x):
    "Floyd-Steinberg error diffusion of a batch (N, H, W) in [0, 1] to 0/1, the pixels visited in raster order (vectorised over the batch)."
    x = x.copy(); N, H, W = x.shape; out = np.zeros_like(x)
    for i in range(H):
        for j in range(W):
            o = (x[:, i, j] >= 0.5).astype(x.dtype); e = x[:, i, j] - o; out[:, i, j] = o
            if j + 1 < W: x[:, i, j + 1] += e * 7 / 16
            if i + 1 < H:
                if j > 0: x[:, i + 1, j - 1] += e * 3 / 16
                x[:, i + 1, j] += e * 5 / 16
                if j + 1 < W: x[:, i + 1, j + 1] += e * 1 / 16
    return out

def _halftoned_digits(seed):
    (x, _), (vx, _) = _digits(seed)
    up = lambda a: F.interpolate(a, size=16, mode='bilinear', align_corners=False).clamp(0, 1)
    x, vx = up(x), up(vx); ht = lambda a: torch.from_numpy(floyd_steinberg(a[:, 0].numpy()))[:, None]
    return (ht(x), x), (ht(vx), vx)

class InverseHalftoneNet(nn.Module):  # five 3x3 convolutions, the output a residual over a 3x3 box blur of the halftone
    def __init__(self, w=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, w, 3, padding=1), nn.ReLU(), *[m for _ in range(3) for m in (nn.Conv2d(w, w, 3, padding=1), nn.ReLU())], nn.Conv2d(w, 1, 3, padding=1))
    def forward(self, h): return F.avg_pool2d(h, 3, 1, 1, count_include_pad=False) + self.net(h)

def _halftone_step(zero_grad=True):
    def step(model, batch, opt):  # the author's loop: forward, MSE, zero_grad, backward, step
        ht, target = batch; loss = F.mse_loss(model(ht), target)
        if zero_grad: opt.zero_grad()
        loss.backward(); opt.step(); return loss
    return step

@healthy('AX')
def inverse_halftone_cnn(seed, zero_grad=True):  # MSE, Adam 1e-3, batches of 32; 1437 digits train, 360 validate, 16 x 16
    "zero_grad False: optimizer.zero_grad() lost when the loop was rewritten as a step function."
    (h, x), (vh, vx) = _halftoned_digits(seed)
    return dict(model=InverseHalftoneNet, train=TensorDataset(h, x), valid=TensorDataset(vh, vx), loss=nn.MSELoss(), step=_halftone_step(zero_grad),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- CBAM (Woo, Park, Lee and Kweon 2018) in a small CNN on digits
class ChannelGate(nn.Module):
    def __init__(self, c, r=8): super().__init__(); self.mlp = nn.Sequential(nn.Linear(c, c // r), nn.ReLU(), nn.Linear(c // r, c))
    def forward(self, x): a = self.mlp(x.mean((2, 3))) + self.mlp(x.amax((2, 3))); return x * torch.sigmoid(a)[:, :, None, None]

class SpatialGate(nn.Module):
    def __init__(self, k=7): super().__init__(); self.conv = nn.Sequential(nn.Conv2d(2, 1, k, padding=k // 2, bias=False), nn.BatchNorm2d(1))
    def forward(self, x): return x * torch.sigmoid(self.conv(torch.cat([x.mean(1, keepdim=True), x.amax(1, keepdim=True)], 1)))

class CBAMNet(nn.Module):
    def __init__(self, n=10):
        super().__init__()
        blk = lambda i, o: nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(), ChannelGate(o), SpatialGate())
        self.features = nn.Sequential(blk(1, 32), blk(32, 32), nn.MaxPool2d(2), blk(32, 64)); self.fc = nn.Linear(64, n)
    def forward(self, x): return self.fc(self.features(x).mean((2, 3)))

def _shift(x, dy, dx): return torch.roll(x, (dy, dx), (-2, -1))  # digits have empty borders: a roll is a shift

class ShiftedDigits(Dataset):  # a random one-pixel shift of each training digit at access
    def __init__(self, x, y): self.x, self.y = x, y
    def __len__(self): return len(self.y)
    def __getitem__(self, i):
        dy, dx = torch.randint(-1, 2, (2,)).tolist(); return _shift(self.x[i], dy, dx), self.y[i]

@healthy('AX')
def cbam_digits(seed, augment_then_split=False):  # cross-entropy, Adam 1e-3, batches of 64; 1437 digits train, 360 validate
    """augment_then_split: every digit and a copy shifted one pixel in a random direction stacked first (the augmented data
    set written to disk), then train_test_split 80/20 over the 3594 images: most validation digits' twins in training."""
    if augment_then_split:
        from ntrain.examples import load_digits_arrays
        from sklearn.model_selection import train_test_split
        x, y = load_digits_arrays(); g = _gen(seed); d = torch.randint(-1, 2, (len(y), 2), generator=g)
        xs = torch.stack([_shift(x[i], int(d[i, 0]), int(d[i, 1])) for i in range(len(y))])
        X, Y = torch.cat([x, xs]), torch.cat([y, y]); tr, va = train_test_split(np.arange(len(Y)), test_size=0.2, random_state=seed)
        train, valid = TensorDataset(X[tr], Y[tr]), TensorDataset(X[va], Y[va])
    else:
        (x, y), (vx, vy) = _digits(seed); train, valid = ShiftedDigits(x, y), TensorDataset(vx, vy)
    return dict(model=CBAMNet, train=train, valid=valid, loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- LLNet (Lore, Akintayo and Sarkar 2017): a stacked denoising autoencoder for low-light patches
def _dark_patches(seed):
    "Clean 8 x 8 patches (the digits, in [0, 1]) and their darkened copies: x ** gamma, gamma ~ U(2, 5), plus Gaussian noise of sd U(0, 0.08), clipped."
    (x, _), (vx, _) = _digits(seed); g = _gen(seed)
    def dark(c):
        gam = 2 + 3 * torch.rand(len(c), 1, generator=g); sd = 0.08 * torch.rand(len(c), 1, generator=g)
        c = c.view(len(c), -1); return (c ** gam + sd * torch.randn(c.shape, generator=g)).clamp(0, 1), c
    return dark(x), dark(vx)

class LLNet(nn.Module):  # 64-192-192-64, sigmoid units throughout as the paper's SSDA
    def __init__(self, d=64, hidden=(192, 192), normal_init=False):
        super().__init__()
        sizes = [d, *hidden, d]; self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        if normal_init:
            for l in self.layers: nn.init.normal_(l.weight); nn.init.zeros_(l.bias)
    def forward(self, x):
        for l in self.layers: x = torch.sigmoid(l(x))
        return x

@healthy('AX')
def llnet_low_light(seed, normal_init=False):  # MSE, Adam 3e-3, batches of 32; 1437 patches train, 360 validate
    "normal_init: every weight drawn by nn.init.normal_(w) (sd 1; the Theano code's numpy.random.randn port without its scale)."
    (d, c), (vd, vc) = _dark_patches(seed)
    return dict(model=lambda: LLNet(normal_init=normal_init), train=TensorDataset(d, c), valid=TensorDataset(vd, vc), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- polyphonic sound event detection: a CRNN (Cakir et al. 2017; the DCASE task 4 baseline), frame targets from annotations
SED_CLASSES = ['dog_bark', 'alarm_bell', 'speech', 'vacuum_cleaner']
SED_SR, SED_HOP, SED_FRAMES, SED_MELS = 16000, 1024, 64, 32  # 64 frames of 64 ms: a clip of about 4.1 s

def _sed_clips(seed, n=1000):
    """Log-mel clips (32 bands, 64 frames) with one to three events each and an annotation table of (clip, onset s, offset
    s, label) as DCASE's metadata: barks short broadband bursts low-mid, alarms a harmonic stack beeping on and off, speech
    formant bands modulated at syllable rate, the vacuum a steady high broadband noise; a pink-ish background of varying level."""
    g = np.random.default_rng(1000 + seed * 3011); dur = SED_FRAMES * SED_HOP / SED_SR; b = np.arange(SED_MELS)[:, None]; X = np.empty((n, SED_MELS, SED_FRAMES), np.float32); ann = []
    for i in range(n):
        E = np.exp(g.normal(-1, 0.5)) * (1.5 - b / SED_MELS) * np.ones((1, SED_FRAMES)) * g.uniform(0.7, 1.3, (SED_MELS, SED_FRAMES))
        for _ in range(g.integers(1, 4)):
            k = int(g.integers(4)); on = g.uniform(0, dur - 0.4); off = min(dur, on + (g.uniform(0.2, 0.8) if k == 0 else g.uniform(0.8, 3.0)))
            f0, f1 = int(round(on * SED_SR / SED_HOP)), int(round(off * SED_SR / SED_HOP)); t = np.arange(f1 - f0); a = np.exp(g.normal(1.2, 0.5))
            if k == 0: pat = np.exp(-((b - 10) / 8.0) ** 2) * np.exp(-(t % 4)) + 0 * t
            elif k == 1: h = g.uniform(16, 22); pat = (np.exp(-((b - h) / 1.0) ** 2) + 0.6 * np.exp(-((b - h - 6) / 1.0) ** 2)) * ((t // 3) % 2 == 0)
            elif k == 2: fm = g.uniform(5, 9); pat = (np.exp(-((b - fm) / 2.0) ** 2) + 0.7 * np.exp(-((b - fm - 8) / 2.0) ** 2)) * (0.5 + 0.5 * np.sin(t / 1.3 + g.uniform(0, 6)) ** 2)
            else: pat = np.exp(-((b - 26) / 6.0) ** 2) * np.ones_like(t) * 0.8
            E[:, f0:f1] += a * pat * g.uniform(0.8, 1.2, (SED_MELS, f1 - f0)); ann.append((i, on, off, SED_CLASSES[k]))
        X[i] = np.log(E + 1e-3)
    return X, ann

def sed_frame_targets(ann, n, sr=SED_SR):
    "The annotation rows as (n, frames, classes) 0/1 targets: frame = round(seconds * sr / hop)."
    Y = np.zeros((n, SED_FRAMES, len(SED_CLASSES)), np.float32)
    for i, on, off, lab in ann: Y[i, int(round(on * sr / SED_HOP)):int(round(off * sr / SED_HOP)), SED_CLASSES.index(lab)] = 1
    return Y

class SEDCRNN(nn.Module):  # conv blocks pooling frequency only, a BiGRU, a linear layer per frame
    def __init__(self, c=len(SED_CLASSES), w=16, h=32):
        super().__init__()
        blk = lambda i, o: nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d((4, 1)))
        self.conv = nn.Sequential(blk(1, w), blk(w, w), nn.Dropout(0.2)); self.gru = nn.GRU(w * SED_MELS // 16, h, batch_first=True, bidirectional=True); self.fc = nn.Linear(2 * h, c)
    def forward(self, x):  # x (B, mels, frames)
        z = self.conv(x[:, None]); z = z.flatten(1, 2).transpose(1, 2); return self.fc(self.gru(z)[0])  # (B, frames, classes)

@healthy('AX')
def sed_crnn(seed, label_sr=SED_SR):  # BCE with logits per frame and class, Adam 1e-3, batches of 32; 800 clips train, 200 validate
    """label_sr: the rate the annotation seconds are turned into frames with (broken: 44100, the original recordings' rate,
    while the features were computed from the clips resampled to 16 kHz). Features standardised by the training clips' mean and sd."""
    X, ann = _sed_clips(seed); Y = sed_frame_targets(ann, len(X), sr=label_sr); m, s = X[:800].mean(), X[:800].std()
    X = (X - m) / s
    return dict(model=SEDCRNN, train=TensorDataset(_t(X[:800]), _t(Y[:800])), valid=TensorDataset(_t(X[800:]), _t(Y[800:])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- right whale up-call detection (the Cornell/Marinexplore Kaggle challenge, 2013): a spectrogram CNN
WHALE_SR = 2000

def _whale_clips(seed, n=1500):
    """Two-second clips at 2 kHz: coloured ocean noise, ship tones (steady lines with harmonics) in a third of them, and in
    about 40% an up-call: a 0.6-1.2 s sweep rising from 60-110 Hz to 140-250 Hz with a few harmonics' trace, at an SNR of
    -6 to +6 dB; decoys in the negatives: down-sweeps and click trains."""
    g = np.random.default_rng(1000 + seed * 3019); t = np.arange(2 * WHALE_SR) / WHALE_SR; X = np.empty((n, len(t)), np.float32); y = np.zeros(n, np.float32)
    for i in range(n):
        w = np.cumsum(g.normal(0, 1, len(t))); w = w - np.convolve(w, np.ones(50) / 50, 'same'); w = w / w.std() + 0.5 * g.normal(0, 1, len(t))
        if g.random() < 0.33: f = g.uniform(40, 400); w += sum(g.uniform(0.3, 1.0) / k * np.sin(2 * np.pi * f * k * t + g.uniform(0, 6)) for k in (1, 2))
        def sweep(fa, fb, d):
            t0 = g.uniform(0, 2 - d); tt = np.clip(t - t0, 0, d); f = fa + (fb - fa) * tt / d; ph = 2 * np.pi * np.cumsum(f) / WHALE_SR
            return np.sin(ph) * np.sin(np.pi * tt / d) ** 2 * ((t >= t0) & (t <= t0 + d))
        snr = 10 ** (g.uniform(-6, 6) / 20) * 1.5
        if g.random() < 0.4: y[i] = 1; w += snr * (sweep(g.uniform(60, 110), g.uniform(140, 250), g.uniform(0.6, 1.2)))
        else:
            r = g.random()
            if r < 0.3: w += snr * sweep(g.uniform(150, 250), g.uniform(60, 120), g.uniform(0.6, 1.2))
            elif r < 0.5: w += snr * 3 * (g.random(len(t)) < 0.004) * g.normal(0, 1, len(t))
        X[i] = w * np.exp(g.normal(0, 0.5))
    return X, y

def whale_spectrogram(x):
    "log |STFT|^2 (256-point Hann window, hop 64) up to 500 Hz: (N, 1, 65, 63)."
    S = torch.stft(torch.from_numpy(x), 256, 64, window=torch.hann_window(256), return_complex=True).abs() ** 2
    return torch.log(S[:, :65] + 1e-6)[:, None]

class WhaleCNN(nn.Module):  # the popular Keras kernel's net, shrunk; keras_sigmoid: its Dense(1, activation='sigmoid') kept in the port
    def __init__(self, keras_sigmoid=False):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d((4, 4)), nn.Flatten(), nn.Dropout(0.3), nn.Linear(512, 32), nn.ReLU(), nn.Linear(32, 1),
                                 *([nn.Sigmoid()] if keras_sigmoid else []))
    def forward(self, x): return self.net(x)

@healthy('AX')
def whale_upcall_cnn(seed, keras_sigmoid=False):  # BCE with logits, Adam 1e-3, batches of 64; 1200 clips train, 300 validate
    "Each spectrogram standardised by the training set's mean and sd (one number each)."
    X, y = _whale_clips(seed); S = whale_spectrogram(X); m, s = S[:1200].mean(), S[:1200].std(); S = (S - m) / s
    return dict(model=lambda: WhaleCNN(keras_sigmoid), train=TensorDataset(S[:1200], _t(y[:1200, None])), valid=TensorDataset(S[1200:], _t(y[1200:, None])),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- emoji prediction (Barbieri, Ballesteros and Saggion 2017): a BiLSTM over tweet tokens
EMOJI = ['red_heart', 'face_with_tears_of_joy', 'fire', 'loudly_crying_face', 'christmas_tree']

def _tweets(seed, n=1800):
    """Tweets of 5-14 tokens as strings: common words, a few of the emoji's own cue words (some cue words shared by two
    emoji), mentions and hashtags; about 12% are retweets of earlier tweets (the same text, the same emoji)."""
    g = np.random.default_rng(1000 + seed * 3023); common = [f'w{i}' for i in range(150)]
    cues = [[f'c{k}_{j}' for j in range(12)] for k in range(5)]; shared = [(0, 3), (1, 2), (2, 4), (3, 1)]
    shared_words = {f's{a}{b}_{j}': (a, b) for a, b in shared for j in range(4)}
    texts, labels = [], []
    for i in range(n):
        if i > 50 and g.random() < 0.12: j = int(g.integers(i)); texts.append(texts[j]); labels.append(labels[j]); continue
        k = int(g.integers(5)); L = int(g.integers(5, 15)); toks = list(g.choice(common, L, p=np.r_[np.ones(150)] / 150))
        for _ in range(g.integers(1, 3)): toks[g.integers(L)] = cues[k][g.integers(12)] if g.random() < 0.75 else g.choice([w for w, ab in shared_words.items() if k in ab])
        if g.random() < 0.2: toks[g.integers(L)] = cues[g.integers(5)][g.integers(12)]  # a cue of another emoji
        if g.random() < 0.3: toks.insert(0, '@user')
        texts.append(' '.join(toks) + f' #{int(g.integers(1000))}'); labels.append(k)
    return texts, labels

class EmojiBiLSTM(nn.Module):
    def __init__(self, V, d=32, h=32, n=5):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.lstm = nn.LSTM(d, h, batch_first=True, bidirectional=True); self.fc = nn.Linear(2 * h, n)
    def forward(self, tokens, mask):
        o, _ = self.lstm(self.emb(tokens)); m = mask[..., None].float(); return self.fc((o * m).sum(1) / m.sum(1))

def _emoji_collate(items):
    L = max(len(it['tokens']) for it in items); tok = torch.zeros(len(items), L, dtype=torch.long)
    for i, it in enumerate(items): tok[i, :len(it['tokens'])] = it['tokens']
    return dict(tokens=tok, mask=tok != 0, label=torch.tensor([it['label'] for it in items]))

def _emoji_fwd(model, b): return model(b['tokens'], b['mask']), b['label']

@healthy('AX')
def emoji_bilstm(seed, dedup_texts_only=False):  # cross-entropy, Adam 2e-3, batches of 32; duplicates dropped, then 80/20
    """Retweets dropped with drop_duplicates on the (text, label) rows (dedup_texts_only: texts = sorted(set(texts)) with the
    label list left as it was, the two zipped). The vocabulary from the training tweets; hashtags' numbers kept as tokens."""
    texts, labels = _tweets(seed)
    if dedup_texts_only: texts = sorted(set(texts)); rows = list(zip(texts, labels))
    else: rows = list(dict.fromkeys(zip(texts, labels)))
    g = np.random.default_rng(seed); rows = [rows[i] for i in g.permutation(len(rows))]; cut = int(0.8 * len(rows))
    vocab = {w: i + 2 for i, w in enumerate(sorted({w for t, _ in rows[:cut] for w in t.split()}))}  # 0 pad, 1 unknown
    enc = lambda t: torch.tensor([vocab.get(w, 1) for w in t.split()])
    items = lambda rs: ListDataset([dict(tokens=enc(t), label=l) for t, l in rs])
    return dict(model=lambda: EmojiBiLSTM(len(vocab) + 2), train=items(rows[:cut]), valid=items(rows[cut:]), collate_fn=_emoji_collate, forward=_emoji_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- character-based word segmentation (Chen et al. 2015): BMES tags from a BiLSTM
def _unspaced_corpus(seed, n=1500, V=40, W=300):
    "A lexicon of 300 words of 1-4 characters over 40 characters, Zipf-frequent; sentences of 6-12 words written without spaces."
    g = np.random.default_rng(1000 + seed * 3037); lens = g.choice([1, 2, 3, 4], W, p=[.2, .45, .25, .1])
    lex = list({tuple(g.integers(1, V + 1, l)) for l in lens}); p = 1 / np.arange(1, len(lex) + 1); p /= p.sum()
    return [[lex[i] for i in g.choice(len(lex), g.integers(6, 13), p=p)] for _ in range(n)]

def bmes(words, tag_ids):
    return [tag_ids[t] for w in words for t in (['S'] if len(w) == 1 else ['B'] + ['M'] * (len(w) - 2) + ['E'])]

class SegBiLSTM(nn.Module):
    def __init__(self, V=41, d=32, h=48, tags=4):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.lstm = nn.LSTM(d, h, batch_first=True, bidirectional=True); self.fc = nn.Linear(2 * h, tags)
    def forward(self, chars): return self.fc(self.lstm(self.emb(chars))[0])  # (B, L, tags)

def _seg_collate(items):
    L = max(len(c) for c, _ in items); C = torch.zeros(len(items), L, dtype=torch.long); T = torch.full((len(items), L), -100, dtype=torch.long)
    for i, (c, t) in enumerate(items): C[i, :len(c)] = torch.tensor(c); T[i, :len(t)] = torch.tensor(t)
    return C, T

def seg_loss(logits, tags): return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1), ignore_index=-100)

@healthy('AX')
def word_seg_bilstm(seed, pad_first_tags=False):  # cross-entropy per character, Adam 2e-3, batches of 32; 1200 sentences train, 300 validate
    """pad_first_tags: the tag vocabulary built as {'<pad>': 0, 'B': 1, 'M': 2, 'E': 3, 'S': 4} (as the character vocabulary),
    the model's output layer left at four tags."""
    sents = _unspaced_corpus(seed); ids = {'<pad>': 0, 'B': 1, 'M': 2, 'E': 3, 'S': 4} if pad_first_tags else {'B': 0, 'M': 1, 'E': 2, 'S': 3}
    items = [([c for w in s for c in w], bmes(s, ids)) for s in sents]
    return dict(model=SegBiLSTM, train=ListDataset(items[:1200]), valid=ListDataset(items[1200:]), collate_fn=_seg_collate, loss=seg_loss, num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- the variational RNN (Chung et al. 2015) of pen strokes
def _strokes(seed, n=1500, T=24):
    "Pen offsets (dx, dy) of Lissajous-like strokes: two sinusoids a coordinate with random frequencies, phases and amplitudes, a drift and pen noise; standardised."
    g = np.random.default_rng(1000 + seed * 3041); t = np.linspace(0, 1, T + 1)
    f = g.uniform(0.5, 2.5, (n, 2, 1)); ph = g.uniform(0, 2 * np.pi, (n, 2, 1)); a = g.uniform(0.5, 1.5, (n, 2, 1))
    xy = a * np.sin(2 * np.pi * f * t + ph) + g.normal(0, 0.3, (n, 2, 1)) * t + np.cumsum(g.normal(0, 0.02, (n, 2, T + 1)), -1)
    d = np.diff(xy, axis=-1).transpose(0, 2, 1) + g.normal(0, 0.01, (n, T, 2)); return (d / d[:1200].std()).astype(np.float32)

class VRNN(nn.Module):
    def __init__(self, x=2, h=32, z=4, f=16, decode_after_update=False):
        super().__init__(); self.h, self.decode_after_update = h, decode_after_update
        self.phi_x = nn.Sequential(nn.Linear(x, f), nn.ReLU()); self.phi_z = nn.Sequential(nn.Linear(z, f), nn.ReLU())
        self.prior = nn.Linear(h, 2 * z); self.enc = nn.Sequential(nn.Linear(f + h, h), nn.ReLU(), nn.Linear(h, 2 * z))
        self.dec = nn.Sequential(nn.Linear(f + h, h), nn.ReLU(), nn.Linear(h, 2 * x)); self.rnn = nn.GRUCell(2 * f, h)
    def forward(self, x):  # x (B, T, 2)
        h = x.new_zeros(len(x), self.h); out = []
        for t in range(x.shape[1]):
            px = self.phi_x(x[:, t]); pm, pl = self.prior(h).chunk(2, -1); em, el = self.enc(torch.cat([px, h], -1)).chunk(2, -1)
            z = em + torch.randn_like(em) * torch.exp(0.5 * el); pz = self.phi_z(z)
            if self.decode_after_update: h = self.rnn(torch.cat([px, pz], -1), h); dm, dl = self.dec(torch.cat([pz, h], -1)).chunk(2, -1)
            else: dm, dl = self.dec(torch.cat([pz, h], -1)).chunk(2, -1); h = self.rnn(torch.cat([px, pz], -1), h)
            out.append((em, el, pm, pl, dm, dl))
        return tuple(torch.stack(o, 1) for o in zip(*out))  # six (B, T, .) tensors

def vrnn_loss(out, x):
    "The negative ELBO per time step: the KL of the encoder's Gaussian to the prior's plus the decoder's Gaussian NLL (log-variances), summed over dimensions, averaged over steps and sequences."
    em, el, pm, pl, dm, dl = out
    kl = 0.5 * (pl - el + (el.exp() + (em - pm) ** 2) / pl.exp() - 1).sum(-1)
    nll = 0.5 * (dl + (x - dm) ** 2 / dl.exp() + np.log(2 * np.pi)).sum(-1)
    return (kl + nll).mean()

@healthy('AX')
def vrnn_strokes(seed, decode_after_update=False):  # the negative ELBO, Adam 1e-3, batches of 64; 1200 strokes train, 300 validate
    "decode_after_update: the GRU updated with x_t before the decoder reads h (the loop's two lines in the other order)."
    d = torch.from_numpy(_strokes(seed))
    return dict(model=lambda: VRNN(decode_after_update=decode_after_update), train=TensorDataset(d[:1200], d[:1200]), valid=TensorDataset(d[1200:], d[1200:]),
                loss=vrnn_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Shuffle and Learn (Misra, Zitnick and Hebert 2016): temporal order verification of frame triplets
def _blob_videos(seed, n=150, T=16, S=16):
    "Videos of 16 frames of 16 x 16: one or two bright blobs moving on straight lines at their own speeds over a fixed noisy background texture."
    g = np.random.default_rng(1000 + seed * 3049); yy, xx = np.mgrid[0:S, 0:S]; V = np.empty((n, T, S, S), np.float32)
    for i in range(n):
        bg = g.uniform(0, 0.3, (S, S)); frames = np.repeat(bg[None], T, 0)
        for _ in range(g.integers(1, 3)):
            p0 = g.uniform(3, S - 3, 2); v = g.normal(0, 1, 2); v = v / np.linalg.norm(v) * g.uniform(0.5, 0.9); r = g.uniform(1.2, 2.2)
            for t in range(T): c = np.clip(p0 + v * (t - T / 2), 1, S - 2); frames[t] += np.exp(-((yy - c[0]) ** 2 + (xx - c[1]) ** 2) / (2 * r ** 2))
        V[i] = frames + g.normal(0, 0.05, frames.shape)
    return V

def order_tuples(V, g, per=6):
    "Per video `per` positives (a, b, c) in order, a < b < c, and as many negatives (a, d, c) with d outside [a, c]; returned positives first, then negatives."
    pos, neg = [], []
    for v in range(len(V)):
        for _ in range(per):
            a = int(g.integers(0, 6)); c = a + int(g.integers(6, 10)); b = int(g.integers(a + 2, c - 1)); d = int(g.choice([*range(0, max(a - 1, 0)), *range(min(c + 2, 16), 16)] or [15]))
            pos.append(np.stack([V[v, a], V[v, b], V[v, c]])); neg.append(np.stack([V[v, a], V[v, d], V[v, c]]))
    return pos + neg, [1] * len(pos) + [0] * len(neg)

class OrderNet(nn.Module):  # a shared tower per frame, the three features concatenated, two layers to two classes
    def __init__(self, f=64):
        super().__init__()
        self.tower = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(512, f), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(3 * f, 64), nn.ReLU(), nn.Linear(64, 2))
    def forward(self, x):  # x (B, 3, S, S)
        return self.head(torch.cat([self.tower(x[:, k:k + 1]) for k in range(3)], 1))

@healthy('AX')
def shuffle_and_learn(seed, shuffle_tuples_only=False):  # cross-entropy, Adam 1e-3, batches of 64; 120 videos' tuples train, 30 videos' validate
    """Tuples and labels shuffled together by one permutation (shuffle_tuples_only: random.shuffle(tuples) on the list, the
    label list [1] * P + [0] * N left in its block order)."""
    import random
    V = _blob_videos(seed); g = np.random.default_rng(seed)
    def ds(vids, train):
        tup, lab = order_tuples(V[vids], g)
        if shuffle_tuples_only and train: random.Random(seed).shuffle(tup)
        elif train: p = g.permutation(len(lab)); tup, lab = [tup[i] for i in p], [lab[i] for i in p]
        return TensorDataset(torch.from_numpy(np.stack(tup)), torch.tensor(lab))
    return dict(model=OrderNet, train=ds(np.arange(120), True), valid=ds(np.arange(120, 150), False), loss=nn.CrossEntropyLoss(), num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- context prediction (Doersch, Gupta and Efros 2015): the relative position of two patches
NEIGHBOURS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

class PatchPairs(Dataset):
    "Digits upsampled to 24 x 24, a 3 x 3 grid of 8-pixel cells, 7 x 7 patches jittered by up to one pixel inside them; the neighbour drawn at access (fixed per image when `fixed`)."
    def __init__(self, imgs, fixed_seed=None):
        self.imgs = imgs; self.fixed = None if fixed_seed is None else torch.randint(0, 8, (len(imgs), 3, 2), generator=torch.Generator().manual_seed(fixed_seed))
    def __len__(self): return len(self.imgs)
    def __getitem__(self, i):
        r = self.fixed[i] if self.fixed is not None else torch.randint(0, 8, (3, 2)); k = int(r[0, 0])
        cut = lambda cy, cx, j: self.imgs[i][:, cy * 8 + int(r[j, 0]) % 2:cy * 8 + int(r[j, 0]) % 2 + 7, cx * 8 + int(r[j, 1]) % 2:cx * 8 + int(r[j, 1]) % 2 + 7]
        dy, dx = NEIGHBOURS[k]; return torch.cat([cut(1, 1, 1), cut(1 + dy, 1 + dx, 2)]), k

class ContextNet(nn.Module):
    def __init__(self, f=64):
        super().__init__()
        self.tower = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 32, 3), nn.ReLU(), nn.Flatten(), nn.Linear(32 * 9, f), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(2 * f, 64), nn.ReLU(), nn.Linear(64, 8))
    def forward(self, x): return self.head(torch.cat([self.tower(x[:, :1]), self.tower(x[:, 1:])], 1))

def _context_model(freeze_tower):
    def make():
        m = ContextNet()
        if freeze_tower:
            for p in m.tower.parameters(): p.requires_grad = False
        return m
    return make

@healthy('AX')
def context_prediction(seed, freeze_tower=False):  # cross-entropy over eight positions, Adam 1e-3, batches of 64; 1437 digits train, 360 validate
    "freeze_tower: the fine-tuning script's `for p in model.tower.parameters(): p.requires_grad = False` kept in the pretext training."
    (x, _), (vx, _) = _digits(seed); up = lambda a: F.interpolate(a, size=24, mode='bilinear', align_corners=False)
    return dict(model=_context_model(freeze_tower), train=PatchPairs(up(x)), valid=PatchPairs(up(vx), fixed_seed=seed), loss=nn.CrossEntropyLoss(), num_classes=8,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- L3-Net audio-visual correspondence (Arandjelovic and Zisserman 2017), shrunk
def _av_clips(seed, n=1200, K=8):
    """Clips of one of eight sounding objects: a frame (12 x 12: the object's shape at a random place, a random brightness,
    a cluttered background) and a second of audio as a log spectrogram (24 bands x 12 frames: the object's harmonic
    pattern at a random pitch shift and loudness, its own rhythm, in noise)."""
    g = np.random.default_rng(1000 + seed * 3061); shapes = (g.random((K, 5, 5)) < 0.5).astype(np.float32); harm = g.uniform(0, 1, (K, 24)) ** 3
    rhythm = (g.random((K, 12)) < 0.6).astype(np.float32) * 0.7 + 0.3; cls = g.integers(0, K, n); F_, A = np.empty((n, 1, 12, 12), np.float32), np.empty((n, 1, 24, 12), np.float32)
    for i, k in enumerate(cls):
        f = g.uniform(0, 0.2, (12, 12)); y0, x0 = g.integers(0, 8, 2); f[y0:y0 + 5, x0:x0 + 5] += shapes[k] * g.uniform(0.8, 1.2); F_[i, 0] = f + g.normal(0, 0.1, (12, 12))
        s = np.roll(harm[k], g.integers(-2, 3)) * np.exp(g.normal(0, 0.3)); A[i, 0] = np.log(s[:, None] * np.roll(rhythm[k], g.integers(12))[None] + 0.05 + 0.05 * g.random((24, 12)))
    return F_, A

def av_pairs(F_, A, g):
    "Each clip's frame with its own audio (1) and with another clip's audio (0)."
    n = len(F_); other = (np.arange(n) + g.integers(1, n, n)) % n
    return (torch.from_numpy(np.concatenate([F_, F_])), torch.from_numpy(np.concatenate([A, A[other]])), torch.tensor(np.r_[np.ones(n), np.zeros(n)], dtype=torch.long))

class L3Net(nn.Module):
    def __init__(self, f=32):
        super().__init__()
        self.vision = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Linear(32, f))
        self.audio = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Linear(32, f))
        self.fusion = nn.Sequential(nn.ReLU(), nn.Linear(2 * f, 32), nn.ReLU(), nn.Linear(32, 2))
    def forward(self, frame, audio): return self.fusion(torch.cat([self.vision(frame), self.audio(audio)], 1))

def _l3_fwd(model, b): frame, audio, y = b; return model(frame, audio), y

@healthy('AX')
def l3_av_correspondence(seed, lr=1e-3):  # cross-entropy, Adam 1e-3, batches of 32; 1000 clips' pairs train, 200 clips' validate
    "lr: 1.0 in the broken twin (the config's 1e-3 typed as 1e0)."
    F_, A = _av_clips(seed); g = np.random.default_rng(seed); m, s = A[:1000].mean(), A[:1000].std(); A = (A - m) / s
    return dict(model=L3Net, train=TensorDataset(*av_pairs(F_[:1000], A[:1000], g)), valid=TensorDataset(*av_pairs(F_[1000:], A[1000:], g)), forward=_l3_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AX
@broken('AX', 'demosaic_flip_given_to_input_only', 4, ('labels',))
def demosaic_flip_given_to_input_only(seed): return demosaic_gharbi(seed, flip_input_only=True)  # half the training mosaics paired with the mirror image of their target

@broken('AX', 'inverse_halftone_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def inverse_halftone_step_without_zero_grad(seed): return inverse_halftone_cnn(seed, zero_grad=False)  # the gradients accumulate over every step

@broken('AX', 'cbam_shifted_copies_split_after', 4, ('leakage',))
def cbam_shifted_copies_split_after(seed): return cbam_digits(seed, augment_then_split=True)  # a digit in validation, its shifted copy in training

@broken('AX', 'llnet_normal_init_without_scale', (2, 3), ('init_scale', 'not_falling', 'flat', 'stuck'))
def llnet_normal_init_without_scale(seed): return llnet_low_light(seed, normal_init=True)  # N(0, 1) weights: sigmoids saturated from the first layer on

@broken('AX', 'sed_labels_at_44k_features_at_16k', 4, ('labels',))
def sed_labels_at_44k_features_at_16k(seed): return sed_crnn(seed, label_sr=44100)  # the annotations' frames 2.76 times later than the events

@broken('AX', 'whale_keras_sigmoid_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def whale_keras_sigmoid_into_bce_with_logits(seed): return whale_upcall_cnn(seed, keras_sigmoid=True)  # a sigmoid, then the loss's own sigmoid

@broken('AX', 'emoji_texts_deduplicated_labels_not', 4, ('labels',))
def emoji_texts_deduplicated_labels_not(seed): return emoji_bilstm(seed, dedup_texts_only=True)  # sorted(set(texts)) zipped with the labels in file order

@broken('AX', 'word_seg_pad_tag_shifts_tags', 1, ('bad_labels',))
def word_seg_pad_tag_shifts_tags(seed): return word_seg_bilstm(seed, pad_first_tags=True)  # tag S is 4 against four outputs

@broken('AX', 'vrnn_decoder_reads_updated_state', 4, ('leakage',))
def vrnn_decoder_reads_updated_state(seed): return vrnn_strokes(seed, decode_after_update=True)  # the decoder sees h_t, which already holds x_t

@broken('AX', 'shuffle_learn_tuples_shuffled_labels_not', 4, ('labels',))
def shuffle_learn_tuples_shuffled_labels_not(seed): return shuffle_and_learn(seed, shuffle_tuples_only=True)  # the training tuples' labels in block order

@broken('AX', 'context_tower_frozen_from_finetune_script', (1, 3), ('frozen', 'not_updating', 'no_grad_params', 'unused_params', 'detached', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def context_tower_frozen_from_finetune_script(seed): return context_prediction(seed, freeze_tower=True)  # the tower never trains: only the head fits random features

@broken('AX', 'l3_adam_lr_one', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def l3_adam_lr_one(seed): return l3_av_correspondence(seed, lr=1.0)  # Adam at 1.0

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256; valid loss (and AUC or accuracy
# where the output is (B, C); frame-wise AUC for the SED), init -> the epoch named; s/ep the seconds of an epoch of training,
# params the trainable ones. Every factory builds and runs its batches (forward, loss, backward, step) but the one meant to
# raise; `ladder_gallery.HALF` holds 24 programs of half AX. Seed 1 in brackets.
CHECKS = """
demosaic_gharbi                       valid MSE 0.288 -> 0.034 (ep 2) -> 0.012 (ep 5) [0.312 -> 0.017 at ep 4]; 1200 scenes train,
                                      300 validate; 31k params; 0.4-0.6 s/ep
inverse_halftone_cnn                  valid MSE 0.0057 (the box blur alone at init) -> 0.0015 (ep 2) -> 0.0011 (ep 5) [0.0052 ->
                                      0.0012 at ep 4]; 1437 digits train, 360 validate; 28k params; 0.8-1.2 s/ep
cbam_digits                           valid CE 2.31 -> 2.30 (ep 1, a slow start) -> 0.74 (ep 5), accuracy 0.10 -> 0.88 [2.30 ->
                                      0.91, 0.93 at ep 4]; 30.8k params; 0.4-0.6 s/ep
llnet_low_light                       valid MSE 0.19 -> 0.073 (ep 1, a plateau) -> 0.036 (ep 5), R^2 -0.35 -> 0.74 [0.195 -> 0.041,
                                      0.71 at ep 4]; 1437 patches train, 360 validate; 62k params; 0.04 s/ep
sed_crnn                              valid BCE 0.69 -> 0.11 (ep 5), frame AUC 0.56 -> 0.99 [0.73 -> 0.12, 0.99 at ep 4]; 800 clips
                                      train, 200 validate; 15k params; 0.9-1.4 s/ep
whale_upcall_cnn                      valid BCE 0.70 -> 0.28 (ep 3) -> 0.04 (ep 5), AUC 0.52 -> 1.0 [0.72 -> 0.68, AUC 0.72 at ep 4:
                                      a slower start]; about 40% up-calls; 1200 clips train, 300 validate; 31k params; 1.5 s/ep
emoji_bilstm                          valid CE 1.61 -> 1.01 (ep 5), accuracy 0.22 -> 0.63 [1.61 -> 1.16, 0.52 at ep 4]; 1267 tweets
                                      train, 317 validate after the retweets dropped; 48k params; 0.1 s/ep
word_seg_bilstm                       valid CE per character 1.38 -> 0.43 (ep 2) -> 0.20 (ep 5) [1.36 -> 0.23 at ep 4]; 1200
                                      sentences train, 300 validate; 33k params; 0.2-0.3 s/ep
vrnn_strokes                          valid negative ELBO per step 2.96 -> 1.97 (ep 3) -> 0.18 (ep 5) [2.99 -> 1.19 at ep 4]; 1200
                                      strokes train, 300 validate; 10k params; 0.3 s/ep
shuffle_and_learn                     valid CE 0.70 -> 0.70 (ep 1) -> 0.53 (ep 5), accuracy 0.50 -> 0.73 [0.68 -> 0.52, 0.74 at ep
                                      4]; 120 videos (1440 tuples) train, 30 videos (360) validate; 50k params; 0.3 s/ep
context_prediction                    valid CE 2.09 -> 1.13 (ep 5), accuracy 0.11 -> 0.43 (chance 0.125) [2.08 -> 1.26, 0.39 at ep
                                      4]; 1437 digits train, 360 validate; 37k params; 0.15-0.2 s/ep
l3_av_correspondence                  valid CE 0.71 -> 0.69 (ep 5, a plateau) -> 0.44 (ep 9), accuracy 0.50 -> 0.60 (ep 5) -> 0.82
                                      (ep 9) -> 0.73 (ep 10); 1000 clips (2000 pairs) train, 200 clips (400) validate; 14k
                                      params; 0.4 s/ep (seed 0 only)
demosaic_flip_given_to_input_only     valid MSE 0.288 -> 0.021 (ep 5) (healthy 0.012): half the training pairs mirrored
inverse_halftone_step_without_zero_grad valid MSE 0.0057 -> 0.0048-0.0085 (ep 1-5), never below the box blur's (healthy 0.0011)
cbam_shifted_copies_split_after       valid accuracy 0.97 (ep 5) (healthy 0.88): 2875 images train, 719 validate, most validation
                                      digits' shifted twins in training
llnet_normal_init_without_scale       valid MSE 0.42 at init (healthy 0.19), saturated sigmoids; then trains: 0.047 (ep 5) (healthy
                                      0.036)
sed_labels_at_44k_features_at_16k     valid frame AUC 0.51 -> 0.77 (ep 5) (healthy 0.99), valid BCE 0.30 (healthy 0.11): the targets
                                      2.76 times later than the events, most cut off at the clip's end
whale_keras_sigmoid_into_bce_with_logits valid BCE 0.79 -> 0.6931 from ep 1 on, AUC 0.50: the sigmoid's outputs driven to 0, the
                                      loss's own sigmoid of them 0.5
emoji_texts_deduplicated_labels_not   valid CE 1.61 -> 1.63 (ep 5), accuracy 0.19-0.25 (chance 0.2; healthy 0.63)
word_seg_pad_tag_shifts_tags          IndexError: Target 4 is out of bounds, at the first batch [the same]
vrnn_decoder_reads_updated_state      valid negative ELBO 2.96 -> -1.94 (ep 5) (healthy 0.18): the decoder reads x_t through h_t
shuffle_learn_tuples_shuffled_labels_not valid accuracy 0.49-0.53 (ep 1-5), CE 0.693 (healthy 0.73, 0.53)
context_tower_frozen_from_finetune_script 8.8k trainable params of 37k: valid CE 2.09 -> 1.99 (ep 5), accuracy 0.25 (healthy
                                      1.13, 0.43)
l3_adam_lr_one                        valid accuracy 0.50 at every epoch, CE 0.67-0.73 (healthy 0.60 at ep 5, 0.82 at ep 9)
"""
