"""Half V of the ladder's gallery: held out from the rules frozen at d12c8a2 (round 28), and run once on them.
Families not in halves A-U: a neural probabilistic language model (Bengio et al.: the concatenated embeddings of three
previous words, a tanh layer) with a class-factored softmax (Goodman; rnnlm's frequency-binned classes: P(class) times
P(word | class), the targets stored as (class, index in class), a tuple output and a loss of its own; SGD with momentum), a
neural addition unit feeding a neural multiplication unit (Madsen and Johansen's NAU and NMU, the successors of Trask et
al.'s NALU, the weights clamped into their ranges after each step in a custom step as stable-nalu) multiplying two sums of a
100-d input, ESPCN super-resolution of 4x4 digits to 8x8 (tanh convolutions, a sub-pixel pixel shuffle; flipped copies of
the training digits as augmentation), deep CCA (Andrew et al.: a sigmoid MLP a view, minus the sum of the batch's canonical
correlations as the loss, a tuple output and no target; RMSprop as Michaelvll/DeepCCA) of two noisy views of digits (a
rotated digit, another noisy image of the same digit), ProdLDA (Srivastava and Sutton: a Laplace-approximated Dirichlet
prior, batch-normalised shifts without scales, a product-of-experts decoder, a dict output; Adam with beta1 0.99 as theirs)
of bags of words from a synthetic LDA-like corpus, a deep equilibrium model (the tanh fixed point z = tanh(W z + U x) found by
forward iteration without a graph, then one differentiable step: Jacobian-free backprop) classifying digits, TARNet
(Shalit et al.: a shared ELU representation and one outcome head per treatment arm, the factual squared error, a batch of
three tensors) on a confounded IHDP-like observational study in raw outcome points, an interaction network (Battaglia et
al.: a relation MLP over (receiver, sender, spring), effects summed per object, an object MLP) predicting the accelerations
of spring systems of 3-8 masses (a collate_fn that concatenates the systems and offsets their edges), FGSM adversarial
training from a random start (Wong et al.'s "fast is better than free", a custom step) of a small CNN on digits, LightGCN
(He et al.: layer-averaged propagation of user and item embeddings over the normalised user-item graph, BPR with an L2 term)
trained full batch on one item holding every training interaction, its negatives drawn afresh on each access, a DeepSDF
auto-decoder (Park et al.: a latent code per shape learnt with the decoder, the L1 to the clamped distance and a code
regulariser, a tuple output) of 2-D shapes validated on held-out points of the same shapes, and a mask-estimating BLSTM
enhancing synthetic voiced speech in noise (log-magnitude features, a sigmoid mask per time-frequency bin, the masked
mixture's magnitude against the clean one). Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators;
ladder_gallery imports this module after half U.

Protocol: written by a helper in a worktree at 80d6f0d, held out from the rules frozen at d12c8a2 (round 28; written while round 28 was made, from a worktree at the commit before it): the maintainer read nothing of it before the freeze, and the helper wrote it without reading the
ladder's rules (ntrain/ladder/*.py, nbs/02_ladder and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the
rule tests) or any earlier sweep's results; only `ntrain.ladder`'s public signature and docstring and the factory format of
halves A-U (their @broken lines for the rung and cause conventions) were read. Each program was checked by hand only with a
plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant),
never with the ladder. Committed before any ladder run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half V`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import bisect, math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- a neural probabilistic LM with a class-factored softmax
V_W, C_W, N_CTX = 400, 20, 3

def _class_corpus(seed, n=24000, n_valid=4000):
    """A corpus over 400 words: each word has 8 likely successors (drawn by a Zipfian popularity, their weights skewed), 12% of
    the tokens drawn from the popularity itself. The vocabulary ranked by the train counts (the most frequent word id 0), the
    classes by frequency binning (rnnlm's: consecutive words of the ranking until another 1/20 of the square-rooted frequencies is
    covered)."""
    g = _gen(seed * 1259)
    pop = 1 / torch.arange(1, V_W + 1).float(); pop = pop / pop.sum()
    succ = torch.multinomial(pop.expand(V_W, V_W), 8, generator=g)
    wts = torch.rand(V_W, 8, generator=g) ** 3 + 0.02; cum = (wts / wts.sum(1, keepdim=True)).cumsum(1)
    succ, cum = succ.tolist(), cum.tolist()
    u, noise, rnd = torch.rand(n, generator=g).tolist(), (torch.rand(n, generator=g) < 0.12).tolist(), torch.multinomial(pop, n, replacement=True, generator=g).tolist()
    w = [0] * n
    for t in range(1, n): w[t] = rnd[t] if noise[t] else succ[w[t - 1]][min(bisect.bisect(cum[w[t - 1]], u[t]), 7)]
    w = torch.tensor(w)
    counts = torch.bincount(w[:n - n_valid], minlength=V_W).float()
    rank = torch.empty(V_W, dtype=torch.long); rank[counts.argsort(descending=True, stable=True)] = torch.arange(V_W)
    w = rank[w]; sq = (counts.sort(descending=True).values / counts.sum()).sqrt(); sq = (sq / sq.sum()).tolist()
    cls, a, df = [], 0, 0.0
    for p in sq:  # rnnlm's binning on the square roots of the frequencies: a word joins class a, a moves on once 1/20 more is covered
        df += p; cls.append(a)
        if df > (a + 1) / C_W and a < C_W - 1: a += 1
    cls = torch.tensor(cls)  # nondecreasing in the id: each class a contiguous range of ids
    start = torch.zeros(C_W, dtype=torch.long); start[1:] = torch.bincount(cls, minlength=C_W).cumsum(0)[:-1]
    ctx = torch.stack([w[k:len(w) - N_CTX + k] for k in range(N_CTX)], 1); y = w[N_CTX:]
    c = cls[y]; within = y - start[c]  # each target as (its class, its index inside the class), as the class-based toolkits store it
    cut = n - n_valid - N_CTX
    return TensorDataset(ctx[:cut], c[:cut], within[:cut]), TensorDataset(ctx[cut:], c[cut:], within[cut:]), cls

class ClassNPLM(nn.Module):  # Bengio et al. 2003 with the output factored through word classes: P(w | h) = P(c(w) | h) P(w | c(w), h)
    def __init__(self, word_class, d=32, h=128, softmax=False):
        super().__init__(); self.softmax = softmax
        start = torch.zeros(C_W, dtype=torch.long); size = torch.bincount(word_class, minlength=C_W); start[1:] = size.cumsum(0)[:-1]
        self.register_buffer('start', start); self.register_buffer('size', size)
        self.emb = nn.Embedding(V_W, d); self.hidden = nn.Linear(N_CTX * d, h)
        self.class_out = nn.Linear(h, C_W); self.word_out = nn.Linear(h, V_W)  # the word layer: only the target class's rows are scored
    def forward(self, ctx, c):  # c: the target's class, whose words alone the word layer scores
        h = torch.tanh(self.hidden(self.emb(ctx).flatten(1)))
        M = int(self.size.max())
        members = self.start[c][:, None] + torch.arange(M, device=ctx.device)[None]
        real = torch.arange(M, device=ctx.device)[None] < self.size[c][:, None]
        members = members.clamp(max=V_W - 1)
        word_logits = torch.einsum('bmh,bh->bm', self.word_out.weight[members], h) + self.word_out.bias[members]
        word_logits = word_logits.masked_fill(~real, -1e9); class_logits = self.class_out(h)
        if self.softmax: return class_logits.softmax(-1), word_logits.softmax(-1)  # "the model outputs the two distributions"
        return class_logits, word_logits

def _nplm_fwd(model, b):  # the target: (the word's class, its index inside the class)
    ctx, c, within = b; return model(ctx, c), torch.stack([c, within], 1)

def class_softmax_nll(out, t):  # -log P(c | h) - log P(w | c, h), per token
    class_logits, word_logits = out
    return F.cross_entropy(class_logits, t[:, 0]) + F.cross_entropy(word_logits, t[:, 1])

@healthy('V')
def nplm_class_softmax(seed, softmax=False):  # SGD 0.1 with momentum 0.9, batches of 128
    tr, va, cls = _class_corpus(seed)
    return dict(model=lambda: ClassNPLM(cls, softmax=softmax), train=tr, valid=va, forward=_nplm_fwd, loss=class_softmax_nll,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a neural addition unit and a neural multiplication unit multiplying two sums
def _arith(seed, n, split=0):
    "The static arithmetic task (Trask et al.; Madsen and Johansen): x uniform in [0, 1]^100, a = x[0:10].sum(), b = x[40:50].sum(); the target a * b."
    g = _gen(seed * 1277 + split)
    x = torch.rand(n, 100, generator=g)
    return TensorDataset(x, (x[:, 0:10].sum(1) * x[:, 40:50].sum(1))[:, None])

class NAU(nn.Module):  # Madsen and Johansen 2020: z = W x with W clamped to [-1, 1]; uniform init of half-width sqrt(3) sqrt(2 / (in + out)), at most 0.5
    def __init__(self, i, o):
        super().__init__(); self.W = nn.Parameter(torch.empty(o, i)); r = min(0.5, math.sqrt(3 * 2 / (i + o))); nn.init.uniform_(self.W, -r, r)
    def forward(self, x): return F.linear(x, self.W.clamp(-1, 1))

class NMU(nn.Module):  # z_j = prod_i (W_ij x_i + 1 - W_ij) with W clamped to [0, 1]; uniform init in [0.25, 0.75]
    def __init__(self, i, o):
        super().__init__(); self.W = nn.Parameter(torch.empty(o, i)); nn.init.uniform_(self.W, 0.25, 0.75)
    def forward(self, x): W = self.W.clamp(0, 1); return (W[None] * x[:, None] + 1 - W[None]).prod(-1)

def step_clamp(model, batch, opt):  # stable-nalu's loop: the step, then every unit's weights clamped back into their range in place
    x, y = batch
    opt.zero_grad(); loss = F.mse_loss(model(x), y); loss.backward(); opt.step()
    with torch.no_grad(): model[0].W.clamp_(-1, 1); model[1].W.clamp_(0, 1)
    return loss

@healthy('V')
def nau_nmu_multiply(seed, lr=1e-2):  # MSELoss, Adam 1e-2, batches of 64; an NAU of two hidden units, then an NMU
    return dict(model=lambda: nn.Sequential(NAU(100, 2), NMU(2, 1)), train=_arith(seed, 4000), valid=_arith(seed, 1000, split=1),
                loss=nn.MSELoss(), step=step_clamp, optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- ESPCN super-resolution of digits
def _sr_pairs(hr): return TensorDataset(F.avg_pool2d(hr, 2), hr)  # 4x4 inputs by 2x2 averaging, the 8x8 digits the targets

def _flips(x): return torch.cat([x, x.flip(-1), x.flip(-2), x.flip(-1, -2)])  # the usual SR augmentation: each image and its flipped copies

def _espcn_data(seed, glob_all=False):
    (x, _), (vx, _) = _digits(seed)
    if glob_all:  # the training images globbed recursively ('**/*.png') from the data folder, its valid/ subfolder with them
        x = torch.cat([x, vx])
    return _sr_pairs(_flips(x)), _sr_pairs(vx)

class ESPCN(nn.Module):  # Shi et al. 2016: conv 5x5 (64), tanh, conv 3x3 (32), tanh, conv 3x3 (r^2 channels), pixel shuffle
    def __init__(self, r=2):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 64, 5, padding=2), nn.Tanh(), nn.Conv2d(64, 32, 3, padding=1), nn.Tanh(), nn.Conv2d(32, r * r, 3, padding=1))
        self.shuffle = nn.PixelShuffle(r)
    def forward(self, x): return self.shuffle(self.body(x))

@healthy('V')
def espcn_digits(seed, glob_all=False):  # MSELoss, Adam 1e-3, batches of 64
    tr, va = _espcn_data(seed, glob_all=glob_all)
    return dict(model=ESPCN, train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- deep CCA of two views of digits
def _two_views(seed, x, y, split=0):
    """Wang et al.'s noisy two-view construction on digits: view 1 a digit rotated by a random angle in [-45, 45] degrees;
    view 2 another image of the same digit (drawn within the split) with uniform [0, 1] noise added, clipped at 1."""
    g = _gen(seed * 1307 + split); n = len(y)
    ang = (torch.rand(n, generator=g) - 0.5) * math.pi / 2
    theta = torch.stack([torch.stack([ang.cos(), -ang.sin(), torch.zeros(n)], 1), torch.stack([ang.sin(), ang.cos(), torch.zeros(n)], 1)], 1)
    v1 = F.grid_sample(x, F.affine_grid(theta, list(x.shape), align_corners=False), align_corners=False)
    partner = torch.empty(n, dtype=torch.long)
    for c in range(10):
        idx = (y == c).nonzero()[:, 0]; partner[idx] = idx[torch.randint(0, len(idx), (len(idx),), generator=g)]
    v2 = (x[partner] + torch.rand(x.shape, generator=g)).clamp(max=1)
    return TensorDataset(v1.flatten(1), v2.flatten(1))

class MlpNet(nn.Module):  # Michaelvll/DeepCCA's: Linear, Sigmoid and an affine-free BatchNorm per hidden layer, a linear output
    def __init__(self, sizes):
        super().__init__(); layers = []
        for a, b in zip(sizes[:-2], sizes[1:-1]): layers += [nn.Linear(a, b), nn.Sigmoid(), nn.BatchNorm1d(b, affine=False)]
        self.net = nn.Sequential(*layers, nn.Linear(sizes[-2], sizes[-1]))
    def forward(self, x): return self.net(x)

class DeepCCA(nn.Module):  # Andrew et al. 2013: one network a view, 10 outputs each
    def __init__(self, outdim=10):
        super().__init__(); self.model1, self.model2 = MlpNet([64, 256, 256, outdim]), MlpNet([64, 256, 256, outdim])
    def forward(self, x1, x2): return self.model1(x1), self.model2(x2)

def _dcca_fwd(model, b): v1, v2 = b; return model(v1, v2), torch.zeros(len(v1))  # no target: the two views are each other's

def cca_loss(out, _, r1=1e-3, r2=1e-3, eps=1e-9):  # minus the sum of the canonical correlations of the batch (DeepCCA's objectives.py, all outdim of them)
    H1, H2 = out[0].t(), out[1].t(); o, m = H1.size(0), H1.size(1)
    H1bar, H2bar = H1 - H1.mean(1, keepdim=True), H2 - H2.mean(1, keepdim=True)
    S12 = H1bar @ H2bar.t() / (m - 1)
    S11 = H1bar @ H1bar.t() / (m - 1) + r1 * torch.eye(o, device=H1.device); S22 = H2bar @ H2bar.t() / (m - 1) + r2 * torch.eye(o, device=H1.device)
    D1, V1 = torch.linalg.eigh(S11); D2, V2 = torch.linalg.eigh(S22)
    S11_inv_root = V1 @ torch.diag(D1.clamp_min(eps) ** -0.5) @ V1.t(); S22_inv_root = V2 @ torch.diag(D2.clamp_min(eps) ** -0.5) @ V2.t()
    T = S11_inv_root @ S12 @ S22_inv_root
    TT = T.t() @ T + r1 * torch.eye(o, device=H1.device)
    U = torch.linalg.eigvalsh(TT).clamp_min(eps)
    return -U.sqrt().sum()

@healthy('V')
def dcca_digit_views(seed):  # RMSprop 1e-3 with weight decay 1e-5 (the repository's), batches of 256
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=DeepCCA, train=_two_views(seed, x, y), valid=_two_views(seed, vx, vy, split=1), forward=_dcca_fwd, loss=cca_loss,
                optimizer=lambda p: torch.optim.RMSprop(p, lr=1e-3, weight_decay=1e-5), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- ProdLDA on a synthetic LDA corpus
K_T, V_T = 8, 300

def _lda_docs(seed, n_train=5000, n_valid=500, crossposted=0):
    """Eight topics, each a skewed distribution over 300 words; each document 40-120 words from a logistic-normal topic mixture
    (a few topics dominate); bags of word counts. `crossposted`: that many validation documents also posted in the train groups."""
    g = _gen(seed * 1283)
    beta = torch.rand(K_T, V_T, generator=g) ** 12; beta = beta / beta.sum(1, keepdim=True)
    docs = []
    for _ in range(n_train + n_valid):
        theta = torch.softmax(2.5 * torch.randn(K_T, generator=g), 0)
        L = int(torch.randint(40, 121, (1,), generator=g))
        docs.append(torch.bincount(torch.multinomial(theta @ beta, L, replacement=True, generator=g), minlength=V_T).float())
    x = torch.stack(docs); tr, va = x[:n_train], x[n_train:]
    if crossposted:  # the corpus read group by group: a message cross-posted to several groups is kept once per group
        tr = torch.cat([tr, va[:crossposted]]); tr = tr[torch.randperm(len(tr), generator=g)]
    return TensorDataset(tr, tr), TensorDataset(va, va)

class ProdLDA(nn.Module):  # Srivastava and Sutton 2017 (after hyqneuron's pytorch-avitm): softplus encoder, BN'd mean and log-variance, dropout on theta, BN'd decoder logits
    def __init__(self, V=V_T, K=K_T, h=100):
        super().__init__()
        self.en1, self.en2, self.drop = nn.Linear(V, h), nn.Linear(h, h), nn.Dropout(0.2)
        self.mean_fc, self.logvar_fc = nn.Linear(h, K), nn.Linear(h, K)
        self.mean_bn, self.logvar_bn = nn.BatchNorm1d(K), nn.BatchNorm1d(K)
        self.p_drop = nn.Dropout(0.2); self.decoder = nn.Linear(K, V); self.decoder_bn = nn.BatchNorm1d(V)
        nn.init.uniform_(self.decoder.weight, 0, 1.0)  # init_mult 1.0
        for bn in (self.mean_bn, self.logvar_bn, self.decoder_bn): bn.register_parameter('weight', None)  # "remove BN's scale parameters": shifts only
    def forward(self, x):
        h = self.drop(F.softplus(self.en2(F.softplus(self.en1(x)))))
        mean, logvar = self.mean_bn(self.mean_fc(h)), self.logvar_bn(self.logvar_fc(h))
        z = mean + (0.5 * logvar).exp() * torch.randn_like(mean)
        p = self.p_drop(torch.softmax(z, 1))
        return dict(recon=torch.softmax(self.decoder_bn(self.decoder(p)), 1), mean=mean, logvar=logvar)

def prodlda_loss(out, x):  # -sum x log p + KL(q || the Laplace approximation of a Dirichlet(1) prior in the softmax basis), the mean over documents
    K = out['mean'].size(1); prior_var = (1 - 2 / K) + 1 / K  # alpha = 1: the prior mean 0, the variance (1/a)(1 - 2/K) + sum(1/a)/K^2
    var = out['logvar'].exp()
    nl = -(x * (out['recon'] + 1e-10).log()).sum(1)
    kld = 0.5 * ((var / prior_var) + out['mean'] ** 2 / prior_var + (math.log(prior_var) - out['logvar'])).sum(1) - 0.5 * K
    return (nl + kld).mean()

@healthy('V')
def prodlda_topics(seed, crossposted=0):  # Adam 2e-3 with betas (0.99, 0.999) (the paper's), batches of 200
    tr, va = _lda_docs(seed, crossposted=crossposted)
    return dict(model=ProdLDA, train=tr, valid=va, loss=prodlda_loss, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3, betas=(0.99, 0.999)),
                **_keys(seed, batch_size=200))

# ---------------------------------------------------------------- a deep equilibrium model on digits
class TanhDEQ(nn.Module):  # z* = tanh(W z* + U x + b) by forward iteration under no_grad, then one step with the graph (Jacobian-free backprop)
    def __init__(self, h=128, iters=40, tol=1e-4, solver_only=False):
        super().__init__(); self.iters, self.tol, self.solver_only = iters, tol, solver_only
        self.inject, self.W, self.head = nn.Linear(64, h), nn.Linear(h, h, bias=False), nn.Linear(h, 10)
        nn.init.normal_(self.W.weight, 0, 0.5 / math.sqrt(h))  # the implicit-layers tutorial's small W: a contraction to start from
    def f(self, z, u): return torch.tanh(self.W(z) + u)
    @torch.no_grad()
    def solve(self, u):
        z = torch.zeros_like(u)
        for _ in range(self.iters):
            z_next = self.f(z, u)
            if (z_next - z).norm() < self.tol * (1 + z.norm()): return z_next
            z = z_next
        return z
    def forward(self, x):
        u = self.inject(x.flatten(1)); z = self.solve(u)
        if not self.solver_only: z = self.f(z, u)  # solver_only: "z* is the layer's output", the solver's no_grad result used as it is
        return self.head(z)

@healthy('V')
def deq_digits(seed, solver_only=False):  # CrossEntropyLoss, Adam 1e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: TanhDEQ(solver_only=solver_only), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(),
                num_classes=10, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- TARNet on an IHDP-like observational study
def _ihdp_like(seed, n=1500, n_valid=300, grouped=False):
    """25 covariates of infants and mothers (6 standardised continuous, 19 binary), a treatment assigned more often to some
    (confounded), outcomes (a cognitive test score, in points): mu0 linear in the covariates with a sine and an interaction,
    mu1 = mu0 + a heterogeneous effect of about 4 points, unit noise; the factual outcome of each infant observed."""
    g = _gen(seed * 1289)
    xc = torch.randn(n, 6, generator=g); xb = (torch.rand(n, 19, generator=g) < torch.rand(19, generator=g) * 0.6 + 0.2).float()
    x = torch.cat([xc, xb], 1)
    t = (torch.rand(n, generator=g) < torch.sigmoid(0.9 * xc[:, 0] - 0.6 * xc[:, 1] + 0.8 * xb[:, 0] - 0.4)).float()
    beta = torch.where(torch.rand(25, generator=g) < 0.6, torch.zeros(25), torch.randint(1, 5, (25,), generator=g).float() / 5)
    mu0 = 8 + x @ beta + 2 * torch.sin(2 * xc[:, 2]) + xc[:, 0] * xc[:, 1]; mu1 = mu0 + 4 + 1.5 * xc[:, 3] - xb[:, 1] + 0.8 * xc[:, 4] ** 2
    y = torch.where(t > 0, mu1, mu0) + torch.randn(n, generator=g)
    if grouped:  # the outcomes exported from the trial database arm by arm (treated first), pasted next to the covariates in infant order
        y = torch.cat([y[t > 0], y[t == 0]])
    return TensorDataset(x[n_valid:], t[n_valid:], y[n_valid:]), TensorDataset(x[:n_valid], t[:n_valid], y[:n_valid])

class TARNet(nn.Module):  # Shalit et al. 2017: three ELU layers of 200 for the representation, three of 100 for each arm's head
    def __init__(self, d=25, h_rep=200, h_out=100):
        super().__init__()
        self.rep = nn.Sequential(nn.Linear(d, h_rep), nn.ELU(), nn.Linear(h_rep, h_rep), nn.ELU(), nn.Linear(h_rep, h_rep), nn.ELU())
        head = lambda: nn.Sequential(nn.Linear(h_rep, h_out), nn.ELU(), nn.Linear(h_out, h_out), nn.ELU(), nn.Linear(h_out, 1))
        self.h0, self.h1 = head(), head()
    def forward(self, x, t):
        phi = self.rep(x)
        return torch.where(t[:, None] > 0, self.h1(phi), self.h0(phi))[:, 0]  # the factual arm's prediction

def _tarnet_fwd(model, b): x, t, y = b; return model(x, t), y

@healthy('V')
def tarnet_ihdp(seed, grouped=False):  # MSELoss on the factual outcome, Adam 1e-3 with weight decay 1e-4, batches of 100 (the paper's)
    tr, va = _ihdp_like(seed, grouped=grouped)
    return dict(model=TARNet, train=tr, valid=va, forward=_tarnet_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-4), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- an interaction network on spring systems
def _spring_systems(seed, n, split=0):
    """Systems of 3-8 point masses (0.5-2 kg) on a plane, each pair joined by a spring with probability 0.5 (stiffness 0.5-2.5,
    rest length 0.5-1.5), a viscous drag of 0.2 on each mass; the objects: position, velocity, mass; the relations: both
    directions of each spring with its stiffness and rest length; the target: each mass's acceleration."""
    g = _gen(seed * 1291 + split); items = []
    for _ in range(n):
        k = int(torch.randint(3, 9, (1,), generator=g))
        pos, vel, mass = torch.randn(k, 2, generator=g), 0.5 * torch.randn(k, 2, generator=g), 0.5 + 1.5 * torch.rand(k, generator=g)
        i, j = torch.triu_indices(k, k, 1); keep = torch.rand(len(i), generator=g) < 0.5
        if not keep.any(): keep[0] = True
        i, j = i[keep], j[keep]
        stiff, rest = 0.5 + 2 * torch.rand(len(i), generator=g), 0.5 + torch.rand(len(i), generator=g)
        d = pos[j] - pos[i]; dist = d.norm(dim=1, keepdim=True).clamp_min(1e-3)
        f = (stiff * (dist[:, 0] - rest))[:, None] * d / dist  # on i, towards j when stretched
        force = torch.zeros(k, 2).index_add_(0, i, f).index_add_(0, j, -f) - 0.2 * vel
        edges = torch.stack([torch.cat([i, j]), torch.cat([j, i])])  # (sender, receiver)
        items.append((torch.cat([pos, vel, mass[:, None]], 1), edges, torch.stack([stiff, rest], 1).repeat(2, 1), force / mass[:, None]))
    return items

