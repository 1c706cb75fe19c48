"""Half AT of the ladder's gallery: held out from the rules frozen at 7d35bca (round 59), and run once on them.
Families not in halves A-AS, taken only from computer vision, audio and speech, natural language, generative models and
self-supervised learning (a half written alongside took other domains): FlowNetSimple optical flow (Dosovitskiy et al. 2015,
shrunk: the two frames stacked as channels, a strided LeakyReLU encoder and a decoder with skips to a dense flow field, the
average endpoint error; Adam) of synthetic textures moved by random similarity warps; computational colour constancy
(Bianco, Cusano and Schettini 2015 / FC4-style: a small CNN from a linear-RGB image to the illuminant's chromaticity, the
angular error as the loss; the training scenes relit by random illuminants at each access, as FC4's augmentation) of
Mondrian scenes under Planckian-like lights, the ground truth one array in image-number order; AOD-Net dehazing (Li et al. 2017: the K-estimation module of five
convolutions with concatenations, J = relu(K x - K + 1), MSE to the clean image; a custom step with the gradient norm
clipped at 0.1 as the popular PyTorch port) of scenes hazed by the atmospheric scattering model with their depths;
acoustic scene classification (the DCASE 2019 task 1A baseline shrunk: two conv blocks with batch norm, max pooling and
dropout over log-mel segments, a dense layer; locations kept on one side of the split as the official folds) of five
synthetic scene types recorded at 60 locations; MOSNet (Lo et al. 2019: a CNN-BLSTM over magnitude spectrogram frames, a
score per frame, the utterance's score their mean, the utterance MSE plus the frame-level MSE; a tuple output and a loss of
its own) predicting the MOS of synthetic degraded speech in raw 1-5 units; CountNet (Stoeter et al. 2018, shrunk: a CRNN
over log spectrograms of mixtures, a BLSTM, max over time, a softmax layer over 0-5 concurrent speakers; the Keras model
ported with logits into nn.CrossEntropyLoss) of synthetic harmonic talkers; automated essay scoring (Taghipour and Ng 2016:
word embeddings, a convolution, an LSTM, mean over time of the real words, a sigmoid output on the score scaled by its
prompt's range, MSE, RMSprop; a batch of three tensors and a forward of its own) of synthetic essays for three prompts with
different score ranges, read from ASAP-style rows; authorship attribution with a character CNN (Ruder, Ghaffari and
Breslin 2016, shrunk: character embeddings, convolutions of widths 3, 4 and 5, max over time, dropout; the authors encoded
by sklearn's LabelEncoder) of 100-character chunks of eight synthetic nineteenth-century novelists, books published after
1860 validating; a categorical WaveNet (van den Oord et al. 2016, shrunk: mu-law to 64 levels, one-hot input, gated
dilated causal convolutions of width 2 with residual and skip connections, the cross-entropy of every next sample) of
synthetic plucked and bowed notes at 8 kHz; an ImageGPT-style pixel transformer (Chen et al. 2020, shrunk: digits
quantised to eight grey levels, a start token, learnt positions, two pre-norm causal transformer blocks, the next-pixel
cross-entropy; GPT-2's N(0, 0.02) initialisation; AdamW); MoCo v2 (He et al. 2020, Chen et al. 2020: a small CNN query
encoder with an MLP head, a momentum key encoder, a queue of 256 keys, InfoNCE at temperature 0.2; the momentum update and
the enqueue inside the forward while training, as the official code; two views drawn at each access; no labels) on digits;
and SwAV (Caron et al. 2020, shrunk: a CNN with an MLP projector, 20 L2-normalised prototypes renormalised in a custom step,
Sinkhorn-Knopp codes (epsilon 0.02, three iterations) of each view predicted from the other at temperature 0.1; SGD with
momentum at the paper's 4.8 scaled by batch / 4096) on digits.
At most 1470 training items a program (the authorship chunks; 1437 digits; 1200 elsewhere) and 105k trainable parameters
(the pixel transformer; 67k or fewer elsewhere); an epoch of a plain loop 0.2-3.1 s on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AS.

Protocol: written by a helper in a worktree at be15543 (branch halfAT), held out from the rules frozen at 7d35bca (round 59).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and tail (the import
lines), half AO's structure, its CHECKS and @broken lines, the module docstrings of the other halves and their @broken lines
(for the rung and cause conventions and the families taken, with greps of the halves for candidate family names, which
showed a few of their lines, and half AR's DINO step for the custom-step format), ladder_sweep.py's --half line, and the
signature of `ntrain.ladder` via help(). Each program was checked by hand only with a plain torch loop of its author's kind
(shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seeds 0 and 1. No program declares
groups. Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AT`; no program changes after
the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401


def _smooth_noise(g, n, size, coarse):
    "Random smooth images (n, 1, size, size): coarse Gaussian noise upsampled bicubically, plus a finer octave."
    a = torch.from_numpy(g.normal(0, 1, (n, 1, coarse, coarse)).astype(np.float32))
    b = torch.from_numpy(g.normal(0, 0.5, (n, 1, 2 * coarse, 2 * coarse)).astype(np.float32))
    return F.interpolate(a, size=(size, size), mode='bicubic', align_corners=False) + F.interpolate(b, size=(size, size), mode='bicubic', align_corners=False)

# ---------------------------------------------------------------- FlowNetSimple (Dosovitskiy et al. 2015): dense optical flow from two stacked frames
def _flow_pairs(seed, n=1500, S=16, pad=4):
    """Textures on a 24 x 24 canvas; frame 1 its central 16 x 16, frame 2 the texture sampled at p + d(p) for a random
    similarity warp about the centre (shift up to 2.5 px, rotation up to 0.15 rad, zoom 0.9-1.1), so that
    frame2(p) = frame1(p + d(p)); d (2, 16, 16) in pixels (x then y) is the target. Returns frames (n, 2, 16, 16), flows (n, 2, 16, 16)."""
    g = np.random.default_rng(1000 + seed * 3001); W = S + 2 * pad
    tex = _smooth_noise(g, n, W, 6); tex = (tex - tex.mean((2, 3), keepdim=True)) / tex.std((2, 3), keepdim=True)
    ys, xs = torch.meshgrid(torch.arange(S, dtype=torch.float32) + pad, torch.arange(S, dtype=torch.float32) + pad, indexing='ij')
    c = (W - 1) / 2; th = torch.from_numpy(g.uniform(-0.15, 0.15, n).astype(np.float32)); sc = torch.from_numpy(g.uniform(0.9, 1.1, n).astype(np.float32))
    tx, ty = (torch.from_numpy(g.uniform(-2.5, 2.5, n).astype(np.float32)) for _ in range(2))
    X, Y = xs[None] - c, ys[None] - c; cs, sn = torch.cos(th)[:, None, None], torch.sin(th)[:, None, None]
    wx = sc[:, None, None] * (cs * X - sn * Y) + c + tx[:, None, None]; wy = sc[:, None, None] * (sn * X + cs * Y) + c + ty[:, None, None]
    flow = torch.stack([wx - xs[None], wy - ys[None]], 1)
    grid = torch.stack([wx / (W - 1) * 2 - 1, wy / (W - 1) * 2 - 1], -1)
    f2 = F.grid_sample(tex, grid, mode='bilinear', padding_mode='border', align_corners=True)
    f1 = tex[:, :, pad:pad + S, pad:pad + S]
    noise = torch.from_numpy(g.normal(0, 0.03, (n, 2, S, S)).astype(np.float32))
    return torch.cat([f1, f2], 1) + noise, flow

class FlowPairs(Dataset):  # the author's Dataset over the saved pairs: (img1, img2) stacked as channels, the flow
    def __init__(self, frames, flows, first_twice=False): self.frames, self.flows, self.first_twice = frames, flows, first_twice
    def __len__(self): return len(self.frames)
    def __getitem__(self, i):
        im1, im2 = self.frames[i, :1], self.frames[i, 1:]
        return torch.cat([im1, im1 if self.first_twice else im2], 0), self.flows[i]

class FlowNetS(nn.Module):  # FlowNetSimple shrunk: conv(k, stride) + LeakyReLU(0.1) down to 4 x 4, deconvolutions with skips back up
    def __init__(self, c=16):
        super().__init__(); act = lambda: nn.LeakyReLU(0.1)
        self.c1 = nn.Sequential(nn.Conv2d(2, c, 5, 1, 2), act()); self.c2 = nn.Sequential(nn.Conv2d(c, 2 * c, 3, 2, 1), act(), nn.Conv2d(2 * c, 2 * c, 3, 1, 1), act())
        self.c3 = nn.Sequential(nn.Conv2d(2 * c, 2 * c, 3, 2, 1), act(), nn.Conv2d(2 * c, 2 * c, 3, 1, 1), act())
        self.d3 = nn.Sequential(nn.ConvTranspose2d(2 * c, 2 * c, 4, 2, 1), act()); self.d2 = nn.Sequential(nn.ConvTranspose2d(4 * c, c, 4, 2, 1), act())
        self.pred = nn.Conv2d(2 * c, 2, 3, 1, 1)
    def forward(self, x):
        a = self.c1(x); b = self.c2(a); z = self.c3(b)
        u = self.d2(torch.cat([self.d3(z), b], 1)); return self.pred(torch.cat([u, a], 1))

def epe_loss(flow_pred, flow):  # the average endpoint error: the Euclidean distance per pixel, averaged
    return (flow_pred - flow).norm(p=2, dim=1).mean()

@healthy('AT')
def flownet_simple(seed, first_twice=False):  # EPE, Adam 1e-3 (betas 0.9, 0.999), batches of 32; 1200 pairs train, 300 validate
    "first_twice: the Dataset's torch.cat([im1, im1]) (a typo for im2): the second frame never reaches the net."
    x, f = _flow_pairs(seed)
    return dict(model=FlowNetS, train=FlowPairs(x[:1200], f[:1200], first_twice), valid=FlowPairs(x[1200:], f[1200:], first_twice), loss=epe_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- colour constancy (Bianco et al. 2015, FC4's angular loss): the illuminant from a linear-RGB image
def _illuminant(g, n):
    "Chromaticities along a Planckian-like locus (warm to cool) with a green-magenta tint, unit length."
    tau = g.uniform(-1, 1, n); tint = g.normal(0, 0.06, n)
    L = np.stack([1 + 0.55 * tau, 1 + tint, 1 - 0.55 * tau + 0.1 * tau ** 2], 1)
    return (L / np.linalg.norm(L, axis=1, keepdims=True)).astype(np.float32)

def _mondrians(seed, n, S=16):
    """Scenes of 5-9 overlapping rectangles of random reflectances (some scenes dominated by one hue), a smooth shading;
    each saved as a linear-RGB image, reflectance x shading x its illuminant x sqrt(3) plus sensor noise, clipped at 1.
    Returns the images (n, 3, 16, 16) and the illuminants (n, 3)."""
    g = np.random.default_rng(1000 + seed * 3011); R = np.zeros((n, 3, S, S), np.float32)
    for i in range(n):
        bias = g.uniform(0.3, 1.0, 3) if g.random() < 0.4 else np.ones(3)
        R[i] = (g.uniform(0.1, 0.9, 3) * bias)[:, None, None]
        for _ in range(g.integers(5, 10)):
            y0, x0 = g.integers(0, S - 3, 2); h, w = g.integers(3, 10, 2); R[i, :, y0:y0 + h, x0:x0 + w] = (g.uniform(0.05, 0.95, 3) * bias)[:, None, None]
    shade = 0.6 + 0.4 * torch.sigmoid(_smooth_noise(g, n, S, 3)).numpy(); L = _illuminant(g, n)
    img = np.clip(R * shade * L[:, :, None, None] * np.sqrt(3) + g.normal(0, 0.01, R.shape), 0, 1).astype(np.float32)
    return img, L

class RelitScenes(Dataset):
    "Images and their illuminants; relight: each access rescales the channels by a fresh random ratio and the illuminant with them (FC4's augmentation)."
    def __init__(self, img, L, relight, seed): self.img, self.L, self.relight, self.g = img, L, relight, np.random.default_rng(seed)
    def __len__(self): return len(self.img)
    def __getitem__(self, i):
        img, L = self.img[i], self.L[i]
        if self.relight: r = self.g.uniform(0.6, 1.4, 3).astype(np.float32); img = np.clip(img * r[:, None, None], 0, 1); L = L * r / np.linalg.norm(L * r)
        return torch.from_numpy(img.astype(np.float32)), torch.from_numpy(L.astype(np.float32))

class ColourNet(nn.Module):  # Bianco et al. 2015 shrunk: convolutions, max pooling, a global average, dense to an RGB illuminant
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
    def forward(self, x): return self.fc(self.f(x))

def angular_loss(pred, L):  # FC4's: the angle between the estimated and the true illuminant, in degrees
    cos = F.cosine_similarity(pred, L, dim=1).clamp(-0.999999, 0.999999); return torch.rad2deg(torch.acos(cos)).mean()

@healthy('AT')
def colour_constancy(seed, listdir_order=False):  # angular error, Adam 3e-4, batches of 16; 1200 scenes train, 300 validate
    """The images saved as IMG_1.png .. IMG_1500.png and the ground-truth illuminants as the rows of one array in image
    number order (as Gehler-Shi's real_illum_568.mat). listdir_order: the images read in sorted(os.listdir()) order
    (IMG_1, IMG_10, IMG_100, IMG_1000, ...) and zipped with the illuminant rows in number order."""
    img, L = _mondrians(seed, 1500)
    if listdir_order: img = img[sorted(range(1500), key=lambda i: f'IMG_{i + 1}.png')]
    return dict(model=ColourNet, train=RelitScenes(img[:1200], L[:1200], True, seed), valid=RelitScenes(img[1200:], L[1200:], False, seed + 1), loss=angular_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-4), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- AOD-Net (Li et al. 2017): all-in-one dehazing by the reformulated scattering model
def _hazy_scenes(seed, n=1500, S=16):
    """Clean 16 x 16 RGB scenes: a sky band over textured ground and a few coloured objects; depth rising towards the horizon,
    the sky far, objects nearer. Haze I = J t + A (1 - t), t = exp(-beta d), beta 0.4-1.2, A grey 0.7-1.0."""
    g = np.random.default_rng(1000 + seed * 3019); J = np.zeros((n, 3, S, S), np.float32); D = np.zeros((n, S, S), np.float32)
    tex = torch.sigmoid(_smooth_noise(g, n, S, 4)).numpy()[:, 0]
    for i in range(n):
        hz = int(g.integers(3, 7)); rows = np.arange(S)[:, None] * np.ones(S)
        D[i] = np.where(rows < hz, 5.0, 0.6 + 3.0 * (S - 1 - rows) / (S - hz)); ground = g.uniform(0.15, 0.6, 3)
        J[i] = np.where(rows < hz, g.uniform(0.5, 0.9, 3)[:, None, None] * np.array([0.8, 0.9, 1.0])[:, None, None], ground[:, None, None] * (0.6 + 0.8 * tex[i]))
        for _ in range(g.integers(1, 4)):
            y0 = int(g.integers(hz, S - 3)); x0 = int(g.integers(0, S - 3)); h, w = g.integers(2, 6, 2)
            J[i, :, y0:y0 + h, x0:x0 + w] = g.uniform(0.05, 0.95, 3)[:, None, None]; D[i, y0:y0 + h, x0:x0 + w] = g.uniform(0.5, 2.0)
    t = np.exp(-g.uniform(0.4, 1.2, (n, 1, 1)) * D)[:, None]; A = g.uniform(0.7, 1.0, (n, 1, 1, 1))
    I = J * t + A * (1 - t) + g.normal(0, 0.01, J.shape)
    return np.clip(I, 0, 1).astype(np.float32), np.clip(J, 0, 1)

class AODNet(nn.Module):  # the paper's K-estimation module (3 channels a layer), J = relu(K * x - K + b), b = 1
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(3, 3, 1), nn.Conv2d(3, 3, 3, padding=1); self.conv3 = nn.Conv2d(6, 3, 5, padding=2)
        self.conv4, self.conv5 = nn.Conv2d(6, 3, 7, padding=3), nn.Conv2d(12, 3, 3, padding=1)
    def forward(self, x):
        x1 = F.relu(self.conv1(x)); x2 = F.relu(self.conv2(x1)); x3 = F.relu(self.conv3(torch.cat([x1, x2], 1)))
        x4 = F.relu(self.conv4(torch.cat([x2, x3], 1))); k = F.relu(self.conv5(torch.cat([x1, x2, x3, x4], 1)))
        return F.relu(k * x - k + 1)

def _aod_step(zero_grad=True):
    def aod_step(model, batch, opt):  # the port's loop: loss, zero_grad, backward, clip the gradient norm at 0.1, step
        hazy, clean = batch; loss = F.mse_loss(model(hazy), clean)
        if zero_grad: opt.zero_grad()
        loss.backward(); nn.utils.clip_grad_norm_(model.parameters(), 0.1); opt.step(); return loss
    return aod_step

@healthy('AT')
def aod_net_dehaze(seed, zero_grad=True):  # MSE, Adam 1e-3 with weight decay 1e-4, batches of 32; 1200 scenes train, 300 validate
    "zero_grad False: optimizer.zero_grad() dropped from the loop while moving the clipping in."
    I, J = _hazy_scenes(seed)
    return dict(model=AODNet, train=TensorDataset(_t(I[:1200]), _t(J[:1200])), valid=TensorDataset(_t(I[1200:]), _t(J[1200:])), loss=nn.MSELoss(),
                step=_aod_step(zero_grad), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- acoustic scene classification (DCASE 2019 task 1A baseline, shrunk)
ASC_SCENES = ['park', 'street_traffic', 'metro_station', 'airport', 'shopping_mall']

def _asc_segments(seed, locations=12, per_loc=25, B=20, T=32):
    """Log-mel segments (1, 20 bands, 32 frames) of five scene types: each type a spectral envelope, a stationarity and
    its own events (birds high and brief, passing cars low and long, train rumble with brakes, announcements in the
    speech bands, footsteps and chatter); each location its own tilt, gain and a constant hum in one band, stronger than
    the type's difference for some. Returns X (N, 1, 20, 32), y (N,), location id (N,)."""
    g = np.random.default_rng(1000 + seed * 3023); bands = np.arange(B)
    env = [np.exp(-((bands - c) / w) ** 2) * a for c, w, a in ((12, 8, 1.0), (4, 6, 1.6), (6, 10, 1.3), (9, 9, 1.1), (10, 7, 1.2))]
    X, y, loc = [], [], []
    for s in range(5):
        for l in range(locations):
            tilt, gain, hum = g.normal(0, 0.06), g.normal(0, 0.5), int(g.integers(0, B)); hum_a = g.uniform(0.3, 1.5)
            for _ in range(per_loc):
                m = (env[s] + tilt * (bands - 10) + gain)[:, None] + g.normal(0, 0.35, (B, T)); m[hum] += hum_a
                for _ in range(g.poisson(3)):
                    t0 = int(g.integers(0, T)); c = [16, 3, 2, 8, 7][s] + int(g.integers(-2, 3)); dur = [2, 10, 6, 8, 3][s]
                    m[max(c - 2, 0):c + 2, t0:t0 + dur] += g.uniform(0.5, 1.5)
                X.append(m); y.append(s); loc.append(s * locations + l)
    return np.array(X, np.float32)[:, None], np.array(y), np.array(loc)

class DCASEBaseline(nn.Module):  # two conv blocks (7 x 7, batch norm, ReLU, max pooling, dropout 0.3), dense 64, dropout, 5 outputs
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(1, 16, 7, padding=3), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d((2, 4)), nn.Dropout(0.3),
                               nn.Conv2d(16, 32, 7, padding=3), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d((2, 4)), nn.Dropout(0.3), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(32 * 5 * 2, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 5))
    def forward(self, x): return self.head(self.f(x))

