"""Half AN of the ladder's gallery: held out from the rules frozen at round 53, and run once on them.
Families not in halves A-AM, all from computer vision, audio and speech, natural language and text, and generative or
self-supervised models of images and sequences (a half written alongside took other domains): facial expression
recognition (FER2013-style: fer2013.csv's emotion, space-separated pixels and Usage columns, five emotions of 16 x 16
grey faces; a CNN with batch norm and dropout, cross-entropy, Adam; Training rows train, PublicTest rows validate); age
estimation from faces (UTKFace-style: the age parsed from '<age>_<gender>_<race>_<date>.jpg.chip.jpg', a CNN with global
average pooling whose output bias starts at the mean age, the L1 loss in years); dermoscopic lesion classification
(HAM10000-style: one to six photographs a lesion, nevus, melanoma or benign keratosis; a CNN; lesions split with
GroupShuffleSplit; groups declared: the lesion_id); bird audio detection (DCASE 2018 task 3 style: 10-s clips of field
recorders as log-mel spectrograms, cut into overlapping 4-s windows that keep the clip's weak label; a CRNN with a GRU and
max pooling over time, BCE with logits; the clips split before they are windowed); frame-wise phone classification (a
TIMIT-style hybrid acoustic model: 13 MFCCs with +-4 frames of context after per-utterance CMVN, 14 phones; an MLP, SGD
with momentum; unseen speakers validate); instrument family recognition (NSynth-style: log spectrograms of 1-s notes of
five families, a CNN with functional dropout; unseen instruments validate, as NSynth's splits); toxic comment
classification (the Jigsaw challenge's six labels, a Keras-style tokenizer and pre-padding, an embedding, a BiGRU with
max pooling over time, six sigmoids and BCELoss); clickbait headline detection (Chakraborty et al. 2016's headlines: an
LSTM over the tokens, one logit, BCE with logits; two EDA copies of each training headline, random swaps and deletions);
punctuation restoration (unpunctuated transcript snippets, a two-layer BiLSTM tagging each word with the mark after it,
the padding's tags -100 and ignored; a Task with ignore_index); image colourisation in Lab space (skimage's rgb2lab ported
to numpy, 16 x 16 landscapes, a CNN from L to ab / 128 with a tanh output, MSE); a context encoder (Pathak et al. 2016,
shrunk and without the adversarial term: the 4 x 4 centre of a digit regressed from its surround, Adam with beta1 0.5); and
solving jigsaw puzzles (Noroozi and Favaro 2016, shrunk: a digit's four tiles jittered, normalised and put in one of 24
orders drawn at each access, a siamese tile CNN, cross-entropy over the permutations, SGD with momentum; no digit labels).
At most about 2100 training items a program (the phone frames; 1680 headlines with their EDA copies; 1437 or fewer
elsewhere) and 46k trainable parameters; see CHECKS
for the plain-loop timings. Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery
imports this module after half AM.

Protocol: written by a helper in a worktree at e379cc7 (branch halfAN), held out from the rules of round 53 (frozen after
e379cc7; the maintainer records the freeze hash in RESULTS.md). The helper read none of the ladder's rules (ntrain/ladder/*,
nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests or any sweep's results, and never ran
the ladder on these programs (no ntrain.ladder call, no bench/ladder_sweep.py, no CLI); it ran `git status`, and no git log.
It read bench/ladder_gallery.py's head, helpers and tail (the import lines), half AM whole, the module docstrings and the
@broken lines of the other halves (for the rung and cause conventions and the families taken, with greps of the halves for
candidate family names), the --half line of ladder_sweep.py, and the signatures and docstrings of `ntrain.ladder` and
`ntrain.Task` via help(). Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a few
epochs: the healthy ones learn, the broken ones are broken as meant), seeds 0 and 1. Two programs declare groups
(ham_lesion_cnn and its broken twin ham_images_split_at_random; "groups declared" in their factories' docstrings) and are
to be reported apart. Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AN`; no program
changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import functools, itertools
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
import ntrain
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- a face renderer shared by the FER-style and UTKFace-style programs
def _render_face(g, expr=4, age=30.0, S=16, up=2):
    """One grey face, S x S: a skin-toned ellipse over a background, hair whose grey rises with age, eyes, brows and a mouth
    shaped by the expression (0 angry, 1 happy, 2 sad, 3 surprise, 4 neutral); a child's features sit lower on a rounder
    face, an adult's forehead gains wrinkles and its cheeks sag with age. Drawn at twice the size and averaged down."""
    n = S * up; yy, xx = (np.mgrid[0:n, 0:n] + 0.5) / up
    cx, cy = S / 2 + g.normal(0, 0.6), S / 2 + g.normal(0, 0.6); child = np.clip((18 - age) / 16, 0, 1); old = np.clip((age - 30) / 50, 0, 1)
    rx, ry = 5.2 + 0.6 * child + g.normal(0, 0.25), 6.6 - 0.5 * child + 0.3 * old + g.normal(0, 0.25)
    u, v = (xx - cx) / rx, (yy - cy) / ry
    img = np.full((n, n), g.uniform(0.1, 0.5)) + g.normal(0, 0.04) * (xx - S / 2) / S
    skin = g.uniform(0.55, 0.85); face = u ** 2 + v ** 2 <= 1; img[face] = skin
    hair = face & (v < -0.55 + 0.1 * child + g.normal(0, 0.05)); img[hair] = np.clip(0.15 + 0.75 * old ** 1.5 + g.normal(0, 0.05), 0, 1)
    ey = cy - 0.8 + 1.4 * child + g.normal(0, 0.2); ex = 2.1 + g.normal(0, 0.1)
    eye_r = 0.75 + 0.35 * (expr == 3) + 0.25 * child - 0.15 * old
    brow_lift = {0: -0.5, 1: 0.0, 2: 0.3, 3: 0.9, 4: 0.0}[expr]; brow_tilt = {0: 0.55, 1: 0.0, 2: -0.45, 3: 0.0, 4: 0.0}[expr]
    for side in (-1, 1):
        img[((xx - cx - side * ex) / eye_r) ** 2 + ((yy - ey) / (eye_r * 0.7)) ** 2 <= 1] = 0.08
        bx = xx - cx - side * ex; by = ey - 1.6 - brow_lift + brow_tilt * (1 - np.abs(bx) / 1.4) * (np.abs(bx) < 1.4)
        img[(np.abs(bx) < 1.4) & (np.abs(yy - by) < 0.28)] = 0.2
    if old > 0:
        for k in range(3):
            wy = cy - ry * (0.45 - 0.1 * k); img[face & ~hair & (np.abs(yy - wy) < 0.18) & (np.abs(xx - cx) < 2.5)] -= 0.25 * old
        img[face & (np.abs(np.abs(xx - cx) - 2.4) < 0.2) & (yy > cy + 1.2) & (yy < cy + 2.8)] -= 0.3 * old  # the cheeks' folds
    my = cy + 2.6 - 0.6 * child + g.normal(0, 0.15); mx = xx - cx; mw = 1.9 + 0.3 * (expr == 1)
    if expr == 3: img[(mx / 0.9) ** 2 + ((yy - my) / 1.1) ** 2 <= 1] = 0.1
    else:
        curve = {0: 0.0, 1: -1.0, 2: 0.9, 4: 0.0}[expr] * (mx / mw) ** 2
        img[(np.abs(mx) < mw) & (np.abs(yy - (my + curve - {0: 0.0, 1: -0.5, 2: 0.4, 4: 0.0}[expr])) < 0.35 + 0.1 * (expr == 0))] = 0.15
    img = img * g.uniform(0.7, 1.2) + g.uniform(-0.1, 0.1)
    return np.clip(img.reshape(S, up, S, up).mean((1, 3)) + g.normal(0, 0.04, (S, S)), 0, 1)

# ---------------------------------------------------------------- facial expression recognition (FER2013-style: grey faces, a small CNN)
FER_EMOTIONS = ['angry', 'happy', 'sad', 'surprise', 'neutral']

