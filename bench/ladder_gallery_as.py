"""Half AS of the ladder's gallery: held out from the rules frozen at 6964e40 (round 55), and run once on them.
Families not in halves A-AQ (nor in half AP's docstring), taken only from tabular data and business/finance, science and
engineering, graphs, recommender systems and ranking, time series and forecasting, and RL-style supervised models (a half
written alongside took other domains): online shoppers' purchasing intention (Sakar et al. 2019, UCI: page counts and
durations, bounce and exit rates, page values, special day, month, visitor type, weekend; log1p and a StandardScaler, the
Keras model ported with a sigmoid output into BCELoss); Polish companies' bankruptcy (Zieba, Tomczak and Tomczak 2016, UCI:
64 financial ratios with '?' missing and heavy tails; median imputation, winsorising and a StandardScaler fitted on the
training rows, a hand-rolled SMOTE on them; an MLP, BCE with logits); ready biodegradability (Mansouri et al. 2013, UCI
QSAR biodegradation: 41 molecular descriptors, RB/NRB, the file's duplicate molecules dropped; an MLP, BCE with logits);
steel plates faults (Buscema, Terzi and Tastle 2010, UCI: 27 geometric and luminosity columns, seven one-hot fault columns
read with argmax; a StandardScaler, an MLP, cross-entropy); Pima Indians diabetes (the NIDDK data as on Kaggle: zeros read
as missing and filled with the training medians; an MLP, BCE with logits); MixHop (Abu-El-Haija et al. 2019: the
concatenated A^0, A^1 and A^2 propagations of the normalised adjacency, two layers; PyG-style row-normalised features; one
full-graph item, a forward of its own) classifying the pages of a heterophilous WebKB-like university graph; neural
factorization machines (He and Chua 2017: one embedding table over the fields, bi-interaction pooling, a ReLU layer; the
squared loss on +1/-1, Adagrad 0.05) on frappe-like context-aware app logs with two sampled negatives a log, cnt dropped;
PAL (Guo et al. 2019: a CTR tower times a position tower, BCELoss on the product; dict items and a forward of its own) on
an app store's search impressions whose clicks are joined from a separate 1-based click log; AR-Net (Triebe et al. 2019,
NeuralProphet's with one hidden layer: 48 lags, the Huber loss, AdamW) forecasting a building's hourly load, split in
time; hydraulic system condition monitoring (Helwig, Pignanelli and Schuetze 2015, UCI: eight 1 Hz sensors over 60-s load
cycles, their mean, sd, min and max; the cooler's 3/20/100 condition mapped to classes; an MLP, cross-entropy); a Decision
Transformer (Chen et al. 2021, shrunk as min-decision-transformer: return-to-go, state and action tokens with timestep
embeddings, one causal pre-norm block, actions predicted from the state tokens; dict items, a forward of its own that
flattens the steps) of epsilon-greedy gridworld trajectories, held-out episodes validating; and BanditNet (Joachims,
Swaminathan and de Rijke 2018: counterfactual risk minimisation of the lambda-translated IPS risk from logged bandit
feedback, the supervised-to-bandit conversion of sklearn's digits with a logistic logging policy; a batch of four tensors,
a forward and a loss of its own, a custom step porting the author's loop).
At most 1481 training items a program (AR-Net's windows; SMOTE's 1305; 1350 DT windows; 1200 rows or fewer elsewhere, the
MixHop one graph of 300 pages) and about 17k trainable parameters; an epoch of a plain loop 0.01-0.45 s on one busy core
(CHECKS). Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module
after half AQ.

Protocol: written by a helper in a worktree at 363c09d (branch halfAS), held out from the rules frozen at 6964e40 (round 55;
the maintainer records the freeze hash). The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*,
nbs/03*), bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on
these programs (no ntrain.ladder call, no bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's
head, helpers and tail (the import lines), half AO whole but for a stretch of its middle, the module docstrings of all the
other halves (half AP's in its worktree, read-only) and the @broken lines of all of them (for the rung and cause
conventions and the families taken), a few lines of halves AH, AM and AQ (a full-graph item, a custom step), a grep of
ladder_sweep.py for 'half' (its --half line and a few lines of its harness), and the signatures and docstrings of
`ntrain.ladder` and `ntrain.Task` via help(). Each program was checked by hand only with a plain torch loop of its
author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seeds 0 and 1. No
program declares groups. Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AS`; no
program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

def _sigmoid(z): return 1 / (1 + np.exp(-z))

# ---------------------------------------------------------------- online shoppers' purchasing intention (Sakar et al. 2019, UCI): an MLP on a session's page statistics
SHOP_NUMERIC = ['Administrative', 'Administrative_Duration', 'Informational', 'Informational_Duration', 'ProductRelated', 'ProductRelated_Duration',
                'BounceRates', 'ExitRates', 'PageValues', 'SpecialDay']
SHOP_MONTHS, SHOP_VISITORS = ['Feb', 'Mar', 'May', 'June', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'], ['Returning_Visitor', 'New_Visitor', 'Other']

def _shoppers(seed, n=1500):
    """Sessions of online_shoppers_intention.csv: page counts and seconds spent by page type, Google Analytics' bounce and
    exit rates and page values, the closeness to a special day, the month, the visitor type and the weekend; Revenue (about
    15%) from a latent intent that sends buyers through more product pages and to pages with a value, fewer bounces."""
    g = np.random.default_rng(1000 + seed * 3001)
    month = g.choice(10, n, p=[.015, .155, .273, .023, .035, .035, .036, .045, .243, .14]); vis = g.choice(3, n, p=[.856, .137, .007]); wk = (g.random(n) < .23).astype(float)
    intent = g.normal(0, 1, n) + 0.4 * (month == 8) + 0.25 * (vis == 1) - 0.4 * (month == 0)
    buy = g.random(n) < _sigmoid(-2.4 + 1.1 * intent)
    adm = g.poisson(np.exp(0.5 + 0.25 * intent)); inf = g.poisson(np.exp(-0.8 + 0.2 * intent)); pr = g.poisson(np.exp(2.9 + 0.35 * intent + 0.3 * buy)) + 1
    adm_d, inf_d, pr_d = adm * g.lognormal(3.3, 0.8, n), inf * g.lognormal(3.6, 1.0, n), pr * g.lognormal(3.4, 0.7, n)
    bounce = np.clip(g.beta(0.8, 30, n) * (1.6 - 0.8 * buy) + 0.2 * (pr == 1) * g.random(n), 0, 0.2)
    exit_ = np.clip(bounce + g.beta(2, 45, n) * (1.4 - 0.5 * buy), 0, 0.2)
    pv = np.where(g.random(n) < np.where(buy, 0.6, 0.12), g.lognormal(np.where(buy, 3.3, 2.0), 0.9), 0.0)
    special = np.where((month == 2) | (month == 0), g.choice([0, .2, .4, .6, .8, 1.], n, p=[.6, .08, .08, .08, .08, .08]), 0.0) * (1 - 0.5 * buy)
    X = np.column_stack([adm, adm_d, inf, inf_d, pr, pr_d, bounce, exit_, pv, special]).astype(np.float64)
    return X, month, vis, wk, buy.astype(np.float32)[:, None]

class ShopperNet(nn.Module):
    "The Keras model ported: Dense(32, relu), Dropout(0.2), Dense(16, relu), Dense(1, <out>) (out 'sigmoid'; 'softmax' as some tutorials write it)."
    def __init__(self, d, out='sigmoid'):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1), nn.Softmax(dim=1) if out == 'softmax' else nn.Sigmoid())
    def forward(self, x): return self.net(x)

@healthy('AS')
def shoppers_intention_mlp(seed, out='sigmoid'):  # BCELoss on the sigmoid output, Adam 1e-3, batches of 64; a stratified train_test_split 80/20
    """log1p of the counts, durations and page values, StandardScaler fitted on the training sessions; month and visitor
    type one-hot (pd.get_dummies), Weekend 0/1."""
    from sklearn.model_selection import train_test_split
    X, month, vis, wk, y = _shoppers(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    L = X.copy(); L[:, [0, 1, 2, 3, 4, 5, 8]] = np.log1p(L[:, [0, 1, 2, 3, 4, 5, 8]]); L = (L - L[tr].mean(0)) / L[tr].std(0)
    Z = np.column_stack([L, np.eye(10)[month], np.eye(3)[vis], wk]).astype(np.float32)
    return dict(model=lambda: ShopperNet(Z.shape[1], out), train=TensorDataset(_t(Z[tr]), _t(y[tr])), valid=TensorDataset(_t(Z[va]), _t(y[va])), loss=nn.BCELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Polish companies' bankruptcy (Zieba, Tomczak and Tomczak 2016, UCI): 64 financial ratios, SMOTE
def _polish(seed, n=1200, d=64):
    """Rows of an ARFF year file: Attr1-Attr64 (net profit / total assets, liabilities / assets, working capital / assets,
    ... ratios of the balance sheet and the income statement), each a noisy view of the firm's latent profitability,
    leverage, liquidity and size, many with small denominators (heavy tails, a few extreme values) and about 1.5% '?'
    missing; class 1 (bankrupt within the horizon) about 8%."""
    g = np.random.default_rng(1000 + seed * 3011); Lat = g.normal(0, 1, (n, 4))
    z = -3.1 - 1.1 * Lat[:, 0] + 0.9 * Lat[:, 1] - 0.6 * Lat[:, 2] + g.normal(0, 0.7, n); y = (g.random(n) < _sigmoid(z)).astype(np.float32)
    W = g.normal(0, 1, (4, d)) * (g.random((4, d)) < 0.5); W[0, :8] += 1.0
    num = Lat @ W + g.normal(0, 0.8, (n, d)); den = np.exp(g.normal(0, 0.5, (n, d)) - 0.6 * (g.random((n, d)) < 0.03) * g.exponential(3, (n, d)))
    X = num / den * np.exp(g.uniform(-3, 2, d)) + g.normal(0, 0.5, d)
    X[g.random((n, d)) < 0.015] = np.nan
    return X, y

def smote(X, y, ratio=0.5, k=5, rng=None):
    "imblearn's SMOTE(sampling_strategy=ratio, k_neighbors=k) hand-rolled: new minority rows on the segments to one of each row's k nearest minority neighbours."
    P = X[y == 1]; need = int(ratio * (y == 0).sum()) - len(P)
    D = ((P[:, None] - P[None]) ** 2).sum(-1); np.fill_diagonal(D, np.inf); nb = np.argsort(D, 1)[:, :k]
    i = rng.integers(len(P), size=need); j = nb[i, rng.integers(k, size=need)]; new = P[i] + rng.random((need, 1)) * (P[j] - P[i])
    return np.concatenate([X, new]), np.concatenate([y, np.ones(need, y.dtype)])

def _impute_clip(X, ref):
    "The medians of `ref` for the missing ratios, then each ratio clipped to `ref`'s 1st and 99th percentiles (winsorised)."
    med = np.nanmedian(ref, 0); X = np.where(np.isnan(X), med, X); R = np.where(np.isnan(ref), med, ref)
    return np.clip(X, np.percentile(R, 1, 0), np.percentile(R, 99, 0))

class BankruptcyMLP(nn.Module):
    def __init__(self, d=64):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('AS')
def polish_bankruptcy_mlp(seed, smote_first=False):  # BCE with logits, Adam 1e-3, batches of 64; a stratified train_test_split 80/20
    """Split first; then the training rows' medians for '?', winsorised at their percentiles, a StandardScaler fitted on
    them, and SMOTE (minority to half the majority) on the training rows only. smote_first: the notebook's order, median
    imputation, winsorising and SMOTE over the whole file, then train_test_split (the scaler still fitted on the training part)."""
    from sklearn.model_selection import train_test_split
    X, y = _polish(seed); rng = np.random.default_rng(seed)
    if smote_first:
        X, y = smote(_impute_clip(X, X), y, rng=rng); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
        Xtr, ytr, Xva, yva = X[tr], y[tr], X[va], y[va]
    else:
        tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
        Xtr, Xva = _impute_clip(X[tr], X[tr]), _impute_clip(X[va], X[tr]); yva = y[va]; Xtr, ytr = smote(Xtr, y[tr], rng=rng)
    m, s = Xtr.mean(0), Xtr.std(0) + 1e-9; ds = lambda A, b: TensorDataset(_t((A - m) / s), _t(b[:, None]))
    return dict(model=BankruptcyMLP, train=ds(Xtr, ytr), valid=ds(Xva, yva), loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- ready biodegradability of chemicals (Mansouri et al. 2013, UCI QSAR biodegradation): 41 descriptors
BIODEG = ['SpMax_L', 'J_Dz(e)', 'nHM', 'F01[N-N]', 'F04[C-N]', 'NssssC', 'nCb-', 'C%', 'nCp', 'nO', 'F03[C-N]', 'SdssC', 'HyWi_B(m)', 'LOC', 'SM6_L', 'F03[C-O]',
          'Me', 'Mi', 'nN-N', 'nArNO2', 'nCRX3', 'SpPosA_B(p)', 'nCIR', 'B01[C-Br]', 'B03[C-Cl]', 'N-073', 'SpMax_A', 'Psi_i_1d', 'B04[C-Br]', 'SdO', 'TI2_L',
          'nCrt', 'C-026', 'F02[C-N]', 'nHDon', 'SpMax_B(m)', 'Psi_i_A', 'nN', 'SM6_B(m)', 'nArCOOR', 'nX']

def _biodeg(seed, n=1015, dups=40):
    """biodeg.csv (semicolon-separated, class RB/NRB last): molecules from latent size, aromaticity, halogenation, nitrogen
    and oxygen content; counts (nHM, nO, nX, nArNO2...) Poisson, the spectral and topological indices continuous; readily
    biodegradable (about a third) with oxygen and esters, not with halogens, nitro groups, rings and size. 40 molecules
    listed twice (the same rows, as the published file's duplicates), at random places."""
    g = np.random.default_rng(1000 + seed * 3019); Lat = g.normal(0, 1, (n, 5)); size, arom, hal, nit, oxy = Lat.T
    M = g.normal(0, 0.6, (5, 41)); M[0] += 0.6; M[2, [2, 20, 23, 24, 28, 40]] += 1.2; M[1, [6, 19, 22, 26]] += 1.0; M[3, [3, 4, 10, 18, 25, 33, 37]] += 1.0; M[4, [9, 15, 29, 39]] += 1.1
    Z = Lat @ M + g.normal(0, 0.7, (n, 41)); counts = [2, 3, 4, 5, 6, 8, 9, 10, 17, 18, 19, 20, 22, 23, 24, 25, 28, 31, 32, 33, 34, 37, 39, 40]
    X = Z * g.uniform(0.3, 3, 41) + g.uniform(0, 5, 41)
    X[:, counts] = g.poisson(np.exp(np.clip(0.5 * Z[:, counts] - 0.3, -4, 3)))
    rb = g.random(n) < _sigmoid(-0.7 - 0.8 * size - 1.0 * hal - 0.6 * arom - 0.4 * nit + 0.9 * oxy + g.normal(0, 0.5, n))
    rows = np.column_stack([X, rb]); extra = rows[g.choice(n, dups, replace=False)]
    for r in extra: k = int(g.integers(len(rows) + 1)); rows = np.insert(rows, k, r, 0)
    return rows[:, :41].astype(np.float64), np.where(rows[:, 41] > 0, 'RB', 'NRB')

class BiodegMLP(nn.Module):
    def __init__(self, d=41):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('AS')
def qsar_biodeg_mlp(seed, dedup_features_only=False):  # BCE with logits, Adam 1e-3, batches of 32; a stratified train_test_split 80/20, StandardScaler
    """df.drop_duplicates() over the whole frame, then y = (df['class'] == 'RB'). dedup_features_only: X =
    df[descriptors].drop_duplicates() with y read from the undeduplicated frame's first len(X) rows (y = y[:len(X)]):
    every molecule after the first duplicate paired with another's label."""
    from sklearn.model_selection import train_test_split
    X, cls = _biodeg(seed); y = (cls == 'RB').astype(np.float32)
    _, first = np.unique(np.column_stack([X, y]), axis=0, return_index=True); keep = np.sort(first)
    if dedup_features_only: _, fx = np.unique(X, axis=0, return_index=True); X = X[np.sort(fx)]; y = y[:len(X)]
    else: X, y = X[keep], y[keep]
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    m, s = X[tr].mean(0), X[tr].std(0) + 1e-9; ds = lambda i: TensorDataset(_t((X[i] - m) / s), _t(y[i, None]))
    return dict(model=BiodegMLP, train=ds(tr), valid=ds(va), loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- steel plates faults (Buscema, Terzi and Tastle 2010, UCI): seven fault types from 27 geometric and luminosity features
STEEL_FEATURES = ['X_Minimum', 'X_Maximum', 'Y_Minimum', 'Y_Maximum', 'Pixels_Areas', 'X_Perimeter', 'Y_Perimeter', 'Sum_of_Luminosity', 'Minimum_of_Luminosity',
                  'Maximum_of_Luminosity', 'Length_of_Conveyer', 'TypeOfSteel_A300', 'TypeOfSteel_A400', 'Steel_Plate_Thickness', 'Edges_Index', 'Empty_Index',
                  'Square_Index', 'Outside_X_Index', 'Edges_X_Index', 'Edges_Y_Index', 'Outside_Global_Index', 'LogOfAreas', 'Log_X_Index', 'Log_Y_Index',
                  'Orientation_Index', 'Luminosity_Index', 'SigmoidOfAreas']
STEEL_FAULTS = ['Pastry', 'Z_Scratch', 'K_Scatch', 'Stains', 'Dirtiness', 'Bumps', 'Other_Faults']

def _steel(seed, n=1500):
    """Faults.NNA's rows: a fault's bounding box on the plate (X in pixels across, Y along the coil, up to about 1.3e7), its
    area, perimeters and luminosity sums, the conveyer length, steel type, thickness and the shape indices derived from
    them; the seven fault columns one-hot (in the file's proportions, Other_Faults the commonest). Each type its own
    widths, lengths, darkness and steel grades, overlapping as the real ones do."""
    g = np.random.default_rng(1000 + seed * 3023); c = g.choice(7, n, p=[.08, .10, .20, .04, .03, .21, .34])
    lw = np.array([[3.6, 2.6], [2.2, 4.4], [4.2, 3.9], [2.5, 2.6], [2.9, 3.1], [3.0, 3.0], [3.0, 3.2]])[c] + g.normal(0, 0.45, (n, 2))
    w, L = np.exp(lw[:, 0]), np.exp(lw[:, 1]); x0 = g.uniform(0, 1600, n); y0 = g.uniform(0, 1.3e7, n)
    fill = np.clip(np.array([.6, .35, .7, .75, .6, .55, .5])[c] + g.normal(0, .12, n), .05, 1); area = w * L * fill
    lum = np.array([95, 115, 80, 70, 105, 120, 112])[c] + g.normal(0, 12, n)
    a400 = (g.random(n) < np.array([.4, .15, .85, .3, .6, .45, .5])[c]).astype(float); thick = np.clip(np.array([60, 80, 60, 70, 120, 90, 110])[c] * np.exp(g.normal(0, .4, n)), 40, 300)
    conv = np.clip(1360 + 110 * (c == 1) + g.normal(0, 90, n), 1227, 1794)
    xp, yp = 2 * w * (1 + g.uniform(0, .8, n)), 2 * L * (1 + g.uniform(0, .8, n))
    X = np.column_stack([x0, x0 + w, y0, y0 + L, area, xp, yp, area * lum, lum - g.uniform(20, 60, n), lum + g.uniform(10, 40, n), conv, 1 - a400, a400, thick,
                         g.beta(2, 2, n) * (1 - 0.5 * (c == 2)), 1 - fill, np.minimum(w, L) / np.maximum(w, L), w / conv, g.beta(3, 2, n), g.beta(3, 2, n) + 0.2 * (c == 1),
                         (g.random(n) < .5 + .3 * (c == 2)).astype(float), np.log10(area), np.log10(w), np.log10(L), 1 - w / L, (lum - 128) / 128, _sigmoid((np.log10(area) - 2.5) * 2)])
    return X.astype(np.float64), np.eye(7, dtype=np.float32)[c]

class SteelMLP(nn.Module):
    def __init__(self, d=27):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 7))
    def forward(self, x): return self.net(x)

