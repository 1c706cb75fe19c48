"""Half AM of the ladder's gallery: held out from the rules frozen at 239186a (round 52), and run once on them.
Families not in halves A-AL, taken from any domain: CBOW word vectors (Mikolov et al. 2013: the mean of the embeddings of
two words either side, a softmax over the vocabulary; Adam, batches of 64) on sentences of six topics, held-out sentences
validating; the Combined Cycle Power Plant (Tufekci 2014, UCI's Folds5x2_pp: ambient temperature, exhaust vacuum, ambient
pressure and relative humidity to the net hourly electrical output in MW; an MLP on standardised inputs, MSE in MW); UCI's
bank marketing (Moro et al. 2014: a Portuguese bank's phone campaigns for term deposits, one-hot categories and standardised
numbers, an MLP, BCE with logits; the call's duration dropped as the dataset's notes ask); epileptic seizure recognition
(UCI's version of the Bonn EEG: each 23.6 s recording cut into 23 one-second chunks of 178 samples named X<chunk>.V1.<rec>;
a 1-D CNN, BCE with logits, seizure against the four other classes; recordings split with GroupShuffleSplit; groups
declared: the recording); GTSRB-style traffic signs (Stallkamp et al. 2012: tracks of ten frames of one physical sign as
the car approaches, 16 x 16 RGB, a two-convolution CNN, eight classes; whole tracks held out); Walmart's store sales
forecasting (the Kaggle recruiting competition's weekly sales per store and department with its holiday weeks: the last
eight weeks, the same weeks a year before and a shifted 4-week rolling mean as log sales, an MLP on the next week's
standardised log sales; split in time); fetal state
from cardiotocograms (Ayres de Campos et al. 2000, UCI's CTG: 21 features of the FHR and contractions, NSP 1 normal, 2
suspect, 3 pathologic; an MLP, cross-entropy); MagNet (Mousavi and Beroza 2020, shrunk: convolutions and a BiLSTM over
three-component waveforms, the magnitude and its log variance as two outputs in a tuple, the aleatoric loss; each trace
scaled by its peak with the log peak as an extra input, a batch of three tensors and a forward of its own) estimating local
magnitudes of synthetic earthquakes in magnitude units; Barlow Twins (Zbontar et al. 2021: an MLP backbone and a
batch-normalised projector, the cross-correlation of two augmented views against the identity; no target, a forward of its
own, two fresh views at each access) on digits; center loss (Wen et al. 2016: a LeNet++-like CNN with PReLU, a 2-d feature,
softmax plus 0.01 times the distance to a learnt class centre; Adam on the network and the centres together, a custom step,
a tuple output and a forward of its own) on digits; R-GCN (Schlichtkrull et al. 2018: relation-specific propagation with basis decomposition over a
featureless knowledge graph, two layers, Adam 0.01 with weight decay; one full-graph item, a forward of its own) classifying
the research group of the people of an AIFB-like institute graph (the affiliation relation removed); and forest cover type
(Blackard and Dean 1999, UCI's Covertype: ten cartographic numbers, four wilderness areas and 40 soil types one-hot, seven
types; an MLP on standardised numbers, cross-entropy).
At most about 1800 training items a program (CBOW's windows; 1500 rows elsewhere; the R-GCN one graph of 576 nodes) and
42k trainable parameters; an epoch of a plain loop 0.02-0.5 s on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AL.

Protocol: written by a helper in a worktree at 239186a (branch halfAM), held out from the rules frozen at 239186a (round 52).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran `git status` and `git diff --stat`, and no git log. It read bench/ladder_gallery.py's
head, helpers and tail (the import lines), half AL whole, the module docstrings of most other halves (a listing cut short)
and the @broken lines of all of them (for the rung and cause conventions and the families taken, with greps of the halves
for candidate family names and for the conventions of custom steps and one-item graphs, which showed a few of their code
lines), a grep of ladder_sweep.py for 'AL' (the --half line), and the signatures and docstrings of `ntrain.ladder` and
`ntrain.Task` via help(). Each program was checked by hand only with a plain torch
loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seeds 0 and 1.
Two programs declare groups (esr_seizure_cnn and its broken twin esr_frame_shuffled_labels_not; "groups declared" in their
factories' docstrings) and are to be reported apart. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half AM`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
import ntrain
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- CBOW (Mikolov et al. 2013): the centre word from the mean of its context's embeddings
CBOW_TOPICS = {'kitchen': (['chef', 'soup', 'pan', 'knife', 'onion', 'oven', 'sauce', 'bread'], ['stirs', 'chops', 'bakes', 'tastes', 'serves'], ['hot', 'fresh', 'spicy', 'salty']),
               'football': (['player', 'ball', 'coach', 'goal', 'team', 'match', 'pitch', 'referee'], ['kicks', 'throws', 'wins', 'scores', 'passes'], ['fast', 'tired', 'strong', 'young']),
               'music': (['singer', 'guitar', 'song', 'drum', 'band', 'stage', 'piano', 'choir'], ['plays', 'sings', 'tunes', 'records', 'hears'], ['loud', 'soft', 'sweet', 'famous']),
               'farm': (['farmer', 'cow', 'tractor', 'barn', 'wheat', 'horse', 'fence', 'seed'], ['plants', 'feeds', 'harvests', 'milks', 'ploughs'], ['green', 'muddy', 'ripe', 'old']),
               'office': (['programmer', 'code', 'laptop', 'server', 'bug', 'screen', 'file', 'keyboard'], ['writes', 'fixes', 'compiles', 'deletes', 'types'], ['slow', 'new', 'broken', 'remote']),
               'harbour': (['sailor', 'boat', 'sail', 'wave', 'dock', 'anchor', 'rope', 'deck'], ['steers', 'ties', 'drops', 'raises', 'crosses'], ['wet', 'calm', 'rough', 'blue'])}
CBOW_PREP = ['near', 'behind', 'with', 'under', 'beside']

def _cbow_sentences(seed, n=260):
    """Sentences of a six-topic corpus: 'the|a [adj] noun verb the|a [adj] noun [prep the noun] .', the words of a sentence from
    one topic nine times in ten (else a word from another), in the order written."""
    g = np.random.default_rng(1000 + seed * 2833); T = list(CBOW_TOPICS); out = []
    for _ in range(n):
        t = T[g.integers(len(T))]
        def word(kind):
            src = CBOW_TOPICS[t if g.random() < 0.9 else T[g.integers(len(T))]][kind]; return src[g.integers(len(src))]
        def np_():
            return [['the', 'a'][int(g.random() < 0.3)]] + ([word(2)] if g.random() < 0.5 else []) + [word(0)]
        s = np_() + [word(1)] + np_() + ([CBOW_PREP[g.integers(5)], 'the', word(0)] if g.random() < 0.5 else []) + ['.']
        out.append(s)
    return out

def cbow_examples(sents, vocab, w=2, include_centre=False):
    """(context ids, centre id) for each position: the w words either side, 0 (<pad>) past the sentence's ends.
    include_centre: the window sliced as range(i - w, i + w + 1) without skipping i, so the centre sits in its own context."""
    X, y = [], []
    for s in sents:
        ids = [vocab[t] for t in s]
        for i in range(len(ids)):
            X.append([ids[j] if 0 <= j < len(ids) else 0 for j in range(i - w, i + w + 1) if include_centre or j != i]); y.append(ids[i])
    return torch.tensor(X), torch.tensor(y)

class CBOW(nn.Module):
    def __init__(self, V, d=32):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.out = nn.Linear(d, V)
    def forward(self, ctx):
        m = (ctx > 0).float(); return self.out((self.emb(ctx) * m[..., None]).sum(1) / m.sum(1, keepdim=True).clamp(min=1))

@healthy('AM')
def cbow_topic_corpus(seed, include_centre=False):  # cross-entropy over the vocabulary, Adam 5e-3, batches of 64; the first 210 sentences train, the last 50 validate
    "The vocabulary from every sentence (0 the padding); windows of two words either side."
    sents = _cbow_sentences(seed); vocab = {t: k + 1 for k, t in enumerate(sorted({t for s in sents for t in s}))}
    (X, y), (vX, vy) = cbow_examples(sents[:210], vocab, include_centre=include_centre), cbow_examples(sents[210:], vocab, include_centre=include_centre)
    return dict(model=lambda: CBOW(len(vocab) + 1), train=TensorDataset(X, y), valid=TensorDataset(vX, vy), num_classes=len(vocab) + 1,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- the Combined Cycle Power Plant (Tufekci 2014): net electrical output in MW from ambient conditions
CCPP_COLUMNS = ['AT', 'V', 'AP', 'RH', 'PE']

def _ccpp(seed, n=1500):
    """Rows of Folds5x2_pp: hourly means of ambient temperature AT (C), exhaust vacuum V (cm Hg), ambient pressure AP (mbar),
    relative humidity RH (%) and the plant's net output PE (MW, 420-495), the output falling with temperature and vacuum."""
    g = np.random.default_rng(1000 + seed * 2837)
    at = np.clip(g.normal(19.6, 7.4, n), 1.8, 37.1); v = np.clip(54.3 + 1.6 * (at - 19.6) + g.normal(0, 7, n), 25.4, 81.6)
    ap = np.clip(1013.3 - 0.35 * (at - 19.6) + g.normal(0, 5.2, n), 992.9, 1033.3); rh = np.clip(73.3 - 1.0 * (at - 19.6) + g.normal(0, 12.5, n), 25.6, 100.2)
    pe = 454.4 - 1.72 * (at - 19.6) - 0.25 * (v - 54.3) + 0.07 * (ap - 1013.3) - 0.15 * (rh - 73.3) + 0.012 * (at - 19.6) ** 2 + g.normal(0, 4.3, n)
    return np.round(np.column_stack([at, v, ap, rh, pe]), 2).astype(np.float32)

