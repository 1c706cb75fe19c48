"""Half T of the ladder's gallery: held out from the rules frozen at efd91c4 (round 25), and run once on them.
Families not in halves A-S: a linear-attention transformer (Katharopoulos et al.'s elu + 1 feature map, "transformers are
RNNs") classifying keyword sequences (AdamW), a maxout network on digits (dropout, SGD with momentum 0.5, each unit's weight
vector renormed to a max norm in a custom step, as pylearn2's), an HMM with neurally parameterised start, transition and
emission distributions trained by the forward algorithm's negative log-likelihood on variable-length sequences (a collate_fn
that pads, a custom step), APPNP (an MLP's predictions propagated by personalised PageRank) classifying the nodes of one
coauthor graph in one full-graph batch, a deep variational information bottleneck (VIB) on digits (a Gaussian encoder, a
linear decoder, twelve posterior samples in evaluation, Adam with beta1 0.5 as the paper), VICReg self-supervised pretraining
on two random views of each digit with an online linear classifier on the detached representation (a dict output), a Relation
Network answering relational and non-relational questions about Sort-of-CLEVR state descriptions (a g MLP over all object
pairs, an f MLP with dropout), a QRNN (masked convolutions and fo-pooling) classifying the polarity of variable-length reviews
with negations (RMSprop), a deep highway network on three interleaved spirals (transform gates biased to -2, SGD with
momentum), a zero-inflated Poisson regression of doctor visits, a child-sum Tree-LSTM regressing the value of arithmetic
expression trees (trees batched level by level by a collate_fn of its own, Adagrad 0.05 as Tai et al.) and a binarised neural
network (BinaryNet: sign weights and activations with straight-through gradients, latent weights clipped in a custom step) on
digits with shifted copies as augmentation. Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators;
ladder_gallery imports this module after half S.

Protocol: written by a helper in a worktree at efd91c4, held out from the rules frozen at efd91c4 (round 25): the maintainer
read nothing of it before the freeze, and the helper wrote it without reading the ladder's rules (ntrain/ladder/*.py,
nbs/02_ladder and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's
results; only `ntrain.ladder`'s public signature and docstring and the factory format of halves A-S (their @broken lines for
the rung and cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind
(shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before
any ladder run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half T`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from torch.nn.utils.rnn import pad_sequence
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- a linear-attention transformer on keyword sequences
V_K, T_K, C_K = 24, 32, 4  # ids 1-4 the keywords, 5-23 filler

def _keyword_seqs(seed, n, split=0):
    "Sequences of 32 tokens: 4-6 copies of one keyword, 0-3 of each other keyword, the rest filler; the label: the most frequent keyword."
    g = _gen(seed * 1093 + split)
    x = torch.randint(5, V_K, (n, T_K), generator=g); y = torch.randint(0, C_K, (n,), generator=g)
    for i in range(n):
        counts = torch.randint(0, 4, (C_K,), generator=g); counts[y[i]] = 4 + torch.randint(0, 3, (1,), generator=g)
        toks = torch.repeat_interleave(torch.arange(1, C_K + 1), counts)
        pos = torch.randperm(T_K, generator=g)[:len(toks)]; x[i, pos] = toks
    return TensorDataset(x, y)

class LinearAttention(nn.Module):  # Katharopoulos et al. 2020: phi(Q) (phi(K)^T V) / (phi(Q) . sum_j phi(K_j)), phi = elu + 1
    def __init__(self, d, heads=4, eps=1e-6):
        super().__init__(); self.h, self.eps = heads, eps; self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).unbind(2)
        q, k = F.elu(q) + 1, F.elu(k) + 1
        kv = torch.einsum('bthd,bthe->bhde', k, v)
        z = 1 / (torch.einsum('bthd,bhd->bth', q, k.sum(1)) + self.eps)
        return self.out((torch.einsum('bthd,bhde->bthe', q, kv) * z[..., None]).reshape(B, T, D))

class LinearBlock(nn.Module):  # the fast-transformers encoder layer: post-norm, a GELU feed-forward, dropout 0.1
    def __init__(self, d, ff, dropout=0.1):
        super().__init__(); self.attn = LinearAttention(d)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.GELU(), nn.Dropout(dropout), nn.Linear(ff, d))
        self.norm1, self.norm2, self.drop = nn.LayerNorm(d), nn.LayerNorm(d), nn.Dropout(dropout)
    def forward(self, x):
        x = self.norm1(x + self.drop(self.attn(x)))
        return self.norm2(x + self.drop(self.ff(x)))

class LinearTransformer(nn.Module):
    def __init__(self, d=32, layers=2, ff=64, softmax=False):
        super().__init__(); self.softmax = softmax
        self.emb, self.pos = nn.Embedding(V_K, d), nn.Parameter(0.02 * torch.randn(T_K, d))
        self.blocks = nn.Sequential(*[LinearBlock(d, ff) for _ in range(layers)]); self.head = nn.Linear(d, C_K)
    def forward(self, x):
        o = self.head(self.blocks(self.emb(x) + self.pos).mean(1))
        return F.softmax(o, -1) if self.softmax else o  # softmax: "the class probabilities", then CrossEntropyLoss on them

@healthy('T')
def linear_transformer_keywords(seed, softmax=False):  # CrossEntropyLoss, AdamW 5e-4 weight decay 0.01, batches of 64
    return dict(model=lambda: LinearTransformer(softmax=softmax), train=_keyword_seqs(seed, 1500), valid=_keyword_seqs(seed, 500, split=1),
                loss=nn.CrossEntropyLoss(), num_classes=C_K, optimizer=lambda p: torch.optim.AdamW(p, lr=5e-4, weight_decay=0.01),
                **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a maxout network with dropout and a max-norm constraint
class Maxout(nn.Module):  # Goodfellow et al. 2013: the max over k affine pieces
    def __init__(self, d_in, d_out, pieces=5): super().__init__(); self.d_out, self.k = d_out, pieces; self.lin = nn.Linear(d_in, d_out * pieces)
    def forward(self, x): return self.lin(x).view(-1, self.d_out, self.k).amax(-1)

class MaxoutNet(nn.Module):  # the paper's permutation-invariant MNIST net shrunk: two maxout layers of 240 units x 5 pieces, dropout 0.2 on the input and 0.5 after
    def __init__(self, h=240, pieces=5):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), Maxout(64, h, pieces), nn.Dropout(0.5), Maxout(h, h, pieces), nn.Dropout(0.5), nn.Linear(h, 10))
    def forward(self, x): return self.net(x)

def step_maxout(model, batch, opt, max_norm=1.9365):  # pylearn2's loop body: the step, then each unit's incoming weight vector renormed to at most 1.9365
    x, y = batch
    opt.zero_grad(); loss = F.cross_entropy(model(x), y); loss.backward(); opt.step()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.Linear): m.weight.copy_(torch.renorm(m.weight, 2, 0, max_norm))
    return loss

@healthy('T')
def maxout_digits(seed):  # CrossEntropyLoss, SGD 0.05 momentum 0.5, batches of 100, a custom step
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=MaxoutNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(),
                num_classes=10, step=step_maxout, optimizer=lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.5), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- an HMM with neural parameters, forward-algorithm NLL
K_H, V_H = 5, 20

def _hmm_sequences(seed, n, split=0):
    "Sequences of 8-30 symbols (ids 1-20; 0 pads) from a sticky 5-state HMM whose states emit mostly from their own 4 symbols."
    g = _gen(seed * 1097)
    trans = 0.7 * torch.eye(K_H) + 0.3 * torch.softmax(torch.randn(K_H, K_H, generator=g), 1)
    emit = torch.full((K_H, V_H), 0.1 / (V_H - 4))
    for s in range(K_H): emit[s, 4 * s:4 * s + 4] = 0.9 * torch.softmax(torch.randn(4, generator=g), 0)
    g = _gen(seed * 1097 + 1 + split); seqs = []
    for _ in range(n):
        L = int(torch.randint(8, 31, (1,), generator=g)); s = int(torch.randint(0, K_H, (1,), generator=g)); o = []
        for _ in range(L):
            o.append(1 + int(torch.multinomial(emit[s], 1, generator=g))); s = int(torch.multinomial(trans[s], 1, generator=g))
        seqs.append(torch.tensor(o))
    return seqs

class SeqList(Dataset):
    def __init__(self, seqs): self.seqs = seqs
    def __len__(self): return len(self.seqs)
    def __getitem__(self, i): return self.seqs[i]

def collate_symbols(seqs): return pad_sequence(seqs, batch_first=True, padding_value=0), torch.tensor([len(s) for s in seqs])

class NeuralHMM(nn.Module):  # Chiu and Rush 2020's parameterisation: state embeddings through MLPs give the start, transition and emission logits
    def __init__(self, K=8, V=V_H + 1, d=32):
        super().__init__()
        self.state, self.next, self.word = nn.Embedding(K, d), nn.Embedding(K, d), nn.Embedding(V, d)
        self.start_mlp = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 1))
        self.trans_mlp = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
        self.emit_mlp = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
    def forward(self, obs, lengths):  # the log-likelihood of each padded sequence by the forward algorithm in log space
        E = self.state.weight
        log_start = F.log_softmax(self.start_mlp(E)[:, 0], 0)
        log_trans = F.log_softmax(self.trans_mlp(E) @ self.next.weight.T, -1)
        log_emit = F.log_softmax(self.emit_mlp(E) @ self.word.weight[1:].T, -1)  # (K, 20): the padding id emits nothing
        em = log_emit[:, (obs - 1).clamp(min=0)].permute(1, 2, 0)  # (B, T, K)
        alpha = log_start + em[:, 0]
        for t in range(1, obs.size(1)):
            nxt = torch.logsumexp(alpha[:, :, None] + log_trans, 1) + em[:, t]
            alpha = torch.where((t < lengths)[:, None], nxt, alpha)
        return torch.logsumexp(alpha, -1)

def hmm_nll(loglik, lengths): return -loglik.sum() / lengths.sum()  # per symbol

def step_hmm(model, batch, opt, zero_grad=True):  # the training loop's body
    obs, lengths = batch
    if zero_grad: opt.zero_grad()
    loss = hmm_nll(model(obs, lengths), lengths)
    loss.backward(); opt.step()
    return loss

def step_hmm_no_zero_grad(model, batch, opt): return step_hmm(model, batch, opt, zero_grad=False)

def _hmm_fwd(model, b): obs, lengths = b; return model(obs, lengths), lengths

@healthy('T')
def neural_hmm_symbols(seed):  # AdamW 3e-3, batches of 32 sequences padded by the collate_fn, a custom step
    tr, va = SeqList(_hmm_sequences(seed, 1200)), SeqList(_hmm_sequences(seed, 300, split=1))
    return dict(model=NeuralHMM, train=DataLoader(tr, batch_size=32, shuffle=True, collate_fn=collate_symbols),
                valid=DataLoader(va, batch_size=100, collate_fn=collate_symbols), forward=_hmm_fwd, loss=hmm_nll, step=step_hmm,
                optimizer=lambda p: torch.optim.AdamW(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- APPNP on a coauthor graph
N_AP, C_AP, F_AP = 600, 5, 200

def _coauthor(seed, all_labelled=False):
    """600 authors in 5 fields; keyword features drawn weakly around the field's keywords; coauthor edges mostly within a field;
    A^ = D^-1/2 (A + I) D^-1/2; 20 labelled authors per field for training, 200 others for validation."""
    g = _gen(seed * 1103)
    y = torch.randint(0, C_AP, (N_AP,), generator=g)
    topics = torch.rand(C_AP, F_AP, generator=g) ** 3
    x = (torch.rand(N_AP, F_AP, generator=g) < 0.02 + 0.08 * topics[y] / topics.mean()).float()
    x = x / x.sum(1, keepdim=True).clamp_min(1)
    p = torch.where(y[:, None] == y[None], 0.025, 0.003)
    a = torch.triu((torch.rand(N_AP, N_AP, generator=g) < p).float(), 1); a = a + a.T + torch.eye(N_AP)
    d = a.sum(1).rsqrt(); adj = d[:, None] * a * d[None]
    perm = torch.randperm(N_AP, generator=g)
    tr, va = torch.zeros(N_AP, dtype=torch.bool), torch.zeros(N_AP, dtype=torch.bool)
    for c in range(C_AP): tr[perm[y[perm] == c][:20]] = True
    va[perm[~tr[perm]][:200]] = True
    if all_labelled: tr = y >= 0  # the train mask taken as "every node with a label", the validation nodes included
    return x, adj, y, tr, va

class APPNP(nn.Module):  # Klicpera et al. 2019: H = MLP(X), then K=10 steps of Z <- (1 - alpha) A^ Z + alpha H, alpha 0.1
    def __init__(self, hidden=64, K=10, alpha=0.1, dropout=0.5):
        super().__init__(); self.K, self.alpha, self.dropout = K, alpha, dropout
        self.lin1, self.lin2 = nn.Linear(F_AP, hidden), nn.Linear(hidden, C_AP)
    def forward(self, x, adj):
        h = F.relu(self.lin1(F.dropout(x, self.dropout, self.training)))
        h = self.lin2(F.dropout(h, self.dropout, self.training)); z = h
        for _ in range(self.K): z = (1 - self.alpha) * adj @ z + self.alpha * h
        return z

def _appnp_fwd(model, b): x, adj, y, mask = b; return model(x, adj)[mask], y[mask]

@healthy('T')
def appnp_nodes(seed, all_labelled=False):  # CrossEntropyLoss, Adam 1e-2 weight decay 5e-4 (PyG's example), one full-graph batch
    x, adj, y, tr, va = _coauthor(seed, all_labelled=all_labelled)
    return dict(model=APPNP, train=DataLoader(OneItem(x, adj, y, tr), collate_fn=_one), valid=DataLoader(OneItem(x, adj, y, va), collate_fn=_one),
                forward=_appnp_fwd, loss=nn.CrossEntropyLoss(), num_classes=C_AP,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2, weight_decay=5e-4), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- a deep variational information bottleneck on digits
class VIB(nn.Module):  # Alemi et al. 2017: a ReLU MLP encoder (1024-1024 in the paper, 512-512 here) to a K=256 Gaussian, std softplus(s - 5), a linear decoder
    def __init__(self, K=256, h=512, samples=12):
        super().__init__(); self.samples = samples
        self.enc = nn.Sequential(nn.Linear(64, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 2 * K)); self.dec = nn.Linear(K, 10)
    def forward(self, x):
        mu, s = self.enc(x.flatten(1)).chunk(2, -1); std = F.softplus(s - 5)
        n = 1 if self.training else self.samples  # evaluation averages the predictive over 12 posterior samples
        logp = F.log_softmax(self.dec(mu + std * torch.randn(n, *mu.shape)), -1)
        return torch.logsumexp(logp, 0) - math.log(n), mu, std

def vib_loss(beta=1e-3):  # the class's cross-entropy + beta KL(N(mu, std) || N(0, I))
    def loss(out, y):
        logp, mu, std = out
        kl = 0.5 * (mu ** 2 + std ** 2 - 2 * torch.log(std) - 1).sum(1).mean()
        return F.nll_loss(logp, y) + beta * kl
    return loss

@healthy('T')
def vib_digits(seed):  # Adam 1e-4 with betas (0.5, 0.999) (the paper's), batches of 100, beta 1e-3
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=VIB, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=vib_loss(),
                num_classes=10, optimizer=lambda p: torch.optim.Adam(p, lr=1e-4, betas=(0.5, 0.999)), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- VICReg on two views of each digit, an online linear classifier
def _view(x):  # a random shift of up to one pixel (zero padded), a random contrast in [0.7, 1.3], Gaussian noise 0.05
    sx, sy = torch.randint(0, 3, (2,)).tolist()
    v = F.pad(x, (1, 1, 1, 1))[:, sy:sy + 8, sx:sx + 8]
    return (v * (0.7 + 0.6 * torch.rand(1)) + 0.05 * torch.randn_like(v)).clamp(0, 1)

class TwoViews(Dataset):  # train: two random views of each digit; validation: the digit itself, twice
    def __init__(self, x, y, augment=True): self.x, self.y, self.augment = x, y, augment
    def __len__(self): return len(self.y)
    def __getitem__(self, i):
        x = self.x[i]
        return (_view(x), _view(x), self.y[i]) if self.augment else (x, x, self.y[i])

class VICReg(nn.Module):  # Bardes et al. 2022 as the official code: backbone, a 3-layer expander (BN-ReLU), an online linear classifier on the detached representation
    def __init__(self, detach_all=False):
        super().__init__(); self.detach_all = detach_all
        self.backbone = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32),
                                      nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.expander = nn.Sequential(nn.Linear(64, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, 256), nn.BatchNorm1d(256), nn.ReLU(),
                                      nn.Linear(256, 256))
        self.classifier = nn.Linear(64, 10)
    def forward(self, x1, x2):
        h1, h2 = self.backbone(x1), self.backbone(x2)
        if self.detach_all: h1, h2 = h1.detach(), h2.detach()  # "detach the representation for the online classifier", written above the expander
        return dict(z1=self.expander(h1), z2=self.expander(h2), logits=self.classifier(h1.detach()))

def vicreg_loss(out, y, sim=25.0, var=25.0, cov=1.0):  # invariance + variance + covariance terms, plus the online classifier's cross-entropy
    z1, z2 = out['z1'], out['z2']; N, D = z1.shape
    repr_loss = F.mse_loss(z1, z2)
    z1, z2 = z1 - z1.mean(0), z2 - z2.mean(0)
    std_loss = (F.relu(1 - torch.sqrt(z1.var(0) + 1e-4)).mean() + F.relu(1 - torch.sqrt(z2.var(0) + 1e-4)).mean()) / 2
    off = ~torch.eye(D, dtype=torch.bool)
    cov_loss = ((z1.T @ z1 / (N - 1))[off] ** 2).sum() / D + ((z2.T @ z2 / (N - 1))[off] ** 2).sum() / D
    return sim * repr_loss + var * std_loss + cov * cov_loss + F.cross_entropy(out['logits'], y)

def _vicreg_fwd(model, b): x1, x2, y = b; return model(x1, x2), y

@healthy('T')
def vicreg_digits(seed, detach_all=False):  # Adam 1e-3, batches of 128 (BatchNorm in the expander wants them large)
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: VICReg(detach_all=detach_all), train=TwoViews(x, y), valid=TwoViews(vx, vy, augment=False), forward=_vicreg_fwd,
                loss=vicreg_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a Relation Network on Sort-of-CLEVR state descriptions
OBJ_R = 4; ANS_R = 4 + 2 * OBJ_R  # answers: square, circle, yes, no, the 4 colours, counts 1-4

def _sort_of_clevr(seed, n_scenes, split=0, reshuffled=False):
    """Scenes of 4 objects of distinct colours, each (x, y, colour one-hot, shape one-hot); six questions a scene, one of each
    kind about an object of a random colour: its shape, is it on the left, is it at the top (non-relational); the colour of the
    object closest to it, of the object furthest from it, how many objects share its shape (relational)."""
    g = _gen(seed * 1109 + split)
    objs, qs, ans = [], [], []
    for _ in range(n_scenes):
        pos = torch.rand(OBJ_R, 2, generator=g); shape = torch.randint(0, 2, (OBJ_R,), generator=g)
        o = torch.cat([2 * pos - 1, torch.eye(OBJ_R), F.one_hot(shape, 2).float()], 1)  # coordinates centred to [-1, 1]
        dist = torch.cdist(pos, pos); sq, sa = [], []
        for kind in range(6):
            c = int(torch.randint(0, OBJ_R, (1,), generator=g))
            q = torch.zeros(OBJ_R + 2 + 3); q[c] = 1; q[OBJ_R + kind // 3] = 1; q[OBJ_R + 2 + kind % 3] = 1
            if kind == 0: a = int(shape[c])
            elif kind == 1: a = 2 if pos[c, 0] < 0.5 else 3
            elif kind == 2: a = 2 if pos[c, 1] < 0.5 else 3
            elif kind == 3: a = 4 + int((dist[c] + 9 * torch.eye(OBJ_R)[c]).argmin())
            elif kind == 4: a = 4 + int(dist[c].argmax())
            else: a = 3 + OBJ_R + int((shape == shape[c]).sum())
            sq.append(q); sa.append(a)
        if reshuffled:  # the questions shuffled within the scene "for variety" after the answer list was built
            sq = [sq[i] for i in torch.randperm(6, generator=g).tolist()]
        objs += [o] * 6; qs += sq; ans += sa
    return TensorDataset(torch.stack(objs), torch.stack(qs), torch.tensor(ans))

class RelationNet(nn.Module):  # Santoro et al. 2017: f(sum_ij g(o_i, o_j, q)); g four layers of 256 (128 here), f 256-256-dropout 0.5 (128 here)
    def __init__(self, d_obj=OBJ_R + 4, d_q=OBJ_R + 5, h=128, functional=False):
        super().__init__(); self.functional = functional
        self.g = nn.Sequential(nn.Linear(2 * d_obj + d_q, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.f1, self.f2, self.f3 = nn.Linear(h, h), nn.Linear(h, h), nn.Linear(h, ANS_R)
    def forward(self, objs, q):
        B, n, d = objs.shape
        oi, oj = objs[:, :, None].expand(B, n, n, d), objs[:, None].expand(B, n, n, d)
        pairs = torch.cat([oi, oj, q[:, None, None].expand(B, n, n, q.size(-1))], -1)
        h = self.g(pairs).sum((1, 2))
        h = F.relu(self.f2(F.relu(self.f1(h))))
        h = F.dropout(h) if self.functional else F.dropout(h, 0.5, self.training)  # functional: the reference FCOutputModel's `F.dropout(x)`
        return self.f3(h)

def _rn_fwd(model, b): objs, q, a = b; return model(objs, q), a

@healthy('T')
def relation_net_clevr(seed, reshuffled=False, functional=False):  # CrossEntropyLoss, Adam 2.5e-4 (the paper's), batches of 64
    return dict(model=lambda: RelationNet(functional=functional), train=_sort_of_clevr(seed, 800, reshuffled=reshuffled),
                valid=_sort_of_clevr(seed, 150, split=1), forward=_rn_fwd, loss=nn.CrossEntropyLoss(), num_classes=ANS_R,
                optimizer=lambda p: torch.optim.Adam(p, lr=2.5e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a QRNN classifying review polarity
V_Q, T_Q = 120, 28  # 0 pads; 1-3 negators, 4-23 positive, 24-43 negative, 44-119 neutral

def _reviews(seed, n, split=0, sorted_by_length=False):
    """Reviews of 10-28 words with a sentiment label: neutral words and 3-7 polar words, 90% of them agreeing with the label;
    a negator before a polar word flips the word written (a "not bad" in a positive review)."""
    g = _gen(seed * 1117 + split)
    x = torch.zeros(n, T_Q, dtype=torch.long); lengths = torch.randint(10, T_Q + 1, (n,), generator=g); y = torch.randint(0, 2, (n,), generator=g)
    for i in range(n):
        L = int(lengths[i]); w = torch.randint(44, V_Q, (L,), generator=g)
        for t in torch.randperm(L - 1, generator=g)[:int(torch.randint(3, 8, (1,), generator=g))].add(1).tolist():
            pos = (int(y[i]) == 1) == bool(torch.rand(1, generator=g).item() < 0.9)
            negated = torch.rand(1, generator=g).item() < 0.25
            if negated: w[t - 1] = int(torch.randint(1, 4, (1,), generator=g))
            w[t] = int(torch.randint(4, 24, (1,), generator=g)) if pos != negated else int(torch.randint(24, 44, (1,), generator=g))
        x[i, :L] = w
    if sorted_by_length:  # sorted by length for bucketing, the label column left in file order
        order = lengths.argsort(stable=True); x, lengths = x[order], lengths[order]
    return TensorDataset(x, lengths, y)

class QRNNLayer(nn.Module):  # Bradbury et al. 2016: a masked convolution (width 2) gives Z, F, O; fo-pooling c_t = f c_{t-1} + (1 - f) z, h_t = o c_t
    def __init__(self, d_in, h, k=2):
        super().__init__(); self.k, self.conv = k, nn.Conv1d(d_in, 3 * h, k)
    def forward(self, x):
        z, f, o = self.conv(F.pad(x.transpose(1, 2), (self.k - 1, 0))).chunk(3, 1)
        z, f, o = torch.tanh(z), torch.sigmoid(f), torch.sigmoid(o)
        c, hs = torch.zeros_like(z[:, :, 0]), []
        for t in range(z.size(2)): c = f[:, :, t] * c + (1 - f[:, :, t]) * z[:, :, t]; hs.append(o[:, :, t] * c)
        return torch.stack(hs, 1)

class QRNNClassifier(nn.Module):  # the paper's IMDb model shrunk: embeddings, two QRNN layers, dropout 0.3, the last word's state to a linear layer
    def __init__(self, e=32, h=48, dropout=0.3):
        super().__init__(); self.emb = nn.Embedding(V_Q, e, padding_idx=0)
        self.l1, self.l2, self.drop, self.fc = QRNNLayer(e, h), QRNNLayer(h, h), nn.Dropout(dropout), nn.Linear(h, 2)
    def forward(self, x, lengths):
        h = self.l2(self.drop(self.l1(self.drop(self.emb(x)))))
        return self.fc(self.drop(h[torch.arange(len(x)), lengths - 1]))

def _qrnn_fwd(model, b): x, lengths, y = b; return model(x, lengths), y

@healthy('T')
def qrnn_polarity(seed, sorted_by_length=False):  # CrossEntropyLoss, RMSprop 1e-3 alpha 0.9 weight decay 4e-6 (the paper's), batches of 32
    return dict(model=QRNNClassifier, train=_reviews(seed, 1200, sorted_by_length=sorted_by_length), valid=_reviews(seed, 500, split=1),
                forward=_qrnn_fwd, loss=nn.CrossEntropyLoss(), num_classes=2,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3, alpha=0.9, eps=1e-8, weight_decay=4e-6), **_keys(seed, batch_size=24))

# ---------------------------------------------------------------- a highway network on three spirals
def _spirals(seed, n, split=0):
    "Three interleaved spiral arms in the plane (radius 0-1, one turn), Gaussian noise 0.04."
    g = _gen(seed * 1123 + split)
    y = torch.randint(0, 3, (n,), generator=g); r = torch.rand(n, generator=g)
    th = y * 2 * math.pi / 3 + 2 * math.pi * r
    x = torch.stack([r * torch.cos(th), r * torch.sin(th)], 1) + 0.04 * torch.randn(n, 2, generator=g)
    return TensorDataset(x, y)

class HighwayLayer(nn.Module):  # Srivastava et al. 2015: y = H(x) T(x) + x (1 - T(x)), the transform gate's bias started at -2
    def __init__(self, d, gate_bias=-2.0):
        super().__init__(); self.H, self.T = nn.Linear(d, d), nn.Linear(d, d); nn.init.constant_(self.T.bias, gate_bias)
    def forward(self, x): t = torch.sigmoid(self.T(x)); return F.relu(self.H(x)) * t + x * (1 - t)

class HighwayNet(nn.Module):  # a 2-50 input layer, ten highway layers of 50, a linear classifier
    def __init__(self, d=50, depth=10):
        super().__init__(); self.inp = nn.Linear(2, d); self.layers = nn.Sequential(*[HighwayLayer(d) for _ in range(depth)]); self.out = nn.Linear(d, 3)
    def forward(self, x): return self.out(self.layers(F.relu(self.inp(x))))

@healthy('T')
def highway_spirals(seed, lr=0.1):  # CrossEntropyLoss, SGD 0.1 momentum 0.9, batches of 64
    return dict(model=HighwayNet, train=_spirals(seed, 1500), valid=_spirals(seed, 500, split=1), loss=nn.CrossEntropyLoss(), num_classes=3,
                optimizer=lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a zero-inflated Poisson regression of doctor visits
def _visits(seed, n=3000, n_valid=500, text_sorted=False):
    """Patients: age, sex, chronic conditions, insured, log income, distance to the clinic (km); some never visit (a logistic
    function of insurance, distance and age), the others visit Poisson(exp(0.2 + 0.3 chronic + 0.01 (age - 50) + 0.25 female))."""
    g = _gen(seed * 1129)
    age, female = 18 + 67 * torch.rand(n, generator=g), (torch.rand(n, generator=g) < 0.5).float()
    chronic = torch.poisson(0.5 + age / 40, generator=g); insured = (torch.rand(n, generator=g) < 0.7).float()
    income, dist = 10 + 0.5 * torch.randn(n, generator=g), 30 * torch.rand(n, generator=g) ** 2
    never = torch.sigmoid(0.5 - 1.5 * insured + 0.08 * dist - 0.02 * (age - 50))
    mu = torch.exp(0.2 + 0.3 * chronic + 0.01 * (age - 50) + 0.25 * female)
    y = torch.where(torch.rand(n, generator=g) < never, torch.zeros(n), torch.poisson(mu, generator=g))
    x = torch.stack([age, female, chronic, insured, income, dist], 1)
    if text_sorted:  # the covariate table exported sorted by patient id as text ('0', '1', '10', '100', ...), the visit counts in numeric id order
        x = x[sorted(range(n), key=str)]
    x = _std(x, x[n_valid:])
    return TensorDataset(x[n_valid:], y[n_valid:]), TensorDataset(x[:n_valid], y[:n_valid])

class ZIPNet(nn.Module):  # Lambert 1992 with an MLP: a shared body, the zero-inflation logit and the Poisson log-mean
    def __init__(self, d=6, h=32, normal_init=False):
        super().__init__(); self.body = nn.Sequential(nn.Linear(d, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh()); self.head = nn.Linear(h, 2)
        if normal_init:  # "a normal init": nn.init.normal_(m.weight) with its default std of 1.0
            for m in self.modules():
                if isinstance(m, nn.Linear): nn.init.normal_(m.weight); nn.init.zeros_(m.bias)
    def forward(self, x): logit_pi, log_mu = self.head(self.body(x)).unbind(-1); return logit_pi, log_mu

def zip_nll(out, y):  # -log P(y): zeros from either part, positive counts from the Poisson part only
    logit_pi, log_mu = out; mu = log_mu.exp()
    log_p0 = torch.logaddexp(logit_pi, -mu) - F.softplus(logit_pi)
    log_pk = -F.softplus(logit_pi) + y * log_mu - mu - torch.lgamma(y + 1)
    return -torch.where(y == 0, log_p0, log_pk).mean()

@healthy('T')
def zip_visits(seed, text_sorted=False, normal_init=False):  # Adam 1e-2, batches of 256; covariates standardised by the train split
    tr, va = _visits(seed, text_sorted=text_sorted)
    return dict(model=lambda: ZIPNet(normal_init=normal_init), train=tr, valid=va, loss=zip_nll, optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- a child-sum Tree-LSTM on arithmetic expression trees
OPS_T = ('+', 'max', 'min')  # token ids: digits 0-9, then the operators 10-12

def _expr(g, depth=0):
    "A random expression tree: an operator node at the root, leaves more likely deeper; at most three levels of operators."
    if depth > 0 and (depth == 3 or torch.rand(1, generator=g).item() < 0.55): return int(torch.randint(0, 10, (1,), generator=g))
    return (int(torch.randint(0, 3, (1,), generator=g)), _expr(g, depth + 1), _expr(g, depth + 1))

def _eval(t):
    if isinstance(t, int): return t
    a, b = _eval(t[1]), _eval(t[2]); return (a + b, max(a, b), min(a, b))[t[0]]

def _flatten(t):
    "Nodes in post-order: token, parent index (-1 at the root), height (0 at the leaves)."
    tok, par, hei = [], [], []
    def visit(t):
        if isinstance(t, int): tok.append(t); par.append(-1); hei.append(0); return len(tok) - 1
        kids = [visit(t[1]), visit(t[2])]; tok.append(10 + t[0]); par.append(-1); hei.append(1 + max(hei[k] for k in kids))
        for k in kids: par[k] = len(tok) - 1
        return len(tok) - 1
    visit(t)
    return torch.tensor(tok), torch.tensor(par), torch.tensor(hei)

class TreeList(Dataset):
    def __init__(self, trees): self.items = [(*_flatten(t), float(_eval(t)) / 10) for t in trees]  # the value in tens
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]

def collate_trees(items):  # the trees of a batch as one forest: node arrays concatenated, parent indices shifted, the roots' positions
    toks, pars, heis, roots, ys, off = [], [], [], [], [], 0
    for tok, par, hei, y in items:
        toks.append(tok); pars.append(torch.where(par >= 0, par + off, par)); heis.append(hei); roots.append(off + len(tok) - 1); ys.append(y)
        off += len(tok)
    return torch.cat(toks), torch.cat(pars), torch.cat(heis), torch.tensor(roots), torch.tensor(ys)

def _expression_data(seed, n=3500, n_valid=500, split_first=False):
    "Raw rows of expressions (shallow ones repeat); deduplicated by their text, then split."
    g = _gen(seed * 1151); raw = [_expr(g) for _ in range(n)]
    def dedup(ts): seen = {}; [seen.setdefault(repr(t), t) for t in ts]; return list(seen.values())
    if split_first:  # split the raw rows first, then deduplicate each split on its own: repeats land on both sides
        return dedup(raw[n_valid:]), dedup(raw[:n_valid])
    u = dedup(raw); p = torch.randperm(len(u), generator=_gen(seed * 1153)).tolist(); u = [u[i] for i in p]
    nv = len(u) // 7
    return u[nv:], u[:nv]

class ChildSumTreeLSTM(nn.Module):  # Tai et al. 2015: h~ = sum of the children's h; a forget gate per child; nodes computed level by level
    def __init__(self, V=13, e=32, h=64):
        super().__init__(); self.h = h; self.emb = nn.Embedding(V, e)
        self.W_iou, self.U_iou = nn.Linear(e, 3 * h), nn.Linear(h, 3 * h, bias=False)
        self.W_f, self.U_f = nn.Linear(e, h), nn.Linear(h, h, bias=False)
        self.out = nn.Sequential(nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 1))
    def forward(self, tok, par, hei, roots):
        x = self.emb(tok); n = len(tok)
        H, C = x.new_zeros(n, self.h), x.new_zeros(n, self.h)
        child = (par >= 0).nonzero()[:, 0]; cpar = par[child]
        for lvl in range(int(hei.max()) + 1):
            idx = (hei == lvl).nonzero()[:, 0]
            k = child[hei[cpar] == lvl]; p = par[k]  # the children of this level's nodes
            h_sum = x.new_zeros(n, self.h).index_add(0, p, H[k])[idx]
            f = torch.sigmoid(self.W_f(x[p]) + self.U_f(H[k]))
            fc = x.new_zeros(n, self.h).index_add(0, p, f * C[k])[idx]
            i, o, u = (self.W_iou(x[idx]) + self.U_iou(h_sum)).chunk(3, -1)
            c = torch.sigmoid(i) * torch.tanh(u) + fc
            H, C = H.index_copy(0, idx, torch.sigmoid(o) * torch.tanh(c)), C.index_copy(0, idx, c)
        return self.out(H[roots])[:, 0]

def _tree_fwd(model, b): tok, par, hei, roots, y = b; return model(tok, par, hei, roots), y

@healthy('T')
def tree_lstm_exprs(seed, split_first=False):  # MSELoss on the value in tens, Adagrad 0.05 weight decay 1e-4 (Tai et al.'s), batches of 25
    tr, va = _expression_data(seed, split_first=split_first)
    return dict(model=ChildSumTreeLSTM, train=DataLoader(TreeList(tr), batch_size=25, shuffle=True, collate_fn=collate_trees),
                valid=DataLoader(TreeList(va), batch_size=100, collate_fn=collate_trees), forward=_tree_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adagrad(p, lr=0.05, weight_decay=1e-4), **_keys(seed, batch_size=25))

# ---------------------------------------------------------------- a binarised neural network on digits
def _shift(x, g):  # each digit moved one pixel in a random direction (of 8), zero filled
    d = torch.randint(0, 8, (len(x),), generator=g); out = torch.empty_like(x)
    moves = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
    for k, (dy, dx) in enumerate(moves):
        m = d == k; v = F.pad(x[m], (1, 1, 1, 1)); out[m] = v[:, :, 1 - dy:9 - dy, 1 - dx:9 - dx]
    return out

def _augmented_digits(seed, augment_first=False):
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed * 1163)
    if augment_first:  # shifted copies of every digit made first, then the train/validation split of the enlarged set
        ax, ay = torch.cat([x, vx]), torch.cat([y, vy]); ax, ay = torch.cat([ax, _shift(ax, g)]), torch.cat([ay, ay])
        p = torch.randperm(len(ay), generator=g); ax, ay = ax[p], ay[p]
        return TensorDataset(ax[360:], ay[360:]), TensorDataset(ax[:360], ay[:360])
    return TensorDataset(torch.cat([x, _shift(x, g)]), torch.cat([y, y])), TensorDataset(vx, vy)

class BinarizeLinear(nn.Linear):  # BinaryNet.pytorch: sign(W) in the forward, straight-through to the real-valued W; inputs binarised after the first layer
    def __init__(self, *a, binarize_input=True, **kw): super().__init__(*a, **kw); self.binarize_input = binarize_input
    def forward(self, x):
        if self.binarize_input: x = x + (torch.sign(x) - x).detach()
        return F.linear(x, self.weight + (torch.sign(self.weight) - self.weight).detach(), self.bias)

class BNN(nn.Module):  # Courbariaux, Hubara et al. 2016's MNIST MLP as BinaryNet.pytorch writes it, shrunk: binary 64-512-512 (BatchNorm, Hardtanh), a real-valued 512-10 classifier
    def __init__(self, h=512):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), BinarizeLinear(64, h, binarize_input=False), nn.BatchNorm1d(h), nn.Hardtanh(),
                                 BinarizeLinear(h, h), nn.BatchNorm1d(h), nn.Hardtanh(), nn.Linear(h, 10))
    def forward(self, x): return self.net(x)

def step_bnn(model, batch, opt):  # the repository's loop body: the step on the real-valued weights, then clipped to [-1, 1]
    x, y = batch
    opt.zero_grad(); loss = F.cross_entropy(model(x), y); loss.backward(); opt.step()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, BinarizeLinear): m.weight.clamp_(-1, 1)
    return loss

@healthy('T')
def bnn_digits(seed, augment_first=False):  # CrossEntropyLoss, Adam 1e-2 (the repository's MNIST default), batches of 64, a custom step
    tr, va = _augmented_digits(seed, augment_first=augment_first)
    return dict(model=BNN, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=10, step=step_bnn,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half T
@broken('T', 'qrnn_reviews_sorted_by_length', 4, ('labels',))
def qrnn_reviews_sorted_by_length(seed): return qrnn_polarity(seed, sorted_by_length=True)

@broken('T', 'zip_covariates_text_sorted', 4, ('labels',))
def zip_covariates_text_sorted(seed): return zip_visits(seed, text_sorted=True)

@broken('T', 'relation_questions_reshuffled', 4, ('labels',))
def relation_questions_reshuffled(seed): return relation_net_clevr(seed, reshuffled=True)

@broken('T', 'appnp_valid_nodes_in_train', 4, ('leakage',))
def appnp_valid_nodes_in_train(seed): return appnp_nodes(seed, all_labelled=True)

@broken('T', 'tree_lstm_split_before_dedup', 4, ('leakage',))
def tree_lstm_split_before_dedup(seed): return tree_lstm_exprs(seed, split_first=True)

@broken('T', 'bnn_augmented_before_split', 4, ('leakage',))
def bnn_augmented_before_split(seed): return bnn_digits(seed, augment_first=True)

@broken('T', 'linear_transformer_softmax_before_ce', 2, ('softmax',))
def linear_transformer_softmax_before_ce(seed): return linear_transformer_keywords(seed, softmax=True)

@broken('T', 'relation_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def relation_functional_dropout(seed): return relation_net_clevr(seed, functional=True)

@broken('T', 'neural_hmm_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def neural_hmm_no_zero_grad(seed): return dict(neural_hmm_symbols(seed), step=step_hmm_no_zero_grad)

@broken('T', 'highway_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def highway_lr_x1000(seed): return highway_spirals(seed, lr=100.0)

@broken('T', 'zip_normal_init', 2, ('init_scale',))
def zip_normal_init(seed): return zip_visits(seed, normal_init=True)

@broken('T', 'vicreg_backbone_detached', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def vicreg_backbone_detached(seed): return vicreg_digits(seed, detach_all=True)

# Plain-loop checks (seed 0, OMP_NUM_THREADS=1, the factory's optimizer and batch size; valid loss and metric, init -> after N epochs):
CHECKS = """
linear_transformer_keywords   6 ep: valid (1.368, acc 0.28) -> (0.092, 0.998); chance 0.25; 0.4 s an epoch
maxout_digits                10 ep: valid (2.303, acc 0.12) -> (0.648, 0.883), still falling (train loss under dropout 1.12)
neural_hmm_symbols            8 ep: valid NLL per symbol 3.625 -> 2.537; the generating HMM's 2.427, the train unigram's 2.851
appnp_nodes                 200 steps (one each): valid (1.609, acc 0.17) -> (0.393, 0.960); chance 0.20
vib_digits                   10 ep: valid CE + 1e-3 KL 3.452 (acc 0.11) -> 0.551 (0.908); slow for 4 epochs (Adam 1e-4), then fast
vicreg_digits                10 ep: valid VICReg + online CE 27.06 -> 15.54, online linear classifier acc 0.09 -> 0.71; a linear probe fitted
                             afterwards on the frozen backbone 0.97 (0.64 on a random backbone)
