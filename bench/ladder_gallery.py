"""Programs for measuring the ladder's verdicts (issue 32): healthy ones written as their authors write them (the PyTorch
examples' style, ported to local data: sklearn digits and synthetic data, nothing downloaded), and broken variants.

API (also used by issue 33's false-alarm counts):
- `HEALTHY[name] = factory` and `BROKEN[name] = (factory, expect)`; `factory(seed) -> dict` of keyword arguments for
  `ntrain.ladder(...)` (model, train, valid, loss, optimizer, step, forward, config keys such as batch_size, seed);
  `expect = dict(rung=k, verdicts=('fail',), causes=(...))`: the rung that must catch it (or a tuple: any of them), its verdict, and one of the
  cause keys it must name (empty: any).
- `HALF[name]` ('F': held out from the fifth round, frozen at 9c539f2: written after it and run once) is 'A' (written before the rules were frozen, the half they were tuned on) or 'B' (held out: written
  after the frozen-rules commit and run once) or 'C' (held out from the second round of rules, frozen at 86df774: written
  after that commit and run once) or 'D' (held out from the third round of rules, frozen at d333db6: written after that
  commit and run once) or 'E' (held out from the fourth round, frozen at 9d1d6da: written after it and run once).
  'G' (bench/ladder_gallery_g.py, imported last: held out from the sixth round, written before its frozen-rules commit
  `ladder rules, round 6 (frozen):` on r6 and run once after it).
  'H' (bench/ladder_gallery_h.py, imported after half G: held out from the seventh round, written before its frozen-rules
  commit `ladder rules, round 7 (frozen):` on r7, checked only with a plain torch loop, and run once after it).
  'I' (bench/ladder_gallery_i.py, imported after half H: held out from the eighth round, written after its frozen-rules
  commit 5990922 ("round 8, frozen") without reading the rules, checked only with a plain torch loop, and run once).
  'J' (bench/ladder_gallery_j.py, imported after half I: held out from the ninth round, written after its frozen-rules
  commit f13d9e5 without reading the rules, checked only with a plain torch loop, and run once).
  'K' (bench/ladder_gallery_k.py, imported after half J: held out from the eleventh round, written after its freeze (round 11,
  frozen after 9668732) without reading the rules, checked only with a plain torch loop, and run once).
  'L' (bench/ladder_gallery_l.py, imported after half K: held out from the twelfth round, written after its freeze (round 12,
  frozen at aef8846) without reading the rules, checked only with a plain torch loop, and run once).
  'N' (bench/ladder_gallery_n.py, imported after half M: held out from the sixteenth round, written after its freeze (round 16,
  frozen at 560b7a3) without reading the rules, checked only with a plain torch loop, and run once).
  'O' (bench/ladder_gallery_o.py, imported after half N: held out from the seventeenth round, written after its freeze (round 17,
  frozen at da5fe9f) without reading the rules, checked only with a plain torch loop, and run once).
  'P' (bench/ladder_gallery_p.py, imported after half O: held out from the eighteenth round, written after its freeze (round 18,
  frozen at f7603b7) without reading the rules, checked only with a plain torch loop, and run once).
  'Q' (bench/ladder_gallery_q.py, imported after half P: held out from the nineteenth round (frozen at 624370a; written alongside
  its last rule, read by no one who wrote the rules) without reading the rules, checked only with a plain torch loop, and run once).
  'R' (bench/ladder_gallery_r.py, imported after half Q: held out from the twenty-first round (frozen at f8981be; written in a worktree
  at c22ec08 by a helper, read by no one who wrote the rules) without reading the rules, checked only with a plain torch loop, and run once).
  'S' (bench/ladder_gallery_s.py, imported after half R: held out from the rules frozen at 1627d81 (written in a worktree
  at 9b391b1 by a helper, read by no one who wrote the rules) without reading the rules, checked only with a plain torch loop, and run once).
  'T' (bench/ladder_gallery_t.py, imported after half S: held out from the rules frozen at efd91c4, round 25 (written in a worktree
  at efd91c4 by a helper, read by no one who wrote the rules) without reading the rules, checked only with a plain torch loop, and run once).
  'U' (bench/ladder_gallery_u.py, imported after half T: held out from the rules frozen at round 26 (written in a worktree
  at c6b89ee by a helper, read by no one who wrote the rules) without reading the rules, checked only with a plain torch loop, and run once).
  'V' (bench/ladder_gallery_v.py, imported after half U: held out from the rules frozen at round 28 (written in a worktree
  at 80d6f0d by a helper, read by no one who wrote the rules) without reading the rules, checked only with a plain torch loop, and run once).
  'W' (bench/ladder_gallery_w.py, imported after half V: held out from the rules frozen at round 29 (written in a worktree
  at 15e3556 by a helper, read by no one who wrote the rules) without reading the rules, checked only with a plain torch loop, and run once).
- `run(name, seed, rungs='1-3')` runs one program's ladder and returns the LadderResult.
"""
from __future__ import annotations
import math, tempfile
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset

HEALTHY, BROKEN, HALF = {}, {}, {}

def healthy(half):
    def reg(f): HEALTHY[f.__name__] = f; HALF[f.__name__] = half; return f
    return reg

def broken(half, name, rung, causes=(), verdicts=('fail',)):
    def reg(f): BROKEN[name] = (f, dict(rung=rung, verdicts=tuple(verdicts), causes=tuple(causes))); HALF[name] = half; return f
    return reg

def _gen(seed): return torch.Generator().manual_seed(1000 + seed)

def _digits(seed, n_valid=360):
    from ntrain.examples import load_digits_arrays
    x, y = load_digits_arrays()
    p = torch.randperm(len(y), generator=_gen(seed))
    x, y = x[p], y[p]
    return (x[n_valid:], y[n_valid:]), (x[:n_valid], y[:n_valid])

def _keys(seed, **kw): return dict(dict(seed=seed, clip_grad=None), **kw)  # authors rarely clip: ntrain's default 1.0 is off unless they do

def _std(x, ref): return (x - ref.mean(0)) / ref.std(0).clamp_min(1e-8)  # standardised by `ref`'s (the train split's) statistics

class OneItem(Dataset):  # a whole graph as the one item of a dataset
    def __init__(self, *t): self.t = t
    def __len__(self): return 1
    def __getitem__(self, i): return self.t

def _one(items): return items[0]  # the collate_fn for a OneItem: the item itself, no batch dimension

_t = lambda a, dt=torch.float32: torch.tensor(np.asarray(a), dtype=dt)  # an array (or list) as a tensor, float32 unless told

class ListDataset(Dataset):  # a list of items, as the authors' own Dataset classes
    def __init__(self, items): self.items = items
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]

def run(name:str, seed:int, rungs:str='1-3', **over):
    "One program's ladder, rungs `rungs`, in a temporary run directory."
    from ntrain.ladder import ladder
    f = HEALTHY[name] if name in HEALTHY else BROKEN[name][0]
    kw = dict(f(seed), **over)
    with tempfile.TemporaryDirectory() as d: return ladder(rungs=rungs, run_dir=d, write=False, **kw)

