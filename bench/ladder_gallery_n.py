"""Half N of the ladder's gallery (issue 32): held out from the sixteenth round of rules, written after that round's freeze
(560b7a3) and run once. Families not in halves A-M: denoising score matching of a 2-D mixture (a noise-conditional score
network over geometric noise levels, the noise drawn afresh in a custom step), a conditional neural process (context points
encoded and averaged, a Gaussian decoder at the target points), an N-BEATS forecaster (generic blocks with backcast residuals,
the MAE), a SchNet-style network of continuous-filter convolutions predicting the energies of synthetic molecules from their
atoms' types and positions, a decomposable-attention (Parikh et al.) pair classifier on synthetic premise/hypothesis pairs,
behaviour cloning of a navigation expert (an MLP policy over four moves, from noise-injected demonstrations split by
trajectory), a character-level decoder-only transformer with ALiBi attention biases
(no position embeddings), a QA-style span extractor (a BiLSTM over the context conditioned on the question, start and end
logits), a ConvNeXt-style digits classifier (depthwise convolutions, channels-last LayerNorm, layer scale; AdamW with a
one-cycle warm-up and cosine decay), a negative-binomial claim-count regression with an exposure offset over raw policy
columns, a prototypical network trained on few-shot episodes of synthetic classes and validated on episodes of unseen ones,
and a dense-retrieval dual encoder trained with in-batch negatives (InfoNCE). Registered into ladder_gallery's
HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half M.

Protocol: written after the freeze (round 16, 560b7a3) without reading the ladder's rules (ntrain/ladder/*.py, nbs/02_ladder
and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's results; only
`ntrain.ladder`'s public signature and docstring and the factory format of halves A-M (their @broken lines for the rung and
cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a
few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before any ladder
run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 10 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half N`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- denoising score matching (NCSN-style) on a 2-D mixture
SIGMAS = torch.logspace(0, -1.3, 8)  # geometric from 1 to 0.05, sigma_1 about the largest distance between neighbouring modes (Song and Ermon 2019)

def _ring(seed, n, split=0):
    "Eight Gaussians on a circle of radius 2 (std 0.05); each point with a noise level index and a fixed noise draw (for validation)."
    g = _gen(seed * 503 + split)
    k = torch.randint(0, 8, (n,), generator=g).float()
    x = 2 * torch.stack([torch.cos(k * math.pi / 4), torch.sin(k * math.pi / 4)], 1) + 0.05 * torch.randn(n, 2, generator=g)
    return TensorDataset(x, torch.randint(0, len(SIGMAS), (n,), generator=g), torch.randn(n, 2, generator=g))

class ScoreNet(nn.Module):  # s(x~, sigma) = net(x~, log sigma) / sigma (NCSNv2's output scaling); forward returns net(...) = sigma s
    def __init__(self, h=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, h), nn.Softplus(), nn.Linear(h, h), nn.Softplus(), nn.Linear(h, h), nn.Softplus(), nn.Linear(h, 2))
    def forward(self, x_noisy, sigma): return self.net(torch.cat([x_noisy, sigma.log()[:, None]], 1))

def _dsm_fwd(model, b):  # the sigma^2-weighted DSM objective || sigma s(x + sigma eps) + eps ||^2 with the stored draws
    x, i, eps = b; sigma = SIGMAS[i]
    return model(x + sigma[:, None] * eps, sigma), -eps

def step_dsm(model, batch, opt):  # the NCSN loop: a fresh noise level and noise for every example at every step
    x, _, _ = batch
    sigma = SIGMAS[torch.randint(0, len(SIGMAS), (len(x),))]; eps = torch.randn_like(x)
    opt.zero_grad()
    loss = F.mse_loss(model(x + sigma[:, None] * eps, sigma), -eps); loss.backward(); opt.step()
    return loss

def step_dsm_no_zero_grad(model, batch, opt):  # the zero_grad lost when the step was rewritten to draw the noise itself
    x, _, _ = batch
    sigma = SIGMAS[torch.randint(0, len(SIGMAS), (len(x),))]; eps = torch.randn_like(x)
    loss = F.mse_loss(model(x + sigma[:, None] * eps, sigma), -eps); loss.backward(); opt.step()
    return loss

@healthy('N')
def dsm_scores(seed):  # MSELoss on sigma s + eps, Adam 2e-3, batches of 128, the custom step above
    return dict(model=ScoreNet, train=_ring(seed, 20000), valid=_ring(seed, 1000, split=1), forward=_dsm_fwd, loss=nn.MSELoss(),
                step=step_dsm, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a conditional neural process on random sinusoids
N_CTX, N_TGT = 10, 30

def _sine_tasks(seed, n, split=0):
    "Functions a sin(b x + c) + 0.05 noise on [-3, 3]; each task: 10 context points and 30 target points (the context among them)."
    g = _gen(seed * 509 + split)
    a, b, c = 0.5 + 1.5 * torch.rand(n, 1, generator=g), 0.5 + torch.rand(n, 1, generator=g), 2 * math.pi * torch.rand(n, 1, generator=g)
    xt = 6 * torch.rand(n, N_TGT, generator=g) - 3
    yt = a * torch.sin(b * xt + c) + 0.05 * torch.randn(n, N_TGT, generator=g)
    return TensorDataset(xt[:, :N_CTX, None], yt[:, :N_CTX, None], xt[:, :, None], yt[:, :, None])

class CNP(nn.Module):  # Garnelo et al. 2018: h over (x, y) pairs, mean aggregated into r, g(r, x*) -> (mu, sigma)
    def __init__(self, h=128, p=0.1, functional_dropout=False):
        super().__init__(); self.p, self.functional_dropout = p, functional_dropout
        self.enc = nn.Sequential(nn.Linear(2, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h))
        self.dec1, self.dec2 = nn.Sequential(nn.Linear(h + 1, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU()), nn.Linear(h, 2)
    def forward(self, xc, yc, xt):
        r = self.enc(torch.cat([xc, yc], -1)).mean(1, keepdim=True).expand(-1, xt.size(1), -1)
        h = self.dec1(torch.cat([r, xt], -1))
        h = F.dropout(h, self.p) if self.functional_dropout else F.dropout(h, self.p, training=self.training)
        mu, s = self.dec2(h).unbind(-1)
        return mu[..., None], 0.1 + 0.9 * F.softplus(s)[..., None]  # the lower bound on sigma as the DeepMind notebook

def _cnp_fwd(model, b): xc, yc, xt, yt = b; return model(xc, yc, xt), yt

def cnp_nll(out, yt): mu, sigma = out; return -torch.distributions.Normal(mu, sigma).log_prob(yt).mean()

@healthy('N')
def neural_process(seed, **mk):  # the Gaussian negative log-likelihood of the targets, Adam 1e-3, batches of 64 tasks
    return dict(model=lambda: CNP(**mk), train=_sine_tasks(seed, 4000), valid=_sine_tasks(seed, 800, split=1), forward=_cnp_fwd,
                loss=cnp_nll, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- N-BEATS (generic blocks)
L_BACK, H_FC = 48, 12

def _nbeats_windows(seed, n_series=120, length=240, split=0):
    """Series with a level, a piecewise trend, a weekly-like (7) and a monthly-like (30) seasonality and AR(1) noise; the
    windows (48 back, 12 ahead) taken every 6 steps, each scaled by its lookback's mean absolute value as the M4 code does."""
    g = _gen(seed * 521 + split)
    t = torch.arange(length).float()
    lvl, tr = 2 * torch.randn(n_series, 1, generator=g), 0.02 * torch.randn(n_series, 1, generator=g)
    a7, a30 = torch.rand(n_series, 1, generator=g), 1.5 * torch.rand(n_series, 1, generator=g)
    p7, p30 = 2 * math.pi * torch.rand(n_series, 1, generator=g), 2 * math.pi * torch.rand(n_series, 1, generator=g)
    e = 0.2 * torch.randn(n_series, length, generator=g); ar = torch.zeros_like(e)
    for k in range(1, length): ar[:, k] = 0.6 * ar[:, k - 1] + e[:, k]
    s = 5 + lvl + tr * t + a7 * torch.sin(2 * math.pi * t / 7 + p7) + a30 * torch.sin(2 * math.pi * t / 30 + p30) + ar
    w = s.unfold(1, L_BACK + H_FC, 6).reshape(-1, L_BACK + H_FC)
    scale = w[:, :L_BACK].abs().mean(1, keepdim=True)
    w = w / scale
    return TensorDataset(w[:, :L_BACK], w[:, L_BACK:])

