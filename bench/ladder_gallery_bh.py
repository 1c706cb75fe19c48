"""Half BH of the ladder's gallery: held out from the rules frozen at 7fa7964 (round 68), and run once on them.
Families not in halves A-BG, taken only from computer vision, audio and speech, natural language, generative models and
self-supervised (and semi-supervised) learning (a half written alongside took other domains): DeepLabv3-style semantic
segmentation (Chen et al. 2017, shrunk: a two-convolution stem, atrous spatial pyramid pooling with dilations 1, 2 and 4
and an image-pooling branch, batch norm, a 1x1 classifier; pixel-wise cross-entropy, Adam) of synthetic scenes of
squares, discs and crosses, the images and masks listed from img_<i>.npy and mask_<i>.npy names; a binarized neural
network (Hubara, Courbariaux et al. 2016: sign weights and sign activations through the straight-through estimator with
hardtanh, batch norm after each binary layer, the real weights clipped to [-1, 1] after each Adam step in a custom step)
on digits; Shake-Shake regularisation (Gastaldi 2017, shrunk: two residual branches mixed by a random alpha per image
in the forward pass and an independent beta in the backward pass through an autograd Function, 0.5 in evaluation; SGD
with Nesterov momentum) on digits; ProxyNCA (Movshovitz-Attias et al. 2017: a CNN embedding and one learnt proxy a class,
both L2-normalised and scaled, the NCA loss of the proxy against the other proxies; the distances as the model's
output, a loss of its own) on digits, the labels read as a one-column frame; heart sound classification (PhysioNet/CinC
2016-style phonocardiograms at 1 kHz: lub-dub cycles with systolic murmurs in abnormal hearts, 2-s segments with a 1-s hop,
a 1-D CNN with batch norm, one logit, BCE with logits; recordings split, no groups declared); accent identification from
MFCC sequences (Speech-Accent-Archive-style: 40 speakers of four accents, 20 utterances each stored as
<speaker>_<utt>.npy, a speakers.csv of speaker and accent; a GRU over 30 frames of 13 MFCCs; dict items and a forward of
its own; unseen speakers validating); Mockingjay (Liu et al. 2020, shrunk: a masked acoustic model, 15% of the log-mel
frames zeroed in the forward, a two-layer transformer encoder reconstructing them, the L1 loss on the masked frames only;
a tuple target and a loss of its own; no labels) of synthetic phone-like utterances; diacritic restoration (a character
BiLSTM tagger as the Vietnamese and Arabic diacritisers, four marks a character; a collate_fn that pads characters with
0 and tags with -100) on sentences of a synthetic language whose ambiguous words take their marks from the word before;
RCNN text classification (Lai, Xu, Liu and Zhao 2015: a BiLSTM's left and right contexts concatenated with each word's
embedding, a tanh projection, max pooling over time; a collate_fn that pads) of four-topic documents of varying length;
date normalisation by an attention encoder-decoder (the classic "human-readable dates to ISO" exercise after Bahdanau et
al. 2015: a character BiGRU encoder, a GRU-cell decoder with additive attention under teacher forcing; a batch of three
tensors and a forward of its own) of 300 dates each rendered in four formats; NVDM (Miao, Yu and Blunsom 2016: an MLP
encoder of bag-of-words counts to a 16-d Gaussian, a softmax decoder over the vocabulary, the reconstruction NLL plus the
KL; a tuple output and a loss of its own) of eight-topic documents; and Mean Teacher (Tarvainen and Valpola 2017: a CNN
student and its exponential-moving-average teacher, cross-entropy on the 200 labelled digits (-1 elsewhere, ignored) plus
the MSE between the two softmaxes on differently noised inputs, a custom step updating the teacher) on digits.
At most 1437 training items a program (the digits; 648 segments for the heart sounds, 800-960 elsewhere) and about 70k
trainable parameters; see CHECKS for the plain-loop timings.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half BG.

Protocol: written by a helper in a worktree at 7fa7964 (branch halfBH), held out from the rules frozen at 7fa7964 (round 68).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and tail (the import
lines), half AO's factories, CHECKS and @broken lines, the module docstrings of all halves A-BG (and greps of them for
candidate family names), the @broken lines of all halves (for the rung and cause conventions), ladder_sweep.py's --half
line and `ntrain.ladder`'s signature and docstring. Each program was checked by hand only with a plain torch loop of its
author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seed 0. No
program declares groups. Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half BH`; no
program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import copy, math
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- DeepLabv3-style ASPP segmentation of synthetic shape scenes
def _shape_scenes(seed, n=800, S=16):
    """Scenes of one to three shapes on a noisy background: class 1 squares, 2 discs, 3 crosses, each of a random
    brightness (the class is in the shape, not the intensity). Saved as img_<i>.npy and mask_<i>.npy: returned as dicts
    of file name to array, as the author's folder listing sees them."""
    g = np.random.default_rng(1000 + seed * 3001); yy, xx = np.mgrid[:S, :S]; imgs, masks = {}, {}
    for i in range(n):
        img = g.normal(0.2, 0.08, (S, S)); m = np.zeros((S, S), np.int64)
        for _ in range(g.integers(1, 4)):
            c = g.integers(1, 4); r = g.integers(2, 4); cy, cx = g.integers(r, S - r, 2)
            if c == 1: sh = (abs(yy - cy) <= r) & (abs(xx - cx) <= r)
            elif c == 2: sh = (yy - cy) ** 2 + (xx - cx) ** 2 <= (r + 0.5) ** 2
            else: sh = ((abs(yy - cy) <= r) & (abs(xx - cx) == 0)) | ((abs(xx - cx) <= r) & (abs(yy - cy) == 0))
            img[sh] = g.uniform(0.5, 1.0) + g.normal(0, 0.05, sh.sum()); m[sh] = c
        imgs[f'img_{i}.npy'] = img.astype(np.float32); masks[f'mask_{i}.npy'] = m
    return imgs, masks

