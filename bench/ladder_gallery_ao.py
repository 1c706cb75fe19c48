"""Half AO of the ladder's gallery: held out from the rules frozen at round 53, and run once on them.
Families not in halves A-AM, taken only from tabular data and business/finance, science and engineering, graphs, recommender
systems and ranking, time series and forecasting, and RL-style supervised models (a half written alongside took other
domains): Tox21 toxicity (the twelve nuclear-receptor and stress-response assays of the Tox21 challenge as DeepChem's
tox21.csv: hashed substructure bits of each molecule, an MLP with dropout and twelve logits, the BCE with logits masked where
an assay was not run; a batch of three tensors and a forward of its own); early sepsis prediction (the PhysioNet/CinC 2019
challenge's hourly ICU records: vitals and labs forward-filled, the last eight hours into a GRU, SepsisLabel set from six
hours before onset; BCE with logits; patients split with GroupShuffleSplit; groups declared: the patient); Lending Club loan
default (accepted loans' application columns: amount, term, rate, grade, employment, home ownership, income, DTI, purpose,
revolving utilisation, delinquencies, inquiries; one-hot and standardised, an MLP, BCE with logits; the payment-history
columns dropped as the data dictionary marks them post-origination); DiffPool (Ying et al. 2018: dense GraphSAGE
embedding and assignment networks, one soft pooling to four clusters, the link-prediction and entropy auxiliary losses
added to the cross-entropy; a collate_fn that pads the graphs to dense adjacency, a batch of four tensors, a tuple output
and a forward of its own) telling three kinds of synthetic networks apart from their degree one-hot features; neural
LambdaRank (Burges et al. 2006: an MLP scorer, RankNet's pairwise logistic loss weighted by each pair's |delta NDCG|; one
query an item, a loss of its own) on LETOR-style query-document features with graded relevance 0-4; day-ahead electricity
price forecasting (an hourly DNN after Lago et al. 2018: the price of the same hour one, two and seven days before, the
day-ahead load and wind forecasts, hour and weekday; standardised price, MSE; the last two weeks validating); DQN from a
fixed replay buffer (Mnih et al. 2015's TD target without a target network, the Huber loss, Adam; a batch of five tensors
and a forward of its own) of mountain-car transitions gathered by an energy-pumping behaviour policy, held-out episodes
validating; atomization energies of QM7-like molecules from the sorted eigenvalues of their Coulomb matrices (Rupp et al.
2012; an MLP, the L1 loss on the standardised energy, reported back in kcal/mol); kingdoms from codon usage (UCI's Codon
usage data, Khomtchouk 2020: 64 codon frequencies of CUTG organisms, an MLP over six kingdoms); warfarin dosing (the IWPC
2009 cohort's columns: age in decades, height, weight, race, VKORC1 and CYP2C9 genotypes, enzyme inducers, amiodarone; an
MLP, MSE in raw mg a week; a custom step porting the author's loop); xDeepFM (Lian et al. 2018: a linear part, a
compressed interaction network and a DNN over field embeddings, plus the user's and the ad's historical click-through
rates from an earlier period; BCE with logits; dict items and a forward of its own) on a synthetic display-ad log split in
time; and MiniBooNE particle identification (Roe et al. 2005, UCI: 50 PID variables of electron-neutrino against muon-neutrino
events, an MLP on standardised inputs, BCE with logits).
At most about 1800 training items a program (the DQN's transitions; 1500 rows elsewhere, the ranking's 100 queries of 15
documents, the DiffPool's 360 graphs) and about 22k
trainable parameters; an epoch of a plain loop 0.01-0.4 s on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AM.

Protocol: written by a helper in a worktree at e379cc7 (branch halfAO), held out from the rules of round 53 (frozen after
e379cc7; the maintainer records the freeze hash in RESULTS.md). The helper read none of the ladder's rules (ntrain/ladder/*,
nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests or any sweep's results, and never ran the
ladder on these programs (no ntrain.ladder call, no bench/ladder_sweep.py, no CLI); it ran no git log. It read
bench/ladder_gallery.py's head, helpers and tail (the import lines), half AM whole, the module docstrings of the other halves
and the @broken lines of all of them (for the rung and cause conventions and the families taken, with greps of the halves
for candidate family names, which showed a few of their lines), ladder_sweep.py's --half line, and the signatures and
docstrings of `ntrain.ladder` and `ntrain.Task` via help(). Each program was checked by hand only with a plain torch loop
of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seeds 0 and 1.
Two programs declare groups (sepsis_gru and its broken twin sepsis_hours_split_at_random; "groups declared" in their
factories' docstrings) and are to be reported apart. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half AO`; no program changes after the run starts.

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

# ---------------------------------------------------------------- Tox21 (the 2014 challenge's twelve assays as DeepChem's tox21.csv): a multitask MLP, masked BCE
TOX21_TASKS = ['NR-AR', 'NR-AR-LBD', 'NR-AhR', 'NR-Aromatase', 'NR-ER', 'NR-ER-LBD', 'NR-PPAR-gamma', 'SR-ARE', 'SR-ATAD5', 'SR-HSE', 'SR-MMP', 'SR-p53']

def _tox21(seed, n=1500, bits=256, frags=40):
    """Molecules as 256 hashed substructure bits (each of 40 fragments sets a few bits, plus bits of the scaffold's noise);
    each assay active from a few toxicophore fragments and the molecule's size (about 4-15% actives, as the challenge's),
    the stress-response assays sharing causes; about 17% of the labels missing (NaN: the compound not run on that assay)."""
    g = np.random.default_rng(1000 + seed * 2903); fbits = [g.choice(bits, g.integers(3, 7), replace=False) for _ in range(frags)]
    has = g.random((n, frags)) < g.uniform(0.03, 0.2, frags); X = (g.random((n, bits)) < 0.04).astype(np.float32)
    for f in range(frags): X[np.ix_(has[:, f], fbits[f])] = 1
    W = np.zeros((frags, 12)); shared = g.normal(0, 1, frags) * (g.random(frags) < 0.25)
    for k in range(12): W[g.choice(frags, 4, replace=False), k] = g.uniform(1.5, 3.5, 4); W[:, k] += shared * (k >= 7)
    z = has @ W + 0.15 * (X.sum(1, keepdims=True) - 20) / 5 + g.normal(0, 0.6, (n, 12)) - np.array([3.2, 3.4, 2.6, 3.0, 2.7, 3.2, 3.5, 2.3, 3.3, 2.9, 2.4, 2.9])
    Y = (z > 0).astype(np.float32); Y[g.random((n, 12)) < 0.17] = np.nan
    return X, Y

class Tox21Net(nn.Module):
    def __init__(self, d=256, h=64, t=12):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Dropout(0.3), nn.Linear(h, h), nn.ReLU(), nn.Dropout(0.3), nn.Linear(h, t))
    def forward(self, x): return self.net(x)

def masked_bce(logits, target):  # DeepChem's weighted loss: w 0 where the assay is missing, averaged over the labels present
    y, w = target; return (F.binary_cross_entropy_with_logits(logits, y, reduction='none') * w).sum() / w.sum().clamp(min=1)

def _tox21_fwd(model, b): x, y, w = b; return model(x), (y, w)

@healthy('AO')
def tox21_multitask(seed, mask=True):  # Adam 1e-3, batches of 64; a random train_test_split 80/20 (DeepChem's random splitter)
    """y = df[tasks].values with NaN where not run; w = ~isnan(y) and y filled with 0 (mask False: the NaN-bearing y handed
    straight to nn.BCEWithLogitsLoss, the masking left for later)."""
    from sklearn.model_selection import train_test_split
    X, Y = _tox21(seed); tr, va = train_test_split(np.arange(len(X)), test_size=0.2, random_state=seed)
    if not mask:
        return dict(model=Tox21Net, train=TensorDataset(_t(X[tr]), _t(Y[tr])), valid=TensorDataset(_t(X[va]), _t(Y[va])), loss=nn.BCEWithLogitsLoss(),
                    optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))
    W = (~np.isnan(Y)).astype(np.float32); Yf = np.nan_to_num(Y)
    ds = lambda i: TensorDataset(_t(X[i]), _t(Yf[i]), _t(W[i]))
    return dict(model=Tox21Net, train=ds(tr), valid=ds(va), forward=_tox21_fwd, loss=masked_bce, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- early sepsis prediction (PhysioNet/CinC 2019): hourly ICU records, a GRU over the last eight hours
SEPSIS_COLUMNS = ['HR', 'O2Sat', 'Temp', 'SBP', 'MAP', 'Resp', 'Lactate', 'WBC', 'Age', 'Gender', 'ICULOS']

def _sepsis(seed, patients=64):
    """Per patient a .psv of hourly rows (24-34 hours): vitals every hour with gaps, lactate and WBC drawn every 6-12
    hours (NaN between), age and gender; each patient their own baseline vitals. A third of the patients turn septic at an
    hour t_sep: heart and breathing rates and temperature rise, pressures fall and lactate climbs from a few hours before;
    SepsisLabel 1 from t_sep - 6 on, as the challenge labels. Returns a list of (pid, array (T, 11), labels (T,))."""
    g = np.random.default_rng(1000 + seed * 2909); out = []
    for p in range(patients):
        T = int(g.integers(24, 35)); base = np.array([g.normal(84, 10), g.normal(97, 1.2), g.normal(36.9, 0.3), g.normal(123, 14), g.normal(82, 9), g.normal(18, 2.5), g.uniform(0.8, 1.6), g.normal(9, 2)])
        sep = g.random() < 0.34; ts = int(g.integers(10, T + 4)) if sep else 10 ** 6; rows = []; lab = []
        e = np.zeros(8)
        for t in range(T):
            e = 0.75 * e + g.normal(0, 1, 8) * np.array([3, 0.5, 0.1, 5, 3, 1, 0.05, 0.3])
            d = np.clip((t - (ts - 5)) / 5, 0, 2) if sep else 0.0
            v = base + e + d * np.array([14, -2.2, 0.7, -16, -11, 5, 1.4, 3.5])
            v[6:8] = v[6:8] if t % int(g.integers(6, 13)) == 0 or t == 0 else np.nan
            v[:6][g.random(6) < 0.1] = np.nan
            rows.append(np.concatenate([v, [0, 0, t + 1]])); lab.append(float(t >= ts - 6))
        R = np.array(rows); R[:, 8] = np.round(np.clip(g.normal(62, 15), 18, 95)); R[:, 9] = float(g.random() < 0.55)
        out.append((p, R, np.array(lab, np.float32)))
    return out

def sepsis_windows(records, L=8):
    "Each record forward-filled (then the first values backward), the last L hours ending at each hour (the first hours padded by repeating the first row)."
    X, y, pid = [], [], []
    for p, R, lab in records:
        R = R.copy()
        for c in range(R.shape[1]):
            col = R[:, c]; idx = np.where(~np.isnan(col), np.arange(len(col)), 0); np.maximum.accumulate(idx, out=idx); col = col[idx]
            col[np.isnan(col)] = col[~np.isnan(col)][0]; R[:, c] = col
        P = np.concatenate([np.repeat(R[:1], L - 1, 0), R])
        for t in range(len(R)): X.append(P[t:t + L]); y.append([lab[t]]); pid.append(p)
    return np.array(X, np.float32), np.array(y, np.float32), np.array(pid)

class SepsisGRU(nn.Module):
    def __init__(self, d=11, h=32):
        super().__init__(); self.gru = nn.GRU(d, h, batch_first=True); self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(h, 1))
    def forward(self, x): _, hN = self.gru(x); return self.head(hN[-1])

@healthy('AO')
def sepsis_gru(seed, split_hours=False):  # BCE with logits, Adam 2e-3, batches of 32; GroupShuffleSplit, a fifth of the patients validate
    """groups declared: the patient. The windows standardised by the training hours' mean and sd per column.
    split_hours: train_test_split over the windows (the hourly rows), so every patient's hours sit on both sides."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, y, pid = sepsis_windows(_sepsis(seed))
    if split_hours: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=pid))
    m, s = X[tr].reshape(-1, X.shape[2]).mean(0), X[tr].reshape(-1, X.shape[2]).std(0) + 1e-6
    keys = {'train': list(pid[tr]), 'valid': list(pid[va])}
    task = ntrain.Task(model=SepsisGRU, train=TensorDataset(_t((X[tr] - m) / s), _t(y[tr])), valid=TensorDataset(_t((X[va] - m) / s), _t(y[va])),
                       loss=nn.BCEWithLogitsLoss(), groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Lending Club loan default (accepted loans 2007-2011): an MLP on the application's columns
LC_GRADES, LC_PURPOSES, LC_HOMES = list('ABCDEFG'), ['debt_consolidation', 'credit_card', 'home_improvement', 'small_business', 'car', 'other'], ['RENT', 'MORTGAGE', 'OWN']
LC_NUMERIC = ['loan_amnt', 'int_rate', 'installment', 'emp_length', 'annual_inc', 'dti', 'revol_util', 'delinq_2yrs', 'inq_last_6mths', 'open_acc']
LC_PAYMENT = ['total_rec_prncp', 'recoveries', 'last_pymnt_amnt']

def _lending(seed, n=1500):
    """Rows of LoanStats3a: a latent credit risk sets the grade (and the rate within it), income, DTI, utilisation and
    inquiries; charged off (about 15%) more with the risk, 60-month terms and small businesses. The payment history as the
    file has it at download: principal received (the whole amount when paid off), recoveries (after a charge-off only) and
    the last payment's amount."""
    g = np.random.default_rng(1000 + seed * 2917); out = []
    for _ in range(n):
        r = g.normal(); grade = int(np.clip(np.round(1.6 + 1.2 * r + g.normal(0, 0.6)), 0, 6)); term = 60 if g.random() < 0.25 + 0.05 * grade else 36
        purpose = LC_PURPOSES[g.choice(6, p=[.47, .13, .08, .05, .05, .22])]; amt = float(np.round(np.exp(g.normal(9.1, 0.6)) / 25) * 25)
        rate = 7.0 + 2.9 * grade + g.normal(0, 0.6) + (0.8 if term == 60 else 0); inst = amt * (rate / 1200) / (1 - (1 + rate / 1200) ** -term)
        inc = float(np.exp(g.normal(11.0 - 0.12 * r, 0.5))); dti = float(np.clip(g.normal(13 + 2.5 * r, 6), 0, 30)); util = float(np.clip(g.normal(49 + 12 * r, 25), 0, 100))
        z = -1.9 + 0.55 * r + 0.5 * (term == 60) + 0.6 * (purpose == 'small_business') - 0.25 * (np.log(inc) - 11) + 0.02 * (dti - 13) + g.normal(0, 0.8)
        bad = g.random() < 1 / (1 + np.exp(-z)); paid_frac = g.uniform(0.05, 0.8) if bad else 1.0
        out.append(dict(loan_amnt=amt, term=term, int_rate=rate, installment=inst, grade=LC_GRADES[grade], emp_length=int(g.integers(0, 11)), home_ownership=LC_HOMES[g.choice(3, p=[.47, .45, .08])],
                        annual_inc=inc, dti=dti, purpose=purpose, revol_util=util, delinq_2yrs=int(g.poisson(0.15 + 0.1 * max(r, 0))), inq_last_6mths=int(g.poisson(0.8 + 0.4 * max(r, 0))),
                        open_acc=int(g.poisson(9)), total_rec_prncp=amt * paid_frac, recoveries=float(g.exponential(0.1 * amt)) * (g.random() < 0.85) if bad else 0.0,
                        last_pymnt_amnt=float(inst * g.uniform(0.3, 1.0)) if bad else float(inst * (g.uniform(1, 12) if g.random() < 0.4 else 1)), loan_status='Charged Off' if bad else 'Fully Paid'))
    return out

def lending_features(rows, ref, numeric):
    "Term as 0/1, grade, purpose and home ownership one-hot, the numbers standardised by the training rows (`ref`)."
    cat = np.column_stack([np.array([r[c] for r in rows])[:, None] == np.array(levels)[None] for c, levels in (('grade', LC_GRADES), ('purpose', LC_PURPOSES), ('home_ownership', LC_HOMES))])
    num, ref_num = (np.array([[r[c] for c in numeric] for r in rr], np.float64) for rr in (rows, ref))
    return np.column_stack([[r['term'] == 60 for r in rows], cat, (num - ref_num.mean(0)) / ref_num.std(0)]).astype(np.float32)

class LoanMLP(nn.Module):
    def __init__(self, d):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('AO')
def lending_club_mlp(seed, keep_payments=False):  # BCE with logits, Adam 1e-3, batches of 64; a stratified train_test_split 80/20
    """Only the columns known when the loan is granted (keep_payments: the frame's payment-history columns total_rec_prncp,
    recoveries and last_pymnt_amnt left in, the drop list written for the 2015 file's column names)."""
    from sklearn.model_selection import train_test_split
    rows = _lending(seed); y = np.array([[r['loan_status'] == 'Charged Off'] for r in rows], np.float32)
    tr, va = train_test_split(np.arange(len(rows)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    X = lending_features(rows, [rows[i] for i in tr], LC_NUMERIC + (LC_PAYMENT if keep_payments else []))
    return dict(model=lambda: LoanMLP(X.shape[1]), train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- DiffPool (Ying et al. 2018): hierarchical soft pooling of dense graphs
def _networks(seed, per_class=120, max_deg=10):
    """Three kinds of 12-24-node networks: two-community stochastic block graphs, Barabasi-Albert trees of preferential
    attachment with a few extra edges, and ring lattices (each node to its 2 neighbours either side) with rewired edges;
    node features the one-hot degree (capped at 10), as the TU datasets without attributes are usually read."""
    g = np.random.default_rng(1000 + seed * 2927); graphs = []
    for c in range(3):
        for _ in range(per_class):
            n = int(g.integers(12, 25)); A = np.zeros((n, n))
            if c == 0:
                blk = np.arange(n) < n // 2; P = np.where(blk[:, None] == blk[None], 0.45, 0.04); A = np.triu(g.random((n, n)) < P, 1).astype(float)
            elif c == 1:
                for i in range(1, n):
                    deg = A.sum(1)[:i] + 1; j = g.choice(i, p=deg / deg.sum()); A[min(i, j), max(i, j)] = 1
                for _ in range(int(g.integers(0, 4))):
                    i, j = sorted(g.choice(n, 2, replace=False)); A[i, j] = 1
            else:
                for i in range(n):
                    for k in (1, 2): A[min(i, (i + k) % n), max(i, (i + k) % n)] = 1
                for i, j in np.argwhere(np.triu(A, 1)):
                    if g.random() < 0.15: A[i, j] = 0; a, b = sorted(g.choice(n, 2, replace=False)); A[a, b] = 1
            A = np.maximum(A, A.T); np.fill_diagonal(A, 0); deg = np.minimum(A.sum(1).astype(int), max_deg)
            graphs.append((np.eye(max_deg + 1, dtype=np.float32)[deg], A.astype(np.float32), c))
    return graphs

def dense_collate(items):
    "Pads a batch of (x, adj, y) graphs to the largest: x (B, N, F), adj (B, N, N), mask (B, N), y (B,)."
    N = max(len(x) for x, _, _ in items); B = len(items); Fd = items[0][0].shape[1]
    X, A, M = torch.zeros(B, N, Fd), torch.zeros(B, N, N), torch.zeros(B, N)
    for k, (x, a, _) in enumerate(items): n = len(x); X[k, :n] = torch.from_numpy(x); A[k, :n, :n] = torch.from_numpy(a); M[k, :n] = 1
    return X, A, M, torch.tensor([y for _, _, y in items])

class DenseSAGE(nn.Module):  # PyG's DenseSAGEConv: the mean over neighbours through one linear map, the node itself through another, L2-normalised
    def __init__(self, i, o):
        super().__init__(); self.rel, self.root = nn.Linear(i, o, bias=False), nn.Linear(i, o)
    def forward(self, x, adj, mask):
        h = self.rel(adj @ x / adj.sum(-1, keepdim=True).clamp(min=1)) + self.root(x); return F.normalize(h, dim=-1) * mask[..., None]

class DiffPool(nn.Module):
    """Embedding and assignment GNNs of two SAGE layers each, one pooling to 4 clusters, a SAGE layer on the pooled graph,
    mean and max readouts, a linear classifier. functional_dropout: F.dropout(x, 0.3) written without training=self.training."""
    def __init__(self, Fd=11, h=32, k=4, n=3, functional_dropout=False):
        super().__init__(); self.fd = functional_dropout
        self.e1, self.e2, self.a1, self.a2 = DenseSAGE(Fd, h), DenseSAGE(h, h), DenseSAGE(Fd, h), DenseSAGE(h, k); self.p1 = DenseSAGE(h, h)
        self.drop = nn.Dropout(0.3); self.lin = nn.Linear(2 * h, n)
    def forward(self, x, adj, mask):
        z = F.relu(self.e2(F.relu(self.e1(x, adj, mask)), adj, mask)); s = self.a2(F.relu(self.a1(x, adj, mask)), adj, mask)
        s = torch.softmax(s, -1) * mask[..., None]; xp = s.transpose(1, 2) @ z; ap = s.transpose(1, 2) @ adj @ s
        link = (adj - s @ s.transpose(1, 2)).norm(p=2, dim=(1, 2)).mean() / adj.sum((1, 2)).clamp(min=1).sqrt().mean()
        ent = (-s * torch.log(s + 1e-15)).sum(-1).sum() / mask.sum()
        h = F.relu(self.p1(xp, ap, torch.ones(xp.shape[:2]))); h = torch.cat([h.mean(1), h.max(1).values], -1)
        h = F.dropout(h, 0.3) if self.fd else self.drop(h)
        return self.lin(h), link + ent

def diffpool_loss(out, y): logits, aux = out; return F.cross_entropy(logits, y) + aux

def _diffpool_fwd(model, b): x, adj, mask, y = b; return model(x, adj, mask), y

@healthy('AO')
def diffpool_networks(seed, functional_dropout=False):  # cross-entropy plus the auxiliary losses, Adam 1e-3, batches of 20; 300 graphs train, 60 validate
    graphs = _networks(seed); p = np.random.default_rng(seed).permutation(len(graphs)); tr, va = [graphs[i] for i in p[:300]], [graphs[i] for i in p[300:]]
    return dict(model=lambda: DiffPool(functional_dropout=functional_dropout), train=ListDataset(tr), valid=ListDataset(va), collate_fn=dense_collate,
                forward=_diffpool_fwd, loss=diffpool_loss, num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=20))

# ---------------------------------------------------------------- neural LambdaRank (Burges, Ragno and Le 2006) on LETOR-style features
def _letor(seed, queries=100, docs=15, d=20):
    """A LETOR-style file (qid, 20 features: BM25 and TF-IDF of body, title and anchor, PageRank, URL depth, in-links...,
    relevance 0-4) in the file's order within each query (unsorted); relevance from a latent match plus quality, the
    features noisy views of both. Returns features (Q, 15, 20), relevance (Q, 15) and the BM25 column's index."""
    g = np.random.default_rng(1000 + seed * 2939); Wm, Wq = g.normal(0, 1, d) * (g.random(d) < 0.6), g.normal(0, 1, d) * (g.random(d) < 0.4); Wm[0], Wq[0] = 1.5, 0.2
    X, R = [], []
    for _ in range(queries):
        m, q = g.normal(0, 1, docs) + g.normal(0, 0.5), g.normal(0, 1, docs); s = 1.1 * m + 0.6 * q + g.normal(0, 0.5, docs)
        X.append(m[:, None] * Wm + q[:, None] * Wq + g.normal(0, 0.8, (docs, d))); R.append(np.digitize(s, [0.3, 1.2, 2.0, 2.7]))
    return np.array(X, np.float32), np.array(R), 0

class Scorer(nn.Module):
    def __init__(self, d=20):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x).squeeze(-1)

def lambdarank_loss(scores, rel, sigma=1.0):  # RankNet's pairwise logistic loss over the pairs with rel_i > rel_j, each weighted by |delta NDCG| of swapping them
    gain = 2.0 ** rel - 1; order = torch.argsort(scores.detach(), -1, descending=True); rank = torch.argsort(order, -1).float()
    disc = 1 / torch.log2(rank + 2); ideal = (torch.sort(gain, -1, descending=True).values / torch.log2(torch.arange(rel.shape[-1]) + 2.0)).sum(-1, keepdim=True).clamp(min=1e-9)
    dndcg = ((gain[..., :, None] - gain[..., None, :]) * (disc[..., :, None] - disc[..., None, :])).abs() / ideal[..., None]
    pairs = (rel[..., :, None] > rel[..., None, :]).float(); ds = scores[..., :, None] - scores[..., None, :]
    return (pairs * dndcg * F.softplus(-sigma * ds)).sum() / pairs.sum().clamp(min=1)

@healthy('AO')
def lambdarank_letor(seed, sort_docs=False):  # Adam 1e-3, batches of 8 queries; 80 queries train, 20 validate
    """The features standardised per column by the training documents. sort_docs: each query's documents sorted by BM25
    (descending) before training, as the reranking code expects, with the feature rows reordered and the relevance list
    left in the file's order."""
    X, R, bm25 = _letor(seed)
    if sort_docs: X = np.stack([x[np.argsort(-x[:, bm25], kind='stable')] for x in X])
    q = np.random.default_rng(seed).permutation(len(X)); tr, va = q[:80], q[80:]
    m, s = X[tr].reshape(-1, X.shape[2]).mean(0), X[tr].reshape(-1, X.shape[2]).std(0)
    ds = lambda i: TensorDataset(_t((X[i] - m) / s), _t(R[i]))
    return dict(model=Scorer, train=ds(tr), valid=ds(va), loss=lambdarank_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=8))

# ---------------------------------------------------------------- day-ahead electricity price forecasting (an hourly DNN after Lago, De Ridder and De Schutter 2018)
def _epex(seed, days=70):
    """Hourly day-ahead prices (EUR/MWh) of a market with its day-ahead load and wind forecasts: the price a merit-order
    curve of the residual load (load minus wind) plus a persistent fuel-cost level and hourly noise, peaks in the morning
    and evening on workdays. Returns a dict of hourly columns starting on a Monday."""
    g = np.random.default_rng(1000 + seed * 2953); H = days * 24; h = np.arange(H) % 24; dow = (np.arange(H) // 24) % 7
    load = 55 + 10 * np.exp(-((h - 9) / 3.0) ** 2) + 12 * np.exp(-((h - 19) / 2.5) ** 2) - 8 * (dow >= 5) + g.normal(0, 1.5, H)
    w = np.zeros(H); lvl = np.zeros(H)
    for t in range(1, H): w[t] = 0.97 * w[t - 1] + g.normal(0, 1.3); lvl[t] = 0.995 * lvl[t - 1] + g.normal(0, 0.6)
    wind = np.clip(12 + 3 * w, 0, 40); res = load - wind; e = np.zeros(H)
    for t in range(1, H): e[t] = 0.8 * e[t - 1] + g.normal(0, 2.5)
    price = 38 + lvl + 0.9 * (res - 45) + 0.03 * np.maximum(res - 50, 0) ** 2 + e
    return dict(hour=h, dow=dow, load_fc=load + g.normal(0, 1, H), wind_fc=wind + g.normal(0, 1.5, H), price=price)

def epex_features(df, lag1=24):
    """Per hour: the price of the same hour 1, 2 and 7 days before (shift(24), shift(48), shift(168) of the hourly frame),
    the load and wind forecasts, hour and weekday as sin/cos; rows from the eighth day on. lag1 1: 'price_d1' written as
    df['price'].shift(1), the previous hour's price."""
    p = df['price']; sh = lambda k: np.concatenate([np.full(k, np.nan), p[:-k]])
    X = np.column_stack([sh(lag1), sh(48), sh(168), df['load_fc'], df['wind_fc'], np.sin(2 * np.pi * df['hour'] / 24), np.cos(2 * np.pi * df['hour'] / 24),
                         np.sin(2 * np.pi * df['dow'] / 7), np.cos(2 * np.pi * df['dow'] / 7), df['dow'] >= 5])[168:]
    return X.astype(np.float32), p[168:, None].astype(np.float32)

class PriceDNN(nn.Module):
    def __init__(self, d=10):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AO')
def epex_price_dnn(seed, hour_shift=False):  # MSE on the standardised price, Adam 1e-3, batches of 32; the last 14 days (336 hours) validate
    "The features and the price standardised by the training hours (StandardScaler each). hour_shift: the day-before lag built with shift(1)."
    X, y = epex_features(_epex(seed), lag1=1 if hour_shift else 24); tr, va = np.arange(len(y) - 336), np.arange(len(y) - 336, len(y))
    Xtr, Xva = _std(_t(X[tr]), _t(X[tr])), _std(_t(X[va]), _t(X[tr])); ytr, yva = _std(_t(y[tr]), _t(y[tr])), _std(_t(y[va]), _t(y[tr]))
    return dict(model=PriceDNN, train=TensorDataset(Xtr, ytr), valid=TensorDataset(Xva, yva), loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- DQN from a fixed replay buffer (Mnih et al. 2015's TD target, no target network) on mountain car
def _mountain_car(seed, episodes=14, max_steps=200):
    """Gym's MountainCar-v0 dynamics (force 0.001, gravity 0.0025, positions -1.2..0.6, the goal at 0.5, reward -1 a step);
    a behaviour policy that pushes with the velocity 70% of the time and acts at random otherwise. Returns per episode the
    transitions (s, a, r, s', done)."""
    g = np.random.default_rng(1000 + seed * 2963); eps = []
    for _ in range(episodes):
        pos, vel = g.uniform(-0.6, -0.4), 0.0; tr = []
        for t in range(max_steps):
            a = (2 if vel >= 0 else 0) if g.random() < 0.7 else int(g.integers(3))
            v2 = np.clip(vel + (a - 1) * 0.001 - 0.0025 * np.cos(3 * pos), -0.07, 0.07); p2 = np.clip(pos + v2, -1.2, 0.6)
            if p2 == -1.2: v2 = 0.0
            done = p2 >= 0.5; tr.append(([pos, vel], a, -1.0, [p2, v2], float(done))); pos, vel = p2, v2
            if done: break
        eps.append(tr)
    return eps

class QNet(nn.Module):  # the state scaled to about [-1, 1] (position centred on -0.3 over 0.9, velocity over 0.07), two hidden layers
    def __init__(self, h=64):
        super().__init__(); self.net = nn.Sequential(nn.Linear(2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 3))
    def forward(self, s): return self.net((s - torch.tensor([-0.3, 0.0])) / torch.tensor([0.9, 0.07]))

GAMMA = 0.95

def _dqn_fwd(model, b):  # Q(s, a) against r + gamma * max_a' Q(s', a') (0 past the goal), the target without gradient
    s, a, r, s2, done = b; q = model(s).gather(1, a[:, None])
    with torch.no_grad(): target = r + GAMMA * (1 - done) * model(s2).max(1).values
    return q, target

def _dqn_fwd_col(model, b):  # as _dqn_fwd, the max kept as a column: r, done and the target all (B, 1)
    s, a, r, s2, done = b; q = model(s).gather(1, a[:, None])
    with torch.no_grad(): target = r + GAMMA * (1 - done) * model(s2).max(1, keepdim=True).values
    return q, target

class Replay(Dataset):
    "The buffer's transitions: reward and done as stored, (N,) columns (unsqueezed: (N, 1), as Q(s, a) from gather)."
    def __init__(self, eps, column=True):
        self.s, self.a, self.r, self.s2, self.d = (np.array([t[k] for e in eps for t in e]) for k in range(5)); self.column = column
    def __len__(self): return len(self.a)
    def __getitem__(self, i):
        r, d = torch.tensor(self.r[i:i + 1], dtype=torch.float32), torch.tensor(self.d[i:i + 1], dtype=torch.float32)
        if not self.column: r, d = r[0], d[0]
        return torch.tensor(self.s[i], dtype=torch.float32), torch.tensor(self.a[i]), r, torch.tensor(self.s2[i], dtype=torch.float32), d

@healthy('AO')
def dqn_mountain_car(seed, flat_reward=False):  # the Huber loss (smooth L1), Adam 1e-3, batches of 64; 11 episodes train, the last 3 validate
    """The buffer's reward and done read as (1,) columns so that the target matches Q(s, a)'s (B, 1) (flat_reward: stored as
    scalars, the target (B,) against Q(s, a)'s (B, 1): smooth_l1_loss broadcasts them to (B, B))."""
    eps = _mountain_car(seed)
    return dict(model=QNet, train=Replay(eps[:11], not flat_reward), valid=Replay(eps[11:], not flat_reward), forward=_dqn_fwd if flat_reward else _dqn_fwd_col,
                loss=nn.SmoothL1Loss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- atomization energies from Coulomb matrices (Rupp, Tkatchenko, Mueller and von Lilienfeld 2012), QM7-like
def _qm7(seed, n=1500, max_atoms=12):
    """Small organic molecules of up to 12 atoms (C, N, O and H; heavy atoms on a bonded random walk 1.4-1.5 A apart,
    hydrogens 1.1 A off them); the atomization energy (kcal/mol, negative) a sum of bond terms by element pair and length
    plus non-bonded pair terms and noise. Returns the sorted eigenvalues of each Coulomb matrix (padded to 12 with zeros)
    and the energies."""
    g = np.random.default_rng(1000 + seed * 2969); Z_of = {'C': 6, 'N': 7, 'O': 8, 'H': 1}; E_bond = {(6, 6): -83, (6, 7): -73, (6, 8): -86, (7, 7): -60, (7, 8): -50, (8, 8): -35, (1, 6): -99, (1, 7): -93, (1, 8): -111}
    X, E = [], []
    for _ in range(n):
        heavy = int(g.integers(2, 6)); Z = [Z_of[c] for c in g.choice(['C', 'N', 'O'], heavy, p=[0.7, 0.15, 0.15])]; R = [np.zeros(3)]; bonds = []
        for i in range(1, heavy):
            j = int(g.integers(i)); v = g.normal(0, 1, 3); R.append(R[j] + v / np.linalg.norm(v) * g.uniform(1.38, 1.52)); bonds.append((j, i))
        valence = {6: 4, 7: 3, 8: 2}
        for i in range(heavy):
            free = valence[Z[i]] - sum(i in b for b in bonds)
            for _ in range(max(0, min(free, max_atoms - len(Z)))):
                v = g.normal(0, 1, 3); Z.append(1); R.append(R[i] + v / np.linalg.norm(v) * 1.09); bonds.append((i, len(Z) - 1))
        Z, R = np.array(Z, float), np.array(R); D = np.linalg.norm(R[:, None] - R[None], axis=-1)
        e = sum(E_bond[tuple(sorted((int(Z[i]), int(Z[j]))))] * (1 + 0.5 * (D[i, j] - 1.45 * (Z[j] > 1) - 1.09 * (Z[j] == 1))) for i, j in bonds)
        e += -2.0 * sum(Z[i] * Z[j] / D[i, j] ** 2 for i in range(len(Z)) for j in range(i) if (j, i) not in bonds and (i, j) not in bonds) / 10 + g.normal(0, 3)
        C = np.where(np.eye(len(Z), dtype=bool), 0.5 * Z[:, None] ** 2.4, Z[:, None] * Z[None] / np.where(np.eye(len(Z), dtype=bool), 1, D))
        ev = np.sort(np.linalg.eigvalsh(C))[::-1]; X.append(np.concatenate([ev, np.zeros(max_atoms - len(ev))])); E.append(e)
    return np.array(X, np.float32), np.array(E, np.float32)[:, None]

def _energy_net(relu_last=False, d=12, widths=(64, 64, 1)):
    "The layers built in a loop over the widths, a ReLU after each (relu_last: after the output layer too, the loop not stopping one short)."
    layers, i = [], d
    for k, o in enumerate(widths):
        layers.append(nn.Linear(i, o)); i = o
        if k < len(widths) - 1 or relu_last: layers.append(nn.ReLU())
    return nn.Sequential(*layers)

@healthy('AO')
def qm7_coulomb_mlp(seed, relu_last=False):  # L1 loss on the standardised energy, Adam 1e-3, batches of 32; train_test_split 80/20
    "The eigenvalues and the energy standardised by the training molecules (the MAE read back in kcal/mol through the energy's sd)."
    from sklearn.model_selection import train_test_split
    X, E = _qm7(seed); tr, va = train_test_split(np.arange(len(E)), test_size=0.2, random_state=seed)
    Xtr, Xva = _std(_t(X[tr]), _t(X[tr])), _std(_t(X[va]), _t(X[tr])); ytr, yva = _std(_t(E[tr]), _t(E[tr])), _std(_t(E[va]), _t(E[tr]))
    return dict(model=lambda: _energy_net(relu_last), train=TensorDataset(Xtr, ytr), valid=TensorDataset(Xva, yva), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- kingdoms from codon usage (UCI's Codon usage data set, CUTG organisms)
CODON_KINGDOMS = ['arc', 'bct', 'pln', 'inv', 'vrt', 'vrl']

def _codon_usage(seed, n=1500):
    """Rows of codon_usage.csv in the file's order (the CUTG divisions one after another): Kingdom, DNAtype, SpeciesID
    (numbered through the database, so rising with the division), Ncodons, SpeciesName and the 64 codon frequencies; each
    kingdom a GC-content range and codon preferences, each organism its own draw around them (Dirichlet), small genomes
    noisier."""
    g = np.random.default_rng(1000 + seed * 2971); k = np.sort(g.choice(6, n, p=[0.05, 0.3, 0.15, 0.15, 0.15, 0.2]))
    gc = np.array([0.5, 0.52, 0.45, 0.42, 0.47, 0.46]); pref = g.normal(0, 0.12, (6, 64)); base = np.array([[a, b, c] for a in 'UCAG' for b in 'UCAG' for c in 'UCAG'])
    nGC = np.array([sum(ch in 'GC' for ch in cod) for cod in base]); rows = []
    sid = np.cumsum(g.integers(1, 40, n)) + 100
    for i in range(n):
        gci = np.clip(g.normal(gc[k[i]], 0.07), 0.25, 0.75); logit = nGC * np.log(gci / (1 - gci)) + pref[k[i]] + g.normal(0, 0.45, 64)
        p = np.exp(logit) / np.exp(logit).sum(); nc = int(np.exp(g.normal(8, 1.5))) + 1000; f = g.dirichlet(p * min(nc, 4000))
        rows.append(dict(Kingdom=CODON_KINGDOMS[k[i]], DNAtype=int(g.random() < 0.1), SpeciesID=int(sid[i]), Ncodons=nc, freqs=np.round(f, 5)))
    return rows

class CodonMLP(nn.Module):
    def __init__(self, d=64, n=6):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, n))
    def forward(self, x): return self.net(x)

@healthy('AO')
def codon_kingdom_mlp(seed, keep_ids=False):  # cross-entropy over six kingdoms, Adam 1e-3, batches of 64; a stratified train_test_split 80/20
    """The 64 frequencies standardised by the training rows; Kingdom through a fixed class list. keep_ids: X =
    df.drop(columns=['Kingdom', 'SpeciesName']), so DNAtype, SpeciesID and Ncodons stay in among the inputs."""
    from sklearn.model_selection import train_test_split
    rows = _codon_usage(seed); y = np.array([CODON_KINGDOMS.index(r['Kingdom']) for r in rows])
    X = np.array([np.concatenate([[r['DNAtype'], r['SpeciesID'], r['Ncodons']] if keep_ids else [], r['freqs']]) for r in rows], np.float32)
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    return dict(model=lambda: CodonMLP(X.shape[1]), train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr], torch.long)), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va], torch.long)),
                num_classes=6, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- warfarin dosing (the IWPC 2009 cohort): the stable weekly dose from clinical and genetic columns