# ---------------------------------------------------------------- half A: the programs the rules were tuned on
class VAE(nn.Module):  # pytorch/examples vae, 64 pixels for 784
    def __init__(self, h=128, z=8):
        super().__init__()
        self.fc1, self.fc21, self.fc22, self.fc3, self.fc4 = nn.Linear(64, h), nn.Linear(h, z), nn.Linear(h, z), nn.Linear(z, h), nn.Linear(h, 64)
    def encode(self, x): h1 = F.relu(self.fc1(x)); return self.fc21(h1), self.fc22(h1)
    def reparameterize(self, mu, logvar): std = torch.exp(0.5 * logvar); return mu + torch.randn_like(std) * std
    def decode(self, z): return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))
    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64)); return self.decode(self.reparameterize(mu, logvar)), mu, logvar

def vae_loss(output, x):
    recon_x, mu, logvar = output
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD

@healthy('A')
def vae(seed):
    (x, _), (vx, _) = _digits(seed)
    return dict(model=VAE, train=TensorDataset(x, x.view(-1, 64)), valid=TensorDataset(vx, vx.view(-1, 64)), loss=vae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

class RowRNN(nn.Module):  # an image read row by row
    def __init__(self, h=64, softmax=False):
        super().__init__(); self.rnn = nn.LSTM(8, h, batch_first=True); self.fc = nn.Linear(h, 10); self.softmax = softmax
    def forward(self, x):
        out, _ = self.rnn(x.view(-1, 8, 8)); o = self.fc(out[:, -1])
        return F.softmax(o, dim=1) if self.softmax else o

@healthy('A')
def rnn_rows(seed):
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=RowRNN, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed))

def _citation_graph(seed, n=300, c=5, f=100):
    "A citation-style graph: each node a bag of words drawn around its class's topic, edges mostly within a class."
    g = _gen(seed)
    y = torch.randint(0, c, (n,), generator=g)
    topics = torch.rand(c, f, generator=g) ** 3
    x = (torch.rand(n, f, generator=g) < 0.15 * topics[y] / topics.mean()).float()
    x = x / x.sum(1, keepdim=True).clamp(min=1)
    same = y[:, None] == y[None, :]
    p = torch.where(same, torch.tensor(0.04), torch.tensor(0.004))
    a = (torch.rand(n, n, generator=g) < p).float(); a = ((a + a.T) > 0).float() + torch.eye(n)
    d = a.sum(1).rsqrt(); adj = d[:, None] * a * d[None, :]
    perm = torch.randperm(n, generator=g)
    tr, va = torch.zeros(n, dtype=torch.bool), torch.zeros(n, dtype=torch.bool)
    tr[perm[:140]] = True; va[perm[140:240]] = True
    return x, adj, y, tr, va

class GCN(nn.Module):  # Kipf and Welling, two layers
    def __init__(self, f=100, h=16, c=5, dropout=0.5, detach=False):
        super().__init__(); self.w1, self.w2, self.dropout, self.detach = nn.Linear(f, h), nn.Linear(h, c), dropout, detach
    def forward(self, x, adj):
        x = F.dropout(x, self.dropout, self.training)
        h = F.relu(adj @ self.w1(x))
        if self.detach: h = h.detach()
        return adj @ self.w2(F.dropout(h, self.dropout, self.training))

class _Graph(Dataset):
    def __init__(self, *t): self.t = t
    def __len__(self): return 1
    def __getitem__(self, i): return self.t

def _gcn(seed, **mk):
    x, adj, y, tr, va = _citation_graph(seed)
    one = lambda items: items[0]
    fwd = lambda model, b: (model(b[0], b[1])[b[3]], b[2][b[3]])
    return dict(model=lambda: GCN(**mk), train=DataLoader(_Graph(x, adj, y, tr), collate_fn=one), valid=DataLoader(_Graph(x, adj, y, va), collate_fn=one),
                forward=fwd, num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=5e-4), **_keys(seed, batch_size=1))

@healthy('A')
def gcn(seed): return _gcn(seed)

class Siamese(nn.Module):  # pytorch/examples siamese_network: two towers, their features joined, sigmoid, BCELoss
    def __init__(self):
        super().__init__()
        self.tower = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(32 * 16, 64))
        self.fc = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, pair):
        a, b = self.tower(pair[:, 0]), self.tower(pair[:, 1])
        return torch.sigmoid(self.fc(torch.cat([a, b], 1))).squeeze(1)

def _pairs(x, y, n, g):
    i = torch.randint(0, len(y), (n,), generator=g)
    same = torch.rand(n, generator=g) < 0.5
    j = torch.randint(0, len(y), (n,), generator=g)
    for k in range(n):  # a partner of the same class for half the pairs
        if same[k]:
            c = (y == y[i[k]]).nonzero().flatten(); j[k] = c[torch.randint(0, len(c), (1,), generator=g)]
    return TensorDataset(torch.stack([x[i], x[j]], 1), (y[i] == y[j]).float())

@healthy('A')
def siamese(seed):
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed)
    return dict(model=Siamese, train=_pairs(x, y, 2048, g), valid=_pairs(vx, vy, 512, g), loss=nn.BCELoss(),
                optimizer=lambda p: torch.optim.Adadelta(p, lr=1.0), **_keys(seed))

def _corpus(seed, V=200, n=60000):
    "A synthetic corpus: a sparse first-order Markov chain over V words (each word has a few likely successors)."
    g = _gen(seed)
    nxt = torch.randint(0, V, (V, 4), generator=g)
    w = torch.zeros(n, dtype=torch.long); w[0] = 0
    choice = torch.randint(0, 4, (n,), generator=g); noise = torch.rand(n, generator=g) < 0.1; rnd = torch.randint(0, V, (n,), generator=g)
    for t in range(1, n): w[t] = rnd[t] if noise[t] else nxt[w[t - 1], choice[t]]
    return w

class WordLM(nn.Module):  # pytorch/examples word_language_model, LSTM
    def __init__(self, V=200, e=64, h=64, layers=2, dropout=0.2):
        super().__init__(); self.drop = nn.Dropout(dropout); self.encoder = nn.Embedding(V, e)
        self.rnn = nn.LSTM(e, h, layers, dropout=dropout, batch_first=True); self.decoder = nn.Linear(h, V)
        self.encoder.weight.data.uniform_(-0.1, 0.1); self.decoder.bias.data.zero_(); self.decoder.weight.data.uniform_(-0.1, 0.1)
    def forward(self, x):
        out, _ = self.rnn(self.drop(self.encoder(x))); return self.decoder(self.drop(out))

def _lm_data(w, bptt=35):
    n = (len(w) - 1) // bptt
    return TensorDataset(w[:n * bptt].view(n, bptt), w[1:n * bptt + 1].view(n, bptt))

@healthy('A')
def word_lm(seed):
    w = _corpus(seed); cut = int(0.9 * len(w))
    fwd = lambda model, b: (model(b[0]).reshape(-1, 200), b[1].reshape(-1))
    return dict(model=WordLM, train=_lm_data(w[:cut]), valid=_lm_data(w[cut:]), forward=fwd, num_classes=200,
                optimizer=lambda p: torch.optim.SGD(p, lr=20), **_keys(seed, batch_size=20, clip_grad=0.25))

def _waves(seed, n, T=21):
    g = _gen(seed)
    phase, freq = torch.rand(n, 1, generator=g) * 2 * math.pi, 0.5 + torch.rand(n, 1, generator=g)
    s = torch.sin(torch.arange(T).float() * 0.3 * freq + phase) + 0.05 * torch.randn(n, T, generator=g)
    return TensorDataset(s[:, :-1, None], s[:, -1:])