@healthy('AS')
def steel_faults_mlp(seed, scale=True):  # cross-entropy, Adam 1e-3, batches of 32; y = df[faults].values.argmax(1); a stratified train_test_split 80/20
    "StandardScaler fitted on the training plates (scale False: the 27 columns fed as the file has them, Y_Minimum in the millions)."
    from sklearn.model_selection import train_test_split
    X, Y = _steel(seed); y = Y.argmax(1); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    if scale: X = (X - X[tr].mean(0)) / X[tr].std(0)
    return dict(model=SteelMLP, train=TensorDataset(_t(X[tr]), torch.tensor(y[tr])), valid=TensorDataset(_t(X[va]), torch.tensor(y[va])), loss=nn.CrossEntropyLoss(), num_classes=7,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Pima Indians diabetes (Smith et al. 1988, the NIDDK data as on Kaggle): zeros as missing values
PIMA = ['Pregnancies', 'Glucose', 'BloodPressure', 'SkinThickness', 'Insulin', 'BMI', 'DiabetesPedigreeFunction', 'Age']

def _pima(seed, n=768):
    """diabetes.csv: women of 21 and over, Outcome (about 35%) from glucose, BMI, age, pedigree and pregnancies; zeros where a
    measurement is missing (Glucose 0.7%, BloodPressure 4.6%, BMI 1.4%, SkinThickness 30% and Insulin 49%, the two mostly
    missing together, the missingness unrelated to the outcome)."""
    g = np.random.default_rng(1000 + seed * 3037); age = np.clip(21 + g.gamma(1.6, 7.5, n), 21, 81).round(); preg = np.clip(g.poisson(0.11 * (age - 18)), 0, 17)
    bmi = np.clip(g.normal(32, 6.8, n), 18, 67); dpf = np.clip(g.lognormal(-0.95, 0.6, n), 0.08, 2.4); glu = np.clip(g.normal(118, 28, n) + 0.6 * (bmi - 32), 56, 199)
    z = -9.5 + 0.04 * glu + 0.085 * bmi + 0.9 * dpf + 0.02 * age + 0.1 * preg + g.normal(0, 0.6, n); out = (g.random(n) < _sigmoid(z)).astype(np.float32)
    bp = np.clip(g.normal(66, 11, n) + 0.2 * (age - 33) + 0.3 * (bmi - 32), 24, 122).round(); skin = np.clip(g.normal(29, 8, n) + 0.8 * (bmi - 32), 7, 99).round()
    ins = np.clip(g.lognormal(np.log(95) + 0.02 * (glu - 118), 0.5), 14, 846).round()
    X = np.column_stack([preg, glu.round(), bp, skin, ins, bmi.round(1), dpf.round(3), age]); miss_si = g.random(n) < 0.30
    X[miss_si, 3] = 0; X[miss_si | (g.random(n) < 0.27), 4] = 0; X[g.random(n) < .007, 1] = 0; X[g.random(n) < .046, 2] = 0; X[g.random(n) < .014, 5] = 0
    return X, out

class PimaMLP(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 1))
    def forward(self, x): return self.net(x)