@functools.lru_cache(maxsize=4)
def _fer_csv(seed, n=1500):
    """Rows as fer2013.csv: 'emotion' (0-4 here, the five kept classes), 'pixels' (the space-separated grey levels 0-255
    of a 16 x 16 face) and 'Usage' (Training, then PublicTest)."""
    g = np.random.default_rng(1000 + seed * 3011); emo = g.choice(5, n, p=[0.16, 0.3, 0.18, 0.13, 0.23]); rows = []
    for k, e in enumerate(emo):
        img = _render_face(g, int(e), age=float(g.uniform(16, 70)))
        rows.append(dict(emotion=int(e), pixels=' '.join(str(int(p)) for p in np.round(img * 255).ravel()), Usage='Training' if k < 1200 else 'PublicTest'))
    return rows

class FERNet(nn.Module):
    def __init__(self, n=len(FER_EMOTIONS)):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.25), nn.Linear(32 * 4 * 4, 64), nn.ReLU(), nn.Dropout(0.25), nn.Linear(64, n))
    def forward(self, x): return self.classifier(self.features(x))

@healthy('AN')
def fer_expression_cnn(seed, shuffle_apart=False):  # cross-entropy, Adam 1e-3, batches of 64; the Usage column splits (1200 Training, 300 PublicTest)
    """The pixels parsed to (n, 1, 16, 16) floats / 255. shuffle_apart: the author's "shuffle before use" written as
    np.random.shuffle(X_train); np.random.shuffle(y_train), two draws, so every training face keeps another row's emotion
    (the PublicTest rows left as read)."""
    rows = _fer_csv(seed); X = np.array([np.array(r['pixels'].split(), np.float32) for r in rows]).reshape(-1, 1, 16, 16) / 255.0
    y = np.array([r['emotion'] for r in rows]); use = np.array([r['Usage'] for r in rows])
    Xtr, ytr, Xva, yva = X[use == 'Training'], y[use == 'Training'], X[use == 'PublicTest'], y[use == 'PublicTest']
    if shuffle_apart:
        rs = np.random.RandomState(seed); rs.shuffle(Xtr); rs.shuffle(ytr)
    return dict(model=FERNet, train=TensorDataset(_t(Xtr), _t(ytr, torch.long)), valid=TensorDataset(_t(Xva), _t(yva, torch.long)),
                num_classes=len(FER_EMOTIONS), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- age estimation from faces (UTKFace-style file names, a CNN regressing years with the L1 loss)
@functools.lru_cache(maxsize=4)
def _utkface(seed, n=1500):
    """Faces as UTKFace's aligned crops: the file names '<age>_<gender>_<race>_<date&time>.jpg.chip.jpg', ages 1-80
    (more in their twenties and thirties, as the set), grey 16 x 16 images in [0, 1]; expressions mostly neutral or happy."""
    g = np.random.default_rng(1000 + seed * 3019); names, X = [], []
    ages = np.clip(np.round(np.where(g.random(n) < 0.15, g.uniform(1, 15, n), g.gamma(6, 6, n) + 8)), 1, 80).astype(int)
    for k, a in enumerate(ages):
        X.append(_render_face(g, int(g.choice([1, 4], p=[0.45, 0.55])), age=float(a)))
        names.append(f'{a}_{g.integers(2)}_{g.integers(5)}_2017011{g.integers(10)}{g.integers(100000, 999999)}{k:03d}.jpg.chip.jpg')
    return names, np.array(X, np.float32)[:, None]

class AgeCNN(nn.Module):
    "Three convolutions, global average pooling, two dense layers; the output's bias starts at the training ages' mean."
    def __init__(self, mean_age=0.0):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
        nn.init.constant_(self.net[-1].bias, mean_age)
    def forward(self, x): return self.net(x)

@healthy('AN')
def utkface_age_cnn(seed, flat_target=False):  # the L1 loss in years, Adam 3e-3, batches of 32; train_test_split 80/20
    """The age parsed from the file name's first field, a column (n, 1) (flat_target: torch.tensor(ages) as parsed, shape
    (n,), so L1Loss broadcasts the (batch, 1) predictions against the (batch,) ages)."""
    from sklearn.model_selection import train_test_split
    names, X = _utkface(seed); ages = np.array([float(s.split('_')[0]) for s in names], np.float32)
    tr, va = train_test_split(np.arange(len(ages)), test_size=0.2, random_state=seed)
    y = (lambda i: _t(ages[i])) if flat_target else (lambda i: _t(ages[i][:, None]))
    m = float(ages[tr].mean())
    return dict(model=lambda: AgeCNN(m), train=TensorDataset(_t(X[tr]), y(tr)), valid=TensorDataset(_t(X[va]), y(va)), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- dermoscopic lesions (HAM10000-style: several images of one lesion, split by lesion_id)
HAM_DX = ['nv', 'mel', 'bkl']

@functools.lru_cache(maxsize=4)
def _ham10000(seed, lesions=420, S=16):
    """Rows as HAM10000_metadata.csv (lesion_id, image_id, dx) and their images, 16 x 16 RGB in [0, 1]: each lesion photographed
    one to six times (rotated, zoomed, lit and placed afresh under the dermatoscope), over its patient's skin. Nevi round,
    even and brown; melanomas larger, asymmetric, with irregular borders and blue-grey and black patches; benign keratoses
    tan to brown, waxy, mottled. Each lesion its own shape, size, colours and patch layout."""
    g = np.random.default_rng(1000 + seed * 3023); dx = g.choice(3, lesions, p=[0.62, 0.2, 0.18]); rows, X = [], []
    yy, xx = np.mgrid[0:S, 0:S] + 0.5
    for L in range(lesions):
        d = dx[L]; skin = np.array([0.92, 0.74, 0.64]) * g.uniform(0.75, 1.05) + g.normal(0, 0.03, 3)
        base = {0: np.array([0.45, 0.28, 0.18]), 1: np.array([0.3, 0.18, 0.14]), 2: np.array([0.62, 0.45, 0.3])}[d] * g.uniform(0.8, 1.2) + g.normal(0, 0.04, 3)
        r0 = {0: 3.6, 1: 4.6, 2: 4.0}[d] * g.uniform(0.8, 1.2); harm = g.normal(0, 1, 5) * {0: 0.04, 1: 0.22, 2: 0.1}[d]; hph = g.uniform(0, 2 * np.pi, 5)
        ecc = {0: 0.1, 1: 0.3, 2: 0.2}[d] * g.random(); blobs = g.normal(0, 1.5, (4, 2)); bcol = g.choice(3, 4)
        for k in range(1 + g.choice(6, p=[0.45, 0.25, 0.12, 0.08, 0.06, 0.04])):
            rot, zoom = g.uniform(0, 2 * np.pi), g.uniform(0.85, 1.15); cx, cy = S / 2 + g.normal(0, 0.8, 2)
            u, v = (xx - cx) / zoom, (yy - cy) / zoom; ur, vr = u * np.cos(rot) + v * np.sin(rot), -u * np.sin(rot) + v * np.cos(rot)
            th = np.arctan2(vr, ur * (1 + ecc)); rad = r0 * (1 + sum(harm[j] * np.cos((j + 2) * th + hph[j]) for j in range(5)))
            inside = 1 / (1 + np.exp((np.hypot(ur * (1 + ecc), vr) - rad) / 0.5))
            col = np.broadcast_to(base[:, None, None], (3, S, S)).copy()
            if d == 1:  # blue-grey and black patches
                for (bx, by), c in zip(blobs, bcol):
                    w = np.exp(-((ur - bx) ** 2 + (vr - by) ** 2) / 2.0)[None]; tint = [np.array([0.35, 0.4, 0.55]), np.array([0.08, 0.06, 0.06]), np.array([0.55, 0.3, 0.25])][c]
                    col = col * (1 - 0.8 * w) + 0.8 * w * tint[:, None, None]
            if d == 2: col = col * (1 + 0.25 * np.sin(2.2 * ur + blobs[0, 0]) * np.sin(1.9 * vr + blobs[0, 1]))[None]
            img = skin[:, None, None] * (1 - inside) + col * inside
            img = img * g.uniform(0.85, 1.1) * (1 + 0.1 * ((xx - S / 2) / S * g.normal() + (yy - S / 2) / S * g.normal()))[None]
            img = img * (np.hypot(xx - S / 2, yy - S / 2) < 8.5 + g.normal(0, 0.3))[None]  # the dermatoscope's dark corners
            X.append(np.clip(img + g.normal(0, 0.025, img.shape), 0, 1)); rows.append(dict(lesion_id=f'HAM_{L:07d}', image_id=f'ISIC_{g.integers(24306, 34321):07d}', dx=HAM_DX[d]))
    return rows, np.array(X, np.float32)

class DermCNN(nn.Module):
    def __init__(self, n=len(HAM_DX)):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                                 nn.MaxPool2d(2), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.3), nn.Linear(32, n))
    def forward(self, x): return self.net(x)