@healthy('AT')
def dcase_scene_baseline(seed, split_segments=False):  # cross-entropy, Adam 1e-3, batches of 32; 48 locations train (1200 segments), 12 validate
    """Each scene type's locations split 80/20 (the official setup keeps a location's segments on one side); the bands
    standardised by the training segments' mean and sd. split_segments: train_test_split over the 1-s segments instead,
    each validation segment's location (its hum, tilt and gain) also in training."""
    from sklearn.model_selection import train_test_split
    X, y, loc = _asc_segments(seed); g = np.random.default_rng(seed)
    if split_segments: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    else:
        held = np.concatenate([s * 12 + g.choice(12, 3, replace=False) for s in range(5)]); va = np.isin(loc, held); tr = ~va
    m, sd = X[tr].mean((0, 1, 3), keepdims=True), X[tr].std((0, 1, 3), keepdims=True)
    return dict(model=DCASEBaseline, train=TensorDataset(_t((X[tr] - m) / sd), _t(y[tr], torch.long)), valid=TensorDataset(_t((X[va] - m) / sd), _t(y[va], torch.long)),
                loss=nn.CrossEntropyLoss(), num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- MOSNet (Lo et al. 2019): CNN-BLSTM, frame-level and utterance-level MOS
def _mos_utterances(seed, n=1500, T=40, Fb=32):
    """Magnitude-spectrogram frames (T, 32) of synthetic converted speech: a harmonic source with a moving f0 under a
    formant envelope, voiced and silent stretches; each utterance degraded by added noise, spectral smearing and a buzzy
    frame-rate artefact of random strengths. MOS = 4.6 - 1.5 noise - 1.3 smear - 1.0 buzz + a listener panel's N(0, 0.25),
    clipped to [1, 5]. Returns X (n, T, 32) (log1p magnitude), mos (n,)."""
    g = np.random.default_rng(1000 + seed * 3037); fr = np.arange(Fb) + 0.5; X = np.zeros((n, T, Fb), np.float32); mos = np.zeros(n, np.float32)
    for i in range(n):
        f0 = g.uniform(2.0, 4.5) * (1 + 0.15 * np.sin(np.arange(T) / g.uniform(4, 9) + g.uniform(0, 6)))
        form = sum(np.exp(-((fr - c) / 2.5) ** 2) for c in (g.uniform(3, 8), g.uniform(9, 16), g.uniform(17, 25)))
        harm = np.exp(-((fr[None] % f0[:, None]) - 0) ** 2 / 0.3) + np.exp(-((f0[:, None] - fr[None] % f0[:, None])) ** 2 / 0.3)
        voiced = (np.sin(np.arange(T) / g.uniform(2, 4) + g.uniform(0, 6)) > -0.3).astype(float)[:, None]
        S = voiced * harm * (0.3 + form)[None] * 3
        nz, sm, bz = g.uniform(0, 1, 3)
        if sm > 0.05: k = np.exp(-np.arange(-4, 5) ** 2 / (2 * (3 * sm) ** 2)); k /= k.sum(); S = np.apply_along_axis(lambda r: np.convolve(r, k, 'same'), 1, S)
        S = S + nz * g.exponential(1.0, S.shape) + bz * (np.arange(T) % 3 == 0)[:, None] * 1.5
        X[i] = np.log1p(S); mos[i] = np.clip(4.6 - 1.5 * nz - 1.3 * sm - 1.0 * bz + g.normal(0, 0.25), 1, 5)
    return X, mos

class MOSNet(nn.Module):  # CNN blocks striding the frequency axis, a BLSTM, a frame-wise dense layer and score; squeeze: the frame scores as (B, T)
    def __init__(self, squeeze=True):
        super().__init__(); self.squeeze = squeeze
        self.cnn = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1, stride=(1, 3)), nn.ReLU(),
                                 nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1, stride=(1, 3)), nn.ReLU())
        self.blstm = nn.LSTM(16 * 4, 32, batch_first=True, bidirectional=True)
        self.frame = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 1))
    def forward(self, x):  # x (B, T, F)
        h = self.cnn(x[:, None]); h = h.permute(0, 2, 1, 3).flatten(2); h, _ = self.blstm(h)
        frames = self.frame(h)
        if self.squeeze: frames = frames.squeeze(-1)
        return frames.mean(1), frames

