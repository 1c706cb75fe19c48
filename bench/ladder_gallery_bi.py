"""Half BI of the ladder's gallery: held out from the rules frozen at 7fa7964 (round 68), and run once on them.
Families not in halves A-BG, taken only from tabular data and finance, science and engineering, graphs, recommender systems and
ranking, time series, and RL-style supervised models (a half written alongside took other domains): drug-drug interaction
types (DeepDDI, Ryu, Kim and Lee 2018: each drug's structural similarity profile against the other drugs' fingerprints,
reduced by PCA, the two profiles of a pair concatenated into an MLP over six interaction types; the pairs augmented with both
orders); Item2Vec (Barkan and Koenigstein 2016: skip-gram with negative sampling over the items of shopping baskets, input and
output embeddings initialised as word2vec's, the positive and five sampled negatives' logits against 1, 0, ..., 0 in a loss of
its own; a batch of three tensors and a forward of its own); ApproxNDCG (Qin, Liu and Li 2010: the smooth rank of each
document from sigmoids of score differences, minus the approximate NDCG as the loss; an MLP scorer) on product-search queries
whose features come in the first stage's run order and whose graded relevance comes from a qrels table keyed by document id;
the fully convolutional network for time-series classification (Wang, Yan and Oates 2017: three convolution-BN-ReLU blocks of
8, 5 and 3, global average pooling; Adam, batches of 16) on the Synthetic Control Chart series (Alcock and Manolopoulos 1999:
normal, cyclic, trends and shifts), each series z-normalised; used-car price regression from scraped listings (make, age,
mileage, engine, fuel, transmission, owners; an MLP, MSE on the log price), reposted ads of the same car (by VIN) kept on one
side of the split; H2GCN (Zhu et al. 2020: ego and neighbour embeddings kept apart, strict 1- and 2-hop aggregations without
self-loops, every round concatenated; one full-graph item, a forward of its own) classifying the nodes of a heterophilous
graph built from an edge list; UCI Spambase (Hopkins et al. 1999: 48 word and 6 character frequencies and three capital-run
statistics, log1p and standardised, an MLP, BCE with logits); QR-DQN (Dabney et al. 2018: 16 quantiles an action, the quantile
Huber loss against the target network's quantiles at the greedy next action, a target network synced every 50 steps in a
custom step) from a fixed buffer of a stochastic inventory-control MDP run by an epsilon-greedy base-stock policy, held-out
episodes validating; obesity levels from eating habits and physical condition (Palechor and de la Hoz Manotas 2019, UCI:
gender, age, family history, FAVC, FCVC, NCP, CAEC, CH2O, SCC, FAF, TUE, CALC, MTRANS; seven NObeyesdad classes labelled from
the BMI; an MLP with dropout, Height and Weight dropped); DA-RNN (Qin et al. 2017, shrunk: an input-attention LSTM encoder
over ten driving series, a temporal-attention LSTM decoder over the target's past, the target at the window's last step; MSE
on the standardised index, split in time) on a NASDAQ-100-like index of ten stocks; a direct-method reward model for
off-policy evaluation of a contextual bandit (Dudik, Langford and Li 2011: an MLP from the user's context to one click logit
an arm, BCE with logits on the logged arm only; a batch of three tensors, a forward and a custom step of their own) on logs
of a softmax logging policy; and amortised parameter inference for Lotka-Volterra predator-prey dynamics (a 1-D CNN from
noisy log population trajectories to the four standardised log rate constants, MSE; simulated with a vectorised RK4 whose
parameters are broadcast as (n, 1, 4)).
At most about 1100 training items a program and about 30k trainable parameters; an epoch of a plain loop 0.01-0.6 s on one
busy core (CHECKS). Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this
module after half BG.

Protocol: written by a helper in a worktree at 7fa7964 (branch halfBI), held out from the rules frozen at 7fa7964 (round 68).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers, the half-A GCN's full-graph
format and tail (the import lines), half AO whole, the module docstrings of the other halves and the tallies of their @broken
rung and cause arguments (with greps of the halves for candidate family names), and ladder_sweep.py's --half line (a grep for
'half' there also showed its usage lines). Each program was checked by hand only with a plain torch loop of its author's
kind (shapes, eight epochs: the healthy ones learn, the broken ones are broken as meant), seed 0 only. No program declares
groups. Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half BI`; no program changes after the
run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import copy
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- DeepDDI (Ryu, Kim and Lee 2018): structural similarity profiles of a drug pair, an MLP over interaction types
def _ddi(seed, drugs=80, bits=128, pairs=650, types=6):
    """Drugs as 128-bit fingerprints around five chemotypes; each unordered pair's interaction type from the two chemotypes
    (a symmetric table), a fifth of the pairs their own mechanism (a random type). Returns fingerprints (80, 128), the
    pairs (650, 2) with i < j and their types."""
    g = np.random.default_rng(1000 + seed * 3001); ct = g.integers(0, 5, drugs); proto = g.random((5, bits)) < 0.25
    fp = np.where(g.random((drugs, bits)) < 0.18, ~proto[ct], proto[ct])
    T = g.integers(0, types, (5, 5)); T = np.triu(T) + np.triu(T, 1).T
    allp = np.array([(i, j) for i in range(drugs) for j in range(i + 1, drugs)]); P = allp[g.choice(len(allp), pairs, replace=False)]
    y = T[ct[P[:, 0]], ct[P[:, 1]]]; odd = g.random(pairs) < 0.2; y[odd] = g.integers(0, types, odd.sum())
    return fp, P, y

def ssp(fp, k=20):
    "Each drug's Tanimoto similarity to every drug (its structural similarity profile), reduced to k components by PCA."
    from sklearn.decomposition import PCA
    f = fp.astype(float); inter = f @ f.T; sim = inter / (f.sum(1)[:, None] + f.sum(1)[None] - inter)
    return PCA(k, random_state=0).fit_transform(sim).astype(np.float32)

class DDINet(nn.Module):
    def __init__(self, d=40, h=128, n=6):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.BatchNorm1d(h), nn.Linear(h, 64), nn.ReLU(), nn.BatchNorm1d(64), nn.Linear(64, n))
    def forward(self, x): return self.net(x)

@healthy('BI')
def deepddi_mlp(seed, split_rows=False):  # cross-entropy over six types, Adam 1e-3, batches of 64; a fifth of the pairs validate
    """The pairs split first, then each side given both orders (A, B) and (B, A) with the same type. split_rows: the table
    augmented with both orders first and train_test_split over its rows, so the reverse of most validation pairs trains."""
    from sklearn.model_selection import train_test_split
    fp, P, y = _ddi(seed); S = ssp(fp)
    both = lambda idx: (np.concatenate([P[idx], P[idx][:, ::-1]]), np.concatenate([y[idx], y[idx]]))
    if split_rows:
        PP, yy = both(np.arange(len(y))); tr, va = train_test_split(np.arange(len(yy)), test_size=0.2, random_state=seed)
        (Ptr, ytr), (Pva, yva) = (PP[tr], yy[tr]), (PP[va], yy[va])
    else:
        tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed); (Ptr, ytr), (Pva, yva) = both(tr), both(va)
    ds = lambda Pp, yy: TensorDataset(_t(np.concatenate([S[Pp[:, 0]], S[Pp[:, 1]]], 1)), _t(yy, torch.long))
    return dict(model=DDINet, train=ds(Ptr, ytr), valid=ds(Pva, yva), num_classes=6, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Item2Vec (Barkan and Koenigstein 2016): skip-gram with negative sampling over baskets
def _baskets(seed, items=200, cats=10, n=260):
    "Baskets of 3-8 items, mostly from one category (a second now and then); item popularity Zipf-like within a category."
    g = np.random.default_rng(1000 + seed * 3011); cat = np.arange(items) % cats; pop = 1 / (1 + np.arange(items) // cats) ** 0.8
    out = []
    for _ in range(n):
        c = g.integers(cats, size=2); k = int(g.integers(3, 9)); pool = np.where((cat == c[0]) | ((cat == c[1]) & (g.random(items) < 0.3)))[0]
        out.append(g.choice(pool, min(k, len(pool)), replace=False, p=pop[pool] / pop[pool].sum()))
    return out, pop

def sgns_pairs(baskets, pop, g, neg=5):
    "Each item of a basket as a centre with one other item of the basket as its context, five negatives from the unigram^0.75."
    p = pop ** 0.75 / (pop ** 0.75).sum(); C, X = [], []
    for b in baskets:
        for i in b: C.append(i); X.append(g.choice(b[b != i]))
    return torch.tensor(C), torch.tensor(X), torch.tensor(g.choice(len(pop), (len(C), neg), p=p))

class Item2Vec(nn.Module):
    "word2vec's init: the input vectors uniform(-0.5/d, 0.5/d), the output vectors zero (zero_both: the input ones zeroed too)."
    def __init__(self, items=200, d=32, zero_both=False):
        super().__init__(); self.inp, self.out = nn.Embedding(items, d), nn.Embedding(items, d)
        nn.init.zeros_(self.out.weight)
        if zero_both: nn.init.zeros_(self.inp.weight)
        else: nn.init.uniform_(self.inp.weight, -0.5 / d, 0.5 / d)
    def forward(self, c, ctx, negs):
        v = self.inp(c); return torch.einsum('bd,bkd->bk', v, self.out(torch.cat([ctx[:, None], negs], 1)))  # (B, 1 + neg) logits

def sgns_loss(logits, target): return F.binary_cross_entropy_with_logits(logits, target, reduction='none').sum(1).mean()

def _i2v_fwd(model, b):
    c, ctx, negs = b; logits = model(c, ctx, negs); t = torch.zeros_like(logits); t[:, 0] = 1; return logits, t

@healthy('BI')
def item2vec_baskets(seed, zero_both=False):  # Adam 5e-3, batches of 64; 200 baskets train, 60 validate (the SGNS loss on their pairs)
    bs, pop = _baskets(seed); g = np.random.default_rng(seed)
    return dict(model=lambda: Item2Vec(zero_both=zero_both), train=TensorDataset(*sgns_pairs(bs[:200], pop, g)), valid=TensorDataset(*sgns_pairs(bs[200:], pop, g)),
                forward=_i2v_fwd, loss=sgns_loss, optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- ApproxNDCG (Qin, Liu and Li 2010) on product-search queries
def _product_search(seed, queries=80, docs=20, d=12):
    """Per query 20 products retrieved by a first stage, in its run order (descending BM25 score, feature 0), with doc ids;
    12 features (BM25 of title and description, category match, price z-score, rating, reviews, click-through...) noisy views
    of a latent match and quality; graded relevance 0-3 in a qrels table of (qid, docid, grade)."""
    g = np.random.default_rng(1000 + seed * 3019); Wm, Wq = g.normal(0, 1, d) * (g.random(d) < 0.7), g.normal(0, 1, d) * (g.random(d) < 0.5); Wm[0], Wq[0] = 1.2, 0.0
    X, ids, qrels = [], [], []
    for q in range(queries):
        m, qu = g.normal(0, 1, docs), g.normal(0, 1, docs); x = m[:, None] * Wm + qu[:, None] * Wq + g.normal(0, 0.7, (docs, d))
        rel = np.digitize(1.0 * m + 0.5 * qu + g.normal(0, 0.4, docs), [0.4, 1.2, 1.9]); did = g.choice(10 ** 6, docs, replace=False)
        o = np.argsort(-x[:, 0]); X.append(x[o]); ids.append(did[o]); qrels.append({int(k): int(r) for k, r in zip(did, rel)})
    return np.array(X, np.float32), np.array(ids), qrels

def approx_ndcg_loss(scores, rel, alpha=10.0):
    "Minus the approximate NDCG: rank_i ~ 1 + sum_j sigmoid(alpha (s_j - s_i)), DCG over the smooth ranks, over the ideal DCG."
    diff = scores[..., None, :] - scores[..., :, None]; rank = 0.5 + torch.sigmoid(alpha * diff).sum(-1)  # the j = i term adds 0.5
    gain = 2.0 ** rel - 1; dcg = (gain / torch.log2(1 + rank)).sum(-1)
    ideal = (torch.sort(gain, -1, descending=True).values / torch.log2(torch.arange(rel.shape[-1]) + 2.0)).sum(-1).clamp(min=1e-9)
    return -(dcg / ideal).mean()

class ProductScorer(nn.Module):
    def __init__(self, d=12):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x).squeeze(-1)

@healthy('BI')
def approxndcg_product_search(seed, grades_by_sorted_id=False):  # Adam 1e-3, batches of 4 queries; 64 queries train, 16 validate
    """The grades joined to the run's documents by doc id (grades_by_sorted_id: [grade for _, grade in sorted(qrels[q].items())],
    the grades in doc-id order laid against the documents in run order). The features standardised by the training documents."""
    X, ids, qrels = _product_search(seed)
    R = np.array([[g for _, g in sorted(qr.items())] if grades_by_sorted_id else [qr[int(k)] for k in ii] for ii, qr in zip(ids, qrels)], np.float32)
    q = np.random.default_rng(seed).permutation(len(X)); tr, va = q[:64], q[64:]
    m, s = X[tr].reshape(-1, X.shape[2]).mean(0), X[tr].reshape(-1, X.shape[2]).std(0)
    ds = lambda i: TensorDataset(_t((X[i] - m) / s), _t(R[i]))
    return dict(model=ProductScorer, train=ds(tr), valid=ds(va), loss=approx_ndcg_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=4))

# ---------------------------------------------------------------- FCN for time-series classification (Wang, Yan and Oates 2017) on Synthetic Control Chart series
SCC_CLASSES = ['normal', 'cyclic', 'increasing', 'decreasing', 'upward_shift', 'downward_shift']

def _control_charts(seed, per_class=100, n=60):
    "Alcock and Manolopoulos' generator: m 30, s 2, r in [-3, 3]; a, T in [10, 15]; g in [0.2, 0.5]; x in [7.5, 20], shift at t3 in [n/3, 2n/3]."
    g = np.random.default_rng(1000 + seed * 3023); t = np.arange(n); X, y = [], []
    for c in range(6):
        for _ in range(per_class):
            s = 30 + 2 * g.uniform(-3, 3, n)
            if c == 1: s += g.uniform(10, 15) * np.sin(2 * np.pi * t / g.uniform(10, 15))
            elif c in (2, 3): s += (1 if c == 2 else -1) * g.uniform(0.2, 0.5) * t
            elif c in (4, 5): s += (1 if c == 4 else -1) * g.uniform(7.5, 20) * (t >= g.integers(n // 3, 2 * n // 3))
            X.append(s); y.append(c)
    X = np.array(X); X = (X - X.mean(1, keepdims=True)) / X.std(1, keepdims=True)
    return X.astype(np.float32)[:, None], np.array(y)

class FCN(nn.Module):
    "Three conv-BN-ReLU blocks (128-256-128 filters in the paper; 32-64-32 here), global average pooling (keras_softmax: the Dense(6, activation='softmax') kept)."
    def __init__(self, n=6, keras_softmax=False):
        super().__init__(); blk = lambda i, o, k: [nn.Conv1d(i, o, k, padding='same'), nn.BatchNorm1d(o), nn.ReLU()]
        self.body = nn.Sequential(*blk(1, 32, 8), *blk(32, 64, 5), *blk(64, 32, 3)); self.fc = nn.Linear(32, n); self.keras_softmax = keras_softmax
    def forward(self, x):
        o = self.fc(self.body(x).mean(-1)); return F.softmax(o, -1) if self.keras_softmax else o

@healthy('BI')
def fcn_control_charts(seed, keras_softmax=False):  # nn.CrossEntropyLoss, Adam 1e-3, batches of 16; a stratified train_test_split 80/20
    from sklearn.model_selection import train_test_split
    X, y = _control_charts(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    return dict(model=lambda: FCN(keras_softmax=keras_softmax), train=TensorDataset(_t(X[tr]), _t(y[tr], torch.long)), valid=TensorDataset(_t(X[va]), _t(y[va], torch.long)),
                loss=nn.CrossEntropyLoss(), num_classes=6, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- used-car prices from scraped listings: an MLP on the log price
CAR_MAKES, CAR_FUELS = ['vw', 'ford', 'toyota', 'bmw', 'audi', 'opel', 'renault', 'skoda'], ['petrol', 'diesel', 'hybrid']

def _listings(seed, cars=640):
    """Scraped ads: each car (VIN) its make, age, mileage, engine size, fuel, gearbox and owners, and a condition of its own
    that no column records; about 40% of the cars reposted 1-3 times weeks later (price cut 0-6%, a few hundred km more)."""
    g = np.random.default_rng(1000 + seed * 3037); rows = []; base = dict(zip(CAR_MAKES, [9.9, 9.7, 9.9, 10.4, 10.3, 9.5, 9.5, 9.7]))
    for v in range(cars):
        mk = CAR_MAKES[g.integers(8)]; age = float(g.integers(1, 16)); km = max(1000.0, g.normal(15000 * age, 6000 * np.sqrt(age))); eng = float(np.round(g.uniform(1.0, 3.0), 1))
        fuel = CAR_FUELS[g.choice(3, p=[.55, .35, .1])]; auto = float(g.random() < 0.4); own = int(1 + g.poisson(age / 6)); cond = g.normal(0, 0.18)
        lp = base[mk] - 0.09 * age - 0.35 * km / 1e5 + 0.25 * (eng - 1.6) + 0.1 * (fuel == 'hybrid') + 0.08 * auto - 0.04 * (own - 1) + cond
        for k in range(1 + (int(g.integers(1, 4)) if g.random() < 0.4 else 0)):
            rows.append(dict(vin=v, make=mk, age=age, km=km + 300 * k * g.random(), engine=eng, fuel=fuel, automatic=auto, owners=own, price=float(np.exp(lp) * (1 - 0.06 * g.random() * (k > 0)))))
    return rows

def car_features(rows, ref):
    num = lambda rr: np.array([[r['age'], np.log(r['km']), r['engine'], r['owners']] for r in rr])
    oh = np.array([[r['make'] == m for m in CAR_MAKES] + [r['fuel'] == f for f in CAR_FUELS] + [r['automatic']] for r in rows], float)
    return np.column_stack([(num(rows) - num(ref).mean(0)) / num(ref).std(0), oh]).astype(np.float32)

class CarMLP(nn.Module):
    def __init__(self, d=16):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('BI')
def used_car_price_mlp(seed, split_ads=False):  # MSE on log(price) less the training mean, Adam 1e-3, batches of 32
    """GroupShuffleSplit by VIN, a fifth of the cars validating (split_ads: train_test_split over the ads, so the reposts of a
    validation car sit in training)."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    rows = _listings(seed); vin = np.array([r['vin'] for r in rows])
    if split_ads: tr, va = train_test_split(np.arange(len(rows)), test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(rows, groups=vin))
    X = car_features(rows, [rows[i] for i in tr]); y = np.log([[r['price']] for r in rows]).astype(np.float32); y = y - y[tr].mean()
    return dict(model=CarMLP, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- H2GCN (Zhu et al. 2020) on a heterophilous graph read from an edge list
def _hetero_graph(seed, n=400, c=5, f=30):
    """Nodes with string ids 'u<k>' in a node table (id, 30 features, label); edges mostly across classes (class c links to
    c + 1 and c + 2 mod 5; homophily about 0.15), listed in an edge file in random order."""
    g = np.random.default_rng(1000 + seed * 3041); y = g.integers(0, c, n); mu = g.normal(0, 1, (c, f)) * 0.6; X = mu[y] + g.normal(0, 1, (n, f))
    edges = set()
    while len(edges) < 3 * n:
        i = int(g.integers(n)); tgt = (y[i] + g.choice([0, 1, 2], p=[0.15, 0.45, 0.4])) % c; j = int(g.choice(np.flatnonzero(y == tgt)))
        if i != j: edges.add((min(i, j), max(i, j)))
    E = np.array(sorted(edges)); E = E[g.permutation(len(E))]
    return [f'u{k}' for k in range(n)], X.astype(np.float32), y, [(f'u{a}', f'u{b}') for a, b in E]

def h2gcn_adj(idx_edges, n):
    "The 1-hop adjacency without self-loops and the strict 2-hop one (reachable in two steps, not in one, not itself), each symmetrically normalised."
    A = torch.zeros(n, n); A[idx_edges[:, 0], idx_edges[:, 1]] = 1; A = ((A + A.T) > 0).float()
    A2 = (((A @ A) > 0).float() - A - torch.eye(n)).clamp(min=0)
    norm = lambda M: M / (M.sum(1, keepdim=True).clamp(min=1).sqrt() * M.sum(0, keepdim=True).clamp(min=1).sqrt())
    return norm(A), norm(A2)

class H2GCN(nn.Module):
    def __init__(self, f=30, h=32, c=5, k=2, dropout=0.5):
        super().__init__(); self.embed = nn.Linear(f, h); self.k = k; self.drop = nn.Dropout(dropout); self.out = nn.Linear(h * (2 ** (k + 1) - 1), c)
    def forward(self, x, a1, a2):
        r = [F.relu(self.embed(x))]
        for _ in range(self.k): r.append(torch.cat([a1 @ r[-1], a2 @ r[-1]], 1))
        return self.out(self.drop(torch.cat(r, 1)))

@healthy('BI')
def h2gcn_hetero_graph(seed, labels_by_file_order=False):  # cross-entropy on the labelled nodes, Adam 0.01 with weight decay 5e-4; 200 nodes train, 100 validate
    """The nodes indexed in order of first appearance in the edge file (pd.factorize of the two columns), the feature rows
    and the labels taken from the node table through that index (labels_by_file_order: the features reindexed, the label
    column left in the node table's order)."""
    ids, X, y, E = _hetero_graph(seed); flat = [u for e in E for u in e]; order = list(dict.fromkeys(flat + ids)); pos = {u: i for i, u in enumerate(order)}
    row = np.array([ids.index(u) for u in order]); n = len(order)
    Xn, yn = X[row], (y if labels_by_file_order else y[row])
    a1, a2 = h2gcn_adj(torch.tensor([[pos[a], pos[b]] for a, b in E]), n)
    p = np.random.default_rng(seed).permutation(n); tr, va = torch.zeros(n, dtype=torch.bool), torch.zeros(n, dtype=torch.bool); tr[p[:200]] = True; va[p[200:300]] = True
    fwd = lambda model, b: (model(b[0], b[1], b[2])[b[4]], b[3][b[4]])
    return dict(model=H2GCN, train=OneItem(_t(Xn), a1, a2, _t(yn, torch.long), tr), valid=OneItem(_t(Xn), a1, a2, _t(yn, torch.long), va), collate_fn=_one,
                forward=fwd, num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- UCI Spambase (Hopkins, Reeber, Forman and Suermondt 1999): an MLP, BCE with logits
def _spambase(seed, n=1000, words=48, chars=6):
    """spambase.data's 58 columns: 48 word and 6 character frequencies (percent, mostly 0), the average, longest and total
    capital runs, and the class (1 spam, about 39%) last."""
    g = np.random.default_rng(1000 + seed * 3049); spam = g.random(n) < 0.39; rate_h, rate_s = g.uniform(0.02, 0.3, words + chars), g.uniform(0.02, 0.3, words + chars)
    k = g.random(words + chars) < 0.4; rate_s[k] = np.clip(rate_h[k] * g.uniform(2, 6, k.sum()), 0, 0.8); j = g.random(words + chars) < 0.2; rate_h[j] = np.clip(rate_s[j] * g.uniform(2, 5, j.sum()), 0, 0.8)
    rate = np.where(spam[:, None], rate_s, rate_h); present = g.random((n, words + chars)) < rate; F_ = present * g.exponential(0.6, (n, words + chars))
    cap_avg = np.exp(g.normal(np.where(spam, 1.4, 0.9), 0.6)); cap_long = np.round(cap_avg * np.exp(g.normal(1.5, 0.7, n))) + 1; cap_tot = np.round(cap_long * np.exp(g.normal(np.where(spam, 2.0, 1.4), 0.8)))
    return np.column_stack([np.round(F_, 2), cap_avg, cap_long, cap_tot, spam]).astype(np.float32)

class SpamMLP(nn.Module):
    def __init__(self, d=57):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('BI')
def spambase_mlp(seed, y_col=-1):  # BCE with logits, Adam 1e-3, batches of 32; a stratified train_test_split 80/20
    "X = data[:, :-1] through log1p and a StandardScaler fit on the training rows; y = data[:, y_col] (y_col 0: the first column, word_freq_make)."
    from sklearn.model_selection import train_test_split
    D = _spambase(seed); X, y = np.log1p(D[:, :-1]), D[:, y_col:y_col + 1 if y_col != -1 else None]
    tr, va = train_test_split(np.arange(len(D)), test_size=0.2, random_state=seed, stratify=D[:, -1])
    return dict(model=SpamMLP, train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr])), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va])),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- QR-DQN (Dabney, Rowland, Bellemare and Munos 2018) from a fixed buffer of an inventory-control MDP