relation_net_clevr           20 ep: valid (2.498, acc 0.05) -> (0.694, 0.622), still falling (train 0.74);
                             shape and count questions first, left/top and the closest/furthest colour slower; 0.45 s an epoch
qrnn_polarity                12 ep: valid (0.703, acc 0.49) -> (0.592, 0.686), 16 ep 0.704 (overfits: train 0.40); a bag-of-words
                             logistic regression 0.81 (negations flip the written polarity); 0.55 s an epoch
highway_spirals              30 ep: valid (1.111, acc 0.28) -> (0.184, 0.944); slow for 10 epochs, then fast
zip_visits                   12 ep: valid ZIP NLL 2.084 -> 1.233; the best constant ZIP 1.503
tree_lstm_exprs              10 ep: valid MSE (value in tens) 0.970 -> 0.0040; the valid variance 0.30; 0.3 s an epoch
bnn_digits                   10 ep: valid (2.475, acc 0.10) -> (0.177, 0.958)
qrnn_reviews_sorted_by_length 12 ep: valid acc 0.49-0.51, loss 0.703 -> 0.735 while train falls 0.69 -> 0.62 (healthy 0.686, 0.592);
                             94% of the rows moved by the sort, their labels not
zip_covariates_text_sorted   12 ep: valid 1.513 (the best constant 1.503; healthy 1.233)
relation_questions_reshuffled 20 ep: valid acc 0.20-0.22, loss 2.12 (healthy 0.622, 0.694)
appnp_valid_nodes_in_train   all 200 validation nodes are in the train mask; 200 steps: valid (0.306, acc 0.985) (healthy 0.393, 0.960)
tree_lstm_split_before_dedup 115 of the 470 validation expressions are also in train (healthy: 0 of 385); 10 ep: valid MSE 0.0058
bnn_augmented_before_split   330 of the 360 validation digits have their twin (the original or its shifted copy) in train; 10 ep:
                             valid (0.378, acc 0.911), a validation set of which half are shifted digits (healthy 0.177, 0.958)
linear_transformer_softmax_before_ce 6 ep: valid 1.380 -> 0.788 at acc 0.998 (healthy 0.092); the loss's floor log(1 + 3/e) = 0.744
relation_functional_dropout  model.eval(): two calls on the same 128 questions differ by up to 0.43 in the logits (0 for the healthy model)
neural_hmm_no_zero_grad       8 ep: valid 3.625 -> 2.93 after 1 ep, then 3.09-3.49 wandering (healthy 2.537)
highway_lr_x1000             SGD 100: train and valid NaN from the first epoch
zip_normal_init              initial valid NLL 149 (healthy 2.08; other seeds 27 and 1014); 12 ep: 3.39 (healthy 1.233)
vicreg_backbone_detached     all 12 backbone parameters get no gradient; 10 ep: valid 17.50, online classifier acc 0.34 (healthy 15.54, 0.71)
"""
