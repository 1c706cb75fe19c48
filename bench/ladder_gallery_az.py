"""Half AZ of the ladder's gallery: held out from the rules frozen at f42d296 (round 63), and run once on them.
Families not in halves A-AY, taken only from computer vision, audio and speech, natural language, generative models and
self-supervised learning (a half written alongside took other domains): gender recognition by voice (Becker's voice.csv:
20 acoustic properties of each recording, meanfreq, sd, median, Q25, Q75, IQR, skew, kurt, sp.ent, sfm, mode, centroid,
meanfun, minfun, maxfun, meandom, mindom, maxdom, dfrange, modindx; the file sorted male then female; a StandardScaler, an
MLP, BCE with logits); SRCNN super-resolution (Dong, Loy, He and Tang 2014, shrunk: 5-1-3 convolutions from the bilinearly
upsampled half-resolution image to the full one, MSE; overlapping 12 x 12 patches cut with stride 6 from 24 x 24 scenes);
COVID-19 from cough and breath sounds (Coswara-style: three recordings a participant, cough-heavy, cough-shallow and
breathing, as log-mel patches; a small CNN, BCE with logits; participants split with GroupShuffleSplit, no groups declared);
pneumonia from chest radiographs (a small CNN on 16 x 16 synthetic frontal films, BCE with logits; the images read in
sorted(glob) order, the labels joined from a CSV of (filename, label) rows in study order); lemmatisation as edit-script
classification (Chrupala 2008 / Morfette: the shortest suffix edit turning a form into its lemma as the class, a character
BiGRU over packed sequences; a collate_fn that pads, a batch of three tensors and a forward of its own) of a synthetic
agglutinative language; dialogue act tagging (Switchboard-DAMSL-style conversations: an EmbeddingBag over the utterance's
words and the previous utterance's act as a one-hot, an MLP; the acts a Markov chain; conversations split); a character-level
LSTM language model (Karpathy's char-rnn, shrunk: 32-character chunks, the next character's cross-entropy over (B*T, V) in a
loss of its own) of a synthetic corpus; a contractive autoencoder (Rifai, Vincent, Muller, Glorot and Bengio 2011: a sigmoid
encoder, the BCE of the reconstruction plus lambda times the squared Frobenius norm of the encoder's Jacobian computed in
closed form; a tuple output and a loss of its own) of digits; stuttering event detection (SEP-28k-style: 3-s clips as 20
MFCCs over 30 frames, five dysfluency types each marked by up to three annotators, a label where at least two did; a 1-D CNN
with max pooling over time, BCE with logits); deblurring (a residual CNN from motion-blurred noisy digits to the sharp ones,
the L1 loss); BYOL (Grill et al. 2020: an online encoder, projector and predictor, a target encoder and projector updated as
an exponential moving average in a custom step, the normalised MSE 2 - 2 cos in both directions; two views made by a
collate_fn, no target, a forward of its own) of digits; and DRAW without attention (Gregor et al. 2015: an encoder and a
decoder LSTM cell unrolled for four glimpses, a Gaussian latent each step, the decoder writing additively to a canvas, BCE
with logits plus the summed KL; a tuple output and a loss of its own) of digits.
At most about 1440 training items a program (the digits' 1437; 1080 patches, 1200 utterances, 1000 clips elsewhere) and
about 30k trainable parameters; see CHECKS for the plain-loop timings. Registered into ladder_gallery's HEALTHY/BROKEN/HALF
through its decorators; ladder_gallery imports this module after half AY.

Protocol: written by a helper in a worktree at b4b7960 (branch halfAZ), held out from the rules frozen at f42d296 (round 63),
without reading the rules or results. The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*),
bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs
(no ntrain.ladder call, no bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers
and tail (the import lines), half AO whole, half AP's IWAE and SimSiam programs, the module docstrings of the other halves
and the @broken lines of all of them (for the rung and cause conventions and the families taken, with greps of the halves
for candidate family names, which showed a few of their lines), and ladder_sweep.py's --half line (a grep of the word
"half" there showed a few more of its lines). Each program was checked by hand only with a plain torch loop of its
author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seed 0 (and 1 where
noted). No program declares groups. Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AZ`;
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

# ---------------------------------------------------------------- gender recognition by voice (Becker's voice.csv: 20 acoustic properties)
VOICE_COLUMNS = ['meanfreq', 'sd', 'median', 'Q25', 'Q75', 'IQR', 'skew', 'kurt', 'sp.ent', 'sfm', 'mode', 'centroid', 'meanfun', 'minfun', 'maxfun',
                 'meandom', 'mindom', 'maxdom', 'dfrange', 'modindx']

def _voice(seed, n=1200):
    """Rows of voice.csv as the file has them: the male recordings first, then the female ones. The fundamental frequency
    (meanfun, kHz) around 0.115 for men and 0.19 for women with overlap; the spectral statistics from a speaker-level
    spectral centroid and spread that differ less; dominant-frequency columns noisy."""
    g = np.random.default_rng(1000 + seed * 3001); female = np.r_[np.zeros(n // 2), np.ones(n - n // 2)].astype(np.float32)
    f0 = np.clip(np.where(female > 0, g.normal(0.185, 0.028, n), g.normal(0.118, 0.024, n)), 0.05, 0.28)
    cen = g.normal(0.175, 0.03, n) + 0.012 * female; spread = np.abs(g.normal(0.06, 0.012, n)) - 0.006 * female
    q25 = cen - 0.7 * spread + g.normal(0, 0.01, n); q75 = cen + 0.6 * spread + g.normal(0, 0.01, n); med = (q25 + q75) / 2 + g.normal(0, 0.01, n)
    skew = np.exp(g.normal(0.8, 0.6, n)); kurt = skew ** 2 + np.exp(g.normal(1.5, 0.8, n)); ent = np.clip(g.normal(0.89, 0.04, n) + 0.01 * female, 0.7, 0.99)
    sfm = np.clip(g.normal(0.4, 0.15, n) - 0.03 * female, 0.05, 0.9); mode = np.clip(med + g.normal(0, 0.05, n), 0, 0.28)
    minf = np.clip(f0 - np.abs(g.normal(0.07, 0.03, n)), 0.01, None); maxf = np.clip(f0 + np.abs(g.normal(0.08, 0.04, n)), None, 0.28)
    meandom = np.abs(g.normal(0.8, 0.5, n)) + 0.15 * female; mindom = np.abs(g.normal(0.05, 0.05, n)); maxdom = meandom + np.abs(g.normal(4, 2.5, n))
    X = np.column_stack([cen, spread, med, q25, q75, q75 - q25, skew, kurt, ent, sfm, mode, cen + g.normal(0, 0.002, n), f0, minf, maxf, meandom, mindom, maxdom,
                         maxdom - mindom, np.clip(g.normal(0.17, 0.08, n), 0, 0.9)])
    return X.astype(np.float32), female[:, None]

class VoiceMLP(nn.Module):
    def __init__(self, d=20):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AZ')
def voice_gender_mlp(seed, shuffle_x_only=False):  # BCE with logits, Adam 1e-3, batches of 32; a stratified train_test_split 80/20; StandardScaler
    """label 'female' -> 1. shuffle_x_only: X = shuffle(X, random_state=seed) on the feature matrix alone after reading the
    file (meant to break its male-then-female order), y left in the file's order."""
    from sklearn.model_selection import train_test_split
    from sklearn.utils import shuffle
    X, y = _voice(seed)
    if shuffle_x_only: X = shuffle(X, random_state=seed)
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    return dict(model=VoiceMLP, train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr])), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va])),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- SRCNN (Dong et al. 2014), shrunk: super-resolution of overlapping patches
def _scenes(seed, n=150, S=24):
    "Grey 24 x 24 scenes: a smooth background, three to six rectangles and discs of random grey, and a patch of fine stripes."
    g = np.random.default_rng(1000 + seed * 3011); yy, xx = np.mgrid[0:S, 0:S] / S; out = []
    for _ in range(n):
        im = 0.3 + 0.2 * (g.random() * xx + g.random() * yy)
        for _ in range(int(g.integers(3, 7))):
            a, b = g.uniform(0, 1, 2); w, h = g.uniform(0.1, 0.5, 2); v = g.uniform(0, 1)
            m = (np.abs(xx - a) < w / 2) & (np.abs(yy - b) < h / 2) if g.random() < 0.6 else ((xx - a) ** 2 + (yy - b) ** 2 < (w / 2) ** 2)
            im = np.where(m, v, im)
        a, b = g.uniform(0, 0.6, 2); m = (xx > a) & (xx < a + 0.4) & (yy > b) & (yy < b + 0.4)
        im = np.where(m, im + 0.25 * np.sin(2 * np.pi * (xx * g.uniform(4, 8) + yy * g.uniform(0, 4))), im)
        out.append(np.clip(im, 0, 1))
    return np.array(out, np.float32)[:, None]