def mosnet_loss(out, mos, alpha=1.0):  # the utterance MSE plus alpha times the frame-level MSE, each frame scored against the utterance's MOS
    utt, frames = out
    return F.mse_loss(utt, mos) + alpha * F.mse_loss(frames, mos[:, None].expand_as(frames) if frames.dim() == 2 else mos)

@healthy('AT')
def mosnet_quality(seed, squeeze=True):  # Adam 1e-3, batches of 32; 1200 utterances train, 300 validate; MOS in raw 1-5 units
    """squeeze False: TimeDistributed(Dense(1))'s (B, T, 1) kept: the utterance score (B, 1) and the frames (B, T, 1) against
    the MOS (B,) broadcast to (B, B) and (B, T, B) (the frame MSE written as F.mse_loss(frames, mos) then)."""
    X, mos = _mos_utterances(seed)
    return dict(model=lambda: MOSNet(squeeze), train=TensorDataset(_t(X[:1200]), _t(mos[:1200])), valid=TensorDataset(_t(X[1200:]), _t(mos[1200:])), loss=mosnet_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- CountNet (Stoeter et al. 2018): how many talkers are speaking
def _talker_mixtures(seed, n=1500, T=40, Fb=32, kmax=5):
    """Log spectrograms (T, 32) of mixtures of 0-5 synthetic talkers: each a harmonic stack with its own f0 (1.5-4 bins, a
    slow contour) under its own formants, switched on and off in syllables of 2-6 frames; a noise floor. k drawn uniformly."""
    g = np.random.default_rng(1000 + seed * 3041); fr = np.arange(Fb) + 0.5; X = np.zeros((n, T, Fb), np.float32); K = g.integers(0, kmax + 1, n)
    for i in range(n):
        P = g.exponential(0.05, (T, Fb))
        for _ in range(K[i]):
            f0 = g.uniform(1.5, 4.0) * (1 + 0.1 * np.sin(np.arange(T) / g.uniform(3, 8) + g.uniform(0, 6)))
            d = fr[None] / f0[:, None]; harm = np.exp(-((d - np.round(d)) ** 2) / 0.02) * (np.round(d) >= 1)
            form = sum(np.exp(-((fr - c) / 3) ** 2) for c in (g.uniform(2, 10), g.uniform(10, 22)))
            on = np.zeros(T); t = int(g.integers(0, 4))
            while t < T: L = int(g.integers(2, 7)); on[t:t + L] = 1; t += L + int(g.integers(1, 4))
            P = P + on[:, None] * harm * (0.2 + form)[None] * g.uniform(0.5, 1.5)
        X[i] = np.log(P + 1e-3)
    return X, K

class CountNet(nn.Module):  # conv(3 x 3) x 2, max pooling over frequency, a BLSTM, max over time, Dense(6); softmax: the Keras head's activation kept
    def __init__(self, softmax=False):
        super().__init__(); self.softmax = softmax
        self.cnn = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((1, 4)),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((1, 4)))
        self.blstm = nn.LSTM(16 * 2, 32, batch_first=True, bidirectional=True); self.out = nn.Linear(64, 6)
    def forward(self, x):
        h = self.cnn(x[:, None]).permute(0, 2, 1, 3).flatten(2); h, _ = self.blstm(h); o = self.out(h.max(1).values)
        return F.softmax(o, -1) if self.softmax else o