def _iwpc(seed, n=1500):
    """Patients as the IWPC's spreadsheet: age in decades (1-9), height (cm), weight (kg), race (Asian, Black, White,
    mixed/unknown), VKORC1 -1639 genotype (G/G, A/G, A/A, unknown), CYP2C9 (*1/*1 ... *3/*3, unknown), an enzyme inducer,
    amiodarone; the therapeutic dose in mg a week from the IWPC pharmacogenetic algorithm's square-root model plus the
    patient's own noise (clipped to 3.5-140 mg)."""
    g = np.random.default_rng(1000 + seed * 2977); race = g.choice(4, n, p=[0.3, 0.1, 0.55, 0.05]); age = np.clip(np.round(g.normal(6, 1.6, n)), 1, 9)
    h = g.normal(np.array([162, 171, 170, 168])[race], 10); w = np.exp(g.normal(np.log(np.array([62, 86, 82, 75])[race]), 0.2))
    vk = np.array([g.choice(4, p=pp) for pp in np.array([[.05, .2, .7, .05], [.7, .2, .03, .07], [.35, .45, .15, .05], [.3, .3, .2, .2]])[race]])
    cyp = g.choice(7, n, p=[.7, .12, .08, .01, .02, .005, .065]); ind = (g.random(n) < 0.02).astype(float); amio = (g.random(n) < 0.06).astype(float)
    s = (5.6044 - 0.2614 * age + 0.0087 * h + 0.0128 * w - np.array([0, 0.8677, 1.6974, 0.4854])[vk] - np.array([0, 0.5211, 0.9357, 1.0616, 1.9206, 2.3312, 0.2188])[cyp]
         - np.array([0.1092, 0.2760, 0, 0.1032])[race] + 1.1816 * ind - 0.5503 * amio + g.normal(0, 0.75, n))
    X = np.column_stack([age, h, w, np.eye(4)[race], np.eye(4)[vk], np.eye(7)[cyp], ind, amio]).astype(np.float32)
    return X, np.clip(s ** 2, 3.5, 140).astype(np.float32)[:, None]

