"""Half O of the ladder's gallery (issue 32): held out from the seventeenth round of rules, written after that round's freeze
(da5fe9f) and run once. Families not in halves A-N: an S4D-style diagonal state-space sequence classifier (a convolution
kernel computed from the diagonal SSM, applied by FFT), a message-passing network regressing a property of random graphs
(dense adjacency, summed readout), a Glow-like flow on dequantised digits (actnorm with data-dependent initialisation,
invertible 1x1 convolutions, affine couplings, squeezes; bits per dimension), a hierarchical attention network (Yang et al.)
classifying synthetic documents through word-level and sentence-level attention, a BiLSTM-CRF tagger trained with the CRF's
negative log-likelihood (the forward algorithm) on sentences from a hidden Markov model, a SASRec-style sequential
recommender (a causal transformer over users' item histories, next-item cross-entropy with tied item embeddings), a
discrete-time survival model (logistic hazards over ten intervals, censored patients, raw clinical covariates standardised),
a masked autoencoder (MAE) on 2x2 patches of digits with a fresh 75% mask drawn in a custom step, a Perceiver-style
classifier (a latent array cross-attending to the pixels with Fourier position features), a projectile-range regression
with quadratic drag whose target is left in metres, a pointer network learning to sort ten numbers (teacher forcing, the
pointer a softmax over the encoder's positions), and a Hugging Face-style multi-label text tagger (dict batches, an output
with `.logits` and `.loss`, BCE with class weights from the train frequencies). Registered into ladder_gallery's
HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half N.

Protocol: written after the freeze (round 17, da5fe9f) without reading the ladder's rules (ntrain/ladder/*.py, nbs/02_ladder
and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's results; only
`ntrain.ladder`'s public signature and docstring and the factory format of halves A-N (their @broken lines for the rung and
cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a
few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before any ladder
run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half O`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
import math
from types import SimpleNamespace
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- an S4D-style state-space sequence classifier
T_S4, K_S4 = 128, 4

def _bursts(seed, n, split=0):
    """Signals of 128 steps: AR(1) noise with one burst of 24 steps at a random time; the burst's shape is the class (a
    sine of period 6, a sine of period 16, a square pulse, a rising ramp), its amplitude random."""
    g = _gen(seed * 601 + split)
    t = torch.arange(24).float()
    shapes = torch.stack([torch.sin(2 * math.pi * t / 6), torch.sin(2 * math.pi * t / 16), torch.ones(24), t / 12 - 1])
    y = torch.randint(0, K_S4, (n,), generator=g)
    e = 0.5 * torch.randn(n, T_S4, generator=g); x = torch.zeros_like(e)
    for k in range(1, T_S4): x[:, k] = 0.5 * x[:, k - 1] + e[:, k]
    at, amp = torch.randint(0, T_S4 - 24, (n,), generator=g), 0.6 + 0.8 * torch.rand(n, generator=g)
    idx = at[:, None] + torch.arange(24)
    x.scatter_add_(1, idx, amp[:, None] * shapes[y])
    return TensorDataset(x[:, :, None], y)

class S4DKernel(nn.Module):  # the state-spaces repository's minimal s4d.py: S4D-Lin initialisation, ZOH-like discretisation
    def __init__(self, H, N=64, dt_min=1e-3, dt_max=1e-1):
        super().__init__()
        self.log_dt = nn.Parameter(torch.rand(H) * (math.log(dt_max) - math.log(dt_min)) + math.log(dt_min))
        self.C = nn.Parameter(torch.view_as_real(torch.randn(H, N // 2, dtype=torch.cfloat)))
        self.log_A_real = nn.Parameter(torch.log(0.5 * torch.ones(H, N // 2)))
        self.register_buffer('A_imag', math.pi * torch.arange(N // 2).float().repeat(H, 1))
    def forward(self, L):
        dt, C = self.log_dt.exp(), torch.view_as_complex(self.C)
        A = -self.log_A_real.exp() + 1j * self.A_imag
        dtA = A * dt[:, None]
        K = dtA[..., None] * torch.arange(L, device=A.device)
        C = C * (torch.exp(dtA) - 1.0) / A
        return 2 * torch.einsum('hn,hnl->hl', C, torch.exp(K)).real

class S4D(nn.Module):
    def __init__(self, H, p=0.1, functional_dropout=False):
        super().__init__(); self.p, self.functional_dropout = p, functional_dropout
        self.kernel, self.D = S4DKernel(H), nn.Parameter(torch.randn(H))
        self.out = nn.Sequential(nn.Conv1d(H, 2 * H, 1), nn.GLU(dim=-2))
    def forward(self, u):  # (B, H, L)
        L = u.size(-1); k = self.kernel(L)
        y = torch.fft.irfft(torch.fft.rfft(u, n=2 * L) * torch.fft.rfft(k, n=2 * L), n=2 * L)[..., :L] + u * self.D[:, None]
        y = F.gelu(y)
        y = F.dropout(y, self.p) if self.functional_dropout else F.dropout(y, self.p, training=self.training)
        return self.out(y)

class S4Classifier(nn.Module):  # the repository's example model: encoder, pre-norm residual S4D layers, mean pooling, decoder
    def __init__(self, d=64, layers=3, k=K_S4, **kw):
        super().__init__()
        self.enc, self.dec = nn.Linear(1, d), nn.Linear(d, k)
        self.s4, self.norms = nn.ModuleList(S4D(d, **kw) for _ in range(layers)), nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
    def forward(self, x):
        h = self.enc(x).transpose(1, 2)
        for s4, ln in zip(self.s4, self.norms): h = h + s4(ln(h.transpose(1, 2)).transpose(1, 2))
        return self.dec(h.mean(-1))

@healthy('O')
def s4d_bursts(seed, **mk):  # CrossEntropyLoss, AdamW 4e-3 with weight decay 0.01, batches of 64
    return dict(model=lambda: S4Classifier(**mk), train=_bursts(seed, 2500), valid=_bursts(seed, 600, split=1), loss=nn.CrossEntropyLoss(),
                num_classes=K_S4, optimizer=lambda p: torch.optim.AdamW(p, lr=4e-3, weight_decay=0.01), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a message-passing network regressing a graph property
N_NODES, F_NODE = 12, 4

def _graphs(seed, n=3000, n_valid=600, flat=False):
    """Random graphs of 12 nodes (edge probability 0.1-0.4) with four node features; the target a sum over the edges of a
    function of both ends' features plus a count of triangles, standardised with the train graphs' statistics."""
    g = _gen(seed * 607)
    pe = 0.1 + 0.3 * torch.rand(n, 1, 1, generator=g)
    a = (torch.rand(n, N_NODES, N_NODES, generator=g) < pe).float().triu(1); a = a + a.transpose(1, 2)
    x = torch.randn(n, N_NODES, F_NODE, generator=g)
    u = torch.tanh(x[..., 0] + x[..., 1])
    pair = (u[:, :, None] * u[:, None, :] + 0.5 * torch.relu(x[:, :, None, 2] - x[:, None, :, 3])) * a
    tri = torch.einsum('bij,bjk,bki->b', a, a, a) / 6
    y = pair.sum((1, 2)) / 2 + 0.3 * tri
    y = (y - y[n_valid:].mean()) / y[n_valid:].std()
    y = y if flat else y[:, None]  # flat: the targets kept as a vector (n,) against the model's (n, 1)
    return TensorDataset(x[n_valid:], a[n_valid:], y[n_valid:]), TensorDataset(x[:n_valid], a[:n_valid], y[:n_valid])

class MPNN(nn.Module):  # Gilmer et al. 2017 in its simplest dense form: messages an MLP of (h_i, h_j), summed over neighbours, a GRU update
    def __init__(self, h=64, steps=3):
        super().__init__(); self.steps = steps
        self.emb = nn.Linear(F_NODE, h)
        self.msg, self.upd = nn.Sequential(nn.Linear(2 * h, h), nn.ReLU(), nn.Linear(h, h)), nn.GRUCell(h, h)
        self.readout = nn.Sequential(nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))
    def forward(self, x, adj):
        B, N, _ = x.shape; h = self.emb(x)
        for _ in range(self.steps):
            m = self.msg(torch.cat([h[:, :, None].expand(-1, -1, N, -1), h[:, None].expand(-1, N, -1, -1)], -1))
            m = (adj[..., None] * m).sum(2)
            h = self.upd(m.reshape(B * N, -1), h.reshape(B * N, -1)).view(B, N, -1)
        return self.readout(h.sum(1))

def _mpnn_fwd(model, b): x, a, y = b; return model(x, a), y

@healthy('O')
def mpnn_graph_reg(seed, **data):  # MSELoss on the standardised target, Adam 1e-3, batches of 32 graphs
    tr, va = _graphs(seed, **data)
    return dict(model=MPNN, train=tr, valid=va, forward=_mpnn_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a Glow-like flow on dequantised digits
def _dequantised(x, seed, split):
    "The 17 grey levels dequantised with a fixed uniform draw (so validation is deterministic), centred on [-0.5, 0.5]."
    k = (x * 16).round()
    return ((k + torch.rand(x.shape, generator=_gen(seed * 613 + split))) / 17 - 0.5,)

class ActNorm(nn.Module):  # per-channel affine, initialised from the first batch so its output has zero mean and unit variance
    def __init__(self, c):
        super().__init__(); self.loc, self.log_scale = nn.Parameter(torch.zeros(1, c, 1, 1)), nn.Parameter(torch.zeros(1, c, 1, 1))
        self.register_buffer('initialized', torch.tensor(0, dtype=torch.uint8))
    def forward(self, x):
        if not self.initialized:
            with torch.no_grad():
                self.loc.data.copy_(-x.mean((0, 2, 3), keepdim=True)); self.log_scale.data.copy_(-torch.log(x.std((0, 2, 3), keepdim=True) + 1e-6))
                self.initialized.fill_(1)
        return (x + self.loc) * self.log_scale.exp(), self.log_scale.sum() * x.size(2) * x.size(3)

class InvConv(nn.Module):  # an invertible 1x1 convolution, initialised to a random rotation; log|det W| per pixel
    def __init__(self, c):
        super().__init__(); self.W = nn.Parameter(torch.linalg.qr(torch.randn(c, c))[0])
    def forward(self, x): return F.conv2d(x, self.W[:, :, None, None]), torch.slogdet(self.W)[1] * x.size(2) * x.size(3)

class Coupling(nn.Module):  # affine coupling: half the channels scale and shift the other half; the last conv zero-initialised
    def __init__(self, c, h=64):
        super().__init__()
        self.nn = nn.Sequential(nn.Conv2d(c // 2, h, 3, padding=1), nn.ReLU(), nn.Conv2d(h, h, 1), nn.ReLU(), nn.Conv2d(h, c, 3, padding=1))
        nn.init.zeros_(self.nn[-1].weight); nn.init.zeros_(self.nn[-1].bias)
    def forward(self, x):
        xa, xb = x.chunk(2, 1)
        shift, s = self.nn(xa).chunk(2, 1)
        scale = torch.sigmoid(s + 2.0)
        return torch.cat([xa, (xb + shift) * scale], 1), scale.log().flatten(1).sum(1)

def squeeze(x): B, C, H, W = x.shape; return x.view(B, C, H // 2, 2, W // 2, 2).permute(0, 1, 3, 5, 2, 4).reshape(B, 4 * C, H // 2, W // 2)

class Glow(nn.Module):  # Kingma and Dhariwal 2018, two levels of K steps (actnorm, 1x1 conv, coupling), no split; a standard normal prior
    def __init__(self, K=4, h=64):
        super().__init__()
        self.levels = nn.ModuleList(nn.ModuleList(m for _ in range(K) for m in (ActNorm(c), InvConv(c), Coupling(c, h))) for c in (4, 16))
    def forward(self, x):
        logdet = torch.zeros(len(x))
        for lvl in self.levels:
            x = squeeze(x)
            for m in lvl: x, ld = m(x); logdet = logdet + ld
        return x, logdet

def glow_bpd(out, x):  # -log p(x) in bits per dimension of the 17-level image
    z, logdet = out; D = x[0].numel()
    logp = -0.5 * (z ** 2 + math.log(2 * math.pi)).flatten(1).sum(1) + logdet
    return ((-logp + D * math.log(17)) / (D * math.log(2))).mean()

def _glow_fwd(model, b): x, = b; return model(x), x

@healthy('O')
def glow_digits(seed, lr=1e-3):  # Adam 1e-3 (Glow's), batches of 64
    (x, _), (vx, _) = _digits(seed)
    return dict(model=Glow, train=TensorDataset(*_dequantised(x, seed, 0)), valid=TensorDataset(*_dequantised(vx, seed, 1)), forward=_glow_fwd,
                loss=glow_bpd, optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a hierarchical attention network for documents
V_HAN, S_HAN, W_HAN = 300, 6, 10  # topic words 1-60 (three topics of 20), fillers 61-299, 0 padding (unused)

def _han_docs(seed, n, split=0, shuffled=False):
    """Documents of six sentences of ten words: fillers, with two (or three) sentences of the document's topic carrying two
    of its words; each other sentence has, a third of the time, one word of a random topic."""
    g = _gen(seed * 617 + split)
    y = torch.randint(0, 3, (n,), generator=g)
    d = 61 + torch.randint(0, 239, (n, S_HAN, W_HAN), generator=g)
    noise = (torch.rand(n, S_HAN, generator=g) < 1 / 3)
    d[:, :, 0] = torch.where(noise, 1 + 20 * torch.randint(0, 3, (n, S_HAN), generator=g) + torch.randint(0, 20, (n, S_HAN), generator=g), d[:, :, 0])
    for i in range(n):
        ss = torch.randperm(S_HAN, generator=g)[:2 + int(torch.rand(1, generator=g) < 0.5)]
        for s in ss:
            pos = torch.randperm(W_HAN, generator=g)[:2]
            d[i, s, pos] = 1 + 20 * y[i] + torch.randint(0, 20, (2,), generator=g)
    if shuffled: y = y[torch.randperm(n, generator=_gen(seed + 619))]  # the labels re-read from a CSV sorted another way
    return TensorDataset(d, y)

class AttnPool(nn.Module):  # u = tanh(W h), a = softmax(u . context), sum a h
    def __init__(self, d):
        super().__init__(); self.proj, self.ctx = nn.Linear(d, d), nn.Linear(d, 1, bias=False)
    def forward(self, h): a = self.ctx(torch.tanh(self.proj(h))).softmax(1); return (a * h).sum(1)

class HAN(nn.Module):  # Yang et al. 2016: a word BiGRU with attention per sentence, a sentence BiGRU with attention per document
    def __init__(self, e=64, h=32, k=3):
        super().__init__()
        self.emb = nn.Embedding(V_HAN, e)
        self.word_rnn, self.word_att = nn.GRU(e, h, batch_first=True, bidirectional=True), AttnPool(2 * h)
        self.sent_rnn, self.sent_att = nn.GRU(2 * h, h, batch_first=True, bidirectional=True), AttnPool(2 * h)
        self.out = nn.Linear(2 * h, k)
    def forward(self, docs):
        B, S, W = docs.shape
        w, _ = self.word_rnn(self.emb(docs.view(B * S, W)))
        s, _ = self.sent_rnn(self.word_att(w).view(B, S, -1))
        return self.out(self.sent_att(s))

@healthy('O')
def han_docs(seed, shuffled=False):  # CrossEntropyLoss, Adam 1e-3, batches of 64
    return dict(model=HAN, train=_han_docs(seed, 3000, shuffled=shuffled), valid=_han_docs(seed, 600, split=1), loss=nn.CrossEntropyLoss(),
                num_classes=3, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a BiLSTM-CRF tagger
V_CRF, K_CRF, T_CRF = 100, 5, 20

def _hmm_sentences(seed, n, split=0):
    """Tag sequences from a sticky Markov chain over five tags; words from each tag's own 25 words 70% of the time, else
    from any of the 100 (ambiguous)."""
    gp = torch.Generator().manual_seed(9400)  # the language: the same for every seed
    P = torch.rand(K_CRF, K_CRF, generator=gp) + 3 * torch.eye(K_CRF); P = P / P.sum(1, keepdim=True)
    g = _gen(seed * 631 + split)
    tags = torch.zeros(n, T_CRF, dtype=torch.long); tags[:, 0] = torch.randint(0, K_CRF, (n,), generator=g)
    for t in range(1, T_CRF): tags[:, t] = torch.multinomial(P[tags[:, t - 1]], 1, generator=g).squeeze(1)
    own = tags * 20 + torch.randint(0, 25, (n, T_CRF), generator=g)
    words = torch.where(torch.rand(n, T_CRF, generator=g) < 0.7, own, torch.randint(0, V_CRF, (n, T_CRF), generator=g)) % V_CRF
    return words, tags

class BiLSTMCRF(nn.Module):  # the PyTorch tutorial's BiLSTM-CRF, batched: emissions from a BiLSTM, transition scores, start and end scores
    def __init__(self, e=32, h=64):
        super().__init__()
        self.emb, self.lstm = nn.Embedding(V_CRF, e), nn.LSTM(e, h, batch_first=True, bidirectional=True)
        self.hidden2tag = nn.Linear(2 * h, K_CRF)
        self.trans, self.start, self.end = nn.Parameter(torch.randn(K_CRF, K_CRF) * 0.1), nn.Parameter(torch.zeros(K_CRF)), nn.Parameter(torch.zeros(K_CRF))
    def forward(self, words):
        em = self.hidden2tag(self.lstm(self.emb(words))[0])
        return em, self.trans, self.start, self.end

def crf_nll(out, tags):  # -log p(tags | words): the forward algorithm's log partition minus the gold path's score, averaged
    em, trans, start, end = out; B, T, K = em.shape
    alpha = start + em[:, 0]
    for t in range(1, T): alpha = torch.logsumexp(alpha[:, :, None] + trans + em[:, t, None, :], 1)
    log_z = torch.logsumexp(alpha + end, 1)
    gold = start[tags[:, 0]] + em.gather(2, tags[..., None]).squeeze(2).sum(1) + trans[tags[:, :-1], tags[:, 1:]].sum(1) + end[tags[:, -1]]
    return (log_z - gold).mean()

def _crf_fwd(model, b): w, t = b; return model(w), t

@healthy('O')
def crf_tagger(seed, line_offset=False):  # the CRF's negative log-likelihood, Adam 1e-3, batches of 32
    w, t = _hmm_sentences(seed, 3000)
    if line_offset: t = t.roll(1, 0)  # the tags file's header line read as a sentence: each sentence gets the previous one's tags
    return dict(model=BiLSTMCRF, train=TensorDataset(w, t), valid=TensorDataset(*_hmm_sentences(seed, 600, split=1)), forward=_crf_fwd,
                loss=crf_nll, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a SASRec-style sequential recommender
N_ITEMS, L_SEQ = 200, 20  # items 1-200, 0 unused (padding)

def _histories(seed, n_users, split=0):
    "Item histories of 21 items: the next item one of the current item's three successors 80% of the time, else any item."
    gl = torch.Generator().manual_seed(9500)  # the catalogue's co-purchase structure, the same for every seed
    nxt = 1 + torch.randint(0, N_ITEMS, (N_ITEMS + 1, 3), generator=gl)
    g = _gen(seed * 641 + split)
    s = torch.zeros(n_users, L_SEQ + 1, dtype=torch.long); s[:, 0] = 1 + torch.randint(0, N_ITEMS, (n_users,), generator=g)
    for t in range(1, L_SEQ + 1):
        follow = nxt[s[:, t - 1], torch.randint(0, 3, (n_users,), generator=g)]
        s[:, t] = torch.where(torch.rand(n_users, generator=g) < 0.8, follow, 1 + torch.randint(0, N_ITEMS, (n_users,), generator=g))
    return s

class SASRec(nn.Module):  # Kang and McAuley 2018: item and position embeddings, causal self-attention blocks, scores against the item embeddings
    def __init__(self, d=64, heads=2, layers=2, p=0.2):
        super().__init__()
        self.item, self.pos = nn.Embedding(N_ITEMS + 1, d, padding_idx=0), nn.Embedding(L_SEQ, d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=p, batch_first=True, norm_first=True)
        self.enc, self.ln, self.drop = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False), nn.LayerNorm(d), nn.Dropout(p)
        self.register_buffer('causal', nn.Transformer.generate_square_subsequent_mask(L_SEQ))
        for n, w in self.named_parameters():  # the reference PyTorch port's xavier_normal_ on every matrix (the item table too)
            if w.dim() > 1: nn.init.xavier_normal_(w)
    def forward(self, seq):
        h = self.drop(self.item(seq) * self.item.embedding_dim ** 0.5 + self.pos(torch.arange(seq.size(1))))
        h = self.ln(self.enc(h, mask=self.causal[:seq.size(1), :seq.size(1)], is_causal=True))
        return h @ self.item.weight.T  # (B, L, items + 1)

def _sas_fwd(model, b): s, = b; return model(s[:, :-1]).reshape(-1, N_ITEMS + 1), s[:, 1:].reshape(-1)

@healthy('O')
def sasrec_next_item(seed, leak=False):  # CrossEntropyLoss over the catalogue at every position, Adam 1e-3, batches of 128 users
    s = _histories(seed, 4500); tr, va = s[500:], s[:500]
    if leak: tr = s  # `train = histories` where `histories[500:]` was meant: the validation users trained on too
    return dict(model=SASRec, train=TensorDataset(tr), valid=TensorDataset(va), forward=_sas_fwd, loss=nn.CrossEntropyLoss(),
                num_classes=N_ITEMS + 1, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, betas=(0.9, 0.98)), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a discrete-time survival model (logistic hazards)
N_BINS = 10

def _patients(seed, n=4000, n_valid=800, misjoined=False):
    """Patients: age (years), systolic pressure (mmHg), a biomarker (ng/mL, log-normal), a smoker flag and a treatment arm;
    a Weibull event time whose scale depends on them; administrative censoring at 10 years and random drop-out. The time cut
    into ten yearly intervals; the target (interval, event). Covariates standardised with the train rows' statistics."""
    g = _gen(seed * 643)
    age, sbp = 40 + 40 * torch.rand(n, generator=g), 110 + 20 * torch.randn(n, generator=g)
    bio, smoke, arm = torch.exp(1 + 0.6 * torch.randn(n, generator=g)), (torch.rand(n, generator=g) < 0.3).float(), (torch.rand(n, generator=g) < 0.5).float()
    risk = 0.06 * (age - 60) + 0.02 * (sbp - 110) + 0.7 * torch.log(bio) + 0.7 * smoke - 0.7 * arm
    t_event = 8 * torch.exp(-risk / 1.5) * (-torch.log(torch.rand(n, generator=g))) ** (1 / 1.5)
    t_cens = torch.minimum(torch.full((n,), 10.0), 20 * torch.rand(n, generator=g))
    t, event = torch.minimum(t_event, t_cens), (t_event <= t_cens).long()
    y = torch.stack([t.floor().clamp(max=N_BINS - 1).long(), event], 1)
    x = torch.stack([age, sbp, bio, smoke, arm], 1)
    x = _std(x, x[n_valid:]); ytr = y[n_valid:]
    if misjoined: ytr = ytr[torch.randperm(len(ytr), generator=_gen(seed + 647))]  # outcomes joined by row number to a re-sorted covariate table
    return TensorDataset(x[n_valid:], ytr), TensorDataset(x[:n_valid], y[:n_valid])