@healthy('AN')
def ham_lesion_cnn(seed, image_split=False):  # cross-entropy, Adam 1e-3, batches of 32; GroupShuffleSplit by lesion_id, a fifth of the lesions validate
    """groups declared: the lesion (lesion_id). Normalised by the training images' per-channel mean and sd. image_split:
    the images split with a stratified train_test_split on dx, so most validation images have a photograph of the same
    lesion in training."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    rows, X = _ham10000(seed); les = np.array([r['lesion_id'] for r in rows]); y = np.array([HAM_DX.index(r['dx']) for r in rows])
    if image_split: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=les))
    m, s = X[tr].mean((0, 2, 3), keepdims=True), X[tr].std((0, 2, 3), keepdims=True); keys = {'train': list(les[tr]), 'valid': list(les[va])}
    task = ntrain.Task(model=DermCNN, train=TensorDataset(_t((X[tr] - m) / s), _t(y[tr], torch.long)), valid=TensorDataset(_t((X[va] - m) / s), _t(y[va], torch.long)),
                       loss=nn.CrossEntropyLoss(), num_classes=len(HAM_DX), groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- bird audio detection (DCASE 2018 task 3 style: 10-s field recordings, does a bird sing? a CRNN on log-mel windows)
@functools.lru_cache(maxsize=4)
def _bird_clips(seed, n=240, M=24, T=100):
    """Log-mel spectrograms (24 bands, 10 frames a second) of 10-s clips from unattended field recorders with their
    hasbird labels (about half): each clip its own recorder gain, wind rumble in the low bands, rain or traffic, insects'
    steady tones high up and now and then a human voice or a car; birds' chirps short sweeps and trills in the upper-middle
    bands, one to six of them, some faint."""
    g = np.random.default_rng(1000 + seed * 3037); X, y = [], []
    mel = np.arange(M)[:, None]; t = np.arange(T)[None]
    for _ in range(n):
        bird = g.random() < 0.5
        spec = g.normal(-6, 0.6) + g.normal(0, 0.25, (M, T)) - 0.08 * mel  # the background's slope and its frame noise
        spec += g.uniform(0, 3) * np.exp(-mel / g.uniform(1.5, 4)) * (1 + 0.5 * np.sin(t / g.uniform(3, 15) + g.uniform(0, 6)))  # wind
        if g.random() < 0.4: spec += g.uniform(0.5, 2)  # rain, broadband
        if g.random() < 0.5:
            b = g.integers(18, 24); spec[b] += g.uniform(1, 3)  # an insect's tone
        if g.random() < 0.3:
            s0 = g.integers(0, T - 20); spec[2:10, s0:s0 + g.integers(8, 20)] += g.uniform(1, 3) * (1 + np.sin(np.arange(2, 10) * 1.7))[:, None] * 0.5  # a voice
        if bird:
            for _ in range(g.integers(1, 7)):
                s0, dur, f0, slope, amp = g.integers(0, T - 8), g.integers(3, 9), g.uniform(11, 20), g.uniform(-1.2, 1.2), g.uniform(1.2, 4)
                for k in range(dur):
                    f = f0 + slope * k; spec[:, s0 + k] += amp * np.exp(-(np.arange(M) - f) ** 2 / 1.2)
        X.append(spec); y.append(float(bird))
    return np.array(X, np.float32), np.array(y, np.float32)

def bird_windows(X, y, win=40, hop=15):
    "Each clip cut into overlapping 4-s windows (40 frames, hop 1.5 s), the clip's weak label on each window."
    starts = range(0, X.shape[2] - win + 1, hop)
    return np.concatenate([X[:, None, :, s:s + win] for s in starts], 0).reshape(-1, 1, X.shape[1], win)[np.argsort(np.tile(np.arange(len(X)), len(starts)), kind='stable')], \
           np.repeat(y, len(starts))[:, None]

class BirdCRNN(nn.Module):
    "Two convolution blocks pooling frequency (and time once), a GRU over the frames, max pooling over time, one logit."
    def __init__(self, M=24, h=24):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d((2, 2)), nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d((3, 1)))
        self.gru = nn.GRU(16 * (M // 6), h, batch_first=True); self.out = nn.Linear(h, 1)
    def forward(self, x):
        z = self.conv(x); z = z.flatten(1, 2).transpose(1, 2); h, _ = self.gru(z); return self.out(h.max(1).values)

@healthy('AN')
def bird_audio_crnn(seed, window_then_split=False):  # BCE with logits, Adam 1e-3, batches of 32; train_test_split of the clips 80/20, then the windows cut
    """The log-mel standardised by the training windows' mean and sd. window_then_split: the windows cut from every clip
    first and the train_test_split drawn over the windows, so a validation window shares 25-62% of its frames with a
    window of the same clip in training (and the clip's own background)."""
    from sklearn.model_selection import train_test_split
    X, y = _bird_clips(seed)
    if window_then_split:
        W, wy = bird_windows(X, y); tr, va = train_test_split(np.arange(len(wy)), test_size=0.2, random_state=seed, stratify=wy[:, 0]); (Xtr, ytr), (Xva, yva) = (W[tr], wy[tr]), (W[va], wy[va])
    else:
        tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y); (Xtr, ytr), (Xva, yva) = bird_windows(X[tr], y[tr]), bird_windows(X[va], y[va])
    m, s = Xtr.mean(), Xtr.std()
    return dict(model=BirdCRNN, train=TensorDataset(_t((Xtr - m) / s), _t(ytr)), valid=TensorDataset(_t((Xva - m) / s), _t(yva)), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- frame-wise phone classification (TIMIT-style hybrid acoustic model: an MLP over MFCC frames with context)
TIMIT_PHONES = ['sil', 'aa', 'iy', 'uw', 'eh', 'l', 'r', 'n', 'm', 's', 'sh', 'f', 't', 'k']

@functools.lru_cache(maxsize=4)
def _timit_like(seed, speakers=16, utts=2, D=13):
    """13 MFCCs at 10-ms frames of read sentences, with each utterance's .phn-style alignment: phones of 3-11 frames
    following a bigram of syllables (vowels between consonants, silence at the ends), each phone a cepstral target that
    coarticulation smooths into its neighbours, each speaker's vocal tract a shift and scaling of the cepstra. Returns a
    list of (speaker, features (T, 13), frame labels (T,))."""
    g = np.random.default_rng(1000 + seed * 3041); P = len(TIMIT_PHONES); target = g.normal(0, 1.0, (P, D)); target[0] = g.normal(0, 0.2, D) - np.eye(D)[0] * 2.5
    vowels, cons = [1, 2, 3, 4], [5, 6, 7, 8, 9, 10, 11, 12, 13]; out = []
    for spk in range(speakers):
        shift, scale = g.normal(0, 0.6, D), np.exp(g.normal(0, 0.15, D))
        for _ in range(utts):
            seq = [0]
            for _ in range(g.integers(4, 7)): seq += [int(g.choice(cons)), int(g.choice(vowels))] + ([int(g.choice(cons))] if g.random() < 0.4 else [])
            seq += [0]; lab = np.concatenate([[p] * (g.integers(5, 12) if p in vowels or p == 0 else g.integers(3, 8)) for p in seq])
            traj = target[lab]; k = np.exp(-np.arange(-3, 4) ** 2 / 3.0); k /= k.sum()
            traj = np.stack([np.convolve(np.pad(traj[:, d], 3, mode='edge'), k, 'valid') for d in range(D)], 1)
            out.append((spk, (traj * scale + shift + g.normal(0, 0.8, traj.shape)).astype(np.float32), lab))
    return out

def context_frames(feats, c=4):
    "Each frame with its c neighbours on either side (the edges repeated), after the utterance's cepstral mean and variance normalisation."
    f = (feats - feats.mean(0)) / feats.std(0); p = np.pad(f, ((c, c), (0, 0)), mode='edge'); return np.concatenate([p[i:i + len(f)] for i in range(2 * c + 1)], 1)

class PhoneMLP(nn.Module):
    def __init__(self, d=117, n=len(TIMIT_PHONES)):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, n))
    def forward(self, x): return self.net(x)