def _inventory(seed, episodes=38, T=40, cap=10):
    """Stock 0-10, orders of 0-3 units arriving at once, Poisson demand with a weekly cycle (mean 1-2); reward 1 a unit sold
    less 0.3 an ordered unit, 0.05 a unit held and 0.5 a unit short. Behaviour: order up to 4 units of stock, a random
    order 30% of the time. State (stock / 10, day of week / 6). Returns per episode the transitions (s, a, r, s', done)."""
    g = np.random.default_rng(1000 + seed * 3061); eps = []
    for _ in range(episodes):
        stock, tr = int(g.integers(0, 6)), []
        for t in range(T):
            s = [stock / cap, (t % 7) / 6]; a = int(g.integers(4)) if g.random() < 0.3 else int(np.clip(4 - stock, 0, 3))
            have = min(cap, stock + a); d = int(g.poisson(1.5 + 0.5 * np.sin(2 * np.pi * t / 7))); sold = min(have, d)
            stock = have - sold; r = sold - 0.3 * a - 0.05 * stock - 0.5 * (d - sold)
            tr.append((s, a, r, [stock / cap, ((t + 1) % 7) / 6], float(t == T - 1)))
        eps.append(tr)
    return eps

class QuantileNet(nn.Module):
    "An online MLP and its target copy (no gradients), 16 quantiles for each of the four orders."
    def __init__(self, h=64, A=4, N=16):
        super().__init__(); self.A, self.N = A, N; self.net = nn.Sequential(nn.Linear(2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, A * N))
        self.target = copy.deepcopy(self.net).requires_grad_(False); self.steps = 0
    def forward(self, s): return self.net(s).view(-1, self.A, self.N)
    def target_quantiles(self, s): return self.target(s).view(-1, self.A, self.N)