class Sequence(nn.Module):  # pytorch/examples time_sequence_prediction's idea: an LSTM reads the past, a linear layer predicts the next value
    def __init__(self, h=51):
        super().__init__(); self.lstm = nn.LSTM(1, h, batch_first=True); self.linear = nn.Linear(h, 1)
    def forward(self, x): out, _ = self.lstm(x); return self.linear(out[:, -1])

@healthy('A')
def ts_lstm(seed):  # leak-free: train and validation are different waves
    return dict(model=Sequence, train=_waves(seed, 2000), valid=_waves(seed + 500, 400), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed))

def _poly(seed, n):
    g = _gen(seed)
    x = torch.rand(n, 1, generator=g) * 2 - 1
    w, b = torch.tensor([[0.5], [3.0], [2.4], [-1.5]]), 0.9
    X = torch.cat([x ** i for i in range(1, 5)], 1)
    return TensorDataset(X, X @ w + b + 0.1 * torch.randn(n, 1, generator=g))

@healthy('A')
def poly_reg(seed):  # pytorch/examples regression: polynomial features, one linear layer, SGD lr 0.1, with noise
    return dict(model=lambda: nn.Linear(4, 1), train=_poly(seed, 2048), valid=_poly(seed + 500, 512), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1), **_keys(seed))

class MnistNet(nn.Module):  # pytorch/examples mnist, for 8x8: log_softmax and NLLLoss, dropout, Adadelta lr 1
    def __init__(self, softmax_only=False, eval_dropout=False):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 32, 3, 1), nn.Conv2d(32, 64, 3, 1)
        self.dropout1, self.dropout2 = nn.Dropout(0.25), nn.Dropout(0.5)
        self.fc1, self.fc2 = nn.Linear(64 * 2 * 2, 128), nn.Linear(128, 10)
        self.softmax_only, self.eval_dropout = softmax_only, eval_dropout
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
        x = self.dropout1(x).flatten(1)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, 0.5, training=True) if self.eval_dropout else self.dropout2(x)
        x = self.fc2(x)
        return F.softmax(x, dim=1) if self.softmax_only else F.log_softmax(x, dim=1)

@healthy('A')
def mnist_nll(seed):
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=MnistNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=F.nll_loss, num_classes=10,
                optimizer=lambda p: torch.optim.Adadelta(p, lr=1.0), **_keys(seed))

# broken variants of half A
def _frozen_but_bias(m):
    m.requires_grad_(False); m.fc.bias.requires_grad_(True); return m

@broken('A', 'rnn_frozen_but_bias', 3, ('frozen',))
def rnn_frozen_but_bias(seed): return dict(rnn_rows(seed), model=lambda: _frozen_but_bias(RowRNN()))

@broken('A', 'rnn_frozen_whole', 1, ('frozen',))
def rnn_frozen_whole(seed): return dict(rnn_rows(seed), model=lambda: RowRNN().requires_grad_(False))

@broken('A', 'rnn_softmax_before_ce', 2, ('softmax',))
def rnn_softmax_before_ce(seed): return dict(rnn_rows(seed), model=lambda: RowRNN(softmax=True))

@broken('A', 'vae_lr_x100', 3, ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat'))
def vae_lr_x100(seed): return dict(vae(seed), optimizer=lambda p: torch.optim.Adam(p, lr=0.1))

def step_no_zero_grad(model, batch, opt):
    x, y = batch
    loss = F.cross_entropy(model(x), y); loss.backward(); opt.step(); return loss

@broken('A', 'rnn_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def rnn_no_zero_grad(seed): return dict(rnn_rows(seed), step=step_no_zero_grad)

@broken('A', 'mnist_eval_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def mnist_eval_dropout(seed): return dict(mnist_nll(seed), model=lambda: MnistNet(eval_dropout=True))

@broken('A', 'poly_lr_zero', 3, ('lr_zero', 'flat'))
def poly_lr_zero(seed): return dict(poly_reg(seed), optimizer=lambda p: torch.optim.SGD(p, lr=0.0))

@broken('A', 'rnn_shuffled_labels', 4, ('labels',))
def rnn_shuffled_labels(seed):
    kw = rnn_rows(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 7))]); return kw

# ---------------------------------------------------------------- half B: held out, written after the frozen-rules commit 073b7e2
class Probe(nn.Module):  # a frozen backbone and a new linear head: the torchvision fine-tuning tutorial's feature extractor
    def __init__(self, head_weight_frozen=False):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten())
        for p in self.backbone.parameters(): p.requires_grad = False
        self.fc = nn.Linear(256, 10)
        if head_weight_frozen: self.fc.weight.requires_grad = False
    def forward(self, x): return self.fc(self.backbone(x))

@healthy('B')
def linear_probe(seed):
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=Probe, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.001, momentum=0.9), **_keys(seed, batch_size=32))

def _houses(seed, n):
    g = _gen(seed)
    x = torch.randn(n, 8, generator=g)
    w = torch.tensor([0.6, -0.3, 0.5, 0.2, 0.0, -0.4, 0.3, 0.1])
    y = 1.2e4 + 3e3 * (x @ w + 0.3 * torch.tanh(x[:, 0] * x[:, 1])) + 300 * torch.randn(n, generator=g)
    return TensorDataset(x, y[:, None])

@healthy('B')
def tabular_raw(seed):  # a regression target in raw units (prices), as it comes from the table
    mlp = lambda: nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    return dict(model=mlp, train=_houses(seed, 2000), valid=_houses(seed + 500, 400), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed))

def _mlp(i, o, h=64): return nn.Sequential(nn.Flatten(), nn.Linear(i, h), nn.ReLU(), nn.Linear(h, o))

@healthy('B')
def imbalanced_bce(seed):  # one digit against the rest: 10% positives, pos_weight = negatives / positives
    (x, y), (vx, vy) = _digits(seed)
    t, vt = (y == 0).float()[:, None], (vy == 0).float()[:, None]
    pw = torch.tensor([float((1 - t).sum() / t.sum())])
    return dict(model=lambda: _mlp(64, 1), train=TensorDataset(x, t), valid=TensorDataset(vx, vt), loss=nn.BCEWithLogitsLoss(pos_weight=pw),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed))

def _labels4(y):  # even, five or more, has a loop, prime
    return torch.stack([y % 2 == 0, y >= 5, (y == 0) | (y == 6) | (y == 8) | (y == 9), (y == 2) | (y == 3) | (y == 5) | (y == 7)], 1).float()

@healthy('B')
def multilabel(seed):
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: _mlp(64, 4, 128), train=TensorDataset(x, _labels4(y)), valid=TensorDataset(vx, _labels4(vy)),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed))

class CharTransformer(nn.Module):  # a tiny causal transformer over characters
    def __init__(self, V=40, d=64, T=32):
        super().__init__(); self.tok, self.pos = nn.Embedding(V, d), nn.Embedding(T, d)
        self.blocks = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.1, batch_first=True, norm_first=True), 2)
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, V)
    def forward(self, x):
        T = x.shape[1]; mask = nn.Transformer.generate_square_subsequent_mask(T)
        h = self.blocks(self.tok(x) + self.pos(torch.arange(T)), mask=mask, is_causal=True)
        return self.head(self.ln(h))

def _chars(seed, n=40000, V=40):
    g = _gen(seed + 99)
    words = [torch.randint(1, V, (int(torch.randint(2, 7, (1,), generator=g)),), generator=g) for _ in range(150)]
    out = []
    while sum(map(len, out)) < n: out += [words[int(torch.randint(0, 150, (1,), generator=g))], torch.zeros(1, dtype=torch.long)]
    return torch.cat(out)[:n]

