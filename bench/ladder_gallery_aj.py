"""Half AJ of the ladder's gallery: held out from the rules frozen at a4876c6 (round 49), and run once on them.
Families not in halves A-AI: facial keypoint regression (the Kaggle Facial Keypoints Detection data shrunk to 24 x 24 grey
faces and five keypoints: Nouri's conv-pool blocks and a dense layer with dropout, the keypoints normalised as the Udacity
project's, MSE, Adam; a Dataset that flips training faces left-right, mirroring the keypoints and swapping left and right);
SimCLR (Chen et al. 2020: two random views of each digit drawn in the Dataset, a batch-normed conv encoder and a projection
head, NT-Xent at temperature 0.5 over the 2N views; no labels, a forward of its own that returns no target); a gated graph
neural network (GGNN, Li et al. 2016: annotations padded to the state, per-bond-type messages into a GRU cell for four
steps, the gated sum readout; a collate_fn that batches graphs as one disconnected graph, a batch of five tensors and a
forward of its own) telling mutagenic MUTAG-style nitro-aromatic molecules, read from TU Dortmund-format files (graph labels
'1'/'-1') by a hand-rolled reader; the default of credit card clients (Yeh and Lien 2009, the UCI file's 23 columns: limit,
demographics, six months of repayment status, bills and payments in NT$; Michael Jahrer's RankGauss on every column, over
train and validation features together as the Kaggle kernels; an MLP with dropout, BCE with logits); Jena-climate-style
temperature forecasting (the Keras timeseries example: eight weather readings standardised by the training hours, 48 hours
into an LSTM(32) and a dense layer, the standardised temperature 12 hours after the window; split in time); tumour subtypes
from expression microarrays (4000 genes, 300 tumours; SelectKBest(f_classif, k=50) and a StandardScaler fitted on the
training tumours, an MLP with dropout); isolated signs from MediaPipe-Holistic-style keypoint sequences (WLASL-style: wrists,
shoulders and fingertips over 20 frames, a GRU; 16 signers, 4 validating, split with GroupShuffleSplit; groups declared: the
signer); the lifted structured loss (Oh Song et al. 2016: the smooth log-sum-exp over both members' negatives plus the
positive distance, hinged and squared; distances from the expanded square, clamped before the square root) embedding digits
with a small CNN; music genres from MFCC frames with a hand-unrolled zoneout LSTM (Krueger et al. 2016; GTZAN-style: ten
genres of 100 clips with their own timbres, tempi and beat strengths); fastText language identification (Joulin et al. 2016:
word ids and FNV-1a-hashed character 2-4-grams, an EmbeddingBag mean, the output matrix initialised to zero as fastText's,
SGD 5 as the torchtext tutorial; a collate_fn of concatenated ids and offsets) of short sentences in six made-up languages
in three related pairs; the TensorFlow regression tutorial's Auto MPG DNN ported to PyTorch (the rows with '?' horsepower
dropped, origin one-hot, a StandardScaler for the Normalization layer, the MAE in raw MPG, Adam 1e-3); and a beta-VAE
(Higgins et al. 2017, Burgess et al.'s architecture shrunk, beta 4, the latent sampled in evaluation too as 1Konny/Beta-VAE;
a custom step as that repository's Solver loop) of dSprites-like 16 x 16 shapes.
At most about 1700 training samples a program and 84k parameters; see CHECKS for the plain-loop timings.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AI.

Protocol: written by a helper in a worktree at 2eb1066 (branch halfAJ), held out from the rules frozen at a4876c6 (round 49).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI). It read bench/ladder_gallery.py's head, helpers and tail (the import lines) and a list of its
function names (halves A-F), half AI whole, the module docstrings and @broken lines of halves G-AH (for the rung and cause
conventions and the families taken, with greps of the halves for candidate family names and for the factories' conventions
on collate_fns, custom steps and targetless forwards, which showed a few of their code lines), a grep of ladder_sweep.py for
'--half' (and git diff's argparse context lines around it), and the signatures and docstrings of `ntrain.ladder` and `ntrain.Task` via help(); it ran `git status`, `git diff`,
`git diff --stat` and `git rev-parse HEAD`, no git log. Each program was checked by hand only with a plain torch loop of its
author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seeds 0 and 1. Two programs
declare groups (sign_signer_split_gru and its broken twin sign_clips_split_at_random; "groups declared" in their factories'
docstrings) and are to be reported apart. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half AJ`; no program changes after the run starts.

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

# ---------------------------------------------------------------- facial keypoints (the Kaggle Facial Keypoints Detection data, shrunk)
KEYPOINTS = ['left_eye_center', 'right_eye_center', 'nose_tip', 'mouth_left_corner', 'mouth_right_corner']  # the subject's left: the image's right
FLIP_IDX = [2, 3, 0, 1, 4, 5, 8, 9, 6, 7]  # the (x, y) columns after a mirror: the two eyes and the two mouth corners trade places

def _blob(xx, yy, px, py, sx, sy=None):
    sy = sx if sy is None else sy; return np.exp(-((xx - px) ** 2 / (2 * sx ** 2) + (yy - py) ** 2 / (2 * sy ** 2)))

def _faces(seed, n=1800, S=24):
    """Grey 24 x 24 faces after the Kaggle data's 96 x 96: a head ellipse lit from one side on a cluttered background, dark
    eyes under brows, a nose shadow and a mouth; each head shifted, scaled, rolled and turned a little (a turn moves the nose
    and mouth further sideways than the eyes). Keypoints in pixels, (x, y) of the subject's left eye (on the image's right),
    right eye, nose tip, left and right mouth corners."""
    g = np.random.default_rng(1000 + seed * 2671); yy, xx = np.mgrid[0:S, 0:S].astype(np.float64)
    X, K = np.zeros((n, S, S), np.float32), np.zeros((n, 10), np.float32)
    base = np.array([[3.4, -2.2], [-3.4, -2.2], [0.0, 1.6], [2.7, 4.8], [-2.7, 4.8]])  # in the head's frame, x to the image's right
    for i in range(n):
        cx, cy, s, roll, yaw = 11.5 + g.normal(0, 2.2), 11.5 + g.normal(0, 1.8), g.uniform(0.75, 1.2), g.normal(0, 0.22), g.normal(0, 0.18)
        c, sn = np.cos(roll), np.sin(roll); pts = base * s; pts[:, 0] += yaw * np.array([2.0, 2.0, 3.5, 3.0, 3.0]) * s
        P = np.stack([cx + c * pts[:, 0] - sn * pts[:, 1], cy + sn * pts[:, 0] + c * pts[:, 1]], 1)
        u, v = (xx - cx) * c + (yy - cy) * sn, -(xx - cx) * sn + (yy - cy) * c
        head = 1 / (1 + np.exp(-6 * (1 - np.sqrt((u / (7.6 * s)) ** 2 + (v / (9.6 * s)) ** 2))))
        img = g.uniform(0.1, 0.5) + 0.15 * g.normal() * (xx - 11.5) / S + head * (g.uniform(0.35, 0.6) * (1 + g.normal(0, 0.15) * u / (7.6 * s)) - 0.1)
        for k in (0, 1):
            img -= 0.35 * _blob(xx, yy, P[k, 0], P[k, 1], 0.9 * s, 0.7 * s) + 0.2 * _blob(xx, yy, P[k, 0] + sn * 1.7 * s, P[k, 1] - c * 1.7 * s, 1.5 * s, 0.5 * s)
        img -= 0.12 * _blob(xx, yy, P[2, 0], P[2, 1] + 0.5 * s, 0.8 * s)
        for t in np.linspace(0, 1, 7): img -= 0.12 * _blob(xx, yy, P[3, 0] + t * (P[4, 0] - P[3, 0]), P[3, 1] + t * (P[4, 1] - P[3, 1]), 0.6 * s)
        for _ in range(int(g.integers(0, 3))): img += g.normal(0, 0.15) * _blob(xx, yy, *g.uniform(0, S, 2), g.uniform(1, 3))
        X[i] = img + g.normal(0, 0.03, (S, S)); K[i] = P.reshape(-1)
    return X, K

class FacialKeypoints(Dataset):  # the tutorial's Dataset: a (1, 24, 24) image and its ten coordinates; training images flipped left-right half the time
    def __init__(self, imgs, kps, train=False, transform_only=False):
        self.x, self.k, self.train, self.transform_only = torch.tensor(imgs)[:, None], torch.tensor(kps), train, transform_only
    def __len__(self): return len(self.k)
    def __getitem__(self, i):
        x, k = self.x[i], self.k[i]
        if self.train and torch.rand(1).item() < 0.5:
            x = x.flip(-1)  # transform_only: the flip as a RandomHorizontalFlip in the image's transform, which never sees the keypoints
            if not self.transform_only: k = k.clone(); k[0::2] = x.size(-1) - 1 - k[0::2]; k = k[FLIP_IDX]  # mirrored, left and right swapped
        return x, (k - 12) / 6  # the Udacity project's normalisation ((k - 100) / 50 for 224 pixels), for 24

class KeypointNet(nn.Module):  # Nouri's net shrunk: three conv-ReLU-pool blocks of 16, 32, 64, a dense layer with dropout, ten outputs
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 3 * 3, 96), nn.ReLU(), nn.Dropout(0.2), nn.Linear(96, 10))
    def forward(self, x): return self.head(self.features(x))

@healthy('AJ')
def facial_keypoints_cnn(seed, transform_only=False):  # MSE on the normalised keypoints, Adam 1e-3, batches of 32; 1500 faces train, 300 validate
    X, K = _faces(seed)
    return dict(model=KeypointNet, train=FacialKeypoints(X[:1500], K[:1500], train=True, transform_only=transform_only), valid=FacialKeypoints(X[1500:], K[1500:]),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- SimCLR (Chen et al. 2020) on digits: NT-Xent over two augmented views
def _view(x, g=None):
    "One SimCLR view of a (1, 8, 8) digit: a random rotation, scale and shift (the resized crop), brightness, noise, and a 3 x 3 cutout half the time."
    a, sc, t = (torch.rand(1, generator=g) * 2 - 1) * 0.35, 0.85 + 0.3 * torch.rand(1, generator=g), (torch.rand(2, generator=g) * 2 - 1) * 0.25
    th = torch.cat([torch.cat([torch.cos(a), -torch.sin(a), t[:1]]), torch.cat([torch.sin(a), torch.cos(a), t[1:]])]).view(1, 2, 3) * torch.tensor([1 / sc.item(), 1 / sc.item(), 1.0])
    v = F.grid_sample(x[None], F.affine_grid(th, (1, 1, 8, 8), align_corners=False), align_corners=False)[0]
    v = v * (0.7 + 0.6 * torch.rand(1, generator=g)) + 0.1 * torch.randn(v.shape, generator=g)
    if torch.rand(1, generator=g).item() < 0.5:
        i, j = torch.randint(0, 6, (2,), generator=g).tolist(); v[:, i:i + 3, j:j + 3] = 0
    return v

class TwoViews(Dataset):  # each access draws two views of the image; no labels (SimCLR pretrains without them)
    def __init__(self, x, reproducible=False): self.x, self.reproducible = x, reproducible
    def __len__(self): return len(self.x)
    def view(self, i):
        g = torch.Generator().manual_seed(i) if self.reproducible else None  # reproducible: each image's augmentations from its own seed "so runs repeat"
        return _view(self.x[i], g)
    def __getitem__(self, i): return self.view(i), self.view(i)

class SimCLRNet(nn.Module):  # a small conv encoder with batch norm (48 features after global average pooling) and the projection head 48-48-32
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                                     nn.Conv2d(32, 48, 3, padding=1), nn.BatchNorm2d(48), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projector = nn.Sequential(nn.Linear(48, 48), nn.ReLU(), nn.Linear(48, 32))
    def forward(self, x): return self.projector(self.encoder(x))

def nt_xent(z, _, tau=0.5):
    "SimCLR's NT-Xent: the 2N projections, cosine similarities over tau, each view's positive the other view of its image, itself masked."
    z = F.normalize(z, dim=1); n = len(z) // 2
    sim = (z @ z.t() / tau).masked_fill(torch.eye(len(z), dtype=torch.bool), float('-inf'))
    return F.cross_entropy(sim, torch.cat([torch.arange(n, 2 * n), torch.arange(n)]))

def _simclr_fwd(model, b): v1, v2 = b; return model(torch.cat([v1, v2])), None  # no target: the views are each other's

@healthy('AJ')
def simclr_digits(seed, reproducible=False):  # NT-Xent at temperature 0.5, Adam 1e-3, batches of 128 images (256 views); 1437 digits train, 360 validate (their NT-Xent)
    (x, _), (vx, _) = _digits(seed)
    return dict(model=SimCLRNet, train=TwoViews(x, reproducible), valid=TwoViews(vx, reproducible), forward=_simclr_fwd, loss=nt_xent,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a gated graph neural network (Li et al. 2016) on MUTAG-style molecules
ATOMS = ['C', 'N', 'O', 'F', 'I', 'Cl', 'Br']; BONDS = ['aromatic', 'single', 'double', 'triple']  # MUTAG's node and edge labels

def _molecule(g):
    """Nitro-aromatic-like molecules: one to three benzene rings, fused on an edge or joined by a single bond, with NO2, NH2,
    OH, CH3 and halogen substituents on free ring carbons. Mutagenic (1) or not (-1) from the nitro groups, three or more
    rings, amines and hydroxyls, with noise."""
    nodes, edges = [], []
    def add(t): nodes.append(t); return len(nodes) - 1
    n_rings = 1 + int(g.choice(3, p=[0.45, 0.35, 0.2])); r = [add(0) for _ in range(6)]; edges += [(r[k], r[(k + 1) % 6], 0) for k in range(6)]; rings = [r]
    for _ in range(n_rings - 1):
        prev = rings[-1]; deg = np.bincount(np.array(edges)[:, :2].ravel(), minlength=len(nodes))
        if g.random() < 0.6:
            ks = [k for k in range(6) if deg[prev[k]] == 2 and deg[prev[(k + 1) % 6]] == 2]; k = ks[int(g.integers(len(ks)))]
            a, b = prev[k], prev[(k + 1) % 6]; new = [add(0) for _ in range(4)]; ring = [a] + new + [b]
            edges += [(a, new[0], 0), (new[0], new[1], 0), (new[1], new[2], 0), (new[2], new[3], 0), (new[3], b, 0)]
        else:
            a = [c for c in prev if deg[c] == 2][0]; ring = [add(0) for _ in range(6)]; edges += [(ring[k], ring[(k + 1) % 6], 0) for k in range(6)] + [(a, ring[0], 1)]
        rings.append(ring)
    deg = np.bincount(np.array(edges)[:, :2].ravel(), minlength=len(nodes)); counts = dict(no2=0, nh2=0, oh=0, hal=0)
    for c in [c for ring in rings for c in ring if deg[c] == 2]:
        if g.random() > 0.35: continue
        sub = g.choice(['NO2', 'NH2', 'OH', 'CH3', 'Cl', 'F', 'Br', 'I'], p=[0.22, 0.14, 0.14, 0.2, 0.12, 0.06, 0.06, 0.06])
        if sub == 'NO2': n = add(1); o1, o2 = add(2), add(2); edges += [(c, n, 1), (n, o1, 2), (n, o2, 1)]; counts['no2'] += 1
        elif sub == 'NH2': edges.append((c, add(1), 1)); counts['nh2'] += 1
        elif sub == 'OH': edges.append((c, add(2), 1)); counts['oh'] += 1
        elif sub == 'CH3': edges.append((c, add(0), 1))
        else: edges.append((c, add(ATOMS.index(sub)), 1)); counts['hal'] += 1
    z = -1.0 + 2.2 * (counts['no2'] > 0) + 0.6 * (counts['no2'] > 1) + 1.0 * (n_rings >= 3) + 0.6 * (counts['nh2'] > 0) - 0.8 * (counts['oh'] > 0) + 0.3 * (counts['hal'] > 0) + g.normal(0, 0.6)
    return nodes, edges, 1 if z > 0 else -1

def _tu_mutag(seed, n=1200):
    """The molecules written in the TU Dortmund format as MUTAG ships it: _A (a 'row, col' line an edge direction, nodes
    numbered from 1 across the dataset), _graph_indicator, _node_labels, _edge_labels, _graph_labels ('1' or '-1')."""
    g = np.random.default_rng(1000 + seed * 2687); files = dict(A=[], graph_indicator=[], node_labels=[], edge_labels=[], graph_labels=[]); off = 0
    for k in range(n):
        nodes, edges, y = _molecule(g)
        files['node_labels'] += [str(t) for t in nodes]; files['graph_indicator'] += [str(k + 1)] * len(nodes); files['graph_labels'].append(str(y))
        for u, v, b in edges: files['A'] += [f'{u + 1 + off}, {v + 1 + off}', f'{v + 1 + off}, {u + 1 + off}']; files['edge_labels'] += [str(b), str(b)]
        off += len(nodes)
    return files

def read_tu(files, remap_labels=True):
    "A hand-rolled TUDataset reader: a graph a tuple (one-hot atoms, edge_index, bond types, label)."
    A = np.array([[int(v) for v in l.split(',')] for l in files['A']]) - 1; gi = np.array([int(l) for l in files['graph_indicator']]) - 1
    nl, el = np.array([int(l) for l in files['node_labels']]), np.array([int(l) for l in files['edge_labels']]); gl = np.array([int(l) for l in files['graph_labels']])
    if remap_labels: _, gl = np.unique(gl, return_inverse=True)  # as PyG's read_tu_data: MUTAG's -1/1 become 0/1 (remap_labels False: int(line) as it is read)
    first = np.searchsorted(gi, np.arange(gi.max() + 2)); eg = gi[A[:, 0]]; out = []
    for k in range(gi.max() + 1):
        m = eg == k
        out.append((F.one_hot(torch.tensor(nl[first[k]:first[k + 1]]), len(ATOMS)).float(), torch.tensor(A[m].T - first[k]), torch.tensor(el[m]), int(gl[k])))
    return out

def collate_graphs(items):  # the graphs of a batch as one disconnected graph: node features stacked, edges offset, a graph index a node
    xs, eis, ets, bs, off = [], [], [], [], 0
    for k, (x, ei, et, _) in enumerate(items): xs.append(x); eis.append(ei + off); ets.append(et); bs.append(torch.full((len(x),), k)); off += len(x)
    return torch.cat(xs), torch.cat(eis, 1), torch.cat(ets), torch.cat(bs), torch.tensor([y for *_, y in items])

class GGNN(nn.Module):  # annotations padded to the state (32), 4 steps of per-bond-type messages summed into a GRU cell, the gated graph-level readout
    def __init__(self, n_atom=len(ATOMS), n_bond=len(BONDS), d=32, steps=4, n_cls=2):
        super().__init__(); self.d, self.nb, self.steps = d, n_bond, steps
        self.msg = nn.Linear(d, d * n_bond); self.gru = nn.GRUCell(d, d)
        self.i, self.j, self.out = nn.Linear(d + n_atom, d), nn.Linear(d + n_atom, d), nn.Linear(d, n_cls)
    def forward(self, x, edge_index, edge_type, batch):
        h = F.pad(x, (0, self.d - x.size(1))); src, dst = edge_index
        for _ in range(self.steps):
            m = self.msg(h).view(-1, self.nb, self.d)[src, edge_type]
            h = self.gru(torch.zeros_like(h).index_add(0, dst, m), h)
        hx = torch.cat([h, x], 1); gate = torch.sigmoid(self.i(hx)) * torch.tanh(self.j(hx))
        return self.out(torch.zeros(int(batch.max()) + 1, self.d).index_add(0, batch, gate))

def _ggnn_fwd(model, b): x, ei, et, batch, y = b; return model(x, ei, et, batch), y

@healthy('AJ')
def ggnn_mutag(seed, remap_labels=True):  # cross-entropy over two classes, Adam 1e-3, batches of 32 graphs; 960 molecules train, 240 validate
    graphs = read_tu(_tu_mutag(seed), remap_labels); p = np.random.default_rng(seed).permutation(len(graphs)); graphs = [graphs[i] for i in p]
    return dict(model=GGNN, train=DataLoader(ListDataset(graphs[:960]), batch_size=32, shuffle=True, collate_fn=collate_graphs),
                valid=DataLoader(ListDataset(graphs[960:]), batch_size=64, collate_fn=collate_graphs), forward=_ggnn_fwd, loss=nn.CrossEntropyLoss(), num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- default of credit card clients (Yeh and Lien 2009) with RankGauss inputs
CREDIT_COLUMNS = (['LIMIT_BAL', 'SEX', 'EDUCATION', 'MARRIAGE', 'AGE'] + ['PAY_0'] + [f'PAY_{k}' for k in range(2, 7)] + [f'BILL_AMT{k}' for k in range(1, 7)]
                  + [f'PAY_AMT{k}' for k in range(1, 7)])

def _credit_clients(seed, n=2000):
    """Rows as the UCI file's (ID dropped): the credit limit in NT$, sex, education (1-4, and the undocumented 0, 5, 6),
    marriage, age; six months of repayment status, most recent first (-2 no consumption, -1 paid duly, 0 revolving, 1-8
    months late), bill statements and payments in NT$; default.payment.next.month (about 22%). A latent risk drives the
    limit, the utilisation and the late payments, which persist from month to month."""
    g = np.random.default_rng(1000 + seed * 2689)
    sex = g.choice([1, 2], n, p=[0.4, 0.6]); edu = g.choice([1, 2, 3, 4, 5, 6, 0], n, p=[0.35, 0.468, 0.16, 0.005, 0.01, 0.005, 0.002])
    mar = g.choice([1, 2, 3, 0], n, p=[0.45, 0.53, 0.015, 0.005]); age = np.clip(np.round(21 + g.gamma(2.2, 6.5, n) + 3 * (mar == 1)), 21, 75)
    risk = g.normal(0, 1, n) + 0.25 * (edu >= 3) - 0.2 * (edu == 1) + 0.1 * (sex == 1) - 0.01 * (age - 35)
    limit = np.clip(np.round(np.exp(g.normal(11.7 - 0.35 * risk + 0.25 * (edu == 1), 0.6)) / 1e4) * 1e4, 1e4, 8e5)
    habit = g.choice([-2, -1, 0], n, p=[0.1, 0.3, 0.6]); s = habit.copy(); util = np.clip(0.35 + 0.22 * risk + g.normal(0, 0.15, n), 0.0, 1.05)
    pay, bill, paid = [], [], []
    for m in range(6):  # April to September
        late = g.random(n) < 1 / (1 + np.exp(-(-3.0 + 1.2 * risk + 1.5 * (s > 0))))
        s = np.where(late, np.minimum(np.maximum(s, 0) + 1, 8), np.where(s > 0, np.where(g.random(n) < 0.55, 0, s), np.where(g.random(n) < 0.85, habit, g.choice([-2, -1, 0], n))))
        b = np.where(s == -2, 0, np.round(limit * np.clip(util + g.normal(0, 0.05, n), 0, 1.1) * (1 + 0.03 * np.maximum(s, 0))))
        p = np.where(s == -1, b, np.where(s == 0, np.round(b * g.uniform(0.04, 0.25, n)), np.where(s > 0, np.round(b * g.uniform(0, 0.03, n)), 0)))
        pay.append(s.copy()); bill.append(b); paid.append(p)
    pay, bill, paid = pay[::-1], bill[::-1], paid[::-1]  # PAY_0 (September) first, as the file
    y = (g.random(n) < 1 / (1 + np.exp(-(-2.0 + 0.8 * risk + 1.1 * (pay[0] > 0) + 0.5 * (pay[1] > 0) + 0.4 * (util > 0.9))))).astype(np.float32)
    X = np.column_stack([limit, sex, edu, mar, age] + pay + bill + paid).astype(np.float64)
    return X, y

def rank_gauss(X, ranks=True, eps=1e-3):
    """Michael Jahrer's RankGauss (Porto Seguro): each column's ranks spread over (-1, 1), then erfinv. ranks False: a single
    X.argsort(0), the indices that would sort the column, taken for its ranks."""
    from scipy.special import erfinv
    r = X.argsort(0, kind='stable').argsort(0, kind='stable') if ranks else X.argsort(0, kind='stable')
    return erfinv(np.clip(r / (len(X) - 1) * 2 - 1, -1 + eps, 1 - eps)).astype(np.float32)

class CreditMLP(nn.Module):
    def __init__(self, d=23):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AJ')
def credit_default_rankgauss_mlp(seed, ranks=True):  # BCE with logits, Adam 1e-3, batches of 64; a stratified 80/20 split, RankGauss over train and validation features together (no labels), as the Kaggle kernels
    from sklearn.model_selection import train_test_split
    X, y = _credit_clients(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, stratify=y, random_state=seed)
    Z = rank_gauss(np.vstack([X[tr], X[va]]), ranks); Ztr, Zva = Z[:len(tr)], Z[len(tr):]
    return dict(model=CreditMLP, train=TensorDataset(_t(Ztr), _t(y[tr])[:, None]), valid=TensorDataset(_t(Zva), _t(y[va])[:, None]), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Jena-climate-style temperature forecasting with an LSTM (the Keras timeseries example)
JENA_FEATURES = ['p (mbar)', 'T (degC)', 'Tdew (degC)', 'rh (%)', 'VPmax (mbar)', 'sh (g/kg)', 'rho (g/m**3)', 'wv (m/s)']

def _jena(seed, days=180):
    """Hourly readings of a weather station from mid-March to mid-September: a seasonal rise, weather systems passing every
    few days (a pressure wave; warm air ahead of the lows, clouds with them, which damp the daily cycle), the daily cycle,
    and the humidity, dew point, vapour pressure, specific humidity, air density and wind that follow."""
    g = np.random.default_rng(1000 + seed * 2693); H = 24 * days; t = np.arange(H); w = 2 * np.pi / 100; r = 0.995
    z = np.zeros(H); e = g.normal(0, 0.03, H)
    for k in range(2, H): z[k] = 2 * r * np.cos(w) * z[k - 1] - r * r * z[k - 2] + e[k]
    z = z / z.std(); anom, cl = np.zeros(H), np.zeros(H); a, c = 0.0, 0.0
    for k in range(H):
        a = 0.97 * a + g.normal(0, 0.25); c = 0.9 * c + g.normal(0, 0.3); anom[k] = a; cl[k] = c
    cloud = 1 / (1 + np.exp(-(-1.3 * z + cl)))
    seasonal = 9.0 - 10.0 * np.cos(2 * np.pi * (75 + t / 24 - 15) / 365)
    daily = np.cos(2 * np.pi * ((t % 24) - 15) / 24)
    dz = np.gradient(z); T = seasonal + 1.8 * anom - 4.0 * np.convolve(dz, np.ones(12) / 12, 'same') * 10 + 5.5 * (1 - 0.65 * cloud) * daily + g.normal(0, 0.25, H)
    rh = np.clip(68 + 22 * cloud - 12 * (1 - 0.65 * cloud) * daily + g.normal(0, 3, H), 18, 100)
    VPmax = 6.1078 * np.exp(17.27 * T / (T + 237.3)); VP = rh / 100 * VPmax; lv = np.log(VP / 6.1078); Tdew = 237.3 * lv / (17.27 - lv)
    p = 989 + 7.5 * z + g.normal(0, 0.3, H); sh = 622 * VP / p; rho = p * 100 / (287.05 * (T + 273.15)) * 1000; wv = g.gamma(2.0, 0.8 + 0.8 * np.abs(dz) * 20 + 0.6 * cloud)
    return np.column_stack([p, T, Tdew, rh, VPmax, sh, rho, wv]).astype(np.float32)

class WeatherWindows(Dataset):  # 48 hours of the eight features -> the temperature 12 hours after the window's last hour
    def __init__(self, feats, target, starts, past=48): self.f, self.y, self.starts, self.past = feats, target, starts, past
    def __len__(self): return len(self.starts)
    def __getitem__(self, k): i = self.starts[k]; return self.f[i:i + self.past], self.y[i + self.past - 1][None]

class WeatherLSTM(nn.Module):  # the Keras example's LSTM(32) and Dense(1)
    def __init__(self, d=8, h=32):
        super().__init__(); self.lstm = nn.LSTM(d, h, batch_first=True); self.fc = nn.Linear(h, 1)
    def forward(self, x): return self.fc(self.lstm(x)[0][:, -1])

@healthy('AJ')
def jena_temperature_lstm(seed, roll_sign=-1):  # MSE, Adam 1e-3, batches of 64; windows every 2 hours; the first 80% of the hours train, the last 20% validate
    A = _jena(seed); H = len(A); split = int(0.8 * H); past, h = 48, 12
    feats = torch.tensor((A - A[:split].mean(0)) / A[:split].std(0))  # standardised by the training hours, the target too (the example's normalised T column)
    target = torch.roll(feats[:, 1], roll_sign * h)  # each hour's row given the temperature h hours later (roll_sign +1: torch.roll(T, 12), the hour 12 hours before)
    tr = [i for i in range(0, split - past - h + 1, 2)]; va = [i for i in range(split, H - past - h + 1, 2)]
    return dict(model=WeatherLSTM, train=WeatherWindows(feats, target, tr, past), valid=WeatherWindows(feats, target, va, past),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- tumour subtypes from expression microarrays: SelectKBest, then an MLP
def _expression(seed, n=300, p=4000):
    """log2 expression of 4000 genes in 300 tumours of three subtypes (about 45/35/20%): gene baselines and spreads,
    15 co-expression modules (shared programmes such as proliferation and immune infiltration), and 40 genes whose mean
    shifts with the subtype by about a third of a standard deviation."""
    g = np.random.default_rng(1000 + seed * 2699); y = g.choice(3, n, p=[0.45, 0.35, 0.2])
    base, sd = g.normal(7, 1.8, p), g.uniform(0.3, 1.2, p); W = g.normal(0, 0.6, (15, p)) * (g.random((15, p)) < 0.1)
    X = base + sd * (g.normal(0, 1, (n, 15)) @ W + g.normal(0, 1, (n, p)))
    sig = g.choice(p, 40, replace=False); X[:, sig] += sd[sig] * g.normal(0, 0.3, (3, 40))[y]
    return X.astype(np.float32), y

class SubtypeMLP(nn.Module):
    def __init__(self, d=50):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 3))
    def forward(self, x): return self.net(x)

@healthy('AJ')
def expression_subtype_mlp(seed, select_before_split=False):  # cross-entropy, Adam 1e-3 with weight decay 1e-4, batches of 32; a stratified 80/20 split (240/60)
    "SelectKBest(f_classif, k=50) and StandardScaler fitted on the training tumours (select_before_split: the 50 genes chosen by the F-test on all 300 tumours first)."
    from sklearn.feature_selection import SelectKBest, f_classif
    from sklearn.model_selection import train_test_split
    X, y = _expression(seed)
    if select_before_split: X = SelectKBest(f_classif, k=50).fit_transform(X, y)
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, stratify=y, random_state=seed)
    if not select_before_split: sel = SelectKBest(f_classif, k=50).fit(X[tr], y[tr]); X = sel.transform(X)
    Xtr, Xva = _std(_t(X[tr]), _t(X[tr])), _std(_t(X[va]), _t(X[tr]))
    return dict(model=SubtypeMLP, train=TensorDataset(Xtr, torch.tensor(y[tr])), valid=TensorDataset(Xva, torch.tensor(y[va])), loss=nn.CrossEntropyLoss(), num_classes=3,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- isolated signs from pose keypoints with a GRU (WLASL-style, MediaPipe Holistic features)
SIGNS = ['hello', 'thank_you', 'please', 'yes', 'no', 'help', 'more', 'eat', 'drink', 'home']

def _signs(seed, n_signers=16, reps=10, T=20):
    """Clips of T = 20 frames: per frame the left and right wrists relative to the nose, both shoulders, and five fingertips
    a hand relative to its wrist (28 numbers, in shoulder widths). Each sign: a path of the dominant wrist (circles, taps,
    arcs, strokes), a handshape, sometimes the other hand mirroring it. Each signer: body size, place in the frame, pace,
    handedness (two in sixteen left-handed, mirrored), and a personal way of making each sign."""
    g = np.random.default_rng(1000 + seed * 2707); S = len(SIGNS)
    centre, amp = g.normal([0.2, 0.3], [0.12, 0.15], (S, 2)), g.uniform(0.05, 0.25, (S, 2)); freq, phase = g.choice([0.5, 1, 1.5, 2], S), g.uniform(0, 2 * np.pi, S)
    shape, shape_end = g.normal(0, 0.05, (S, 10)), g.normal(0, 0.05, (S, 10)); two = g.random(S) < 0.4
    X, y, who = [], [], []
    for p in range(n_signers):
        size, place, pace, lefty = g.uniform(0.85, 1.15), g.normal(0, 0.08, 2), g.uniform(0.7, 1.4), p % 8 == 3
        habit_c, habit_a, habit_s = g.normal(0, 0.12, (S, 2)), g.uniform(0.6, 1.4, (S, 2)), g.normal(0, 0.05, (S, 10))
        for s in range(S):
            for _ in range(reps):
                tau = np.clip(np.linspace(0, 1, T) ** pace + g.normal(0, 0.02, T), 0, 1)[:, None]; ang = 2 * np.pi * freq[s] * tau + phase[s]
                dom = centre[s] + habit_c[s] + amp[s] * habit_a[s] * np.concatenate([np.cos(ang), np.sin(ang)], 1) + g.normal(0, 0.02, 2)
                other = dom * np.array([-1, 1]) if two[s] else np.tile([-0.45, 0.9], (T, 1)) + g.normal(0, 0.02, (T, 2))
                hand = shape[s] + habit_s[s] + tau * (shape_end[s] - shape[s]); rest = np.tile(np.r_[0.05 * np.arange(5), np.zeros(5)], (T, 1))
                hand_o = hand * np.tile([-1, 1], 5) if two[s] else rest
                right, left, rh, lh = (dom, other, hand, hand_o) if not lefty else (other * [-1, 1], dom * [-1, 1], hand_o * np.tile([-1, 1], 5), hand * np.tile([-1, 1], 5))
                sh = np.tile([-0.5, 0.6, 0.5, 0.6], (T, 1))
                f = np.concatenate([left, right, sh, lh, rh], 1) * size + np.r_[place, place, place, place, np.zeros(20)]
                X.append(f + g.normal(0, 0.03, f.shape)); y.append(s); who.append(p)
    return np.array(X, np.float32), np.array(y), np.array(who)

class SignGRU(nn.Module):
    def __init__(self, d=28, h=64, n=len(SIGNS)):
        super().__init__(); self.gru = nn.GRU(d, h, batch_first=True); self.fc = nn.Linear(h, n)
    def forward(self, x): return self.fc(self.gru(x)[1][-1])

@healthy('AJ')
def sign_signer_split_gru(seed, random_split=False):  # cross-entropy, Adam 1e-3, batches of 32; 1600 clips of 16 signers, 4 signers validate
    "groups declared: the signer. GroupShuffleSplit by signer (random_split: train_test_split of the clips, stratified by sign); features standardised by the training clips."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, y, who = _signs(seed); idx = np.arange(len(y))
    if random_split: tr, va = train_test_split(idx, test_size=0.25, stratify=y, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=seed).split(idx, groups=who))
    m, s = X[tr].reshape(-1, X.shape[2]).mean(0), X[tr].reshape(-1, X.shape[2]).std(0); X = (X - m) / s
    keys = {'train': list(who[tr]), 'valid': list(who[va])}
    task = ntrain.Task(model=SignGRU, train=TensorDataset(_t(X[tr]), torch.tensor(y[tr])), valid=TensorDataset(_t(X[va]), torch.tensor(y[va])), loss=nn.CrossEntropyLoss(),
                       num_classes=len(SIGNS), groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- lifted structured embedding (Oh Song et al. 2016) of digits
class DigitEmbedder(nn.Module):  # three convolutions, global average pooling, a linear embedding of 32 (not normalised, as the paper's)
    def __init__(self, d=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, d))
    def forward(self, x): return self.net(x)

def lifted_structured_loss(emb, labels, margin=1.0, eps=1e-12):
    """The smooth lifted structured loss: for each positive pair, log of the summed exp(margin - D) over both members'
    negatives plus D_ij, hinged and squared, over 2|P|; D from ||a||^2 + ||b||^2 - 2ab clamped at eps before the square
    root (eps None: no clamp, the square root of the diagonal's zeros and rounding errors)."""
    sq = (emb ** 2).sum(1); d2 = sq[:, None] + sq[None] - 2 * emb @ emb.t()
    D = d2.clamp(min=eps).sqrt() if eps is not None else d2.sqrt()
    same = labels[:, None] == labels[None]; pos = same & ~torch.eye(len(labels), dtype=torch.bool)
    lse = torch.logsumexp((margin - D).masked_fill(same, float('-inf')), 1)
    J = torch.logaddexp(lse[:, None], lse[None]) + D
    return (F.relu(J[pos]) ** 2).sum() / (2 * pos.sum().clamp(min=1))

@healthy('AJ')
def lifted_structure_digits(seed, eps=1e-12):  # Adam 1e-3, batches of 64; 1437 digits train, 360 validate (the same loss; nearest-neighbour recall in CHECKS)
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=DigitEmbedder, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=lambda e, l: lifted_structured_loss(e, l, eps=eps),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- music genre from MFCC frames with a zoneout LSTM (GTZAN-style)
GENRES = ['blues', 'classical', 'country', 'disco', 'hiphop', 'jazz', 'metal', 'pop', 'reggae', 'rock']

def _gtzan(seed, per_genre=100, T=40, D=13):
    """13 MFCCs over 40 frames (about a second) of 1000 clips, 100 a genre as GTZAN: each genre a timbre (the mean and spread
    of the coefficients), a tempo and a beat strength (energy pulses in c0 and c1, off the beat for reggae), each clip its
    own loudness, recording colour and phase."""
    g = np.random.default_rng(1000 + seed * 2711); G_ = len(GENRES)
    mu = g.normal(0, 1, (G_, D)) * np.linspace(1.0, 0.25, D); spread = g.uniform(0.4, 0.9, (G_, D))
    period = g.uniform(6, 14, G_); beat = np.array([0.5, 0.1, 0.4, 1.2, 1.1, 0.3, 1.0, 0.8, 0.9, 0.8]); off = np.array(GENRES) == 'reggae'
    X, y = [], []
    for k in range(G_):
        for _ in range(per_genre):
            m = mu[k] + g.normal(0, 0.45, D); loud = g.normal(0, 0.6); per = period[k] * g.uniform(0.92, 1.08); ph = g.uniform(0, per)
            e = np.zeros((T, D)); a = np.zeros(D)
            for t in range(T): a = 0.7 * a + g.normal(0, 1, D) * np.sqrt(1 - 0.49); e[t] = a
            tt = (np.arange(T) - ph + (per / 2 if off[k] else 0)) % per; pulse = np.exp(-tt ** 2 / 2) * beat[k] * g.uniform(0.7, 1.3)
            f = m + spread[k] * e; f[:, 0] += loud + 1.5 * pulse; f[:, 1] += 0.6 * pulse
            X.append(f); y.append(k)
    return np.array(X, np.float32), np.array(y)

class ZoneoutLSTM(nn.Module):
    """An LSTMCell unrolled by hand with zoneout (Krueger et al. 2016): in training each unit keeps its previous cell value
    with probability z_c and its previous output with z_h; in evaluation the expectation. is_training: the flag of the
    TensorFlow ZoneoutWrapper it was ported from (is_training=True), used in place of self.training."""
    def __init__(self, d=13, h=48, n=len(GENRES), z_c=0.25, z_h=0.05, is_training=None):
        super().__init__(); self.h, self.z_c, self.z_h, self.is_training = h, z_c, z_h, is_training
        self.cell = nn.LSTMCell(d, h); self.fc = nn.Linear(h, n)
    def forward(self, x):
        h = c = x.new_zeros(x.size(0), self.h)
        for t in range(x.size(1)):
            h1, c1 = self.cell(x[:, t], (h, c))
            if (self.training if self.is_training is None else self.is_training):
                mc, mh = torch.bernoulli(torch.full_like(c, self.z_c)), torch.bernoulli(torch.full_like(h, self.z_h))
                c, h = mc * c + (1 - mc) * c1, mh * h + (1 - mh) * h1
            else: c, h = self.z_c * c + (1 - self.z_c) * c1, self.z_h * h + (1 - self.z_h) * h1
        return self.fc(h)

@healthy('AJ')
def gtzan_zoneout_lstm(seed, is_training=None):  # cross-entropy, Adam 2e-3, batches of 32; a stratified 80/20 split, MFCCs standardised by the training clips
    from sklearn.model_selection import train_test_split
    X, y = _gtzan(seed); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, stratify=y, random_state=seed)
    m, s = X[tr].reshape(-1, 13).mean(0), X[tr].reshape(-1, 13).std(0); X = (X - m) / s
    return dict(model=lambda: ZoneoutLSTM(is_training=is_training), train=TensorDataset(_t(X[tr]), torch.tensor(y[tr])), valid=TensorDataset(_t(X[va]), torch.tensor(y[va])),
                loss=nn.CrossEntropyLoss(), num_classes=len(GENRES), optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- fastText language identification (Joulin et al. 2016): word and character n-gram vectors averaged
LANGS = ['da', 'nl', 'de', 'es', 'pt', 'it']  # three pairs of related languages

def _languages(seed, n=1800, V=400):
    """Short sentences (1-6 words) in six made-up languages, three related pairs: each language's words drawn from its own
    letter-bigram chain (the second of a pair mostly its partner's chain), Zipf-distributed vocabularies of 400 words, one in
    ten shared with the partner (cognates) and one in twenty names and loanwords shared by all."""
    g = np.random.default_rng(1000 + seed * 2713); A = 27  # 26 letters and the end of a word
    chains = []
    for k in range(6):
        P = g.dirichlet(np.full(A, 0.2), A + 1)
        if k % 2: P = 0.6 * chains[k - 1] + 0.4 * P
        chains.append(P)
    def word(P):
        w, prev = '', A
        while True:
            c = int(g.choice(A, p=P[prev]))
            if (c == A - 1 and len(w) >= 2) or len(w) >= 10: return w
            if c != A - 1: w += chr(97 + c); prev = c
    shared = [word(g.dirichlet(np.full(A, 0.5), A + 1)) for _ in range(20)]
    vocab = [[word(chains[k]) for _ in range(V)] for k in range(6)]
    for k in range(1, 6, 2): vocab[k][:40] = vocab[k - 1][:40]
    for k in range(6): vocab[k][-20:] = shared
    zipf = 1 / np.arange(1, V + 1); zipf /= zipf.sum(); order = [g.permutation(V) for _ in range(6)]
    y = g.integers(6, size=n); texts = [' '.join(vocab[k][order[k][i]] for i in g.choice(V, int(g.integers(1, 7)), p=zipf)) for k in y]
    return texts, y

def fnv1a(s):  # fastText's hash of an n-gram: 32-bit FNV-1a over its UTF-8 bytes
    h = 2166136261
    for b in s.encode(): h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h

def fasttext_ids(text, words, buckets=4000, minn=2, maxn=4):
    "The ids of a line: each known word's, and each word's character n-grams of '<word>' (minn to maxn) hashed into the buckets after the words."
    ids = []
    for w in text.split():
        if w in words: ids.append(words[w])
        ww = f'<{w}>'
        ids += [len(words) + fnv1a(ww[i:i + n]) % buckets for n in range(minn, maxn + 1) for i in range(len(ww) - n + 1)]
    return ids

def collate_ids(items):  # the torchtext tutorial's batch: the lines' ids concatenated, their offsets, the labels
    ids, y = zip(*items); offsets = torch.tensor([0] + [len(i) for i in ids[:-1]]).cumsum(0)
    return torch.cat([torch.tensor(i) for i in ids]), offsets, torch.tensor(y)

class FastText(nn.Module):
    """fastText's supervised model: the mean of the line's input vectors, an output matrix without bias; input vectors
    U(-1/dim, 1/dim), the output matrix zero, as fastText initialises them. probabilities: softmax in the forward, "as
    fastText's predict returns them"."""
    def __init__(self, n_ids, dim=16, n=len(LANGS), probabilities=False):
        super().__init__(); self.emb = nn.EmbeddingBag(n_ids, dim, mode='mean'); self.fc = nn.Linear(dim, n, bias=False); self.probabilities = probabilities
        nn.init.uniform_(self.emb.weight, -1 / dim, 1 / dim); nn.init.zeros_(self.fc.weight)
    def forward(self, ids, offsets):
        out = self.fc(self.emb(ids, offsets)); return torch.softmax(out, 1) if self.probabilities else out

def _ft_fwd(model, b): ids, offsets, y = b; return model(ids, offsets), y

@healthy('AJ')
def fasttext_language_id(seed, probabilities=False):  # cross-entropy, SGD 5 (the torchtext tutorial's), batches of 32; 1500 lines train, 300 validate; the word dictionary from the training lines
    texts, y = _languages(seed); words = {}
    for t in texts[:1500]:
        for w in t.split(): words.setdefault(w, len(words))
    items = [(fasttext_ids(t, words), int(k)) for t, k in zip(texts, y)]; n_ids = len(words) + 4000
    return dict(model=lambda: FastText(n_ids, probabilities=probabilities), train=DataLoader(ListDataset(items[:1500]), batch_size=32, shuffle=True, collate_fn=collate_ids),
                valid=DataLoader(ListDataset(items[1500:]), batch_size=64, collate_fn=collate_ids), forward=_ft_fwd, loss=nn.CrossEntropyLoss(), num_classes=len(LANGS),
                optimizer=lambda p: torch.optim.SGD(p, lr=5.0), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- fuel efficiency (the TensorFlow regression tutorial's Auto MPG), ported to PyTorch
def _auto_mpg(seed, n=398):
    """auto-mpg.data's rows: MPG, cylinders, displacement (cubic inches), horsepower ('?' in six rows), weight (lb),
    acceleration (s to 60 mph), model year (70-82), origin (1 USA, 2 Europe, 3 Japan); big American engines early, smaller
    and lighter cars later, MPG from weight, power, year and origin."""
    g = np.random.default_rng(1000 + seed * 2719); year = g.integers(70, 83, n); origin = g.choice([1, 2, 3], n, p=[0.62, 0.18, 0.2])
    us = origin == 1; cyl = np.where(us, np.where(g.random(n) < 0.25 + 0.04 * (year - 70), 4, g.choice([6, 8], n, p=[0.45, 0.55])), g.choice([3, 4, 5, 6], n, p=[0.02, 0.86, 0.04, 0.08]))
    disp = np.round(cyl * np.where(us, g.normal(41, 5, n), g.normal(27, 3, n)))
    hp = np.round(np.clip(0.32 * disp + 25 + g.normal(0, 9, n), 46, 230)); weight = np.round(1300 + 6.8 * disp + 180 * us + g.normal(0, 230, n))
    acc = np.round(np.clip(25 - 0.06 * hp + 0.0012 * weight + g.normal(0, 1.3, n), 8, 25), 1)
    mpg = np.round(np.exp(4.1 - 0.00028 * weight - 0.0017 * hp + 0.028 * (year - 76) + 0.05 * (origin == 3) + g.normal(0, 0.07, n)), 1)
    hp[g.choice(n, 6, replace=False)] = np.nan
    return np.column_stack([mpg, cyl, disp, hp, weight, acc, year, origin])

class MPGNet(nn.Module):  # build_and_compile_model: Dense(64, relu), Dense(64, relu), Dense(1)
    def __init__(self, d=9):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('AJ')
def auto_mpg_dnn(seed, labels_1d=False):  # the MAE in MPG, Adam 1e-3 (the tutorial's dnn_model), batches of 32; rows with '?' dropped, origin one-hot, sample(frac=0.8) trains (314), the rest validate (78)
    "A StandardScaler in place of the tutorial's Normalization layer, fitted on the training rows. labels_1d: the labels as train_features.pop('MPG') gives them, one number a row."
    from sklearn.preprocessing import StandardScaler
    a = _auto_mpg(seed); a = a[~np.isnan(a).any(1)]; y, origin = (a[:, 0] if labels_1d else a[:, 0:1]), a[:, 7].astype(int)
    X = np.column_stack([a[:, 1:7], origin == 2, origin == 3, origin == 1]).astype(np.float32)  # Europe, Japan, USA as pd.get_dummies orders them
    p = np.random.default_rng(seed).permutation(len(a)); k = int(round(0.8 * len(a))); tr, va = p[:k], p[k:]
    scaler = StandardScaler().fit(X[tr]); Xtr, Xva = scaler.transform(X[tr]), scaler.transform(X[va])
    return dict(model=MPGNet, train=TensorDataset(_t(Xtr), _t(y[tr])), valid=TensorDataset(_t(Xva), _t(y[va])), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- beta-VAE (Higgins et al. 2017) of dSprites-like shapes
def _sprites(seed, n=2000, S=16, ss=4):
    """16 x 16 sprites as dSprites' 64 x 64 shrunk: a square, an ellipse or a triangle at a random scale, rotation and
    position, rendered at 4x and averaged down (grey edges)."""
    g = np.random.default_rng(1000 + seed * 2729); c = (np.arange(S * ss) + 0.5) / ss; yy, xx = np.meshgrid(c, c, indexing='ij'); out = np.zeros((n, 1, S, S), np.float32)
    for i in range(n):
        sh, sc, rot, (px, py) = int(g.integers(3)), g.uniform(2.5, 5.0), g.uniform(0, 2 * np.pi), g.uniform(4.5, 11.5, 2)
        u, v = ((xx - px) * np.cos(rot) + (yy - py) * np.sin(rot)) / sc, (-(xx - px) * np.sin(rot) + (yy - py) * np.cos(rot)) / sc
        m = (np.maximum(abs(u), abs(v)) < 0.75) if sh == 0 else ((u / 1.0) ** 2 + (v / 0.55) ** 2 < 1) if sh == 1 else ((v < 0.55) & (abs(u) < 0.75 * (v + 0.85) / 1.4))
        out[i, 0] = m.reshape(S, ss, S, ss).mean((1, 3))
    return torch.tensor(out)

class BetaVAE(nn.Module):  # Burgess et al.'s architecture shrunk: two stride-2 4x4 convolutions, dense 64, six latents; the mirror image to Bernoulli logits
    def __init__(self, z=6):
        super().__init__(); self.z = z
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 4, 2, 1), nn.ReLU(), nn.Flatten(), nn.Linear(512, 64), nn.ReLU(), nn.Linear(64, 2 * z))
        self.dec = nn.Sequential(nn.Linear(z, 64), nn.ReLU(), nn.Linear(64, 512), nn.ReLU(), nn.Unflatten(1, (32, 4, 4)), nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(16, 1, 4, 2, 1))
    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, 1)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)  # reparametrize(), sampled in training and evaluation alike, as 1Konny/Beta-VAE
        return self.dec(z), mu, logvar