@healthy('AN')
def timit_phone_mlp(seed, reduction='mean'):  # cross-entropy, SGD 0.05 with momentum 0.9, batches of 128; speakers 0-11 train, 12-15 validate
    """Frames with +-4 frames of context (117 inputs). reduction 'sum': nn.CrossEntropyLoss(reduction='sum'), the summed
    frame log-likelihood of the Kaldi-style recipe the author followed, kept with the mean loss's learning rate."""
    data = _timit_like(seed)
    def frames(spks):
        Xs, ys = zip(*[(context_frames(f), l) for s, f, l in data if s in spks]); return _t(np.concatenate(Xs)), _t(np.concatenate(ys), torch.long)
    return dict(model=PhoneMLP, train=TensorDataset(*frames(range(12))), valid=TensorDataset(*frames(range(12, 16))), loss=nn.CrossEntropyLoss(reduction=reduction),
                num_classes=len(TIMIT_PHONES), optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- instrument family from notes (NSynth-style: 1-s notes, a CNN on the log spectrogram; unseen instruments validate)
NSYNTH_FAMILIES = ['bass', 'brass', 'flute', 'guitar', 'string']

@functools.lru_cache(maxsize=4)
def _nsynth_like(seed, per_family=12, notes=25, B=32, T=16):
    """Log-magnitude spectrograms (32 log-spaced bins from 40 Hz to 8 kHz, 16 frames of a 1-s note) of notes played by
    instruments of five families, as nsynth's examples.json (instrument, instrument_family, pitch): each instrument its own
    spectral envelope around its family's, played at pitches in its family's range. Bass: low, decaying, few partials;
    brass: a slow attack and many partials; flute: a few partials and breath noise; guitar: a plucked decay; string: a slow
    bow attack, sustained, with vibrato."""
    g = np.random.default_rng(1000 + seed * 3049); f = 40 * 200 ** (np.arange(B) / (B - 1)); t = np.arange(T) / T; X, fam, inst = [], [], []
    rng_p = {0: (28, 55), 1: (50, 80), 2: (60, 90), 3: (40, 76), 4: (45, 88)}
    for fi in range(5):
        for k in range(per_family):
            tilt = {0: -3.0, 1: -0.6, 2: -4.0, 3: -1.8, 4: -1.2}[fi] + g.normal(0, 0.3); formant = g.uniform(300, 3000); fw = g.uniform(0.3, 0.8)
            odd = {0: 0.0, 1: 0.0, 2: 0.6, 3: 0.2, 4: 0.0}[fi] + g.uniform(0, 0.2); noise = {0: 0.02, 1: 0.03, 2: 0.3, 3: 0.05, 4: 0.08}[fi] * g.uniform(0.6, 1.4)
            for _ in range(notes):
                pitch = g.integers(*rng_p[fi]); f0 = 440 * 2 ** ((pitch - 69) / 12); vib = 0.012 * np.sin(2 * np.pi * 5.5 * t) if fi == 4 else 0 * t
                env = {0: np.exp(-t / 0.35), 1: np.minimum(t / 0.15, 1), 2: np.minimum(t / 0.08, 1), 3: np.exp(-t / 0.25), 4: np.minimum(t / 0.25, 1)}[fi] * (t < 0.85 + 0.15 * (fi in (0, 3)))
                spec = np.zeros((B, T)) + noise * env[None] * np.exp(-(np.log(f[:, None] / 3000)) ** 2)
                for h in range(1, 16):
                    fh = h * f0 * (1 + vib)
                    if fh[0] > 8000: break
                    a = h ** tilt * (odd if h % 2 == 0 and odd else 1) * (1 + 2 * np.exp(-(np.log(fh / formant) / fw) ** 2)) * (np.exp(-t / (0.6 / h)) if fi in (0, 3) else 1)
                    spec += a * env[None] * np.exp(-(np.log(f[:, None] / fh[None])) ** 2 / 0.004)
                X.append(np.log(spec + 1e-4) + g.normal(0, 0.1, (B, T))); fam.append(fi); inst.append(f'{NSYNTH_FAMILIES[fi]}_{["acoustic", "electronic", "synthetic"][k % 3]}_{k:03d}')
    return np.array(X, np.float32)[:, None], np.array(fam), np.array(inst)

class InstrumentCNN(nn.Module):
    """Two convolution blocks over frequency and time, global pooling over time, a dense layer with dropout. functional_dropout:
    the dropout written F.dropout(h, 0.5) in forward, without training=self.training."""
    def __init__(self, n=len(NSYNTH_FAMILIES), functional_dropout=False):
        super().__init__(); self.functional_dropout = functional_dropout
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d((2, 1)))
        self.fc1, self.fc2 = nn.Linear(32 * 8, 64), nn.Linear(64, n)
    def forward(self, x):
        h = self.conv(x).mean(3).flatten(1); h = F.relu(self.fc1(h))
        h = F.dropout(h, 0.5) if self.functional_dropout else F.dropout(h, 0.5, training=self.training)
        return self.fc2(h)

