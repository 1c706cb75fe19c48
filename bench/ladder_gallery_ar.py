"""Half AR of the ladder's gallery: held out from the rules frozen at 6964e40 (round 55), and run once on them.
Families not in halves A-AQ (nor in half AP, written just before), taken only from computer vision, audio and speech, natural
language, generative models and self-supervised learning (a half written alongside took other domains): DnCNN (Zhang, Zuo,
Chen, Meng and Zhang 2017, shrunk: residual learning of the noise by a stack of 3 x 3 convolutions with batch norm, the
clean image as the input minus the predicted noise, MSE; fresh Gaussian noise of sigma 0.2 drawn at each access, as
SaoYan/DnCNN-PyTorch with Adam 1e-3) denoising digits; VoxNet (Maturana and Scherer 2015, shrunk: 3-D convolutions over 12^3
occupancy grids, leaky ReLU, dropout, SGD with momentum; the training objects augmented by their four quarter turns about
the vertical axis) classifying six kinds of voxelised solids; deep supervised hashing (DSH, Liu, Wang, Shan and Chen 2016: a
small CNN to 12 real-valued bits, the contrastive loss over the batch's pairs with margin 2k and the regulariser pulling
each bit to +-1, alpha 0.01; a loss of its own) of digits; video frame interpolation (a small U-Net from the two
neighbouring frames to the middle one, the L1 loss, in a custom step as the author's loop) of clips of moving blobs, whole
clips validating; musical key detection (Korzeniowski and Widmer 2017's all-convolutional key classifier, shrunk: 5 x 5
convolutions with circular padding along the pitch axis over chromagrams, ELU, a final convolution to major and minor
maps averaged over time into 24 keys; the training clips augmented by all twelve transpositions, the key shifted with them)
of synthetic chord progressions; heart-sound classification (the PhysioNet/CinC 2016 challenge: phonocardiograms at 500 Hz
cut into 2-s windows scaled by their peak, a 1-D CNN after Potes et al. 2016, BCE with logits; labels joined from
REFERENCE.csv by name; recordings split with GroupShuffleSplit, no groups declared) of synthetic S1/S2 sounds with systolic murmurs; named-entity recognition with
subword tokens (a WordPiece-style tokenizer, one transformer encoder layer, the BIO label on each word's first piece and
-100 on the other pieces and the padding, as the Hugging Face token-classification recipe's tokenize_and_align_labels; dict
items padded by a collate_fn, a forward of its own) of persons, places and organisations; the sentence VAE (Bowman et al.
2016, as timbmg/Sentence-VAE: an LSTM encoder to a Gaussian latent, an LSTM decoder started from it under teacher forcing
with word dropout, the summed NLL plus the KL weighted by a logistic annealing over the steps; a tuple output and a loss of
its own) of sentences from a small grammar; the PyTorch tutorial "generating names with a character-level RNN" (a category
one-hot beside each letter, i2h, i2o and o2o layers with dropout, LogSoftmax and NLLLoss), batched over padded names of six
made-up languages; a generative moment matching network (GMMN, Li, Swersky and Zemel 2015: an MLP from uniform noise to a
sigmoid image, the squared MMD under a mixture of Gaussian kernels to the batch; the noise drawn in the forward, Adam) of
digits; DINO (Caron et al. 2021, shrunk: a small CNN student and its EMA teacher, a head with batch norm and a weight-normed
prototype layer of fixed norm, centred and
sharpened teacher outputs at temperature 0.04 against the student's at 0.1 over two augmented views drawn at each access; a
custom step updating the teacher and the centre; no labels) on digits; and spoken digit recognition (the Free Spoken Digit
Dataset's layout: six speakers, '<digit>_<speaker>_<index>' clips, repetitions 0-4 testing; log-mel frames of clips
zero-padded to one second, each band standardised by the training clips, a CNN with batch norm).
At most 1440 training items a program (the key clips with their transpositions; 1200 elsewhere or fewer) and about 64k
trainable parameters (the NER tagger; 35k or fewer elsewhere); an epoch of a plain loop 0.06-1.1 s on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AQ.

Protocol: written by a helper in a worktree at 363c09d (branch halfAR), held out from the rules frozen at 6964e40 (round 55).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and tail (the import
lines), half AO whole, the module docstrings of the other halves (half AP's read-only from its worktree) and the @broken
lines of all of them (for the rung and cause conventions and the families taken, with greps of the halves for candidate
family names), ladder_sweep.py's --half line, and the signature of `ntrain.ladder` via help(). Each program was checked by
hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are
broken as meant), seeds 0 and 1. No program declares groups. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half AR`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import copy
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- DnCNN (Zhang et al. 2017): residual learning of the noise, digits with Gaussian noise
class NoisyDigits(Dataset):
    "(noisy, clean): fresh noise of sigma 0.2 at each access in training; the validation noise drawn once from a seeded generator."
    def __init__(self, x, fresh, seed=0, sigma=0.2):
        self.x, self.fresh, self.sigma = x, fresh, sigma
        self.noise = None if fresh else torch.randn(x.shape, generator=torch.Generator().manual_seed(7 + seed)) * sigma
    def __len__(self): return len(self.x)
    def __getitem__(self, i):
        n = torch.randn_like(self.x[i]) * self.sigma if self.fresh else self.noise[i]
        return self.x[i] + n, self.x[i]

class DnCNN(nn.Module):
    def __init__(self, depth=5, c=32):
        super().__init__()
        layers = [nn.Conv2d(1, c, 3, padding=1), nn.ReLU(inplace=True)]
        for _ in range(depth - 2): layers += [nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU(inplace=True)]
        self.dncnn = nn.Sequential(*layers, nn.Conv2d(c, 1, 3, padding=1))
    def forward(self, x): return x - self.dncnn(x)  # the network predicts the noise; the output is the input minus it

@healthy('AR')
def dncnn_digits(seed, paper_sgd=False):  # MSE, Adam 1e-3, batches of 64; 1437 digits train, 360 validate
    """paper_sgd: the paper's SGD (lr 0.1, momentum 0.9, weight decay 1e-4) ported without its adjustable gradient clipping."""
    (x, _), (vx, _) = _digits(seed)
    opt = (lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-4)) if paper_sgd else (lambda p: torch.optim.Adam(p, lr=1e-3))
    return dict(model=DnCNN, train=NoisyDigits(x, True), valid=NoisyDigits(vx, False, seed), loss=nn.MSELoss(), optimizer=opt, **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- VoxNet (Maturana and Scherer 2015) on 12^3 occupancy grids of six solids
VOX_CLASSES = ['sphere', 'box', 'cylinder', 'cone', 'torus', 'pyramid']

def _voxels(seed, n, R=12, salt=0):
    "Solids of random size, offset and turn about the vertical axis (and a slight tilt), voxelised at 12^3, 2% of the voxels flipped."
    g = np.random.default_rng(1000 + seed * 3001 + salt); c = (np.arange(R) + 0.5) / R * 2 - 1
    Z, Y, X = np.meshgrid(c, c, c, indexing='ij'); out = np.zeros((n, 1, R, R, R), np.float32); y = g.integers(0, 6, n)
    for i in range(n):
        s = g.uniform(0.45, 0.85); o = g.uniform(-0.15, 0.15, 3); a = g.uniform(0, 2 * np.pi); t = g.normal(0, 0.12)
        x0, y0, z0 = X - o[0], Y - o[1], Z - o[2]
        xr, yr = np.cos(a) * x0 + np.sin(a) * y0, -np.sin(a) * x0 + np.cos(a) * y0; zr = z0 + t * xr
        k = y[i]
        if k == 0: occ = xr ** 2 + yr ** 2 + zr ** 2 < s ** 2
        elif k == 1: occ = (np.abs(xr) < s * 0.8) & (np.abs(yr) < s * 0.6) & (np.abs(zr) < s * 0.7)
        elif k == 2: occ = (xr ** 2 + yr ** 2 < (0.6 * s) ** 2) & (np.abs(zr) < s)
        elif k == 3: occ = (np.abs(zr) < s) & (np.sqrt(xr ** 2 + yr ** 2) < 0.7 * s * (s - zr) / (2 * s))
        elif k == 4: occ = (np.sqrt(xr ** 2 + yr ** 2) - 0.6 * s) ** 2 + zr ** 2 < (0.3 * s) ** 2
        else: occ = (np.abs(zr) < s) & (np.maximum(np.abs(xr), np.abs(yr)) < 0.8 * s * (s - zr) / (2 * s))
        v = occ.astype(np.float32); flip = g.random(v.shape) < 0.02; v[flip] = 1 - v[flip]; out[i, 0] = v
    return out, y

class VoxNet(nn.Module):
    def __init__(self, k=6):
        super().__init__()
        self.features = nn.Sequential(nn.Conv3d(1, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.1), nn.Dropout(0.2),
                                      nn.Conv3d(16, 16, 3), nn.LeakyReLU(0.1), nn.MaxPool3d(2), nn.Dropout(0.3))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(16 * 8, 64), nn.ReLU(), nn.Dropout(0.4), nn.Linear(64, k))
    def forward(self, x): return self.classifier(self.features(x))

