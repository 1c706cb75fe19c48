"""Half BF of the ladder's gallery: held out from the rules frozen at 10e53de (round 67), and run once on them.
Families not in halves A-BE, taken only from computer vision, audio and speech, natural language, generative models and
self-supervised learning (a half written alongside took other domains): Network in Network (Lin, Chen and Yan 2014, shrunk:
mlpconv blocks of a 3 x 3 convolution and two 1 x 1 convolutions, max pooling and dropout, 1 x 1 convolutions to ten maps and
global average pooling; SGD with momentum) on digits; CNN-IQA (Kang et al. 2014, shrunk: locally contrast-normalised 8 x 8
patches, one convolution, max and min pooling, two dense layers, the L1 loss to the image's DMOS given to each of its
patches) of synthetic textures under blur, noise and blocking, split by reference content as LIVE's protocol; HED edge
detection (Xie and Tu 2015, shrunk: two convolutional stages with side outputs upsampled and fused, the class-balanced BCE on
every side output and the fusion; a tuple output and a loss of its own; random flips at access) of synthetic shape scenes;
M5 (Dai et al. 2017, as torchaudio's Speech Commands tutorial: a raw-waveform 1-D CNN with a stride-16 first kernel of 80,
batch norm, log-softmax and the NLL loss; Adam 0.01 with weight decay) on synthetic spoken keywords, unseen speakers
validating; Waibel et al.'s 1989 time-delay neural network (16 mel bands x 15 frames, 8 units over 3 frames, 3 units over
5 frames, the evidence summed over time; SGD with momentum) telling /b/, /d/ and /g/ apart by their formant transitions;
learnt direction-of-arrival estimation (Xiao et al. 2015: GCC-PHAT of every microphone pair of a four-microphone circular
array, an MLP over 36 azimuth classes) of noise sources in a reverberant room; DPCNN (Johnson and Zhang 2017, shrunk: a
region embedding, pre-activation convolutions with shortcuts, repeated stride-2 pooling down to one position; a collate_fn
that pads) classifying topics of synthetic documents; hyphenation by a character BiLSTM tagger (hyphen-after flags, padding
at -100; dict batches from a collate_fn and a forward of its own) of a synthetic language whose VCCV splits are lexical, stems
split before they are inflected; a VampPrior VAE (Tomczak and Welling 2018: a mixture prior over the posteriors of learnt
pseudo-inputs, Bernoulli decoder, a single-sample KL; a tuple output and a loss of its own) of digits; AET (Zhang et al.
2019, auto-encoding transformations: a shared encoder of a digit and its random affine transform, the six affine
parameters regressed from both features; a custom step) on digits; colorization (Zhang, Isola and Efros 2016, shrunk:
the lightness in, 16 quantised chroma bins per pixel out, the per-pixel cross-entropy) of synthetic coloured digits; and a
selective-kernel network (SKNet, Li et al. 2019, shrunk: 3 x 3 and dilated 3 x 3 branches fused by softmax attention over
the branches; batch norm) on digits.
At most 1437 training items a program (the digits; about 800-1000 elsewhere) and under 71k trainable parameters (AET's; 45k elsewhere); a
plain loop's epoch under a second on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half BE.

Protocol: written by a helper in a worktree at 564a4d0 (branch halfBF), held out from the rules frozen at 10e53de (round 67).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI), and ran no git log. It read bench/ladder_gallery.py's head, helpers and tail, half AO's
structure, the module docstrings of all the other halves (for the families taken) and their @broken lines (for the rung and
cause conventions), and ladder_sweep.py's --half line. Each program was checked by hand only with a plain torch loop of its
author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seed 0 (and 1 where cheap).
Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half BF`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- Network in Network (Lin, Chen and Yan 2014) on digits
def mlpconv(cin, cout, k, p):
    return nn.Sequential(nn.Conv2d(cin, cout, k, padding=p), nn.ReLU(), nn.Conv2d(cout, cout, 1), nn.ReLU(), nn.Conv2d(cout, cout, 1), nn.ReLU())

class NiN(nn.Module):
    def __init__(self, softmax=False):
        super().__init__()
        self.features = nn.Sequential(mlpconv(1, 32, 3, 1), nn.MaxPool2d(2), mlpconv(32, 48, 3, 1), nn.MaxPool2d(2), nn.Dropout(0.5),
                                      nn.Conv2d(48, 48, 3, padding=1), nn.ReLU(), nn.Conv2d(48, 48, 1), nn.ReLU(), nn.Conv2d(48, 10, 1),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.softmax = softmax
        for m in self.modules():
            if isinstance(m, nn.Conv2d): nn.init.xavier_uniform_(m.weight)  # as d2l's NiN
    def forward(self, x):
        o = self.features(x)
        return F.softmax(o, 1) if self.softmax else o

@healthy('BF')
def nin_digits(seed, softmax=False):  # Adam 1e-3 as the PyTorch ports, batches of 64; the ten maps averaged into the logits
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: NiN(softmax), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- CNN-IQA (Kang et al. 2014): patches with their image's DMOS, the L1 loss
def _iqa(seed, refs=36, per=5, S=24, P=8):
    """Reference textures (oriented sinusoids and blobs), each distorted five times by Gaussian blur, white noise or 4 x 4
    block averaging at a random strength; DMOS from the strength through a distortion-specific curve plus rater noise.
    Returns patches (n, 1, 8, 8), their image's DMOS (n, 1) and the reference id of each patch."""
    g = np.random.default_rng(1000 + seed * 3001); yy, xx = np.mgrid[0:S, 0:S] / S; X, D, R = [], [], []
    for r in range(refs):
        img = sum(g.uniform(0.3, 1) * np.sin(2 * np.pi * (g.uniform(1, 5) * (np.cos(a) * xx + np.sin(a) * yy)) + g.uniform(0, 6)) for a in g.uniform(0, np.pi, 3))
        for _ in range(4): cy, cx, s = g.uniform(0, 1, 2).tolist() + [g.uniform(0.05, 0.2)]; img = img + g.normal(0, 1) * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * s * s))
        img = (img - img.min()) / (img.max() - img.min())
        for _ in range(per):
            kind, lev = int(g.integers(3)), g.uniform(0, 1)
            if kind == 0:
                s = 0.3 + 2.5 * lev; k = np.exp(-np.arange(-4, 5) ** 2 / (2 * s * s)); k /= k.sum()
                im = np.apply_along_axis(lambda v: np.convolve(np.pad(v, 4, mode='reflect'), k, 'valid'), 0, img)
                im = np.apply_along_axis(lambda v: np.convolve(np.pad(v, 4, mode='reflect'), k, 'valid'), 1, im)
            elif kind == 1: im = img + g.normal(0, 0.02 + 0.25 * lev, img.shape)
            else:
                b = img.reshape(S // 4, 4, S // 4, 4).mean((1, 3)).repeat(4, 0).repeat(4, 1); im = (1 - lev) * img + lev * b
            dmos = 100 * (1 - np.exp(-2.2 * lev)) * [0.9, 1.0, 0.8][kind] + g.normal(0, 3)
            for i in range(0, S, P):
                for j in range(0, S, P): X.append(im[i:i + P, j:j + P]); D.append([dmos]); R.append(r)
    return np.array(X, np.float32)[:, None], np.array(D, np.float32), np.array(R)

def lcn(p, eps=1e-2):  # Kang et al.'s local contrast normalisation of each patch (here over the whole 8 x 8 patch)
    m = p.mean((1, 2, 3), keepdims=True); s = p.std((1, 2, 3), keepdims=True); return (p - m) / (s + eps)

class IQACNN(nn.Module):
    def __init__(self, k=24, h=64):
        super().__init__(); self.conv = nn.Conv2d(1, k, 3)
        self.fc = nn.Sequential(nn.Linear(2 * k, h), nn.ReLU(), nn.Dropout(0.2), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))
    def forward(self, x):
        c = self.conv(x).flatten(2); return self.fc(torch.cat([c.max(2).values, c.min(2).values], 1))