@healthy('B')
def char_transformer(seed):
    c = _chars(seed); cut = int(0.9 * len(c))
    fwd = lambda model, b: (model(b[0]).reshape(-1, 40), b[1].reshape(-1))
    mk = lambda w: _lm_data(w, 32)
    return dict(model=CharTransformer, train=mk(c[:cut]), valid=mk(c[cut:]), forward=fwd, num_classes=40,
                optimizer=lambda p: torch.optim.AdamW(p, lr=3e-4), **_keys(seed, batch_size=32))

class SegNet(nn.Module):  # a small fully convolutional net: a class per pixel
    def __init__(self, softmax=False):
        super().__init__(); self.softmax = softmax
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 1))
    def forward(self, x): o = self.net(x); return o.softmax(1) if self.softmax else o

def _masks(x): return ((x > 0.3).long() + (x > 0.7).long()).squeeze(1)

@healthy('B')
def segmentation(seed):
    (x, _), (vx, _) = _digits(seed)
    return dict(model=SegNet, train=TensorDataset(x, _masks(x)), valid=TensorDataset(vx, _masks(vx)), num_classes=3,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed))

class PairEmbed(nn.Module):  # a contrastive pair network: the distance of two embeddings
    def __init__(self):
        super().__init__(); self.tower = nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 32))
    def forward(self, pair): return F.pairwise_distance(self.tower(pair[:, 0]), self.tower(pair[:, 1]))

def contrastive_loss(d, same, margin=2.0):  # Hadsell, Chopra and LeCun 2006
    return torch.mean(same * d.pow(2) + (1 - same) * torch.clamp(margin - d, min=0).pow(2))

@healthy('B')
def contrastive(seed):
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed)
    return dict(model=PairEmbed, train=_pairs(x, y, 2048, g), valid=_pairs(vx, vy, 512, g), loss=contrastive_loss,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed))

class CNN(nn.Module):
    def __init__(self, sn=False):
        super().__init__(); w = nn.utils.parametrizations.spectral_norm if sn else (lambda m: m)
        self.net = nn.Sequential(w(nn.Conv2d(1, 32, 3, padding=1)), nn.ReLU(), w(nn.Conv2d(32, 64, 3, padding=1)), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), w(nn.Linear(64 * 16, 10)))
    def forward(self, x): return self.net(x)

@healthy('B')
def cnn_adam_1e4(seed):
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=CNN, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-4), **_keys(seed))

@healthy('B')
def cnn_spectral_norm(seed):
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: CNN(sn=True), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.SGD(p, lr=1e-3, momentum=0.9), **_keys(seed))

# broken variants of half B
@broken('B', 'probe_bias_only', 3, ('frozen',))
def probe_bias_only(seed): return dict(linear_probe(seed), model=lambda: Probe(head_weight_frozen=True))

@broken('B', 'multilabel_lr_x10000', 3, ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat'))
def multilabel_lr_x10000(seed): return dict(multilabel(seed), optimizer=lambda p: torch.optim.Adam(p, lr=10.0))

def _big_head(m):
    with torch.no_grad(): m[-1].weight.mul_(100); m[-1].bias.mul_(100)
    return m

@broken('B', 'imbalanced_big_init', 2, ('init_scale',))
def imbalanced_big_init(seed): return dict(imbalanced_bce(seed), model=lambda: _big_head(_mlp(64, 1)))

@broken('B', 'seg_softmax_before_ce', 2, ('softmax',))
def seg_softmax_before_ce(seed): return dict(segmentation(seed), model=lambda: SegNet(softmax=True))

class NoLog(MnistNet):
    def forward(self, x): return super().forward(x).exp()  # probabilities into NLLLoss: the log forgotten

@broken('B', 'nll_without_log', 2, ())
def nll_without_log(seed): return dict(mnist_nll(seed), model=NoLog)

@broken('B', 'seg_lr_zero', 3, ('lr_zero', 'flat'))
def seg_lr_zero(seed): return dict(segmentation(seed), optimizer=lambda p: torch.optim.Adam(p, lr=0.0))

def step_contrastive_no_zero_grad(model, batch, opt):
    x, y = batch
    loss = contrastive_loss(model(x), y); loss.backward(); opt.step(); return loss

@broken('B', 'contrastive_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def contrastive_no_zero_grad(seed): return dict(contrastive(seed), step=step_contrastive_no_zero_grad)

@broken('B', 'char_shuffled_targets', 4, ('labels',))
def char_shuffled_targets(seed):
    kw = char_transformer(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y.flatten()[torch.randperm(y.numel(), generator=_gen(seed + 7))].view_as(y)); return kw

# ---------------------------------------------------------------- half C: held out, written after the frozen-rules commit 86df774 (issue 32's second round)
class GATLayer(nn.Module):  # Velickovic et al.: attention over each node's neighbours, dense adjacency, several heads
    def __init__(self, fi, fo, heads=8, concat=True, dropout=0.6, alpha=0.2):
        super().__init__(); self.heads, self.fo, self.concat, self.dropout = heads, fo, concat, dropout
        self.W = nn.Linear(fi, heads * fo, bias=False)
        self.a_src, self.a_dst = nn.Parameter(torch.empty(heads, fo)), nn.Parameter(torch.empty(heads, fo))
        nn.init.xavier_uniform_(self.W.weight, gain=1.414); nn.init.xavier_uniform_(self.a_src, gain=1.414); nn.init.xavier_uniform_(self.a_dst, gain=1.414)
        self.leaky = nn.LeakyReLU(alpha)
    def forward(self, x, adj):
        h = self.W(x).view(-1, self.heads, self.fo)                                    # N, H, F
        e = self.leaky((h * self.a_src).sum(-1)[:, None, :] + (h * self.a_dst).sum(-1)[None, :, :])  # N, N, H
        e = e.masked_fill(adj[:, :, None] == 0, float('-inf'))
        att = F.dropout(torch.softmax(e, dim=1), self.dropout, self.training)
        out = torch.einsum('ijh,jhf->ihf', att, h)
        return out.reshape(-1, self.heads * self.fo) if self.concat else out.mean(1)

class GAT(nn.Module):
    def __init__(self, f=100, h=8, c=5, heads=8, dropout=0.6):
        super().__init__(); self.dropout = dropout
        self.l1, self.l2 = GATLayer(f, h, heads, True, dropout), GATLayer(h * heads, c, 1, False, dropout)
    def forward(self, x, adj):
        x = F.dropout(x, self.dropout, self.training)
        x = F.elu(self.l1(x, adj))
        x = F.dropout(x, self.dropout, self.training)
        return F.log_softmax(self.l2(x, adj), dim=1)

def _gat(seed, lr=0.005):
    x, adj, y, tr, va = _citation_graph(seed)
    one = lambda items: items[0]
    fwd = lambda model, b: (model(b[0], b[1])[b[3]], b[2][b[3]])
    return dict(model=GAT, train=DataLoader(_Graph(x, adj, y, tr), collate_fn=one), valid=DataLoader(_Graph(x, adj, y, va), collate_fn=one),
                forward=fwd, loss=F.nll_loss, num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=lr, weight_decay=5e-4), **_keys(seed, batch_size=1))

@healthy('C')
def gat(seed): return _gat(seed)

class CosinePairs(nn.Module):  # a pair network trained with CosineEmbeddingLoss: +1 same digit, -1 different
    def __init__(self):
        super().__init__(); self.embed = nn.Sequential(nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64))
    def forward(self, pair): return self.embed(pair[:, 0]), self.embed(pair[:, 1])