def srcnn_pairs(hr, P=12, stride=6):
    "Each image's low-resolution input (2x average-pooled, bilinearly upsampled back) and its patches of P x P with the stride: (input, target) pairs."
    hr = torch.from_numpy(hr); lr = F.interpolate(F.avg_pool2d(hr, 2), scale_factor=2, mode='bilinear', align_corners=False)
    xs, ys = [], []
    for i in range(0, hr.shape[-1] - P + 1, stride):
        for j in range(0, hr.shape[-1] - P + 1, stride): xs.append(lr[:, :, i:i + P, j:j + P]); ys.append(hr[:, :, i:i + P, j:j + P])
    return torch.stack(xs, 1).flatten(0, 1), torch.stack(ys, 1).flatten(0, 1)

class SRCNN(nn.Module):
    def __init__(self):
        super().__init__(); self.c1, self.c2, self.c3 = nn.Conv2d(1, 32, 5, padding=2), nn.Conv2d(32, 16, 1), nn.Conv2d(16, 1, 3, padding=1)
    def forward(self, x): return self.c3(F.relu(self.c2(F.relu(self.c1(x)))))

@healthy('AZ')
def srcnn_patches(seed, split_patches=False):  # MSE, Adam 1e-3, batches of 32; 120 scenes train, 30 validate, each cut into 9 patches
    """split_patches: every scene cut into its patches first, then train_test_split over the patches (the overlapping
    neighbours of a validation patch, sharing half or a quarter of its pixels, in training)."""
    from sklearn.model_selection import train_test_split
    hr = _scenes(seed)
    if split_patches:
        x, y = srcnn_pairs(hr); tr, va = train_test_split(np.arange(len(x)), test_size=0.2, random_state=seed)
        return dict(model=SRCNN, train=TensorDataset(x[tr], y[tr]), valid=TensorDataset(x[va], y[va]), loss=nn.MSELoss(),
                    optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))
    p = np.random.default_rng(seed).permutation(len(hr)); (x, y), (vx, vy) = srcnn_pairs(hr[p[:120]]), srcnn_pairs(hr[p[120:]])
    return dict(model=SRCNN, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- COVID-19 from cough and breath sounds (Coswara-style), a small CNN on log-mel patches
COSWARA_SOUNDS = ['cough-heavy', 'cough-shallow', 'breathing-deep']

def _coswara(seed, participants=120, mels=16, frames=24):
    """Three recordings a participant, each a log-mel patch (16 bands x 24 frames): the participant's own vocal-tract
    envelope over every band and a recording-type pattern (two cough bursts, or slow breaths); about 35% positive, whose
    coughs are a little wetter (more low-band energy after each burst) and whose breaths a little rougher. Returns
    (participant, sound, patch, label) rows."""
    g = np.random.default_rng(1000 + seed * 3019); rows = []; t = np.arange(frames)
    for p in range(participants):
        env = np.cumsum(g.normal(0, 0.6, mels)); env -= env.mean(); pos = float(g.random() < 0.35); loud = g.normal(0, 0.5)
        for k, s in enumerate(COSWARA_SOUNDS):
            if k < 2:
                b = [int(g.integers(2, 8)), int(g.integers(12, 18))]; act = sum(np.exp(-np.maximum(t - b0, -3 * (b0 - t)) / (2.5 if k == 0 else 1.5)) * (t >= b0 - 1) for b0 in b)
                wet = pos * 1.6 * sum(np.exp(-((t - b0 - 3) / 2.0) ** 2) for b0 in b)
                m = act[None] * (1 + 0.3 * np.linspace(1, -1, mels)[:, None]) + wet[None] * (np.arange(mels) < 5)[:, None]
            else:
                ph = g.uniform(0, 2 * np.pi); m = (0.6 + 0.4 * np.sin(2 * np.pi * t / g.uniform(9, 14) + ph))[None] * np.ones((mels, 1))
                m = m + pos * 1.2 * g.random((mels, frames)) * (np.arange(mels) > 9)[:, None]
            rows.append((p, s, (np.log1p(3 * m) + 0.5 * env[:, None] + loud + g.normal(0, 0.25, (mels, frames))).astype(np.float32), pos))
    return rows

class CoughCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.3), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('AZ')
def coswara_cough_cnn(seed, split_recordings=False):  # BCE with logits, Adam 1e-3, batches of 32; GroupShuffleSplit by participant, a fifth validating
    """The patches standardised by the training recordings' mean and sd. split_recordings: train_test_split over the 360
    recordings, so most validation participants' other recordings (their voice, their label) sit in training. No groups
    declared."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    rows = _coswara(seed); X = np.stack([r[2] for r in rows])[:, None]; y = np.array([[r[3]] for r in rows], np.float32); pid = np.array([r[0] for r in rows])
    if split_recordings: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=pid))
    m, s = X[tr].mean(), X[tr].std()
    return dict(model=CoughCNN, train=TensorDataset(_t((X[tr] - m) / s), _t(y[tr])), valid=TensorDataset(_t((X[va] - m) / s), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- pneumonia from chest radiographs (16 x 16 synthetic frontal films), a small CNN
def _radiographs(seed, n=420, S=16):
    """A folder of films named '<patient>_<study>.png' and a labels CSV of (filename, label) rows in study order (the order
    the reports were exported in, not the files'). Lungs two dark ovals with ribs across them, the heart's shadow, exposure
    and position varying; about 40% pneumonia, a fuzzy consolidation in the lower half of one lung."""
    g = np.random.default_rng(1000 + seed * 3023); yy, xx = np.mgrid[0:S, 0:S].astype(float); files, rows = {}, []
    for i in range(n):
        dx, dy, ex = g.normal(0, 0.6), g.normal(0, 0.6), g.normal(0, 0.08)
        lung = lambda cx: np.exp(-(((xx - cx - dx) / 2.6) ** 2 + ((yy - 7.5 - dy) / 5.0) ** 2) ** 1.5)
        im = 0.8 + ex - 0.45 * (lung(4.5) + lung(11.0)) + 0.08 * np.sin(yy * 1.9 + g.uniform(0, 6)) * (lung(4.5) + lung(11.0))
        im += 0.25 * np.exp(-(((xx - 8.5 - dx) / 2.0) ** 2 + ((yy - 10 - dy) / 2.5) ** 2)); lab = int(g.random() < 0.4)
        if lab:
            cx = (4.5 if g.random() < 0.5 else 11.0) + dx + g.normal(0, 0.7); cy = 10 + dy + g.normal(0, 1.2); r = g.uniform(1.4, 2.4)
            im += g.uniform(0.4, 0.6) * np.exp(-(((xx - cx) / r) ** 2 + ((yy - cy) / r) ** 2))
        name = f'{int(g.integers(10000, 99999))}_{int(g.integers(1, 4))}.png'; files[name] = (im + g.normal(0, 0.06, (S, S))).astype(np.float32); rows.append((name, lab))
    order = g.permutation(n); return files, [rows[k] for k in order]

class CXRNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(16 * 16, 1))
    def forward(self, x): return self.head(self.features(x))

@healthy('AZ')
def cxr_pneumonia_cnn(seed, labels_in_csv_order=False):  # BCE with logits, Adam 1e-3, batches of 32; the first 336 files (sorted) train, the rest validate
    """The images read as `sorted(glob('*.png'))`; each label looked up by filename in the CSV (labels_in_csv_order: the
    label column read as df['label'].values beside the sorted files)."""
    files, rows = _radiographs(seed); names = sorted(files); X = np.stack([files[k] for k in names])[:, None]
    y = np.array([[r[1]] for r in rows] if labels_in_csv_order else [[dict(rows)[k]] for k in names], np.float32)
    tr, va = np.arange(336), np.arange(336, len(names)); m, s = X[tr].mean(), X[tr].std()
    return dict(model=CXRNet, train=TensorDataset(_t((X[tr] - m) / s), _t(y[tr])), valid=TensorDataset(_t((X[va] - m) / s), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- lemmatisation as edit-script classification (Chrupala 2008), a character BiGRU
LEM_LETTERS = '_abdefgiklmnoprstuvz'

def _lexicon_forms(seed, n=1400):
    """(form, lemma) pairs of a synthetic agglutinative language: stems CV(C)CV, five noun and verb paradigms whose
    lemma endings differ, and case/tense suffixes with frequencies falling off (a long tail of rare endings)."""
    g = np.random.default_rng(1000 + seed * 3037); C, V = list('bdfgklmnprstvz'), list('aeiou')
    paradigms = [('a', ['a', 'as', 'an', 'ami', 'ake', 'adu', 'apol']), ('o', ['o', 'os', 'on', 'omi', 'oke', 'ovi']), ('e', ['e', 'es', 'eni', 'eti', 'ezu', 'eklo']),
                 ('ir', ['ir', 'it', 'ist', 'irem', 'ilu', 'ipa', 'irdo', 'isku']), ('ul', ['ul', 'ut', 'ust', 'ulem', 'ubo', 'umpa'])]
    out = []
    for _ in range(n):
        stem = ''.join([g.choice(C), g.choice(V)] + ([g.choice(C)] if g.random() < 0.5 else []) + [g.choice(C)])
        lem_end, sufs = paradigms[g.choice(5, p=[.3, .25, .2, .15, .1])]; w = 1 / np.arange(1, len(sufs) + 1) ** 1.4
        out.append((stem + sufs[g.choice(len(sufs), p=w / w.sum())], stem + lem_end))
    return out

def edit_script(form, lemma):
    "The shortest suffix edit: strip k characters of the form, append the rest of the lemma, as '-k+ending'."
    k = 0
    while k < min(len(form), len(lemma)) and form[k] == lemma[k]: k += 1
    return f'-{len(form) - k}+{lemma[k:]}'

def lemma_collate(items):
    "Pads a batch of (char ids, class) to its longest word: ids (B, L), lengths (B,), classes (B,)."
    L = max(len(c) for c, _ in items); ids = torch.zeros(len(items), L, dtype=torch.long)
    for i, (c, _) in enumerate(items): ids[i, :len(c)] = torch.tensor(c)
    return ids, torch.tensor([len(c) for c, _ in items]), torch.tensor([y for _, y in items])

class CharBiGRU(nn.Module):
    def __init__(self, n_classes, v=len(LEM_LETTERS), e=16, h=32):
        super().__init__(); self.emb = nn.Embedding(v, e, padding_idx=0); self.gru = nn.GRU(e, h, batch_first=True, bidirectional=True); self.out = nn.Linear(2 * h, n_classes)
    def forward(self, ids, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False); _, hN = self.gru(packed)
        return self.out(torch.cat([hN[0], hN[1]], -1))

def _lemma_fwd(model, b): ids, lengths, y = b; return model(ids, lengths), y

@healthy('AZ')
def lemma_edit_scripts(seed, classes_per_split=False):  # cross-entropy over the edit scripts, Adam 2e-3, batches of 32; 1120 forms train, 280 validate
    """The class list `sorted(set(train scripts))`, validation forms with a script unseen in training dropped
    (classes_per_split: each split's scripts indexed in their order of first appearance, pd.factorize in a prepare()
    called once a split)."""
    pairs = _lexicon_forms(seed); p = np.random.default_rng(seed).permutation(len(pairs)); tr, va = [pairs[i] for i in p[:1120]], [pairs[i] for i in p[1120:]]
    enc = lambda w: [LEM_LETTERS.index(ch) for ch in w]
    classes = sorted({edit_script(f, l) for f, l in tr})
    if classes_per_split:
        classes = list(dict.fromkeys(edit_script(f, l) for f, l in tr)); vclasses = list(dict.fromkeys(edit_script(f, l) for f, l in va))
        tri, vai = [(enc(f), classes.index(edit_script(f, l))) for f, l in tr], [(enc(f), vclasses.index(edit_script(f, l))) for f, l in va]
    else:
        tri = [(enc(f), classes.index(edit_script(f, l))) for f, l in tr]; vai = [(enc(f), classes.index(edit_script(f, l))) for f, l in va if edit_script(f, l) in classes]
    return dict(model=lambda: CharBiGRU(len(classes)), train=ListDataset(tri), valid=ListDataset(vai), collate_fn=lemma_collate, forward=_lemma_fwd,
                num_classes=len(classes), optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- dialogue act tagging (Switchboard-DAMSL-style): the utterance's words and the previous act
DA_ACTS = ['statement', 'opinion', 'yn_question', 'wh_question', 'yes_answer', 'no_answer', 'backchannel', 'agree']

def _switchboard(seed, convs=60, turns=20, vocab=120):
    """Conversations of 20 utterances as rows (conv, turn, words, act) in the transcript's order: the acts a Markov chain
    (questions answered, opinions agreed with or backchannelled), each act's words drawn from its own cue words (a third
    of the tokens) and a shared vocabulary; yes/no answers and agreements share many cues."""
    g = np.random.default_rng(1000 + seed * 3041); A = len(DA_ACTS)
    T = np.full((A, A), 0.3); T[0, [0, 1, 6]] += [2, 1, 2]; T[1, [6, 7, 1]] += [2, 2.5, 1]; T[2, [4, 5]] += [4, 2.5]; T[3, 0] += 5; T[4, [0, 2]] += [2, 1]
    T[5, [0, 3]] += [2, 1]; T[6, [0, 1, 2, 3]] += [2, 1.5, 1, 1]; T[7, [0, 1]] += [1.5, 1.5]; T /= T.sum(1, keepdims=True)
    cues = [g.choice(np.arange(10, vocab), 6, replace=False) for _ in range(A)]; cues[7] = np.r_[cues[4][:4], cues[7][:2]]; rows = []
    for c in range(convs):
        a = int(g.choice([0, 1, 2, 3]))
        for t in range(turns):
            L = int(g.integers(2, 3)) if a in (4, 5, 6, 7) else int(g.integers(4, 10))
            words = [int(g.choice(cues[a])) if g.random() < 0.35 else int(g.integers(1, vocab)) for _ in range(L)]
            rows.append((c, t, words, a)); a = int(g.choice(A, p=T[a]))
    return rows

def prev_acts(rows, shift=1):
    "df.groupby('conv')['act'].shift(shift), the first turn's NaN as the start-of-conversation act (index len(DA_ACTS))."
    out = []
    for i, (c, t, _, _) in enumerate(rows):
        j = i - shift; out.append(rows[j][3] if 0 <= j < len(rows) and rows[j][0] == c else len(DA_ACTS))
    return out

def da_collate(items):
    "Words concatenated with offsets for the EmbeddingBag, previous act, act."
    words = torch.tensor([w for ws, _, _ in items for w in ws]); offs = torch.tensor(np.cumsum([0] + [len(ws) for ws, _, _ in items[:-1]]))
    return words, offs, torch.tensor([p for _, p, _ in items]), torch.tensor([a for _, _, a in items])

class DATagger(nn.Module):
    def __init__(self, vocab=120, e=32, acts=len(DA_ACTS)):
        super().__init__(); self.bag = nn.EmbeddingBag(vocab, e, mode='mean'); self.acts = acts
        self.mlp = nn.Sequential(nn.Linear(e + acts + 1, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, acts))
    def forward(self, words, offsets, prev): return self.mlp(torch.cat([self.bag(words, offsets), F.one_hot(prev, self.acts + 1).float()], -1))

def _da_fwd(model, b): words, offs, prev, act = b; return model(words, offs, prev), act

@healthy('AZ')
def dialogue_act_tagger(seed, next_act=False):  # cross-entropy, Adam 1e-3, batches of 32; 48 conversations train, 12 validate
    "next_act: the context column built with shift(-1) (the next utterance's act) where shift(1) was meant."
    rows = _switchboard(seed); prev = prev_acts(rows, -1 if next_act else 1); cv = np.random.default_rng(seed).permutation(60)
    items = lambda cs: ListDataset([(w, p, a) for (c, _, w, a), p in zip(rows, prev) if c in set(cs)])
    return dict(model=DATagger, train=items(cv[:48]), valid=items(cv[48:]), collate_fn=da_collate, forward=_da_fwd, num_classes=len(DA_ACTS),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a character-level LSTM language model (Karpathy's char-rnn), shrunk
def _corpus(seed, chars=24000):
    "A synthetic corpus: sentences from a small grammar of 40 words over 26 letters, spaces and full stops."
    g = np.random.default_rng(1000 + seed * 3049); C, V = 'bcdfghklmnprstvwz', 'aeiouy'
    word = lambda: ''.join(g.choice(list(C)) + g.choice(list(V)) for _ in range(int(g.integers(1, 4))))
    dets, nouns, verbs, adjs = [word() for _ in range(4)], [word() for _ in range(16)], [word() for _ in range(12)], [word() for _ in range(8)]
    text = ''
    while len(text) < chars:
        s = [g.choice(dets)] + ([g.choice(adjs)] if g.random() < 0.4 else []) + [g.choice(nouns), g.choice(verbs)]
        if g.random() < 0.6: s += [g.choice(dets), g.choice(nouns)]
        text += ' '.join(s) + '. '
    return text[:chars]

CHAR_VOCAB = ' .abcdefghijklmnopqrstuvwxyz'

class CharRNN(nn.Module):
    def __init__(self, v=len(CHAR_VOCAB), e=16, h=64, softmax_out=False):
        super().__init__(); self.emb = nn.Embedding(v, e); self.lstm = nn.LSTM(e, h, batch_first=True); self.fc = nn.Linear(h, v); self.softmax_out = softmax_out
    def forward(self, x):
        out = self.fc(self.lstm(self.emb(x))[0])
        return F.softmax(out, -1) if self.softmax_out else out  # softmax_out: the sampling code's probabilities returned by forward

def char_lm_loss(out, y): return F.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))

@healthy('AZ')
def char_rnn_lm(seed, softmax_out=False):  # cross-entropy over every next character, Adam 2e-3, batches of 32; the first 80% of the text trains, the rest validates
    "Chunks of 33 characters without overlap: the first 32 in, the last 32 out (the input shifted by one)."
    ids = torch.tensor([CHAR_VOCAB.index(c) for c in _corpus(seed)]); n = len(ids) // 33; chunks = ids[:n * 33].view(n, 33); k = int(0.8 * n)
    return dict(model=lambda: CharRNN(softmax_out=softmax_out), train=TensorDataset(chunks[:k, :-1], chunks[:k, 1:]), valid=TensorDataset(chunks[k:, :-1], chunks[k:, 1:]),
                loss=char_lm_loss, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a contractive autoencoder (Rifai et al. 2011) of digits
class CAE(nn.Module):
    def __init__(self, d=64, h=32, sigmoid_out=False):
        super().__init__(); self.enc, self.dec = nn.Linear(d, h), nn.Linear(h, d); self.sigmoid_out = sigmoid_out
    def forward(self, x):
        h = torch.sigmoid(self.enc(x.flatten(1))); r = self.dec(h)
        return (torch.sigmoid(r) if self.sigmoid_out else r), h, (self.enc.weight ** 2).sum(1)  # sigmoid_out: the decoder's sigmoid kept from the Keras port

def cae_loss(out, x, lam=1e-2):  # BCE with logits summed over pixels + lambda ||J_f(x)||_F^2 = sum_j (h_j (1 - h_j))^2 ||W_j||^2, averaged over the batch
    r, h, w2 = out; rec = F.binary_cross_entropy_with_logits(r, x.flatten(1), reduction='none').sum(1)
    return (rec + lam * ((h * (1 - h)) ** 2 * w2).sum(1)).mean()

@healthy('AZ')
def contractive_ae_digits(seed, sigmoid_out=False):  # Adam 1e-3, batches of 64
    (x, _), (vx, _) = _digits(seed)
    return dict(model=lambda: CAE(sigmoid_out=sigmoid_out), train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=cae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- stuttering event detection (SEP-28k-style): five dysfluency types from MFCC frames
SEP_TYPES = ['Prolongation', 'Block', 'SoundRep', 'WordRep', 'Interjection']

def _sep28k(seed, n=1250, D=20, T=30):
    """3-s clips as 20 MFCCs over 30 frames; syllable-like segments with their own spectra; a prolongation holds one
    spectrum for many frames, a block is a silent gap, a sound repetition repeats a short burst, a word repetition a longer
    stretch, an interjection inserts the filler's spectrum. Each type marked by three annotators, each seeing it with a
    probability; the file's columns are the counts 0-3."""
    g = np.random.default_rng(1000 + seed * 3061); filler = g.normal(0, 1, D); X, Y = [], []
    for _ in range(n):
        has = g.random(5) < [0.18, 0.15, 0.15, 0.12, 0.2]; seq = []
        while len(seq) < T:
            sp = g.normal(0, 1, D); L = int(g.integers(2, 5)); seq += [sp] * L
        seq = np.array(seq[:T]); t0 = int(g.integers(2, T - 10))
        if has[0]: seq[t0:t0 + 8] = seq[t0]
        if has[1]: seq[t0 + 2:t0 + 6] = -2.0
        if has[2]: b = g.normal(0, 1, D); seq[t0:t0 + 6] = [b, -1.5 * np.ones(D), b, -1.5 * np.ones(D), b, -1.5 * np.ones(D)]
        if has[3]: seq[t0 + 1:t0 + 9] = np.r_[seq[t0 - 2:t0 + 2], seq[t0 - 2:t0 + 2]]
        if has[4]: seq[t0 + 3:t0 + 7] = filler
        X.append((seq + g.normal(0, 0.5, (T, D))).T); p = np.where(has, g.uniform(0.6, 0.95, 5), g.uniform(0.0, 0.2, 5)); Y.append((g.random((3, 5)) < p).sum(0))
    return np.array(X, np.float32), np.array(Y, np.float32)