class NBeatsBlock(nn.Module):
    def __init__(self, h=256, layers=4):
        super().__init__()
        fc, d = [], L_BACK
        for _ in range(layers): fc += [nn.Linear(d, h), nn.ReLU()]; d = h
        self.fc, self.theta_b, self.theta_f = nn.Sequential(*fc), nn.Linear(h, L_BACK), nn.Linear(h, H_FC)
    def forward(self, x): h = self.fc(x); return self.theta_b(h), self.theta_f(h)

class NBeats(nn.Module):  # Oreshkin et al. 2020, the generic architecture: doubly residual stacking of blocks
    def __init__(self, blocks=4, **kw):
        super().__init__(); self.blocks = nn.ModuleList(NBeatsBlock(**kw) for _ in range(blocks))
    def forward(self, x):
        f = 0
        for b in self.blocks: back, fc = b(x); x = x - back; f = f + fc
        return f

@healthy('N')
def nbeats_forecast(seed, lr=1e-3):  # L1Loss (the MAE), Adam 1e-3, batches of 256; train and validation from different series
    return dict(model=NBeats, train=_nbeats_windows(seed), valid=_nbeats_windows(seed, n_series=40, split=1), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- SchNet-style continuous-filter convolutions on synthetic molecules
N_ATOMS, N_TYPES = 9, 3

def _molecules(seed, n=2500, n_valid=500, flat=False, misjoined=False):
    """Nine atoms of three types placed at random (a minimum distance of 0.8 enforced by pushing pairs apart); the energy a
    sum of type-dependent pair terms (a repulsion and a Gaussian well), standardised with the train split's statistics."""
    g = _gen(seed * 523)
    z = torch.randint(0, N_TYPES, (n, N_ATOMS), generator=g)
    pos = 1.3 * torch.randn(n, N_ATOMS, 3, generator=g)
    for _ in range(20):
        d = pos[:, :, None] - pos[:, None]; r = d.norm(dim=-1) + torch.eye(N_ATOMS) * 10
        push = ((0.8 - r).clamp(min=0) / r.clamp(min=1e-3))[..., None] * d
        pos = pos + 0.5 * push.sum(2)
    r = (pos[:, :, None] - pos[:, None]).norm(dim=-1)
    gp = torch.Generator().manual_seed(9100)  # the pair parameters: chemistry, the same for every seed
    A, B = 1 + torch.rand(N_TYPES, N_TYPES, generator=gp), 1 + 2 * torch.rand(N_TYPES, N_TYPES, generator=gp)
    A, B = (A + A.T) / 2, (B + B.T) / 2
    zi, zj = z[:, :, None].expand(-1, -1, N_ATOMS), z[:, None, :].expand(-1, N_ATOMS, -1)
    pair = A[zi, zj] * torch.exp(-2 * r) * 4 - B[zi, zj] * torch.exp(-(r - 1.5) ** 2)
    e = (pair * (1 - torch.eye(N_ATOMS))).sum((1, 2)) / 2
    e = (e - e[n_valid:].mean()) / e[n_valid:].std()
    y = e if flat else e[:, None]  # flat: the energies kept as a vector (n,) against the model's (n, 1)
    ytr = y[n_valid:]
    if misjoined: ytr = ytr[torch.randperm(len(ytr), generator=_gen(seed + 527))]  # energies joined by row after the geometry file was re-sorted
    return TensorDataset(z[n_valid:], pos[n_valid:], ytr), TensorDataset(z[:n_valid], pos[:n_valid], y[:n_valid])

def ssp(x): return F.softplus(x) - math.log(2.0)  # SchNet's shifted softplus

class Interaction(nn.Module):  # cfconv: x_i + Dense(sum_j Dense(x_j) * W(r_ij)), W a filter network over RBF-expanded distances
    def __init__(self, d=64, n_rbf=32, cutoff=5.0):
        super().__init__(); self.cutoff = cutoff
        self.filt = nn.Sequential(nn.Linear(n_rbf, d), nn.Softplus(), nn.Linear(d, d))
        self.in2f, self.f2out, self.dense = nn.Linear(d, d, bias=False), nn.Linear(d, d), nn.Linear(d, d)
    def forward(self, x, rbf, r):
        c = 0.5 * (torch.cos(r * math.pi / self.cutoff) + 1) * (r < self.cutoff) * (1 - torch.eye(r.size(1)))  # cosine cutoff, no self-interaction
        W = self.filt(rbf) * c[..., None]  # (B, N, N, d)
        m = (self.in2f(x)[:, None, :, :] * W).sum(2)
        return x + self.dense(ssp(self.f2out(m)))

class SchNet(nn.Module):  # Schuett et al. 2017: atom embeddings, interactions, atom-wise MLP, summed into the energy
    def __init__(self, d=64, n_rbf=32, blocks=3, cutoff=5.0):
        super().__init__()
        self.emb = nn.Embedding(N_TYPES, d)
        self.register_buffer('mu', torch.linspace(0, cutoff, n_rbf)); self.gamma = 10.0
        self.blocks = nn.ModuleList(Interaction(d, n_rbf, cutoff) for _ in range(blocks))
        self.out = nn.Sequential(nn.Linear(d, d // 2), nn.Softplus(), nn.Linear(d // 2, 1))
    def forward(self, z, pos):
        r = (pos[:, :, None] - pos[:, None]).norm(dim=-1)
        rbf = torch.exp(-self.gamma * (r[..., None] - self.mu) ** 2)
        x = self.emb(z)
        for b in self.blocks: x = b(x, rbf, r)
        return self.out(x).mean(1)  # (B, 1): averaged over the atoms (schnetpack's aggregation_mode="avg"), every molecule has nine

def _schnet_fwd(model, b): z, pos, y = b; return model(z, pos), y

@healthy('N')
def schnet_molecules(seed, **data):  # MSELoss on the standardised energy, Adam 5e-4, batches of 32
    tr, va = _molecules(seed, **data)
    return dict(model=SchNet, train=tr, valid=va, forward=_schnet_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- decomposable attention on synthetic premise/hypothesis pairs
V_NLI, L_PREM, L_HYP = 80, 10, 4  # words 1-20 and their antonyms 21-40, fillers 41-79, 0 padding (unused)

def _nli_pairs(seed, n, split=0, shuffled=False):
    """Premises of 10 tokens (five content words, five fillers); hypotheses of 4 tokens made from the premise's content words:
    entailment (0) all from the premise, contradiction (1) one replaced by its antonym, neutral (2) one replaced by an unseen word."""
    g = _gen(seed * 541 + split)
    prem, hyp, y = torch.zeros(n, L_PREM, dtype=torch.long), torch.zeros(n, L_HYP, dtype=torch.long), torch.randint(0, 3, (n,), generator=g)
    for k in range(n):
        words = 1 + torch.randperm(20, generator=g)
        content = words[:5] + 20 * (torch.rand(5, generator=g) < 0.5).long()  # each concept as itself or its antonym
        p = torch.cat([content, 41 + torch.randint(0, 39, (5,), generator=g)])
        prem[k] = p[torch.randperm(L_PREM, generator=g)]
        h = content[torch.randperm(5, generator=g)[:L_HYP]].clone()
        j = int(torch.randint(0, L_HYP, (1,), generator=g))
        if y[k] == 1: h[j] = (h[j] + 19) % 40 + 1  # the antonym: w <-> w + 20
        elif y[k] == 2: h[j] = words[5 + j] + 20 * int(torch.rand(1, generator=g) < 0.5)  # a concept the premise does not mention
        hyp[k] = h
    if shuffled: y = y[torch.randperm(n, generator=_gen(seed + 547))]  # the labels file read in another order than the pairs file
    return TensorDataset(prem, hyp, y)

class DecomposableAttention(nn.Module):  # Parikh et al. 2016: attend (F), compare (G), aggregate (H)
    def __init__(self, e=50, h=100, k=3, p=0.1):
        super().__init__()
        self.emb = nn.Embedding(V_NLI, e); self.proj = nn.Linear(e, h, bias=False)
        mlp = lambda i: nn.Sequential(nn.Dropout(p), nn.Linear(i, h), nn.ReLU(), nn.Dropout(p), nn.Linear(h, h), nn.ReLU())
        self.F, self.G, self.H = mlp(h), mlp(2 * h), mlp(2 * h)
        self.out = nn.Linear(h, k)
    def forward(self, a, b):
        a, b = self.proj(self.emb(a)), self.proj(self.emb(b))
        e = self.F(a) @ self.F(b).transpose(1, 2)  # (B, La, Lb)
        beta, alpha = e.softmax(2) @ b, e.softmax(1).transpose(1, 2) @ a
        v1, v2 = self.G(torch.cat([a, beta], -1)).sum(1), self.G(torch.cat([b, alpha], -1)).sum(1)
        return self.out(self.H(torch.cat([v1, v2], -1)))

def _nli_fwd(model, b): p, h, y = b; return model(p, h), y

@healthy('N')
def decomp_attention_nli(seed, shuffled=False):  # CrossEntropyLoss, Adam 1e-3 (the paper's Adagrad 0.05 leans on GloVe), batches of 32
    return dict(model=DecomposableAttention, train=_nli_pairs(seed, 12000, shuffled=shuffled), valid=_nli_pairs(seed, 600, split=1),
                forward=_nli_fwd, loss=nn.CrossEntropyLoss(), num_classes=3,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- behaviour cloning of a navigation expert
MOVES = torch.tensor([[0.0, 0.15], [0.0, -0.15], [-0.15, 0.0], [0.15, 0.0]])  # up, down, left, right

def _expert(pos, goal):
    "The expert: the move that most lowers a potential field (the distance to the goal plus a repulsion from a disc of radius 1 at the origin)."
    nxt = pos[:, None] + MOVES
    r = nxt.norm(dim=-1)
    pot = (nxt - goal[:, None]).norm(dim=-1) + 0.8 * torch.exp(-4 * (r - 1).clamp(min=0)) + 5 * (r < 1)
    return pot.argmin(1)

def _demos(seed, n_traj, split=0, T=40, eps=0.25):
    """Demonstrations: rollouts from random starts towards random goals on either side of the obstacle, the expert's action
    recorded at every state; a random action taken instead a quarter of the time (as DART's noise injection) so the
    states cover the expert's mistakes. Observations: position, goal, and the vector to the goal, raw."""
    g = _gen(seed * 599 + split)
    ang = 2 * math.pi * torch.rand(n_traj, generator=g)
    pos = (2 + 1.5 * torch.rand(n_traj, 1, generator=g)) * torch.stack([ang.cos(), ang.sin()], 1)
    goal = -(2 + 1.5 * torch.rand(n_traj, 1, generator=g)) * torch.stack([(ang + 0.6 * torch.randn(n_traj, generator=g)).cos(), (ang + 0.6 * torch.randn(n_traj, generator=g)).sin()], 1)
    obs, act = [], []
    for _ in range(T):
        a = _expert(pos, goal)
        obs.append(torch.cat([pos, goal, goal - pos], 1)); act.append(a)
        rnd = torch.rand(n_traj, generator=g) < eps
        taken = torch.where(rnd, torch.randint(0, 4, (n_traj,), generator=g), a)
        pos = pos + MOVES[taken]
    return TensorDataset(torch.cat(obs), torch.cat(act))  # the split is by trajectory: train and validation rollouts are different

class Policy(nn.Module):  # an MLP policy over the four moves
    def __init__(self, h=128):
        super().__init__(); self.net = nn.Sequential(nn.Linear(6, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 4))
    def forward(self, obs): return self.net(obs)

@healthy('N')
def bc_policy(seed):  # CrossEntropyLoss on the expert's moves, Adam 3e-4 (the imitation-learning libraries' default), batches of 64
    return dict(model=Policy, train=_demos(seed, 200), valid=_demos(seed, 50, split=1), loss=nn.CrossEntropyLoss(), num_classes=4,
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a character-level transformer LM with ALiBi
LM_CHARS = " abcdefghijklmnopqrstuvwxyz.,"
V_CHAR, T_ALIBI = len(LM_CHARS), 64

def _char_text(seed, n_words):
    "Words from a lexicon of 60 made-up words chained by a sparse bigram table; a full stop every 6-12 words."
    g = _gen(seed * 557)
    gl = torch.Generator().manual_seed(9200 + seed)
    lex = [''.join(LM_CHARS[1 + int(c)] for c in torch.randint(0, 26, (int(torch.randint(2, 8, (1,), generator=gl)),), generator=gl)) for _ in range(60)]
    nxt = torch.randint(0, 60, (60, 3), generator=gl)
    w, out, k = 0, [], 0
    for i in range(n_words):
        w = int(nxt[w, torch.randint(0, 3, (1,), generator=g)]) if torch.rand(1, generator=g) < 0.85 else int(torch.randint(0, 60, (1,), generator=g))
        out.append(lex[w]); k += 1
        if k > 5 and torch.rand(1, generator=g) < 0.2: out[-1] += '.'; k = 0
        elif torch.rand(1, generator=g) < 0.05: out[-1] += ','
    return torch.tensor([LM_CHARS.index(c) for c in ' '.join(out)])

def _char_chunks(s):
    n = (len(s) - 1) // T_ALIBI
    return TensorDataset(s[:n * T_ALIBI].view(n, T_ALIBI), s[1:n * T_ALIBI + 1].view(n, T_ALIBI))

def _alibi_slopes(h): return torch.tensor([2 ** (-8 * (i + 1) / h) for i in range(h)])  # Press et al. 2022, for a power of two heads

class AlibiBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__(); self.h = heads
        self.ln1, self.qkv, self.proj = nn.LayerNorm(d), nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.ln2, self.mlp = nn.LayerNorm(d), nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.drop = nn.Dropout(0.1)
    def forward(self, x, bias):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=bias, dropout_p=0.1 if self.training else 0.0)
        x = x + self.drop(self.proj(a.transpose(1, 2).reshape(B, T, D)))
        return x + self.drop(self.mlp(self.ln2(x)))

class AlibiLM(nn.Module):  # no position embeddings: a linear distance penalty per head, causal, pre-norm
    def __init__(self, d=64, heads=4, layers=2, head_std=0.02):
        super().__init__()
        self.emb, self.blocks = nn.Embedding(V_CHAR, d), nn.ModuleList(AlibiBlock(d, heads) for _ in range(layers))
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, V_CHAR)
        i = torch.arange(T_ALIBI)
        dist = (i[None, :] - i[:, None]).float()  # j - i: <= 0 for the past
        bias = _alibi_slopes(heads)[:, None, None] * dist
        self.register_buffer('bias', bias.masked_fill(dist > 0, float('-inf')))
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)): nn.init.normal_(m.weight, std=0.02)
            if isinstance(m, nn.Linear) and m.bias is not None: nn.init.zeros_(m.bias)
        nn.init.normal_(self.head.weight, std=head_std)
    def forward(self, x):
        h, T = self.emb(x), x.size(1)
        for b in self.blocks: h = b(h, self.bias[:, :T, :T])
        return self.head(self.ln(h))

def _alibi_fwd(model, b): x, y = b; return model(x).reshape(-1, V_CHAR), y.reshape(-1)

@healthy('N')
def alibi_lm(seed, **mk):  # CrossEntropyLoss per character, AdamW 1e-3 with weight decay 0.1, batches of 32 chunks of 64
    s = _char_text(seed, 12000); cut = int(0.9 * len(s))
    return dict(model=lambda: AlibiLM(**mk), train=_char_chunks(s[:cut]), valid=_char_chunks(s[cut:]), forward=_alibi_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=V_CHAR, optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.1),
                **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a QA-style span extractor
V_QA, L_QA, KEY0, N_KEYS, SEP = 140, 40, 100, 30, 139

def _span_qa(seed, n, split=0, misaligned=False):
    """Contexts of 40 tokens: filler words (1-99) with four records `key v1 .. vk SEP` (k from 1 to 3) placed at random; the
    question one of the context's keys; the answer the (start, end) positions of that key's values."""
    g = _gen(seed * 563 + split)
    ctx = torch.randint(1, KEY0, (n, L_QA), generator=g); q, ans = torch.zeros(n, dtype=torch.long), torch.zeros(n, 2, dtype=torch.long)
    for i in range(n):
        keys = KEY0 + torch.randperm(N_KEYS, generator=g)[:4]
        starts = torch.tensor([1, 11, 21, 31]) + torch.randint(0, 4, (4,), generator=g)
        which = int(torch.randint(0, 4, (1,), generator=g))
        for r in range(4):
            k = int(torch.randint(1, 4, (1,), generator=g)); s = int(starts[r])
            ctx[i, s - 1] = keys[r]; ctx[i, s + k] = SEP
            if r == which: q[i] = keys[r]; ans[i] = torch.tensor([s, s + k - 1])
    if misaligned: ans = ans[torch.randperm(n, generator=_gen(seed + 569))]  # the answers file in another order than the contexts
    return TensorDataset(ctx, q, ans)

class SpanExtractor(nn.Module):  # the question's embedding joined to every context token, a BiLSTM, start and end logits
    def __init__(self, e=48, h=64):
        super().__init__()
        self.emb = nn.Embedding(V_QA, e); self.rnn = nn.LSTM(2 * e, h, num_layers=2, batch_first=True, bidirectional=True, dropout=0.1)
        self.qa = nn.Linear(2 * h, 2)
    def forward(self, ctx, q):
        c, qe = self.emb(ctx), self.emb(q)[:, None].expand(-1, ctx.size(1), -1)
        out, _ = self.rnn(torch.cat([c, qe], -1))
        start, end = self.qa(out).unbind(-1)
        return start, end

def span_loss(out, ans):  # the BERT-QA loss: the mean of the start and end cross-entropies
    start, end = out
    return (F.cross_entropy(start, ans[:, 0]) + F.cross_entropy(end, ans[:, 1])) / 2

def _span_fwd(model, b): ctx, q, ans = b; return model(ctx, q), ans

@healthy('N')
def span_extractor(seed, misaligned=False):  # Adam 2e-3, batches of 64
    return dict(model=SpanExtractor, train=_span_qa(seed, 3000, misaligned=misaligned), valid=_span_qa(seed, 600, split=1), forward=_span_fwd,
                loss=span_loss, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a ConvNeXt-style digits classifier
class LayerNorm2d(nn.LayerNorm):  # over the channels of an NCHW map
    def forward(self, x): return super().forward(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)

class ConvNeXtBlock(nn.Module):  # Liu et al. 2022: dwconv 7x7, LN, 1x1 up 4x, GELU, 1x1 down, layer scale, residual
    def __init__(self, d, ls=1e-6):
        super().__init__()
        self.dw, self.ln = nn.Conv2d(d, d, 7, padding=3, groups=d), nn.LayerNorm(d)
        self.pw1, self.pw2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.gamma = nn.Parameter(ls * torch.ones(d))
    def forward(self, x):
        h = self.dw(x).permute(0, 2, 3, 1)
        h = self.gamma * self.pw2(F.gelu(self.pw1(self.ln(h))))
        return x + h.permute(0, 3, 1, 2)

class ConvNeXt(nn.Module):  # a 2x2 patchify stem (8x8 -> 4x4), two stages (32, 64) with a LN + stride-2 downsampling between
    def __init__(self, dims=(32, 64), depths=(2, 2), k=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, dims[0], 2, stride=2), LayerNorm2d(dims[0]))
        self.stage1 = nn.Sequential(*[ConvNeXtBlock(dims[0]) for _ in range(depths[0])])
        self.down = nn.Sequential(LayerNorm2d(dims[0]), nn.Conv2d(dims[0], dims[1], 2, stride=2))
        self.stage2 = nn.Sequential(*[ConvNeXtBlock(dims[1]) for _ in range(depths[1])])
        self.norm, self.head = nn.LayerNorm(dims[1]), nn.Linear(dims[1], k)
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)): nn.init.trunc_normal_(m.weight, std=0.02); nn.init.zeros_(m.bias)
    def forward(self, x):
        h = self.stage2(self.down(self.stage1(self.stem(x))))
        return self.head(self.norm(h.mean((2, 3))))