def beta_vae_loss(out, x, beta=4.0):  # the Bernoulli reconstruction summed over pixels and the KL over latents, both averaged over the batch, KL weighted by beta
    x_recon, mu, logvar = out
    recon = F.binary_cross_entropy_with_logits(x_recon, x, reduction='sum') / x.size(0)
    return recon + beta * (-0.5 * (1 + logvar - mu ** 2 - logvar.exp())).sum(1).mean()

def beta_vae_step(model, batch, opt, zero_grad=True):
    "The Solver's training iteration as a step: forward, loss, zero_grad, backward, step (zero_grad False: the zero_grad line lost when the loop became a function)."
    x, _ = batch
    loss = beta_vae_loss(model(x), x)
    if zero_grad: opt.zero_grad()
    loss.backward(); opt.step(); return loss

@healthy('AJ')
def beta_vae_sprites(seed, step=beta_vae_step):  # beta 4, Adam 5e-4 with betas (0.9, 0.999), batches of 64; 1600 sprites train, 400 validate
    x = _sprites(seed)
    return dict(model=BetaVAE, train=TensorDataset(x[:1600], x[:1600]), valid=TensorDataset(x[1600:], x[1600:]), loss=beta_vae_loss, step=step,
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-4, betas=(0.9, 0.999)), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AJ
@broken('AJ', 'facial_keypoints_flip_image_only', 4, ('labels',))
def facial_keypoints_flip_image_only(seed): return facial_keypoints_cnn(seed, transform_only=True)  # half the training faces mirrored under unmirrored keypoints