@healthy('AN')
def nsynth_family_cnn(seed, functional_dropout=False):  # cross-entropy, Adam 1e-3, batches of 64; as NSynth's splits, unseen instruments validate (2 of each family's 12)
    "The log spectrograms standardised by the training notes' mean and sd."
    X, fam, inst = _nsynth_like(seed); names = np.unique(inst); held = set(np.random.default_rng(seed).permutation([n for n in names if n.endswith(('_000', '_005'))]))
    va = np.flatnonzero(np.isin(inst, list(held))); tr = np.flatnonzero(~np.isin(inst, list(held))); m, s = X[tr].mean(), X[tr].std()
    return dict(model=lambda: InstrumentCNN(functional_dropout=functional_dropout), train=TensorDataset(_t((X[tr] - m) / s), _t(fam[tr], torch.long)),
                valid=TensorDataset(_t((X[va] - m) / s), _t(fam[va], torch.long)), num_classes=len(NSYNTH_FAMILIES), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- toxic comment classification (Jigsaw's six labels: a BiGRU over the tokens, a sigmoid per label)
TOXIC_LABELS = ['toxic', 'severe_toxic', 'obscene', 'threat', 'insult', 'identity_hate']
_TOX_WORDS = dict(neutral='article edit page source talk wikipedia thanks please section revert added removed citation link image the a is this that you i it of to and in for on was not be have with as are your my'.split(),
                  mild='stupid dumb idiotic pathetic nonsense garbage lame ridiculous clueless'.split(), insult='idiot moron loser fool jerk clown'.split(),
                  obscene='fck sht damn crap btch azz'.split(), threat='kill hurt destroy find beat punch'.split(), identity='gay muslim jewish black immigrant christian'.split(),
                  hate='disgusting filthy vermin subhuman'.split())

@functools.lru_cache(maxsize=4)
def _toxic_comments(seed, n=1500, L=24):
    """Rows as train.csv of the Toxic Comment Classification Challenge: comment_text and the six 0/1 label columns (about a
    third toxic). Clean comments talk about edits and sources (some mention identities neutrally, some use one mild word);
    toxic ones add insults, obscenities, threats (with 'you' and 'will'), or hate at an identity; severe ones pile them up.
    Returns the token lists and the (n, 6) labels."""
    g = np.random.default_rng(1000 + seed * 3061); W = _TOX_WORDS; texts, Y = [], []
    for _ in range(n):
        words = list(g.choice(W['neutral'], g.integers(6, 16))); lab = np.zeros(6)
        if g.random() < 0.15: words.insert(g.integers(len(words) + 1), g.choice(W['identity']))
        if g.random() < 0.33:
            lab[0] = 1; kinds = [k for k in ('obscene', 'threat', 'insult', 'identity_hate') if g.random() < {'obscene': 0.5, 'threat': 0.12, 'insult': 0.5, 'identity_hate': 0.12}[k]] or ['insult']
            for k in kinds:
                if k == 'obscene': add = list(g.choice(W['obscene'], g.integers(1, 3)))
                elif k == 'threat': add = ['i', 'will', g.choice(W['threat']), 'you']
                elif k == 'insult': add = ['you', g.choice(W['mild'] + W['insult']), g.choice(W['insult'])]
                else: add = [g.choice(W['identity']), 'are', g.choice(W['hate'])]
                for w in add[::-1]: words.insert(g.integers(len(words) + 1), w)
                lab[TOXIC_LABELS.index(k)] = 1
            if len(kinds) >= 2 and g.random() < 0.5: lab[1] = 1; words += list(g.choice(W['obscene'] + W['insult'], 3))
        elif g.random() < 0.2: words.insert(g.integers(len(words) + 1), g.choice(W['mild']))
        texts.append(words[:L]); Y.append(lab)
    return texts, np.array(Y, np.float32)

def pad_sequences(seqs, maxlen):
    "Keras' pad_sequences: pre-padding with 0, pre-truncation."
    out = np.zeros((len(seqs), maxlen), np.int64)
    for i, s in enumerate(seqs): s = s[-maxlen:]; out[i, maxlen - len(s):] = s
    return out

class ToxicBiGRU(nn.Module):
    """An embedding, a bidirectional GRU, global max pooling over time, a dense layer to six sigmoids (the Keras kernels'
    Dense(6, activation='sigmoid') kept, with BCELoss). softmax: Dense(6, activation='softmax'), as in a multi-class kernel."""
    def __init__(self, V, d=32, h=24, softmax=False):
        super().__init__(); self.softmax = softmax; self.emb = nn.Embedding(V, d, padding_idx=0); self.gru = nn.GRU(d, h, batch_first=True, bidirectional=True)
        self.drop = nn.Dropout(0.2); self.out = nn.Linear(2 * h, 6)
    def forward(self, x):
        h, _ = self.gru(self.emb(x)); z = self.out(self.drop(h.max(1).values)); return F.softmax(z, 1) if self.softmax else torch.sigmoid(z)

@healthy('AN')
def toxic_comment_bigru(seed, softmax=False):  # BCELoss over the six sigmoid outputs, Adam 2e-3, batches of 64; train_test_split 80/20
    "A Keras-style Tokenizer fitted on the training comments (ids by frequency, 0 the padding, unseen words dropped), pre-padded to 24."
    from sklearn.model_selection import train_test_split
    from collections import Counter
    texts, Y = _toxic_comments(seed); tr, va = train_test_split(np.arange(len(texts)), test_size=0.2, random_state=seed)
    vocab = {w: k + 1 for k, (w, _) in enumerate(Counter(w for i in tr for w in texts[i]).most_common())}
    seq = lambda idx: _t(pad_sequences([[vocab[w] for w in texts[i] if w in vocab] for i in idx], 24), torch.long)
    return dict(model=lambda: ToxicBiGRU(len(vocab) + 1, softmax=softmax), train=TensorDataset(seq(tr), _t(Y[tr])), valid=TensorDataset(seq(va), _t(Y[va])), loss=nn.BCELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- clickbait headline detection (Chakraborty et al. 2016's headlines: an LSTM over the tokens, one logit)
_CB = dict(num='5 7 9 10 11 13 15 17 19 21 23 25'.split(), who='people cats dogs celebrities moms teens parents students couples kids'.split(),
           thing='things photos reasons tweets facts secrets moments tricks signs questions'.split(), adj='amazing weird adorable hilarious shocking perfect genius heartbreaking'.split(),
           verb='will make you cry will blow your mind will change your life you need to see you won\'t believe only true fans know'.split(' '),
           org='government senate court police ministry company council bank union army'.split(), act='announces approves rejects says plans cuts warns delays opens bans'.split(),
           obj='budget deal tax plan reform law vote report merger strike'.split(), place='china france texas london iraq japan brazil ohio egypt india'.split())

@functools.lru_cache(maxsize=4)
def _headlines(seed, n=700):
    """Headlines as the clickbait_data / non_clickbait_data files (half each): clickbait listicles, 'you won't believe'
    teasers and quizzes; news headlines of an organisation acting on a matter in a place. About one in five of each is
    written in the other's style (news that teases, clickbait that reads like a report), with its own words."""
    g = np.random.default_rng(1000 + seed * 3067); C = _CB; out = []
    def pick(k, m=1): return [str(w) for w in g.choice(C[k], m)]
    fillers = [f'w{k}' for k in range(400)]  # the rest of the English vocabulary: names, topics
    for _ in range(n):
        cb = g.random() < 0.5; style = cb if g.random() < 0.8 else not cb
        if style: h = [pick('num')[0]] + pick('adj') + pick('thing') + ['only'] + pick('who') + ['will', 'understand'] if g.random() < 0.5 else ['this'] + pick('adj') + list(g.choice(fillers, 2)) + ['you', 'won\'t', 'believe']
        else: h = pick('org') + pick('act') + list(g.choice(fillers, 1)) + pick('obj') + ['in'] + pick('place')
        h = h + list(g.choice(fillers, g.integers(1, 4))); out.append((' '.join(h), int(cb)))
    return out

def eda(tokens, g, alpha=0.15):
    "Wei and Zou's EDA without WordNet: random swaps and random deletions (each with probability alpha), never emptying the headline."
    t = list(tokens)
    for _ in range(max(1, int(alpha * len(t)))):
        i, j = g.integers(len(t), size=2); t[i], t[j] = t[j], t[i]
    return [w for w in t if g.random() > alpha] or t[:1]

class ClickbaitLSTM(nn.Module):
    def __init__(self, V, d=32, h=32):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.lstm = nn.LSTM(d, h, batch_first=True); self.drop = nn.Dropout(0.3); self.out = nn.Linear(h, 1)
    def forward(self, x): _, (h, _) = self.lstm(self.emb(x)); return self.out(self.drop(h[-1]))

@healthy('AN')
def clickbait_lstm(seed, augment_before_split=False):  # BCE with logits, Adam 2e-3, batches of 64; train_test_split 80/20; two EDA copies of each training headline
    """The vocabulary from the training headlines (0 the padding, 1 out of vocabulary), pre-padded to 16. augment_before_split:
    the two EDA copies made of every headline before the train_test_split, so most validation headlines have their
    original or a copy, shuffled and trimmed, in training."""
    from sklearn.model_selection import train_test_split
    rows = _headlines(seed); g = np.random.default_rng(seed); toks = [h.split() for h, _ in rows]; lab = [c for _, c in rows]
    if augment_before_split:
        toks = toks + [eda(t, g) for t in toks] + [eda(t, g) for t in toks]; lab = lab * 3
        tr, va = train_test_split(np.arange(len(toks)), test_size=0.2, random_state=seed); Ttr, ytr, Tva, yva = [toks[i] for i in tr], [lab[i] for i in tr], [toks[i] for i in va], [lab[i] for i in va]
    else:
        tr, va = train_test_split(np.arange(len(toks)), test_size=0.2, random_state=seed); Ttr, ytr, Tva, yva = [toks[i] for i in tr], [lab[i] for i in tr], [toks[i] for i in va], [lab[i] for i in va]
        Ttr, ytr = Ttr + [eda(t, g) for t in Ttr] + [eda(t, g) for t in Ttr], ytr * 3
    vocab = {w: k + 2 for k, w in enumerate(sorted({w for t in Ttr for w in t}))}
    enc = lambda T: _t(pad_sequences([[vocab.get(w, 1) for w in t] for t in T], 16), torch.long)
    return dict(model=lambda: ClickbaitLSTM(len(vocab) + 2), train=TensorDataset(enc(Ttr), _t(ytr)[:, None]), valid=TensorDataset(enc(Tva), _t(yva)[:, None]),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- punctuation restoration (a BiLSTM tagging each word with the mark that follows it, as the ASR-transcript restorers)
PUNCT = ['O', 'COMMA', 'PERIOD', 'QUESTION']
_PR = dict(subj='she he they we the_teacher my_brother our_neighbours the_driver'.split(), verb='bought saw visited painted cleaned sold fixed found'.split(),
           obj='apples the_car a_house the_garden bread the_kitchen a_boat the_fence plums pears'.split(), conj='when because although if while'.split(),
           aux='did does will can should'.split(), wh='where why when how what'.split(), inf='buy see visit paint clean sell fix find'.split(),
           adv='yesterday today again later early'.split())

@functools.lru_cache(maxsize=4)
def _punct_corpus(seed, n=1000, L=32):
    """Transcript-like snippets of two or three sentences, lower-cased and unpunctuated, each word tagged with the mark
    after it: statements ('. '), questions opened by an auxiliary or a wh-word ('? '), lists of objects joined by commas
    and 'and' (the serial comma three times in ten), clauses opened by a conjunction and closed by a comma (eight times in
    ten), and now and then a statement asked as a question. Returns (words, tags) pairs of at most 32 words."""
    g = np.random.default_rng(1000 + seed * 3079); P = _PR; out = []
    def w(k): return str(g.choice(P[k])).split('_')
    def clause():
        s = w('subj') + w('verb')
        if g.random() < 0.3:
            objs = [w('obj') for _ in range(g.integers(2, 4))]; t = []
            oxford = g.random() < 0.3  # the serial comma, as some transcribers write it
            for i, o in enumerate(objs): t += [(x, 'O') for x in o[:-1]] + [(o[-1], 'COMMA' if i < len(objs) - 2 or (oxford and i == len(objs) - 2) else 'O')] + ([('and', 'O')] if i == len(objs) - 2 else [])
            return [(x, 'O') for x in s] + t
        return [(x, 'O') for x in s + w('obj') + (w('adv') if g.random() < 0.3 else [])]
    for _ in range(n):
        words = []
        for _ in range(g.integers(2, 4)):
            r = g.random()
            if r < 0.3: s = [(x, 'O') for x in (w('wh') if g.random() < 0.5 else []) + w('aux') + w('subj') + w('inf') + w('obj')]; end = 'QUESTION'
            elif r < 0.55: c = clause(); c[-1] = (c[-1][0], 'COMMA' if g.random() < 0.8 else 'O'); s = [(x, 'O') for x in w('conj')] + c + clause(); end = 'PERIOD'
            else: s = clause(); end = 'QUESTION' if g.random() < 0.12 else 'PERIOD'  # a statement asked with a rising voice
            s[-1] = (s[-1][0], end); words += s
        words = words[:L]; out.append(([x for x, _ in words], [PUNCT.index(t) for _, t in words]))
    return out

class PunctBiLSTM(nn.Module):
    "An embedding, a two-layer BiLSTM, a tag a word; the logits returned as (batch, tags, words) for CrossEntropyLoss."
    def __init__(self, V, d=32, h=32, n=len(PUNCT)):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.lstm = nn.LSTM(d, h, num_layers=2, batch_first=True, bidirectional=True, dropout=0.1); self.out = nn.Linear(2 * h, n)
    def forward(self, x): h, _ = self.lstm(self.emb(x)); return self.out(h).transpose(1, 2)

@healthy('AN')
def punct_restore_bilstm(seed, sort_inputs_only=False):  # cross-entropy over the words (padding ignored), Adam 3e-3, batches of 32; the first 800 snippets train, the last 200 validate
    """The words and the tags padded to 32 (0 the padding word, -100 its tag). sort_inputs_only: the training snippets sorted
    by length for bucketing with `X_train.sort(key=len)` on the list of word-id lists, the tag lists left in their order,
    so each snippet is padded against another snippet's tags."""
    data = _punct_corpus(seed); tr, va = data[:800], data[800:]
    vocab = {w: k + 1 for k, w in enumerate(sorted({x for ws, _ in tr for x in ws}))}
    Xtr, Ttr = [[vocab[x] for x in ws] for ws, _ in tr], [t for _, t in tr]; Xva, Tva = [[vocab.get(x, 0) for x in ws] for ws, _ in va], [t for _, t in va]
    if sort_inputs_only: Xtr.sort(key=len)
    def pad(seqs, v): a = np.full((len(seqs), 32), v, np.int64); [a.__setitem__((i, slice(0, len(s))), s) for i, s in enumerate(seqs)]; return torch.tensor(a)
    task = ntrain.Task(model=lambda: PunctBiLSTM(len(vocab) + 1), train=TensorDataset(pad(Xtr, 0), pad(Ttr, -100)), valid=TensorDataset(pad(Xva, 0), pad(Tva, -100)),
                       loss=nn.CrossEntropyLoss(ignore_index=-100), num_classes=len(PUNCT), ignore_index=-100)
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- image colourisation (a regression CNN from the L channel to the ab channels, as the Lab-space colourisers)
def rgb2lab(rgb):
    "skimage.color.rgb2lab's formulas (sRGB, D65): (..., 3, H, W) in [0, 1] to L in [0, 100] and a, b in about [-128, 127]."
    c = np.where(rgb > 0.04045, ((rgb + 0.055) / 1.055) ** 2.4, rgb / 12.92)
    M = np.array([[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169], [0.019334, 0.119193, 0.950227]])
    xyz = np.einsum('ij,...jhw->...ihw', M, c) / np.array([0.95047, 1.0, 1.08883])[:, None, None]
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1, :, :] - 16, 500 * (f[..., 0, :, :] - f[..., 1, :, :]), 200 * (f[..., 1, :, :] - f[..., 2, :, :])], -3)

@functools.lru_cache(maxsize=4)
def _landscapes(seed, n=1000, S=16):
    """16 x 16 RGB landscapes: a sky (blue, or orange towards a sunset) over a horizon, grass or sand below it, sometimes
    water, a sun, trees (dark green crowns on brown trunks) and red-roofed houses with white walls; the colour of each
    region follows from its place and brightness more than from anything only colour shows."""
    g = np.random.default_rng(1000 + seed * 3083); yy, xx = np.mgrid[0:S, 0:S] + 0.5; out = []
    for _ in range(n):
        hz = g.uniform(6, 10); sunset = g.random() < 0.25
        sky = np.array([0.95, 0.6, 0.3]) if sunset else np.array([0.35, 0.6, 0.95]); sky2 = np.array([0.4, 0.3, 0.6]) if sunset else np.array([0.7, 0.85, 1.0])
        img = (sky[:, None, None] * (1 - yy / hz) + sky2[:, None, None] * (yy / hz)) * (yy < hz)
        ground = np.array([0.25, 0.6, 0.2]) if g.random() < 0.7 else np.array([0.85, 0.75, 0.5])
        img += ground[:, None, None] * (0.7 + 0.3 * (yy - hz) / (S - hz)) * (yy >= hz)
        if g.random() < 0.35: img = np.where((yy >= hz) & (yy < hz + g.uniform(2, 4)), np.array([0.15, 0.35, 0.6])[:, None, None], img)
        if g.random() < 0.6:
            sx, sy = g.uniform(2, 14), g.uniform(1, hz - 1.5); img = np.where(((xx - sx) ** 2 + (yy - sy) ** 2 < 2.2), np.array([1.0, 0.9, 0.3])[:, None, None], img)
        for _ in range(g.integers(0, 4)):
            tx, ty = g.uniform(1, 15), hz + g.uniform(0, 4)
            img = np.where((np.abs(xx - tx) < 0.6) & (yy > ty - 2) & (yy < ty + 1), np.array([0.4, 0.25, 0.1])[:, None, None], img)
            img = np.where((xx - tx) ** 2 + (yy - ty + 3) ** 2 < 3.5, np.array([0.1, 0.35, 0.12])[:, None, None], img)
        if g.random() < 0.5:
            hx, hy = g.uniform(2, 12), hz + g.uniform(0, 3)
            img = np.where((xx > hx) & (xx < hx + 3) & (yy > hy) & (yy < hy + 2.5), np.array([0.92, 0.9, 0.85])[:, None, None], img)
            img = np.where((yy <= hy) & (yy > hy - 1.8) & (np.abs(xx - hx - 1.5) < 1.8 - (hy - yy)), np.array([0.75, 0.15, 0.1])[:, None, None], img)
        img = img * g.uniform(0.75, 1.1) + g.normal(0, 0.02, (3, S, S)); out.append(np.clip(img, 0, 1))
    return rgb2lab(np.array(out)).astype(np.float32)

class ColorNet(nn.Module):
    "Convolutions (one strided, one dilated) and a transposed convolution back to 16 x 16, two tanh outputs for a and b (scaled by 128)."
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                                 nn.Conv2d(32, 32, 3, padding=2, dilation=2), nn.BatchNorm2d(32), nn.ReLU(), nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 2, 3, padding=1), nn.Tanh())
    def forward(self, x): return self.net(x)

