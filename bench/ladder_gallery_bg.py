"""Half BG of the ladder's gallery: held out from the rules frozen at 10e53de (round 67), and run once on them.
Families not in halves A-BE, taken only from tabular data and finance, science and engineering, graphs, recommender systems
and ranking, time series, and RL-style supervised models (a half written alongside took other domains): MQ-RNN (Wen et al.
2017: an LSTM encoder, a global MLP over the known future promotions and per-horizon local MLPs emitting three quantiles;
the pinball loss; a batch of three tensors and a forward of its own) on a synthetic store-demand panel split in time;
Cluster-GCN (Chiang et al. 2019: the graph cut into ten parts along a breadth-first order standing in for METIS, each batch
the subgraph of two parts with the diagonal enhancement; a collate_fn building it, a forward of its own) on a planted
partition graph; AFM (Xiao et al. 2017: field embeddings, pairwise products weighted by an attention network, Adagrad,
BCE with logits) on a synthetic music-streaming context log of libFM-style rows; SetRank (Pang et al. 2020: a permutation
invariant self-attention ranker over a query's documents, the attention rank loss); a graph transformer (Dwivedi and
Bresson 2020: attention restricted to the edges, Laplacian eigenvector positions; a padding collate_fn) labelling the nodes
of a planted dense pattern in SBM graphs as Benchmarking-GNNs' PATTERN; SAINT (Somepalli et al. 2021: feature embeddings,
self-attention across the columns and intersample attention across the rows) on a synthetic card-application table with a
target-encoded postcode; ODE-RNN (Rubanova et al. 2019: Euler steps of a neural ODE between irregular observations, a
GRU cell at each; a custom step) telling three oscillators apart; a Connect Four value network (a small CNN over the
board planes, win/draw/loss of greedy-rollout play from the position) for an RL-style supervised value target; a
debutanizer soft sensor (Fortuna et al. 2007: seven process variables with lags and the analyser's delayed butane
readings, an MLP with tanh, the [0, 1] scaled data, a time split); perovskite band gaps (ABX3 descriptors: radii,
tolerance and octahedral factors, electronegativities, the functional used; several entries a compound, split by
compound); Airbnb listing prices (log price from room type, capacity, reviews, neighbourhood statistics; an MLP); and
air-quality sensor calibration (De Vito et al. 2008: five metal-oxide sensor responses, temperature and humidity to the
reference CO concentration; the last 300 hours validating).
At most 1000 training items a program (the demand windows 852, the value net's 960 positions; Cluster-GCN 10 parts of a
1000-node graph) and under 47k trainable parameters; an epoch of a plain loop 0.02-0.5 s on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half BE.

Protocol: written by a helper in a worktree at 564a4d0 (branch halfBG), held out from the rules frozen at 10e53de (round 67).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and tail, half AO's
structure and checks, the @broken lines of all halves (for the rung and cause conventions) and greps of the halves for
candidate family names, ladder_sweep.py's --half line, and the signature of `ntrain.ladder`. Each program was checked by
hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are
broken as meant), seed 0 (and 1 where cheap). No program declares groups. Committed before any ladder run, to be run once
with `bench/ladder_sweep.py --half BG`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- MQ-RNN (Wen et al. 2017): multi-horizon quantile forecasts of store demand
MQ_QUANTILES = (0.1, 0.5, 0.9)

def _demand(seed, stores=12, days=140):
    """Daily unit sales of 12 stores: a level each, a weekly profile, promotions on about 12% of days (lifting sales by
    30-80%, known in advance), an AR(1) disturbance and Poisson counts."""
    g = np.random.default_rng(1000 + seed * 3001); S, P = np.zeros((stores, days)), np.zeros((stores, days))
    for s in range(stores):
        lvl, week, lift = g.uniform(20, 80), 1 + 0.35 * g.normal(0, 1, 7), g.uniform(0.3, 0.8); e = 0.0
        promo = (g.random(days) < 0.12).astype(float)
        for t in range(days):
            e = 0.7 * e + g.normal(0, 0.12); S[s, t] = g.poisson(max(lvl * max(week[t % 7], 0.2) * (1 + lift * promo[t]) * np.exp(e), 0.1))
        P[s] = promo
    return S, P

def mq_windows(S, P, L=28, H=7):
    "Each window: the last L days (sales over the store's mean of the first 100 days, promo, weekday sin/cos), the next H days' promo and weekday, and the next H days' scaled sales."
    scale = S[:, :100].mean(1, keepdims=True); Z = S / scale; T = S.shape[1]; dow = np.arange(T) % 7
    cal = np.stack([np.sin(2 * np.pi * dow / 7), np.cos(2 * np.pi * dow / 7)], 1)
    past, fut, y, t0s = [], [], [], []
    for s in range(len(S)):
        for t0 in range(L, T - H + 1):
            past.append(np.column_stack([Z[s, t0 - L:t0], P[s, t0 - L:t0], cal[t0 - L:t0]])); fut.append(np.column_stack([P[s, t0:t0 + H], cal[t0:t0 + H]]))
            y.append(Z[s, t0:t0 + H]); t0s.append(t0)
    return np.array(past, np.float32), np.array(fut, np.float32), np.array(y, np.float32), np.array(t0s)

class MQRNN(nn.Module):
    def __init__(self, d=4, f=3, H=7, h=32, c=16, q=3):
        super().__init__(); self.H, self.c = H, c; self.enc = nn.LSTM(d, h, batch_first=True)
        self.glob = nn.Sequential(nn.Linear(h + H * f, 64), nn.ReLU(), nn.Linear(64, (H + 1) * c))
        self.local = nn.Sequential(nn.Linear(2 * c + f, 32), nn.ReLU(), nn.Linear(32, q))
    def forward(self, past, fut):
        _, (hN, _) = self.enc(past); ctx = self.glob(torch.cat([hN[-1], fut.flatten(1)], 1)).view(-1, self.H + 1, self.c)
        ca = ctx[:, -1:].expand(-1, self.H, -1); return self.local(torch.cat([ctx[:, :-1], ca, fut], -1))  # (B, H, 3)

def pinball_loss(pred, y):  # the quantile loss summed over the quantiles, averaged over the horizons and the batch
    q = torch.tensor(MQ_QUANTILES); e = y.unsqueeze(-1) - pred
    return torch.maximum(q * e, (q - 1) * e).sum(-1).mean()

def _mq_fwd(model, b): past, fut, y = b; return model(past, fut), y

@healthy('BG')
def mqrnn_store_demand(seed, random_split=False):  # pinball loss, Adam 1e-3, batches of 32; windows whose targets end by day 105 train, those starting from day 105 validate
    """random_split: train_test_split over all the windows (stride one day), so each validation window's days sit inside
    the inputs and targets of its training neighbours."""
    from sklearn.model_selection import train_test_split
    past, fut, y, t0 = mq_windows(*_demand(seed))
    if random_split: tr, va = train_test_split(np.arange(len(y)), test_size=0.3, random_state=seed)
    else: tr, va = np.where(t0 + 7 <= 105)[0], np.where(t0 >= 105)[0]
    ds = lambda i: TensorDataset(_t(past[i]), _t(fut[i]), _t(y[i]))
    return dict(model=MQRNN, train=ds(tr), valid=ds(va), forward=_mq_fwd, loss=pinball_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Cluster-GCN (Chiang et al. 2019): batches of graph parts
def _planted_graph(seed, n=1000, k=5, d=32):
    "Five communities, edges within with p 0.02 and across with 0.002; features noisy around each community's topic."
    g = np.random.default_rng(1000 + seed * 3011); y = g.integers(0, k, n)
    P = np.where(y[:, None] == y[None], 0.02, 0.002); U = np.triu(g.random((n, n)) < P, 1); A = (U | U.T).astype(np.float32)
    X = (g.normal(0, 1, (k, d))[y] * 0.5 + g.normal(0, 1, (n, d))).astype(np.float32)
    return X, y, A

def bfs_order(A):
    "Nodes in breadth-first order from node 0 (then the unreached ones): consecutive slices are local parts, standing in for METIS."
    n = len(A); seen = np.zeros(n, bool); order = []; nbr = [np.nonzero(r)[0] for r in A]
    for s in range(n):
        if seen[s]: continue
        q = [s]; seen[s] = True
        while q:
            v = q.pop(0); order.append(v)
            for w in nbr[v]:
                if not seen[w]: seen[w] = True; q.append(w)
    return np.array(order)

def cluster_collate(X, y, A, masks, parts):
    "Items (part, split): the subgraph of the batch's parts, (A + I) row-normalised plus its diagonal (the paper's diagonal enhancement, lambda 1)."
    def collate(items):
        nodes = np.concatenate([parts[p] for p, _ in items]); split = items[0][1]
        a = A[np.ix_(nodes, nodes)] + np.eye(len(nodes), dtype=np.float32); a = a / a.sum(1, keepdims=True); a = a + np.diag(np.diag(a))
        return torch.from_numpy(X[nodes]), torch.from_numpy(a), torch.from_numpy(y[nodes]), torch.from_numpy(masks[split][nodes])
    return collate

class ClusterGCN(nn.Module):
    def __init__(self, d=32, h=64, k=5):
        super().__init__(); self.l1, self.l2, self.drop = nn.Linear(d, h), nn.Linear(h, k), nn.Dropout(0.2)
    def forward(self, x, a): return a @ self.l2(self.drop(F.relu(a @ self.l1(x))))

def _cgcn_fwd(model, b): x, a, y, m = b; out = model(x, a); return out[m], y[m]

@healthy('BG')
def cluster_gcn_planted(seed, labels_unpermuted=False):  # cross-entropy, Adam 5e-3, batches of 2 parts; 600 nodes train, 200 validate
    """The graph relabelled in part order (features, adjacency, labels and masks permuted by the same order), ten parts.
    labels_unpermuted: X and A permuted into part order, y left in the original node order."""
    X, y, A = _planted_graph(seed); n = len(y); perm = bfs_order(A)
    r = np.random.default_rng(seed).permutation(n); tr_m, va_m = np.zeros(n, bool), np.zeros(n, bool); tr_m[r[:600]] = True; va_m[r[600:800]] = True
    X, A, tr_m, va_m = X[perm], A[np.ix_(perm, perm)], tr_m[perm], va_m[perm]
    if not labels_unpermuted: y = y[perm]
    parts = np.array_split(np.arange(n), 10)
    col = cluster_collate(X, y.astype(np.int64), A, {'train': tr_m, 'valid': va_m}, parts)
    return dict(model=ClusterGCN, train=ListDataset([(p, 'train') for p in range(10)]), valid=ListDataset([(p, 'valid') for p in range(10)]), collate_fn=col,
                forward=_cgcn_fwd, loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=2))

# ---------------------------------------------------------------- AFM (Xiao et al. 2017): attentional factorisation machine on a context log
AFM_FIELDS = dict(user=150, track=120, hour=6, device=3, activity=5)

def _music_log(seed, n=1500):
    """libFM-style rows: user, track, hour bucket, device, activity; the label 1 for a play (about 40%), -1 otherwise. A play
    is likelier when the user's taste meets the track's style and when the track's energy suits the activity and hour."""
    g = np.random.default_rng(1000 + seed * 3019); card = list(AFM_FIELDS.values())
    U, V = g.normal(0, 1, (card[0], 4)), g.normal(0, 1, (card[1], 4)); energy = g.normal(0, 1, card[1]); act = g.normal(0, 1.2, card[4]); hr = g.normal(0, 0.6, card[2])
    X = np.column_stack([g.integers(0, c, n) for c in card])
    z = (U[X[:, 0]] * V[X[:, 1]]).sum(1) * 0.6 + energy[X[:, 1]] * (act[X[:, 4]] + hr[X[:, 2]]) + 0.3 * (X[:, 3] == 1) - 0.5 + g.normal(0, 0.5, n)
    return X, np.where(z > 0, 1, -1)