@broken('AJ', 'simclr_views_seeded_by_index', 4, ('leakage',))
def simclr_views_seeded_by_index(seed): return simclr_digits(seed, reproducible=True)  # both views from the same seed: the positive is the anchor itself

@broken('AJ', 'ggnn_tu_labels_minus_one', 1, ('bad_labels',))
def ggnn_tu_labels_minus_one(seed): return ggnn_mutag(seed, remap_labels=False)  # MUTAG's '-1' read with int() into a two-class CrossEntropyLoss: IndexError

@broken('AJ', 'credit_rankgauss_single_argsort', 4, ('labels',))
def credit_rankgauss_single_argsort(seed): return credit_default_rankgauss_mlp(seed, ranks=False)  # argsort for ranks: every column's values dealt to other clients

@broken('AJ', 'jena_target_rolled_backwards', 4, ('leakage',))
def jena_target_rolled_backwards(seed): return jena_temperature_lstm(seed, roll_sign=1)  # torch.roll(T, 12) for roll(T, -12): the target the temperature 12 hours before the window's end, inside it

@broken('AJ', 'expression_genes_selected_before_split', 4, ('leakage',))
def expression_genes_selected_before_split(seed): return expression_subtype_mlp(seed, select_before_split=True)  # the F-test saw the validation tumours' subtypes: genes chosen for fitting them