GAMMA_INV = 0.9

def _qr_fwd(model, b):
    s, a, r, s2, done = b; theta = model(s)[torch.arange(len(a)), a]  # (B, N)
    with torch.no_grad():
        nq = model.target_quantiles(s2); a2 = nq.mean(2).argmax(1); target = r[:, None] + GAMMA_INV * (1 - done[:, None]) * nq[torch.arange(len(a)), a2]
    return theta, target

def quantile_huber_loss(theta, target, kappa=1.0):
    N = theta.shape[1]; tau = (torch.arange(N, dtype=torch.float32) + 0.5) / N
    u = target[:, None, :] - theta[:, :, None]  # (B, N_i, N_j)
    hub = torch.where(u.abs() <= kappa, 0.5 * u ** 2, kappa * (u.abs() - 0.5 * kappa))
    return ((tau[None, :, None] - (u.detach() < 0).float()).abs() * hub / kappa).sum(1).mean()

def _qr_step(sync_every=50, step_indented=False):
    def qr_step(model, batch, opt):  # the author's loop: forward, quantile loss, backward, step; the target synced every 50 steps
        opt.zero_grad(); theta, target = _qr_fwd(model, batch); loss = quantile_huber_loss(theta, target); loss.backward()
        model.steps += 1
        if not step_indented: opt.step()
        if model.steps % sync_every == 0:
            if step_indented: opt.step()  # indented under the sync block when the target update was added
            model.target.load_state_dict(model.net.state_dict())
        return loss
    return qr_step