class AFM(nn.Module):
    def __init__(self, k=16, att=8):
        super().__init__(); card = list(AFM_FIELDS.values()); self.register_buffer('offsets', torch.tensor(np.cumsum([0] + card[:-1])))
        self.emb, self.lin = nn.Embedding(sum(card), k), nn.Embedding(sum(card), 1); self.bias = nn.Parameter(torch.zeros(1))
        nn.init.normal_(self.emb.weight, 0, 0.01); nn.init.zeros_(self.lin.weight)
        self.att = nn.Sequential(nn.Linear(k, att), nn.ReLU(), nn.Linear(att, 1, bias=False)); self.p = nn.Linear(k, 1, bias=False); self.drop = nn.Dropout(0.3)
        f = len(card); self.i, self.j = zip(*[(a, b) for a in range(f) for b in range(a + 1, f)])
    def forward(self, x):
        x = x + self.offsets; e = self.emb(x); pair = e[:, list(self.i)] * e[:, list(self.j)]  # (B, 10, k)
        w = torch.softmax(self.att(pair), 1); inter = self.p(self.drop((w * pair).sum(1)))
        return self.bias + self.lin(x).sum(1) + inter  # (B, 1) logits

@healthy('BG')
def afm_music_context(seed, pm_one=False):  # BCE with logits, Adagrad 0.05, batches of 128; train_test_split 80/20
    "The libFM labels mapped {-1, 1} -> {0, 1} (pm_one: the file's -1/1 straight into BCEWithLogitsLoss, as the TF code's square loss took them)."
    from sklearn.model_selection import train_test_split
    X, y = _music_log(seed); y = y.astype(np.float32)[:, None]
    if not pm_one: y = (y + 1) / 2
    tr, va = train_test_split(np.arange(len(X)), test_size=0.2, random_state=seed)
    return dict(model=AFM, train=TensorDataset(_t(X[tr], torch.long), _t(y[tr])), valid=TensorDataset(_t(X[va], torch.long), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adagrad(p, lr=0.05), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- SetRank (Pang et al. 2020): self-attention over a query's documents
def _set_queries(seed, queries=160, docs=20, d=16):
    "Query-document features; graded relevance 0-2 from a latent quality, most of it relative to the query's other documents (a document matters when it beats its set)."
    g = np.random.default_rng(1000 + seed * 3023); w = g.normal(0, 1, d) / np.sqrt(d)
    X = g.normal(0, 1, (queries, docs, d)) + g.normal(0, 0.7, (queries, 1, d)); q = X @ w + 0.3 * g.normal(0, 1, (queries, docs))
    rel = q - 0.6 * q.mean(1, keepdims=True); R = np.digitize(rel, np.quantile(rel, [0.6, 0.88]))
    return X.astype(np.float32), R.astype(np.float32)

class SetRank(nn.Module):
    def __init__(self, d=16, h=32, heads=4, blocks=2, softmax_out=False):
        super().__init__(); self.inp = nn.Linear(d, h); self.softmax_out = softmax_out
        self.blocks = nn.ModuleList([nn.TransformerEncoderLayer(h, heads, 64, dropout=0.1, batch_first=True) for _ in range(blocks)]); self.out = nn.Linear(h, 1)
    def forward(self, x):
        h = self.inp(x)
        for b in self.blocks: h = b(h)
        s = self.out(h).squeeze(-1)  # (B, docs)
        return torch.softmax(s, -1) if self.softmax_out else s

def attention_rank_loss(scores, rel):  # the paper's attention rank loss: cross-entropy between softmax(2^rel - 1) and softmax(scores)
    return -(torch.softmax(2.0 ** rel - 1, -1) * torch.log_softmax(scores, -1)).sum(-1).mean()

@healthy('BG')
def setrank_queries(seed, softmax_out=False):  # Adam 1e-3, batches of 16 queries; 128 queries train, 32 validate
    "softmax_out: the model ending in a softmax over the list ('scores as the attention distribution'), the loss's log_softmax after it."
    X, R = _set_queries(seed); q = np.random.default_rng(seed).permutation(len(X)); tr, va = q[:128], q[128:]
    return dict(model=lambda: SetRank(softmax_out=softmax_out), train=TensorDataset(_t(X[tr]), _t(R[tr])), valid=TensorDataset(_t(X[va]), _t(R[va])), loss=attention_rank_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- a graph transformer (Dwivedi and Bresson 2020) on PATTERN-style graphs
def _pattern_graphs(seed, n_graphs=360, k_pe=4):
    """SBM graphs of 20-30 nodes in three blocks (p 0.35 within, 0.08 across) with a planted pattern of 6 nodes (p 0.85
    among them, 0.12 to the rest); node attributes uniform in {0, 1, 2} (uninformative, as PATTERN's); labels: in the
    pattern. Each graph with its first k_pe non-trivial eigenvectors of the normalised Laplacian."""
    g = np.random.default_rng(1000 + seed * 3037); out = []
    for _ in range(n_graphs):
        n = int(g.integers(20, 31)); blk = g.integers(0, 3, n); pat = np.zeros(n, bool); pat[g.choice(n, 6, replace=False)] = True
        P = np.where(blk[:, None] == blk[None], 0.35, 0.08); P[np.ix_(pat, pat)] = 0.85; P[pat[:, None] != pat[None]] = 0.12
        U = np.triu(g.random((n, n)) < P, 1); A = (U | U.T).astype(np.float64); deg = A.sum(1)
        Dm = np.diag(1 / np.sqrt(np.maximum(deg, 1))); _, vec = np.linalg.eigh(np.eye(n) - Dm @ A @ Dm)
        out.append((np.eye(3, dtype=np.float32)[g.integers(0, 3, n)], vec[:, 1:k_pe + 1].astype(np.float32), A.astype(np.float32), pat.astype(np.int64)))
    return out

def pad_graphs(items):
    "Pads a batch to its largest graph: features, positions, adjacency with self-loops on the real nodes, node mask, labels."
    N = max(len(i[3]) for i in items); B = len(items)
    x, pe, adj, mask, y = torch.zeros(B, N, 3), torch.zeros(B, N, items[0][1].shape[1]), torch.zeros(B, N, N), torch.zeros(B, N, dtype=torch.bool), torch.zeros(B, N, dtype=torch.long)
    for b, (xi, pi, ai, yi) in enumerate(items):
        n = len(yi); x[b, :n], pe[b, :n], adj[b, :n, :n] = _t(xi), _t(pi), _t(ai) + torch.eye(n); mask[b, :n] = True; y[b, :n] = _t(yi, torch.long)
    return x, pe, adj, mask, y

class GTLayer(nn.Module):
    def __init__(self, d, heads, neg_inf):
        super().__init__(); self.h, self.neg = heads, neg_inf; self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d); self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d)); self.drop = nn.Dropout(0.1)
    def forward(self, h, adj):
        B, N, d = h.shape; q, k, v = self.qkv(h).view(B, N, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-1, -2)) / (d // self.h) ** 0.5; s = s.masked_fill(adj[:, None] == 0, self.neg)  # attend over the edges only
        a = (torch.softmax(s, -1) @ v).transpose(1, 2).reshape(B, N, d)
        h = self.n1(h + self.drop(self.o(a))); return self.n2(h + self.drop(self.ff(h)))

class GraphTransformer(nn.Module):
    def __init__(self, d=32, heads=4, layers=2, k_pe=4, neg_inf=-1e9):
        super().__init__(); self.emb, self.pe = nn.Linear(3, d), nn.Linear(k_pe, d)
        self.layers = nn.ModuleList([GTLayer(d, heads, neg_inf) for _ in range(layers)]); self.out = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 2))
    def forward(self, x, pe, adj):
        h = self.emb(x) + self.pe(pe)
        for l in self.layers: h = l(h, adj)
        return self.out(h)