class DoseMLP(nn.Module):
    def __init__(self, d=20):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

def _dose_step(zero_grad_first=True):
    def dose_step(model, batch, opt):  # the author's loop body: forward, MSE, backward, step
        x, y = batch; loss = F.mse_loss(model(x), y)
        if zero_grad_first: opt.zero_grad(); loss.backward(); opt.step()
        else: loss.backward(); opt.zero_grad(); opt.step()  # zero_grad moved below backward when the logging lines were added
        return loss
    return dose_step

@healthy('AO')
def warfarin_dose_mlp(seed, zero_grad_first=True):  # MSE in mg a week, Adam 3e-3, batches of 32; train_test_split 80/20, a custom step
    "Age, height and weight standardised by the training patients, the one-hot columns as they are; the dose in mg a week as the spreadsheet gives it."
    from sklearn.model_selection import train_test_split
    X, y = _iwpc(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed); X = X.copy()
    m, s = X[tr, :3].mean(0), X[tr, :3].std(0); X[:, :3] = (X[:, :3] - m) / s
    return dict(model=DoseMLP, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.MSELoss(), step=_dose_step(zero_grad_first),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- xDeepFM (Lian et al. 2018) on a display-ad log, with historical click-through rates
AD_FIELDS = dict(user=100, ad=40, category=10, hour=24, device=4, site=30)

def _ad_log(seed, n=3000):
    """Impressions in time order over seven days (the first three a history period, days 4-6 training, day 7 validating):
    users with their own propensity to click and their category tastes, ads with their own appeal, the hour, device and site;
    about 17% clicks."""
    g = np.random.default_rng(1000 + seed * 2983); U, A = AD_FIELDS['user'], AD_FIELDS['ad']
    u_bias, a_bias, a_cat, taste = g.normal(0, 0.9, U), g.normal(0, 0.6, A), g.integers(0, 10, A), g.normal(0, 1, (U, 10))
    site_b, dev_b = g.normal(0, 0.4, 30), np.array([0.2, 0, -0.3, 0.1])
    u = g.integers(0, U, n); a = g.integers(0, A, n); hr = g.integers(0, 24, n); dev = g.choice(4, n, p=[.5, .3, .1, .1]); site = g.integers(0, 30, n)
    z = -2.0 + u_bias[u] + a_bias[a] + 0.7 * taste[u, a_cat[a]] + site_b[site] + dev_b[dev] + 0.3 * np.sin(2 * np.pi * hr / 24) + g.normal(0, 0.3, n)
    click = (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32); day = np.sort(g.integers(0, 7, n))
    return dict(user=u, ad=a, category=a_cat[a], hour=hr, device=dev, site=site, click=click, day=day)

def historical_ctr(log, key, rows, prior=5):
    "The smoothed click-through rate of each row's `key` (user or ad) over the log rows `rows`: (clicks + prior * mean) / (shows + prior)."
    c, k = log['click'][rows], log[key][rows]; mean = c.mean(); K = AD_FIELDS[key]
    clicks, shows = np.bincount(k, c, K), np.bincount(k, None, K); return ((clicks + prior * mean) / (shows + prior))[log[key]].astype(np.float32)

class CIN(nn.Module):  # the compressed interaction network: layer k's maps from the outer products of the previous layer with the field embeddings
    def __init__(self, m, sizes=(8, 8)):
        super().__init__(); self.convs = nn.ModuleList(); h = m
        for s in sizes: self.convs.append(nn.Conv1d(h * m, s, 1)); h = s
    def forward(self, x0):
        B, m, D = x0.shape; xk, out = x0, []
        for conv in self.convs: z = torch.einsum('bhd,bmd->bhmd', xk, x0).reshape(B, -1, D); xk = F.relu(conv(z)); out.append(xk.sum(-1))
        return torch.cat(out, 1)

class XDeepFM(nn.Module):
    def __init__(self, fields=AD_FIELDS, D=8, dense=2):
        super().__init__(); self.names = list(fields)
        self.emb = nn.ModuleDict({f: nn.Embedding(k, D) for f, k in fields.items()}); self.lin = nn.ModuleDict({f: nn.Embedding(k, 1) for f, k in fields.items()})
        for e in [*self.emb.values(), *self.lin.values()]: nn.init.normal_(e.weight, std=1e-4)  # DeepCTR's init_std
        self.cin = CIN(len(fields)); self.dnn = nn.Sequential(nn.Linear(len(fields) * D + dense, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.dense_lin = nn.Linear(dense, 1); self.out = nn.Linear(16 + 16, 1)
    def forward(self, fields, dense):
        e = torch.stack([self.emb[f](fields[:, i]) for i, f in enumerate(self.names)], 1); lin = sum(self.lin[f](fields[:, i]) for i, f in enumerate(self.names))
        return lin + self.dense_lin(dense) + self.out(torch.cat([self.cin(e), self.dnn(torch.cat([e.flatten(1), dense], 1))], 1))

def _xdeepfm_fwd(model, b): return model(b['fields'], b['dense']), b['click']

@healthy('AO')
def xdeepfm_ad_log(seed, ctr_over_all=False):  # BCE with logits, Adam 1e-3, batches of 64; days 4-6 train, day 7 validates
    """The user's and the ad's historical CTR (logit-transformed) from the history period, days 1-3, only (ctr_over_all:
    log.groupby('user')['click'].mean() over the whole log, the validation day and each impression's own click included)."""
    log = _ad_log(seed); hist, tr, va = (np.flatnonzero(log['day'] < 3), np.flatnonzero((log['day'] >= 3) & (log['day'] < 6)), np.flatnonzero(log['day'] == 6))
    ref = np.arange(len(log['click'])) if ctr_over_all else hist
    dense = np.column_stack([historical_ctr(log, 'user', ref), historical_ctr(log, 'ad', ref)]); dense = np.log(dense / (1 - dense))
    fields = np.column_stack([log[f] for f in AD_FIELDS])
    items = lambda idx: ListDataset([dict(fields=torch.tensor(fields[i]), dense=_t(dense[i]), click=_t(log['click'][i:i + 1])) for i in idx])
    return dict(model=XDeepFM, train=items(tr), valid=items(va), forward=_xdeepfm_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- MiniBooNE particle identification (Roe et al. 2005, UCI): electron- against muon-neutrino events
def _miniboone(seed, n=1500, d=50):
    """Events of MiniBooNE_PID.txt: 50 particle-ID variables (ring sharpness, time profiles, charge ratios: heavy-tailed,
    on scales from 0.01 to thousands), about 28% signal (electron neutrinos); signal and background differ in a few latent
    shower-shape factors that the variables mix."""
    g = np.random.default_rng(1000 + seed * 2999); sig = g.random(n) < 0.28; L = g.normal(0, 1, (n, 6)); L[sig, :3] += np.array([1.1, -0.8, 0.6])
    M = g.normal(0, 1, (6, d)) * (g.random((6, d)) < 0.5); scale = np.exp(g.uniform(-4, 7, d)); off = g.normal(0, 2, d) * scale
    X = (L @ M + g.standard_t(4, (n, d)) * 0.8) * scale + off
    return X.astype(np.float32), sig.astype(np.float32)[:, None]

class PIDNet(nn.Module):
    "Dense 64, 32, one output (keras_output_sigmoid: the Keras model's Dense(1, activation='sigmoid') kept in the port)."
    def __init__(self, d=50, keras_output_sigmoid=False):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1), *([nn.Sigmoid()] if keras_output_sigmoid else []))
    def forward(self, x): return self.net(x)

@healthy('AO')
def miniboone_pid_mlp(seed, keras_output_sigmoid=False):  # BCE with logits, Adam 1e-3, batches of 64; a stratified train_test_split 80/20; StandardScaler
    from sklearn.model_selection import train_test_split
    X, y = _miniboone(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    return dict(model=lambda: PIDNet(keras_output_sigmoid=keras_output_sigmoid), train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr])),
                valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va])), loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AO
