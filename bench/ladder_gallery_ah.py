"""Half AH of the ladder's gallery: held out from the rules frozen at 0de0c6e (round 48), and run once on them.
Families not in halves A-AG: a Kaggle-style Titanic survival MLP (one-hot class, sex and port, the median age filled,
family size, BCE with logits; sklearn's train_test_split) on synthetic passengers travelling in ticket groups; IndRNN (Li et
al. 2018: h = relu(Wx + u * h), independent recurrent weights u in [0, 1], two layers with dropout between them, Adam) on digits
read pixel by pixel; DeepLoc-style subcellular localisation (Almagro Armenteros et al. 2017, shrunk: a BiLSTM over one-hot
amino acids, attention pooling over the real positions, four locations; a collate_fn that pads and returns dict batches, a
forward of its own) of synthetic protein families with signal peptides, transit peptides and NLS motifs, split by homology
family with GroupShuffleSplit; groups declared: the family; sharpness-aware minimisation (SAM, Foret et al. 2021, as the
davda54/sam port hand-rolled into a custom step: ascend to w + rho g/|g|, the gradient there, back, SGD's step) of an MLP on
the bundled breast-cancer data; AutoInt (Song et al. 2019: field embeddings, two multi-head self-attention interacting
layers with residuals, one logit, BCE with logits; dict items of categorical ids) on synthetic ad impressions; a two-headed
CNN on coloured digits (a digit head and a colour head, a dict output, the summed cross-entropies; a batch of three tensors
and a forward of its own); the All-Convolutional Net (Springenberg et al. 2015, shrunk: strided 3 x 3 convolutions in place
of pooling, 1 x 1 convolutions to ten maps, global average pooling; Adam as the Keras ports) on digits; a ShuffleNet-style CNN (Zhang
et al. 2018: 1 x 1 group convolutions, channel shuffle, depthwise 3 x 3 convolutions with batch norm, the paper's normal
initialisation) on digits; TextRCNN (Lai et al. 2015: a BiLSTM whose left and right contexts are concatenated with the word
embedding, a tanh projection, max pooling over time) classifying wire news stories into four desks, each story syndicated one
to three times with different boilerplate, split by story; room occupancy from environmental sensors (Candanedo and Feldheim
2016: temperature, humidity, light, CO2, humidity ratio every 5 minutes; an LSTM over the past hour; the camera-annotated
labels joined from their own file; split in time); SGC (Wu et al. 2019: the features propagated twice by the normalised
adjacency with self-loops, then a logistic regression trained full batch with Adam) on a synthetic citation graph; and
hourly bike-sharing demand (Fanaee-T and Gama 2014, UCI-style: cyclical hour features, weekday, working day, season,
weather, temperature, humidity, wind; an MLP regressing log1p(count) with the MSE; split in time).
At most 2000 samples and about 70k parameters a program; see CHECKS for the plain-loop timings.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AG.

Protocol: written by a helper in a worktree at 0de0c6e (branch halfAH), held out from the rules frozen at 0de0c6e (round 48).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI). It read bench/ladder_gallery.py's head, helpers and tail (the import lines), half AG whole,
the module docstrings and @broken lines of halves A-AF (for the rung and cause conventions and the families taken, with greps
of the halves for candidate family names), a grep of ladder_sweep.py for 'half', and the signatures and docstrings of
`ntrain.ladder` and `ntrain.Task` via help(); it ran `git status` and `git rev-parse --short HEAD`, no git log. Each program
was checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the
broken ones are broken as meant), seed 0 and where cheap seed 1. Two programs declare groups (deeploc_bilstm_attention and its
broken twin deeploc_homologs_split_at_random; "groups declared" in their factories' docstrings) and are to be reported apart.
Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AH`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
import ntrain
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- Titanic survival (a Kaggle-style MLP)
def _titanic(seed, n=1300):
    """Passengers in ticket groups of 1-6 (a third travel alone): class, sex, age (a fifth missing), siblings/spouses,
    parents/children, fare, port; survival from a logistic model of sex, class and childhood plus the ticket group's shared fate."""
    g = np.random.default_rng(1000 + seed * 2503); rows = []; tk = 0
    while len(rows) < n:
        size = 1 if g.random() < 0.35 else int(g.integers(2, 7)); pc = int(g.choice([1, 2, 3], p=[0.25, 0.2, 0.55])); port = int(g.choice(3, p=[0.72, 0.19, 0.09]))
        fate = g.normal(0, 1.2); fare = float(np.exp(g.normal([4.0, 3.0, 2.2][pc - 1], 0.4)) * size)
        for _ in range(size):
            sex = int(g.random() < 0.36); age = float(np.clip(g.normal(30, 14) if g.random() > 0.15 else g.uniform(1, 14), 0.5, 80))
            z = -1.2 + 2.5 * sex + [1.0, 0.3, -0.8][pc - 1] + 1.0 * (age < 12) - 0.01 * age + fate
            rows.append(dict(pclass=pc, sex=sex, age=age if g.random() > 0.2 else np.nan, sibsp=int(g.integers(0, size)), parch=size - 1, fare=fare / size, embarked=port,
                             ticket=tk, survived=int(g.random() < 1 / (1 + np.exp(-z)))))
        tk += 1
    return rows[:n]