class Systems(Dataset):
    def __init__(self, items): self.items = items
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]

def collate_systems(items):  # one disconnected graph per batch: objects concatenated, each system's edges offset by the objects before it
    objs, edges, rels, accs = zip(*items)
    off = torch.tensor([0] + [len(o) for o in objs[:-1]]).cumsum(0)
    return torch.cat(objs), torch.cat([e + o for e, o in zip(edges, off)], 1), torch.cat(rels), torch.cat(accs)

def _mlp_in(sizes): return nn.Sequential(*[m for a, b in zip(sizes[:-1], sizes[1:]) for m in (nn.Linear(a, b), nn.ReLU())][:-1])

class InteractionNetwork(nn.Module):  # Battaglia et al. 2016: phi_R on (receiver, sender, relation) -> an effect, summed per receiver; phi_O on (object, effects)
    def __init__(self, d_obj=5, d_rel=2, d_eff=50, normal_init=False):
        super().__init__()
        self.relational = _mlp_in([2 * d_obj + d_rel, 150, 150, 150, d_eff]); self.object = _mlp_in([d_obj + d_eff, 100, 2])
        if normal_init:  # "nn.init.normal_ for every Linear", its std 1.0 by default
            for m in self.modules():
                if isinstance(m, nn.Linear): nn.init.normal_(m.weight); nn.init.zeros_(m.bias)
    def forward(self, x, edges, rel):
        s, r = edges
        e = self.relational(torch.cat([x[r], x[s], rel], 1))
        agg = torch.zeros(len(x), e.size(1), device=x.device, dtype=e.dtype).index_add_(0, r, e)
        return self.object(torch.cat([x, agg], 1))