def logistic_hazard_nll(logits, y):  # Nnet-survival / pycox's LogisticHazard: BCE on each interval at risk, the last one the event indicator
    idx, event = y[:, 0], y[:, 1].float()
    at_risk = (torch.arange(N_BINS)[None] <= idx[:, None]).float()
    target = torch.zeros_like(logits).scatter(1, idx[:, None], event[:, None])
    return (F.binary_cross_entropy_with_logits(logits, target, reduction='none') * at_risk).sum(1).mean()

@healthy('O')
def discrete_hazard(seed, **data):  # an MLP with dropout to ten hazard logits, Adam 1e-3, batches of 128
    tr, va = _patients(seed, **data)
    return dict(model=lambda: nn.Sequential(nn.Linear(5, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, N_BINS)),
                train=tr, valid=va, loss=logistic_hazard_nll, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a masked autoencoder on digits, the mask drawn in a custom step
N_PATCH, KEEP = 16, 4  # sixteen 2x2 patches, a quarter kept

def patchify(x): return x.view(-1, 4, 2, 4, 2).permute(0, 1, 3, 2, 4).reshape(-1, N_PATCH, 4)

class MAE(nn.Module):  # He et al. 2022, small: a transformer encoder on the visible patches, a lighter decoder with mask tokens
    def __init__(self, d=64, dd=48):
        super().__init__()
        self.patch, self.pos = nn.Linear(4, d), nn.Parameter(0.02 * torch.randn(1, N_PATCH, d))
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.0, batch_first=True, norm_first=True), 2, enable_nested_tensor=False)
        self.enc2dec, self.mask_token, self.dpos = nn.Linear(d, dd), nn.Parameter(torch.zeros(1, 1, dd)), nn.Parameter(0.02 * torch.randn(1, N_PATCH, dd))
        self.decoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dd, 4, 2 * dd, dropout=0.0, batch_first=True, norm_first=True), 1, enable_nested_tensor=False)
        self.pred = nn.Linear(dd, 4)
    def forward(self, x, noise):  # noise (B, 16): the patches with the KEEP lowest values are kept (MAE's random_masking)
        p = patchify(x); B = len(p)
        order = noise.argsort(1); keep, restore = order[:, :KEEP], order.argsort(1)
        h = (self.patch(p) + self.pos).gather(1, keep[..., None].expand(-1, -1, self.pos.size(2)))
        h = self.enc2dec(self.encoder(h))
        h = torch.cat([h, self.mask_token.expand(B, N_PATCH - KEEP, -1)], 1).gather(1, restore[..., None].expand(-1, -1, h.size(2)))
        pred = self.pred(self.decoder(h + self.dpos))
        masked = (restore >= KEEP)
        return pred[masked], p[masked]  # the loss on the masked patches only