def _titanic_data(seed, family_survival_all_rows=False):
    """One-hot pclass, sex, embarked; age (the training median filled in), log fare, family size standardised by the training
    split. family_survival_all_rows: the kernels' "family survival" feature, df.groupby('Ticket').Survived.transform('mean'),
    computed on the whole frame before train_test_split (each passenger's own label in its group's mean)."""
    from sklearn.model_selection import train_test_split
    rows = _titanic(seed); y = np.array([r['survived'] for r in rows], np.float32); tick = np.array([r['ticket'] for r in rows])
    fam = np.array([y[tick == t].mean() for t in tick], np.float32)
    idx = np.arange(len(rows)); tr, va = train_test_split(idx, test_size=0.2, random_state=seed)
    age = np.array([r['age'] for r in rows]); age = np.where(np.isnan(age), np.nanmedian(age[tr]), age)
    num = np.stack([age, np.log1p([r['fare'] for r in rows]), [r['sibsp'] + r['parch'] + 1 for r in rows]], 1).astype(np.float32)
    num = (num - num[tr].mean(0)) / num[tr].std(0)
    oh = lambda k, m: np.eye(m, dtype=np.float32)[np.array([r[k] for r in rows]) - (1 if k == 'pclass' else 0)]
    X = np.concatenate([oh('pclass', 3), oh('sex', 2), oh('embarked', 3), num] + ([fam[:, None]] if family_survival_all_rows else []), 1)
    return TensorDataset(_t(X[tr]), _t(y[tr])[:, None]), TensorDataset(_t(X[va]), _t(y[va])[:, None]), X.shape[1]

class TitanicNet(nn.Module):
    def __init__(self, d):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AH')
def titanic_mlp(seed, family_survival_all_rows=False):  # BCE with logits, Adam 1e-3, batches of 32; 1040 passengers train, 260 validate
    tr, va, d = _titanic_data(seed, family_survival_all_rows)
    return dict(model=lambda: TitanicNet(d), train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- IndRNN (Li et al. 2018) on digits read pixel by pixel
class IndRNNLayer(nn.Module):
    def __init__(self, i, h):
        super().__init__(); self.w = nn.Linear(i, h); self.u = nn.Parameter(torch.empty(h).uniform_(0, 1))
    def forward(self, x):  # x (B, T, i)
        wx = self.w(x); h = torch.zeros(x.size(0), wx.size(2)); out = []
        for t in range(x.size(1)): h = F.relu(wx[:, t] + self.u * h); out.append(h)
        return torch.stack(out, 1)

class IndRNN(nn.Module):  # two layers of 64, dropout 0.1 between them, the last state into a linear layer
    def __init__(self, h=64, functional_dropout=False):
        super().__init__(); self.l1, self.l2, self.fc = IndRNNLayer(1, h), IndRNNLayer(h, h), nn.Linear(h, 10); self.drop = nn.Dropout(0.1); self.fdrop = functional_dropout
    def forward(self, x):
        h = self.l1(x.view(x.size(0), 64, 1))
        h = F.dropout(h, 0.1) if self.fdrop else self.drop(h)  # functional_dropout: F.dropout's training=True default, on in eval too
        return self.fc(self.l2(h)[:, -1])

@healthy('AH')
def indrnn_pixel_digits(seed, functional_dropout=False):  # cross-entropy, Adam 2e-3, batches of 64; pixels in [0, 1] as 64 steps
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: IndRNN(functional_dropout=functional_dropout), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- DeepLoc-style subcellular localisation (BiLSTM, attention pooling)
AA = 'ACDEFGHIKLMNPQRSTVWY'; HYDRO = 'AILMFVW'; LOCS = ['cytoplasm', 'nucleus', 'extracellular', 'mitochondrion']

def _proteins(seed, n_fam=150, per=(4, 13)):
    """Families of homologues (an ancestor of 60-110 residues, members with 8-20% substitutions and a few indels); the location
    by family; its signal (a hydrophobic N-terminal signal peptide, an amphipathic R/K-rich transit peptide, a K/R-rich NLS
    somewhere) carried by three families in four, the rest told only by their other residues."""
    g = np.random.default_rng(1000 + seed * 2521); seqs, locs, fams = [], [], []
    for f in range(n_fam):
        loc = int(g.integers(4)); L = int(g.integers(60, 111)); anc = list(g.choice(list(AA), L)); sig = g.random() < 0.75
        if sig and loc == 2: anc[:20] = list('M' + ''.join(g.choice(list('RK'), 2)) + ''.join(g.choice(list(HYDRO), 12)) + ''.join(g.choice(list('AGS'), 5)))
        if sig and loc == 3: anc[:20] = list('M' + ''.join(g.choice(list('RRKLLAS'), 19)))
        if sig and loc == 1: p = int(g.integers(20, L - 10)); anc[p:p + 7] = list('PKKKRKV')
        for _ in range(int(g.integers(*per))):
            s = [c if g.random() > g.uniform(0.08, 0.2) else AA[g.integers(20)] for c in anc]
            for _ in range(int(g.integers(0, 3))):
                i = int(g.integers(25, len(s)));
                if g.random() < 0.5: del s[i]
                else: s.insert(i, AA[g.integers(20)])
            seqs.append(''.join(s)); locs.append(loc); fams.append(f)
    return seqs, np.array(locs), np.array(fams)

def collate_loc(batch):  # post-padded one-hot residues, a mask of the real positions, the location
    L = max(len(b['seq']) for b in batch); X = torch.zeros(len(batch), L, 20); M = torch.zeros(len(batch), L, dtype=torch.bool)
    for i, b in enumerate(batch): X[i, :len(b['seq'])] = F.one_hot(b['seq'], 20).float(); M[i, :len(b['seq'])] = True
    return dict(x=X, mask=M, location=torch.tensor([b['location'] for b in batch]))

class DeepLocNet(nn.Module):  # BiLSTM 32 a direction, attention weights from a linear layer over the real positions, dense 32
    def __init__(self):
        super().__init__(); self.lstm = nn.LSTM(20, 32, batch_first=True, bidirectional=True); self.att = nn.Linear(64, 1)
        self.head = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Dropout(0.25), nn.Linear(32, 4))
    def forward(self, x, mask):
        h, _ = self.lstm(x); a = self.att(h).squeeze(-1).masked_fill(~mask, float('-inf')).softmax(1)
        return self.head((a[..., None] * h).sum(1))