def _in_fwd(model, b): x, edges, rel, acc = b; return model(x, edges, rel), acc

@healthy('V')
def interaction_springs(seed, normal_init=False):  # MSELoss on the accelerations, Adam 1e-3, batches of 32 systems
    tr, va = Systems(_spring_systems(seed, 2000)), Systems(_spring_systems(seed, 400, split=1))
    return dict(model=lambda: InteractionNetwork(normal_init=normal_init), train=DataLoader(tr, batch_size=32, shuffle=True, collate_fn=collate_systems),
                valid=DataLoader(va, batch_size=100, collate_fn=collate_systems), forward=_in_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- FGSM adversarial training on digits
EPS_A, ALPHA_A = 0.1, 0.125

class SmallCNN(nn.Module):  # the fast-adversarial MNIST model, shrunk: two convolutions, a max pool, two linear layers
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Flatten(), nn.Linear(32 * 16, 100), nn.ReLU(), nn.Linear(100, 10))
    def forward(self, x): return self.net(x)

def step_fgsm(model, batch, opt, zero_grad=True):  # Wong et al. 2020: a uniform start in the eps-ball, one signed step of alpha, then the step on the perturbed batch
    x, y = batch
    delta = torch.empty_like(x).uniform_(-EPS_A, EPS_A).requires_grad_(True)
    F.cross_entropy(model(x + delta), y).backward()
    delta = (delta + ALPHA_A * delta.grad.sign()).clamp(-EPS_A, EPS_A).detach()
    x_adv = (x + delta).clamp(0, 1)
    if zero_grad: opt.zero_grad()  # the reference loop zeroes here: the attack's backward filled .grad
    loss = F.cross_entropy(model(x_adv), y); loss.backward(); opt.step()
    return loss