def _mae_fwd(model, b): x, noise = b; return model(x, noise)

def step_mae(model, batch, opt):  # the MAE loop: a fresh mask for every image at every step (the stored noise is for validation)
    x, _ = batch
    opt.zero_grad()
    loss = F.mse_loss(*model(x, torch.rand(len(x), N_PATCH))); loss.backward(); opt.step()
    return loss

def step_mae_no_zero_grad(model, batch, opt):  # the zero_grad lost when the step was rewritten to draw the mask itself
    x, _ = batch
    loss = F.mse_loss(*model(x, torch.rand(len(x), N_PATCH))); loss.backward(); opt.step()
    return loss

@healthy('O')
def mae_digits(seed):  # MSELoss on the masked pixels, AdamW 1e-3 with weight decay 0.05, batches of 64, the custom step above
    (x, _), (vx, _) = _digits(seed)
    nz = lambda n, s: torch.rand(n, N_PATCH, generator=_gen(seed * 653 + s))
    return dict(model=MAE, train=TensorDataset(x, nz(len(x), 0)), valid=TensorDataset(vx, nz(len(vx), 1)), forward=_mae_fwd, loss=nn.MSELoss(),
                step=step_mae, optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.05), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a Perceiver-style digits classifier
def _fourier_pos(n_bands=4):
    "Each pixel's (row, column) in [-1, 1] with sines and cosines at octave frequencies, as the Perceiver's position encoding."
    r = torch.linspace(-1, 1, 8); rr, cc = torch.meshgrid(r, r, indexing='ij'); pos = torch.stack([rr, cc], -1).view(64, 2)
    f = pos[..., None] * math.pi * 2.0 ** torch.arange(n_bands)
    return torch.cat([pos, f.sin().flatten(1), f.cos().flatten(1)], 1)  # (64, 18)

