"""Half AQ of the ladder's gallery: held out from the rules frozen at 24b9737 (round 54), and run once on them.
Families not in halves A-AO, taken only from tabular data and business/finance, science and engineering, graphs, recommender
systems and ranking, time series and forecasting, and RL-style supervised models (a half written alongside took other
domains): decentral smart grid stability (Arzamasov, Boehm and Jochem 2018, UCI's Electrical Grid Stability Simulated Data:
the reaction times, powers and price elasticities of a four-node star, stabf from the sign of stab; an MLP, BCE with
logits; stab dropped with the label); heart failure survival (Chicco and Jurman 2020's clinical records: age, anaemia, CPK,
diabetes, ejection fraction, high blood pressure, platelets, serum creatinine, sodium, sex, smoking; an MLP with dropout,
BCE with logits on DEATH_EVENT; the follow-up time dropped as known only afterwards); aftershock patterns (DeVries et al.
2018: the absolute values of the six stress-change components and their negatives in 5 km cells around each mainshock, a
tanh MLP, BCE with logits, Adadelta; mainshocks split with GroupShuffleSplit); TiDE (Das et al. 2023: residual dense
blocks, a covariate projection, a dense encoder and decoder, a temporal decoder per horizon step and a global linear
residual; MSE on per-store standardised sales; a batch of four tensors and a forward of its own) forecasting a week of
daily store sales from four weeks with promotions known ahead, split in time; JK-Net (Xu et al. 2018: three GCN layers
whose outputs are concatenated, jumping knowledge, into a linear layer; BCE with logits over twelve functions) on
PPI-style protein interaction graphs, whole graphs validating, the labels read from a class_map.json keyed by node id;
Buchwald-Hartwig yields (Ahneman et al. 2018's 15 aryl halides x 4 ligands x 3 bases x 23 additives, one-hot as Chuang
and Keiser's baseline; an MLP, MSE on yield / 100); a reward model from preferences (Christiano et al. 2017: an MLP
r(s, a) summed over each 20-step segment, the Bradley-Terry cross-entropy over the pair; a batch of three tensors and a
forward of its own) of point-mass trajectories judged by a synthetic annotator; ESMM (Ma et al. 2018: shared field
embeddings, a CTR tower and a CVR tower, pCTCVR = pCTR x pCVR, BCE on click and on click-and-buy over every impression;
dict items, a tuple output and a loss of its own), split in time; value iteration networks (Tamar et al. 2016, as
kentsommer's pytorch-value-iteration-networks: a reward map from the grid by two convolutions, K=12 value-iteration steps
by a convolution and a max over channels, the Q values at the agent's cell into eight move logits; RMSprop 2e-3; a batch
of four tensors and a forward of its own) imitating shortest-path moves on 8 x 8 gridworlds, unseen maps validating;
battery cycle life from early cycles (Severson et al. 2019: log variance and minimum of Delta Q_100-10(V), its skewness
and kurtosis, capacity and fade features, charge time, resistance and temperature of the first 100 cycles; an MLP on
log10 cycle life, StandardScaler; cells with a missing cycle dropped); option pricing by a learning network (Hutchinson,
Lo and Poggio 1994: C/K from S/K and time to expiry by a small sigmoid MLP, MSE; a custom step as the author's loop) on
quotes simulated under Black-Scholes with bid-ask noise, Adam 1e-2; and CGCNN (Xie and Grossman 2018: Gaussian-expanded neighbour
distances, gated convolutions with batch norm and softplus, mean pooling per crystal; MSE on the standardised formation
energy, SGD 0.01 with momentum as its defaults; collate_pool's batch of six tensors with neighbour and pooling indices
offset per crystal, a forward of its own) on small synthetic crystals.
At most 1540 training items a program (VIN's states; 1200 rows or fewer elsewhere, JK-Net's 10 graphs, TiDE's 1008
windows) and 64k trainable parameters (TiDE; 13k or fewer elsewhere); an epoch of a plain loop 0.01-0.35 s on one busy
core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AO.

Protocol: written by a helper in a worktree at b0f162a (branch halfAQ), held out from the rules frozen at 24b9737 (round 54;
the maintainer records the freeze hash). The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*,
nbs/03*), bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on
these programs (no ntrain.ladder call, no bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's
head, helpers and tail (the import lines and its section headers), half AO whole, the module docstrings of the other halves,
the @broken lines of all of them (for the rung and cause conventions and the families taken; greps of the halves for
candidate family names showed a few of their lines), ladder_sweep.py's --half line (a grep for 'half' showed a few more
of its lines), and the signature and docstring of `ntrain.ladder` via help(). Each program was checked by hand only with a
plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant),
seeds 0 and 1. No program declares groups. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half AQ`; no program changes after the run starts.

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

# ---------------------------------------------------------------- decentral smart grid stability (Arzamasov et al. 2018, UCI): a four-node star, stable or not
GRID_COLUMNS = ['tau1', 'tau2', 'tau3', 'tau4', 'p1', 'p2', 'p3', 'p4', 'g1', 'g2', 'g3', 'g4', 'stab']

def _grid_stability(seed, n=1500):
    """Rows of Data_for_UCI_named.csv: reaction times tau 0.5-10 s, the consumers' powers p2-p4 in [-2, -0.5] and the
    producer's p1 their negated sum, price elasticities g 0.05-1; stab the largest real part of the linearised system's
    roots (a smooth function of the twelve inputs here: slow reactions with strong elasticity destabilise, the producer's
    and the consumers' alike), stabf 'unstable' where stab > 0 (about 60%)."""
    g = np.random.default_rng(1000 + seed * 3001)
    tau = g.uniform(0.5, 10, (n, 4)); pc = g.uniform(-2, -0.5, (n, 3)); p = np.column_stack([-pc.sum(1), pc]); gam = g.uniform(0.05, 1, (n, 4))
    load = tau * gam * (0.6 + 0.4 * np.abs(p) / np.abs(p).mean(1, keepdims=True))
    stab = 0.035 * np.tanh(load.mean(1) / 1.6 - 1.05 + 0.25 * (load[:, 0] - load[:, 1:].mean(1)) / 2 + 0.15 * np.sin(tau[:, 0] / 2) * gam[:, 1:].mean(1)) + 0.004 * (gam.max(1) - 0.5)
    X = np.column_stack([tau, p, gam, stab]).astype(np.float32)
    return X, np.where(stab > 0, 'unstable', 'stable')

class GridMLP(nn.Module):
    def __init__(self, d=12):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 24), nn.ReLU(), nn.Linear(24, 12), nn.ReLU(), nn.Linear(12, 1))
    def forward(self, x): return self.net(x)

@healthy('AQ')
def grid_stability_mlp(seed, keep_stab=False):  # BCE with logits, Adam 1e-3, batches of 32; a stratified train_test_split 80/20, StandardScaler
    """X = df.drop(columns=['stab', 'stabf']); y = stabf == 'unstable' (keep_stab: df.drop(columns=['stabf']), the
    continuous stab the label was thresholded from left among the inputs)."""
    from sklearn.model_selection import train_test_split
    X, lab = _grid_stability(seed); y = (lab == 'unstable').astype(np.float32)[:, None]
    if not keep_stab: X = X[:, :12]
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    return dict(model=lambda: GridMLP(X.shape[1]), train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr])), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va])),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- heart failure survival (Chicco and Jurman 2020): clinical records, DEATH_EVENT
HF_COLUMNS = ['age', 'anaemia', 'creatinine_phosphokinase', 'diabetes', 'ejection_fraction', 'high_blood_pressure', 'platelets',
              'serum_creatinine', 'serum_sodium', 'sex', 'smoking', 'time']