@healthy('AS')
def pima_diabetes_mlp(seed, median_by_outcome=False):  # BCE with logits, Adam 1e-3, batches of 32; a stratified train_test_split 80/20, StandardScaler
    """Zeros in Glucose, BloodPressure, SkinThickness, Insulin and BMI read as NaN and filled with the training rows'
    medians. median_by_outcome: the popular kernel's median_target(var), each missing value filled, before the split, with
    the median of the rows sharing its Outcome (Insulin 102.5 for the healthy, 169.5 for the diabetic in the real file)."""
    from sklearn.model_selection import train_test_split
    X, y = _pima(seed); X = X.copy(); cols = [1, 2, 3, 4, 5]; X[:, cols] = np.where(X[:, cols] == 0, np.nan, X[:, cols])
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    if median_by_outcome:
        for o in (0, 1):
            r = y == o; X[r] = np.where(np.isnan(X[r]), np.nanmedian(X[r], 0), X[r])
    else: X = np.where(np.isnan(X), np.nanmedian(X[tr], 0), X)
    m, s = X[tr].mean(0), X[tr].std(0); ds = lambda i: TensorDataset(_t((X[i] - m) / s), _t(y[i, None]))
    return dict(model=PimaMLP, train=ds(tr), valid=ds(va), loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- MixHop (Abu-El-Haija et al. 2019) on a WebKB-like graph of university web pages (heterophilous)
WEBKB_CLASSES = ['student', 'faculty', 'course', 'project', 'staff']

def _webkb(seed, n=300, d=300):
    """A university's pages: binary bags of 300 words (each class's own words a little likelier; about 7% of the pages
    with no word left after the vocabulary filter), links that mostly cross classes (students to their advisers and courses,
    faculty to courses and projects, staff to faculty), about 3 a page, symmetrised."""
    g = np.random.default_rng(1000 + seed * 3041); y = g.choice(5, n, p=[.42, .2, .18, .08, .12]); P = np.full((5, d), 0.02)
    for c in range(5): P[c, g.choice(d, 40, replace=False)] = 0.07
    X = (g.random((n, d)) < P[y]).astype(np.float32); X[g.random(n) < 0.07] = 0
    T = np.array([[.15, .45, .3, .05, .05], [.35, .1, .3, .2, .05], [.3, .5, .1, .05, .05], [.3, .4, .1, .15, .05], [.2, .5, .1, .1, .1]]); A = np.zeros((n, n), np.float32)
    for i in range(n):
        for _ in range(int(g.integers(1, 6))):
            j = int(g.choice(np.flatnonzero(y == g.choice(5, p=T[y[i]]))))
            if j != i: A[i, j] = A[j, i] = 1
    return X, y, A

class MixHopLayer(nn.Module):
    "[A^0 X W0 | A^1 X W1 | A^2 X W2], each power of the normalised adjacency applied by repeated products."
    def __init__(self, i, o, powers=(0, 1, 2)):
        super().__init__(); self.powers = powers; self.lins = nn.ModuleList([nn.Linear(i, o) for _ in powers])
    def forward(self, x, A):
        out, h, k = [], x, 0
        for p, lin in zip(self.powers, self.lins):
            while k < p: h = A @ h; k += 1
            out.append(lin(h))
        return torch.cat(out, 1)

class MixHop(nn.Module):
    def __init__(self, d=300, h=16, c=5):
        super().__init__(); self.l1, self.l2 = MixHopLayer(d, h), MixHopLayer(3 * h, h); self.drop = nn.Dropout(0.5); self.out = nn.Linear(3 * h, c)
    def forward(self, x, A):
        x = self.drop(x); x = self.drop(torch.tanh(self.l1(x, A))); x = torch.tanh(self.l2(x, A)); return self.out(x)

def _mixhop_fwd(model, b): x, A, idx, y = b; return model(x, A)[idx], y

@healthy('AS')
def mixhop_webkb(seed, rownorm_by_hand=False):  # cross-entropy, Adam 0.01 with weight decay 5e-4, one full-graph step an epoch; 60% of the pages train, 40% validate
    """The features row-normalised as PyG's NormalizeFeatures (the row sum clamped at 1), A_hat = D^-1/2 (A + I) D^-1/2.
    rownorm_by_hand: x / x.sum(1, keepdims=True), the empty pages' rows 0/0."""
    X, y, A = _webkb(seed); n = len(y)
    X = X / X.sum(1, keepdims=True) if rownorm_by_hand else X / np.maximum(X.sum(1, keepdims=True), 1)
    Ah = A + np.eye(n, dtype=np.float32); dinv = 1 / np.sqrt(Ah.sum(1)); Ah = dinv[:, None] * Ah * dinv[None]
    perm = np.random.default_rng(seed).permutation(n); tr, va = torch.tensor(np.sort(perm[:int(0.6 * n)])), torch.tensor(np.sort(perm[int(0.6 * n):]))
    x, Ah, yt = _t(X), _t(Ah), torch.tensor(y)
    return dict(model=MixHop, train=DataLoader(OneItem(x, Ah, tr, yt[tr]), collate_fn=_one), valid=DataLoader(OneItem(x, Ah, va, yt[va]), collate_fn=_one),
                forward=_mixhop_fwd, loss=nn.CrossEntropyLoss(), num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- neural factorization machines (He and Chua 2017) on frappe-like context-aware app usage
FRAPPE_FIELDS = dict(user=60, item=40, daytime=7, weekday=7, isweekend=2, homework=3, cost=2, weather=9, country=15, city=25)

def _frappe(seed, logs=500):
    """frappe.csv's logs (user, item, cnt, daytime, weekday, isweekend, homework, cost, weather, country, city): each log a
    user's app used in a context, the app drawn from the user's tastes, its category's fit to the time of day and to
    home/work, and free apps preferred; cnt the times it was used there (1 to a few hundred). As He and Chua, each log a
    positive (+1) with two negatives (-1): the same user and context with an app the user did not use there, cnt 0."""
    g = np.random.default_rng(1000 + seed * 3049); U, I = FRAPPE_FIELDS['user'], FRAPPE_FIELDS['item']
    tu, ti = g.normal(0, 1, (U, 6)), g.normal(0, 1, (I, 6)); cat = g.integers(0, 6, I); pop = g.normal(0, 1.5, I); paid = g.random(I) < 0.25
    fit_day, fit_hw = g.normal(0, 1, (6, 7)), g.normal(0, 1, (6, 3)); rows, ys, cnts = [], [], []
    for _ in range(logs):
        u = int(g.integers(U)); day, wd = int(g.integers(7)), int(g.integers(7)); hw = int(g.integers(3)); ctx = [day, wd, int(wd >= 5), hw]
        home = int(g.integers(FRAPPE_FIELDS['country'])); city = int(g.integers(FRAPPE_FIELDS['city'])); weather = int(g.integers(9))
        s = tu[u] @ ti.T / 1.0 + pop + 1.2 * fit_day[cat, day] + 1.2 * fit_hw[cat, hw] - 0.8 * paid; p = np.exp(s - s.max()); p /= p.sum()
        i = int(g.choice(I, p=p)); negs = g.choice(np.delete(np.arange(I), i), 2, replace=False)
        for it, lab in ((i, 1.0), (negs[0], -1.0), (negs[1], -1.0)):
            rows.append([u, it, *ctx, int(paid[it]), weather, home, city]); ys.append(lab); cnts.append(int(np.ceil(g.lognormal(1.5, 1.2))) if lab > 0 else 0)
    return np.array(rows), np.array(ys, np.float32)[:, None], np.array(cnts)

class NFM(nn.Module):
    """One embedding table over every field's values (libfm's feature ids, offset per field), a global bias and linear
    weights, the bi-interaction pooling 0.5 * ((sum e)^2 - sum e^2), dropout, one ReLU layer, the prediction."""
    def __init__(self, n_features, k=16, h=16):
        super().__init__(); self.emb, self.w = nn.Embedding(n_features, k), nn.Embedding(n_features, 1); self.b = nn.Parameter(torch.zeros(1))
        nn.init.normal_(self.emb.weight, std=0.01); nn.init.zeros_(self.w.weight)
        self.drop = nn.Dropout(0.5); self.mlp = nn.Sequential(nn.Linear(k, h), nn.ReLU(), nn.Dropout(0.2), nn.Linear(h, 1, bias=False))
    def forward(self, ids):
        e = self.emb(ids); bi = 0.5 * (e.sum(1) ** 2 - (e ** 2).sum(1))
        return self.b + self.w(ids).sum(1) + self.mlp(self.drop(bi))

@healthy('AS')
def nfm_frappe(seed, keep_cnt=False):  # squared loss on +1/-1, Adagrad 0.05 (the authors' code), batches of 128; a random 80/20 split of the rows
    """The fields but cnt (dropped as He and Chua: it is the log's usage count, 0 for the sampled negatives). keep_cnt:
    cnt left in as one more field, bucketed (0, 1, 2-3, 4-7, 8-15, 16+) as the other columns are one-hot."""
    ids, y, cnt = _frappe(seed); sizes = list(FRAPPE_FIELDS.values())
    if keep_cnt: ids = np.column_stack([ids, np.digitize(cnt, [1, 2, 4, 8, 16])]); sizes = sizes + [6]
    ids = ids + np.cumsum([0] + sizes[:-1])[None]; p = np.random.default_rng(seed).permutation(len(y)); tr, va = p[:int(0.8 * len(y))], p[int(0.8 * len(y)):]
    return dict(model=lambda: NFM(sum(sizes)), train=TensorDataset(torch.tensor(ids[tr]), _t(y[tr])), valid=TensorDataset(torch.tensor(ids[va]), _t(y[va])),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adagrad(p, lr=0.05), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- PAL, position-bias aware learning (Guo et al. 2019) on an app store's search log
def _appstore(seed, requests=150, slots=10, d=12):
    """Impressions (request_id, position 0-9 as the serving log stores it, 12 features of the user, the app and their
    match) and a separate click log of (request_id, position) with positions 1-10 as the front end reports them. The
    ranker orders the candidates by a noisy relevance; a click needs the slot seen (falling with the position) and the app
    relevant."""
    g = np.random.default_rng(1000 + seed * 3061); w = g.normal(0, 1, d) * (g.random(d) < 0.7); seen = 1 / (1 + np.arange(slots)) ** 0.8
    imps, clicks = [], set()
    for r in range(requests):
        F_ = g.normal(0, 1, (slots, d)); rel = F_ @ w / np.sqrt((w ** 2).sum()) * 1.3; order = np.argsort(-(rel + g.normal(0, 0.8, slots)))
        for p, k in enumerate(order):
            imps.append((r, p, F_[k]))
            if g.random() < seen[p] * _sigmoid(rel[k] - 0.5): clicks.add((r, p + 1))
    return imps, clicks

class PAL(nn.Module):
    "A CTR tower over the features and a position tower (an embedding of the slot): pCTR x pSeen, the click probability trained with BCE."
    def __init__(self, d=12, slots=10):
        super().__init__(); self.ctr = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1)); self.pos = nn.Embedding(slots, 1)
    def forward(self, x, pos): return torch.sigmoid(self.ctr(x)) * torch.sigmoid(self.pos(pos))

def _pal_fwd(model, b): return model(b['x'], b['pos']), b['click']

@healthy('AS')
def pal_appstore_clicks(seed, join_zero_based=False):  # BCELoss on pCTR x pSeen, Adam 1e-3, batches of 64; 120 requests train, 30 validate
    """Clicks joined to the impressions on (request_id, position + 1). join_zero_based: joined on (request_id, position),
    the serving log's 0-9 against the click log's 1-10: each app labelled with the click of the app shown above it."""
    imps, clicks = _appstore(seed); item = lambda r, p, f: dict(x=_t(f), pos=torch.tensor(p), click=torch.tensor([float((r, p if join_zero_based else p + 1) in clicks)]))
    reqs = np.random.default_rng(seed).permutation(150); trr = set(reqs[:120].tolist())
    return dict(model=PAL, train=ListDataset([item(*t) for t in imps if t[0] in trr]), valid=ListDataset([item(*t) for t in imps if t[0] not in trr]),
                forward=_pal_fwd, loss=nn.BCELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- AR-Net (Triebe, Laptev and Rajagopal 2019, NeuralProphet's autoregression) on a building's hourly load
def _building_load(seed, hours=1900):
    "Hourly kWh of an office building: a weekday occupancy profile, a lighter weekend, a slow temperature-driven swing and AR(2) deviations."
    g = np.random.default_rng(1000 + seed * 3067); t = np.arange(hours); h, wd = t % 24, (t // 24 + int(g.integers(7))) % 7
    occ = np.where(wd < 5, np.exp(-((h - 13) / 4.0) ** 2), 0.3 * np.exp(-((h - 12) / 3.0) ** 2)); e = np.zeros(hours); swing = np.zeros(hours)
    for k in range(2, hours): e[k] = 1.1 * e[k - 1] - 0.3 * e[k - 2] + g.normal(0, 3.5); swing[k] = 0.998 * swing[k - 1] + g.normal(0, 0.4)
    return 40 + 60 * occ + 5 * swing + e

class ARNet(nn.Module):
    "NeuralProphet's AR-Net with one hidden layer (ar_layers=[32]): 48 lags in, the next hour out."
    def __init__(self, p=48, h=32):
        super().__init__(); self.net = nn.Sequential(nn.Linear(p, h), nn.ReLU(), nn.Linear(h, 1))
    def forward(self, x): return self.net(x)

@healthy('AS')
def arnet_building_load(seed, window_ends_at_t=False):  # the Huber loss (smooth L1), AdamW 3e-3, batches of 32; the first 80% of the windows train, the rest validate
    """The series standardised by the training hours; the inputs y[t-48:t], the target y[t]. window_ends_at_t: the window
    sliced y[t-47:t+1], an off-by-one that puts y[t] itself in the last lag."""
    y = _building_load(seed); p = 48; cut = int(0.8 * (len(y) - p)); y = (y - y[:cut + p].mean()) / y[:cut + p].std()
    X = np.stack([y[t - p + 1:t + 1] if window_ends_at_t else y[t - p:t] for t in range(p, len(y))]).astype(np.float32); Y = y[p:, None].astype(np.float32)
    return dict(model=ARNet, train=TensorDataset(_t(X[:cut]), _t(Y[:cut])), valid=TensorDataset(_t(X[cut:]), _t(Y[cut:])), loss=nn.SmoothL1Loss(),
                optimizer=lambda p: torch.optim.AdamW(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- hydraulic system condition monitoring (Helwig, Pignanelli and Schuetze 2015, UCI): the cooler's condition
HYD_SENSORS = ['PS1', 'PS2', 'FS1', 'TS1', 'TS2', 'CE', 'CP', 'VS1']

def _hydraulic(seed, cycles=1500, T=60):
    """Load cycles of 60 s on a test rig, each sensor read at 1 Hz (PS1.txt, ..., one row a cycle) and profile.txt's
    conditions: cooler 3/20/100 (% efficiency: close to failure, reduced, full), valve 100/90/80/73, pump leakage 0/1/2,
    accumulator 130/115/100/90 bar, varied independently. A weak cooler lets the oil warm up (TS) and lowers the cooling
    efficiency and power (CE, CP); the valve, the pump and the accumulator shape the pressures and the flow."""
    g = np.random.default_rng(1000 + seed * 3079); cool = g.choice([3, 20, 100], cycles); valve = g.choice([100, 90, 80, 73], cycles); pump = g.choice(3, cycles); acc = g.choice([130, 115, 100, 90], cycles)
    t = np.arange(T); load = np.where((t % 20) < 12, 1.0, 0.35); S = np.zeros((cycles, len(HYD_SENSORS), T)); amb = 35 + np.cumsum(g.normal(0, 0.2, cycles))
    for i in range(cycles):
        k = {3: 0.25, 20: 0.55, 100: 1.0}[int(cool[i])] * g.uniform(0.8, 1.2); warm = amb[i] + (12 - 6 * k) * (1 - np.exp(-t / 25)) + g.normal(0, 0.6, T)
        ps1 = (155 + 0.4 * (acc[i] - 110)) * load * (valve[i] / 100) ** 0.5 - 4 * pump[i] + g.normal(0, 3, T); ps2 = 0.7 * ps1 + g.normal(0, 2, T)
        S[i] = [ps1, ps2, 9 * load - 0.8 * pump[i] + g.normal(0, 0.4, T), warm, warm - 2 - 3 * k + g.normal(0, 0.5, T), 18 + 28 * k - 0.3 * (warm - 40) + g.normal(0, 3.5, T),
                0.8 + 1.2 * k + g.normal(0, 0.25, T), 0.55 + 0.05 * pump[i] + g.normal(0, 0.03, T)]
    return S, dict(cooler=cool, valve=valve, pump=pump, accumulator=acc)

@healthy('AS')
def hydraulic_cooler_mlp(seed, codes_as_classes=False):  # cross-entropy, Adam 1e-3, batches of 32; a stratified train_test_split 80/20
    """Each sensor's mean, sd, min and max over the cycle (32 features), StandardScaler on the training cycles; the cooler
    condition through {3: 0, 20: 1, 100: 2} (codes_as_classes: profile['cooler'] as read, 3/20/100, into a 3-way cross-entropy)."""
    from sklearn.model_selection import train_test_split
    S, prof = _hydraulic(seed); X = np.concatenate([S.mean(2), S.std(2), S.min(2), S.max(2)], 1)
    y = prof['cooler'] if codes_as_classes else np.searchsorted([3, 20, 100], prof['cooler'])
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y); X = (X - X[tr].mean(0)) / X[tr].std(0)
    return dict(model=lambda: nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 3)), train=TensorDataset(_t(X[tr]), torch.tensor(y[tr])),
                valid=TensorDataset(_t(X[va]), torch.tensor(y[va])), loss=nn.CrossEntropyLoss(), num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Decision Transformer (Chen et al. 2021, shrunk as min-decision-transformer) on gridworld trajectories
MOVES = np.array([[0, 1], [0, -1], [-1, 0], [1, 0], [0, 0]])  # up, down, left, right, stay

def _grid_episodes(seed, episodes=190, T=16, size=6):
    """A 6 x 6 grid with the goal in a corner, reward 1 for every step spent on it; episodes of 16 steps from random cells,
    each by an epsilon-greedy behaviour policy (epsilon drawn per episode from 0.1 to 1: from near-expert to random; greedy
    moves toward the goal, staying once there). Returns per episode states (16, 2), actions (16,) and rewards (16,)."""
    g = np.random.default_rng(1000 + seed * 3083); goal = np.array([size - 1, size - 1]); out = []
    for _ in range(episodes):
        s = g.integers(0, size, 2); eps = g.uniform(0.1, 1.0); S, A, R = [], [], []
        for _ in range(T):
            if g.random() < eps: a = int(g.integers(5))
            else: a = 4 if (s == goal).all() else int(g.choice([k for k in range(4) if np.abs(np.clip(s + MOVES[k], 0, size - 1) - goal).sum() < np.abs(s - goal).sum()]))
            S.append(s.copy()); A.append(a); s = np.clip(s + MOVES[a], 0, size - 1); R.append(float((s == goal).all()))
        out.append((np.array(S, np.float32), np.array(A), np.array(R, np.float32)))
    return out

def dt_windows(eps, K=8, size=6):
    "Every window of K steps: returns-to-go (K, 1) scaled by the episode length, states scaled to [0, 1], actions, timesteps."
    items = []
    for S, A, R in eps:
        rtg = np.cumsum(R[::-1])[::-1].copy() / len(R)
        for i in range(len(A) - K + 1):
            items.append(dict(rtg=_t(rtg[i:i + K, None]), states=_t(S[i:i + K] / (size - 1)), actions=torch.tensor(A[i:i + K]), timesteps=torch.arange(i, i + K)))
    return items

class DecisionTransformer(nn.Module):
    "Tokens (R_1, s_1, a_1, R_2, ...) with a timestep embedding, one causal transformer block, actions predicted from the state tokens."
    def __init__(self, d=32, K=8, n_act=5, T=16, causal=True):
        super().__init__(); self.K, self.causal = K, causal
        self.e_r, self.e_s, self.e_a, self.e_t = nn.Linear(1, d), nn.Linear(2, d), nn.Embedding(n_act, d), nn.Embedding(T, d); self.ln = nn.LayerNorm(d)
        self.block = nn.TransformerEncoderLayer(d, 2, 4 * d, dropout=0.1, batch_first=True, norm_first=True); self.head = nn.Linear(d, n_act)
        self.register_buffer('mask', torch.triu(torch.full((3 * K, 3 * K), float('-inf')), 1))
    def forward(self, rtg, states, actions, timesteps):
        B, K = actions.shape; te = self.e_t(timesteps)
        h = torch.stack([self.e_r(rtg) + te, self.e_s(states) + te, self.e_a(actions) + te], 2).reshape(B, 3 * K, -1)
        h = self.block(self.ln(h), src_mask=self.mask if self.causal else None)
        return self.head(h.reshape(B, K, 3, -1)[:, :, 1])

def _dt_fwd(model, b):  # the action logits of every state token against the actions taken, flattened as the authors' training loop
    logits = model(b['rtg'], b['states'], b['actions'], b['timesteps']); return logits.reshape(-1, logits.shape[-1]), b['actions'].reshape(-1)

@healthy('AS')
def decision_transformer_grid(seed, causal=True):  # cross-entropy, AdamW 1e-3 with weight decay 1e-4, batches of 64; 150 episodes train, 40 validate
    """causal False: the block called without its mask (the causal mask built in __init__ but not passed): each state
    token attends to the action token that follows it."""
    eps = _grid_episodes(seed)
    return dict(model=lambda: DecisionTransformer(causal=causal), train=ListDataset(dt_windows(eps[:150])), valid=ListDataset(dt_windows(eps[150:])), forward=_dt_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=5, optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- BanditNet (Joachims, Swaminathan and de Rijke 2018): counterfactual learning from logged bandit feedback on digits
def _bandit_logs(seed, temp=1.0):
    """The supervised-to-bandit conversion of Swaminathan and Joachims: a logging policy (a multinomial logistic regression
    fitted on 5% of the training digits, its softmax as fitted (mild regularisation, C=1), stochastic enough to explore), one action
    sampled a digit, its propensity and its loss delta (0 when the action is the digit's label, 1 otherwise) logged."""
    from sklearn.linear_model import LogisticRegression
    (x, y), (vx, vy) = _digits(seed); x, y, vx, vy = x.reshape(len(x), -1).numpy(), y.numpy(), vx.reshape(len(vx), -1).numpy(), vy.numpy(); g = np.random.default_rng(1000 + seed * 3089)
    sub = g.choice(len(y), len(y) // 20, replace=False); lr = LogisticRegression(C=1.0, max_iter=500).fit(x[sub], y[sub])
    def log(X, Y):
        s = lr.decision_function(X) / temp; P = np.exp(s - s.max(1, keepdims=True)); P /= P.sum(1, keepdims=True)
        a = np.array([g.choice(10, p=p) for p in P]); return X, a, (a != Y).astype(np.float32), P[np.arange(len(a)), a].astype(np.float32)
    return log(x, y), log(vx, vy), (y, vy)

LAMBDA = 0.9  # the translation lambda of BanditNet's (delta - lambda) objective, picked by the SNIPS estimate in the paper

def banditnet_loss(logits, target):
    "The lambda-translated IPS risk: mean over the logs of (delta - lambda) * pi(a|x) / p0(a|x)."
    a, delta, p0 = target; pi = F.softmax(logits, 1).gather(1, a[:, None])[:, 0]; return ((delta - LAMBDA) * pi / p0).mean()

def _bandit_fwd(model, b): x, a, delta, p0 = b; return model(x), (a, delta, p0)

def _bandit_step(zero_grad=True):
    def step(model, batch, opt):  # the author's loop body
        if zero_grad: opt.zero_grad()
        out, target = _bandit_fwd(model, batch); loss = banditnet_loss(out, target); loss.backward(); opt.step(); return loss
    return step

@healthy('AS')
def banditnet_digits(seed, zero_grad=True):  # the translated IPS risk, Adam 1e-3, batches of 64; the logs of the training digits train, those of the 360 others validate; a custom step
    "zero_grad False: the loop written without optimizer.zero_grad(), the gradients summing over every step so far."
    (x, a, d, p0), (vx, va, vd, vp0), _ = _bandit_logs(seed); ds = lambda X, A, D, P: TensorDataset(_t(X), torch.tensor(A), _t(D), _t(P))
    return dict(model=lambda: nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10)), train=ds(x, a, d, p0), valid=ds(vx, va, vd, vp0), forward=_bandit_fwd,
                loss=banditnet_loss, step=_bandit_step(zero_grad), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AS
@broken('AS', 'shoppers_softmax_on_one_output', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def shoppers_softmax_on_one_output(seed): return shoppers_intention_mlp(seed, out='softmax')  # Dense(1, activation='softmax'): every output 1.0, no gradient

@broken('AS', 'polish_smote_before_split', 4, ('leakage',))
def polish_smote_before_split(seed): return polish_bankruptcy_mlp(seed, smote_first=True)  # synthetic bankrupt firms on segments between firms on both sides of the split

@broken('AS', 'biodeg_dedup_features_labels_not', 4, ('labels',))
def biodeg_dedup_features_labels_not(seed): return qsar_biodeg_mlp(seed, dedup_features_only=True)  # the descriptors deduplicated, the labels not: shifted by one more row after each duplicate

@broken('AS', 'steel_raw_columns', (2, 3), ('init_scale', 'lr_high', 'not_falling', 'flat', 'stuck'))
def steel_raw_columns(seed): return steel_faults_mlp(seed, scale=False)  # Y_Minimum and Sum_of_Luminosity in the millions: logits of that order at init

@broken('AS', 'pima_median_by_outcome', 4, ('leakage',))
def pima_median_by_outcome(seed): return pima_diabetes_mlp(seed, median_by_outcome=True)  # the missing insulin and skin values filled by the row's own class's median

@broken('AS', 'mixhop_empty_pages_nan', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def mixhop_empty_pages_nan(seed): return mixhop_webkb(seed, rownorm_by_hand=True)  # 0/0 on the pages with no word: NaN rows, spread by A_hat to their neighbours

@broken('AS', 'nfm_cnt_field_kept', 4, ('leakage',))
def nfm_cnt_field_kept(seed): return nfm_frappe(seed, keep_cnt=True)  # the usage count, 0 exactly for the sampled negatives, among the fields

@broken('AS', 'pal_clicks_joined_off_by_one', 4, ('labels',))
def pal_clicks_joined_off_by_one(seed): return pal_appstore_clicks(seed, join_zero_based=True)  # 0-based positions against the click log's 1-based ones

@broken('AS', 'arnet_window_includes_target', 4, ('leakage',))
def arnet_window_includes_target(seed): return arnet_building_load(seed, window_ends_at_t=True)  # y[t-47:t+1]: the hour to forecast is the last lag

@broken('AS', 'hydraulic_cooler_codes_as_classes', 1, ('bad_labels',))
def hydraulic_cooler_codes_as_classes(seed): return hydraulic_cooler_mlp(seed, codes_as_classes=True)  # 3/20/100 into three outputs: IndexError

@broken('AS', 'dt_causal_mask_not_passed', 4, ('leakage',))
def dt_causal_mask_not_passed(seed): return decision_transformer_grid(seed, causal=False)  # each state token sees the action it is to predict

@broken('AS', 'banditnet_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def banditnet_step_without_zero_grad(seed): return banditnet_digits(seed, zero_grad=False)  # the gradients accumulate from step to step

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss and custom step, train shuffled, valid in batches of 256 (MixHop: the one graph); valid loss and a
# metric (AUC; accuracy; R^2 on the standardised load; for BanditNet the true accuracy of the policy's argmax on the
# validation digits beside the IPS risk), init -> the epoch named; s/ep the seconds of an epoch of training, params the
# trainable ones. Every factory builds and runs its batches (forward, loss, backward, step); `ladder_gallery.HALF` holds 24
# programs of half AS. Seed 1 in brackets.
CHECKS = """
shoppers_intention_mlp                valid BCE 0.64 -> 0.33 (ep 4) -> 0.22 (ep 8), AUC 0.48 -> 0.95 [0.64 -> 0.24, 0.92]; Revenue
                                      14% [12%]; 1200 sessions train, 300 validate; 1.3k params; 0.01-0.02 s/ep
polish_bankruptcy_mlp                 valid BCE 0.66 -> 0.35 (ep 4-8), AUC 0.38 -> 0.79 [0.66 -> 0.32, 0.82]; 9% bankrupt [10%];
                                      960 firms train (1305 with SMOTE's), 240 validate; 2.6k params; 0.02-0.04 s/ep
qsar_biodeg_mlp                       valid BCE 0.67 -> 0.51 (ep 3) -> 0.45 (ep 12), AUC 0.86 [0.67 -> 0.53, 0.80]; 1015 molecules
                                      (37-39% RB) and 40 duplicates, 812 train, 203 validate; 1.9k params; 0.03 s/ep
steel_faults_mlp                      valid CE 1.98 -> 0.75 (ep 6) -> 0.72 (ep 12), accuracy 0.73 [1.95 -> 0.50, 0.75]; 1200
                                      plates train, 300 validate; 4.1k params; 0.04-0.07 s/ep
pima_diabetes_mlp                     valid BCE 0.68 -> 0.60 (ep 8) -> 0.54 (ep 16), AUC 0.53 -> 0.77 [0.70 -> 0.52, 0.79]; 36%
                                      diabetic; 614 women train, 154 validate; 289 params; 0.02 s/ep
mixhop_webkb                          valid CE 1.60 -> 1.24 (ep 30), accuracy 0.08 -> 0.58 (majority 0.43), overfitting after
                                      [1.57 -> 1.21 at ep 30, 0.61 at ep 50]; 180 pages train, 120 validate; 17k params; 0.01 s/ep
nfm_frappe                            valid MSE 0.97 -> 0.76 (ep 4) -> 0.91 (ep 16, overfitting), AUC 0.48 -> 0.75 [0.98 -> 0.86
                                      at ep 4, 0.63-0.64]; 1200 rows train, 300 validate; 3.2k params; 0.02-0.03 s/ep
pal_appstore_clicks                   valid BCE 0.42 -> 0.36 (ep 12), AUC 0.63 -> 0.81 [0.57 -> 0.51, 0.49 -> 0.74]; 19% clicked;
                                      120 requests (1200 impressions) train, 30 validate; 1k params; 0.02-0.04 s/ep
arnet_building_load                   valid Huber 0.46 -> 0.029 (ep 4) -> 0.026 (ep 8), R^2 0.94 [1.19 -> 0.038, 0.90]; 1481
                                      windows train, the last 371 validate; 1.6k params; 0.02-0.09 s/ep
hydraulic_cooler_mlp                  valid CE 1.10 -> 0.26 (ep 4) -> 0.05 (ep 8), accuracy 0.99 [1.16 -> 0.05, 0.98] (the cooler
                                      is the data's easy target, as in the real set); 1200 cycles train, 300 validate; 1.6k
                                      params; 0.06 s/ep (the factory 0.15-0.23 s)
decision_transformer_grid             valid CE 1.80 -> 1.43 (ep 2) -> 1.33 (ep 8), action accuracy 0.17 -> 0.45 [1.82 -> 1.37,
                                      0.47] (the behaviour's random actions cap it); 150 episodes (1350 windows) train, 40 (360)
                                      validate; 14k params; 0.2-0.45 s/ep
banditnet_digits                      valid IPS risk -0.02 -> -0.52 (ep 8) -> -0.78 (ep 16), policy accuracy 0.10 -> 0.73 -> 0.83
                                      [0.01 -> -0.64, 0.83] (the logging policy 0.59 [0.55]); 1437 logs train, 360 validate;
                                      4.8k params; 0.03-0.05 s/ep
shoppers_softmax_on_one_output        every output exactly 1.0: valid BCE 86 at every epoch (BCELoss's log clamped at -100 on the
                                      85% of zeros), AUC 0.5 [86.4, 0.5]; no gradient reaches the weights
polish_smote_before_split             valid BCE 0.41 (ep 8), AUC 0.87 [0.38, 0.90] (healthy 0.36, 0.79 [0.32, 0.82]); 26% of the
                                      validation rows synthetic bankrupt firms interpolated from firms in training
biodeg_dedup_features_labels_not      valid AUC 0.51-0.53 from ep 3 to 12, BCE rising 0.67 -> 0.69 [0.48, 0.67 -> 0.68] (healthy
                                      0.86 [0.80])
steel_raw_columns                     valid CE 3.1e4 at init [7.3e4], 5e3 at ep 2, then about 2.0 with accuracy 0.05-0.22 (one
                                      class) [2.2, 0.22] (healthy 0.72, 0.73 [0.50, 0.75])
pima_median_by_outcome                valid BCE 0.50 (ep 16), AUC 0.81 [0.47, 0.83] (healthy 0.54, 0.77 [0.52, 0.79]); the missing
                                      insulin filled with 128 for the diabetic, 86 for the others [142, 84]
mixhop_empty_pages_nan                valid and training loss NaN from the first step, both seeds (7% of the pages empty)
nfm_cnt_field_kept                    valid MSE 0.043 (ep 4) -> 0.008 (ep 16), AUC 1.000 [0.016, 1.000] (healthy 0.76, 0.75
                                      [0.86, 0.63])
pal_clicks_joined_off_by_one          valid BCE 0.45 -> 0.42 (ep 12), AUC 0.51 -> 0.69 [0.54 -> 0.56 rising, 0.63 -> 0.67] (healthy
                                      0.36, 0.81 [0.51, 0.74]): the top slot never clicked, each app scored with its upper
                                      neighbour's click
arnet_window_includes_target          valid Huber 0.0082 (ep 4) -> 0.0040 (ep 8), R^2 0.99 [0.0040, 0.99] (healthy 0.026, 0.94
                                      [0.038, 0.90])
hydraulic_cooler_codes_as_classes     IndexError: Target 100 is out of bounds, first batch, both seeds
dt_causal_mask_not_passed             valid CE 0.64 (ep 4) -> 0.003 (ep 8), action accuracy 1.00 [0.008, 1.00] (healthy 1.33, 0.45
                                      [1.37, 0.47]): the random actions of the behaviour predicted too
banditnet_step_without_zero_grad      the gradients summed over every step: valid IPS risk -0.40 (ep 4) -> -0.76 (ep 16), policy
                                      accuracy 0.67 -> 0.69 -> 0.72 [0.58 -> 0.65 -> 0.74] (healthy 0.46 -> 0.73 -> 0.83 [0.28 ->
                                      0.67 -> 0.83]), the risk estimate falling faster while the policy stalls
"""