@healthy('BF')
def iqa_cnn(seed, patch_split=False):  # L1 loss on DMOS (0-100), SGD 0.01 momentum 0.9, batches of 64; 80% of the reference contents train
    """patch_split: train_test_split over the patches, so every image (and every content) has patches on both sides."""
    from sklearn.model_selection import train_test_split
    X, D, R = _iqa(seed); X = lcn(X)
    if patch_split: tr, va = train_test_split(np.arange(len(D)), test_size=0.2, random_state=seed)
    else:
        refs = np.random.default_rng(seed).permutation(R.max() + 1); vr = refs[:len(refs) // 5]; va = np.where(np.isin(R, vr))[0]; tr = np.where(~np.isin(R, vr))[0]
    return dict(model=IQACNN, train=TensorDataset(_t(X[tr]), _t(D[tr])), valid=TensorDataset(_t(X[va]), _t(D[va])), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- HED (Xie and Tu 2015): side outputs, a fusion, the class-balanced BCE
def _scenes(seed, n, S=16):
    "Scenes of 2-3 overlapping rectangles and discs of random grey levels on a background, with noise; edges where the region id changes."
    g = np.random.default_rng(1000 + seed * 3011 + n); yy, xx = np.mgrid[0:S, 0:S]; I, E = [], []
    for _ in range(n):
        lab = np.zeros((S, S), int); val = [g.uniform(0, 1)]
        for k in range(1, int(g.integers(2, 4)) + 1):
            if g.random() < 0.5: y0, x0 = g.integers(0, S - 4, 2); h, w = g.integers(4, 10, 2); m = (yy >= y0) & (yy < y0 + h) & (xx >= x0) & (xx < x0 + w)
            else: cy, cx = g.uniform(2, S - 2, 2); r = g.uniform(2.5, 5); m = (yy - cy) ** 2 + (xx - cx) ** 2 < r * r
            lab[m] = k; v = g.uniform(0, 1)
            while min(abs(v - u) for u in val) < 0.1: v = g.uniform(0, 1)
            val.append(v)
        img = np.array(val)[lab] + g.normal(0, 0.05, (S, S))
        e = np.zeros((S, S), np.float32); e[:, 1:] += lab[:, 1:] != lab[:, :-1]; e[1:, :] += lab[1:, :] != lab[:-1, :]
        I.append(img[None].astype(np.float32)); E.append((e > 0).astype(np.float32)[None])
    return I, E

class EdgeScenes(Dataset):  # the author's Dataset: a random horizontal flip at each training access
    def __init__(self, I, E, train, flip_edges=True): self.I, self.E, self.train, self.flip_edges = I, E, train, flip_edges
    def __len__(self): return len(self.I)
    def __getitem__(self, i):
        im, e = torch.from_numpy(self.I[i]), torch.from_numpy(self.E[i])
        if self.train and torch.rand(()) < 0.5:
            im = im.flip(-1)
            if self.flip_edges: e = e.flip(-1)
        return im, e

class HED(nn.Module):
    def __init__(self):
        super().__init__()
        self.s1 = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.s2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.side1, self.side2 = nn.Conv2d(16, 1, 1), nn.Conv2d(32, 1, 1); self.fuse = nn.Conv2d(2, 1, 1)
        nn.init.constant_(self.fuse.weight, 0.5); nn.init.zeros_(self.fuse.bias)
    def forward(self, x):
        h1 = self.s1(x); h2 = self.s2(h1)
        o1 = self.side1(h1); o2 = F.interpolate(self.side2(h2), size=x.shape[-2:], mode='bilinear', align_corners=False)
        return o1, o2, self.fuse(torch.cat([o1, o2], 1))

def balanced_bce(logit, y):  # HED's class-balanced cross-entropy: positives weighted by |Y-|/|Y|, negatives by |Y+|/|Y|
    beta = 1 - y.mean(); w = torch.where(y > 0.5, beta, 1 - beta)
    return F.binary_cross_entropy_with_logits(logit, y, weight=w, reduction='sum') / y.shape[0]

def hed_loss(out, y): return sum(balanced_bce(o, y) for o in out)

@healthy('BF')
def hed_edges(seed, flip_edges=True):  # Adam 1e-3, batches of 16; 800 scenes train, 200 validate
    """flip_edges False: the training flip applied to the image alone (the edge map read after the flip was written)."""
    I, E = _scenes(seed, 1000)
    return dict(model=HED, train=EdgeScenes(I[:800], E[:800], True, flip_edges), valid=EdgeScenes(I[800:], E[800:], False), loss=hed_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- M5 (Dai et al. 2017) on raw waveforms of synthetic keywords (torchaudio's Speech Commands tutorial)
WORDS = ['yes', 'no', 'up', 'down', 'left', 'right', 'on', 'off', 'stop', 'go']
_VOWELS = np.array([[730, 1090], [270, 2290], [530, 1840], [660, 1720], [300, 870], [640, 1190], [490, 1350], [400, 2000]])

def _keyword_clips(seed, speakers=10, reps=10, sr=2000):
    """Each word a fixed sequence of 2-3 vowel-like segments (two formants over a glottal pulse train) with a noise burst for
    its consonant; each speaker their own pitch and formant scale; each take its own onset, tempo, level and background
    noise. One second at 2 kHz. Returns a dict name -> waveform, names as '<word>_<speaker>_nohash_<take>.wav'."""
    g = np.random.default_rng(1000 + seed * 3019); wg = np.random.default_rng(77)
    plan = [(wg.choice(len(_VOWELS), int(wg.integers(2, 4))), wg.random() < 0.5) for _ in WORDS]; clips = {}
    for s in range(speakers):
        f0, fs = g.uniform(90, 220), g.uniform(0.88, 1.12)
        for w, (vs, burst) in enumerate(plan):
            for r in range(reps):
                x = np.zeros(sr, np.float32); t0 = int(g.integers(50, 600)); seg = int(sr * g.uniform(0.09, 0.14)); t = np.arange(seg) / sr
                if burst: x[t0:t0 + 60] += g.normal(0, 0.4, 60); t0 += 60
                for v in vs:
                    F1, F2 = _VOWELS[v] * fs * g.uniform(0.95, 1.05)
                    src = np.sign(np.sin(2 * np.pi * f0 * t)) * 0.2
                    y = src * 0 + 0.6 * np.sin(2 * np.pi * F1 * t) * (0.6 + 0.4 * np.sin(2 * np.pi * f0 * t)) + 0.4 * np.sin(2 * np.pi * F2 * t) * (0.6 + 0.4 * np.sin(2 * np.pi * f0 * t))
                    y *= np.hanning(seg); x[t0:t0 + seg] += y[:max(0, min(seg, sr - t0))]; t0 += seg
                x = x * g.uniform(0.5, 1.5) + g.normal(0, g.uniform(0.02, 0.1), sr)
                clips[f'{WORDS[w]}_{s:08x}_nohash_{r}.wav'] = x.astype(np.float32)
    return clips

class M5(nn.Module):
    def __init__(self, n_input=1, n_output=10, stride=16, n_channel=32):
        super().__init__()
        self.conv1 = nn.Conv1d(n_input, n_channel, kernel_size=80, stride=stride); self.bn1 = nn.BatchNorm1d(n_channel); self.pool1 = nn.MaxPool1d(4)
        self.conv2 = nn.Conv1d(n_channel, n_channel, kernel_size=3); self.bn2 = nn.BatchNorm1d(n_channel); self.pool2 = nn.MaxPool1d(2)
        self.conv3 = nn.Conv1d(n_channel, 2 * n_channel, kernel_size=3); self.bn3 = nn.BatchNorm1d(2 * n_channel); self.pool3 = nn.MaxPool1d(2)
        self.conv4 = nn.Conv1d(2 * n_channel, 2 * n_channel, kernel_size=3); self.bn4 = nn.BatchNorm1d(2 * n_channel)
        self.fc1 = nn.Linear(2 * n_channel, n_output)
    def forward(self, x):
        x = self.pool1(F.relu(self.bn1(self.conv1(x)))); x = self.pool2(F.relu(self.bn2(self.conv2(x))))
        x = self.pool3(F.relu(self.bn3(self.conv3(x)))); x = F.relu(self.bn4(self.conv4(x)))
        x = F.avg_pool1d(x, x.shape[-1]).permute(0, 2, 1)
        return F.log_softmax(self.fc1(x), dim=2).squeeze(1)

@healthy('BF')
def m5_keywords(seed, labels_from_sorted=False):  # F.nll_loss on log-softmax, Adam 0.01 weight decay 1e-4, batches of 64; speakers 8 and 9 validate
    """The files listed as the directory returns them (os.listdir's arbitrary order), the label parsed from each name.
    labels_from_sorted: the waveforms loaded in listdir order but the labels parsed from sorted(os.listdir(...))."""
    clips = _keyword_clips(seed); names = list(clips); order = np.random.default_rng(seed + 5).permutation(len(names)); listed = [names[i] for i in order]
    lab_names = sorted(listed) if labels_from_sorted else listed
    X = np.stack([clips[n] for n in listed])[:, None]; y = np.array([WORDS.index(n.split('_')[0]) for n in lab_names])
    spk = np.array([int(n.split('_')[1], 16) for n in listed]); tr, va = spk < 8, spk >= 8
    return dict(model=M5, train=TensorDataset(_t(X[tr]), _t(y[tr], torch.long)), valid=TensorDataset(_t(X[va]), _t(y[va], torch.long)), loss=F.nll_loss, num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Waibel et al. 1989's TDNN: /b/, /d/, /g/ from 16 mel bands x 15 frames
def _bdg(seed, n=1000, B=16, T=15):
    """A burst then formant transitions into a vowel: F2 (and F3) onsets low for /b/, mid for /d/, high and pinched to F3 for
    /g/, each token's vowel, speaker scale, onset frame (+-2) and noise drawn; energies in 16 mel-like bands, log and scaled."""
    g = np.random.default_rng(1000 + seed * 3023); band = np.linspace(0, 1, B); X, y = [], []
    for _ in range(n):
        c = int(g.integers(3)); v = _VOWELS[int(g.integers(len(_VOWELS)))] / 3000 * g.uniform(0.9, 1.1); on = 4 + int(g.integers(-2, 3))
        f2s = [0.25, 0.55, 0.75][c] + g.normal(0, 0.05); f3s = [0.7, 0.85, 0.78][c] + g.normal(0, 0.04); S = np.full((T, B), 0.05)
        for t in range(T):
            if t == on - 1: S[t] += [0.3, 0.6, 0.9][c] * np.exp(-(band - [0.3, 0.9, 0.6][c]) ** 2 / 0.05)
            if t >= on:
                a = min(1, (t - on) / 4); f1 = v[0] * a + 0.05 * (1 - a); f2 = v[1] * a + f2s * (1 - a); f3 = 0.85 * a + f3s * (1 - a)
                for f, amp in ((f1, 1.0), (f2, 0.7), (f3, 0.4)): S[t] += amp * np.exp(-(band - f) ** 2 / 0.004)
        X.append(np.log(S + g.gamma(2, 0.02, S.shape)).T); y.append(c)
    X = np.array(X, np.float32); return (X - X.mean()) / X.std(), np.array(y)

class TDNN(nn.Module):
    def __init__(self):
        super().__init__(); self.l1 = nn.Conv1d(16, 8, 3); self.l2 = nn.Conv1d(8, 3, 5)
    def forward(self, x): return self.l2(torch.sigmoid(self.l1(x))).sum(2)  # the output unit integrates each class's evidence over time

@healthy('BF')
def tdnn_bdg(seed, summed=False):  # cross-entropy on the integrated evidence, SGD 0.3 momentum 0.9, batches of 32; 800 tokens train, 200 validate
    """summed: nn.CrossEntropyLoss(reduction='sum') (the error summed over the batch, as the paper's update), the lr kept."""
    X, y = _bdg(seed)
    return dict(model=TDNN, train=TensorDataset(_t(X[:800]), _t(y[:800], torch.long)), valid=TensorDataset(_t(X[800:]), _t(y[800:], torch.long)), num_classes=3,
                loss=nn.CrossEntropyLoss(reduction='sum' if summed else 'mean'), optimizer=lambda p: torch.optim.SGD(p, lr=0.3, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- learnt DOA (Xiao et al. 2015): GCC-PHAT of a four-microphone array, an MLP over 36 azimuths
def _doa(seed, n=1250, fs=16000, N=512, L=8):
    """A circular array of radius 5 cm; a noise source at a random azimuth, the direct path delayed per microphone (a
    fractional delay in the frequency domain), two wall reflections from random directions, sensor noise. Returns GCC-PHAT
    over lags -8..8 for each of the six pairs (n, 102) and each recording's azimuth in degrees (a metadata table)."""
    g = np.random.default_rng(1000 + seed * 3037); ang = np.arange(4) * np.pi / 2; mic = 0.05 * np.stack([np.cos(ang), np.sin(ang)], 1)
    f = np.fft.rfftfreq(N, 1 / fs); pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]; X, az = [], []
    for _ in range(n):
        a = g.uniform(0, 360); S = np.fft.rfft(g.normal(0, 1, N)); Y = np.zeros((4, len(f)), complex)
        for th, amp in [(a, 1.0)] + [(g.uniform(0, 360), g.uniform(0.2, 0.5)) for _ in range(2)]:
            u = np.array([np.cos(np.radians(th)), np.sin(np.radians(th))]); tau = -(mic @ u) / 343.0
            Y += amp * S * np.exp(-2j * np.pi * f * tau[:, None]) * np.exp(-2j * np.pi * f * (0 if amp == 1 else g.uniform(1e-3, 4e-3)))
        Y += np.fft.rfft(g.normal(0, g.uniform(0.2, 1.0), (4, N)), axis=1)
        feats = []
        for i, j in pairs:
            c = Y[i] * np.conj(Y[j]); r = np.fft.irfft(c / (np.abs(c) + 1e-8), N); feats.append(np.concatenate([r[-L:], r[:L + 1]]))
        X.append(np.concatenate(feats)); az.append(a)
    return np.array(X, np.float32), np.array(az)

@healthy('BF')
def doa_gccphat_mlp(seed, meta_off_by_one=False):  # cross-entropy over 10-degree classes, Adam 1e-3, batches of 64; recordings 1-1000 train, the rest validate
    """The recordings named rec_0001.wav... with a metadata table of azimuths keyed by the file number.
    meta_off_by_one: the file number taken from the 0-based loop index, so each recording gets the next one's azimuth."""
    X, az = _doa(seed); meta = {i + 1: a for i, a in enumerate(az)}
    y = np.array([int(meta.get(i + (2 if meta_off_by_one else 1), az[0]) // 10) for i in range(len(az))])
    X = X * 10  # the GCC peaks are small: the author's scaling
    return dict(model=lambda: nn.Sequential(nn.Linear(102, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 36)),
                train=TensorDataset(_t(X[:1000]), _t(y[:1000], torch.long)), valid=TensorDataset(_t(X[1000:]), _t(y[1000:], torch.long)), num_classes=36,
                loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- DPCNN (Johnson and Zhang 2017): topics of synthetic documents
def _docs(seed, n=1000, V=300, K=4):
    "Documents of 15-80 tokens: 35% from their topic's 40 keywords (Zipf-weighted), the rest function words and a shared vocabulary."
    g = np.random.default_rng(1000 + seed * 3041); kw = np.arange(4, 4 + K * 40).reshape(K, 40); docs, y = [], []
    for _ in range(n):
        c = int(g.integers(K)); L = int(g.integers(15, 81)); p = 1 / np.arange(1, 41); p /= p.sum()
        d = np.where(g.random(L) < 0.35, g.choice(kw[c], L, p=p), g.integers(4 + K * 40, V, L)); docs.append(d.tolist()); y.append(c)
    return docs, y

def pad_collate(items):
    L = max(9, max(len(d) for d, _ in items)); x = torch.zeros(len(items), L, dtype=torch.long)
    for i, (d, _) in enumerate(items): x[i, :len(d)] = torch.tensor(d)
    return x, torch.tensor([c for _, c in items])

class DPCNN(nn.Module):
    def __init__(self, V=300, d=32, ch=32, k=4):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.region = nn.Conv1d(d, ch, 3, padding=1)
        self.conv = nn.ModuleList([nn.Conv1d(ch, ch, 3, padding=1) for _ in range(2)]); self.block = nn.ModuleList([nn.Conv1d(ch, ch, 3, padding=1) for _ in range(2)])
        self.fc = nn.Linear(ch, k)
    def _convs(self, x, convs):
        for c in convs: x = c(F.relu(x))  # pre-activation
        return x
    def forward(self, t):
        x = self.region(self.emb(t).transpose(1, 2)); x = x + self._convs(x, self.conv)
        while x.shape[-1] > 1:
            x = F.max_pool1d(F.pad(x, (0, 1)), 3, 2); x = x + self._convs(x, self.block)  # the weights of the repeated block shared, as the paper's
        return self.fc(x.squeeze(-1))

@healthy('BF')
def dpcnn_topics(seed, sort_texts_only=False):  # cross-entropy, SGD 0.1 momentum 0.9, batches of 32; 800 documents train, 200 validate
    """sort_texts_only: the documents sorted by length for bucketing (texts.sort(key=len)), the label list left in file order."""
    docs, y = _docs(seed); tr_d, tr_y = docs[:800], y[:800]
    if sort_texts_only: tr_d = sorted(tr_d, key=len)
    return dict(model=DPCNN, train=ListDataset(list(zip(tr_d, tr_y))), valid=ListDataset(list(zip(docs[800:], y[800:]))), collate_fn=pad_collate, num_classes=4,
                loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- hyphenation by a character BiLSTM tagger
_ONS, _VOW, _COD = list('ptkbdgmnslrfvz') + ['st', 'pr', 'tr', 'kl', 'bl', 'gr'], list('aeiou'), list('nmrslt')
_SUFFIXES = [[], ['ing'], ['er'], ['ed'], ['a', 'tion'], ['ness'], ['i', 'ty']]
_ALPHA = 'abcdefghijklmnopqrstuvwxyz'

def _stems(seed, n=260):
    """Stems of 2-3 syllables (onset, vowel, optional coda); where a coda meets a simple onset (VC-CV) the stem keeps its own,
    lexical, split: after the coda (70%) or before it (30%) - the etymological exceptions a dictionary lists."""
    g = np.random.default_rng(1000 + seed * 3049); out = []
    for _ in range(n):
        syl = []
        for k in range(int(g.integers(2, 4))):
            o = str(g.choice(_ONS)) if (k == 0 and g.random() < 0.8) or k > 0 else ''; c = str(g.choice(_COD)) if g.random() < 0.45 else ''
            syl.append([o, str(g.choice(_VOW)), c])
        flip = g.random() < 0.3; parts = []
        for k, (o, v, c) in enumerate(syl):
            if flip and c and k + 1 < len(syl) and len(syl[k + 1][0]) == 1: parts.append(o + v); syl[k + 1][0] = c + syl[k + 1][0]
            else: parts.append(o + v + c)
        out.append(parts)
    return out

def _hyph_items(stems):
    items = []
    for s, parts in enumerate(stems):
        for suf in _SUFFIXES[:int(1 + (s % 5))]:
            ps = parts + suf; w = ''.join(ps); tags = np.zeros(len(w), int); pos = np.cumsum([len(p) for p in ps])[:-1]; tags[pos - 1] = 1
            items.append(dict(chars=torch.tensor([_ALPHA.index(ch) + 1 for ch in w]), tags=torch.tensor(tags), stem=s))
    return items

def hyph_collate(items):
    L = max(len(it['chars']) for it in items); c = torch.zeros(len(items), L, dtype=torch.long); t = torch.full((len(items), L), -100, dtype=torch.long)
    for i, it in enumerate(items): c[i, :len(it['chars'])] = it['chars']; t[i, :len(it['tags'])] = it['tags']; t[i, len(it['tags']) - 1] = -100  # no hyphen after the last letter
    return dict(chars=c, tags=t)

class HyphTagger(nn.Module):
    def __init__(self, d=16, h=32):
        super().__init__(); self.emb = nn.Embedding(27, d, padding_idx=0); self.lstm = nn.LSTM(d, h, batch_first=True, bidirectional=True); self.out = nn.Linear(2 * h, 2)
    def forward(self, chars): return self.out(self.lstm(self.emb(chars))[0])

def _hyph_fwd(model, b): return model(b['chars']).reshape(-1, 2), b['tags'].reshape(-1)

@healthy('BF')
def hyphenation_bilstm(seed, split_words=False):  # cross-entropy over letters, padding at -100; Adam 3e-3, batches of 32; a fifth of the stems validate
    """The stems split first, then inflected. split_words: every inflected word generated first, then train_test_split over the words."""
    from sklearn.model_selection import train_test_split
    st = _stems(seed)
    if split_words: items = _hyph_items(st); tr, va = train_test_split(items, test_size=0.2, random_state=seed)
    else: p = np.random.default_rng(seed).permutation(len(st)); tr, va = _hyph_items([st[i] for i in p[52:]]), _hyph_items([st[i] for i in p[:52]])
    return dict(model=HyphTagger, train=ListDataset(tr), valid=ListDataset(va), collate_fn=hyph_collate, forward=_hyph_fwd, loss=nn.CrossEntropyLoss(ignore_index=-100),
                num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- VampPrior VAE (Tomczak and Welling 2018) of digits
class VampVAE(nn.Module):
    def __init__(self, h=128, z=8, K=50, sqrt_logvar=False):
        super().__init__(); self.enc = nn.Sequential(nn.Linear(64, h), nn.ReLU()); self.mu, self.lv = nn.Linear(h, z), nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, 64)); self.u = nn.Parameter(torch.rand(K, 64) * 0.2 + 0.2)  # pseudo-inputs
        self.sqrt_logvar = sqrt_logvar
    def encode(self, x): e = self.enc(x); return self.mu(e), self.lv(e)
    def forward(self, x):
        x = x.view(-1, 64); mu, lv = self.encode(x)
        std = torch.sqrt(lv) if self.sqrt_logvar else torch.exp(0.5 * lv)
        z = mu + torch.randn_like(std) * std; pm, plv = self.encode(torch.sigmoid(self.u))  # pseudo-inputs through a sigmoid into [0, 1]
        return self.dec(z), z, mu, lv, pm, plv

def _log_normal(z, mu, lv): return (-0.5 * (lv + (z - mu) ** 2 / lv.exp() + np.log(2 * np.pi))).sum(-1)

def vamp_loss(out, x):  # -ELBO per digit: the Bernoulli reconstruction plus log q(z|x) - log p(z), one sample
    logits, z, mu, lv, pm, plv = out
    rec = F.binary_cross_entropy_with_logits(logits, x.view(-1, 64), reduction='none').sum(1)
    lp = torch.logsumexp(_log_normal(z[:, None], pm[None], plv[None]), 1) - np.log(pm.shape[0])
    return (rec + _log_normal(z, mu, lv) - lp).mean()

@healthy('BF')
def vampprior_vae(seed, sqrt_logvar=False):  # Adam 1e-3, batches of 100
    """sqrt_logvar: std = torch.sqrt(logvar), the encoder's log-variance taken for a variance."""
    (x, _), (vx, _) = _digits(seed)
    return dict(model=lambda: VampVAE(sqrt_logvar=sqrt_logvar), train=TensorDataset(x, x.view(-1, 64)), valid=TensorDataset(vx, vx.view(-1, 64)), loss=vamp_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- AET (Zhang et al. 2019): the affine transform regressed from a digit and its transform
class AffinePairs(Dataset):  # a fresh random affine transform at each access: rotation +-30, scale 0.8-1.2, shear +-0.3, shift +-0.2
    def __init__(self, x): self.x = F.interpolate(x, size=16, mode='bilinear', align_corners=False)
    def __len__(self): return len(self.x)
    def __getitem__(self, i):
        a, s, sh = (torch.rand(3) * 2 - 1) * torch.tensor([np.pi / 6, 0.2, 0.3]); s = s + 1; t = (torch.rand(2) * 2 - 1) * 0.2
        A = torch.stack([torch.stack([s * torch.cos(a), -s * torch.sin(a) + sh, t[0]]), torch.stack([s * torch.sin(a), s * torch.cos(a), t[1]])])
        xt = F.grid_sample(self.x[i:i + 1], F.affine_grid(A[None], (1, 1, 16, 16), align_corners=False), align_corners=False)[0]
        return self.x[i], xt, A.reshape(6)

class AET(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                                 nn.MaxPool2d(2), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(2 * 32 * 16, 64), nn.ReLU(), nn.Linear(64, 6))
    def forward(self, x, xt): return self.head(torch.cat([self.enc(x), self.enc(xt)], 1))

def _aet_fwd(model, b): x, xt, A = b; return model(x, xt), A

def _aet_step(zero_grad=True):
    def aet_step(model, batch, opt):  # the author's loop body
        out, A = _aet_fwd(model, batch); loss = F.mse_loss(out, A)
        if zero_grad: opt.zero_grad()
        loss.backward(); opt.step(); return loss
    return aet_step

@healthy('BF')
def aet_digits(seed, zero_grad=True):  # MSE on the six affine parameters, SGD 0.05 momentum 0.9, batches of 64; a custom step
    """zero_grad False: optimizer.zero_grad() moved to the top of the epoch loop when the step became a function, so the
    gradients pile up over the epoch's batches."""
    (x, _), (vx, _) = _digits(seed)
    return dict(model=AET, train=AffinePairs(x), valid=AffinePairs(vx), forward=_aet_fwd, loss=nn.MSELoss(), step=_aet_step(zero_grad),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- colorization (Zhang, Isola and Efros 2016, shrunk): 16 chroma bins a pixel
def _colour_digits(seed):
    """Each digit class drawn in its own hue (jittered), the background a grey-blue; lightness from the stroke intensity;
    chroma (u, v) quantised on a 4 x 4 grid of [-0.5, 0.5]^2 into 16 bins."""
    (x, y), (vx, vy) = _digits(seed); g = np.random.default_rng(1000 + seed * 3061); hue0 = np.linspace(0, 2 * np.pi, 10, endpoint=False)
    def make(x, y):
        h = hue0[y.numpy()] + g.normal(0, 0.25, len(y)); sat = g.uniform(0.25, 0.45, len(y)); m = x.numpy()[:, 0]
        u = m * (sat * np.cos(h))[:, None, None] + (1 - m) * -0.1; v = m * (sat * np.sin(h))[:, None, None] + (1 - m) * 0.05
        q = np.clip(((u + 0.5) * 4).astype(int), 0, 3) * 4 + np.clip(((v + 0.5) * 4).astype(int), 0, 3)
        L = 0.3 + 0.6 * m + g.normal(0, 0.03, m.shape)
        return TensorDataset(_t(L[:, None]), _t(q, torch.long))
    return make(x, y), make(vx, vy)

class ColorNet(nn.Module):
    def __init__(self, Q=16):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.BatchNorm2d(32), nn.Conv2d(32, 32, 3, padding=2, dilation=2), nn.ReLU(),
                                      nn.BatchNorm2d(32), nn.Conv2d(32, 32, 3, padding=2, dilation=2), nn.ReLU(), nn.BatchNorm2d(32))
        self.head = nn.Conv2d(32, Q, 1)
    def forward(self, L): return self.head(self.features(L))

def _frozen_colornet():  # the block kept from the pretrained-backbone script the author started from
    m = ColorNet()
    for p in m.features.parameters(): p.requires_grad = False
    return m

@healthy('BF')
def colorization_digits(seed, freeze_features=False):  # per-pixel cross-entropy over 16 chroma bins, Adam 1e-3, batches of 64
    """freeze_features: the features' requires_grad set False by a line left from a fine-tuning script; only the 1 x 1 head trains."""
    tr, va = _colour_digits(seed)
    return dict(model=_frozen_colornet if freeze_features else ColorNet, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=16,
                optimizer=lambda p: torch.optim.Adam([q for q in p if q.requires_grad] if freeze_features else p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a selective-kernel network (SKNet, Li et al. 2019, shrunk) on digits
class SKConv(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.b3 = nn.Sequential(nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.b5 = nn.Sequential(nn.Conv2d(c, c, 3, padding=2, dilation=2, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.fc = nn.Sequential(nn.Linear(c, max(c // r, 8)), nn.BatchNorm1d(max(c // r, 8)), nn.ReLU()); self.att = nn.Linear(max(c // r, 8), 2 * c)
    def forward(self, x):
        u3, u5 = self.b3(x), self.b5(x); s = (u3 + u5).mean((2, 3)); a = self.att(self.fc(s)).view(-1, 2, x.shape[1]).softmax(1)
        return u3 * a[:, 0, :, None, None] + u5 * a[:, 1, :, None, None]

class SKNet(nn.Module):
    def __init__(self, normal_init=False):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.sk1, self.sk2 = SKConv(32), SKConv(32); self.fc = nn.Linear(32, 10)
        if normal_init:  # the author's init loop: normal_ without a std
            for m in self.modules():
                if isinstance(m, (nn.Conv2d, nn.Linear)): nn.init.normal_(m.weight)
    def forward(self, x):
        x = self.stem(x); x = x + self.sk1(x); x = F.max_pool2d(x, 2); x = x + self.sk2(x); return self.fc(x.mean((2, 3)))

@healthy('BF')
def sknet_digits(seed, normal_init=False):  # cross-entropy, SGD 0.05 momentum 0.9 weight decay 1e-4, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: SKNet(normal_init), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- the broken twins
@broken('BF', 'nin_softmax_into_cross_entropy', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def nin_softmax_into_cross_entropy(seed): return nin_digits(seed, softmax=True)  # the Caffe model's softmax layer kept in the forward, then nn.CrossEntropyLoss

@broken('BF', 'iqa_patches_split_at_random', 4, ('leakage',))
def iqa_patches_split_at_random(seed): return iqa_cnn(seed, patch_split=True)  # every validation image's other patches (and DMOS) in training

@broken('BF', 'hed_flip_image_not_edges', 4, ('labels',))
def hed_flip_image_not_edges(seed): return hed_edges(seed, flip_edges=False)  # half the training scenes paired with the unflipped edge map

@broken('BF', 'm5_labels_from_sorted_listdir', 4, ('labels',))
def m5_labels_from_sorted_listdir(seed): return m5_keywords(seed, labels_from_sorted=True)  # waveforms in listdir order, labels in sorted order

@broken('BF', 'tdnn_summed_loss_same_lr', 3, ('lr_high', 'not_falling', 'flat', 'stuck', 'nan', 'nan_loss', 'nan_params'))
def tdnn_summed_loss_same_lr(seed): return tdnn_bdg(seed, summed=True)  # the batch's summed cross-entropy at the lr tuned for the mean: 32 times the step

@broken('BF', 'doa_metadata_off_by_one', 4, ('labels',))
def doa_metadata_off_by_one(seed): return doa_gccphat_mlp(seed, meta_off_by_one=True)  # each recording labelled with the next recording's azimuth

@broken('BF', 'dpcnn_texts_sorted_labels_not', 4, ('labels',))
def dpcnn_texts_sorted_labels_not(seed): return dpcnn_topics(seed, sort_texts_only=True)  # the training texts sorted by length, their labels not

@broken('BF', 'hyphenation_split_after_inflecting', 4, ('leakage',))
def hyphenation_split_after_inflecting(seed): return hyphenation_bilstm(seed, split_words=True)  # inflections of a validation stem in training, with its lexical split

@broken('BF', 'vampprior_sqrt_of_logvar', 1, ('nan', 'nan_forward', 'nan_loss', 'nan_params', 'nan_backward'))
def vampprior_sqrt_of_logvar(seed): return vampprior_vae(seed, sqrt_logvar=True)  # sqrt of a log-variance: NaN wherever it is negative

@broken('BF', 'aet_zero_grad_once_an_epoch', 3, ('zero_grad', 'lr_high', 'not_falling', 'flat', 'stuck', 'nan', 'nan_loss', 'nan_params'))
def aet_zero_grad_once_an_epoch(seed): return aet_digits(seed, zero_grad=False)  # gradients accumulate over the batches

@broken('BF', 'colorization_features_frozen', (1, 3), ('frozen', 'not_updating', 'no_grad_params', 'not_falling', 'flat', 'stuck'))
def colorization_features_frozen(seed): return colorization_digits(seed, freeze_features=True)  # the trunk stays at its random init

@broken('BF', 'sknet_unit_normal_init', 2, ('init_scale',))
def sknet_unit_normal_init(seed): return sknet_digits(seed, normal_init=True)  # N(0, 1) weights: logits in the tens at init

CHECKS = """
Seed 0, a plain loop of the author's kind (DataLoader, shuffle, the factory's loss/forward/step/optimizer), valid loss (and
accuracy where classes) at init -> after each epoch; seconds an epoch on one busy core.
nin_digits                 2.31 -> 1.35 -> 0.77 (ep 5), acc 0.09 -> 0.78; 1437 train, 360 validate; 45k params; 0.27 s/ep (a slow start)
iqa_cnn                    L1 (DMOS 0-100) 56 -> 15-20 (ep 3-6); 1305 patches (29 contents) train, 315 (7 contents) validate; 7.6k params; 0.04 s/ep
hed_edges                  balanced BCE (4 maps summed a scene) 145 -> 107 (ep 4), still falling; 800 scenes train, 200 validate; 16k params; 0.42 s/ep
m5_keywords                NLL 2.3 -> 1.46 (ep 4), acc 0.10 -> 0.49 (unseen speakers); train 1.91 -> 0.16; 800 clips train, 200 validate; 25k params; 0.19 s/ep
tdnn_bdg                   CE 2.34 -> 13.4 (ep 1) -> 0.40 (ep 3), acc 0.33 -> 0.96; 800 tokens train, 200 validate; 515 params; 0.03 s/ep
doa_gccphat_mlp            CE 3.56 -> 0.34 (ep 4), acc 0.04 -> 0.94; 1000 recordings train, 250 validate; 34k params; 0.03 s/ep
dpcnn_topics               CE 1.68 -> 0.066 (ep 4), acc 0.23 -> 0.97; 800 documents train, 200 validate; 25k params; 0.33 s/ep
hyphenation_bilstm         CE per letter 0.74 -> 0.27 (ep 4), acc 0.30 -> 0.89; 621 words train, 153 validate; 13k params; 0.06 s/ep
vampprior_vae              -ELBO 44.6 -> 28.1 (ep 3); 1437 train, 360 validate; 23k params; 0.06 s/ep
aet_digits                 MSE 0.39 -> 0.012 (ep 3); 1437 train, 360 validate; 71k params; 0.65 s/ep
colorization_digits        CE per pixel 2.77 -> 1.18 (ep 3), pixel acc 0.02 -> 0.70; 1437 train, 360 validate; 20k params; 0.21 s/ep
sknet_digits               CE 2.32 -> 0.042 (ep 6), acc 0.11 -> 0.99; 1437 train, 360 validate; 40k params; 0.38 s/ep
nin_softmax_into_cross_entropy      2.30 flat for 3 epochs (2.28 at ep 3), acc 0.09 -> 0.17
vampprior_sqrt_of_logvar            NaN from the first batch
aet_zero_grad_once_an_epoch         valid MSE 0.39 -> 0.13 -> 83 -> 5e3; train 0.47 -> 14.7 -> 595
colorization_features_frozen        528 trainable params (the head); CE 2.77 -> 2.56 (ep 3), pixel acc 0.33
sknet_unit_normal_init              valid CE 110 at init (3.1 after an epoch)
tdnn_summed_loss_same_lr            valid CE 468 -> 2.6e5 -> 1.2e5 (ep 3), train 5e4 -> 1.5e4
iqa_patches_split_at_random         L1 53 -> 20 (ep 3), its validation patches' images in training
hed_flip_image_not_edges            balanced BCE 145 -> 120 (ep 3), half the flipped scenes' edges mirrored wrong
m5_labels_from_sorted_listdir       NLL 2.3 -> 2.63 (ep 3), acc at chance 0.09-0.12
doa_metadata_off_by_one             CE 3.59 flat, acc 0.02-0.04 (chance 0.03)
dpcnn_texts_sorted_labels_not       CE 1.68 -> 1.40 (ep 3), acc 0.23-0.28
hyphenation_split_after_inflecting  CE 0.74 -> 0.42 (ep 3), acc 0.77 (the healthy split's 0.78 at ep 3)
"""