def _loc_fwd(model, b): return model(b['x'], b['mask']), b['location']

def _deeploc_data(seed, random_split=False):
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    seqs, locs, fams = _proteins(seed); idx = np.arange(len(seqs))
    if random_split: tr, va = train_test_split(idx, test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(idx, groups=fams))
    item = lambda i: dict(seq=torch.tensor([AA.index(c) for c in seqs[i]]), location=int(locs[i]))
    return ListDataset([item(i) for i in tr]), ListDataset([item(i) for i in va]), {'train': list(fams[tr]), 'valid': list(fams[va])}

@healthy('AH')
def deeploc_bilstm_attention(seed, random_split=False):  # cross-entropy, Adam 3e-3, batches of 32; about 1300 proteins of 150 families, 20% of the families validate
    "groups declared: the homology family."
    tr, va, keys = _deeploc_data(seed, random_split)
    task = ntrain.Task(model=DeepLocNet, train=tr, valid=va, collate_fn=collate_loc, forward=_loc_fwd, loss=nn.CrossEntropyLoss(), num_classes=4, groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- SAM (sharpness-aware minimisation) on breast cancer
def _bc(seed):
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split
    x, y = load_breast_cancer(return_X_y=True); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, stratify=y, random_state=seed)
    mu, sd = x[tr].mean(0), x[tr].std(0); x = (x - mu) / sd
    return TensorDataset(_t(x[tr]), _t(y[tr])[:, None]), TensorDataset(_t(x[va]), _t(y[va])[:, None])