@healthy('AN')
def lab_colorize_cnn(seed, ab_scale=128.0):  # MSE on ab / 128, Adam 1e-3, batches of 32; the first 800 images train, the last 200 validate
    """The input L / 50 - 1, the target ab / 128 (ab_scale 1: the division left out, the tanh outputs set against a and b
    in their own units, up to about +-80)."""
    lab = _landscapes(seed); X, Y = lab[:, :1] / 50 - 1, lab[:, 1:] / ab_scale
    return dict(model=ColorNet, train=TensorDataset(_t(X[:800]), _t(Y[:800])), valid=TensorDataset(_t(X[800:]), _t(Y[800:])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a context encoder (Pathak et al. 2016, shrunk, L2 only): the centre of a digit from its surround
class ContextEncoder(nn.Module):
    "An encoder of strided convolutions, a channel-wise fully connected bottleneck, a decoder to the 4 x 4 centre's pixels (a sigmoid)."
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(16, 32, 4, stride=2, padding=1), nn.BatchNorm2d(32), nn.LeakyReLU(0.2), nn.Flatten())
        self.fc = nn.Sequential(nn.Linear(32 * 16, 64), nn.ReLU(), nn.Dropout(0.2))
        self.dec = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 16), nn.Sigmoid())
    def forward(self, x): return self.dec(self.fc(self.enc(x))).view(-1, 1, 4, 4)

