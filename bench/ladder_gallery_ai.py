"""Half AI of the ladder's gallery: held out from the rules frozen at a4876c6 (round 49), and run once on them.
Families not in halves A-AH: Rossmann store sales with entity embeddings (Guo and Berkhahn 2016, shrunk: an embedding for
each categorical column, two dense ReLU layers, a sigmoid output of log(sales) / max log(sales), the MAE; Adam, batches of
128; a batch of three tensors and a forward of its own; the last 16 days validate) on synthetic stores whose sales are
their customers times a basket; a gated convolutional language model (Dauphin et al. 2017: causal convolutions with gated
linear units, residual connections scaled by sqrt(0.5), fairseq's normal initialisation, the output tied to the input
embedding; Adam) over a second-order Markov corpus of 64 words; the zero-inflated lognormal loss for customer lifetime value
(Wang, Liu and Miao 2019, as Google's lifetime_value notebooks ported to PyTorch: embeddings of the first purchase's channel,
category and region, a DNN with three outputs, the BCE of a purchase plus the lognormal NLL of the spend on the
safe labels; dict items, a forward of its own) predicting next year's spend in raw dollars; a SpliceAI-style splice-site
tagger (Jaganathan et al. 2019, shrunk: residual units of batch norm, ReLU and dilated convolutions of width 11, summed
skips, a softmax over none/acceptor/donor at every position, the flanking context cropped) on synthetic gene windows of
both strands, read in the transcript's orientation; speech emotion recognition from clip-level acoustic statistics
(RAVDESS-style: 24 actors, eight emotions at two intensities, two statements, two repetitions, the emotion parsed from
the file name; 20 MFCC means and deviations, chroma, energy, zero-crossing rate, spectral shape and pitch; an MLP with
dropout), split by actor with GroupShuffleSplit; groups declared: the actor; Caser (Tang and Wang 2018, as RecBole's:
horizontal convolutions of heights 1-5 and vertical convolutions over the last five items' embeddings, the user's embedding
concatenated, the cross-entropy over every item against the tied item embeddings; item ids 1-based, 0 the padding; a
batch of three tensors) recommending the next item of synthetic sessions with genre tastes and item-to-item habits, each
user's last three items validating; an E(n)-equivariant graph network (EGNN, Satorras, Hoogeboom and Welling 2021, as the
authors' EGNN_vel: edge, coordinate, velocity and node MLPs with SiLU, the coordinate MLP's last layer initialised with
gain 0.001, mean aggregation; MSE, Adam 5e-4; a batch of four tensors) predicting where five charged particles are one time
unit later; a ResNet with stochastic depth (Huang et al. 2016: residual branches dropped with probabilities rising to 0.5,
scaled by their survival probability in evaluation; SGD 0.1 with Nesterov momentum and weight decay) on digits; NADE
(Larochelle and Murray 2011: shared hidden weights accumulated over the preceding pixels, a sigmoid hidden layer, a
Bernoulli logit a pixel; the summed BCE in nats an image) of binarised digits; gamma/hadron separation from the Hillas
parameters of Cherenkov telescope images (the UCI MAGIC gamma telescope data: ten image moments, the file's gammas first;
an MLP, BCE with logits); R-Drop (Liang et al. 2021: the batch doubled through a dropout network, the two cross-entropies
plus the symmetric KL between the two passes, summed as the official code; a custom step) training a one-layer transformer
encoder that routes support tickets to five queues; and the heating load of residential buildings (Tsanas and Xifara 2012,
the UCI energy efficiency data: relative compactness, surface, wall and roof areas, height, orientation, glazing area and
its distribution, 768 simulated buildings; an MLP, SGD with momentum, the MSE in raw kWh/m^2).
At most about 2000 training samples a program and 59k parameters; see CHECKS for the plain-loop timings.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AH.

Protocol: written by a helper in a worktree at 0d60e4c (branch halfAI), held out from the rules frozen at a4876c6 (round 49).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI). It read bench/ladder_gallery.py's head, helpers and tail (the import lines), half AH whole,
the module docstrings and @broken lines of halves A-AG (for the rung and cause conventions and the families taken, with greps
of the halves for candidate family names, which showed a few of their code lines), a grep of ladder_sweep.py for 'half', and
the signatures and docstrings of `ntrain.ladder` and `ntrain.Task` via help(); it ran `git status`, `git diff --stat` and
`git rev-parse HEAD`, no git log. Each program was checked by hand only with a plain torch loop of its author's kind (shapes,
a few epochs: the healthy ones learn, the broken ones are broken as meant), seeds 0 and 1. Two programs declare groups (emotion_actor_split_mlp and its
broken twin emotion_clips_split_at_random; "groups declared" in their factories' docstrings) and are to be reported apart.
Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AI`; no program changes after the run starts.

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

# ---------------------------------------------------------------- Rossmann store sales with entity embeddings
def _rossmann(seed, n_stores=30, days=80):
    """Stores of four types and three assortments in six states, open Monday to Saturday except their state's holidays;
    promotions Monday to Friday every other week, ten days of school holidays a state. Customers from the store's footfall,
    the weekday, the promotion, the holidays, the first days of the month and a slowly drifting local level; sales are the
    customers times the store's basket (a little larger under a promotion)."""
    g = np.random.default_rng(1000 + seed * 2579)
    stype, assort, state, promo2 = g.integers(4, size=n_stores), g.integers(3, size=n_stores), g.integers(6, size=n_stores), g.integers(2, size=n_stores)
    comp = np.exp(g.normal(7.3, 1.2, n_stores))  # CompetitionDistance in metres
    foot = np.exp(g.normal(6.4, 0.3, n_stores)) * np.array([1.0, 1.5, 0.8, 0.9])[stype] * np.where(comp < 600, 0.9, 1.0)
    basket = g.normal(9.0, 1.0, n_stores) * np.array([1.0, 0.85, 1.15])[assort]
    hol = [set(g.choice(days, 2, replace=False).tolist()) for _ in range(6)]; school = [int(g.integers(0, days - 10)) for _ in range(6)]
    wk = np.array([1.25, 1.05, 1.0, 1.0, 1.1, 0.85]); rows = []
    for s in range(n_stores):
        lvl = g.normal(0, 0.05)
        for d in range(days):
            lvl = 0.85 * lvl + g.normal(0, 0.035); dow = (d + 2) % 7; dom = d % 30; promo = int((d // 7) % 2 == 0 and dow < 5)
            sh = int(school[state[s]] <= d < school[state[s]] + 10)
            if dow == 6 or d in hol[state[s]]: continue  # closed: Kaggle's rows with Open == 0 dropped
            cust = foot[s] * wk[dow] * (1 + 0.22 * promo) * (1 + 0.06 * sh) * np.exp(lvl + 0.06 * (dom < 3) + g.normal(0, 0.06))
            sales = cust * basket[s] * (1 + 0.05 * promo) * np.exp(g.normal(0, 0.03))
            rows.append((s, dow, dom, promo, sh, stype[s], assort[s], state[s], promo2[s], np.log(comp[s]), d, round(cust), round(sales)))
    return rows

EMB_SIZES = [(30, 10), (7, 6), (31, 10), (2, 1), (2, 1), (4, 2), (3, 2), (6, 6), (2, 1)]  # Store, DayOfWeek, Day, Promo, SchoolHoliday, StoreType, Assortment, State, Promo2

def _rossmann_data(seed, keep_customers=False):
    """The last 16 days validate (about 400 rows), as the competition's weeks after the training period; y = log(Sales) /
    max log(Sales) of the training rows, as the entity-embedding code. keep_customers: the features taken as
    train.drop(columns=['Sales']), the day's Customers count (which test.csv does not have) kept among them."""
    rows = _rossmann(seed); a = np.array(rows, dtype=np.float64); tr = a[:, 10] < 64; va = ~tr
    cats = a[:, :9].astype(np.int64); conts = [a[:, 9]] + ([np.log(a[:, 11])] if keep_customers else [])
    conts = np.stack(conts, 1); conts = (conts - conts[tr].mean(0)) / conts[tr].std(0)
    logy = np.log(a[:, 12]); y = logy / logy[tr].max()
    mk = lambda m: TensorDataset(torch.tensor(cats[m]), _t(conts[m]), _t(y[m])[:, None])
    return mk(tr), mk(va), conts.shape[1]

class RossmannNet(nn.Module):  # an embedding a column, dense 128 and 64 (the paper's 1000 and 500 shrunk), a sigmoid output
    def __init__(self, n_cont):
        super().__init__(); self.embs = nn.ModuleList([nn.Embedding(n, d) for n, d in EMB_SIZES])
        self.net = nn.Sequential(nn.Linear(sum(d for _, d in EMB_SIZES) + n_cont, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
    def forward(self, cats, conts): return self.net(torch.cat([e(cats[:, i]) for i, e in enumerate(self.embs)] + [conts], 1))

def _ross_fwd(model, b): cats, conts, y = b; return model(cats, conts), y

@healthy('AI')
def rossmann_entity_embeddings(seed, keep_customers=False):  # the MAE (Keras' mean_absolute_error), Adam 1e-3, batches of 128; about 1600 rows train
    tr, va, nc = _rossmann_data(seed, keep_customers)
    return dict(model=lambda: RossmannNet(nc), train=tr, valid=va, forward=_ross_fwd, loss=nn.L1Loss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a gated convolutional language model (Dauphin et al. 2017)
def _markov_corpus(seed, n_tok, V=64):
    "Each word followed by one of its four usual successors (three times in four) or by one of the three that follow the word before it."
    g = np.random.default_rng(1000 + seed * 2591)
    succ, w1 = g.integers(V, size=(V, 4)), g.dirichlet(np.ones(4), V); skip, w2 = g.integers(V, size=(V, 3)), g.dirichlet(np.ones(3), V)
    c1, c2 = np.cumsum(w1, 1), np.cumsum(w2, 1); u, r = g.random(n_tok), g.random(n_tok); out = [int(g.integers(V)), int(g.integers(V))]
    for t in range(2, n_tok):
        a, b = out[-2], out[-1]
        out.append(int(succ[b, min(np.searchsorted(c1[b], r[t]), 3)]) if u[t] < 0.75 else int(skip[a, min(np.searchsorted(c2[a], r[t]), 2)]))
    return np.array(out)

class GatedConvLM(nn.Module):  # embeddings 48, three causal convolutions of width 4 with GLUs, residuals scaled by sqrt(0.5), tied output
    def __init__(self, V=64, d=48, k=4, layers=3, init=True):
        super().__init__(); self.k = k; self.emb = nn.Embedding(V, d); self.convs = nn.ModuleList([nn.Conv1d(d, 2 * d, k) for _ in range(layers)])
        self.bias = nn.Parameter(torch.zeros(V))
        if init: self.apply(self._init)  # init False: the call lost when the init moved into a helper; nn.Embedding's N(0, 1) left, tied to the output
    @staticmethod
    def _init(m):  # fairseq's fconv: embeddings N(0, 0.1), convolutions N(0, sqrt(4 / (k * in_channels))), zero biases
        if isinstance(m, nn.Embedding): nn.init.normal_(m.weight, 0, 0.1)
        if isinstance(m, nn.Conv1d): nn.init.normal_(m.weight, 0, math.sqrt(4 / (m.kernel_size[0] * m.in_channels))); nn.init.zeros_(m.bias)
    def forward(self, x):  # x (B, T) word ids -> logits (B, V, T) for the next words
        h = self.emb(x).transpose(1, 2)
        for c in self.convs: h = (h + F.glu(c(F.pad(h, (self.k - 1, 0))), dim=1)) * math.sqrt(0.5)
        return torch.einsum('bdt,vd->bvt', h, self.emb.weight) + self.bias[None, :, None]

@healthy('AI')
def gated_conv_lm(seed, init=True):  # cross-entropy, Adam 2e-3, batches of 32 chunks of 32 words; 1500 chunks train, the next 300 validate
    w = _t(_markov_corpus(seed, 1800 * 33), torch.long).view(1800, 33)
    return dict(model=lambda: GatedConvLM(init=init), train=TensorDataset(w[:1500, :-1], w[:1500, 1:]), valid=TensorDataset(w[1500:, :-1], w[1500:, 1:]),
                loss=nn.CrossEntropyLoss(), num_classes=64, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- customer lifetime value with the zero-inflated lognormal loss
def _customers(seed, n=2000):
    """First purchases: channel (5), category (10), region (6), amount in dollars, items, weekend; next year's spend is 0 for
    the customers who never come back (about half) and lognormal otherwise, both driven by the first purchase."""
    g = np.random.default_rng(1000 + seed * 2593)
    ch, cat, reg = g.integers(5, size=n), g.integers(10, size=n), g.integers(6, size=n)
    first = np.exp(g.normal(3.6, 0.7, n)).round(2); items = 1 + g.poisson(1.5, n); wkd = (g.random(n) < 2 / 7).astype(float)
    che, cae, ree = g.normal(0, 0.7, 5), g.normal(0, 0.5, 10), g.normal(0, 0.3, 6)
    z = -0.2 + che[ch] + 0.6 * cae[cat] + 0.8 * (np.log(first) - 3.6) + 0.3 * (items - 2.5) - 0.3 * wkd
    back = g.random(n) < 1 / (1 + np.exp(-z))
    mu = 4.4 + 0.8 * (np.log(first) - 3.6) + cae[cat] + ree[reg] + 0.1 * items; sigma = np.array([0.6, 0.8, 0.7, 1.0, 0.9])[ch]
    ltv = np.where(back, np.exp(mu + sigma * g.normal(size=n)), 0.0).round(2)
    return ch, cat, reg, np.stack([np.log(first), np.log1p(items), wkd], 1), ltv

def ziln_loss(logits, labels, safe_labels=True):
    """lifetime_value.zero_inflated_lognormal_loss: the BCE of a purchase on logits[:, 0], plus the lognormal NLL of the
    spend (loc logits[:, 1], scale softplus(logits[:, 2])) on the positive labels, written out by hand for PyTorch.
    safe_labels False: the port's log(labels) without the original's safe_labels = positive * labels + (1 - positive)."""
    positive = (labels > 0).float()
    cls = F.binary_cross_entropy_with_logits(logits[:, :1], positive)
    loc, scale = logits[:, 1:2], torch.clamp(F.softplus(logits[:, 2:]), min=math.sqrt(torch.finfo(torch.float32).eps))
    y = positive * labels + (1 - positive) * torch.ones_like(labels) if safe_labels else labels
    logy = torch.log(y)
    nll = logy + torch.log(scale) + 0.5 * math.log(2 * math.pi) + (logy - loc) ** 2 / (2 * scale ** 2)
    return cls + (positive * nll).mean()

class ZILNNet(nn.Module):  # embeddings of int(sqrt(vocab)) + 1 dims, dense 64 and 32 ReLU, three outputs (as the notebook's DNN)
    def __init__(self):
        super().__init__(); self.e = nn.ModuleList([nn.Embedding(v, int(math.sqrt(v)) + 1) for v in (5, 10, 6)])
        self.net = nn.Sequential(nn.Linear(3 + 4 + 3 + 3, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 3))
    def forward(self, channel, category, region, numeric):
        return self.net(torch.cat([self.e[0](channel), self.e[1](category), self.e[2](region), numeric], 1))

def _ziln_fwd(model, b): return model(b['channel'], b['category'], b['region'], b['numeric']), b['ltv']

@healthy('AI')
def ziln_customer_value(seed, safe_labels=True):  # Adam 2e-3, batches of 64; sklearn's train_test_split, 1600 customers train, 400 validate; the target in dollars
    from sklearn.model_selection import train_test_split
    ch, cat, reg, num, ltv = _customers(seed); tr, va = train_test_split(np.arange(len(ltv)), test_size=0.2, random_state=seed)
    num = (num - num[tr].mean(0)) / num[tr].std(0)
    item = lambda i: dict(channel=torch.tensor(ch[i]), category=torch.tensor(cat[i]), region=torch.tensor(reg[i]), numeric=_t(num[i]), ltv=_t(ltv[i:i + 1]))
    return dict(model=ZILNNet, train=ListDataset([item(i) for i in tr]), valid=ListDataset([item(i) for i in va]), forward=_ziln_fwd,
                loss=lambda out, y: ziln_loss(out, y, safe_labels), optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- SpliceAI-style splice-site tagging
COMP = str.maketrans('ACGT', 'TGCA')

def _mut(motif, g, p):
    "A consensus written with IUPAC codes realised base by base, each base but the invariant upper-case ones replaced with probability p."
    code = dict(A='A', C='C', G='G', T='T', M='AC', R='AG', Y='CT', N='ACGT'); out = []
    for i, c in enumerate(motif):
        out.append(str(g.choice(list(code[c.upper()]))) if c.isupper() or g.random() > p else str(g.choice(list('ACGT'))))
    return out

def _splice_windows(seed, n=1000, W=200, ctx=20):
    """Windows of 240 nt of synthetic genes: exons of 30-70 nt and introns of 45-95 nt; donors as the exon's mAG then the
    intron's GTragt, acceptors as a pyrimidine tract, yAG, then the exon (lower case: each base mutated with probability
    0.25). Labels: 1 acceptor (the G of AG), 2 donor (the G of GT). Half the genes on the minus strand, stored as the genome
    has them (the reverse complement, the labels in genome coordinates)."""
    g = np.random.default_rng(1000 + seed * 2609); L = W + 2 * ctx; recs = []
    for _ in range(n):
        s = list(g.choice(list('ACGT'), L, p=[0.28, 0.22, 0.22, 0.28])); lab = np.zeros(L, np.int64)
        pos, exon = -int(g.integers(0, 70)), g.random() < 0.5
        while pos < L:
            end = pos + int(g.integers(30, 71) if exon else g.integers(45, 96))
            if exon and end - 3 >= 0 and end + 6 <= L: s[end - 3:end + 6] = _mut('mAGGTragt', g, 0.25); lab[end] = 2
            if not exon and end - 15 >= 0 and end + 1 <= L: s[end - 15:end + 1] = _mut('yyyyyyyyyyyyyAGg', g, 0.25); lab[end - 1] = 1
            pos, exon = end, not exon
        for _ in range(int(g.integers(0, 3))):  # decoys: a weaker donor-like or acceptor-like stretch where nothing is spliced
            p = int(g.integers(16, L - 7))
            if lab[max(p - 20, 0):p + 20].any(): continue
            if g.random() < 0.5: s[p - 3:p + 6] = _mut('mAGGTragt', g, 0.45)
            else: s[p - 15:p + 1] = _mut('yyyyyyyyyyyyyAGg', g, 0.45)
        seq = ''.join(s)
        if g.random() < 0.5: recs.append((seq.translate(COMP)[::-1], lab[::-1].copy(), '-'))
        else: recs.append((seq, lab, '+'))
    return recs

def _splice_data(seed, flip_minus_labels=True, ctx=20):
    """As SpliceAI's create_datafile: minus-strand genes reverse-complemented into the transcript's orientation, their label
    vectors reversed with them (flip_minus_labels False: the labels left in genome order); the flanks' labels cropped;
    800 windows train, 200 validate."""
    recs = _splice_windows(seed); X, Y, S = [], [], []
    for seq, lab, strand in recs:
        if strand == '-':
            seq = seq.translate(COMP)[::-1]
            if flip_minus_labels: lab = lab[::-1]
        X.append(np.eye(4, dtype=np.float32)[['ACGT'.index(c) for c in seq]].T); Y.append(lab[ctx:-ctx].copy()); S.append(strand)
    X, Y = torch.tensor(np.stack(X)), torch.tensor(np.stack(Y))
    return TensorDataset(X[:800], Y[:800]), TensorDataset(X[800:], Y[800:]), S

class ResidualUnit(nn.Module):  # SpliceAI's RU: (BN, ReLU, dilated conv) twice, plus the input
    def __init__(self, c, k, d):
        super().__init__(); pad = d * (k - 1) // 2
        self.f = nn.Sequential(nn.BatchNorm1d(c), nn.ReLU(), nn.Conv1d(c, c, k, dilation=d, padding=pad), nn.BatchNorm1d(c), nn.ReLU(), nn.Conv1d(c, c, k, dilation=d, padding=pad))
    def forward(self, x): return x + self.f(x)

class SpliceNet(nn.Module):  # 1x1 conv to 24 channels, residual units at dilations 1 and 4, skips summed through 1x1 convs, 1x1 to three classes, flanks cropped
    def __init__(self, c=24, ctx=20):
        super().__init__(); self.ctx = ctx; self.inp, self.skip0, self.skip1 = nn.Conv1d(4, c, 1), nn.Conv1d(c, c, 1), nn.Conv1d(c, c, 1)
        self.rus = nn.Sequential(ResidualUnit(c, 11, 1), ResidualUnit(c, 11, 4)); self.out = nn.Conv1d(c, 3, 1)
    def forward(self, x):
        h = self.inp(x); return self.out(self.skip0(h) + self.skip1(self.rus(h)))[..., self.ctx:-self.ctx]

@healthy('AI')
def spliceai_tagger(seed, flip_minus_labels=True):  # cross-entropy over every position, Adam 1e-3, batches of 32
    tr, va, _ = _splice_data(seed, flip_minus_labels)
    return dict(model=SpliceNet, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- speech emotion recognition from clip statistics (RAVDESS-style)
EMOTIONS = ['neutral', 'calm', 'happy', 'sad', 'angry', 'fearful', 'disgust', 'surprised']
AROUSAL = np.array([0.0, -0.5, 0.6, -0.6, 1.0, 0.8, 0.2, 0.9]); VALENCE = np.array([0.0, 0.4, 0.9, -0.8, -0.7, -0.7, -0.8, 0.5])

def _ravdess(seed, D=58):
    """1440 clips named as RAVDESS's ('03-01-05-02-01-01-12': modality, channel, emotion 01-08, intensity, statement,
    repetition, actor; odd actors male), no strong intensity for neutral. Features: 20 MFCC means, 20 deviations, 12
    chroma, then RMS, zero-crossing rate, centroid, roll-off, pitch mean and deviation. Each actor's timbre, expressiveness
    and own way of acting each emotion; each emotion's shared spectral signature and its arousal and valence."""
    g = np.random.default_rng(1000 + seed * 2617)
    sig = g.normal(0, 0.16, (8, D)); stmt = g.normal(0, 0.3, (2, D)); aro = np.zeros(D); aro[52:58] = [0.6, 0.35, 0.4, 0.35, 0.5, 0.45]; aro[:6] += 0.2
    val = np.zeros(D); val[6:14] = g.normal(0, 0.3, 8); val[40:52] = g.normal(0, 0.2, 12); names, X = [], []
    for a in range(1, 25):
        timbre = g.normal(0, 1.0, D); timbre[[54, 56]] += 1.5 * (a % 2 == 0); style = g.normal(0, 0.4, (8, D)); expr = g.uniform(0.6, 1.3)
        for e in range(8):
            for it in ((1,) if e == 0 else (1, 2)):
                for st in (1, 2):
                    for rep in (1, 2):
                        k = expr * (1.0 if it == 1 else 1.6)
                        X.append(timbre + k * (sig[e] + AROUSAL[e] * aro + VALENCE[e] * val) + style[e] + stmt[st - 1] + g.normal(0, 0.5, D))
                        names.append(f'03-01-{e + 1:02d}-{it:02d}-{st:02d}-{rep:02d}-{a:02d}.wav')
    return names, np.array(X, np.float32)

def _emotion_data(seed, random_split=False):
    "GroupShuffleSplit by actor (20% of the actors validate; random_split: train_test_split of the clips, stratified by emotion); StandardScaler on the training clips."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    names, X = _ravdess(seed); parts = [n[:-4].split('-') for n in names]
    y = np.array([int(p[2]) - 1 for p in parts]); actor = np.array([int(p[6]) for p in parts]); idx = np.arange(len(y))
    if random_split: tr, va = train_test_split(idx, test_size=0.2, stratify=y, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(idx, groups=actor))
    X = (X - X[tr].mean(0)) / X[tr].std(0)
    return TensorDataset(_t(X[tr]), torch.tensor(y[tr])), TensorDataset(_t(X[va]), torch.tensor(y[va])), {'train': list(actor[tr]), 'valid': list(actor[va])}

class EmotionMLP(nn.Module):
    def __init__(self, d=58):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 8))
    def forward(self, x): return self.net(x)

@healthy('AI')
def emotion_actor_split_mlp(seed, random_split=False):  # cross-entropy, Adam 1e-3, batches of 32; 1440 clips of 24 actors, 5 actors validate
    "groups declared: the actor."
    tr, va, keys = _emotion_data(seed, random_split)
    task = ntrain.Task(model=EmotionMLP, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=8, groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Caser (Tang and Wang 2018) next-item recommendation
def _sessions(seed, n_users=130, n_items=100, n_genres=10):
    """Item ids 1-100 (0 the padding) in ten genres; a user's next item is one of the last item's two usual follow-ups
    (three times in five) or an item of a genre drawn from the user's tastes, popular items likelier; 15-30 items a user."""
    g = np.random.default_rng(1000 + seed * 2621); genre = g.permutation(np.repeat(np.arange(n_genres), n_items // n_genres))
    pop = g.pareto(1.5, n_items) + 0.3; follow = np.array([g.choice(np.flatnonzero(genre == genre[i]), 2, replace=False) for i in range(n_items)])
    seqs = []
    for u in range(n_users):
        taste = g.dirichlet(np.full(n_genres, 0.3)); s = []
        for t in range(int(g.integers(15, 31))):
            if s and g.random() < 0.6: s.append(int(g.choice(follow[s[-1] - 1])) + 1)
            else: c = np.flatnonzero(genre == g.choice(n_genres, p=taste)); s.append(int(g.choice(c, p=pop[c] / pop[c].sum())) + 1)
        seqs.append(s)
    return seqs, n_items

def _caser_data(seed, L=5, window_one_short=False):
    """Windows of L + 1 items: the first L -> the last; each user's last three targets validate (leave-last-out), the
    windows before them train. window_one_short: s[t - L:t] sliced for the window and its own last item taken as the target."""
    seqs, n_items = _sessions(seed); tr, va = [], []
    for u, s in enumerate(seqs):
        for t in range(L, len(s)):
            if window_one_short: w = s[t - L:t]; x, y = w, w[-1]
            else: w = s[t - L:t + 1]; x, y = w[:-1], w[-1]
            (va if t >= len(s) - 3 else tr).append((u, x, y))
    mk = lambda r: TensorDataset(torch.tensor([u for u, _, _ in r]), torch.tensor([w for _, w, _ in r]), torch.tensor([y for _, _, y in r]))
    return mk(tr), mk(va), len(seqs), n_items

class Caser(nn.Module):  # d 32, 8 horizontal filters a height 1..L, 4 vertical filters, dropout 0.5, the user embedding, fc2 to d, logits against the item embeddings
    def __init__(self, n_users, n_items, d=32, L=5, n_h=8, n_v=4):
        super().__init__(); self.item = nn.Embedding(n_items, d, padding_idx=0); self.user = nn.Embedding(n_users, d)
        self.conv_v = nn.Conv2d(1, n_v, (L, 1)); self.conv_h = nn.ModuleList([nn.Conv2d(1, n_h, (i, d)) for i in range(1, L + 1)])
        self.fc1 = nn.Linear(n_v * d + n_h * L, d); self.fc2 = nn.Linear(2 * d, d); self.drop = nn.Dropout(0.5)
        for m in self.modules():
            if isinstance(m, nn.Embedding): nn.init.normal_(m.weight, 0, 1 / d)  # RecBole's Caser init
    def forward(self, user, seq):
        E = self.item(seq).unsqueeze(1)  # (B, 1, L, d)
        out_v = self.conv_v(E).view(E.size(0), -1)
        out_h = [F.relu(c(E).squeeze(3)).max(2).values for c in self.conv_h]
        z = F.relu(self.fc1(self.drop(torch.cat([out_v] + out_h, 1))))
        return F.relu(self.fc2(torch.cat([z, self.user(user)], 1))) @ self.item.weight.t()

def _caser_fwd(model, b): u, s, y = b; return model(u, s), y

@healthy('AI')
def caser_next_item(seed, window_one_short=False):  # cross-entropy over every item (RecBole's loss_type 'CE'), Adam 3e-3, batches of 64; about 2000 windows train, 390 validate
    tr, va, n_users, n_catalogue = _caser_data(seed, window_one_short=window_one_short)
    return dict(model=lambda: Caser(n_users, n_catalogue + 1), train=tr, valid=va, forward=_caser_fwd, loss=nn.CrossEntropyLoss(), num_classes=n_catalogue + 1,
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- EGNN (Satorras et al. 2021) on the charged N-body system
def _nbody(seed, n=2000, N=5, dt=0.01, steps=100):
    """Five particles of charge +-1 (like charges repel) from N(0, 1) positions, velocities of norm 0.5 in random directions;
    Coulomb forces softened at short range, leapfrog for one time unit; the positions at the end are the target."""
    g = np.random.default_rng(1000 + seed * 2633)
    x = g.normal(0, 1, (n, N, 3)); v = g.normal(0, 1, (n, N, 3)); v = 0.5 * v / np.linalg.norm(v, axis=-1, keepdims=True)
    q = g.choice([-1.0, 1.0], (n, N, 1)); qq = q * q.transpose(0, 2, 1)
    def acc(x):
        d = x[:, :, None] - x[:, None]; r2 = (d ** 2).sum(-1) + 0.05
        return (qq[..., None] * d / r2[..., None] ** 1.5).sum(2)
    x0, v0 = x.copy(), v.copy(); a = acc(x)
    for _ in range(steps): v = v + 0.5 * dt * a; x = x + dt * v; a = acc(x); v = v + 0.5 * dt * a
    return x0.astype(np.float32), v0.astype(np.float32), q.astype(np.float32), x.astype(np.float32)

def _nbody_data(seed, sort_by_charge=False):
    """1500 systems train, 500 validate. sort_by_charge: the particles of each system reordered so the positive charges come
    first (loc, vel and charges permuted; the end positions, loaded from their own array, left in the simulator's order)."""
    loc, vel, q, end = _nbody(seed)
    if sort_by_charge:
        o = np.argsort(-q[..., 0], axis=1, kind='stable')[..., None]
        loc, vel, q = np.take_along_axis(loc, o, 1), np.take_along_axis(vel, o, 1), np.take_along_axis(q, o, 1)
    T = [torch.tensor(a) for a in (loc, vel, q, end)]
    return TensorDataset(*[t[:1500] for t in T]), TensorDataset(*[t[1500:] for t in T])

class EGCLVel(nn.Module):  # E_GCL_vel: m_ij = phi_e(h_i, h_j, |x_i - x_j|^2, q_i q_j); x_i += mean_j (x_i - x_j) phi_x(m_ij) + phi_v(h_i) v_i; h_i += phi_h(h_i, sum_j m_ij)
    def __init__(self, nf=32):
        super().__init__(); act = nn.SiLU()
        self.phi_e = nn.Sequential(nn.Linear(2 * nf + 2, nf), act, nn.Linear(nf, nf), act)
        last = nn.Linear(nf, 1, bias=False); nn.init.xavier_uniform_(last.weight, gain=0.001)
        self.phi_x = nn.Sequential(nn.Linear(nf, nf), act, last); self.phi_v = nn.Sequential(nn.Linear(nf, nf), act, nn.Linear(nf, 1))
        self.phi_h = nn.Sequential(nn.Linear(2 * nf, nf), act, nn.Linear(nf, nf))
    def forward(self, h, x, v, qq, mask):
        B, N, nf = h.shape; d = x[:, :, None] - x[:, None]; r2 = (d ** 2).sum(-1, keepdim=True)
        m = self.phi_e(torch.cat([h[:, :, None].expand(B, N, N, nf), h[:, None].expand(B, N, N, nf), r2, qq], -1)) * mask
        x = x + (d * self.phi_x(m) * mask).sum(2) / (N - 1) + self.phi_v(h) * v
        return h + self.phi_h(torch.cat([h, m.sum(2)], -1)), x

class EGNNVel(nn.Module):  # h0 = Linear(|v|), four layers of 32 features
    def __init__(self, nf=32, layers=4):
        super().__init__(); self.emb = nn.Linear(1, nf); self.layers = nn.ModuleList([EGCLVel(nf) for _ in range(layers)])
    def forward(self, loc, vel, q):
        N = loc.size(1); h = self.emb(vel.norm(dim=-1, keepdim=True)); qq = (q * q.transpose(1, 2))[..., None]; mask = (1 - torch.eye(N))[None, :, :, None]; x = loc
        for l in self.layers: h, x = l(h, x, vel, qq, mask)
        return x

def _nbody_fwd(model, b): loc, vel, q, end = b; return model(loc, vel, q), end

@healthy('AI')
def egnn_nbody(seed, sort_by_charge=False):  # MSE on the positions, Adam 5e-4 (the paper's), batches of 100
    tr, va = _nbody_data(seed, sort_by_charge)
    return dict(model=EGNNVel, train=tr, valid=va, forward=_nbody_fwd, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=5e-4, weight_decay=1e-12), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- a ResNet with stochastic depth (Huang et al. 2016) on digits
class SDBlock(nn.Module):  # a basic block whose residual branch is dropped with probability p_death in training, scaled by 1 - p_death in evaluation
    def __init__(self, cin, cout, stride, p_death, drop_in_eval=False):
        super().__init__(); self.p, self.always = p_death, drop_in_eval
        self.branch = nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(), nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.short = nn.Sequential() if stride == 1 and cin == cout else nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
    def forward(self, x):
        s = self.short(x)
        if self.training or self.always:  # drop_in_eval: `if torch.rand(1) < self.p_death` written without `self.training`
            if torch.rand(1).item() < self.p: return F.relu(s)
            return F.relu(s + self.branch(x))
        return F.relu(s + (1 - self.p) * self.branch(x))

class SDResNet(nn.Module):  # a 3x3 stem of 16, two blocks of 16 and two of 32 (the first strided), linear death rates to 0.5, global average pooling
    def __init__(self, drop_in_eval=False):
        super().__init__(); L = 4; ps = [0.5 * (i + 1) / L for i in range(L)]
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.blocks = nn.Sequential(SDBlock(16, 16, 1, ps[0], drop_in_eval), SDBlock(16, 16, 1, ps[1], drop_in_eval), SDBlock(16, 32, 2, ps[2], drop_in_eval), SDBlock(32, 32, 1, ps[3], drop_in_eval))
        self.fc = nn.Linear(32, 10)
    def forward(self, x): return self.fc(self.blocks(self.stem(x)).mean((2, 3)))

@healthy('AI')
def stochastic_depth_resnet(seed, drop_in_eval=False):  # cross-entropy, SGD 0.1 with Nesterov momentum 0.9 and weight decay 1e-4 (the paper's), batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: SDResNet(drop_in_eval), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- NADE (Larochelle and Murray 2011) of binarised digits
class NADE(nn.Module):  # D = 64 pixels, H = 100 hidden units: a_d = c + W[:, <d] x_<d, h_d = sigmoid(a_d), logit_d = b_d + V_d . h_d
    def __init__(self, D=64, H=100, inclusive=False):
        super().__init__(); self.inclusive = inclusive
        self.W, self.V = nn.Parameter(torch.randn(H, D) * 0.01), nn.Parameter(torch.randn(D, H) * 0.01); self.b, self.c = nn.Parameter(torch.zeros(D)), nn.Parameter(torch.zeros(H))
    def forward(self, x):  # x (B, D) in {0, 1} -> the logits of p(x_d = 1 | x_<d), (B, D)
        a = self.c + torch.cumsum(x[:, :, None] * self.W.t()[None], 1)  # running sums of W[:, k] x_k, k <= d
        if not self.inclusive: a = torch.cat([self.c.expand(x.size(0), 1, -1), a[:, :-1]], 1)  # shifted: a_d sees k < d only (inclusive: the shift forgotten)
        return (torch.sigmoid(a) * self.V[None]).sum(-1) + self.b

def nade_nll(logits, x): return F.binary_cross_entropy_with_logits(logits, x, reduction='sum') / len(x)  # nats an image

@healthy('AI')
def nade_digits(seed, inclusive=False):  # Adam 5e-3, batches of 64; pixels above 0.5 set
    (x, _), (vx, _) = _digits(seed); xb, vb = (x.view(-1, 64) > 0.5).float(), (vx.view(-1, 64) > 0.5).float()
    return dict(model=lambda: NADE(inclusive=inclusive), train=TensorDataset(xb, xb), valid=TensorDataset(vb, vb), loss=nade_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- gamma/hadron separation (MAGIC telescope Hillas parameters)
def _magic(seed, n=1900):
    """Rows as magic04.data: fLength, fWidth (mm), fSize (log10 photons), fConc, fConc1, fAsym, fM3Long, fM3Trans (mm),
    fAlpha (deg), fDist (mm), class 'g' or 'h'; the gammas first, as the file lists them (about 65%). Gamma images: narrow
    ellipses pointing at the camera centre; hadron showers wider, more irregular and pointing anywhere."""
    g = np.random.default_rng(1000 + seed * 2647); ng = int(0.65 * n); rows = []
    for k in range(n):
        gam = k < ng; size = g.normal(2.8, 0.45); length = np.exp(g.normal(3.0 + 0.35 * (size - 2.8), 0.35 if gam else 0.5))
        width = length * (g.beta(3, 9) if gam else g.beta(4, 5)); conc = np.clip(g.normal(0.42 - 0.12 * (size - 2.8) + (0.03 if gam else -0.04), 0.1), 0.02, 0.9)
        alpha = abs(g.normal(0, 9)) if gam and g.random() < 0.85 else g.uniform(0, 90); dist = abs(g.normal(110 if gam else 130, 45))
        asym = g.normal(0, 0.5 * length if gam else 0.9 * length); m3l = g.normal(0.4 * asym, 0.3 * length); m3t = g.normal(0, 0.15 * length if gam else 0.35 * length)
        rows.append((length, width, size, conc, conc * g.uniform(0.45, 0.65), asym, m3l, m3t, alpha, dist, 'g' if gam else 'h'))
    return rows

def _magic_data(seed, shuffled_apart=False):
    """np.loadtxt-style arrays; the rows shuffled (the file is sorted by class), the first 80% train, standardised by them.
    shuffled_apart: rng.shuffle(X) and rng.shuffle(y), two calls, each its own permutation."""
    rows = _magic(seed); X = np.array([r[:10] for r in rows], np.float32); y = np.array([r[10] == 'g' for r in rows], np.float32)
    rng = np.random.default_rng(seed)
    if shuffled_apart: rng.shuffle(X); rng.shuffle(y)
    else: p = rng.permutation(len(y)); X, y = X[p], y[p]
    k = int(0.8 * len(y)); X = (X - X[:k].mean(0)) / X[:k].std(0)
    return TensorDataset(_t(X[:k]), _t(y[:k])[:, None]), TensorDataset(_t(X[k:]), _t(y[k:])[:, None])

class GammaMLP(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('AI')
def magic_gamma_mlp(seed, shuffled_apart=False):  # BCE with logits (gamma = 1), Adam 1e-3, batches of 64; 1520 events train, 380 validate
    tr, va = _magic_data(seed, shuffled_apart)
    return dict(model=GammaMLP, train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- R-Drop (Liang et al. 2021) on support-ticket routing
QUEUES = ['billing', 'shipping', 'account', 'technical', 'returns']

def _tickets(seed, n=1800, T=24):
    """Tickets of 8-24 words: filler words, 2-5 of the queue's own words, 0-2 of another queue's; one ticket in ten filed in
    another queue by the agent. Word ids 2.. (0 the padding, 1 unknown)."""
    g = np.random.default_rng(1000 + seed * 2657); V_q, V_f = 20, 150; X = np.zeros((n, T), np.int64); y = g.integers(5, size=n)
    for i in range(n):
        L = int(g.integers(8, T + 1)); w = list(2 + 5 * V_q + g.integers(V_f, size=L))
        for _ in range(int(g.integers(2, 6))): w[int(g.integers(L))] = 2 + y[i] * V_q + int(g.integers(V_q))
        for _ in range(int(g.integers(0, 3))): w[int(g.integers(L))] = 2 + int(g.integers(5)) * V_q + int(g.integers(V_q))
        X[i, :L] = w
    y = np.where(g.random(n) < 0.1, g.integers(5, size=n), y)
    return X, y, 2 + 5 * V_q + V_f

class TicketEncoder(nn.Module):  # embeddings 32 plus learnt positions, one post-norm encoder layer (4 heads, feed-forward 64, dropout 0.1), masked mean pooling, dropout, linear
    def __init__(self, V, d=32, T=24):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.pos = nn.Parameter(torch.randn(T, d) * 0.02)
        self.enc = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.1, batch_first=True); self.drop = nn.Dropout(0.1); self.fc = nn.Linear(d, 5)
    def forward(self, x):
        pad = x == 0; h = self.enc(self.emb(x) + self.pos[:x.size(1)], src_key_padding_mask=pad)
        h = (h * ~pad[..., None]).sum(1) / (~pad).sum(1, keepdim=True); return self.fc(self.drop(h))

def compute_kl_loss(p, q):  # the R-Drop repository's: both directions of the KL, summed over the batch, halved
    p_loss = F.kl_div(F.log_softmax(p, dim=-1), F.softmax(q, dim=-1), reduction='none'); q_loss = F.kl_div(F.log_softmax(q, dim=-1), F.softmax(p, dim=-1), reduction='none')
    return (p_loss.sum() + q_loss.sum()) / 2

def rdrop_step(model, batch, opt, alpha=0.3):
    "The two dropout passes as one forward of the doubled batch; 0.5 (CE1 + CE2) + alpha KL."
    x, y = batch
    opt.zero_grad()
    l1, l2 = model(torch.cat([x, x])).chunk(2)
    loss = 0.5 * (F.cross_entropy(l1, y) + F.cross_entropy(l2, y)) + alpha * compute_kl_loss(l1, l2)
    loss.backward(); opt.step(); return loss

def rdrop_step_zero_grad_after_backward(model, batch, opt, alpha=0.3):
    "The same step with its optimizer calls reordered by hand: zero_grad() between backward() and step()."
    x, y = batch
    l1, l2 = model(torch.cat([x, x])).chunk(2)
    loss = 0.5 * (F.cross_entropy(l1, y) + F.cross_entropy(l2, y)) + alpha * compute_kl_loss(l1, l2)
    loss.backward()
    opt.zero_grad()
    opt.step(); return loss

@healthy('AI')
def rdrop_ticket_router(seed, step=rdrop_step):  # AdamW 3e-3, batches of 64; cross-entropy to validate; 1500 tickets train, 300 validate
    X, y, V = _tickets(seed); X, y = torch.tensor(X), torch.tensor(y)
    return dict(model=lambda: TicketEncoder(V), train=TensorDataset(X[:1500], y[:1500]), valid=TensorDataset(X[1500:], y[1500:]), loss=nn.CrossEntropyLoss(), num_classes=5,
                step=step, optimizer=lambda p: torch.optim.AdamW(p, lr=3e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- heating load of residential buildings (UCI energy efficiency)
SHAPES = [(0.98, 514.5, 294.0, 110.25, 7.0), (0.90, 563.5, 318.5, 122.5, 7.0), (0.86, 588.0, 294.0, 147.0, 7.0), (0.82, 612.5, 318.5, 147.0, 7.0),
          (0.79, 637.0, 343.0, 147.0, 7.0), (0.76, 661.5, 416.5, 122.5, 7.0), (0.74, 686.0, 245.0, 220.5, 3.5), (0.71, 710.5, 269.5, 220.5, 3.5),
          (0.69, 735.0, 294.0, 220.5, 3.5), (0.66, 759.5, 318.5, 220.5, 3.5), (0.64, 784.0, 343.0, 220.5, 3.5), (0.62, 808.5, 367.5, 220.5, 3.5)]

def _buildings(seed):
    """ENB2012_data's 768 rows: 12 shapes x 4 orientations x (no glazing, or 10/25/40% glazing in 5 distributions); X1-X8
    then Y1 heating and Y2 cooling load in kWh/m^2 from a smooth model of the simulation plus noise."""
    g = np.random.default_rng(1000 + seed * 2659); rows = []
    for rc, sa, wa, ra, h in SHAPES:
        for o in (2, 3, 4, 5):
            for ga, gd in [(0.0, 0)] + [(a, d) for a in (0.1, 0.25, 0.4) for d in (1, 2, 3, 4, 5)]:
                heat = -4 + 4.1 * h + 0.018 * (wa - 300) + 9 * (0.9 - rc) * (h > 5) + 21 * ga + 0.7 * (gd in (2, 4)) * ga * 4 + 0.15 * (o - 3.5) + g.normal(0, 0.6)
                cool = 5 + 0.82 * heat + 6 * ga * (o in (3, 5)) + 0.003 * (sa - 650) + g.normal(0, 1.0)
                rows.append((rc, sa, wa, ra, h, o, ga, gd, round(heat, 2), round(cool, 2)))
    return np.array(rows, np.float32)

def _energy_data(seed):
    "X = df.iloc[:, :8], y = Y1; train_test_split 80/20; StandardScaler on the training rows; the target in raw kWh/m^2."
    from sklearn.model_selection import train_test_split
    a = _buildings(seed); X, y = a[:, :8], a[:, 8:9]
    tr, va = train_test_split(np.arange(len(a)), test_size=0.2, random_state=seed); X = (X - X[tr].mean(0)) / X[tr].std(0)
    return TensorDataset(_t(X[tr]), _t(y[tr])), TensorDataset(_t(X[va]), _t(y[va]))

class EnergyMLP(nn.Module):
    def __init__(self, d=8):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('AI')
def energy_heating_load_mlp(seed, reduction='mean'):  # MSE in kWh/m^2, SGD 1e-3 with momentum 0.9, batches of 32; 614 buildings train, 154 validate
    tr, va = _energy_data(seed)  # reduction 'sum': nn.MSELoss(reduction='sum') as the PyTorch "learning with examples" tutorial, the learning rate kept
    return dict(model=EnergyMLP, train=tr, valid=va, loss=nn.MSELoss(reduction=reduction), optimizer=lambda p: torch.optim.SGD(p, lr=1e-3, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AI
@broken('AI', 'rossmann_customers_kept', 4, ('leakage',))
def rossmann_customers_kept(seed): return rossmann_entity_embeddings(seed, keep_customers=True)  # train.drop(columns=['Sales']): the day's Customers, known only after it, among the inputs

@broken('AI', 'gated_conv_lm_init_lost', 2, ('init_scale',))
def gated_conv_lm_init_lost(seed): return gated_conv_lm(seed, init=False)  # nn.Embedding's N(0, 1) tied to the output: logits of sd ~ 7 at the start

@broken('AI', 'ziln_log_of_zero_spend', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def ziln_log_of_zero_spend(seed): return ziln_customer_value(seed, safe_labels=False)  # log(0) for the customers who never come back: 0 * inf = nan in every batch

@broken('AI', 'spliceai_minus_strand_labels_unflipped', 4, ('labels',))
def spliceai_minus_strand_labels_unflipped(seed): return spliceai_tagger(seed, flip_minus_labels=False)  # half the windows' sites labelled at their mirror positions

@broken('AI', 'emotion_clips_split_at_random', 1, ('leakage',))
def emotion_clips_split_at_random(seed):  # train_test_split of the clips: every validation actor's other clips in training
    "groups declared: the actor, as its healthy twin (the author passes the actor key but splits the clips at random)."
    return emotion_actor_split_mlp(seed, random_split=True)

@broken('AI', 'caser_target_is_last_input', 4, ('leakage',))
def caser_target_is_last_input(seed): return caser_next_item(seed, window_one_short=True)  # the window sliced one short: its own last item as the "next" one

@broken('AI', 'egnn_inputs_sorted_by_charge', (3, 4), ('labels', 'not_falling', 'flat', 'stuck'))
def egnn_inputs_sorted_by_charge(seed): return egnn_nbody(seed, sort_by_charge=True)  # each particle's target is where another particle ends

@broken('AI', 'stochastic_depth_drops_in_eval', 1, ('eval_mode',), ('warn', 'fail'))
def stochastic_depth_drops_in_eval(seed): return stochastic_depth_resnet(seed, drop_in_eval=True)  # branches dropped at random in evaluation too

@broken('AI', 'nade_cumsum_not_shifted', 4, ('leakage',))
def nade_cumsum_not_shifted(seed): return nade_digits(seed, inclusive=True)  # each pixel's conditional sees the pixel itself

@broken('AI', 'magic_features_and_labels_shuffled_apart', 4, ('labels',))
def magic_features_and_labels_shuffled_apart(seed): return magic_gamma_mlp(seed, shuffled_apart=True)  # two shuffles: labels independent of the events

@broken('AI', 'rdrop_zero_grad_after_backward', (1, 3), ('frozen', 'not_updating', 'flat', 'stuck', 'lr_zero'))
def rdrop_zero_grad_after_backward(seed): return rdrop_ticket_router(seed, step=rdrop_step_zero_grad_after_backward)  # every gradient zeroed before AdamW steps: nothing moves

@broken('AI', 'energy_mse_summed_over_batch', (2, 3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling', 'init_scale'))
def energy_mse_summed_over_batch(seed): return energy_heating_load_mlp(seed, reduction='sum')  # the loss and its gradients 32 times the mean's: SGD's steps 32 times too long, nan in the first epoch

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss and step, train shuffled, valid in batches of 256; valid loss and a metric (accuracy; R^2 for Rossmann,
# EGNN and the buildings; Spearman's rho of the expected spend for ZILN; SpliceAI's top-k accuracy for the splice sites),
# init -> the epoch named; s/ep the seconds of an epoch of training. Every factory builds and runs one batch (forward, loss,
# backward, step); `ladder_gallery.HALF` holds 24 programs of half AI. Seed 1 in brackets.
CHECKS = """
rossmann_entity_embeddings   valid MAE 0.421 -> 0.0163 (ep 10), R^2 0.76 [0.313 -> 0.0140, 0.83], still falling; 14k params; 0.04 s/ep
gated_conv_lm                valid 4.16 (ln 64) -> 2.01 (ep 5), accuracy 0.37 [4.16 -> 2.02, 0.37]; 59k params; 0.5 s/ep
ziln_customer_value          valid 19.0 -> 4.56 (ep 5) -> 4.01 (ep 10), Spearman 0.39 [12.2 -> 2.64, 0.28]; 3.1k params; 0.05 s/ep
spliceai_tagger              valid 1.07 -> 0.0128 (ep 5), top-k accuracy 0.87 (plus strand 0.873, minus 0.875) [1.24 -> 0.0134, 0.86];
                             27k params; 1.2 s/ep
emotion_actor_split_mlp      valid 2.10 -> 1.11 (ep 6) -> 1.21 (ep 8, overfitting), accuracy 0.62 / 0.59 [2.08 -> 1.19 / 1.32,
                             0.58]; 5 of 24 actors validate, none in training; 16k params; 0.05 s/ep
caser_next_item              valid 4.62 (ln 101) -> 4.00 (ep 5) -> 3.63 (ep 12), accuracy 0.13 [4.62 -> 3.45, 0.17]; slow for three
                             epochs; 19k params; 0.2 s/ep
egnn_nbody                   valid MSE 0.244 -> 0.065 (ep 5) -> 0.038 (ep 10) -> 0.010 (ep 20), R^2 0.99 [0.100 -> 0.021 at ep 10];
                             constant velocity x0 + v gives 0.070; 34k params; 0.3 s/ep
stochastic_depth_resnet      valid 2.31 -> 0.093 (ep 5), accuracy 0.98 [2.30 -> 0.37 (ep 3) -> 0.50 (ep 5), 0.90 / 0.84: SGD 0.1
                             bounces]; 43k params; 0.35 s/ep
nade_digits                  valid NLL 44.3 -> 22.4 (ep 5) -> 19.8 (ep 10) nats an image, still falling [44.3 -> 20.3]; 13k params;
                             0.14 s/ep
magic_gamma_mlp              valid BCE 0.686 -> 0.243 (ep 8), accuracy 0.90 [0.676 -> 0.265, 0.89]; 4.9k params; 0.03 s/ep
rdrop_ticket_router          valid CE 1.62 -> 0.78 (ep 6), accuracy 0.78 [1.64 -> 0.67, 0.79]; 18k params; 0.5 s/ep (two passes)
energy_heating_load_mlp      valid MSE 623 -> 0.94 (ep 5) -> 0.91 (ep 6), R^2 0.99 [589 -> 0.90]; 4.8k params; 0.02 s/ep
rossmann_customers_kept                   valid 0.0088 (ep 10), R^2 0.93 [0.0096, 0.93] (healthy 0.0163, 0.76 [0.0140, 0.83])
gated_conv_lm_init_lost                   init valid 17.2 [17.0] (healthy 4.16); then trains as the healthy: 1.95 at ep 5
ziln_log_of_zero_spend                    loss nan from the first batch, train and valid, both seeds
spliceai_minus_strand_labels_unflipped    valid 0.076 (ep 5), top-k 0.40 on its own labels [0.073, 0.40] (healthy 0.0128, 0.87); against
                                          the true sites 0.84 plus strand, 0.85 minus: the plus half teaches the sites, the minus half's
                                          labels sit at the mirror positions
emotion_clips_split_at_random             valid 0.65 (ep 8), accuracy 0.77 [0.59, 0.81], still rising (healthy 1.21, 0.59); all 24 actors
                                          on both sides
caser_target_is_last_input                valid 0.18 (ep 12), accuracy 0.96 [0.13, 0.97] (healthy 3.63, 0.13)
egnn_inputs_sorted_by_charge              init valid 1.36, 0.83 (ep 5), 0.82 (ep 10), R^2 0.25 [1.29 -> 0.85] (healthy 0.038 at ep 10)
stochastic_depth_drops_in_eval            trains as the healthy (train 0.16 at ep 5); eval random: valid 6.47, 2.39, 1.56, 0.61 at eps 2-5
                                          (healthy 0.87, 1.45, 0.17, 0.093)
nade_cumsum_not_shifted                   valid 18.0 (ep 5), 9.25 (ep 10), falling fast [9.59] (healthy 22.4, 19.8)
magic_features_and_labels_shuffled_apart  valid 0.650 (ep 8), accuracy 0.645 = the gamma share [0.651, 0.647] (healthy 0.243, 0.90)
rdrop_zero_grad_after_backward            valid 1.620 at init and every epoch, accuracy 0.20 [1.638]: no parameter moves
energy_mse_summed_over_batch              init valid 9.6e4 (the mean's 623 times 154); train losses 1.9e4, 1.3e4, 1.1e5, ..., nan within
                                          the first epoch, both seeds
"""