def _heart_failure(seed, n=1500):
    """heart_failure_clinical_records_dataset.csv's columns (the 2015 Faisalabad cohort, 299 patients, here 1500 drawn
    alike): death more likely with age, low ejection fraction, high serum creatinine, low sodium, anaemia and high blood
    pressure (about a third die); time the follow-up in days, short for the patients who died (most within three months),
    4-285 days for the survivors as the study ran on."""
    g = np.random.default_rng(1000 + seed * 3011)
    age = np.clip(np.round(g.normal(61, 12, n)), 40, 95); anaemia = g.random(n) < 0.43; cpk = np.round(np.exp(g.normal(5.8, 1.0, n)))
    diab = g.random(n) < 0.42; ef = np.clip(np.round(g.normal(38, 11.8, n)), 14, 80); hbp = g.random(n) < 0.35
    plat = np.clip(g.normal(263000, 97000, n), 25000, 850000); crea = np.clip(np.exp(g.normal(0.2, 0.35, n)), 0.5, 9.4)
    na = np.clip(np.round(g.normal(136.6, 4.4, n)), 113, 148); sex = g.random(n) < 0.65; smoke = (g.random(n) < 0.32) & sex | (g.random(n) < 0.05)
    z = -0.9 + 0.045 * (age - 61) - 0.065 * (ef - 38) + 1.6 * np.log(crea / 1.2) - 0.07 * (na - 136.6) + 0.25 * anaemia + 0.3 * hbp + g.normal(0, 0.6, n)
    death = g.random(n) < 1 / (1 + np.exp(-z))
    time = np.where(death, np.clip(np.round(g.gamma(1.3, 35, n)) + 4, 4, 241), np.where(g.random(n) < 0.12, g.integers(4, 120, n), g.integers(60, 286, n)))
    X = np.column_stack([age, anaemia, cpk, diab, ef, hbp, plat, crea, na, sex, smoke, time]).astype(np.float32)
    return X, death.astype(np.float32)[:, None]

class HeartMLP(nn.Module):
    def __init__(self, d=11):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('AQ')
def heart_failure_mlp(seed, keep_time=False):  # BCE with logits, Adam 1e-3, batches of 32; a stratified train_test_split 80/20, StandardScaler
    """X = df.drop(columns=['DEATH_EVENT', 'time']) (keep_time: only DEATH_EVENT dropped, the follow-up period, which ends
    at the death, kept as a feature)."""
    from sklearn.model_selection import train_test_split
    X, y = _heart_failure(seed)
    if not keep_time: X = X[:, :11]
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    return dict(model=lambda: HeartMLP(X.shape[1]), train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr])), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va])),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- aftershock patterns (DeVries, Viegas, Wattenberg and Meade 2018): stress changes to aftershock cells
def _aftershocks(seed, events=12, side=11):
    """Per mainshock an 11 x 11 grid of 5 km cells around the rupture: the six independent components of the static
    stress-change tensor (a dipole-like field of the slip in the fault's own frame, the event's strike, size and depth
    setting its orientation and scale, plus the slip model's noise); a cell has aftershocks more likely under strong
    shear (log of the stress norm), each event with its own productivity and a smooth patch of its own (the fault
    zone's heterogeneity). Returns features (12: |sigma_k| and -|sigma_k|), labels, the event of each cell."""
    g = np.random.default_rng(1000 + seed * 3019); X, y, ev = [], [], []
    c = (np.arange(side) - (side - 1) / 2) / (side / 2); cx, cy = np.meshgrid(c, c, indexing='ij'); cx, cy = cx.ravel(), cy.ravel()
    for e in range(events):
        th = g.uniform(0, np.pi); M = 10 ** g.uniform(-0.6, 0.6); dep = g.uniform(0.1, 0.4); prod = g.normal(0, 0.8)
        u, v = np.cos(th) * cx + np.sin(th) * cy, -np.sin(th) * cx + np.cos(th) * cy; r2 = u ** 2 + v ** 2 + dep ** 2; r = np.sqrt(r2)
        S = M * np.column_stack([u * v / r2 ** 1.5, (u ** 2 - v ** 2) / r2 ** 1.5 / 2, v * dep / r2 ** 1.5, u * dep / r2 ** 1.5, v * u ** 2 / r2 ** 2, (1 / r - 1.2) / r2 * 0.3])
        S = S * np.exp(g.normal(0, 0.25, S.shape))
        bumps = sum(g.normal(0, 0.8) * np.exp(-((cx - g.uniform(-1, 1)) ** 2 + (cy - g.uniform(-1, 1)) ** 2) / 0.3) for _ in range(3))
        z = -2.2 + 3.0 * np.log1p(np.sqrt((S ** 2).sum(1))) + prod + bumps + g.normal(0, 0.3, len(cx))
        X.append(np.column_stack([np.abs(S), -np.abs(S)])); y.append(g.random(len(cx)) < 1 / (1 + np.exp(-z))); ev.append(np.full(len(cx), e))
    return np.concatenate(X).astype(np.float32), np.concatenate(y).astype(np.float32)[:, None], np.concatenate(ev)

class AftershockNet(nn.Module):  # the paper's six tanh layers of 50 shrunk to three
    def __init__(self, d=12, h=50):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Dropout(0.5), nn.Linear(h, 1))
    def forward(self, x): return self.net(x)

@healthy('AQ')
def aftershock_stress_mlp(seed, split_cells=False):  # BCE with logits, Adadelta 1.0, batches of 64; GroupShuffleSplit over the mainshocks, a fifth validating
    """The features standardised by the training cells. split_cells: train_test_split over the grid cells, so every
    mainshock's cells sit on both sides."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, y, ev = _aftershocks(seed)
    if split_cells: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=ev))
    return dict(model=AftershockNet, train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr])), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va])),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adadelta(p, lr=1.0), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- TiDE (Das et al. 2023): a dense encoder-decoder forecasting a week of store sales
def _store_sales(seed, stores=8, days=200):
    """Daily sales of eight stores: each its own level, trend and weekday profile, promotions (planned, so known ahead) on
    about 15% of days lifting sales, AR(1) noise. Returns sales (stores, days) and covariates (days, 3): day of week as
    sin and cos and the store's promotion flag (stores, days)."""
    g = np.random.default_rng(1000 + seed * 3023); t = np.arange(days); dow = t % 7
    level = g.uniform(80, 300, stores); prof = 1 + g.normal(0, 0.15, (stores, 7)); prof[:, 5:] += g.uniform(0.1, 0.4, (stores, 1))
    promo = (g.random((stores, days)) < 0.15).astype(np.float32); lift = g.uniform(0.2, 0.5, stores)
    e = np.zeros((stores, days))
    for k in range(1, days): e[:, k] = 0.7 * e[:, k - 1] + g.normal(0, 0.06, stores)
    sales = level[:, None] * (1 + g.normal(0, 0.001, stores)[:, None] * t) * prof[np.arange(stores)[:, None], dow] * (1 + lift[:, None] * promo) * np.exp(e)
    return sales.astype(np.float32), np.column_stack([np.sin(2 * np.pi * dow / 7), np.cos(2 * np.pi * dow / 7)]).astype(np.float32), promo