class PowerMLP(nn.Module):
    def __init__(self, d=4):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AM')
def ccpp_power_mlp(seed, first_column_index=False):  # MSE in MW, Adam 1e-2, batches of 32; train_test_split 80/20; StandardScaler on the inputs
    """X = data[:, :-1], y = data[:, -1:] (first_column_index: X = data[:, 1:], written for the Kaggle copy whose first column
    is the old index; this file has none, so AT is dropped and PE, the target, kept as an input)."""
    from sklearn.model_selection import train_test_split
    data = _ccpp(seed); X = data[:, 1:] if first_column_index else data[:, :-1]; y = data[:, -1:]
    tr, va = train_test_split(np.arange(len(data)), test_size=0.2, random_state=seed)
    Xtr, Xva = _std(_t(X[tr]), _t(X[tr])), _std(_t(X[va]), _t(X[tr]))
    return dict(model=lambda: PowerMLP(X.shape[1]), train=TensorDataset(Xtr, _t(y[tr])), valid=TensorDataset(Xva, _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- bank marketing (Moro, Cortez and Rita 2014): will the client subscribe a term deposit?
BANK_CATEGORIES = dict(job=['admin.', 'blue-collar', 'entrepreneur', 'housemaid', 'management', 'retired', 'self-employed', 'services', 'student', 'technician', 'unemployed', 'unknown'],
                       marital=['married', 'single', 'divorced'], education=['primary', 'secondary', 'tertiary', 'unknown'], default=['no', 'yes'], housing=['no', 'yes'],
                       loan=['no', 'yes'], contact=['cellular', 'telephone', 'unknown'], month=['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
                       poutcome=['failure', 'other', 'success', 'unknown'])
BANK_NUMERIC = ['age', 'balance', 'day', 'campaign', 'pdays', 'previous']

def _bank_full(seed, n=1500):
    """Rows as bank-full.csv (the columns above, 'duration' of the last call in seconds and y 'yes'/'no', about 12% yes):
    subscribing more likely after a successful previous campaign, in March, September, October and December, on a mobile,
    for students and the retired, less with a housing loan or many calls; the call lasting longer when the client subscribes
    (its length known only once the call has ended)."""
    g = np.random.default_rng(1000 + seed * 2843); C = BANK_CATEGORIES; rows = []
    for _ in range(n):
        r = dict(age=int(np.clip(g.normal(41, 10.5), 18, 95)), job=C['job'][g.choice(12, p=[.11, .21, .03, .03, .21, .05, .03, .09, .02, .17, .03, .02])],
                 marital=C['marital'][g.choice(3, p=[.6, .28, .12])], education=C['education'][g.choice(4, p=[.15, .51, .30, .04])],
                 default=C['default'][int(g.random() < 0.02)], balance=int(np.exp(g.normal(6.6, 1.4)) - 350), housing=C['housing'][int(g.random() < 0.56)],
                 loan=C['loan'][int(g.random() < 0.16)], contact=C['contact'][g.choice(3, p=[.65, .06, .29])], day=int(g.integers(1, 32)),
                 month=C['month'][g.choice(12, p=[.03, .06, .01, .07, .30, .12, .15, .14, .01, .02, .08, .01])], campaign=int(g.geometric(0.38)))
        r['previous'] = int(g.poisson(1.5) + 1) if g.random() < 0.18 else 0; r['pdays'] = int(g.integers(30, 400)) if r['previous'] else -1
        r['poutcome'] = C['poutcome'][g.choice(3, p=[.55, .2, .25])] if r['previous'] else 'unknown'
        z = (-2.5 + 2.3 * (r['poutcome'] == 'success') + 1.2 * (r['month'] in ('mar', 'sep', 'oct', 'dec')) - 0.7 * (r['housing'] == 'yes') - 1.0 * (r['contact'] == 'unknown')
             + 0.8 * (r['job'] in ('student', 'retired')) + 0.3 * (r['education'] == 'tertiary') - 0.18 * (r['campaign'] - 2) - 0.5 * (r['loan'] == 'yes')
             + 0.00008 * min(r['balance'], 10000) + 0.5 * (r['age'] > 60) + g.normal(0, 0.5))
        yes = g.random() < 1 / (1 + np.exp(-z)); r['duration'] = int(np.exp(g.normal(6.2, 0.45) if yes else g.normal(5.25, 0.65))); r['y'] = 'yes' if yes else 'no'
        rows.append(r)
    return rows

def bank_features(rows, ref, numeric):
    "One-hot categories (the training rows' levels, as get_dummies on the training frame), the numbers standardised by the training rows (`ref`)."
    cat = np.column_stack([np.array([r[c] for r in rows])[:, None] == np.array(sorted({r[c] for r in ref}))[None] for c in BANK_CATEGORIES])
    num, ref_num = (np.array([[r[c] for c in numeric] for r in rr], np.float32) for rr in (rows, ref))
    return np.column_stack([cat, (num - ref_num.mean(0)) / ref_num.std(0)]).astype(np.float32)

class BankMLP(nn.Module):
    def __init__(self, d):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('AM')
def bank_marketing_mlp(seed, keep_duration=False):  # BCE with logits, Adam 1e-3, batches of 64; a stratified train_test_split 80/20
    """'duration' dropped before the features are built, as bank-additional-names.txt asks of a realistic model (keep_duration:
    the column kept among the numbers, the length of the very call whose outcome is the target)."""
    from sklearn.model_selection import train_test_split
    rows = _bank_full(seed); y = np.array([[r['y'] == 'yes'] for r in rows], np.float32)
    tr, va = train_test_split(np.arange(len(rows)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    X = bank_features(rows, [rows[i] for i in tr], BANK_NUMERIC + (['duration'] if keep_duration else []))
    return dict(model=lambda: BankMLP(X.shape[1]), train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- epileptic seizure recognition (UCI's version of Andrzejak et al.'s 2001 Bonn EEG): one-second chunks, a 1-D CNN
def _esr(seed, per_class=12, chunks=23, L=178, fs=173.61):
    """Recordings of five classes as the Bonn sets (1 seizure; 2 and 3 interictal, from the tumour's area and the other
    hemisphere; 4 and 5 healthy, eyes closed and eyes open), 23.6 s each, cut into 23 chunks of 178 samples as the UCI
    file's rows: the name X<chunk>.V1.<recording>, X1-X178 in uV, y. Each recording its own gain (the electrode's impedance),
    its rhythm's frequency and its background's colour; seizures rhythmic spike-and-wave of 2.5-4.5 Hz, interictal records
    sharp waves now and then, eyes closed an alpha rhythm. Rows in the file's order: recording by recording."""
    from scipy.signal import lfilter
    g = np.random.default_rng(1000 + seed * 2851); recs = g.choice(np.arange(1, 500), 5 * per_class, replace=False); names, X, y = [], [], []
    t = np.arange(chunks * L) / fs; k = 0
    for cls in range(1, 6):
        for _ in range(per_class):
            rec = recs[k]; k += 1; gain = np.exp(g.normal(0, 0.4)); a = g.uniform(0.85, 0.97)
            bg = lfilter([1], [1, -a], g.normal(0, 1, t.size)) * np.sqrt(1 - a * a) * g.uniform(25, 50)
            if cls == 1:
                f = g.uniform(2.5, 4.5) * (1 + 0.05 * np.sin(2 * np.pi * t / g.uniform(5, 15))); ph = 2 * np.pi * np.cumsum(f) / fs
                x = g.uniform(120, 350) * (np.maximum(np.cos(ph), 0) ** 6 - 0.35 * np.sin(ph + 0.6)) * (0.6 + 0.4 * np.abs(np.sin(2 * np.pi * t / g.uniform(8, 20)))) + bg
            elif cls in (2, 3):
                x = bg * 1.3; rate = 0.5 if cls == 2 else 0.2
                for s in np.flatnonzero(g.random(t.size) < rate / fs): x[s:s + 12] += g.uniform(60, 160) * np.hanning(24)[:len(x[s:s + 12])] * np.sign(g.normal())
            elif cls == 4: x = g.uniform(20, 50) * np.sin(2 * np.pi * g.uniform(8.5, 11.5) * t + g.uniform(0, 6)) * (0.7 + 0.3 * np.sin(2 * np.pi * t / 3)) + bg
            else: x = 0.8 * bg + g.uniform(5, 12) * np.sin(2 * np.pi * g.uniform(15, 25) * t)
            x = gain * x
            for c in range(chunks): names.append(f'X{c + 1}.V1.{rec}'); X.append(x[c * L:(c + 1) * L]); y.append(cls)
    return np.array(names), np.array(X, np.float32), np.array(y)

class SeizureCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv1d(1, 8, 9, stride=2), nn.ReLU(), nn.MaxPool1d(2), nn.Conv1d(8, 16, 7), nn.ReLU(), nn.MaxPool1d(2),
                                      nn.Conv1d(16, 16, 5), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten())
        self.fc = nn.Sequential(nn.Dropout(0.3), nn.Linear(16, 1))
    def forward(self, x): return self.fc(self.features(x))

@healthy('AM')
def esr_seizure_cnn(seed, shuffle_frame_only=False):  # BCE with logits (y == 1 against the rest), Adam 1e-3, batches of 32; GroupShuffleSplit, a fifth of the recordings validate
    """groups declared: the recording (the name's V1.<rec>). The chunks scaled by the training chunks' sd; split by recording
    with GroupShuffleSplit. shuffle_frame_only: the author's "df = df.sample(frac=1, random_state=42)" assigned to the
    signal's frame only (X = shuffled.iloc[:, 1:179]) while y and the names are read from the unshuffled frame, so every chunk
    carries another row's label and recording."""
    from sklearn.model_selection import GroupShuffleSplit
    names, X, y = _esr(seed)
    if shuffle_frame_only: X = X[np.random.default_rng(42).permutation(len(X))]
    rec = np.array([n.split('.', 1)[1] for n in names]); y = (y == 1).astype(np.float32)[:, None]
    tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=rec))
    s = X[tr].std(); keys = {'train': list(rec[tr]), 'valid': list(rec[va])}
    task = ntrain.Task(model=SeizureCNN, train=TensorDataset(_t(X[tr] / s)[:, None], _t(y[tr])), valid=TensorDataset(_t(X[va] / s)[:, None], _t(y[va])),
                       loss=nn.BCEWithLogitsLoss(), groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- GTSRB-style traffic signs (Stallkamp et al. 2012): tracks of one physical sign, a small CNN
SIGN_COLOURS = dict(red=(0.80, 0.10, 0.12), white=(0.95, 0.95, 0.95), blue=(0.10, 0.25, 0.75), yellow=(0.95, 0.80, 0.10), black=(0.05, 0.05, 0.05))
SIGN_CLASSES = ['speed_30', 'speed_50', 'no_entry', 'stop', 'yield', 'pedestrians', 'priority_road', 'keep_right']

def _render_sign(cls, size, cx, cy, bg, S=16, up=2):
    "One sign of class `cls`, `size` pixels across, centred at (cx, cy) over the background `bg` (3, S, S), drawn at twice the size and averaged down."
    n = S * up; yy, xx = (np.mgrid[0:n, 0:n] + 0.5) / up; u, v = (xx - cx) / (size / 2), (yy - cy) / (size / 2); C = {k: np.array(c)[:, None, None] for k, c in SIGN_COLOURS.items()}
    shape = dict(circle=lambda s: u ** 2 + v ** 2 <= s ** 2, octagon=lambda s: np.maximum(np.maximum(abs(u), abs(v)), (abs(u) + abs(v)) / 1.35) <= s,
                 up=lambda s: (v <= 0.8 * s) & (v >= -s + 2 * abs(u) * 0.87), down=lambda s: (v >= -0.8 * s) & (v <= s - 2 * abs(u) * 0.87), diamond=lambda s: abs(u) + abs(v) <= s)
    img = np.repeat(np.repeat(bg, up, 1), up, 2).copy()
    def paint(mask, col): img[:, mask] = np.broadcast_to(C[col], (3, n, n))[:, mask]
    name = SIGN_CLASSES[cls]
    if name in ('speed_30', 'speed_50'):
        paint(shape['circle'](1), 'red'); paint(shape['circle'](0.72), 'white')
        bars = (abs(u - 0.25) < 0.1) & (abs(v) < 0.4)
        bars |= ((abs(u + 0.25) < 0.1) & (abs(v) < 0.4)) if name == 'speed_30' else (((abs(v + 0.32) < 0.09) | (abs(v) < 0.08)) & (u > -0.45) & (u < -0.05)) | ((abs(u + 0.38) < 0.08) & (v < 0) & (v > -0.4))
        paint(bars & shape['circle'](0.72), 'black')
    elif name == 'no_entry': paint(shape['circle'](1), 'red'); paint((abs(v) < 0.18) & (abs(u) < 0.65), 'white')
    elif name == 'stop': paint(shape['octagon'](1), 'white'); paint(shape['octagon'](0.88), 'red'); paint((abs(v) < 0.12) & (abs(u) < 0.6), 'white')
    elif name == 'yield': paint(shape['down'](1), 'red'); paint(shape['down'](0.55), 'white')
    elif name == 'pedestrians': paint(shape['up'](1), 'red'); paint(shape['up'](0.55), 'white'); paint((abs(u) < 0.09) & (v > -0.2) & (v < 0.45), 'black')
    elif name == 'priority_road': paint(shape['diamond'](1), 'white'); paint(shape['diamond'](0.7), 'yellow')
    else: paint(shape['circle'](1), 'blue'); paint((abs(u - v) < 0.2) & (abs(u) < 0.5) & (abs(v) < 0.5), 'white')
    return img.reshape(3, S, up, S, up).mean((2, 4))

def _gtsrb(seed, tracks_per_class=19, frames=10, S=16):
    """Tracks as GTSRB's Final_Training folders (<class>/<track>_<frame>.ppm): ten frames of one physical sign as the car
    approaches, the sign growing from about 7 to 13 pixels and drifting in the frame; each track its own background (sky,
    foliage, walls), lighting and colour cast, each frame its own noise. Returns images (n, 3, 16, 16) in [0, 1], classes,
    and track ids."""
    g = np.random.default_rng(1000 + seed * 2857); X, y, track = [], [], []
    bases = np.array([[0.55, 0.7, 0.9], [0.25, 0.45, 0.2], [0.55, 0.5, 0.45], [0.35, 0.35, 0.38], [0.75, 0.7, 0.6]])
    for c in range(len(SIGN_CLASSES)):
        for k in range(tracks_per_class):
            tid = c * 100 + k; base = bases[g.integers(len(bases))] + g.normal(0, 0.08, 3); grad = g.normal(0, 0.15, 3)
            bg = np.clip(base[:, None, None] + grad[:, None, None] * np.linspace(-1, 1, S)[None, :, None] + g.normal(0, 0.05, (3, S, S)), 0, 1)
            gain, cast = g.uniform(0.35, 1.2), 1 + g.normal(0, 0.1, 3)[:, None, None]; cx0, cy0, dx, dy = g.uniform(6.5, 9.5), g.uniform(6.5, 9.5), g.normal(0, 0.12), g.normal(0, 0.12)
            for f in range(frames):
                img = _render_sign(c, 7 + 6 * f / (frames - 1) + g.normal(0, 0.3), cx0 + dx * f, cy0 + dy * f, bg)
                X.append(np.clip(img * gain * cast + g.normal(0, 0.04, img.shape), 0, 1)); y.append(c); track.append(tid)
    return np.array(X, np.float32), np.array(y), np.array(track)

class SignCNN(nn.Module):
    def __init__(self, n=len(SIGN_CLASSES)):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(32 * 4 * 4, 48), nn.ReLU(), nn.Dropout(0.3), nn.Linear(48, n))
    def forward(self, x): return self.fc(self.conv(x))

@healthy('AM')
def gtsrb_track_split_cnn(seed, image_split=False):  # cross-entropy, Adam 1e-3, batches of 64; four of each class's 19 tracks validate
    """Normalised by the training images' per-channel mean and sd (torchvision's Normalize). image_split: the images pooled
    and split with a stratified train_test_split, so nine of a validation frame's ten track-mates (the same sign, light and
    background a few metres apart) sit in training."""
    from sklearn.model_selection import train_test_split
    X, y, track = _gtsrb(seed)
    if image_split: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    else:
        held = np.concatenate([np.random.default_rng(seed).permutation(np.unique(track[y == c]))[:4] for c in range(len(SIGN_CLASSES))])
        va = np.flatnonzero(np.isin(track, held)); tr = np.flatnonzero(~np.isin(track, held))
    m, s = X[tr].mean((0, 2, 3), keepdims=True), X[tr].std((0, 2, 3), keepdims=True)
    return dict(model=SignCNN, train=TensorDataset(_t((X[tr] - m) / s), _t(y[tr], torch.long)), valid=TensorDataset(_t((X[va] - m) / s), _t(y[va], torch.long)),
                num_classes=len(SIGN_CLASSES), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Walmart recruiting: store sales forecasting (weekly sales per store and department), an MLP on lags
def _walmart(seed, stores=4, depts=4, weeks=143):
    """Weekly_Sales of four stores' four departments from 2010-02-05 (143 weeks, as train.csv), with IsHoliday on the Super
    Bowl, Labor Day, Thanksgiving and Christmas weeks: each series a level, a yearly shape of its department, a slow trend,
    the department's holiday lift (toys at Christmas, grocery at Thanksgiving), persistent noise and a week's own noise (about 15%). Returns sales (16, 143)
    in dollars and the holiday flags (143,)."""
    g = np.random.default_rng(1000 + seed * 2861); w = np.arange(weeks)
    hol = np.zeros(weeks, bool); hol[[0, 52, 104, 30, 82, 134, 42, 94, 46, 98]] = True
    post = np.zeros((4, weeks)); post[0, [42, 94]] = 0.3; post[1, [45, 46, 97, 98]] = [0.6, 1.1, 0.6, 1.1]; post[2, [46, 98]] = 0.25; post[3, [0, 52, 104]] = 0.35
    shape = [g.normal(0, 0.12, 4) for _ in range(depts)]; out = []
    for s in range(stores):
        lvl = g.normal(9.6, 0.5)
        for d in range(depts):
            a, b, c, e = shape[d] + g.normal(0, 0.03, 4); e_ = np.zeros(weeks)
            for t in range(1, weeks): e_[t] = 0.7 * e_[t - 1] + g.normal(0, 0.05)
            log = lvl + g.normal(0, 0.3) + a * np.sin(2 * np.pi * w / 52) + b * np.cos(2 * np.pi * w / 52) + c * np.sin(4 * np.pi * w / 52) + g.normal(0, 0.001) * w + post[d] + e_ + g.normal(0, 0.15, weeks)
            out.append(np.round(np.exp(log), 2))
    return np.array(out), hol

def sales_windows(sales, hol, lags=8, roll_shift=1):
    """Per series and target week t from 53 on, the Weekly_Sales column replaced by its log1p first: the log sales at
    t-1..t-8 and t-51..t-53, their 4-week rolling mean shifted by one week (groupby(['Store', 'Dept'])['Weekly_Sales']
    .shift(1).rolling(4).mean()), the holiday flag of t; the target the log sales at t. roll_shift 0: the rolling mean
    taken without the shift, over t-3..t."""
    X, y, week = [], [], []
    for s in sales:
        ls = np.log1p(s)
        for t in range(53, len(s)):
            roll = ls[t - 3 - roll_shift:t + 1 - roll_shift].mean()
            X.append(np.concatenate([ls[t - lags:t][::-1], ls[[t - 51, t - 52, t - 53]], [roll, float(hol[t])]])); y.append([ls[t]]); week.append(t)
    return np.array(X, np.float32), np.array(y, np.float32), np.array(week)

class SalesMLP(nn.Module):
    def __init__(self, d=13):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AM')
def walmart_sales_lag_mlp(seed, roll_unshifted=False):  # MSE on the standardised log1p sales, Adam 1e-3, batches of 32; target weeks 120 on (the last 23) validate
    """The windows cut from each series, the features and the target standardised by the training windows (a StandardScaler
    each, the predictions read back through the target's inverse_transform and expm1). roll_unshifted: the rolling mean
    written as groupby(...)['Weekly_Sales'].transform(lambda s: s.rolling(4).mean()), without the shift, so the feature
    averages the target week with the three before it (already inputs as lags)."""
    sales, hol = _walmart(seed); X, y, week = sales_windows(sales, hol, roll_shift=0 if roll_unshifted else 1)
    tr, va = np.flatnonzero(week < 120), np.flatnonzero(week >= 120)
    Xtr, Xva = _std(_t(X[tr]), _t(X[tr])), _std(_t(X[va]), _t(X[tr])); ytr, yva = _std(_t(y[tr]), _t(y[tr])), _std(_t(y[va]), _t(y[tr]))
    return dict(model=SalesMLP, train=TensorDataset(Xtr, ytr), valid=TensorDataset(Xva, yva), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- fetal state from cardiotocograms (Ayres de Campos et al. 2000, UCI's CTG)
CTG_COLUMNS = ['LB', 'AC', 'FM', 'UC', 'DL', 'DS', 'DP', 'ASTV', 'MSTV', 'ALTV', 'MLTV', 'Width', 'Min', 'Max', 'Nmax', 'Nzeros', 'Mode', 'Mean', 'Median', 'Variance', 'Tendency']

def _ctg(seed, n=1500):
    """Rows of CTG.xls's data sheet: the FHR baseline, accelerations, movements, contractions and decelerations per second,
    short- and long-term variability, the histogram's width, extremes, peaks, zeros, mode, mean, median, variance and
    tendency; NSP 1 normal (about 78%), 2 suspect, 3 pathologic, from a latent distress that raises the baseline and the
    abnormal variability and removes accelerations."""
    g = np.random.default_rng(1000 + seed * 2869); state = g.choice(3, n, p=[0.78, 0.14, 0.08]); s = state + g.normal(0, 0.45, n)
    lb = g.normal(132 + 3.5 * s, 9); ac = np.maximum(0, g.normal(0.0035 - 0.0017 * s, 0.0022)); fm = np.abs(g.standard_t(2, n)) * 0.004; uc = np.maximum(0, g.normal(0.0045, 0.003, n))
    dl = np.maximum(0, g.normal(0.0012 * s, 0.0018)); ds = (g.random(n) < 0.01) * 0.001; dp = np.maximum(0, g.normal(0.0006 * (s - 1), 0.0006))
    astv = np.clip(g.normal(43 + 13 * s, 11), 12, 87); mstv = np.clip(g.normal(1.5 - 0.35 * s, 0.7), 0.2, 7); altv = np.clip(g.normal(6 + 14 * s, 11), 0, 91)
    mltv = np.clip(g.normal(8.5 - 2.2 * s, 4.5), 0, 50); width = np.clip(g.normal(70 - 5 * s, 36), 3, 180); mn = lb - np.clip(g.normal(40, 17, n), 5, 100)
    nmax, nzeros = g.poisson(4, n), g.poisson(0.3, n); mode = lb + g.normal(4, 5, n) - 900 * dl; mean = mode - g.normal(3, 4, n); median = (mode + mean) / 2
    var = np.abs(g.normal(15 + 12 * s, 22)); tend = g.choice([-1, 0, 1], n, p=[0.1, 0.5, 0.4])
    X = np.column_stack([lb, ac, fm, uc, dl, ds, dp, astv, mstv, altv, mltv, width, mn, mn + width, nmax, nzeros, mode, mean, median, var, tend]).astype(np.float32)
    return X, state + 1

class CTGNet(nn.Module):
    def __init__(self, d=21, n=3):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, n))
    def forward(self, x): return self.net(x)

@healthy('AM')
def ctg_fetal_state_mlp(seed, nsp_as_is=False):  # cross-entropy over three states, Adam 1e-3, batches of 32; a stratified train_test_split 80/20
    """The features standardised by the training rows; the target NSP - 1 (nsp_as_is: the NSP column's codes 1, 2, 3 handed
    to CrossEntropyLoss over three outputs)."""
    from sklearn.model_selection import train_test_split
    X, nsp = _ctg(seed); y = nsp if nsp_as_is else nsp - 1
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=nsp)
    return dict(model=CTGNet, train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr], torch.long)), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va], torch.long)),
                loss=nn.CrossEntropyLoss(), num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- MagNet (Mousavi and Beroza 2020): earthquake magnitude from three-component waveforms, with its aleatoric uncertainty