def _gt_fwd(model, b): x, pe, adj, mask, y = b; return model(x, pe, adj)[mask], y[mask]

@healthy('BG')
def graph_transformer_pattern(seed, inf_mask=False):  # cross-entropy over the real nodes, Adam 1e-3, batches of 16 graphs; 300 graphs train, 60 validate
    "inf_mask: the scores masked with float('-inf') (the padded nodes' rows all -inf: their softmax NaN, spreading through the next layer)."
    gs = _pattern_graphs(seed)
    return dict(model=lambda: GraphTransformer(neg_inf=float('-inf') if inf_mask else -1e9), train=ListDataset(gs[:300]), valid=ListDataset(gs[300:]), collate_fn=pad_graphs,
                forward=_gt_fwd, loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- SAINT (Somepalli et al. 2021) on card applications
SAINT_NUMERIC = ['income', 'age', 'debt_ratio', 'tenure', 'n_cards', 'utilization']

def _applications(seed, n=1250, postcodes=300):
    "Applications: six numbers, occupation (12) and region (8), a postcode of 300 (about 4 rows each) with its own risk; defaulted within a year (about 25%)."
    g = np.random.default_rng(1000 + seed * 3041); Xn = g.normal(0, 1, (n, 6)); occ, reg, pc = g.integers(0, 12, n), g.integers(0, 8, n), g.integers(0, postcodes, n)
    z = -1.3 - 0.7 * Xn[:, 0] + 0.8 * Xn[:, 2] + 0.5 * Xn[:, 5] * (Xn[:, 4] > 0) + g.normal(0, 0.5, 12)[occ] + g.normal(0, 0.3, 8)[reg] + g.normal(0, 0.6, postcodes)[pc] + g.normal(0, 0.7, n)
    return Xn.astype(np.float32), np.column_stack([occ, reg]), pc, (z > 0).astype(np.float32)

def target_encode(codes, y, rows, m=10):
    "The postcode's default rate over `rows`, smoothed towards the overall rate with weight m."
    prior = y[rows].mean(); s = np.bincount(codes[rows], y[rows], minlength=codes.max() + 1); c = np.bincount(codes[rows], minlength=codes.max() + 1)
    return ((s + m * prior) / (c + m))[codes].astype(np.float32)

class SAINT(nn.Module):
    def __init__(self, n_num=7, cards=(12, 8), d=8, heads=2):
        super().__init__(); self.num = nn.Parameter(torch.randn(n_num, d) * 0.1); self.num_b = nn.Parameter(torch.zeros(n_num, d))
        self.cat = nn.ModuleList([nn.Embedding(c, d) for c in cards]); self.cls = nn.Parameter(torch.zeros(1, 1, d)); F_ = n_num + len(cards) + 1
        self.col = nn.TransformerEncoderLayer(d, heads, 16, dropout=0.1, batch_first=True)
        self.row = nn.MultiheadAttention(F_ * d, 1, batch_first=True); self.row_n = nn.LayerNorm(F_ * d); self.head = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, xn, xc):
        e = torch.cat([self.cls.expand(len(xn), -1, -1), xn[..., None] * self.num + self.num_b, torch.stack([m(xc[:, i]) for i, m in enumerate(self.cat)], 1)], 1)
        h = self.col(e); B, Fn, d = h.shape; r = h.reshape(1, B, Fn * d)  # intersample attention: the rows of the batch attend to each other
        h = self.row_n(r + self.row(r, r, r)[0]).view(B, Fn, d); return self.head(h[:, 0])