class CancerMLP(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

_bce = nn.BCEWithLogitsLoss()

def sam_step(model, batch, opt, rho=0.05, zero_grad=True):
    "first_step: w + e(w), e = rho g / |g|; second_step: back to w, the base optimizer's step with the gradient at w + e(w)."
    x, y = batch; params = [p for p in model.parameters() if p.requires_grad]
    if zero_grad: opt.zero_grad()
    loss = _bce(model(x), y); loss.backward()
    with torch.no_grad():
        norm = torch.norm(torch.stack([p.grad.norm(2) for p in params if p.grad is not None]), 2); es = []
        for p in params:
            e = rho * p.grad / (norm + 1e-12) if p.grad is not None else torch.zeros_like(p); p.add_(e); es.append(e)
    if zero_grad: opt.zero_grad()
    _bce(model(x), y).backward()
    with torch.no_grad():
        for p, e in zip(params, es): p.sub_(e)
    opt.step(); return loss

def sam_step_no_zero_grad(model, batch, opt):  # first_step/second_step copied without their `if zero_grad: self.zero_grad()` lines
    return sam_step(model, batch, opt, zero_grad=False)

@healthy('AH')
def sam_breast_cancer(seed, step=sam_step):  # BCE with logits, SAM over SGD 0.05 with momentum 0.9, rho 0.05, batches of 32; 455 train, 114 validate
    tr, va = _bc(seed)
    return dict(model=CancerMLP, train=tr, valid=va, loss=_bce, step=step, optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- AutoInt on ad impressions
FIELDS = dict(age=7, gender=3, device=4, site=12, category=8, hour=24, ad=60)

def _impressions(seed, n=2000, with_landing=False):
    """Fields drawn at random; the click from a logistic model of site x category and age x category affinities, device x
    hour and the ad's own appeal (about 30% clicked). with_landing: the log's landing-page field (0 no visit, 1-4 the load time
    bucket of the visit a click opens) kept among the fields."""
    g = np.random.default_rng(1000 + seed * 2531); F_ = {k: g.integers(v, size=n) for k, v in FIELDS.items()}
    sc, ac, dh, ad = g.normal(0, 2.0, (12, 8)), g.normal(0, 1.5, (7, 8)), g.normal(0, 0.7, (4, 24)), g.normal(0, 0.7, 60)
    z = -1.5 + sc[F_['site'], F_['category']] + ac[F_['age'], F_['category']] + dh[F_['device'], F_['hour']] + ad[F_['ad']]
    y = (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32); X = np.stack(list(F_.values()), 1)
    if with_landing: X = np.concatenate([X, np.where(y > 0, g.integers(1, 5, n), 0)[:, None]], 1)
    return X, y

class AutoInt(nn.Module):  # embeddings 16 a field, two interacting layers (2 heads, a residual projection each, ReLU), one logit
    def __init__(self, sizes, d=16, layers=2):
        super().__init__(); self.register_buffer('offsets', torch.tensor(np.concatenate([[0], np.cumsum(sizes)[:-1]])))
        self.emb = nn.Embedding(int(sum(sizes)), d); self.att = nn.ModuleList([nn.MultiheadAttention(d, 2, batch_first=True) for _ in range(layers)])
        self.res = nn.ModuleList([nn.Linear(d, d, bias=False) for _ in range(layers)]); self.out = nn.Linear(len(sizes) * d, 1)
    def forward(self, fields):
        e = self.emb(fields + self.offsets)
        for a, r in zip(self.att, self.res): e = F.relu(a(e, e, e, need_weights=False)[0] + r(e))
        return self.out(e.flatten(1))

def _ctr_fwd(model, b): return model(b['fields']), b['clicked'][:, None]

@healthy('AH')
def autoint_ctr(seed, with_landing=False):  # BCE with logits, Adam 1e-3, batches of 64; the first 1600 impressions train, the last 400 validate
    X, y = _impressions(seed, with_landing=with_landing); sizes = list(FIELDS.values()) + ([5] if with_landing else [])
    items = [dict(fields=torch.tensor(X[i]), clicked=torch.tensor(y[i])) for i in range(len(y))]
    return dict(model=lambda: AutoInt(sizes), train=ListDataset(items[:1600]), valid=ListDataset(items[1600:]), forward=_ctr_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a two-headed CNN on coloured digits (digit and colour)
COLOURS = torch.tensor([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1]], dtype=torch.float32)

def _colourise(x, g):
    "The digit's strokes in one of six colours, a dim grey background of random level, pixel noise."
    c = torch.from_numpy(g.integers(6, size=len(x))); bg = torch.from_numpy(g.uniform(0, 0.3, len(x))).float()[:, None, None, None]
    img = x * COLOURS[c][:, :, None, None] + (1 - x) * bg
    return (img + 0.05 * torch.from_numpy(g.normal(size=img.shape)).float()).clamp(0, 1), c

class TwoHeadCNN(nn.Module):
    def __init__(self, detach=False):
        super().__init__(); self.detach = detach
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())
        self.digit = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10)); self.colour = nn.Linear(128, 6)
    def forward(self, x):
        h = self.backbone(x)
        if self.detach: h = h.detach()  # detach: left from the linear-probe script the heads were first tried in
        return dict(digit=self.digit(h), colour=self.colour(h))

def two_head_loss(out, t): yd, yc = t; return F.cross_entropy(out['digit'], yd) + F.cross_entropy(out['colour'], yc)

def _two_fwd(model, b): x, yd, yc = b; return model(x), (yd, yc)

@healthy('AH')
def coloured_digits_two_heads(seed, detach=False):  # Adam 3e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed); g = np.random.default_rng(1000 + seed * 2539); (cx, c), (cvx, vc) = _colourise(x, g), _colourise(vx, g)
    return dict(model=lambda: TwoHeadCNN(detach), train=TensorDataset(cx, y, c), valid=TensorDataset(cvx, vy, vc), forward=_two_fwd, loss=two_head_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- the All-Convolutional Net (Springenberg et al. 2015), shrunk
class AllConvNet(nn.Module):  # dropout on the input, 3x3 convs, a stride-2 conv for each pooling, 1x1 convs to 10 maps, global average pooling
    def __init__(self, softmax=False):
        super().__init__(); self.softmax = softmax
        self.net = nn.Sequential(nn.Dropout(0.2), nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1, stride=2), nn.ReLU(), nn.Dropout(0.3),
                                 nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1, stride=2), nn.ReLU(), nn.Dropout(0.3),
                                 nn.Conv2d(64, 64, 1), nn.ReLU(), nn.Conv2d(64, 10, 1), nn.AdaptiveAvgPool2d(1), nn.Flatten())
    def forward(self, x):
        o = self.net(x); return F.softmax(o, 1) if self.softmax else o  # softmax: the Keras port's Activation('softmax') kept, then CrossEntropyLoss