def _stead_like(seed, n=1200, T=256, fs=20.0):
    """Three-component velocity traces (E, N, Z) of local earthquakes at 20 Hz, 12.8 s from shortly before the P arrival:
    magnitudes from a Gutenberg-Richter law (b = 1) between 1 and 4.5, epicentral distances 10-60 km; the S wave 2.5 samples
    a kilometre after the P wave, amplitudes falling with distance as a local magnitude scale, lower corner frequencies and
    longer codas for larger events, a station term, microseism and instrument noise. Returns traces (n, 3, T) and
    magnitudes (n,)."""
    from scipy.signal import lfilter
    g = np.random.default_rng(1000 + seed * 2879); t = np.arange(T) / fs; X, M = [], []
    for _ in range(n):
        m = min(1 + g.exponential(1 / np.log(10)), 4.5); dist = g.uniform(10, 60); tp = g.uniform(1.5, 2.5); ts = tp + dist / 8
        logA = m - 1.1 * np.log10(dist) + 1.0 + g.normal(0, 0.2); fc = 10 ** (1.2 - 0.35 * m); a = np.exp(-2 * np.pi * fc / fs); coda = 0.8 + 0.6 * m
        tr = []
        for comp, (wp, ws) in enumerate([(0.3, 1.0), (0.3, 1.0), (1.0, 0.5)]):
            src = lfilter([1 - a], [1, -a], g.normal(0, 1, T)); src /= src.std() + 1e-9
            env = wp * 0.4 * (t >= tp) * np.exp(-np.maximum(t - tp, 0) / (0.5 * coda)) + ws * (t >= ts) * np.exp(-np.maximum(t - ts, 0) / coda)
            tr.append(10 ** logA * env * src + 0.3 * np.sin(2 * np.pi * 0.2 * t + g.uniform(0, 6)) * g.uniform(0.5, 2) + g.normal(0, 0.2, T))
        X.append(tr); M.append(m)
    return np.array(X, np.float32), np.array(M, np.float32)