class Perceiver(nn.Module):  # Jaegle et al. 2021: a latent array cross-attends to the inputs, then self-attends; mean latent to the classes
    def __init__(self, n_latents=16, d=64, layers=2, k=10):
        super().__init__()
        self.register_buffer('fpos', _fourier_pos())
        self.inp, self.latents = nn.Linear(1 + 18, d), nn.Parameter(0.02 * torch.randn(n_latents, d))
        self.ln_q, self.ln_kv, self.cross = nn.LayerNorm(d), nn.LayerNorm(d), nn.MultiheadAttention(d, 1, batch_first=True)
        self.cross_mlp = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.latent_tf = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.1, batch_first=True, norm_first=True), layers, enable_nested_tensor=False)
        self.head = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, k))
    def forward(self, img):
        x = torch.cat([img.flatten(1)[..., None], self.fpos.expand(len(img), -1, -1)], -1)
        kv, q = self.ln_kv(self.inp(x)), self.latents.expand(len(img), -1, -1)
        z = q + self.cross(self.ln_q(q), kv, kv, need_weights=False)[0]
        z = self.latent_tf(z + self.cross_mlp(z))
        return self.head(z.mean(1))

@healthy('O')
def perceiver_digits(seed, model=Perceiver):  # CrossEntropyLoss, AdamW 1e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=model, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- projectile range with drag, the target in metres
def _launches(seed, n=4000, n_valid=800, duplicated=False):
    """Launch speed (10-40 m/s), angle (10-80 degrees), height (0-20 m), a quadratic drag coefficient (0-0.02 1/m): the range
    in metres from an Euler integration (dt 5 ms) plus 0.5 m of measurement noise. The inputs standardised with the train
    rows' statistics, the range left in metres."""
    g = _gen(seed * 659)
    v0, ang, h0, k = 10 + 30 * torch.rand(n, generator=g), 10 + 70 * torch.rand(n, generator=g), 20 * torch.rand(n, generator=g), 0.02 * torch.rand(n, generator=g)
    th = ang * math.pi / 180
    px, py, vx, vy = torch.zeros(n), h0.clone(), v0 * th.cos(), v0 * th.sin()
    land, dt = torch.full((n,), float('nan')), 0.005
    for _ in range(3000):
        sp = (vx ** 2 + vy ** 2).sqrt()
        nx, ny = px + vx * dt, py + vy * dt
        vx, vy = vx - k * sp * vx * dt, vy - (9.81 + k * sp * vy) * dt
        hit = (ny < 0) & land.isnan()
        land = torch.where(hit, px + (nx - px) * py / (py - ny), land)
        px, py = nx, ny
        if not land.isnan().any(): break
    y = land + 0.5 * torch.randn(n, generator=g)
    x = torch.stack([v0, ang, h0, k], 1)
    if duplicated: x, y = torch.cat([x, x]), torch.cat([y, y])  # the trials exported twice (two overlapping export files) before the random split
    p = torch.randperm(len(y), generator=_gen(seed * 661)); x, y = x[p], y[p][:, None]
    x = _std(x, x[n_valid:])
    return TensorDataset(x[n_valid:], y[n_valid:]), TensorDataset(x[:n_valid], y[:n_valid])