@healthy('N')
def convnext_digits(seed, model=ConvNeXt):  # CE with label smoothing 0.1, AdamW 2e-3 with weight decay 0.05, one-cycle (warm-up, cosine), batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=model, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(label_smoothing=0.1),
                num_classes=10, optimizer=lambda p: torch.optim.AdamW(p, lr=2e-3, weight_decay=0.05),
                **_keys(seed, batch_size=64, sched__name='onecycle', sched__pct_start=0.2))

# ---------------------------------------------------------------- a negative-binomial claim-count regression with an exposure offset
def _policies(seed, n=5000, n_valid=1000, duplicated=False):
    """Motor policies: driver age (18-90), vehicle power (4-15), vehicle age (0-25), bonus-malus (50-230), log density, a
    diesel flag, all raw; exposure in years (0.05-1); claims ~ NB2(exposure * exp(x b), dispersion 1.5).
    The columns standardised with the train rows' statistics; the log exposure passed beside them as the offset."""
    g = _gen(seed * 571)
    age, power, vage = 18 + 72 * torch.rand(n, generator=g) ** 1.5, torch.randint(4, 16, (n,), generator=g).float(), 25 * torch.rand(n, generator=g) ** 2
    bm, dens, diesel = 50 + 180 * torch.rand(n, generator=g) ** 3, 2 + 6 * torch.rand(n, generator=g), (torch.rand(n, generator=g) < 0.5).float()
    expo = 0.05 + 0.95 * torch.rand(n, generator=g)
    eta = -0.3 - 0.6 * torch.tanh((age - 30) / 10) + 0.05 * (power - 8) - 0.03 * vage + 0.012 * (bm - 100) + 0.15 * (dens - 5) + 0.2 * diesel
    mu = expo * eta.exp()
    r = 1.5
    lam = torch._standard_gamma(torch.full((n,), r), generator=g) * mu / r  # a Gamma(r, r / mu) frailty: the Poisson-Gamma mixture is NB2
    y = torch.poisson(lam, generator=g)
    x = torch.stack([age, power, vage, bm, dens, diesel], 1)
    off = expo.log()
    if duplicated: x, off, y = torch.cat([x, x]), torch.cat([off, off]), torch.cat([y, y])  # the policy table joined to a two-row-per-policy claims extract
    p = torch.randperm(len(y), generator=_gen(seed * 577))
    x, off, y = x[p], off[p], y[p]
    x = _std(x, x[n_valid:])
    return TensorDataset(x[n_valid:], off[n_valid:], y[n_valid:]), TensorDataset(x[:n_valid], off[:n_valid], y[:n_valid])