class MagNet(nn.Module):
    """Two convolution and max-pooling blocks with dropout, a bidirectional LSTM, its last states and the trace's log peak
    amplitude into a dense layer giving the magnitude and its log variance (the paper's aleatoric head)."""
    def __init__(self, h=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(3, 16, 7, padding=3), nn.ReLU(), nn.Dropout(0.2), nn.MaxPool1d(4), nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.Dropout(0.2), nn.MaxPool1d(4))
        self.lstm = nn.LSTM(32, h, batch_first=True, bidirectional=True); self.head = nn.Linear(2 * h + 1, 2)
    def forward(self, x, log_peak):
        _, (hN, _) = self.lstm(self.conv(x).transpose(1, 2)); out = self.head(torch.cat([hN[0], hN[1], log_peak], 1))
        return out[:, :1], out[:, 1:]

def aleatoric_loss(out, y):  # Kendall and Gal's: the squared error weighted by exp(-s), plus s / 2, s the predicted log variance
    mu, s = out; return (0.5 * torch.exp(-s) * (y - mu) ** 2 + 0.5 * s).mean()

def _magnet_fwd(model, b): x, lp, m = b; return model(x, lp), m

@healthy('AM')
def magnet_magnitude(seed, flat_target=False):  # the aleatoric loss in magnitude units, Adam 1e-3, batches of 32; train_test_split 80/20 (960 events train, 240 validate)
    """Each trace divided by its three components' peak, the log10 of the peak an input of its own. The magnitudes a column
    (n, 1) (flat_target: torch.tensor(mags) as read, shape (n,), so y - mu broadcasts to a batch-by-batch matrix)."""
    from sklearn.model_selection import train_test_split
    X, M = _stead_like(seed); peak = np.abs(X).max((1, 2)); Xn = X / peak[:, None, None]; lp = np.log10(peak)[:, None]
    tr, va = train_test_split(np.arange(len(M)), test_size=0.2, random_state=seed)
    y = (lambda i: _t(M[i])) if flat_target else (lambda i: _t(M[i][:, None]))
    return dict(model=MagNet, train=TensorDataset(_t(Xn[tr]), _t(lp[tr]), y(tr)), valid=TensorDataset(_t(Xn[va]), _t(lp[va]), y(va)), forward=_magnet_fwd,
                loss=aleatoric_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Barlow Twins (Zbontar, Jing, Misra, LeCun and Deny 2021) on digits
class TwoViews(Dataset):
    "Two augmentations of each digit, drawn afresh at each access: a shift of up to one pixel, a contrast jitter, a 3 x 3 erasure half the time, pixel noise."
    def __init__(self, x): self.x = x
    def __len__(self): return len(self.x)
    def aug(self, x):
        dx, dy = torch.randint(-1, 2, (2,)).tolist(); x = torch.roll(F.pad(x, (1, 1, 1, 1)), (dy, dx), (1, 2))[:, 1:9, 1:9] * (0.8 + 0.4 * torch.rand(1))
        if torch.rand(1) < 0.5:
            i, j = torch.randint(0, 6, (2,)).tolist(); x = x.clone(); x[:, i:i + 3, j:j + 3] = 0
        return (x + 0.1 * torch.randn_like(x)).clamp(0, 1)
    def __getitem__(self, i): return self.aug(self.x[i]), self.aug(self.x[i])

class BarlowTwins(nn.Module):
    """An MLP backbone to a 64-d representation, a projector with batch norm to 128 dimensions; both views through both.
    backbone_no_grad: the backbone's two calls inside the `with torch.no_grad():` block copied from the kNN monitor."""
    def __init__(self, rep=64, proj=128, backbone_no_grad=False):
        super().__init__(); self.backbone_no_grad = backbone_no_grad
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, rep), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(rep, proj), nn.BatchNorm1d(proj), nn.ReLU(), nn.Linear(proj, proj))
    def forward(self, v1, v2):
        if self.backbone_no_grad:
            with torch.no_grad(): h1, h2 = self.backbone(v1), self.backbone(v2)
        else: h1, h2 = self.backbone(v1), self.backbone(v2)
        return self.projector(h1), self.projector(h2)