def cosine_pair_loss(out, y): return F.cosine_embedding_loss(out[0], out[1], y * 2 - 1, margin=0.3)

@healthy('C')
def cosine_pairs(seed):
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed + 31)
    return dict(model=CosinePairs, train=_pairs(x, y, 4096, g), valid=_pairs(vx, vy, 512, g), loss=cosine_pair_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

class NoGradProbe(nn.Module):  # a probe written the other common way: features under torch.no_grad(), nothing marked frozen
    def __init__(self, bias_only=False):
        super().__init__()
        self.features = nn.Sequential(nn.Flatten(), nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU())
        self.classifier = nn.Linear(128, 10)
        if bias_only: self.classifier.weight.requires_grad_(False)
    def forward(self, x):
        with torch.no_grad(): f = self.features(x)
        return self.classifier(f)

@healthy('C')
def probe_nograd(seed):
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=NoGradProbe, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

def _sentences(seed, n, V=100, T=20, C=4, split=0):
    "Token sequences whose class sets how often a few keywords appear (the rest is filler)."
    g = _gen(seed * 7 + split)
    y = torch.randint(0, C, (n,), generator=g)
    x = torch.randint(C * 5, V, (n, T), generator=g)
    k = torch.rand(n, T, generator=g) < 0.2  # a fifth of the words are keywords of the class
    x = torch.where(k, y[:, None] * 5 + torch.randint(0, 5, (n, T), generator=g), x)
    return x, y

class TextCNN(nn.Module):  # Kim 2014: embeddings, convolutions of widths 3-5, max over time, dropout
    def __init__(self, V=100, e=32, c=4, softmax=False):
        super().__init__(); self.emb = nn.Embedding(V, e); self.softmax = softmax
        self.convs = nn.ModuleList(nn.Conv1d(e, 16, k) for k in (3, 4, 5)); self.drop = nn.Dropout(0.5); self.fc = nn.Linear(48, c)
    def forward(self, x):
        h = self.emb(x).transpose(1, 2)
        h = torch.cat([F.relu(cv(h)).max(2).values for cv in self.convs], 1)
        o = self.fc(self.drop(h))
        return F.softmax(o, 1) if self.softmax else o

@healthy('C')
def textcnn(seed):
    (x, y), (vx, vy) = _sentences(seed, 3000), _sentences(seed, 600, split=1)
    return dict(model=TextCNN, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=4,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), **_keys(seed, batch_size=50))

class DAE(nn.Module):  # a denoising autoencoder: noise on the input in training, MSE to the clean image
    def __init__(self):
        super().__init__(); self.enc = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU()); self.dec = nn.Sequential(nn.Linear(32, 64), nn.Sigmoid())
    def forward(self, x):
        if self.training: x = x + 0.2 * torch.randn_like(x)
        return self.dec(self.enc(x))

@healthy('C')
def dae(seed):
    (x, _), (vx, _) = _digits(seed)
    return dict(model=DAE, train=TensorDataset(x, x.flatten(1)), valid=TensorDataset(vx, vx.flatten(1)), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed))

# broken variants of half C
@broken('C', 'textcnn_shuffled_labels', 4, ('labels',))
def textcnn_shuffled_labels(seed):
    kw = textcnn(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 11))]); return kw

@broken('C', 'textcnn_rolled_labels', 4, ('labels',))
def textcnn_rolled_labels(seed):  # labels misaligned by one row, as after a merge that dropped a header
    kw = textcnn(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y.roll(1)); return kw

@broken('C', 'textcnn_leak', 4, ('leakage',))
def textcnn_leak(seed):  # a validation set that re-uses a fifth of the train rows
    kw = textcnn(seed); x, y = kw['train'].tensors; vx, vy = kw['valid'].tensors
    kw['valid'] = TensorDataset(torch.cat([vx[:480], x[:120]]), torch.cat([vy[:480], y[:120]])); return kw

@broken('C', 'textcnn_softmax_before_ce', 2, ('softmax',))
def textcnn_softmax_before_ce(seed): return dict(textcnn(seed), model=lambda: TextCNN(softmax=True))

@broken('C', 'gat_lr_x1000', 3, ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def gat_lr_x1000(seed): return _gat(seed, lr=5.0)

@broken('C', 'probe_nograd_bias_only', 3, ('frozen', 'detached', 'stuck'))
def probe_nograd_bias_only(seed): return dict(probe_nograd(seed), model=lambda: NoGradProbe(bias_only=True))

@broken('C', 'cosine_pairs_lr_zero', 3, ('lr_zero', 'flat'))
def cosine_pairs_lr_zero(seed): return dict(cosine_pairs(seed), optimizer=lambda p: torch.optim.Adam(p, lr=0.0))

# ---------------------------------------------------------------- half D: held out from the third round of rules (frozen at d333db6)
def _standardise(x, ref): return (x - ref.mean(0)) / ref.std(0).clamp_min(1e-8)

def _sk_split(load, seed, frac=0.2):
    "An sklearn bundled set, split with the seed: (x, y) train and validation, as float and the target as loaded."
    d = load(); x, y = torch.tensor(d.data, dtype=torch.float32), torch.tensor(d.target)
    p = torch.randperm(len(x), generator=_gen(seed + 77)); x, y = x[p], y[p]
    k = int(len(x) * frac)
    return (x[k:], y[k:]), (x[:k], y[:k])

class TabularAE(nn.Module):  # an autoencoder on min-max scaled features: sigmoid output, MSE
    def __init__(self, d=30, h=16, z=4, big_head=False):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, z), nn.ReLU())
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d), nn.Sigmoid())
    def forward(self, x): return self.dec(self.enc(x))

@healthy('D')
def cancer_ae(seed):  # breast-cancer features scaled to [0, 1] (MinMaxScaler), reconstructed through a 4-unit bottleneck
    from sklearn.datasets import load_breast_cancer
    (x, _), (vx, _) = _sk_split(load_breast_cancer, seed)
    lo, hi = x.min(0).values, x.max(0).values
    x, vx = (x - lo) / (hi - lo), ((vx - lo) / (hi - lo)).clamp(0, 1)
    return dict(model=TabularAE, train=TensorDataset(x, x.clone()), valid=TensorDataset(vx, vx.clone()), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

def _diabetes(seed):
    "sklearn's diabetes regression, features and target standardised with the train split's statistics (StandardScaler)."
    from sklearn.datasets import load_diabetes
    (x, y), (vx, vy) = _sk_split(load_diabetes, seed); y, vy = y.float()[:, None], vy.float()[:, None]
    return (_standardise(x, x), _standardise(y, y)), (_standardise(vx, x), (vy - y.mean()) / y.std())

class RegMLP(nn.Module):
    def __init__(self, d=10, h=64): super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))
    def forward(self, x): return self.net(x)