class ResBlock(nn.Module):  # TiDE's residual block: dense, ReLU, dense, dropout, plus a linear skip, layer norm
    def __init__(self, i, h, o, p=0.1):
        super().__init__(); self.f = nn.Sequential(nn.Linear(i, h), nn.ReLU(), nn.Linear(h, o), nn.Dropout(p)); self.skip = nn.Linear(i, o); self.ln = nn.LayerNorm(o)
    def forward(self, x): return self.ln(self.f(x) + self.skip(x))

class TiDE(nn.Module):
    def __init__(self, L=28, H=7, c=3, cp=4, stores=8, se=4, h=64, dd=8):
        super().__init__(); self.H, self.dd = H, dd
        self.proj = ResBlock(c, 16, cp); self.static = nn.Embedding(stores, se)
        self.enc = nn.Sequential(ResBlock(L + (L + H) * cp + se, h, h), ResBlock(h, h, h)); self.dec = nn.Sequential(ResBlock(h, h, h), ResBlock(h, h, H * dd))
        self.tdec = ResBlock(dd + cp, 16, 1); self.lin = nn.Linear(L, H)
    def forward(self, past, cov, sid):
        pc = self.proj(cov); B = past.shape[0]
        e = self.enc(torch.cat([past, pc.flatten(1), self.static(sid)], 1)); d = self.dec(e).view(B, self.H, self.dd)
        return self.tdec(torch.cat([d, pc[:, -self.H:]], -1)).squeeze(-1) + self.lin(past)

def _tide_fwd(model, b): past, cov, sid, y = b; return model(past, cov, sid), y

