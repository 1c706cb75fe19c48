"""Half AP of the ladder's gallery: held out from the rules frozen at 24b9737 (round 54), and run once on them.
Families not in halves A-AO, taken only from computer vision, audio and speech, natural language, generative models and
self-supervised learning (a half written alongside took other domains): HomographyNet (DeTone, Malisiewicz and Rabinovich
2016: two stacked grey patches, the second cut from the image warped by a random four-corner perturbation, a VGG-style
regressor of the eight corner offsets divided by rho, the L2 loss, Adam as the PyTorch port; the pairs saved as numbered
.npy files) on synthetic textures; CNN-IQA (Kang, Ye, Li and Doermann 2014: locally contrast-normalised patches, one convolution with global min
and max pooling, two dense layers, the L1 loss to the image's DMOS / 100; patches of one image share its score) on blurred, noisy
and blocky distortions of synthetic reference images, split by reference as LIVE's protocol; beat tracking with a TCN
(Davies and Boeck 2019, madmom-style, shrunk: 1-D dilated convolutions over 100-fps log-band frames, a beat activation a
frame, BCE with logits, annotations as beat times in seconds) of synthetic drum-and-hat excerpts at 80-160 BPM; subject-verb
number agreement (Linzen, Dupoux and Goldberg 2016: an LSTM reads a sentence up to the main verb and predicts its number,
with attractor nouns in prepositional phrases and relative clauses; a collate_fn that pads, a batch of three tensors and a
forward of its own); SummaRuNNer (Nallapati, Zhai and Zhou 2017, shrunk: word- and sentence-level BiGRUs, content,
salience, novelty and position terms, masked BCE with logits against greedy-oracle sentence labels; documents padded by a
collate_fn, a forward of its own) on synthetic news stories with bylines the preprocessing drops; an importance-weighted
autoencoder (IWAE, Burda, Grosse and Salakhutdinov 2016: k = 5 samples, minus the log of the mean importance weight; a tuple
output and a loss of its own) of binarised digits; SimSiam (Chen and He 2021: a small CNN backbone, a BN projector and a
bottleneck predictor, the symmetric negative cosine with stop-gradient; two augmented views made by a collate_fn, SGD with
lr = base_lr x batch / 256, momentum and weight decay) on digits; contrastive predictive coding of waveforms (van den Oord, Li
and Vinyals 2018, shrunk: a strided convolutional encoder, a GRU context, one linear predictor per step ahead, InfoNCE over
every other frame of the batch as negatives; the scores and their targets out of the forward) of synthetic phone-like
utterances; audio super-resolution (Kuleshov, Enam and Ermon 2017's AudioUNet, shrunk: strided 1-D convolutions, 1-D
sub-pixel upsampling with stacked skips, the input added back; MSE) from 4 kHz to 8 kHz of synthetic harmonic clips, patches
cut from decimated-then-interpolated clips, held-out clips validating; an LCNN anti-spoofing countermeasure (Lavrentyev et al.
2017 for ASVspoof, shrunk: max-feature-map activations after each convolution, a two-way cross-entropy) on log power
spectrograms of bona fide and vocoded synthetic utterances, padded to one second; saliency prediction (an encoder-decoder
CNN with a softmax over the pixels and the KL divergence to the fixation density, as SALICON-era models) of pop-out scenes
with a centre bias; and grapheme-to-phoneme conversion (a GRU encoder-decoder with dot attention and teacher forcing, the
cross-entropy ignoring padding, as CMUdict G2P tutorials) of a synthetic orthography with digraphs, soft c and silent e.
At most 1920 training items a program (the IQA's patches; 1500 elsewhere) and under 100k trainable parameters; an epoch of a plain loop well under 2 s on one
busy core (CHECKS). Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this
module after half AO.

Protocol: written by a helper in a worktree at b0f162a (branch halfAP), held out from the rules frozen at 24b9737 (round 54).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and tail (the import
lines), half AO whole, the module docstrings, section titles and @broken lines of the other halves (for the families taken
and the rung and cause conventions, with greps of the halves for candidate family names), a few of their factories with a
custom step or forward (for the contract), ladder_sweep.py's --half line, and the signature and docstring of
`ntrain.ladder`. Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs:
the healthy ones learn, the broken ones are broken as meant), seed 0 (and 1 where cheap). No program declares groups.
Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AP`; no program changes after the run
starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

def _smooth_images(g, n, size):
    "Grey synthetic textures in [0, 1]: a few Gaussian blobs, two gratings and fine noise, each image its own mix."
    yy, xx = np.mgrid[0:size, 0:size] / size; out = np.zeros((n, size, size), np.float32)
    for i in range(n):
        im = np.zeros((size, size))
        for _ in range(g.integers(3, 8)):
            cx, cy, s = g.random(), g.random(), g.uniform(0.04, 0.2); im += g.normal() * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s))
        for _ in range(2):
            f, a = g.uniform(2, 9), g.uniform(0, np.pi); im += g.uniform(0.2, 0.6) * np.sin(2 * np.pi * f * (np.cos(a) * xx + np.sin(a) * yy) + g.uniform(0, 6.3))
        im += g.normal(0, 0.08, im.shape); im = (im - im.min()) / (im.max() - im.min() + 1e-8); out[i] = im
    return out

# ---------------------------------------------------------------- HomographyNet (DeTone, Malisiewicz and Rabinovich 2016): four-corner offsets of a patch pair
def _homography(src, dst):
    "The 3x3 H with H @ src_i ~ dst_i for four point pairs (the direct linear transform, h33 = 1), as cv2.getPerspectiveTransform."
    A, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u); A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return np.append(np.linalg.solve(np.array(A, float), np.array(b, float)), 1).reshape(3, 3)

def _homography_pairs(seed, split, n, size=32, P=16, rho=4):
    """The paper's recipe on 32x32 textures: a 16x16 patch at a random place (rho from every border), its corners moved by
    up to rho pixels, H_AB from the four pairs, the image warped by H_BA (sampled at H_AB of each pixel) and the same square
    cut from it. Returns the two patches as uint8 (the images as written to disk), the offsets (8,) in pixels."""
    g = np.random.default_rng(1000 + seed * 3001 + split); ims = (_smooth_images(g, n, size) * 255).astype(np.uint8)
    A, B, H4 = np.zeros((n, P, P), np.uint8), np.zeros((n, P, P), np.uint8), np.zeros((n, 8), np.float32)
    ys, xs = np.mgrid[0:size, 0:size].astype(float)
    for i in range(n):
        x0, y0 = g.integers(rho, size - P - rho, 2); corners = np.array([[x0, y0], [x0 + P, y0], [x0 + P, y0 + P], [x0, y0 + P]], float)
        off = g.integers(-rho, rho + 1, (4, 2)).astype(float); H = _homography(corners, corners + off)
        px, py = xs[y0:y0 + P, x0:x0 + P].ravel(), ys[y0:y0 + P, x0:x0 + P].ravel(); q = H @ np.stack([px, py, np.ones(P * P)]); q = q[:2] / q[2]
        grid = torch.tensor(np.stack([q[0] / (size - 1) * 2 - 1, q[1] / (size - 1) * 2 - 1], -1).reshape(1, P, P, 2), dtype=torch.float32)
        warped = F.grid_sample(torch.tensor(ims[i], dtype=torch.float32)[None, None], grid, align_corners=True, padding_mode='border')[0, 0].numpy()
        A[i] = ims[i, y0:y0 + P, x0:x0 + P]; B[i] = np.clip(np.round(warped), 0, 255); H4[i] = off.ravel()
    return A, B, H4

class HomographyNet(nn.Module):  # the paper's VGG-like stack shrunk: 3x3 convs with BN in pairs, max pools, a dense layer, 8 outputs (the port drops the paper's dropout)
    def __init__(self, c=16):
        super().__init__()
        blk = lambda a, b: [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU()]
        self.features = nn.Sequential(*blk(2, c), *blk(c, c), nn.MaxPool2d(2), *blk(c, 2 * c), *blk(2 * c, 2 * c), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(2 * c * 16, 128), nn.ReLU(), nn.Linear(128, 8))
    def forward(self, x): return self.head(self.features(x))

@healthy('AP')
def homographynet_patches(seed, glob_order=False, rho=4):  # MSE, Adam 1e-3 (the PyTorch port's, no dropout), batches of 64
    """The pair stacked as two channels, pixels as the paper's (x - 127.5) / 127.5, the offsets divided by rho. The generator
    saves each pair as f'{i}.npy' and the offsets in one labels array in the order made; the Dataset lists the pairs with
    sorted(glob('*.npy')) (glob_order True: '0.npy', '1.npy', '10.npy', '100.npy', ... the names in string order against
    the labels in numeric order; False: sorted by int(stem))."""
    def ds(split, n):
        A, B, H4 = _homography_pairs(seed, split, n, rho=rho); names = sorted([f'{i}.npy' for i in range(n)], key=None if glob_order else (lambda f: int(f[:-4])))
        order = [int(f[:-4]) for f in names]; x = torch.tensor(np.stack([A, B], 1)[order], dtype=torch.float32)
        return TensorDataset((x - 127.5) / 127.5, torch.tensor(H4 / rho))
    return dict(model=HomographyNet, train=ds(0, 1200), valid=ds(1, 300), loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- CNN-IQA (Kang, Ye, Li and Doermann 2014): no-reference image quality from patches
IQA_TYPES = ['gblur', 'wn', 'block']

def _iqa_database(seed, refs=40, levels=5, size=32):
    """A LIVE-like database: `refs` reference images, each distorted by Gaussian blur, white noise and 4x4 block averaging at
    five levels. DMOS (0-100) grows with the level, less for noise on busy images (masking), plus each distorted image's
    own rater offset (sd 5). Returns the images (N, 32, 32) in [0, 1], DMOS (N,), the reference id (N,)."""
    g = np.random.default_rng(1000 + seed * 3011); ref = _smooth_images(g, refs, size); X, d, rid = [], [], []
    busy = np.array([np.abs(np.diff(r, axis=0)).mean() + np.abs(np.diff(r, axis=1)).mean() for r in ref]); busy = (busy - busy.mean()) / busy.std()
    for r in range(refs):
        for t in IQA_TYPES:
            for lv in range(1, levels + 1):
                im = torch.tensor(ref[r])[None, None]
                if t == 'gblur':
                    s = 0.4 * lv; k = torch.exp(-torch.arange(-4, 5.) ** 2 / (2 * s * s)); k = k / k.sum()
                    im = F.conv2d(F.pad(im, (4, 4, 4, 4), mode='reflect'), (k[:, None] * k[None])[None, None])
                elif t == 'wn': im = im + torch.tensor(g.normal(0, 0.035 * lv, (1, 1, size, size)), dtype=torch.float32)
                else:
                    blk = F.interpolate(F.avg_pool2d(im, 4), scale_factor=4, mode='nearest'); w = 0.2 * lv; im = (1 - w) * im + w * blk
                X.append(im.clamp(0, 1)[0, 0].numpy()); rid.append(r)
                d.append(np.clip(12 + 14 * lv - (5 * lv * busy[r] / 5 if t == 'wn' else 0) + {'gblur': 4, 'wn': 0, 'block': -3}[t] + g.normal(0, 5), 0, 100))
    return np.array(X, np.float32), np.array(d, np.float32), np.array(rid)

def lcn(x, k=7, c=1e-2):  # Kang's local contrast normalisation: (I - mu) / (sigma + C) over a 7x7 window
    mu = F.avg_pool2d(F.pad(x, (k // 2,) * 4, mode='reflect'), k, 1); var = F.avg_pool2d(F.pad((x - mu) ** 2, (k // 2,) * 4, mode='reflect'), k, 1)
    return (x - mu) / (var.sqrt() + c)

def _iqa_patches(X, d, P=16):
    "Every image's four non-overlapping 16x16 patches after LCN, each labelled with the image's DMOS / 100; the image index of each."
    x = lcn(torch.tensor(X)[:, None]); n = len(X)
    p = x.unfold(2, P, P).unfold(3, P, P).permute(0, 2, 3, 1, 4, 5).reshape(-1, 1, P, P)
    return p, torch.tensor(np.repeat(d / 100, 4))[:, None], np.repeat(np.arange(n), 4)

class CNNIQA(nn.Module):  # one 7x7 convolution of 50 kernels, global min and max pooling, two dense layers of 800 (shrunk to 64), dropout, one output
    def __init__(self, k=32, h=64):
        super().__init__(); self.conv = nn.Conv2d(1, k, 7)
        self.fc = nn.Sequential(nn.Linear(2 * k, h), nn.ReLU(), nn.Dropout(0.5), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))
    def forward(self, x):
        h = self.conv(x).flatten(2); return self.fc(torch.cat([h.max(2)[0], -(-h).max(2)[0]], 1))

@healthy('AP')
def cnn_iqa_patches(seed, patch_split=False):  # L1 loss on DMOS / 100, SGD 0.01 with momentum 0.9 as the paper, batches of 64
    """The references split 80/20 (LIVE's protocol: no content on both sides), then their distorted images cut into patches
    (patch_split: all patches pooled first and train_test_split over them, so every validation image's other patches train)."""
    from sklearn.model_selection import train_test_split
    X, d, rid = _iqa_database(seed); p, y, img = _iqa_patches(X, d)
    if patch_split: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else:
        rtr, rva = train_test_split(np.unique(rid), test_size=0.2, random_state=seed)
        tr, va = np.flatnonzero(np.isin(rid[img], rtr)), np.flatnonzero(np.isin(rid[img], rva))
    return dict(model=CNNIQA, train=TensorDataset(p[tr], y[tr]), valid=TensorDataset(p[va], y[va]), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- beat tracking with a TCN (Davies and Boeck 2019, madmom-style, shrunk)
BEAT_FPS, BEAT_BANDS = 100, 16

def _beat_excerpts(seed, split, n, secs=6.0):
    """Excerpts as 16 log-band frames at 100 fps: a kick in the low bands on most beats, a snare in the middle on 2 and 4,
    hats in the high bands on the eighths, random fills and noise; tempo 80-160 BPM with a little drift. Returns the
    features (n, 16, T) and each excerpt's beat annotation in seconds (a .beats file)."""
    g = np.random.default_rng(1000 + seed * 3019 + split); T = int(secs * BEAT_FPS); X, beats = [], []
    bands = np.arange(BEAT_BANDS); kick, snare, hat = np.exp(-bands / 2.5), np.exp(-(bands - 7) ** 2 / 6), np.exp(-(bands - 14) ** 2 / 4)
    for _ in range(n):
        bpm = g.uniform(80, 160); ibi = 60 / bpm; t0 = g.uniform(0, ibi); b = []
        t = t0
        while t < secs: b.append(t); t += ibi * (1 + g.normal(0, 0.01))
        F_ = np.zeros((BEAT_BANDS, T)) + g.normal(0, 0.15, (BEAT_BANDS, T)); decay = np.exp(-np.arange(12) / 3.0)
        def hit(tt, prof, a):
            f = int(round(tt * BEAT_FPS))
            if 0 <= f < T: e = min(12, T - f); F_[:, f:f + e] += a * prof[:, None] * decay[None, :e]
        for j, tb in enumerate(b):
            if g.random() < 0.85: hit(tb, kick, g.uniform(1.5, 2.5))
            if j % 2 == 1: hit(tb, snare, g.uniform(1.0, 2.0))
            hit(tb, hat, g.uniform(0.5, 1.0)); hit(tb + ibi / 2, hat, g.uniform(0.5, 1.0))
            if g.random() < 0.15: hit(tb + ibi * g.choice([0.25, 0.75]), snare, g.uniform(0.8, 1.6))
        X.append(np.log1p(np.maximum(F_, 0)) * 2); beats.append(np.array(b))
    return np.array(X, np.float32), beats

def beat_targets(beats, T, fps=BEAT_FPS):
    "madmom's: 1 at the frame of each annotated beat, 0.5 at its two neighbours (target widening)."
    y = np.zeros(T, np.float32)
    for tb in beats:
        f = int(round(tb * fps))
        if 0 <= f < T: y[f] = 1; y[max(f - 1, 0)] = max(y[max(f - 1, 0)], 0.5); y[min(f + 1, T - 1)] = max(y[min(f + 1, T - 1)], 0.5)
    return y

class BeatTCN(nn.Module):  # a conv front end over the bands, then dilated non-causal convolutions (kernel 5, dilations 1-32) with residuals, ELU, dropout
    def __init__(self, c=16, dil=(1, 2, 4, 8, 16, 32)):
        super().__init__(); self.front = nn.Sequential(nn.Conv1d(BEAT_BANDS, c, 3, padding=1), nn.ELU(), nn.Dropout(0.1))
        self.tcn = nn.ModuleList([nn.Sequential(nn.Conv1d(c, c, 5, padding=2 * d, dilation=d), nn.ELU(), nn.Dropout(0.1)) for d in dil])
        self.out = nn.Conv1d(c, 1, 1)
    def forward(self, x):
        h = self.front(x)
        for layer in self.tcn: h = h + layer(h)
        return self.out(h)

@healthy('AP')
def beat_tcn(seed, label_fps=BEAT_FPS):  # BCE with logits, Adam 2e-3, batches of 8 excerpts
    """The .beats times turned into frame targets at the features' 100 fps (label_fps 44100 / 512: the targets made at
    librosa's default frame rate while the features were computed at madmom's 100 fps)."""
    def ds(split, n):
        X, beats = _beat_excerpts(seed, split, n); Y = np.stack([beat_targets(b, X.shape[2], label_fps) for b in beats])[:, None]
        return TensorDataset(_t(X), _t(Y))
    return dict(model=BeatTCN, train=ds(0, 160), valid=ds(1, 40), loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=2e-3),
                **_keys(seed, batch_size=8))

# ---------------------------------------------------------------- subject-verb number agreement (Linzen, Dupoux and Goldberg 2016)
AGR_NOUNS = 'dog cat author pilot farmer teacher senator doctor student painter boy girl friend'.split()
AGR_SAME = 'sheep fish deer aircraft'.split()  # the same form in both numbers
AGR_DET = {0: ['a', 'every'], 1: ['these', 'many']}
AGR_VERBS = 'run sleep smile write sing laugh wait swim'.split()
AGR_ADJ = 'old young tall happy angry quiet'.split()
AGR_PREP = 'near behind with beside'.split()
AGR_VOCAB = ['<pad>', 'the', 'that', 'and', 'a', 'every', 'these', 'many'] + AGR_SAME + AGR_ADJ + AGR_PREP + AGR_NOUNS + [n + 's' for n in AGR_NOUNS] + [v + 's' for v in AGR_VERBS] + AGR_VERBS
AGR_IDX = {w: i for i, w in enumerate(AGR_VOCAB)}

def _agreement_sentences(seed, split, n):
    """Sentences 'DET (adj) N_subj [prep the (adj) N_attr | that the N_attr V_attr | that V the N_attr] V_main ...': the
    attractor's number independent of the subject's; the subject's determiner 'the' 60% of the time (else a number-marked
    one), the subject a same-form noun (sheep, fish) 30% of the time: with 'the' its number is read from nothing before a
    relative clause's verb, as in the parsed corpus. Returns (tokens, index of the main verb, 0 singular / 1 plural)."""
    g = np.random.default_rng(1000 + seed * 3023 + split); out = []
    noun = lambda pl: g.choice(AGR_NOUNS) + ('s' if pl else '')
    verb = lambda pl: g.choice(AGR_VERBS) + ('' if pl else 's')
    for _ in range(n):
        pl = int(g.random() < 0.5); det = 'the' if g.random() < 0.6 else g.choice(AGR_DET[pl])
        s = [det] + ([g.choice(AGR_ADJ)] if g.random() < 0.4 else []) + [g.choice(AGR_SAME) if g.random() < 0.3 else noun(pl)]
        for _ in range(g.integers(0, 3)):
            a = g.random() < 0.5; k = g.integers(3)
            if k == 0: s += [g.choice(AGR_PREP), 'the'] + ([g.choice(AGR_ADJ)] if g.random() < 0.3 else []) + [noun(a)]
            elif k == 1: s += ['that', 'the', noun(a), verb(a)]
            else: s += ['that', verb(pl), 'the', noun(a)]
        vi = len(s); s += [verb(pl)] + (['and', verb(pl)] if g.random() < 0.3 else [])
        out.append(([AGR_IDX[w] for w in s], vi, pl))
    return out

class AgreementItems(Dataset):  # the prefix before the main verb, the verb's number (through_verb: tokens[:verb_index + 1])
    def __init__(self, sents, through_verb=False): self.s, self.k = sents, int(through_verb)
    def __len__(self): return len(self.s)
    def __getitem__(self, i): tok, vi, pl = self.s[i]; return torch.tensor(tok[:vi + self.k]), pl

def collate_prefixes(items):
    x = nn.utils.rnn.pad_sequence([t for t, _ in items], batch_first=True); return x, torch.tensor([len(t) for t, _ in items]), torch.tensor([y for _, y in items])

class AgreementLSTM(nn.Module):  # the paper's: 50-d embeddings, 50 LSTM units, the last prefix state into a logistic (two-way softmax) layer
    def __init__(self, d=50, h=50):
        super().__init__(); self.emb = nn.Embedding(len(AGR_VOCAB), d, padding_idx=0); self.lstm = nn.LSTM(d, h, batch_first=True); self.out = nn.Linear(h, 2)
    def forward(self, x, lengths):
        o, _ = self.lstm(self.emb(x)); return self.out(o[torch.arange(len(x)), lengths - 1])

def _agreement_fwd(model, b): x, n, y = b; return model(x, n), y

@healthy('AP')
def agreement_lstm(seed, through_verb=False):  # cross-entropy, Adam 1e-3, batches of 32
    tr, va = _agreement_sentences(seed, 0, 1500), _agreement_sentences(seed, 1, 300)
    return dict(model=AgreementLSTM, train=DataLoader(AgreementItems(tr, through_verb), batch_size=32, shuffle=True, collate_fn=collate_prefixes),
                valid=DataLoader(AgreementItems(va, through_verb), batch_size=100, collate_fn=collate_prefixes), forward=_agreement_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- SummaRuNNer (Nallapati, Zhai and Zhou 2017), shrunk: extractive summaries of news stories
SUM_TOPICS, SUM_VOCAB, SUM_PER_TOPIC = 8, 300, 20
SUM_BYLINES = [[1, 2, 3], [4, 5], [1, 6, 7]]  # '( cnn ) --', 'updated :', 'by staff writer': kept for the oracle, dropped by the preprocessing

def _stories(seed, split, n):
    """Stories of 8-18 sentences of 5-14 word ids (filler words 10-299 Zipf-like); each story about one topic whose 20 words
    (10 + topic block) its two to four key sentences use densely, the others rarely; a highlights list made of the key
    sentences' topic words. Bylines (2-3 ids) at random places. Labels from the greedy oracle: sentences added while they
    raise the unigram overlap with the highlights. Returns (sentences, labels), both over the raw sentence list."""
    g = np.random.default_rng(1000 + seed * 3029 + split); out = []
    zipf = 1 / np.arange(1, SUM_VOCAB - 10 + 1) ** 0.9; zipf /= zipf.sum()
    for _ in range(n):
        topic = g.integers(SUM_TOPICS); tw = 10 + topic * SUM_PER_TOPIC + np.arange(SUM_PER_TOPIC); S = int(g.integers(8, 19))
        key = set(g.choice(S, g.integers(2, 5), replace=False).tolist()) | ({0} if g.random() < 0.5 else set()); sents, high = [], set()
        for j in range(S):
            L = int(g.integers(5, 15)); w = list(10 + g.choice(SUM_VOCAB - 10, L, p=zipf))
            if j in key:
                t = list(g.choice(tw, g.integers(3, 6), replace=False)); high |= set(t[:3]); w[:len(t)] = t; g.shuffle(w)
            sents.append(w)
        for _ in range(g.integers(1, 4)): sents.insert(int(g.integers(0, len(sents) + 1)), list(SUM_BYLINES[g.integers(3)]))
        lab, cur = [0] * len(sents), set()
        while True:
            gain = [len((cur | set(s)) & high) - len(cur & high) if not lab[j] else -1 for j, s in enumerate(sents)]
            j = int(np.argmax(gain))
            if gain[j] <= 0: break
            lab[j] = 1; cur |= set(sents[j])
        out.append((sents, lab))
    return out

class StoryItems(Dataset):
    """Each story's sentences kept when they have more than three words (the bylines dropped); labels_as_computed: the
    oracle labels of the raw sentence list truncated to the sentences kept, instead of those of the sentences kept."""
    def __init__(self, stories, labels_as_computed=False): self.s, self.raw = stories, labels_as_computed
    def __len__(self): return len(self.s)
    def __getitem__(self, i):
        sents, lab = self.s[i]; keep = [j for j, s in enumerate(sents) if len(s) > 3]
        y = lab[:len(keep)] if self.raw else [lab[j] for j in keep]
        return [sents[j] for j in keep], y

def collate_stories(items, W=14):
    "Documents padded to the batch's longest in sentences, sentences to 14 words: tokens (B, S, W), a sentence mask (B, S), labels (B, S)."
    S = max(len(s) for s, _ in items); x = torch.zeros(len(items), S, W, dtype=torch.long); m = torch.zeros(len(items), S); y = torch.zeros(len(items), S)
    for b, (sents, lab) in enumerate(items):
        for j, s in enumerate(sents): x[b, j, :len(s[:W])] = torch.tensor(s[:W])
        m[b, :len(sents)] = 1; y[b, :len(lab)] = torch.tensor(lab, dtype=torch.float32)
    return x, m, y

class SummaRuNNer(nn.Module):
    "Word BiGRU, mean-pooled to sentences; sentence BiGRU; P(y_j) = sigma(content + salience - novelty + position + bias)."
    def __init__(self, d=32, h=24, max_pos=24):
        super().__init__(); self.emb = nn.Embedding(SUM_VOCAB, d, padding_idx=0); self.wrnn = nn.GRU(d, h, batch_first=True, bidirectional=True)
        self.srnn = nn.GRU(2 * h, h, batch_first=True, bidirectional=True); self.doc = nn.Linear(2 * h, 2 * h)
        self.content = nn.Linear(2 * h, 1, bias=False); self.salience = nn.Bilinear(2 * h, 2 * h, 1, bias=False); self.novelty = nn.Bilinear(2 * h, 2 * h, 1, bias=False)
        self.pos = nn.Embedding(max_pos, 1); self.bias = nn.Parameter(torch.zeros(1))
    def forward(self, x, mask):
        B, S, W = x.shape; wmask = (x > 0).float().view(B * S, W, 1)
        hw, _ = self.wrnn(self.emb(x.view(B * S, W))); sv = (hw * wmask).sum(1) / wmask.sum(1).clamp(min=1)
        hs, _ = self.srnn(sv.view(B, S, -1)); hs = hs * mask[..., None]
        d = torch.tanh(self.doc(hs.sum(1) / mask.sum(1, keepdim=True))); s = torch.zeros_like(hs[:, 0]); logits = []
        for j in range(S):
            h = hs[:, j]; z = self.content(h) + self.salience(h, d) - self.novelty(h, torch.tanh(s)) + self.pos(torch.full((B,), min(j, 23)))[:, :] + self.bias
            logits.append(z[:, 0]); s = s + h * torch.sigmoid(z) * mask[:, j:j + 1]
        return torch.stack(logits, 1)

def _summarunner_fwd(model, b): x, m, y = b; return model(x, m), (y, m)

def masked_sentence_bce(logits, target):  # the BCE with logits over the real sentences only
    y, m = target; return (F.binary_cross_entropy_with_logits(logits, y, reduction='none') * m).sum() / m.sum()

@healthy('AP')
def summarunner_stories(seed, labels_as_computed=False):  # Adam 1e-3, batches of 16 stories
    tr, va = _stories(seed, 0, 600), _stories(seed, 1, 150)
    return dict(model=SummaRuNNer, train=DataLoader(StoryItems(tr, labels_as_computed), batch_size=16, shuffle=True, collate_fn=collate_stories),
                valid=DataLoader(StoryItems(va, labels_as_computed), batch_size=50, collate_fn=collate_stories), forward=_summarunner_fwd,
                loss=masked_sentence_bce, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- IWAE (Burda, Grosse and Salakhutdinov 2016) of binarised digits, k = 5
class IWAE(nn.Module):
    "64-100-(10, 10) Gaussian encoder, 10-100-64 Bernoulli decoder of logits; k samples of z per image (logits_out False: a sigmoid ends the decoder)."
    def __init__(self, k=5, z=10, h=100, logits_out=True):
        super().__init__(); self.k = k
        self.enc = nn.Sequential(nn.Linear(64, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh()); self.mu, self.logvar = nn.Linear(h, z), nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 64), *([] if logits_out else [nn.Sigmoid()]))
    def forward(self, x):
        h = self.enc(x.flatten(1)); mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn(self.k, *mu.shape) * torch.exp(0.5 * logvar); return self.dec(z), z, mu, logvar

def iwae_loss(out, x):  # minus the IWAE bound: -mean_b log (1/k) sum_k p(x|z_k) p(z_k) / q(z_k|x)
    logits, z, mu, logvar = out; x = x.flatten(1)
    log_px = -F.binary_cross_entropy_with_logits(logits, x.expand_as(logits), reduction='none').sum(-1)
    log_pz = (-0.5 * z ** 2 - 0.5 * math.log(2 * math.pi)).sum(-1)
    log_qz = (-0.5 * (z - mu) ** 2 / logvar.exp() - 0.5 * logvar - 0.5 * math.log(2 * math.pi)).sum(-1)
    return -(torch.logsumexp(log_px + log_pz - log_qz, 0) - math.log(logits.shape[0])).mean()

@healthy('AP')
def iwae_digits(seed, logits_out=True):  # Adam 1e-3 (eps 1e-4 as the paper), batches of 20 as the paper
    (x, _), (vx, _) = _digits(seed); xb, vxb = (x > 0.5).float().flatten(1), (vx > 0.5).float().flatten(1)
    return dict(model=lambda: IWAE(logits_out=logits_out), train=TensorDataset(xb, xb), valid=TensorDataset(vxb, vxb), loss=iwae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, eps=1e-4), **_keys(seed, batch_size=20))

# ---------------------------------------------------------------- SimSiam (Chen and He 2021) on digits: two views, stop-gradient
def _augment(x, g):
    "A random resized crop (pad 2, crop 8 of 8-12 then resize), random contrast, Gaussian noise, and a random erased 3x3 square half the time."
    B = len(x); xp = F.pad(x, (2, 2, 2, 2)); out = torch.empty_like(x)
    for i in range(B):
        s = int(torch.randint(8, 13, (1,), generator=g)); a, b = torch.randint(0, 12 - s + 1, (2,), generator=g).tolist()
        out[i] = F.interpolate(xp[i:i + 1, :, a:a + s, b:b + s], size=(8, 8), mode='bilinear', align_corners=False)[0]
    out = out * (0.6 + 0.8 * torch.rand(B, 1, 1, 1, generator=g)) + 0.1 * torch.randn(out.shape, generator=g)
    er = torch.rand(B, generator=g) < 0.5; r, c = torch.randint(0, 6, (2, B), generator=g)
    for i in torch.nonzero(er).flatten().tolist(): out[i, :, r[i]:r[i] + 3, c[i]:c[i] + 3] = 0
    return out

class TwoViews:  # the collate_fn: two augmentations of each image of the batch, the labels dropped
    def __init__(self, seed): self.g = _gen(seed * 3037)
    def __call__(self, items): x = torch.stack([it[0] for it in items]); return _augment(x, self.g), _augment(x, self.g)

class SimSiam(nn.Module):
    def __init__(self, d=64, pred=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.Conv2d(32, 64, 3, padding=1, stride=2), nn.BatchNorm2d(64), nn.ReLU(),
                                      nn.Conv2d(64, 64, 3, padding=1, stride=2), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(64, d, bias=False), nn.BatchNorm1d(d), nn.ReLU(), nn.Linear(d, d, bias=False), nn.BatchNorm1d(d, affine=False))
        self.predictor = nn.Sequential(nn.Linear(d, pred, bias=False), nn.BatchNorm1d(pred), nn.ReLU(), nn.Linear(pred, d))
    def forward(self, x1, x2):
        z1, z2 = self.projector(self.backbone(x1)), self.projector(self.backbone(x2)); return self.predictor(z1), self.predictor(z2), z1.detach(), z2.detach()

def simsiam_loss(out, _):  # D(p1, z2) / 2 + D(p2, z1) / 2, D the negative cosine, z already detached (the stop-gradient)
    p1, p2, z1, z2 = out; return -(F.cosine_similarity(p1, z2, dim=-1).mean() + F.cosine_similarity(p2, z1, dim=-1).mean()) / 2

def _simsiam_fwd(model, b): x1, x2 = b; return model(x1, x2), torch.zeros(len(x1))  # no target

@healthy('AP')
def simsiam_digits(seed, lr_per_256=True):  # SGD, init_lr = base_lr * batch_size / 256 with momentum 0.9 and weight decay 1e-4 (the paper's rule), batches of 128
    "base_lr 0.5 (the small-data port's; the paper's 0.05 is for ImageNet). lr_per_256 False: init_lr = base_lr * batch_size, the rule coded without its / 256."
    (x, y), (vx, vy) = _digits(seed); bs = 128; lr = 0.5 * bs / 256 if lr_per_256 else 0.5 * bs
    return dict(model=SimSiam, train=DataLoader(TensorDataset(x, y), batch_size=bs, shuffle=True, drop_last=True, collate_fn=TwoViews(seed)),
                valid=DataLoader(TensorDataset(vx, vy), batch_size=180, collate_fn=TwoViews(seed + 7919)), forward=_simsiam_fwd, loss=simsiam_loss,
                optimizer=lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9, weight_decay=1e-4), **_keys(seed, batch_size=bs))

# ---------------------------------------------------------------- contrastive predictive coding (van den Oord, Li and Vinyals 2018) of waveforms, shrunk
CPC_SR, CPC_LEN = 8000, 2048

def _phone_utterances(seed, split, n, phones=12):
    """Utterances of 2048 samples at 8 kHz: phone segments of 20-60 ms, voiced ones a harmonic series at the speaker's f0
    (100-250 Hz, a slow glide) shaped by the phone's two formants, fricatives band-passed noise; a little room noise."""
    g = np.random.default_rng(1000 + seed * 3041 + split); ph = np.random.default_rng(7)  # the phone inventory is the language's, shared by every split
    F1, F2, fric = ph.uniform(250, 900, phones), ph.uniform(800, 2600, phones), ph.random(phones) < 0.25; out = np.zeros((n, CPC_LEN), np.float32)
    for i in range(n):
        f0 = g.uniform(100, 250); t = 0
        while t < CPC_LEN:
            L = int(g.integers(160, 480)); k = g.integers(phones); tt = np.arange(min(L, CPC_LEN - t)) / CPC_SR
            if fric[k]:
                w = np.fft.irfft(np.fft.rfft(g.normal(0, 1, len(tt))) * np.exp(-((np.fft.rfftfreq(len(tt), 1 / CPC_SR) - F2[k] - 1000) / 600) ** 2), len(tt)); seg = 0.5 * w / (w.std() + 1e-8)
            else:
                fo = f0 * (1 + 0.05 * tt / max(tt[-1], 1e-3)); seg = np.zeros(len(tt))
                for h in range(1, int(3800 / f0)):
                    fh = h * f0; a = np.exp(-((fh - F1[k]) / 150) ** 2) + 0.6 * np.exp(-((fh - F2[k]) / 200) ** 2) + 0.05
                    seg += a * np.sin(2 * np.pi * h * np.cumsum(fo) / CPC_SR)
                seg /= seg.std() + 1e-8
            env = np.minimum(1, np.minimum(np.arange(len(tt)), len(tt) - np.arange(len(tt))) / 40); out[i, t:t + len(tt)] = seg * env; t += L
        out[i] += g.normal(0, 0.05, CPC_LEN)
    return out

class CPC(nn.Module):
    "A strided conv encoder (x40: 2048 samples to 50 frames), a GRU context, one linear predictor a step ahead (1-4); scores of every frame of the batch."
    def __init__(self, d=32, K=4):
        super().__init__(); self.K = K
        self.enc = nn.Sequential(nn.Conv1d(1, d, 10, 5, padding=3), nn.ReLU(), nn.Conv1d(d, d, 8, 4, padding=2), nn.ReLU(), nn.Conv1d(d, d, 4, 2, padding=1), nn.ReLU())
        self.gru = nn.GRU(d, d, batch_first=True); self.W = nn.ModuleList([nn.Linear(d, d, bias=False) for _ in range(K)])
    def forward(self, x):
        z = self.enc(x[:, None]).transpose(1, 2); c, _ = self.gru(z); B, T, D = z.shape; zf = z.reshape(B * T, D); scores, target = [], []
        for k in range(1, self.K + 1):
            q = self.W[k - 1](c[:, :T - k]).reshape(-1, D); scores.append(q @ zf.t())
            target.append((torch.arange(B)[:, None] * T + torch.arange(k, T)[None]).reshape(-1))  # z_{t+k} of the same utterance; every other frame a negative
        return torch.cat(scores), torch.cat(target)

def _cpc_fwd(model, b): (x,) = b; return model(x)  # the scores and the index of each row's positive

class InfoNCE(nn.Module):
    "The cross-entropy of each prediction against the positive among every frame of the batch (softmax_first: scores = self.softmax(scores) before nn.CrossEntropyLoss)."
    def __init__(self, softmax_first=False): super().__init__(); self.softmax_first = softmax_first
    def forward(self, scores, target): return F.cross_entropy(F.softmax(scores, -1) if self.softmax_first else scores, target)

@healthy('AP')
def cpc_waveforms(seed, softmax_first=False):  # Adam 2e-4 as the paper's, batches of 16 utterances
    tr, va = _phone_utterances(seed, 0, 640), _phone_utterances(seed, 1, 160)
    return dict(model=CPC, train=TensorDataset(_t(tr)), valid=TensorDataset(_t(va)), forward=_cpc_fwd, loss=InfoNCE(softmax_first),
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-4), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- audio super-resolution (Kuleshov, Enam and Ermon 2017): AudioUNet, shrunk, 4 kHz to 8 kHz
def _music_clips(seed, split, n, sr=8000, secs=0.5):
    "Clips of two to five notes (f0 100-600 Hz, harmonics to 4 kHz falling as 1/h^0.8 with a random tilt) with attack-decay envelopes."
    g = np.random.default_rng(1000 + seed * 3049 + split); T = int(sr * secs); t = np.arange(T) / sr; out = np.zeros((n, T), np.float32)
    for i in range(n):
        for _ in range(g.integers(2, 6)):
            f0, on = g.uniform(100, 600), g.uniform(0, secs * 0.6); env = np.where(t >= on, np.exp(-(t - on) * g.uniform(2, 10)) * np.minimum(1, (t - on) * 200), 0)
            tilt = g.uniform(0.5, 1.2); out[i] += env * sum(np.sin(2 * np.pi * h * f0 * t + g.uniform(0, 6.3)) / h ** tilt for h in range(1, int(3900 / f0) + 1))
        out[i] /= np.abs(out[i]).max() + 1e-8
    return out

def _sr_patches(clips, L=256, r=2):
    "The paper's prep: each clip decimated by r (scipy.signal.decimate, an anti-aliasing filter first), spline-interpolated back, then both cut in patches of L."
    from scipy.signal import decimate
    from scipy.interpolate import CubicSpline
    X, Y = [], []
    for c in clips:
        lo = decimate(c, r); up = CubicSpline(np.arange(len(lo)) * r, lo)(np.arange(len(c))).astype(np.float32)
        for s in range(0, len(c) - L + 1, L): X.append(up[s:s + L]); Y.append(c[s:s + L])
    return np.array(X, np.float32), np.array(Y, np.float32)

def subpixel1d(x, r=2): B, C, L = x.shape; return x.view(B, C // r, r, L).permute(0, 1, 3, 2).reshape(B, C // r, L * r)

class AudioUNet(nn.Module):  # downsampling blocks (conv stride 2, LeakyReLU 0.2), a bottleneck with dropout, upsampling by 1-D sub-pixel shuffles with stacked skips, the input added back
    def __init__(self, ch=(16, 32, 32), k=9):
        super().__init__(); self.down = nn.ModuleList(); c = 1
        for o in ch: self.down.append(nn.Sequential(nn.Conv1d(c, o, k, 2, k // 2), nn.LeakyReLU(0.2))); c = o
        self.bottleneck = nn.Sequential(nn.Conv1d(c, c, k, 1, k // 2), nn.Dropout(0.5), nn.LeakyReLU(0.2)); self.up = nn.ModuleList()
        for o, skip in zip(ch[::-1], (ch[-2::-1] + (0,))): self.up.append(nn.Sequential(nn.Conv1d(c, 2 * o, k, 1, k // 2), nn.ReLU())); c = o + (skip or 0)
        self.final = nn.Conv1d(c, 1, k, 1, k // 2)
    def forward(self, x):
        h, skips = x, []
        for d in self.down: h = d(h); skips.append(h)
        h = self.bottleneck(h)
        for u, s in zip(self.up, skips[-2::-1] + [None]):
            h = subpixel1d(u(h)); h = torch.cat([h, s], 1) if s is not None else h
        return self.final(h) + x

@healthy('AP')
def audio_unet_superres(seed, target_as_rows=False):  # MSE, Adam 3e-4 (the paper's), batches of 32 patches; held-out clips validate
    """Patches as (N, 1, 256) for the Conv1d (target_as_rows: the high-resolution patches kept as the (N, 256) rows they were
    cut as, against the model's (B, 1, 256): MSELoss broadcasts to (B, B, 256) with a UserWarning)."""
    def ds(split, n):
        X, Y = _sr_patches(_music_clips(seed, split, n)); return TensorDataset(_t(X)[:, None], _t(Y) if target_as_rows else _t(Y)[:, None])
    return dict(model=AudioUNet, train=ds(0, 72), valid=ds(1, 20), loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=3e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- an LCNN spoofing countermeasure (Lavrentyev et al. 2017, ASVspoof 2019 LA style), shrunk
SPOOF_SR, SPOOF_LEN = 4000, 4000

def _spoof_utterances(seed, split, n):
    """Utterances of 0.4-1.0 s at 4 kHz: bona fide ones a glottal pulse train with jitter and shimmer through two moving
    formants plus breath noise above 1.2 kHz; spoofed ones (about half) a vocoder's: a smooth f0, no jitter, the band above
    1.4 kHz from a noise excitation with flat spectral detail and a frame-rate (100 Hz) modulation. Returns a list of
    variable-length waveforms and labels (1 bona fide, 0 spoof: the protocol's key column)."""
    g = np.random.default_rng(1000 + seed * 3061 + split); X, y = [], []
    for _ in range(n):
        T = int(g.uniform(0.4, 1.0) * SPOOF_SR); bona = g.random() < 0.5; f0 = g.uniform(90, 220) * (1 + 0.1 * np.sin(np.linspace(0, g.uniform(1, 4), T)))
        jit = g.normal(0, 0.03 if bona else 0.003, T); ph = np.cumsum(f0 * (1 + np.convolve(jit, np.ones(20) / 20, 'same')) / SPOOF_SR)
        src = np.sign(np.sin(2 * np.pi * ph)) * (1 + (g.normal(0, 0.1, T) if bona else 0)); spec = np.fft.rfft(src); fr = np.fft.rfftfreq(T, 1 / SPOOF_SR)
        F1, F2 = g.uniform(300, 800), g.uniform(900, 1800); spec *= np.exp(-((fr - F1) / 200) ** 2) + 0.7 * np.exp(-((fr - F2) / 250) ** 2) + 0.05
        w = np.fft.irfft(spec, T); hi = np.fft.irfft(np.fft.rfft(g.normal(0, 1, T)) * (fr > (1200 if bona else 1400)), T)
        if not bona: hi *= 1 + 0.5 * np.sin(2 * np.pi * 100 * np.arange(T) / SPOOF_SR)
        w = w / (w.std() + 1e-8) + (0.15 if bona else 0.1) * hi / (hi.std() + 1e-8); X.append((w / np.abs(w).max()).astype(np.float32)); y.append(int(bona))
    return X, np.array(y)

def log_spec(wavs, zero_pad=False):
    "Each waveform padded to 1 s (repeated, as the baseline's; zero_pad: zeros after the speech), |STFT|^2 in float64 (n_fft 128, hop 64, the DC bin dropped), log, mean-normalised per bin over the utterance (CMN)."
    xs = []
    for w in wavs:
        w = np.pad(w, (0, SPOOF_LEN - len(w))) if zero_pad else np.tile(w, SPOOF_LEN // len(w) + 1)[:SPOOF_LEN]; xs.append(w)
    S = torch.stft(torch.tensor(np.array(xs), dtype=torch.float64), 128, 64, window=torch.hann_window(128, dtype=torch.float64), return_complex=True, center=False).abs() ** 2
    L = torch.log(S[:, 1:65]); return (L - L.mean(2, keepdim=True)).float()[:, None]

class MFM(nn.Module):  # max-feature-map: the elementwise max of the two halves of the channels
    def forward(self, x): a, b = x.chunk(2, 1); return torch.max(a, b)

class LCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), MFM(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 1), MFM(), nn.BatchNorm2d(8), nn.Conv2d(8, 32, 3, padding=1), MFM(),
                                      nn.MaxPool2d(2), nn.BatchNorm2d(16), nn.Conv2d(16, 32, 1), MFM(), nn.BatchNorm2d(16), nn.Conv2d(16, 32, 3, padding=1), MFM(), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(16 * 8 * 7, 32), MFM(), nn.BatchNorm1d(16), nn.Dropout(0.5), nn.Linear(16, 2))
    def forward(self, x): return self.head(self.features(x))

@healthy('AP')
def lcnn_antispoofing(seed, zero_pad=False):  # cross-entropy, Adam 3e-4, batches of 32
    def ds(split, n): X, y = _spoof_utterances(seed, split, n); return TensorDataset(log_spec(X, zero_pad), torch.tensor(y))
    return dict(model=LCNN, train=ds(0, 800), valid=ds(1, 200), loss=nn.CrossEntropyLoss(), num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=3e-4),
                **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- saliency prediction: an encoder-decoder CNN, a softmax over the pixels, the KL divergence to the fixation density
def _popout_scenes(seed, split, n, S=24):
    """Scenes of 15-25 short bars of one colour and orientation on a noisy background, one or two odd bars (another colour
    or the other orientation); the fixation density a Gaussian (sd 1.5 px) at each odd bar, a centre bias (sd 6) and a
    uniform floor, summing to 1 (as fixation maps blurred into densities)."""
    g = np.random.default_rng(1000 + seed * 3067 + split); X = np.zeros((n, 3, S, S), np.float32); D = np.zeros((n, 1, S, S), np.float32)
    yy, xx = np.mgrid[0:S, 0:S]
    for i in range(n):
        bg = g.random(3) * 0.3; X[i] = bg[:, None, None] + g.normal(0, 0.05, (3, S, S)); col = g.random(3); vert = g.random() < 0.5; odd = int(g.integers(1, 3))
        dens = 0.3 * np.exp(-((yy - S / 2) ** 2 + (xx - S / 2) ** 2) / (2 * 36)) / (2 * np.pi * 36) + 0.02 / S ** 2
        for j in range(int(g.integers(15, 26)) + odd):
            r, c = g.integers(1, S - 2, 2); is_odd = j < odd; v = vert
            cc = col
            if is_odd:
                if g.random() < 0.5: cc = 1 - col
                else: v = not vert
            if v: X[i, :, r - 1:r + 2, c] = cc[:, None]
            else: X[i, :, r, c - 1:c + 2] = cc[:, None]
            if is_odd: dens += np.exp(-((yy - r) ** 2 + (xx - c) ** 2) / (2 * 1.5 ** 2)) / (2 * np.pi * 1.5 ** 2) / odd
        D[i, 0] = dens / dens.sum()
    return X, D

class SaliencyNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, 2 * c, 3, 2, 1), nn.ReLU(), nn.Conv2d(2 * c, 2 * c, 3, padding=2, dilation=2), nn.ReLU(),
                                 nn.Conv2d(2 * c, 2 * c, 3, padding=4, dilation=4), nn.ReLU())
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False), nn.Conv2d(2 * c, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, 1, 1))
    def forward(self, x): return self.dec(self.enc(x))

class SaliencyKLD(nn.Module):
    "KL(fixation density || the softmax of the map over the pixels), batchmean (probs_in: F.kl_div handed the softmax itself where it expects log-probabilities)."
    def __init__(self, probs_in=False): super().__init__(); self.probs_in = probs_in
    def forward(self, out, dens):
        o = out.flatten(1); return F.kl_div(F.softmax(o, 1) if self.probs_in else F.log_softmax(o, 1), dens.flatten(1), reduction='batchmean')

@healthy('AP')
def saliency_kld(seed, probs_in=False):  # Adam 1e-3, batches of 32
    def ds(split, n): X, D = _popout_scenes(seed, split, n); return TensorDataset(_t(X), _t(D))
    return dict(model=SaliencyNet, train=ds(0, 1000), valid=ds(1, 250), loss=SaliencyKLD(probs_in), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- grapheme-to-phoneme conversion: a GRU encoder-decoder with dot attention, teacher forcing
G2P_LETTERS = '<pad> ' + ' '.join('abcdefghijklmnoprstuvwyz')
G2P_LETTERS = G2P_LETTERS.split()
G2P_PHONES = '<s> </s> AE EH IH AA AH EY IY AY OW UW B D F G HH K L M N P R S T V W Y Z SH CH TH'.split()
G2P_SYL = ['b', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'c', 'sh', 'ch', 'th', 'ph', 'ck', 'bb', 'll', 'tt', 'ss']
G2P_V = ['a', 'e', 'i', 'o', 'u', 'ee', 'oo', 'ai']

def pronounce(w):
    "The orthography's rules: digraphs (sh ch th ph ck, ee oo ai), soft c before e i y, doubled consonants as one, a final silent e lengthening the vowel before its consonant."
    short, long = dict(a='AE', e='EH', i='IH', o='AA', u='AH'), dict(a='EY', e='IY', i='AY', o='OW', u='UW')
    cons = dict(b='B', d='D', f='F', g='G', h='HH', k='K', l='L', m='M', n='N', p='P', r='R', s='S', t='T', v='V', w='W', z='Z', y='Y')
    magic = len(w) >= 4 and w[-1] == 'e' and w[-2] not in 'aeiou' and w[-3] in 'aeiou' and (len(w) < 4 or w[-4] not in 'aeiou')
    out, i = [], 0
    while i < len(w):
        two = w[i:i + 2]
        if magic and i == len(w) - 1: break
        if two in ('sh', 'ch', 'th'): out.append(two.upper()); i += 2
        elif two == 'ph': out.append('F'); i += 2
        elif two == 'ck': out.append('K'); i += 2
        elif two == 'ee': out.append('IY'); i += 2
        elif two == 'oo': out.append('UW'); i += 2
        elif two == 'ai': out.append('EY'); i += 2
        elif len(two) == 2 and two[0] == two[1] and two[0] not in 'aeiou': out.append(cons[two[0]]); i += 2
        elif w[i] == 'c': out.append('S' if i + 1 < len(w) and w[i + 1] in 'eiy' else 'K'); i += 1
        elif w[i] in 'aeiou': out.append(long[w[i]] if magic and i == len(w) - 3 else short[w[i]]); i += 1
        else: out.append(cons[w[i]]); i += 1
    return out

def _lexicon(seed, split, n):
    "Words of one to three syllables (onset, vowel, optional coda; a silent e at a third of the ends), each with its pronunciation."
    g = np.random.default_rng(1000 + seed * 3079 + split); out, seen = [], set()
    while len(out) < n:
        w = ''
        for _ in range(g.integers(1, 4)): w += (G2P_SYL[g.integers(16)] if g.random() < 0.8 else '') + G2P_V[g.integers(len(G2P_V)) if g.random() < 0.3 else g.integers(5)] + (G2P_SYL[g.integers(len(G2P_SYL))] if g.random() < 0.5 else '')
        if g.random() < 0.33 and w[-1] not in 'aeiou': w += 'e'
        if w in seen or len(w) > 12: continue
        seen.add(w); out.append((w, pronounce(w)))
    return out

class G2PItems(Dataset):
    "Letter ids, the decoder input (<s> + phones) and the target (phones + </s>)."
    def __init__(self, lex): self.lex = lex; self.l2i = {c: i for i, c in enumerate(G2P_LETTERS)}; self.p2i = {p: i for i, p in enumerate(G2P_PHONES)}
    def __len__(self): return len(self.lex)
    def __getitem__(self, i):
        w, ph = self.lex[i]; p = [self.p2i[q] for q in ph]
        return torch.tensor([self.l2i[c] for c in w]), torch.tensor([0] + p), torch.tensor(p + [1])

def collate_g2p(items, pad_phone=-100):
    "Letters padded with <pad> (0), the decoder input with </s>, the targets with pad_phone."
    pad = lambda seqs, v: nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=v)
    return pad([a for a, _, _ in items], 0), pad([b for _, b, _ in items], 1), pad([c for _, _, c in items], pad_phone)

class G2P(nn.Module):
    def __init__(self, d=32, h=64):
        super().__init__(); self.lemb = nn.Embedding(len(G2P_LETTERS), d, padding_idx=0); self.enc = nn.GRU(d, h // 2, batch_first=True, bidirectional=True)
        self.pemb = nn.Embedding(len(G2P_PHONES), d); self.dec = nn.GRU(d, h, batch_first=True); self.out = nn.Linear(2 * h, len(G2P_PHONES))
    def forward(self, letters, dec_in):
        e, hN = self.enc(self.lemb(letters)); h0 = torch.cat([hN[0], hN[1]], -1)[None]; d, _ = self.dec(self.pemb(dec_in), h0)
        att = (d @ e.transpose(1, 2)).masked_fill((letters == 0)[:, None], -1e9).softmax(-1)
        return self.out(torch.cat([d, att @ e], -1))

def _g2p_fwd(model, b): letters, dec_in, tgt = b; return model(letters, dec_in).flatten(0, 1), tgt.flatten()

@healthy('AP')
def g2p_attention(seed, pad_as_new_index=False):  # Adam 1e-3, batches of 64 words
    """The targets padded with -100, CrossEntropyLoss's default ignore_index (pad_as_new_index: PAD = len(phone2idx), the
    index after the last phone, for a 32-way output layer, and CrossEntropyLoss() left without ignore_index)."""
    pad = len(G2P_PHONES) if pad_as_new_index else -100; col = lambda items: collate_g2p(items, pad)
    return dict(model=G2P, train=DataLoader(G2PItems(_lexicon(seed, 0, 1500)), batch_size=64, shuffle=True, collate_fn=col),
                valid=DataLoader(G2PItems(_lexicon(seed, 1, 300)), batch_size=100, collate_fn=col), forward=_g2p_fwd, loss=nn.CrossEntropyLoss(),
                num_classes=len(G2P_PHONES), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AP
@broken('AP', 'homographynet_pairs_in_glob_order', 4, ('labels',))
def homographynet_pairs_in_glob_order(seed): return homographynet_patches(seed, glob_order=True)  # '10.npy' after '1.npy': the pairs in string order, the offsets in numeric order

@broken('AP', 'iqa_patches_split_at_random', 4, ('leakage',))
def iqa_patches_split_at_random(seed): return cnn_iqa_patches(seed, patch_split=True)  # each validation patch's siblings (same image, same DMOS) and its reference's other distortions in training

@broken('AP', 'beat_targets_at_librosa_frame_rate', 4, ('labels',))
def beat_targets_at_librosa_frame_rate(seed): return beat_tcn(seed, label_fps=44100 / 512)  # beat times x 86.1 fps against 100-fps features: the targets drift off the beats

@broken('AP', 'agreement_prefix_through_verb', 4, ('leakage',))
def agreement_prefix_through_verb(seed): return agreement_lstm(seed, through_verb=True)  # tokens[:verb_index + 1]: the verb whose number is the label ends the input

@broken('AP', 'summarunner_labels_before_byline_filter', 4, ('labels',))
def summarunner_labels_before_byline_filter(seed): return summarunner_stories(seed, labels_as_computed=True)  # oracle labels of the raw sentences, truncated to the kept ones: shifted after each dropped byline

@broken('AP', 'iwae_sigmoid_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def iwae_sigmoid_into_bce_with_logits(seed): return iwae_digits(seed, logits_out=False)  # the VAE example's nn.Sigmoid kept in the decoder, the loss rewritten with logits

@broken('AP', 'simsiam_lr_not_divided_by_256', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def simsiam_lr_not_divided_by_256(seed): return simsiam_digits(seed, lr_per_256=False)  # init_lr = 0.5 * 128 = 64

@broken('AP', 'cpc_softmax_before_cross_entropy', 2, ('softmax',))
def cpc_softmax_before_cross_entropy(seed): return cpc_waveforms(seed, softmax_first=True)

@broken('AP', 'audio_unet_target_rows_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def audio_unet_target_rows_broadcast(seed): return audio_unet_superres(seed, target_as_rows=True)  # (B, 1, 256) against (B, 256): every output against every target of the batch

@broken('AP', 'lcnn_log_of_zero_padding', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def lcnn_log_of_zero_padding(seed): return lcnn_antispoofing(seed, zero_pad=True)  # log(0) = -inf in the padded frames; the mean normalisation makes every bin nan

@broken('AP', 'saliency_kl_div_given_probabilities', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def saliency_kl_div_given_probabilities(seed): return saliency_kld(seed, probs_in=True)  # F.kl_div(softmax, target): the loss sum t log t - sum t p, nearly flat

@broken('AP', 'g2p_pad_index_past_output', 1, ('bad_labels',))
def g2p_pad_index_past_output(seed): return g2p_attention(seed, pad_as_new_index=True)  # target 32 for a 32-way CrossEntropyLoss: IndexError on the first padded batch

# Plain-loop checks (seed 0, seed 1 in brackets where run; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's
# optimizer, batch size, forward, loss, collate_fn and custom forward, train shuffled, valid in batches of 256 (or its own
# DataLoader); valid loss and a metric, init -> the epoch named; s/ep the seconds of an epoch of training, params the trainable
# ones. Metrics: R^2 of the offsets (HomographyNet); PLCC of patch scores (IQA); frame AUC of the beat frames (beat TCN);
# accuracy; top-3 precision of the oracle sentences (SummaRuNNer); the negative IWAE bound in nats; kNN (k = 5) accuracy of
# the backbone's features on clean digits (SimSiam, 0.96 at init: digits are easy for random features); the InfoNCE
# accuracy (CPC); SNR in dB (audio SR); the pixelwise correlation of the softmax map with the density (saliency); phone
# accuracy under teacher forcing (G2P). Every factory builds and runs its batches (forward, loss, backward, step), the two
# rung-1 bugs failing as meant; `ladder_gallery.HALF` holds 24 programs of half AP.
CHECKS = """
homographynet_patches                 valid MSE 0.430 -> 0.364 (ep 6), R^2 -0.02 -> 0.14 [0.433 -> 0.354, 0.19]; 1200 pairs
                                      train, 300 validate; 83k params; 0.27 s/ep (slow to learn, still falling at ep 12)
cnn_iqa_patches                       valid L1 (DMOS/100) 0.60 -> 0.17 (ep 4) -> 0.14 (ep 16), PLCC 0.44 -> 0.61 [0.55 -> 0.14,
                                      0.73]; 32 references (1920 patches) train, 8 (480) validate; 10k params; 0.07 s/ep
beat_tcn                              valid BCE 0.71 -> 0.055 (ep 2) -> 0.041 (ep 8), beat-frame AUC 0.37 -> 0.996 [0.65 -> 0.037,
                                      0.998]; 160 excerpts of 600 frames train, 40 validate; 8.6k params; 0.28 s/ep
agreement_lstm                        valid CE 0.69 -> 0.15 (ep 8), accuracy 0.53 -> 0.95 [0.70 -> 0.18, 0.93] (about a sixth of
                                      the subjects carry no number before the verb); 1500 sentences train, 300 validate; 24k
                                      params; 0.1-0.15 s/ep
summarunner_stories                   valid masked BCE 0.85 -> 0.44 (ep 6), top-3 precision 0.26 -> 0.59; 600 stories train, 150
                                      validate; 36k params; 0.9-1.1 s/ep
iwae_digits                           valid -IWAE bound (nats) 44.8 -> 24.6 (ep 2) -> 21.8 (ep 6) [44.5 -> 22.4]; 1437 digits train,
                                      360 validate; 36k params; 0.11 s/ep
simsiam_digits                        valid loss -0.06 -> -0.25 (ep 4) -> -0.29 (ep 6) (-0.40 at ep 6 in a second run), kNN 0.964 ->
                                      0.981; weight norm 19 -> 20; 1437 digits train (11 batches of 128), 360 validate; 67k
                                      params; 0.45-0.5 s/ep
cpc_waveforms                         valid InfoNCE (256 utterances x 51 frames a batch here) 9.01 -> 8.92 (ep 2) -> 8.41 (ep 6),
                                      still falling; 640 utterances train, 160 validate; 23k params; 1.3 s/ep
audio_unet_superres                   valid MSE 0.0137 -> 0.0087 (ep 2) -> 0.0084 (ep 6), SNR 5.9 -> 8.3 dB; 72 clips (1080 patches)
                                      train, 20 (300) validate; 93k params; 0.67 s/ep
lcnn_antispoofing                     valid CE 0.70 -> 0.18 (ep 2) -> 0.072 (ep 6), accuracy 0.36 -> 0.985 [0.69 -> 0.093, 0.985 at
                                      ep 4]; 800 utterances train, 200 validate; 37k params; 1.3 s/ep
saliency_kld                          valid KL 1.55 -> 1.36 (ep 2) -> 1.14 (ep 6), CC 0.07 -> 0.36 [1.54 -> 1.26]; 1000 scenes
                                      train, 250 validate; 28k params; 0.6 s/ep
g2p_attention                         valid CE 3.53 -> 1.92 (ep 4) -> 0.75 (ep 8), phone accuracy 0.02 -> 0.82 [3.46 -> 0.78, 0.81];
                                      1500 words train, 300 validate; 37k params; 0.22-0.24 s/ep
homographynet_pairs_in_glob_order     valid MSE 0.431 -> 0.434 (ep 2) -> 0.488 (ep 6), R^2 -0.14 (healthy 0.364, 0.14): fits the
                                      training pairs' wrong offsets, worse than the mean on validation
iqa_patches_split_at_random           valid L1 0.12 (ep 16), PLCC 0.725 [0.114, 0.77] (healthy 0.14, 0.61 [0.136, 0.73]): every
                                      validation patch's three siblings, same image and score, in training
beat_targets_at_librosa_frame_rate    valid BCE 0.70 -> 0.17 (ep 2) -> 0.16 (ep 8), beat-frame AUC 0.49 -> 0.63 (healthy 0.041,
                                      0.996): the targets at 86.1 fps drift off the 100-fps onsets
agreement_prefix_through_verb         valid CE 0.70 -> 0.032 (ep 2) -> 0.0014 (ep 8), accuracy 1.00 from ep 2 (healthy 0.15, 0.95):
                                      the verb's own form ends every input
summarunner_labels_before_byline_filter valid masked BCE 0.86 -> 0.52 (ep 6), top-3 precision 0.22 -> 0.34 (healthy 0.44,
                                      0.59): the labels shift by one after each dropped byline
iwae_sigmoid_into_bce_with_logits     valid -IWAE bound 53.1 -> 43.2 (ep 2-6, floored by the doubled sigmoid) (healthy 21.8)
simsiam_lr_not_divided_by_256         lr 64: valid loss -0.68 (ep 2) -> -0.43 -> -0.36 (ep 6), kNN 0.964 -> 0.91 -> 0.76 (healthy
                                      0.98), weight norm 19 -> 235 (ep 2) -> 44; no NaN in 6 epochs
cpc_softmax_before_cross_entropy      valid InfoNCE 9.007 at init and at ep 2 and 4 (the softmax's outputs in [0, 1] leave the
                                      cross-entropy near log N, its gradient tiny) (healthy 8.41 at ep 6)
audio_unet_target_rows_broadcast      MSELoss's broadcast warning; valid loss (broadcast) 0.096 -> 0.053 (ep 6) while the SNR
                                      against the true patches falls 5.9 -> 0.3 dB (healthy 8.3): the output fits the batch mean
lcnn_log_of_zero_padding              valid and training loss NaN from the first batch (zero-padded frames: log(0) = -inf, minus
                                      the -inf mean), accuracy 0.5
saliency_kl_div_given_probabilities   valid loss -4.811 -> -4.824 (ep 6), nearly flat (healthy KL 1.55 -> 1.14)
g2p_pad_index_past_output             IndexError "Target 32 is out of bounds" in the first training batch
"""
