"""Half BE of the ladder's gallery: held out from the rules frozen at 9740369 (round 65), and run once on them.
Families not in halves A-BC, taken only from tabular data and business/finance, science and engineering, graphs, recommender
systems and ranking, time series and forecasting, and RL-style supervised models (a half written alongside took other
domains): DLRM (Naumov et al. 2019, shrunk: a bottom MLP over log1p dense counts, one embedding per categorical field, the
pairwise dot products of all vectors, a top MLP, BCE with logits, SGD 0.1; a batch of three tensors and a forward of its own)
on a Criteo-like click log split in time; illicit bitcoin transactions (Weber et al. 2019's Elliptic data: 1-hop local
features of each transaction, a two-layer GCN, a class-weighted cross-entropy on the labelled nodes; features.csv and
classes.csv joined on txId; time steps 1-7 train, 8-10 validate; one full-graph item); radio modulation recognition (O'Shea,
Corgan and Clancy 2016, RML2016.10a's layout: a dict keyed (modulation, SNR) of 2 x 64 I/Q frames, a small CNN over six
modulations); horse racing as a conditional logit (Bolton and Chapman 1986, Benter 1994: an MLP scoring each runner, the
softmax over a race's runners, the winner's NLL; races padded with a mask by a collate_fn, a forward of its own);
conservative Q-learning (Kumar et al. 2020: the TD loss plus alpha (logsumexp Q - Q(s, a)), offline gridworld transitions of a
random behaviour policy; a batch of five tensors, a custom step as the author's loop); stroke prediction (the Kaggle
healthcare-dataset-stroke-data: gender, age, hypertension, heart disease, marriage, work type, residence, glucose, BMI with
N/A, smoking; the Keras model ported with a sigmoid output into BCELoss); transformer fault diagnosis by dissolved gas analysis
(IEC TC10-style: H2, CH4, C2H6, C2H4, C2H2 in ppm, log10 and the three IEC ratios; an MLP over six faults); antimicrobial
peptides (Veltri, Kamath and Shehu 2018, shrunk: an embedding, a convolution, max pooling, an LSTM, one logit; a collate_fn
that pads; homology families kept on one side as CD-HIT clusters); sunspot number forecasting (an MLP over the last 24 months'
smoothed numbers, the next month, split in time); LightFM (Kula 2015: users and items as sums of their features' embeddings
and biases, the logistic loss on interactions and sampled negatives; a batch of five tensors and a forward of its own);
Alzheimer's diagnosis from ADNI-like visits (TADPOLE-style columns: age, education, APOE4, MMSE, CDR-SB, ADAS13, hippocampus,
ventricles, FDG; an MLP over CN/MCI/AD; subjects split with GroupShuffleSplit, no groups declared); and used-car prices (brand,
age, mileage, fuel, transmission, engine, owners; an MLP on log price, MSE).
At most about 1500 training items a program and about 30k trainable parameters; an epoch of a plain loop well under a second
on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half BC.

Protocol: written by a helper in a worktree at eb00a03 (branch halfBE), held out from the rules frozen at 9740369 (round 65).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and import lines, half AO
whole, the module docstrings of the other halves and the @broken lines of all of them (for the rung and cause conventions and
the families taken, with greps of the halves for candidate family names, which showed a few of their lines), and
ladder_sweep.py's --half line. Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a
few epochs: the healthy ones learn, the broken ones are broken as meant), seed 0 (and 1). Committed before any ladder run, to
be run once with `bench/ladder_sweep.py --half BE`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- DLRM (Naumov et al. 2019) on a Criteo-like click log
N_DENSE, CAT_SIZES = 13, [30, 50, 20, 100, 10, 40, 25, 60]

def _criteo(seed, n=1500):
    "Rows of day_0..day_6: 13 integer count features (heavy-tailed, up to thousands), 8 hashed categorical fields, a click (about 25%)."
    g = np.random.default_rng(1000 + seed * 3001); lat = g.normal(0, 1, (n, 3))
    dense = np.floor(np.exp(g.normal(1.5, 1.6, (n, N_DENSE)) + lat @ g.normal(0, 0.5, (3, N_DENSE)))).astype(np.float32)
    cats = np.column_stack([g.integers(0, k, n) for k in CAT_SIZES]); eff = [g.normal(0, 0.8, k) for k in CAT_SIZES]
    z = -1.4 + sum(eff[j][cats[:, j]] for j in range(4)) + 0.6 * lat[:, 0] + 0.4 * np.log1p(dense[:, 2]) - 0.3 * np.log1p(dense[:, 5]) + g.normal(0, 0.5, n)
    return dense, cats, (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)

class DLRM(nn.Module):
    def __init__(self, D=8):
        super().__init__(); self.bot = nn.Sequential(nn.Linear(N_DENSE, 32), nn.ReLU(), nn.Linear(32, D), nn.ReLU())
        self.emb = nn.ModuleList(nn.EmbeddingBag(k, D, mode='sum') for k in CAT_SIZES); F_ = len(CAT_SIZES) + 1
        self.top = nn.Sequential(nn.Linear(D + F_ * (F_ - 1) // 2, 32), nn.ReLU(), nn.Linear(32, 1)); self.li, self.lj = torch.triu_indices(F_, F_, 1)
    def forward(self, dense, sparse):
        x = self.bot(dense); T = torch.stack([x] + [e(sparse[:, j:j + 1]) for j, e in enumerate(self.emb)], 1)
        Z = torch.bmm(T, T.transpose(1, 2))[:, self.li, self.lj]; return self.top(torch.cat([x, Z], 1))

def _dlrm_fwd(model, b): d, s, y = b; return model(d, s), y

@healthy('BE')
def dlrm_criteo(seed, log_dense=True):  # BCE with logits, SGD 0.1 (dlrm_s_pytorch), batches of 128; the first 80% of the log train, the rest validate
    "log_dense False: the dense counts fed as read (dlrm's data_utils applies log(x + 1); the port skipped it)."
    d, c, y = _criteo(seed); d = np.log1p(d) if log_dense else d; k = int(0.8 * len(y))
    ds = lambda s: TensorDataset(_t(d[s]), torch.tensor(c[s]), _t(y[s, None]))
    return dict(model=DLRM, train=ds(slice(0, k)), valid=ds(slice(k, None)), forward=_dlrm_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- illicit bitcoin transactions (Weber et al. 2019, Elliptic): a GCN
def _elliptic(seed, n=1200, f=24, steps=10):
    """features.csv rows in txId order: txId, time step, 24 local features; classes.csv: txId, class ('1' illicit, '2' licit,
    'unknown'); edges txId -> txId within a time step, illicit transactions chaining to each other."""
    g = np.random.default_rng(1000 + seed * 3011); step = g.integers(1, steps + 1, n); ill = g.random(n) < 0.12
    X = g.normal(0, 1, (n, f)); X[ill, :6] += g.normal(0.9, 0.3, 6); X[:, 6:9] += 0.3 * step[:, None] / steps
    edges = []
    for i in range(n):
        same = np.flatnonzero(step == step[i]); pool = same[ill[same] == ill[i]] if g.random() < 0.8 else same
        for j in g.choice(pool, 2): edges.append((i, j))
    cls = np.where(ill, '1', '2').astype(object); cls[g.random(n) < 0.45] = 'unknown'
    return np.arange(n), step, X.astype(np.float32), cls, np.array(edges)

class EllipticGCN(nn.Module):
    def __init__(self, f=24, h=64):
        super().__init__(); self.l1, self.l2 = nn.Linear(f, h), nn.Linear(h, 2)
    def forward(self, x, A): return A @ self.l2(F.relu(A @ self.l1(x)))

def _ell_fwd(model, b): x, A, idx, y = b; return model(x, A)[idx], y

@healthy('BE')
def elliptic_gcn(seed, sort_then_attach=False):  # CE weighted 0.3/0.7 (licit/illicit), Adam 1e-3 ... lr 0.01 here, one full-graph step an epoch
    """The features sorted by time step for the temporal split; classes merged on txId (sort_then_attach: the classes column
    attached by position after the sort, as if both files were in the same order)."""
    txid, step, X, cls, E = _elliptic(seed); o = np.argsort(step, kind='stable'); n = len(txid)
    Xs, steps_s, tx_s = X[o], step[o], txid[o]; cl = cls if sort_then_attach else dict(zip(txid, cls))
    lab = np.array(list(cls)) if sort_then_attach else np.array([cl[t] for t in tx_s])
    pos = np.empty(n, int); pos[tx_s] = np.arange(n); A = np.eye(n, dtype=np.float32)
    for i, j in E: A[pos[i], pos[j]] = A[pos[j], pos[i]] = 1
    d = 1 / np.sqrt(A.sum(1)); A = d[:, None] * A * d[None]; known = lab != 'unknown'; y = np.where(lab == '1', 1, 0)
    tr, va = np.flatnonzero(known & (steps_s <= 7)), np.flatnonzero(known & (steps_s > 7)); x, At = _t(Xs), _t(A)
    item = lambda i: DataLoader(OneItem(x, At, torch.tensor(i), torch.tensor(y[i])), collate_fn=_one)
    return dict(model=EllipticGCN, train=item(tr), valid=item(va), forward=_ell_fwd, loss=nn.CrossEntropyLoss(weight=torch.tensor([0.3, 0.7])),
                num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=0.01), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- radio modulation recognition (O'Shea et al. 2016, RML2016.10a's layout)
MODS, SNRS = ['BPSK', 'QPSK', '8PSK', 'QAM16', 'PAM4', 'CPFSK'], list(range(-2, 20, 4))

def _rml(seed, per=40, T=64, sps=4):
    "Xd[(mod, snr)] = (per, 2, T) frames: random symbols, rectangular pulses of 4 samples, a random phase and frequency offset, AWGN."
    g = np.random.default_rng(1000 + seed * 3019); Xd = {}
    for m in MODS:
        for snr in SNRS:
            k = T // sps; s = g.integers(0, 16, (per, k))
            if m == 'BPSK': sym = 2 * (s % 2) - 1.0 + 0j
            elif m == 'QPSK': sym = np.exp(1j * (np.pi / 4 + np.pi / 2 * (s % 4)))
            elif m == '8PSK': sym = np.exp(1j * np.pi / 4 * (s % 8))
            elif m == 'QAM16': sym = ((s % 4) * 2 - 3 + 1j * ((s // 4) * 2 - 3)) / np.sqrt(10)
            elif m == 'PAM4': sym = ((s % 4) * 2 - 3) / np.sqrt(5) + 0j
            x = np.repeat(sym, sps, 1) if m != 'CPFSK' else np.exp(1j * np.cumsum(np.repeat(np.pi / 2 * (2 * (s % 2) - 1), sps, 1) / sps, 1))
            x = x * np.exp(1j * (g.uniform(0, 2 * np.pi, (per, 1)) + g.normal(0, 0.01, (per, 1)) * np.arange(T)))
            x = x + (g.normal(0, 1, x.shape) + 1j * g.normal(0, 1, x.shape)) * np.sqrt(10 ** (-snr / 10) / 2)
            Xd[(m, snr)] = np.stack([x.real, x.imag], 1).astype(np.float32)
    return Xd

class ModCNN(nn.Module):  # conv 2->32 (k 7), conv 32->16 (k 5), dropout, dense 64, six logits
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Conv1d(2, 32, 7, padding=3), nn.ReLU(), nn.Conv1d(32, 16, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
                                                     nn.Dropout(0.3), nn.Flatten(), nn.Linear(16 * 32, 32), nn.ReLU(), nn.Linear(32, 6))
    def forward(self, x): return self.net(x)

@healthy('BE')
def radioml_cnn(seed, shuffled_apart=False):  # CE, Adam 1e-3, batches of 64; shuffled, the first 75% train, the rest validate
    """The notebook's loading: mods, snrs from the keys, X stacked for mod in mods for snr in snrs, the labels appended in the
    same loop; X and the labels shuffled together by one permutation (shuffled_apart: np.random.shuffle(X) and
    np.random.shuffle(lbl), each with its own draw)."""
    Xd = _rml(seed); mods = sorted({k[0] for k in Xd}); snrs = sorted({k[1] for k in Xd}); X, lbl = [], []
    for m in mods:
        for s in snrs: X.append(Xd[(m, s)]); lbl += [(m, s)] * len(Xd[(m, s)])
    X = np.concatenate(X); y = np.array([mods.index(m) for m, _ in lbl]); rng = np.random.default_rng(seed)
    if shuffled_apart: X, y = X[rng.permutation(len(y))], y[rng.permutation(len(y))]
    else: p = rng.permutation(len(y)); X, y = X[p], y[p]
    k = int(0.75 * len(y))
    return dict(model=ModCNN, train=TensorDataset(_t(X[:k]), torch.tensor(y[:k])), valid=TensorDataset(_t(X[k:]), torch.tensor(y[k:])),
                loss=nn.CrossEntropyLoss(), num_classes=6, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- horse racing as a conditional logit (Bolton and Chapman 1986; Benter 1994)
def _races(seed, n=500, d=7):
    "Each race 5-12 runners: last speed figure, average of three, days off, jockey and trainer strike rates, weight carried, draw; the winner drawn from the softmax of a hidden ability."
    g = np.random.default_rng(1000 + seed * 3023); out = []
    for _ in range(n):
        R = int(g.integers(5, 13)); ab = g.normal(0, 1, R)
        X = np.column_stack([80 + 8 * ab + g.normal(0, 5, R), 80 + 8 * ab + g.normal(0, 3, R), g.exponential(30, R), np.clip(0.12 + 0.04 * ab + g.normal(0, 0.04, R), 0, 1),
                             np.clip(0.12 + 0.02 * ab + g.normal(0, 0.04, R), 0, 1), 55 + 2 * ab + g.normal(0, 1.5, R), g.permutation(R) + 1.0])
        s = 1.6 * ab - 0.01 * np.abs(X[:, 2] - 28) - 0.05 * X[:, 6]; p = np.exp(s - s.max()); p /= p.sum()
        out.append((X.astype(np.float32), int(g.choice(R, p=p))))
    return out

def collate_races(batch, d=7):
    R = max(len(x) for x, _ in batch); X = torch.zeros(len(batch), R, d); mask = torch.zeros(len(batch), R, dtype=torch.bool)
    for i, (x, _) in enumerate(batch): X[i, :len(x)] = torch.as_tensor(x); mask[i, :len(x)] = True
    return X, mask, torch.tensor([w for _, w in batch])

class RunnerScorer(nn.Module):
    def __init__(self, d=7, mu=None, sd=None, mask_is_pad=False):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, 1)); self.mask_is_pad = mask_is_pad
        self.register_buffer('mu', mu); self.register_buffer('sd', sd)
    def forward(self, X, mask):
        s = self.net((X - self.mu) / self.sd).squeeze(-1)
        return s.masked_fill(mask if self.mask_is_pad else ~mask, float('-inf'))  # the padding out of the race's softmax

def _race_fwd(model, b): X, mask, w = b; return model(X, mask), w

@healthy('BE')
def horse_race_logit(seed, mask_is_pad=False):  # CE over each race's runners (the conditional logit's NLL), Adam 3e-3, batches of 32 races; the last fifth of the races validate
    "mask_is_pad: the runners' mask taken for the padding's (True where a runner is), so the real runners are filled with -inf."
    races = _races(seed); k = int(0.8 * len(races)); A = np.concatenate([x for x, _ in races[:k]]); mu, sd = _t(A.mean(0)), _t(A.std(0))
    return dict(model=lambda: RunnerScorer(mu=mu, sd=sd, mask_is_pad=mask_is_pad), train=ListDataset(races[:k]), valid=ListDataset(races[k:]), collate_fn=collate_races,
                forward=_race_fwd, loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- conservative Q-learning (Kumar et al. 2020) from an offline gridworld buffer
def _grid_buffer(seed, n=1500, S=6):
    "Random-behaviour transitions on a 6 x 6 grid with a goal (+1, terminal), walls at the edges, a step cost of 0.01; s and s' one-hot."
    g = np.random.default_rng(1000 + seed * 3037); goal = (S - 1, S - 1); mv = np.array([[0, 1], [1, 0], [0, -1], [-1, 0]]); T = []
    pos = g.integers(0, S, 2)
    for _ in range(n):
        a = int(g.choice(4, p=[.3, .3, .2, .2])); nxt = np.clip(pos + mv[a], 0, S - 1); done = tuple(nxt) == goal
        T.append((pos[0] * S + pos[1], a, 1.0 if done else -0.01, nxt[0] * S + nxt[1], float(done))); pos = g.integers(0, S, 2) if done or g.random() < 0.05 else nxt
    s, a, r, s2, d = map(np.array, zip(*T)); eye = np.eye(S * S, dtype=np.float32)
    return eye[s], a, r.astype(np.float32), eye[s2], d.astype(np.float32)

def cql_loss(out, target, gamma=0.9, alpha=0.5):  # TD (Huber, the target from the same network, no gradient) + alpha (logsumexp Q - Q(s, a))
    q, q2 = out; a, r, d = target; qa = q.gather(1, a[:, None]).squeeze(1); tgt = r + gamma * (1 - d) * q2.max(1).values
    return F.smooth_l1_loss(qa, tgt) + alpha * (torch.logsumexp(q, 1) - qa).mean()

def _cql_fwd(model, b):
    s, a, r, s2, d = b
    with torch.no_grad(): q2 = model(s2)
    return (model(s), q2), (a, r, d)

def _cql_step(zero_grad=True):
    def cql_step(model, batch, opt):  # the author's loop body
        if zero_grad: opt.zero_grad()
        out, target = _cql_fwd(model, batch); loss = cql_loss(out, target); loss.backward(); opt.step(); return loss
    return cql_step

@healthy('BE')
def cql_gridworld(seed, zero_grad=True):  # Adam 1e-3, batches of 64, a custom step; the first 80% of the buffer trains, the rest validates
    "zero_grad False: opt.zero_grad() lost from the loop body, the gradients summed over every step."
    s, a, r, s2, d = _grid_buffer(seed); k = int(0.8 * len(a))
    ds = lambda sl: TensorDataset(_t(s[sl]), torch.tensor(a[sl]), _t(r[sl]), _t(s2[sl]), _t(d[sl]))
    return dict(model=lambda: nn.Sequential(nn.Linear(36, 64), nn.ReLU(), nn.Linear(64, 4)), train=ds(slice(0, k)), valid=ds(slice(k, None)),
                forward=_cql_fwd, loss=cql_loss, step=_cql_step(zero_grad), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- stroke prediction (Kaggle's healthcare-dataset-stroke-data): the Keras MLP ported
WORK, SMOKE = ['Private', 'Self-employed', 'Govt_job', 'children', 'Never_worked'], ['never smoked', 'formerly smoked', 'smokes', 'Unknown']

def _stroke(seed, n=1500):
    "Rows: gender, age, hypertension, heart_disease, ever_married, work_type, Residence_type, avg_glucose_level, bmi ('N/A' about 4%), smoking_status; about 6% strokes, rising steeply with age."
    g = np.random.default_rng(1000 + seed * 3041); age = np.clip(g.normal(45, 22, n), 0.1, 82); hyp = g.random(n) < 0.02 + age / 500; hd = g.random(n) < 0.01 + age / 900
    glu = np.exp(g.normal(4.6, 0.3, n)) + 40 * (g.random(n) < 0.12); bmi = np.clip(g.normal(22 + age / 8, 6, n), 12, 70); bmi[g.random(n) < 0.04] = np.nan
    work = np.where(age < 16, 3, g.choice([0, 1, 2, 4], n, p=[.65, .17, .16, .02])); smoke = g.choice(4, n, p=[.37, .17, .16, .30]); married = g.random(n) < np.clip(age / 40, 0, 0.85)
    z = -7.6 + 0.075 * age + 0.5 * hyp + 0.5 * hd + 0.006 * (glu - 100) + 0.25 * (smoke == 2) + g.normal(0, 0.4, n)
    y = (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    return dict(gender=(g.random(n) < 0.41).astype(float), age=age, hypertension=hyp.astype(float), heart_disease=hd.astype(float), ever_married=married.astype(float),
                work_type=work, Residence_type=(g.random(n) < 0.5).astype(float), avg_glucose_level=glu, bmi=bmi, smoking_status=smoke, stroke=y)

class StrokeNet(nn.Module):
    "Dense(32, relu), Dropout(0.2), Dense(16, relu), Dense(1, sigmoid) (softmax_out: Dense(1, activation='softmax'), as the notebook had it)."
    def __init__(self, d=17, softmax_out=False):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1), nn.Softmax(dim=1) if softmax_out else nn.Sigmoid())
    def forward(self, x): return self.net(x)

@healthy('BE')
def stroke_mlp(seed, softmax_out=False):  # BCELoss, Adam 1e-3, batches of 32; a stratified train_test_split 80/20; bmi filled with the training median; StandardScaler
    from sklearn.model_selection import train_test_split
    D = _stroke(seed); y = D['stroke']; tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    bmi = np.where(np.isnan(D['bmi']), np.nanmedian(D['bmi'][tr]), D['bmi'])
    X = np.column_stack([D['gender'], D['age'], D['hypertension'], D['heart_disease'], D['ever_married'], np.eye(5)[D['work_type']], D['Residence_type'],
                         D['avg_glucose_level'], bmi, np.eye(4)[D['smoking_status']]]).astype(np.float32)
    X = _std(_t(X), _t(X[tr]))
    return dict(model=lambda: StrokeNet(softmax_out=softmax_out), train=TensorDataset(X[tr], _t(y[tr, None])), valid=TensorDataset(X[va], _t(y[va, None])),
                loss=nn.BCELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- dissolved gas analysis of power transformers (IEC TC10-style)
DGA_FAULTS = ['PD', 'D1', 'D2', 'T1', 'T2', 'T3']  # the file's fault column as codes 1-6 in this order

def _dga(seed, n=1200):
    "H2, CH4, C2H6, C2H4, C2H2 in ppm: each fault its typical gas proportions (Duval's zones), a total gas level spanning three decades, sampling noise."
    g = np.random.default_rng(1000 + seed * 3049); prof = np.array([[85, 10, 3, 1, .5], [40, 8, 2, 10, 40], [30, 10, 2, 30, 28], [10, 40, 35, 12, .3], [8, 35, 17, 40, .5], [6, 20, 8, 65, 1]], float)
    f = g.integers(0, 6, n); mix = g.dirichlet(prof[f] * 0.6 + 0.2) if False else np.array([g.dirichlet(prof[k] * 0.5 + 0.3) for k in f])
    gas = mix * 10 ** g.uniform(1.3, 4, (n, 1)) * np.exp(g.normal(0, 0.15, (n, 5))) + g.uniform(0, 2, (n, 5))
    return gas.astype(np.float32), f + 1

def _dga_features(gas):
    H2, CH4, C2H6, C2H4, C2H2 = gas.T; r = lambda a, b: np.log10((a + 1) / (b + 1))
    return np.column_stack([np.log10(gas + 1), r(C2H2, C2H4), r(CH4, H2), r(C2H4, C2H6)]).astype(np.float32)

@healthy('BE')
def dga_fault_mlp(seed, codes_as_classes=False):  # CE, Adam 1e-3, batches of 32; train_test_split 80/20 stratified
    "The fault codes 1-6 of the file mapped to 0-5 (codes_as_classes: the codes used as the class indices as read)."
    from sklearn.model_selection import train_test_split
    gas, code = _dga(seed); X = _dga_features(gas); y = code if codes_as_classes else code - 1
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=code); X = _std(_t(X), _t(X[tr]))
    return dict(model=lambda: nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 6)), train=TensorDataset(X[tr], torch.tensor(y[tr])),
                valid=TensorDataset(X[va], torch.tensor(y[va])), loss=nn.CrossEntropyLoss(), num_classes=6, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- antimicrobial peptides (Veltri, Kamath and Shehu 2018, shrunk)
AA = 'ACDEFGHIKLMNPQRSTVWY'

def _peptides(seed, fams=160):
    """Homology families of 3-8 peptides (10-30 residues) mutated from a family ancestor: AMP families cationic and amphipathic
    (K/R on one face of a helix, hydrophobics on the other), each with its own motif; non-AMP families from background frequencies."""
    g = np.random.default_rng(1000 + seed * 3053); bg = np.ones(20) / 20; out = []
    for fam in range(fams):
        amp = g.random() < 0.5; L = int(g.integers(10, 31))
        if amp: anc = [g.choice(list('KRKRH')) if (i * 100 % 360) < 160 else g.choice(list('LIVFWAG')) for i in range(L)]
        else: anc = list(g.choice(list(AA), L, p=bg))
        mot = list(g.choice(list(AA), 4)); at = int(g.integers(0, L - 4)); anc[at:at + 4] = mot
        for _ in range(int(g.integers(3, 9))):
            s = [c if g.random() > 0.15 else g.choice(list(AA)) for c in anc]; s = s[int(g.integers(0, 3)):]
            out.append(([AA.index(c) + 1 for c in s], float(amp), fam))
    return out

def collate_peptides(batch):
    L = max(len(s) for s, _, _ in batch); X = torch.zeros(len(batch), L, dtype=torch.long)
    for i, (s, _, _) in enumerate(batch): X[i, :len(s)] = torch.tensor(s)
    return X, torch.tensor([[y] for _, y, _ in batch])

class AMPNet(nn.Module):  # embedding, conv 64 (k 5), max pool 3, LSTM, one logit
    def __init__(self):
        super().__init__(); self.emb = nn.Embedding(21, 16, padding_idx=0); self.conv = nn.Conv1d(16, 32, 5, padding=2); self.lstm = nn.LSTM(32, 32, batch_first=True); self.out = nn.Linear(32, 1)
    def forward(self, x):
        h = F.max_pool1d(F.relu(self.conv(self.emb(x).transpose(1, 2))), 3, ceil_mode=True).transpose(1, 2); _, (hN, _) = self.lstm(h); return self.out(hN[-1])

@healthy('BE')
def amp_cnn_lstm(seed, split_peptides=False):  # BCE with logits, Adam 1e-3, batches of 32; GroupShuffleSplit over the families (CD-HIT clusters), a fifth validate
    "split_peptides: train_test_split over the peptides, each family's homologs on both sides."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    P = _peptides(seed); idx = np.arange(len(P)); fam = np.array([f for _, _, f in P])
    tr, va = train_test_split(idx, test_size=0.2, random_state=seed) if split_peptides else next(GroupShuffleSplit(1, test_size=0.2, random_state=seed).split(idx, groups=fam))
    return dict(model=AMPNet, train=ListDataset([P[i] for i in tr]), valid=ListDataset([P[i] for i in va]), collate_fn=collate_peptides, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- sunspot number forecasting: an MLP over the last 24 months
def _sunspots(seed, months=1600):
    "Monthly mean sunspot numbers: cycles of 9.5-12.5 years with random amplitudes, a fast rise and slow decay, multiplicative noise; smoothed over 13 months as SILSO's."
    g = np.random.default_rng(1000 + seed * 3061); s, t = [], 0
    while len(s) < months + 12:
        P = int(g.uniform(114, 150)); A = g.uniform(60, 220); u = np.arange(P) / P; s += list(A * (u / 0.35) ** 2 * np.exp(2 * (1 - u / 0.35)) / np.e ** 0 * np.exp(-0.0 * u))
    s = np.array(s[:months + 12]); s = s / s.max() * 250 * np.exp(g.normal(0, 0.25, len(s))); return np.convolve(s, np.ones(13) / 13, 'valid')

@healthy('BE')
def sunspot_mlp(seed, target_off_by_one=False, L=24):  # MSE on the numbers / 200, Adam 1e-3, batches of 32; the last fifth of the windows validate
    "Windows x[t:t+L] and the next month x[t+L] (target_off_by_one: y = x[t+L-1], the window's own last month)."
    s = _sunspots(seed) / 200; k = 0 if not target_off_by_one else 1
    X = np.stack([s[t:t + L] for t in range(len(s) - L)]); y = np.array([s[t + L - k] for t in range(len(s) - L)])[:, None]; c = int(0.8 * len(y))
    return dict(model=lambda: nn.Sequential(nn.Linear(L, 32), nn.ReLU(), nn.Linear(32, 1)), train=TensorDataset(_t(X[:c]), _t(y[:c])), valid=TensorDataset(_t(X[c:]), _t(y[c:])),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- LightFM (Kula 2015): users and items as sums of their features' embeddings, the logistic loss
def _lightfm_data(seed, U=120, I=80, n=1500):
    "User features: id, age band (5), country (6); item features: id, genre (8). Interactions from taste (age band x genre, country x genre); each positive with a sampled negative."
    g = np.random.default_rng(1000 + seed * 3067); age, ctry, genre = g.integers(0, 5, U), g.integers(0, 6, U), g.integers(0, 8, I)
    taste = g.normal(0, 1.2, (5, 8))[age] + g.normal(0, 0.8, (6, 8))[ctry]; pop = g.normal(0, 0.5, I)
    uf = np.column_stack([np.arange(U), U + age, U + 5 + ctry]); itf = np.column_stack([np.arange(I), I + genre]); rows = []
    while len(rows) < n:
        u = g.integers(U); p = np.exp(taste[u, genre] + pop); i = g.choice(I, p=p / p.sum()); rows += [(u, i, 1.0), (u, g.integers(I), 0.0)]
    u, i, y = map(np.array, zip(*rows)); return uf[u], itf[i], y.astype(np.float32), U + 11, I + 8

class LightFM(nn.Module):
    def __init__(self, nu, ni, D=16, items_no_grad=False):
        super().__init__(); self.ue, self.ie = nn.EmbeddingBag(nu, D, mode='sum'), nn.EmbeddingBag(ni, D, mode='sum'); self.ub, self.ib = nn.EmbeddingBag(nu, 1, mode='sum'), nn.EmbeddingBag(ni, 1, mode='sum')
        for e in (self.ue, self.ie): nn.init.normal_(e.weight, std=1 / D)
        for e in (self.ub, self.ib): nn.init.zeros_(e.weight)
        self.items_no_grad = items_no_grad
    def forward(self, uf, itf):
        if self.items_no_grad:
            with torch.no_grad(): iv, ib = self.ie(itf), self.ib(itf)  # "the item side is the big one: keep it out of the graph"
        else: iv, ib = self.ie(itf), self.ib(itf)
        return (self.ue(uf) * iv).sum(1, keepdim=True) + self.ub(uf) + ib

def _lfm_fwd(model, b): uf, itf, y = b; return model(uf, itf), y

@healthy('BE')
def lightfm_hybrid(seed, items_no_grad=False):  # BCE with logits (LightFM's 'logistic'), Adagrad 0.05 (its default), batches of 64; a random fifth of the rows validate
    uf, itf, y, nu, ni = _lightfm_data(seed); idx = np.random.default_rng(seed).permutation(len(y)); k = int(0.8 * len(y))
    ds = lambda s: TensorDataset(torch.tensor(uf[s]), torch.tensor(itf[s]), _t(y[s, None]))
    return dict(model=lambda: LightFM(nu, ni, items_no_grad=items_no_grad), train=ds(idx[:k]), valid=ds(idx[k:]), forward=_lfm_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adagrad(p, lr=0.05), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Alzheimer's diagnosis from ADNI-like visits (TADPOLE-style columns)
def _adni(seed, subjects=260):
    "Each subject 2-7 visits 6-12 months apart: a latent stage drifting upward, each subject's own offsets; DX CN/MCI/AD from the stage."
    g = np.random.default_rng(1000 + seed * 3071); rows = []
    for sid in range(subjects):
        st0 = g.normal(0, 1); sp = abs(g.normal(0.15, 0.15)); age = g.uniform(60, 88); edu = g.integers(8, 21); apoe = g.choice(3, p=[.55, .35, .1]); off = g.normal(0, 1, 6)
        for v in range(int(g.integers(2, 8))):
            st = st0 + 0.3 * apoe + sp * v; t = v * g.uniform(0.5, 1)
            feats = [age + t, edu, apoe, 28.5 - 2.5 * max(st, 0) + 0.8 * off[0] + g.normal(0, 1.0), 0.5 + 1.8 * max(st, 0) + 0.5 * off[1] + g.normal(0, 0.7),
                     10 + 7 * max(st, 0) + 3 * off[2] + g.normal(0, 3), 7200 - 700 * st + 600 * off[3] + g.normal(0, 250), 30000 + 6000 * st + 9000 * off[4] + g.normal(0, 1500),
                     1.3 - 0.12 * st + 0.08 * off[5] + g.normal(0, 0.05)]
            dx = 0 if st + g.normal(0, 0.4) < 0.3 else 1 if st + g.normal(0, 0.4) < 1.6 else 2; rows.append((sid, feats, dx))
    sid, X, y = zip(*rows); return np.array(sid), np.array(X, np.float32), np.array(y)

@healthy('BE')
def adni_dx_mlp(seed, split_visits=False):  # CE, Adam 1e-3, batches of 32; GroupShuffleSplit by subject, a fifth validate (no groups declared)
    "split_visits: train_test_split over the visits, each subject's other visits in training."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    sid, X, y = _adni(seed); idx = np.arange(len(y))
    tr, va = train_test_split(idx, test_size=0.2, random_state=seed) if split_visits else next(GroupShuffleSplit(1, test_size=0.2, random_state=seed).split(idx, groups=sid))
    Xt = _std(_t(X), _t(X[tr]))
    return dict(model=lambda: nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 3)), train=TensorDataset(Xt[tr], torch.tensor(y[tr])),
                valid=TensorDataset(Xt[va], torch.tensor(y[va])), loss=nn.CrossEntropyLoss(), num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- used-car prices: an MLP on log price
BRANDS = ['toyota', 'ford', 'vw', 'bmw', 'audi', 'honda', 'kia', 'skoda', 'mercedes', 'fiat', 'nissan', 'opel']

def _cars(seed, n=1500):
    g = np.random.default_rng(1000 + seed * 3079); b = g.integers(0, 12, n); age = g.uniform(0, 15, n); km = np.clip(g.normal(15000, 6000, n), 1000, None) * age + g.uniform(0, 5000, n)
    fuel = g.choice(4, n, p=[.55, .35, .07, .03]); auto = (g.random(n) < 0.35).astype(float); eng = np.round(g.uniform(1.0, 3.0, n), 1); own = g.integers(1, 5, n)
    logp = 9.6 + g.normal(0, 0.35, 12)[b] - 0.09 * age - 2.5e-6 * km + 0.25 * eng + 0.1 * auto + 0.15 * (fuel == 2) - 0.04 * own + g.normal(0, 0.12, n)
    return b, age, km, fuel, auto, eng, own, np.exp(logp)

@healthy('BE')
def used_car_price(seed, flat_target=False):  # MSE on log(price), Adam 1e-3, batches of 64; train_test_split 80/20; StandardScaler on the numbers
    "flat_target: y = torch.tensor(np.log(df.price.values)), shape (n,), against the model's (B, 1)."
    from sklearn.model_selection import train_test_split
    b, age, km, fuel, auto, eng, own, price = _cars(seed); X = np.column_stack([np.eye(12)[b], age, km, np.eye(4)[fuel], auto, eng, own]).astype(np.float32)
    tr, va = train_test_split(np.arange(len(price)), test_size=0.2, random_state=seed); X = _std(_t(X), _t(X[tr])); y = _t(np.log(price))
    y = y if flat_target else y[:, None]
    return dict(model=lambda: nn.Sequential(nn.Linear(21, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1)), train=TensorDataset(X[tr], y[tr]),
                valid=TensorDataset(X[va], y[va]), loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half BE
@broken('BE', 'dlrm_dense_counts_not_logged', (2, 3), ('init_scale', 'lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'not_falling', 'flat', 'stuck'))
def dlrm_dense_counts_not_logged(seed): return dlrm_criteo(seed, log_dense=False)  # raw counts up to thousands into the bottom MLP, SGD 0.1

@broken('BE', 'elliptic_classes_attached_after_sort', 4, ('labels',))
def elliptic_classes_attached_after_sort(seed): return elliptic_gcn(seed, sort_then_attach=True)  # classes.csv in txId order pasted onto the time-sorted features

@broken('BE', 'radioml_shuffled_apart', 4, ('labels',))
def radioml_shuffled_apart(seed): return radioml_cnn(seed, shuffled_apart=True)  # frames and labels each shuffled by its own permutation

@broken('BE', 'horse_race_mask_inverted', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def horse_race_mask_inverted(seed): return horse_race_logit(seed, mask_is_pad=True)  # the real runners filled with -inf: the winner's NLL infinite

@broken('BE', 'cql_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def cql_no_zero_grad(seed): return cql_gridworld(seed, zero_grad=False)

@broken('BE', 'stroke_softmax_single_output', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def stroke_softmax_single_output(seed): return stroke_mlp(seed, softmax_out=True)  # softmax over one unit: 1.0 for every patient, no gradient

@broken('BE', 'dga_fault_codes_as_classes', 1, ('bad_labels',))
def dga_fault_codes_as_classes(seed): return dga_fault_mlp(seed, codes_as_classes=True)  # codes 1-6 against six logits

@broken('BE', 'amp_homologs_split_at_random', 4, ('leakage',))
def amp_homologs_split_at_random(seed): return amp_cnn_lstm(seed, split_peptides=True)

@broken('BE', 'sunspot_target_is_last_input', 4, ('leakage',))
def sunspot_target_is_last_input(seed): return sunspot_mlp(seed, target_off_by_one=True)

@broken('BE', 'lightfm_items_under_no_grad', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'))
def lightfm_items_under_no_grad(seed): return lightfm_hybrid(seed, items_no_grad=True)  # the item embeddings and biases never receive a gradient

@broken('BE', 'adni_visits_split_at_random', 4, ('leakage',))
def adni_visits_split_at_random(seed): return adni_dx_mlp(seed, split_visits=True)

@broken('BE', 'used_car_target_not_a_column', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def used_car_target_not_a_column(seed): return used_car_price(seed, flat_target=True)  # (B, 1) against (B,): every price scored against every prediction

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size,
# forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256; valid loss/metric at init -> epochs 2, 4, 8
# (metric: accuracy for class indices, AUC for 0/1 columns, R^2 for regression, nan where none fits); ntr/nva the items, params
# the trainable ones. dga_fault_codes_as_classes raises "Target 6 is out of bounds" at its first batch, as meant. Every factory
# builds and runs its batches; `ladder_gallery.HALF` holds 24 programs of half BE.
CHECKS = """
dlrm_criteo                            0.791/0.435 -> 0.664/0.487 -> 0.655/0.513 -> 0.647/0.538  ntr=1200 nva=300 params=4865
elliptic_gcn                           0.689/0.776 -> 0.615/0.849 -> 0.553/0.849 -> 0.42/0.88  ntr=1 nva=1 params=1730 0.01s/
radioml_cnn                            1.8/0.16 -> 1.79/0.138 -> 1.77/0.238 -> 1.54/0.336  ntr=1080 nva=360 params=19670 0.07
horse_race_logit                       2.17/0.08 -> 1.77/0.38 -> 1.66/0.41 -> 1.62/0.43  ntr=400 nva=100 params=145 0.01s/ep 
cql_gridworld                          0.725/nan -> 0.702/nan -> 0.7/nan -> 0.696/nan  ntr=1200 nva=300 params=2628 0.03s/ep 
stroke_mlp                             0.608/0.25 -> 0.191/0.307 -> 0.145/0.589 -> 0.128/0.859  ntr=1200 nva=300 params=1121 
dga_fault_mlp                          1.8/0.162 -> 1.41/0.479 -> 0.756/0.833 -> 0.339/0.9  ntr=960 nva=240 params=1542 0.03s
amp_cnn_lstm                           0.693/0.638 -> 0.397/0.945 -> 0.297/0.973 -> 0.28/0.983  ntr=697 nva=188 params=11409 
sunspot_mlp                            0.132/-4.07 -> 0.00713/0.662 -> 0.0032/0.847 -> 0.000952/0.962  ntr=1260 nva=316 param
lightfm_hybrid                         0.693/0.521 -> 0.609/0.727 -> 0.627/0.732 -> 0.69/0.705  ntr=1200 nva=300 params=3723 
adni_dx_mlp                            1.05/0.498 -> 0.814/0.641 -> 0.687/0.71 -> 0.589/0.733  ntr=925 nva=217 params=419 0.0
used_car_price                         80.3/-170 -> 62.1/-132 -> 16.4/-34 -> 0.401/0.146  ntr=1200 nva=300 params=3521 0.01s/
dlrm_dense_counts_not_logged           1.72/0.427 -> 0.681/0.44 -> 0.677/0.449 -> 0.684/0.466  ntr=1200 nva=300 params=4865 0
elliptic_classes_attached_after_sort   0.659/0.775 -> 0.608/0.853 -> 0.603/0.853 -> 0.675/0.853  ntr=1 nva=1 params=1730 0.01
radioml_shuffled_apart                 1.79/0.198 -> 1.79/0.197 -> 1.79/0.177 -> 1.86/0.183  ntr=1080 nva=360 params=19670 0.
horse_race_mask_inverted               nan/0.01 -> nan/0.01 -> nan/0.01 -> nan/0.01  ntr=400 nva=100 params=145 0.01s/ep fac 
cql_no_zero_grad                       0.725/nan -> 0.707/nan -> 0.719/nan -> 0.72/nan  ntr=1200 nva=300 params=2628 0.02s/ep
stroke_softmax_single_output           96.5/0.5 -> 96.5/0.5 -> 96.5/0.5 -> 96.5/0.5  ntr=1200 nva=300 params=1121 0.03s/ep fa
amp_homologs_split_at_random           0.696/0.459 -> 0.355/0.987 -> 0.155/0.995 -> 0.118/0.996  ntr=708 nva=177 params=11409
sunspot_target_is_last_input           0.134/-4.1 -> 0.00633/0.706 -> 0.00261/0.878 -> 0.000553/0.979  ntr=1260 nva=316 param
lightfm_items_under_no_grad            0.693/0.521 -> 0.689/0.549 -> 0.687/0.556 -> 0.687/0.573  ntr=1200 nva=300 params=3723
adni_visits_split_at_random            1.06/0.498 -> 0.819/0.629 -> 0.7/0.642 -> 0.602/0.703  ntr=913 nva=229 params=419 0.02
used_car_target_not_a_column           80.3/nan -> 62.2/nan -> 16.9/nan -> 0.87/nan  ntr=1200 nva=300 params=3521 0.02s/ep fa
dga_fault_codes_as_classes             IndexError: Target 6 is out of bounds (first batch)
"""