@healthy('AT')
def countnet_talkers(seed, softmax=False):  # cross-entropy over 0-5 talkers, Adam 1e-3, batches of 32; 1200 mixtures train, 300 validate
    "The log spectrograms standardised by the training set's mean and sd (CountNet's scaler)."
    X, K = _talker_mixtures(seed); m, s = X[:1200].mean(), X[:1200].std(); X = (X - m) / s
    return dict(model=lambda: CountNet(softmax), train=TensorDataset(_t(X[:1200]), _t(K[:1200], torch.long)), valid=TensorDataset(_t(X[1200:]), _t(K[1200:], torch.long)),
                loss=nn.CrossEntropyLoss(), num_classes=6, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- automated essay scoring (Taghipour and Ng 2016): CNN-LSTM with mean over time
ESSAY_RANGES = {1: (2, 12), 2: (1, 6), 3: (0, 3)}

def _asap_frame(seed, n=1500, V=200):
    """ASAP-style rows (essay_id, essay_set, essay as token ids, domain1_score) in the file's order, the prompts
    interleaved as the essays came in. Words: 2-99 common, 100-149 advanced, 150-159 connectives, 160-199 misspellings,
    each prompt a few topic words among the common ones. A latent quality sets the length, advanced words, connectives and
    misspellings; the score its prompt-range rounding of sigmoid(1.6 q + noise)."""
    g = np.random.default_rng(1000 + seed * 3049); rows = []
    for i in range(n):
        p = int(g.integers(1, 4)); q = g.normal(); L = int(np.clip(32 + 12 * q + g.normal(0, 5), 12, 60)); topic = 2 + 30 * (p - 1) + np.arange(10)
        probs = np.array([0.55 - 0.07 * q, 0.1 + 0.06 * q, 0.05 + 0.03 * q, 0.15, 0.08 - 0.05 * q]).clip(0.01); probs /= probs.sum()
        kind = g.choice(5, L, p=probs)
        words = [int(g.integers(2, 100)) if k == 0 else int(g.integers(100, 150)) if k == 1 else int(g.integers(150, 160)) if k == 2 else int(g.choice(topic)) if k == 3 else int(g.integers(160, 200)) for k in kind]
        lo, hi = ESSAY_RANGES[p]; score = int(np.round(lo + (hi - lo) / (1 + np.exp(-(1.6 * q + g.normal(0, 0.4))))))
        rows.append(dict(essay_id=i + 1, essay_set=p, essay=words, domain1_score=score))
    return rows

class EssayScorer(nn.Module):  # embedding 50, conv (window 3), LSTM 32, mean over the real words, dense sigmoid
    def __init__(self, V=200, d=50, h=32):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.conv = nn.Conv1d(d, h, 3, padding=1)
        self.lstm = nn.LSTM(h, h, batch_first=True); self.out = nn.Linear(h, 1)
    def forward(self, tok, lengths):
        h = self.conv(self.emb(tok).transpose(1, 2)).transpose(1, 2); h, _ = self.lstm(h)
        mask = (torch.arange(tok.shape[1])[None] < lengths[:, None]).float()[..., None]
        return torch.sigmoid(self.out((h * mask).sum(1) / lengths[:, None].float())).squeeze(-1)

def _essay_fwd(model, b): tok, n, y = b; return model(tok, n), y

@healthy('AT')
def essay_scoring_cnn_lstm(seed, grouped_texts=False):  # MSE on the scaled score, RMSprop 1e-3, batches of 32; a random train_test_split 80/20
    """Scores scaled to [0, 1] by their prompt's range, essays padded to 60 tokens.
    grouped_texts: the essays tokenised prompt by prompt ([r['essay'] for p in prompts for r in rows if r['essay_set'] == p])
    while the scaled scores stay in the file's interleaved order, so the texts and scores no longer line up."""
    from sklearn.model_selection import train_test_split
    rows = _asap_frame(seed)
    y = np.array([(r['domain1_score'] - ESSAY_RANGES[r['essay_set']][0]) / (ESSAY_RANGES[r['essay_set']][1] - ESSAY_RANGES[r['essay_set']][0]) for r in rows], np.float32)
    texts = [r['essay'] for p in (1, 2, 3) for r in rows if r['essay_set'] == p] if grouped_texts else [r['essay'] for r in rows]
    tok = np.zeros((len(rows), 60), np.int64); n = np.array([len(t) for t in texts])
    for i, t in enumerate(texts): tok[i, :len(t)] = t
    tr, va = train_test_split(np.arange(len(rows)), test_size=0.2, random_state=seed)
    ds = lambda i: TensorDataset(torch.from_numpy(tok[i]), torch.from_numpy(n[i]), torch.from_numpy(y[i]))
    return dict(model=EssayScorer, train=ds(tr), valid=ds(va), forward=_essay_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- authorship attribution with a character CNN (Ruder et al. 2016)
NOVELISTS = ['Austen', 'Bronte', 'Collins', 'Dickens', 'Eliot', 'Gaskell', 'Hardy', 'Trollope']
CHARS = " abcdefghijklmnopqrstuvwxyz.,;!?'-"

def _novels(seed, chunk=100):
    """Each novelist a style: their own word-frequency ranking over a shared made-up vocabulary, mean sentence length,
    comma and semicolon habits, exclamations; each book its own character names used often; 70 chunks a book. Austen's three
    books all before 1820; the others write two or three books between 1840 and 1860 and one between 1861 and 1895. Returns a list of (author, title, year, [chunks])."""
    g = np.random.default_rng(1000 + seed * 3061); syl = ['ba', 'de', 'li', 'mo', 'ru', 'sa', 'te', 'vi', 'ko', 'ne', 'pa', 'gu', 'ho', 'fi', 'we', 'ly', 'an', 'or', 'es', 'th']
    vocab = [''.join(g.choice(syl, g.integers(1, 4))) for _ in range(300)]; books = []
    for a, name in enumerate(NOVELISTS):
        rank = np.argsort(g.normal(0, 1.5, 300) + np.linspace(0, 3, 300)); w = 1 / (np.arange(300) + 3) ** 1.1; w /= w.sum()
        sent, comma, semi, excl = g.uniform(8, 20), g.uniform(0.03, 0.15), g.uniform(0, 0.05), g.uniform(0, 0.3)
        nb = 3 if name == 'Austen' else int(g.integers(3, 5))
        years = np.sort(g.integers(1811, 1818, nb)) if name == 'Austen' else np.append(np.sort(g.integers(1840, 1861, nb - 1)), g.integers(1861, 1896))
        for b in range(nb):
            names = [''.join(g.choice(syl, 2)).capitalize() for _ in range(3)]; text = []
            while sum(len(s) for s in text) < chunk * 72:
                words = [names[g.integers(3)] if g.random() < 0.06 else vocab[rank[g.choice(300, p=w)]] for _ in range(max(3, int(g.normal(sent, 4))))]
                s = ''
                for k, wd in enumerate(words): s += wd + (',' if g.random() < comma else ';' if g.random() < semi else '') + ' '
                text.append(s[:-1].capitalize() + ('!' if g.random() < excl else '.') + ' ')
            text = ''.join(text).lower(); books.append((name, f'{name} {b + 1}', int(years[b]), [text[i:i + chunk] for i in range(0, len(text) - chunk + 1, chunk)][:70]))
    return books

class CharCNN(nn.Module):  # character embedding 16, convolutions of widths 3, 4, 5 (32 filters each), max over time, dropout 0.5, dense
    def __init__(self, V=len(CHARS) + 1, d=16, k=32, n=8):
        super().__init__(); self.emb = nn.Embedding(V, d); self.convs = nn.ModuleList(nn.Conv1d(d, k, w) for w in (3, 4, 5))
        self.drop = nn.Dropout(0.5); self.fc = nn.Linear(3 * k, n)
    def forward(self, x):
        e = self.emb(x).transpose(1, 2); return self.fc(self.drop(torch.cat([F.relu(c(e)).max(-1).values for c in self.convs], 1)))

@healthy('AT')
def authorship_char_cnn(seed, encoder_per_split=False):  # cross-entropy, Adam 1e-3, batches of 64; books published after 1860 validate
    """Characters indexed 1.. (0 unknown); the authors encoded by one LabelEncoder fitted on the catalogue.
    encoder_per_split: LabelEncoder().fit_transform on each split's author column, so with Austen (all before 1820) absent
    from validation, every validation author gets the index of the one before them."""
    from sklearn.preprocessing import LabelEncoder
    books = _novels(seed); ix = {c: i + 1 for i, c in enumerate(CHARS)}
    rows = [(a, yr, [ix.get(c, 0) for c in ch]) for a, _, yr, chunks in books for ch in chunks]
    tr = [r for r in rows if r[1] <= 1860]; va = [r for r in rows if r[1] > 1860]
    if encoder_per_split: ytr, yva = LabelEncoder().fit_transform([r[0] for r in tr]), LabelEncoder().fit_transform([r[0] for r in va])
    else: le = LabelEncoder().fit(NOVELISTS); ytr, yva = le.transform([r[0] for r in tr]), le.transform([r[0] for r in va])
    ds = lambda rr, yy: TensorDataset(torch.tensor([r[2] for r in rr]), torch.as_tensor(yy, dtype=torch.long))
    return dict(model=CharCNN, train=ds(tr, ytr), valid=ds(va, yva), loss=nn.CrossEntropyLoss(), num_classes=8,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a categorical WaveNet (van den Oord et al. 2016) over mu-law samples
MU = 63  # 64 levels

def mu_law(x, mu=MU): return np.round((np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu) + 1) / 2 * mu).astype(np.int64)

def _notes(seed, n=1500, L=129, sr=8000):
    "Plucked (decaying) and bowed (swelling) notes of 1-3 partials, f0 150-700 Hz, amplitude 0.2-0.9, a little noise; mu-law codes (n, 129)."
    g = np.random.default_rng(1000 + seed * 3067); t = np.arange(L) / sr; out = np.zeros((n, L), np.int64)
    for i in range(n):
        f0, a = g.uniform(150, 700), g.uniform(0.2, 0.9); env = np.exp(-t * g.uniform(5, 60)) if g.random() < 0.5 else np.minimum(1, t * g.uniform(100, 400))
        x = sum(g.uniform(0.2, 1) / k * np.sin(2 * np.pi * k * f0 * t + g.uniform(0, 6)) for k in range(1, int(g.integers(2, 5))))
        x = a * env * x / np.abs(x).max() + g.normal(0, 0.01, L); out[i] = mu_law(np.clip(x, -1, 1))
    return out

class CausalBlock(nn.Module):  # gated dilated convolution of width 2, a 1 x 1 residual and a 1 x 1 skip
    def __init__(self, c, s, d, same=False):
        super().__init__(); self.d, self.same = d, same
        self.conv = nn.Conv1d(c, 2 * c, 2, dilation=d, padding='same' if same else 0); self.res, self.skip = nn.Conv1d(c, c, 1), nn.Conv1d(c, s, 1)
    def forward(self, x):
        h = self.conv(x if self.same else F.pad(x, (self.d, 0))); a, b = h.chunk(2, 1); z = torch.tanh(a) * torch.sigmoid(b)
        return x + self.res(z), self.skip(z)

class WaveNet(nn.Module):  # one-hot mu-law input, a causal 1 x 1 input layer, dilations 1..16 twice, ReLU, 1 x 1, ReLU, 1 x 1 to 64 logits
    def __init__(self, q=MU + 1, c=24, s=32, same=False):
        super().__init__(); self.q = q; self.inp = nn.Conv1d(q, c, 1)
        self.blocks = nn.ModuleList(CausalBlock(c, s, d, same) for d in (1, 2, 4, 8, 16) * 2)
        self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(s, s, 1), nn.ReLU(), nn.Conv1d(s, q, 1))
    def forward(self, codes):  # codes (B, T) -> logits (B, 64, T), the logits at t for the sample t + 1
        x = self.inp(F.one_hot(codes, self.q).float().transpose(1, 2)); skips = 0
        for b in self.blocks: x, s = b(x); skips = skips + s
        return self.out(skips)

@healthy('AT')
def wavenet_mulaw_notes(seed, same_padding=False):  # cross-entropy over the next sample's 64 levels, Adam 1e-3, batches of 32; 1200 notes train, 300 validate
    """The input the codes 0..T-1, the target the codes 1..T. same_padding: the dilated convolutions given padding='same'
    (PyTorch pads width 2 on the right), so each output also sees the next input sample: the very sample it predicts."""
    q = _notes(seed); x, y = torch.from_numpy(q[:, :-1]), torch.from_numpy(q[:, 1:])
    return dict(model=lambda: WaveNet(same=same_padding), train=TensorDataset(x[:1200], y[:1200]), valid=TensorDataset(x[1200:], y[1200:]),
                loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- ImageGPT-style pixel transformer (Chen et al. 2020): next-pixel prediction on digits
LEVELS = 8

class PixelGPT(nn.Module):  # a start token, learnt positions, two pre-norm causal blocks (d 64, 4 heads, MLP 256), a final LayerNorm, a head
    def __init__(self, d=64, layers=2, std=0.02):
        super().__init__(); self.tok = nn.Embedding(LEVELS + 1, d); self.pos = nn.Parameter(torch.zeros(64, d))
        layer = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.1, activation='gelu', batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False); self.ln = nn.LayerNorm(d); self.head = nn.Linear(d, LEVELS, bias=False)
        self.std = std; self.apply(self._init); nn.init.normal_(self.pos, std=std if std else 1.0)
    def _init(self, m):  # GPT-2's: N(0, 0.02) weights, zero biases (std None: nn.init.normal_(m.weight) with its default std of 1)
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=self.std) if self.std else nn.init.normal_(m.weight)
            if getattr(m, 'bias', None) is not None: nn.init.zeros_(m.bias)
    def forward(self, pix):  # pix (B, 64) levels; the input the start token and the first 63 pixels
        x = torch.cat([torch.full_like(pix[:, :1], LEVELS), pix[:, :-1]], 1)
        mask = nn.Transformer.generate_square_subsequent_mask(64)
        return self.head(self.ln(self.blocks(self.tok(x) + self.pos, mask=mask, is_causal=True))).transpose(1, 2)  # (B, 8, 64)