def barlow_loss(z, _, lambd=5e-3):  # the paper's pseudo-code: standardise along the batch, the cross-correlation, on-diagonal to 1, off-diagonal to 0
    z1, z2 = z; N = z1.size(0); z1, z2 = (z1 - z1.mean(0)) / z1.std(0), (z2 - z2.mean(0)) / z2.std(0); c = z1.T @ z2 / N
    on = (torch.diagonal(c) - 1).pow(2).sum(); off = (c - torch.diag(torch.diagonal(c))).pow(2).sum(); return on + lambd * off

def _barlow_fwd(model, b): v1, v2 = b; return model(v1, v2), None  # no target

@healthy('AM')
def barlow_twins_digits(seed, backbone_no_grad=False):  # Adam 1e-3, batches of 128; digits' 1437 training and 360 validation images, labels unused
    (x, _), (vx, _) = _digits(seed)
    return dict(model=lambda: BarlowTwins(backbone_no_grad=backbone_no_grad), train=TwoViews(x), valid=TwoViews(vx), forward=_barlow_fwd, loss=barlow_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-6), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- center loss (Wen, Zhang, Li and Qiao 2016): softmax plus the distance to learnt class centres, on digits
class LeNetPP(nn.Module):
    """LeNet++ shrunk to 8 x 8 digits: PReLU convolutions, a 2-d feature (the paper's figure), a linear classifier; the class
    centres a parameter of the model, trained by the same optimiser (as the ports that hand Adam both parameter lists)."""
    def __init__(self, n=10, d=2):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.PReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.PReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.PReLU(), nn.MaxPool2d(2), nn.Flatten())
        self.ip1, self.prelu = nn.Linear(128, d), nn.PReLU(); self.ip2 = nn.Linear(d, n); self.centers = nn.Parameter(torch.randn(n, d))
    def forward(self, x): f = self.prelu(self.ip1(self.conv(x))); return self.ip2(f), f