class Transitions(Dataset):
    def __init__(self, eps): self.t = [t for e in eps for t in e]
    def __len__(self): return len(self.t)
    def __getitem__(self, i):
        s, a, r, s2, d = self.t[i]; return torch.tensor(s, dtype=torch.float32), torch.tensor(a), torch.tensor(r, dtype=torch.float32), torch.tensor(s2, dtype=torch.float32), torch.tensor(d, dtype=torch.float32)

@healthy('BI')
def qrdqn_inventory(seed, step_indented=False):  # the quantile Huber loss, Adam 5e-4, batches of 32; 30 episodes train, 8 validate; a custom step
    eps = _inventory(seed)
    return dict(model=QuantileNet, train=Transitions(eps[:30]), valid=Transitions(eps[30:]), forward=_qr_fwd, loss=quantile_huber_loss, step=_qr_step(step_indented=step_indented),
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- obesity levels from eating habits and physical condition (Palechor and de la Hoz Manotas 2019, UCI)
OB_CLASSES = ['Insufficient_Weight', 'Normal_Weight', 'Overweight_Level_I', 'Overweight_Level_II', 'Obesity_Type_I', 'Obesity_Type_II', 'Obesity_Type_III']

def _obesity(seed, n=1000):
    """Rows of ObesityDataSet: Gender, Age, Height (m), Weight (kg), family_history_with_overweight, FAVC, FCVC (1-3), NCP
    (1-4), CAEC and CALC (no/Sometimes/Frequently/Always), SMOKE, CH2O (1-3), SCC, FAF (0-3), TUE (0-2), MTRANS; the BMI set by
    the habits, the family history and age plus much of its own; NObeyesdad from the BMI's WHO bands."""
    g = np.random.default_rng(1000 + seed * 3067); male = g.random(n) < 0.5; age = np.clip(g.gamma(6, 4, n), 14, 61); fam = g.random(n) < 0.8
    favc = g.random(n) < 0.85; fcvc = g.uniform(1, 3, n); ncp = g.uniform(1, 4, n); caec = g.choice(4, n, p=[.05, .7, .15, .1]); calc = g.choice(4, n, p=[.3, .6, .08, .02])
    smoke = g.random(n) < 0.05; ch2o = g.uniform(1, 3, n); scc = g.random(n) < 0.05; faf = g.uniform(0, 3, n); tue = g.uniform(0, 2, n); mtrans = g.choice(5, n, p=[.2, .05, .05, .65, .05])
    bmi = (23 + 5 * fam + 2 * favc - 1.5 * (fcvc - 2) + 2.5 * (caec == 0) - 1.5 * (caec >= 2) - 2 * (faf - 1.5) + 0.12 * (age - 24) + 1.0 * tue + 1.5 * (calc == 1)
           - 2 * scc - 1.5 * (mtrans >= 3) * 0 + 2 * (mtrans == 0) + g.normal(0, 4.5, n))
    bmi = np.clip(bmi, 15, 50); height = np.where(male, g.normal(1.76, 0.07, n), g.normal(1.63, 0.07, n)); weight = bmi * height ** 2
    y = np.digitize(bmi, [18.5, 25, 27.5, 30, 35, 40])
    X = np.column_stack([male, age, height, weight, fam, favc, fcvc, ncp, np.eye(4)[caec], smoke, ch2o, scc, faf, tue, np.eye(4)[calc], np.eye(5)[mtrans]]).astype(np.float32)
    return X, y

class ObesityMLP(nn.Module):
    def __init__(self, d, n=7):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, n))
    def forward(self, x): return self.net(x)

