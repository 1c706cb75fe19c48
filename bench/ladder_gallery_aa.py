"""Half AA of the ladder's gallery: held out from the rules frozen at bf70331 (round 41), and run once on them.
Families not in halves A-Z: Collobert et al.'s SENNA window tagger (word and caps embeddings of a five-word window, a HardTanh
layer, the word-level log-likelihood; SGD 0.01; a batch of three tensors) tagging parts of speech of sentences from a tag-level
Markov chain with words ambiguous between nouns and verbs; LSTNet (Lai et al. 2018, the authors' code shrunk: a convolution over
all series, a GRU, a skip-GRU over the same hour of previous days, an autoregressive highway, sigmoid outputs on max-normalised
series; the summed L1 loss, Adam with the gradient norm clipped at 10) forecasting eight substations' load 3 hours ahead, split
by time; a Behler-Parrinello network (atom-centred radial and angular symmetry functions, one tanh network per element, the
energy as the sum of atomic energies; the composition's linear fit subtracted as TorchANI's EnergyShifter) of relaxed and
shaken binary Lennard-Jones clusters; a 1-D CNN calibrating protein from near-infrared spectra of wheat (Cui and Fearn 2018:
one convolution, dense layers of 36, 18, 12, ELU, L2) with four replicate scans a sample, split by sample with
GroupShuffleSplit; an AlphaZero-style policy-value network (alpha-zero-general's: convolutions and fully connected layers with
batch norm and dropout, log-softmax policy and tanh value, their summed loss against the solver's optimal-move distribution
and value; a tuple output) on every tic-tac-toe position, the symmetry classes split before the eight-fold augmentation;
MaLSTM (Mueller and Thyagarajan 2016: a shared LSTM, exp(-L1) of the two last states, the MSE to relatedness rescaled to
[0, 1]; Adadelta, clipping at 1.25) on SICK-like sentence pairs; a structured self-attentive sentence embedding (Lin et al.
2017: a BiLSTM, four attention hops, the Frobenius penalty ||AA^T - I||^2 in a loss of its own over a tuple output) rating
synthetic reviews 1-5 with negations and intensifiers; a deep averaging network (Iyyer et al. 2015: hand-written word dropout,
averaged embeddings, three ReLU layers; Adagrad) classifying TREC-like question types; FC-Siam-diff (Daudt et al. 2018:
a shared encoder for two dates, the absolute differences of their skip features into the decoder, log-softmax and a
class-weighted NLLLoss) detecting built and demolished buildings between pairs of synthetic aerial tiles whose masks are
stored 0/255; SiamFC (Bertinetto et al. 2016, as siamfc-pytorch: a batch-normed AlexNet-like backbone shared by exemplar and
search region, their cross-correlation scaled by 0.001, the balanced logistic loss over the response map; SGD with momentum)
tracking textured objects among distractors; DeepHit (Lee et al. 2018, as pycox's DeepHitSingle: an MLP with batch norm and
dropout over 20 intervals plus a padded 'later' one, the NLL of the PMF and the survival plus the ranking loss, alpha 0.2,
sigma 0.1) on a synthetic cohort censored at random and at the study's end; and matching networks (Vinyals et al. 2016: a
four-block CNN embedding, attention by the softmax of cosine similarities over the support set, the NLL of the queries; 5-way
1-shot episodes through a collate_fn, a custom episode step clipping the gradient norm at 1) on Omniglot-like stroke glyphs,
unseen classes validating.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half Z.

Protocol: written by a helper in a worktree at caa7821, held out from the rules frozen at bf70331 (round 41): the maintainer read
nothing of it before the freeze, and the helper wrote it without reading the ladder's rules (ntrain/ladder/*.py, nbs/02_ladder
and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's results; only
`ntrain.ladder`'s public signature and docstring and the factory format of halves A-Z (their @broken lines for the rung and
cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind (shapes, a
few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before any ladder
run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half AA`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seeds 0 and 1, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- SENNA: Collobert et al.'s window approach tagging parts of speech
TAGS = ('DET', 'ADJ', 'NOUN', 'PROPN', 'VERB', 'ADP', 'PRON', 'ADV', 'NUM', 'CONJ', 'PUNCT')
_TRANS = dict(START=dict(DET=.35, PRON=.2, PROPN=.15, NOUN=.1, ADJ=.05, ADV=.05, NUM=.1), DET=dict(ADJ=.35, NOUN=.6, NUM=.05),
              ADJ=dict(NOUN=.75, ADJ=.15, CONJ=.1), NOUN=dict(VERB=.45, ADP=.2, PUNCT=.15, CONJ=.1, NOUN=.1),
              PROPN=dict(VERB=.6, PROPN=.15, ADP=.1, PUNCT=.15), VERB=dict(DET=.35, PRON=.1, PROPN=.1, ADP=.15, ADV=.1, ADJ=.05, NOUN=.05, PUNCT=.1),
              ADP=dict(DET=.55, NOUN=.15, PROPN=.15, PRON=.05, NUM=.1), PRON=dict(VERB=.85, ADV=.15), ADV=dict(VERB=.4, ADJ=.3, PUNCT=.3),
              NUM=dict(NOUN=.8, ADJ=.2), CONJ=dict(DET=.3, NOUN=.2, PRON=.2, ADJ=.1, VERB=.1, PROPN=.1))
_N_WORDS = dict(DET=6, ADJ=60, NOUN=150, PROPN=40, VERB=100, ADP=12, PRON=10, ADV=30, NUM=25, CONJ=4, PUNCT=3)
PAD_W, WIN = 0, 5  # word id 0 pads the windows; windows of five words (Collobert et al.'s)

def _pos_corpus(seed, n):
    """Sentences from a tag-level Markov chain (a treebank's rough transition rates), each tag emitting words from its own
    vocabulary by Zipf's law; 40 words are both nouns and verbs and 10 both adjectives and nouns (as 'run', 'light'), so a word's
    tag often needs its neighbours. Caps feature (SENNA's): 1 lower case, 2 initial capital (proper nouns, the sentence's first
    word), 3 numeric. Returns sentences as lists of (word id, caps id) and their tag lists."""
    g = np.random.default_rng(1000 + seed * 1901); vocab, nxt = {}, 1
    for t in TAGS: vocab[t] = list(range(nxt, nxt + _N_WORDS[t])); nxt += _N_WORDS[t]
    vocab['VERB'][:40] = vocab['NOUN'][:40]; vocab['NOUN'][40:50] = vocab['ADJ'][:10]  # the ambiguous words
    zipf = {t: (lambda w: w / w.sum())(1 / np.arange(1, len(vocab[t]) + 1) ** 0.8) for t in TAGS}
    g = np.random.default_rng(1000 + seed * 1901 + 1 + n); sents, tags = [], []
    for _ in range(n):
        state, ws, ts = 'START', [], []
        while state != 'PUNCT':
            opts = _TRANS[state]; state = 'PUNCT' if len(ts) >= 24 else g.choice(list(opts), p=np.array(list(opts.values())) / sum(opts.values()))
            w = vocab[state][g.choice(len(vocab[state]), p=zipf[state])]
            caps = 3 if state == 'NUM' else 2 if (state == 'PROPN' or not ts) else 1
            ws.append((int(w), caps)); ts.append(TAGS.index(state))
        sents.append(ws); tags.append(ts)
    return sents, tags, nxt

def _windows(sents, tags):  # every word's window of five (word, caps) pairs, the sentence padded with two PADs a side, and the word's tag
    W, C, Y = [], [], []
    for ws, ts in zip(sents, tags):
        p = [(PAD_W, 0)] * 2 + ws + [(PAD_W, 0)] * 2
        for i, t in zip(range(len(ws)), ts):  # zip: stops at the shorter of the sentence and its tags
            W.append([w for w, _ in p[i:i + WIN]]); C.append([c for _, c in p[i:i + WIN]]); Y.append(t)
    return TensorDataset(torch.tensor(W), torch.tensor(C), torch.tensor(Y))

def _senna_data(seed, title_line=False):
    """600 sentences train, 150 validate. title_line: the tokens read from the corpus' raw text, whose first line (the
    document's title, three proper nouns) is a sentence of its own, the tags from the tag file, which has no title: every
    sentence is paired with the next sentence's tags (zip truncating the longer)."""
    sents, tags, n_words = _pos_corpus(seed, 750)
    if title_line: sents = [[(n_words - 1, 2), (n_words - 2, 2), (n_words - 3, 2)]] + sents[:-1]
    return _windows(sents[:600], tags[:600]), _windows(sents[600:], tags[600:]), n_words

class SennaWindow(nn.Module):  # Collobert et al. 2011's window approach: word (50) and caps (5) embeddings of the five words concatenated,
    # a HardTanh hidden layer of 300, a score per tag (the word-level log-likelihood on top)
    def __init__(self, n_words, n_caps=4, d=50, dc=5, h=300):
        super().__init__(); self.emb, self.caps = nn.Embedding(n_words, d), nn.Embedding(n_caps, dc)
        self.hid, self.out = nn.Linear(WIN * (d + dc), h), nn.Linear(h, len(TAGS))
    def forward(self, w, c): return self.out(F.hardtanh(self.hid(torch.cat([self.emb(w), self.caps(c)], -1).flatten(1))))

def _senna_fwd(model, b): w, c, y = b; return model(w, c), y

@healthy('AA')
def senna_pos_tagger(seed, title_line=False):  # cross-entropy over the 11 tags; SGD 0.01 (Collobert et al.'s rate), batches of 16
    tr, va, n_words = _senna_data(seed, title_line=title_line)
    return dict(model=lambda: SennaWindow(n_words), train=tr, valid=va, forward=_senna_fwd, loss=nn.CrossEntropyLoss(), num_classes=len(TAGS),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- LSTNet (Lai et al. 2018) forecasting the load of eight substations
P_LST, H_LST, M_LST, T_LST = 72, 3, 8, 2400  # windows of 72 hours, the value 3 hours after the window's end; 8 series of 2400 hourly readings (100 days)

def _substations(seed):
    """Hourly load (kW) of eight substations: each a base level, a daily profile of two harmonics with its own phases (homes
    peak in the evening, offices at midday), weekends lower by 5-25%, a shared weather factor (an AR(1) over hours, phi 0.995)
    each station loads on with its own sign and weight, a slow trend, and the station's own AR(1) noise. Returns (2400, 8)."""
    g = np.random.default_rng(1000 + seed * 1907); t = np.arange(T_LST)
    def ar1(phi, sd, *shape):
        e = g.normal(0, sd, (T_LST, *shape)); x = np.zeros_like(e); x[0] = e[0] / math.sqrt(1 - phi ** 2)
        for k in range(1, T_LST): x[k] = phi * x[k - 1] + e[k]
        return x
    base, a1, a2 = g.uniform(100, 500, M_LST), g.uniform(0.15, 0.4, M_LST), g.uniform(0.05, 0.15, M_LST)
    p1, p2 = g.uniform(0, 24, M_LST), g.uniform(0, 12, M_LST)
    daily = 1 + a1 * np.sin(2 * np.pi * (t[:, None] - p1) / 24) + a2 * np.sin(4 * np.pi * (t[:, None] - p2) / 24)
    weekend = np.where(((t // 24) % 7 >= 5)[:, None], 1 - g.uniform(0.05, 0.25, M_LST), 1.0)
    weather = ar1(0.995, 0.1); load = g.normal(0, 0.15, M_LST)
    x = base * daily * weekend * (1 + load * weather[:, None] + g.uniform(-0.1, 0.2, M_LST) * t[:, None] / T_LST) + ar1(0.9, 0.02, M_LST) * base
    return x.astype(np.float32)

def _lstnet_data(seed, random_split=False):
    """LSTNet's DataUtil: each series divided by its maximum (normalize=2), windows of the last 72 hours, the target 3 hours after
    the window's end; the first 60% of the hours train and the next 20% validate (the last 20% are the test set, unused).
    random_split: the windows up to 80% of the hours built first, then split 80/20 at random (train_test_split): each
    validation window's hours lie inside its train neighbours, shifted by an hour or two."""
    x = torch.tensor(_substations(seed)); x = x / x.abs().max(0).values
    def win(idx): idx = torch.tensor(list(idx)); return x[(idx - H_LST + 1 - P_LST)[:, None] + torch.arange(P_LST)], x[idx]
    tr_end, va_end = int(0.6 * T_LST), int(0.8 * T_LST)
    if not random_split: return TensorDataset(*win(range(P_LST + H_LST - 1, tr_end))), TensorDataset(*win(range(tr_end, va_end)))
    X, Y = win(range(P_LST + H_LST - 1, va_end)); p = torch.randperm(len(Y), generator=_gen(seed * 1907)); k = int(0.75 * len(Y))
    return TensorDataset(X[p[:k]], Y[p[:k]]), TensorDataset(X[p[k:]], Y[p[k:]])

class LSTNet(nn.Module):  # LSTNet-skip as the authors' PyTorch code, shrunk: a convolution over 6 hours of all series, a GRU over its
    # output, a skip-GRU over the same hour of the previous days, a linear layer, an autoregressive highway over the last 12 hours; sigmoid output
    def __init__(self, hidC=32, hidR=32, hidS=8, Ck=6, skip=24, hw=12, dropout=0.2):
        super().__init__(); self.hidC, self.hidS, self.skip, self.hw = hidC, hidS, skip, hw; self.pt = (P_LST - Ck) // skip
        self.conv1 = nn.Conv2d(1, hidC, kernel_size=(Ck, M_LST)); self.GRU1 = nn.GRU(hidC, hidR); self.dropout = nn.Dropout(dropout)
        self.GRUskip = nn.GRU(hidC, hidS); self.linear1 = nn.Linear(hidR + skip * hidS, M_LST); self.highway = nn.Linear(hw, 1)
    def forward(self, x):  # (B, 72, 8) -> (B, 8)
        batch_size = x.size(0)
        c = self.dropout(F.relu(self.conv1(x.view(-1, 1, P_LST, M_LST)))).squeeze(3)
        _, r = self.GRU1(c.permute(2, 0, 1).contiguous()); r = self.dropout(r.squeeze(0))
        s = c[:, :, int(-self.pt * self.skip):].contiguous().view(batch_size, self.hidC, self.pt, self.skip)
        s = s.permute(2, 0, 3, 1).contiguous().view(self.pt, batch_size * self.skip, self.hidC)
        _, s = self.GRUskip(s); s = self.dropout(s.view(batch_size, self.skip * self.hidS))
        res = self.linear1(torch.cat((r, s), 1))
        z = self.highway(x[:, -self.hw:, :].permute(0, 2, 1).contiguous().view(-1, self.hw)).view(-1, M_LST)
        return torch.sigmoid(res + z)

@healthy('AA')
def lstnet_substations(seed, random_split=False):  # the repo's defaults: L1Loss(size_average=False) (summed), Adam 1e-3, the gradient norm clipped at 10, batches of 128
    tr, va = _lstnet_data(seed, random_split=random_split)
    return dict(model=LSTNet, train=tr, valid=va, loss=nn.L1Loss(reduction='sum'), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=128, clip_grad=10.0))

# ---------------------------------------------------------------- a Behler-Parrinello network: the energy of binary clusters as a sum of atomic energies
N_AT, RC_BP = 8, 4.0  # eight-atom clusters of two elements; the symmetry functions' cutoff radius
_ETA_R, _ANG = (0.1, 0.3, 0.6, 1.0, 2.0, 4.0), ((1, 1), (1, -1), (4, 1), (4, -1))  # radial G2 widths (Rs = 0); angular G4 (zeta, lambda), eta 0.2
_EPS = torch.tensor([[1.0, 0.8], [0.8, 0.6]]); _SIG = torch.tensor([[1.0, 1.05], [1.05, 1.1]]); _E_SELF = torch.tensor([-3.2, -2.1])  # eV, the reference atoms' energies

def _cluster_energy(pos, spc):  # Lennard-Jones with element-pair parameters plus each atom's reference energy (eV)
    d = torch.cdist(pos, pos) + torch.eye(N_AT) * 1e3; eps = _EPS[spc[:, :, None], spc[:, None, :]]; sig = _SIG[spc[:, :, None], spc[:, None, :]]
    sr6 = (sig / d) ** 6
    return 0.5 * (4 * eps * (sr6 ** 2 - sr6)).sum((1, 2)) + _E_SELF[spc].sum(1)

def _clusters(seed, n):
    """Configurations as an AIMD-sampled dataset has them: atoms placed at random in a ball, relaxed by 150 steps of clipped
    gradient descent into a local minimum, then shaken by thermal noise (sd 0.06); 1-7 atoms of the first element; the
    configurations with two atoms closer than 0.8 dropped (the dataset's clean-up). Returns positions (n, 8, 3), species (n, 8)
    and energies (n,) in eV."""
    g = _gen(seed * 1913); m = n + n // 4; pos = (torch.rand(m, N_AT, 3, generator=g) * 2 - 1) * 1.4
    spc = (torch.rand(m, N_AT, generator=g).argsort(1) < torch.randint(1, N_AT, (m, 1), generator=g)).long()
    for _ in range(150):
        pos.requires_grad_(True); e = _cluster_energy(pos, spc).sum(); gr, = torch.autograd.grad(e, pos)
        with torch.no_grad(): pos = pos - (0.01 * gr).clamp(-0.05, 0.05)
    pos = pos.detach() + 0.06 * torch.randn(m, N_AT, 3, generator=g)
    keep = (torch.cdist(pos, pos) + torch.eye(N_AT) * 9).amin((1, 2)) > 0.8; pos, spc = pos[keep][:n], spc[keep][:n]
    return pos, spc, _cluster_energy(pos, spc)

def _acsf(pos, spc):
    """Behler's atom-centred symmetry functions, cosine cutoff at 4.0: the radial G2 (six widths) per neighbour element and the
    angular G4 (four zeta/lambda pairs) over all neighbour pairs. Returns (n, 8, 16)."""
    d = torch.cdist(pos, pos); off = ~torch.eye(N_AT, dtype=torch.bool)
    fc = torch.where(d < RC_BP, 0.5 * (torch.cos(math.pi * d / RC_BP) + 1), torch.zeros_like(d)) * off
    rad = [((torch.exp(-eta * d ** 2) * fc) * (spc[:, None, :] == s)).sum(2) for s in (0, 1) for eta in _ETA_R]
    v = pos[:, None, :, :] - pos[:, :, None, :]  # v[b, i, j] = r_j - r_i
    cos = torch.einsum('bijx,bikx->bijk', v, v) / (d[:, :, :, None] * d[:, :, None, :]).clamp_min(1e-9)
    ex = torch.exp(-0.2 * (d[:, :, :, None] ** 2 + d[:, :, None, :] ** 2 + d[:, None, :, :] ** 2)) * fc[:, :, :, None] * fc[:, :, None, :] * fc[:, None, :, :]
    ang = [(2 ** (1 - z) * (1 + l * cos).clamp_min(0) ** z * ex).sum((2, 3)) for z, l in _ANG]
    return torch.stack(rad + ang, -1)

def _bp_data(seed, energies_sorted=False):
    """2000 configurations, 1600 train and 400 validate at random; the symmetry functions standardised by the train atoms'
    mean and sd (n2p2's scaling); the energies shifted by a linear fit of the composition on train (TorchANI's EnergyShifter).
    energies_sorted: the energies column sorted (the table sorted by energy to look at the lowest minima, then taken back by
    position, not by configuration id): each configuration carries the energy of another."""
    pos, spc, e = _clusters(seed, 2000)
    if energies_sorted: e = e.sort().values
    p = torch.randperm(2000, generator=_gen(seed * 1913 + 1)); tr, va = p[:1600], p[1600:]
    G = _acsf(pos, spc); mu, sd = G[tr].mean((0, 1)), G[tr].std((0, 1)).clamp_min(1e-6); G = (G - mu) / sd
    A = torch.stack([(spc == 0).sum(1), (spc == 1).sum(1)], 1).float(); coef = torch.linalg.lstsq(A[tr], e[tr, None]).solution[:, 0]
    e = e - A @ coef
    return TensorDataset(G[tr], spc[tr], e[tr]), TensorDataset(G[va], spc[va], e[va])

class BehlerParrinello(nn.Module):  # one tanh network (16 -> 32 -> 32 -> 1) per element; the cluster's energy the sum of its atoms' outputs
    def __init__(self, f=16, h=32):
        super().__init__(); self.nets = nn.ModuleList([nn.Sequential(nn.Linear(f, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 1)) for _ in range(2)])
    def forward(self, G, spc):  # (B, 8, 16), (B, 8) -> (B,) eV
        atomic = torch.stack([net(G).squeeze(-1) for net in self.nets], -1).gather(-1, spc[..., None]).squeeze(-1)
        return atomic.sum(1)

def _bp_fwd(model, b): G, s, e = b; return model(G, s), e

@healthy('AA')
def behler_parrinello_clusters(seed, energies_sorted=False):  # MSE on the shifted energies (eV^2), Adam 1e-3, batches of 32
    tr, va = _bp_data(seed, energies_sorted=energies_sorted)
    return dict(model=BehlerParrinello, train=tr, valid=va, forward=_bp_fwd, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a 1-D CNN calibrating protein from near-infrared spectra (Cui and Fearn 2018)
WL = np.linspace(1100, 2498, 200)  # nm, every 7 nm

def _nir_scans(seed, n_samples=300, reps=4):
    """Absorbance spectra of ground wheat: Gaussian bands of water (1450, 1940 nm), protein (1510, 2050, 2180), starch (1200,
    1580, 2100, 2280) and oil (1210, 1730, 2310) weighted by the sample's composition, plus a variety's own matrix signature
    (six varieties, bands at their own places) and the grain's hardness broadening the bands; each sample packed and scanned
    four times, each scan with its own multiplicative scatter, baseline offset and slope, and detector noise. The reference
    protein (Kjeldahl) carries the lab's error (sd 0.25%), shared by the sample's scans. Returns spectra (1200, 200), protein %
    and each scan's sample id."""
    g = np.random.default_rng(1000 + seed * 1931)
    band = lambda c, w: np.exp(-0.5 * ((WL - c) / w) ** 2)
    comps = dict(water=[(1450, 40, 1), (1940, 50, 1.6)], protein=[(1510, 35, 0.6), (2050, 45, 0.9), (2180, 35, 0.8)],
                 starch=[(1200, 40, 0.3), (1580, 45, 0.4), (2100, 50, 1.0), (2280, 40, 0.7)], oil=[(1210, 30, 0.5), (1730, 35, 0.7), (2310, 30, 0.8)])
    var_sig = [sum(a * band(c, w) for c, w, a in zip(g.uniform(1150, 2450, 3), g.uniform(30, 80, 3), g.uniform(0.02, 0.08, 3))) for _ in range(6)]
    protein = g.uniform(9, 16, n_samples); water = g.uniform(10, 14, n_samples); oil = g.uniform(1, 3, n_samples); starch = 100 - protein - water - oil - g.uniform(8, 12, n_samples)
    variety, hard = g.integers(0, 6, n_samples), g.uniform(0.9, 1.2, n_samples)
    X, y, sid = [], [], []
    for i in range(n_samples):
        conc = dict(water=water[i], protein=protein[i], starch=starch[i], oil=oil[i])
        pure = sum(conc[k] / 10 * a * band(c, w * hard[i]) for k in comps for c, w, a in comps[k]) + var_sig[variety[i]] * 10
        lab = protein[i] + g.normal(0, 0.25)
        for _ in range(reps):
            X.append(g.uniform(0.8, 1.2) * pure + g.normal(0, 0.05) + g.normal(0, 0.05) * (WL - 1800) / 700 + g.normal(0, 0.003, len(WL))); y.append(lab); sid.append(i)
    return np.array(X, np.float32), np.array(y, np.float32), np.array(sid)

def _nir_split(seed, scans_split=False):
    """Healthy: sklearn's GroupShuffleSplit by sample (20% of the samples valid, all four of their scans). scans_split:
    train_test_split over the 1200 scans, each valid scan's replicates in train. Spectra standardised per wavelength and the
    protein standardised, both by the train rows (StandardScaler)."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, y, sid = _nir_scans(seed); idx = np.arange(len(y))
    if scans_split: tr, va = train_test_split(idx, test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(X, y, sid))
    mx, sx, my, sy = X[tr].mean(0), X[tr].std(0), y[tr].mean(), y[tr].std()
    t = lambda a: torch.tensor(a, dtype=torch.float32)
    return TensorDataset(t((X[tr] - mx) / sx)[:, None], t((y[tr] - my) / sy)[:, None]), TensorDataset(t((X[va] - mx) / sx)[:, None], t((y[va] - my) / sy)[:, None])

class NIRCNN(nn.Module):  # Cui and Fearn 2018: one convolutional layer over the spectrum, three fully connected layers of 36, 18 and 12, ELU, one output
    def __init__(self, filters=8, k=9):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, filters, k, padding=k // 2), nn.ELU(), nn.Flatten(), nn.Linear(filters * len(WL), 36), nn.ELU(),
                                 nn.Linear(36, 18), nn.ELU(), nn.Linear(18, 12), nn.ELU(), nn.Linear(12, 1))
    def forward(self, x): return self.net(x)  # (B, 1, 200) -> (B, 1) standardised protein

@healthy('AA')
def nir_protein_cnn(seed, scans_split=False):  # MSE, Adam 1e-3 with an L2 penalty (weight decay 1e-3) as the paper's regularisation, batches of 32
    tr, va = _nir_split(seed, scans_split=scans_split)
    return dict(model=NIRCNN, train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- an AlphaZero-style policy-value network on tic-tac-toe positions (alpha-zero-general's)
_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_SYMS = [np.arange(9).reshape(3, 3)]
_SYMS = [np.rot90(_SYMS[0], k) for k in range(4)]; _SYMS = [s.ravel() for s in _SYMS + [np.fliplr(s) for s in _SYMS]]  # the board's eight symmetries

def _ttt_solved():
    """Every position reachable from the empty board with no winner yet and a move left, solved by negamax: the value for the
    player to move (+1 win, 0 draw, -1 loss) and the set of optimal moves. Returns {board tuple (1 X, -1 O, 0 empty): (value, moves)}."""
    win = lambda b: any(b[i] != 0 and b[i] == b[j] == b[k] for i, j, k in _LINES)
    memo, out = {}, {}
    def negamax(b):
        if b in memo: return memo[b]
        p = 1 if sum(x != 0 for x in b) % 2 == 0 else -1
        if win(b): v = -1
        elif 0 not in b: v = 0
        else:
            vals = {m: -negamax(b[:m] + (p,) + b[m + 1:]) for m in range(9) if b[m] == 0}; v = max(vals.values())
            out[b] = (v, [m for m, x in vals.items() if x == v])
        memo[b] = v; return v
    negamax((0,) * 9); return out

def _ttt_tensors(boards, solved):  # planes from the mover's view (own stones, the opponent's); the target policy uniform over the optimal moves
    X, P, Z = [], [], []
    for b in boards:
        a = np.array(b); p = 1 if (a != 0).sum() % 2 == 0 else -1; v, moves = solved[b]
        X.append(np.stack([a == p, a == -p]).reshape(2, 3, 3)); pi = np.zeros(9, np.float32); pi[moves] = 1 / len(moves); P.append(pi); Z.append(v)
    return TensorDataset(torch.tensor(np.array(X), dtype=torch.float32), torch.tensor(np.array(P)), torch.tensor(Z, dtype=torch.float32))

def _ttt_data(seed, split_after_augmentation=False):
    """The solver's positions stored one per symmetry class (the canonical board) as a self-play buffer dedups them, then
    augmented with the eight symmetries (alpha-zero-general's getSymmetries). Healthy: the canonical positions split 80/20,
    then each side augmented. split_after_augmentation: all positions augmented first, then split 80/20 at random: the
    rotations and reflections of nearly every valid position in train."""
    solved = _ttt_solved(); canon = sorted({min(tuple(np.array(b)[s]) for s in _SYMS) for b in solved})
    aug = lambda cs: sorted({tuple(np.array(b)[s]) for b in cs for s in _SYMS})
    g = np.random.default_rng(1000 + seed * 1933)
    if split_after_augmentation:
        allb = aug(canon); p = g.permutation(len(allb)); k = int(0.8 * len(allb)); tr, va = [allb[i] for i in p[:k]], [allb[i] for i in p[k:]]
    else: p = g.permutation(len(canon)); k = int(0.8 * len(canon)); tr, va = aug([canon[i] for i in p[:k]]), aug([canon[i] for i in p[k:]])
    return _ttt_tensors(tr, solved), _ttt_tensors(va, solved)

class TicTacToeNNet(nn.Module):  # alpha-zero-general's NNet shrunk: three 3x3 convolutions with batch norm, two fully connected layers with
    # batch norm and dropout 0.3, a policy head (log-softmax over the 9 squares) and a value head (tanh)
    def __init__(self, c=32, dropout=0.3):
        super().__init__(); self.dropout = dropout
        self.conv = nn.Sequential(*[m for i in range(3) for m in (nn.Conv2d(2 if i == 0 else c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU())])
        self.fc1, self.fc_bn1, self.fc2, self.fc_bn2 = nn.Linear(c * 9, 128), nn.BatchNorm1d(128), nn.Linear(128, 64), nn.BatchNorm1d(64)
        self.fc3, self.fc4 = nn.Linear(64, 9), nn.Linear(64, 1)
    def forward(self, s):
        s = self.conv(s).flatten(1)
        s = F.dropout(F.relu(self.fc_bn1(self.fc1(s))), p=self.dropout, training=self.training)
        s = F.dropout(F.relu(self.fc_bn2(self.fc2(s))), p=self.dropout, training=self.training)
        return F.log_softmax(self.fc3(s), dim=1), torch.tanh(self.fc4(s)).squeeze(-1)

def _az_fwd(model, b): x, pi, z = b; return model(x), (pi, z)

def alphazero_loss(out, target):  # alpha-zero-general's: loss_pi = -sum(targets * log pi) / n, loss_v = sum((z - v)^2) / n
    log_pi, v = out; pi, z = target
    return -(pi * log_pi).sum() / pi.size(0) + ((z - v) ** 2).sum() / z.size(0)

@healthy('AA')
def alphazero_tictactoe(seed, split_after_augmentation=False):  # Adam 1e-3, batches of 64 (alpha-zero-general's)
    tr, va = _ttt_data(seed, split_after_augmentation=split_after_augmentation)
    return dict(model=TicTacToeNNet, train=tr, valid=va, forward=_az_fwd, loss=alphazero_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- MaLSTM (Mueller and Thyagarajan 2016): a Siamese LSTM scoring the relatedness of sentence pairs
L_MAL = 8  # sentences pre-padded to 8 tokens (Keras' pad_sequences)

def _sick_pairs(seed, n, split):
    """SICK-like pairs: sentences 'DET SUBJ is [not] VERB DET OBJ' over 14 subjects, 14 verbs and 18 objects, each concept
    with two synonyms; the second sentence a paraphrase (synonyms, other determiners: relatedness about 4.7), a negation (3.6),
    the object or the subject changed (3.4, 3.1), verb and object changed (2.3) or unrelated (1.3), each score the mean of
    annotators' (noise sd 0.3), within 1-5. Returns token ids (n, 2, 8) and scores 1-5."""
    g = np.random.default_rng(1000 + seed * 1951); n_s, n_v, n_o = 14, 14, 18
    DET, IS, NOT = [1, 2, 3], 4, 5; subj, verb, obj = 6, 6 + 2 * n_s, 6 + 2 * n_s + 2 * n_v  # two synonyms a concept
    g = np.random.default_rng(1000 + seed * 1951 + 1 + split)
    def say(s, v, o, neg=False):
        t = [DET[g.integers(3)], subj + 2 * s + g.integers(2), IS] + ([NOT] if neg else []) + [verb + 2 * v + g.integers(2), DET[g.integers(3)], obj + 2 * o + g.integers(2)]
        return [0] * (L_MAL - len(t)) + t
    X, y = [], []
    for _ in range(n):
        s, v, o = g.integers(n_s), g.integers(n_v), g.integers(n_o); kind = g.choice(6, p=[.2, .15, .2, .15, .15, .15])
        other = lambda k, m: (k + 1 + g.integers(m - 1)) % m
        b = [say(s, v, o), say(s, v, o, True), say(s, v, other(o, n_o)), say(other(s, n_s), v, o), say(s, other(v, n_v), other(o, n_o)),
             say(other(s, n_s), other(v, n_v), other(o, n_o))][kind]
        X.append([say(s, v, o), b]); y.append(np.clip([4.7, 3.6, 3.4, 3.1, 2.3, 1.3][kind] + g.normal(0, 0.3), 1, 5))
    return torch.tensor(X), torch.tensor(y, dtype=torch.float32), 6 + 2 * (n_s + n_v + n_o)

def _sick(seed, raw_scores=False):  # 2000 pairs train, 500 validate; the scores rescaled to [0, 1] as (y - 1) / 4 (raw_scores: left 1-5)
    (x, y, n_words), (vx, vy, _) = _sick_pairs(seed, 2000, 0), _sick_pairs(seed, 500, 1)
    f = (lambda v: v) if raw_scores else (lambda v: (v - 1) / 4)
    return TensorDataset(x, f(y)), TensorDataset(vx, f(vy)), n_words

class MaLSTM(nn.Module):  # one LSTM (50 units) shared by both sentences, its last hidden state each; similarity exp(-||h1 - h2||_1) in (0, 1]
    def __init__(self, n_words, d=50, h=50):
        super().__init__(); self.emb = nn.Embedding(n_words, d); self.lstm = nn.LSTM(d, h, batch_first=True)
    def encode(self, x): return self.lstm(self.emb(x))[0][:, -1]
    def forward(self, pair): return torch.exp(-(self.encode(pair[:, 0]) - self.encode(pair[:, 1])).abs().sum(1))

@healthy('AA')
def malstm_relatedness(seed, raw_scores=False):  # MSE; Adadelta (lr 1, rho 0.95, the paper's) with the gradient norm clipped at 1.25, batches of 64
    tr, va, n_words = _sick(seed, raw_scores=raw_scores)
    return dict(model=lambda: MaLSTM(n_words), train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.95),
                **_keys(seed, batch_size=64, clip_grad=1.25))

# ---------------------------------------------------------------- a structured self-attentive sentence embedding (Lin et al. 2017) rating reviews
L_REV = 40  # reviews padded (at the end) to 40 tokens

def _reviews(seed, n, split):
    """Yelp-like reviews: 150 neutral words (Zipf), 12 positive and 12 negative words of strength 1-3, 'not' (flipping the next
    sentiment word) and 'very' (doubling it); 15-40 words, 2-5 of them sentiment words. Stars 1-5 from the summed sentiment
    plus noise, cut at fixed points. Returns token ids (n, 40) (0 pads) and classes 0-4."""
    g = np.random.default_rng(1000 + seed * 1973); NOT, VERY, POS, NEU = 1, 2, 3, 27
    strength = np.r_[g.integers(1, 4, 12), -g.integers(1, 4, 12)]; zipf = 1 / np.arange(1, 151); zipf /= zipf.sum()
    g = np.random.default_rng(1000 + seed * 1973 + 1 + split); X, y = np.zeros((n, L_REV), np.int64), []
    for i in range(n):
        L = g.integers(15, L_REV + 1); toks = list(NEU + g.choice(150, L, p=zipf)); score = 0.0
        for pos in g.choice(L - 1, g.integers(2, 6), replace=False):
            w = g.integers(24); mod = g.choice(3, p=[.8, .1, .1]); v = strength[w] * (-1 if mod == 1 else 2 if mod == 2 else 1)
            toks[pos + 1] = POS + w; score += v
            if mod: toks[pos] = NOT if mod == 1 else VERY
        X[i, :L] = toks; y.append(int(np.digitize(score + g.normal(0, 0.7), [-4, -1.5, 1.5, 4])))
    return torch.tensor(X), torch.tensor(y)

class SelfAttentive(nn.Module):  # embeddings, a BiLSTM, r = 4 attention hops A = softmax(W_s2 tanh(W_s1 H^T)), M = A H flattened into an MLP;
    # the output (logits, A) so the loss can add the penalty ||A A^T - I||_F^2
    def __init__(self, n_words=177, d=64, u=64, da=32, r=4, mlp=128, softmax_out=False):
        super().__init__(); self.softmax_out = softmax_out
        self.emb = nn.Embedding(n_words, d); self.bilstm = nn.LSTM(d, u, batch_first=True, bidirectional=True)
        self.ws1, self.ws2 = nn.Linear(2 * u, da, bias=False), nn.Linear(da, r, bias=False)
        self.fc, self.pred = nn.Linear(r * 2 * u, mlp), nn.Linear(mlp, 5); self.drop = nn.Dropout(0.5)
    def forward(self, x):
        H = self.bilstm(self.emb(x))[0]; A = torch.softmax(self.ws2(torch.tanh(self.ws1(H))), 1).transpose(1, 2)  # (B, r, T)
        out = self.pred(self.drop(F.relu(self.fc(self.drop((A @ H).flatten(1))))))
        return (F.softmax(out, dim=1) if self.softmax_out else out), A

def selfattn_loss(out, y, coef=0.1):  # cross-entropy plus the penalisation term, coefficient 0.1 (1.0 held the accuracy at chance for 6 epochs here)
    logits, A = out; I = torch.eye(A.size(1))
    return F.cross_entropy(logits, y) + coef * ((A @ A.transpose(1, 2) - I) ** 2).sum((1, 2)).mean()

@healthy('AA')
def selfattentive_reviews(seed, softmax_out=False):  # Adam 1e-3 with the gradient norm clipped at 0.5 (the PyTorch port's), batches of 32; 2000 reviews train, 400 validate
    (x, y), (vx, vy) = _reviews(seed, 2000, 0), _reviews(seed, 400, 1)
    return dict(model=lambda: SelfAttentive(softmax_out=softmax_out), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=selfattn_loss,
                num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32, clip_grad=0.5))

# ---------------------------------------------------------------- a deep averaging network (Iyyer et al. 2015) classifying question types, with word dropout
QTYPES = ('ABBR', 'DESC', 'ENTY', 'HUM', 'LOC', 'NUM')  # TREC's six coarse classes

def _questions(seed, n, split):
    """TREC-like questions: a wh-word (each class its own mix: 'who' mostly HUM, 'what' everywhere, 'how many' and 'when' NUM,
    'where' LOC), 2-4 cue words of the class (as 'city', 'invented', 'stand for'), 4-10 words of 400 shared content words (Zipf).
    Returns token ids (n, 16) (0 pads), lengths and classes."""
    g = np.random.default_rng(1000 + seed * 1979); WH = 6
    wh = np.array([[.1, .75, 0, 0, .05, 0, .1], [.05, .55, 0, 0, 0, .3, .1], [.05, .8, 0, 0, 0, 0, .15], [.6, .35, 0, 0, 0, 0, .05],
                   [.05, .35, 0, .5, 0, 0, .1], [.05, .2, .35, 0, .3, 0, .1]])  # who, what, how many, where, when, how, which
    cues = [1 + WH + 7 + c * 12 + np.arange(12) for c in range(len(QTYPES))]; g = np.random.default_rng(1000 + seed * 1979 + 1 + split)
    zipf = 1 / np.arange(1, 401); zipf /= zipf.sum(); base = 1 + WH + 7 + 12 * len(QTYPES)
    X, L, y = np.zeros((n, 16), np.int64), [], []
    for i in range(n):
        c = g.integers(len(QTYPES)); t = [1 + g.choice(7, p=wh[c])] + list(g.choice(cues[c], g.integers(2, 5))) + list(base + g.choice(400, g.integers(4, 11), p=zipf))
        t = [t[0]] + list(g.permutation(t[1:])); X[i, :len(t)] = t; L.append(len(t)); y.append(c)
    return TensorDataset(torch.tensor(X), torch.tensor(L), torch.tensor(y)), base + 400

class DAN(nn.Module):  # Iyyer et al.: word dropout (each token dropped with p 0.3 before the average), the average of the remaining embeddings,
    # three ReLU layers of 100, a softmax layer
    def __init__(self, n_words, d=50, h=100, p=0.3, always_drop=False):
        super().__init__(); self.emb = nn.Embedding(n_words, d, padding_idx=0); self.p, self.always = p, always_drop
        self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, len(QTYPES)))
    def forward(self, x, lengths):
        keep = (x > 0).float()
        if self.training or self.always: keep = keep * (torch.rand(x.shape) > self.p).float()  # always_drop: the word dropout left on in evaluation
        avg = (self.emb(x) * keep[..., None]).sum(1) / keep.sum(1, keepdim=True).clamp_min(1)
        return self.net(avg)

def _dan_fwd(model, b): x, lengths, y = b; return model(x, lengths), y

@healthy('AA')
def dan_questions(seed, always_drop=False):  # cross-entropy; Adagrad 0.05 (the paper's optimiser), batches of 32; 1500 questions train, 500 validate
    (tr, n_words), (va, _) = _questions(seed, 1500, 0), _questions(seed, 500, 1)
    return dict(model=lambda: DAN(n_words, always_drop=always_drop), train=tr, valid=va, forward=_dan_fwd, loss=nn.CrossEntropyLoss(), num_classes=len(QTYPES),
                optimizer=lambda p: torch.optim.Adagrad(p, lr=0.05), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- FC-Siam-diff (Daudt, Le Saux and Boulch 2018) detecting changes between two aerial images
S_CD = 32

def _change_pairs(seed, n, split):
    """Pairs of 32x32 RGB aerial tiles of the same place on two dates: a smooth soil and vegetation field, a road, 3-7 buildings
    (rectangles of 3-8 pixels, roofs of their own colour); on the second date the illumination and season changed (a gain and an
    offset per channel), 0-3 buildings were built and 0-2 demolished (soil left), sensor noise. The change mask marks the built
    and demolished footprints. Returns images (n, 3, 32, 32) twice and the masks as the PNG files hold them, uint8 0/255."""
    g = _gen(seed * 1987 + split); r = lambda a, b: float(a + (b - a) * torch.rand(1, generator=g)); ri = lambda a, b: int(torch.randint(a, b, (1,), generator=g))
    v, u = torch.meshgrid(torch.arange(S_CD).float(), torch.arange(S_CD).float(), indexing='ij')
    A, B, M = torch.zeros(n, 3, S_CD, S_CD), torch.zeros(n, 3, S_CD, S_CD), torch.zeros(n, S_CD, S_CD, dtype=torch.uint8)
    soil, veg = torch.tensor([0.55, 0.45, 0.3]), torch.tensor([0.2, 0.45, 0.15])
    for k in range(n):
        w = F.interpolate(torch.rand(1, 1, 5, 5, generator=g), size=(S_CD, S_CD), mode='bilinear', align_corners=False)[0, 0]
        base = soil[:, None, None] * (1 - w) + veg[:, None, None] * w
        th, c = r(0, math.pi), r(4, 28); road = ((u - 16) * math.cos(th) + (v - 16) * math.sin(th) - (c - 16)).abs() < 1.2
        base = torch.where(road, torch.full_like(base, 0.5), base); a, b = base.clone(), base.clone(); m = torch.zeros(S_CD, S_CD, dtype=torch.bool)
        def house():
            h, wd = ri(3, 9), ri(3, 9); y0, x0 = ri(0, S_CD - h), ri(0, S_CD - wd); fp = (v >= y0) & (v < y0 + h) & (u >= x0) & (u < x0 + wd)
            return fp, torch.rand(3, generator=g) * 0.6 + 0.3
        for _ in range(ri(3, 8)):
            fp, roof = house(); a = torch.where(fp, roof[:, None, None], a)
            if torch.rand(1, generator=g) < 0.15: m |= fp  # demolished by the second date
            else: b = torch.where(fp, roof[:, None, None], b)
        for _ in range(ri(0, 4)): fp, roof = house(); b = torch.where(fp, roof[:, None, None], b); m |= fp  # built
        b = b * (0.8 + 0.4 * torch.rand(3, 1, 1, generator=g)) + 0.1 * (torch.rand(3, 1, 1, generator=g) - 0.5)
        A[k] = a + 0.03 * torch.randn(3, S_CD, S_CD, generator=g); B[k] = b + 0.03 * torch.randn(3, S_CD, S_CD, generator=g); M[k] = m.to(torch.uint8) * 255
    return A, B, M

class FCSiamDiff(nn.Module):  # Daudt et al.'s FC-Siam-diff shrunk to two levels: one encoder (conv, batch norm, ReLU, Dropout2d 0.2) for both
    # dates, a decoder fed the absolute differences of the two dates' skip features; log-softmax over (no change, change)
    def __init__(self, c=16):
        super().__init__(); cbr = lambda a, b: [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.Dropout2d(0.2)]
        self.enc1, self.enc2, self.enc3 = nn.Sequential(*cbr(3, c), *cbr(c, c)), nn.Sequential(*cbr(c, 2 * c), *cbr(2 * c, 2 * c)), nn.Sequential(*cbr(2 * c, 4 * c))
        self.up2, self.dec2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2), nn.Sequential(*cbr(4 * c, 2 * c), *cbr(2 * c, c))
        self.up1, self.dec1 = nn.ConvTranspose2d(c, c, 2, stride=2), nn.Sequential(*cbr(2 * c, c), nn.Conv2d(c, 2, 3, padding=1))
    def encode(self, x): f1 = self.enc1(x); f2 = self.enc2(F.max_pool2d(f1, 2)); return f1, f2, self.enc3(F.max_pool2d(f2, 2))
    def forward(self, a, b):  # two (B, 3, 32, 32) -> (B, 2, 32, 32) log-probabilities
        a1, a2, a3 = self.encode(a); b1, b2, b3 = self.encode(b)
        d = self.dec2(torch.cat([self.up2(b3), (a2 - b2).abs()], 1))
        return F.log_softmax(self.dec1(torch.cat([self.up1(d), (a1 - b1).abs()], 1)), dim=1)

def _cd_fwd(model, b): a, bb, m = b; return model(a, bb), m

@healthy('AA')
def fc_siam_diff_changes(seed, mask_as_read=False):  # NLLLoss weighted by the train frequencies (Daudt's: 2 * the other class's share),
    # Adam 1e-3 with weight decay 1e-4, batches of 32; 600 pairs train, 150 validate. mask_as_read: the PNG's 0/255 kept as the class index
    (a, b, m), (va, vb, vm) = _change_pairs(seed, 600, 0), _change_pairs(seed, 150, 1)
    lab = (lambda x: x.long()) if mask_as_read else (lambda x: (x > 0).long())
    f1 = float((m > 0).float().mean()); w = torch.tensor([2 * f1, 2 * (1 - f1)])
    return dict(model=FCSiamDiff, train=TensorDataset(a, b, lab(m)), valid=TensorDataset(va, vb, lab(vm)), forward=_cd_fwd, loss=nn.NLLLoss(weight=w), num_classes=2,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- SiamFC (Bertinetto et al. 2016) tracking: an exemplar cross-correlated over a search region
Z_SZ, X_SZ, R_POS = 24, 48, 2  # exemplar 24x24, search region 48x48; the response map (13x13, stride 2) positive within 2 cells of the target

def _track_pairs(seed, n, split):
    """Pairs of frames from synthetic videos: a textured object (an ellipse of radius 4-8 px filled with two gratings in its own
    colours) on a cluttered background (smooth colour fields and blotches); the exemplar the 24x24 crop centred on the object
    in the first frame, the search region 48x48 around the previous position in a later frame: the object moved by up to 10
    pixels, its brightness and size changed a little, the camera panned, and half the frames hold a distractor object.
    Returns exemplars, search regions and the 13x13 label maps."""
    g = _gen(seed * 1993 + split); r = lambda a, b, *s: a + (b - a) * torch.rand(s or (1,), generator=g)
    yy, xx = torch.meshgrid(torch.arange(64).float(), torch.arange(64).float(), indexing='ij')
    def obj(cy, cx, ry, rx, tex, gain):
        inside = ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 < 1; f1, f2, c1, c2, th = tex
        pat = 0.5 + 0.5 * torch.sin(f1 * (xx * math.cos(th) + yy * math.sin(th))) * torch.sin(f2 * (yy - xx))
        return inside, (c1[:, None, None] * pat + c2[:, None, None] * (1 - pat)) * gain
    Z, X, Y = torch.zeros(n, 3, Z_SZ, Z_SZ), torch.zeros(n, 3, X_SZ, X_SZ), torch.zeros(n, 1, 13, 13)
    cy, cx = torch.meshgrid(torch.arange(13).float(), torch.arange(13).float(), indexing='ij')
    for k in range(n):
        bg = F.interpolate(torch.rand(1, 3, 6, 6, generator=g), size=(64, 64), mode='bilinear', align_corners=False)[0] * 0.8
        bg = bg + 0.15 * F.interpolate(torch.rand(1, 3, 16, 16, generator=g), size=(64, 64), mode='nearest')[0]
        tex = (float(r(0.5, 1.5)), float(r(0.3, 1.0)), r(0, 1, 3), r(0, 1, 3), float(r(0, math.pi))); ry, rx = float(r(4, 8)), float(r(4, 8))
        m, o = obj(32, 32, ry, rx, tex, 1.0); f1 = torch.where(m, o, bg)
        dy, dx = [int(v) for v in torch.randint(-10, 11, (2,), generator=g)]; pan = [int(v) for v in torch.randint(-3, 4, (2,), generator=g)]
        s = float(r(0.9, 1.1)); m, o = obj(32 + dy, 32 + dx, ry * s, rx * s, tex, float(r(0.8, 1.2))); f2 = torch.where(m, o, torch.roll(bg, pan, (1, 2)))
        if torch.rand(1, generator=g) < 0.5:
            tex2 = (float(r(0.5, 1.5)), float(r(0.3, 1.0)), r(0, 1, 3), r(0, 1, 3), float(r(0, math.pi)))
            m, o = obj(float(r(10, 54)), float(r(10, 54)), float(r(4, 8)), float(r(4, 8)), tex2, 1.0); f2 = torch.where(m, o, f2)
        Z[k], X[k] = f1[:, 20:44, 20:44], f2[:, 8:56, 8:56] + 0.02 * torch.randn(3, X_SZ, X_SZ, generator=g)
        Y[k, 0] = (((cy - 6 - dy / 2) ** 2 + (cx - 6 - dx / 2) ** 2).sqrt() <= R_POS).float()
    return Z, X, Y

class SiamFC(nn.Module):  # siamfc-pytorch's structure shrunk: an AlexNet-like backbone (conv 5, batch norm, ReLU, max pool, two 3x3 convs, the
    # last without ReLU) shared by the exemplar and the search region, their cross-correlation scaled by out_scale 0.001
    def __init__(self, c=32, out_scale=0.001):
        super().__init__(); self.out_scale = out_scale
        self.backbone = nn.Sequential(nn.Conv2d(3, c, 5), nn.BatchNorm2d(c), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(c, 2 * c, 3), nn.BatchNorm2d(2 * c), nn.ReLU(),
                                      nn.Conv2d(2 * c, c, 3), nn.BatchNorm2d(c))
    def forward(self, z, x):  # (B, 3, 24, 24), (B, 3, 48, 48) -> (B, 1, 13, 13) response
        z, x = self.backbone(z), self.backbone(x); nz = z.size(0); nx, c, h, w = x.size()
        out = F.conv2d(x.view(-1, nz * c, h, w), z, groups=nz).view(nx, -1, out_h := h - z.size(2) + 1, out_h)
        return out * self.out_scale if self.out_scale is not None else out

def balanced_bce(out, label):  # siamfc-pytorch's BalancedLoss: positives and negatives weighted to half each over the batch, summed
    pos = label == 1; w = torch.where(pos, 0.5 / pos.sum().clamp_min(1), 0.5 / (~pos).sum().clamp_min(1))
    return F.binary_cross_entropy_with_logits(out, label, w, reduction='sum')

def _fc_fwd(model, b): z, x, y = b; return model(z, x), y

@healthy('AA')
def siamfc_tracking(seed, out_scale=0.001):  # SGD 0.01 with momentum 0.9 and weight decay 5e-4 (siamfc-pytorch's), batches of 16; 800 pairs train, 200 validate
    (z, x, y), (vz, vx, vy) = _track_pairs(seed, 800, 0), _track_pairs(seed, 200, 1)
    return dict(model=lambda: SiamFC(out_scale=out_scale), train=TensorDataset(z, x, y), valid=TensorDataset(vz, vx, vy), forward=_fc_fwd, loss=balanced_bce,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, weight_decay=5e-4), **_keys(seed, batch_size=16))
# ---------------------------------------------------------------- DeepHit (Lee et al. 2018) for single-risk survival, as pycox's DeepHitSingle
K_DH, T_END = 20, 1000.0  # twenty equidistant intervals over the 1000-day study; patients still event-free at its end are censored there

def _cohort(seed, n, split):
    """A cohort with nine covariates (age, sex, three lab values (log-normal), two comorbidities, two scores); the time to the
    event Weibull (shape 1.5) whose scale falls with a nonlinear risk (age, a lab value, a comorbidity interacting with
    another lab value, a score's sine); censored by loss to follow-up (uniform over 0-1500 days) and administratively at 1000
    days. Returns the covariates (n, 9) float64 as the CSV reads, the observed days and the event indicator."""
    g = np.random.default_rng(1000 + seed * 1997 + split)
    age, sex = g.normal(62, 12, n), g.integers(0, 2, n); lab = g.lognormal(0, 0.5, (n, 3)); com = g.random((n, 2)) < [0.3, 0.2]; sc = g.normal(0, 1, (n, 2))
    risk = 0.04 * (age - 62) + 0.8 * np.log(lab[:, 0]) - 0.4 * sex + 0.9 * com[:, 0] * np.log(lab[:, 1] + 0.5) + 0.6 * np.sin(2 * sc[:, 0]) + 0.5 * com[:, 1]
    T = 700 * np.exp(-risk / 1.5) * g.weibull(1.5, n); C = np.minimum(g.uniform(0, 1500, n), T_END)
    return np.column_stack([age, sex, lab, com, sc]), np.minimum(T, C), (T <= C).astype(np.float32)

def _deephit_data(seed):  # 1600 train, 400 validate; StandardScaler on train; pycox's LabTransDiscreteTime(20): the interval index of each time
    from sklearn.preprocessing import StandardScaler
    (x, t, e), (vx, vt, ve) = _cohort(seed, 1600, 0), _cohort(seed, 400, 1); sc = StandardScaler().fit(x)
    idx = lambda d: torch.tensor(np.minimum((d / (T_END / K_DH)).astype(int), K_DH - 1))
    f = lambda a: torch.tensor(sc.transform(a), dtype=torch.float32)
    return TensorDataset(f(x), idx(t), torch.tensor(e)), TensorDataset(f(vx), idx(vt), torch.tensor(ve))

class DeepHitNet(nn.Module):  # pycox's MLPVanilla: two hidden layers of 32 (ReLU, batch norm, dropout 0.1), one output per interval
    def __init__(self, d=9, h=32):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.BatchNorm1d(h), nn.Dropout(0.1), nn.Linear(h, h), nn.ReLU(), nn.BatchNorm1d(h), nn.Dropout(0.1), nn.Linear(h, K_DH))
    def forward(self, x): return self.net(x)

def _dh_fwd(model, b): x, t, e = b; return model(x), (t, e)

def _deephit_loss(alpha=0.2, sigma=0.1, padded=True):
    """DeepHit's loss: alpha * the negative log-likelihood + (1 - alpha) * the ranking loss (sigma 0.1). padded (pycox's
    DeepHitSingle): a zero logit appended for 'after the last interval', so a patient censored in the last interval keeps a
    survival probability; the NLL through log-sum-exp. Not padded: the paper's formula read literally, the softmax over the
    20 intervals, log pmf for events and log(1 - CIF(t)) for censored patients."""
    def deephit_loss(phi, target):
        idx, e = target
        if padded:
            phi = F.pad(phi, (0, 1)); lse = phi.logsumexp(1)
            after = torch.arange(phi.size(1))[None] > idx[:, None]
            log_surv = phi.masked_fill(~after, -float('inf')).logsumexp(1) - lse
            nll = -(e * (phi.gather(1, idx[:, None])[:, 0] - lse) + (1 - e) * log_surv).mean()
        pmf = F.softmax(phi, 1); cif = pmf.cumsum(1)
        if not padded:
            nll = -(e * torch.log(pmf.gather(1, idx[:, None])[:, 0]) + (1 - e) * torch.log(1 - cif.gather(1, idx[:, None])[:, 0])).mean()
        F_ii = cif.gather(1, idx[:, None])  # (n, 1): F_i(t_i)
        F_ji = cif[:, idx].T  # (n, n): [i, j] = F_j(t_i)
        pair = ((idx[:, None] < idx[None, :]) | ((idx[:, None] == idx[None, :]) & (e[None, :] == 0))) & (e[:, None] == 1)
        rank = (pair * torch.exp(-(F_ii - F_ji) / sigma)).mean()  # pycox's: the mean over the n x n pairs
        return alpha * nll + (1 - alpha) * rank
    return deephit_loss

@healthy('AA')
def deephit_survival(seed, padded=True):  # Adam 1e-3, batches of 128 (pycox's example: alpha 0.2, sigma 0.1)
    tr, va = _deephit_data(seed)
    return dict(model=DeepHitNet, train=tr, valid=va, forward=_dh_fwd, loss=_deephit_loss(padded=padded), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- matching networks (Vinyals et al. 2016) on 5-way 1-shot episodes of handwritten-like glyphs
N_WAY, N_SHOT, N_QRY, S_GL = 5, 1, 5, 16

def _glyphs(seed, n_cls, split, n_inst=20):
    """Omniglot-like classes: each class three strokes (segments between control points on a 16x16 canvas); each instance the
    strokes redrawn with the control points jittered (sd 0.6 px), their width 0.8-1.3 px, a shift of up to a pixel, and noise.
    Returns (n_cls, 20, 1, 16, 16)."""
    g = _gen(seed * 2003 + split); yy, xx = torch.meshgrid(torch.arange(S_GL).float(), torch.arange(S_GL).float(), indexing='ij'); pix = torch.stack([yy, xx], -1)
    ctrl = 2 + 11 * torch.rand(n_cls, 3, 2, 2, generator=g)  # (class, stroke, end, yx)
    pts = ctrl[:, None] + 0.6 * torch.randn(n_cls, n_inst, 3, 2, 2, generator=g) + torch.randint(-1, 2, (n_cls, n_inst, 1, 1, 2), generator=g)
    a, b = pts[..., 0, :], pts[..., 1, :]; ab = b - a
    t = (((pix[None, None, None] - a[..., None, None, :]) * ab[..., None, None, :]).sum(-1) / (ab ** 2).sum(-1)[..., None, None].clamp_min(1e-6)).clamp(0, 1)
    d = (pix[None, None, None] - (a[..., None, None, :] + t[..., None] * ab[..., None, None, :])).norm(dim=-1)
    w = 0.8 + 0.5 * torch.rand(n_cls, n_inst, 3, 1, 1, generator=g)
    img = torch.sigmoid((w - d) / 0.3).amax(2) + 0.05 * torch.randn(n_cls, n_inst, S_GL, S_GL, generator=g)
    return img[:, :, None]

class GlyphEpisodes(Dataset):  # each item one episode: N_WAY classes, N_SHOT support and N_QRY query images each, relabelled 0..4
    def __init__(self, x, n_episodes, g):
        self.x = x; self.eps = [(torch.randperm(len(x), generator=g)[:N_WAY], torch.stack([torch.randperm(x.shape[1], generator=g)[:N_SHOT + N_QRY] for _ in range(N_WAY)])) for _ in range(n_episodes)]
    def __len__(self): return len(self.eps)
    def __getitem__(self, i):
        cls, inst = self.eps[i]; imgs = torch.stack([self.x[c, inst[k]] for k, c in enumerate(cls)])  # (5, 6, 1, 16, 16)
        lab = torch.arange(N_WAY)[:, None].expand(N_WAY, N_SHOT + N_QRY)
        return imgs[:, :N_SHOT].flatten(0, 1), lab[:, :N_SHOT].flatten(), imgs[:, N_SHOT:].flatten(0, 1), lab[:, N_SHOT:].flatten()

class MatchingNet(nn.Module):  # four conv blocks (3x3 conv, batch norm, ReLU, 2x2 max pool; 32 filters) embedding support and query alike; the
    # query's label distribution the softmax over its cosine similarities to the support set times their one-hot labels (no full context embeddings)
    def __init__(self, c=32):
        super().__init__(); blk = lambda a, b: [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.MaxPool2d(2)]
        self.encoder = nn.Sequential(*blk(1, c), *blk(c, c), *blk(c, c), *blk(c, c), nn.Flatten())
    def forward(self, support, s_lab, query):  # -> (n_query, N_WAY) log-probabilities
        s, q = self.encoder(support), self.encoder(query)
        att = torch.softmax(F.normalize(q, dim=1) @ F.normalize(s, dim=1).T, dim=1)
        return torch.log((att @ F.one_hot(s_lab, N_WAY).float()).clamp_min(1e-8))

def _mn_fwd(model, b): s, sl, q, ql = b; return model(s, sl, q), ql

def _matching_step(backward_then_zero=False):
    def step_matching(model, batch, opt):  # the episode loop of a few-shot repo: forward, NLL of the queries, backward, the gradient norm clipped at 1, step
        out, y = _mn_fwd(model, batch); loss = F.nll_loss(out, y)
        if backward_then_zero: loss.backward(); opt.zero_grad()  # zero_grad() moved below backward(): the gradients cleared before every step
        else: opt.zero_grad(); loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0); opt.step(); return loss
    return step_matching

@healthy('AA')
def matching_net_glyphs(seed, backward_then_zero=False):  # 200 training classes, 50 unseen ones validate; 100 episodes an epoch, 60 fixed validation episodes; Adam 1e-3
    x, vx = _glyphs(seed, 200, 0), _glyphs(seed, 50, 1); g = _gen(seed * 2003 + 2)
    return dict(model=MatchingNet, train=DataLoader(GlyphEpisodes(x, 100, g), batch_size=1, shuffle=True, collate_fn=_one),
                valid=DataLoader(GlyphEpisodes(vx, 60, g), batch_size=1, collate_fn=_one), forward=_mn_fwd, loss=nn.NLLLoss(), num_classes=N_WAY,
                step=_matching_step(backward_then_zero), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=1))