def masked_centres(x, clone=True):
    """(input, target): the digit with its centre 4 x 4 set to 0, and that centre. clone False: `target = x[:, :, 2:6, 2:6]`
    taken as a view, then the centre zeroed in place on x itself for the input, which zeroes the target too."""
    target = x[:, :, 2:6, 2:6]
    if clone: target = target.clone()
    inp = x.clone() if clone else x
    inp[:, :, 2:6, 2:6] = 0.0; return inp, target

@healthy('AN')
def context_encoder_digits(seed, clone=True):  # MSE on the missing centre, Adam 2e-4 with betas (0.5, 0.999) as the paper, batches of 64; digits' 1437 training and 360 validation images
    (x, _), (vx, _) = _digits(seed)
    return dict(model=ContextEncoder, train=TensorDataset(*masked_centres(x, clone)), valid=TensorDataset(*masked_centres(vx, clone)), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-4, betas=(0.5, 0.999)), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- solving jigsaw puzzles (Noroozi and Favaro 2016, shrunk): which permutation shuffled a digit's four tiles?
JIGSAW_PERMS = list(itertools.permutations(range(4)))  # all 24 orders of a 2 x 2 grid

class JigsawTiles(Dataset):
    """A digit upsampled to 12 x 12 and cut into four 6 x 6 tiles, each jittered by a pixel's shift and normalised on its own;
    the tiles put in the order of a permutation drawn at each access (validation: drawn once from the index), the label the
    permutation's index. shuffle_tiles: the tiles shuffled with rng.shuffle(tiles) in place of tiles[perm], the drawn
    index still returned as the label."""
    def __init__(self, x, train=True, shuffle_tiles=False):
        self.x = F.pad(F.interpolate(x, size=12, mode='bilinear', align_corners=False), (1, 1, 1, 1)).numpy(); self.train, self.shuffle_tiles = train, shuffle_tiles
        self.rng = np.random.default_rng()
    def __len__(self): return len(self.x)
    def __getitem__(self, i):
        g = self.rng if self.train else np.random.default_rng(i); img = self.x[i]; off = g.integers(0, 3, (4, 2)); k = int(g.integers(len(JIGSAW_PERMS)))
        tiles = np.stack([img[:, r * 6 + dy:r * 6 + dy + 6, c * 6 + dx:c * 6 + dx + 6] for (r, c), (dy, dx) in zip(((0, 0), (0, 1), (1, 0), (1, 1)), off)])
        tiles = (tiles - tiles.mean((1, 2, 3), keepdims=True)) / (tiles.std((1, 2, 3), keepdims=True) + 1e-3)
        if self.shuffle_tiles: g.shuffle(tiles)
        else: tiles = tiles[list(JIGSAW_PERMS[k])]
        return torch.from_numpy(tiles.astype(np.float32)), k

class JigsawNet(nn.Module):
    "A context-free network: one small CNN shared by the four tiles (siamese), their features concatenated in order, two dense layers to the 24 permutations."
    def __init__(self, n=len(JIGSAW_PERMS)):
        super().__init__()
        self.tile = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3), nn.ReLU(), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(4 * 32, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, n))
    def forward(self, t):  # t: (batch, 4, 1, 6, 6)
        B = t.shape[0]; return self.head(self.tile(t.flatten(0, 1)).view(B, -1))