@healthy('AQ')
def tide_store_sales(seed, random_windows=False, L=28, H=7, cut=160):  # MSE on standardised sales, Adam 1e-3, batches of 64
    """Each store's sales standardised by its days before the cut (day 160); windows of 28 days with the next 7 as the
    target, the covariates over all 35 days; windows whose horizon ends before the cut train, those forecasting from the
    cut on validate. random_windows: every window of the series cut first and then train_test_split at random (shuffled),
    so the validation weeks sit inside the training windows' lookbacks and horizons."""
    from sklearn.model_selection import train_test_split
    sales, cal, promo = _store_sales(seed); S, D = sales.shape
    m, s = sales[:, :cut].mean(1, keepdims=True), sales[:, :cut].std(1, keepdims=True); z = (sales - m) / s
    P, C, I, Y, T0 = [], [], [], [], []
    for k in range(S):
        for t0 in range(L, D - H + 1):
            P.append(z[k, t0 - L:t0]); C.append(np.column_stack([cal[t0 - L:t0 + H], promo[k, t0 - L:t0 + H]])); I.append(k); Y.append(z[k, t0:t0 + H]); T0.append(t0)
    P, C, I, Y, T0 = np.array(P), np.array(C), np.array(I), np.array(Y), np.array(T0)
    if random_windows: tr, va = train_test_split(np.arange(len(Y)), test_size=0.2, random_state=seed)
    else: tr, va = np.flatnonzero(T0 + H <= cut), np.flatnonzero(T0 >= cut)
    ds = lambda i: TensorDataset(_t(P[i]), _t(C[i]), torch.tensor(I[i]), _t(Y[i]))
    return dict(model=TiDE, train=ds(tr), valid=ds(va), forward=_tide_fwd, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- JK-Net (Xu et al. 2018) on PPI-style protein interaction graphs: multi-label node functions
def _ppi(seed, graphs=12, d=50, labels=12):
    """GraphSAGE's PPI layout: one graph a tissue; node ids global over the graphs (graph k's nodes numbered after graph
    k-1's); ppi-feats.npy rows in node-id order; ppi-class_map.json a dict {str(id): [12 labels]}. Proteins of six
    complexes a graph, edges mostly within a complex; a protein's functions from its own latent profile and its
    partners' (so the neighbourhood helps), the features noisy positional-gene-set views of the profile."""
    g = np.random.default_rng(1000 + seed * 3037); W = g.normal(0, 1, (labels, d)) * (g.random((labels, d)) < 0.3); out = []; base = 0
    for _ in range(graphs):
        n = int(g.integers(80, 121)); comm = g.integers(0, 6, n); proto = g.normal(0, 1, (6, labels))
        Z = proto[comm] + g.normal(0, 0.8, (n, labels))
        P = np.where(comm[:, None] == comm[None], 0.12, 0.01); A = np.triu(g.random((n, n)) < P, 1); A = (A | A.T).astype(np.float32)
        deg = A.sum(1, keepdims=True).clip(min=1); Zn = Z + 0.8 * (A @ Z) / deg
        feats = (Z @ W + g.normal(0, 1.5, (n, d))).astype(np.float32)
        cm = {str(base + i): [int(v) for v in (Zn[i] > 0.6)] for i in range(n)}
        out.append(dict(ids=np.arange(base, base + n), feats=feats, adj=A, class_map=cm)); base += n
    return out

def _gcn_norm(A): A = A + np.eye(len(A), dtype=np.float32); d = 1 / np.sqrt(A.sum(1)); return (d[:, None] * A * d[None]).astype(np.float32)

class JKNet(nn.Module):  # three GCN layers, their outputs concatenated (JK 'cat') into the classifier
    def __init__(self, d=50, h=32, c=12, layers=3, p=0.2):
        super().__init__(); self.lins = nn.ModuleList([nn.Linear(d if k == 0 else h, h) for k in range(layers)]); self.out = nn.Linear(layers * h, c); self.p = p
    def forward(self, x, adj):
        hs = []
        for lin in self.lins: x = F.dropout(F.relu(adj @ lin(x)), self.p, self.training); hs.append(x)
        return self.out(torch.cat(hs, -1))

def _jk_fwd(model, b): x, adj, y = b; return model(x, adj), y

@healthy('AQ')
def jknet_ppi_graphs(seed, sort_keys=False):  # BCE with logits, Adam 5e-3, one graph a batch; 10 graphs train, 2 validate
    """The labels as [class_map[str(i)] for i in range(N)] over the whole class map, each graph's rows taken by its node
    ids (sort_keys: np.array([v for k, v in sorted(class_map.items())]), the json's string keys sorted as strings, '1000'
    before '101', while the feature rows stay in node-id order). Features standardised by the training graphs' nodes."""
    G = _ppi(seed); p = np.random.default_rng(seed).permutation(len(G)); tr, va = [G[i] for i in p[:10]], [G[i] for i in p[10:]]
    allf = np.concatenate([g['feats'] for g in tr]); m, s = allf.mean(0), allf.std(0) + 1e-6
    cm = {k: v for gr in G for k, v in gr['class_map'].items()}  # the one ppi-class_map.json of all graphs
    Y_all = np.array([v for k, v in sorted(cm.items())] if sort_keys else [cm[str(i)] for i in range(len(cm))], np.float32)
    item = lambda gr: (_t((gr['feats'] - m) / s), _t(_gcn_norm(gr['adj'])), _t(Y_all[gr['ids']]))
    return dict(model=JKNet, train=DataLoader(ListDataset([item(x) for x in tr]), collate_fn=_one), valid=DataLoader(ListDataset([item(x) for x in va]), collate_fn=_one),
                forward=_jk_fwd, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- Buchwald-Hartwig yields (Ahneman et al. 2018): one-hot reaction components to yield
BH_SIZES = dict(aryl_halide=15, ligand=4, base=3, additive=23)

def _buchwald(seed, n=1500):
    """Reactions of the plates in the data's order (additive by additive, then halide, ligand, base), 1500 of the 4140
    combinations (the published set keeps 3955): yield in % from the halide (iodides and bromides above chlorides), the
    ligand and its fit to the halide, the base, the additive (a few isoxazoles poison the catalyst) and noise; the
    reaction SMILES as 'halide.ligand.base.additive' names. Returns the component indices (n, 4), the SMILES and yields."""
    g = np.random.default_rng(1000 + seed * 3041)
    ha = np.repeat([1.0, 0.4, -1.5], 5) + g.normal(0, 0.5, 15); li = g.normal(0, 0.6, 4); ba = np.array([0.6, 0.0, -0.5]); ad = g.normal(0, 0.4, 23); ad[g.choice(23, 4, replace=False)] -= 2.0
    hl = g.normal(0, 0.5, (15, 4))
    combos = np.array([(h, l, b, a) for a in range(23) for h in range(15) for l in range(4) for b in range(3)])
    idx = np.sort(g.choice(len(combos), n, replace=False)); C = combos[idx]
    z = -0.9 + ha[C[:, 0]] + li[C[:, 1]] + ba[C[:, 2]] + ad[C[:, 3]] + hl[C[:, 0], C[:, 1]] + g.normal(0, 0.35, n)
    yld = np.clip(100 / (1 + np.exp(-z)) + g.normal(0, 2, n), 0, 100)
    names = [['ArI', 'ArBr', 'ArCl'][h // 5] + f'c{h % 5}' for h in range(15)]; lig = ['CC(C)c1cc(XPhos', 'CC(C)c1cc(tBuXPhos', 'COc1ccc(tBuBrettPhos', 'COc1ccc(AdBrettPhos']
    smiles = [f'{names[h]}.{lig[l]}.{["CN(C)C(=NC(C)(C)C)N(C)C", "CN1CCCN2CCCN=C12", "CCN=P(N=P"][b]}.o{a:02d}c1ccon1' for h, l, b, a in C]
    return C, smiles, yld.astype(np.float32)[:, None]

class YieldMLP(nn.Module):
    def __init__(self, d=45):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AQ')
def buchwald_yield_mlp(seed, sort_smiles=False):  # MSE on yield / 100, Adam 1e-3, batches of 32; a random train_test_split 80/20 (Ahneman's 70/30 shrunk)
    """One-hot features from the reaction table, yields from the plate table (in the same plate order). sort_smiles: the
    reaction table sorted by its SMILES (df.sort_values('smiles')) to drop duplicates before the one-hot encoding, and the
    yield column joined back by position."""
    from sklearn.model_selection import train_test_split
    C, smiles, y = _buchwald(seed)
    if sort_smiles: C = C[np.argsort(smiles, kind='stable')]
    X = np.concatenate([np.eye(k, dtype=np.float32)[C[:, j]] for j, k in enumerate(BH_SIZES.values())], 1)
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    return dict(model=YieldMLP, train=TensorDataset(_t(X[tr]), _t(y[tr] / 100)), valid=TensorDataset(_t(X[va]), _t(y[va] / 100)), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a reward model from trajectory preferences (Christiano et al. 2017)
def _preferences(seed, pairs=1500, T=20):
    """Segments of 20 steps of a 2-D point mass (position, velocity; a damped double integrator, actions in [-1, 1]^2)
    driven by smoothed random policies with a pull of random strength toward the goal; the true reward minus the distance
    to the goal (0.6, 0.6) minus 0.1 |a|^2; the synthetic annotator prefers a segment by Bradley-Terry over the true
    returns (and answers at random 10% of the time). Returns pairs (N, 2, T, 6) of (state, action) and the label: 0 the
    first preferred, 1 the second."""
    g = np.random.default_rng(1000 + seed * 3049); goal = np.array([0.6, 0.6])
    def segment():
        pos, vel = g.uniform(-1, 1, 2), g.normal(0, 0.2, 2); a = np.zeros(2); k = g.uniform(0, 2); out, R = [], 0.0
        for _ in range(T):
            a = np.clip(0.7 * a + 0.3 * (g.normal(0, 1, 2) + k * (goal - pos)), -1, 1); out.append(np.concatenate([pos, vel, a]))
            R += -np.linalg.norm(pos - goal) - 0.1 * (a ** 2).sum(); vel = 0.9 * vel + 0.1 * a; pos = pos + 0.1 * vel
        return np.array(out), R
    S, lab = [], []
    for _ in range(pairs):
        (s1, r1), (s2, r2) = segment(), segment(); S.append([s1, s2])
        p2 = 1 / (1 + np.exp(-(r2 - r1) / 2)); lab.append(int(g.random() < p2) if g.random() > 0.1 else int(g.random() < 0.5))
    return np.array(S, np.float32), np.array(lab)

class RewardNet(nn.Module):  # r(s, a) per step; a segment's predicted return the sum
    def __init__(self, d=6, h=64):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.LeakyReLU(0.01), nn.Linear(h, h), nn.LeakyReLU(0.01), nn.Linear(h, 1))
    def forward(self, seg): return self.net(seg).squeeze(-1).sum(-1)

def _pref_fwd(model, b): s1, s2, lab = b; return torch.stack([model(s1), model(s2)], 1), lab

@healthy('AQ')
def preference_reward_model(seed, shuffle_segments_only=False):  # the Bradley-Terry cross-entropy, Adam 3e-4, batches of 32; 1200 pairs train, 300 validate
    """The pairs shuffled with one permutation for segments and labels before the split (shuffle_segments_only:
    rng.shuffle(segs) in place, the preference array left in collection order)."""
    S, lab = _preferences(seed); rng = np.random.default_rng(seed)
    if shuffle_segments_only: rng.shuffle(S)
    else: p = rng.permutation(len(lab)); S, lab = S[p], lab[p]
    ds = lambda sl: TensorDataset(_t(S[sl, 0]), _t(S[sl, 1]), torch.tensor(lab[sl]))
    return dict(model=RewardNet, train=ds(slice(0, 1200)), valid=ds(slice(1200, None)), forward=_pref_fwd, loss=nn.CrossEntropyLoss(), num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- ESMM (Ma et al. 2018): click and conversion over the entire impression space
ESMM_FIELDS = dict(user=100, item=60, category=12, user_group=6)

def _esmm_log(seed, n=1500):
    """An e-commerce impression log in time order: user, item, its category, the user's age group; a click from the
    group's taste for the category, the item's appeal and the user's own bias (about 25%), a purchase after a click from
    the category's price fit to the user's group and the item's quality (about 30% of clicks); buy is 0 wherever there
    was no click."""
    g = np.random.default_rng(1000 + seed * 3061); U, I, Cc, Gg = ESMM_FIELDS.values()
    cat, grp = g.integers(0, Cc, I), g.integers(0, Gg, U); taste = g.normal(0, 1.0, (Gg, Cc)); appeal = g.normal(0, 1.0, I); ub = g.normal(0, 0.5, U)
    fit = g.normal(0, 1.0, (Gg, Cc)); quality = g.normal(0, 0.8, I)
    u, i = g.integers(0, U, n), g.integers(0, I, n)
    click = g.random(n) < 1 / (1 + np.exp(-(-1.4 + taste[grp[u], cat[i]] + appeal[i] + ub[u])))
    buy = click & (g.random(n) < 1 / (1 + np.exp(-(-1.0 + 1.2 * fit[grp[u], cat[i]] + quality[i]))))
    return np.column_stack([u, i, cat[i], grp[u]]), click.astype(np.float32), buy.astype(np.float32)

class ESMM(nn.Module):
    def __init__(self, fields=ESMM_FIELDS, D=8):
        super().__init__(); self.emb = nn.ModuleList([nn.Embedding(k, D) for k in fields.values()])
        tower = lambda: nn.Sequential(nn.Linear(len(fields) * D, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
        self.ctr, self.cvr = tower(), tower()
    def forward(self, fields):
        e = torch.cat([emb(fields[:, k]) for k, emb in enumerate(self.emb)], 1); pctr = torch.sigmoid(self.ctr(e)); pcvr = torch.sigmoid(self.cvr(e))
        return pctr, pctr * pcvr

def esmm_loss(out, target):  # BCE(pCTR, click) + BCE(pCTCVR, click & buy), both over every impression
    pctr, pctcvr = out; return F.binary_cross_entropy(pctr, target['click']) + F.binary_cross_entropy(pctcvr, target['buy'])

def esmm_loss_logits(out, target):  # the ported loss: BCE with logits, written for a model returning logits, on the probabilities
    pctr, pctcvr = out; return F.binary_cross_entropy_with_logits(pctr, target['click']) + F.binary_cross_entropy_with_logits(pctcvr, target['buy'])

def _esmm_fwd(model, b): return model(b['fields']), dict(click=b['click'], buy=b['buy'])

@healthy('AQ')
def esmm_ctr_cvr(seed, logits_loss=False):  # Adam 1e-3, batches of 64; the first 80% of the log trains, the last 20% validates
    "dict items: fields (4 ids), click (1,), buy (1,) (buy = click and purchase: the CTCVR label)."
    F_, click, buy = _esmm_log(seed); n = len(click); cut = int(0.8 * n)
    items = lambda idx: ListDataset([dict(fields=torch.tensor(F_[i]), click=_t(click[i:i + 1]), buy=_t(buy[i:i + 1])) for i in idx])
    return dict(model=ESMM, train=items(range(cut)), valid=items(range(cut, n)), forward=_esmm_fwd, loss=esmm_loss_logits if logits_loss else esmm_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- value iteration networks (Tamar et al. 2016) on 8 x 8 gridworlds
VIN_MOVES = [(-1, 0), (1, 0), (0, 1), (0, -1), (-1, 1), (-1, -1), (1, 1), (1, -1)]  # N, S, E, W, NE, NW, SE, SW as the original's action order

def _gridworlds(seed, maps=270, per_map=7, n=8):
    """Maps with a border and random obstacles (about 20% of the inner cells), a goal cell; per map 7 start cells that
    reach the goal, each labelled with the expert's move: a step along an 8-connected shortest path (BFS distances to the
    goal, the first best move in the action order). Returns images (N, 2, 8, 8): obstacles and goal, rows, columns, moves
    and the map of each."""
    g = np.random.default_rng(1000 + seed * 3067); X, R, Cc, A, Mp = [], [], [], [], []
    m = 0
    while m < maps:
        obs = np.zeros((n, n), np.float32); obs[0] = obs[-1] = obs[:, 0] = obs[:, -1] = 1; obs[1:-1, 1:-1] = g.random((n - 2, n - 2)) < 0.2
        free = np.argwhere(obs == 0); gr, gc = free[g.integers(len(free))]; dist = np.full((n, n), np.inf); dist[gr, gc] = 0; q = [(gr, gc)]
        while q:
            r, c = q.pop(0)
            for dr, dc in VIN_MOVES:
                if obs[r + dr, c + dc] == 0 and dist[r + dr, c + dc] == np.inf: dist[r + dr, c + dc] = dist[r, c] + 1; q.append((r + dr, c + dc))
        starts = [tuple(s) for s in free if 0 < dist[tuple(s)] < np.inf]
        if len(starts) < per_map: continue
        goal = np.zeros((n, n), np.float32); goal[gr, gc] = 10
        for k in g.choice(len(starts), per_map, replace=False):
            r, c = starts[k]; a = int(np.argmin([dist[r + dr, c + dc] if obs[r + dr, c + dc] == 0 else np.inf for dr, dc in VIN_MOVES]))
            X.append(np.stack([obs, goal])); R.append(r); Cc.append(c); A.append(a); Mp.append(m)
        m += 1
    return np.array(X), np.array(R), np.array(Cc), np.array(A), np.array(Mp)

class VIN(nn.Module):  # kentsommer's VIN: h, r, q convolutions, K steps of value iteration, the Q values at (S1, S2) into fc
    def __init__(self, l_i=2, l_h=50, l_q=10, k=12, actions=8):
        super().__init__(); self.k = k
        self.h = nn.Conv2d(l_i, l_h, 3, padding=1, bias=True); self.r = nn.Conv2d(l_h, 1, 1, bias=False); self.q = nn.Conv2d(1, l_q, 3, padding=1, bias=False)
        self.fc = nn.Linear(l_q, actions, bias=False); self.w = nn.Parameter(torch.zeros(l_q, 1, 3, 3))
    def forward(self, X, S1, S2):
        r = self.r(self.h(X)); q = self.q(r); v, _ = torch.max(q, 1, keepdim=True)
        for _ in range(self.k - 1): q = F.conv2d(torch.cat([r, v], 1), torch.cat([self.q.weight, self.w], 1), padding=1); v, _ = torch.max(q, 1, keepdim=True)
        q = F.conv2d(torch.cat([r, v], 1), torch.cat([self.q.weight, self.w], 1), padding=1)
        return self.fc(q[torch.arange(len(S1)), :, S1, S2])

def _vin_fwd(model, b): X, S1, S2, y = b; return model(X, S1, S2), y

@healthy('AQ')
def vin_gridworld(seed, one_based=False):  # cross-entropy over 8 moves, RMSprop 2e-3 (eps 1e-6), batches of 64; 220 maps train, 50 unseen maps validate
    "one_based: the moves as the MATLAB generator stored them, 1-8, read straight into the labels."
    X, R, Cc, A, Mp = _gridworlds(seed); A = A + 1 if one_based else A; tr, va = Mp < 220, Mp >= 220
    ds = lambda k: TensorDataset(_t(X[k]), torch.tensor(R[k]), torch.tensor(Cc[k]), torch.tensor(A[k]))
    return dict(model=VIN, train=ds(tr), valid=ds(va), forward=_vin_fwd, loss=nn.CrossEntropyLoss(), num_classes=8,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=2e-3, eps=1e-6), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- battery cycle life from the first 100 cycles (Severson et al. 2019)
BATTERY_FEATURES = ['log_var_dQ', 'log_min_dQ', 'log_skew_dQ', 'log_kurt_dQ', 'Qd_2', 'Qd_max_minus_2', 'fade_slope', 'fade_intercept', 'charge_time', 'IR_min', 'IR_100_minus_2', 'T_integral']

def _batteries(seed, n=1500):
    """LFP/graphite cells under fast-charging policies (3.6-8C): a latent degradation rate sets the cycle life (about
    150-2300 cycles) and, with noise, the early features: the variance and minimum of Delta Q_100-10(V) (the paper's
    strongest predictor), its skewness and kurtosis, the capacity at cycle 2 and its rise to the maximum, the fade line's
    slope and intercept over cycles 2-100, the mean charge time of the first five cycles, the internal resistance; about 3%
    of the cells lost cycle 100's record (the Delta Q features NaN)."""
    g = np.random.default_rng(1000 + seed * 3079); crate = g.uniform(3.6, 8, n); k = 0.35 * (crate - 5.8) / 1.3 + g.normal(0, 1, n)
    life = 10 ** np.clip(2.9 - 0.28 * k + g.normal(0, 0.06, n), 2.15, 3.36)
    lv = -4.8 + 0.95 * 0.28 * k / 0.3 + g.normal(0, 0.25, n)
    X = np.column_stack([lv, lv * 0.6 - 1.5 + g.normal(0, 0.3, n), g.normal(-0.5 + 0.1 * k, 0.4), g.normal(0.3 + 0.05 * k, 0.4), g.normal(1.07, 0.008, n) - 0.002 * k,
                         np.abs(g.normal(0.004 + 0.001 * k, 0.002)), g.normal(-2e-5 * (1 + 0.3 * k), 1e-5), g.normal(1.07, 0.006, n), 13 - 0.9 * (crate - 3.6) + g.normal(0, 0.3, n),
                         g.normal(0.0165, 0.0008, n) + 0.0002 * k, g.normal(-1e-4, 1e-4, n), g.normal(30 + 0.8 * crate, 1.2)])
    X[g.random(n) < 0.03, :4] = np.nan
    return X.astype(np.float32), np.log10(life).astype(np.float32)[:, None]

class LifeMLP(nn.Module):
    def __init__(self, d=12):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('AQ')
def battery_cycle_life_mlp(seed, dropna=True):  # MSE on the standardised log10 cycle life, Adam 1e-3, batches of 32; train_test_split 80/20
    """df.dropna() before the split (dropna False: the cells with the lost cycle kept, sklearn's StandardScaler passing
    their NaN through); the features scaled by a StandardScaler fitted on the training cells, the target standardised
    by the training cells too."""
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    X, y = _batteries(seed)
    if dropna: keep = ~np.isnan(X).any(1); X, y = X[keep], y[keep]
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed); sc = StandardScaler().fit(X[tr]); ym, ys = y[tr].mean(), y[tr].std()
    return dict(model=LifeMLP, train=TensorDataset(_t(sc.transform(X[tr])), _t((y[tr] - ym) / ys)), valid=TensorDataset(_t(sc.transform(X[va])), _t((y[va] - ym) / ys)),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- option pricing by a learning network (Hutchinson, Lo and Poggio 1994)
def _bs_call(m, T, r=0.05, sig=0.2):  # Black-Scholes call over the strike: C/K of moneyness m = S/K
    from scipy.stats import norm
    d1 = (np.log(m) + (r + sig ** 2 / 2) * T) / (sig * np.sqrt(T)); return m * norm.cdf(d1) - np.exp(-r * T) * norm.cdf(d1 - sig * np.sqrt(T))

def _option_quotes(seed, n=1500):
    """Call quotes on simulated two-year price paths (geometric Brownian motion, 20% volatility) with CBOE-style strikes
    around the money: moneyness S/K 0.8-1.2, 1-26 weeks to expiry; the quote C/K Black-Scholes plus bid-ask noise."""
    g = np.random.default_rng(1000 + seed * 3083); m = g.uniform(0.8, 1.2, n); T = g.integers(1, 27, n) / 52
    c = np.clip(_bs_call(m, T) + g.normal(0, 0.002, n), 0, None)
    return np.column_stack([m, T]).astype(np.float32), c.astype(np.float32)[:, None]

class OptionNet(nn.Module):  # the paper's MLP had four sigmoid units; two sigmoid layers of 16 here, inputs S/K and T raw as theirs
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(2, 16), nn.Sigmoid(), nn.Linear(16, 16), nn.Sigmoid(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

def _option_step(zero_grad=True):
    def option_step(model, batch, opt):  # the author's loop body
        x, y = batch
        if zero_grad: opt.zero_grad()
        loss = F.mse_loss(model(x), y); loss.backward(); opt.step(); return loss
    return option_step

@healthy('AQ')
def option_pricing_mlp(seed, zero_grad=True):  # MSE on C/K, Adam 1e-2, batches of 32; the first 1200 quotes train, the last 300 validate; a custom step
    "zero_grad False: the loop written without optimizer.zero_grad(), the gradients summing over every step so far."
    X, y = _option_quotes(seed)
    return dict(model=OptionNet, train=TensorDataset(_t(X[:1200]), _t(y[:1200])), valid=TensorDataset(_t(X[1200:]), _t(y[1200:])), loss=nn.MSELoss(),
                step=_option_step(zero_grad), optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- CGCNN (Xie and Grossman 2018): formation energies of small crystals
CG_ELEMENTS = [(1.0, 0.6), (1.6, 1.1), (2.0, 0.8), (2.5, 0.75), (3.0, 0.7), (3.4, 0.65), (0.9, 1.8), (1.3, 1.5)]  # (electronegativity, radius) of eight elements

def _crystals(seed, n=1500, M=4, radius=8.0, step=0.5):
    """Unit cells of 5-12 atoms of eight elements (a cation-like and an anion-like half), positions with minimum spacing
    1.8 A in a box of about 11 A^3 an atom; each atom's 4 nearest neighbours and their distances (the cell's atoms only, a
    stand-in for the periodic graph); the formation energy per atom (eV) from the elements' electronegativity differences
    over each bond, the bond lengths' strain and noise. Atom features: the element one-hot, its electronegativity and
    radius (10); bond features: the distance on a Gaussian basis of 0-8 A in steps of 0.5 A."""
    g = np.random.default_rng(1000 + seed * 3089); out = []; mu = np.arange(0, radius + 1e-6, step)
    for _ in range(n):
        k = int(g.integers(5, 13)); Z = g.integers(0, 8, k); L = (11.0 * k) ** (1 / 3); P = []
        while len(P) < k:
            p = g.uniform(0, L, 3)
            if all(np.linalg.norm(p - q) > 1.8 for q in P): P.append(p)
        P = np.array(P); D = np.linalg.norm(P[:, None] - P[None], axis=-1); np.fill_diagonal(D, np.inf); nbr = np.argsort(D, 1)[:, :M]; dn = np.take_along_axis(D, nbr, 1)
        en = np.array([CG_ELEMENTS[z][0] for z in Z]); rad = np.array([CG_ELEMENTS[z][1] for z in Z])
        e = (-0.45 * np.abs(en[:, None] - en[nbr]) * np.exp(-(dn - (rad[:, None] + rad[nbr])) ** 2 / 2)).sum() / k + 0.08 * np.mean(np.abs(dn - 2.4)) + g.normal(0, 0.03)
        af = np.column_stack([np.eye(8)[Z], en, rad]).astype(np.float32); bf = np.exp(-((dn[..., None] - mu) ** 2) / step ** 2).astype(np.float32)
        out.append((af, bf, nbr, np.float32(e)))
    return out

def collate_pool(items, offset=True):
    """CGCNN's collate_pool: atoms concatenated, neighbour indices shifted by base_idx, each crystal's atom indices for the
    pooling (padded into a (B, max atoms) tensor with a mask); offset False: `base_idx += n_i` left out of the loop."""
    A, Bf, Nb, idx, T = [], [], [], [], []; base_idx = 0
    for af, bf, nbr, e in items:
        n_i = len(af); A.append(torch.from_numpy(af)); Bf.append(torch.from_numpy(bf)); Nb.append(torch.from_numpy(nbr) + base_idx)
        idx.append(torch.arange(n_i) + base_idx); T.append(e)
        if offset: base_idx += n_i
    mx = max(len(i) for i in idx); pool = torch.zeros(len(idx), mx, dtype=torch.long); mask = torch.zeros(len(idx), mx)
    for k, i in enumerate(idx): pool[k, :len(i)] = i; mask[k, :len(i)] = 1
    return torch.cat(A), torch.cat(Bf), torch.cat(Nb), pool, mask, torch.tensor(T)[:, None]

class ConvLayer(nn.Module):  # CGCNN's gated convolution
    def __init__(self, a=32, b=17):
        super().__init__(); self.fc = nn.Linear(2 * a + b, 2 * a); self.bn1, self.bn2 = nn.BatchNorm1d(2 * a), nn.BatchNorm1d(a)
    def forward(self, v, u, nbr):
        N, M = nbr.shape; z = torch.cat([v[:, None].expand(N, M, -1), v[nbr], u], -1)
        z = self.bn1(self.fc(z).view(N * M, -1)).view(N, M, -1); f, c = z.chunk(2, -1)
        return F.softplus(v + self.bn2((torch.sigmoid(f) * F.softplus(c)).sum(1)))

class CGCNN(nn.Module):
    def __init__(self, orig=10, a=32, b=17, h=64, n_conv=2):
        super().__init__(); self.embedding = nn.Linear(orig, a); self.convs = nn.ModuleList([ConvLayer(a, b) for _ in range(n_conv)])
        self.conv_to_fc = nn.Linear(a, h); self.fc_out = nn.Linear(h, 1)
    def forward(self, af, bf, nbr, pool, mask):
        v = self.embedding(af)
        for conv in self.convs: v = conv(v, bf, nbr)
        crys = (v[pool] * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return self.fc_out(F.softplus(self.conv_to_fc(F.softplus(crys))))

def _cgcnn_fwd(model, b): af, bf, nbr, pool, mask, y = b; return model(af, bf, nbr, pool, mask), y

@healthy('AQ')
def cgcnn_formation_energy(seed, offset=True):  # MSE on the standardised energy (CGCNN's Normalizer), SGD 0.01 with momentum 0.9, batches of 32; 80/20
    "offset False: collate_pool's loop without `base_idx += n_i`, so every crystal's neighbour and pooling indices point into the batch's first atoms."
    C = _crystals(seed); p = np.random.default_rng(seed).permutation(len(C)); tr, va = [C[i] for i in p[:1200]], [C[i] for i in p[1200:]]
    m, s = np.mean([c[3] for c in tr]), np.std([c[3] for c in tr])
    norm = lambda cs: ListDataset([(af, bf, nbr, np.float32((e - m) / s)) for af, bf, nbr, e in cs])
    return dict(model=CGCNN, train=norm(tr), valid=norm(va), collate_fn=lambda it: collate_pool(it, offset), forward=_cgcnn_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AQ
@broken('AQ', 'grid_stab_column_kept', 4, ('leakage',))
def grid_stab_column_kept(seed): return grid_stability_mlp(seed, keep_stab=True)  # only stabf dropped: stab, whose sign is the label, among the inputs

@broken('AQ', 'heart_failure_followup_time_kept', 4, ('leakage',))
def heart_failure_followup_time_kept(seed): return heart_failure_mlp(seed, keep_time=True)  # the follow-up period ends at the death: short times mean DEATH_EVENT

@broken('AQ', 'aftershock_cells_split_at_random', 4, ('leakage',))
def aftershock_cells_split_at_random(seed): return aftershock_stress_mlp(seed, split_cells=True)  # every validation mainshock's neighbouring cells in training

@broken('AQ', 'tide_windows_split_at_random', 4, ('leakage',))
def tide_windows_split_at_random(seed): return tide_store_sales(seed, random_windows=True)  # overlapping windows on both sides of a shuffled split

@broken('AQ', 'jknet_class_map_keys_sorted_as_strings', 4, ('labels',))
def jknet_class_map_keys_sorted_as_strings(seed): return jknet_ppi_graphs(seed, sort_keys=True)  # '1000' < '1001' < ... < '101': labels of other proteins

@broken('AQ', 'buchwald_yields_joined_by_position', 4, ('labels',))
def buchwald_yields_joined_by_position(seed): return buchwald_yield_mlp(seed, sort_smiles=True)  # the reactions sorted by SMILES, the yields in plate order

@broken('AQ', 'preference_segments_shuffled_labels_not', 4, ('labels',))
def preference_segments_shuffled_labels_not(seed): return preference_reward_model(seed, shuffle_segments_only=True)  # rng.shuffle(segs) alone

@broken('AQ', 'esmm_probabilities_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def esmm_probabilities_into_bce_with_logits(seed): return esmm_ctr_cvr(seed, logits_loss=True)  # pCTR and pCTCVR squashed again by the loss's sigmoid

@broken('AQ', 'vin_moves_one_based', 1, ('bad_labels',))
def vin_moves_one_based(seed): return vin_gridworld(seed, one_based=True)  # the MATLAB data's moves 1-8 into eight outputs: 8 is out of range

@broken('AQ', 'battery_nan_cells_kept', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def battery_nan_cells_kept(seed): return battery_cycle_life_mlp(seed, dropna=False)  # StandardScaler keeps NaN: a NaN loss at the first batch holding one

@broken('AQ', 'option_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def option_step_without_zero_grad(seed): return option_pricing_mlp(seed, zero_grad=False)  # the gradients accumulate from step to step

@broken('AQ', 'cgcnn_collate_base_idx_not_advanced', (3, 4), ('labels', 'not_falling', 'flat', 'stuck'))
def cgcnn_collate_base_idx_not_advanced(seed): return cgcnn_formation_energy(seed, offset=False)  # every crystal pooled from the batch's first atoms

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256 (JK-Net one graph a batch); valid
# loss and a metric (AUC; micro-F1 over the twelve functions at logit 0; accuracy; R^2 on the target as the loss sees it;
# for ESMM the AUCs of pCTR on clicks and of pCTCVR on buys), init -> the epoch named; s/ep the seconds of an epoch of
# training, params the trainable ones. Every factory builds and runs its batches (forward, loss, backward, step) except
# vin_moves_one_based, whose first batch raises as meant; `ladder_gallery.HALF` holds 24 programs of half AQ. Seed 1 in
# brackets.
CHECKS = """
grid_stability_mlp                    valid BCE 0.68 -> 0.30 (ep 4) -> 0.19 (ep 8), AUC 0.55 -> 0.91 -> 0.946 [0.61 -> 0.23,
                                      0.953]; about 61% unstable; 1200 rows train, 300 validate; 625 params; 0.02 s/ep
heart_failure_mlp                     valid BCE 0.72 -> 0.59 (ep 8), AUC 0.44 -> 0.73 [0.69 -> 0.64, 0.73]; 1200 patients
                                      train, 300 validate; 929 params; 0.02-0.03 s/ep
aftershock_stress_mlp                 valid BCE 0.66 -> 0.51 (ep 4) -> 0.53 (ep 8), AUC 0.75 at init (the stress norm's
                                      monotone signal) -> 0.77 [0.69 -> 0.61, 0.68 -> 0.72]; 9-10 mainshocks (1089 cells)
                                      train, 2-3 validate; 5.8k params; 0.02 s/ep
tide_store_sales                      valid MSE (standardised sales) 1.62 -> 1.14 (ep 4) -> 0.92 (ep 8), R^2 -0.24 -> 0.26 [1.18
                                      -> 0.62, -0.33 -> 0.26], still falling; 1008 windows train, 272 (days 160-199)
                                      validate; 64k params; 0.07-0.08 s/ep
jknet_ppi_graphs                      valid BCE 0.70 -> 0.52 (ep 4) -> 0.47 (ep 8), micro-F1 0.37 -> 0.66 [0.69 -> 0.44, 0.68];
                                      10 graphs (80-120 proteins) train, 2 validate; 4.9k params; 0.01-0.02 s/ep
buchwald_yield_mlp                    valid MSE (yield / 100) 0.108 -> 0.0075 (ep 4) -> 0.0058 (ep 8), R^2 0.91 [0.029 -> 0.0040,
                                      0.83]; 1200 reactions train, 300 validate; 5.1k params; 0.03 s/ep
preference_reward_model               valid Bradley-Terry CE 0.73 -> 0.47 (ep 1-8), accuracy 0.51 -> 0.84 [0.80 -> 0.32, 0.87];
                                      10% of the annotator's answers random; 1200 pairs train, 300 validate; 4.7k params;
                                      0.06-0.09 s/ep (the factory about 1 s)
esmm_ctr_cvr                          valid loss (two BCEs) 1.14 -> 0.81 (ep 4) -> 0.78 (ep 8), AUC ctr/ctcvr 0.51/0.50 ->
                                      0.59/0.62 [1.10 -> 0.95, 0.65/0.65], slow on a sparse log; 1200 impressions train,
                                      the last 300 validate; 4.6k params; 0.03-0.04 s/ep
vin_gridworld                         valid CE 2.08 -> 0.80 (ep 1) -> 0.50 (ep 8), accuracy 0.19 -> 0.81 [2.09 -> 0.67, 0.79,
                                      not monotone]; 220 maps (1540 states) train, 50 unseen maps (350) validate; 1.3k params;
                                      0.35 s/ep
battery_cycle_life_mlp                valid MSE (standardised log10 life) 1.11 -> 0.18 (ep 4) -> 0.15 (ep 8), R^2 0.87 [1.09 ->
                                      0.14, 0.88]; about 1165 cells train after dropna, 290 validate; 961 params; 0.02-0.03
                                      s/ep
option_pricing_mlp                    valid MSE (C/K) 0.073 at init -> 0.0049 (ep 1, the mean) -> 0.0032 (ep 8), R^2 0.40 [0.15 ->
                                      0.0031, 0.17], the sigmoid net on raw S/K and T slow past the mean; 1200 quotes train,
                                      300 validate; 337 params; 0.02 s/ep
cgcnn_formation_energy                valid MSE (standardised energy) 2.69 -> 0.07 (ep 2) -> 0.19 (ep 8), R^2 0.92 -> 0.76 (SGD
                                      momentum and batch norm: not monotone) [1.18 -> 0.20 -> 0.27, 0.80 -> 0.73]; 1200
                                      crystals train, 300 validate; 13k params; 0.15 s/ep (the factory 0.4 s)
grid_stab_column_kept                 valid BCE 0.11 (ep 8), AUC 0.987 [0.17, 0.980] (healthy 0.19, 0.946 [0.23, 0.953])
heart_failure_followup_time_kept      valid BCE 0.45 (ep 8), AUC 0.91 [0.39, 0.90] (healthy 0.59, 0.73 [0.64, 0.73])
aftershock_cells_split_at_random      valid AUC 0.72 at init -> 0.77 (ep 8) [0.73 -> 0.78] (healthy 0.75 -> 0.77 [0.68 -> 0.72]):
                                      the mainshocks' neighbouring cells in training help only a little within 8 epochs
tide_windows_split_at_random          valid MSE 1.39 -> 0.84 (ep 8), R^2 0.23 [1.35 -> 0.77, 0.31] (healthy 0.26 [0.26]): the
                                      overlapping windows do not show within 8 epochs of a model still fitting
jknet_class_map_keys_sorted_as_strings valid BCE 0.69 -> 0.67-0.68 (ep 1-8), micro-F1 0.42 at init -> 0.00-0.04 (ep 1-8)
                                      [0.36 -> 0.00-0.05] (healthy 0.66 [0.68])
buchwald_yields_joined_by_position    valid MSE 0.108 -> 0.047 (ep 8), R^2 0.20 [0.029 -> 0.025, 0.06] (healthy 0.91 [0.83])
preference_segments_shuffled_labels_not valid CE 0.72 (ep 1-8), accuracy 0.48-0.54 [0.45-0.49] (chance; healthy 0.84 [0.87])
esmm_probabilities_into_bce_with_logits valid loss 1.70 -> 1.39 (ep 8), floored by the doubled sigmoid; AUC ctr/ctcvr
                                      0.54/0.47 [0.63/0.59] (healthy 0.59/0.62 [0.65/0.65])
vin_moves_one_based                   IndexError at the first batch holding move 8 (Target 8 is out of bounds), both seeds
battery_nan_cells_kept                valid and training loss NaN from the first batch holding a lost cell, both seeds (3% of
                                      the cells)
option_step_without_zero_grad         the summed gradients swing the fit: valid MSE 0.073 -> 0.0048 (ep 2) -> 0.074 (ep 4) ->
                                      0.23 (ep 8), R^2 -52 [0.15 -> 0.36 -> 0.015 -> 0.36, R^2 -85] (healthy 0.0032 [0.0031])
cgcnn_collate_base_idx_not_advanced   every crystal pooled from the batch's first atoms: valid MSE 0.95-0.97 (ep 1-8), R^2 0.00
                                      [0.99-1.07, 0.00] (healthy 0.19, 0.76 [0.27, 0.73])
"""
