"""Half AG of the ladder's gallery: held out from the rules frozen at 87b4c78 (round 47), and run once on them.
Families not in halves A-AF: multi-digit number recognition (Goodfellow et al. 2013, SVHN-style, shrunk: a CNN over strips
of one to three sklearn digits, a length head and one head per position, absent positions ignored; a tuple output and a
loss of its own); Elman's simple recurrent network on the embedded Reber grammar (Cleeremans, Servan-Schreiber and McClelland
1989: one-hot symbols, the set of legal next symbols as multi-hot targets, BCE with logits over the real steps; a collate_fn
that pads, a custom step); a Morse code decoder (a GRU over the keyed tone's noisy envelope at 2-4 frames a dot, packed
sequences sorted by length in a collate_fn, 26 letters); DSSM (Huang et al. 2013: letter-trigram hashing of queries and
document titles, two tanh towers, the smoothed cosine softmax over one clicked and four sampled documents; dict batches and a
forward of its own); ArcFace (Deng et al. 2019, as ronghuaiyang's arcface-pytorch ArcMarginProduct: s 30, m 0.5, a CNN
embedding with BN, SGD 0.1) on digits, the label fed to the head; joint intent detection and slot filling (Hakkani-Tur et al.
2016, Liu and Lane 2016: a BiLSTM over ATIS-like utterances, BIO slot tags per token and an intent from the final states; a
dict output, the summed cross-entropies, dict batches from a collate_fn); LeNet-5 (LeCun et al. 1998: tanh convolutions and
average pooling on digits resized to 32 x 32, SGD with momentum); a Siamese verification network (Koch, Zemel and
Salakhutdinov 2015, shrunk: twin convolutional encoders, the L1 distance of sigmoid embeddings, one logit; same or different
digit pairs); Kim's CNN for sentence classification (Kim 2014, CNN-rand: filter widths 3, 4, 5, max-over-time pooling,
dropout 0.5, Adadelta, batches of 50) of synthetic reviews with negation, the training reviews EDA-augmented (Wei and Zou
2019); stress detection from chest-worn sensors (WESAD, Schmidt et al. 2018: EDA, heart rate, respiration and temperature in
60-s windows shifted by 20 s, baseline, amusement or stress; a 1-D CNN; subjects split with GroupShuffleSplit; groups
declared: the subject); ProcessTransformer (Bukhsh, Saeed and Dijkman 2021: next-activity prediction from prefixes of a
loan-application event log, token and position embeddings, one transformer block with a key-padding mask, masked average
pooling; a collate_fn that pads each batch to its longest prefix; cases split by time); and Deep PPG (Reiss et al. 2019,
shrunk: a 1-D CNN over the 0.5-4 Hz spectra of wrist PPG and three accelerometer axes, heart rate from the chest ECG as the
target, standardised, the L1 loss; the last three subjects validate).
At most 2000 samples (2400 augmented reviews) and about 75k parameters a program; see CHECKS for the plain-loop timings.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AF.

Protocol: written by a helper in a worktree at ba847b9 (branch halfAG), held out from the rules frozen at 87b4c78 (round 47).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI). It read bench/ladder_gallery.py's head, helpers and tail (the import lines) and its custom-step
signature (step_no_zero_grad), half AF whole, the module and function docstrings and @broken lines of halves A-AE (for the
rung and cause conventions and the families taken), a grep of ladder_sweep.py for 'half', and the signatures and docstrings
of `ntrain.ladder` and `ntrain.Task` via help(); it ran `git status` and `git rev-parse --short HEAD`, no git log. Each
program was checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn,
the broken ones are broken as meant), seed 0 and where cheap seed 1. Two programs declare groups (wesad_stress_cnn and its
broken twin wesad_windows_split_at_random; "groups declared" in their factories' docstrings) and are to be reported apart.
Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AG`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math, zlib
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
import ntrain
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- multi-digit number recognition (Goodfellow et al. 2013, SVHN-style)
def _strips(x, y, n, g, pad=-1):
    """Strips of 8 x 24: one to three digits side by side from left, a small vertical jitter, pixel noise; targets [length - 1,
    d1, d2, d3], absent positions `pad`."""
    X = torch.zeros(n, 1, 8, 24); T = torch.full((n, 4), pad, dtype=torch.int64)
    for i in range(n):
        L = int(g.integers(1, 4)); T[i, 0] = L - 1
        for k in range(L):
            j = int(g.integers(len(y))); s = int(g.integers(-1, 2)); X[i, 0, :, 8 * k:8 * k + 8] = torch.roll(x[j, 0], s, 0); T[i, 1 + k] = y[j]
    return (X + 0.05 * torch.from_numpy(g.normal(size=X.shape)).float()).clamp(0, 1), T

class MultiDigitNet(nn.Module):  # two conv blocks, a shared fc, a length head and a head per position
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(32 * 2 * 6, 128), nn.ReLU(), nn.Dropout(0.2))
        self.length = nn.Linear(128, 3); self.digits = nn.ModuleList([nn.Linear(128, 10) for _ in range(3)])
    def forward(self, x):
        h = self.fc(self.features(x)); return self.length(h), torch.stack([d(h) for d in self.digits], 1)

def multidigit_loss(out, t):
    len_logits, dig_logits = out
    return F.cross_entropy(len_logits, t[:, 0]) + F.cross_entropy(dig_logits.reshape(-1, 10), t[:, 1:].reshape(-1), ignore_index=-1)

@healthy('AG')
def svhn_style_multidigit_cnn(seed, pad=-1):  # Adam 1e-3, batches of 64; 1500 strips from the training digits, 400 from the validation digits
    (x, y), (vx, vy) = _digits(seed); g = np.random.default_rng(1000 + seed * 2411)
    tr, va = TensorDataset(*_strips(x, y, 1500, g, pad)), TensorDataset(*_strips(vx, vy, 400, g, pad))
    return dict(model=MultiDigitNet, train=tr, valid=va, loss=multidigit_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Elman's SRN on the embedded Reber grammar
SYM = 'BTSXPVE'
REBER = {1: (('T', 2), ('P', 3)), 2: (('S', 2), ('X', 4)), 3: (('T', 3), ('V', 5)), 4: (('X', 3), ('S', 6)), 5: (('P', 4), ('V', 6)), 6: (('E', 0),)}

def _embedded_reber(g, max_len=40):
    "One string and, per symbol, the set of legal next symbols."
    while True:
        b = 'TP'[g.integers(2)]; s, nxt = ['B', b, 'B'], [set('TP'), {'B'}, set('TP')]; st = 1
        while st:
            opts = REBER[st]; c, st = opts[g.integers(len(opts))]; s.append(c)
            nxt.append({o[0] for o in REBER[st]} if st else {b})
        s += [b, 'E']; nxt += [{'E'}, set()]
        if len(s) <= max_len: return s, nxt

def _reber_items(g, n):
    items = []
    for _ in range(n):
        s, nxt = _embedded_reber(g); x = torch.zeros(len(s) - 1, 7); y = torch.zeros(len(s) - 1, 7)
        for i in range(len(s) - 1):
            x[i, SYM.index(s[i])] = 1
            for c in nxt[i]: y[i, SYM.index(c)] = 1
        items.append((x, y))
    return items

def pad_reber(batch):  # inputs padded with zeros, targets with -1 (masked in the loss)
    L = max(len(x) for x, _ in batch); X = torch.zeros(len(batch), L, 7); Y = torch.full((len(batch), L, 7), -1.0)
    for i, (x, y) in enumerate(batch): X[i, :len(x)] = x; Y[i, :len(y)] = y
    return X, Y

class SRN(nn.Module):  # Elman: tanh recurrence of 32 units, a linear read-out of the next symbols' logits
    def __init__(self, h=32):
        super().__init__(); self.rnn = nn.RNN(7, h, batch_first=True, nonlinearity='tanh'); self.out = nn.Linear(h, 7)
    def forward(self, x): return self.out(self.rnn(x)[0])

def reber_loss(out, y): m = y >= 0; return F.binary_cross_entropy_with_logits(out[m], y[m])

def srn_step(model, batch, opt):
    x, y = batch; opt.zero_grad(); loss = reber_loss(model(x), y); loss.backward(); opt.step(); return loss

def srn_step_no_zero_grad(model, batch, opt):  # the loop's opt.zero_grad() lost when the step was moved into a function
    x, y = batch; loss = reber_loss(model(x), y); loss.backward(); opt.step(); return loss

@healthy('AG')
def elman_embedded_reber(seed, step=srn_step):  # SGD 0.1 with momentum 0.9, batches of 32; 1200 strings train, 300 validate
    g = np.random.default_rng(1000 + seed * 2417); tr, va = _reber_items(g, 1200), _reber_items(g, 300)
    return dict(model=SRN, train=DataLoader(ListDataset(tr), batch_size=32, shuffle=True, collate_fn=pad_reber), valid=DataLoader(ListDataset(va), batch_size=32, collate_fn=pad_reber),
                loss=reber_loss, step=step, optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a Morse code decoder (a GRU over the tone's envelope)
MORSE = dict(A='.-', B='-...', C='-.-.', D='-..', E='.', F='..-.', G='--.', H='....', I='..', J='.---', K='-.-', L='.-..', M='--', N='-.', O='---', P='.--.',
             Q='--.-', R='.-.', S='...', T='-', U='..-', V='...-', W='.--', X='-..-', Y='-.--', Z='--..')
LETTERS = sorted(MORSE)

def _morse(seed, n=1600):
    """A letter keyed at 2-4 frames a dot (a dash three dots, the gaps a dot), silence before and after, the envelope's level
    0.5-1.5 with key-up leakage and Gaussian noise 0.25; a frame's one feature."""
    g = np.random.default_rng(1000 + seed * 2423); out = []
    for _ in range(n):
        k = int(g.integers(26)); u = int(g.integers(2, 5)); env = [0.0] * int(g.integers(1, 6))
        for i, c in enumerate(MORSE[LETTERS[k]]): env += ([0.0] * u if i else []) + [1.0] * (u if c == '.' else 3 * u)
        env += [0.0] * int(g.integers(1, 6)); e = np.array(env) * g.uniform(0.5, 1.5) + g.normal(0, 0.25, len(env))
        out.append((torch.tensor(e, dtype=torch.float32)[:, None], k))
    return out

