"""Half AU of the ladder's gallery: held out from the rules frozen at 7d35bca (round 59), and run once on them.
Families not in halves A-AS, taken only from tabular data and business/finance, science and engineering, graphs, recommender
systems and ranking, time series and forecasting, and RL-style supervised models (a half written alongside took other
domains): hotel booking cancellation (Antonio, Almeida and Nunes 2019's hotel_bookings.csv: lead time, stay, party, meal,
market segment, deposit type, previous cancellations, booking changes, ADR, special requests, parking, customer type; one-hot
and standardised, an MLP, BCE with logits; reservation_status and its date dropped as the outcome's record); BERT4Rec (Sun
et al. 2019, shrunk: item and position embeddings, two bidirectional transformer layers, the cloze objective with a fresh
20% of the items masked at each access, the cross-entropy over the masked positions with ignore_index -100, a loss of its
own over (B, L, V) logits; leave-one-out, each user's last item validating behind a [MASK]); a mixture density network
(Bishop 1994: two tanh layers, three Gaussian components with diagonal sigmas from exp, the mixture's negative log-likelihood
written by hand over a tuple output) solving the two-valued inverse kinematics of a planar two-link arm from the end
effector's position; flight arrival delays (BTS on-time records of one month: carrier and airport embeddings, departure
hour, weekday, distance; ARR_DEL15 by BCE with logits; a batch of three tensors and a forward of its own; the last week
validating, the file read in carrier order and sorted by date for the split); influenza-like illness forecasting (CDC
ILINet-style weekly weighted ILI% of five HHS regions over six seasons: a GRU over ten weeks of ILI% and the week of the
season, the ILI% two weeks ahead by MSE in percentage points; the last season validating); cancer drug response (a
GDSC-style two-tower MLP: cell-line expression of 100 genes and the drug's 64-bit fingerprint, ln IC50 by MSE in its raw
units; a batch of three tensors and a forward of its own; blind cell lines: a fifth of the cell lines validating); a
graph isomorphism network (GIN, Xu et al. 2019: three layers of MLPs with batch norm and a learnt epsilon, sum pooling of
every layer's output into its own linear score; a collate_fn that concatenates the graphs and offsets their edges, a batch
of four tensors and a forward of its own) telling enzymes from non-enzymes in PROTEINS-like graphs of secondary-structure
elements, the graphs read one file each and the labels from a list in id order; GCNII (Chen et al. 2020: an initial
residual alpha 0.1 and identity mapping beta = log(lambda / l + 1) over eight layers, dropout 0.6, Adam 0.01 with weight
decay; one full-graph item) on a citation-style graph with a third of its edges across classes; Monte Carlo evaluation of blackjack (Sutton and Barto's example 5.1
as a supervised problem: the player's sum, the dealer's card, a usable ace and the action into an MLP over lose/draw/win,
the cross-entropy against each visit's final return; held-out episodes validating); airline passenger satisfaction (the
Kaggle survey of a US airline: 14 service ratings 0-5, age, distance, delays, gender, loyalty, travel type, class; an MLP
with two logits, CrossEntropyLoss); the Lorenz-63 vector field (an MLP from the state to its time derivative, estimated
from RK4 trajectories by central differences as SINDy's pipeline; MSE on standardised derivatives, a custom step porting
the author's loop; a held-out trajectory validating); and yeast protein localisation (Horton and Nakai 1996, UCI's Yeast:
eight sequence-derived scores in [0, 1], ten imbalanced sites; an MLP, cross-entropy).
At most about 1500 training items a program (the flight records; 1200-1250 rows elsewhere, BERT4Rec's 400 users, the GIN's 320
graphs, the GCNII one graph of 300 nodes) and about 40k trainable parameters; an epoch of a plain loop 0.01-0.15 s on one
busy core (CHECKS). Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this
module after half AS.

Protocol: written by a helper in a worktree at be15543 (branch halfAU), held out from the rules frozen at 7d35bca (round 59;
the maintainer records the freeze hash). The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*,
nbs/03*), bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on
these programs (no ntrain.ladder call, no bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's
head, helpers and tail (the import lines), half AO whole, the module docstrings of all the other halves (with greps of them
for candidate family names) and the @broken lines of all of them (for the rung and cause conventions and the families
taken), a few lines of half AS (a full-graph item), ladder_sweep.py's --half line, and the signature of `ntrain.ladder` via
help(). Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the
healthy ones learn, the broken ones are broken as meant), seeds 0 and 1. No program declares groups. Committed before any
ladder run, to be run once with `bench/ladder_sweep.py --half AU`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset, _citation_graph  # noqa: F401

# ---------------------------------------------------------------- hotel booking cancellation (Antonio, Almeida and Nunes 2019: hotel_bookings.csv)
HOTEL_MEALS, HOTEL_SEGMENTS, HOTEL_DEPOSITS, HOTEL_CUSTOMERS = ['BB', 'HB', 'FB', 'SC'], ['Online TA', 'Offline TA/TO', 'Groups', 'Direct', 'Corporate'], ['No Deposit', 'Non Refund', 'Refundable'], ['Transient', 'Transient-Party', 'Contract', 'Group']
HOTEL_NUMERIC = ['lead_time', 'arrival_week', 'stays_in_weekend_nights', 'stays_in_week_nights', 'adults', 'children', 'is_repeated_guest', 'previous_cancellations',
                 'booking_changes', 'days_in_waiting_list', 'adr', 'required_car_parking_spaces', 'total_of_special_requests']

def _hotel(seed, n=1500):
    """Bookings of a city and a resort hotel: a latent intent to travel; cancellations (about 37%) more with long lead times,
    online travel agents, non-refundable group deposits (as the data's odd pattern), previous cancellations, and fewer with
    special requests, parking and booking changes. reservation_status is Canceled, No-Show or Check-Out, its date the day of
    the cancellation (before arrival), of the no-show or of the check-out (after the stay); kept as days from arrival."""
    g = np.random.default_rng(1000 + seed * 3001); rows = []
    for _ in range(n):
        city = g.random() < 0.66; seg = HOTEL_SEGMENTS[g.choice(5, p=[.47, .2, .17, .11, .05])]; lead = float(np.round(g.exponential(100 if seg != 'Direct' else 45)))
        dep = HOTEL_DEPOSITS[g.choice(3, p=[.86, .13, .01])] if seg in ('Groups', 'Offline TA/TO') else HOTEL_DEPOSITS[g.choice(3, p=[.97, .02, .01])]
        we, wk = int(g.poisson(0.9 if city else 1.3)), int(g.poisson(2.2 if city else 3.2)); wk = max(wk, 1 - min(we, 1))
        adults, children = int(np.clip(g.poisson(1.9), 1, 4)), int(g.random() < 0.08) * int(g.integers(1, 3)); rep = int(g.random() < 0.03)
        prev = int(g.poisson(0.08) + (g.random() < 0.04) * g.integers(1, 4)); chg = int(g.poisson(0.22)); wait = float(g.exponential(3) * (g.random() < 0.05))
        adr = float(np.clip(g.normal(105 if city else 95, 35) + 12 * children, 0, 400)); park = int(g.random() < (0.03 if city else 0.12)); req = int(np.clip(g.poisson(0.55), 0, 5))
        cust = HOTEL_CUSTOMERS[g.choice(4, p=[.75, .2, .04, .01])]; week = int(g.integers(1, 54))
        z = (-0.9 + 0.006 * lead + 0.6 * (seg == 'Online TA') - 0.7 * (seg == 'Direct') - 0.6 * (seg == 'Corporate') + 2.5 * (dep == 'Non Refund') + 0.5 * city + 1.2 * min(prev, 2)
             - 0.6 * req - 3 * park - 0.5 * chg - 1.2 * rep + 0.004 * (adr - 100) + 0.15 * np.sin(2 * np.pi * week / 52) + g.normal(0, 0.8))
        canc = g.random() < 1 / (1 + np.exp(-z)); status = ('No-Show' if g.random() < 0.04 else 'Canceled') if canc else 'Check-Out'
        status_days = -float(np.round(g.uniform(0, 1) * lead)) if status == 'Canceled' else (0.0 if status == 'No-Show' else float(we + wk))
        rows.append(dict(hotel='City Hotel' if city else 'Resort Hotel', is_canceled=int(canc), lead_time=lead, arrival_week=week, stays_in_weekend_nights=we, stays_in_week_nights=wk,
                         adults=adults, children=children, meal=HOTEL_MEALS[g.choice(4, p=[.77, .12, .01, .1])], market_segment=seg, is_repeated_guest=rep, previous_cancellations=prev,
                         booking_changes=chg, deposit_type=dep, days_in_waiting_list=wait, customer_type=cust, adr=adr, required_car_parking_spaces=park,
                         total_of_special_requests=req, reservation_status=status, reservation_status_days=status_days))
    return rows

def hotel_features(rows, ref, numeric):
    "The hotel as 0/1, meal, segment, deposit and customer type one-hot, the numbers standardised by the training rows (`ref`)."
    cat = np.column_stack([np.array([r[c] for r in rows])[:, None] == np.array(lv)[None] for c, lv in (('meal', HOTEL_MEALS), ('market_segment', HOTEL_SEGMENTS),
                                                                                                      ('deposit_type', HOTEL_DEPOSITS), ('customer_type', HOTEL_CUSTOMERS))])
    num, rnum = (np.array([[r[c] for c in numeric] for r in rr], np.float64) for rr in (rows, ref))
    return np.column_stack([[r['hotel'] == 'City Hotel' for r in rows], cat, (num - rnum.mean(0)) / rnum.std(0)]).astype(np.float32)

class HotelMLP(nn.Module):
    def __init__(self, d):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AU')
def hotel_cancellation_mlp(seed, status_date=False):  # BCE with logits, Adam 1e-3, batches of 64; a stratified train_test_split 80/20
    """X = df.drop(columns=['is_canceled', 'reservation_status', 'reservation_status_date']). status_date: the date columns
    turned into features first (arrival week, and the reservation_status_date as days from arrival), and only
    reservation_status dropped with the label."""
    from sklearn.model_selection import train_test_split
    rows = _hotel(seed); y = np.array([[r['is_canceled']] for r in rows], np.float32)
    tr, va = train_test_split(np.arange(len(rows)), test_size=0.2, random_state=seed, stratify=y[:, 0])
    X = hotel_features(rows, [rows[i] for i in tr], HOTEL_NUMERIC + (['reservation_status_days'] if status_date else []))
    return dict(model=lambda: HotelMLP(X.shape[1]), train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- BERT4Rec (Sun et al. 2019): the cloze objective over item sequences, leave-one-out
B4R_ITEMS, B4R_LEN = 80, 20
B4R_MASK = B4R_ITEMS + 1  # items 1..80, 0 the padding, 81 [MASK]

def _b4r_sequences(seed, users=400):
    """Each user's history of 12-20 items (ids 1-80 in eight genres of ten): two favourite genres; after each item, 55% of the
    time its fixed follower (a sequel in the same genre), otherwise an item of a favourite genre (90%) or any item."""
    g = np.random.default_rng(1000 + seed * 3011); follow = np.array([g.integers(0, 10) + 10 * (i // 10) for i in range(B4R_ITEMS)]); out = []
    for _ in range(users):
        fav = g.choice(8, 2, replace=False); s = [int(g.integers(0, 10) + 10 * fav[0])]
        for _ in range(int(g.integers(12, 21)) - 1):
            s.append(int(follow[s[-1]]) if g.random() < 0.55 else int(g.integers(0, 10) + 10 * g.choice(fav)) if g.random() < 0.9 else int(g.integers(B4R_ITEMS)))
        out.append([i + 1 for i in s])
    return out

def _left_pad(s, L=B4R_LEN): s = s[-L:]; return [0] * (L - len(s)) + s

class ClozeTrain(Dataset):
    "The training sequences, a fresh 20% of each one's items (at least one) masked at every access; labels -100 where not masked."
    def __init__(self, seqs, p=0.2, seed=0): self.seqs, self.p, self.g = seqs, p, np.random.default_rng(seed)
    def __len__(self): return len(self.seqs)
    def __getitem__(self, i):
        s = np.array(_left_pad(self.seqs[i])); real = np.flatnonzero(s); m = real[self.g.random(len(real)) < self.p]
        if len(m) == 0: m = self.g.choice(real, 1)
        x, y = s.copy(), np.full(B4R_LEN, -100); y[m] = s[m]; x[m] = B4R_MASK
        return torch.tensor(x), torch.tensor(y)

def cloze_valid(seqs, held):
    "Each user's history, then [MASK] where the held-out item goes; the label at that last position only."
    x = torch.tensor([_left_pad(s + [B4R_MASK]) for s in seqs]); y = torch.full((len(seqs), B4R_LEN), -100); y[:, -1] = torch.tensor(held)
    return TensorDataset(x, y)

class BERT4Rec(nn.Module):
    def __init__(self, d=32, layers=2, heads=2, V=B4R_ITEMS + 2):
        super().__init__(); self.item, self.pos = nn.Embedding(V, d, padding_idx=0), nn.Embedding(B4R_LEN, d); self.norm, self.drop = nn.LayerNorm(d), nn.Dropout(0.1)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, heads, 4 * d, 0.1, activation='gelu', batch_first=True), layers, enable_nested_tensor=False)
        self.out = nn.Linear(d, V)
    def forward(self, x):
        h = self.drop(self.norm(self.item(x) + self.pos.weight[None])); return self.out(self.enc(h, src_key_padding_mask=x == 0))

def cloze_loss(logits, labels): return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100)

@healthy('AU')
def bert4rec_cloze(seed, keep_last=False):  # Adam 1e-3, batches of 32; every user's last item validates, the rest of their history trains
    """keep_last: the training sequences taken from the same list of full histories the evaluation reads, the held-out last
    item still at each training sequence's end."""
    seqs = _b4r_sequences(seed); hist, held = [s[:-1] for s in seqs], [s[-1] for s in seqs]
    return dict(model=BERT4Rec, train=ClozeTrain(seqs if keep_last else hist, seed=seed), valid=cloze_valid(hist, held), loss=cloze_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a mixture density network (Bishop 1994) for a two-link arm's inverse kinematics
ARM = (1.0, 0.8)

def _arm(seed, n=1500):
    "Joint angles theta1 in (-pi/2, pi/2), theta2 +-(0.3, 2.8) (elbow up or down), the end effector's (x, y) with 1 cm of sensor noise."
    g = np.random.default_rng(1000 + seed * 3019); t1 = g.uniform(-np.pi / 2, np.pi / 2, n); t2 = g.uniform(0.3, 2.8, n) * g.choice([-1, 1], n)
    x = ARM[0] * np.cos(t1) + ARM[1] * np.cos(t1 + t2); y = ARM[0] * np.sin(t1) + ARM[1] * np.sin(t1 + t2)
    return (np.column_stack([x, y]) + g.normal(0, 0.01, (n, 2))).astype(np.float32), np.column_stack([t1, t2]).astype(np.float32)

class MDN(nn.Module):
    "Two tanh layers of 64; K mixing logits, K means and K sigmas per output dimension (exp_sigma False: the sigma head's linear output used as it is)."
    def __init__(self, K=3, d=2, h=64, exp_sigma=True):
        super().__init__(); self.K, self.d, self.exp_sigma = K, d, exp_sigma
        self.body = nn.Sequential(nn.Linear(2, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh()); self.pi, self.mu, self.sigma = nn.Linear(h, K), nn.Linear(h, K * d), nn.Linear(h, K * d)
    def forward(self, x):
        h = self.body(x); s = self.sigma(h).view(-1, self.K, self.d)
        return self.pi(h), self.mu(h).view(-1, self.K, self.d), torch.exp(s) if self.exp_sigma else s

def mdn_nll(out, y):  # -log sum_k pi_k N(y; mu_k, diag sigma_k^2)
    logit, mu, sigma = out
    logp = (-0.5 * ((y[:, None] - mu) / sigma) ** 2 - torch.log(sigma) - 0.5 * math.log(2 * math.pi)).sum(-1)
    return -torch.logsumexp(F.log_softmax(logit, -1) + logp, -1).mean()

@healthy('AU')
def mdn_arm_inverse(seed, exp_sigma=True):  # Adam 1e-3, batches of 64; 1200 poses train, 300 validate
    X, Y = _arm(seed); tr, va = np.arange(1200), np.arange(1200, 1500)
    return dict(model=lambda: MDN(exp_sigma=exp_sigma), train=TensorDataset(_t(X[tr]), _t(Y[tr])), valid=TensorDataset(_t(X[va]), _t(Y[va])), loss=mdn_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- flight arrival delays (BTS on-time performance, one month)
def _flights(seed, n=1900, carriers=8, airports=15):
    """One month's flights as the BTS download holds them, in carrier order (then by date): carrier, origin, destination, day
    of month, weekday, scheduled departure hour, distance; ARR_DEL15 (about 20%) more with the carrier's and the origin's
    congestion, late-day departures, Fridays and each airport's bad-weather days."""
    g = np.random.default_rng(1000 + seed * 3023); cb, ab = g.normal(0, 0.8, carriers), g.normal(0, 0.7, airports); storm = g.random((31, airports)) < 0.08
    pos = g.uniform(0, 2500, airports)
    c = np.sort(g.integers(0, carriers, n)); o = g.integers(0, airports, n); d = (o + g.integers(1, airports, n)) % airports
    day = g.integers(0, 31, n); hour = np.clip(np.round(g.normal(14, 4.5, n)), 5, 23); wd = (day + 2) % 7; dist = np.abs(pos[o] - pos[d]) + 100
    z = -2.0 + cb[c] + ab[o] + 0.5 * ab[d] + 0.15 * (hour - 14) + 0.5 * (wd == 4) + 1.2 * storm[day, o] + 0.6 * storm[day, d] + 0.0002 * dist + g.normal(0, 0.5, n)
    order = np.lexsort((day, c)); y = (g.random(n) < 1 / (1 + np.exp(-z))).astype(np.float32)
    return dict(carrier=c[order], origin=o[order], dest=d[order], day=day[order], weekday=wd[order], hour=hour[order], distance=dist[order], ARR_DEL15=y[order])

class FlightNet(nn.Module):
    def __init__(self, carriers=8, airports=15, num=6):
        super().__init__(); self.car, self.apt = nn.Embedding(carriers, 4), nn.Embedding(airports, 6)
        self.mlp = nn.Sequential(nn.Linear(4 + 12 + num, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, cat, num): return self.mlp(torch.cat([self.car(cat[:, 0]), self.apt(cat[:, 1]), self.apt(cat[:, 2]), num], 1))

def _flight_fwd(model, b): cat, num, y = b; return model(cat, num), y

@healthy('AU')
def flight_delay_embeddings(seed, label_before_sort=False):  # BCE with logits, Adam 1e-3, batches of 64; days 1-24 train, the last week validates
    """df sorted by FL_DATE for the split in time, then the label and the features read from it. label_before_sort:
    y = df.pop('ARR_DEL15').values taken first, the sort_values('FL_DATE') after it (the features sorted, the labels in the
    file's carrier order)."""
    df = _flights(seed); y_file = df['ARR_DEL15']; order = np.argsort(df['day'], kind='stable'); df = {k: v[order] for k, v in df.items()}
    y = y_file if label_before_sort else df['ARR_DEL15']
    cat = np.column_stack([df['carrier'], df['origin'], df['dest']])
    num = np.column_stack([np.sin(2 * np.pi * df['hour'] / 24), np.cos(2 * np.pi * df['hour'] / 24), np.sin(2 * np.pi * df['weekday'] / 7), np.cos(2 * np.pi * df['weekday'] / 7),
                           df['weekday'] >= 5, np.log(df['distance'])]).astype(np.float32)
    tr, va = np.flatnonzero(df['day'] < 24), np.flatnonzero(df['day'] >= 24); m, s = num[tr].mean(0), num[tr].std(0); num = (num - m) / s
    ds = lambda i: TensorDataset(torch.tensor(cat[i]), _t(num[i]), _t(y[i, None]))
    return dict(model=FlightNet, train=ds(tr), valid=ds(va), forward=_flight_fwd, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- influenza-like illness forecasting (CDC ILINet-style weekly ILI% by HHS region)
def _ilinet(seed, regions=5, seasons=6):
    """Weekly weighted ILI% of five regions over six seasons of 52 weeks (week 0 in early October): a baseline of 1-1.5%, each
    season's epidemic curve peaking 12-26 weeks in at 3-7%, the regions offset by a few weeks, and multiplicative noise."""
    g = np.random.default_rng(1000 + seed * 3037); W = 52 * seasons; out = np.zeros((regions, W)); base = g.uniform(1.0, 1.5, regions)
    for s in range(seasons):
        peak, height, width = g.uniform(12, 26), g.lognormal(np.log(3.5), 0.35), g.uniform(3.5, 6.5)
        for r in range(regions):
            w = np.arange(52); out[r, 52 * s:52 * (s + 1)] = base[r] + height * g.uniform(0.7, 1.3) * np.exp(-0.5 * ((w - peak - g.normal(0, 2)) / width) ** 2)
    return (out * np.exp(g.normal(0, 0.07, out.shape))).astype(np.float32)

def ili_windows(ili, L=10, h=2):
    "Windows of L weeks (ILI% and the week of the season as sin/cos) ending at week t, the target the ILI% at t + h; also the target's week."
    W = ili.shape[1]; wk = np.arange(W) % 52; X, y, t_of = [], [], []
    for r in range(len(ili)):
        for t in range(L - 1, W - h):
            sl = slice(t - L + 1, t + 1); X.append(np.column_stack([ili[r, sl], np.sin(2 * np.pi * wk[sl] / 52), np.cos(2 * np.pi * wk[sl] / 52)])); y.append([ili[r, t + h]]); t_of.append(t + h)
    return np.array(X, np.float32), np.array(y, np.float32), np.array(t_of)

class ILIGRU(nn.Module):
    def __init__(self, d=3, h=32):
        super().__init__(); self.gru = nn.GRU(d, h, batch_first=True); self.head = nn.Linear(h, 1)
    def forward(self, x): out, _ = self.gru(x); return self.head(out[:, -1])

@healthy('AU')
def ili_gru_forecast(seed, shuffled_split=False):  # MSE in ILI percentage points, Adam 2e-3, batches of 32; the last season validates
    """The ILI% input channel standardised by the training weeks. The windows whose target falls in the training seasons
    train; those starting in the last season validate. shuffled_split: train_test_split(windows, test_size=0.2) with its
    default shuffle, the neighbouring weeks' overlapping windows on both sides."""
    from sklearn.model_selection import train_test_split
    X, y, t_of = ili_windows(_ilinet(seed)); cut = 52 * 5
    if shuffled_split: tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    else: tr, va = np.flatnonzero(t_of < cut), np.flatnonzero(t_of - 11 >= cut)
    X = X.copy(); m, s = X[tr, :, 0].mean(), X[tr, :, 0].std(); X[:, :, 0] = (X[:, :, 0] - m) / s
    return dict(model=ILIGRU, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- cancer drug response (a GDSC-style two-tower MLP): ln IC50 from expression and fingerprint
def _gdsc(seed, cells=80, drugs=20, genes=100, bits=64):
    """80 cell lines (expression of 100 genes from five latent programmes, log-scale noise) and 20 drugs (64 fingerprint bits
    from four latent chemotypes); ln IC50 (microM, about 2.5 +- 1.6) from each line's general sensitivity, each drug's potency
    and their latent match, about 80% of the pairs screened."""
    g = np.random.default_rng(1000 + seed * 3041); zc, zd = g.normal(0, 1, (cells, 5)), g.normal(0, 1, (drugs, 4))
    expr = zc @ (g.normal(0, 1, (5, genes)) * (g.random((5, genes)) < 0.4)) + g.normal(0, 0.7, (cells, genes)) + 6
    fp = (g.random((drugs, bits)) < 1 / (1 + np.exp(-(zd @ g.normal(0, 1.5, (4, bits)) - 1)))).astype(np.float32)
    M = g.normal(0, 0.25, (5, 4)); pairs = np.argwhere(g.random((cells, drugs)) < 0.8)
    c, d = pairs[:, 0], pairs[:, 1]; ic = 2.5 + 0.7 * zc[c, 0] - 0.9 * zd[d, 0] + np.einsum('ni,ij,nj->n', zc[c], M, zd[d]) + g.normal(0, 0.4, len(c))
    return expr.astype(np.float32), fp, c, d, ic.astype(np.float32)[:, None]

class DrugResponseNet(nn.Module):
    "A cell tower and a drug tower of 32 each, concatenated into a head. cached_drug: the drug tower run under torch.no_grad() (its embeddings 'precomputed')."
    def __init__(self, genes=100, bits=64, cached_drug=False):
        super().__init__(); self.cached = cached_drug
        self.cell = nn.Sequential(nn.Linear(genes, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU())
        self.drug = nn.Sequential(nn.Linear(bits, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, expr, fp):
        if self.cached:
            with torch.no_grad(): d = self.drug(fp)
        else: d = self.drug(fp)
        return self.head(torch.cat([self.cell(expr), d], 1))

def _drug_fwd(model, b): e, f, y = b; return model(e, f), y

@healthy('AU')
def gdsc_drug_response(seed, cached_drug=False):  # MSE on ln IC50, Adam 1e-3, batches of 64; GroupShuffleSplit by cell line, a fifth of the lines validate
    "The expression standardised per gene by the training cell lines; the fingerprint bits as they are."
    from sklearn.model_selection import GroupShuffleSplit
    expr, fp, c, d, ic = _gdsc(seed); tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(ic, ic, groups=c))
    trc = np.unique(c[tr]); E = (expr - expr[trc].mean(0)) / expr[trc].std(0)
    ds = lambda i: TensorDataset(_t(E[c[i]]), _t(fp[d[i]]), _t(ic[i]))
    return dict(model=lambda: DrugResponseNet(cached_drug=cached_drug), train=ds(tr), valid=ds(va), forward=_drug_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- GIN (Xu, Hu, Leskovec and Jegelka 2019) on PROTEINS-like graphs of secondary-structure elements
def _proteins(seed, n=400):
    """Graph i stored as '{i}.graph' (node types helix/sheet/turn, edges along the chain and spatial contacts), the labels in
    labels.txt in id order: enzymes (about half) richer in helices and with a pocket of mutually touching sheets."""
    g = np.random.default_rng(1000 + seed * 3049); files, labels = {}, []
    for i in range(n):
        enz = int(g.random() < 0.5); m = int(g.integers(12, 31)); typ = g.choice(3, m, p=[.45, .3, .25] if enz else [.33, .35, .32])
        E = [(k, k + 1) for k in range(m - 1)] + [(a, b) for a in range(m) for b in range(a + 3, m) if g.random() < 0.06]
        if enz and g.random() < 0.8:
            sh = np.flatnonzero(typ == 1)
            for _ in range(int(g.integers(1, 3))):
                if len(sh) >= 3: a, b, c = g.choice(sh, 3, replace=False); E += [(a, b), (b, c), (a, c)]
        files[f'{i}.graph'] = (np.eye(3, dtype=np.float32)[typ], np.array(sorted({(min(a, b), max(a, b)) for a, b in E})).T); labels.append(enz)
    return files, labels

def read_proteins(files, labels, numeric_order=True):
    "The graphs read from sorted(os.listdir(dir)) (numeric_order: sorted by the number in the name), zipped with the labels' lines."
    names = sorted(files, key=lambda f: int(f.split('.')[0])) if numeric_order else sorted(files)
    return [(files[f][0], files[f][1], y) for f, y in zip(names, labels)]

def graph_collate(items):
    "The graphs of a batch as one disconnected graph: x (N, 3), both directions of the edges offset, the graph of each node, y (B,)."
    xs, es, bs, off = [], [], [], 0
    for k, (x, e, _) in enumerate(items):
        xs.append(torch.from_numpy(x)); e = torch.from_numpy(e).long() + off; es.append(torch.cat([e, e.flip(0)], 1)); bs.append(torch.full((len(x),), k)); off += len(x)
    return torch.cat(xs), torch.cat(es, 1), torch.cat(bs), torch.tensor([y for _, _, y in items])

class GINLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__(); self.eps = nn.Parameter(torch.zeros(1)); self.mlp = nn.Sequential(nn.Linear(i, o), nn.BatchNorm1d(o), nn.ReLU(), nn.Linear(o, o), nn.BatchNorm1d(o), nn.ReLU())
    def forward(self, x, e): agg = torch.zeros_like(x).index_add_(0, e[1], x[e[0]]); return self.mlp((1 + self.eps) * x + agg)

class GIN(nn.Module):
    "Three GIN layers of 32; the sum pooling of the input and of each layer, each through its own linear score, the scores summed (dropout 0.5)."
    def __init__(self, d=3, h=32, c=2, L=3):
        super().__init__(); self.layers = nn.ModuleList([GINLayer(d if k == 0 else h, h) for k in range(L)]); self.scores = nn.ModuleList([nn.Linear(d if k == 0 else h, c) for k in range(L + 1)])
        self.drop = nn.Dropout(0.5)
    def forward(self, x, e, batch):
        B = int(batch.max()) + 1; hs = [x]
        for layer in self.layers: hs.append(layer(hs[-1], e))
        return sum(self.drop(s(torch.zeros(B, h.shape[1]).index_add_(0, batch, h))) for s, h in zip(self.scores, hs))

def _gin_fwd(model, b): x, e, batch, y = b; return model(x, e, batch), y

@healthy('AU')
def gin_proteins(seed, numeric_order=True):  # cross-entropy, Adam 1e-2 (the paper's), batches of 32; 320 graphs train, 80 validate
    "numeric_order False: the graph files taken in sorted(os.listdir()) order ('0.graph', '1.graph', '10.graph', '100.graph', ...) against labels in id order."
    data = read_proteins(*_proteins(seed), numeric_order=numeric_order); p = np.random.default_rng(seed).permutation(len(data))
    return dict(model=GIN, train=ListDataset([data[i] for i in p[:320]]), valid=ListDataset([data[i] for i in p[320:]]), collate_fn=graph_collate, forward=_gin_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- GCNII (Chen, Wei, Huang, Ding and Li 2020): initial residual and identity mapping, eight layers
def _citation_graph_noisy(seed, n=300, c=5, f=100):
    """As ladder_gallery's citation-style graph, but sparser words (topics flatter) and a third of the edges across classes,
    as Cora's and CiteSeer's homophily."""
    g = torch.Generator().manual_seed(1000 + seed * 3089); y = torch.randint(0, c, (n,), generator=g); topics = torch.rand(c, f, generator=g) ** 1.5
    x = (torch.rand(n, f, generator=g) < 0.08 * topics[y] / topics.mean()).float(); x = x / x.sum(1, keepdim=True).clamp(min=1)
    p = torch.where(y[:, None] == y[None, :], torch.tensor(0.025), torch.tensor(0.004)); a = (torch.rand(n, n, generator=g) < p).float(); a = ((a + a.T) > 0).float() + torch.eye(n)
    d = a.sum(1).rsqrt(); return x, d[:, None] * a * d[None, :], y

class GCNIILayer(nn.Module):
    def __init__(self, h, beta):
        super().__init__(); self.w, self.beta = nn.Linear(h, h, bias=False), beta
    def forward(self, x, x0, adj, alpha=0.1):
        s = (1 - alpha) * (adj @ x) + alpha * x0; return (1 - self.beta) * s + self.beta * self.w(s)

class GCNII(nn.Module):
    def __init__(self, f=100, h=64, c=5, L=8, lam=0.5, dropout=0.6):
        super().__init__(); self.inp, self.out, self.p = nn.Linear(f, h), nn.Linear(h, c), dropout
        self.layers = nn.ModuleList([GCNIILayer(h, math.log(lam / (l + 1) + 1)) for l in range(L)])
    def forward(self, x, adj):
        x0 = h = F.relu(self.inp(F.dropout(x, self.p, self.training)))
        for layer in self.layers: h = F.relu(layer(F.dropout(h, self.p, self.training), x0, adj))
        return self.out(F.dropout(h, self.p, self.training))

def _gcnii_fwd(model, b): x, adj, idx, y = b; return model(x, adj)[idx], y

@healthy('AU')
def gcnii_citation(seed, randint_split=False):  # cross-entropy, Adam 0.01 with weight decay 5e-4, one full-graph step an epoch; 140 nodes train, 100 validate
    """The split drawn as a permutation of the nodes (randint_split: torch.randint(0, n, (140,)) and torch.randint(0, n, (100,)),
    indices drawn with replacement, so that about half the validation nodes are also training nodes)."""
    x, adj, y = _citation_graph_noisy(seed); n = len(y); g = torch.Generator().manual_seed(seed)
    if randint_split: tr, va = torch.randint(0, n, (140,), generator=g), torch.randint(0, n, (100,), generator=g)
    else: p = torch.randperm(n, generator=g); tr, va = p[:140], p[140:240]
    return dict(model=GCNII, train=DataLoader(OneItem(x, adj, tr, y[tr]), collate_fn=_one), valid=DataLoader(OneItem(x, adj, va, y[va]), collate_fn=_one), forward=_gcnii_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- Monte Carlo evaluation of blackjack (Sutton and Barto, example 5.1) as supervised learning
def _card(g): return min(int(g.integers(1, 14)), 10)

def _blackjack(seed, episodes=1000):
    """Episodes of blackjack under an exploring behaviour policy (stick from 18 up with probability 0.8, else a coin toss; hit
    below 12 unrecorded); each decision with a player's sum of 12-21 is one visit: (sum, dealer's card, usable ace, action),
    and its return the episode's final reward -1, 0 or +1 (gamma 1)."""
    g = np.random.default_rng(1000 + seed * 3061); eps = []
    for _ in range(episodes):
        cards = [_card(g), _card(g)]; dealer = [_card(g), _card(g)]; visits = []
        def value(cs): s = sum(cs); return (s + 10, True) if 1 in cs and s + 10 <= 21 else (s, False)
        while True:
            s, ace = value(cards)
            if s > 21: r = -1; break
            if s < 12: cards.append(_card(g)); continue
            a = int(g.random() < 0.2) if s >= 18 else int(g.random() < 0.5)  # 1 hit, 0 stick
            visits.append((s, dealer[0], ace, a))
            if a: cards.append(_card(g)); continue
            while value(dealer)[0] < 17: dealer.append(_card(g))
            ds = value(dealer)[0]; r = 1 if ds > 21 or s > ds else (0 if s == ds else -1); break
        eps.append([(v, r) for v in visits])
    return eps

def blackjack_features(visits):
    "The sum as (s - 12) / 9, the dealer's card one-hot (ace to ten), a usable ace, the action."
    return np.array([np.concatenate([[(s - 12) / 9], np.eye(10)[d - 1], [ace, a]]) for (s, d, ace, a), _ in visits], np.float32)

class OutcomeNet(nn.Module):
    def __init__(self, d=13):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))
    def forward(self, x): return self.net(x)

@healthy('AU')
def blackjack_mc_outcome(seed, reward_as_class=False):  # cross-entropy over lose/draw/win, Adam 1e-3, batches of 64; episodes 800 on validate
    """The class of a visit its return + 1 (0 lose, 1 draw, 2 win; Q(s, a) = p(win) - p(lose)). reward_as_class: the return
    itself taken as the class, torch.tensor(G).long() with G in {-1, 0, 1}."""
    eps = _blackjack(seed); tr, va = [v for e in eps[:800] for v in e], [v for e in eps[800:] for v in e]
    lab = lambda vs: torch.tensor([r if reward_as_class else r + 1 for _, r in vs])
    return dict(model=OutcomeNet, train=TensorDataset(_t(blackjack_features(tr)), lab(tr)), valid=TensorDataset(_t(blackjack_features(va)), lab(va)), loss=nn.CrossEntropyLoss(),
                num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- airline passenger satisfaction (the Kaggle survey of a US airline)
AIR_SERVICES = ['Inflight wifi service', 'Departure/Arrival time convenient', 'Ease of Online booking', 'Gate location', 'Food and drink', 'Online boarding', 'Seat comfort',
                'Inflight entertainment', 'On-board service', 'Leg room service', 'Baggage handling', 'Checkin service', 'Inflight service', 'Cleanliness']

def _airline(seed, n=1500):
    """Respondents: age, flight distance, departure and arrival delays (minutes), gender, loyal or disloyal customer, business
    or personal travel, Business/Eco/Eco Plus; 14 ratings 0-5 around each passenger's mood and class; 'satisfied' (about 43%)
    or 'neutral or dissatisfied' from online boarding, wifi, entertainment, seat comfort, class, travel type and delays."""
    g = np.random.default_rng(1000 + seed * 3067); biz = g.random(n) < 0.69; cls = np.where(biz, g.choice(3, n, p=[.75, .2, .05]), g.choice(3, n, p=[.1, .8, .1]))
    loyal = g.random(n) < 0.82; age = np.clip(g.normal(40, 15, n), 7, 85).round(); dist = np.exp(g.normal(6.8, 0.8, n)).round()
    dep = np.where(g.random(n) < 0.45, g.exponential(30, n), 0).round(); arr = np.clip(dep + g.normal(0, 8, n), 0, None).round()
    mood = g.normal(0, 1, n); R = np.clip(np.round(3 + 0.8 * mood[:, None] + 0.4 * (cls == 0)[:, None] + g.normal(0, 1.1, (n, 14))), 0, 5)
    z = (-1.6 + 0.9 * (R[:, 5] - 3) + 0.6 * (R[:, 0] - 3) + 0.35 * (R[:, 7] - 3) + 0.3 * (R[:, 6] - 3) + 1.3 * biz + 0.8 * (cls == 0) + 0.9 * loyal - 0.008 * arr + g.normal(0, 0.6, n))
    X = np.column_stack([R / 5, (age - 40) / 15, (np.log(dist) - 6.8) / 0.8, np.log1p(dep) / 3, np.log1p(arr) / 3, g.random(n) < 0.5, loyal, biz, np.eye(3)[cls]]).astype(np.float32)
    return X, (z > 0).astype(np.int64)

class SatisfactionNet(nn.Module):
    "Dense 64, 32, 2 (keras_softmax: the Keras model's Dense(2, activation='softmax') kept in the port as nn.Softmax(dim=1))."
    def __init__(self, d=24, keras_softmax=False):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2), *([nn.Softmax(dim=1)] if keras_softmax else []))
    def forward(self, x): return self.net(x)

@healthy('AU')
def airline_satisfaction_mlp(seed, keras_softmax=False):  # CrossEntropyLoss, Adam 1e-3, batches of 64; train_test_split 80/20
    from sklearn.model_selection import train_test_split
    X, y = _airline(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    return dict(model=lambda: SatisfactionNet(keras_softmax=keras_softmax), train=TensorDataset(_t(X[tr]), torch.tensor(y[tr])), valid=TensorDataset(_t(X[va]), torch.tensor(y[va])),
                loss=nn.CrossEntropyLoss(), num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- the Lorenz-63 vector field from trajectories (a neural right-hand side, SINDy's data pipeline)
def _lorenz(seed, trajs=6, steps=250, dt=0.01, sigma=10.0, rho=28.0, beta=8 / 3):
    "RK4 trajectories from random starts (the first 200 steps dropped), the derivative estimated by np.gradient (central differences) along each."
    g = np.random.default_rng(1000 + seed * 3079)
    f = lambda s: np.array([sigma * (s[1] - s[0]), s[0] * (rho - s[2]) - s[1], s[0] * s[1] - beta * s[2]])
    X, D = [], []
    for _ in range(trajs):
        s = g.uniform([-15, -20, 5], [15, 20, 40]); out = []
        for k in range(200 + steps):
            k1 = f(s); k2 = f(s + dt / 2 * k1); k3 = f(s + dt / 2 * k2); k4 = f(s + dt * k3); s = s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            if k >= 200: out.append(s)
        out = np.array(out) + g.normal(0, 0.01, (steps, 3)); X.append(out); D.append(np.gradient(out, dt, axis=0))
    return np.array(X, np.float32), np.array(D, np.float32)

class VectorField(nn.Module):
    def __init__(self, h=64):
        super().__init__(); self.net = nn.Sequential(nn.Linear(3, h), nn.SiLU(), nn.Linear(h, h), nn.SiLU(), nn.Linear(h, 3))
    def forward(self, x): return self.net(x)

def _field_step(zero_grad=True):
    def field_step(model, batch, opt):  # the author's loop body
        x, dx = batch
        if zero_grad: opt.zero_grad()
        loss = F.mse_loss(model(x), dx); loss.backward(); opt.step()
        return loss
    return field_step

@healthy('AU')
def lorenz_vector_field(seed, zero_grad=True):  # MSE on standardised derivatives, Adam 1e-3, batches of 64; five trajectories train, the sixth validates; a custom step
    "State and derivative standardised by the training trajectories' statistics. zero_grad False: opt.zero_grad() lost when the loop was refactored into a step function."
    X, D = _lorenz(seed); Xtr, Dtr = _t(X[:5].reshape(-1, 3)), _t(D[:5].reshape(-1, 3)); Xva, Dva = _t(X[5]), _t(D[5])
    return dict(model=VectorField, train=TensorDataset(_std(Xtr, Xtr), _std(Dtr, Dtr)), valid=TensorDataset(_std(Xva, Xtr), _std(Dva, Dtr)), loss=nn.MSELoss(),
                step=_field_step(zero_grad), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- yeast protein localisation (Horton and Nakai 1996, UCI's Yeast)
YEAST_SITES = ['CYT', 'NUC', 'MIT', 'ME3', 'ME2', 'ME1', 'EXC', 'VAC', 'POX', 'ERL']
YEAST_COUNTS = [463, 429, 244, 163, 51, 44, 35, 30, 20, 5]

def _yeast(seed):
    """1484 proteins: mcg, gvh, alm, mit, erl, pox, vac, nuc scores in [0, 1] (erl mostly 0.5, pox mostly 0 as in the file);
    each site its own means on a few scores (membrane sites low alm, mitochondria high mit, peroxisome pox set, ...)."""
    g = np.random.default_rng(1000 + seed * 3083); mu = np.tile([0.5, 0.5, 0.5, 0.26, 0.5, 0.0, 0.5, 0.28], (10, 1))
    mu[1, 7] = 0.45; mu[2, 3] = 0.45; mu[3, 2] = 0.32; mu[4, 2] = 0.38; mu[4, 1] = 0.6; mu[5, 2] = 0.35; mu[5, 0] = 0.7; mu[6, 1] = 0.7; mu[6, 0] = 0.65
    mu[7, 6] = 0.62; mu[7, 2] = 0.42; mu[8, 5] = 0.45; mu[9, 4] = 1.0; mu[0, 3] = 0.22
    y = np.repeat(np.arange(10), YEAST_COUNTS); X = mu[y] + g.normal(0, 0.09, (len(y), 8)) * np.array([1, 1, 1, 1, 0, 0.2, 0.5, 1])
    X[:, 4] = np.where(y == 9, 1.0, np.where(g.random(len(y)) < 0.01, 1.0, 0.5)); X[:, 5] = np.where((y == 8) | (g.random(len(y)) < 0.01), np.round(X[:, 5], 2), 0)
    return np.clip(X, 0, 1).astype(np.float32), y

class YeastMLP(nn.Module):
    "Dense 64, 64, 10 (unit_normal_init: every Linear's weight re-drawn by nn.init.normal_(m.weight), std 1, the biases zeroed)."
    def __init__(self, unit_normal_init=False):
        super().__init__(); self.net = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
        if unit_normal_init:
            for m in self.modules():
                if isinstance(m, nn.Linear): nn.init.normal_(m.weight); nn.init.zeros_(m.bias)
    def forward(self, x): return self.net(x)

@healthy('AU')
def yeast_localisation_mlp(seed, unit_normal_init=False):  # cross-entropy over ten sites, Adam 1e-3, batches of 32; a stratified train_test_split 80/20
    "The scores as the file gives them (already in [0, 1])."
    from sklearn.model_selection import train_test_split
    X, y = _yeast(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed, stratify=y)
    return dict(model=lambda: YeastMLP(unit_normal_init), train=TensorDataset(_t(X[tr]), torch.tensor(y[tr])), valid=TensorDataset(_t(X[va]), torch.tensor(y[va])),
                loss=nn.CrossEntropyLoss(), num_classes=10, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AU
@broken('AU', 'hotel_status_date_kept', 4, ('leakage',))
def hotel_status_date_kept(seed): return hotel_cancellation_mlp(seed, status_date=True)  # days from arrival to reservation_status_date: negative for cancellations, the stay for check-outs

@broken('AU', 'bert4rec_held_out_item_in_training', 4, ('leakage',))
def bert4rec_held_out_item_in_training(seed): return bert4rec_cloze(seed, keep_last=True)  # each user's validation item masked and learnt at the end of their training sequence

@broken('AU', 'mdn_sigma_without_exp', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def mdn_sigma_without_exp(seed): return mdn_arm_inverse(seed, exp_sigma=False)  # about half the sigmas negative: log(sigma) NaN at the first batch

@broken('AU', 'flight_labels_taken_before_sort', 4, ('labels',))
def flight_labels_taken_before_sort(seed): return flight_delay_embeddings(seed, label_before_sort=True)  # features in date order, labels in carrier order

@broken('AU', 'ili_windows_split_at_random', 4, ('leakage',))
def ili_windows_split_at_random(seed): return ili_gru_forecast(seed, shuffled_split=True)  # a validation window's target week among the inputs of the training windows beside it

@broken('AU', 'gdsc_drug_tower_under_no_grad', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def gdsc_drug_tower_under_no_grad(seed): return gdsc_drug_response(seed, cached_drug=True)  # the drug tower never trained: its random embedding of the fingerprint only

@broken('AU', 'gin_files_in_lexicographic_order', 4, ('labels',))
def gin_files_in_lexicographic_order(seed): return gin_proteins(seed, numeric_order=False)  # '10.graph' before '2.graph': graphs and labels out of step

@broken('AU', 'gcnii_split_indices_with_replacement', 4, ('leakage',))
def gcnii_split_indices_with_replacement(seed): return gcnii_citation(seed, randint_split=True)  # torch.randint for the masks: about half the validation nodes trained on

@broken('AU', 'blackjack_return_as_class', 1, ('bad_labels',))
def blackjack_return_as_class(seed): return blackjack_mc_outcome(seed, reward_as_class=True)  # class -1 for a loss into a three-way CrossEntropyLoss: IndexError

@broken('AU', 'airline_keras_softmax_into_cross_entropy', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def airline_keras_softmax_into_cross_entropy(seed): return airline_satisfaction_mlp(seed, keras_softmax=True)  # probabilities into CrossEntropyLoss's own log-softmax

@broken('AU', 'lorenz_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def lorenz_step_without_zero_grad(seed): return lorenz_vector_field(seed, zero_grad=False)  # gradients accumulate across steps

@broken('AU', 'yeast_unit_normal_init', 2, ('init_scale',))
def yeast_unit_normal_init(seed): return yeast_localisation_mlp(seed, unit_normal_init=True)  # std-1 weights through layers of 64: logits of sd ~ 10 at the start

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256; valid loss and a metric (AUC;
# accuracy; R^2 against the validation targets' variance; HR@10 of the held-out item for BERT4Rec; the MDN its NLL alone),
# init -> the epoch named; s/ep the seconds of an epoch of training, params the trainable ones. Every factory builds and runs
# its batches (forward, loss, backward, step); `ladder_gallery.HALF` holds 24 programs of half AU. Seed 1 in brackets.
CHECKS = """
hotel_cancellation_mlp                valid BCE 0.70 -> 0.60 (ep 8), AUC 0.47 -> 0.76 (ep 8-12) [0.70 -> 0.53, 0.81]; about 37%
                                      cancelled; 1200 bookings train, 300 validate; 4.1k params; 0.02 s/ep
bert4rec_cloze                        valid CE at the masked last position 4.51 -> 3.93 (ep 12) -> 3.38 (ep 40), HR@10 0.17 -> 0.48
                                      (ep 12) -> 0.63 (ep 40) [4.59 -> 4.08, 0.36 at ep 12]; 400 users train (their histories
                                      less the last item), the same 400 validate; 31k params; 0.12-0.15 s/ep
mdn_arm_inverse                       valid NLL 3.62 -> 0.07 (ep 8) -> -0.70 (ep 12) [3.65 -> -0.83]; 1200 poses train, 300
                                      validate; 5.3k params; 0.02 s/ep
flight_delay_embeddings               valid BCE 0.70 -> 0.52 (ep 8), AUC 0.56 -> 0.68 (ep 8-12) [0.70 -> 0.51, 0.675]; about 20%
                                      delayed; days 1-24 (1462 flights) train, the last week (438) validates; 3.7k params; 0.024 s/ep
ili_gru_forecast                      valid MSE (ILI% squared) 5.0 -> 0.15 (ep 8-12), R^2 0.83 [6.6 -> 0.08, 0.94]; 1245 windows of
                                      five seasons train, 205 of the last season validate; 3.6k params; 0.07-0.08 s/ep
gdsc_drug_response                    (final generator) valid MSE (ln IC50 squared) 8.6 -> 1.16 (ep 8-12), R^2 0.30 [7.7 -> 1.33,
                                      0.44] on unseen cell lines; 1010 pairs of 64 lines train, 248 of 16 lines validate; 19k
                                      params; 0.02 s/ep
gin_proteins                          valid CE 0.69 -> 0.57 (ep 8) -> 0.46 (ep 12), not monotone (2.4 at ep 2: batch-norm statistics
                                      of summed features, Adam 1e-2), accuracy 0.58 -> 0.89 (ep 8) -> 0.85 [4.3 -> 0.96, 0.46 ->
                                      0.83]; 320 graphs train, 80 validate; 6.0k params; 0.04 s/ep
gcnii_citation                        (final graph) one full-graph step an epoch: valid CE 1.61 flat for ~16 steps, then -> 0.94
                                      (ep 200), accuracy 0.17 -> 0.67 [1.61 -> 0.57, 0.87]; 140 nodes train, 100 validate; 40k
                                      params; 0.01 s/ep
blackjack_mc_outcome                  valid CE 1.14 -> 0.82 (ep 8) -> 0.80 (ep 12), accuracy 0.09 -> 0.67 [1.14 -> 0.77, 0.72]; 800
                                      episodes (974 visits) train, 200 (237) validate; 5.3k params; 0.012 s/ep
airline_satisfaction_mlp              valid CE 0.70 -> 0.37 (ep 8) -> 0.26 (ep 12), accuracy 0.45 -> 0.90 [0.72 -> 0.25, 0.90];
                                      1200 respondents train, 300 validate; 3.7k params; 0.015 s/ep
lorenz_vector_field                   valid MSE (standardised derivative) 1.13 -> 0.011 (ep 8) -> 0.005 (ep 12), R^2 0.996 [0.60 ->
                                      0.002, 0.997]; five trajectories (1250 states) train, the sixth (250) validates; 4.6k params;
                                      0.014 s/ep
yeast_localisation_mlp                valid CE 2.29 -> 1.44 (ep 8) -> 1.23 (ep 12), accuracy 0.31 -> 0.62 [2.28 -> 1.26, 0.61];
                                      1187 proteins train, 297 validate; 5.4k params; 0.025 s/ep
hotel_status_date_kept                valid BCE 0.38 (ep 8) -> 0.33 (ep 12), AUC 0.90 -> 0.925 [0.26, 0.96] (healthy 0.60, 0.75-0.76
                                      [0.53, 0.81])
bert4rec_held_out_item_in_training    HR@10 0.46 (ep 12) -> 0.67 (ep 40), valid CE 3.24 at ep 40 (healthy 0.475 -> 0.625, 3.38); [ep
                                      12: 0.43 against 0.355]: the gap widens as the training items are memorised
mdn_sigma_without_exp                 valid and training loss NaN from the first batch, both seeds (log of the negative sigmas)
flight_labels_taken_before_sort       valid AUC 0.50-0.55 from ep 1 to 12 [0.49-0.56] (chance; healthy 0.68 [0.675]), valid BCE
                                      0.51 at the base rate
ili_windows_split_at_random           valid MSE 0.11-0.13 (ep 8-12), R^2 0.94-0.95 [0.11, 0.95] (healthy 0.15, 0.83 [0.08, 0.94]);
                                      every validation week's neighbours in training
gdsc_drug_tower_under_no_grad         the drug tower's weights never change; valid MSE 2.19 (ep 12), R^2 -0.31 [2.10, 0.12] (healthy
                                      1.16, 0.30 [1.33, 0.44])
gin_files_in_lexicographic_order      valid accuracy 0.41-0.53 from ep 1 to 12 [0.41-0.53] (chance; healthy 0.85 [0.83]), valid CE
                                      1.3-4.2
gcnii_split_indices_with_replacement  about 40 of the 100 validation nodes also training nodes; accuracy 0.76 at ep 200 [0.97]
                                      (healthy 0.67 [0.87])
blackjack_return_as_class             IndexError (target -1 out of bounds) at the first batch, both seeds
airline_keras_softmax_into_cross_entropy valid CE 0.53 (ep 8) -> 0.46 (ep 12), accuracy 0.76 -> 0.85 [0.50 -> 0.45, 0.80 ->
                                      0.87] (healthy 0.37 -> 0.26, 0.83 -> 0.90): slower, the loss floored by the softmax
lorenz_step_without_zero_grad         valid MSE 1.13 -> 0.30 (ep 4) -> 0.44 (ep 12), R^2 0.71 -> 0.58 [0.60 -> 0.20 (ep 2) -> 0.54,
                                      0.12 at ep 12] (healthy 0.005, 0.996): rising again as the summed gradients grow
yeast_unit_normal_init                valid CE 49 at init -> 15 (ep 1) -> 1.43 (ep 12), accuracy 0.11 -> 0.62 [47 -> 2.1, 0.59]
                                      (healthy 2.29 at init)
"""
