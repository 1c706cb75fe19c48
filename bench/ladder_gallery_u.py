"""Half U of the ladder's gallery: held out from the rules frozen at 43c10ac (round 26), and run once on them.
Families not in halves A-T: an end-to-end memory network (Sukhbaatar et al.: three hops, position encoding, temporal
encoding, adjacent weight tying; Adam 1e-2 with the gradient norm clipped at 40 as domluna's memn2n) answering bAbI-style
"where is X?" questions about stories of 2-10 sentences (a collate_fn that pads the memory), a hypergraph neural network
(HGNN: Feng et al.'s two hypergraph convolutions, author and feature-kNN hyperedges) classifying the papers of one
co-authorship hypergraph in one full-graph batch, a two-parameter item response theory model (2PL: student ability, item
discrimination and difficulty; Adagrad) of test responses (a batch of three tensors), an item-based AutoRec (I-AutoRec: a
sigmoid autoencoder of each item's rating vector, the squared error on observed ratings only, in stars), DLinear
(a moving-average trend/remainder decomposition and one linear layer each) forecasting a day of hourly electricity load from
four days, standardised by the train period as the official loader, a von Mises regression of wind direction in degrees (a
tuple output of the mean direction and the concentration, the circular negative log-likelihood), a multinomial logit of
travel-mode choice with neural utilities over choice sets of 2-5 available modes (a collate_fn that pads the alternatives,
RMSprop), a SqueezeNet 1.1 shrunk to digits (fire modules, a ReLU'd final convolution averaged into the logits, Adam), a
Wasserstein autoencoder (WAE-MMD: an inverse multiquadratic kernel MMD to the Gaussian prior, a dict output; Adam with beta1
0.5 as the paper), a transformer encoder-decoder (nn.Transformer) sorting digit strings with teacher forcing, Poincare
embeddings of a taxonomy's transitive closure (Nickel and Kiela: distances in the hyperbolic ball, ten sampled negatives,
Riemannian SGD in a custom step), and a Bradley-Terry model with home advantage fitted to one league's games in one
full-batch item (Rprop). Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery
imports this module after half T.

Protocol: written by a helper in a worktree at c6b89ee, held out from the rules frozen at 43c10ac (round 26): the maintainer read nothing of it before the freeze, and the helper wrote it without reading the
ladder's rules (ntrain/ladder/*.py, nbs/02_ladder and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the
rule tests) or any earlier sweep's results; only `ntrain.ladder`'s public signature and docstring and the factory format of
halves A-T (their @broken lines for the rung and cause conventions) were read. Each program was checked by hand only with a
plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant),
never with the ladder. Committed before any ladder run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half U`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- an end-to-end memory network on bAbI-style stories
PERSONS_M, LOCS_M = 4, 6  # ids: 0 pads, 1-4 the persons, 5-8 the verbs, 9 'to', 10 'the', 11-16 the locations, 17 'where', 18 'is'
V_M, S_M, J_M = 19, 10, 5  # vocabulary, at most 10 sentences a story, 5 words a sentence

def _stories(seed, n, split=0):
    """bAbI task 1 ("single supporting fact") in its own words: 2-10 sentences "<person> <moved|went|journeyed|travelled> to the
    <location>", then "where is <person>?" about one of the persons in the story; the answer: that person's last location.
    Each story's sentences are kept most recent first (memory slot 0 the latest sentence, as the temporal encoding reads them)."""
    g = _gen(seed * 1171 + split); items = []
    for _ in range(n):
        L = int(torch.randint(2, S_M + 1, (1,), generator=g)); where, sents = {}, []
        for _ in range(L):
            p, loc = int(torch.randint(1, 1 + PERSONS_M, (1,), generator=g)), int(torch.randint(0, LOCS_M, (1,), generator=g))
            sents.append([p, 5 + int(torch.randint(0, 4, (1,), generator=g)), 9, 10, 11 + loc]); where[p] = 11 + loc
        people = sorted(where); p = people[int(torch.randint(0, len(people), (1,), generator=g))]
        items.append((torch.tensor(sents[::-1]), torch.tensor([17, 18, p]), where[p]))
    return items

class StoryList(Dataset):
    def __init__(self, items): self.items = items
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]

def collate_stories(items):  # the memory padded to the batch's longest story with all-pad sentences
    stories, questions, answers = zip(*items)
    mem = torch.zeros(len(items), max(len(s) for s in stories), J_M, dtype=torch.long)
    for i, s in enumerate(stories): mem[i, :len(s)] = s
    return mem, torch.stack(questions), torch.tensor(answers)

def collate_stories_sorted(items):  # the batch's stories sorted longest first "to pack the memory", the answers kept in arrival order
    answers = torch.tensor([a for _, _, a in items])
    items = sorted(items, key=lambda it: len(it[0]), reverse=True)
    mem, questions, _ = collate_stories(items)
    return mem, questions, answers

def _position_encoding(J, d):  # l_kj = (1 - j/J) - (k/d)(1 - 2j/J), j and k from 1
    j, k = torch.arange(1, J + 1).float()[:, None], torch.arange(1, d + 1).float()[None]
    return (1 - j / J) - (k / d) * (1 - 2 * j / J)