CENTER_WEIGHT = 0.01

def center_softmax_loss(out, y):  # softmax loss plus lambda / 2 * ||f - c_y||^2, averaged over the batch
    logits, f, centers = out; return F.cross_entropy(logits, y) + CENTER_WEIGHT * 0.5 * (f - centers[y]).pow(2).sum(1).mean()

def _center_fwd(model, b): x, y = b; logits, f = model(x); return (logits, f, model.centers), y

def _center_step(zero_grad=True):
    def center_step(model, batch, opt):
        out, y = _center_fwd(model, batch); loss = center_softmax_loss(out, y)
        if zero_grad: opt.zero_grad()  # zero_grad=False: the line dropped when the ports' two optimisers were merged into one
        loss.backward(); opt.step(); return loss
    return center_step

@healthy('AM')
def center_loss_lenetpp(seed, zero_grad=True):  # Adam 1e-3 on the network and the centres, batches of 64; digits' 1437 training and 360 validation images
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=LeNetPP, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), forward=_center_fwd, loss=center_softmax_loss, step=_center_step(zero_grad),
                num_classes=10, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- R-GCN (Schlichtkrull et al. 2018): entity classification on an AIFB-like knowledge graph
def _institute_graph(seed, groups=4, people=240, pubs=300, projects=24, topics=12):
    """An institute's knowledge graph as AIFB's: people, publications, projects and research topics; relations author
    (publication -> person), member (person -> project), works_on (project -> topic) and has_topic (publication -> topic),
    each with its inverse. People write mostly with their group, publications and projects mostly on their group's topics.
    The affiliation relation (person -> group) is removed, as the benchmark does, the group being the label. Returns the
    relation matrices (8, N, N), each row normalised by its node's in-degree under the relation, and the people's groups."""
    g = np.random.default_rng(1000 + seed * 2887); N = people + pubs + projects + topics; P0, J0, T0 = people, people + pubs, people + pubs + projects
    grp = np.repeat(np.arange(groups), people // groups); rel = {r: [] for r in ('author', 'member', 'works_on', 'has_topic')}
    topic_grp, proj_grp = np.repeat(np.arange(groups), topics // groups), np.repeat(np.arange(groups), projects // groups)
    def other(own, k): return own if g.random() < 0.8 else g.integers(k)
    for p in range(pubs):
        gr = g.integers(groups); members = np.flatnonzero(grp == other(gr, groups))
        for a in g.choice(members, 1 + g.integers(3), replace=False): rel['author'].append((P0 + p, a))
        if g.random() < 0.3: rel['author'].append((P0 + p, g.integers(people)))
        for _ in range(1 + g.integers(2)): rel['has_topic'].append((P0 + p, T0 + g.choice(np.flatnonzero(topic_grp == other(gr, groups)))))
    for a in range(people):
        for _ in range(int(g.random() < 0.7) + int(g.random() < 0.3)): rel['member'].append((a, J0 + g.choice(np.flatnonzero(proj_grp == other(grp[a], groups)))))
    for j in range(projects):
        for _ in range(2): rel['works_on'].append((J0 + j, T0 + g.choice(np.flatnonzero(topic_grp == other(proj_grp[j], groups)))))
    A = np.zeros((8, N, N), np.float32)
    for k, r in enumerate(rel):
        for s, o in rel[r]: A[2 * k, o, s] = 1; A[2 * k + 1, s, o] = 1  # messages flow s -> o under r, o -> s under its inverse
    A /= np.maximum(A.sum(2, keepdims=True), 1)
    return torch.tensor(A), grp

class RGCN(nn.Module):
    """Two R-GCN layers with basis decomposition (two bases), self-connections, ReLU between; featureless nodes (one-hot
    identities: the first layer's weights are the nodes' inputs). softmax: the Keras original's softmax output kept."""
    def __init__(self, N=576, R=8, h=16, n=4, bases=2, softmax=False):
        super().__init__(); self.softmax = softmax
        self.V1, self.a1, self.W1 = nn.Parameter(torch.randn(bases, N, h) * (2 / (N + h)) ** 0.5), nn.Parameter(torch.randn(R, bases) / bases ** 0.5), nn.Parameter(torch.randn(N, h) * (2 / (N + h)) ** 0.5)
        self.V2, self.a2, self.W2 = nn.Parameter(torch.randn(bases, h, n) * (2 / (h + n)) ** 0.5), nn.Parameter(torch.randn(R, bases) / bases ** 0.5), nn.Parameter(torch.randn(h, n) * (2 / (h + n)) ** 0.5)
        self.drop = nn.Dropout(0.2)
    def forward(self, A):
        W1 = torch.einsum('rb,bnh->rnh', self.a1, self.V1); H = F.relu(torch.bmm(A, W1).sum(0) + self.W1)
        W2 = torch.einsum('rb,bhc->rhc', self.a2, self.V2); H = self.drop(H); out = torch.bmm(A, (H @ W2)).sum(0) + H @ self.W2
        return F.softmax(out, 1) if self.softmax else out

def _rgcn_fwd(model, b): A, idx, y = b; return model(A)[idx], y

@healthy('AM')
def rgcn_institute_groups(seed, softmax=False):  # cross-entropy, Adam 0.01 with weight decay 5e-4, one full-graph step an epoch; 160 people train, 80 validate
    A, grp = _institute_graph(seed); perm = np.random.default_rng(seed).permutation(len(grp)); tr, va = torch.tensor(np.sort(perm[:160])), torch.tensor(np.sort(perm[160:]))
    y = torch.tensor(grp)
    return dict(model=lambda: RGCN(N=A.shape[1], softmax=softmax), train=DataLoader(OneItem(A, tr, y[tr]), collate_fn=_one), valid=DataLoader(OneItem(A, va, y[va]), collate_fn=_one),
                forward=_rgcn_fwd, loss=nn.CrossEntropyLoss(), num_classes=4, optimizer=lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- forest cover type (Blackard and Dean 1999, UCI's Covertype)
COVER_NUMERIC = ['Elevation', 'Aspect', 'Slope', 'Horizontal_Distance_To_Hydrology', 'Vertical_Distance_To_Hydrology', 'Horizontal_Distance_To_Roadways',
                 'Hillshade_9am', 'Hillshade_Noon', 'Hillshade_3pm', 'Horizontal_Distance_To_Fire_Points']

def _covertype(seed, n=1500):
    """Rows of covtype.data: ten numbers in metres and degrees and hillshade indices (0-255), four wilderness areas and 40
    soil types one-hot, Cover_Type 1-7 (spruce/fir, lodgepole pine, ponderosa pine, cottonwood/willow, aspen, Douglas-fir,
    krummholz), each type its elevation band, its distances to water and roads, its areas and soils."""
    g = np.random.default_rng(1000 + seed * 2897); ct = g.choice(7, n, p=[0.3, 0.35, 0.1, 0.04, 0.06, 0.08, 0.07])
    elev = g.normal(np.array([3130, 2920, 2390, 2220, 2790, 2420, 3360])[ct], 140); aspect = g.uniform(0, 360, n); slope = np.clip(g.normal(np.array([13, 13, 20, 18, 16, 20, 14])[ct], 7), 0, 66)
    hh = g.exponential(np.array([280, 270, 210, 90, 210, 200, 350])[ct]); vh = 0.2 * hh + g.normal(0, 40, n); road = g.exponential(np.array([2600, 2400, 950, 900, 1300, 1000, 2200])[ct])
    rad = np.deg2rad(aspect - 135); h9 = np.clip(212 + 40 * np.cos(rad) * slope / 20 + g.normal(0, 10, n), 0, 255); hn = np.clip(223 - 1.2 * slope + g.normal(0, 8, n), 0, 255)
    h3 = np.clip(142 - 45 * np.cos(rad) * slope / 20 + g.normal(0, 20, n), 0, 255); fire = g.exponential(np.array([2100, 2000, 900, 850, 1600, 1050, 2000])[ct])
    wild_p = np.array([[.45, .05, .45, .05], [.5, .03, .42, .05], [0, 0, .45, .55], [0, 0, .1, .9], [.2, 0, .8, 0], [0, 0, .55, .45], [.1, .2, .7, 0]])
    wild = np.array([g.choice(4, p=wild_p[c]) for c in ct]); soil_pref = g.dirichlet(np.ones(40) * 0.15, 7); soil = np.array([g.choice(40, p=soil_pref[c]) for c in ct])
    X = np.column_stack([elev, aspect, slope, hh, vh, road, h9, hn, h3, fire, np.eye(4)[wild], np.eye(40)[soil]]).round().astype(np.float32)
    return X, ct + 1

class CoverMLP(nn.Module):
    def __init__(self, d=54, n=7):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, n))
    def forward(self, x): return self.net(x)

@healthy('AM')
def covertype_mlp(seed, scale=True):  # cross-entropy, Adam 1e-3, batches of 64; a stratified train_test_split 80/20; the target Cover_Type - 1
    """The ten numbers standardised by the training rows (StandardScaler), the binary columns as they are (scale False: the
    scaler's lines commented out while trying things, elevations of 2000-3800 and distances in thousands of metres fed raw)."""
    from sklearn.model_selection import train_test_split
    X, ct = _covertype(seed); y = ct - 1; tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    X = X.copy()
    if scale: m, s = X[tr, :10].mean(0), X[tr, :10].std(0); X[:, :10] = (X[:, :10] - m) / s
    return dict(model=CoverMLP, train=TensorDataset(_t(X[tr]), _t(y[tr], torch.long)), valid=TensorDataset(_t(X[va]), _t(y[va], torch.long)),
                num_classes=7, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AM
@broken('AM', 'cbow_window_keeps_centre', 4, ('leakage',))
def cbow_window_keeps_centre(seed): return cbow_topic_corpus(seed, include_centre=True)  # range(i - w, i + w + 1) without skipping i: the centre word is in its own context

@broken('AM', 'ccpp_first_column_taken_for_index', 4, ('leakage',))
def ccpp_first_column_taken_for_index(seed): return ccpp_power_mlp(seed, first_column_index=True)  # data[:, 1:]: AT dropped, PE (the target) an input

@broken('AM', 'bank_duration_kept', 4, ('leakage',))
def bank_duration_kept(seed): return bank_marketing_mlp(seed, keep_duration=True)  # the call's duration, known only once the outcome is, among the inputs

@broken('AM', 'esr_frame_shuffled_labels_not', 4, ('labels',))
def esr_frame_shuffled_labels_not(seed):  # df.sample(frac=1) assigned to the signals only: every chunk with another row's label
    "groups declared: the recording, as its healthy twin (the names read from the unshuffled frame, as the labels)."
    return esr_seizure_cnn(seed, shuffle_frame_only=True)

@broken('AM', 'gtsrb_frames_split_at_random', 4, ('leakage',))
def gtsrb_frames_split_at_random(seed): return gtsrb_track_split_cnn(seed, image_split=True)  # the tracks' frames dealt to both sides

@broken('AM', 'walmart_rolling_mean_unshifted', 4, ('leakage',))
def walmart_rolling_mean_unshifted(seed): return walmart_sales_lag_mlp(seed, roll_unshifted=True)  # rolling(4) without shift(1): the target week's sales inside a feature

@broken('AM', 'ctg_nsp_codes_as_classes', 1, ('bad_labels',))
def ctg_nsp_codes_as_classes(seed): return ctg_fetal_state_mlp(seed, nsp_as_is=True)  # NSP 1-3 into CrossEntropyLoss over three outputs: 3 is out of range

@broken('AM', 'magnet_target_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def magnet_target_broadcast(seed): return magnet_magnitude(seed, flat_target=True)  # y (n,) against mu (n, 1): every prediction scored against every magnitude

@broken('AM', 'barlow_backbone_under_no_grad', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def barlow_backbone_under_no_grad(seed): return barlow_twins_digits(seed, backbone_no_grad=True)  # the backbone never gets a gradient: only the projector learns

@broken('AM', 'center_loss_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def center_loss_step_without_zero_grad(seed): return center_loss_lenetpp(seed, zero_grad=False)  # the gradients accumulate from step to step

@broken('AM', 'rgcn_softmax_before_ce', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def rgcn_softmax_before_ce(seed): return rgcn_institute_groups(seed, softmax=True)  # the Keras original's softmax output kept, then CrossEntropyLoss

@broken('AM', 'covertype_unscaled_numbers', (2, 3), ('init_scale', 'lr_high', 'not_falling', 'flat', 'stuck'))
def covertype_unscaled_numbers(seed): return covertype_mlp(seed, scale=False)  # elevations and distances in metres fed raw: logits in the hundreds at init

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss and custom step, train shuffled, valid in batches of 256 (the DataLoaders' own where the factory gives
# them); valid loss and a metric (accuracy; R^2; AUC; for Barlow Twins the loss alone), init -> the epoch named (for the
# R-GCN an epoch is one full-graph step); s/ep the seconds of an epoch of training, params the trainable ones. Every factory
# builds and runs one batch (forward, loss, backward, step; ctg_nsp_codes_as_classes raises "Target 3 is out of bounds."
# there, as meant); `ladder_gallery.HALF` holds 24 programs of half AM. Seed 1 in brackets.
CHECKS = """
cbow_topic_corpus                     valid CE 4.66 (ln 111 = 4.71) -> 3.01 (ep 8) -> 2.72 (ep 16), accuracy 0.33 [4.70 -> 2.64,
                                      0.33]; 1799 windows train [1809], about 450 validate; 7.2k params; 0.04 s/ep
ccpp_power_mlp                        valid MSE (MW^2) 2.1e5 at init (outputs near 0, PE near 454) -> 259 (ep 8) -> 45 (ep 16),
                                      R^2 0.84 [2.1e5 -> 30, 0.81], still falling; 1200 rows train, 300 validate; 1.2k params;
                                      0.05 s/ep
bank_marketing_mlp                    valid BCE 0.79 -> 0.235 (ep 8) -> 0.222 (ep 16), AUC 0.73 [0.69 -> 0.285, 0.70]; 8.6% yes
                                      [8.3%]; 1200 rows train, 300 validate; 2.2k params; 0.04 s/ep
esr_seizure_cnn                       valid BCE 0.64 -> 0.053 (ep 8) -> 0.025 (ep 16), AUC 1.00 [0.68 -> 0.022, 1.00]; 20% seizure;
                                      48 recordings (1104 chunks) train, 12 validate, none on both sides; 2.3k params; 0.15 s/ep
gtsrb_track_split_cnn                 valid CE 2.13 (ln 8 = 2.08) -> 0.49 (ep 8-16), accuracy 0.68 (ep 8) -> 0.75 (ep 16) [2.08 ->
                                      0.23, 0.87]; 120 tracks (1200 frames) train, 32 validate; 30k params; 0.2 s/ep
walmart_sales_lag_mlp                 valid MSE (standardised log sales) 1.17 -> 0.121 (ep 8) -> 0.120 (ep 16), R^2 0.87 [0.94 ->
                                      0.112, 0.89]; 1072 windows train, 368 validate; 3.0k params; 0.04 s/ep (25 epochs: 0.12)
ctg_fetal_state_mlp                   valid CE 1.14 -> 0.39 (ep 4-8), accuracy 0.86 (normal 0.78) [1.14 -> 0.49, 0.83], slowly
                                      overfitting after ep 8; 1200 rows train, 300 validate; 3.6k params; 0.05 s/ep
magnet_magnitude                      valid aleatoric loss 1.30 -> -0.62 (ep 8) -> -1.19 (ep 16), R^2 of the magnitude 0.29 (ep 8)
                                      -> 0.75 (ep 16) [1.31 -> -1.08, 0.74]; 960 events train, 240 validate; 9.4k params;
                                      0.33 s/ep
barlow_twins_digits                   valid loss 113 -> 25.9 (ep 8) -> 22.3 (ep 16) [108 -> 22.6]; 1437 digits train, 360 validate;
                                      42k params; 0.5 s/ep
center_loss_lenetpp                   valid loss 2.37 -> 1.50 (ep 8) -> 1.18 (ep 16), accuracy 0.41 -> 0.62 [2.37 -> 1.18, 0.61],
                                      still rising (a 2-d feature); 7.4k params; 0.2 s/ep
covertype_mlp                         valid CE 1.95 -> 0.93 (ep 8) -> 0.61 (ep 16), accuracy 0.81 [2.01 -> 0.37, 0.87]; 1200 rows
                                      train, 300 validate; 5.8k params; 0.03 s/ep
rgcn_institute_groups                 valid CE 1.38 (ln 4 = 1.39) -> 0.97 (step 8) -> 0.34-0.37 (steps 25-60), accuracy 0.85-0.89
                                      [1.39 -> 0.34, 0.89-0.91]; 160 people train, 80 validate, 576 nodes; 28k params; 0.025 s a
                                      step
cbow_window_keeps_centre              valid CE 4.70 -> 2.41 (ep 8) -> 1.81 (ep 16), still falling fast [4.71 -> 1.71] (healthy 3.01,
                                      2.72 [2.64]): the centre word is one of the five averaged
ccpp_first_column_taken_for_index     valid MSE 188 (ep 8) -> 22 (ep 16), R^2 0.92 [176 -> 20, 0.88] (healthy 259 -> 45, 0.84 [30,
                                      0.81]), falling towards 0 where the healthy one stops at the noise (18 MW^2); both slow in MW
bank_duration_kept                    valid BCE 0.183 (ep 8) -> 0.170 (ep 16), AUC 0.90 [0.193, 0.92] (healthy 0.222, 0.73 [0.285,
                                      0.70])
esr_frame_shuffled_labels_not         valid BCE 0.41-0.43 (ep 2-16, near the validation prior's entropy), AUC 0.50-0.54
                                      [0.47, 0.50-0.52] (healthy 0.025, 1.00)
gtsrb_frames_split_at_random          every validation frame has its track's other frames in training [the same]; valid CE 0.33 (ep
                                      8) -> 0.14 (ep 16), accuracy 0.95 [0.13, 0.95] (healthy 0.49, 0.75 [0.23, 0.87])
walmart_rolling_mean_unshifted        valid MSE 0.107 (ep 8) -> 0.063 (ep 16) -> 0.0065 (ep 25) [0.090 -> 0.069], R^2 0.93 (ep 16)
                                      -> 0.99 (ep 25) (healthy 0.120-0.121 from ep 8 to 25, 0.87 [0.112, 0.89])
ctg_nsp_codes_as_classes              IndexError "Target 3 is out of bounds." at the first batch, both seeds
magnet_target_broadcast               valid loss (broadcast, batch x batch) -0.37 to -0.38 from ep 4 on, R^2 of the magnitude -0.09
                                      to -0.01 [-0.33, -0.08 to 0.06] (healthy -1.19, 0.75 [-1.08, 0.74]): the mean magnitude
barlow_backbone_under_no_grad         the backbone's six tensors never get a gradient; valid loss 113 -> 61 (ep 8) -> 46 (ep 16) [108
                                      -> 39] (healthy 26 -> 22 [23])
center_loss_step_without_zero_grad    valid loss 2.37 -> 1.89 (ep 8) -> 2.32 (ep 12) -> 2.62 (ep 16), accuracy 0.36 -> 0.11 [2.13,
                                      2.45, 0.12 -> 0.08] (healthy 1.18, 0.62 [1.18, 0.61])
covertype_unscaled_numbers            valid CE 49 at init [76] -> 2.0 (ep 8) -> 1.7 (ep 16), accuracy 0.31-0.39 [2.08, 0.42]
                                      (healthy 0.61, 0.81 [0.37, 0.87])
rgcn_softmax_before_ce                valid CE 1.384 at init (as the healthy's, ln 4) -> 0.90-0.93 (steps 25-60), accuracy 0.85-0.88
                                      [0.88-0.89, 0.90-0.91] (healthy 0.34-0.37): the loss floored by the probabilities
"""