def _saint_fwd(model, b): xn, xc, y = b; return model(xn, xc), y

@healthy('BG')
def saint_card_applications(seed, encode_all=False):  # BCE with logits, AdamW 1e-3, batches of 64; a stratified train_test_split 80/20
    """The numbers standardised by the training rows and the postcode's target encoding from the training rows (encode_all:
    the encoding computed on the whole table before the split, every validation row's own outcome inside its postcode's rate)."""
    from sklearn.model_selection import train_test_split
    Xn, Xc, pc, y = _applications(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    te = target_encode(pc, y, np.arange(len(y)) if encode_all else tr); Xn = np.column_stack([_std(_t(Xn), _t(Xn[tr])).numpy(), (te - te[tr].mean()) / te[tr].std()])
    ds = lambda i: TensorDataset(_t(Xn[i]), _t(Xc[i], torch.long), _t(y[i, None]))
    return dict(model=SAINT, train=ds(tr), valid=ds(va), forward=_saint_fwd, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- ODE-RNN (Rubanova et al. 2019) on irregularly sampled oscillators
def _oscillators(seed, n=900, T=24):
    "Damped oscillators of three frequencies (0.8, 1.6, 3.0 rad per unit), random phase, amplitude and damping, seen at 24 random times in [0, 8] with noise."
    g = np.random.default_rng(1000 + seed * 3049); y = g.integers(0, 3, n); w = np.array([0.8, 1.6, 3.0])[y] * g.uniform(0.95, 1.05, n)
    t = np.sort(g.uniform(0, 8, (n, T)), 1); v = g.uniform(0.6, 1.4, (n, 1)) * np.exp(-g.uniform(0, 0.15, (n, 1)) * t) * np.sin(w[:, None] * t + g.uniform(0, 2 * np.pi, (n, 1))) + g.normal(0, 0.1, (n, T))
    dt = np.diff(t, prepend=0.0, axis=1)
    return v[..., None].astype(np.float32), dt[..., None].astype(np.float32), y

class ODERNN(nn.Module):
    def __init__(self, h=32, k=3, substeps=2):
        super().__init__(); self.f = nn.Sequential(nn.Linear(h, 32), nn.Tanh(), nn.Linear(32, h)); self.cell = nn.GRUCell(2, h); self.out = nn.Linear(h, k); self.h, self.sub = h, substeps
    def forward(self, v, dt):
        h = v.new_zeros(len(v), self.h)
        for i in range(v.shape[1]):
            for _ in range(self.sub): h = h + dt[:, i] / self.sub * self.f(h)  # Euler steps of dh/dt = f(h) up to the observation
            h = self.cell(torch.cat([v[:, i], dt[:, i]], -1), h)  # the value and the gap since the last one
        return self.out(h)

def _ode_step(zero_grad=True):
    def step(model, batch, opt):  # the author's loop: forward, cross-entropy, backward, step
        v, dt, y = batch
        if zero_grad: opt.zero_grad()
        loss = F.cross_entropy(model(v, dt), y); loss.backward(); opt.step(); return loss
    return step

def _ode_fwd(model, b): v, dt, y = b; return model(v, dt), y

@healthy('BG')
def ode_rnn_oscillators(seed, zero_grad=True):  # cross-entropy, Adam 3e-3, batches of 50; 720 series train, 180 validate; a custom step
    "zero_grad False: the loop's optimizer.zero_grad() lost when the step was split out into a function."
    v, dt, y = _oscillators(seed); ds = lambda s: TensorDataset(_t(v[s]), _t(dt[s]), _t(y[s], torch.long))
    return dict(model=ODERNN, train=ds(slice(0, 720)), valid=ds(slice(720, None)), forward=_ode_fwd, step=_ode_step(zero_grad), loss=nn.CrossEntropyLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=50))

# ---------------------------------------------------------------- a Connect Four value network (win/draw/loss of the position)
C4_LINES = [[(r + i * dr, c + i * dc) for i in range(4)] for r in range(6) for c in range(7) for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
            if 0 <= r + 3 * dr < 6 and 0 <= c + 3 * dc < 7 and 0 <= c + 3 * dc]
C4_IDX = np.array([[r * 7 + c for r, c in l] for l in C4_LINES])

def _c4_winner(b):
    s = b.reshape(-1)[C4_IDX].sum(1); return 1 if (s == 4).any() else (-1 if (s == -4).any() else 0)

def _c4_move(b, p, g):  # a greedy player: win if it can, block the opponent's win, else a random column weighted to the centre
    legal = [c for c in range(7) if b[0, c] == 0]
    for who in (p, -p):
        for c in legal:
            r = max(i for i in range(6) if b[i, c] == 0); b[r, c] = who; w = _c4_winner(b); b[r, c] = 0
            if w == who: return c
    wts = np.array([1, 2, 3, 4, 3, 2, 1], float)[legal]; return legal[g.choice(len(legal), p=wts / wts.sum())]

def _c4_positions(seed, n=1200):
    "Positions after 8-12 random plies with no winner yet, player one (+1) to move when the ply count is even; labelled by one greedy playout: 0 loss, 1 draw, 2 win for player one."
    g = np.random.default_rng(1000 + seed * 3061); X, y = [], []
    while len(X) < n:
        b = np.zeros((6, 7)); p = 1; ok = True
        for _ in range(int(g.integers(8, 13))):
            c = g.choice([c for c in range(7) if b[0, c] == 0]); b[max(i for i in range(6) if b[i, c] == 0), c] = p; p = -p
            if _c4_winner(b): ok = False; break
        if not ok: continue
        start, tomove, w = b.copy(), p, 0
        while not w and (b[0] == 0).any():
            c = _c4_move(b, p, g); b[max(i for i in range(6) if b[i, c] == 0), c] = p; p = -p; w = _c4_winner(b)
        X.append(np.stack([start == 1, start == -1, np.full((6, 7), tomove == 1)]).astype(np.float32)); y.append(w + 1)
    return np.array(X), np.array(y)

class C4Value(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(ch * 42, 64), nn.ReLU(), nn.Linear(64, 3))
    def forward(self, x): return self.net(x)

@healthy('BG')
def connect4_value_cnn(seed, lr=1e-3):  # cross-entropy over loss/draw/win, Adam 1e-3, batches of 64; 960 positions train, 240 validate
    "lr 0.1: the learning rate of the SGD config the net started from, kept when the optimizer became Adam."
    X, y = _c4_positions(seed)
    return dict(model=C4Value, train=TensorDataset(_t(X[:960]), _t(y[:960], torch.long)), valid=TensorDataset(_t(X[960:]), _t(y[960:], torch.long)),
                loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a debutanizer soft sensor (Fortuna et al. 2007)
def _debutanizer(seed, n=1300):
    "Seven process variables as AR(1) processes scaled to [0, 1]; the butane content a nonlinear function of some of them 2-6 samples back, with its own slow drift."
    g = np.random.default_rng(1000 + seed * 3067); U = np.zeros((n, 7)); e = np.zeros(7); d = 0.0; y = np.zeros(n)
    for t in range(n): e = 0.95 * e + g.normal(0, 0.3, 7); U[t] = e
    for t in range(n):
        d = 0.98 * d + g.normal(0, 0.05); a = U[max(t - 2, 0)]; b = U[max(t - 5, 0)]
        y[t] = np.tanh(0.6 * a[0] - 0.5 * b[4] + 0.4 * a[2] * a[5]) + 0.3 * np.sin(b[6]) + d + g.normal(0, 0.05)
    U = (U - U.min(0)) / (U.max(0) - U.min(0)); y = (y - y.min()) / (y.max() - y.min())
    return U, y

def debutanizer_features(U, y):
    "u1-u7 at t, u5 at t-1..t-3, u1 and u3 at t-2, u7 at t-5, and the analyser's readings y(t-4)..y(t-6) (its delay): 16 inputs from t = 6 on."
    t = np.arange(6, len(y))
    return np.column_stack([U[t], U[t - 1, 4], U[t - 2, 4], U[t - 3, 4], U[t - 2, 0], U[t - 2, 2], U[t - 5, 6], y[t - 4], y[t - 5], y[t - 6]]).astype(np.float32), y[t].astype(np.float32)

class SoftSensor(nn.Module):
    def __init__(self, d=16):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, 16), nn.Tanh(), nn.Linear(16, 1))
    def forward(self, x): return self.net(x)