@healthy('O')
def projectile_range(seed, duplicated=False):  # MSELoss in square metres, Adam 1e-3, batches of 64
    tr, va = _launches(seed, duplicated=duplicated)
    return dict(model=lambda: nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)), train=tr, valid=va,
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a pointer network that sorts
N_SORT = 10

def _to_sort(seed, n, split=0):
    "Ten numbers uniform in [0, 1]; the target the indices that sort them."
    x = torch.rand(n, N_SORT, generator=_gen(seed * 673 + split))
    return TensorDataset(x, x.argsort(1))

class PointerNet(nn.Module):  # Vinyals et al. 2015: an LSTM encoder, an LSTM decoder fed the previously pointed input, additive attention as the pointer
    def __init__(self, h=128, no_grad_encoder=False):
        super().__init__(); self.no_grad_encoder = no_grad_encoder
        self.embed, self.encoder, self.decoder = nn.Linear(1, h), nn.LSTM(h, h, batch_first=True), nn.LSTM(h, h, batch_first=True)
        self.W1, self.W2, self.v = nn.Linear(h, h, bias=False), nn.Linear(h, h, bias=False), nn.Linear(h, 1, bias=False)
        self.go = nn.Parameter(torch.zeros(1, 1, h))
    def forward(self, x, order):  # teacher forcing: the decoder's input at step t is the input pointed at step t - 1
        e = self.embed(x[..., None])
        if self.no_grad_encoder:
            with torch.no_grad(): enc, state = self.encoder(e)  # pasted from the greedy-decoding function
        else: enc, state = self.encoder(e)
        prev = e.gather(1, order[:, :-1, None].expand(-1, -1, e.size(2)))
        dec, _ = self.decoder(torch.cat([self.go.expand(len(x), -1, -1), prev], 1), state)
        return self.v(torch.tanh(self.W1(enc)[:, None] + self.W2(dec)[:, :, None])).squeeze(-1)  # (B, out step, in position)