def _pix_fwd(model, b): (pix,) = b; return model(pix), pix

@healthy('AT')
def pixel_gpt_digits(seed, std=0.02):  # next-pixel cross-entropy, AdamW 1e-3 (weight decay 0.01), batches of 64; 1437 digits train, 360 validate
    "Pixels (0..1) quantised to 8 levels, raster order. std None: the init's normal_ called without std (N(0, 1) weights)."
    (x, _), (vx, _) = _digits(seed); qz = lambda im: (im.view(len(im), 64) * (LEVELS - 1)).round().long()
    return dict(model=lambda: PixelGPT(std=std), train=TensorDataset(qz(x)), valid=TensorDataset(qz(vx)), forward=_pix_fwd, loss=nn.CrossEntropyLoss(),
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- self-supervised: MoCo v2 and SwAV on digits (two augmented views drawn at each access)
class TwoViews(Dataset):
    "Two views of a digit: a random shift of up to one pixel, a scale and contrast jitter, Gaussian noise, a 2 x 2 cutout half the time."
    def __init__(self, x): self.x = x
    def __len__(self): return len(self.x)
    def view(self, im):
        im = torch.roll(F.pad(im, (1, 1, 1, 1)), tuple(torch.randint(-1, 2, (2,)).tolist()), (1, 2))[:, 1:9, 1:9]
        im = im * torch.empty(1).uniform_(0.6, 1.3) + torch.empty(1).uniform_(-0.1, 0.1) + 0.1 * torch.randn_like(im)
        if torch.rand(1) < 0.5: i, j = torch.randint(0, 7, (2,)).tolist(); im = im.clone(); im[:, i:i + 2, j:j + 2] = 0
        return im
    def __getitem__(self, i): return self.view(self.x[i]), self.view(self.x[i])

def _small_cnn():  # a ResNet-like stem shrunk: 3 x 3 convolutions with batch norm, a global average
    return nn.Sequential(nn.Conv2d(1, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(), nn.Conv2d(32, 64, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
                         nn.Conv2d(64, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())

class MoCo(nn.Module):  # the official builder: encoder_q/k (backbone + MLP head), queue, momentum update and enqueue in forward while training
    def __init__(self, dim=32, K=256, m=0.99, T=0.2, query_under_no_grad=False):
        super().__init__(); self.K, self.m, self.T, self.bug = K, m, T, query_under_no_grad
        self.encoder_q, self.head_q = _small_cnn(), nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, dim))
        self.encoder_k, self.head_k = _small_cnn(), nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, dim))
        for pq, pk in zip(self.q_params(), self.k_params()): pk.data.copy_(pq.data); pk.requires_grad = False
        self.register_buffer('queue', F.normalize(torch.randn(K, dim), dim=1)); self.register_buffer('ptr', torch.zeros((), dtype=torch.long))
    def q_params(self): return list(self.encoder_q.parameters()) + list(self.head_q.parameters())
    def k_params(self): return list(self.encoder_k.parameters()) + list(self.head_k.parameters())
    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for pq, pk in zip(self.q_params(), self.k_params()): pk.data = pk.data * self.m + pq.data * (1. - self.m)
    @torch.no_grad()
    def _dequeue_and_enqueue(self, k):
        p = int(self.ptr); idx = (torch.arange(len(k)) + p) % self.K; self.queue[idx] = k; self.ptr.fill_((p + len(k)) % self.K)
    def forward(self, im_q, im_k):
        if self.bug:  # the v2 head added outside the block that used to hold the whole key path
            with torch.no_grad():
                if self.training: self._momentum_update_key_encoder()
                h = self.encoder_q(im_q); k = F.normalize(self.head_k(self.encoder_k(im_k)), dim=1)
            q = F.normalize(self.head_q(h), dim=1)
        else:
            q = F.normalize(self.head_q(self.encoder_q(im_q)), dim=1)
            with torch.no_grad():
                if self.training: self._momentum_update_key_encoder()
                k = F.normalize(self.head_k(self.encoder_k(im_k)), dim=1)
        logits = torch.cat([(q * k).sum(1, keepdim=True), q @ self.queue.clone().detach().t()], 1) / self.T
        if self.training: self._dequeue_and_enqueue(k)
        return logits