@healthy('BI')
def obesity_habits_mlp(seed, keep_body=False):  # cross-entropy over seven classes, Adam 1e-3, batches of 32; a stratified train_test_split 80/20
    """The questionnaire's habits only: Height and Weight dropped, since NObeyesdad is their BMI (keep_body: X = df.drop(columns=
    ['NObeyesdad']), Height and Weight among the inputs). Numbers standardised by the training rows."""
    from sklearn.model_selection import train_test_split
    X, y = _obesity(seed); X = X if keep_body else np.delete(X, [2, 3], 1)
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    return dict(model=lambda: ObesityMLP(X.shape[1]), train=TensorDataset(_std(_t(X[tr]), _t(X[tr])), _t(y[tr], torch.long)), valid=TensorDataset(_std(_t(X[va]), _t(X[tr])), _t(y[va], torch.long)),
                num_classes=7, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- DA-RNN (Qin et al. 2017): dual-stage attention on a NASDAQ-100-like index
def _nasdaq(seed, T=1300, k=10):
    "Ten stocks' log prices (a market factor, sector factors, their own walks) a minute, and the index: a weighted sum plus an AR(1) deviation of its own."
    g = np.random.default_rng(1000 + seed * 3079); m = np.cumsum(g.normal(0, 1, T)); sec = np.cumsum(g.normal(0, 1, (T, 3)), 0)
    P = 0.6 * m[:, None] + sec[:, np.arange(k) % 3] * 0.6 + np.cumsum(g.normal(0, 0.7, (T, k)), 0); w = g.dirichlet(np.ones(k) * 2)
    e = np.zeros(T)
    for t in range(1, T): e[t] = 0.8 * e[t - 1] + g.normal(0, 0.8)
    return P.astype(np.float32), (P @ w + e).astype(np.float32)

def darnn_windows(P, y, L=10, y_through_t=False):
    """Inputs: the driving series x_{t-L+1..t} and the index y_{t-L..t-1}; target y_t (y_through_t: y[i:i + L] as the index
    window and y[i + L - 1] as the target, the slice bounds shifted by one when the windows were cut with the x's)."""
    n = len(y) - L; X = np.stack([P[i + 1:i + L + 1] for i in range(n)])
    Y = np.stack([y[i + 1:i + L + 1] if y_through_t else y[i:i + L] for i in range(n)]); t = y[L:L + n]
    return X, Y[..., None], t[:, None]

class DARNN(nn.Module):
    def __init__(self, k=10, L=10, h=32):
        super().__init__(); self.h, self.L = h, L
        self.enc = nn.LSTMCell(k, h); self.attn_in = nn.Linear(2 * h + L, 1)
        self.dec = nn.LSTMCell(1, h); self.attn_t = nn.Sequential(nn.Linear(3 * h, h), nn.Tanh(), nn.Linear(h, 1)); self.fc_in = nn.Linear(h + 1, 1); self.out = nn.Linear(2 * h, 1)
    def forward(self, x, yp):
        B, L, k = x.shape; hs, c = x.new_zeros(B, self.h), x.new_zeros(B, self.h); H = []
        for t in range(L):  # input attention over the driving series from the encoder's state
            e = self.attn_in(torch.cat([hs[:, None].expand(B, k, self.h), c[:, None].expand(B, k, self.h), x.transpose(1, 2)], -1)).squeeze(-1)
            hs, c = self.enc(torch.softmax(e, 1) * x[:, t], (hs, c)); H.append(hs)
        H = torch.stack(H, 1); d, s = x.new_zeros(B, self.h), x.new_zeros(B, self.h)
        for t in range(L):  # temporal attention over the encoder's states from the decoder's
            b = torch.softmax(self.attn_t(torch.cat([d[:, None].expand(B, L, self.h), s[:, None].expand(B, L, self.h), H], -1)).squeeze(-1), 1)
            ctx = (b[..., None] * H).sum(1); d, s = self.dec(self.fc_in(torch.cat([yp[:, t], ctx], -1)), (d, s))
        return self.out(torch.cat([d, ctx], -1))

def _darnn_fwd(model, b): x, yp, t = b; return model(x, yp), t

@healthy('BI')
def darnn_nasdaq(seed, y_through_t=False):  # MSE on the standardised index, Adam 1e-3, batches of 32; the last fifth of the minutes validate
    "Prices and the index standardised by the training minutes; windows cut after the split (the validation windows from the last fifth)."
    P, y = _nasdaq(seed); cut = int(0.8 * len(y)); m, s, my, sy = P[:cut].mean(0), P[:cut].std(0), y[:cut].mean(), y[:cut].std()
    P, y = (P - m) / s, (y - my) / sy
    ds = lambda PP, yy: TensorDataset(*(_t(a) for a in darnn_windows(PP, yy, y_through_t=y_through_t)))
    return dict(model=DARNN, train=ds(P[:cut], y[:cut]), valid=ds(P[cut:], y[cut:]), forward=_darnn_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a direct-method reward model for off-policy evaluation of a contextual bandit (Dudik, Langford and Li 2011)
def _bandit_log(seed, n=1250, d=10, arms=8):
    """Users' 10-d contexts, eight items; the click probability sigmoid(u W_a + b_a); the logging policy a softmax over a noisy
    copy of the scores (temperature 1); rows (context, logged arm, click, propensity)."""
    g = np.random.default_rng(1000 + seed * 3083); W, b = g.normal(0, 0.8, (d, arms)), g.normal(-1.2, 0.5, arms); U = g.normal(0, 1, (n, d))
    z = U @ W + b; lp = z + g.normal(0, 1, z.shape); pi = np.exp(lp - lp.max(1, keepdims=True)); pi /= pi.sum(1, keepdims=True)
    a = np.array([g.choice(arms, p=p) for p in pi]); click = (g.random(n) < 1 / (1 + np.exp(-z[np.arange(n), a]))).astype(np.float32)
    return U.astype(np.float32), a, click[:, None], pi[np.arange(n), a]

class RewardModel(nn.Module):
    def __init__(self, d=10, arms=8, h=64):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, arms))
    def forward(self, x): return self.net(x)