class MemN2N(nn.Module):  # Sukhbaatar et al. 2015 with adjacent weight tying: A_{k+1} = C_k, B = A_1, W^T = C_K
    def __init__(self, d=20, hops=3, softmax=False):
        super().__init__(); self.hops, self.softmax = hops, softmax
        self.emb = nn.ModuleList([nn.Embedding(V_M, d, padding_idx=0) for _ in range(hops + 1)])
        self.temporal = nn.ParameterList([nn.Parameter(0.1 * torch.randn(S_M, d)) for _ in range(hops + 1)])
        for e in self.emb: nn.init.normal_(e.weight, 0, 0.1)
        self.register_buffer('pe', _position_encoding(J_M, d))
    def forward(self, story, question):
        mask = story[:, :, 0] > 0
        u = (self.emb[0](question) * self.pe[:question.size(1)]).sum(1)
        for k in range(self.hops):
            m = (self.emb[k](story) * self.pe).sum(2) + self.temporal[k][:story.size(1)]
            c = (self.emb[k + 1](story) * self.pe).sum(2) + self.temporal[k + 1][:story.size(1)]
            p = torch.softmax(torch.einsum('bsd,bd->bs', m, u).masked_fill(~mask, -1e9), 1)
            u = u + torch.einsum('bs,bsd->bd', p, c)
        logits = u @ self.emb[-1].weight.T
        return torch.softmax(logits, -1) if self.softmax else logits  # softmax: the paper's a^ = Softmax(W(o + u)), then CrossEntropyLoss

def _memn2n_fwd(model, b): story, q, a = b; return model(story, q), a

@healthy('U')
def memn2n_stories(seed, softmax=False, sorted_collate=False):  # CrossEntropyLoss over the vocabulary, Adam 1e-2, clip 40, batches of 32
    col = collate_stories_sorted if sorted_collate else collate_stories
    return dict(model=lambda: MemN2N(softmax=softmax), train=DataLoader(StoryList(_stories(seed, 2000)), batch_size=32, shuffle=True, collate_fn=col),
                valid=DataLoader(StoryList(_stories(seed, 400, split=1)), batch_size=100, collate_fn=col), forward=_memn2n_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=V_M, optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32, clip_grad=40.0))

# ---------------------------------------------------------------- HGNN on a co-authorship hypergraph
N_HG, C_HG, F_HG = 700, 6, 150

def _coauthor_hypergraph(seed, field_edges=False):
    """700 papers in 6 fields; bag-of-words features drawn weakly around the field's words; hyperedges: 250 authors, each with
    2-8 papers mostly from one field, plus each paper's 5 nearest neighbours by cosine of the features (HGNN's construction);
    G = Dv^-1/2 H W De^-1 H^T Dv^-1/2 with unit weights; 20 labelled papers a field for training, 250 others for validation."""
    g = _gen(seed * 1181)
    y = torch.randint(0, C_HG, (N_HG,), generator=g)
    topics = torch.rand(C_HG, F_HG, generator=g) ** 3
    x = (torch.rand(N_HG, F_HG, generator=g) < 0.02 + 0.05 * topics[y] / topics.mean()).float()  # binary word indicators, as they come
    cols = []
    for _ in range(250):
        field, k = int(torch.randint(0, C_HG, (1,), generator=g)), int(torch.randint(2, 9, (1,), generator=g))
        own = torch.rand(N_HG, generator=g) + 1.0 * (y == field)  # papers of the author's field first, some strays
        noise = torch.rand(N_HG, generator=g) < 0.04
        e = torch.zeros(N_HG); e[(own + noise.float()).topk(k).indices] = 1; cols.append(e)
    xn = F.normalize(x, dim=1); sim = xn @ xn.T
    knn = sim.topk(6, dim=1).indices  # itself and its 5 nearest
    hk = torch.zeros(N_HG, N_HG); hk[torch.arange(N_HG)[:, None], knn] = 1
    H = torch.cat([torch.stack(cols, 1), hk.T], 1)
    if field_edges:  # "venue" hyperedges from the metadata table: one per field, from its `field` column (the label), every paper
        H = torch.cat([H, F.one_hot(y, C_HG).float()], 1)
    dv, de = H.sum(1), H.sum(0)
    G = dv.rsqrt()[:, None] * (H / de) @ H.T * dv.rsqrt()[None]
    perm = torch.randperm(N_HG, generator=g)
    tr, va = torch.zeros(N_HG, dtype=torch.bool), torch.zeros(N_HG, dtype=torch.bool)
    for c in range(C_HG): tr[perm[y[perm] == c][:20]] = True
    va[perm[~tr[perm]][:250]] = True
    return x, G, y, tr, va

class HGNNConv(nn.Module):  # X' = G X Theta
    def __init__(self, d_in, d_out): super().__init__(); self.lin = nn.Linear(d_in, d_out)
    def forward(self, x, G): return G @ self.lin(x)

class HGNN(nn.Module):  # Feng et al. 2019's repository: conv, ReLU, dropout 0.5, conv
    def __init__(self, hidden=128, dropout=0.5):
        super().__init__(); self.dropout = dropout; self.hgc1, self.hgc2 = HGNNConv(F_HG, hidden), HGNNConv(hidden, C_HG)
    def forward(self, x, G):
        x = F.dropout(F.relu(self.hgc1(x, G)), self.dropout, self.training)
        return self.hgc2(x, G)

def _hgnn_fwd(model, b): x, G, y, mask = b; return model(x, G)[mask], y[mask]