def _moco_fwd(model, b): v1, v2 = b; logits = model(v1, v2); return logits, torch.zeros(len(logits), dtype=torch.long)  # the positive key is class 0

@healthy('AT')
def moco_v2_digits(seed, query_under_no_grad=False):  # cross-entropy (InfoNCE), SGD 0.03 momentum 0.9 weight decay 1e-4, batches of 64; 1437 digits train, 360 validate
    "query_under_no_grad: the query backbone's call moved into the torch.no_grad() block: only the MLP head learns."
    (x, _), (vx, _) = _digits(seed)
    return dict(model=lambda: MoCo(query_under_no_grad=query_under_no_grad), train=TwoViews(x), valid=TwoViews(vx), forward=_moco_fwd, loss=nn.CrossEntropyLoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.03, momentum=0.9, weight_decay=1e-4), **_keys(seed, batch_size=64))

class SwAV(nn.Module):  # backbone, projector to 32, L2 normalisation, 20 prototypes (a bias-free linear layer)
    def __init__(self, dim=32, nproto=20):
        super().__init__(); self.backbone = _small_cnn(); self.projector = nn.Sequential(nn.Linear(64, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, dim))
        self.prototypes = nn.Linear(dim, nproto, bias=False)
    def forward(self, v1, v2):
        z = F.normalize(self.projector(self.backbone(torch.cat([v1, v2]))), dim=1); s = self.prototypes(z); return s[:len(v1)], s[len(v1):]