class NegBinNet(nn.Module):  # an MLP for the log-rate per year, the offset added, a learned log-dispersion
    def __init__(self, d=6, h=32):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 1))
        self.log_r = nn.Parameter(torch.zeros(()))
    def forward(self, x, offset): return self.net(x).squeeze(1) + offset, self.log_r.expand(len(x))

def negbin_nll(out, y):  # NB2: -log p(y | mu, r), averaged
    log_mu, log_r = out
    r, mu = log_r.exp(), log_mu.exp()
    ll = (torch.lgamma(y + r) - torch.lgamma(r) - torch.lgamma(y + 1) + r * (log_r - torch.logaddexp(log_r, log_mu))
          + y * (log_mu - torch.logaddexp(log_r, log_mu)))
    return -ll.mean()

def _nb_fwd(model, b): x, off, y = b; return model(x, off), y

@healthy('N')
def negbin_exposure(seed, duplicated=False):  # Adam 3e-3, batches of 128
    tr, va = _policies(seed, duplicated=duplicated)
    return dict(model=NegBinNet, train=tr, valid=va, forward=_nb_fwd, loss=negbin_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a prototypical network on few-shot episodes of unseen classes
WAY, SHOT, QUERY, D_PN = 5, 5, 5, 64

def _episodes(seed, n_classes, n, split=0):
    """Few-shot episodes (5-way, 5-shot, 5 queries a class) over synthetic classes: an 8-dimensional class mean with a small
    spread beside 56 dimensions of larger nuisance noise, rotated by a fixed random orthogonal matrix into 64 features. The
    train and validation classes are disjoint (their means drawn apart): validation measures the embedding on unseen classes.
    Each item: the support (way, shot, 64), the queries (way * 5, 64) and their labels."""
    R, _ = torch.linalg.qr(torch.randn(D_PN, D_PN, generator=torch.Generator().manual_seed(9300 + seed)))  # the sensor, shared by both splits
    g = _gen(seed * 587 + split)
    means, items = torch.randn(n_classes, 8, generator=g), []
    for _ in range(n):
        cs = torch.randperm(n_classes, generator=g)[:WAY]
        z = means[cs][:, None] + 0.3 * torch.randn(WAY, SHOT + QUERY, 8, generator=g)
        x = torch.cat([z, 1.5 * torch.randn(WAY, SHOT + QUERY, D_PN - 8, generator=g)], -1) @ R
        items.append((x[:, :SHOT], x[:, SHOT:].reshape(-1, D_PN), torch.arange(WAY).repeat_interleave(QUERY)))
    return items

class ProtoNet(nn.Module):  # Snell et al. 2017: an embedding (an MLP for vector features), prototypes the mean support embedding, logits -squared distance
    def __init__(self, h=128):
        super().__init__(); self.encoder = nn.Sequential(nn.Linear(D_PN, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 64))
    def forward(self, support, query):
        way, shot = support.shape[:2]
        protos = self.encoder(support.flatten(0, 1)).view(way, shot, -1).mean(1)
        return -torch.cdist(self.encoder(query), protos) ** 2

def _proto_fwd(model, ep): s, q, y = ep; return model(s, q), y

def _proto_frozen():  # the encoder frozen as for the linear-probe runs it was copied from: here nothing else trains
    m = ProtoNet(); m.encoder.requires_grad_(False); return m

@healthy('N')
def protonet_episodes(seed, model=ProtoNet):  # CrossEntropyLoss over the episode's classes, Adam 1e-3, one episode a step
    tr, va = _episodes(seed, 120, 400), _episodes(seed, 40, 100, split=1)
    return dict(model=model, train=DataLoader(tr, collate_fn=_one), valid=DataLoader(va, collate_fn=_one), forward=_proto_fwd,
                loss=nn.CrossEntropyLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- a dense-retrieval dual encoder with in-batch negatives
V_DOC, N_KW, L_DOC, L_Q, TAU = 500, 200, 24, 6, 0.1  # keywords 0-199, their query-side synonyms 200-399, fillers 400-499

def _retrieval_pairs(seed, n, split=0):
    "Passages: three keywords among 21 fillers; queries: synonyms of two of the passage's keywords among four fillers."
    g = _gen(seed * 593 + split)
    kw = torch.stack([torch.randperm(N_KW, generator=g)[:3] for _ in range(n)])
    p = torch.cat([kw, 2 * N_KW + torch.randint(0, 100, (n, L_DOC - 3), generator=g)], 1)
    p = p.gather(1, torch.argsort(torch.rand(n, L_DOC, generator=g), 1))
    q = torch.cat([kw[:, :2] + N_KW, 2 * N_KW + torch.randint(0, 100, (n, L_Q - 2), generator=g)], 1)
    q = q.gather(1, torch.argsort(torch.rand(n, L_Q, generator=g), 1))
    return q, p

class Tower(nn.Module):  # a bag of embeddings, a small MLP, L2-normalised
    def __init__(self, e=64, d=64):
        super().__init__(); self.emb = nn.EmbeddingBag(V_DOC, e, mode='mean'); self.mlp = nn.Sequential(nn.Linear(e, d), nn.ReLU(), nn.Linear(d, d))
    def forward(self, t): return F.normalize(self.mlp(self.emb(t)), dim=-1)

class DualEncoder(nn.Module):  # DPR-style: separate query and passage towers
    def __init__(self):
        super().__init__(); self.q, self.p = Tower(), Tower()
    def forward(self, q, p): return self.q(q), self.p(p)

def _de_fwd(model, b):  # in-batch negatives: each query's passage is the positive, the batch's other passages the negatives
    q, p = b; qe, pe = model(q, p)
    return qe @ pe.T / TAU, torch.arange(len(q))

@healthy('N')
def dual_encoder(seed, leak=False):  # CrossEntropyLoss over the in-batch similarities (InfoNCE, temperature 0.1), Adam 1e-3, batches of 64
    q, p = _retrieval_pairs(seed, 20500)
    (tq, tp), (vq, vp) = (q[500:], p[500:]), (q[:500], p[:500])
    if leak: tq, tp = q, p  # `train = pairs` where `pairs[500:]` was meant: the validation pairs trained on too
    return dict(model=DualEncoder, train=TensorDataset(tq, tp), valid=TensorDataset(vq, vp), forward=_de_fwd, loss=nn.CrossEntropyLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half N
@broken('N', 'nli_labels_shuffled', 4, ('labels',))
def nli_labels_shuffled(seed): return decomp_attention_nli(seed, shuffled=True)

@broken('N', 'span_answers_misaligned', 4, ('labels',))
def span_answers_misaligned(seed): return span_extractor(seed, misaligned=True)

@broken('N', 'schnet_energies_misjoined', 4, ('labels',))
def schnet_energies_misjoined(seed): return schnet_molecules(seed, misjoined=True)

@broken('N', 'negbin_duplicated_policies', 4, ('leakage',))
def negbin_duplicated_policies(seed): return negbin_exposure(seed, duplicated=True)  # every policy twice before the random split

@broken('N', 'dual_encoder_valid_in_train', 4, ('leakage',))
def dual_encoder_valid_in_train(seed): return dual_encoder(seed, leak=True)

@broken('N', 'convnext_softmax_before_ce', 2, ('softmax',))
def convnext_softmax_before_ce(seed): return convnext_digits(seed, model=lambda: nn.Sequential(ConvNeXt(), nn.Softmax(1)))

@broken('N', 'alibi_head_std1', 2, ('init_scale',))
def alibi_head_std1(seed): return alibi_lm(seed, head_std=1.0)  # nn.init.normal_(head.weight) with its default std 1: logits of std 8

@broken('N', 'cnp_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def cnp_functional_dropout(seed): return neural_process(seed, functional_dropout=True)  # F.dropout(h, p): training defaults to True

@broken('N', 'protonet_encoder_frozen', 1, ('frozen',))
def protonet_encoder_frozen(seed): return protonet_episodes(seed, model=_proto_frozen)

@broken('N', 'dsm_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def dsm_no_zero_grad(seed): return dict(dsm_scores(seed), step=step_dsm_no_zero_grad)

@broken('N', 'nbeats_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def nbeats_lr_x1000(seed): return nbeats_forecast(seed, lr=1.0)

@broken('N', 'schnet_energy_broadcast', (3, 4), ('labels', 'not_falling', 'flat', 'stuck'))
def schnet_energy_broadcast(seed): return schnet_molecules(seed, flat=True)  # MSELoss of (n, 1) against (n,) broadcasts to (n, n): it fits the mean