@healthy('AH')
def allconv_digits(seed, softmax=False):  # cross-entropy, Adam 1e-3 (the Keras port's), batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: AllConvNet(softmax), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a ShuffleNet-style CNN (group convolutions and channel shuffle)
def channel_shuffle(x, g): b, c, h, w = x.shape; return x.view(b, g, c // g, h, w).transpose(1, 2).reshape(b, c, h, w)

class ShuffleUnit(nn.Module):
    def __init__(self, c, g=3):
        super().__init__(); self.g = g; m = c // 4 // g * g
        self.c1 = nn.Sequential(nn.Conv2d(c, m, 1, groups=g, bias=False), nn.BatchNorm2d(m), nn.ReLU())
        self.dw = nn.Sequential(nn.Conv2d(m, m, 3, padding=1, groups=m, bias=False), nn.BatchNorm2d(m)); self.c2 = nn.Sequential(nn.Conv2d(m, c, 1, groups=g, bias=False), nn.BatchNorm2d(c))
    def forward(self, x): return F.relu(x + self.c2(self.dw(channel_shuffle(self.c1(x), self.g))))

class ShuffleNetSmall(nn.Module):
    def __init__(self, std=0.01):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 48, 3, padding=1, bias=False), nn.BatchNorm2d(48), nn.ReLU())
        self.stage = nn.Sequential(ShuffleUnit(48), ShuffleUnit(48), nn.AvgPool2d(2), ShuffleUnit(48), ShuffleUnit(48)); self.fc = nn.Linear(48, 10)
        for m in self.modules():  # the official repo's init: normal for the convolutions and the classifier
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                nn.init.normal_(m.weight, 0, std) if std is not None else nn.init.normal_(m.weight)  # std None: normal_(m.weight), the std argument dropped
                if m.bias is not None: nn.init.zeros_(m.bias)
    def forward(self, x): return self.fc(F.adaptive_avg_pool2d(self.stage(self.stem(x)), 1).flatten(1))

@healthy('AH')
def shufflenet_digits(seed, std=0.01):  # cross-entropy, Adam 2e-3, batches of 64; the stem conv's fan-in is 9, so std 0.01 there too, batch norm rescales
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: ShuffleNetSmall(std), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- TextRCNN (Lai et al. 2015) on syndicated wire stories
DESKS = ['sport', 'business', 'tech', 'politics']

def _wire(seed, n_stories=900):
    """Stories of 15-35 words: filler, 3-6 words of the story's desk, 0-2 of another; the desk an editor tagged (one story in five
    filed under another desk). Each story syndicated 1-3 times: a dateline and agency, a trimmed sentence, a 'read more' tail."""
    g = np.random.default_rng(1000 + seed * 2543); syl = 'ba ko ri mu te sa lo ne vi da pe gu'.split()
    word = lambda: ''.join(g.choice(syl, int(g.integers(2, 4))))
    desk_w = [[word() for _ in range(25)] for _ in range(4)]; fill = [word() for _ in range(120)]; boiler = [word() for _ in range(30)]
    rows = []
    for s in range(n_stories):
        d = int(g.integers(4)); L = int(g.integers(15, 36)); w = list(g.choice(fill, L))
        for _ in range(int(g.integers(3, 7))): w.insert(int(g.integers(len(w))), g.choice(desk_w[d]))
        for _ in range(int(g.integers(0, 3))): w.insert(int(g.integers(len(w))), g.choice(desk_w[int(g.integers(4))]))
        tag = d if g.random() > 0.2 else int(g.integers(4))
        for _ in range(int(g.integers(1, 4))):
            c = list(g.choice(boiler, int(g.integers(1, 4)))) + w[:len(w) - int(g.integers(0, 5))] + list(g.choice(boiler, int(g.integers(0, 3))))
            rows.append((c, tag, s))
    return rows, fill + sum(desk_w, []) + boiler

def _wire_data(seed, split_rows=False):
    "GroupShuffleSplit by story (its copies on one side), 20% validate. split_rows: train_test_split of the syndicated rows."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    rows, words = _wire(seed); vocab = {w: i + 2 for i, w in enumerate(dict.fromkeys(words))}; idx = np.arange(len(rows))
    if split_rows: tr, va = train_test_split(idx, test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(idx, groups=[s for _, _, s in rows]))
    enc = lambda ii: (torch.tensor([[vocab.get(x, 1) for x in rows[i][0]][:48] + [0] * (48 - min(48, len(rows[i][0]))) for i in ii]), torch.tensor([rows[i][1] for i in ii]))
    return TensorDataset(*enc(tr)), TensorDataset(*enc(va)), len(vocab) + 2