@torch.no_grad()
def sinkhorn(scores, eps=0.02, iters=3):  # SwAV's distributed_sinkhorn on one worker (epsilon 0.02: at 0.05 the codes of this small model stay flat and it collapses to log 20)
    Q = torch.exp(scores / eps).t(); Q /= Q.sum(); K, B = Q.shape
    for _ in range(iters): Q /= Q.sum(1, keepdim=True); Q /= K; Q /= Q.sum(0, keepdim=True); Q /= B
    return (Q * B).t()

def swav_loss(out, _=None, temp=0.1):  # swapped prediction: the codes of each view from the scores of the other
    s1, s2 = out; q1, q2 = sinkhorn(s1), sinkhorn(s2)
    return -0.5 * ((q1 * F.log_softmax(s2 / temp, 1)).sum(1).mean() + (q2 * F.log_softmax(s1 / temp, 1)).sum(1).mean())

def _swav_fwd(model, b): v1, v2 = b; return model(v1, v2), None  # no target

def swav_step(model, batch, opt):  # normalise the prototypes, then the usual step
    with torch.no_grad(): w = model.prototypes.weight.data.clone(); model.prototypes.weight.copy_(F.normalize(w, dim=1))
    out, _ = _swav_fwd(model, batch); loss = swav_loss(out); opt.zero_grad(); loss.backward(); opt.step(); return loss

@healthy('AT')
def swav_digits(seed, lr=4.8 * 64 / 4096):  # SGD momentum 0.9, weight decay 1e-6, batches of 64; 1437 digits train, 360 validate (their swapped-prediction loss)
    "lr: the paper's base 4.8 scaled by batch / 4096 (broken: 4.8 itself, the LARS wrapper and the scaling both left out)."
    (x, _), (vx, _) = _digits(seed)
    return dict(model=SwAV, train=TwoViews(x), valid=TwoViews(vx), forward=_swav_fwd, loss=swav_loss, step=swav_step,
                optimizer=lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9, weight_decay=1e-6), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- the broken twins
@broken('AT', 'flownet_first_frame_twice', 4, ('labels',))
def flownet_first_frame_twice(seed): return flownet_simple(seed, first_twice=True)  # torch.cat([im1, im1]): the flow cannot be seen from the input

@broken('AT', 'colour_constancy_images_in_listdir_order', 4, ('labels',))
def colour_constancy_images_in_listdir_order(seed): return colour_constancy(seed, listdir_order=True)  # IMG_10 paired with the second illuminant