def _dm_fwd(model, b): x, a, r = b; return model(x).gather(1, a[:, None]), r

def _dm_step(zero_grad=True):
    def dm_step(model, batch, opt):  # the author's loop body
        if zero_grad: opt.zero_grad()
        q, r = _dm_fwd(model, batch); loss = F.binary_cross_entropy_with_logits(q, r); loss.backward(); opt.step(); return loss
    return dm_step

@healthy('BI')
def bandit_direct_method(seed, zero_grad=True):  # BCE with logits on the logged arm, Adam 1e-3, batches of 64; the first 1000 logged rounds train, the last 250 validate
    "A custom step (zero_grad False: the loop written without optimizer.zero_grad())."
    U, a, r, _ = _bandit_log(seed); ds = lambda i: TensorDataset(_t(U[i]), _t(a[i], torch.long), _t(r[i]))
    return dict(model=RewardModel, train=ds(slice(0, 1000)), valid=ds(slice(1000, None)), forward=_dm_fwd, loss=nn.BCEWithLogitsLoss(), step=_dm_step(zero_grad),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- amortised parameter inference for Lotka-Volterra dynamics: a 1-D CNN from trajectories to rate constants
def lotka_volterra(theta, x0, T=15.0, steps=300, obs=50):
    "Vectorised RK4 of dx = a x - b x y, dy = d x y - c y; theta (n, 1, 4), each theta[..., i] an (n, 1) column against x's; returns (n, 2, obs)."
    a, b, c, d = (theta[..., i] for i in range(4)); x, y = x0[:, :1].copy(), x0[:, 1:].copy(); h = T / steps; out = []; every = steps // obs
    f = lambda x, y: (a * x - b * x * y, d * x * y - c * y)
    for k in range(steps):
        if k % every == 0: out.append(np.concatenate([x, y], 1))
        k1 = f(x, y); k2 = f(x + h / 2 * k1[0], y + h / 2 * k1[1]); k3 = f(x + h / 2 * k2[0], y + h / 2 * k2[1]); k4 = f(x + h * k3[0], y + h * k3[1])
        x = np.clip(x + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]), 1e-3, 1e3); y = np.clip(y + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]), 1e-3, 1e3)
    return np.stack(out, -1)