class StutterCNN(nn.Module):
    def __init__(self, D=20, k=5):
        super().__init__(); self.net = nn.Sequential(nn.Conv1d(D, 32, 5, padding=2), nn.ReLU(), nn.Conv1d(32, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(32, k))
    def forward(self, x): return self.net(x)

@healthy('AZ')
def sep28k_stutter_cnn(seed, raw_counts=False):  # BCE with logits over the five types, Adam 1e-3, batches of 32; 1000 clips train, 250 validate
    "A label where at least two of the three annotators marked the type (raw_counts: the 0-3 count columns as the targets)."
    X, Y = _sep28k(seed); Y = Y if raw_counts else (Y >= 2).astype(np.float32); p = np.random.default_rng(seed).permutation(len(Y)); tr, va = p[:1000], p[1000:]
    return dict(model=StutterCNN, train=TensorDataset(_t(X[tr]), _t(Y[tr])), valid=TensorDataset(_t(X[va]), _t(Y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- deblurring: a residual CNN from motion-blurred digits to sharp ones
def _blurred(x, g):
    "A horizontal or vertical motion blur of 3-5 pixels a digit and Gaussian noise of sd 0.03."
    out = torch.empty_like(x)
    for i in range(len(x)):
        L = int(g.integers(3, 6)); a, b = L // 2, L - 1 - L // 2
        if g.random() < 0.5: out[i] = F.conv2d(F.pad(x[i:i + 1], (a, b, 0, 0), mode='replicate'), torch.ones(1, 1, 1, L) / L)[0]
        else: out[i] = F.conv2d(F.pad(x[i:i + 1], (0, 0, a, b), mode='replicate'), torch.ones(1, 1, L, 1) / L)[0]
    return (out + torch.from_numpy(g.normal(0, 0.03, out.shape).astype(np.float32))).clamp(0, 1)

class DeblurCNN(nn.Module):
    def __init__(self, c=16):
        super().__init__(); self.net = nn.Sequential(nn.Conv2d(1, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, 1, 3, padding=1))
    def forward(self, x): return x + self.net(x)

@healthy('AZ')
def deblur_residual_cnn(seed, lr=1e-3):  # L1, Adam, batches of 32; the blur drawn once a digit
    "lr 1.0: written lr=1e0 for 1e-3 when the config's learning rate moved to the command line."
    (x, _), (vx, _) = _digits(seed); g = np.random.default_rng(1000 + seed * 3067)
    return dict(model=DeblurCNN, train=TensorDataset(_blurred(x, g), x), valid=TensorDataset(_blurred(vx, g), vx), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- BYOL (Grill et al. 2020) of digits: an online network, an EMA target, no negatives
def _views(x, g):
    "Random shifts of up to 1 pixel (padding 1, crop 8), random contrast and brightness, Gaussian noise."
    B = len(x); xp = F.pad(x, (1, 1, 1, 1)); a, b = torch.randint(0, 3, (2, B), generator=g); out = torch.stack([xp[i, :, a[i]:a[i] + 8, b[i]:b[i] + 8] for i in range(B)])
    return out * (0.7 + 0.6 * torch.rand(B, 1, 1, 1, generator=g)) + 0.1 * torch.rand(B, 1, 1, 1, generator=g) + 0.08 * torch.randn(out.shape, generator=g)

class ByolViews:  # the collate_fn: two views of each digit, the labels dropped
    def __init__(self, seed): self.g = _gen(seed * 3079)
    def __call__(self, items): x = torch.stack([it[0] for it in items]); return _views(x, self.g), _views(x, self.g)

def _mlp_head(i, h, o): return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))

class BYOL(nn.Module):
    def __init__(self, tau=0.99):
        super().__init__(); self.tau = tau
        self.encoder = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1, stride=2), nn.BatchNorm2d(32), nn.ReLU(),
                                     nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector, self.predictor = _mlp_head(32, 64, 32), _mlp_head(32, 64, 32)
        import copy
        self.target_encoder, self.target_projector = copy.deepcopy(self.encoder), copy.deepcopy(self.projector)
        for p in [*self.target_encoder.parameters(), *self.target_projector.parameters()]: p.requires_grad = False
    @torch.no_grad()
    def update_target(self):
        for o, t in [(self.encoder, self.target_encoder), (self.projector, self.target_projector)]:
            for po, pt in zip(o.parameters(), t.parameters()): pt.mul_(self.tau).add_(po.detach(), alpha=1 - self.tau)
    def forward(self, v1, v2):
        p1, p2 = self.predictor(self.projector(self.encoder(v1))), self.predictor(self.projector(self.encoder(v2)))
        with torch.no_grad(): z1, z2 = self.target_projector(self.target_encoder(v1)), self.target_projector(self.target_encoder(v2))
        return p1, p2, z1, z2

def byol_loss(out, _):  # 2 - 2 cos(p, z') in both directions, averaged over the batch
    p1, p2, z1, z2 = out; d = lambda p, z: 2 - 2 * F.cosine_similarity(p, z, dim=-1)
    return (d(p1, z2) + d(p2, z1)).mean()

def _byol_fwd(model, b): v1, v2 = b; return model(v1, v2), torch.zeros(len(v1))  # no target

def _byol_step(zero_grad=True):
    def byol_step(model, batch, opt):  # the author's training loop: the loss, a step of the online network, then the EMA of the target
        loss = byol_loss(*_byol_fwd(model, batch))
        if zero_grad: opt.zero_grad()
        loss.backward(); opt.step(); model.update_target(); return loss  # zero_grad False: opt.zero_grad() lost when the loop moved into a function
    return byol_step

@healthy('AZ')
def byol_digits(seed, zero_grad=True):  # Adam 1e-3 (the small-data ports' choice in place of LARS), tau 0.99, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=BYOL, train=DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True, drop_last=True, collate_fn=ByolViews(seed)),
                valid=DataLoader(TensorDataset(vx, vy), batch_size=180, collate_fn=ByolViews(seed + 7919)), forward=_byol_fwd, loss=byol_loss, step=_byol_step(zero_grad),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- DRAW without attention (Gregor et al. 2015) of digits
class DRAW(nn.Module):
    """Four glimpses: the encoder LSTM cell reads [x, x - sigmoid(c), h_dec], a Gaussian latent of 8, the decoder LSTM cell
    writes c += W h_dec. module_list False: the mean and log-variance heads kept in a plain Python list."""
    def __init__(self, d=64, h=48, z=8, T=4, module_list=True):
        super().__init__(); self.T, self.h, self.z = T, h, z
        self.enc, self.dec, self.write = nn.LSTMCell(2 * d + h, h), nn.LSTMCell(z, h), nn.Linear(h, d)
        heads = [nn.Linear(h, z), nn.Linear(h, z)]; self.heads = nn.ModuleList(heads) if module_list else heads
    def forward(self, x):
        x = x.flatten(1); B = len(x); c = torch.zeros_like(x); he = ce = hd = cd = torch.zeros(B, self.h); kl = 0
        for _ in range(self.T):
            he, ce = self.enc(torch.cat([x, x - torch.sigmoid(c), hd], 1), (he, ce)); mu, logvar = self.heads[0](he), self.heads[1](he)
            z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar); hd, cd = self.dec(z, (hd, cd)); c = c + self.write(hd)
            kl = kl + 0.5 * (mu ** 2 + logvar.exp() - logvar - 1).sum(1)
        return c, kl

def draw_loss(out, x): c, kl = out; return (F.binary_cross_entropy_with_logits(c, x.flatten(1), reduction='none').sum(1) + kl).mean()

@healthy('AZ')
def draw_digits(seed, module_list=True):  # Adam 1e-3, batches of 64
    (x, _), (vx, _) = _digits(seed)
    return dict(model=lambda: DRAW(module_list=module_list), train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=draw_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AZ
@broken('AZ', 'voice_features_shuffled_labels_not', 4, ('labels',))
def voice_features_shuffled_labels_not(seed): return voice_gender_mlp(seed, shuffle_x_only=True)  # shuffle(X) alone: the male/female order left on y

@broken('AZ', 'srcnn_patches_split_after_cutting', 4, ('leakage',))
def srcnn_patches_split_after_cutting(seed): return srcnn_patches(seed, split_patches=True)  # overlapping patches of one scene on both sides

@broken('AZ', 'coswara_recordings_split_at_random', 4, ('leakage',))
def coswara_recordings_split_at_random(seed): return coswara_cough_cnn(seed, split_recordings=True)  # a participant's other recordings in training

@broken('AZ', 'cxr_labels_in_csv_order', 4, ('labels',))
def cxr_labels_in_csv_order(seed): return cxr_pneumonia_cnn(seed, labels_in_csv_order=True)  # the label column beside sorted(glob): another film's label

@broken('AZ', 'lemma_classes_indexed_per_split', 4, ('labels',))
def lemma_classes_indexed_per_split(seed): return lemma_edit_scripts(seed, classes_per_split=True)  # a script missing from one split shifts every later index

@broken('AZ', 'dialogue_act_next_act_as_context', 4, ('leakage',))
def dialogue_act_next_act_as_context(seed): return dialogue_act_tagger(seed, next_act=True)  # shift(-1): the next utterance's act, unknown when tagging online

@broken('AZ', 'char_rnn_softmax_into_cross_entropy', 2, ('softmax',))
def char_rnn_softmax_into_cross_entropy(seed): return char_rnn_lm(seed, softmax_out=True)  # probabilities into F.cross_entropy

@broken('AZ', 'cae_sigmoid_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def cae_sigmoid_into_bce_with_logits(seed): return contractive_ae_digits(seed, sigmoid_out=True)  # a sigmoid, then the loss's own sigmoid

@broken('AZ', 'sep28k_annotator_counts_as_targets', 1, ('bad_labels',))
def sep28k_annotator_counts_as_targets(seed): return sep28k_stutter_cnn(seed, raw_counts=True)  # targets 0-3 into BCE with logits

@broken('AZ', 'deblur_lr_one', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def deblur_lr_one(seed): return deblur_residual_cnn(seed, lr=1.0)  # Adam at lr 1

@broken('AZ', 'byol_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def byol_no_zero_grad(seed): return byol_digits(seed, zero_grad=False)  # the gradients summed over every step so far

@broken('AZ', 'draw_heads_in_python_list', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def draw_heads_in_python_list(seed): return draw_digits(seed, module_list=False)  # the latent heads unregistered: never in the optimizer, never trained

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size,
# forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256 (the factory's DataLoaders where given);
# valid loss and a metric (AUC, the mean over labels for SEP-28k; accuracy), init -> epoch 2 -> epoch 6; s/ep the seconds of an
# epoch of training. Every factory builds and runs its batches (forward, loss, backward, step); `ladder_gallery.HALF` holds 24
# programs of half AZ.
CHECKS = """
voice_gender_mlp                      960 train, 240 valid, 3.5k params, 0.02 s/ep; BCE 0.68 -> 0.40 -> 0.25, AUC 0.71 -> 0.94 -> 0.97
srcnn_patches                         1080 patches train, 270 valid, 1.5k params, 0.1 s/ep; MSE 0.28 -> 0.018 -> 0.0089
coswara_cough_cnn                     288 recordings train, 72 valid, 3.6k params, 0.03 s/ep; BCE 0.65 -> 0.62 -> 0.62, AUC 0.51 -> 0.58
                                      -> 0.62 (learns slowly: 9 batches an epoch)
cxr_pneumonia_cnn                     336 train, 83 valid, 1.6k params, 0.03 s/ep; BCE 0.68 -> 0.65 -> 0.57, AUC 0.66 -> 0.75 -> 0.88
lemma_edit_scripts                    1120 train, 280 valid, 10.6k params, 0.12 s/ep; CE 2.29 -> 0.57 -> 0.077, accuracy 0.16 -> 0.86 -> 0.99
dialogue_act_tagger                   960 train, 240 valid, 7.0k params, 0.02 s/ep; CE 2.10 -> 1.82 -> 1.34, accuracy 0.07 -> 0.42 -> 0.55
char_rnn_lm                           581 chunks train, 146 valid, 23k params, 0.08 s/ep; CE 3.34 (ln 28 = 3.33) -> 2.60 -> 1.55
contractive_ae_digits                 1437 train, 360 valid, 4.2k params, 0.02 s/ep; loss 44.4 -> 33.4 -> 27.8
sep28k_stutter_cnn                    1000 train, 250 valid, 6.5k params, 0.06 s/ep; BCE 0.69 -> 0.44 -> 0.37, mean AUC 0.48 -> 0.60 -> 0.74
deblur_residual_cnn                   1437 train, 360 valid, 4.9k params, 0.12 s/ep; L1 0.150 -> 0.126 -> 0.102
byol_digits                           1437 train (22 batches of 64), 360 valid, 13.5k trainable params, 0.23 s/ep; loss 3.64 -> 1.52 -> 1.40
draw_digits                           1437 train, 360 valid, 58k params, 0.12 s/ep; loss 45.2 -> 30.4 -> 27.1
voice_features_shuffled_labels_not    BCE 0.70 -> 0.69 -> 0.70, AUC 0.51 -> 0.49 -> 0.47 (healthy 0.97)
srcnn_patches_split_after_cutting     MSE 0.27 -> 0.019 -> 0.0093 (healthy 0.0089: the leak barely shows in the plain loop)
coswara_recordings_split_at_random    BCE 0.66 -> 0.65 -> 0.64, AUC 0.50 -> 0.54 -> 0.58 (healthy 0.62)
cxr_labels_in_csv_order               BCE 0.69 -> 0.69 -> 0.69, AUC 0.56 -> 0.56 -> 0.54 (healthy 0.88)
lemma_classes_indexed_per_split       valid CE 2.28 -> 2.58 -> 5.51, accuracy 0.16 -> 0.07 -> 0.16 (healthy 0.99)
dialogue_act_next_act_as_context      CE 2.10 -> 1.82 -> 1.34, accuracy 0.07 -> 0.42 -> 0.54 (healthy 0.55)
char_rnn_softmax_into_cross_entropy   CE 3.33 -> 3.19 -> 3.18 (floored by the doubled softmax; healthy 1.55)
cae_sigmoid_into_bce_with_logits      loss 52.4 -> 47.7 -> 44.2 (healthy 27.8)
sep28k_annotator_counts_as_targets    targets 0-3 in BCE with logits: the loss 0.70 -> 0.31 -> -7.8, falling without bound
deblur_lr_one                         L1 0.150 -> 0.161 -> 0.156 (worse than the identity at init; healthy 0.102)
byol_no_zero_grad                     loss 3.64 -> 1.70 -> 1.81 (healthy 1.40)
draw_heads_in_python_list             the heads unregistered (57.7k params, 784 fewer): loss 45.2 -> 30.5 -> 27.1, the rest compensating
"""