@broken('AT', 'aod_net_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def aod_net_no_zero_grad(seed): return aod_net_dehaze(seed, zero_grad=False)  # the gradients accumulate over every step

@broken('AT', 'dcase_segments_split_at_random', 4, ('leakage',))
def dcase_segments_split_at_random(seed): return dcase_scene_baseline(seed, split_segments=True)  # each validation segment's location also in training

@broken('AT', 'mosnet_frame_scores_not_squeezed', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def mosnet_frame_scores_not_squeezed(seed): return mosnet_quality(seed, squeeze=False)  # (B, 1) and (B, T, 1) against (B,): every score against every MOS

@broken('AT', 'countnet_keras_softmax_into_cross_entropy', 2, ('softmax',))
def countnet_keras_softmax_into_cross_entropy(seed): return countnet_talkers(seed, softmax=True)  # Dense(6, activation='softmax') ported with nn.CrossEntropyLoss

@broken('AT', 'essay_texts_grouped_by_prompt_scores_not', 4, ('labels',))
def essay_texts_grouped_by_prompt_scores_not(seed): return essay_scoring_cnn_lstm(seed, grouped_texts=True)  # texts in prompt order, scores in file order

@broken('AT', 'authorship_label_encoder_per_split', 4, ('labels',))
def authorship_label_encoder_per_split(seed): return authorship_char_cnn(seed, encoder_per_split=True)  # validation authors shifted by one index

@broken('AT', 'wavenet_same_padding_not_causal', 4, ('leakage',))
def wavenet_same_padding_not_causal(seed): return wavenet_mulaw_notes(seed, same_padding=True)  # each output sees the sample it predicts

@broken('AT', 'pixel_gpt_normal_init_without_std', 2, ('init_scale',))
def pixel_gpt_normal_init_without_std(seed): return pixel_gpt_digits(seed, std=None)  # N(0, 1) weights: initial logits far from uniform

@broken('AT', 'moco_query_backbone_under_no_grad', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def moco_query_backbone_under_no_grad(seed): return moco_v2_digits(seed, query_under_no_grad=True)  # the query backbone gets no gradient

@broken('AT', 'swav_paper_lr_without_lars', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def swav_paper_lr_without_lars(seed): return swav_digits(seed, lr=4.8)  # SGD at 4.8 on a batch of 64, no LARS trust ratio

CHECKS = """
Plain torch loops of each author's kind (their forward, loss and step; Adam/SGD as in the factory), seed 0 for 6 epochs
[seed 1 for 3 epochs in brackets]; validation loss in the program's own units, accuracy where it classifies.
flownet_simple                        valid EPE (px) 2.01 -> 1.20 (ep 2) -> 0.85 (ep 6) [1.95 -> 1.06 at ep 3]; 1200 pairs train,
                                      300 validate; 67k params; 0.5-0.7 s/ep
colour_constancy                      valid angular error 59.6 deg at init -> 8.0 (ep 2-6) [41.1 -> 7.2]; 1200 scenes train,
                                      300 validate; 6.2k params; 0.2 s/ep
aod_net_dehaze                        valid MSE 0.329 -> 0.053 (ep 2) -> 0.034 (ep 6) [0.318 -> 0.044 at ep 3]; 1200 scenes
                                      train, 300 validate; 1.8k params; 0.3 s/ep
dcase_scene_baseline                  valid CE 1.61 -> 0.52, accuracy 0.20 -> 0.85 (ep 6) [1.61 -> 1.00, 0.68 at ep 3]; 48 locations
                                      (1200 segments) train, 12 unseen locations (300) validate; 47k params; 0.35 s/ep
mosnet_quality                        valid loss (utterance MSE + frame MSE, MOS^2) 13.0 at init -> 0.92 (ep 1) -> 0.48 (ep 6)
                                      [15.8 -> 0.89 at ep 3]; 1200 utterances train, 300 validate; 31k params; 0.55 s/ep
countnet_talkers                      valid CE 1.79 -> 0.31, accuracy 0.19 -> 0.88 (ep 6) [1.80 -> 0.48, 0.80 at ep 3]; 1200
                                      mixtures train, 300 validate; 22k params; 0.8-1.0 s/ep
essay_scoring_cnn_lstm                valid MSE (scaled score) 0.091 -> 0.029-0.031 (ep 5-6) [0.094 -> 0.058 at ep 2]; 1200 essays
                                      train, 300 validate; 23k params; 0.2 s/ep
authorship_char_cnn                   valid CE 2.17 -> 1.47, accuracy 0.14 -> 0.75 (ep 6; 0.77 at ep 8) [2.38 -> 1.78, 0.47-0.50
                                      at ep 2-3]; 1470 chunks of books up to 1860 train, 490 of later books validate (7 authors;
                                      Austen only in training); 7.6k params; 0.2 s/ep
wavenet_mulaw_notes                   valid CE (nats a sample) 4.15 -> 3.34 (ep 3) -> 2.47 (ep 6) [4.16 -> 3.21 at ep 3]; 1200
                                      notes train, 300 validate; 42k params (the last block's residual 1 x 1, 2 tensors, feeds
                                      nothing, as in the usual WaveNet code); 1.5-1.9 s/ep
pixel_gpt_digits                      valid CE (nats a pixel) 2.10 at init (log 8 = 2.08) -> 1.38 (ep 1) -> 1.08 (ep 6) [2.24 ->
                                      1.17 at ep 3]; 1437 digits train, 360 validate; 105k params; 2.4-3.1 s/ep
moco_v2_digits                        valid InfoNCE 3.26 at init (random queue) -> 4.43 -> 5.23 (ep 2, the queue now real keys;
                                      log 257 = 5.55) -> 4.11 (ep 6), train 5.40 -> 4.05 [3.19 -> 5.25 -> 5.32 at ep 3: still in
                                      the rise]; 1437 digits train, 360 validate; 62k trainable params (the key encoder's
                                      follow by momentum); 0.4 s/ep
swav_digits                           valid swapped-prediction loss 3.33 -> 2.59 (ep 2) -> 1.83 (ep 6) [3.38 -> 2.41 at ep 3]
                                      (log 20 = 3.00: with epsilon 0.05 it sat there, collapsed); 1437 digits train, 360
                                      validate; 63k params; 0.45 s/ep
flownet_first_frame_twice             valid EPE 2.01 -> 2.00 at every epoch [1.95 -> 1.95] (healthy 0.85 [1.06]): only the mean
                                      flow learnt; training EPE flat at 1.99
colour_constancy_images_in_listdir_order valid angular error 59.6 -> 12.7-13.2 (ep 2-6) [41.2 -> 12.7] (healthy 8.0 [7.2]): the
                                      mean illuminant only; training error 14-15 deg
aod_net_no_zero_grad                  the gradients accumulate; with the 0.1 clip and Adam's normalisation the loop still learns:
                                      valid MSE 0.329 -> 0.032 (ep 6) [0.318 -> 0.043] (healthy 0.034 [0.044])
dcase_segments_split_at_random        every validation location also in training; valid CE 0.08, accuracy 0.97-0.99 (ep 4-6)
                                      [0.18, 0.95 at ep 3] (healthy 0.52, 0.85 [1.00, 0.68])
mosnet_frame_scores_not_squeezed      (B, 1) and (B, T, 1) against (B,): broadcast warnings; valid loss 13.0 -> 0.82-0.86 from
                                      ep 1 to 6 [15.8 -> 0.95-1.01] (healthy 0.48 [0.89 at ep 3, falling]): the batch's mean MOS
countnet_keras_softmax_into_cross_entropy valid CE 1.79 -> 1.20 (ep 6, floored by the doubled softmax), accuracy 0.89 [1.32,
                                      0.77] (healthy 0.31, 0.88 [0.48, 0.80])
essay_texts_grouped_by_prompt_scores_not valid MSE 0.091 -> 0.091-0.103, rising as it fits noise [0.094 -> 0.100] (healthy 0.03
                                      [0.058])
authorship_label_encoder_per_split    valid accuracy 0.04-0.09 (ep 1-6) [0.07-0.15], CE 2.17-2.25 rising (healthy 0.75 [0.50]):
                                      every validation author one index down
wavenet_same_padding_not_causal       valid CE 4.15 -> 1.43 (ep 3) -> 0.068 (ep 6) [4.16 -> 1.38 at ep 3] (healthy 2.47 [3.21]):
                                      the next sample read from the input
pixel_gpt_normal_init_without_std     first-batch loss 13.2 [14.2] against log 8 = 2.08 (healthy 2.10 [2.22]); valid CE 14.0 ->
                                      2.84 (ep 1) -> 1.34 (ep 6) [15.4 -> 1.73] (healthy 1.08 [1.17])
moco_query_backbone_under_no_grad     the query backbone never moves (11 of 26 tensors do: both heads, and three of the key
                                      backbone's by rounding in the momentum update); valid InfoNCE 3.26 ->
                                      5.43 (ep 2) -> 5.15 (ep 6) [5.43 at ep 3] (healthy 4.11 [5.32])
swav_paper_lr_without_lars            SGD at 4.8: training loss 3.2 -> 7-9 (ep 1-3), 3.3 by ep 6, above log 20 throughout; the
                                      validation loss NaN from epoch 1 [the same] (the prototypes grown past what the exp of
                                      Sinkhorn holds between the step's renormalisations); the parameters finite
"""