def _lv(seed, n=1200):
    "log a, log c ~ U(log 0.5, log 1.5), log b, log d ~ U(log 0.02, log 0.1); x0, y0 ~ U(10, 40); log-normal observation noise 0.1."
    g = np.random.default_rng(1000 + seed * 3089); lo, hi = np.log([0.5, 0.02, 0.5, 0.02]), np.log([1.5, 0.1, 1.5, 0.1])
    log_theta = (lo + (hi - lo) * g.random((n, 4)))[:, None, :]  # (n, 1, 4): a row per simulation, its columns against the (n, 1) states
    traj = lotka_volterra(np.exp(log_theta), g.uniform(10, 40, (n, 2)))
    return (np.log(traj) + g.normal(0, 0.1, traj.shape)).astype(np.float32), log_theta.astype(np.float32)

class LVNet(nn.Module):
    def __init__(self, p=4):
        super().__init__(); self.conv = nn.Sequential(nn.Conv1d(2, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2), nn.Conv1d(32, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(32 * 12, 64), nn.ReLU(), nn.Linear(64, p))
    def forward(self, x): return self.head(self.conv(x))

@healthy('BI')
def lotka_volterra_inference(seed, squeeze=True):  # MSE on the standardised log parameters, Adam 1e-3, batches of 32; 1000 simulations train, 200 validate
    """The log trajectories standardised by the training simulations' mean and sd; the targets log_theta[:, 0] (squeeze
    False: the (n, 1, 4) array the simulator was fed, saved as the targets)."""
    X, lt = _lv(seed); lt = lt[:, 0] if squeeze else lt; m, s = lt[:1000].mean(0), lt[:1000].std(0); lt = (lt - m) / s
    mx, sx = X[:1000].mean((0, 2), keepdims=True), X[:1000].std((0, 2), keepdims=True); X = (X - mx) / sx
    return dict(model=LVNet, train=TensorDataset(_t(X[:1000]), _t(lt[:1000])), valid=TensorDataset(_t(X[1000:]), _t(lt[1000:])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half BI
@broken('BI', 'deepddi_both_orders_split_at_random', 4, ('leakage',))
def deepddi_both_orders_split_at_random(seed): return deepddi_mlp(seed, split_rows=True)  # (A, B) in validation, (B, A) with its type in training

@broken('BI', 'item2vec_both_tables_zero', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'))
def item2vec_both_tables_zero(seed): return item2vec_baskets(seed, zero_both=True)  # input and output vectors zero: every gradient zero

@broken('BI', 'approxndcg_grades_in_docid_order', 4, ('labels',))
def approxndcg_grades_in_docid_order(seed): return approxndcg_product_search(seed, grades_by_sorted_id=True)  # grades in doc-id order, documents in run order

@broken('BI', 'fcn_keras_softmax_into_cross_entropy', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def fcn_keras_softmax_into_cross_entropy(seed): return fcn_control_charts(seed, keras_softmax=True)  # a softmax, then CrossEntropyLoss's log-softmax

@broken('BI', 'used_car_reposts_split_at_random', 4, ('leakage',))
def used_car_reposts_split_at_random(seed): return used_car_price_mlp(seed, split_ads=True)  # the reposted ads of validation cars in training

@broken('BI', 'h2gcn_labels_in_node_table_order', 4, ('labels',))
def h2gcn_labels_in_node_table_order(seed): return h2gcn_hetero_graph(seed, labels_by_file_order=True)  # features reindexed to the edge file's order, labels not

@broken('BI', 'spambase_first_column_as_label', 1, ('bad_labels',))
def spambase_first_column_as_label(seed): return spambase_mlp(seed, y_col=0)  # y = data[:, 0]: word_freq_make (percentages 0-5) as the BCE target

@broken('BI', 'qrdqn_step_under_target_sync', (1, 3), ('frozen', 'not_updating', 'flat', 'stuck', 'lr_zero'))
def qrdqn_step_under_target_sync(seed): return qrdqn_inventory(seed, step_indented=True)  # optimizer.step() only every 50th batch

@broken('BI', 'obesity_height_weight_kept', 4, ('leakage',))
def obesity_height_weight_kept(seed): return obesity_habits_mlp(seed, keep_body=True)  # the label is a banding of weight / height^2

@broken('BI', 'darnn_index_window_through_target', 4, ('leakage',))
def darnn_index_window_through_target(seed): return darnn_nasdaq(seed, y_through_t=True)  # y_t itself the last step of the index window

@broken('BI', 'bandit_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def bandit_step_without_zero_grad(seed): return bandit_direct_method(seed, zero_grad=False)  # gradients summed over every batch so far

@broken('BI', 'lotka_volterra_targets_not_squeezed', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def lotka_volterra_targets_not_squeezed(seed): return lotka_volterra_inference(seed, squeeze=False)  # (B, 4) outputs against (B, 1, 4) targets: MSELoss broadcasts to (B, B, 4)

# Plain-loop checks (seed 0 only: the session's time ran short for seed 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core
# machine): the factory's optimizer, batch size, forward, loss, collate_fn and custom step, train shuffled, valid in batches of
# 256 (the full-graph and custom-collate ones in their own batches); "valid loss/metric" at init -> epochs 2, 4 and 8; the
# metric accuracy (classification), AUC (BCE with logits), R^2 (regression) or none (SGNS, ApproxNDCG: the loss is minus the
# smooth NDCG, QR-DQN). s/ep the seconds of an epoch of training, params the trainable ones. Every factory builds and runs its
# batches (forward, loss, backward, step); `ladder_gallery.HALF` holds 24 programs of half BI.
CHECKS = """
deepddi_mlp                          CE/acc 1.81/0.12 -> 1.40/0.56 -> 1.03/0.82 -> 1.05/0.81; 1040 rows (520 pairs x 2) train; 14k params; 0.03 s/ep
item2vec_baskets                     SGNS loss 4.16 (6 log 2) -> 3.90 -> 2.91 -> 2.80; 1082 pairs train; 12.8k params; 0.03 s/ep
approxndcg_product_search            -NDCG~ -0.41 -> -0.78 -> -0.86 -> -0.90; 64 queries of 20 train; 961 params; 0.02 s/ep
fcn_control_charts                   CE/acc 1.79/0.17 -> 0.98/0.85 -> 0.64/0.97 -> 0.30/1.00; 480 series train; 17k params; 0.19 s/ep
used_car_price_mlp                   MSE/R^2 0.64/0.05 -> 0.11/0.84 -> 0.047/0.93 -> 0.043/0.936; 989 ads train; 3.2k params; 0.04 s/ep
h2gcn_hetero_graph                   CE/acc 1.58/0.26 -> 1.49/0.28 -> 1.32/0.63 -> 0.96/0.86; 200 of 400 nodes train; 2.1k params; 0.01 s/ep
spambase_mlp                         BCE/AUC 0.66/0.69 -> 0.38/0.994 -> 0.21/0.995 -> 0.12/0.996; 800 rows train; 1.9k params; 0.03 s/ep
qrdqn_inventory                      quantile Huber 6.56 -> 4.63 -> 6.08 -> 5.85 (the bootstrapped quantiles growing as the target
                                     syncs; train 4.45 -> 5.44): the TD loss alone does not show learning; 1200 transitions; 8.5k
                                     params; 0.12 s/ep
obesity_habits_mlp                   CE/acc 1.99/0.14 -> 1.74/0.35 -> 1.69/0.35 -> 1.64/0.385; 800 rows train; 3.9k params; 0.03 s/ep
darnn_nasdaq                         MSE/R^2 0.90/-0.71 -> 0.090/0.83 -> 0.041/0.92 -> 0.027/0.948; 1030 windows train; 13k params; 0.58 s/ep
bandit_direct_method                 BCE/AUC 0.69/0.54 -> 0.56/0.68 -> 0.51/0.74 -> 0.48/0.78; 1000 rounds train; 5.4k params; 0.03 s/ep
lotka_volterra_inference             MSE/R^2 0.96/0.00 -> 0.36/0.63 -> 0.27/0.72 -> 0.16/0.83; 1000 simulations train; 30k params; 0.14 s/ep
deepddi_both_orders_split_at_random  CE/acc 1.79/0.13 -> 1.42/0.50 -> 0.74/0.82 -> 0.54/0.84 (healthy 1.05/0.81 at ep 8)
item2vec_both_tables_zero            SGNS loss 4.159 at every epoch, train loss 4.159 throughout: every gradient zero
approxndcg_grades_in_docid_order     -NDCG~ -0.43 -> -0.45 -> -0.47 -> -0.47 (chance; healthy -0.90)
fcn_keras_softmax_into_cross_entropy CE/acc 1.79/0.17 -> 1.51/0.68 -> 1.38/0.77 -> 1.26/0.84 (healthy 0.30/1.00): the loss floored
used_car_reposts_split_at_random     MSE/R^2 0.55/0.04 -> 0.086/0.85 -> 0.037/0.935 -> 0.031/0.945 (healthy 0.043/0.936): a small gain
                                     at 8 epochs from the reposts
h2gcn_labels_in_node_table_order     CE/acc 1.63/0.22 -> 1.63/0.22 -> 1.61/0.21 -> 1.62/0.20 (chance; healthy 0.96/0.86)
spambase_first_column_as_label       targets word_freq_make (0-5, not 0/1) into BCE with logits; no error raised; "AUC" against
                                     target > 0.5 0.65 -> 0.93
qrdqn_step_under_target_sync         quantile Huber 6.56 -> 6.54 -> 6.51 -> 6.48: one update every 50 batches
obesity_height_weight_kept           CE/acc 1.96/0.12 -> 1.72/0.35 -> 1.60/0.43 -> 1.29/0.45 (healthy 1.64/0.385), still falling
darnn_index_window_through_target    MSE/R^2 0.90/-0.71 -> 0.088/0.83 -> 0.040/0.92 -> 0.026/0.951 (healthy 0.027/0.948): in 8
                                     epochs the network does not yet use the copy of y_t in its input
bandit_step_without_zero_grad        BCE/AUC 0.69/0.54 -> 0.54/0.68 -> 0.62/0.74 -> 0.52/0.74 (healthy 0.48/0.78): the loss
                                     bouncing as the summed gradients grow
lotka_volterra_targets_not_squeezed  MSE/R^2 0.97/-0.02 -> 0.96/-0.01 -> 0.96/-0.01 -> 0.96/-0.01 (healthy 0.16/0.83): every
                                     output scored against every target of the batch, the net fits their mean
"""