@healthy('AR')
def voxnet_solids(seed, repeat_labels=False):  # cross-entropy, SGD 0.01 with momentum 0.9, batches of 32; 300 objects x 4 turns train, 300 validate
    """The training grids augmented as np.concatenate([np.rot90(X, k, axes=(3, 4)) for k in range(4)]), their labels np.tile(y, 4)
    (repeat_labels: np.repeat(y, 4), each object's label written four times in a row against the grids' block order)."""
    X, y = _voxels(seed, 300); vX, vy = _voxels(seed, 300, salt=1)
    Xa = np.concatenate([np.rot90(X, k, axes=(3, 4)) for k in range(4)]).copy(); ya = np.repeat(y, 4) if repeat_labels else np.tile(y, 4)
    return dict(model=VoxNet, train=TensorDataset(_t(Xa), _t(ya, torch.long)), valid=TensorDataset(_t(vX), _t(vy, torch.long)), num_classes=6,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- deep supervised hashing (DSH, Liu et al. 2016) of digits
class DSHNet(nn.Module):
    def __init__(self, bits=12, binary_out=False):
        super().__init__(); self.binary_out = binary_out
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(32 * 4, 64), nn.ReLU(), nn.Linear(64, bits))
    def forward(self, x):
        b = self.fc(self.conv(x))
        return torch.sign(b) if self.binary_out else b  # binary_out: the codes binarised in the forward, in training too

def dsh_loss(b, y, m=24.0, alpha=0.01):  # over the batch's pairs i < j: similar pulled together, dissimilar pushed beyond the margin 2k; bits pulled to +-1
    d = torch.cdist(b, b).pow(2); s = (y[:, None] == y[None, :]).float(); iu = torch.triu_indices(len(y), len(y), 1)
    pair = 0.5 * s * d + 0.5 * (1 - s) * F.relu(m - d)
    return pair[iu[0], iu[1]].mean() + alpha * (b.abs() - 1).abs().sum(1).mean()

@healthy('AR')
def dsh_digits(seed, binary_out=False):  # Adam 1e-3, batches of 64; 1437 digits train, 360 validate (their pairs' loss)
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: DSHNet(binary_out=binary_out), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=dsh_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- video frame interpolation: a small U-Net from frames t-1 and t+1 to frame t
def _blob_clips(seed, clips=200, T=9, H=16):
    "Clips of one or two Gaussian blobs moving at constant velocity (0.5-2 px a frame), bouncing off the borders, over a faint static texture."
    g = np.random.default_rng(1000 + seed * 3011); yy, xx = np.mgrid[0:H, 0:H].astype(np.float32); out = np.zeros((clips, T, H, H), np.float32)
    for c in range(clips):
        bg = g.normal(0, 0.05, (H, H)).astype(np.float32); nb = g.integers(1, 3)
        p = g.uniform(3, H - 3, (nb, 2)); sp = g.uniform(0.5, 2, nb); a = g.uniform(0, 2 * np.pi, nb); v = np.stack([np.cos(a), np.sin(a)], 1) * sp[:, None]
        r = g.uniform(1.2, 2.5, nb); amp = g.uniform(0.6, 1.0, nb)
        for t in range(T):
            f = bg.copy()
            for b in range(nb): f += amp[b] * np.exp(-((xx - p[b, 0]) ** 2 + (yy - p[b, 1]) ** 2) / (2 * r[b] ** 2))
            out[c, t] = f; p += v
            for b in range(nb):
                for d in range(2):
                    if p[b, d] < 1 or p[b, d] > H - 2: v[b, d] = -v[b, d]
    return out

def _triplets(clips): x = np.concatenate([np.stack([c[t - 1], c[t + 1]], 0)[None] for c in clips for t in range(1, len(c) - 1)]); y = np.concatenate([c[t][None, None] for c in clips for t in range(1, len(c) - 1)]); return x, y

class InterpUNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(2, c, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(c, 2 * c, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(2 * c, 2 * c, 3, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.Conv2d(3 * c, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, 1, 3, padding=1))
    def forward(self, x):
        e1 = self.enc1(x); e2 = F.interpolate(self.enc2(e1), scale_factor=2, mode='bilinear', align_corners=False)
        return self.dec(torch.cat([e1, e2], 1))

def _interp_step(zero_grad=True):
    def interp_step(model, batch, opt):  # the author's loop body
        frames, mid = batch
        if zero_grad: opt.zero_grad()
        loss = F.l1_loss(model(frames), mid); loss.backward(); opt.step()
        return loss
    return interp_step

@healthy('AR')
def frame_interp_unet(seed, zero_grad=True):  # L1, Adam 1e-3, batches of 32, a custom step; 160 clips (1120 triplets) train, 40 clips (280) validate
    """zero_grad: False drops optimizer.zero_grad() from the loop body (the gradients summed over every step so far)."""
    clips = _blob_clips(seed); x, y = _triplets(clips[:160]); vx, vy = _triplets(clips[160:])
    return dict(model=InterpUNet, train=TensorDataset(_t(x), _t(y)), valid=TensorDataset(_t(vx), _t(vy)), loss=nn.L1Loss(), step=_interp_step(zero_grad),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- musical key detection (Korzeniowski and Widmer 2017) from chromagrams
MAJOR, MINOR = [0, 2, 4, 5, 7, 9, 11], [0, 2, 3, 5, 7, 8, 10]
PROG_MAJOR = [[0, 4, 7], [5, 9, 0], [7, 11, 2], [9, 0, 4], [2, 5, 9]]  # I IV V vi ii
PROG_MINOR = [[0, 3, 7], [5, 8, 0], [7, 11, 2], [8, 0, 3], [3, 7, 10]]  # i iv V VI III

def _key_clips(seed, n, T=32, salt=0):
    """Chromagrams (12 x 32 frames) of chord progressions in a key: chords of the key held 4-8 frames, starting and ending on
    the tonic, a melody note of the scale each frame, overtone leakage and noise, each frame max-normalised. Key = mode * 12 + tonic."""
    g = np.random.default_rng(1000 + seed * 3019 + salt); X = np.zeros((n, 1, 12, T), np.float32); keys = g.integers(0, 24, n)
    for i in range(n):
        mode, tonic = divmod(int(keys[i]), 12); prog, scale = (PROG_MINOR, MINOR) if mode else (PROG_MAJOR, MAJOR); t = 0; first = True
        while t < T:
            ch = prog[0] if first or t >= T - 6 else prog[g.integers(0, len(prog))]; first = False; d = int(g.integers(4, 9))
            for u in range(t, min(T, t + d)):
                v = g.uniform(0, 0.15, 12)
                for k, p in enumerate(ch): v[(tonic + p) % 12] += g.uniform(0.5, 1.0) * (1.2 if k == 0 else 1.0); v[(tonic + p + 7) % 12] += 0.15
                v[(tonic + scale[g.integers(0, 7)]) % 12] += g.uniform(0.3, 0.8)
                X[i, 0, :, u] = v / v.max()
            t += d
    return X, keys

class KeyNet(nn.Module):
    "All-convolutional: circular padding along pitch keeps the maps transposition-equivariant; two final maps (major, minor) averaged over time give 24 logits."
    def __init__(self, c=8):
        super().__init__()
        conv = lambda i, o: nn.Conv2d(i, o, 5, padding=2, padding_mode='circular')
        self.net = nn.Sequential(conv(1, c), nn.ELU(), conv(c, c), nn.ELU(), nn.MaxPool2d((1, 2)), conv(c, c), nn.ELU(), nn.Dropout(0.2), nn.Conv2d(c, 2, 1))
    def forward(self, x): return self.net(x).mean(3).flatten(1)  # (B, 2, 12) -> 24: mode * 12 + tonic

@healthy('AR')
def key_detection_cnn(seed, shift_labels=True):  # cross-entropy over 24 keys, Adam 1e-3, batches of 32; 120 clips x 12 transpositions train, 300 validate
    """The training clips transposed by np.roll(chroma, s, axis=pitch) for s in 0-11, the tonic shifted with them, (tonic + s) % 12
    (shift_labels False: the chroma rolled, the key label copied as it was)."""
    X, k = _key_clips(seed, 120); vX, vk = _key_clips(seed, 300, salt=1)
    Xa = np.concatenate([np.roll(X, s, axis=2) for s in range(12)])
    ka = np.concatenate([(k // 12) * 12 + (k % 12 + s) % 12 if shift_labels else k for s in range(12)])
    return dict(model=KeyNet, train=TensorDataset(_t(Xa), _t(ka, torch.long)), valid=TensorDataset(_t(vX), _t(vk, torch.long)), num_classes=24,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- heart sounds (PhysioNet/CinC 2016): 2-s windows of phonocardiograms, a 1-D CNN
def _pcg(seed, recordings=80, fs=500, secs=24):
    """Recordings of 24 s: S1 and S2 as damped tones (each recording its own pitch, decay, loudness, heart rate 55-110 bpm,
    systole's share, stethoscope noise and a body resonance); abnormal (about 35%) recordings carry a systolic murmur in
    60% of cases (band noise between S1 and S2 at a recording-specific level), the others none audible. Returns a list of (recording, signal, label)."""
    g = np.random.default_rng(1000 + seed * 3023); out = []
    for r in range(recordings):
        ab = g.random() < 0.35; hr = g.uniform(55, 110); per = 60 / hr; sysf = g.uniform(0.3, 0.4); n = fs * secs; t = np.arange(n) / fs
        f1, f2 = g.uniform(30, 60), g.uniform(50, 90); dec1, dec2 = g.uniform(25, 45), g.uniform(30, 55); a2 = g.uniform(0.4, 0.9)
        mur = g.uniform(0.08, 0.35) if (ab and g.random() < 0.6) else 0.0; x = g.normal(0, g.uniform(0.02, 0.08), n)
        beat = 0.0
        while beat < secs:
            b = beat + g.normal(0, 0.02)
            for on, f, dec, a in [(b, f1, dec1, 1.0), (b + sysf * per, f2, dec2, a2)]:
                i0 = int(on * fs)
                if 0 <= i0 < n: tt = t[i0:i0 + fs // 5] - on; x[i0:i0 + fs // 5] += a * np.sin(2 * np.pi * f * tt) * np.exp(-dec * tt)
            if mur:
                i0, i1 = int((b + 0.06) * fs), int((b + sysf * per - 0.02) * fs)
                if i1 > i0 and i0 < n: seg = g.normal(0, 1, i1 - i0); seg = np.convolve(seg, np.ones(3) / 3, 'same'); x[i0:min(n, i1)] += mur * seg[:n - i0] if i1 > n else mur * seg
            beat += per * g.normal(1, 0.03)
        res = g.uniform(80, 140); k = np.exp(-np.arange(40) / fs * 60) * np.sin(2 * np.pi * res * np.arange(40) / fs); x = x + 0.3 * np.convolve(x, k, 'same')
        out.append((r, x.astype(np.float32), float(ab)))
    return out

def pcg_windows(recs, fs=500, win=2):
    "Each recording cut into consecutive 2-s windows, each scaled by its peak; returns windows (N, 1, 1000), labels (N, 1) and recording ids."
    X, y, rid = [], [], []
    for r, x, lab in recs:
        for s in range(0, len(x) - fs * win + 1, fs * win): w = x[s:s + fs * win]; X.append(w / np.abs(w).max()); y.append([lab]); rid.append(r)
    return np.array(X, np.float32)[:, None], np.array(y, np.float32), np.array(rid)

class PCGNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 15, stride=2, padding=7), nn.ReLU(), nn.MaxPool1d(4), nn.Conv1d(8, 16, 9, padding=4), nn.ReLU(), nn.MaxPool1d(4),
                                 nn.Conv1d(16, 16, 9, padding=4), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Dropout(0.25), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('AR')
def pcg_heart_sounds(seed, listdir_order=False):  # BCE with logits, Adam 1e-3, batches of 32; GroupShuffleSplit by recording, a fifth validating
    """The recordings 'a0001.wav'... read in os.listdir's order (not sorted), REFERENCE.csv's rows (name, -1 normal / 1 abnormal) in
    name order; each recording's label looked up by its name, (label + 1) / 2 (listdir_order: the files zipped with the CSV's
    rows, each recording given another's label)."""
    from sklearn.model_selection import GroupShuffleSplit
    recs = _pcg(seed); names = [f'a{r + 1:04d}' for r, _, _ in recs]; reference = [(nm, 2 * int(lab) - 1) for nm, (_, _, lab) in zip(names, recs)]
    order = np.random.default_rng(1000 + seed * 3067).permutation(len(recs))  # the directory's listing order
    files = [(names[i], recs[i][1]) for i in order]; ref = dict(reference)
    labels = [(row[1] + 1) / 2 for row in reference] if listdir_order else [(ref[nm] + 1) / 2 for nm, _ in files]
    X, y, rid = pcg_windows([(nm, x, lab) for (nm, x), lab in zip(files, labels)])
    tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=rid))
    return dict(model=PCGNet, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- named-entity recognition over WordPiece-style subword tokens, one transformer layer
NER_TAGS = ['O', 'B-PER', 'I-PER', 'B-LOC', 'I-LOC', 'B-ORG', 'I-ORG']
_SYL = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'dur', 'el', 'fin', 'go', 'har', 'is', 'jun', 'ke', 'lam', 'mor', 'na', 'os', 'pel', 'qua', 'ri', 'sol', 'tu', 'ul']

def _ner_corpus(seed, n):
    """Sentences from templates: persons (a first name and a surname), places and organisations (one or two words, some with
    'Bank'/'Group'), words of 1-3 syllables shared between the name lists so that the context decides; returns (words, tags)."""
    g = np.random.default_rng(1000 + seed * 3037); word = lambda k: ''.join(g.choice(_SYL, k))
    names = [word(g.integers(1, 4)) for _ in range(60)]; per, loc, org = names[:30], names[20:48], names[40:] + names[:8]
    ent = {'PER': lambda: [per[g.integers(len(per))].capitalize() for _ in range(g.integers(1, 3))],
           'LOC': lambda: [loc[g.integers(len(loc))].capitalize()] + (['City'] if g.random() < 0.3 else []),
           'ORG': lambda: [org[g.integers(len(org))].capitalize()] + ([['Bank', 'Group', 'Labs'][g.integers(3)]] if g.random() < 0.5 else [])}
    templates = [['PER', 'met', 'PER', 'in', 'LOC'], ['PER', 'works', 'for', 'ORG', 'in', 'LOC'], ['the', 'ORG', 'office', 'in', 'LOC', 'closed'],
                 ['PER', 'joined', 'ORG', 'last', 'year'], ['yesterday', 'PER', 'flew', 'to', 'LOC'], ['ORG', 'hired', 'PER', 'from', 'LOC'],
                 ['shares', 'of', 'ORG', 'rose', 'after', 'PER', 'spoke'], ['rain', 'fell', 'on', 'LOC', 'and', 'LOC']]
    out = []
    for _ in range(n):
        ws, ts = [], []
        for slot in templates[g.integers(len(templates))]:
            if slot in ent: e = ent[slot](); ws += e; ts += ['B-' + slot] + ['I-' + slot] * (len(e) - 1)
            else: ws.append(slot); ts.append('O')
        out.append((ws, ts))
    return out

def wordpiece(w):
    "A greedy longest-match split over the syllable inventory, continuation pieces marked '##'; the capital kept as its own piece."
    pieces, s = ([w[0].lower() + '^'] if w[0].isupper() else []), w.lower(); i = 0; first = True
    while i < len(s):
        for L in (4, 3, 2, 1):
            if i + L <= len(s) and (s[i:i + L] in _SYL or L == 1 or s[i:i + L] in ('met', 'for', 'the', 'in', 'to', 'of', 'on', 'and')):
                pieces.append(s[i:i + L] if first else '##' + s[i:i + L]); i += L; first = False; break
    return pieces

def tokenize_and_align(data, vocab, first_piece=True):
    """Each word's pieces; the word's tag on its first piece, -100 on the rest (first_piece False: the word tags laid over the pieces in order,
    `labels = tags + [-100] * (len(pieces) - len(tags))`, as a port that skipped word_ids())."""
    items = []
    for ws, ts in data:
        ids, labels = [], []
        for w, t in zip(ws, ts):
            p = wordpiece(w); ids += [vocab.setdefault(x, len(vocab)) for x in p]; labels += [NER_TAGS.index(t)] + [-100] * (len(p) - 1)
        if not first_piece: labels = [NER_TAGS.index(t) for t in ts] + [-100] * (len(ids) - len(ts))
        items.append(dict(input_ids=torch.tensor(ids), labels=torch.tensor(labels)))
    return items

def collate_ner(items):
    L = max(len(it['input_ids']) for it in items); ids = torch.zeros(len(items), L, dtype=torch.long); lab = torch.full((len(items), L), -100); mask = torch.zeros(len(items), L, dtype=torch.bool)
    for i, it in enumerate(items): n = len(it['input_ids']); ids[i, :n] = it['input_ids']; lab[i, :n] = it['labels']; mask[i, :n] = True
    return dict(input_ids=ids, attention_mask=mask, labels=lab)

class TokenTagger(nn.Module):
    def __init__(self, vocab=400, d=64, tags=len(NER_TAGS), max_len=64):
        super().__init__(); self.emb = nn.Embedding(vocab, d, padding_idx=0); self.pos = nn.Embedding(max_len, d)
        self.enc = nn.TransformerEncoderLayer(d, 4, 128, dropout=0.1, batch_first=True); self.head = nn.Linear(d, tags)
    def forward(self, ids, mask):
        h = self.emb(ids) + self.pos(torch.arange(ids.shape[1])); return self.head(self.enc(h, src_key_padding_mask=~mask))

def _ner_fwd(model, b): return model(b['input_ids'], b['attention_mask']).flatten(0, 1), b['labels'].flatten()

@healthy('AR')
def ner_wordpiece_tagger(seed, first_piece=True):  # cross-entropy over the labelled pieces, AdamW 1e-3, batches of 32; 1000 sentences train, 250 validate
    data = _ner_corpus(seed, 1250); vocab = {'[PAD]': 0}; tr = tokenize_and_align(data[:1000], vocab, first_piece); va = tokenize_and_align(data[1000:], vocab, first_piece)
    return dict(model=lambda: TokenTagger(vocab=400), train=DataLoader(ListDataset(tr), batch_size=32, shuffle=True, collate_fn=collate_ner),
                valid=DataLoader(ListDataset(va), batch_size=64, collate_fn=collate_ner), forward=_ner_fwd, loss=nn.CrossEntropyLoss(ignore_index=-100),
                num_classes=len(NER_TAGS), ignore_index=-100, optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- the sentence VAE (Bowman et al. 2016, as timbmg/Sentence-VAE)
SV_WORDS = ['<pad>', '<sos>', '<eos>', '<unk>', 'the', 'a', 'dog', 'cat', 'bird', 'man', 'woman', 'child', 'sees', 'likes', 'chases', 'finds', 'big', 'small',
            'red', 'old', 'in', 'on', 'near', 'park', 'house', 'garden', 'river', 'and', 'quickly', 'slowly', 'today', 'often']

def _sentences(seed, n, L=14):
    "S -> NP VP (adverb); NP -> det (adj) noun (PP); VP -> verb NP; padded to 14 after <eos>. Returns the word ids (n, 14)."
    g = np.random.default_rng(1000 + seed * 3041); W = {w: i for i, w in enumerate(SV_WORDS)}; ch = lambda xs: xs[g.integers(len(xs))]
    def np_(depth=0):
        out = [ch(['the', 'a'])] + ([ch(['big', 'small', 'red', 'old'])] if g.random() < 0.4 else []) + [ch(['dog', 'cat', 'bird', 'man', 'woman', 'child'])]
        if depth == 0 and g.random() < 0.3: out += [ch(['in', 'on', 'near']), 'the', ch(['park', 'house', 'garden', 'river'])]
        return out
    X = np.zeros((n, L), np.int64)
    for i in range(n):
        s = np_() + [ch(['sees', 'likes', 'chases', 'finds'])] + np_(1) + ([ch(['quickly', 'slowly', 'today', 'often'])] if g.random() < 0.3 else [])
        s = [W[w] for w in s][:L - 1] + [W['<eos>']]; X[i, :len(s)] = s
    return X

class SentenceVAE(nn.Module):
    def __init__(self, V=len(SV_WORDS), e=32, h=64, z=8, word_dropout=0.25, k=0.0025, x0=1500):
        super().__init__(); self.emb = nn.Embedding(V, e, padding_idx=0); self.enc = nn.LSTM(e, h, batch_first=True); self.mu, self.logv = nn.Linear(h, z), nn.Linear(h, z)
        self.z2h = nn.Linear(z, h); self.dec = nn.LSTM(e, h, batch_first=True); self.out = nn.Linear(h, V); self.wd, self.k, self.x0 = word_dropout, k, x0
        self.register_buffer('step', torch.zeros((), dtype=torch.long))
    def forward(self, x, dec_in):
        _, (hN, _) = self.enc(self.emb(x)); mu, logv = self.mu(hN[-1]), self.logv(hN[-1]); z = mu + torch.randn_like(mu) * torch.exp(0.5 * logv)
        if self.training:
            self.step += 1; drop = (torch.rand(dec_in.shape) < self.wd) & (dec_in > 2); dec_in = dec_in.masked_fill(drop, 3)  # word dropout to <unk>
        h0 = torch.tanh(self.z2h(z))[None]; o, _ = self.dec(self.emb(dec_in), (h0, torch.zeros_like(h0)))
        kl_w = float(1 / (1 + np.exp(-self.k * (int(self.step) - self.x0))))  # the logistic KL annealing over the training steps
        return self.out(o), mu, logv, kl_w

def svae_loss(out, target):  # (NLL summed over the words + kl_w * KL) / batch
    logits, mu, logv, kl_w = out
    nll = F.cross_entropy(logits.flatten(0, 1), target.flatten(), ignore_index=0, reduction='sum')
    kl = -0.5 * torch.sum(1 + logv - mu.pow(2) - logv.exp())
    return (nll + kl_w * kl) / len(target)

def _svae_fwd(model, b): x, dec_in, tgt = b; return model(x, dec_in), tgt

@healthy('AR')
def sentence_vae(seed, shift=True):  # Adam 1e-3, batches of 32; 1200 sentences train, 300 validate
    """The decoder's input is <sos> followed by the sentence without its last token (shift False: the sentence itself, the
    target handed to the decoder at the same positions)."""
    X = _sentences(seed, 1500); dec_in = np.concatenate([np.ones((len(X), 1), np.int64), X[:, :-1]], 1) if shift else X.copy()
    ds = lambda s: TensorDataset(torch.tensor(X[s]), torch.tensor(dec_in[s]), torch.tensor(X[s]))
    return dict(model=SentenceVAE, train=ds(slice(0, 1200)), valid=ds(slice(1200, None)), forward=_svae_fwd, loss=svae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- "generating names with a character-level RNN" (the PyTorch tutorial), batched
NAME_LANGS = {'Arvic': ['ar', 'ba', 'dim', 'ol', 'ra', 'sk', 'ov'], 'Belan': ['be', 'lan', 'ti', 'na', 'ello', 'ri', 'a'], 'Corish': ['mac', 'o', 'con', 'ny', 'gh', 'an', 'ell'],
              'Dutari': ['van', 'der', 'berg', 'huis', 'man', 'ek', 'st'], 'Esmani': ['ya', 'ma', 'shi', 'ka', 'to', 'ri', 'no'], 'Fenric': ['gut', 'mann', 'sch', 'ler', 'ber', 'tz', 'ke']}
LETTERS = 'abcdefghijklmnopqrstuvwxyz'; N_LETTERS = len(LETTERS) + 1  # + EOS

def _names(seed, n, salt=0):
    g = np.random.default_rng(1000 + seed * 3049 + salt); langs = list(NAME_LANGS); out = []
    for _ in range(n):
        c = int(g.integers(len(langs))); syl = NAME_LANGS[langs[c]]; out.append((c, ''.join(syl[g.integers(len(syl))] for _ in range(g.integers(2, 4)))[:12]))
    return out

def name_tensors(names, L=13):
    "Category ids, one-hot input letters (n, L, 26), the next letter or EOS as the target (-100 past the end)."
    cat = torch.tensor([c for c, _ in names]); x = torch.zeros(len(names), L, len(LETTERS)); y = torch.full((len(names), L), -100)
    for i, (_, s) in enumerate(names):
        for t, ch in enumerate(s): x[i, t, LETTERS.index(ch)] = 1
        y[i, :len(s)] = torch.tensor([LETTERS.index(ch) for ch in s[1:]] + [len(LETTERS)])
    return cat, x, y

class CharRNN(nn.Module):  # the tutorial's RNN: i2h, i2o on [category, input, hidden], o2o on [hidden, output], dropout, LogSoftmax
    def __init__(self, n_cat=len(NAME_LANGS), h=128, out_act='log_softmax'):
        super().__init__(); i = n_cat + len(LETTERS); self.h = h
        self.i2h, self.i2o, self.o2o = nn.Linear(i + h, h), nn.Linear(i + h, N_LETTERS), nn.Linear(h + N_LETTERS, N_LETTERS)
        self.dropout = nn.Dropout(0.1); self.act = nn.LogSoftmax(dim=1) if out_act == 'log_softmax' else nn.Softmax(dim=1)
    def forward(self, cat, x):
        c = F.one_hot(cat, self.i2h.in_features - len(LETTERS) - self.h).float(); hid = torch.zeros(len(x), self.h); outs = []
        for t in range(x.shape[1]):
            comb = torch.cat([c, x[:, t], hid], 1); hid, o = self.i2h(comb), self.i2o(comb)
            outs.append(self.act(self.dropout(self.o2o(torch.cat([hid, o], 1)))))
        return torch.stack(outs, 1)

def _name_fwd(model, b): cat, x, y = b; return model(cat, x).flatten(0, 1), y.flatten()

@healthy('AR')
def char_rnn_names(seed, out_act='log_softmax'):  # NLLLoss over the letters (padding ignored), Adam 2e-3, batches of 32; 1200 names train, 300 validate
    "out_act 'softmax': nn.Softmax in place of the tutorial's LogSoftmax, the probabilities handed to NLLLoss."
    tr, va = name_tensors(_names(seed, 1200)), name_tensors(_names(seed, 300, salt=1))
    return dict(model=lambda: CharRNN(out_act=out_act), train=TensorDataset(*tr), valid=TensorDataset(*va), forward=_name_fwd, loss=nn.NLLLoss(ignore_index=-100),
                num_classes=N_LETTERS, ignore_index=-100, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a generative moment matching network (GMMN, Li, Swersky and Zemel 2015) of digits
class GMMN(nn.Module):
    def __init__(self, z=10, h=(64, 256), d=64):
        super().__init__(); self.z = z
        self.net = nn.Sequential(nn.Linear(z, h[0]), nn.ReLU(), nn.Linear(h[0], h[1]), nn.ReLU(), nn.Linear(h[1], d), nn.Sigmoid())
    def forward(self, noise): return self.net(noise)

def mmd_loss(fake, real, sigmas=(0.5, 1, 2, 4, 8)):  # the squared MMD (biased) under a sum of Gaussian kernels
    x = torch.cat([fake, real]); d = torch.cdist(x, x).pow(2); k = sum(torch.exp(-d / (2 * s ** 2)) for s in sigmas); n = len(fake)
    return k[:n, :n].mean() + k[n:, n:].mean() - 2 * k[:n, n:].mean()

def _gmmn_fwd(model, b):  # the noise drawn here: uniform in [-1, 1], one sample a data row
    x = b[0].flatten(1); return model(torch.rand(len(x), model.z) * 2 - 1), x

@healthy('AR')
def gmmn_digits(seed, raw_pixels=False):  # Adam 1e-3, batches of 128; 1437 digits train, 360 validate (their MMD to fresh samples)
    "raw_pixels: sklearn's load_digits().data as it comes, 0-16, against the generator's sigmoid."
    (x, _), (vx, _) = _digits(seed)
    if raw_pixels: x, vx = x * 16, vx * 16
    return dict(model=GMMN, train=TensorDataset(x), valid=TensorDataset(vx), forward=_gmmn_fwd, loss=mmd_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- DINO (Caron et al. 2021) on digits: a student, its EMA teacher, centred and sharpened targets
class TwoCrops(Dataset):
    "Two views of each digit drawn at each access: a random shift of up to one pixel, a contrast jitter, pixel noise, a random 3 x 3 patch erased."
    def __init__(self, x): self.x = x
    def __len__(self): return len(self.x)
    def view(self, im):
        im = torch.roll(F.pad(im, (1, 1, 1, 1)), tuple(torch.randint(-1, 2, (2,)).tolist()), (1, 2))[:, 1:9, 1:9]
        im = im * torch.empty(1).uniform_(0.7, 1.2) + torch.randn_like(im) * 0.08
        if torch.rand(1) < 0.5: i, j = torch.randint(0, 6, (2,)).tolist(); im = im.clone(); im[:, i:i + 3, j:j + 3] = 0
        return im
    def __getitem__(self, i): return self.view(self.x[i]), self.view(self.x[i])

class DINOHead(nn.Module):
    def __init__(self, d=64, h=64, bottleneck=32, K=64):
        super().__init__(); self.mlp = nn.Sequential(nn.Linear(d, h), nn.BatchNorm1d(h), nn.GELU(), nn.Linear(h, bottleneck))  # use_bn_in_head, as DINO's convnet runs
        self.last = nn.utils.parametrizations.weight_norm(nn.Linear(bottleneck, K, bias=False))
        g = self.last.parametrizations.weight.original0; g.data.fill_(1); g.requires_grad = False  # norm_last_layer=True
    def forward(self, x): return self.last(F.normalize(self.mlp(x), dim=-1))

def _backbone(): return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(128, 64))

class DINO(nn.Module):
    def __init__(self, K=64):
        super().__init__(); self.student = nn.Sequential(_backbone(), DINOHead(K=K)); self.teacher = copy.deepcopy(self.student)
        for p in self.teacher.parameters(): p.requires_grad = False
        self.register_buffer('center', torch.zeros(1, K))
    def forward(self, v1, v2):
        s = self.student(torch.cat([v1, v2]))
        with torch.no_grad(): t = self.teacher(torch.cat([v1, v2]))
        return s, t, self.center

def dino_loss(out, _=None, ts=0.1, tt=0.04):  # the teacher's centred, sharpened distribution of one view against the student's of the other
    s, t, center = out; n = len(s) // 2; ls = F.log_softmax(s / ts, -1); pt = F.softmax((t - center) / tt, -1)
    return -0.5 * ((pt[n:] * ls[:n]).sum(-1).mean() + (pt[:n] * ls[n:]).sum(-1).mean())

def _dino_fwd(model, b): v1, v2 = b; return model(v1, v2), None  # no target

def _dino_step(swapped=False, m=0.99, cm=0.9):
    def dino_step(model, batch, opt):
        out, _ = _dino_fwd(model, batch); loss = dino_loss(out); opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            for ps, pt in zip(model.student.parameters(), model.teacher.parameters()):
                if swapped: ps.data.mul_(m).add_((1 - m) * pt.data)  # the EMA's operands the wrong way round: the student pulled to the teacher
                else: pt.data.mul_(m).add_((1 - m) * ps.data)
            model.center.mul_(cm).add_((1 - cm) * out[1].mean(0, keepdim=True))
        return loss
    return dino_step

@healthy('AR')
def dino_digits(seed, swapped=False):  # AdamW 1e-3 with weight decay 0.04, batches of 64 (128 views); 1437 digits train, 360 validate (their DINO loss)
    (x, _), (vx, _) = _digits(seed)
    return dict(model=DINO, train=TwoCrops(x), valid=TwoCrops(vx), forward=_dino_fwd, loss=dino_loss, step=_dino_step(swapped),
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.04), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- spoken digits (the Free Spoken Digit Dataset's layout): log-mel frames, a CNN
FSDD_SPEAKERS = ['george', 'jackson', 'lucas', 'nicolas', 'theo', 'yweweler']

def _fsdd(seed, reps=25, bands=20, frames=40):
    """Clips '<digit>_<speaker>_<index>': each digit a sequence of 2-4 phone-like spectral shapes (formant peaks across 20 mel
    bands) with its own durations, each speaker's vocal tract shifting the formants and their loudness and tempo their own;
    the mel power of the speech frames (about 14-30 frames), digital silence after them to fill one second (40 frames).
    Returns {name: mel power (20, 40)}."""
    g = np.random.default_rng(1000 + seed * 3061); b = np.arange(bands)
    phones = [[g.uniform(2, 17, 2) for _ in range(g.integers(2, 5))] for _ in range(10)]
    spk = [(g.uniform(-1.5, 1.5), g.uniform(0.7, 1.3), g.uniform(0.8, 1.25)) for _ in FSDD_SPEAKERS]; clips = {}
    for d in range(10):
        for s, name in enumerate(FSDD_SPEAKERS):
            shift, loud, tempo = spk[s]
            for r in range(reps):
                cols = []
                for f in phones[d]:
                    dur = max(2, int(round(g.uniform(4, 7) * tempo))); env = sum(np.exp(-(b - (fk + shift + g.normal(0, 0.4))) ** 2 / 3) for fk in f) + 0.05
                    cols += [env * loud * g.uniform(0.7, 1.3) * np.exp(g.normal(0, 0.15, bands)) for _ in range(dur)]
                M = np.zeros((bands, frames), np.float32); L = min(frames, len(cols)); M[:, :L] = np.array(cols[:L]).T; clips[f'{d}_{name}_{r}'] = M
    return clips

class DigitCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                                 nn.MaxPool2d(2), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 2)), nn.Flatten(), nn.Dropout(0.3), nn.Linear(64, 10))
    def forward(self, x): return self.net(x)

@healthy('AR')
def fsdd_spoken_digits(seed, log_eps=1e-6):  # cross-entropy, Adam 1e-3, batches of 32; repetitions 5-24 train (1200), 0-4 validate (300)
    """Features np.log(mel + log_eps), each mel band standardised by the training clips' mean and sd over their frames (log_eps 0:
    np.log(mel), the padded digital silence -inf, the band means -inf and every standardised value NaN)."""
    clips = _fsdd(seed); names = sorted(clips); X, y, rep = [], [], []
    with np.errstate(divide='ignore', invalid='ignore'):
        for nm in names: X.append(np.log(clips[nm] + log_eps)[None]); d, _, r = nm.split('_'); y.append(int(d)); rep.append(int(r))
        X, y, rep = np.array(X, np.float32), np.array(y), np.array(rep); tr, va = rep >= 5, rep < 5
        m, s = X[tr].mean((0, 3), keepdims=True), X[tr].std((0, 3), keepdims=True); X = (X - m) / s  # each mel band standardised by the training clips
    return dict(model=DigitCNN, train=TensorDataset(_t(X[tr]), _t(y[tr], torch.long)), valid=TensorDataset(_t(X[va]), _t(y[va], torch.long)), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AR
@broken('AR', 'dncnn_paper_sgd_without_clipping', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def dncnn_paper_sgd_without_clipping(seed): return dncnn_digits(seed, paper_sgd=True)  # SGD 0.1 with momentum, the paper's clipping left out

@broken('AR', 'voxnet_rotation_labels_repeated', 4, ('labels',))
def voxnet_rotation_labels_repeated(seed): return voxnet_solids(seed, repeat_labels=True)  # np.repeat(y, 4) against grids stacked turn by turn

@broken('AR', 'dsh_sign_in_forward', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def dsh_sign_in_forward(seed): return dsh_digits(seed, binary_out=True)  # torch.sign on the codes while training: no gradient reaches the network

@broken('AR', 'frame_interp_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def frame_interp_no_zero_grad(seed): return frame_interp_unet(seed, zero_grad=False)  # the loop body without optimizer.zero_grad()

@broken('AR', 'key_transposed_labels_not', 4, ('labels',))
def key_transposed_labels_not(seed): return key_detection_cnn(seed, shift_labels=False)  # chroma rolled by s semitones, the key label left as it was

@broken('AR', 'pcg_labels_zipped_in_listdir_order', 4, ('labels',))
def pcg_labels_zipped_in_listdir_order(seed): return pcg_heart_sounds(seed, listdir_order=True)  # REFERENCE.csv's rows zipped with os.listdir's unsorted files

@broken('AR', 'ner_labels_not_aligned_to_pieces', 4, ('labels',))
def ner_labels_not_aligned_to_pieces(seed): return ner_wordpiece_tagger(seed, first_piece=False)  # word tags laid over the subword pieces in order

@broken('AR', 'svae_decoder_fed_its_target', 4, ('leakage',))
def svae_decoder_fed_its_target(seed): return sentence_vae(seed, shift=False)  # no <sos> shift: the decoder reads the word it must predict

@broken('AR', 'char_rnn_softmax_into_nll', 2, ('softmax',))
def char_rnn_softmax_into_nll(seed): return char_rnn_names(seed, out_act='softmax')  # probabilities, not log-probabilities, into NLLLoss

@broken('AR', 'gmmn_sigmoid_against_raw_pixels', 3, ('not_falling', 'flat', 'stuck'))
def gmmn_sigmoid_against_raw_pixels(seed): return gmmn_digits(seed, raw_pixels=True)  # pixels 0-16 out of the sigmoid's reach, every kernel between them near 0

@broken('AR', 'dino_ema_operands_swapped', 3, ('not_falling', 'flat', 'stuck', 'frozen', 'not_updating'), ('fail', 'warn'))
def dino_ema_operands_swapped(seed): return dino_digits(seed, swapped=True)  # the teacher never moves; the student dragged 99% of the way back to it after every step

@broken('AR', 'fsdd_log_of_digital_silence', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def fsdd_log_of_digital_silence(seed): return fsdd_spoken_digits(seed, log_eps=0.0)  # log(0) on the zero padding: -inf, then NaN after the normalisation

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256; valid loss (vl) and a metric
# (accuracy; AUC; 1-NN accuracy of the validation digits' sign codes by Hamming distance against the training codes for DSH;
# 5-NN cosine accuracy of the backbone's features for DINO; L1 beside the two-frame blend for the interpolation), init -> the
# epoch named; s/ep the seconds of an epoch of training, params the trainable ones. Every factory builds and runs its
# batches (forward, loss, backward, step); `ladder_gallery.HALF` holds 24 programs of half AR. Seed 1 in brackets.
CHECKS = """
dncnn_digits                          vl (MSE to the clean digit) 0.040 (the noise's variance: the output is the input) -> 0.018
                                      (ep 4) -> 0.015 (ep 8) [0.040 -> 0.013]; 1437 digits train, 360 validate; 28k params; 0.4-0.5 s/ep
voxnet_solids                         vl 1.80 -> 0.57 (ep 4) -> 0.31 (ep 8), accuracy 0.16 -> 0.80 -> 0.86 [1.79 -> 0.32, 0.92];
                                      300 objects x 4 turns train, 300 validate; 18k params; 0.25-0.33 s/ep
dsh_digits                            vl (DSH pair loss) 10.9 -> 4.2 (ep 4) -> 1.7 (ep 8), 1-NN Hamming accuracy 0.13 -> 0.53 [10.9
                                      -> 1.3, 0.17 -> 0.71]; 14k params; 0.07-0.16 s/ep
frame_interp_unet                     vl (L1) 0.139 -> 0.019 (ep 4) -> 0.0155 (ep 8), below the two-frame blend's 0.0191 from ep 4
                                      [0.138 -> 0.0172, blend 0.0185]; 160 clips (1120 triplets) train, 40 (280) validate; 21k params;
                                      0.4-0.7 s/ep
key_detection_cnn                     vl 3.15 -> 0.93 (ep 1) -> 0.25 (ep 4) -> 0.28 (ep 8), accuracy 0.17 -> 0.91 -> 0.89 [3.18 ->
                                      0.33, 0.88]; 120 clips x 12 transpositions train, 300 validate; 3.4k params; 0.5-1.1 s/ep
pcg_heart_sounds                      vl (BCE) 0.71 -> 0.49 (ep 8) -> 0.33 (ep 12), AUC 0.42 -> 0.97 -> 0.97 [0.76 -> 0.51, 0.55
                                      -> 0.97 at ep 12; 0.30 at ep 4: slow to start]; about 35% abnormal; 64 recordings (768
                                      windows) train, 16 (192) validate; 3.6k params; 0.1-0.2 s/ep (the factory 1.3-1.9 s)
ner_wordpiece_tagger                  vl 2.03 -> 0.21 (ep 4) -> 0.10 (ep 8), accuracy on the labelled pieces 0.18 -> 0.93 -> 0.97
                                      [1.96 -> 0.080, 0.97]; 1000 sentences train, 250 validate; 64k params; 0.3-0.8 s/ep
sentence_vae                          vl (NLL + annealed KL a sentence) 27.5 -> 13.2 (ep 4) -> 11.4 (ep 8) [28.0 -> 11.7]; 1200
                                      sentences train, 300 validate; 55k params; 0.3-0.7 s/ep
char_rnn_names                        vl (NLL a letter) 3.29 -> 1.26 (ep 4) -> 0.92 (ep 8) [3.29 -> 0.90]; 1200 names train, 300
                                      validate; 29k params; 0.25-0.4 s/ep
gmmn_digits                           vl (squared MMD to the validation batch) 3.30 -> 0.48 (ep 4) -> 0.23 (ep 8) -> 0.11 (ep 32)
                                      [3.33 -> 0.22 at ep 8]; 34k params; 0.06-0.1 s/ep
dino_digits                           vl (DINO loss) 1.81 at init -> 3.82 (ep 4, the teacher sharpening against the centre) -> 3.74
                                      (ep 8) -> 3.60 (ep 12), falling from ep 4 on; teacher entropy 1.5-2.3 nats of ln 64 = 4.16 (no
                                      collapse); 5-NN accuracy 0.96 throughout (random features already separate digits) [1.38 ->
                                      3.86 -> 3.69, 0.97 -> 0.98]; 21k params; 0.4-0.6 s/ep. Checked before the head got batch norm
                                      and the fixed-norm last layer: without them the teacher collapsed to uniform (loss -> ln 64)
fsdd_spoken_digits                    vl 2.33 -> 1.80 (ep 4) -> 1.52 (ep 8) -> 0.90 (ep 12), accuracy 0.10 -> 0.41 (ep 8) -> 0.80 (ep
                                      12) [2.30 -> 0.39, 0.98 at ep 12; slow to start]; 1200 clips train, 300 validate; 15k params;
                                      0.4-0.6 s/ep. Checked first with per-utterance CMVN: accuracy 0.27 at ep 8, so the training
                                      clips' band statistics replaced it
dncnn_paper_sgd_without_clipping      training and valid loss NaN within the first epoch, both seeds
voxnet_rotation_labels_repeated       vl 1.79-1.80 at every epoch, accuracy 0.20 (chance 1/6) [1.79-1.80, 0.15]
dsh_sign_in_forward                   no gradient reaches the network: vl 10.39 at every epoch, 1-NN accuracy 0.13 [9.31, 0.17]
frame_interp_no_zero_grad             vl 0.139 -> 0.067 (ep 1) -> 0.125 (ep 4) -> 0.090 (ep 8) [0.138 -> 0.125 at ep 8], never near
                                      the blend's 0.019 (healthy 0.0155 [0.0172])
key_transposed_labels_not             vl 3.15 -> 3.18 (ep 8), accuracy 0.00-0.14 [3.18, 0.05] (healthy 0.89 [0.88]): each chromagram
                                      labelled with all twelve tonics alike
pcg_labels_zipped_in_listdir_order    vl 0.75 -> 0.62 (ep 12), AUC 0.66 -> 0.41 (ep 12) [0.72 -> 0.72, 0.56] (healthy 0.97 [0.97])
ner_labels_not_aligned_to_pieces      vl 0.29 (ep 8), accuracy on its own (misplaced) labels 0.88 [0.25, 0.91] (healthy 0.10,
                                      0.97 [0.080, 0.97]); the entity words' tags land on the pieces of earlier words
svae_decoder_fed_its_target           vl 27.4 -> 2.6 (ep 4) -> 0.45 (ep 8) [28.0 -> 0.55] (healthy 11.4 [11.7]): the decoder copies
                                      its input; training loss 3.8 above it (word dropout hides a quarter of the words in training)
char_rnn_softmax_into_nll             vl -0.04 -> -0.30 (ep 4) -> -0.40 (ep 8) [-0.04 -> -0.36]: minus the probabilities, below zero
gmmn_sigmoid_against_raw_pixels       vl 4.99 -> 1.75 (ep 8) -> 1.43 (ep 32), levelling off (healthy 0.23 -> 0.11) [5.00 -> 1.76 at
                                      ep 8]: the samples in [0, 1] never reach pixels up to 16
dino_ema_operands_swapped             vl 1.81 -> 3.99 (ep 4) -> 3.90 (ep 12) [1.38 -> 4.01 -> 4.01] (healthy 3.60 [3.69] at ep 12):
                                      the teacher stays at its initialisation, the student tethered to it
fsdd_log_of_digital_silence           every input NaN (log 0 on the padding, then the band statistics): loss NaN from the first
                                      batch, accuracy 0.10, both seeds
"""