@broken('AO', 'tox21_nan_labels_unmasked', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def tox21_nan_labels_unmasked(seed): return tox21_multitask(seed, mask=False)  # the NaN of assays not run into BCEWithLogitsLoss: a NaN loss at the first batch

@broken('AO', 'sepsis_hours_split_at_random', 1, ('leakage',))
def sepsis_hours_split_at_random(seed):  # train_test_split over the hourly windows: each validation patient's other hours in training
    "groups declared: the patient, as its healthy twin."
    return sepsis_gru(seed, split_hours=True)

@broken('AO', 'lending_payment_columns_kept', 4, ('leakage',))
def lending_payment_columns_kept(seed): return lending_club_mlp(seed, keep_payments=True)  # principal received, recoveries and the last payment: the loan's outcome

@broken('AO', 'diffpool_functional_dropout_in_eval', 1, ('eval_mode',), ('warn', 'fail'))
def diffpool_functional_dropout_in_eval(seed): return diffpool_networks(seed, functional_dropout=True)  # F.dropout(h, 0.3) defaults to training=True

@broken('AO', 'lambdarank_docs_sorted_labels_not', 4, ('labels',))
def lambdarank_docs_sorted_labels_not(seed): return lambdarank_letor(seed, sort_docs=True)  # the feature rows sorted by BM25, the relevances in file order

@broken('AO', 'epex_day_lag_as_hour_shift', 4, ('leakage',))
def epex_day_lag_as_hour_shift(seed): return epex_price_dnn(seed, hour_shift=True)  # shift(1) on the hourly frame: the previous hour's price, unknown at the day-ahead auction

@broken('AO', 'dqn_reward_not_a_column', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def dqn_reward_not_a_column(seed): return dqn_mountain_car(seed, flat_reward=True)  # the TD target (B,) against Q(s, a) (B, 1)

@broken('AO', 'qm7_relu_after_output', 3, ('not_falling', 'flat', 'stuck'))
def qm7_relu_after_output(seed): return qm7_coulomb_mlp(seed, relu_last=True)  # outputs clamped at 0: the standardised energies below the mean out of reach

@broken('AO', 'codon_species_id_kept', 4, ('leakage',))
def codon_species_id_kept(seed): return codon_kingdom_mlp(seed, keep_ids=True)  # SpeciesID numbered through the database's divisions, in order

@broken('AO', 'warfarin_zero_grad_after_backward', (1, 3), ('frozen', 'not_updating', 'flat', 'stuck', 'lr_zero'))
def warfarin_zero_grad_after_backward(seed): return warfarin_dose_mlp(seed, zero_grad_first=False)  # the gradients cleared between backward and step

@broken('AO', 'xdeepfm_ctr_over_whole_log', 4, ('leakage',))
def xdeepfm_ctr_over_whole_log(seed): return xdeepfm_ad_log(seed, ctr_over_all=True)  # the validation day's clicks, each impression's own among them, inside the CTR features

@broken('AO', 'miniboone_keras_sigmoid_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def miniboone_keras_sigmoid_into_bce_with_logits(seed): return miniboone_pid_mlp(seed, keras_output_sigmoid=True)  # a sigmoid, then the loss's own sigmoid

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256; valid loss and a metric (AUC;
# Tox21 the mean AUC over the assays on the labels present; accuracy; R^2 on the standardised target, for warfarin in mg a
# week; NDCG@10; for the DQN the TD loss alone), init -> the epoch named; s/ep the seconds of an epoch of training, params the
# trainable ones. Every factory builds and runs its batches (forward, loss, backward, step); `ladder_gallery.HALF` holds 24
# programs of half AO. Seed 1 in brackets.
CHECKS = """
tox21_multitask                       valid masked BCE 0.70 -> 0.44 (ep 8) -> 0.34 (ep 16), mean AUC 0.51 -> 0.77 (ep 8) -> 0.86
                                      (ep 16) [0.70 -> 0.42, 0.77 at ep 8]; 1200 molecules train, 300 validate; 21k params; 0.05 s/ep
sepsis_gru                            groups declared; valid BCE 0.64 -> 0.24 (ep 4) -> 0.38 (ep 8, overconfident), AUC 0.61 -> 0.93
                                      (ep 8) [0.78 -> 0.30, 0.91]; 51 patients (1469 windows) train, 13 validate, none on both
                                      sides; 4.4k params; 0.13-0.23 s/ep
lending_club_mlp                      valid BCE 0.64 -> 0.47 (ep 8), AUC 0.71 [0.78 -> 0.48, 0.62]; about 15% charged off; 1200
                                      loans train, 300 validate; 1.4k params; 0.03 s/ep
diffpool_networks                     valid loss (CE + link + entropy) 3.34 -> 2.68 (ep 8), accuracy 0.32 -> 0.93 [3.33 -> 2.76,
                                      0.82]; 300 graphs train, 60 validate; 6.1k params; 0.1-0.16 s/ep
lambdarank_letor                      valid NDCG@10 0.18 -> 0.91 (ep 4) -> 0.92 (ep 8) [0.20 -> 0.89], the lambda-weighted loss
                                      0.037 -> 0.015 (not monotone: the weights move with the ranking); 80 queries train, 20
                                      validate; 1.2k params; 0.02 s/ep
epex_price_dnn                        valid MSE (standardised price) 0.60 -> 0.21 (ep 8), R^2 0.62 [0.83 -> 0.12, 0.86]; 1176 hours
                                      train, the last 336 validate; 2.8k params; 0.04-0.07 s/ep
dqn_mountain_car                      valid TD loss (Huber) 0.44 -> 0.066 (ep 2) -> 0.055 (ep 4) -> 0.086 (ep 8, the targets moving
                                      with Q) [0.27 -> 0.066 -> 0.13]; 11 episodes (1731 transitions) train, 3 (508) validate;
                                      4.5k params; 0.13-0.21 s/ep
qm7_coulomb_mlp                       valid L1 (standardised energy) 0.59 -> 0.12 (ep 8), R^2 0.89 [0.86 -> 0.19, 0.90]; 1200
                                      molecules train, 300 validate; 5.1k params; 0.05-0.08 s/ep (the factory 0.5-0.8 s)
codon_kingdom_mlp                     valid CE 1.77 -> 0.75 (ep 8) -> 0.66 (ep 12-16), accuracy 0.27 -> 0.75 [1.76 -> 0.92, 0.68 at
                                      ep 8]; 1200 organisms train, 300 validate; 6.4k params; 0.03-0.05 s/ep
warfarin_dose_mlp                     valid MSE (mg/week squared) 1075 at init (outputs near 0, doses near 30) -> 200 (ep 2) -> 71
                                      (ep 8), R^2 0.56 [1061 -> 66, 0.66]; 1200 patients train, 300 validate; 1.2k params;
                                      0.03-0.08 s/ep
xdeepfm_ad_log                        valid BCE 0.46 -> 0.44 (ep 8), AUC 0.68 -> 0.71 [0.51 -> 0.43, 0.63 -> 0.73]; about 17% clicks;
                                      days 4-6 (1249 impressions) train, day 7 (432) validates; 4.8k params; 0.1-0.19 s/ep
miniboone_pid_mlp                     valid BCE 0.74 -> 0.41 (ep 4-8), AUC 0.86 [0.70 -> 0.39, 0.88]; 1200 events train, 300
                                      validate; 5.4k params; 0.03 s/ep
tox21_nan_labels_unmasked             valid and training loss NaN from the first batch, both seeds (17% of the labels NaN)
sepsis_hours_split_at_random          groups declared; every validation patient also in training [the same]; valid BCE 0.13 (ep 8),
                                      AUC 0.975 [0.15, 0.97] (healthy 0.38, 0.93 [0.30, 0.91]), still improving where the healthy
                                      one overfits
lending_payment_columns_kept          valid BCE 0.28 (ep 8), AUC 0.955 [0.26, 0.94] (healthy 0.47, 0.71 [0.48, 0.62])
diffpool_functional_dropout_in_eval   dropout active in evaluation: valid accuracy 0.90 (ep 8) [0.82] (healthy 0.93 [0.82]), the
                                      outputs of model.eval() differing from call to call
lambdarank_docs_sorted_labels_not     valid NDCG@10 0.44-0.49 from ep 1 to 8 [0.40-0.42] (chance; healthy 0.92 [0.89])
epex_day_lag_as_hour_shift            valid MSE 0.11 (ep 4-8), R^2 0.80 [0.083, 0.90] (healthy 0.21, 0.62 [0.12, 0.86])
dqn_reward_not_a_column               every Q(s, a) scored against every target of the batch; valid loss (broadcast) 0.44 -> 0.07-0.15
                                      (ep 2-8) [0.27 -> 0.07-0.14]: the loss alone does not show it, Q fits the batch's mean target
qm7_relu_after_output                 valid L1 0.59 -> 0.31 (ep 8), R^2 0.64 [0.86 -> 0.49, 0.52] (healthy 0.12, 0.89 [0.19, 0.90]):
                                      outputs below 0 unreachable, the energies above the mean fitted
codon_species_id_kept                 valid CE 0.52 (ep 8) -> 0.33 (ep 16), accuracy 0.84 -> 0.88 [0.64, 0.77 at ep 8] (healthy 0.66,
                                      0.74-0.75 [0.92, 0.68]), still rising as the net learns the ID's thresholds
warfarin_zero_grad_after_backward     the parameters never change (Adam skips the cleared gradients): valid MSE 1075 at every epoch
                                      [1061]
xdeepfm_ctr_over_whole_log            valid AUC 0.795 at init -> 0.79 (ep 4) -> 0.75 (ep 8) [0.66 -> 0.73 -> 0.74] (healthy 0.68 ->
                                      0.69 -> 0.71 [0.63 -> 0.68 -> 0.73]), the CTR features scoring the day's own clicks
miniboone_keras_sigmoid_into_bce_with_logits valid BCE 0.85 -> 0.67 (ep 4-8, floored by the doubled sigmoid), AUC 0.87 [0.83 ->
                                      0.67, 0.88] (healthy 0.41 [0.39])
"""