class ASPP(nn.Module):
    def __init__(self, c_in=32, c=16, rates=(1, 2, 4)):
        super().__init__()
        self.branches = nn.ModuleList([nn.Sequential(nn.Conv2d(c_in, c, 1 if r == 1 else 3, padding=0 if r == 1 else r, dilation=r, bias=False), nn.BatchNorm2d(c), nn.ReLU()) for r in rates])
        self.pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(c_in, c, 1, bias=False), nn.ReLU())
        self.project = nn.Sequential(nn.Conv2d(c * (len(rates) + 1), 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(), nn.Dropout(0.1))
    def forward(self, x):
        p = self.pool(x).expand(-1, -1, *x.shape[2:])
        return self.project(torch.cat([b(x) for b in self.branches] + [p], 1))

class DeepLabSmall(nn.Module):
    def __init__(self, classes=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.aspp = ASPP(); self.classifier = nn.Conv2d(32, classes, 1)
    def forward(self, x): return self.classifier(self.aspp(self.stem(x)))

@healthy('BH')
def deeplab_aspp_shapes(seed, lexical_masks=False):  # pixel-wise cross-entropy over 4 classes, Adam 1e-3, batches of 32; 640 scenes train, 160 validate
    """The images listed with a natural sort on their index; lexical_masks: the masks listed by sorted(os.listdir(...)),
    mask_10.npy before mask_2.npy, and zipped with the naturally sorted images."""
    imgs, masks = _shape_scenes(seed)
    inames = sorted(imgs, key=lambda f: int(f[4:-4]))
    mnames = sorted(masks) if lexical_masks else sorted(masks, key=lambda f: int(f[5:-4]))
    X = torch.stack([torch.from_numpy(imgs[f]) for f in inames])[:, None]; Y = torch.stack([torch.from_numpy(masks[f]) for f in mnames])
    p = torch.randperm(len(X), generator=_gen(seed)); tr, va = p[:640], p[640:]
    return dict(model=DeepLabSmall, train=TensorDataset(X[tr], Y[tr]), valid=TensorDataset(X[va], Y[va]), loss=nn.CrossEntropyLoss(), num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a binarized neural network (Hubara, Courbariaux et al. 2016) on digits
def binarize(x, ste=True):
    "sign(x) in the forward pass; with ste, the gradient passed straight through (the hardtanh before it cancels it outside [-1, 1])."
    return x + (torch.sign(x) - x).detach() if ste else torch.sign(x)

class BinaryLinear(nn.Linear):
    def __init__(self, *a, binary_input=True, ste=True, **k): super().__init__(*a, **k); self.binary_input, self.ste = binary_input, ste
    def forward(self, x):
        if self.binary_input: x = binarize(x, self.ste)
        return F.linear(x, binarize(self.weight, self.ste), self.bias)

class BNN(nn.Module):
    def __init__(self, h=256, ste=True):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), BinaryLinear(64, h, binary_input=False, ste=ste), nn.BatchNorm1d(h), nn.Hardtanh(),
                                 BinaryLinear(h, h, ste=ste), nn.BatchNorm1d(h), nn.Hardtanh(), BinaryLinear(h, 10, ste=ste), nn.BatchNorm1d(10))
    def forward(self, x): return self.net(x)

def bnn_step(model, batch, opt):  # BinaryNet's loop: the real weights kept, the binary ones used, the real ones clipped after the step
    x, y = batch; loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, BinaryLinear): m.weight.clamp_(-1, 1)
    return loss

@healthy('BH')
def bnn_digits(seed, ste=True):  # cross-entropy, Adam 5e-3, batches of 64; 1437 digits train, 360 validate; a custom step
    "ste False: the layers binarise with a bare torch.sign, whose gradient is zero everywhere."
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: BNN(ste=ste), train=TensorDataset(x * 2 - 1, y), valid=TensorDataset(vx * 2 - 1, vy), num_classes=10, step=bnn_step,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Shake-Shake regularisation (Gastaldi 2017) on digits
class ShakeShake(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, alpha): return alpha * a + (1 - alpha) * b
    @staticmethod
    def backward(ctx, g):
        beta = torch.rand(g.shape[0], 1, 1, 1, dtype=g.dtype)
        return beta * g, (1 - beta) * g, None

class ShakeBlock(nn.Module):
    def __init__(self, c_in, c_out, stride=1, eval_random=False):
        super().__init__(); self.eval_random = eval_random
        br = lambda: nn.Sequential(nn.ReLU(), nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(), nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False), nn.BatchNorm2d(c_out))
        self.b1, self.b2 = br(), br()
        self.short = nn.Identity() if c_in == c_out and stride == 1 else nn.Sequential(nn.Conv2d(c_in, c_out, 1, stride, bias=False), nn.BatchNorm2d(c_out))
    def forward(self, x):
        a, b = self.b1(x), self.b2(x)
        if self.training or self.eval_random: mix = ShakeShake.apply(a, b, torch.rand(x.shape[0], 1, 1, 1))
        else: mix = 0.5 * (a + b)
        return self.short(x) + mix