def step_fgsm_no_zero_grad(model, batch, opt): return step_fgsm(model, batch, opt, zero_grad=False)  # "delta is fresh each step": opt.zero_grad() dropped

@healthy('V')
def fgsm_digits(seed):  # CrossEntropyLoss on clean validation digits, Adam 1e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=SmallCNN, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10, step=step_fgsm,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- LightGCN, full batch
U_L, I_L = 300, 500

def _implicit_feedback(seed):
    """300 users, 500 items; each user has 10-40 interactions, picked by a rank-8 affinity plus item popularity with Gumbel
    noise; a fifth of each user's interactions held out for validation."""
    g = _gen(seed * 1297)
    pu, qi, pop = torch.randn(U_L, 8, generator=g), torch.randn(I_L, 8, generator=g), torch.randn(I_L, generator=g)
    score = pu @ qi.T / 2 + pop[None] - torch.log(-torch.log(torch.rand(U_L, I_L, generator=g)))
    tr_u, tr_i, va_u, va_i = [], [], [], []
    for u in range(U_L):
        k = int(torch.randint(10, 41, (1,), generator=g)); items = score[u].topk(k).indices
        items = items[torch.randperm(k, generator=g)]; nv = k // 5
        va_u += [u] * nv; va_i += items[:nv].tolist(); tr_u += [u] * (k - nv); tr_i += items[nv:].tolist()
    return torch.tensor(tr_u), torch.tensor(tr_i), torch.tensor(va_u), torch.tensor(va_i)