def collate_sorted(batch):  # pack_padded_sequence(enforce_sorted=True) wants the longest first: sort the batch by length
    batch = sorted(batch, key=lambda b: -len(b[0])); lens = torch.tensor([len(s) for s, _ in batch])
    return nn.utils.rnn.pad_sequence([s for s, _ in batch], batch_first=True), lens, torch.tensor([k for _, k in batch])

def collate_sorted_seqs_only(batch):  # the sequences sorted, the labels still in the batch's order
    seqs = sorted([s for s, _ in batch], key=len, reverse=True); lens = torch.tensor([len(s) for s in seqs])
    return nn.utils.rnn.pad_sequence(seqs, batch_first=True), lens, torch.tensor([k for _, k in batch])

class MorseGRU(nn.Module):
    def __init__(self, h=64):
        super().__init__(); self.gru = nn.GRU(1, h, batch_first=True); self.fc = nn.Linear(h, 26)
    def forward(self, x, lengths):
        _, hn = self.gru(nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=True)); return self.fc(hn[-1])

def _morse_fwd(model, b): x, lens, y = b; return model(x, lens), y

@healthy('AG')
def morse_gru_decoder(seed, collate=collate_sorted):  # cross-entropy, Adam 3e-3, batches of 32; 1300 letters train, 300 validate
    items = _morse(seed); tr, va = ListDataset(items[:1300]), ListDataset(items[1300:])
    return dict(model=MorseGRU, train=DataLoader(tr, batch_size=32, shuffle=True, collate_fn=collate), valid=DataLoader(va, batch_size=32, collate_fn=collate),
                forward=_morse_fwd, loss=nn.CrossEntropyLoss(), num_classes=26, optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- DSSM (Huang et al. 2013): letter trigrams, two towers, cosine softmax
N_TRI = 500

def _trigrams(text):
    v = np.zeros(N_TRI, np.float32)
    for w in text.split():
        w = f'#{w}#'
        for i in range(len(w) - 2): v[zlib.crc32(w[i:i + 3].encode()) % N_TRI] += 1
    return v

def _dssm(seed, n=1500):
    """60 subtopics of six pseudo-words each (ten topics sharing two words a topic); documents titled with 4-6 words of their
    subtopic and one or two of another; a query of 2-3 words of a subtopic, a letter mistyped now and then; the clicked
    document of the query's subtopic, four unclicked ones drawn at random from other subtopics."""
    g = np.random.default_rng(1000 + seed * 2437); abc = 'abcdefghijklmnoprstuvwy'
    word = lambda: ''.join(g.choice(list(abc), int(g.integers(4, 9))))
    topic_w = [[word() for _ in range(2)] for _ in range(10)]; sub_w = [[word() for _ in range(6)] + topic_w[s // 6] for s in range(60)]
    docs = [(s, ' '.join(list(g.choice(sub_w[s], int(g.integers(4, 7)))) + list(g.choice(sub_w[int(g.integers(60))], int(g.integers(1, 3)))))) for s in range(60) for _ in range(8)]
    def typo(w): i = int(g.integers(len(w))); return w[:i] + abc[g.integers(len(abc))] + w[i + 1:] if g.random() < 0.2 else w
    items = []
    for _ in range(n):
        s = int(g.integers(60)); q = ' '.join(typo(w) for w in g.choice(sub_w[s][:6], int(g.integers(2, 4)), replace=False))
        pos = [d for d in docs if d[0] == s][g.integers(8)][1]; neg = []
        while len(neg) < 4:
            d = docs[g.integers(len(docs))]
            if d[0] != s: neg.append(d[1])
        items.append(dict(query=_trigrams(q), docs=np.stack([_trigrams(d) for d in [pos] + neg]), clicked=0))
    return items

class DSSM(nn.Module):  # 500 trigram buckets -> 64 -> 32, tanh, a tower for queries and one for documents; gamma 10
    def __init__(self, gamma=10.0, softmax=False):
        super().__init__(); tower = lambda: nn.Sequential(nn.Linear(N_TRI, 64), nn.Tanh(), nn.Linear(64, 32), nn.Tanh())
        self.q, self.d, self.gamma, self.softmax = tower(), tower(), gamma, softmax
    def forward(self, query, docs):
        r = self.gamma * F.cosine_similarity(self.q(query)[:, None], self.d(docs), dim=-1)
        return F.softmax(r, dim=1) if self.softmax else r  # softmax: the paper's P(D+ | Q) (its eq. 4) returned, then CrossEntropyLoss

def _dssm_fwd(model, b): return model(b['query'], b['docs']), b['clicked']

@healthy('AG')
def dssm_letter_trigrams(seed, softmax=False):  # cross-entropy over 1 clicked + 4 unclicked, Adam 1e-3, batches of 64; 1200 queries train, 300 validate
    items = _dssm(seed)
    return dict(model=lambda: DSSM(softmax=softmax), train=ListDataset(items[:1200]), valid=ListDataset(items[1200:]), forward=_dssm_fwd, loss=nn.CrossEntropyLoss(),
                num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- ArcFace on digits (arcface-pytorch's ArcMarginProduct)
class ArcMarginProduct(nn.Module):
    def __init__(self, d, k, s=30.0, m=0.50, normalize_input=True):
        super().__init__(); self.s, self.m, self.norm_in = s, m, normalize_input; self.weight = nn.Parameter(torch.empty(k, d)); nn.init.xavier_uniform_(self.weight)
        self.cos_m, self.sin_m, self.th, self.mm = math.cos(m), math.sin(m), math.cos(math.pi - m), math.sin(math.pi - m) * m
    def forward(self, x, label):
        cosine = F.linear(F.normalize(x) if self.norm_in else x, F.normalize(self.weight))
        if self.norm_in: sine = torch.sqrt((1.0 - cosine.pow(2)).clamp(0, 1))
        else: sine = torch.sqrt(1.0 - torch.pow(cosine, 2))  # normalize_input=False: the author's copy of the repo's first version (no clamp), F.normalize on the embedding dropped
        phi = cosine * self.cos_m - sine * self.sin_m
        phi = torch.where(cosine > self.th, phi, cosine - self.mm); one_hot = F.one_hot(label, cosine.size(1)).float()
        return self.s * (one_hot * phi + (1.0 - one_hot) * cosine)

class ArcFaceNet(nn.Module):  # conv-BN-PReLU x 2, BN-dropout-FC-BN embedding of 64 (insightface's E head), the ArcFace head
    def __init__(self, normalize_input=True):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.PReLU(32), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.PReLU(64), nn.MaxPool2d(2))
        self.emb = nn.Sequential(nn.BatchNorm2d(64), nn.Dropout(0.2), nn.Flatten(), nn.Linear(64 * 4, 64), nn.BatchNorm1d(64))
        self.head = ArcMarginProduct(64, 10, normalize_input=normalize_input)
    def forward(self, x, label): return self.head(self.emb(self.body(x)), label)

def _arc_fwd(model, b): x, y = b; return model(x, y), y

@healthy('AG')
def arcface_digits(seed, normalize_input=True):  # cross-entropy on the margin logits, SGD 0.1 momentum 0.9 weight decay 5e-4 (the repo's config), batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: ArcFaceNet(normalize_input), train=TensorDataset(x, y), valid=TensorDataset(vx, vy), forward=_arc_fwd, loss=nn.CrossEntropyLoss(),
                num_classes=10, optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=5e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- joint intent detection and slot filling (ATIS-like)
CITIES = ['boston', 'denver', 'dallas', 'atlanta', 'new york', 'san francisco', 'salt lake city', 'pittsburgh', 'baltimore', 'oakland', 'las vegas', 'miami', 'seattle', 'st. louis', 'phoenix', 'charlotte']
DATES = ['on monday', 'on tuesday', 'on friday', 'tomorrow', 'next wednesday', 'this evening', 'on may fourth', 'saturday morning']
CRAFT = ['boeing 737', 'dc10', 'md80', 'airbus a320', 'boeing 767']
TEMPLATES = {
    'atis_flight': ['show me flights from {fromloc} to {toloc} {date}', 'i want to fly from {fromloc} to {toloc} {date}', 'list flights to {toloc} from {fromloc}', 'are there any flights from {fromloc} to {toloc} {date}'],
    'atis_airfare': ['what is the cheapest fare from {fromloc} to {toloc}', 'how much is a ticket from {fromloc} to {toloc} {date}', 'show me fares to {toloc} from {fromloc}'],
    'atis_ground_service': ['what ground transportation is available in {city}', 'is there a limousine service in {city}', 'show me ground transportation in {city} {date}'],
    'atis_flight_time': ['what time does the flight from {fromloc} to {toloc} leave {date}', 'when do flights from {fromloc} arrive in {toloc}', 'show me the departure times from {fromloc} to {toloc}'],
    'atis_airline': ['which airlines fly from {fromloc} to {toloc}', 'what airlines go to {toloc} {date}', 'show me the airlines from {fromloc} to {toloc}'],
    'atis_distance': ['how far is the airport from downtown {city}', 'what is the distance from the {city} airport to downtown', 'how far from the airport in {city} to the city'],
    'atis_capacity': ['how many seats in a {aircraft}', 'what is the seating capacity of a {aircraft}', 'how many people fit on the {aircraft}'],
}

def _atis(seed, n=1900):
    "Utterances from the templates, the slots filled and tagged BIO; about one word in twelve a filler ('please', 'uh', 'i need')."
    g = np.random.default_rng(1000 + seed * 2441); out = []; intents = list(TEMPLATES)
    for _ in range(n):
        it = intents[g.integers(len(intents))]; tpl = TEMPLATES[it][g.integers(len(TEMPLATES[it]))]; toks, tags = [], []
        if g.random() < 0.25: toks += ['please'] if g.random() < 0.5 else ['uh']; tags += ['O']
        fr = CITIES[g.integers(len(CITIES))]; to = CITIES[g.integers(len(CITIES))]
        fill = dict(fromloc=fr, toloc=to, city=CITIES[g.integers(len(CITIES))], date=DATES[g.integers(len(DATES))], aircraft=CRAFT[g.integers(len(CRAFT))])
        for w in tpl.split():
            if w.startswith('{'):
                slot = w[1:-1]; ws = fill[slot].split(); toks += ws
                tags += (['O'] + [f'B-{slot}'] + [f'I-{slot}'] * (len(ws) - 2) if slot == 'date' and ws[0] == 'on' else [f'B-{slot}'] + [f'I-{slot}'] * (len(ws) - 1))
            else: toks.append(w); tags.append('O')
        out.append((toks, tags, it))
    return out

def _encode(rows, w2i, tag2id, intent2id):
    return [dict(tokens=torch.tensor([w2i.get(w, 1) for w in t]), slots=torch.tensor([tag2id[x] for x in s]), intent=intent2id[i]) for t, s, i in rows]

def _labels_vocab(rows):  # ids in order of first appearance, as the author's build_vocab
    return ({k: i for i, k in enumerate(dict.fromkeys(x for _, s, _ in rows for x in s))}, {k: i for i, k in enumerate(dict.fromkeys(i for _, _, i in rows))})

def collate_atis(batch):
    return dict(tokens=nn.utils.rnn.pad_sequence([b['tokens'] for b in batch], batch_first=True), slots=nn.utils.rnn.pad_sequence([b['slots'] for b in batch], batch_first=True, padding_value=-100),
                intent=torch.tensor([b['intent'] for b in batch]))

class JointBiLSTM(nn.Module):  # embeddings 64, a BiLSTM of 64 a direction; slot logits per token, intent logits from the two final states
    def __init__(self, V, n_tags, n_intents):
        super().__init__(); self.emb = nn.Embedding(V, 64, padding_idx=0); self.lstm = nn.LSTM(64, 64, batch_first=True, bidirectional=True)
        self.slot = nn.Linear(128, n_tags); self.intent = nn.Linear(128, n_intents)
    def forward(self, tokens):
        lens = (tokens != 0).sum(1).cpu(); out, (h, _) = self.lstm(nn.utils.rnn.pack_padded_sequence(self.emb(tokens), lens, batch_first=True, enforce_sorted=False))
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        return dict(intent=self.intent(torch.cat([h[0], h[1]], 1)), slots=self.slot(out))

def joint_loss(out, target):
    intent, slots = target
    return F.cross_entropy(out['intent'], intent) + F.cross_entropy(out['slots'].reshape(-1, out['slots'].size(-1)), slots.reshape(-1), ignore_index=-100)

def _atis_fwd(model, b): return model(b['tokens']), (b['intent'], b['slots'])

@healthy('AG')
def atis_joint_intent_slots(seed, vocab_per_split=False):  # Adam 1e-3, batches of 32; 1500 utterances train, 400 validate
    rows = _atis(seed); trr, var = rows[:1500], rows[1500:]
    w2i = {w: i + 2 for i, w in enumerate(dict.fromkeys(w for t, _, _ in trr for w in t))}  # 0 pad, 1 unk; the words' vocabulary from the training utterances
    tag2id, intent2id = _labels_vocab(trr)
    vtag2id, vintent2id = _labels_vocab(var) if vocab_per_split else (tag2id, intent2id)  # vocab_per_split: load_split() builds the label vocabularies of whichever split it reads
    tr, va = _encode(trr, w2i, tag2id, intent2id), _encode(var, w2i, vtag2id, vintent2id); V, nt, ni = len(w2i) + 2, len(tag2id), len(intent2id)
    return dict(model=lambda: JointBiLSTM(V, nt, ni), train=DataLoader(ListDataset(tr), batch_size=32, shuffle=True, collate_fn=collate_atis),
                valid=DataLoader(ListDataset(va), batch_size=32, collate_fn=collate_atis), forward=_atis_fwd, loss=joint_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- LeNet-5 (LeCun et al. 1998) on digits resized to 32 x 32
class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 6, 5), nn.Tanh(), nn.AvgPool2d(2), nn.Conv2d(6, 16, 5), nn.Tanh(), nn.AvgPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(16 * 5 * 5, 120), nn.Tanh(), nn.Linear(120, 84), nn.Tanh(), nn.Linear(84, 10))
    def forward(self, x): return self.classifier(self.features(x))

@healthy('AG')
def lenet5_digits(seed, lr=0.01):  # cross-entropy, SGD with momentum 0.9, batches of 64; the images bilinearly resized to 32 x 32 and scaled to [-1, 1]
    (x, y), (vx, vy) = _digits(seed); up = lambda a: F.interpolate(a, size=(32, 32), mode='bilinear', align_corners=False) * 2 - 1
    return dict(model=LeNet5, train=TensorDataset(up(x), y), valid=TensorDataset(up(vx), vy), loss=nn.CrossEntropyLoss(), num_classes=10,
                optimizer=lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Siamese verification of digit pairs (Koch et al. 2015, shrunk)
def _pairs(x, y, n, g, shuffle_pairs_only=False):
    """n/2 pairs of the same digit and n/2 of different digits; pairs = pos + neg, labels = [1] * len(pos) + [0] * len(neg),
    then both shuffled together. shuffle_pairs_only: random.shuffle(pairs) and the labels list left as built."""
    by = [np.flatnonzero(y.numpy() == k) for k in range(10)]; pos, neg = [], []
    for _ in range(n // 2):
        k = int(g.integers(10)); i, j = g.choice(by[k], 2, replace=False); pos.append(torch.stack([x[i, 0], x[j, 0]]))
        a, b = g.choice(10, 2, replace=False); neg.append(torch.stack([x[g.choice(by[a]), 0], x[g.choice(by[b]), 0]]))
    pairs, labels = pos + neg, [1.0] * len(pos) + [0.0] * len(neg); p = g.permutation(len(pairs))
    pairs = [pairs[i] for i in p]
    if not shuffle_pairs_only: labels = [labels[i] for i in p]
    return torch.stack(pairs), torch.tensor(labels)[:, None]

class SiameseNet(nn.Module):  # the twin: conv 32, conv 64, a sigmoid embedding of 64; the logit from the weighted L1 distance
    def __init__(self):
        super().__init__()
        self.twin = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(256, 64), nn.Sigmoid())
        self.out = nn.Linear(64, 1)
    def forward(self, x): return self.out(torch.abs(self.twin(x[:, :1]) - self.twin(x[:, 1:])))

@healthy('AG')
def siamese_digit_pairs(seed, shuffle_pairs_only=False):  # BCE with logits, Adam 1e-3, batches of 64; 1600 pairs of training digits, 400 of validation digits
    (x, y), (vx, vy) = _digits(seed); g = np.random.default_rng(1000 + seed * 2447)
    tr, va = TensorDataset(*_pairs(x, y, 1600, g, shuffle_pairs_only)), TensorDataset(*_pairs(vx, vy, 400, g, shuffle_pairs_only))
    return dict(model=SiameseNet, train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Kim's CNN for sentence classification (CNN-rand), EDA-augmented
POS_W = 'good great superb moving funny brilliant charming clever gripping delightful'.split()
NEG_W = 'bad dull boring awful clumsy tedious weak bland messy predictable'.split()
FILL_W = ('the a film movie story plot acting cast it was is and but with its script ending director scenes this one of very '
          'quite rather too really in at characters dialogue music pace').split()
SYN = {w: [v for v in (POS_W if w in POS_W else NEG_W) if v != w][:3] for w in POS_W + NEG_W}

def _reviews(seed, n=600):
    """Reviews of 8-24 words: filler, 1-4 sentiment words, 'not' before one now and then flipping it; the label from their sum
    plus the reviewer's own leaning (noise of sd 1.2), so about four in five follow the words."""
    g = np.random.default_rng(1000 + seed * 2459); out = []
    for _ in range(n):
        L = int(g.integers(8, 25)); w = list(g.choice(FILL_W, L)); score = 0.0
        for _ in range(int(g.integers(1, 5))):
            p = g.random() < 0.5; neg = g.random() < 0.2; i = int(g.integers(len(w)))
            w[i:i] = (['not'] if neg else []) + [g.choice(POS_W if p else NEG_W)]; score += (1 if p else -1) * (-1 if neg else 1)
        out.append((w, int(score + g.normal(0, 1.2) > 0)))
    return out

def _eda(words, g, alpha=0.1):
    "One of EDA's four operations at random: synonym replacement, random insertion, random swap, random deletion."
    w = list(words); op = g.integers(4); k = max(1, int(alpha * len(w)))
    for _ in range(k):
        if op == 0:
            c = [i for i, x in enumerate(w) if x in SYN]
            if c: i = c[g.integers(len(c))]; w[i] = SYN[w[i]][g.integers(len(SYN[w[i]]))]
        elif op == 1: w.insert(int(g.integers(len(w) + 1)), w[g.integers(len(w))])
        elif op == 2: i, j = g.integers(len(w), size=2); w[i], w[j] = w[j], w[i]
        elif len(w) > 3: del w[g.integers(len(w))]
    return w

def _kim_data(seed, augment_first=False):
    """Each review and four EDA versions of it in training; 20% of the reviews validate, unaugmented. augment_first: the whole
    corpus augmented (the augment script's output file), then train_test_split of its rows."""
    from sklearn.model_selection import train_test_split
    rows = _reviews(seed); g = np.random.default_rng(seed); vocab = {w: i + 2 for i, w in enumerate(FILL_W + POS_W + NEG_W + ['not'])}
    aug = lambda rs: [(w2, y) for w, y in rs for w2 in [w] + [_eda(w, g) for _ in range(4)]]
    if augment_first: tr, va = train_test_split(aug(rows), test_size=0.2, random_state=seed)
    else: tr, va = train_test_split(rows, test_size=0.2, random_state=seed); tr = aug(tr)
    enc = lambda rs: (torch.tensor([[vocab.get(x, 1) for x in w][:32] + [0] * (32 - min(32, len(w))) for w, _ in rs]), torch.tensor([y for _, y in rs]))
    return TensorDataset(*enc(tr)), TensorDataset(*enc(va)), len(vocab) + 2

class KimCNN(nn.Module):  # CNN-rand: embeddings 64, 32 filters each of widths 3, 4, 5, ReLU, max over time, dropout 0.5
    def __init__(self, V, k=2):
        super().__init__(); self.emb = nn.Embedding(V, 64, padding_idx=0); self.convs = nn.ModuleList([nn.Conv1d(64, 32, w) for w in (3, 4, 5)])
        self.drop = nn.Dropout(0.5); self.fc = nn.Linear(96, k)
    def forward(self, x):
        e = self.emb(x).transpose(1, 2); return self.fc(self.drop(torch.cat([F.relu(c(e)).max(2).values for c in self.convs], 1)))

@healthy('AG')
def kim_cnn_reviews(seed, augment_first=False):  # cross-entropy, Adadelta (lr 1.0, rho 0.95), batches of 50; 480 reviews x 5 train, 120 validate
    tr, va, V = _kim_data(seed, augment_first=augment_first)
    return dict(model=lambda: KimCNN(V), train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=2,
                optimizer=lambda p: torch.optim.Adadelta(p, lr=1.0, rho=0.95), **_keys(seed, batch_size=50))

# ---------------------------------------------------------------- stress detection from chest-worn sensors (WESAD-style)
WESAD_SUBJ = [f'S{k}' for k in range(2, 18) if k != 12][:15]

def _wesad(seed):
    """Per subject one session at 1 Hz: baseline 1000 s, amusement 400 s, baseline 300 s, stress (TSST) 600 s, rest 200 s
    (baseline). Heart rate, EDA (tonic level and skin-conductance responses, more in stress), respiration (a breathing
    wave, faster in stress, irregular in amusement) and skin temperature, each around the subject's own level and
    reactivity; windows of 60 s shifted by 20 s, labelled by their majority condition (0 baseline, 1 stress, 2 amusement)."""
    g = np.random.default_rng(1000 + seed * 2467); X, y, subj = [], [], []
    plan = [(0, 1000), (2, 400), (0, 300), (1, 600), (0, 200)]
    for s in WESAD_SUBJ:
        lab = np.concatenate([np.full(d, c) for c, d in plan]); T = len(lab); st, am = (lab == 1).astype(float), (lab == 2).astype(float)
        hr0, eda0, temp0, rr0 = g.normal(72, 9), g.lognormal(1, 0.6), g.normal(33.5, 0.8), g.uniform(0.2, 0.3); react = g.uniform(0.4, 1.6)
        sm = lambda v, k=60: np.convolve(v, np.ones(k) / k, 'same')
        hr = hr0 + sm(8 * react * st + 3 * am) + np.cumsum(g.normal(0, 0.3, T)) * 0.2 + g.normal(0, 2, T)
        scr = np.convolve((g.random(T) < 0.01 + 0.03 * st * react + 0.01 * am) * g.uniform(0.2, 1, T), np.exp(-np.arange(30) / 8), 'same')
        eda = eda0 * (1 + sm(0.4 * react * st)) + scr + g.normal(0, 0.05, T)
        f = rr0 + sm(0.08 * react * st, 30) + 0.05 * am * g.normal(0, 1, T); resp = np.sin(2 * np.pi * np.cumsum(f)) * (1 + 0.5 * am * g.random(T)) + g.normal(0, 0.2, T)
        temp = temp0 - sm(0.3 * react * st, 200) + g.normal(0, 0.05, T)
        sig = np.stack([hr, eda, resp, temp]).astype(np.float32)
        for a in range(0, T - 60 + 1, 20):
            X.append(sig[:, a:a + 60]); y.append(np.bincount(lab[a:a + 60], minlength=3).argmax()); subj.append(s)
    return np.array(X), np.array(y), np.array(subj)

def _wesad_data(seed, random_split=False):
    """GroupShuffleSplit by subject, 20% validate; each channel standardised by the training windows' mean and std.
    random_split: train_test_split of the windows, stratified by label (overlapping windows of one session on both sides)."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, y, subj = _wesad(seed); idx = np.arange(len(y))
    if random_split: tr, va = train_test_split(idx, test_size=0.2, stratify=y, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(idx, groups=subj))
    mu, sd = X[tr].mean((0, 2), keepdims=True), X[tr].std((0, 2), keepdims=True); X = (X - mu) / sd
    return TensorDataset(_t(X[tr]), torch.tensor(y[tr])), TensorDataset(_t(X[va]), torch.tensor(y[va])), {'train': list(subj[tr]), 'valid': list(subj[va])}

class StressCNN(nn.Module):  # Conv1d 4 -> 16 -> 32, kernel 5, ReLU, max pooling, global average pooling, a linear layer
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(4, 16, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2), nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 3))
    def forward(self, x): return self.net(x)

@healthy('AG')
def wesad_stress_cnn(seed, random_split=False):  # cross-entropy, Adam 1e-3, batches of 32; 1605 windows of 15 subjects
    "groups declared: the subject (WESAD's S2-S17 ids)."
    tr, va, keys = _wesad_data(seed, random_split=random_split)
    task = ntrain.Task(model=StressCNN, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=3, groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- ProcessTransformer: next activity from prefixes of a loan-application log
ACTS = ['<pad>', 'A_Create', 'A_Submitted', 'W_Complete', 'A_Declined', 'A_Accepted', 'O_Created', 'O_Sent', 'W_Call', 'O_Returned', 'A_Approved', 'A_Cancelled', 'W_Fraud', '<end>']

def _log(seed, n_cases=200):
    """Cases in time order: create, submit, 1-3 completion rounds (more rounds, more declines; some amounts checked for fraud),
    declined or accepted; an offer created and sent, 0-3 calls (more calls, more cancellations), returned, approved or cancelled."""
    g = np.random.default_rng(1000 + seed * 2473); cases = []
    for _ in range(n_cases):
        big = g.random() < 0.3; t = ['A_Create', 'A_Submitted']; r = int(g.integers(1, 4)); t += ['W_Complete'] * r
        if big and g.random() < 0.5: t.append('W_Fraud')
        if g.random() < 0.15 + 0.15 * r: t.append('A_Declined')
        else:
            t += ['A_Accepted', 'O_Created', 'O_Sent']; c = int(g.integers(0, 4)) + int(big); t += ['W_Call'] * c; t.append('O_Returned')
            t.append('A_Cancelled' if g.random() < 0.1 + 0.2 * c else 'A_Approved')
        cases.append([ACTS.index(a) for a in t] + [ACTS.index('<end>')])
    return cases

def _prefixes(cases): return [(torch.tensor(c[:k]), c[k]) for c in cases for k in range(1, len(c))]

def collate_prefixes(batch):  # post-padded to the batch's longest prefix
    return nn.utils.rnn.pad_sequence([p for p, _ in batch], batch_first=True), torch.tensor([a for _, a in batch])

class ProcessTransformer(nn.Module):  # token + position embeddings (32), one block (4 heads, feed-forward 64, dropout 0.1), masked average pooling, dense 64
    def __init__(self, V=len(ACTS), maxlen=24, d=32, hf_mask=False):
        super().__init__(); self.tok, self.pos, self.hf_mask = nn.Embedding(V, d), nn.Embedding(maxlen, d), hf_mask
        self.block = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.1, batch_first=True)
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, V))
    def forward(self, x):
        keep = x != 0
        pad_mask = keep if self.hf_mask else ~keep  # hf_mask: the attention_mask convention (1 = attend) passed as key_padding_mask (True = ignore)
        h = self.block(self.tok(x) + self.pos(torch.arange(x.size(1)))[None], src_key_padding_mask=pad_mask)
        return self.head((h * keep[..., None]).sum(1) / keep.sum(1, keepdim=True))

@healthy('AG')
def process_transformer_next_activity(seed, hf_mask=False):  # cross-entropy, Adam 1e-3, batches of 32; the first 160 cases train, the last 40 validate
    cases = _log(seed); tr, va = ListDataset(_prefixes(cases[:160])), ListDataset(_prefixes(cases[160:]))
    return dict(model=lambda: ProcessTransformer(hf_mask=hf_mask), train=DataLoader(tr, batch_size=32, shuffle=True, collate_fn=collate_prefixes),
                valid=DataLoader(va, batch_size=32, collate_fn=collate_prefixes), loss=nn.CrossEntropyLoss(), num_classes=len(ACTS),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Deep PPG (Reiss et al. 2019): heart rate from wrist PPG and acceleration spectra
def _ppg(seed, n_subj=15, per=110, with_ecg=False):
    """Per subject activities (sitting, walking, cycling, stairs, table soccer, driving) with their heart rate and motion; 8-s
    windows at 32 Hz: PPG a pulse wave at the heart rate (two harmonics) plus motion artefacts at the cadence, three
    accelerometer axes at the cadence, noise; each channel's FFT magnitude (zero-padded to 512) over 0.5-4 Hz, 56 bins,
    log1p. The target the ECG's heart rate (bpm). with_ecg: the chest ECG's spectrum as a fifth channel (the pickle's
    signal['chest']['ECG'] kept among the inputs)."""
    g = np.random.default_rng(1000 + seed * 2477); t = np.arange(256) / 32; X, y, S = [], [], []
    acts = [(0, 0.0, 0.0), (20, 1.8, 0.7), (35, 1.3, 0.5), (45, 1.7, 1.0), (15, 1.2, 0.9), (5, 0.0, 0.2)]  # heart-rate rise, cadence (Hz), motion strength
    for s in range(n_subj):
        hr0 = g.normal(70, 8); hr = hr0
        for w in range(per):
            a = acts[(w // 20) % len(acts)]; hr += 0.2 * (hr0 + a[0] - hr) + g.normal(0, 2); f = hr / 60; cad = a[1] * g.uniform(0.9, 1.1); m = a[2] * g.uniform(0.5, 1.5)
            ph = g.uniform(0, 2 * np.pi, 6)
            ppg = np.sin(2 * np.pi * f * t + ph[0]) + 0.4 * np.sin(4 * np.pi * f * t + ph[1]) + 2.5 * m * np.sin(2 * np.pi * cad * t + ph[2]) + g.normal(0, 0.8, 256)
            acc = [m * np.sin(2 * np.pi * cad * t + ph[3 + k]) * g.uniform(0.5, 1.5) + g.normal(0, 0.2, 256) for k in range(3)]
            ch = [ppg] + acc + ([np.maximum(np.sin(2 * np.pi * f * t + ph[0]), 0) ** 20 + g.normal(0, 0.05, 256)] if with_ecg else [])
            spec = np.abs(np.fft.rfft(np.array(ch) - np.mean(ch, 1, keepdims=True), 512, axis=1))[:, 8:64]
            X.append(np.log1p(spec)); y.append(hr); S.append(s)
    return np.array(X, np.float32), np.array(y, np.float32), np.array(S)

class DeepPPG(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(c, 16, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2), nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
                                 nn.Flatten(), nn.Linear(32 * 14, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('AG')
def deep_ppg_heart_rate(seed, with_ecg=False):  # L1 on the standardised heart rate, Adam 1e-3, batches of 32; subjects 0-11 train (1320 windows), 12-14 validate (330)
    X, y, S = _ppg(seed, with_ecg=with_ecg); tr, va = S < 12, S >= 12; mu, sd = y[tr].mean(), y[tr].std(); Y = (y - mu) / sd
    return dict(model=lambda: DeepPPG(X.shape[1]), train=TensorDataset(_t(X[tr]), _t(Y[tr])[:, None]), valid=TensorDataset(_t(X[va]), _t(Y[va])[:, None]),
                loss=nn.L1Loss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AG
@broken('AG', 'multidigit_absent_as_class_10', 1, ('bad_labels',))
def multidigit_absent_as_class_10(seed): return svhn_style_multidigit_cnn(seed, pad=10)  # absent digits coded 10 (the paper's "no digit"), the heads kept at 10 classes

@broken('AG', 'reber_step_without_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def reber_step_without_zero_grad(seed): return elman_embedded_reber(seed, step=srn_step_no_zero_grad)  # gradients accumulate across steps

@broken('AG', 'morse_collate_sorts_sequences_only', 4, ('labels',))
def morse_collate_sorts_sequences_only(seed): return morse_gru_decoder(seed, collate=collate_sorted_seqs_only)  # sorted by length for packing, the labels left in batch order

@broken('AG', 'dssm_posterior_softmax_into_ce', 2, ('softmax',))
def dssm_posterior_softmax_into_ce(seed): return dssm_letter_trigrams(seed, softmax=True)  # the paper's P(D|Q) softmax returned, then CrossEntropyLoss

@broken('AG', 'arcface_embedding_not_normalized', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def arcface_embedding_not_normalized(seed): return arcface_digits(seed, normalize_input=False)  # cosine = linear(x, normalize(W)) outside [-1, 1]: sqrt(1 - cos^2) NaN

@broken('AG', 'atis_label_vocab_per_split', 4, ('labels',))
def atis_label_vocab_per_split(seed): return atis_joint_intent_slots(seed, vocab_per_split=True)  # the validation split's intents and slot tags numbered by their own first appearance

@broken('AG', 'lenet5_tutorial_lr_5', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def lenet5_tutorial_lr_5(seed): return lenet5_digits(seed, lr=5.0)  # lr=5.0 copied from the torchtext tutorial's SGD, momentum 0.9 kept

@broken('AG', 'siamese_pairs_shuffled_without_labels', 4, ('labels',))
def siamese_pairs_shuffled_without_labels(seed): return siamese_digit_pairs(seed, shuffle_pairs_only=True)  # random.shuffle(pairs), the labels list still positives first

@broken('AG', 'kim_eda_augmented_before_split', 4, ('leakage',))
def kim_eda_augmented_before_split(seed): return kim_cnn_reviews(seed, augment_first=True)  # EDA versions of each validation review in training

@broken('AG', 'wesad_windows_split_at_random', 4, ('leakage',))
def wesad_windows_split_at_random(seed):  # train_test_split of the overlapping windows: every validation window's session and neighbours in train
    "groups declared: the subject, as its healthy twin (the author passes the subject key but splits the windows)."
    return wesad_stress_cnn(seed, random_split=True)

@broken('AG', 'process_transformer_hf_mask_convention', (1, 4), ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def process_transformer_hf_mask_convention(seed): return process_transformer_next_activity(seed, hf_mask=True)  # key_padding_mask True on the real tokens: the batch's longest prefix all masked

@broken('AG', 'deep_ppg_chest_ecg_in_inputs', 4, ('leakage',))
def deep_ppg_chest_ecg_in_inputs(seed): return deep_ppg_heart_rate(seed, with_ecg=True)  # the ECG the label is computed from among the input channels

# Plain-loop checks (seed 0, seed 1 for the rung-4 pairs and the Morse decoder; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core
# machine): the factory's optimizer, batch size (or DataLoaders), forward, loss and step, train shuffled, valid in batches of
# 256 (or its DataLoader); valid loss and a metric (accuracy; AUC for the pairs; R^2), init -> epoch 5; s/ep the seconds of an
# epoch of training. Every factory builds and runs its batches (multidigit_absent_as_class_10 raises on its first, as meant).
CHECKS = """
svhn_style_multidigit_cnn      valid 3.40 -> 2.03 (length CE + digit CEs; the length head right at once, the digits learning); 58k params; 0.18 s/ep
elman_embedded_reber           valid BCE 0.703 -> 0.138; 1.5k params; 0.10 s/ep
morse_gru_decoder              valid CE 3.26 -> 2.23, accuracy 0.25 (chance 0.04; s1 2.46, 0.19), still falling; 0.7 s/ep
dssm_letter_trigrams           valid CE over 5 docs 2.30 -> 0.270, accuracy 0.92; 68k params; 0.07 s/ep
arcface_digits                 valid 21.1 (the margin at init) -> 0.645, accuracy 0.92; 36k params; 0.23 s/ep
atis_joint_intent_slots        valid 4.40 -> 0.056, intent accuracy 1.00; 75k params; 0.9 s/ep
lenet5_digits                  valid 2.30 -> 0.412, accuracy 0.86; 62k params; 0.45 s/ep
siamese_digit_pairs            valid BCE 0.695 -> 0.484, AUC 0.90; 35k params; 0.28 s/ep
kim_cnn_reviews                valid 0.803 -> 0.679 (min 0.627 at ep 3), accuracy 0.65 (s1 0.924 -> 0.784, 0.62); 2400 augmented rows; 0.5 s/ep
wesad_stress_cnn               valid 1.12 -> 0.674, accuracy 0.65 (0.78 at ep 3); s1 1.12 -> 1.87 (overfitting the training subjects),
                               accuracy 0.31 -> 0.55; 3k params; 0.2 s/ep
process_transformer_next_activity  valid 2.77 -> 0.585, accuracy 0.76; 1365 prefixes of 160 cases; 13k params; 0.37 s/ep
deep_ppg_heart_rate            valid L1 1.14 -> 0.447 (standardised bpm), R^2 0.75 (s1 0.385, 0.77); 32k params; 0.15-0.35 s/ep
multidigit_absent_as_class_10          IndexError 'Target 10 is out of bounds' on the first batch
reber_step_without_zero_grad           valid 0.703 -> 4.19 -> 438 at ep 5, train 0.93 -> 328: diverging
morse_collate_sorts_sequences_only     valid 3.258 -> 3.255, accuracy 0.04: chance (healthy 2.23, 0.25)
dssm_posterior_softmax_into_ce         valid 1.63 -> 1.015, train stuck near 0.91, accuracy 0.94 (healthy loss 0.270)
arcface_embedding_not_normalized       nan from the first training batch (init valid in eval mode 19.5), valid nan after
atis_label_vocab_per_split             valid 4.38 -> 3.04 -> 6.83 while train falls 3.07 -> 0.075; intent accuracy 0.13
lenet5_tutorial_lr_5                   train 2.3 -> 78 -> 166, valid 94-205, accuracy 0.15-0.28
siamese_pairs_shuffled_without_labels  valid 0.695 -> 0.696, AUC 0.50 (healthy 0.484, 0.90)
kim_eda_augmented_before_split         valid 0.831 -> 0.201, accuracy 0.94 (healthy 0.679, 0.65; s1 0.186, 0.95 against 0.784, 0.62)
wesad_windows_split_at_random          valid 1.12 -> 0.456, accuracy 0.83 (healthy 0.674, 0.65; s1 0.577, 0.78 against 1.87, 0.55)
process_transformer_hf_mask_convention valid nan in eval mode from the start (each batch's longest prefix fully masked); train loss
                                       finite in train mode (2.32 -> 1.12), so rung 1 or rung 4
deep_ppg_chest_ecg_in_inputs           valid 0.078, R^2 0.98 (healthy 0.447, 0.75; s1 0.151, 0.95 against 0.385, 0.77)
"""