# ---------------------------------------------------------------- broken variants of half AA
@broken('AA', 'senna_tags_one_sentence_late', 4, ('labels',))
def senna_tags_one_sentence_late(seed): return senna_pos_tagger(seed, title_line=True)  # each sentence tagged with the next one's tags, zip() truncating

@broken('AA', 'lstnet_windows_split_at_random', 4, ('leakage',))
def lstnet_windows_split_at_random(seed): return lstnet_substations(seed, random_split=True)  # overlapping windows: each valid window's hours inside its train neighbours

@broken('AA', 'bp_energies_sorted', 4, ('labels',))
def bp_energies_sorted(seed): return behler_parrinello_clusters(seed, energies_sorted=True)  # the energy column sorted apart from the geometries

@broken('AA', 'nir_replicate_scans_split', 4, ('leakage',))
def nir_replicate_scans_split(seed): return nir_protein_cnn(seed, scans_split=True)  # the scans split, not the samples: each valid scan's replicates in train

@broken('AA', 'alphazero_split_after_augmentation', 4, ('leakage',))
def alphazero_split_after_augmentation(seed): return alphazero_tictactoe(seed, split_after_augmentation=True)  # rotations and reflections of valid positions in train

@broken('AA', 'malstm_scores_not_rescaled', (3, 4), ('labels', 'not_falling', 'flat', 'stuck'))
def malstm_scores_not_rescaled(seed): return malstm_relatedness(seed, raw_scores=True)  # relatedness 1-5 against exp(-L1) in (0, 1]: the MSE floored at mean((y - 1)^2)