def _norm_adj(u, i):  # the symmetric normalised adjacency of the user-item bipartite graph, D^-1/2 A D^-1/2 (dense: 800 nodes)
    A = torch.zeros(U_L + I_L, U_L + I_L); A[u, U_L + i] = 1; A[U_L + i, u] = 1
    d = A.sum(1).clamp_min(1).rsqrt(); return d[:, None] * A * d[None]

class AllPairs(OneItem):  # every training interaction, one negative per positive drawn afresh on each access (an unseen item)
    def __init__(self, u, i, seen, fixed_g=None):
        super().__init__(u, i); self.seen = seen; self.fixed = None if fixed_g is None else self._neg(fixed_g)
    def _neg(self, g=None):
        u, _ = self.t; j = torch.randint(0, I_L, (len(u),), generator=g)
        for _ in range(20):
            bad = self.seen[u, j]
            if not bad.any(): break
            j[bad] = torch.randint(0, I_L, (int(bad.sum()),), generator=g)
        return j
    def __getitem__(self, k): u, i = self.t; return u, i, self.fixed if self.fixed is not None else self._neg()

class LightGCN(nn.Module):  # He et al. 2020: no weights but the 0th-layer embeddings; E_final = the mean of E, AE, A^2 E, A^3 E
    def __init__(self, adj, d=64, layers=3):
        super().__init__(); self.layers = layers
        self.emb = nn.Embedding(U_L + I_L, d); nn.init.normal_(self.emb.weight, std=0.1)
        self.register_buffer('adj', adj)
    def forward(self, u, i, j):
        e = self.emb.weight; out = [e]
        for _ in range(self.layers): e = self.adj @ e; out.append(e)
        e = torch.stack(out).mean(0)
        eu, ei, ej = e[u], e[U_L + i], e[U_L + j]
        reg = (self.emb.weight[u].pow(2).sum() + self.emb.weight[U_L + i].pow(2).sum() + self.emb.weight[U_L + j].pow(2).sum()) / 2 / len(u)
        return (eu * ei).sum(1), (eu * ej).sum(1), reg