@healthy('D')
def diabetes_mlp(seed):  # an MLP regression in standardised units, Adam 1e-3, MSE
    (x, y), (vx, vy) = _diabetes(seed)
    return dict(model=RegMLP, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

def _signals(seed, n, T=128, split=0):
    "Noisy sequences of three classes: a sine burst, a square burst or noise alone, at a random place."
    g = _gen(seed * 13 + split)
    y = torch.randint(0, 3, (n,), generator=g)
    t = torch.arange(T).float()
    x = 0.5 * torch.randn(n, 1, T, generator=g)
    start = torch.randint(0, T - 32, (n,), generator=g)
    f = 0.15 + 0.1 * torch.rand(n, generator=g)
    for i in range(n):
        s = int(start[i]); seg = t[s:s + 32] * f[i]
        if y[i] == 0: x[i, 0, s:s + 32] += torch.sin(seg)
        elif y[i] == 1: x[i, 0, s:s + 32] += torch.sign(torch.sin(seg))
    return x, y

class Conv1dNet(nn.Module):  # a 1D CNN on sequences: conv, batch norm, pooling, global average
    def __init__(self, c=3, softmax=False):
        super().__init__(); self.softmax = softmax
        self.f = nn.Sequential(nn.Conv1d(1, 16, 7, padding=3), nn.BatchNorm1d(16), nn.ReLU(), nn.MaxPool1d(2),
                               nn.Conv1d(16, 32, 5, padding=2), nn.BatchNorm1d(32), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten())
        self.fc = nn.Linear(32, c)
    def forward(self, x):
        o = self.fc(self.f(x)); return F.softmax(o, 1) if self.softmax else o

@healthy('D')
def conv1d_signals(seed):
    (x, y), (vx, vy) = _signals(seed, 1500), _signals(seed, 300, split=1)
    return dict(model=Conv1dNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=3,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

def _parity_tokens(seed, n, V=30, T=16, split=0):
    "Token sequences labelled by which of two marker tokens appears more often (ties broken by the first marker)."
    g = _gen(seed * 17 + split)
    x = torch.randint(2, V, (n, T), generator=g)
    m = torch.rand(n, T, generator=g) < 0.3
    which = torch.randint(0, 2, (n, T), generator=g)
    x = torch.where(m, which, x)
    y = ((x == 1).sum(1) > (x == 0).sum(1)).long()
    return x, y

class TinyTransformer(nn.Module):  # a small transformer encoder classifier: embeddings + positions, 2 layers, mean pooling
    def __init__(self, V=30, d=32, T=16, c=2):
        super().__init__()
        self.emb, self.pos = nn.Embedding(V, d), nn.Parameter(torch.zeros(1, T, d))
        layer = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.1, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False); self.norm = nn.LayerNorm(d); self.head = nn.Linear(d, c)
    def forward(self, x): return self.head(self.norm(self.enc(self.emb(x) + self.pos)).mean(1))

@healthy('D')
def tiny_transformer(seed):  # AdamW 3e-4, weight decay 0.01, as transformer recipes set it
    (x, y), (vx, vy) = _parity_tokens(seed, 3000), _parity_tokens(seed, 600, split=1)
    return dict(model=TinyTransformer, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=2,
                optimizer=lambda p: torch.optim.AdamW(p, lr=3e-4, weight_decay=0.01), **_keys(seed, batch_size=64))

def _hetero(seed, n, split=0):
    "y = sin(3x) + noise whose std grows with |x|: a heteroscedastic regression."
    g = _gen(seed * 19 + split)
    x = torch.rand(n, 1, generator=g) * 4 - 2
    return TensorDataset(x, torch.sin(3 * x) + (0.05 + 0.3 * x.abs()) * torch.randn(n, 1, generator=g))

class MeanVar(nn.Module):  # predicts a mean and a variance (softplus), trained with GaussianNLLLoss
    def __init__(self, h=64):
        super().__init__(); self.body = nn.Sequential(nn.Linear(1, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh()); self.mu, self.v = nn.Linear(h, 1), nn.Linear(h, 1)
    def forward(self, x): h = self.body(x); return self.mu(h), F.softplus(self.v(h)) + 1e-6

_gnll = nn.GaussianNLLLoss()
def gaussian_nll(out, y): return _gnll(out[0], y, out[1])

@healthy('D')
def hetero_gnll(seed):
    return dict(model=MeanVar, train=_hetero(seed, 2000), valid=_hetero(seed, 500, split=1), loss=gaussian_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

class WineNet(nn.Module):  # a tabular classifier with LayerNorm and dropout
    def __init__(self, d=13, h=64, c=3):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.LayerNorm(h), nn.GELU(), nn.Dropout(0.2), nn.Linear(h, h), nn.LayerNorm(h), nn.GELU(), nn.Dropout(0.2))
        self.head = nn.Linear(h, c)
    def forward(self, x): return self.head(self.net(x))

@healthy('D')
def wine_layernorm(seed):  # sklearn's wine, standardised, AdamW 3e-4
    from sklearn.datasets import load_wine
    (x, y), (vx, vy) = _sk_split(load_wine, seed)
    return dict(model=WineNet, train=TensorDataset(_standardise(x, x), y.long()), valid=TensorDataset(_standardise(vx, x), vy.long()), num_classes=3,
                optimizer=lambda p: torch.optim.AdamW(p, lr=3e-4), **_keys(seed, batch_size=16))

# broken variants of half D
@broken('D', 'conv1d_shuffled_labels', 4, ('labels',))
def conv1d_shuffled_labels(seed):
    kw = conv1d_signals(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 23))]); return kw

@broken('D', 'transformer_lr_x1000', 3, ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def transformer_lr_x1000(seed): return dict(tiny_transformer(seed), optimizer=lambda p: torch.optim.AdamW(p, lr=0.3, weight_decay=0.01))

@broken('D', 'conv1d_softmax_before_ce', 2, ('softmax',))
def conv1d_softmax_before_ce(seed): return dict(conv1d_signals(seed), model=lambda: Conv1dNet(softmax=True))

def _huge_last(m, k=100.0):
    with torch.no_grad(): m.net[-1].weight.mul_(k)
    return m

@broken('D', 'diabetes_huge_head', 2, ('init_scale',))
def diabetes_huge_head(seed): return dict(diabetes_mlp(seed), model=lambda: _huge_last(RegMLP()))

@broken('D', 'wine_softmax_before_ce', 2, ('softmax',))
def wine_softmax_before_ce(seed): return dict(wine_layernorm(seed), model=lambda: nn.Sequential(WineNet(), nn.Softmax(1)))

@broken('D', 'diabetes_shuffled_targets', 4, ('labels',))
def diabetes_shuffled_targets(seed):
    kw = diabetes_mlp(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 29))]); return kw

# ---------------------------------------------------------------- half E: held out, written after the frozen-rules commit 9d1d6da
@healthy('E')
def iris_logreg(seed):  # multinomial logistic regression on sklearn's iris, standardised, SGD 0.1
    from sklearn.datasets import load_iris
    (x, y), (vx, vy) = _sk_split(load_iris, seed)
    return dict(model=lambda: nn.Linear(4, 3), train=TensorDataset(_standardise(x, x), y.long()), valid=TensorDataset(_standardise(vx, x), vy.long()),
                num_classes=3, optimizer=lambda p: torch.optim.SGD(p, lr=0.1), **_keys(seed, batch_size=16))

def _moons(seed, n, split=0):
    from sklearn.datasets import make_moons
    x, y = make_moons(n_samples=n, noise=0.2, random_state=seed * 31 + split)
    return TensorDataset(torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)[:, None])

@healthy('E')
def moons_mlp(seed):  # the two-moons toy classifier: a Tanh MLP, one logit, BCEWithLogitsLoss, Adam 1e-2
    return dict(model=lambda: nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1)),
                train=_moons(seed, 1000), valid=_moons(seed, 300, split=1), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