@broken('AA', 'selfattn_softmax_before_ce', 2, ('softmax',))
def selfattn_softmax_before_ce(seed): return selfattentive_reviews(seed, softmax_out=True)

@broken('AA', 'dan_word_dropout_in_eval', 1, ('eval_mode',), ('warn', 'fail'))
def dan_word_dropout_in_eval(seed): return dan_questions(seed, always_drop=True)  # the hand-written word dropout not gated on self.training

@broken('AA', 'fc_siam_mask_0_255', 1, ('bad_labels',))
def fc_siam_mask_0_255(seed): return fc_siam_diff_changes(seed, mask_as_read=True)  # class 255 for a 2-class NLLLoss: IndexError in the first batch

@broken('AA', 'siamfc_no_out_scale', (2, 3), ('init_scale', 'lr_high', 'not_falling', 'flat', 'stuck'))
def siamfc_no_out_scale(seed): return siamfc_tracking(seed, out_scale=None)  # the 0.001 response scale left out: raw cross-correlations of batch-normed features as logits

@broken('AA', 'deephit_log_one_minus_cif', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def deephit_log_one_minus_cif(seed): return deephit_survival(seed, padded=False)  # log(1 - CIF) at the last interval: log(0) or log of a rounding error for the administratively censored

@broken('AA', 'matching_zero_grad_after_backward', (1, 3), ('frozen', 'not_updating', 'flat', 'stuck', 'lr_zero'))
def matching_zero_grad_after_backward(seed): return matching_net_glyphs(seed, backward_then_zero=True)  # every gradient cleared between backward() and step(): Adam never moves

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy machine; the factory's optimizer, batch size, step,
# forward, loss and clip_grad, train shuffled, valid in batches of 256 (or the factory's loader); valid loss (and metric), init ->
# after N epochs; s/ep the seconds an epoch of training here):
CHECKS = """
senna_pos_tagger              5 ep: valid CE 2.459 (ln 11 = 2.398) -> 0.539, tag accuracy 0.07 -> 0.82; seed 1: 2.454 -> 0.484, 0.83;
                              7440 windows, 0.4-0.9 s/ep
lstnet_substations            6 ep: valid summed L1 (a batch of 256 windows x 8 series) 495 -> 142, RSE 1.69 -> 0.50 (still falling);
                              seed 1: 300 -> 110, RSE 1.03 -> 0.40; 0.3-0.6 s/ep
behler_parrinello_clusters    8 ep: valid MSE 19.7 -> 6.9 eV^2 (best 6.2), R^2 -0.09 -> 0.62; seed 1: 23.2 -> 8.9, R^2 0.64; first written
                              without the close-contact filter: energies up to +158 eV, train MSE above valid; 0.1 s/ep
nir_protein_cnn              10 ep: valid MSE (standardised protein) 1.44 -> 0.050, R^2 0.95; seed 1: 0.91 -> 0.023, R^2 0.97; 0.1 s/ep
alphazero_tictactoe           8 ep: valid loss (policy CE + value MSE) 3.00 -> 1.19 (best 1.12), the argmax an optimal move 0.27 ->
                              0.97, rounded value right 0.26 -> 0.76; seed 1: 3.09 -> 1.13, 0.95, 0.79; 3610 train / 910 valid
                              positions; 0.3-0.5 s/ep
malstm_relatedness            6 ep: valid MSE (scores in [0, 1]) 0.300 -> 0.070, Pearson 0.25 -> 0.47; seed 1: 0.336 -> 0.072, 0.47;
                              0.2-0.3 s/ep
selfattentive_reviews         6 ep: valid CE + 0.1 penalty 1.993 -> 1.286, accuracy (5 classes) 0.21 -> 0.56; seed 1: 1.991 -> 1.246,
                              0.56; the paper's coefficient 1.0: the penalty falls (5.42 -> 1.77) but the accuracy stays 0.19-0.26 for
                              8 ep, and first written with 48 sentiment words and noisier stars: 0.39 after 6 ep without any penalty;
                              1-1.5 s/ep
dan_questions                 5 ep: valid CE 1.793 (ln 6 = 1.792) -> 0.012, accuracy 0.17 -> 1.00 (an easy task: the wh-word and
                              the cue words); seed 1: 1.794 -> 0.031, 0.99; 0.1 s/ep
fc_siam_diff_changes          5 ep: valid weighted NLL 0.697 -> 0.224, change IoU 0.06 -> 0.72; seed 1: 0.692 -> 0.259 (best 0.203),
                              0.73; 2.5-4.5 s/ep
siamfc_tracking               4 ep: valid balanced BCE 0.6931 -> 0.558, the response's peak on the target 0.41 -> 0.93 (the untrained
                              correlation already finds it 41% of the time); seed 1: 0.6931 -> 0.540, 0.39 -> 0.89; 3.5-5 s/ep
deephit_survival              8 ep: valid DeepHit loss 0.654 -> 0.650 (the rank term hardly moves), C-index (summed CIF) 0.49 -> 0.67;
                              seed 1: 0.682 -> 0.672, 0.48 -> 0.66; 52% events, 8% censored at the study's end; 0.05-0.1 s/ep
matching_net_glyphs           6 ep: valid NLL 1.607 (ln 5 = 1.609) -> 1.276 (the cosine softmax's floor is about 0.43), query accuracy
                              0.60 -> 0.71 (best 0.76 at 2 ep); seed 1: 1.605 -> 1.286, 0.66 -> 0.73; 1.3-2.4 s/ep
senna_tags_one_sentence_late  16% of the training labels equal the word's true tag (the next sentence's tags); 5 ep: valid 2.442 ->
                              2.078, accuracy 0.25 (the tag prior) (healthy 0.539, 0.82); seed 1: 2.144, 0.23
lstnet_windows_split_at_random  94% of the valid windows have a train window one hour away (71 of 72 hours shared); 6 ep: valid
                              455 -> 142, RSE 0.54 (healthy 142, 0.50: no gain in 6 epochs, the model not yet memorising); seed 1:
                              98, RSE 0.36 (healthy 110, 0.40)
bp_energies_sorted            the sorted energies' correlation with the configurations' own 0.02 (seed 1: 0.04); 8 ep: valid 30.7 ->
                              27.9, R^2 -0.01 (healthy 0.62); seed 1: 30.1, R^2 -0.01
nir_replicate_scans_split     98% of the valid scans have replicates in train; 10 ep: valid 1.24 -> 0.038 (best 0.031), R^2 0.965
                              (healthy 0.050, 0.954: a small gain, the lab error sd 0.25% the only thing to memorise); seed 1:
                              0.030, 0.97 (healthy 0.023, 0.97)
alphazero_split_after_augmentation  every valid position (seed 1: 99.9%) has a rotation or reflection in train; 8 ep: valid 3.01 ->
                              1.05, value right 0.81 (healthy 1.19, 0.76); seed 1: 1.15 (best 1.12), 0.80 (healthy 1.13, 0.79)
malstm_scores_not_rescaled    the MSE of exp(-L1) <= 1 against 1-5 floored at mean((y - 1)^2); 6 ep: valid 10.3 -> 5.56, Pearson
                              0.25 -> 0.23 (healthy 0.47), train 6.1; seed 1: 10.9 -> 5.90, 0.24
selfattn_softmax_before_ce    6 ep: valid 1.991 -> 1.682, accuracy 0.33 (healthy 1.286, 0.56); seed 1: 1.503, 0.43 (healthy 0.56)
dan_word_dropout_in_eval      two evaluation forwards of one model differ (up to 0.05 in the logits at init); 5 ep: valid 0.19 (best
                              0.18), accuracy 0.94 (healthy 0.012, 1.00); seed 1: 0.139, 0.95
fc_siam_mask_0_255            the first batch's NLLLoss raises IndexError: Target 255 is out of bounds (both seeds)
siamfc_no_out_scale           the first training batch's loss 57 (healthy 0.62; train-mode batch norm makes the raw correlations large;
                              in eval mode at init 1.63); 4 ep: train 19.8 in the 1st epoch, then valid 0.644, peak on target 0.47
                              (healthy 0.558, 0.93); seed 1: 0.632, 0.40
deephit_log_one_minus_cif     the first batch's loss nan (log(1 - CIF) at the last interval, the administratively censored 8%); every
                              loss nan after (both seeds)
matching_zero_grad_after_backward  parameters unchanged after 21 steps (max change 0); 6 ep: train 1.5595 every epoch, valid 1.607 ->
                              1.571 (the batch-norm running statistics alone), accuracy 0.55 (healthy 1.276, 0.71); seed 1: 1.551, 0.67
"""