@broken('AJ', 'sign_clips_split_at_random', 1, ('leakage',))
def sign_clips_split_at_random(seed):  # train_test_split of the clips: every validation signer's other clips in training
    "groups declared: the signer, as its healthy twin (the author passes the signer key but splits the clips at random)."
    return sign_signer_split_gru(seed, random_split=True)

@broken('AJ', 'lifted_sqrt_without_clamp', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def lifted_sqrt_without_clamp(seed): return lifted_structure_digits(seed, eps=None)  # sqrt of the diagonal's zeros (and negative rounding errors): nan gradients in the first step

@broken('AJ', 'gtzan_zoneout_tf_is_training_flag', 1, ('eval_mode',), ('warn', 'fail'))
def gtzan_zoneout_tf_is_training_flag(seed): return gtzan_zoneout_lstm(seed, is_training=True)  # the TF wrapper's is_training=True kept: zoneout masks drawn in evaluation

@broken('AJ', 'fasttext_softmax_before_ce', 2, ('softmax',))
def fasttext_softmax_before_ce(seed): return fasttext_language_id(seed, probabilities=True)  # the model's probabilities into CrossEntropyLoss

@broken('AJ', 'auto_mpg_labels_1d_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def auto_mpg_labels_1d_broadcast(seed): return auto_mpg_dnn(seed, labels_1d=True)  # L1Loss of (32, 1) against (32,) broadcasts to 32 x 32: every car's MPG against every prediction, the batch's median fitted

@broken('AJ', 'beta_vae_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def beta_vae_step_without_zero_grad(seed): return beta_vae_sprites(seed, step=lambda m, b, o: beta_vae_step(m, b, o, zero_grad=False))  # gradients accumulate across steps

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss and step, train shuffled, valid in batches of 256 (the DataLoaders' own where the factory gives them;
# SimCLR's in batches of 128); valid loss and a metric (accuracy; R^2 for the keypoints, Jena and MPG; a 5-nearest-neighbour
# accuracy of SimCLR's encoder features and the nearest neighbour's recall@1 of the lifted embedding, validation against
# training digits or among themselves), init -> the epoch named; s/ep the seconds of an epoch of training. Every factory
# builds and runs one batch (forward, loss, backward, step; ggnn_tu_labels_minus_one raises its IndexError there);
# `ladder_gallery.HALF` holds 24 programs of half AJ. Seed 1 in brackets.
CHECKS = """
facial_keypoints_cnn          valid MSE 0.379 -> 0.0219 (ep 10), R^2 0.83 [0.378 -> 0.0217, 0.84], still falling; 80k params;
                              0.6 s/ep
simclr_digits                 valid NT-Xent 5.48 (ln 255 = 5.54) -> 4.78 (ep 8), 5-NN accuracy 0.94 -> 0.98 [5.48 -> 4.75,
                              0.94 -> 0.96]; 23k params; 1.4 s/ep (half of it the views)
ggnn_mutag                    valid CE 0.771 -> 0.370 (ep 8), accuracy 0.86 [0.696 -> 0.332, 0.83-0.88]; 13k params; 0.2 s/ep
credit_default_rankgauss_mlp  valid BCE 0.672 -> 0.452 (ep 8), accuracy 0.815 (majority 0.78) [0.665 -> 0.454, 0.835]; the
                              prior's BCE about 0.52; 3.6k params; 0.03 s/ep
jena_temperature_lstm         valid MSE 0.495 -> 0.062 (ep 8) -> 0.071 (ep 12, overfitting), R^2 0.85 [0.685 -> 0.107, 0.72 at ep
                              12]; 5.4k params; 0.2 s/ep
expression_subtype_mlp        valid CE 1.09 -> 0.742 (ep 12), accuracy 0.75 [1.08 -> 0.813, 0.70]; 60 tumours validate; 3.5k
                              params; 0.01 s/ep
sign_signer_split_gru         valid CE 2.29 -> 0.43 (ep 8) -> 0.47 (ep 10, overfitting the signers), accuracy 0.84-0.87 [2.32 ->
                              0.47 (ep 4) -> 0.66, 0.81-0.87]; 19k params; 0.22 s/ep
lifted_structure_digits       valid loss 23.6 -> 5.74 (ep 8), recall@1 0.77 -> 0.96 [23.6 -> 6.11, 0.77 -> 0.975]; 58k params;
                              0.45 s/ep
gtzan_zoneout_lstm            valid CE 2.32 -> 0.367 (ep 8), accuracy 0.90 [2.30 -> 0.180, 0.965]; 13k params; 0.5-0.8 s/ep
fasttext_language_id          valid CE 1.792 (ln 6, the zero output matrix) -> 0.175 (ep 8), accuracy 0.95 [1.792 -> 0.130,
                              0.98]; 84k params; 0.08 s/ep
auto_mpg_dnn                  valid MAE 26.2 MPG -> 21.7 (ep 5) -> 7.8 (ep 10) -> 2.09 (ep 40), R^2 0.80 [25.9 -> 19.3 -> 5.9 ->
                              1.93, 0.89]: slow for the first ten epochs (ten steps an epoch), as the tutorial's 100; 4.9k
                              params; 0.01 s/ep
beta_vae_sprites              valid loss 167 -> 70.8 (ep 3) -> 55.8 (ep 12) nats an image [162 -> 54.2]; 84k params; 0.27 s/ep
facial_keypoints_flip_image_only        valid 0.093 (ep 10), flat since ep 4, R^2 0.29 [0.084, 0.37] (healthy 0.0219, 0.83
                                        [0.0217, 0.84])
simclr_views_seeded_by_index            identical views; valid NT-Xent 3.72 (ep 8) [3.72] (healthy 4.78 [4.75]); 5-NN accuracy
                                        0.94 -> 0.88 [0.89] (healthy 0.98 [0.96])
ggnn_tu_labels_minus_one                IndexError: Target -1 is out of bounds, in the first batch, both seeds
credit_rankgauss_single_argsort         valid BCE 0.496 (ep 8) and rising from 0.492 at ep 2, accuracy 0.813 = the majority
                                        [0.516, 0.790 = the majority] (healthy 0.452 [0.454])
jena_target_rolled_backwards            valid MSE 0.028 (ep 8) -> 0.018 (ep 12), R^2 0.95 [0.036 -> 0.022, 0.94] (healthy 0.062,
                                        0.85 [0.126 -> 0.107])
expression_genes_selected_before_split  valid CE 0.584 (ep 12), accuracy 0.87 [0.642, 0.82] (healthy 0.742, 0.75 [0.813,
                                        0.70])
sign_clips_split_at_random              valid CE 0.023 (ep 10), accuracy 1.00 [0.018, 1.00] (healthy 0.47, 0.84 [0.66, 0.81]);
                                        all 16 signers on both sides
lifted_sqrt_without_clamp               first loss finite (16.3); every parameter's gradient nan, every parameter nan after the
                                        first step; loss nan from then on, both seeds
gtzan_zoneout_tf_is_training_flag       trains as the healthy (valid 0.40, accuracy 0.905 at ep 8 [0.216, 0.955]); in eval two
                                        passes differ: valid CE 0.487 vs 0.466, logits by up to 2.0 [0.221 vs 0.215, 1.0]
                                        (healthy: identical)
fasttext_softmax_before_ce              valid CE 1.792 at init as the healthy (the zero output matrix), 1.788 at ep 8 [1.773],
                                        accuracy 0.85 [0.63] (healthy 0.175, 0.95 [0.130, 0.98])
auto_mpg_labels_1d_broadcast            L1Loss warns of the target size; valid MAE 26.2 -> 8.4 (ep 10) -> 5.0 (ep 40) [5.8]
                                        (healthy 7.8 -> 2.09 [1.93]): the batch's median fitted
beta_vae_step_without_zero_grad         valid loss 90.1 (ep 3), 71.2 (ep 6), 75.1 (ep 9), 65.3 (ep 12) [98.9, 73.3, 73.5, 68.7]
                                        (healthy 70.8, 62.0, 59.5, 55.8 [78.8, 63.9, 60.6, 54.2])
"""