def _friedman(seed):
    "sklearn's Friedman #1 regression (10 features, 5 used, noise 1), target standardised with the train split's statistics."
    from sklearn.datasets import make_friedman1
    x, y = make_friedman1(n_samples=2500, noise=1.0, random_state=seed)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)[:, None]
    (x, y), (vx, vy) = (x[500:], y[500:]), (x[:500], y[:500])
    return (x, (y - y.mean()) / y.std()), (vx, (vy - y.mean()) / y.std())

@healthy('E')
def friedman_mlp(seed):  # a SiLU MLP, SGD with momentum 0.9 at 0.01, MSE
    (x, y), (vx, vy) = _friedman(seed)
    return dict(model=lambda: nn.Sequential(nn.Linear(10, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1)),
                train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=32))

class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1, self.b1, self.c2, self.b2 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
    def forward(self, x): return F.relu(x + self.b2(self.c2(F.relu(self.b1(self.c1(x))))))

class TinyResNet(nn.Module):  # a stem, two residual blocks, global average pooling, a linear head
    def __init__(self, c=16, k=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.blocks, self.fc = nn.Sequential(ResBlock(c), ResBlock(c)), nn.Linear(c, k)
    def forward(self, x): return self.fc(self.blocks(self.stem(x.view(-1, 1, 8, 8))).mean((2, 3)))

@healthy('E')
def resnet_digits(seed):  # the CIFAR recipe: SGD 0.05, momentum 0.9, weight decay 5e-4
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=TinyResNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=10,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=5e-4), **_keys(seed, batch_size=64))

def _topic_docs(seed, n, V=500, T=24, K=4, split=0):
    "Documents of T tokens: a topic's own words (a slice of the vocabulary) mixed with common words, labelled by topic."
    g = _gen(seed * 37 + split)
    y = torch.randint(0, K, (n,), generator=g)
    own = (V // 2) // K
    topical = V // 2 + y[:, None] * own + torch.randint(0, own, (n, T), generator=g)
    common = torch.randint(0, V // 2, (n, T), generator=g)
    return torch.where(torch.rand(n, T, generator=g) < 0.3, topical, common), y

class BagClassifier(nn.Module):  # the text-classification tutorial's model: EmbeddingBag (mean) and a linear layer
    def __init__(self, V=500, d=64, K=4):
        super().__init__(); self.emb, self.fc = nn.EmbeddingBag(V, d, mode='mean'), nn.Linear(d, K)
        self.emb.weight.data.uniform_(-0.5, 0.5); self.fc.weight.data.uniform_(-0.5, 0.5); self.fc.bias.data.zero_()
    def forward(self, x): return self.fc(self.emb(x))

@healthy('E')
def embbag_topics(seed):  # SGD at lr 5, as the tutorial sets it
    (x, y), (vx, vy) = _topic_docs(seed, 4000), _topic_docs(seed, 800, split=1)
    return dict(model=BagClassifier, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=4,
                optimizer=lambda p: torch.optim.SGD(p, lr=5.0), **_keys(seed, batch_size=64))

# broken variants of half E
def _shuffled(kw, seed, salt):
    x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + salt))]); return kw

@broken('E', 'iris_shuffled_labels', 4, ('labels',))
def iris_shuffled_labels(seed): return _shuffled(iris_logreg(seed), seed, 41)

@broken('E', 'moons_shuffled_labels', 4, ('labels',))
def moons_shuffled_labels(seed): return _shuffled(moons_mlp(seed), seed, 43)

@broken('E', 'embbag_shuffled_labels', 4, ('labels',))
def embbag_shuffled_labels(seed): return _shuffled(embbag_topics(seed), seed, 47)

@broken('E', 'resnet_lr_x100', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def resnet_lr_x100(seed): return dict(resnet_digits(seed), optimizer=lambda p: torch.optim.SGD(p, lr=5.0, momentum=0.9, weight_decay=5e-4))

@broken('E', 'friedman_lr_zero', 3, ('lr_zero', 'flat'))
def friedman_lr_zero(seed): return dict(friedman_mlp(seed), optimizer=lambda p: torch.optim.SGD(p, lr=0.0, momentum=0.9))

# ---------------------------------------------------------------- half F: held out from the fifth round (rules frozen at 9c539f2)
def _wave_shapes(seed, n, L=24, split=0):
    "Sequences of L steps and 2 channels: one of 3 wave shapes (sine, square, sawtooth) at a random frequency and phase, noisy; labelled by shape."
    g = _gen(seed * 53 + split)
    y = torch.randint(0, 3, (n,), generator=g)
    u = ((1.5 + 2 * torch.rand(n, 1, generator=g)) * torch.linspace(0, 1, L)[None, :] + torch.rand(n, 1, generator=g)) % 1.0
    s = torch.stack([torch.sin(2 * math.pi * u), torch.sign(torch.sin(2 * math.pi * u)), 2 * u - 1], 1)[torch.arange(n), y]
    x = torch.stack([s, torch.zeros_like(s)], -1) + 0.3 * torch.randn(n, L, 2, generator=g)
    return x, y

class GRUClassifier(nn.Module):  # the last hidden state of a one-layer GRU, a linear head
    def __init__(self, d=2, h=32, k=3):
        super().__init__(); self.gru, self.fc = nn.GRU(d, h, batch_first=True), nn.Linear(h, k)
    def forward(self, x): _, h = self.gru(x); return self.fc(h[-1])

@healthy('F')
def gru_waves(seed):  # Adam 2e-3
    (x, y), (vx, vy) = _wave_shapes(seed, 1500), _wave_shapes(seed, 300, split=1)
    return dict(model=GRUClassifier, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), num_classes=3,
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

def _shop(seed, n, split=0):
    "Tabular rows: a store (20 values), a weekday (7) and 3 numbers; a purchase (0/1) more likely in some stores and days and with the numbers."
    g, gs = _gen(seed * 59 + split), torch.Generator().manual_seed(777 + seed)  # gs: the stores' and days' effects, shared by both splits
    se, de, w = 1.5 * torch.randn(20, generator=gs), torch.randn(7, generator=gs), torch.randn(3, generator=gs)
    store, day, num = torch.randint(0, 20, (n,), generator=g), torch.randint(0, 7, (n,), generator=g), torch.randn(n, 3, generator=g)
    y = (torch.rand(n, generator=g) < torch.sigmoid(se[store] + de[day] + num @ w)).float()
    return torch.cat([store[:, None].float(), day[:, None].float(), num], 1), y[:, None]

class EmbTabular(nn.Module):  # embeddings for the categorical columns, concatenated with the numbers, an MLP
    def __init__(self):
        super().__init__(); self.store, self.day = nn.Embedding(20, 6), nn.Embedding(7, 3)
        self.mlp = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.mlp(torch.cat([self.store(x[:, 0].long()), self.day(x[:, 1].long()), x[:, 2:]], 1))

@healthy('F')
def tabular_embeddings(seed):  # BCEWithLogitsLoss, Adam 1e-3
    (x, y), (vx, vy) = _shop(seed, 2000), _shop(seed, 500, split=1)
    return dict(model=EmbTabular, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

def _counts(seed, n, split=0):
    "Counts drawn from a Poisson whose log-rate is linear in 5 features."
    g = _gen(seed * 61 + split)
    x = torch.randn(n, 5, generator=g)
    return x, torch.poisson(torch.exp(0.8 + x @ torch.tensor([0.5, -0.4, 0.3, 0.0, 0.2])), generator=g)[:, None]

@healthy('F')
def poisson_counts(seed):  # a log-rate head, PoissonNLLLoss(log_input=True), SGD 0.01 with momentum
    (x, y), (vx, vy) = _counts(seed, 2000), _counts(seed, 500, split=1)
    return dict(model=lambda: nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1)), train=TensorDataset(x, y),
                valid=TensorDataset(vx, vy), loss=nn.PoissonNLLLoss(log_input=True),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=32))