def _lightgcn_fwd(model, b): u, i, j = b; return model(u, i, j), torch.ones(len(u))  # the target: the interacted item preferred

def bpr_reg_loss(out, pref, decay=1e-3):  # the official code's: mean softplus(neg - pos) + decay * the 0th-layer L2 of the batch (decay from the paper's grid)
    pos, neg, reg = out; return F.softplus(neg - pos).mean() + decay * reg

@healthy('V')
def lightgcn_full_batch(seed, graph_from_all=False):  # Adam 1e-2, one full batch of every training interaction a step
    tu, ti, vu, vi = _implicit_feedback(seed)
    seen = torch.zeros(U_L, I_L, dtype=torch.bool); seen[tu, ti] = True; seen[vu, vi] = True
    # graph_from_all: the interaction matrix loaded once for the graph, before the held-out fifth was split off
    adj = _norm_adj(torch.cat([tu, vu]), torch.cat([ti, vi])) if graph_from_all else _norm_adj(tu, ti)
    return dict(model=lambda: LightGCN(adj), train=DataLoader(AllPairs(tu, ti, seen), collate_fn=_one),
                valid=DataLoader(AllPairs(vu, vi, seen, fixed_g=_gen(seed * 1297 + 1)), collate_fn=_one), forward=_lightgcn_fwd, loss=bpr_reg_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- a DeepSDF auto-decoder of 2-D shapes
N_SH, Z_SH = 64, 16

def _sdf_rows(seed, header_ids=False):
    """64 shapes in [-1, 1]^2, each the union of two primitives (a disc or a rotated box, centre within 0.45 of the origin,
    size 0.15-0.45); about 400 points a shape with their signed distance, sampled as DeepSDF does: 360 near the surface
    (within 0.1 of it; fewer where 4000 uniform candidates do not give as many), 40 uniform in the square; 3/4 for training,
    the rest held out."""
    g = _gen(seed * 1301); tr, va = [], []
    for s in range(N_SH):
        prims = []
        for _ in range(2):
            c, size, ang = (torch.rand(2, generator=g) - 0.5) * 0.9, 0.15 + 0.3 * torch.rand(2, generator=g), float(torch.rand(1, generator=g)) * math.pi
            prims.append((c, size, ang, torch.rand(1, generator=g).item() < 0.5))
        def sdf(p):
            d = torch.full((len(p),), float('inf'))
            for c, size, ang, disc in prims:
                if disc: dist = (p - c).norm(dim=1) - size[0]
                else:
                    rot = torch.tensor([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
                    q = ((p - c) @ rot).abs() - size
                    dist = q.clamp_min(0).norm(dim=1) + q.max(1).values.clamp_max(0)
                d = torch.minimum(d, dist)
            return d
        cand = torch.rand(4000, 2, generator=g) * 2 - 1; near = cand[sdf(cand).abs() < 0.1]
        p = torch.cat([near[torch.randperm(len(near), generator=g)[:360]], torch.rand(40, 2, generator=g) * 2 - 1])
        p = p[torch.randperm(len(p), generator=g)]; d = sdf(p); k = len(p) * 3 // 4
        # header_ids: the train table's shape ids from enumerate() over the manifest's lines, its header line included
        tr.append((torch.full((k,), s + 1 if header_ids else s), p[:k], d[:k])); va.append((torch.full((len(p) - k,), s), p[k:], d[k:]))
    cat = lambda rows: TensorDataset(*[torch.cat(c) for c in zip(*rows)])
    return cat(tr), cat(va)

class SDFDecoder(nn.Module):  # Park et al. 2019, in 2-D: [code, x, y] -> 4 x 128 ReLU -> tanh; the codes N(0, 1/sqrt(16)) as their CodeInitStdDev
    def __init__(self, n_shapes=N_SH, z=Z_SH, h=128):
        super().__init__()
        self.codes = nn.Embedding(n_shapes, z); nn.init.normal_(self.codes.weight, 0, 1 / math.sqrt(z))
        self.mlp = nn.Sequential(nn.Linear(z + 2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1), nn.Tanh())
    def forward(self, ids, xy):
        code = self.codes(ids); return self.mlp(torch.cat([code, xy], 1))[:, 0], code

def _sdf_fwd(model, b): ids, xy, sdf = b; return model(ids, xy), sdf

def deepsdf_loss(out, sdf, delta=0.1, code_reg=1e-4):  # the L1 to the distance clamped at delta (the tanh output left as it is), plus code_reg |z|^2
    pred, code = out
    return (pred - sdf.clamp(-delta, delta)).abs().mean() + code_reg * code.pow(2).sum(1).mean()

@healthy('V')
def deepsdf_shapes(seed, header_ids=False):  # Adam 1e-3, batches of 256 samples
    tr, va = _sdf_rows(seed, header_ids=header_ids); n = N_SH + 1 if header_ids else N_SH  # the code table sized by the manifest's lines
    return dict(model=lambda: SDFDecoder(n_shapes=n), train=tr, valid=va, forward=_sdf_fwd, loss=deepsdf_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- a mask-estimating BLSTM enhancing voiced speech in noise
SR_E, NFFT_E, HOP_E, T_E = 8000, 128, 64, 32

def _noisy_speech(seed, n=1800, n_valid=300, text_sorted=False):
    """Voiced 'speech': 16 harmonics of a gliding f0 (90-260 Hz) shaped by two formants, a syllable-rate envelope; noise: white
    and brown noise and a hum; SNR -5 to 5 dB; 0.26 s at 8 kHz. Magnitude STFTs (128-point Hann, hop 64): 32 frames x 65 bins."""
    g = _gen(seed * 1303); L = HOP_E * (T_E - 1) + NFFT_E; t = torch.arange(L) / SR_E
    f0 = (90 + 170 * torch.rand(n, 1, generator=g)) * (1 + 0.3 * (torch.rand(n, 1, generator=g) - 0.5) * t / t[-1])
    F1, F2 = 300 + 600 * torch.rand(n, 1, generator=g), 900 + 1600 * torch.rand(n, 1, generator=g)
    rate, ph = 3 + 3 * torch.rand(n, 1, generator=g), 2 * math.pi * torch.rand(n, 1, generator=g)
    env = torch.sin(math.pi * rate * t + ph).abs() ** 1.5
    phase = 2 * math.pi * torch.cumsum(f0 / SR_E, 1)
    clean = torch.zeros(n, L)
    for h in range(1, 17):
        fh = f0 * h
        amp = (torch.exp(-((fh - F1) / 150) ** 2) + 0.6 * torch.exp(-((fh - F2) / 200) ** 2) + 0.05) / h ** 0.5 * (fh < SR_E / 2)
        clean += amp * torch.sin(h * phase + 2 * math.pi * torch.rand(n, 1, generator=g))
    clean = clean * env; clean = 0.1 * clean / clean.pow(2).mean(1, keepdim=True).sqrt()
    white = torch.randn(n, L, generator=g); brown = torch.cumsum(torch.randn(n, L, generator=g), 1); brown = brown - brown.mean(1, keepdim=True)
    hum = torch.sin(2 * math.pi * (50 + 10 * torch.rand(n, 1, 1, generator=g)) * torch.arange(1, 4).view(1, 3, 1) * t).sum(1)
    mix_w = torch.rand(n, 3, 1, generator=g)
    noise = mix_w[:, 0] * white / white.std(1, keepdim=True) + mix_w[:, 1] * brown / brown.std(1, keepdim=True) + mix_w[:, 2] * hum / hum.std(1, keepdim=True)
    snr = -5 + 10 * torch.rand(n, 1, generator=g)
    noise = noise / noise.pow(2).mean(1, keepdim=True).sqrt() * 0.1 * 10 ** (-snr / 20)
    mag = lambda w: torch.stft(w, NFFT_E, HOP_E, window=torch.hann_window(NFFT_E), center=False, return_complex=True).abs().transpose(1, 2)
    mix, cln = mag(clean + noise), mag(clean)
    if text_sorted:  # mixtures read from sorted(os.listdir('mix')) ('10.wav' before '2.wav'), clean files by their numbers
        mix = mix[sorted(range(n), key=lambda k: f'{k}.wav')]
    return TensorDataset(mix[n_valid:], cln[n_valid:]), TensorDataset(mix[:n_valid], cln[:n_valid])

class MaskBLSTM(nn.Module):  # log(1 + |Y|) in, two BLSTM layers of 64 a direction (dropout 0.3), a sigmoid mask; the masked mixture out
    def __init__(self, bins=NFFT_E // 2 + 1, h=64, functional_dropout=False):
        super().__init__(); self.functional_dropout = functional_dropout
        self.lstm = nn.LSTM(bins, h, 2, batch_first=True, bidirectional=True, dropout=0.3)
        self.drop = nn.Dropout(0.3); self.mask = nn.Linear(2 * h, bins)
    def forward(self, mag):
        h, _ = self.lstm(torch.log1p(mag))
        h = F.dropout(h, 0.3) if self.functional_dropout else self.drop(h)  # functional: F.dropout's training defaults to True
        return torch.sigmoid(self.mask(h)) * mag

@healthy('V')
def mask_enhance(seed, text_sorted=False, functional_dropout=False):  # MSELoss of the masked magnitude to the clean one (signal approximation), Adam 1e-3, batches of 32
    tr, va = _noisy_speech(seed, text_sorted=text_sorted)
    return dict(model=lambda: MaskBLSTM(functional_dropout=functional_dropout), train=tr, valid=va, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half V
@broken('V', 'tarnet_outcomes_grouped_by_arm', 4, ('labels',))
def tarnet_outcomes_grouped_by_arm(seed): return tarnet_ihdp(seed, grouped=True)

@broken('V', 'deepsdf_train_ids_from_header', 4, ('labels',))
def deepsdf_train_ids_from_header(seed): return deepsdf_shapes(seed, header_ids=True)

@broken('V', 'enhance_mixtures_text_sorted', 4, ('labels',))
def enhance_mixtures_text_sorted(seed): return mask_enhance(seed, text_sorted=True)

@broken('V', 'lightgcn_graph_with_heldout', 4, ('leakage',))
def lightgcn_graph_with_heldout(seed): return lightgcn_full_batch(seed, graph_from_all=True)

@broken('V', 'espcn_glob_includes_valid', 4, ('leakage',))
def espcn_glob_includes_valid(seed): return espcn_digits(seed, glob_all=True)

@broken('V', 'prodlda_crossposted_docs', 4, ('leakage',))
def prodlda_crossposted_docs(seed): return prodlda_topics(seed, crossposted=150)

@broken('V', 'enhance_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def enhance_functional_dropout(seed): return mask_enhance(seed, functional_dropout=True)

@broken('V', 'nplm_softmax_before_ce', 2, ('softmax',))
def nplm_softmax_before_ce(seed): return nplm_class_softmax(seed, softmax=True)

@broken('V', 'interaction_normal_init', 2, ('init_scale',))
def interaction_normal_init(seed): return interaction_springs(seed, normal_init=True)

@broken('V', 'fgsm_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def fgsm_no_zero_grad(seed): return dict(fgsm_digits(seed), step=step_fgsm_no_zero_grad)

@broken('V', 'nau_nmu_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def nau_nmu_lr_x1000(seed): return nau_nmu_multiply(seed, lr=10.0)

@broken('V', 'deq_solver_no_grad', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def deq_solver_no_grad(seed): return deq_digits(seed, solver_only=True)

# Plain-loop checks (seed 0, OMP_NUM_THREADS=1, the factory's optimizer and batch size; valid loss and metric, init -> after N epochs):
CHECKS = """
nplm_class_softmax            6 ep: valid -log P(word) 4.72 -> 3.01, 2.86, 2.81 (best, 3 ep), 2.84 at 6 ep (train 2.40); uniform log 400 = 5.99,
                              the train unigram 4.25, add-0.1 bigram counts 2.53; 20 classes of 2-99 words; 1.7 s an epoch
nau_nmu_multiply             10 ep: valid MSE 702 -> 0.477 (train 0.363); the train mean 44.5; seeds 1, 3: 0.48, 0.42
                              (a NALU with RMSprop 1e-2 tried first: stuck near 108 for 30 ep on seed 3, for 20 on seed 1)
espcn_digits                 10 ep: valid MSE 0.233 -> 0.0256; bicubic 0.0472, nearest 0.0488
dcca_digit_views             20 ep: valid minus the summed correlations (10 at most) -0.32 -> -4.47 (train -6.34), still falling
prodlda_topics               30 ep: valid loss (NLL + KL per document, 80 words) 460 -> 398 (perplexity of the reconstruction 134);
                              the train unigram 426 (perplexity 207); slow to start with beta1 0.99 (457 after 2 ep)
deq_digits                   10 ep: valid (2.333, acc 0.08) -> (0.274, 0.944), best 0.215; the solver meets its tolerance in 13
                              iterations at init, needs 107 after training (capped at 40)
tarnet_ihdp                  30 ep: valid factual MSE (points^2) 150.9 -> 4.13, still falling (train 3.04); the valid variance 12.3,
                              the arms' means 8.08, a linear model with treatment interactions 5.49; unit noise
interaction_springs          10 ep: valid MSE 9.57 -> 0.424 (best 0.424); predicting zero 9.54; 2227 validation objects
fgsm_digits                  12 ep: valid clean (2.308, acc 0.09) -> (0.105, 0.978); FGSM at eps 0.1 on the validation digits 0.803
lightgcn_full_batch         150 steps (one each): valid BPR + decay 0.694 -> 0.522 (best, 65 steps), 0.575 at 150; pairwise accuracy
                              against the fixed negatives 0.768, ranking by train popularity 0.721
deepsdf_shapes               15 ep: valid L1 0.089 -> 0.0142; a constant 0.052, the nearest train point of the same shape 0.0145;
                              (the prediction clamped as well at first: seed 1's tanh started above 0.1 everywhere, no gradient)
mask_enhance                  8 ep: valid MSE 0.258 -> 0.0368; the mixture as it is 0.621, silence 0.471, the ideal ratio mask 0.0047;
                              1.0-1.3 s an epoch
tarnet_outcomes_grouped_by_arm 30 ep: valid 198.8 -> 16-20, 18.96 at 30 ep (train 9.78) while healthy 4.13: above the valid variance
                              12.3; 3 of the 1500 infants keep their own outcome
deepsdf_train_ids_from_header 15 ep: valid 0.055 -> 0.051 after 1 ep, then rising to 0.074 (a constant 0.052) while train falls to
                              0.0133 (healthy valid 0.0142)
enhance_mixtures_text_sorted  8 ep: valid 0.532 -> 0.360 (healthy 0.0368; silence 0.471, the mixture 0.621); 2 of the 1800 rows keep
                              their own clean target
lightgcn_graph_with_heldout 150 steps: all 1395 validation interactions are edges of the propagation graph; valid 0.692 -> 0.314, still
                              falling (healthy 0.522 best, 0.575 at 150), pairwise accuracy 0.890 (healthy 0.768)
espcn_glob_includes_valid    all 360 validation digits in the training set (with their flips: 7188 training images for 5748); 10 ep:
                              valid 0.0244 (healthy 0.0256): a local model gains little from them
prodlda_crossposted_docs     150 of the 500 validation documents identical to a training document; 30 ep: valid 397.5 (healthy 398.1);
                              their reconstruction NLL 386.3 (healthy 387.4), the others' 392.8 (healthy 393.4)
enhance_functional_dropout   model.eval(): two calls on the same 64 clips differ by up to 0.35 at init, 1.44 after 8 ep (0 for the
                              healthy model); 8 ep: valid 0.0341
nplm_softmax_before_ce        6 ep: valid 7.35 -> 6.72 (healthy 2.81); its own probabilities give the valid words -log P 7.89, worse
                              than uniform (5.99)
interaction_normal_init      initial valid MSE 2.9e10 (healthy 9.57); 10 ep: 2.2e8
fgsm_no_zero_grad            12 ep: valid (2.308, 0.09) -> (0.66, 0.76), 0.51 at 4 ep (healthy 0.105, 0.978); train loss 2.10 at 12 ep
nau_nmu_lr_x1000             Adam 10: valid 702 -> 647.1 from the first epoch on, unchanged to the digit for 10 ep (train 623): the clamped
                              weights pinned to their bounds (healthy 0.477)
deq_solver_no_grad           inject.weight, inject.bias and W.weight get no gradient (3 of 5 tensors); 10 ep: valid (1.198, 0.892),
                              a linear head on random tanh features (healthy 0.274, 0.944)
"""