class TextRCNN(nn.Module):  # embeddings 48, BiLSTM 32 a direction, [left; e; right] -> 64 tanh, max over time (padding masked), linear
    def __init__(self, V):
        super().__init__(); self.emb = nn.Embedding(V, 48, padding_idx=0); self.lstm = nn.LSTM(48, 32, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(48 + 64, 64); self.fc = nn.Linear(64, 4)
    def forward(self, x):
        e = self.emb(x); h, _ = self.lstm(e); y = torch.tanh(self.proj(torch.cat([h[..., :32], e, h[..., 32:]], -1)))
        return self.fc(y.masked_fill((x == 0)[..., None], -1e4).max(1).values)

@healthy('AH')
def textrcnn_wire_desks(seed, split_rows=False):  # cross-entropy, Adam 3e-3, batches of 64; about 1800 syndicated rows of 900 stories
    tr, va, V = _wire_data(seed, split_rows)
    return dict(model=lambda: TextRCNN(V), train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=4, optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- room occupancy from environmental sensors (an LSTM)
def _office(seed, days=14):
    """Every 5 minutes: occupied on working days from 8-9 h to 17-18 h with a lunch break and random absences; light (lamps on
    when occupied, daylight through the window), CO2 rising while occupied and decaying after, temperature and humidity
    drifting with occupancy and the weather. Timestamps as the sensor logger writes them ('2015-02-02 14:19:00') and as the
    camera-annotation tool exports them ('2/2/2015 2:19 PM')."""
    g = np.random.default_rng(1000 + seed * 2551); T = days * 288; t = np.arange(T); hour = (t % 288) / 12; day = t // 288
    occ = np.zeros(T)
    for d in range(days):
        if d % 7 >= 5: continue
        a, b = g.uniform(8, 9.5), g.uniform(16.5, 18.5); o = (hour >= a) & (hour < b) & (day == d) & ~((hour > 12) & (hour < 12.5 + g.uniform(0, 0.7)))
        for _ in range(3):
            s = g.uniform(a, b); o &= ~((hour > s) & (hour < s + g.uniform(0.3, 1.2)))
        occ[o] = 1
    sun = np.clip(np.sin((hour - 6) / 12 * np.pi), 0, None) * g.uniform(50, 300, days)[day]
    light = sun + 420 * occ + g.normal(0, 15, T); co2 = np.zeros(T); c = 430.0
    for i in range(T): c += 25 * occ[i] - 0.06 * (c - 430) + g.normal(0, 3); co2[i] = c
    temp = 20.5 + 1.2 * np.convolve(occ, np.ones(12) / 12, 'same') + 0.5 * np.sin(day / 3) + g.normal(0, 0.1, T)
    hum = 27 + 2 * np.sin(day / 2.3) + 0.8 * np.convolve(occ, np.ones(24) / 24, 'same') + g.normal(0, 0.2, T)
    X = np.stack([temp, hum, light, co2, hum * np.exp(0.06 * temp) / 1000], 1).astype(np.float32)
    ts = [(2, 2 + d, int(i % 288) // 12, int(i % 288) % 12 * 5) for i, d in zip(t, day)]
    iso = [f'2015-{m:02d}-{dd:02d} {h:02d}:{mi:02d}:00' for m, dd, h, mi in ts]
    us = [f'{m}/{dd}/2015 {(h % 12) or 12}:{mi:02d} {"AM" if h < 12 else "PM"}' for m, dd, h, mi in ts]
    return X, occ.astype(np.float32), iso, us

def _occupancy_data(seed, sort_as_strings=False, win=12, stride=2):
    """The sensor frame sorted by its timestamp and the labels frame by its own, then the two concatenated side by side; windows
    of an hour (12 readings) labelled by their last; the first 10 days train, the last 4 validate; each sensor standardised by the
    training readings. sort_as_strings: the labels' 'M/D/YYYY h:mm AM' column never parsed, so sort_values sorts it as text."""
    X, y, iso, us = _office(seed)
    X = X[np.argsort(iso, kind='stable')]; y = y[np.argsort(us, kind='stable')] if sort_as_strings else y  # the healthy author parsed both with pd.to_datetime
    cut = 10 * 288; mu, sd = X[:cut].mean(0), X[:cut].std(0); X = (X - mu) / sd
    def wins(a, b):
        s = np.arange(a, b - win + 1, stride); return TensorDataset(_t(np.stack([X[i:i + win] for i in s])), _t(y[s + win - 1])[:, None])
    return wins(0, cut), wins(cut, len(y))

class OccupancyLSTM(nn.Module):
    def __init__(self):
        super().__init__(); self.lstm = nn.LSTM(5, 32, batch_first=True); self.fc = nn.Linear(32, 1)
    def forward(self, x): return self.fc(self.lstm(x)[0][:, -1])

@healthy('AH')
def occupancy_lstm(seed, sort_as_strings=False):  # BCE with logits, Adam 1e-3, batches of 64; 1435 windows train, 571 validate
    tr, va = _occupancy_data(seed, sort_as_strings)
    return dict(model=OccupancyLSTM, train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- SGC (Wu et al. 2019) on a citation graph
def _citations(seed, n=1500, k=5, d=300):
    """Papers of five fields; citations mostly within a field (average degree about 6, about 70% within); binary bag-of-words
    of 300 words, each field's own 30 words a little more likely; the first 60% of the shuffled papers train, the rest validate."""
    g = np.random.default_rng(1000 + seed * 2557); y = g.integers(k, size=n); P = np.full((k, d), 0.02)
    for c in range(k): P[c, c * 30:(c + 1) * 30] = 0.045
    X = (g.random((n, d)) < P[y]).astype(np.float32); A = np.zeros((n, n), np.float32)
    for _ in range(n * 3):
        i = int(g.integers(n)); j = int(g.choice(np.flatnonzero(y == y[i]))) if g.random() < 0.65 else int(g.integers(n))
        if i != j: A[i, j] = A[j, i] = 1
    return X, y, A

def _sgc_data(seed, label_feats=False, K=2):
    """S = D^-1/2 (A + I) D^-1/2, features S^K X (row-normalised X first, as the SGC code). label_feats: S^K of the one-hot labels
    of every paper appended to the features (the label trick with all the labels, the validation papers' included)."""
    X, y, A = _citations(seed); n = len(y); A = A + np.eye(n, dtype=np.float32); dinv = 1 / np.sqrt(A.sum(1)); S = dinv[:, None] * A * dinv[None]
    Xf = X / np.maximum(X.sum(1, keepdims=True), 1)
    if label_feats: Xf = np.concatenate([Xf, np.eye(5, dtype=np.float32)[y]], 1)
    for _ in range(K): Xf = S @ Xf
    tr = np.arange(int(0.6 * n)); va = np.arange(int(0.6 * n), n)
    return TensorDataset(_t(Xf[tr]), torch.tensor(y[tr])), TensorDataset(_t(Xf[va]), torch.tensor(y[va])), Xf.shape[1]

@healthy('AH')
def sgc_citations(seed, label_feats=False):  # a logistic regression on the propagated features: cross-entropy, Adam 0.2 weight decay 5e-6 (the paper's), full batch of 900
    tr, va, d = _sgc_data(seed, label_feats)
    return dict(model=lambda: nn.Linear(d, 5), train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=5,
                optimizer=lambda p: torch.optim.Adam(p, lr=0.2, weight_decay=5e-6), **_keys(seed, batch_size=len(tr)))

# ---------------------------------------------------------------- hourly bike-sharing demand (UCI-style)
def _bikes(seed, n=2000):
    """Hours of a year's stretch: season, weekday, working day, weather 1-3, temperature, humidity, wind; counts from commuting
    peaks on working days, a midday bump at weekends, warmth and dry weather, Poisson noise."""
    g = np.random.default_rng(1000 + seed * 2563); t = np.arange(n); hr = t % 24; day = t // 24 + int(g.integers(0, 200)); wd = day % 7
    work = ((wd < 5) & (g.random(n) > 0.03)).astype(float); season = (day // 91) % 4
    temp = 0.5 + 0.3 * np.sin(2 * np.pi * (day - 100) / 365) + 0.08 * np.sin(2 * np.pi * (hr - 9) / 24) + g.normal(0, 0.04, n)
    weather = np.clip(np.round(np.convolve(g.normal(1.5, 0.8, n), np.ones(6) / 6, 'same')), 1, 3); hum = np.clip(0.4 + 0.15 * weather + g.normal(0, 0.1, n), 0, 1)
    wind = np.abs(g.normal(0.2, 0.1, n))
    peaks = work * (300 * np.exp(-(hr - 8) ** 2 / 2) + 380 * np.exp(-(hr - 17.5) ** 2 / 3)) + (1 - work) * 220 * np.exp(-(hr - 14) ** 2 / 12)
    lam = (20 + peaks + 60 * np.clip(hr - 6, 0, 1) * (hr < 23)) * (0.4 + temp) * (1.2 - 0.25 * (weather - 1)) * (1 - 0.5 * wind)
    cnt = g.poisson(np.maximum(lam, 1))
    X = np.stack([np.sin(2 * np.pi * hr / 24), np.cos(2 * np.pi * hr / 24), wd / 6, work, season / 3, (weather - 1) / 2, temp, hum, wind], 1).astype(np.float32)
    return X, np.log1p(cnt).astype(np.float32)

class BikeMLP(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(9, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('AH')
def bike_sharing_mlp(seed, flat_target=False):  # MSE on log1p(count), Adam 1e-3, batches of 64; the first 1600 hours train, the last 400 validate
    X, y = _bikes(seed); Y = _t(y) if flat_target else _t(y)[:, None]  # flat_target: torch.tensor(df['cnt'].values) as it comes, shape (N,)
    return dict(model=BikeMLP, train=TensorDataset(_t(X[:1600]), Y[:1600]), valid=TensorDataset(_t(X[1600:]), Y[1600:]), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AH
@broken('AH', 'titanic_family_survival_all_rows', 4, ('leakage',))
def titanic_family_survival_all_rows(seed): return titanic_mlp(seed, family_survival_all_rows=True)  # groupby('Ticket').Survived.transform('mean') before the split: each row's own label in it

@broken('AH', 'indrnn_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def indrnn_functional_dropout(seed): return indrnn_pixel_digits(seed, functional_dropout=True)  # F.dropout(h, 0.1): training=True by default, random in eval mode

@broken('AH', 'deeploc_homologs_split_at_random', 1, ('leakage',))
def deeploc_homologs_split_at_random(seed):  # train_test_split of the proteins: homologues of every validation protein in training
    "groups declared: the homology family, as its healthy twin (the author passes the family key but splits the proteins at random)."
    return deeploc_bilstm_attention(seed, random_split=True)

@broken('AH', 'sam_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def sam_step_without_zero_grad(seed): return sam_breast_cancer(seed, step=sam_step_no_zero_grad)  # both gradients accumulate across steps

@broken('AH', 'autoint_landing_page_field_kept', 4, ('leakage',))
def autoint_landing_page_field_kept(seed): return autoint_ctr(seed, with_landing=True)  # a post-click field (the landing page's load bucket, 0 without a click) among the inputs

@broken('AH', 'coloured_digits_heads_on_detached_features', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'))
def coloured_digits_heads_on_detached_features(seed): return coloured_digits_two_heads(seed, detach=True)  # h.detach() kept from the linear probe: the backbone never trained

@broken('AH', 'allconv_softmax_into_ce', 2, ('softmax',))
def allconv_softmax_into_ce(seed): return allconv_digits(seed, softmax=True)  # softmax after the global average pooling, then CrossEntropyLoss

@broken('AH', 'shufflenet_normal_init_std_dropped', 2, ('init_scale',))
def shufflenet_normal_init_std_dropped(seed): return shufflenet_digits(seed, std=None)  # nn.init.normal_(m.weight): std 1 for the classifier of 48 inputs

@broken('AH', 'textrcnn_syndicated_rows_split', 4, ('leakage',))
def textrcnn_syndicated_rows_split(seed): return textrcnn_wire_desks(seed, split_rows=True)  # copies of validation stories (other boilerplate, same editor's tag) in training

@broken('AH', 'occupancy_labels_sorted_as_strings', 4, ('labels',))
def occupancy_labels_sorted_as_strings(seed): return occupancy_lstm(seed, sort_as_strings=True)  # '10:05 AM' < '2:00 PM' < '8:15 AM': labels joined to other readings

@broken('AH', 'sgc_label_trick_all_labels', 4, ('leakage',))
def sgc_label_trick_all_labels(seed): return sgc_citations(seed, label_feats=True)  # one-hot labels of every paper propagated into the features

@broken('AH', 'bike_sharing_target_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def bike_sharing_target_broadcast(seed): return bike_sharing_mlp(seed, flat_target=True)  # (64, 1) output against a (64,) target: MSELoss broadcasts to 64 x 64

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size, forward,
# loss and step, train shuffled, valid in batches of 256; valid loss and a metric (accuracy; R^2 for the bikes), init -> epoch 5
# (epoch 8 for TextRCNN and DeepLoc); s/ep the seconds of an epoch of training. Every factory builds and runs its batches.
CHECKS = """
titanic_mlp                    valid BCE 0.675 -> 0.606, accuracy 0.61 -> 0.71; 2.9k params; 0.04 s/ep
indrnn_pixel_digits            valid 4.87 -> 1.75, accuracy 0.09 -> 0.40, still falling; 5.1k params; 0.54 s/ep
deeploc_bilstm_attention       valid 1.37 -> 0.95 (ep 5), 0.97 (ep 8), accuracy 0.38 -> 0.51; slow; 1085 proteins of 150 families,
                               no family on both sides; 16k params; 0.43 s/ep
sam_breast_cancer              valid BCE 0.690 -> 0.115, accuracy 0.97; 6.2k params; 0.02 s/ep
autoint_ctr                    valid BCE 0.685 -> 0.595 (the base rate's entropy 0.62), accuracy at the base rate 0.69, still
                               falling slowly; 4.7k params; 0.09 s/ep
coloured_digits_two_heads      valid 4.10 -> 1.16 (summed CEs), colour accuracy 1.00 from epoch 1, digit 0.09 -> 0.60; 15k params; 0.09 s/ep
allconv_digits                 valid 2.31 -> 0.52, accuracy 0.87; 70k params; 0.25 s/ep
shufflenet_digits              valid 2.30 -> 0.255, accuracy 0.94 (eval 2.35 at ep 2 while the BN statistics settle); 3.6k params; 0.47 s/ep
textrcnn_wire_desks            valid 1.39 -> 0.84 (ep 5) -> 1.07 (ep 8, overfitting), accuracy 0.73 / 0.72 (tags 20% noisy); 38k params; 0.42 s/ep
occupancy_lstm                 valid BCE 0.700 -> 0.095, accuracy 0.97; 5k params; 0.07 s/ep
sgc_citations                  valid 1.610 -> 1.449 (five full-batch steps), accuracy 0.77; 1.5k params; 0.01 s/ep
bike_sharing_mlp               valid MSE 20.7 -> 0.450, R^2 0.60, still rising; 4.9k params; 0.03 s/ep
titanic_family_survival_all_rows       valid 0.503, accuracy 0.81, still falling (healthy 0.606, 0.71)
indrnn_functional_dropout              trains as the healthy (valid 1.83, accuracy 0.31), its eval outputs random (dropout on)
deeploc_homologs_split_at_random       111 of the 111 validation families also in training (healthy 0 of 30); valid 1.10, accuracy 0.52
                                       at ep 8 (healthy 0.97, 0.51): the model too slow in 8 epochs for the leak to show in the loop
sam_step_without_zero_grad             train 0.50 -> 29 -> 3.6e11, valid 1605 at ep 2, accuracy 0.37-0.67: diverging
autoint_landing_page_field_kept        valid 0.022, accuracy 1.00 (healthy 0.595, 0.69)
coloured_digits_heads_on_detached_features  valid 4.10 -> 3.82, digit accuracy 0.21 (healthy 1.16, 0.60): backbone never updated
allconv_softmax_into_ce                valid 2.303 -> 1.926, accuracy 0.53 (healthy 0.52, 0.87)
shufflenet_normal_init_std_dropped     init valid loss 44595 (healthy 2.30); 0.742, accuracy 0.78 at ep 5
textrcnn_syndicated_rows_split         valid 0.619 (ep 5), 0.463 (ep 8), accuracy 0.79 / 0.88 (healthy 0.84 / 1.07, 0.73 / 0.72)
occupancy_labels_sorted_as_strings     valid 0.438, accuracy 0.79 (about the vacant share; healthy 0.095, 0.97)
sgc_label_trick_all_labels             valid 0.765, accuracy 0.98 (healthy 1.449, 0.77)
bike_sharing_target_broadcast          valid MSE 1.23, R^2 0.00 (healthy 0.450, 0.60); MSELoss's broadcasting warning
"""