class Denoiser1d(nn.Module):  # three 1-D convolutions: a noisy wave in, the clean wave out
    def __init__(self, c=16):
        super().__init__(); self.net = nn.Sequential(nn.Conv1d(1, c, 5, padding=2), nn.ReLU(), nn.Conv1d(c, c, 5, padding=2), nn.ReLU(), nn.Conv1d(c, 1, 5, padding=2))
    def forward(self, x): return self.net(x)

@healthy('F')
def denoise_1d(seed):  # the noisy wave in, the clean one out; MSE, Adam 1e-3
    def make(n, split):
        g = _gen(seed * 67 + split)
        y = torch.randint(0, 3, (n,), generator=g)
        u = ((1.5 + 2 * torch.rand(n, 1, generator=g)) * torch.linspace(0, 1, 32)[None, :] + torch.rand(n, 1, generator=g)) % 1.0
        clean = torch.stack([torch.sin(2 * math.pi * u), torch.sign(torch.sin(2 * math.pi * u)), 2 * u - 1], 1)[torch.arange(n), y][:, None]
        return TensorDataset(clean + 0.3 * torch.randn(clean.shape, generator=g), clean)
    return dict(model=Denoiser1d, train=make(1200, 0), valid=make(300, 1), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# broken variants of half F
@broken('F', 'gru_shuffled_labels', 4, ('labels',))
def gru_shuffled_labels(seed): return _shuffled(gru_waves(seed), seed, 53)

@broken('F', 'tabular_shuffled_labels', 4, ('labels',))
def tabular_shuffled_labels(seed): return _shuffled(tabular_embeddings(seed), seed, 59)

@broken('F', 'gru_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def gru_lr_x1000(seed): return dict(gru_waves(seed), optimizer=lambda p: torch.optim.Adam(p, lr=2.0))

@broken('F', 'poisson_leak', 4, ('leakage',))
def poisson_leak(seed):  # a validation set that re-uses a quarter of the train rows
    kw = poisson_counts(seed); x, y = kw['train'].tensors; vx, vy = kw['valid'].tensors
    kw['valid'] = TensorDataset(torch.cat([vx[:375], x[:125]]), torch.cat([vy[:375], y[:125]])); return kw

import ladder_gallery_g  # noqa: E402,F401  half G (held out from round 6) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_h  # noqa: E402,F401  half H (held out from round 7) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_i  # noqa: E402,F401  half I (held out from round 8, frozen at 5990922) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_j  # noqa: E402,F401  half J (held out from round 9, frozen at f13d9e5) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_k  # noqa: E402,F401  half K (held out from round 11) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_l  # noqa: E402,F401  half L (held out from round 12, frozen at aef8846) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_m  # noqa: E402,F401  half M (held out from round 14) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_n  # noqa: E402,F401  half N (held out from round 16, frozen at 560b7a3) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_o  # noqa: E402,F401  half O (held out from round 17, frozen at da5fe9f) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_p  # noqa: E402,F401  half P (held out from round 18, frozen at f7603b7) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_q  # noqa: E402,F401  half Q (held out from round 19, frozen at 624370a) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_r  # noqa: E402,F401  half R (held out from round 21, frozen at f8981be) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_s  # noqa: E402,F401  half S (held out from the rules frozen at 1627d81) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_t  # noqa: E402,F401  half T (held out from the rules frozen at efd91c4, round 25) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_u  # noqa: E402,F401  half U (held out from the rules frozen at round 26) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_v  # noqa: E402,F401  half V (held out from the rules frozen at round 28) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_w  # noqa: E402,F401  half W (held out from the rules frozen at round 29) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_x  # noqa: E402,F401  half X (held out from the rules frozen at round 31) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_y  # noqa: E402,F401  half Y (held out from the rules frozen at round 37) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_z  # noqa: E402,F401  half Z (held out from the rules frozen at round 39) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_aa  # noqa: E402,F401  half AA (held out from the rules frozen at round 41) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ab  # noqa: E402,F401  half AB (held out from the rules frozen at round 42) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ac  # noqa: E402,F401  half AC (held out from the rules frozen at round 44) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ad  # noqa: E402,F401  half AD (held out from the rules frozen at round 45) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ae  # noqa: E402,F401  half AE (held out from the rules frozen at round 46) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_af  # noqa: E402,F401  half AF (held out from the rules frozen at round 47) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ag  # noqa: E402,F401  half AG (held out from the rules frozen at round 47) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ah  # noqa: E402,F401  half AH (held out from the rules frozen at round 48) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ai  # noqa: E402,F401  half AI (held out from the rules frozen at round 49) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_aj  # noqa: E402,F401  half AJ (held out from the rules frozen at round 49) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ak  # noqa: E402,F401  half AK (held out from the rules frozen at round 51) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_al  # noqa: E402,F401  half AL (held out from the rules frozen at round 51) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_am  # noqa: E402,F401  half AM (held out from the rules frozen at round 52) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_an  # noqa: E402,F401  half AN (held out from the rules frozen at round 53) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ao  # noqa: E402,F401  half AO (held out from the rules frozen at round 53) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ap  # noqa: E402,F401  half AP (held out from the rules frozen at round 54) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_aq  # noqa: E402,F401  half AQ (held out from the rules frozen at round 54) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ar  # noqa: E402,F401  half AR (held out from the rules frozen at round 55) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_as  # noqa: E402,F401  half AS (held out from the rules frozen at round 55) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_at  # noqa: E402,F401  half AT (held out from the rules frozen at round 59) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_au  # noqa: E402,F401  half AU (held out from the rules frozen at round 59) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_av  # noqa: E402,F401  half AV (held out from the rules frozen at round 61) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_aw  # noqa: E402,F401  half AW (held out from the rules frozen at round 61) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ax  # noqa: E402,F401  half AX (held out from the rules frozen at round 62) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ay  # noqa: E402,F401  half AY (held out from the rules frozen at round 62) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_az  # noqa: E402,F401  half AZ (held out from the rules frozen at round 63) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_ba  # noqa: E402,F401  half BA (held out from the rules frozen at round 63) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_bb  # noqa: E402,F401  half BB (held out from the rules frozen at round 64) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_bc  # noqa: E402,F401  half BC (held out from the rules frozen at round 64) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_bd  # noqa: E402,F401  half BD (held out from the rules frozen at round 65) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_be  # noqa: E402,F401  half BE (held out from the rules frozen at round 65) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_bf  # noqa: E402,F401  half BF (held out from the rules frozen at round 67) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_bg  # noqa: E402,F401  half BG (held out from the rules frozen at round 67) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_bh  # noqa: E402,F401  half BH (held out from the rules frozen at round 68) registers itself into HEALTHY, BROKEN and HALF
import ladder_gallery_bi  # noqa: E402,F401  half BI (held out from the rules frozen at round 68) registers itself into HEALTHY, BROKEN and HALF