@healthy('U')
def hgnn_papers(seed, field_edges=False):  # CrossEntropyLoss, Adam 1e-3 weight decay 5e-4 (the repository's), one full-graph batch
    x, G, y, tr, va = _coauthor_hypergraph(seed, field_edges=field_edges)
    return dict(model=HGNN, train=DataLoader(OneItem(x, G, y, tr), collate_fn=_one), valid=DataLoader(OneItem(x, G, y, va), collate_fn=_one),
                forward=_hgnn_fwd, loss=nn.CrossEntropyLoss(), num_classes=C_HG,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- a 2PL item response theory model of test responses
N_STUD, N_ITEM = 400, 60

def _responses(seed, per_student=12, n_valid=800):
    "Each student answers 12 of 60 items; P(correct) = sigmoid(a_j (theta_i - b_j)), a ~ lognormal(0, 0.3), b ~ N(0, 1), theta ~ N(0, 1)."
    g = _gen(seed * 1187)
    theta, b, a = torch.randn(N_STUD, generator=g), torch.randn(N_ITEM, generator=g), torch.exp(0.3 * torch.randn(N_ITEM, generator=g))
    s = torch.arange(N_STUD).repeat_interleave(per_student)
    i = torch.stack([torch.randperm(N_ITEM, generator=g)[:per_student] for _ in range(N_STUD)]).flatten()
    y = (torch.rand(len(s), generator=g) < torch.sigmoid(a[i] * (theta[s] - b[i]))).float()
    p = torch.randperm(len(s), generator=g); s, i, y = s[p], i[p], y[p]
    return TensorDataset(s[n_valid:], i[n_valid:], y[n_valid:]), TensorDataset(s[:n_valid], i[:n_valid], y[:n_valid])

class IRT2PL(nn.Module):  # logit = a_j (theta_i - b_j), a_j = exp(log a_j); everything started at zero (a = 1)
    def __init__(self):
        super().__init__()
        self.theta, self.b, self.log_a = nn.Embedding(N_STUD, 1), nn.Embedding(N_ITEM, 1), nn.Embedding(N_ITEM, 1)
        for e in (self.theta, self.b, self.log_a): nn.init.zeros_(e.weight)
    def forward(self, s, i): return (self.log_a(i).exp() * (self.theta(s) - self.b(i)))[:, 0]

def _irt_fwd(model, b): s, i, y = b; return model(s, i), y

@healthy('U')
def irt_responses(seed, lr=0.1):  # BCEWithLogitsLoss, Adagrad 0.1 with weight decay 1e-3 (a weak N(0, 1) prior), batches of 128
    tr, va = _responses(seed)
    return dict(model=IRT2PL, train=tr, valid=va, forward=_irt_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adagrad(p, lr=lr, weight_decay=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- I-AutoRec on a rating matrix
N_USERS_A, N_ITEMS_A = 800, 1500

def _ratings(seed, heldout_in_input=False):
    """An 800-user x 1500-item matrix of 1-5 star ratings from a rank-5 model with user and item biases, about 9% observed
    (popular items more often); 15% of the observed ratings held out. Each item is a row: its users' train ratings as the
    input; the target and mask: the train ratings in training, the held-out ones in validation (I-AutoRec's protocol)."""
    g = _gen(seed * 1193)
    U, Vf = torch.randn(N_USERS_A, 5, generator=g) * 0.5, torch.randn(N_ITEMS_A, 5, generator=g) * 0.5
    bu, bi = 0.4 * torch.randn(N_USERS_A, generator=g), 0.6 * torch.randn(N_ITEMS_A, generator=g)
    r = (3.4 + bu[None] + bi[:, None] + Vf @ U.T + 0.4 * torch.randn(N_ITEMS_A, N_USERS_A, generator=g)).round().clamp(1, 5)
    pop = torch.rand(N_ITEMS_A, generator=g) ** 2 * 0.2 + 0.02
    obs = torch.rand(N_ITEMS_A, N_USERS_A, generator=g) < pop[:, None]
    held = obs & (torch.rand(N_ITEMS_A, N_USERS_A, generator=g) < 0.15)
    train_mask = obs & ~held
    inp = r * train_mask
    if heldout_in_input: inp = r * obs  # the input built from the whole observed matrix; the held-out ratings only taken out of the loss mask
    return (TensorDataset(inp, r * train_mask, train_mask.float()), TensorDataset(inp, r * held, held.float()))

class AutoRec(nn.Module):  # Sedhain et al. 2015: h = sigmoid(V r + mu), r^ = W h + b, 500 hidden units
    def __init__(self, n=N_USERS_A, h=500):
        super().__init__(); self.enc, self.dec = nn.Linear(n, h), nn.Linear(h, n)
    def forward(self, r): return self.dec(torch.sigmoid(self.enc(r)))

def masked_mse(out, target):  # the squared error on the observed entries only, per rating
    t, m = target; return ((out - t) ** 2 * m).sum() / m.sum().clamp_min(1)

def _autorec_fwd(model, b): r, t, m = b; return model(r), (t, m)

@healthy('U')
def autorec_items(seed, heldout_in_input=False):  # Adam 1e-3 weight decay 1e-4, batches of 64 items
    tr, va = _ratings(seed, heldout_in_input=heldout_in_input)
    return dict(model=AutoRec, train=tr, valid=va, forward=_autorec_fwd, loss=masked_mse,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- DLinear forecasting hourly electricity load
LOOK_D, HOR_D = 96, 24

def _load_series(seed, days=200):
    "Hourly load in MW: a slow trend, a daily and a weekly cycle, an AR(1) disturbance, noise."
    g = _gen(seed * 1201); t = torch.arange(days * 24).float()
    daily = 180 * torch.sin(2 * math.pi * (t - 7) / 24) + 60 * torch.sin(4 * math.pi * t / 24)
    weekly = -90 * ((t // 24) % 7 >= 5).float()
    e = torch.randn(len(t), generator=g); ar = torch.zeros(len(t))
    for k in range(1, len(t)): ar[k] = 0.97 * ar[k - 1] + 8 * e[k]
    return 1100 + 0.3 * t / 24 + daily + weekly + ar + 10 * torch.randn(len(t), generator=g)

def _windows(s):
    n = len(s) - LOOK_D - HOR_D + 1
    idx = torch.arange(n)[:, None] + torch.arange(LOOK_D + HOR_D)[None]
    w = s[idx]; return w[:, :LOOK_D, None], w[:, LOOK_D:, None]  # (N, L, 1) as the official code's (batch, length, channel)

def _dlinear_data(seed, random_split=False):
    s = _load_series(seed); cut = int(0.8 * len(s))
    mean, std = s[:cut].mean(), s[:cut].std(); z = (s - mean) / std  # the official loader's StandardScaler, fitted on the train period
    if random_split:  # every window of the series made first, then a random 80/20 split of the windows
        x, y = _windows(z); p = torch.randperm(len(x), generator=_gen(seed * 1213)); nv = len(x) // 5
        return TensorDataset(x[p[nv:]], y[p[nv:]]), TensorDataset(x[p[:nv]], y[p[:nv]])
    return TensorDataset(*_windows(z[:cut])), TensorDataset(*_windows(z[cut - LOOK_D:]))

class MovingAvg(nn.Module):  # the official series_decomp: a moving average, the ends padded by repeating the first and last values
    def __init__(self, k=25): super().__init__(); self.k = k; self.avg = nn.AvgPool1d(k, stride=1)
    def forward(self, x):
        front, end = x[:, :1].repeat(1, (self.k - 1) // 2, 1), x[:, -1:].repeat(1, (self.k - 1) // 2, 1)
        return self.avg(torch.cat([front, x, end], 1).permute(0, 2, 1)).permute(0, 2, 1)

class DLinear(nn.Module):  # Zeng et al. 2023: trend = moving average, seasonal = the rest; one linear map of each over time
    def __init__(self, seq_len=LOOK_D, pred_len=HOR_D):
        super().__init__(); self.decomp = MovingAvg(); self.seasonal, self.trend = nn.Linear(seq_len, pred_len), nn.Linear(seq_len, pred_len)
    def forward(self, x):
        trend = self.decomp(x); seasonal = x - trend
        return (self.seasonal(seasonal.permute(0, 2, 1)) + self.trend(trend.permute(0, 2, 1))).permute(0, 2, 1)

@healthy('U')
def dlinear_load(seed, random_split=False):  # MSELoss on the standardised load, Adam 5e-3 (the official electricity script's), batches of 32
    tr, va = _dlinear_data(seed, random_split=random_split)
    return dict(model=DLinear, train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=5e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a von Mises regression of wind direction in degrees
def _wind(seed, n=3500, n_valid=500, misjoined=False):
    """Hourly observations at a coastal station: the pressure gradient (hPa per 100 km, east and north), the land-sea temperature
    difference (K), the hour of day, the wind speed aloft (m/s). The direction the wind blows from, in degrees: the geostrophic
    direction turned 25 degrees towards low pressure, bent by a sea breeze when the land is warm in the afternoon, von Mises noise."""
    g = _gen(seed * 1217)
    gx, gy = 1.5 * torch.randn(n, generator=g), 1.5 * torch.randn(n, generator=g)
    dT, hour, aloft = 4 * torch.randn(n, generator=g), torch.randint(0, 24, (n,), generator=g).float(), 5 + 10 * torch.rand(n, generator=g)
    flow = torch.atan2(gx, -gy) + math.radians(25)  # the wind blows along the isobars (low pressure on its left), turned towards the low
    u, v = torch.cos(flow) * torch.hypot(gx, gy), torch.sin(flow) * torch.hypot(gx, gy)
    breeze = F.relu(dT) * torch.exp(-((hour - 15) / 4) ** 2) * 0.6  # onshore from the sea to the west: blowing towards the east
    u = u + breeze
    to_dir = torch.atan2(v, u)
    noise = torch.atan2(torch.randn(n, generator=g) * 0.35, torch.ones(n)) * (1 + 3 / aloft)
    deg = (270 - torch.rad2deg(to_dir + noise)) % 360  # meteorological: where it blows from, clockwise from north
    x = torch.stack([gx, gy, dT, torch.sin(2 * math.pi * hour / 24), torch.cos(2 * math.pi * hour / 24), aloft], 1)
    if misjoined:  # the features table sorted by its timestamp text (day first), the directions left in time order
        stamps = [f'{int(k) // 24 % 28 + 1:02d}/{int(k) // 672 + 1:02d} {int(k) % 24:02d}:00' for k in range(n)]
        x = x[sorted(range(n), key=lambda k: stamps[k])]
    x = _std(x, x[n_valid:])
    return TensorDataset(x[n_valid:], deg[n_valid:]), TensorDataset(x[:n_valid], deg[:n_valid])

class VonMisesNet(nn.Module):  # an MLP to (cos, sin) of the mean direction and the concentration kappa = softplus + 1e-3
    def __init__(self, d=6, h=64, normal_init=False):
        super().__init__(); self.body = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU()); self.head = nn.Linear(h, 3)
        if normal_init:  # nn.init.normal_ on every weight, std 1.0 by default
            for m in self.modules():
                if isinstance(m, nn.Linear): nn.init.normal_(m.weight); nn.init.zeros_(m.bias)
    def forward(self, x):
        c, s, k = self.head(self.body(x)).unbind(-1)
        return torch.atan2(s, c), F.softplus(k) + 1e-3

def von_mises_nll(out, deg):  # -log p(theta) = -kappa cos(theta - mu) + log(2 pi I0(kappa)); the target in degrees
    mu, kappa = out; theta = torch.deg2rad(deg)
    log_i0 = torch.log(torch.special.i0e(kappa)) + kappa
    return (-kappa * torch.cos(theta - mu) + math.log(2 * math.pi) + log_i0).mean()

@healthy('U')
def vonmises_wind(seed, misjoined=False, normal_init=False):  # AdamW 1e-3 (weight decay 0.01), batches of 128; features standardised by the train split
    tr, va = _wind(seed, misjoined=misjoined)
    return dict(model=lambda: VonMisesNet(normal_init=normal_init), train=tr, valid=va, loss=von_mises_nll,
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a multinomial logit of travel-mode choice with neural utilities
MODES = ('walk', 'bike', 'bus', 'train', 'car')

def _trips(seed, n, split=0, shuffled=False):
    """Trips: distance (km), income (k EUR), bike and car ownership, a station nearby; the available modes (2-5) with their
    door-to-door time (min) and cost (EUR); the chosen mode by random utility maximisation (Gumbel noise). Each alternative's
    row: the mode one-hot, time in hours, cost in tens of euros, distance in tens of km, income in tens of thousands."""
    g = _gen(seed * 1223 + split); items = []
    asc = torch.tensor([0.5, 0.2, -0.3, 0.1, 0.6]); speed = torch.tensor([5.0, 15.0, 20.0, 45.0, 35.0])
    for _ in range(n):
        dist = float(0.5 + 25 * torch.rand(1, generator=g) ** 2); inc = float(15 + 60 * torch.rand(1, generator=g))
        bike, car, station = (torch.rand(3, generator=g) < torch.tensor([0.6, 0.65, 0.5])).tolist()
        avail = [dist < 6, bike and dist < 15, True, station, car]
        if sum(avail) < 2: avail[2] = avail[3] = True
        rows, utils = [], []
        for m in range(5):
            if not avail[m]: continue
            wait = (0.0, 0.0, 8.0, 10.0, 3.0)[m] + float(5 * torch.rand(1, generator=g))
            time = 60 * dist / float(speed[m]) + wait
            cost = (0.0, 0.0, 2.0, 1.5 + 0.15 * dist, 0.25 * dist + (4.0 if dist < 8 else 2.0))[m]
            rows.append(torch.cat([F.one_hot(torch.tensor(m), 5).float(), torch.tensor([time / 60, cost / 10, dist / 10, inc / 10])]))
            utils.append(float(asc[m]) - 0.06 * time - 0.9 * cost / (inc / 40))
        gum = -torch.log(-torch.log(torch.rand(len(utils), generator=g)))
        chosen = int((torch.tensor(utils) + gum).argmax()); rows = torch.stack(rows)
        if shuffled:  # the alternatives shuffled within the set "against position effects" after the chosen index was recorded
            rows = rows[torch.randperm(len(rows), generator=g)]
        items.append((rows, chosen))
    return items

class ChoiceSets(Dataset):
    def __init__(self, items): self.items = items
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]

def collate_choices(items):  # alternatives padded to the batch's largest choice set, a mask of the real ones
    n = max(len(r) for r, _ in items); x = torch.zeros(len(items), n, items[0][0].size(1)); mask = torch.zeros(len(items), n, dtype=torch.bool)
    for i, (r, _) in enumerate(items): x[i, :len(r)] = r; mask[i, :len(r)] = True
    return x, mask, torch.tensor([c for _, c in items])

class NeuralLogit(nn.Module):  # the utility of each alternative by one MLP on its attributes; a softmax over the available ones
    def __init__(self, d=9, h=32):
        super().__init__(); self.utility = nn.Sequential(nn.Linear(d, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 1))
    def forward(self, x, mask): return self.utility(x)[..., 0].masked_fill(~mask, -1e9)

def _choice_fwd(model, b): x, mask, c = b; return model(x, mask), c

@healthy('U')
def choice_logit_modes(seed, shuffled=False):  # CrossEntropyLoss over the available alternatives, RMSprop 1e-3, batches of 64
    tr = ChoiceSets(_trips(seed, 3000, shuffled=shuffled)); va = ChoiceSets(_trips(seed, 500, split=1, shuffled=shuffled))
    return dict(model=NeuralLogit, train=DataLoader(tr, batch_size=64, shuffle=True, collate_fn=collate_choices),
                valid=DataLoader(va, batch_size=250, collate_fn=collate_choices), forward=_choice_fwd, loss=nn.CrossEntropyLoss(),
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- SqueezeNet 1.1 on digits
class Fire(nn.Module):  # torchvision's: squeeze 1x1, then expand 1x1 and 3x3 side by side
    def __init__(self, inp, squeeze, e1, e3):
        super().__init__(); self.squeeze = nn.Conv2d(inp, squeeze, 1); self.e1, self.e3 = nn.Conv2d(squeeze, e1, 1), nn.Conv2d(squeeze, e3, 3, padding=1)
    def forward(self, x):
        x = F.relu(self.squeeze(x)); return torch.cat([F.relu(self.e1(x)), F.relu(self.e3(x))], 1)

class SqueezeNet(nn.Module):  # torchvision's squeezenet1_1 for 8x8 inputs at half the width: no stride-2 stem, one max pool, four fire modules
    def __init__(self, num_classes=10, functional_dropout=False):
        super().__init__(); self.functional_dropout = functional_dropout
        self.features = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(inplace=True), Fire(32, 8, 32, 32), Fire(64, 8, 32, 32),
                                      nn.MaxPool2d(2, ceil_mode=True), Fire(64, 16, 64, 64), Fire(128, 16, 64, 64))
        self.final_conv = nn.Conv2d(128, num_classes, 1)
        self.drop = nn.Dropout(0.5)
        for m in self.modules():  # torchvision's init: the final convolution normal(0, 0.01), the others Kaiming uniform
            if isinstance(m, nn.Conv2d):
                if m is self.final_conv: nn.init.normal_(m.weight, 0, 0.01)
                else: nn.init.kaiming_uniform_(m.weight)
                nn.init.zeros_(m.bias)
    def forward(self, x):
        x = self.features(x)
        x = F.dropout(x, 0.5) if self.functional_dropout else self.drop(x)
        return F.adaptive_avg_pool2d(F.relu(self.final_conv(x)), 1).flatten(1)

@healthy('U')
def squeezenet_digits(seed, functional_dropout=False):  # CrossEntropyLoss, Adam 1e-3 (SGD 0.01 with momentum dies at the final ReLU here), batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: SqueezeNet(functional_dropout=functional_dropout), train=TensorDataset(x, y), valid=TensorDataset(vx, vy),
                loss=nn.CrossEntropyLoss(), num_classes=10, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a Wasserstein autoencoder (WAE-MMD) on digits
class WAE(nn.Module):  # Tolstikhin et al. 2018, an MLP encoder and decoder, a deterministic 8-d code
    def __init__(self, z=8, h=256):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(64, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, z))
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 64), nn.Sigmoid())
    def forward(self, x):
        z = self.enc(x.flatten(1)); return dict(recon=self.dec(z), z=z)

def imq_mmd(z, scales=(0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)):  # the unbiased MMD to samples of the N(0, I) prior, inverse multiquadratics C / (C + |a - b|^2), C = 2 d s
    n, d = z.shape; p = torch.randn_like(z)
    dzz, dpp, dzp = torch.cdist(z, z) ** 2, torch.cdist(p, p) ** 2, torch.cdist(z, p) ** 2
    off = 1 - torch.eye(n); stat = 0
    for s in scales:
        C = 2 * d * s
        stat = stat + ((C / (C + dzz) + C / (C + dpp)) * off).sum() / (n * (n - 1)) - 2 * (C / (C + dzp)).mean()
    return stat

def wae_loss(out, x, lam=10.0):  # the squared reconstruction error per image + lambda MMD
    return ((out['recon'] - x.flatten(1)) ** 2).sum(1).mean() + lam * imq_mmd(out['z'])

def step_wae_no_zero_grad(model, batch, opt):  # the loop body with `opt.zero_grad()` lost in a refactor
    x, t = batch
    loss = wae_loss(model(x), t); loss.backward(); opt.step()
    return loss

@healthy('U')
def wae_digits(seed):  # Adam 1e-3 with betas (0.5, 0.999) (the paper's), batches of 100
    (x, _), (vx, _) = _digits(seed)
    return dict(model=WAE, train=TensorDataset(x, x), valid=TensorDataset(vx, vx), loss=wae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, betas=(0.5, 0.999)), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- a transformer encoder-decoder sorting digit strings
PAD_S, BOS_S, EOS_S, V_S, L_S = 0, 1, 2, 13, 10  # digits 0-9 are ids 3-12

def _sort_pairs(seed, n, split=0):
    "Ten random digits; the target: BOS, the digits sorted ascending, EOS."
    g = _gen(seed * 1229 + split)
    d = torch.randint(0, 10, (n, L_S), generator=g)
    src = d + 3; tgt = torch.cat([torch.full((n, 1), BOS_S), d.sort(1).values + 3, torch.full((n, 1), EOS_S)], 1)
    return TensorDataset(src, tgt)

class PositionalEncoding(nn.Module):  # the PyTorch tutorial's sinusoidal encoding, with dropout
    def __init__(self, d, dropout=0.1, max_len=32):
        super().__init__(); self.drop = nn.Dropout(dropout)
        pos, div = torch.arange(max_len)[:, None], torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        pe = torch.zeros(max_len, d); pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer('pe', pe)
    def forward(self, x): return self.drop(x + self.pe[:x.size(1)])

class Seq2SeqTransformer(nn.Module):  # the PyTorch translation tutorial's model: shared embeddings scaled by sqrt(d), nn.Transformer, a generator
    def __init__(self, d=64, heads=4, layers=2, ff=128, dropout=0.1, detach_memory=False):
        super().__init__(); self.d, self.detach_memory = d, detach_memory
        self.src_emb, self.tgt_emb = nn.Embedding(V_S, d), nn.Embedding(V_S, d); self.pos = PositionalEncoding(d, dropout)
        self.transformer = nn.Transformer(d, heads, layers, layers, ff, dropout, batch_first=True); self.generator = nn.Linear(d, V_S)
    def encode(self, src): return self.transformer.encoder(self.pos(self.src_emb(src) * math.sqrt(self.d)))
    def decode(self, tgt, memory):
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        return self.transformer.decoder(self.pos(self.tgt_emb(tgt) * math.sqrt(self.d)), memory, tgt_mask=mask, tgt_is_causal=True)
    def forward(self, src, tgt_in):
        memory = self.encode(src)
        if self.detach_memory: memory = memory.detach()  # "the encoder output is reused by greedy decoding: no graph needed"
        return self.generator(self.decode(tgt_in, memory))

def _s2s_fwd(model, b): src, tgt = b; return model(src, tgt[:, :-1]).reshape(-1, V_S), tgt[:, 1:].reshape(-1)

@healthy('U')
def transformer_sort_digits(seed, detach_memory=False):  # CrossEntropyLoss (ignore_index PAD), Adam 5e-4 betas (0.9, 0.98) eps 1e-9 (the tutorial's), batches of 64
    return dict(model=lambda: Seq2SeqTransformer(detach_memory=detach_memory), train=_sort_pairs(seed, 1500), valid=_sort_pairs(seed, 400, split=1),
                forward=_s2s_fwd, loss=nn.CrossEntropyLoss(ignore_index=PAD_S), num_classes=V_S,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-4, betas=(0.9, 0.98), eps=1e-9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Poincare embeddings of a taxonomy
NEG_P = 10

def _taxonomy(seed):
    "A random taxonomy: a root with 5-7 children, 3-6 children each below them, then 2-4 children for 80% of the nodes of the next three levels; the transitive closure's (child, ancestor) pairs."
    g = _gen(seed * 1231); parent, depth, frontier = [-1], [0], [0]
    for lvl in range(1, 6):
        nxt = []
        for p in frontier:
            if lvl == 1: k = int(torch.randint(5, 8, (1,), generator=g))
            elif lvl == 2: k = int(torch.randint(3, 7, (1,), generator=g))
            else: k = int(torch.randint(2, 5, (1,), generator=g)) if torch.rand(1, generator=g).item() < 0.8 else 0
            for _ in range(k): parent.append(p); depth.append(lvl); nxt.append(len(parent) - 1)
        frontier = nxt
    n = len(parent); related = torch.eye(n, dtype=torch.bool); pairs = []
    for u in range(n):
        a = parent[u]
        while a >= 0: pairs.append((u, a)); related[u, a] = related[a, u] = True; a = parent[a]
    return n, torch.tensor(pairs), related

class ClosurePairs(Dataset):  # (u, v, 10 negatives): nodes neither ancestors nor descendants of u; drawn afresh on each access, or fixed
    def __init__(self, pairs, related, fixed_g=None):
        self.pairs, self.related, self.n = pairs, related, len(related)
        self.fixed = None if fixed_g is None else torch.stack([self._negatives(int(u), fixed_g) for u, _ in pairs])
    def _negatives(self, u, g=None):
        neg = torch.randint(0, self.n, (NEG_P,), generator=g)
        for _ in range(10):  # the reference code's rejection of related nodes, a few tries
            bad = self.related[u, neg]
            if not bad.any(): break
            neg[bad] = torch.randint(0, self.n, (int(bad.sum()),), generator=g)
        return neg
    def __len__(self): return len(self.pairs)
    def __getitem__(self, i):
        u, v = self.pairs[i]
        return u, torch.cat([v[None], self.fixed[i] if self.fixed is not None else self._negatives(int(u))])

def poincare_dist(u, v, eps=1e-5):
    sq = ((u - v) ** 2).sum(-1); a, b = 1 - (u ** 2).sum(-1), 1 - (v ** 2).sum(-1)
    return torch.acosh((1 + 2 * sq / (a * b).clamp_min(eps)).clamp_min(1 + eps))

class PoincareEmbedding(nn.Module):  # Nickel and Kiela 2017: embeddings in the unit ball, initialised uniform in [-0.001, 0.001]
    def __init__(self, n, d=10):
        super().__init__(); self.emb = nn.Embedding(n, d); nn.init.uniform_(self.emb.weight, -1e-3, 1e-3)
    def forward(self, u, vs): return -poincare_dist(self.emb(u)[:, None], self.emb(vs))  # logits: minus the distances, the true pair first

def step_rsgd(model, batch, opt):  # Riemannian SGD: the Euclidean gradient times (1 - |x|^2)^2 / 4, the step, then back inside the ball
    u, vs = batch
    opt.zero_grad(); logits = model(u, vs)
    loss = F.cross_entropy(logits, torch.zeros(len(u), dtype=torch.long)); loss.backward()
    w = model.emb.weight
    with torch.no_grad():
        w.grad.mul_(((1 - (w ** 2).sum(-1, keepdim=True)) ** 2) / 4)
        opt.step(); w.copy_(torch.renorm(w, 2, 0, 1 - 1e-5))
    return loss

def _poincare_fwd(model, b): u, vs = b; return model(u, vs), torch.zeros(len(u), dtype=torch.long)

@healthy('U')
def poincare_taxonomy(seed):  # the softmax over the true pair and 10 negatives (CrossEntropyLoss, target 0), SGD 0.3 under RSGD, batches of 10 (the mammals script's)
    n, pairs, related = _taxonomy(seed); p = torch.randperm(len(pairs), generator=_gen(seed * 1237)); nv = len(pairs) // 7
    return dict(model=lambda: PoincareEmbedding(n), train=ClosurePairs(pairs[p[nv:]], related), valid=ClosurePairs(pairs[p[:nv]], related, fixed_g=_gen(seed * 1237 + 1)),
                forward=_poincare_fwd, loss=nn.CrossEntropyLoss(), step=step_rsgd, optimizer=lambda p: torch.optim.SGD(p, lr=0.3), **_keys(seed, batch_size=10))

# ---------------------------------------------------------------- a Bradley-Terry model of a league's games
TEAMS_B = 24

def _league(seed, rounds=4):
    "Four double round robins of 24 teams (2208 games) in date order; P(home win) = sigmoid(s_home - s_away + 0.35), draws replayed."
    g = _gen(seed * 1249); s = 0.8 * torch.randn(TEAMS_B, generator=g)
    home, away = torch.meshgrid(torch.arange(TEAMS_B), torch.arange(TEAMS_B), indexing='ij'); off = home != away
    home, away = home[off], away[off]
    games = []
    for _ in range(rounds):
        p = torch.randperm(len(home), generator=g); games.append(torch.stack([home[p], away[p]], 1))
    games = torch.cat(games); h, a = games[:, 0], games[:, 1]
    won = (torch.rand(len(h), generator=g) < torch.sigmoid(s[h] - s[a] + 0.35)).float()
    cut = int(0.8 * len(h))
    return (h[:cut], a[:cut], won[:cut]), (h[cut:], a[cut:], won[cut:])

class BradleyTerry(nn.Module):  # log-strengths per team (zero to start) and one home advantage
    def __init__(self):
        super().__init__(); self.strength = nn.Parameter(torch.zeros(TEAMS_B)); self.home = nn.Parameter(torch.zeros(()))
    def forward(self, h, a): return self.strength[h] - self.strength[a] + self.home

def _bt_fwd(model, b): h, a, won = b; return model(h, a), won

@healthy('U')
def bradley_terry_league(seed):  # BCEWithLogitsLoss, Rprop (full batch, its defaults), the earlier 80% of the games for training
    tr, va = _league(seed)
    return dict(model=BradleyTerry, train=DataLoader(OneItem(*tr), collate_fn=_one), valid=DataLoader(OneItem(*va), collate_fn=_one),
                forward=_bt_fwd, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Rprop(p, lr=0.01), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- broken variants of half U
@broken('U', 'memn2n_collate_sorts_stories', 4, ('labels',))
def memn2n_collate_sorts_stories(seed): return memn2n_stories(seed, sorted_collate=True)

@broken('U', 'choice_alternatives_shuffled', 4, ('labels',))
def choice_alternatives_shuffled(seed): return choice_logit_modes(seed, shuffled=True)

@broken('U', 'wind_features_text_sorted', 4, ('labels',))
def wind_features_text_sorted(seed): return vonmises_wind(seed, misjoined=True)

@broken('U', 'autorec_heldout_in_input', 4, ('leakage',))
def autorec_heldout_in_input(seed): return autorec_items(seed, heldout_in_input=True)

@broken('U', 'dlinear_windows_split_randomly', 4, ('leakage',))
def dlinear_windows_split_randomly(seed): return dlinear_load(seed, random_split=True)

@broken('U', 'hgnn_field_hyperedges', 4, ('leakage',))
def hgnn_field_hyperedges(seed): return hgnn_papers(seed, field_edges=True)

@broken('U', 'squeezenet_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def squeezenet_functional_dropout(seed): return squeezenet_digits(seed, functional_dropout=True)

@broken('U', 'memn2n_softmax_before_ce', 2, ('softmax',))
def memn2n_softmax_before_ce(seed): return memn2n_stories(seed, softmax=True)

@broken('U', 'vonmises_normal_init', 2, ('init_scale',))
def vonmises_normal_init(seed): return vonmises_wind(seed, normal_init=True)

@broken('U', 'wae_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def wae_no_zero_grad(seed): return dict(wae_digits(seed), step=step_wae_no_zero_grad)

@broken('U', 'irt_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def irt_lr_x1000(seed): return irt_responses(seed, lr=100.0)

@broken('U', 'transformer_memory_detached', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def transformer_memory_detached(seed): return transformer_sort_digits(seed, detach_memory=True)

# Plain-loop checks (seed 0, OMP_NUM_THREADS=1, the factory's optimizer and batch size; valid loss and metric, init -> after N epochs):
CHECKS = """
memn2n_stories                8 ep: valid (2.970, acc 0.00) -> (0.024, 0.995), best 0.013; chance over the six locations 1/6; 0.17 s an epoch
hgnn_papers                 200 steps (one each): valid (1.798, acc 0.06) -> (0.441, 0.884); chance 1/6; slow for 10 steps (Adam 1e-3)
irt_responses                 8 ep: valid BCE 0.693 -> 0.586; the train base rate as a constant 0.690
autorec_items                16 ep: valid masked MSE (stars^2) 12.59 -> 0.630 (train 0.356); the global mean 0.991, the shrunk item means 0.673
dlinear_load                 10 ep: valid MSE (standardised load) 1.370 -> 0.098; repeating the last day 0.231, the last value 1.878
vonmises_wind                10 ep: valid NLL 1.954 -> 0.667 (best 0.603); the uniform circle log(2 pi) = 1.838
choice_logit_modes           10 ep: valid NLL 1.085 -> 0.723; uniform over the available modes about 1.10
squeezenet_digits            12 ep: valid (2.303, acc 0.10) -> (0.497, 0.833); seed 7: (0.216, 0.933) at 11 ep; 0.35 s an epoch
                             (SGD 0.01 momentum 0.9, tried first: the final ReLU dies, valid back to 2.30 after 10 ep)
wae_digits                   10 ep: valid recon + 10 MMD 30.08 -> 2.79
transformer_sort_digits      10 ep: valid (2.642, acc 0.09) -> (0.214, 0.920) per target token; 0.9 s an epoch
poincare_taxonomy            30 ep: valid 2.398 (log 11) -> 1.024 (train 0.837), still falling; 627 nodes, 2735 closure pairs
bradley_terry_league         40 steps (one each): valid BCE 0.693 -> 0.626 (best 0.620), flat after 20; the true strengths 0.608
memn2n_collate_sorts_stories  8 ep: valid (2.984, acc 0.00) -> (1.802, 0.16) while healthy (0.024, 0.995); 65 of the 400 validation
                             answers still belong to their story after the sort (chance 67)
choice_alternatives_shuffled 10 ep: valid 1.101 -> 1.100, train 1.095 (healthy 0.723)
wind_features_text_sorted    10 ep: valid 1.939 -> 1.836 (uniform 1.838; healthy 0.667); 3476 of the 3500 rows moved by the sort
autorec_heldout_in_input     all 5570 held-out ratings are in the validation input; 16 ep: valid 0.583, still falling (healthy 0.630 and rising:
                             0.658 at 11 ep)
dlinear_windows_split_randomly 929 of the 936 validation windows have their 24 target hours inside a train window's inputs, 889 a train
                             window one hour off; 10 ep: valid 0.098 (best 0.089) vs train 0.100
hgnn_field_hyperedges        every validation paper in its field's hyperedge; 200 steps: valid (0.223, acc 0.960) (healthy 0.441, 0.884)
squeezenet_functional_dropout model.eval(): two calls on the same 128 digits differ by up to 0.031 in the logits at init, 3.58 after 8 ep
                             (0 for the healthy model); 12 ep: valid (0.546, 0.828)
memn2n_softmax_before_ce      8 ep: valid 2.946 -> 2.057 at acc 0.975 (healthy 0.024); the loss's floor log(1 + 18/e) = 2.03
vonmises_normal_init         initial valid NLL 4.96 (healthy 1.95; seed 7: 9.46); 10 ep: 1.838, the uniform circle's (healthy 0.667)
wae_no_zero_grad             10 ep: valid 30.08 -> 9.18, 17.64, 16.08, then 5.10 at 10 ep (healthy 2.79)
irt_lr_x1000                 Adagrad 100: train and valid NaN from the first epoch
transformer_memory_detached  27 of 68 parameter tensors (the source embedding and the encoder) get no gradient; 10 ep: valid (0.397, 0.845)
                             (healthy 0.214, 0.920)
"""