class ShakeNet(nn.Module):
    def __init__(self, w=16, eval_random=False):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, w, 3, padding=1, bias=False), nn.BatchNorm2d(w))
        self.blocks = nn.Sequential(ShakeBlock(w, w, eval_random=eval_random), ShakeBlock(w, 2 * w, 2, eval_random=eval_random), ShakeBlock(2 * w, 2 * w, eval_random=eval_random))
        self.fc = nn.Linear(2 * w, 10)
    def forward(self, x): return self.fc(F.adaptive_avg_pool2d(F.relu(self.blocks(self.stem(x))), 1).flatten(1))

@healthy('BH')
def shake_shake_digits(seed, eval_random=False):  # cross-entropy, SGD 0.05 with Nesterov momentum 0.9 and weight decay 1e-4, batches of 64
    "eval_random: the block draws its alpha whatever the mode (the `if self.training` of the reference code left out)."
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: ShakeNet(eval_random=eval_random), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- ProxyNCA (Movshovitz-Attias et al. 2017) on digits
class ProxyNet(nn.Module):
    "A small CNN embedding and one proxy a class, both L2-normalised and scaled by 3; the output the squared distances (B, classes)."
    def __init__(self, d=32, classes=10, scale=3.0):
        super().__init__(); self.scale = scale
        self.embed = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 16, d))
        self.proxies = nn.Parameter(torch.randn(classes, d) / 8)
    def forward(self, x):
        e, p = self.scale * F.normalize(self.embed(x), dim=1), self.scale * F.normalize(self.proxies, dim=1)
        return torch.cdist(e, p) ** 2

def proxy_nca_loss(d, y):
    "-log( exp(-d(x, p_y)) / sum over z != y of exp(-d(x, p_z)) ), averaged over the batch."
    pos = y[:, None] == torch.arange(d.shape[-1])
    d_pos = (d * pos).sum(-1)
    neg = torch.logsumexp((-d).masked_fill(pos, float('-inf')), -1)
    return (d_pos + neg).mean()

@healthy('BH')
def proxy_nca_digits(seed, label_column=False):  # the ProxyNCA loss, Adam 1e-3 (the proxies in the same optimizer), batches of 64
    """The labels as a Series (df['label'].values); label_column: df[['label']].values, each label a (1,) row, so that
    y[:, None] == arange(classes) compares (B, 1, 1) with (classes,) and the loss scores every image against every
    image's proxy."""
    (x, y), (vx, vy) = _digits(seed)
    if label_column: y, vy = y[:, None], vy[:, None]
    return dict(model=ProxyNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=proxy_nca_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- heart sound classification (PhysioNet/CinC 2016-style phonocardiograms)
def _pcg(seed, recordings=90, fs=1000, secs=10):
    """Each recording its own heart rate (55-110 bpm), stethoscope gain, noise and baseline wander; S1 and S2 as decaying
    30-120 Hz tones; abnormal hearts (about 40%) with a band-limited systolic murmur between S1 and S2 and a louder S2."""
    g = np.random.default_rng(1000 + seed * 3011); out = []; t = np.arange(fs * secs) / fs
    for r in range(recordings):
        ab = g.random() < 0.4; hr = g.uniform(55, 110); period = 60 / hr; sys = 0.3 * period ** 0.5 * g.uniform(0.9, 1.1)
        x = np.zeros_like(t); beat = g.uniform(0, period)
        tone = lambda f, d: np.sin(2 * np.pi * f * np.arange(int(d * fs)) / fs) * np.exp(-np.arange(int(d * fs)) / (d * fs / 4))
        while beat < secs - 0.5:
            i = int(beat * fs); s1 = tone(g.uniform(30, 60), 0.1) * g.uniform(0.8, 1.2); x[i:i + len(s1)] += s1
            j = int((beat + sys) * fs); s2 = tone(g.uniform(50, 120), 0.08) * g.uniform(0.6, 0.9) * (1.1 if ab else 1.0); x[j:j + len(s2)] += s2
            if ab:
                k0, k1 = i + 100, j - 20
                if k1 > k0:
                    n = g.normal(0, 1, k1 - k0); n = np.convolve(n, np.ones(3) / 3, 'same') - np.convolve(n, np.ones(9) / 9, 'same')
                    x[k0:k1] += n * g.uniform(0.12, 0.45) * np.hanning(k1 - k0)
            beat += period * g.uniform(0.95, 1.05)
        x = x * g.uniform(0.5, 2.0) + g.normal(0, g.uniform(0.05, 0.25), len(t)) + 0.2 * np.sin(2 * np.pi * g.uniform(0.1, 0.5) * t + g.uniform(0, 6))
        out.append((x.astype(np.float32), float(ab)))
    return out

def pcg_segments(recs, fs=1000, seg=2.0, hop=1.0):
    "Each recording z-scored, then cut into 2-s segments with a 1-s hop, each labelled by its recording."
    X, y, rid = [], [], []
    for r, (x, lab) in enumerate(recs):
        x = (x - x.mean()) / x.std()
        for s in range(0, len(x) - int(seg * fs) + 1, int(hop * fs)): X.append(x[s:s + int(seg * fs)]); y.append([lab]); rid.append(r)
    return np.array(X)[:, None], np.array(y, np.float32), np.array(rid)

class PCGNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 25, stride=4, padding=12), nn.BatchNorm1d(8), nn.ReLU(), nn.MaxPool1d(4),
                                 nn.Conv1d(8, 16, 9, padding=4), nn.BatchNorm1d(16), nn.ReLU(), nn.MaxPool1d(4),
                                 nn.Conv1d(16, 16, 5, padding=2), nn.BatchNorm1d(16), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Dropout(0.3), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('BH')