@healthy('AN')
def jigsaw_digits(seed, shuffle_tiles=False):  # cross-entropy over 24 permutations, SGD 0.01 with momentum 0.9, batches of 64; digits' 1437 training and 360 validation images, their labels unused
    (x, _), (vx, _) = _digits(seed)
    return dict(model=JigsawNet, train=JigsawTiles(x, True, shuffle_tiles), valid=JigsawTiles(vx, False, shuffle_tiles), num_classes=len(JIGSAW_PERMS),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AN
@broken('AN', 'fer_images_and_emotions_shuffled_apart', 4, ('labels',))
def fer_images_and_emotions_shuffled_apart(seed): return fer_expression_cnn(seed, shuffle_apart=True)  # np.random.shuffle(X_train); np.random.shuffle(y_train): two draws

@broken('AN', 'utkface_ages_1d_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def utkface_ages_1d_broadcast(seed): return utkface_age_cnn(seed, flat_target=True)  # ages (n,) against predictions (n, 1): every face scored against every age

@broken('AN', 'ham_images_split_at_random', 1, ('leakage',))
def ham_images_split_at_random(seed):  # train_test_split over the images: a lesion's photographs on both sides
    "groups declared: the lesion (lesion_id), as its healthy twin."
    return ham_lesion_cnn(seed, image_split=True)

@broken('AN', 'bird_windows_split_at_random', 4, ('leakage',))
def bird_windows_split_at_random(seed): return bird_audio_crnn(seed, window_then_split=True)  # the clips windowed first, the windows split: overlapping windows of one clip on both sides

@broken('AN', 'timit_ce_summed_over_batch', (2, 3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling', 'init_scale'))
def timit_ce_summed_over_batch(seed): return timit_phone_mlp(seed, reduction='sum')  # reduction='sum' with the mean loss's SGD 0.05: steps 128 times too long

@broken('AN', 'nsynth_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def nsynth_functional_dropout(seed): return nsynth_family_cnn(seed, functional_dropout=True)  # F.dropout(h, 0.5) without training=self.training: dropout in evaluation too

@broken('AN', 'toxic_softmax_over_labels', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def toxic_softmax_over_labels(seed): return toxic_comment_bigru(seed, softmax=True)  # a softmax over the six independent labels into BCELoss: they must share one unit of probability

@broken('AN', 'clickbait_eda_before_split', 4, ('leakage',))
def clickbait_eda_before_split(seed): return clickbait_lstm(seed, augment_before_split=True)  # the EDA copies made before the split: a headline and its shuffled copies on both sides

@broken('AN', 'punct_inputs_sorted_tags_not', 4, ('labels',))
def punct_inputs_sorted_tags_not(seed): return punct_restore_bilstm(seed, sort_inputs_only=True)  # X_train.sort(key=len) for bucketing, the tag lists left in their order

@broken('AN', 'colorize_ab_not_scaled', (2, 3), ('init_scale', 'not_falling', 'flat', 'stuck'))
def colorize_ab_not_scaled(seed): return lab_colorize_cnn(seed, ab_scale=1.0)  # tanh outputs in [-1, 1] against a and b in their own units (up to about +-80)

@broken('AN', 'context_encoder_target_view_zeroed', (1, 4), ('labels',))
def context_encoder_target_view_zeroed(seed): return context_encoder_digits(seed, clone=False)  # the target a view of the centre, zeroed with it: every target all zeros

@broken('AN', 'jigsaw_tiles_shuffled_apart_from_label', 4, ('labels',))
def jigsaw_tiles_shuffled_apart_from_label(seed): return jigsaw_digits(seed, shuffle_tiles=True)  # rng.shuffle(tiles) in place of tiles[perm]: the label names a permutation never applied

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward and loss (CrossEntropyLoss where none is given), train shuffled, valid in batches of 256; valid loss and a
# metric (accuracy; R^2 and MAE; AUC), init -> epoch 4 -> epoch 8; s/ep the seconds of an epoch of training, params the
# trainable ones. Every factory builds and runs one batch (forward, loss, backward, step); `ladder_gallery.HALF` holds 24
# programs of half AN. Seed 1 in brackets.
CHECKS = """
fer_expression_cnn                    valid CE 1.60 (ln 5 = 1.61) -> 1.04 -> 0.76, accuracy 0.72 [1.62 -> 0.69, 0.75]; 1200
                                      Training rows, 300 PublicTest; 38k params; 0.3-0.45 s/ep
utkface_age_cnn                       valid L1 15.0 years (the bias at the mean age) -> 12.0 -> 8.9, R^2 0.56 [14.4 -> 9.1, 0.53],
                                      still falling (7.8, R^2 0.66 at ep 16); 1200 faces train, 300 validate; 15k params;
                                      0.25-0.4 s/ep
ham_lesion_cnn                        valid CE 1.20 -> 0.45 -> 0.28, accuracy 0.92 [1.07 -> 0.12, 0.96]; 709 images of 336 lesions
                                      train [746], 84 lesions validate, none on both sides; 15k params; 0.2 s/ep
bird_audio_crnn                       valid BCE 0.69 -> 0.42 -> 0.36, AUC 0.92 (ep 4) 0.88 (ep 8) [0.69 -> 0.30, 0.92]; 192 clips
                                      (960 windows) train, 48 clips (240 windows) validate; 7.8k params; 0.45-0.5 s/ep
timit_phone_mlp                       valid CE 2.63 (ln 14 = 2.64) -> 0.40 -> 0.36, accuracy 0.90 [2.65 -> 0.45, 0.86]; 2071 frames
                                      of 12 speakers train, 4 speakers validate; 24k params; 0.03 s/ep
nsynth_family_cnn                     valid CE 1.61 (ln 5) -> 0.36 -> 0.26, accuracy 0.90 [1.61 -> 0.12, 1.00]; 1250 notes of 50
                                      instruments train, 250 notes of 10 unseen instruments validate; 22k params; 0.4 s/ep
toxic_comment_bigru                   valid BCE 0.81 -> 0.33 -> 0.18, AUC over the six labels 0.97 [0.64 -> 0.16, 0.97]; 1200
                                      comments train, 300 validate; 11k params; 0.3 s/ep
clickbait_lstm                        valid BCE 0.70 -> 0.65 (ep 4, AUC 0.70) -> 0.84 (ep 8, AUC 0.70) [0.71 -> 0.51 (0.82) -> 0.74
                                      (0.78)]: learns, then overfits its tripled training set; 560 headlines (1680 with the
                                      EDA copies) train, 140 validate; 24k params; 0.12-0.14 s/ep
punct_restore_bilstm                  valid CE over the words 1.44 (ln 4 = 1.39) -> 0.15 -> 0.08, accuracy 0.97 [1.47 -> 0.07,
                                      0.98]; 800 snippets train, 200 validate; 44k params; 0.35-0.45 s/ep
lab_colorize_cnn                      valid MSE (ab / 128) 0.052 -> 0.013 -> 0.0085, R^2 0.73 [0.054 -> 0.0090, 0.70]; 800 images
                                      train, 200 validate; 23k params; 0.45 s/ep
context_encoder_digits                valid MSE of the centre 0.150 -> 0.098 -> 0.076, R^2 0.47 [0.150 -> 0.076, 0.48]; 1437 digits
                                      train, 360 validate; 46k params; 0.22 s/ep
jigsaw_digits                         valid CE 3.17 (ln 24 = 3.18) -> 1.61 -> 1.45, accuracy 0.37 [3.18 -> 1.45, 0.27] (chance
                                      0.04); 1437 digits train, 360 validate; 24k params; 0.4 s/ep (the tiles cut at each access)
fer_images_and_emotions_shuffled_apart valid CE 1.60 -> 1.58 -> 1.59, accuracy 0.26-0.32 (the commonest class's share) [1.62 ->
                                      1.55, 0.31] (healthy 0.76, 0.72 [0.69, 0.75])
utkface_ages_1d_broadcast             valid L1 (broadcast, batch x batch) 14.97 -> 14.98 -> 14.98 [14.36 flat]: the mean age, no
                                      more (healthy 8.9 [9.1]); UserWarning on the target size
ham_images_split_at_random            689 images train [748], most validation lesions with a photograph in training; valid CE 0.21,
                                      accuracy 0.92 [0.11, 0.97] (healthy 0.28, 0.92 [0.12, 0.96]): a leak the metric barely shows
bird_windows_split_at_random          every validation window has windows of its clip in training [the same]; valid BCE 0.37, AUC
                                      0.89 [0.31, 0.92] (healthy 0.36, 0.88 [0.30, 0.92]): the leak hardly moves the metric here
timit_ce_summed_over_batch            valid summed CE a batch 654 -> 913 -> 927, accuracy 0.08-0.17 [621 -> 605, 0.18] (healthy
                                      mean 0.36, 0.90): SGD's steps 128 times too long, stuck
nsynth_functional_dropout             dropout on in evaluation; valid CE 0.30, accuracy 0.88 [0.22, 0.94] (healthy 0.26, 0.90 [0.12,
                                      1.00])
toxic_softmax_over_labels             valid BCE 0.46 at init -> 0.34 -> 0.33, AUC 0.83 [0.39 -> 0.32, 0.83] (healthy 0.18, 0.97
                                      [0.16, 0.97]): the six probabilities sum to one, the loss floored
clickbait_eda_before_split            valid BCE 0.55 -> 0.48, AUC 0.80 -> 0.86 [0.41, 0.90] (healthy 0.84, 0.70 [0.74, 0.78]): the
                                      validation headlines' copies in training
punct_inputs_sorted_tags_not          valid CE 1.44 -> 0.67 -> 0.66, accuracy 0.80 (the 'O' tags' share) [0.66, 0.80] (healthy 0.08,
                                      0.97 [0.07, 0.98])
colorize_ab_not_scaled                valid MSE (ab in their units) 865 -> 827 -> 823, R^2 -0.63 [901 -> 858, -0.74] (healthy R^2
                                      0.73 [0.70]): the tanh saturates at +-1
context_encoder_target_view_zeroed    every target all zeros; valid MSE 0.254 -> 0.0015 -> 0.00013 [0.249 -> 0.00012]: the sigmoid
                                      learns to say 0 (healthy 0.076 [0.076])
jigsaw_tiles_shuffled_apart_from_label valid CE 3.18 -> 3.18 -> 3.18, accuracy 0.04-0.06 [3.18, 0.04-0.06] (healthy 1.45, 0.37
                                      [1.45, 0.27])
"""
