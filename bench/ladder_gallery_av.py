"""Half AV of the ladder's gallery: held out from the rules frozen at d6e8c50 (round 61), and run once on them.
Families not in halves A-AU (computer vision, audio, language, generative and self-supervised models only): ConvMixer
(Trockman and Kolter 2022, shrunk: a patch embedding of stride 2, depthwise and pointwise convolutions with GELU and batch
norm, residual depthwise; AdamW, label smoothing 0.1) on digits; CoordConv (Liu et al. 2018: x and y coordinate channels
concatenated before each convolution) regressing the centre of a blob in 16 x 16 images in [0, 1]; a Wide ResNet
(Zagoruyko and Komodakis 2016, WRN-10-2 shrunk: pre-activation wide blocks, dropout 0.3, SGD 0.1 Nesterov, weight decay
5e-4) with Cutout (DeVries and Taylor 2017) on digits; the Pi-model (Laine and Aila 2017: two stochastic passes with input
noise and dropout, the cross-entropy on the labelled rows, unlabelled ones at -1, plus the squared difference of the two
softmaxes; a forward of its own); a stacked denoising autoencoder (Vincent et al. 2010: masking noise of 30% drawn in the
Dataset, sigmoid layers, the BCE to the clean digit; a custom step); NICE (Dinh, Krueger and Bengio 2014, shrunk: four
additive coupling layers with alternating masks, a diagonal scaling, the logistic prior, uniformly dequantised digits; a
tuple output and the NLL in nats a pixel); an ID-CNN tagger (Strubell et al. 2017: iterated dilated convolutions 1, 2, 4
shared over two iterations, a tag per token; a collate_fn that pads, the padding's tags at -100) tagging person, place and
organisation names in template sentences; word sense disambiguation (a context-window bag of embeddings beside the target
word's, one softmax over all senses; dict batches) of six ambiguous words by their topic context; PCNN relation extraction
(Zeng et al. 2015: word and two position embeddings, a convolution, piecewise max pooling over the three segments cut by
the entities; a batch of four tensors) over distantly supervised sentences, split by entity pair; a speech-enhancement DNN
estimating the ideal ratio mask (Wang, Narayanan and Wang 2014: log power spectra with +-2 context frames, sigmoid outputs,
MSE) of synthetic voiced speech in babble-like noise; SampleCNN (Lee et al. 2017, shrunk: strided-3 1-D convolutions on raw
waveforms of 729 samples) classifying four synthetic instruments, split by clip; and MC-CNN (Zbontar and LeCun 2015, the
accurate architecture shrunk: a shared patch tower, concatenated features through dense layers, BCE on matching and
non-matching 9 x 9 patches) on random-dot stereo pairs. At most 1500 training items a program.

Protocol: written by a helper in a worktree at 541fb05 (branch halfAV), held out from the rules frozen at d6e8c50 (round 61).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head and helpers, half AO's structure
and @broken lines, the module docstrings of halves A-AU and the @broken lines of the others (for the families taken and the
rung and cause conventions), and ladder_sweep.py's --half line. Each program was checked by hand only with a plain torch
loop of its author's kind (shapes; a few epochs: the healthy ones learn, the broken ones are broken as meant). Committed
before any ladder run, to be run once with `bench/ladder_sweep.py --half AV`; no program changes after the run starts.

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

# ---------------------------------------------------------------- ConvMixer on digits
class Residual(nn.Module):
    def __init__(self, fn): super().__init__(); self.fn = fn
    def forward(self, x): return self.fn(x) + x

def ConvMixer(dim=48, depth=4, kernel_size=3, patch_size=2, n_classes=10):
    return nn.Sequential(nn.Conv2d(1, dim, kernel_size=patch_size, stride=patch_size), nn.GELU(), nn.BatchNorm2d(dim),
                         *[nn.Sequential(Residual(nn.Sequential(nn.Conv2d(dim, dim, kernel_size, groups=dim, padding='same'), nn.GELU(), nn.BatchNorm2d(dim))),
                                         nn.Conv2d(dim, dim, kernel_size=1), nn.GELU(), nn.BatchNorm2d(dim)) for _ in range(depth)],
                         nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(dim, n_classes))

@healthy('AV')
def convmixer_digits(seed, sort_by_ink=False):  # AdamW 1e-2, weight decay 0.01, label smoothing 0.1, batches of 64
    "sort_by_ink: the training images ordered by their ink (an easy-first curriculum), the label tensor left in its order."
    (x, y), (vx, vy) = _digits(seed)
    if sort_by_ink: x = x[x.sum((1, 2, 3)).argsort()]
    return dict(model=ConvMixer, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(label_smoothing=0.1),
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=0.01), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- CoordConv: the centre of a blob
def _blobs(seed, n=1500, s=16):
    g = _gen(seed); c = torch.rand(n, 2, generator=g) * (s - 4) + 2
    ii = torch.arange(s).float()
    img = torch.exp(-((ii[None, :, None] - c[:, 1, None, None]) ** 2 + (ii[None, None, :] - c[:, 0, None, None]) ** 2) / 4.0)
    img = img + 0.1 * torch.randn(n, s, s, generator=g)
    return img[:, None].float(), (c / (s - 1)).float()

class AddCoords(nn.Module):
    def forward(self, x):
        b, _, h, w = x.shape
        yy = torch.linspace(-1, 1, h).view(1, 1, h, 1).expand(b, 1, h, w); xx = torch.linspace(-1, 1, w).view(1, 1, 1, w).expand(b, 1, h, w)
        return torch.cat([x, xx, yy], 1)

class CoordConvNet(nn.Module):
    def __init__(self):
        super().__init__(); self.add = AddCoords()
        self.c1, self.c2, self.c3 = nn.Conv2d(3, 16, 3, padding=1), nn.Conv2d(18, 16, 3, padding=1), nn.Conv2d(18, 16, 3, padding=1)
        self.head = nn.Linear(16 * 4 * 4, 2)
    def forward(self, x):
        x = F.relu(self.c1(self.add(x))); x = F.max_pool2d(F.relu(self.c2(self.add(x))), 2); x = F.max_pool2d(F.relu(self.c3(self.add(x))), 2)
        return self.head(x.flatten(1))

@healthy('AV')
def coordconv_blob_centre(seed, lr=1e-3):  # MSE on (x, y) / 15, Adam 1e-3, batches of 32; 1200 train, 300 validate
    x, c = _blobs(seed)
    return dict(model=CoordConvNet, train=TensorDataset(x[:1200], c[:1200]), valid=TensorDataset(x[1200:], c[1200:]), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Wide ResNet with Cutout
class Cutout:
    def __init__(self, length=3): self.length = length
    def __call__(self, img, g=None):
        h, w = img.shape[-2:]; cy, cx = np.random.randint(h), np.random.randint(w)
        img = img.clone(); img[..., max(0, cy - self.length // 2):cy + self.length // 2 + 1, max(0, cx - self.length // 2):cx + self.length // 2 + 1] = 0
        return img

class CutoutDataset(Dataset):
    def __init__(self, x, y, train): self.x, self.y, self.train, self.cut = x, y, train, Cutout()
    def __len__(self): return len(self.y)
    def __getitem__(self, i): return (self.cut(self.x[i]) if self.train else self.x[i]), self.y[i]

class WideBlock(nn.Module):
    def __init__(self, cin, cout, stride, drop=0.3):
        super().__init__(); self.bn1, self.bn2 = nn.BatchNorm2d(cin), nn.BatchNorm2d(cout)
        self.c1, self.c2 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.Conv2d(cout, cout, 3, 1, 1, bias=False); self.drop = nn.Dropout(drop)
        self.short = nn.Conv2d(cin, cout, 1, stride, bias=False) if (cin != cout or stride != 1) else nn.Identity()
    def forward(self, x):
        o = F.relu(self.bn1(x)); out = self.c1(o); out = self.c2(self.drop(F.relu(self.bn2(out))))
        return out + self.short(o if not isinstance(self.short, nn.Identity) else x)

class WRN(nn.Module):  # WRN-10-2 shrunk: widths 16k, 32k, 64k with k = 2, one block a group
    def __init__(self, k=2):
        super().__init__(); self.conv = nn.Conv2d(1, 16, 3, 1, 1, bias=False)
        self.blocks = nn.Sequential(WideBlock(16, 8 * k, 1), WideBlock(8 * k, 16 * k, 2), WideBlock(16 * k, 32 * k, 2)); self.bn = nn.BatchNorm2d(32 * k); self.fc = nn.Linear(32 * k, 10)
    def forward(self, x): return self.fc(F.adaptive_avg_pool2d(F.relu(self.bn(self.blocks(self.conv(x)))), 1).flatten(1))

@healthy('AV')
def wrn_cutout_digits(seed, augment_then_split=False):  # SGD 0.1 Nesterov 0.9, weight decay 5e-4, batches of 128
    "augment_then_split: three Cutout copies of every digit written out first, then train_test_split over the copies."
    if augment_then_split:
        from sklearn.model_selection import train_test_split
        from ntrain.examples import load_digits_arrays
        x, y = load_digits_arrays(); np.random.seed(seed); cut = Cutout()
        X = torch.cat([torch.stack([cut(a) for a in x]) for _ in range(3)]); Y = y.repeat(3)
        tr, va = train_test_split(np.arange(len(Y)), test_size=0.2, random_state=seed)
        tr = tr[:1500]; va = va[:360]
        return dict(model=WRN, train=TensorDataset(X[tr], Y[tr]), valid=TensorDataset(X[va], Y[va]), loss=nn.CrossEntropyLoss(),
                    optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=5e-4), **_keys(seed, batch_size=128))
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=WRN, train=CutoutDataset(x, y, True), valid=CutoutDataset(vx, vy, False), loss=nn.CrossEntropyLoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=5e-4), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- the Pi-model, semi-supervised
class PiNet(nn.Module):
    def __init__(self, softmax_out=False):
        super().__init__(); self.softmax_out = softmax_out
        self.f = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.LeakyReLU(0.1), nn.Conv2d(32, 32, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2), nn.Dropout(0.3),
                               nn.Conv2d(32, 64, 3, padding=1), nn.LeakyReLU(0.1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))
    def forward(self, x):
        o = self.f(x); return F.softmax(o, 1) if self.softmax_out else o

def _pi_fwd(model, b):
    x, y = b
    noisy = lambda: x + 0.15 * torch.randn_like(x)
    return (model(noisy()), model(noisy())), y

def pi_loss(out, y, w=1.0):
    z1, z2 = out
    sup = F.cross_entropy(z1, y, ignore_index=-1) if (y >= 0).any() else z1.sum() * 0
    return sup + w * F.mse_loss(F.softmax(z1, 1), F.softmax(z2, 1))

@healthy('AV')
def pi_model_digits(seed, softmax_out=False):  # Adam 3e-3, batches of 100; 500 labelled digits, the rest of training unlabelled (-1)
    "softmax_out: the network's last layer a softmax (the Keras habit), the probabilities into F.cross_entropy."
    (x, y), (vx, vy) = _digits(seed); y = y.clone(); y[500:] = -1
    return dict(model=lambda: PiNet(softmax_out), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), forward=_pi_fwd, loss=pi_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- stacked denoising autoencoder
class MaskedDigits(Dataset):
    def __init__(self, x, p=0.3): self.x, self.p = x.view(len(x), -1), p
    def __len__(self): return len(self.x)
    def __getitem__(self, i): x = self.x[i]; return x * (torch.rand_like(x) > self.p), x

class SDAE(nn.Module):
    def __init__(self):
        super().__init__(); self.enc = nn.Sequential(nn.Linear(64, 128), nn.Sigmoid(), nn.Linear(128, 32), nn.Sigmoid())
        self.dec = nn.Sequential(nn.Linear(32, 128), nn.Sigmoid(), nn.Linear(128, 64), nn.Sigmoid())
    def forward(self, x): return self.dec(self.enc(x))

def _sdae_step(zero_grad=True):
    def sdae_step(model, batch, opt):
        x_tilde, x = batch
        if zero_grad: opt.zero_grad()
        loss = F.binary_cross_entropy(model(x_tilde), x); loss.backward(); opt.step(); return loss
    return sdae_step

@healthy('AV')
def sdae_digits(seed, zero_grad=True):  # BCE to the clean digit, Adam 1e-3, batches of 32; a custom step
    "zero_grad False: the loop written without optimizer.zero_grad()."
    (x, _), (vx, _) = _digits(seed)
    return dict(model=SDAE, train=MaskedDigits(x), valid=MaskedDigits(vx), loss=nn.BCELoss(), step=_sdae_step(zero_grad),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- NICE
class Coupling(nn.Module):
    def __init__(self, d, parity, h=128):
        super().__init__(); self.parity = parity
        self.m = nn.Sequential(nn.Linear(d // 2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, d // 2))
    def forward(self, x):
        a, b = (x[:, 0::2], x[:, 1::2]) if self.parity == 0 else (x[:, 1::2], x[:, 0::2])
        b = b + self.m(a); out = torch.empty_like(x)
        if self.parity == 0: out[:, 0::2], out[:, 1::2] = a, b
        else: out[:, 1::2], out[:, 0::2] = a, b
        return out

class NICE(nn.Module):
    def __init__(self, d=64):
        super().__init__(); self.layers = nn.ModuleList([Coupling(d, i % 2) for i in range(4)]); self.scale = nn.Parameter(torch.zeros(d))
    def forward(self, x):
        x = x.view(len(x), -1)
        for l in self.layers: x = l(x)
        return x * torch.exp(self.scale), self.scale.sum()

def nice_nll(out, x):
    z, logdet = out
    log_pz = -(F.softplus(z) + F.softplus(-z)).sum(1)  # the standard logistic prior
    return -(log_pz + logdet).mean() / z.shape[1]

class Dequantised(Dataset):
    def __init__(self, x, raw=False): self.x, self.raw = x.view(len(x), -1), raw
    def __len__(self): return len(self.x)
    def __getitem__(self, i):
        x = self.x[i] * 16  # the 0-16 pixel counts
        v = x + torch.rand_like(x)
        return (v, v) if self.raw else ((v / 17), (v / 17))

@healthy('AV')
def nice_digits(seed, raw=False):  # Adam 1e-3 (betas 0.9, 0.01 as the paper's), batches of 64; the NLL in nats a pixel
    "raw: the dequantised 0-17 pixel counts fed to the flow unscaled (the /17 left out)."
    (x, _), (vx, _) = _digits(seed)
    return dict(model=NICE, train=Dequantised(x, raw), valid=Dequantised(vx, raw), loss=nice_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, betas=(0.9, 0.01), eps=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- ID-CNN name tagger
FIRST = ['anna', 'boris', 'carla', 'dmitri', 'elena', 'farid', 'greta', 'hugo', 'ines', 'jonas']
LAST = ['meyer', 'novak', 'oduya', 'petrov', 'quist', 'rossi']
PLACE = ['paris', 'lagos', 'oslo', 'lima', 'hanoi', 'quito', 'perth', 'riga']
ORG = [['acme', 'corp'], ['unesco'], ['red', 'cross'], ['globex'], ['nasa'], ['bank', 'of', 'lima']]
FILL = 'the a said that visited met in at for with from yesterday today announced works joined left report new'.split()
TAGS = ['O', 'B-PER', 'I-PER', 'B-LOC', 'I-LOC', 'B-ORG', 'I-ORG']

def _ner_sentences(seed, n=1500):
    rng = np.random.default_rng(seed)
    def ent():
        k = rng.integers(3)
        if k == 0:
            w = [rng.choice(FIRST)] + ([rng.choice(LAST)] if rng.random() < 0.5 else []); return w, ['B-PER'] + ['I-PER'] * (len(w) - 1)
        if k == 1: return [rng.choice(PLACE)], ['B-LOC']
        w = list(ORG[rng.integers(len(ORG))]); return w, ['B-ORG'] + ['I-ORG'] * (len(w) - 1)
    out = []
    for _ in range(n):
        ws, ts = [], []
        for _ in range(rng.integers(1, 4)):
            f = list(rng.choice(FILL, rng.integers(1, 4))); ws += f; ts += ['O'] * len(f)
            w, t = ent(); ws += w; ts += t
        ws += list(rng.choice(FILL, rng.integers(0, 3))); ts += ['O'] * (len(ws) - len(ts))
        out.append((ws, ts))
    return out

class IDCNN(nn.Module):
    def __init__(self, vocab, n_tags=len(TAGS), d=64):
        super().__init__(); self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.block = nn.ModuleList([nn.Conv1d(d, d, 3, padding=r, dilation=r) for r in (1, 2, 4)]); self.out = nn.Linear(d, n_tags); self.drop = nn.Dropout(0.2)
    def forward(self, x):
        h = self.emb(x).transpose(1, 2)
        for _ in range(2):  # the block iterated with shared weights
            for c in self.block: h = F.relu(c(self.drop(h)))
        return self.out(h.transpose(1, 2)).transpose(1, 2)  # (B, tags, T) for the cross-entropy

@healthy('AV')
def idcnn_name_tagger(seed, pad_tag=-100):  # cross-entropy over tokens, Adam 1e-3, batches of 32; a collate_fn that pads
    "pad_tag len(TAGS): the padding's tag set to a new index past the tag set, the ignore_index left out."
    sents = _ner_sentences(seed); vocab = {'<pad>': 0, '<unk>': 1}
    for ws, _ in sents[:1200]:
        for w in ws: vocab.setdefault(w, len(vocab))
    items = [(torch.tensor([vocab.get(w, 1) for w in ws]), torch.tensor([TAGS.index(t) for t in ts])) for ws, ts in sents]
    def collate(batch):
        xs, ts = zip(*batch)
        return nn.utils.rnn.pad_sequence(xs, batch_first=True), nn.utils.rnn.pad_sequence(ts, batch_first=True, padding_value=pad_tag)
    loss = nn.CrossEntropyLoss(ignore_index=-100) if pad_tag == -100 else nn.CrossEntropyLoss()
    return dict(model=lambda: IDCNN(len(vocab)), train=ListDataset(items[:1200]), valid=ListDataset(items[1200:]), collate_fn=collate, loss=loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- word sense disambiguation
WSD = {'bank': ['finance', 'river'], 'bass': ['music', 'fish'], 'crane': ['bird', 'machine'], 'plant': ['factory', 'botany'],
       'mouse': ['computer', 'animal'], 'court': ['law', 'sport']}
TOPIC = {'finance': 'loan money deposit account interest cash', 'river': 'water shore fishing boat mud flood', 'music': 'guitar band song loud play concert',
         'fish': 'lake caught fishing boat hook water', 'bird': 'wings nest flew marsh feathers tall', 'machine': 'lift steel construction site heavy load',
         'factory': 'workers production steel shift output power', 'botany': 'leaves water soil grow green seed', 'computer': 'click screen keyboard cursor usb scroll',
         'animal': 'cheese cat tail small trap grey', 'law': 'judge trial lawyer verdict case jury', 'sport': 'tennis ball net play match player'}
COMMON = 'the a of and to was on it he she they we there near'.split()

def _wsd(seed, n=1500):
    rng = np.random.default_rng(seed); rows = []
    for _ in range(n):
        w = list(WSD)[rng.integers(len(WSD))]; s = WSD[w][rng.integers(2)]
        topic = TOPIC[s].split(); other = TOPIC[list(TOPIC)[rng.integers(len(TOPIC))]].split()
        ctx = list(rng.choice(topic, 2)) + list(rng.choice(other, 1)) + list(rng.choice(COMMON, 5)); rng.shuffle(ctx)
        rows.append((w, ctx, f'{w}%{s}'))
    return rows

class WSDNet(nn.Module):
    def __init__(self, vocab, n_targets, n_senses, d=32):
        super().__init__(); self.ctx = nn.EmbeddingBag(vocab, d, mode='mean'); self.tgt = nn.Embedding(n_targets, d)
        self.mlp = nn.Sequential(nn.Linear(2 * d, 64), nn.Tanh(), nn.Linear(64, n_senses))
    def forward(self, b): return self.mlp(torch.cat([self.ctx(b['context']), self.tgt(b['target'])], 1))

class WSDData(Dataset):
    def __init__(self, rows, vocab, senses):
        self.rows, self.vocab, self.senses = rows, vocab, senses
    def __len__(self): return len(self.rows)
    def __getitem__(self, i):
        w, ctx, s = self.rows[i]
        return dict(context=torch.tensor([self.vocab.get(c, 0) for c in ctx]), target=torch.tensor(list(WSD).index(w)), sense=torch.tensor(self.senses[s]))

def _wsd_fwd(model, b): return model(b), b['sense']

@healthy('AV')
def wsd_context_bag(seed, encoder_per_split=False):  # cross-entropy over all 12 senses, Adam 3e-3, batches of 64; 1200 train, 300 validate
    "encoder_per_split: each split's sense labels numbered by its own frequency order (Counter.most_common), train's and valid's differ."
    from collections import Counter
    rows = _wsd(seed); tr, va = rows[:1200], rows[1200:]
    vocab = {'<unk>': 0}
    for _, ctx, _ in tr:
        for c in ctx: vocab.setdefault(c, len(vocab))
    enc = lambda rs: {s: i for i, (s, _) in enumerate(Counter(r[2] for r in rs).most_common())}
    s_tr = enc(tr); s_va = enc(va) if encoder_per_split else s_tr
    for s in sorted({r[2] for r in rows}): s_tr.setdefault(s, len(s_tr)); s_va.setdefault(s, len(s_va))
    return dict(model=lambda: WSDNet(len(vocab), len(WSD), 12), train=WSDData(tr, vocab, s_tr), valid=WSDData(va, vocab, s_va), forward=_wsd_fwd,
                loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- PCNN relation extraction, distant supervision
RELS = {'founded': 'founded started created launched', 'born_in': 'born raised native grew', 'works_for': 'works employed joined hired',
        'located_in': 'located based headquartered sits', 'none': 'met saw mentioned visited'}

def _pcnn(seed, pairs=150, per_pair=10, L=16):
    rng = np.random.default_rng(seed); words = ['<pad>'] + [f'w{i}' for i in range(80)] + [w for v in RELS.values() for w in v.split()] + [f'e{i}' for i in range(2 * pairs)]
    idx = {w: i for i, w in enumerate(words)}; rels = list(RELS); X, P1, P2, Y, G = [], [], [], [], []
    for p in range(pairs):
        r = rng.integers(len(rels)); e1, e2 = f'e{2 * p}', f'e{2 * p + 1}'
        for _ in range(per_pair):
            trig = rng.choice(RELS[rels[r]].split()) if rng.random() < 0.7 else rng.choice(RELS[rels[rng.integers(len(rels))]].split())  # distant supervision's noise
            mid = [f'w{rng.integers(80)}' for _ in range(rng.integers(0, 3))] + [trig] + [f'w{rng.integers(80)}' for _ in range(rng.integers(0, 3))]
            pre = [f'w{rng.integers(80)}' for _ in range(rng.integers(0, 4))]
            s = (pre + [e1] + mid + [e2] + [f'w{rng.integers(80)}' for _ in range(L)])[:L]
            i1, i2 = len(pre), len(pre) + 1 + len(mid)
            X.append([idx[w] for w in s]); P1.append([min(max(j - i1 + L, 0), 2 * L - 1) for j in range(L)]); P2.append([min(max(j - i2 + L, 0), 2 * L - 1) for j in range(L)])
            Y.append(r); G.append(p)
    return torch.tensor(X), torch.tensor(P1), torch.tensor(P2), torch.tensor(Y), np.array(G), len(words), L

class PCNN(nn.Module):
    def __init__(self, vocab, L, n_rel=5, d=32, dp=5, k=64):
        super().__init__(); self.w, self.p1, self.p2 = nn.Embedding(vocab, d), nn.Embedding(2 * L, dp), nn.Embedding(2 * L, dp)
        self.conv = nn.Conv1d(d + 2 * dp, k, 3, padding=1); self.drop = nn.Dropout(0.5); self.fc = nn.Linear(3 * k, n_rel)
    def forward(self, x, p1, p2):
        h = self.conv(torch.cat([self.w(x), self.p1(p1), self.p2(p2)], 2).transpose(1, 2))  # (B, k, L)
        L = x.shape[1]; pos = torch.arange(L)
        i1 = (p1 == L).float().argmax(1, keepdim=True); i2 = (p2 == L).float().argmax(1, keepdim=True)
        segs = [pos[None] <= i1, (pos[None] > i1) & (pos[None] <= i2), pos[None] > i2]
        pooled = [torch.where(m[:, None], h, torch.full_like(h, -1e4)).max(2).values for m in segs]
        return self.fc(self.drop(torch.tanh(torch.cat(pooled, 1))))

def _pcnn_fwd(model, b): x, p1, p2, y = b; return model(x, p1, p2), y

@healthy('AV')
def pcnn_relations(seed, split_sentences=False):  # cross-entropy, Adadelta 1.0 (the paper's), batches of 50; GroupShuffleSplit by entity pair
    "split_sentences: train_test_split over the sentences: each validation entity pair's other sentences in training."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, P1, P2, Y, G, V, L = _pcnn(seed)
    if split_sentences: tr, va = train_test_split(np.arange(len(Y)), test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(1, test_size=0.2, random_state=seed).split(X, Y, G))
    ds = lambda i: TensorDataset(X[i], P1[i], P2[i], Y[i])
    return dict(model=lambda: PCNN(V, L), train=ds(tr), valid=ds(va), forward=_pcnn_fwd, loss=nn.CrossEntropyLoss(),
                optimizer=lambda p: torch.optim.Adadelta(p, lr=1.0), **_keys(seed, batch_size=50))

# ---------------------------------------------------------------- speech enhancement: the ideal ratio mask
def _enhance(seed, utts=40, T=2400, ctx=2, nfft=128, pad_zeros=False):
    g = _gen(seed); t = torch.arange(T) / 8000.
    feats, masks = [], []
    for u in range(utts):
        f0 = 100 + 100 * torch.rand(1, generator=g); env = (torch.sin(2 * math.pi * (2 + 3 * torch.rand(1, generator=g)) * t) > -0.2).float()
        s = sum(torch.sin(2 * math.pi * k * f0 * t) / k for k in range(1, 8)) * env
        n = torch.randn(T, generator=g); n = torchaudio_like_lowpass(n) * (0.5 + torch.rand(1, generator=g))
        if pad_zeros: s = torch.cat([torch.zeros(256), s]); n = torch.cat([torch.zeros(256), n])  # the recordings' digital silence
        S = torch.stft(s, nfft, nfft // 2, window=torch.hann_window(nfft), return_complex=True).abs() ** 2
        N = torch.stft(n, nfft, nfft // 2, window=torch.hann_window(nfft), return_complex=True).abs() ** 2
        Y = torch.stft(s + n, nfft, nfft // 2, window=torch.hann_window(nfft), return_complex=True).abs() ** 2
        lp = torch.log(Y) if pad_zeros else torch.log(Y + 1e-8)
        irm = torch.sqrt(S / (S + N + 1e-8))
        lp = F.pad(lp, (ctx, ctx), mode='replicate')
        fr = torch.stack([lp[:, i:i + 2 * ctx + 1].T.reshape(-1) for i in range(irm.shape[1])])
        feats.append(fr); masks.append(irm.T)
    return feats, masks

def torchaudio_like_lowpass(n, a=0.9):  # babble-ish coloured noise
    return torch.from_numpy(np.asarray(__import__('scipy.signal', fromlist=['lfilter']).lfilter([1 - a], [1, -a], n.numpy()), dtype=np.float32)) * 3

class IRMNet(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d_in, 256), nn.ReLU(), nn.Dropout(0.2), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, d_out), nn.Sigmoid())
    def forward(self, x): return self.net(x)

@healthy('AV')
def irm_enhancement_dnn(seed, pad_zeros=False):  # MSE on the mask, Adam 1e-3, batches of 128; 32 utterances train, 8 validate
    "pad_zeros: each recording starts with 256 samples of digital silence and the features are torch.log(power) without a floor."
    feats, masks = _enhance(seed, pad_zeros=pad_zeros)
    Xtr, Ytr = torch.cat(feats[:32]), torch.cat(masks[:32]); Xva, Yva = torch.cat(feats[32:]), torch.cat(masks[32:])
    keep = torch.randperm(len(Xtr), generator=_gen(seed))[:1500]; Xtr, Ytr = Xtr[keep], Ytr[keep]
    mu, sd = (Xtr.mean(0), Xtr.std(0)) if not pad_zeros else (0., 1.)
    return dict(model=lambda: IRMNet(Xtr.shape[1], Ytr.shape[1]), train=TensorDataset((Xtr - mu) / sd, Ytr), valid=TensorDataset((Xva - mu) / sd, Yva),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- SampleCNN on raw waveforms
def _instruments(seed, clips=60, per_clip=25, sr=8000, n=729):
    g = _gen(seed); clips_x, clips_y = [], []
    for c in range(clips):
        k = c % 4; f0 = 150 + 400 * torch.rand(1, generator=g); tt = torch.arange(per_clip * n) / sr
        amps = torch.rand(6, generator=g) + (torch.tensor([1., .5, .3, .2, .1, .1]) if k in (0, 1) else torch.tensor([.2, 1., .1, .8, .1, .6]))
        wav = sum(amps[h] * torch.sin(2 * math.pi * (h + 1) * f0 * tt + torch.rand(1, generator=g) * 6) for h in range(6))
        trem = 1 + (0.6 if k in (0, 2) else 0.0) * torch.sin(2 * math.pi * 30 * tt)
        wav = wav * trem + 0.3 * torch.randn(len(tt), generator=g) * (0.3 + torch.rand(1, generator=g))
        clips_x.append(wav.view(per_clip, 1, n) / wav.std()); clips_y.append(torch.full((per_clip,), k))
    return clips_x, clips_y

class SampleCNN(nn.Module):  # 3^6 = 729 samples: a strided-3 front end and five conv-pool blocks of 3
    def __init__(self, n_classes=4, c=32):
        super().__init__()
        layers = [nn.Conv1d(1, c, 3, stride=3), nn.BatchNorm1d(c), nn.ReLU()]
        for _ in range(5): layers += [nn.Conv1d(c, c, 3, padding=1), nn.BatchNorm1d(c), nn.ReLU(), nn.MaxPool1d(3)]
        self.f = nn.Sequential(*layers); self.drop = nn.Dropout(0.5); self.fc = nn.Linear(c, n_classes)
    def forward(self, x): return self.fc(self.drop(self.f(x).flatten(1)))

@healthy('AV')
def samplecnn_instruments(seed, split_segments=False):  # cross-entropy, SGD 0.01 momentum 0.9 Nesterov, batches of 23 -> 32; clips split 48/12
    "split_segments: the clips cut into segments first, then train_test_split over the segments."
    X, Y = _instruments(seed)
    if split_segments:
        from sklearn.model_selection import train_test_split
        Xa, Ya = torch.cat(X), torch.cat(Y); tr, va = train_test_split(np.arange(len(Ya)), test_size=0.2, random_state=seed)
        return dict(model=SampleCNN, train=TensorDataset(Xa[tr], Ya[tr]), valid=TensorDataset(Xa[va], Ya[va]), loss=nn.CrossEntropyLoss(),
                    optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True), **_keys(seed, batch_size=32))
    p = torch.randperm(len(X), generator=_gen(seed)).tolist(); tr, va = p[:48], p[48:]
    return dict(model=SampleCNN, train=TensorDataset(torch.cat([X[i] for i in tr]), torch.cat([Y[i] for i in tr])),
                valid=TensorDataset(torch.cat([X[i] for i in va]), torch.cat([Y[i] for i in va])), loss=nn.CrossEntropyLoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- MC-CNN on random-dot stereo
def _stereo(seed, n_pairs=30, H=32, W=48, patches=50, ps=9):
    g = _gen(seed); pairs = []
    for _ in range(n_pairs):
        right = torch.rand(H, W + 16, generator=g); disp = torch.randint(2, 8, (1,), generator=g).item()
        d = torch.full((H, W), disp); d[H // 3: 2 * H // 3, W // 3: 2 * W // 3] = disp + 6  # a raised square
        left = torch.stack([right[r, torch.arange(W) + d[r]] for r in range(H)])
        pairs.append((left + 0.05 * torch.randn(H, W, generator=g), right[:, :W] + 0.05 * torch.randn(H, W, generator=g), d))
    return pairs

def _stereo_examples(pairs, seed, patches=30, ps=9, shift_right=False):
    g = _gen(seed + 7); h = ps // 2; A, B, Y = [], [], []
    rights = [p[1] for p in pairs]
    if shift_right: rights = rights[1:] + rights[:1]
    for (left, _, d), right in zip(pairs, rights):
        H, W = left.shape
        for _ in range(patches):
            r = torch.randint(h, H - h, (1,), generator=g).item(); c = torch.randint(h + 6, W - h - 20, (1,), generator=g).item()
            for pos in (1, 0):
                off = 0 if pos else (torch.randint(2, 6, (1,), generator=g).item() * (1 if torch.rand(1, generator=g) < 0.5 else -1))
                cr = c + d[r, c].item() + off; cr = min(max(cr, h), W - h - 1)
                A.append(left[r - h:r + h + 1, c - h:c + h + 1]); B.append(right[r - h:r + h + 1, cr - h:cr + h + 1]); Y.append(float(pos))
    norm = lambda P: (lambda t: (t - t.mean((1, 2), keepdim=True)) / t.std((1, 2), keepdim=True))(torch.stack(P))[:, None]  # each image's patches standardised, as the paper's preprocessing
    return norm(A), norm(B), torch.tensor(Y)

class MCCNN(nn.Module):
    def __init__(self, c=32):
        super().__init__()
        self.tower = nn.Sequential(nn.Conv2d(1, c, 3), nn.ReLU(), nn.Conv2d(c, c, 3), nn.ReLU(), nn.Conv2d(c, c, 3), nn.ReLU(), nn.Conv2d(c, c, 3), nn.ReLU(), nn.Flatten())
        self.fc = nn.Sequential(nn.Linear(2 * c, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
    def forward(self, a, b): return self.fc(torch.cat([self.tower(a), self.tower(b)], 1)).squeeze(1)

def _mccnn_fwd(model, b): a, r, y = b; return model(a, r), y

@healthy('AV')
def mccnn_stereo(seed, shift_right=False):  # BCE with logits on match / no match, Adam 1e-3 (as the PyTorch ports), batches of 32; 24 pairs train, 6 validate
    "shift_right: the right images listed one file late against the left images and their disparity maps."
    pairs = _stereo(seed); A, B, Y = _stereo_examples(pairs[:24], seed, shift_right=shift_right); vA, vB, vY = _stereo_examples(pairs[24:], seed + 1)
    return dict(model=MCCNN, train=TensorDataset(A, B, Y), valid=TensorDataset(vA, vB, vY), forward=_mccnn_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AV
@broken('AV', 'convmixer_images_sorted_by_ink_labels_not', 4, ('labels',))
def convmixer_images_sorted_by_ink_labels_not(seed): return convmixer_digits(seed, sort_by_ink=True)

@broken('AV', 'coordconv_adam_lr_one', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def coordconv_adam_lr_one(seed): return coordconv_blob_centre(seed, lr=1.0)  # lr=1 typed for 1e-3

@broken('AV', 'wrn_cutout_copies_split_after', 4, ('leakage',))
def wrn_cutout_copies_split_after(seed): return wrn_cutout_digits(seed, augment_then_split=True)

@broken('AV', 'pi_model_softmax_into_cross_entropy', 2, ('softmax',))
def pi_model_softmax_into_cross_entropy(seed): return pi_model_digits(seed, softmax_out=True)

@broken('AV', 'sdae_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def sdae_step_without_zero_grad(seed): return sdae_digits(seed, zero_grad=False)

@broken('AV', 'nice_raw_pixel_counts', (2, 3), ('init_scale', 'lr_high', 'not_falling', 'flat', 'stuck'))
def nice_raw_pixel_counts(seed): return nice_digits(seed, raw=True)

@broken('AV', 'idcnn_pad_tag_past_output', 1, ('bad_labels',))
def idcnn_pad_tag_past_output(seed): return idcnn_name_tagger(seed, pad_tag=len(TAGS))

@broken('AV', 'wsd_sense_encoder_per_split', 4, ('labels',))
def wsd_sense_encoder_per_split(seed): return wsd_context_bag(seed, encoder_per_split=True)

@broken('AV', 'pcnn_sentences_split_at_random', 4, ('leakage',))
def pcnn_sentences_split_at_random(seed): return pcnn_relations(seed, split_sentences=True)

@broken('AV', 'irm_log_of_digital_silence', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def irm_log_of_digital_silence(seed): return irm_enhancement_dnn(seed, pad_zeros=True)

@broken('AV', 'samplecnn_segments_split_at_random', 4, ('leakage',))
def samplecnn_segments_split_at_random(seed): return samplecnn_instruments(seed, split_segments=True)

@broken('AV', 'mccnn_right_images_one_file_late', 4, ('labels',))
def mccnn_right_images_one_file_late(seed): return mccnn_stereo(seed, shift_right=True)

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size,
# forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256; each row: [(valid loss, accuracy where the
# target is a class) at init, after epoch 2, after epoch 4], then the seconds an epoch takes. idcnn_pad_tag_past_output raises
# IndexError ('Target 7 is out of bounds') at its first batch, and irm_log_of_digital_silence gives a NaN loss at its first
# batch, as meant. Every factory builds and runs one batch (forward, loss, backward, step); `ladder_gallery.HALF` holds 24
# programs of half AV. Parameters: 6k (CoordConv) to 166k (the IRM DNN).
CHECKS = """
pcnn_relations                             [(1.617, 0.24), (1.397, 0.46), (1.245, 0.52)] 0.64 s/ep
convmixer_digits                           [(2.308, 0.09), (0.958, 0.84), (0.587, 0.98)] 0.33 s/ep
coordconv_blob_centre                      [(0.364, None), (0.011, None), (0.001, None)] 0.3 s/ep
wrn_cutout_digits                          [(2.307, 0.08), (0.337, 0.93), (0.132, 0.96)] 0.24 s/ep
sdae_digits                                [(0.697, None), (0.427, None), (0.425, None)] 0.08 s/ep
nice_digits                                [(1.439, None), (1.358, None), (1.311, None)] 0.14 s/ep
idcnn_name_tagger                          [(1.935, None), (1.136, None), (0.372, None)] 0.38 s/ep
wsd_context_bag                            [(2.457, 0.06), (0.66, 0.77), (0.389, 0.9)] 0.06 s/ep
irm_enhancement_dnn                        [(0.213, None), (0.05, None), (0.035, None)] 0.07 s/ep
samplecnn_instruments                      [(1.436, 0.17), (0.247, 0.86), (0.42, 0.83)] 0.51 s/ep
convmixer_images_sorted_by_ink_labels_not  [(2.308, 0.09), (2.333, 0.12), (2.411, 0.1)] 0.24 s/ep
coordconv_adam_lr_one                      [(0.364, None), (40.215, None), (23.688, None)] 0.25 s/ep
wrn_cutout_copies_split_after              [(2.304, 0.12), (0.61, 0.82), (0.565, 0.84)] 0.25 s/ep
pi_model_softmax_into_cross_entropy        [(2.302, 0.09), (2.329, 0.09), (2.309, 0.16)] 0.31 s/ep
sdae_step_without_zero_grad                [(0.697, None), (0.539, None), (0.508, None)] 0.06 s/ep
nice_raw_pixel_counts                      [(5.949, None), (3.639, None), (3.136, None)] 0.13 s/ep
wsd_sense_encoder_per_split                [(2.488, 0.04), (3.613, 0.15), (4.351, 0.13)] 0.07 s/ep
pcnn_sentences_split_at_random             [(1.671, 0.24), (1.262, 0.52), (0.972, 0.64)] 0.12 s/ep
samplecnn_segments_split_at_random         [(1.398, 0.27), (0.021, 1.0), (0.002, 1.0)] 0.49 s/ep
pi_model_digits                            [(2.299, 0.09), (2.262, 0.09), (1.784, 0.36)] 0.65 s/ep
mccnn_stereo                               [(0.693, None), (0.687, None), (0.333, None)] 0.5 s/ep
mccnn_right_images_one_file_late           [(0.693, None), (0.693, None), (0.705, None)] 0.26 s/ep
"""