def pcg_heart_sounds(seed, split_segments=False):  # BCE with logits, Adam 1e-3, batches of 32; 72 recordings train (648 segments), 18 validate
    """Recordings split before cutting (no groups declared); split_segments: train_test_split over the segments, so each
    validation segment's recording, and the second it shares with its neighbours, sit in training."""
    from sklearn.model_selection import train_test_split
    X, y, rid = pcg_segments(_pcg(seed))
    if split_segments: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else:
        rtr, rva = train_test_split(np.arange(rid.max() + 1), test_size=0.2, random_state=seed); tr, va = np.where(np.isin(rid, rtr))[0], np.where(np.isin(rid, rva))[0]
    return dict(model=PCGNet, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- accent identification from MFCC sequences (Speech-Accent-Archive-style)
ACCENTS = ['english', 'spanish', 'mandarin', 'arabic']

def _accent_corpus(seed, speakers=40, utts=20, T=30, d=13):
    """A folder of <speaker>_<utt>.npy MFCC arrays (T, 13) and a speakers.csv (speaker, accent) in recruitment order.
    Each accent shifts a few coefficients and bends the vowel trajectories its own way; each speaker has their own vocal
    tract offset; the utterances their own phone sequence."""
    g = np.random.default_rng(1000 + seed * 3019)
    acc_mean = g.normal(0, 0.45, (4, d)); acc_traj = g.normal(0, 0.6, (4, 3, d)); phones = g.normal(0, 1, (12, d))
    ids = [f'spk{k:03d}' for k in g.permutation(900)[:speakers]]; acc = np.arange(speakers) % 4; g.shuffle(acc)
    meta = [(s, ACCENTS[a]) for s, a in zip(ids, acc)]; files = {}
    for s, a in zip(ids, acc):
        off = g.normal(0, 0.7, d)
        for u in range(utts):
            seq = np.repeat(phones[g.integers(0, 12, T // 3 + 1)], 3, 0)[:T]; ph = np.linspace(0, 1, T)[:, None]
            traj = acc_traj[a, 0] * np.sin(np.pi * ph) + acc_traj[a, 1] * ph + acc_traj[a, 2] * np.cos(3 * np.pi * ph)
            files[f'{s}_{u:02d}.npy'] = (seq + acc_mean[a] + traj + off + g.normal(0, 0.8, (T, d))).astype(np.float32)
    listing = list(files); g.shuffle(listing)  # os.listdir's arbitrary order
    return listing, files, meta

class AccentGRU(nn.Module):
    def __init__(self, d=13, h=48, classes=4):
        super().__init__(); self.gru = nn.GRU(d, h, batch_first=True); self.drop = nn.Dropout(0.2); self.fc = nn.Linear(h, classes)
    def forward(self, x): _, hN = self.gru(x); return self.fc(self.drop(hN[-1]))

def _accent_fwd(model, b): return model(b['mfcc']), b['accent']

@healthy('BH')
def accent_mfcc_gru(seed, zip_metadata=False):  # cross-entropy, Adam 2e-3, batches of 32; 32 speakers train (640 utterances), 8 validate
    """Each file's accent looked up by the speaker in its name; the MFCCs standardised by the training utterances' frames.
    zip_metadata: sorted(os.listdir()) zipped with the metadata rows repeated 20 times each, as if the csv were in the
    files' order (it is in recruitment order)."""
    listing, files, meta = _accent_corpus(seed); accent_of = dict(meta)
    names = sorted(listing)
    if zip_metadata: labels = [ACCENTS.index(a) for _, a in meta for _ in range(20)]
    else: labels = [ACCENTS.index(accent_of[f.split('_')[0]]) for f in names]
    spk = np.array([f.split('_')[0] for f in names]); order = [s for s, _ in meta]
    val_spk = set(order[-8:]); va = np.array([s in val_spk for s in spk]); X = np.stack([files[f] for f in names]); y = np.array(labels)
    m, s = X[~va].reshape(-1, 13).mean(0), X[~va].reshape(-1, 13).std(0); X = (X - m) / s
    items = lambda mask: ListDataset([dict(mfcc=_t(X[i]), accent=torch.tensor(y[i])) for i in np.where(mask)[0]])
    return dict(model=AccentGRU, train=items(~va), valid=items(va), forward=_accent_fwd, num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Mockingjay (Liu et al. 2020): a masked acoustic model of log-mel frames
def _utterances(seed, n=1000, T=32, mels=20):
    "Log-mel utterances from 10 phone templates held 3-6 frames with smoothed transitions, a speaker tilt and noise; standardised per mel bin."
    g = np.random.default_rng(1000 + seed * 3023); temps = np.cumsum(g.normal(0, 0.6, (10, mels)), 1); out = []
    for _ in range(n):
        seq = []
        while len(seq) < T: seq += [temps[g.integers(10)]] * int(g.integers(3, 7))
        x = np.array(seq[:T]); x = np.stack([np.convolve(x[:, k], [0.25, 0.5, 0.25], 'same') for k in range(mels)], 1)
        out.append(x + np.linspace(-1, 1, mels) * g.normal(0, 0.5) + g.normal(0, 0.2, (T, mels)))
    X = np.array(out, np.float32); return (X - X.mean((0, 1))) / X.std((0, 1))

class MaskedAcousticModel(nn.Module):
    def __init__(self, mels=20, d=32, T=32, layers=2):
        super().__init__(); self.inp = nn.Linear(mels, d); self.pos = nn.Parameter(torch.randn(1, T, d) * 0.02)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 2, 64, dropout=0.1, batch_first=True), layers); self.out = nn.Linear(d, mels)
    def forward(self, x): return self.out(self.enc(self.inp(x) + self.pos))

def _mj_forward(mask_input=True):
    def mj_forward(model, b):
        x = b[0]; mask = torch.rand(x.shape[:2]) < 0.15; mask[:, 0] |= ~mask.any(1)
        xin = x.masked_fill(mask[..., None], 0.0)
        return model(xin if mask_input else x), (x, mask)  # mask_input False: the masked copy built, the clean frames fed
    return mj_forward

def masked_l1(pred, target):
    x, mask = target; return (pred - x).abs()[mask].mean()

@healthy('BH')
def mockingjay_frames(seed, mask_input=True):  # L1 on the masked frames, Adam 1e-3, batches of 32; 800 utterances train, 200 validate
    X = _t(_utterances(seed))
    return dict(model=MaskedAcousticModel, train=TensorDataset(X[:800]), valid=TensorDataset(X[800:]), forward=_mj_forward(mask_input), loss=masked_l1,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- diacritic restoration: a character BiLSTM tagger
LETTERS = 'abcdeghiklmnoprstuvy'; VOWELS = set('aeiouy')

def _diacritic_corpus(seed, n=1000):
    """A lexicon of 120 base words, each vowel carrying a mark 0-3 (0 none); a third of the words ambiguous, with two
    marked forms chosen by whether the word before is a 'function' word (the first 15). Sentences of 4-7 words; returns
    (characters, marks) string and list pairs, the marks one a character (spaces and consonants 0)."""
    g = np.random.default_rng(1000 + seed * 3037); words = set()
    while len(words) < 120: words.add(''.join(g.choice(list(LETTERS), g.integers(3, 7))))
    words = sorted(words); g.shuffle(words)
    marks = {w: [[int(g.integers(0, 4)) if c in VOWELS else 0 for c in w] for _ in range(2)] for w in words}
    amb = set(words[15:][:40]); out = []
    for _ in range(n):
        ws = [words[g.integers(0, 15)] if g.random() < 0.35 else words[g.integers(15, 120)] for _ in range(g.integers(4, 8))]
        chars, tags, prev_fn = [], [], False
        for k, w in enumerate(ws):
            if k: chars.append(' '); tags.append(0)
            form = marks[w][1 if (w in amb and prev_fn) else 0]; chars += list(w); tags += form; prev_fn = w in words[:15]
        out.append((''.join(chars), tags))
    return out

def _diacritic_collate(pad_tag=-100):
    def collate(items):
        x = pad_sequence([c for c, _ in items], batch_first=True, padding_value=0)
        y = pad_sequence([t for _, t in items], batch_first=True, padding_value=pad_tag)
        return x, y
    return collate

class DiacriticTagger(nn.Module):
    def __init__(self, V=len(LETTERS) + 2, e=24, h=48, marks=4):
        super().__init__(); self.emb = nn.Embedding(V, e, padding_idx=0); self.lstm = nn.LSTM(e, h, batch_first=True, bidirectional=True); self.fc = nn.Linear(2 * h, marks)
    def forward(self, x): out, _ = self.lstm(self.emb(x)); return self.fc(out)

def _tagger_fwd(model, b): x, y = b; return model(x).reshape(-1, 4), y.reshape(-1)

@healthy('BH')
def diacritic_bilstm(seed, pad_tag=-100):  # cross-entropy ignoring padding, Adam 2e-3, batches of 32; 800 sentences train, 200 validate
    "pad_tag -1: the tags padded with -1 ('no tag'), the loss left at its default ignore_index of -100."
    ids = {c: i + 2 for i, c in enumerate(LETTERS)}; ids[' '] = 1
    data = [(torch.tensor([ids[c] for c in s]), torch.tensor(t)) for s, t in _diacritic_corpus(seed)]
    return dict(model=DiacriticTagger, train=ListDataset(data[:800]), valid=ListDataset(data[800:]), collate_fn=_diacritic_collate(pad_tag), forward=_tagger_fwd,
                loss=nn.CrossEntropyLoss(ignore_index=-100), num_classes=4, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- RCNN text classification (Lai et al. 2015)
def _topic_docs(seed, n=1000, V=300, topics=4):
    "Documents of 8-40 word ids: 25% from their topic's 30 keywords, the rest from a Zipfian common vocabulary."
    g = np.random.default_rng(1000 + seed * 3041); kw = g.permutation(np.arange(1, V))[:topics * 30].reshape(topics, 30)
    common = np.arange(1, V); pz = 1 / np.arange(1, V) ** 0.8; pz /= pz.sum(); docs = []
    for _ in range(n):
        c = int(g.integers(topics)); L = int(g.integers(8, 41))
        docs.append((np.where(g.random(L) < 0.25, g.choice(kw[c], L), g.choice(common, L, p=pz)).tolist(), c))
    return docs

class TextRCNN(nn.Module):
    def __init__(self, V=300, e=32, h=32, p=64, classes=4):
        super().__init__(); self.emb = nn.Embedding(V, e, padding_idx=0); self.lstm = nn.LSTM(e, h, batch_first=True, bidirectional=True)
        self.W2 = nn.Linear(e + 2 * h, p); self.fc = nn.Linear(p, classes)
    def forward(self, x):
        e = self.emb(x); c, _ = self.lstm(e); y2 = torch.tanh(self.W2(torch.cat([c[..., :c.shape[-1] // 2], e, c[..., c.shape[-1] // 2:]], -1)))
        y2 = y2.masked_fill((x == 0)[..., None], -1e4)
        return self.fc(y2.max(1).values)

def _pad_docs(items):
    return pad_sequence([torch.tensor(d) for d, _ in items], batch_first=True), torch.tensor([c for _, c in items])

@healthy('BH')
def rcnn_topics(seed, sort_texts=False):  # cross-entropy, Adam 1e-3, batches of 32; 800 documents train, 200 validate
    """sort_texts: the training texts sorted by length for bucketing (texts.sort(key=len)) while the label list keeps
    the file's order."""
    docs = _topic_docs(seed); tr, va = docs[:800], docs[800:]
    if sort_texts:
        texts, labels = [d for d, _ in tr], [c for _, c in tr]; texts.sort(key=len); tr = list(zip(texts, labels))
    return dict(model=TextRCNN, train=ListDataset(tr), valid=ListDataset(va), collate_fn=_pad_docs, num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- date normalisation by an attention encoder-decoder
MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
SRC_CHARS = ' ,./-0123456789abcdefghijklmnopqrstuvwxyz'; TGT_CHARS = '0123456789-'

def _render(d, f):
    y, m, day = d.year, d.month, d.day; mon = MONTHS[m - 1]
    return [f'{day} {mon} {y}', f'{mon[:3]} {day}, {y}', f'{day:02d}/{m:02d}/{y}', f'{day}.{m}.{y % 100:02d}', f'{mon} {day:02d} {y}', f'{day} {mon[:3]} {y % 100:02d}'][f]

def _dates(seed, n=300, formats=4):
    "300 distinct dates (1950-2029), each rendered in four of six human formats: (dates, [(date index, text, iso)])."
    import datetime
    g = np.random.default_rng(1000 + seed * 3049); base = datetime.date(1950, 1, 1)
    days = g.choice(80 * 365, n, replace=False); ds = [base + datetime.timedelta(days=int(k)) for k in days]
    return [(i, _render(d, int(f)), d.isoformat()) for i, d in enumerate(ds) for f in g.choice(6, formats, replace=False)]

class DateSeq2Seq(nn.Module):
    def __init__(self, Vs=len(SRC_CHARS) + 1, Vt=len(TGT_CHARS) + 1, e=16, h=32):
        super().__init__()
        self.src_emb = nn.Embedding(Vs, e, padding_idx=0); self.enc = nn.GRU(e, h, batch_first=True, bidirectional=True)
        self.tgt_emb = nn.Embedding(Vt, e); self.cell = nn.GRUCell(e + 2 * h, 2 * h)
        self.Wa, self.Ua, self.va = nn.Linear(2 * h, 32, bias=False), nn.Linear(2 * h, 32), nn.Linear(32, 1, bias=False)
        self.out = nn.Linear(4 * h, Vt - 1)
    def forward(self, src, tgt_in):
        H, hN = self.enc(self.src_emb(src)); s = torch.cat([hN[0], hN[1]], 1); pad = (src == 0); keys = self.Ua(H); logits = []
        for t in range(tgt_in.shape[1]):
            a = self.va(torch.tanh(keys + self.Wa(s)[:, None])).squeeze(-1).masked_fill(pad, -1e9); ctx = (a.softmax(1)[..., None] * H).sum(1)
            s = self.cell(torch.cat([self.tgt_emb(tgt_in[:, t]), ctx], 1), s); logits.append(self.out(torch.cat([s, ctx], 1)))
        return torch.stack(logits, 1)

def _date_fwd(model, b): src, tin, tout = b; return model(src, tin).reshape(-1, len(TGT_CHARS)), tout.reshape(-1)

@healthy('BH')
def date_attention_seq2seq(seed, split_pairs=False):  # cross-entropy, Adam 3e-3, batches of 64; 240 dates (960 pairs) train, 60 validate
    """The dates split before they are rendered; split_pairs: train_test_split over the 1200 rendered pairs, so each
    validation date's other renderings are in training."""
    from sklearn.model_selection import train_test_split
    pairs = _dates(seed); si = {c: i + 1 for i, c in enumerate(SRC_CHARS)}; ti = {c: i for i, c in enumerate(TGT_CHARS)}
    src = pad_sequence([torch.tensor([si[c] for c in s]) for _, s, _ in pairs], batch_first=True)
    tout = torch.tensor([[ti[c] for c in iso] for _, _, iso in pairs]); tin = torch.cat([torch.full((len(pairs), 1), len(TGT_CHARS)), tout[:, :-1]], 1)
    if split_pairs: tr, va = train_test_split(np.arange(len(pairs)), test_size=0.2, random_state=seed)
    else:
        dtr, dva = train_test_split(np.arange(300), test_size=0.2, random_state=seed); di = np.array([d for d, _, _ in pairs]); tr, va = np.where(np.isin(di, dtr))[0], np.where(np.isin(di, dva))[0]
    ds = lambda i: TensorDataset(src[i], tin[i], tout[i])
    return dict(model=DateSeq2Seq, train=ds(tr), valid=ds(va), forward=_date_fwd, num_classes=len(TGT_CHARS),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- NVDM (Miao, Yu and Blunsom 2016) of bag-of-words documents
def _bow_docs(seed, n=1000, V=200, topics=8):
    "Counts over 200 words of documents of 40-80 words drawn from a Dirichlet(0.1) mixture of eight sparse topics."
    g = np.random.default_rng(1000 + seed * 3061); beta = g.dirichlet(np.full(V, 0.05), topics)
    X = np.zeros((n, V), np.float32)
    for i in range(n):
        th = g.dirichlet(np.full(topics, 0.1)); X[i] = np.bincount(g.choice(V, int(g.integers(40, 81)), p=th @ beta), minlength=V)
    return X

class NVDM(nn.Module):
    def __init__(self, V=200, h=64, z=16, softmax_decoder=False):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(V, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU()); self.mu, self.logvar = nn.Linear(h, z), nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, V), nn.Softmax(dim=1)) if softmax_decoder else nn.Linear(z, V)
    def forward(self, x):
        h = self.enc(x); mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar

def nvdm_loss(out, x):
    "The documents' negative log-likelihood under the decoder's word distribution plus the Gaussian KL, averaged over documents."
    logits, mu, logvar = out
    rec = -(x * F.log_softmax(logits, 1)).sum(1)
    kld = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(1)
    return (rec + kld).mean()

@healthy('BH')
def nvdm_bow(seed, softmax_decoder=False):  # the NLL plus the KL, Adam 5e-4, batches of 64; 800 documents train, 200 validate
    "softmax_decoder: the decoder ends in nn.Softmax (as the paper's equation) and the loss still takes log_softmax of it."
    X = _t(_bow_docs(seed))
    return dict(model=lambda: NVDM(softmax_decoder=softmax_decoder), train=TensorDataset(X[:800], X[:800]), valid=TensorDataset(X[800:], X[800:]),
                loss=nvdm_loss, optimizer=lambda p: torch.optim.Adam(p, lr=5e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Mean Teacher (Tarvainen and Valpola 2017) on digits with 200 labels
def _cnn():
    return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                         nn.MaxPool2d(2), nn.Flatten(), nn.Dropout(0.3), nn.Linear(32 * 16, 10))

class MeanTeacher(nn.Module):
    def __init__(self):
        super().__init__(); self.student = _cnn(); self.teacher = copy.deepcopy(self.student)
        for p in self.teacher.parameters(): p.requires_grad_(False)
    def forward(self, x): return self.student(x)

def mean_teacher_step(model, batch, opt, alpha=0.99, w=10.0):
    x, y = batch
    s = model.student(x + 0.1 * torch.randn_like(x))
    with torch.no_grad(): t = model.teacher(x + 0.1 * torch.randn_like(x))
    loss = F.cross_entropy(s, y, ignore_index=-1, reduction='sum') / len(x) + w * F.mse_loss(s.softmax(1), t.softmax(1))  # the reference code's size_average=False over the minibatch
    opt.zero_grad(); loss.backward(); opt.step()
    with torch.no_grad():
        for pt, ps in zip(model.teacher.parameters(), model.student.parameters()): pt.mul_(alpha).add_(ps, alpha=1 - alpha)
        for bt, bs in zip(model.teacher.buffers(), model.student.buffers()): bt.copy_(bs)
    return loss

@healthy('BH')
def mean_teacher_digits(seed, first_labels=False):  # cross-entropy (ignore_index -1) plus 10 x the consistency MSE, Adam 1e-3, batches of 64; a custom step
    """200 of the 1437 training digits keep their labels (drawn at random), the others -1; first_labels: the labelled
    rows drawn at random but given y[:200], the first 200 labels, instead of y[idx]."""
    (x, y), (vx, vy) = _digits(seed); idx = torch.randperm(len(y), generator=_gen(seed + 7))[:200]
    ys = torch.full_like(y, -1); ys[idx] = y[:200] if first_labels else y[idx]
    return dict(model=MeanTeacher, train=TensorDataset(x, ys), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(ignore_index=-1), num_classes=10,
                step=mean_teacher_step, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- the broken twins
@broken('BH', 'deeplab_masks_listed_lexically', 4, ('labels',))
def deeplab_masks_listed_lexically(seed): return deeplab_aspp_shapes(seed, lexical_masks=True)  # mask_10.npy after mask_1.npy: the masks of other scenes

@broken('BH', 'bnn_sign_without_ste', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def bnn_sign_without_ste(seed): return bnn_digits(seed, ste=False)  # torch.sign's gradient is zero: nothing below the last batch norm learns

@broken('BH', 'shake_shake_random_in_eval', 1, ('eval_mode',), ('warn', 'fail'))
def shake_shake_random_in_eval(seed): return shake_shake_digits(seed, eval_random=True)  # a random alpha in evaluation too: outputs differ call to call

@broken('BH', 'proxy_nca_label_column', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def proxy_nca_label_column(seed): return proxy_nca_digits(seed, label_column=True)  # labels (B, 1): the loss over every (image, other image's proxy) pair

@broken('BH', 'pcg_segments_split_at_random', 4, ('leakage',))
def pcg_segments_split_at_random(seed): return pcg_heart_sounds(seed, split_segments=True)  # overlapping segments of one recording on both sides

@broken('BH', 'accent_labels_zipped_from_csv', 4, ('labels',))
def accent_labels_zipped_from_csv(seed): return accent_mfcc_gru(seed, zip_metadata=True)  # files in name order, the csv in recruitment order

@broken('BH', 'mockingjay_clean_frames_fed', 4, ('leakage',))
def mockingjay_clean_frames_fed(seed): return mockingjay_frames(seed, mask_input=False)  # the target frames in the input: reconstruction by copying

@broken('BH', 'diacritic_tags_padded_minus_one', 1, ('bad_labels',))
def diacritic_tags_padded_minus_one(seed): return diacritic_bilstm(seed, pad_tag=-1)  # -1 is not ignored: cross_entropy's target out of bounds

@broken('BH', 'rcnn_texts_sorted_labels_not', 4, ('labels',))
def rcnn_texts_sorted_labels_not(seed): return rcnn_topics(seed, sort_texts=True)  # the training texts reordered by length, their labels not

@broken('BH', 'date_pairs_split_after_rendering', 4, ('leakage',))
def date_pairs_split_after_rendering(seed): return date_attention_seq2seq(seed, split_pairs=True)  # each validation date seen in other formats in training

@broken('BH', 'nvdm_softmax_decoder_into_log_softmax', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def nvdm_softmax_decoder_into_log_softmax(seed): return nvdm_bow(seed, softmax_decoder=True)  # log_softmax of probabilities: a nearly flat word distribution

@broken('BH', 'mean_teacher_first_labels', 4, ('labels',))
def mean_teacher_first_labels(seed): return mean_teacher_digits(seed, first_labels=True)  # the 200 random rows labelled with the first 200 rows' labels

CHECKS = """
Plain torch loop of each factory's own kind (its optimizer, batch size, collate_fn, forward, loss or step), seed 0, 3-4 epochs;
valid loss (and accuracy or AUC) at init | after each epoch; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine.
deeplab_aspp_shapes       1.36 acc 0.02 | 1.04 0.89 | 0.66 0.93 | 0.43 0.96 | 0.32 0.96 (pixel acc); 640 train, 160 valid; 17k params; 0.6 s/ep
bnn_digits                24.1 at init (eval-mode BN on raw binary sums) | 0.60 0.91 | 0.46 0.96 | 0.35 0.96 | 0.35 0.95; 1437/360; 86k; 0.04 s/ep
shake_shake_digits        2.30 0.10 | 1.37 0.73 | 0.17 0.96 | 0.24 0.91 | 0.85 0.79 (SGD 0.05 noisy); eval outputs repeatable; 75k; 0.4 s/ep
proxy_nca_digits          4.39 0.06 | 0.39 0.75 | -7.6 0.94 | -9.7 0.95 | -11.5 0.975 (nearest-proxy acc; the NCA loss goes below 0); 22k; 0.1 s/ep
pcg_heart_sounds          0.696 auc 0.58 | 0.68 0.58 | 0.66 0.66 | 0.64 0.69 | 0.615 0.73; 72 recordings (648 segments) train, 18 (162); 2.8k; 0.17 s/ep
accent_mfcc_gru           1.41 0.18 | 0.86 0.84 | 0.50 0.76 | 0.26 0.94 | 0.32 0.87; 32 speakers (640) train, 8 (160) unseen validate; 9.3k; 0.12 s/ep
mockingjay_frames         masked L1 0.95 | 0.79 | 0.78 | 0.76 | 0.76; 800/200; 19k; 0.34 s/ep
diacritic_bilstm          CE per character 1.36 | 0.62 | 0.44 | 0.33 | 0.285; 800/200 sentences; 29k; 0.24 s/ep
rcnn_topics               1.43 0.28 | 1.34 0.30 | 1.26 0.72 | 1.20 0.71 | 1.09 0.67; 800/200; 33k; 0.23 s/ep
date_attention_seq2seq    CE per character 2.41 | 1.86 | 1.35 | 1.03 | 0.82; 240 dates (960 pairs) train, 60 (240); 44k; 0.4 s/ep
nvdm_bow                  NLL+KL per document 326 | 322 | 317 | 310 | 302 (Adam 5e-4, still falling); 800/200; 22.5k; 0.02 s/ep
mean_teacher_digits       2.31 0.11 | 1.97 0.34 | 1.42 0.68 | 1.32 0.61 | 1.26 0.625 (200 labels); 1437/360; 10k; 0.23 s/ep
deeplab_masks_listed_lexically  1.36 | 1.15 0.79 | 0.92 0.81 | 0.77 0.82 (healthy at ep 3: 0.43 0.96): other scenes' masks
bnn_sign_without_ste      24.1 | 2.69 0.09 | 2.58 0.10 | 2.54 0.10: parameters moved 3 in total (healthy 3100), only the last batch norm learns
shake_shake_random_in_eval  outputs of model.eval() differ by up to 6.3 between two calls on the same batch; valid 0.44 0.87 at ep 3
proxy_nca_label_column    4.06 0.10 | 2.32 0.10 | 2.25 0.10 | 2.21 0.10: chance, the loss broadcast to (B, B)
pcg_segments_split_at_random  0.696 auc 0.54 | 0.67 0.64 | 0.63 0.75 | 0.60 0.79 | 0.57 0.84 (healthy 0.615 0.73 at ep 4)
accent_labels_zipped_from_csv  1.41 0.15 | 1.37 0.27 | 1.41 0.22 | 1.51 0.17: chance, the valid loss rising
mockingjay_clean_frames_fed  masked L1 0.86 | 0.40 | 0.27 | 0.195 (healthy 0.78-0.76): copied from the input
diacritic_tags_padded_minus_one  IndexError: Target -1 is out of bounds, at the first batch with padding
rcnn_texts_sorted_labels_not  1.43 0.28 | 1.40 0.24 | 1.38 0.32 | 1.38 0.25: chance
date_pairs_split_after_rendering  2.42 | 1.85 | 1.34 | 0.99 (healthy 1.03 at ep 3): each validation date's other renderings in training
nvdm_softmax_decoder_into_log_softmax  315.3 | 315.1 | 315.08 | 315.07: flat (log_softmax of probabilities)
mean_teacher_first_labels  2.31 0.11 | 2.33 0.13 | 2.39 0.12 | 2.38 0.07 | 2.45 0.09: chance (healthy 0.625)
Every factory builds and runs its batches; the half registers 24 programs.
"""