@healthy('BG')
def debutanizer_soft_sensor(seed, flat_target=False):  # MSE on the [0, 1] scaled butane content, Adam 1e-3, batches of 32; the first 1000 samples train, the rest validate
    "flat_target: y as the 1-D column (N,) the .mat file gives, against the (B, 1) output."
    X, y = debutanizer_features(*_debutanizer(seed)); y = y if flat_target else y[:, None]
    return dict(model=SoftSensor, train=TensorDataset(_t(X[:1000]), _t(y[:1000])), valid=TensorDataset(_t(X[1000:]), _t(y[1000:])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- perovskite band gaps (ABX3 descriptors)
PV_FUNCTIONALS = ['PBE', 'HSE06', 'GLLB-SC']

def _perovskites(seed):
    """Every ABX3 of 8 A and 12 B cations and 3 anions (288 compounds), 3-5 entries each (a functional, a polymorph's small
    shift); descriptors: radii of A, B, X, tolerance and octahedral factors, electronegativities of B and X, B's valence,
    the functional one-hot. The gap from the descriptors (B and X electronegativity, octahedral factor), the functional's
    offset, and a compound's own part the descriptors do not explain."""
    g = np.random.default_rng(1000 + seed * 3079)
    rA, rB, rX = g.uniform(1.2, 1.9, 8), g.uniform(0.5, 1.0, 12), np.array([1.40, 1.96, 2.20]); chiB, chiX, valB = g.uniform(1.3, 2.3, 12), np.array([3.44, 2.96, 2.66]), g.integers(2, 5, 12)
    rows, gap, comp = [], [], []
    for a in range(8):
        for b in range(12):
            for x in range(3):
                tol = (rA[a] + rX[x]) / (np.sqrt(2) * (rB[b] + rX[x])); octa = rB[b] / rX[x]; own = g.normal(0, 0.45)
                base = 1.2 + 1.6 * (chiX[x] - chiB[b]) + 1.5 * (octa - 0.45) - 2.0 * abs(tol - 0.95) + own
                for _ in range(int(g.integers(3, 6))):
                    f = int(g.integers(0, 3))
                    rows.append([rA[a], rB[b], rX[x], tol, octa, chiB[b], chiX[x], valB[b], *np.eye(3)[f]]); gap.append(max(base + [0, 0.9, 1.1][f] + g.normal(0, 0.08), 0)); comp.append(a * 36 + b * 3 + x)
    return np.array(rows, np.float32), np.array(gap, np.float32)[:, None], np.array(comp)

class GapMLP(nn.Module):
    def __init__(self, d=11):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('BG')
def perovskite_band_gap(seed, split_entries=False):  # MSE in eV^2, Adam 1e-3, batches of 32; GroupShuffleSplit by compound, a fifth validating
    "split_entries: train_test_split over the entries, so most validation compounds have other entries (other functionals) in training."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, y, comp = _perovskites(seed)
    if split_entries: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, groups=comp))
    tr, va = tr[:1000], va
    Xs = _std(_t(X), _t(X[tr])); Xs[:, 8:] = _t(X[:, 8:])
    return dict(model=GapMLP, train=TensorDataset(Xs[tr], _t(y[tr])), valid=TensorDataset(Xs[va], _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Airbnb listing prices (log price, an MLP)
AB_ROOMS = ['Entire home/apt', 'Private room', 'Shared room']

def _listings(seed, n=1250, hoods=15):
    "Listings: neighbourhood, room type, accommodates, bedrooms, bathrooms, minimum nights, reviews a month and review score (missing without reviews); a nightly price."
    g = np.random.default_rng(1000 + seed * 3083); hood = g.integers(0, hoods, n); room = g.choice(3, n, p=[0.55, 0.4, 0.05]); acc = np.clip(g.poisson(2.5, n) + 1 + 2 * (room == 0), 1, 12)
    bed = np.clip(np.round(acc / 2 + g.normal(0, 0.5, n)), 0, 6); bath = np.clip(np.round(1 + bed / 3 + g.normal(0, 0.3, n)), 1, 4); mn = g.choice([1, 2, 3, 7, 30], n, p=[.35, .3, .2, .1, .05])
    has = g.random(n) < 0.8; rpm = np.where(has, g.gamma(1.5, 0.8, n), np.nan); score = np.where(has, np.clip(g.normal(4.6, 0.3, n), 1, 5), np.nan)
    lp = 4.1 + g.normal(0, 0.35, hoods)[hood] + np.array([0.5, -0.1, -0.6])[room] + 0.12 * acc + 0.05 * bath - 0.004 * mn + 0.15 * np.nan_to_num(score - 4.6) + g.normal(0, 0.25, n)
    return dict(hood=hood, room=room, acc=acc, bed=bed, bath=bath, min_nights=mn, rpm=rpm, score=score, price=np.round(np.exp(lp)))

def listing_features(df, tr, group_order=False):
    """Room type one-hot, numbers log1p'd, the missing reviews as 0 with a flag, and the neighbourhood's median log price
    and listing count over the training rows. group_order: the frame assembled by a groupby over neighbourhoods (pandas'
    groupby().apply), which returns the rows grouped by neighbourhood, while y is read from the original frame."""
    n = len(df['price']); lp = np.log(df['price']); med = np.array([np.median(lp[tr][df['hood'][tr] == h]) if (df['hood'][tr] == h).any() else np.median(lp[tr]) for h in range(15)])
    cnt = np.bincount(df['hood'][tr], minlength=15)
    X = np.column_stack([np.eye(3)[df['room']], np.log1p(np.column_stack([df['acc'], df['bed'], df['bath'], df['min_nights'], np.nan_to_num(df['rpm'])])), np.isnan(df['score']),
                         np.nan_to_num(df['score'] - 4.6), med[df['hood']], np.log(cnt[df['hood']])]).astype(np.float32)
    if group_order: X = X[np.argsort(df['hood'], kind='stable')]
    return X

class PriceMLP(nn.Module):
    def __init__(self, d=12):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('BG')
def airbnb_log_price(seed, group_order=False):  # MSE on log price, Adam 3e-3, batches of 64; train_test_split 80/20, the features standardised by the training rows
    from sklearn.model_selection import train_test_split
    df = _listings(seed); tr, va = train_test_split(np.arange(len(df['price'])), test_size=0.2, random_state=seed)
    X = listing_features(df, tr, group_order); y = np.log(df['price']).astype(np.float32)[:, None]; Xs = _std(_t(X), _t(X[tr]))
    return dict(model=PriceMLP, train=TensorDataset(Xs[tr], _t(y[tr])), valid=TensorDataset(Xs[va], _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- air-quality sensor calibration (De Vito et al. 2008)
def _air_quality(seed, hours=1500):
    """Hourly reference CO (mg/m^3) with traffic peaks, a weekly cycle and weather-driven AR variation; five metal-oxide
    sensors responding nonlinearly to CO, a correlated NOx, temperature and humidity, with slow drift; T and RH daily cycles."""
    g = np.random.default_rng(1000 + seed * 3089); h = np.arange(hours); hod, dow = h % 24, (h // 24) % 7
    traffic = np.exp(-((hod - 8) / 2.0) ** 2) + 0.9 * np.exp(-((hod - 18) / 2.5) ** 2); e = np.zeros(hours)
    for t in range(1, hours): e[t] = 0.92 * e[t - 1] + g.normal(0, 0.12)
    co = np.clip(0.8 + 2.0 * traffic * (dow < 5) + 0.8 * traffic * (dow >= 5) + 0.8 * e + g.normal(0, 0.15, hours), 0.1, None)
    nox = 80 * co * np.exp(g.normal(0, 0.2, hours)); T = 18 + 7 * np.sin(2 * np.pi * (hod - 9) / 24) + np.cumsum(g.normal(0, 0.05, hours)); RH = np.clip(55 - 1.5 * (T - 18) + g.normal(0, 5, hours), 10, 95)
    drift = np.cumsum(g.normal(0, 0.002, (hours, 5)), 0)
    S = np.column_stack([1000 + 250 * np.log1p(co) + 2 * (T - 18), 900 - 180 * np.log1p(co) - 60 * np.log1p(nox / 100), 800 + 0.9 * nox - 3 * (RH - 55),
                         1500 + 120 * np.sqrt(co) + 4 * (RH - 55), 1000 + 300 * np.log1p(co) + 0.5 * nox]) * (1 + drift) + g.normal(0, 15, (hours, 5))
    return S, T, RH, hod, co

@healthy('BG')
def air_quality_co_calibration(seed, centered_daily=False):  # MSE in (mg/m^3)^2, Adam 1e-3, batches of 32; the first 1200 hours train, the last 300 validate
    """Sensors, T, RH and the hour (sin/cos), standardised by the training hours. centered_daily: a 'daily background' feature
    added, the reference CO's 24-hour rolling mean with center=True (the hour's own and the next twelve hours' readings)."""
    S, T, RH, hod, co = _air_quality(seed); X = np.column_stack([S, T, RH, np.sin(2 * np.pi * hod / 24), np.cos(2 * np.pi * hod / 24)])
    if centered_daily: X = np.column_stack([X, np.convolve(np.pad(co, (12, 11), mode='edge'), np.ones(24) / 24, 'valid')])
    X = X.astype(np.float32); y = co.astype(np.float32)[:, None]; Xs = _std(_t(X), _t(X[:1200]))
    return dict(model=lambda: nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1)),
                train=TensorDataset(Xs[:1200], _t(y[:1200])), valid=TensorDataset(Xs[1200:], _t(y[1200:])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- the broken twins
@broken('BG', 'mqrnn_windows_split_at_random', 4, ('leakage',))
def mqrnn_windows_split_at_random(seed): return mqrnn_store_demand(seed, random_split=True)  # overlapping daily windows on both sides of a random split

@broken('BG', 'cluster_gcn_labels_not_permuted', 4, ('labels',))
def cluster_gcn_labels_not_permuted(seed): return cluster_gcn_planted(seed, labels_unpermuted=True)  # features and adjacency in part order, labels in node order

@broken('BG', 'afm_libfm_minus_one_in_bce', 1, ('bad_labels',))
def afm_libfm_minus_one_in_bce(seed): return afm_music_context(seed, pm_one=True)  # labels -1/+1 into BCEWithLogitsLoss: the loss unbounded below on the -1 rows

@broken('BG', 'setrank_softmax_output_into_listwise_loss', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def setrank_softmax_output_into_listwise_loss(seed): return setrank_queries(seed, softmax_out=True)  # scores squashed to a distribution, then log_softmax again

@broken('BG', 'graph_transformer_inf_mask_padding', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def graph_transformer_inf_mask_padding(seed): return graph_transformer_pattern(seed, inf_mask=True)  # padded nodes' rows all -inf: NaN from the softmax, spread by the next layer

@broken('BG', 'saint_target_encoding_before_split', 4, ('leakage',))
def saint_target_encoding_before_split(seed): return saint_card_applications(seed, encode_all=True)  # the postcode's default rate includes each validation row's own label

@broken('BG', 'ode_rnn_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def ode_rnn_no_zero_grad(seed): return ode_rnn_oscillators(seed, zero_grad=False)  # gradients accumulate over every step

@broken('BG', 'connect4_adam_lr_from_sgd', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def connect4_adam_lr_from_sgd(seed): return connect4_value_cnn(seed, lr=0.1)  # Adam at 0.1

@broken('BG', 'debutanizer_target_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def debutanizer_target_broadcast(seed): return debutanizer_soft_sensor(seed, flat_target=True)  # MSELoss of (32, 1) against (32,) broadcasts to 32 x 32: it fits the mean

@broken('BG', 'perovskite_entries_split_at_random', 4, ('leakage',))
def perovskite_entries_split_at_random(seed): return perovskite_band_gap(seed, split_entries=True)  # a compound's other functionals' entries in training

@broken('BG', 'airbnb_groupby_reordered_features', 4, ('labels',))
def airbnb_groupby_reordered_features(seed): return airbnb_log_price(seed, group_order=True)  # features grouped by neighbourhood, prices in file order

@broken('BG', 'air_quality_centered_rolling_target', 4, ('leakage',))
def air_quality_centered_rolling_target(seed): return air_quality_co_calibration(seed, centered_daily=True)  # rolling(24, center=True) of the target itself as a feature

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size,
# forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256 (the collate_fn programs in their batch
# size); valid loss and a metric (accuracy, AUC, R^2), init -> the epoch named; s/ep the seconds of an epoch of training,
# params the trainable ones. Every factory builds and runs its batches; `ladder_gallery.HALF` holds 24 programs of half BG.
CHECKS = """
mqrnn_store_demand                    valid pinball 1.62 -> 0.33 (ep 8) -> 0.32 (ep 16); 852 windows train, 348 validate; 18k params; 0.06-0.18 s/ep
cluster_gcn_planted                   valid CE 1.70 -> 0.27 (ep 8), accuracy 0.13 -> 0.94 (ep 8) -> 0.93 (ep 16); 10 parts (600 train nodes); 2.4k params; 0.01-0.03 s/ep
afm_music_context                     valid BCE 0.69 -> 0.66 (ep 4) -> 0.76 (ep 8, overfitting), AUC 0.50 -> 0.62 -> 0.69; 1200 rows train, 300 validate; 5k params; 0.03 s/ep
setrank_queries                       valid attention-rank loss 2.94 -> 2.49 (ep 4) -> 2.47 (ep 8); 128 queries train, 32 validate; 18k params; 0.09 s/ep
graph_transformer_pattern             valid CE 0.59 -> 0.55 (ep 4) -> 0.50 (ep 8), accuracy at the base rate 0.76 by ep 8 (slow, still falling); 300 graphs train, 60 validate; 18k params; 0.25 s/ep
saint_card_applications               valid BCE 0.90 -> 0.36 (ep 4) -> 0.53 (ep 16, overfitting), AUC 0.54 -> 0.73 (ep 4) -> 0.71; 1000 rows train, 250 validate; 27k params; 0.07 s/ep
ode_rnn_oscillators                   valid CE 1.10 flat to ep 4, 0.98 (ep 8), 0.19 (ep 12), 0.13 (ep 16), accuracy 0.33 -> 0.97 (ep 16); 720 series train, 180 validate; 5.7k params; 0.17-0.28 s/ep
connect4_value_cnn                    valid CE 1.09 -> 0.76 (ep 4) -> 0.74 (ep 8), accuracy 0.41 -> 0.65 (majority class 0.63: a weak but real signal); 960 positions train, 240 validate; 46k params; 0.07 s/ep (the factory 3.6 s)
debutanizer_soft_sensor               valid MSE 0.127 -> 0.010 (ep 4) -> 0.009 (ep 8), R^2 0.75; 1000 samples train, 294 validate; 1.1k params; 0.04 s/ep
perovskite_band_gap                   valid MSE (eV^2) 14.5 -> 0.36 (ep 4) -> 0.25 (ep 8), R^2 0.79; 910 entries train, 229 (other compounds) validate; 2.9k params; 0.04 s/ep
airbnb_log_price                      (Adam 3e-3) valid MSE 25.5 -> 0.19 (ep 8) -> 0.11 (ep 16), R^2 0.54 -> 0.72; 1000 listings train, 250 validate; 2.9k params; 0.01-0.03 s/ep
air_quality_co_calibration            valid MSE 1.72 -> 0.071 (ep 4) -> 0.075 (ep 8), R^2 0.87; 1200 hours train, 300 validate; 1.4k params; 0.04 s/ep
mqrnn_windows_split_at_random         valid pinball 0.31 (ep 8) (healthy 0.33): overlapping windows on both sides, the gain small here
cluster_gcn_labels_not_permuted       valid accuracy 0.17-0.21 through ep 8 (chance 0.2; healthy 0.94), training loss falling 1.75 -> 1.44 (memorised)
afm_libfm_minus_one_in_bce            training and valid loss below 0 from ep 1-2 and falling without bound (-4.5 at ep 8); AUC 0.50-0.55
setrank_softmax_output_into_listwise_loss valid loss 2.99 -> 2.83 (ep 8) (healthy 2.94 -> 2.47): the doubled softmax flattens the scores
graph_transformer_inf_mask_padding    loss NaN from the first batch (padded rows), valid NaN at every epoch
saint_target_encoding_before_split    valid BCE 0.59 (ep 1) -> 0.35 (ep 4) -> 0.20 (ep 8-16), AUC 0.59 -> 0.90 -> 0.94 (healthy 0.36-0.53, 0.71-0.73)
ode_rnn_no_zero_grad                  valid CE 1.10 to ep 4, 1.16 (ep 8), 1.45 (ep 12), 8.1 (ep 16), accuracy 0.31-0.39 (healthy 0.55 at ep 8, 0.97 at ep 16); training loss 9.4 at ep 16
connect4_adam_lr_from_sgd             training loss 5.8 at ep 1, then stuck at the majority class (accuracy 0.629 at every epoch, valid CE 0.77)
debutanizer_target_broadcast          MSELoss broadcast (B, 1) against (B,): valid R^2 0.20 (ep 1) -> 0.12 (ep 8) (healthy 0.75), the batch mean fitted
perovskite_entries_split_at_random    valid MSE 0.33 (ep 8), R^2 0.71 (healthy 0.25, 0.79): the compounds' own parts not memorised yet by ep 8
airbnb_groupby_reordered_features     valid R^2 -0.50 (ep 8) -> -0.25 (ep 16) (healthy 0.54 -> 0.72): prices learnt only as far as their mean
air_quality_centered_rolling_target   valid MSE 0.050 (ep 8), R^2 0.89 (healthy 0.075, 0.87)
"""