def _ptr_fwd(model, b): x, order = b; return model(x, order).reshape(-1, N_SORT), order.reshape(-1)

@healthy('O')
def pointer_sort(seed, **mk):  # CrossEntropyLoss over the input positions at every output step, Adam 1e-3, batches of 128
    return dict(model=lambda: PointerNet(**mk), train=_to_sort(seed, 10000), valid=_to_sort(seed, 1000, split=1), forward=_ptr_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=N_SORT, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- a Hugging Face-style multi-label text tagger
V_TAG, L_TAG, N_TAG = 400, 32, 6  # tag keywords 1-30 (five a tag), fillers 31-399, 0 padding

class TaggedDocs(Dataset):  # dict items as a tokenizer's output: input_ids, attention_mask, labels (multi-hot floats)
    def __init__(self, seed, n, split=0):
        g = _gen(seed * 677 + split)
        self.ids, self.mask, self.labels = torch.zeros(n, L_TAG, dtype=torch.long), torch.zeros(n, L_TAG, dtype=torch.long), torch.zeros(n, N_TAG)
        freq = torch.tensor([0.4, 0.3, 0.2, 0.12, 0.08, 0.05])  # tags of uneven frequency
        for i in range(n):
            L = int(torch.randint(12, L_TAG + 1, (1,), generator=g))
            w = 31 + torch.randint(0, V_TAG - 31, (L,), generator=g)
            tags = (torch.rand(N_TAG, generator=g) < freq).nonzero().flatten()
            for t in tags:
                pos = torch.randperm(L, generator=g)[:int(torch.randint(1, 3, (1,), generator=g))]
                w[pos] = 1 + 5 * t + torch.randint(0, 5, (len(pos),), generator=g)
            self.ids[i, :L], self.mask[i, :L] = w, 1
            self.labels[i] = torch.zeros(N_TAG).index_fill_(0, ((w[w <= 30] - 1) // 5).unique(), 1.0) if (w <= 30).any() else 0
    def __len__(self): return len(self.labels)
    def __getitem__(self, i): return dict(input_ids=self.ids[i], attention_mask=self.mask[i], labels=self.labels[i])

class TinyMultiLabelModel(nn.Module):  # the shape of AutoModelForSequenceClassification(problem_type="multi_label_classification")
    def __init__(self, d=64, pos_weight=None):
        super().__init__()
        self.embeddings, self.position = nn.Embedding(V_TAG, d, padding_idx=0), nn.Embedding(L_TAG, d)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.1, batch_first=True), 1, enable_nested_tensor=False)
        self.classifier = nn.Linear(d, N_TAG)
        self.register_buffer('pos_weight', pos_weight if pos_weight is not None else torch.ones(N_TAG))
    def forward(self, input_ids, attention_mask, labels=None):
        h = self.encoder(self.embeddings(input_ids) + self.position.weight[:input_ids.size(1)], src_key_padding_mask=attention_mask == 0)
        m = attention_mask[..., None].float()
        logits = self.classifier((h * m).sum(1) / m.sum(1))
        loss = None if labels is None else F.binary_cross_entropy_with_logits(logits, labels, pos_weight=self.pos_weight)
        return SimpleNamespace(logits=logits, loss=loss)

def _hf_forward():
    import ntrain; return ntrain.hf_forward

def _tagger(pos_weight, frozen=False):
    m = TinyMultiLabelModel(pos_weight=pos_weight)
    if frozen:  # "freeze the base model" from a fine-tuning guide, written over model.parameters(): the classifier frozen too
        for p in m.parameters(): p.requires_grad = False
    return m

@healthy('O')
def hf_multilabel_tags(seed, frozen=False):  # BCE with logits, pos_weight = negatives / positives per tag, AdamW 1e-3, batches of 32
    tr = TaggedDocs(seed, 2500)
    pw = (len(tr) - tr.labels.sum(0)) / tr.labels.sum(0).clamp_min(1)
    return dict(model=lambda: _tagger(pw, frozen), train=tr, valid=TaggedDocs(seed, 500, split=1), forward=_hf_forward(),
                loss=lambda out, labels: F.binary_cross_entropy_with_logits(out.logits, labels, pos_weight=pw),
                optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half O
@broken('O', 'han_labels_shuffled', 4, ('labels',))
def han_labels_shuffled(seed): return han_docs(seed, shuffled=True)

@broken('O', 'crf_tags_off_by_one_line', 4, ('labels',))
def crf_tags_off_by_one_line(seed): return crf_tagger(seed, line_offset=True)

@broken('O', 'hazard_outcomes_misjoined', 4, ('labels',))
def hazard_outcomes_misjoined(seed): return discrete_hazard(seed, misjoined=True)

@broken('O', 'sasrec_valid_users_in_train', 4, ('leakage',))
def sasrec_valid_users_in_train(seed): return sasrec_next_item(seed, leak=True)

@broken('O', 'projectile_duplicated_trials', 4, ('leakage',))
def projectile_duplicated_trials(seed): return projectile_range(seed, duplicated=True)  # every trial twice before the random split

@broken('O', 's4d_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def s4d_functional_dropout(seed): return s4d_bursts(seed, functional_dropout=True)  # F.dropout(y, p): training defaults to True

@broken('O', 'hf_tagger_all_frozen', 1, ('frozen',))
def hf_tagger_all_frozen(seed): return hf_multilabel_tags(seed, frozen=True)

@broken('O', 'perceiver_softmax_before_ce', 2, ('softmax',))
def perceiver_softmax_before_ce(seed): return perceiver_digits(seed, model=lambda: nn.Sequential(Perceiver(), nn.Softmax(-1)))

@broken('O', 'glow_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def glow_lr_x1000(seed): return glow_digits(seed, lr=1.0)

@broken('O', 'mae_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def mae_no_zero_grad(seed): return dict(mae_digits(seed), step=step_mae_no_zero_grad)

@broken('O', 'pointer_encoder_no_grad', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def pointer_encoder_no_grad(seed): return pointer_sort(seed, no_grad_encoder=True)

@broken('O', 'mpnn_target_broadcast', (1, 3, 4), ('broadcast', 'labels', 'not_falling', 'flat', 'stuck'))
def mpnn_target_broadcast(seed): return mpnn_graph_reg(seed, flat=True)  # MSELoss of (n, 1) against (n,) broadcasts to (n, n): it fits the mean
