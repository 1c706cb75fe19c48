"""Half AL of the ladder's gallery: held out from the rules frozen at f4491b3 (round 51), and run once on them.
Families not in halves A-AJ, taken from text and NLP, tabular business, finance and health records, graphs and molecules,
recommendation and ranking, self-supervised and metric-learning heads, and biology sequences (another half was written at
the same time from other domains): DeepCoNN (Zheng, Noroozi and Yu 2017: two convolutional towers over a user's and an
item's review documents, max pooling over time, a factorisation machine whose bias starts at the training mean; MSE in
stars, RMSprop 2e-3 as the paper; a batch of three tensors and a forward of its own) on Yelp-style restaurant reviews, each
rating's documents built from the other training reviews (its own left out, as TransNets asks); YouTube's candidate
generation network (Covington, Adams and Sargin 2016: the averaged embeddings of the last 20 watches, a region embedding,
the example's age and gender, a ReLU tower, a softmax layer over 240 videos; dict items and a forward of its own)
predicting the next watch, users split; 30-day readmission of diabetic inpatients (Strack et al. 2014, the UCI
130-hospitals columns: one-hot categories, standardised counts, an MLP, BCE with logits; patients split with
GroupShuffleSplit; groups declared: the patient); a stock's direction a week ahead from technical indicators (returns,
moving-average ratios, RSI, MACD, volatility and the volume's z-score of eight stocks; an MLP; split in time); medical
insurance charges (Lantz's insurance.csv: age, sex, BMI, children, smoker, region; an MLP on log charges, MSE, SGD with
momentum); ATAE-LSTM (Wang, Huang, Zhu and Zhao 2016: the aspect's embedding appended to every word and to the attention,
an LSTM over packed sequences; a collate_fn, a batch of four tensors and a forward of its own) on SemEval-2014-style
restaurant sentences with aspect categories; supervised SimCSE (Gao, Yao and Chen 2021: a one-layer transformer encoder with
mean pooling and the MLP pooler, each anchor against the batch's entailments and contradictions at temperature 0.05; no
target, a forward of its own; AdamW) on SNLI-style triples; CommonLit readability (a BiLSTM over frozen GloVe-like vectors,
attention pooling, MSE in the competition's target units); D-MPNN (Yang et al. 2019, chemprop's directed-bond message
passing, the mean over atoms; a collate_fn that batches molecules as chemprop's BatchMolGraph, a batch of seven tensors and
a forward of its own) regressing ESOL-style log solubility of molecules that include salts and one-atom ones; DeepWalk link
prediction (Perozzi, Al-Rfou and Skiena 2014: skip-gram with negative sampling over uniform random walks of a friendship
network of eight communities, negatives drawn afresh at each access; held-out ties and as many non-ties validate);
DeepSpCas9 (Kim et al. 2019, shrunk: parallel convolutions of widths 3, 5 and 7 over the one-hot 30-nt target, dense
layers; MSE on the indel frequency) read from a screen's FASTA and CSV; and peptide retention time (a DeepRT/Prosit-style
BiGRU with attention over packed residues; a collate_fn; MSE on the time over the 90-minute gradient) of tryptic peptides
from a PSM table, collapsed to unique sequences before the split.
At most about 1950 training items a program (the skip-gram pairs excepted: about 11,000, half of them negatives drawn at
each access) and 44k trainable parameters; an epoch of a plain loop 0.03-1.6 s on one busy core (CHECKS).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AJ.

Protocol: written by a helper in a worktree at dcf0897 (branch halfAL), held out from the rules frozen at f4491b3 (round 51).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI). It read bench/ladder_gallery.py's head, helpers and tail (the import lines) and a list of
its factories' names (halves A-F), half AJ whole, the module docstrings of halves G-AI and the @broken lines of halves A-AI
(for the rung and cause conventions and the families taken, with greps of the halves for candidate family names and for the
conventions of groups=, custom steps and collate_fns, which showed a few of their code lines), a grep of ladder_sweep.py for
'half' (the --half line and a few neighbours), and the signatures and docstrings of `ntrain.ladder` and `ntrain.Task` via
help(); it ran `git status`, `git diff` (its context lines show ladder_sweep.py's argparse lines), `git diff --stat` and
`git rev-parse`, and no git log but one `git log -1 --format=%H` after its first commit, output discarded. Each program was
checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken
ones are broken as meant), seeds 0 and 1. Two programs declare groups (readmission_patient_split_mlp and its broken twin
readmission_groups_keyed_by_encounter; "groups declared" in their factories' docstrings) and are to be reported apart.
Committed before any ladder run, to be run once with `bench/ladder_sweep.py --half AL`; no program changes after the run
starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
import ntrain
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- DeepCoNN (Zheng, Noroozi and Yu 2017): ratings from the users' and the items' review documents
SENTIMENT = ['awful', 'horrible', 'terrible', 'bad', 'poor', 'disappointing', 'meh', 'okay', 'fine', 'decent', 'solid', 'good',
             'nice', 'great', 'excellent', 'amazing', 'fantastic', 'perfect']  # graded from one star to five
ASPECT_WORDS = {'food': (['food', 'dishes', 'portions'], ['bland', 'greasy', 'stale'], ['tasty', 'fresh', 'delicious']),
                'service': (['service', 'staff', 'waiter'], ['rude', 'slow', 'careless'], ['friendly', 'quick', 'attentive']),
                'price': (['prices', 'bill', 'menu'], ['overpriced', 'steep', 'pricey'], ['cheap', 'fair', 'reasonable']),
                'ambience': (['decor', 'music', 'room'], ['noisy', 'cramped', 'dingy'], ['cozy', 'quiet', 'charming'])}
CUISINES = [['ramen', 'gyoza', 'broth', 'noodles'], ['tacos', 'salsa', 'burrito', 'guac'], ['pizza', 'pasta', 'risotto', 'tiramisu'],
            ['curry', 'naan', 'biryani', 'masala'], ['burger', 'fries', 'shake', 'wings'], ['sushi', 'sashimi', 'maki', 'miso'],
            ['pho', 'banh', 'spring', 'rolls'], ['brunch', 'pancakes', 'eggs', 'coffee']]
FILLERS = ['honestly', 'lol', 'tbh', 'basically', 'literally', 'definitely', 'totally', 'seriously', 'anyway', 'btw', 'imo', 'super',
           'pretty', 'quite', 'actually', 'kinda', 'def', 'omg', 'sooo', 'haha']

def _yelp_reviews(seed, n_users=400, n_items=120, n=2000):
    """Restaurant reviews in the Yelp style: each user a leniency, the aspects they write about and two verbal habits; each
    restaurant a cuisine, a standing and a quality per aspect (food, service, price, ambience). The stars from the user's
    leniency, the restaurant's standing and its aspects weighted by what the user cares about; the text names the cuisine,
    the aspects the user writes about with adjectives that follow the restaurant's quality, and overall words that follow
    the stars. A review (user, item, stars, tokens), in the order written."""
    g = np.random.default_rng(1000 + seed * 2731); A = list(ASPECT_WORDS)
    lenient, care, habits = g.normal(0, 0.6, n_users), g.dirichlet(np.ones(4) * 0.7, n_users), [g.choice(len(FILLERS), 2, replace=False) for _ in range(n_users)]
    standing, quality, cuisine = g.normal(0, 0.5, n_items), g.normal(0, 1, (n_items, 4)), g.integers(len(CUISINES), size=n_items)
    pop = g.permutation(1 / np.arange(1, n_items + 1) ** 0.9); pop /= pop.sum(); counts = g.geometric(n_users / n / 1.05, n_users); out = []
    for u in range(n_users):
        for i in g.choice(n_items, min(counts[u], n_items), replace=False, p=pop):
            stars = int(np.clip(np.round(3.5 + lenient[u] + standing[i] + 0.9 * care[u] @ quality[i] + g.normal(0, 0.45)), 1, 5))
            toks = [CUISINES[cuisine[i]][j] for j in g.choice(4, 1 + int(g.integers(2)), replace=False)]
            for a in g.choice(4, 2, replace=False, p=care[u]):
                nouns, neg, pos = ASPECT_WORDS[A[a]]; good = quality[i, a] + g.normal(0, 0.6) > 0
                toks += ['the', nouns[g.integers(3)], 'was', (pos if good else neg)[g.integers(3)], 'and' if g.random() < 0.5 else 'but']
            toks += ['overall', SENTIMENT[int(np.clip((stars - 1) * 4.25 + g.normal(0, 0.8), 0, 17))], FILLERS[habits[u][g.integers(2)]]]
            toks += ['will', 'come', 'back'] if stars >= 4 else ['will', 'not', 'come', 'back'] if stars <= 2 else []
            out.append((u, int(i), stars, toks))
    order = g.permutation(len(out))[:n]; return [out[k] for k in np.sort(order)], n_users, n_items

def review_documents(reviews, pool, rows, who, vocab, L, leave_out=True):
    """For each review k in `rows`, the document of its user (who=0) or its item (who=1): the tokens of their reviews in
    `pool`, concatenated in the order written, k's own left out (leave_out False: kept), cut or padded to L ids."""
    by = {}
    for j in pool: by.setdefault(reviews[j][who], []).append(j)
    docs = []
    for k in rows:
        d = [vocab[w] for j in by.get(reviews[k][who], []) if j != k or not leave_out for w in reviews[j][3]]
        docs.append((d + [0] * L)[:L])
    return torch.tensor(docs)

class DeepCoNN(nn.Module):
    """Two parallel towers (word embeddings, a convolution of width 3, max pooling over time, a dense layer with dropout) for
    the user's and the item's documents, joined by a factorisation machine on their concatenation; its global bias starts at
    the training ratings' mean, as the PyTorch ports add the global mean."""
    def __init__(self, V, mean=0.0, d=32, filters=32, latent=16, k=8):
        super().__init__()
        self.emb_u, self.emb_i = nn.Embedding(V, d, padding_idx=0), nn.Embedding(V, d, padding_idx=0)
        self.conv_u, self.conv_i = nn.Conv1d(d, filters, 3, padding=1), nn.Conv1d(d, filters, 3, padding=1)
        self.fc_u, self.fc_i = nn.Linear(filters, latent), nn.Linear(filters, latent); self.drop = nn.Dropout(0.5)
        self.w0, self.w, self.v = nn.Parameter(torch.tensor([float(mean)])), nn.Linear(2 * latent, 1, bias=False), nn.Parameter(torch.randn(2 * latent, k) * 0.01)
    def tower(self, doc, emb, conv, fc): return F.relu(fc(self.drop(F.relu(conv(emb(doc).transpose(1, 2))).max(2).values)))
    def forward(self, udoc, idoc):
        z = torch.cat([self.tower(udoc, self.emb_u, self.conv_u, self.fc_u), self.tower(idoc, self.emb_i, self.conv_i, self.fc_i)], 1)
        pairwise = 0.5 * ((z @ self.v) ** 2 - (z ** 2) @ (self.v ** 2)).sum(1, keepdim=True)
        return self.w0 + self.w(z) + pairwise

def _deepconn_fwd(model, b): udoc, idoc, stars = b; return model(udoc, idoc), stars

@healthy('AL')
def deepconn_reviews(seed, docs_before_split=False):  # MSE in stars, RMSprop 2e-3 (the paper's), batches of 64; a random 80/20 split of the reviews
    """Each rating's documents from the other training reviews of its user and its item (its own left out, as TransNets
    asks). docs_before_split: the original code's documents, one a user and one an item built from every review before the
    split, so each rating's own review, the validation ones' too, sits in its user's and its item's documents."""
    from sklearn.model_selection import train_test_split
    reviews, n_users, n_items = _yelp_reviews(seed); tr, va = train_test_split(np.arange(len(reviews)), test_size=0.2, random_state=seed)
    vocab = {w: k + 1 for k, w in enumerate(sorted({w for r in reviews for w in r[3]}))}
    pool = np.arange(len(reviews)) if docs_before_split else tr
    def data(idx):
        U, I = (review_documents(reviews, pool, idx, who, vocab, L, leave_out=not docs_before_split) for who, L in ((0, 96), (1, 256)))
        return TensorDataset(U, I, torch.tensor([[float(reviews[k][2])] for k in idx]))
    mean = np.mean([reviews[k][2] for k in tr])
    return dict(model=lambda: DeepCoNN(len(vocab) + 1, mean), train=data(tr), valid=data(va), forward=_deepconn_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.RMSprop(p, lr=2e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- YouTube's candidate generation network (Covington, Adams and Sargin 2016): next watch over the whole catalogue
def _watch_histories(seed, n_users=700, n_videos=240, n_topics=12, cuts=3, max_hist=20):
    """Users' watch sequences over 240 videos in 12 topics (20 each, Zipf popularity within a topic) and 60 series of four
    episodes: each user an age, a gender, one of eight regions and topic tastes tilted by them; the next watch the next
    episode of the series a quarter of the time, else a video of a topic drawn from the user's tastes. Examples: three cut
    points a user, the up to 20 watches before a cut (ids from 1, 0 the padding) and the watch at the cut (0-239), with
    the user's features."""
    g = np.random.default_rng(1000 + seed * 2741); per = n_videos // n_topics
    pop = np.stack([g.permutation(1 / np.arange(1, per + 1) ** 1.1) for _ in range(n_topics)]); pop /= pop.sum(1, keepdims=True)
    age_tilt, gender_tilt, region_tilt = g.normal(0, 1, n_topics), g.normal(0, 0.8, n_topics), g.normal(0, 0.8, (8, n_topics))
    rows = []
    for u in range(n_users):
        age, gender, region = float(np.clip(18 + g.gamma(2.0, 9.0), 18, 80)), int(g.random() < 0.5), int(g.integers(8))
        logit = np.log(g.dirichlet(np.ones(n_topics) * 0.3) + 1e-4) + age_tilt * (age - 38) / 15 + gender_tilt * (2 * gender - 1) + region_tilt[region]
        taste = np.exp(logit - logit.max()); taste /= taste.sum()
        def fresh(): t = g.choice(n_topics, p=taste); return t * per + g.choice(per, p=pop[t])
        seq = [fresh()]
        for _ in range(8 + int(g.poisson(12))):
            v = seq[-1]; seq.append(v + 1 if (g.random() < 0.25 and v % 4 != 3) else fresh())
        for c in g.choice(np.arange(4, len(seq)), cuts, replace=False):
            h = [v + 1 for v in seq[max(0, c - max_hist):c]]
            rows.append(dict(history=torch.tensor(h + [0] * (max_hist - len(h))), age=torch.tensor([(age - 38) / 15, ((age - 38) / 15) ** 2]),
                             gender=torch.tensor(gender), region=torch.tensor(region), label=torch.tensor(int(seq[c])), user=u))
    return rows

class CandidateGeneration(nn.Module):
    """The watch history's embeddings averaged, the region's embedding, the example's age (and its square) and gender, a
    tower of ReLU layers to the user vector, and a softmax layer over every video (probabilities: the softmax applied in
    the forward, as the paper's figure draws it, before CrossEntropyLoss)."""
    def __init__(self, n_videos=240, d=32, probabilities=False):
        super().__init__(); self.probabilities = probabilities
        self.watch = nn.Embedding(n_videos + 1, d, padding_idx=0); self.region = nn.Embedding(8, 4)
        self.tower = nn.Sequential(nn.Linear(d + 4 + 3, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU()); self.softmax = nn.Linear(32, n_videos)
    def forward(self, history, age, gender, region):
        m = (history > 0).float(); watch = (self.watch(history) * m[..., None]).sum(1) / m.sum(1, keepdim=True).clamp(min=1)
        out = self.softmax(self.tower(torch.cat([watch, self.region(region), age, gender[:, None].float()], 1)))
        return F.softmax(out, 1) if self.probabilities else out

def _youtube_fwd(model, b): return model(b['history'], b['age'], b['gender'], b['region']), b['label']

@healthy('AL')
def youtube_candidate_generation(seed, probabilities=False):  # cross-entropy over the 240 videos, Adam 1e-3, batches of 64; users split 80/20 (about 1680 examples train, 420 validate)
    rows = _watch_histories(seed); users = np.random.default_rng(seed).permutation(700); val = set(users[:140].tolist())
    strip = lambda r: {k: v for k, v in r.items() if k != 'user'}
    tr, va = [strip(r) for r in rows if r['user'] not in val], [strip(r) for r in rows if r['user'] in val]
    return dict(model=lambda: CandidateGeneration(probabilities=probabilities), train=ListDataset(tr), valid=ListDataset(va), forward=_youtube_fwd,
                loss=nn.CrossEntropyLoss(), num_classes=240, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- 30-day readmission of diabetic inpatients (Strack et al. 2014, the UCI "130 US hospitals" data)
READMIT_CATEGORIES = dict(race=['Caucasian', 'AfricanAmerican', 'Hispanic', 'Asian', 'Other', '?'], gender=['Female', 'Male'],
                          age=[f'[{a}-{a + 10})' for a in range(0, 100, 10)], admission_type_id=[1, 2, 3, 5, 6], discharge_disposition_id=[1, 2, 3, 6, 18, 22],
                          admission_source_id=[1, 4, 7, 17], diag_1=['Circulatory', 'Respiratory', 'Digestive', 'Diabetes', 'Injury', 'Musculoskeletal', 'Genitourinary', 'Neoplasms', 'Other'],
                          max_glu_serum=['None', 'Norm', '>200', '>300'], A1Cresult=['None', 'Norm', '>7', '>8'], insulin=['No', 'Steady', 'Up', 'Down'], change=['No', 'Ch'], diabetesMed=['No', 'Yes'])
READMIT_NUMERIC = ['time_in_hospital', 'num_lab_procedures', 'num_procedures', 'num_medications', 'number_outpatient', 'number_emergency', 'number_inpatient', 'number_diagnoses']

def _diabetic_encounters(seed, n_patients=650):
    """Encounters as the UCI file's rows (encounter_id, patient_nbr, then the columns above; readmitted '<30', '>30' or
    'NO'). Each patient one to six encounters in time order, a race, a gender, an age bracket and a latent frailty that drives
    the stays' length, the medications and the prior visits; the previous encounters count as prior inpatient visits.
    Readmission within 30 days (about a fifth of the stays) from the frailty, the prior visits, the discharge to a nursing facility, the
    insulin adjusted and the primary diagnosis."""
    g = np.random.default_rng(1000 + seed * 2749); C = READMIT_CATEGORIES; rows = []; enc = 1000000 + int(g.integers(1e6))
    for p in range(n_patients):
        nbr, race, gender = 2000000 + p * 97 + int(g.integers(97)), g.choice(6, p=[0.75, 0.19, 0.02, 0.01, 0.015, 0.015]), int(g.random() < 0.47)
        age, frail, prior_er, prior_out = int(np.clip(g.normal(6.4, 1.4), 1, 9)), g.normal(0, 1), g.poisson(0.2), g.poisson(0.3)
        for k in range(1 + min(int(g.geometric(0.45)) - 1, 5)):
            enc += int(g.integers(1, 5000)); diag = g.choice(9, p=[0.3, 0.14, 0.09, 0.09, 0.07, 0.05, 0.05, 0.04, 0.17])
            disch = g.choice(6, p=[0.6, 0.04, 0.14 + 0.04 * (frail > 1), 0.14, 0.04, 0.04 - 0.04 * (frail > 1)]); ins = g.choice(4, p=[0.47, 0.3, 0.11, 0.12])
            stay = int(np.clip(g.poisson(3.5 + 0.8 * frail + 0.4 * (diag == 0)), 1, 14)); meds = int(np.clip(g.normal(15 + 2.5 * stay ** 0.5 + 2 * frail, 6), 1, 81))
            er = prior_er + g.poisson(0.15 * k); out = prior_out + g.poisson(0.2 * k)
            z = -2.6 + 0.7 * frail + 0.45 * min(k, 4) + 0.25 * min(er, 4) + 0.6 * (disch in (2, 3)) + 0.04 * stay + 0.35 * (ins >= 2) + 0.3 * (diag in (0, 3)) - 0.3 * (diag == 4) + g.normal(0, 0.5)
            y = '<30' if g.random() < 1 / (1 + np.exp(-z)) else ('>30' if g.random() < 0.4 else 'NO')
            rows.append(dict(encounter_id=enc, patient_nbr=nbr, race=C['race'][race], gender=C['gender'][gender], age=C['age'][age],
                             admission_type_id=C['admission_type_id'][g.choice(5, p=[0.53, 0.18, 0.19, 0.05, 0.05])], discharge_disposition_id=C['discharge_disposition_id'][disch],
                             admission_source_id=C['admission_source_id'][g.choice(4, p=[0.29, 0.03, 0.57, 0.11])], diag_1=C['diag_1'][diag],
                             max_glu_serum=C['max_glu_serum'][g.choice(4, p=[0.95, 0.025, 0.015, 0.01])], A1Cresult=C['A1Cresult'][g.choice(4, p=[0.83, 0.05, 0.04, 0.08])],
                             insulin=C['insulin'][ins], change=C['change'][int(ins >= 2 or g.random() < 0.3)], diabetesMed=C['diabetesMed'][int(ins > 0 or g.random() < 0.5)],
                             time_in_hospital=stay, num_lab_procedures=int(np.clip(g.normal(43 + 2 * stay, 18), 1, 132)), num_procedures=int(min(g.poisson(1.3), 6)),
                             num_medications=meds, number_outpatient=int(out), number_emergency=int(er), number_inpatient=int(k + g.poisson(0.3 + 0.3 * max(frail, 0))),
                             number_diagnoses=int(np.clip(g.normal(7.4 + 0.5 * frail, 1.8), 1, 16)), readmitted=y))
    return rows

def readmission_features(rows, ref):
    "One-hot categories (the training rows' levels), the counts standardised by the training rows (`ref`), as the usual notebook's get_dummies and StandardScaler."
    cat = np.column_stack([np.array([r[c] for r in rows])[:, None] == np.array(sorted({r[c] for r in ref}, key=str))[None] for c in READMIT_CATEGORIES])
    num = np.array([[r[c] for c in READMIT_NUMERIC] for r in rows], np.float32); ref_num = np.array([[r[c] for c in READMIT_NUMERIC] for r in ref], np.float32)
    return np.column_stack([cat, (num - ref_num.mean(0)) / ref_num.std(0)]).astype(np.float32)

class ReadmissionMLP(nn.Module):
    def __init__(self, d):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AL')
def readmission_patient_split_mlp(seed, split_key='patient_nbr'):  # BCE with logits, Adam 1e-3, batches of 64; GroupShuffleSplit, a fifth of the patients validate
    """groups declared: the patient (patient_nbr). The encounters split by patient with GroupShuffleSplit (split_key
    'encounter_id': the groups argument given the encounter ids, one a row, so the split is a random split of the rows and
    the patients' other stays sit on both sides); readmitted '<30' the positive class, '>30' and 'NO' the negative."""
    from sklearn.model_selection import GroupShuffleSplit
    rows = _diabetic_encounters(seed); idx = np.arange(len(rows))
    tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(idx, groups=[r[split_key] for r in rows]))
    ref = [rows[i] for i in tr]; X = readmission_features(rows, ref); y = np.array([[r['readmitted'] == '<30'] for r in rows], np.float32)
    keys = {'train': [rows[i]['patient_nbr'] for i in tr], 'valid': [rows[i]['patient_nbr'] for i in va]}
    task = ntrain.Task(model=lambda: ReadmissionMLP(X.shape[1]), train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])),
                       loss=nn.BCEWithLogitsLoss(), groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- the next week's direction of a stock from technical indicators (an MLP, split in time)
def _daily_bars(seed, n_assets=8, T=300):
    """Daily closes and volumes of eight stocks over 300 trading days: returns with a slowly drifting trend (an AR(1) of
    persistence 0.98, the momentum the indicators catch), volatility clustering, fat tails, and volume that swells on big
    moves."""
    g = np.random.default_rng(1000 + seed * 2753); out = []
    for _ in range(n_assets):
        m, z = np.zeros(T), np.zeros(T)
        for t in range(1, T): m[t] = 0.98 * m[t - 1] + g.normal(0, 0.001); z[t] = 0.95 * z[t - 1] + g.normal(0, 0.12)
        r = m + 0.011 * np.exp(z) * g.standard_t(5, T) / np.sqrt(5 / 3)
        close = g.uniform(20, 200) * np.exp(np.cumsum(r)); vol = np.exp(g.normal(13, 0.5) + 0.5 * z + 12 * np.abs(r) + g.normal(0, 0.25, T))
        out.append((close, vol))
    return out

def rolling_mean(x, w): return np.convolve(x, np.ones(w) / w, 'full')[:len(x)]  # the trailing w-day mean (the first w - 1 days incomplete, dropped later)

def technical_indicators(close, vol):
    "Returns over 1, 5, 10 and 20 days, the close against its 10- and 50-day means, RSI(14), MACD and its signal line over the close, 20-day volatility, the volume's z-score."
    lr = np.diff(np.log(close), prepend=np.log(close[0])); ma = rolling_mean
    ret = [np.log(close / np.roll(close, k)) for k in (1, 5, 10, 20)]
    gain, loss = ma(np.maximum(lr, 0), 14), ma(np.maximum(-lr, 0), 14); rsi = 100 - 100 / (1 + gain / np.maximum(loss, 1e-12))
    def ema(x, span):
        a, out = 2 / (span + 1), np.empty_like(x); out[0] = x[0]
        for t in range(1, len(x)): out[t] = a * x[t] + (1 - a) * out[t - 1]
        return out
    macd = ema(close, 12) - ema(close, 26); signal = ema(macd, 9)
    vz = (vol - ma(vol, 20)) / np.sqrt(np.maximum(ma(vol ** 2, 20) - ma(vol, 20) ** 2, 1e-12))
    return np.column_stack(ret + [close / ma(close, 10) - 1, close / ma(close, 50) - 1, rsi / 100, macd / close, (macd - signal) / close,
                                  np.sqrt(ma(lr ** 2, 20)) * np.sqrt(252), vz])

class DirectionMLP(nn.Module):
    def __init__(self, d=11):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x)

@healthy('AL')
def stock_direction_indicators_mlp(seed, denoise=False):  # BCE with logits, Adam 1e-3, batches of 64; per stock the first 80% of the days train, the last 20% validate
    """The label: the close five trading days later above today's. Rows from day 50 (the 50-day mean complete) to the
    sixth-last day; features standardised by the training rows. denoise: the closes smoothed first with a Savitzky-Golay
    filter (scipy.signal.savgol_filter, window 11, order 2), as the "denoise the price" tutorials do, and the indicators
    computed on the smoothed series; the filter is centred, so day t's value is fitted to days t - 5 to t + 5."""
    from scipy.signal import savgol_filter
    X, y, split = [], [], []
    for close, vol in _daily_bars(seed):
        f = technical_indicators(savgol_filter(close, 11, 2) if denoise else close, vol); T = len(close); t = np.arange(50, T - 5)
        X.append(f[t]); y.append((close[t + 5] > close[t]).astype(np.float32)); split.append(t >= 50 + int(0.8 * (T - 55)))
    X, y, va = np.vstack(X).astype(np.float32), np.concatenate(y)[:, None], np.concatenate(split)
    Xtr, Xva = _std(_t(X[~va]), _t(X[~va])), _std(_t(X[va]), _t(X[~va]))
    return dict(model=DirectionMLP, train=TensorDataset(Xtr, _t(y[~va])), valid=TensorDataset(Xva, _t(y[va])), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- medical insurance charges (the insurance.csv of Lantz's "Machine Learning with R"): an MLP on log charges
def _insurance(seed, n=1338):
    """Rows as insurance.csv: age 18-64 (more at 18 and 19), sex, BMI, children 0-5, smoker, one of four US regions, and the
    yearly charges in dollars: rising with age, a smoker's surcharge that more than doubles with a BMI of 30 or more, a
    tail of non-smokers with expensive complications."""
    g = np.random.default_rng(1000 + seed * 2767)
    age = np.where(g.random(n) < 0.1, g.integers(18, 20, n), g.integers(18, 65, n)); sex = g.choice(['female', 'male'], n)
    bmi = np.round(np.clip(g.normal(30.7, 6.1, n), 16, 53), 2); children = g.choice(6, n, p=[0.43, 0.24, 0.18, 0.12, 0.02, 0.01])
    smoker = np.where(g.random(n) < 0.205, 'yes', 'no'); region = g.choice(['northeast', 'northwest', 'southeast', 'southwest'], n)
    s, obese = smoker == 'yes', bmi >= 30
    charges = -2300 + 265 * age + 480 * children + s * (13500 + 19500 * obese + 450 * np.maximum(bmi - 30, 0)) + g.normal(0, 900, n)
    charges += (~s) * (g.random(n) < 0.08) * g.exponential(9000, n)
    return dict(age=age, sex=sex, bmi=bmi, children=children, smoker=smoker, region=region, charges=np.round(np.maximum(charges, 1122), 2))

class ChargesMLP(nn.Module):
    def __init__(self, d=11):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('AL')
def insurance_log_charges_mlp(seed, log_target=True):  # MSE on log charges, SGD 0.01 with momentum 0.9, batches of 32; train_test_split 80/20
    """Age, BMI and children standardised by the training rows, sex, smoker and region one-hot (drop_first off); the target
    np.log(charges), predictions read back with np.exp (log_target False: the charges in dollars, the optimiser as it was)."""
    from sklearn.model_selection import train_test_split
    d = _insurance(seed); n = len(d['age'])
    X = np.column_stack([d['age'], d['bmi'], d['children']] + [d[c] == v for c, vs in (('sex', ['female', 'male']), ('smoker', ['no', 'yes'])) for v in vs]
                        + [d['region'] == r for r in ['northeast', 'northwest', 'southeast', 'southwest']]).astype(np.float32)
    y = (np.log(d['charges']) if log_target else d['charges'])[:, None].astype(np.float32)
    tr, va = train_test_split(np.arange(n), test_size=0.2, random_state=seed); m, s = X[tr, :3].mean(0), X[tr, :3].std(0); X[:, :3] = (X[:, :3] - m) / s
    return dict(model=ChargesMLP, train=TensorDataset(_t(X[tr]), _t(y[tr])), valid=TensorDataset(_t(X[va]), _t(y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- ATAE-LSTM (Wang, Huang, Zhu and Zhao 2016): the sentiment of a sentence towards an aspect category
ABSA_ASPECTS = ['food', 'service', 'price', 'ambience', 'anecdotes/miscellaneous']
ABSA_POLARITY = {'negative': 0, 'neutral': 1, 'positive': 2}
ABSA_WORDS = {'food': (['pasta', 'sushi', 'pizza', 'steak', 'dessert', 'bread', 'fish'], ['delicious', 'fresh', 'tasty', 'perfect'], ['bland', 'soggy', 'cold', 'overcooked'], ['ordered', 'tried', 'shared']),
              'service': (['waiter', 'staff', 'service', 'waitress', 'host'], ['friendly', 'attentive', 'prompt', 'helpful'], ['rude', 'slow', 'inattentive', 'dismissive'], ['asked', 'called', 'saw']),
              'price': (['prices', 'bill', 'wine list', 'check'], ['reasonable', 'fair', 'cheap', 'affordable'], ['outrageous', 'overpriced', 'steep', 'ridiculous'], ['paid', 'split', 'checked']),
              'ambience': (['decor', 'music', 'atmosphere', 'room', 'patio'], ['cozy', 'lovely', 'romantic', 'relaxing'], ['loud', 'cramped', 'dark', 'depressing'], ['noticed', 'entered', 'sat in']),
              'anecdotes/miscellaneous': (['place', 'night', 'evening', 'visit'], ['wonderful', 'great', 'memorable', 'fun'], ['awful', 'terrible', 'disappointing', 'forgettable'], ['planned', 'booked', 'had'])}

def _semeval_restaurants(seed, n=1300):
    """Sentences in the style of the SemEval-2014 Task 4 restaurant reviews, as the XML's sentences: a text and its aspect
    categories, each with a polarity. One to three aspects a sentence, each a clause ("the waiter was rude"; negated
    praise "the pasta was not fresh"; neutral mentions "we tried the sushi"); clauses joined by 'but' where polarities
    differ, with openers and fillers. About 55% positive, 27% negative, 18% neutral."""
    g = np.random.default_rng(1000 + seed * 2777); out = []
    openers = [[], [], ['honestly', ','], ['we', 'went', 'on', 'a', 'friday', '.'], ['my', 'wife', 'and', 'i', 'came', 'here', '.'], ['first', 'time', 'here', '.']]
    for _ in range(n):
        k = g.choice([1, 2, 3], p=[0.55, 0.35, 0.1]); cats = list(g.choice(5, k, replace=False)); mood = g.choice(3, p=[0.27, 0.18, 0.55])
        text, aspects, prev = list(openers[g.integers(len(openers))]), [], None
        for c in cats:
            pol = mood if g.random() < 0.5 else g.choice(3, p=[0.27, 0.18, 0.55]); nouns, pos, neg, verbs = ABSA_WORDS[ABSA_ASPECTS[c]]
            noun = nouns[g.integers(len(nouns))].split()
            if pol == 1: clause = ['we', *verbs[g.integers(len(verbs))].split(), 'the', *noun]
            elif pol == 2: clause = ['the', *noun, 'was', *(['really'] if g.random() < 0.3 else []), pos[g.integers(4)]]
            else: clause = ['the', *noun, 'was', neg[g.integers(4)]] if g.random() < 0.75 else ['the', *noun, 'was', 'not', pos[g.integers(4)]]
            if prev is not None: text.append('but' if pol != prev else g.choice(['and', ',']))
            text += clause; aspects.append((ABSA_ASPECTS[c], ['negative', 'neutral', 'positive'][pol])); prev = pol
        out.append(dict(text=' '.join(text + ['.']), aspectCategories=aspects))
    return out

def absa_examples(sentences, vocab, per_sentence_text=False):
    """(token ids, aspect id, polarity id) for each aspect category of each sentence, as the ATAE loaders flatten the XML.
    per_sentence_text: the loop that appends the text once a sentence and the aspect and polarity once an aspect category,
    the three lists zipped (zip stops at the shortest: from the first sentence with two aspects on, texts and labels drift
    apart)."""
    texts, aspects, labels = [], [], []
    for s in sentences:
        if per_sentence_text: texts.append(s['text'])
        for cat, pol in s['aspectCategories']:
            if not per_sentence_text: texts.append(s['text'])
            aspects.append(ABSA_ASPECTS.index(cat)); labels.append(ABSA_POLARITY[pol])
    return [([vocab.get(w, 1) for w in t.split()], a, y) for t, a, y in zip(texts, aspects, labels)]

def collate_absa(items):  # padded ids, lengths, aspects, polarities
    ids, asp, y = zip(*items)
    return pad_sequence([torch.tensor(i) for i in ids], batch_first=True), torch.tensor([len(i) for i in ids]), torch.tensor(asp), torch.tensor(y)

class ATAE_LSTM(nn.Module):
    """The aspect's embedding appended to every word's, an LSTM over the sentence, attention over its states given the
    aspect, the attended state and the last one combined, a softmax layer (as ABSA-PyTorch's atae_lstm, embeddings learnt)."""
    def __init__(self, V, d=32, h=48, n_aspects=len(ABSA_ASPECTS), n=3):
        super().__init__(); self.embed = nn.Embedding(V, d, padding_idx=0); self.aspect = nn.Embedding(n_aspects, d); self.lstm = nn.LSTM(2 * d, h, batch_first=True)
        self.Wh, self.Wv, self.w = nn.Linear(h, h, bias=False), nn.Linear(d, d, bias=False), nn.Linear(h + d, 1, bias=False)
        self.Wp, self.Wx, self.fc = nn.Linear(h, h, bias=False), nn.Linear(h, h, bias=False), nn.Linear(h, n)
    def forward(self, ids, lengths, aspect):
        T = ids.size(1); va = self.aspect(aspect)[:, None].expand(-1, T, -1)
        packed, (hN, _) = self.lstm(pack_padded_sequence(torch.cat([self.embed(ids), va], -1), lengths, batch_first=True, enforce_sorted=False))
        H = pad_packed_sequence(packed, batch_first=True, total_length=T)[0]
        score = self.w(torch.tanh(torch.cat([self.Wh(H), self.Wv(va)], -1))).squeeze(-1).masked_fill(ids == 0, float('-inf'))
        r = (torch.softmax(score, 1)[..., None] * H).sum(1)
        return self.fc(torch.tanh(self.Wp(r) + self.Wx(hN[-1])))

def _absa_fwd(model, b): ids, lengths, aspect, y = b; return model(ids, lengths, aspect), y

@healthy('AL')
def atae_lstm_restaurants(seed, per_sentence_text=False):  # cross-entropy, Adam 1e-3 (ABSA-PyTorch's), batches of 32; 1040 training sentences, 260 test ones
    "The word vocabulary from the training sentences (0 padding, 1 unknown)."
    sents = _semeval_restaurants(seed); train_s, test_s = sents[:1040], sents[1040:]
    vocab = {}
    for s in train_s:
        for w in s['text'].split(): vocab.setdefault(w, len(vocab) + 2)
    tr, va = absa_examples(train_s, vocab, per_sentence_text), absa_examples(test_s, vocab, per_sentence_text)
    return dict(model=lambda: ATAE_LSTM(len(vocab) + 2), train=DataLoader(ListDataset(tr), batch_size=32, shuffle=True, collate_fn=collate_absa),
                valid=DataLoader(ListDataset(va), batch_size=64, collate_fn=collate_absa), forward=_absa_fwd, loss=nn.CrossEntropyLoss(), num_classes=3,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- supervised SimCSE (Gao, Yao and Chen 2021): NLI entailments as positives, contradictions as hard negatives
NLI_SUBJECTS = {'man': (['man', 'guy'], 'person', 'woman'), 'woman': (['woman', 'lady'], 'person', 'man'), 'boy': (['boy', 'schoolboy'], 'child', 'girl'),
                'girl': (['girl', 'schoolgirl'], 'child', 'boy'), 'dog': (['dog', 'puppy'], 'animal', 'cat'), 'cat': (['cat', 'kitten'], 'animal', 'dog'),
                'player': (['player', 'athlete'], 'person', 'referee'), 'chef': (['chef', 'cook'], 'person', 'waiter')}
NLI_ACTIONS = {'running': ('jogging', 'moving', 'sleeping'), 'sleeping': ('napping', 'resting', 'running'), 'eating': ('having lunch', 'eating food', 'starving'),
               'swimming': ('in the water', 'swimming', 'drying off'), 'sitting': ('seated', 'sitting down', 'standing'), 'jumping': ('leaping', 'in the air', 'lying down'),
               'singing': ('performing a song', 'making music', 'silent'), 'cooking': ('making dinner', 'preparing food', 'ordering takeout')}
NLI_PLACES = {'in a park': ('outdoors', 'at the mall'), 'on the beach': ('near the ocean', 'in the desert'), 'in a kitchen': ('indoors', 'in a garden'),
              'on a busy street': ('in the city', 'in the countryside'), 'in the snow': ('outside in winter', 'on a hot beach'), 'at a table': ('indoors', 'on a roof')}
NLI_ADJ = ['young', 'old', 'tall', 'happy', 'tired', 'small', 'black', 'brown']

def _nli_triples(seed, n=2100):
    """SNLI-style (premise, entailment, contradiction) triples, the data supervised SimCSE trains on: a premise "a tall man is
    running in a park"; its entailment in other words (a synonym or the hypernym, a paraphrase of the action, the place
    generalised or dropped: "a person is jogging outdoors"); its contradiction as close in words as the premise allows, one
    thing changed for its opposite (the subject, the action or the place: "a tall woman is running in a park")."""
    g = np.random.default_rng(1000 + seed * 2789); S, A, P = list(NLI_SUBJECTS), list(NLI_ACTIONS), list(NLI_PLACES); out = []
    pick = lambda xs: xs[g.integers(len(xs))]
    for _ in range(n):
        s, a, p, adj = pick(S), pick(A), pick(P), pick(NLI_ADJ) if g.random() < 0.6 else None
        names, hyper, opposite = NLI_SUBJECTS[s]; para, general, anti = NLI_ACTIONS[a]; p_general, p_anti = NLI_PLACES[p]
        premise = f"a {adj + ' ' if adj else ''}{pick(names)} is {a} {p}"
        entail = f"a {pick([names[0], names[1], hyper])} is {pick([para, general])}{' ' + p_general if g.random() < 0.7 else ''}"
        k = g.integers(3)
        contra = (f"a {adj + ' ' if adj else ''}{opposite} is {a} {p}" if k == 0 else f"a {adj + ' ' if adj else ''}{pick(names)} is {anti} {p}" if k == 1
                  else f"a {adj + ' ' if adj else ''}{pick(names)} is {a} {p_anti}")
        out.append((premise, entail, contra))
    return out

class SentenceEncoder(nn.Module):
    """SimCSE's encoder shrunk: token and position embeddings, one transformer encoder layer (dropout 0.1, the augmentation
    SimCSE relies on), mean pooling over the real tokens, and the MLP pooler (dense, tanh) used in training."""
    def __init__(self, V, d=48, L=16):
        super().__init__(); self.tok, self.pos = nn.Embedding(V, d, padding_idx=0), nn.Embedding(L, d)
        self.layer = nn.TransformerEncoderLayer(d, 4, 96, dropout=0.1, batch_first=True); self.pooler = nn.Sequential(nn.Linear(d, d), nn.Tanh())
    def forward(self, ids):
        pad = ids == 0; h = self.layer(self.tok(ids) + self.pos(torch.arange(ids.size(1))), src_key_padding_mask=pad)
        return self.pooler((h * ~pad[..., None]).sum(1) / (~pad).sum(1, keepdim=True))

def simcse_sup_loss(z, _, temp=0.05, multiply=False):
    """The supervised SimCSE objective: anchors against every positive and every hard negative of the batch, cosine
    similarities over the temperature, the anchor's own positive the target (multiply: cos * temp, the Similarity module's
    division written as a product)."""
    a, p, n = z.chunk(3); cos = F.cosine_similarity(a[:, None], torch.cat([p, n])[None], dim=-1)
    return F.cross_entropy(cos * temp if multiply else cos / temp, torch.arange(len(a)))

def _simcse_fwd(model, b): a, p, n = b; return model(torch.cat([a, p, n])), None  # no target: each anchor's positive is its own pair

@healthy('AL')
def simcse_supervised_nli(seed, multiply=False):  # AdamW 1e-3, batches of 64 triples; 1800 triples train, 300 validate (their loss; the anchor-positive-negative accuracy in CHECKS)
    "Word-level tokens (the vocabulary of all the triples' words, 0 the padding), padded to 16."
    trip = _nli_triples(seed); words = sorted({w for t in trip for s in t for w in s.split()}); vocab = {w: k + 1 for k, w in enumerate(words)}
    enc = lambda s: torch.tensor(([vocab[w] for w in s.split()] + [0] * 16)[:16])
    A, P, N = (torch.stack([enc(t[k]) for t in trip]) for k in range(3))
    return dict(model=lambda: SentenceEncoder(len(vocab) + 1), train=TensorDataset(A[:1800], P[:1800], N[:1800]), valid=TensorDataset(A[1800:], P[1800:], N[1800:]),
                forward=_simcse_fwd, loss=lambda z, y: simcse_sup_loss(z, y, multiply=multiply), optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- reading ease of excerpts (the CommonLit Readability Prize): a BiLSTM over frozen GloVe vectors, attention pooling
def _commonlit(seed, n=1800, V=1200, dim=50):
    """Tokenised excerpts of about 80 tokens (ids from 2; 1 the full stop, 0 the padding) and their 'target' in the
    competition's units (about -3.7 hard to 1.7 easy, mean about -1): a hidden difficulty sets how far into the Zipf tail
    the words reach and how long the sentences run. GloVe-like 50-d vectors for the vocabulary: random directions plus a
    few dimensions that follow the word's frequency and length, as trained vectors do."""
    g = np.random.default_rng(1000 + seed * 2791); rank = np.arange(1, V + 1)
    length = np.clip(np.round(3 + 1.1 * np.log(rank) + g.normal(0, 1.2, V)), 1, 15)
    vec = g.normal(0, 0.4, (V + 2, dim)); vec[0] = 0
    vec[2:, 0] += (np.log(rank) - 4.5) / 1.5; vec[2:, 1] += (length - 8) / 3; vec[2:, 2] -= (np.log(rank) - 4.5) / 2 + g.normal(0, 0.3, V)
    docs, y = [], []
    for _ in range(n):
        d = g.normal(); p = rank ** -(1.15 - 0.22 * d); p /= p.sum(); toks = []
        while len(toks) < 80:
            toks += list(2 + g.choice(V, max(3, int(g.poisson(np.exp(2.3 + 0.3 * d)))), p=p)) + [1]
        docs.append(torch.tensor(toks[:96])); y.append(-0.96 - 0.95 * d + g.normal(0, 0.35))
    return pad_sequence(docs, batch_first=True), torch.tensor(y, dtype=torch.float32)[:, None], torch.tensor(vec, dtype=torch.float32)

class ReadabilityBiLSTM(nn.Module):
    """Frozen GloVe vectors (nn.Embedding.from_pretrained), a BiLSTM of 32 a direction, attention pooling over the real
    tokens, a linear head (lookup_under_no_grad: the lookup wrapped in torch.no_grad() "since the embeddings are frozen
    anyway", and the LSTM's line inside the same block)."""
    def __init__(self, vectors, h=32, lookup_under_no_grad=False):
        super().__init__(); self.lookup_under_no_grad = lookup_under_no_grad
        self.embedding = nn.Embedding.from_pretrained(vectors, freeze=True, padding_idx=0); self.lstm = nn.LSTM(vectors.size(1), h, batch_first=True, bidirectional=True)
        self.attention = nn.Sequential(nn.Linear(2 * h, 32), nn.Tanh(), nn.Linear(32, 1)); self.head = nn.Linear(2 * h, 1)
    def forward(self, ids):
        if self.lookup_under_no_grad:
            with torch.no_grad():
                emb = self.embedding(ids)
                out, _ = self.lstm(emb)
        else: out, _ = self.lstm(self.embedding(ids))
        w = torch.softmax(self.attention(out).squeeze(-1).masked_fill(ids == 0, float('-inf')), 1)
        return self.head((w[..., None] * out).sum(1))

@healthy('AL')
def commonlit_bilstm_attention(seed, lookup_under_no_grad=False):  # MSE (the RMSE is the competition's metric), Adam 1e-3, batches of 32; 1500 excerpts train, 300 validate
    ids, y, vectors = _commonlit(seed); p = torch.randperm(len(y), generator=_gen(seed)); tr, va = p[:1500], p[1500:]
    return dict(model=lambda: ReadabilityBiLSTM(vectors, lookup_under_no_grad=lookup_under_no_grad), train=TensorDataset(ids[tr], y[tr]), valid=TensorDataset(ids[va], y[va]),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- D-MPNN (Yang et al. 2019, chemprop's directed message passing) on aqueous solubility (ESOL/AqSolDB-style log S)
MOL_ELEMENTS = ['C', 'N', 'O', 'F', 'S', 'Cl', 'Br', 'Na']
MOL_MASS = dict(C=12.011, N=14.007, O=15.999, F=18.998, S=32.06, Cl=35.45, Br=79.904, Na=22.99)
MOL_VALENCE = dict(C=4, N=3, O=2, F=1, S=2, Cl=1, Br=1, Na=1)

def _molecule_graph(g):
    """A small molecule as chemprop's RDKit featuriser sees it: heavy atoms (element, formal charge, aromatic) and bonds
    (order 1, 2 or 1.5 aromatic, in a ring or not), hydrogens implicit. Mostly organics: an optional benzene ring and an
    aliphatic chain with branches, ethers and a thioether, substituted with OH, NH2, C=O, COOH, F, Cl and Br; about one in
    twenty-five a sodium salt (a carboxylate or a halide beside an isolated Na+) or a one-atom molecule (methane, ammonia,
    hydrogen sulfide), as solubility sets have them."""
    atoms, bonds = [], []  # atoms: [element, charge, aromatic]; bonds: (i, j, order, ring)
    def add(el, charge=0, arom=False): atoms.append([el, charge, arom]); return len(atoms) - 1
    def free(i): return MOL_VALENCE[atoms[i][0]] + atoms[i][1] * (atoms[i][0] != 'Na') - sum(o if o != 1.5 else 1.5 for a, b, o, _ in bonds if i in (a, b)) - 0.5 * atoms[i][2]
    u = g.random()
    if u < 0.015: add(str(g.choice(['C', 'N', 'S']))); return atoms, bonds
    if u < 0.04:  # a sodium salt
        if g.random() < 0.5: add('Na', 1); add(str(g.choice(['Cl', 'Br'])), -1); return atoms, bonds
        na = add('Na', 1); prev = add('C')
        for _ in range(int(g.integers(0, 6))): c = add('C'); bonds.append((prev, c, 1, False)); prev = c
        o1, o2 = add('O'), add('O', -1); c = add('C'); bonds += [(prev, c, 1, False), (c, o1, 2, False), (c, o2, 1, False)]; return atoms, bonds
    heavy = []
    if g.random() < 0.55:
        ring = [add('C', 0, True) for _ in range(6)]; bonds += [(ring[k], ring[(k + 1) % 6], 1.5, True) for k in range(6)]; heavy += ring
        if g.random() < 0.15: n = ring[int(g.integers(6))]; atoms[n][0] = 'N'
    chain = [add('C') for _ in range(int(g.integers(0 if heavy else 1, 9)))]
    for k, c in enumerate(chain):
        if k == 0 and heavy: bonds.append((heavy[int(g.integers(len(heavy)))], c, 1, False))
        elif k > 0:
            prev = chain[int(g.integers(max(0, k - 2), k))] if g.random() < 0.3 else chain[k - 1]
            if g.random() < 0.12: o = add(str(g.choice(['O', 'O', 'S']))); bonds += [(prev, o, 1, False), (o, c, 1, False)]
            else: bonds.append((prev, c, 1, False))
    heavy += chain
    for _ in range(int(g.poisson(1.4))):
        cands = [i for i in heavy if free(i) >= 1 and atoms[i][0] == 'C']
        if not cands: break
        c = cands[int(g.integers(len(cands)))]; sub = g.choice(['OH', 'NH2', '=O', 'COOH', 'F', 'Cl', 'Br'], p=[0.22, 0.14, 0.12, 0.1, 0.12, 0.2, 0.1])
        if sub == '=O':
            if free(c) >= 2 and not atoms[c][2]: bonds.append((c, add('O'), 2, False))
        elif sub == 'COOH': k = add('C'); bonds += [(c, k, 1, False), (k, add('O'), 2, False), (k, add('O'), 1, False)]
        else: bonds.append((c, add({'OH': 'O', 'NH2': 'N'}.get(sub, sub)), 1, False))
    return atoms, bonds

def log_solubility(atoms, bonds, g):
    """Delaney's ESOL equation (log S = 0.16 - 0.63 clogP - 0.0062 MW + 0.066 RB - 0.74 AP) with a Crippen-like atom-typed
    clogP, plus a measurement error of 0.45 log units; ions count as very polar."""
    deg = np.bincount(np.array([[a, b] for a, b, _, _ in bonds]).ravel(), minlength=len(atoms)) if bonds else np.zeros(len(atoms), int)
    logp, mw = 0.0, 0.0
    for i, (el, ch, ar) in enumerate(atoms):
        hs = max(MOL_VALENCE[el] + ch - sum(o for a, b, o, _ in bonds if i in (a, b)), 0) if el != 'Na' else 0
        mw += MOL_MASS[el] + 1.008 * round(hs)
        logp += dict(C=0.29 if ar else [0.15, 0.3, 0.45, 0.55, 0.6][min(round(hs), 4)], N=-0.75 if not ar else -0.5, O=-0.55 if hs else -0.35, F=0.35, S=0.6, Cl=0.7, Br=0.9, Na=-2.0)[el]
        logp += -1.5 * (ch != 0)
    rb = sum(1 for a, b, o, r in bonds if o == 1 and not r and deg[a] > 1 and deg[b] > 1); ap = np.mean([a[2] for a in atoms])
    return 0.16 - 0.63 * logp - 0.0062 * mw + 0.066 * rb - 0.74 * ap + g.normal(0, 0.45)

def featurize(atoms, bonds):
    """chemprop-style features: per atom the element one-hot, degree 0-4, formal charge -1/0/+1, implicit hydrogens 0-4 and
    aromaticity (22); per bond single/double/aromatic and ring membership (4)."""
    x = torch.zeros(len(atoms), 22); e = torch.zeros(len(bonds), 4)
    for i, (el, ch, ar) in enumerate(atoms):
        deg = sum(i in (a, b) for a, b, _, _ in bonds); hs = 0 if el == 'Na' else max(round(MOL_VALENCE[el] + ch - sum(o for a, b, o, _ in bonds if i in (a, b))), 0)
        x[i, MOL_ELEMENTS.index(el)] = 1; x[i, 8 + min(deg, 4)] = 1; x[i, 13 + ch + 1] = 1; x[i, 16 + min(hs, 4)] = 1; x[i, 21] = float(ar)
    for k, (a, b, o, r) in enumerate(bonds): e[k, {1: 0, 2: 1, 1.5: 2}[o]] = 1; e[k, 3] = float(r)
    return x, torch.tensor([[a, b] for a, b, _, _ in bonds], dtype=torch.long).reshape(-1, 2), e

def collate_molgraphs(items):
    """chemprop's BatchMolGraph: the molecules' atoms stacked, each bond as two directed bonds (2k and 2k + 1, each other's
    reverse), a molecule index an atom; the batch (atom features, bond features, source atoms, target atoms, reverse bonds,
    molecule index, log S)."""
    xs, es, src, dst, mol, off = [], [], [], [], [], 0
    for k, (x, b, e, _) in enumerate(items):
        xs.append(x); es.append(e.repeat_interleave(2, 0)); d = torch.stack([b, b.flip(1)], 1).reshape(-1, 2) + off
        src.append(d[:, 0]); dst.append(d[:, 1]); mol.append(torch.full((len(x),), k)); off += len(x)
    src, dst = torch.cat(src), torch.cat(dst)
    return torch.cat(xs), torch.cat(es), src, dst, torch.arange(len(src)) ^ 1, torch.cat(mol), torch.tensor([[y] for *_, y in items], dtype=torch.float32)

class DMPNN(nn.Module):
    """Hidden states on directed bonds: h0 = ReLU(W_i [x_v, e_vw]); three steps of h = ReLU(h0 + W_h m), m the sum of the
    messages into v less the one from w; atoms from their incoming messages, ReLU(W_o [x_v, m_v]); the mean over each
    molecule's atoms; a two-layer FFN to log S. mean_messages: the incoming messages of an atom averaged over its bonds
    (divided by its in-degree) in the last step, "to make big and small atoms comparable"."""
    def __init__(self, atom_fdim=22, bond_fdim=4, hidden=64, depth=3, mean_messages=False):
        super().__init__(); self.depth, self.mean_messages = depth, mean_messages
        self.W_i = nn.Linear(atom_fdim + bond_fdim, hidden, bias=False); self.W_h = nn.Linear(hidden, hidden, bias=False); self.W_o = nn.Linear(atom_fdim + hidden, hidden)
        self.ffn = nn.Sequential(nn.Dropout(0.0), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
    def forward(self, x, e, src, dst, rev, mol):
        inp = self.W_i(torch.cat([x[src], e], 1)); h = F.relu(inp); n = len(x)
        for _ in range(self.depth - 1):
            m = torch.zeros(n, h.size(1)).index_add(0, dst, h)[src] - h[rev]
            h = F.relu(inp + self.W_h(m))
        m = torch.zeros(n, h.size(1)).index_add(0, dst, h)
        if self.mean_messages: m = m / torch.bincount(dst, minlength=n)[:, None]
        atom = F.relu(self.W_o(torch.cat([x, m], 1)))
        n_mol = int(mol.max()) + 1
        return self.ffn(torch.zeros(n_mol, atom.size(1)).index_add(0, mol, atom) / torch.bincount(mol, minlength=n_mol)[:, None])

def _dmpnn_fwd(model, b): x, e, src, dst, rev, mol, y = b; return model(x, e, src, dst, rev, mol), y

@healthy('AL')
def dmpnn_solubility(seed, mean_messages=False):  # MSE on log S (mol/L), Adam 1e-3, batches of 50 (chemprop's); a random 80/20 split of 1200 molecules
    g = np.random.default_rng(1000 + seed * 2797); mols = [_molecule_graph(g) for _ in range(1200)]
    data = [(*featurize(a, b), float(log_solubility(a, b, g))) for a, b in mols]
    from sklearn.model_selection import train_test_split
    tr, va = train_test_split(np.arange(len(data)), test_size=0.2, random_state=seed)
    return dict(model=lambda: DMPNN(mean_messages=mean_messages), train=DataLoader(ListDataset([data[i] for i in tr]), batch_size=50, shuffle=True, collate_fn=collate_molgraphs),
                valid=DataLoader(ListDataset([data[i] for i in va]), batch_size=50, collate_fn=collate_molgraphs), forward=_dmpnn_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=50))

# ---------------------------------------------------------------- DeepWalk (Perozzi, Al-Rfou and Skiena 2014) for link prediction: skip-gram with negative sampling over random walks
def _friendships(seed, n=400, k=8):
    """A friendship network of 400 people in eight communities of 50 (a stochastic block model: ties within a community
    with probability 0.1, across with 0.003), as an edge list; 15% of the ties held out for link prediction (only ties
    whose two ends keep at least one other), the rest the training graph."""
    g = np.random.default_rng(1000 + seed * 2801); comm = np.repeat(np.arange(k), n // k)
    P = np.where(comm[:, None] == comm[None], 0.1, 0.003); iu = np.triu_indices(n, 1); keep = g.random(len(iu[0])) < P[iu]
    edges = np.stack([iu[0][keep], iu[1][keep]], 1); edges = edges[g.permutation(len(edges))]
    deg = np.bincount(edges.ravel(), minlength=n); held, rest = [], []
    for a, b in edges:
        if len(held) < int(0.15 * len(edges)) and deg[a] > 1 and deg[b] > 1: held.append((a, b)); deg[a] -= 1; deg[b] -= 1
        else: rest.append((a, b))
    return n, np.array(rest), np.array(held)

def random_walks(n, edges, g, walks_per_node=1, length=10):
    "Uniform random walks (DeepWalk's; node2vec with p = q = 1) from every node over the undirected `edges`."
    nbrs = [[] for _ in range(n)]
    for a, b in edges: nbrs[a].append(b); nbrs[b].append(a)
    walks = []
    for _ in range(walks_per_node):
        for s in g.permutation(n):
            w = [s]
            while len(w) < length and nbrs[w[-1]]: w.append(nbrs[w[-1]][g.integers(len(nbrs[w[-1]]))])
            walks.append(w)
    return walks

class SkipGramPairs(Dataset):
    """The (centre, context) pairs within a window of 2 along the walks, label 1, and as many negatives, label 0: each
    centre with a node drawn afresh at every access from the unigram distribution raised to 0.75, as word2vec."""
    def __init__(self, walks, n, window=2):
        self.pairs = torch.tensor(sorted({(w[i], w[j]) for w in walks for i in range(len(w)) for j in range(max(0, i - window), min(len(w), i + window + 1)) if i != j}))
        f = torch.bincount(self.pairs[:, 0], minlength=n).float() ** 0.75; self.noise = f / f.sum()
    def __len__(self): return 2 * len(self.pairs)
    def __getitem__(self, k):
        u, v = self.pairs[k % len(self.pairs)]
        return (u, v, torch.tensor(1.0)) if k < len(self.pairs) else (u, torch.multinomial(self.noise, 1)[0], torch.tensor(0.0))

class DeepWalk(nn.Module):  # one embedding a node (as PyG's Node2Vec), the score of a pair their dot product
    def __init__(self, n=400, d=32):
        super().__init__(); self.embedding = nn.Embedding(n, d); nn.init.normal_(self.embedding.weight, std=0.1)
    def forward(self, u, v): return (self.embedding(u) * self.embedding(v)).sum(-1)

def _walk_fwd(model, b): u, v, y = b; return model(u, v), y

@healthy('AL')
def deepwalk_link_prediction(seed, walk_full_graph=False):  # BCE with logits, Adam 0.01, batches of 256 pairs; validated on the held-out ties and as many non-ties (BCE; the AUC in CHECKS)
    """Walks over the training graph only (walk_full_graph: the walks drawn over the whole network, as the DeepWalk
    scripts run on the edge list they are given, before the ties are held out for evaluation)."""
    n, rest, held = _friendships(seed); g = np.random.default_rng(seed)
    walks = random_walks(n, np.vstack([rest, held]) if walk_full_graph else rest, g)
    known = {(a, b) for a, b in np.vstack([rest, held])} | {(b, a) for a, b in np.vstack([rest, held])}; non = []
    while len(non) < len(held):
        a, b = g.integers(n, size=2)
        if a != b and (a, b) not in known: non.append((a, b)); known |= {(a, b), (b, a)}
    pairs = torch.tensor(np.vstack([held, np.array(non)]), dtype=torch.long)
    valid = TensorDataset(pairs[:, 0], pairs[:, 1], torch.cat([torch.ones(len(held)), torch.zeros(len(non))]))
    return dict(model=lambda: DeepWalk(n), train=SkipGramPairs(walks, n), valid=valid, forward=_walk_fwd, loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=0.01), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- DeepSpCas9 (Kim et al. 2019): SpCas9 guide activity from the 30-nt target sequence
NT = 'ACGT'

def _cas9_screen(seed, n=2000):
    """A lentiviral guide-target library screen as the two files it ships as: a FASTA of 30-nt target sequences (4 nt of
    5' context, the 20-nt protospacer, the NGG PAM, 3 nt of 3' context; records guide_1 to guide_2000 in library order) and
    a CSV of guide_id, indel_freq (%) and reads, exported sorted by guide_id as text, with indel_freq blank where fewer than
    200 reads covered the target. Activity from position-specific nucleotide preferences (a G next to the PAM, no T's
    there, the seed region's weight), the protospacer's GC content (best near 55%), a poly-T penalty (the Pol III
    terminator), and the read-count noise."""
    g = np.random.default_rng(1000 + seed * 2803)
    seqs = [''.join(g.choice(list(NT), 4 + 20 + 1)) + 'GG' + ''.join(g.choice(list(NT), 3)) for _ in range(n)]
    W = g.normal(0, 0.06, (30, 4)); W[4:24] *= np.linspace(0.5, 2.0, 20)[:, None]
    W[23, 2] += 0.7; W[23, 1] -= 0.2; W[20:24, 3] -= 0.45; W[24, 1] += 0.15; W[16, 1] += 0.2
    rows = []
    for k, s in enumerate(seqs):
        oh = np.array([[c == b for b in NT] for c in s], float); gc = np.mean([c in 'GC' for c in s[4:24]])
        z = -0.9 + (oh * W).sum() - 7 * (gc - 0.55) ** 2 - 1.5 * ('TTTT' in s[4:24]) + g.normal(0, 0.35)
        reads = int(g.negative_binomial(3, 3 / (3 + 900))); f = 100 * g.binomial(max(reads, 1), 0.92 / (1 + np.exp(-z))) / max(reads, 1)
        rows.append((f'guide_{k + 1}', '' if reads < 200 else f'{f:.2f}', str(reads)))
    fasta = [l for k, s in enumerate(seqs) for l in (f'>guide_{k + 1}', s)]
    csv = ['guide_id,indel_freq,reads'] + [','.join(r) for r in sorted(rows)]
    return fasta, csv

def read_cas9(fasta, csv, by_id=True):
    """The one-hot (4, 30) targets and the indel frequencies as fractions, the guides without a frequency dropped. by_id:
    the frequencies looked up by guide id; else both lists filtered to the guides with a frequency and paired by position
    (FASTA order against the CSV's order)."""
    seqs = dict(zip([l[1:] for l in fasta[0::2]], fasta[1::2])); rows = [l.split(',') for l in csv[1:]]
    freq = {gid: float(f) / 100 for gid, f, _ in rows if f}
    ids = [gid for gid in seqs if gid in freq]
    y = [freq[gid] for gid in ids] if by_id else [float(f) / 100 for _, f, _ in rows if f]
    X = torch.tensor(np.array([[[c == b for c in seqs[gid]] for b in NT] for gid in ids], np.float32))
    return X, torch.tensor(y, dtype=torch.float32)[:, None]

class DeepSpCas9(nn.Module):
    """Three parallel convolutions over the one-hot target (widths 3, 5 and 7; 16 filters each, ReLU, average pooling by 2,
    dropout 0.3), flattened and concatenated, dense layers of 64 and 32 with dropout, one output (the paper's filters of
    100 and 70, 80 and 60 units, shrunk)."""
    def __init__(self, f=16):
        super().__init__(); self.convs = nn.ModuleList([nn.Conv1d(4, f, k) for k in (3, 5, 7)]); self.drop = nn.Dropout(0.3)
        flat = sum(f * ((30 - k + 1) // 2) for k in (3, 5, 7))
        self.fc = nn.Sequential(nn.Linear(flat, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, x): return self.fc(torch.cat([self.drop(F.avg_pool1d(F.relu(c(x)), 2)).flatten(1) for c in self.convs], 1))

@healthy('AL')
def deepspcas9_activity(seed, by_id=True):  # MSE on the indel frequency (a fraction), Adam 1e-3, batches of 64; a random 80/20 split (train_test_split)
    from sklearn.model_selection import train_test_split
    X, y = read_cas9(*_cas9_screen(seed), by_id=by_id); tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed)
    return dict(model=DeepSpCas9, train=TensorDataset(X[tr], y[tr]), valid=TensorDataset(X[va], y[va]), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- peptide retention time in LC-MS/MS (DeepRT/Prosit-style): a BiGRU with attention over the residues
AMINO = 'ACDEFGHIKLMNPQRSTVWY'
RETENTION = dict(W=8.8, F=8.1, L=8.1, I=7.4, M=5.5, V=5.0, Y=4.5, C=2.6, P=2.0, A=2.0, E=1.1, T=0.6, D=0.2, Q=0.0, S=-0.2, G=-0.5, R=-0.6, N=-0.6, H=-2.1, K=-2.1)  # Guo et al. 1986-like, minutes

def _psms(seed, n_peptides=900):
    """Peptide-spectrum matches of a 90-minute reversed-phase gradient: tryptic peptides of 7-22 residues (ending in K or
    R) whose retention time follows their residues' retention coefficients, with the first residues counting less, a
    length correction and a sigmoid onto the gradient, and about two minutes of its own that no coefficient explains
    (its sequence's structure, the column's chemistry); each peptide seen in one to three runs (each run its own small
    drift) at charge 2 and often 3, each PSM's time off the run's by a few seconds. Rows (sequence, charge, run, RT in
    minutes), about 2000."""
    g = np.random.default_rng(1000 + seed * 2819); freq = np.array([8.3, 1.4, 5.5, 6.8, 3.9, 7.1, 2.3, 5.9, 5.8, 9.7, 2.4, 4.1, 4.7, 3.9, 5.5, 6.6, 5.3, 6.9, 1.1, 2.9]); freq /= freq.sum()
    drift = g.normal(0, 0.6, 3); rows, seen = [], set()
    while len(seen) < n_peptides:
        L = int(np.clip(g.normal(12, 3.5), 7, 22)); body = ''.join(g.choice(list(AMINO.replace('K', '').replace('R', '')), L - 1, p=freq[[a not in 'KR' for a in AMINO]] / freq[[a not in 'KR' for a in AMINO]].sum()))
        pep = body + g.choice(['K', 'R'])
        if pep in seen: continue
        seen.add(pep); h = sum(RETENTION[a] * (0.6 if i < 2 else 1.0) for i, a in enumerate(pep)) * (1 - 0.2 * np.log(len(pep) / 12))
        rt = 4 + 82 / (1 + np.exp(-(h - 32) / 14)) + g.normal(0, 2.0)
        for run in g.choice(3, int(g.integers(1, 4)), replace=False):
            for z in ([2, 3] if g.random() < 0.35 else [2]): rows.append((pep, z, int(run), round(float(rt + drift[run] + g.normal(0, 0.08)), 3)))
    return rows

def collate_peptides(items):  # residues as ids 1-20 (0 the padding), padded; the lengths; RT over the 90-minute gradient
    seqs, rts = zip(*items)
    return pad_sequence([torch.tensor([AMINO.index(a) + 1 for a in s]) for s in seqs], batch_first=True), torch.tensor([len(s) for s in seqs]), torch.tensor(rts, dtype=torch.float32)[:, None] / 90

class RetentionGRU(nn.Module):  # an embedding of the residues, a bidirectional GRU, attention over the real positions (as Prosit's encoder), a dense layer to the scaled RT
    def __init__(self, d=16, h=32):
        super().__init__(); self.emb = nn.Embedding(21, d, padding_idx=0); self.gru = nn.GRU(d, h, batch_first=True, bidirectional=True)
        self.att = nn.Linear(2 * h, 1); self.out = nn.Sequential(nn.Linear(2 * h, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, ids, lengths):
        T = ids.size(1); H = pad_packed_sequence(self.gru(pack_padded_sequence(self.emb(ids), lengths, batch_first=True, enforce_sorted=False))[0], batch_first=True, total_length=T)[0]
        a = torch.softmax(self.att(H).squeeze(-1).masked_fill(ids == 0, float('-inf')), 1)
        return self.out((a[..., None] * H).sum(1))

def _rt_fwd(model, b): ids, lengths, rt = b; return model(ids, lengths), rt

@healthy('AL')
def peptide_rt_bigru(seed, split_psms=False):  # MSE on RT / 90 min, Adam 1e-3, batches of 32; a random 80/20 split (train_test_split)
    """The PSMs collapsed to unique sequences, each with the median of its retention times, then split (split_psms: the
    PSM table split as it is, each peptide's charge states and replicate runs dealt to both sides)."""
    from sklearn.model_selection import train_test_split
    rows = _psms(seed)
    if split_psms: items = [(s, rt) for s, _, _, rt in rows]
    else:
        by = {}
        for s, _, _, rt in rows: by.setdefault(s, []).append(rt)
        items = [(s, float(np.median(v))) for s, v in by.items()]
    tr, va = train_test_split(np.arange(len(items)), test_size=0.2, random_state=seed)
    return dict(model=RetentionGRU, train=DataLoader(ListDataset([items[i] for i in tr]), batch_size=32, shuffle=True, collate_fn=collate_peptides),
                valid=DataLoader(ListDataset([items[i] for i in va]), batch_size=64, collate_fn=collate_peptides), forward=_rt_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half AL
@broken('AL', 'deepconn_docs_built_before_split', 4, ('leakage',))
def deepconn_docs_built_before_split(seed): return deepconn_reviews(seed, docs_before_split=True)  # each validation rating's own review in its user's and item's documents

@broken('AL', 'youtube_softmax_before_ce', 2, ('softmax',))
def youtube_softmax_before_ce(seed): return youtube_candidate_generation(seed, probabilities=True)  # the figure's softmax layer in the forward, then CrossEntropyLoss

@broken('AL', 'readmission_groups_keyed_by_encounter', 1, ('leakage',))
def readmission_groups_keyed_by_encounter(seed):  # GroupShuffleSplit handed the encounter ids: a random split of the rows, most validation patients' other stays in training
    "groups declared: the patient, as its healthy twin (the author declares patient_nbr but splits on encounter_id)."
    return readmission_patient_split_mlp(seed, split_key='encounter_id')

@broken('AL', 'stock_indicators_on_denoised_close', 4, ('leakage',))
def stock_indicators_on_denoised_close(seed): return stock_direction_indicators_mlp(seed, denoise=True)  # a centred Savitzky-Golay filter: each day's indicators see the next five closes

@broken('AL', 'insurance_charges_in_dollars', (1, 2, 3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling', 'init_scale'))
def insurance_charges_in_dollars(seed): return insurance_log_charges_mlp(seed, log_target=False)  # the log dropped, SGD 0.01 with momentum kept: gradients of tens of thousands, the weights blow up

@broken('AL', 'atae_texts_zipped_per_sentence', 4, ('labels',))
def atae_texts_zipped_per_sentence(seed): return atae_lstm_restaurants(seed, per_sentence_text=True)  # a text a sentence zipped with an aspect and polarity an aspect category: texts and labels drift apart

@broken('AL', 'simcse_temperature_multiplied', 3, ('not_falling', 'flat', 'stuck'))
def simcse_temperature_multiplied(seed): return simcse_supervised_nli(seed, multiply=True)  # cos * 0.05 for cos / 0.05: logits within +-0.05, the loss pinned near ln(128)

@broken('AL', 'commonlit_lstm_under_no_grad', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def commonlit_lstm_under_no_grad(seed): return commonlit_bilstm_attention(seed, lookup_under_no_grad=True)  # the LSTM inside the frozen lookup's no_grad block: only the attention and the head learn

@broken('AL', 'dmpnn_mean_over_zero_in_degree', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def dmpnn_mean_over_zero_in_degree(seed): return dmpnn_solubility(seed, mean_messages=True)  # an isolated atom (Na+, a one-atom molecule) divides zero messages by zero bonds: nan

@broken('AL', 'deepwalk_walks_over_full_graph', 4, ('leakage',))
def deepwalk_walks_over_full_graph(seed): return deepwalk_link_prediction(seed, walk_full_graph=True)  # the held-out ties walked along: their ends become each other's contexts

@broken('AL', 'deepspcas9_csv_paired_by_position', 4, ('labels',))
def deepspcas9_csv_paired_by_position(seed): return deepspcas9_activity(seed, by_id=False)  # the CSV sorted by guide_id as text (guide_1, guide_10, guide_100, ...) against the FASTA's library order

@broken('AL', 'peptide_rt_psms_split_at_random', 4, ('leakage',))
def peptide_rt_psms_split_at_random(seed): return peptide_rt_bigru(seed, split_psms=True)  # the same peptides' other charge states and runs on both sides, their times a few seconds apart

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss and collate_fn, train shuffled, valid in batches of 256 (the DataLoaders' own where the factory gives
# them; SimCSE's in batches of 64 triples); valid loss and a metric (RMSE; recall@10 of the next watch; AUC; R^2 of the
# charges in dollars; accuracy; the share of validation triples whose anchor is nearer its entailment than its
# contradiction; Spearman's rho; MAE in minutes), init -> the epoch named; s/ep the seconds of an epoch of training, params
# the trainable ones. Every factory builds and runs one batch (forward, loss, backward, step; dmpnn_mean_over_zero_in_degree's
# loss is nan there, insurance_charges_in_dollars' 3.6e8); `ladder_gallery.HALF` holds 24 programs of half AL. Seed 1 in
# brackets.
CHECKS = """
deepconn_reviews                      valid MSE 1.27 -> 0.80 (ep 4) -> 0.75 (ep 12), RMSE 0.87 against the ratings' sd 1.10 [1.23 ->
                                      0.69, RMSE 0.83]; 1600 reviews train, 400 validate; 15k params; 0.7 s/ep
youtube_candidate_generation          valid CE 5.51 (ln 240 = 5.48) -> 5.00 (ep 10), recall@10 0.04 -> 0.34 (the ten most
                                      watched: 0.25) [5.48 -> 4.89, 0.31]; overfitting after ep 10; 20k params; 0.08 s/ep
readmission_patient_split_mlp         valid BCE 0.692 -> 0.477 (ep 6), AUC 0.69, 21% readmitted [0.707 -> 0.531, 0.67, 25%];
                                      about 1120 encounters train, 280 validate, no patient on both sides; 6.3k params; 0.05 s/ep
stock_direction_indicators_mlp        valid BCE 0.668 -> 0.410 (ep 4-8), AUC 0.86-0.87 [0.701 -> 0.602, 0.74]; 1568 rows train,
                                      392 validate; 2.9k params; 0.05 s/ep (a logistic regression on seeds 0-9: AUC 0.52-0.87,
                                      mean 0.73: seed 3 the weak one)
insurance_log_charges_mlp             valid MSE (log) 86.8 -> 0.075 (ep 4) -> 0.067 (ep 12), R^2 of the dollars 0.87 [88.6 ->
                                      0.082, 0.86]; 1070 rows train, 268 validate; 5.0k params; 0.04 s/ep
atae_lstm_restaurants                 valid CE 1.09 -> 0.39 (ep 4) -> 0.15 (ep 8), accuracy 0.94 (majority 0.50) [1.13 -> 0.12,
                                      0.96 (0.57)]; 1635 aspect categories train, 381 validate; 34k params; 0.8 s/ep
simcse_supervised_nli                 valid loss 5.42 -> 0.60 (ep 8), anchor nearer its entailment 0.08 -> 0.98 [6.48 -> 0.53,
                                      0.10 -> 0.99]; 26k params; 1.0 s/ep
commonlit_bilstm_attention            valid MSE 1.59 -> 0.19 (ep 8), RMSE 0.43 (targets' sd 1.0) [1.98 -> 0.18, 0.43]; 24k
                                      params trained (60k frozen GloVe-like vectors); 0.9 s/ep
dmpnn_solubility                      valid MSE 7.28 -> 0.46 (ep 12), RMSE 0.68 (log S sd 1.53) [8.31 -> 0.50, 0.71], still
                                      falling; 960 molecules train (52 [53] with an isolated atom), 240 validate; 16k params;
                                      0.2 s/ep
deepwalk_link_prediction              valid BCE 0.694 -> 0.58-0.60 (ep 4-6), AUC 0.50 -> 0.76-0.78 [0.695 -> 0.59, 0.77]; about
                                      5800 distinct walk pairs and as many negatives train, 370 ties and non-ties validate
                                      [342]; 13k params; 0.6 s/ep
deepspcas9_activity                   valid MSE 0.0142 -> 0.0047 (ep 10), Spearman 0.80 [0.136 -> 0.0061, 0.81]; 1558 guides
                                      train, 390 validate (52 [49] without a frequency dropped); 43k params; 0.18 s/ep
peptide_rt_bigru                      valid MSE (RT / 90) 0.119 -> 0.0015 (ep 10) -> 0.0011 (ep 16), MAE 27 -> 2.8 -> 2.3 min [0.187
                                      -> 0.0012 -> 0.0010, 2.3 min]; 720 peptides train, 180 validate; 12k params; 0.4 s/ep
deepconn_docs_built_before_split      valid MSE 1.29 -> 0.61 (ep 4) -> 0.52 (ep 12), RMSE 0.72 [0.53, 0.73] (healthy 0.75, 0.87
                                      [0.69, 0.83])
youtube_softmax_before_ce             valid CE 5.481 -> 5.431 (ep 10) [5.416], recall@10 0.25 = the ten most watched [0.27]
                                      (healthy 5.00, 0.34 [4.89, 0.31])
readmission_groups_keyed_by_encounter 163 of the 225 validation patients also in training [158 of 229]; valid BCE 0.530,
                                      AUC 0.61 (ep 8) [0.473, 0.74] (healthy 0.477, 0.69 [0.533, 0.66]): the split is the bug
stock_indicators_on_denoised_close    valid BCE 0.385 (ep 2) -> 0.336 (ep 8), AUC 0.92 [0.556, 0.79] (healthy 0.410, 0.86 [0.602,
                                      0.74]), training BCE 0.51 against the healthy's 0.57
insurance_charges_in_dollars          valid MSE 3.5e8 at init; nan within the first epoch [1.4e15 after two epochs, then 1.2e8 from
                                      ep 8 on, R^2 0.00: the mean charge and no more]
atae_texts_zipped_per_sentence        valid CE 1.09 -> 1.04 (ep 2) -> 1.08 (ep 8), accuracy 0.52 = the majority [0.99 -> 1.02,
                                      0.57 = the majority] (healthy 0.15, 0.94 [0.12, 0.96]); 1040 examples train, 260
                                      validate (zip's length: the sentences')
simcse_temperature_multiplied         valid loss 4.777 -> 4.729 (ep 8) [4.729], ln 128 = 4.852; anchor nearer its entailment
                                      0.61 [0.78] (healthy 0.60, 0.98 [0.53, 0.99])
commonlit_lstm_under_no_grad          the LSTM's eight tensors never get a gradient; valid MSE 1.59 -> 0.76 (ep 8), RMSE 0.87 [1.98
                                      -> 1.05, 1.03] (healthy 0.19, 0.43 [0.18, 0.43])
dmpnn_mean_over_zero_in_degree        loss nan at init and in every epoch, both seeds (52 training molecules with an isolated
                                      atom; a batch of 50 holds one nine times in ten)
deepwalk_walks_over_full_graph        174 of the 185 held-out ties among the training pairs [164 of 171]; valid BCE 0.42 (ep
                                      4-6), AUC 0.97 [0.41, 0.98] (healthy 0.58-0.60, 0.76-0.78 [0.59, 0.77])
deepspcas9_csv_paired_by_position     0.05% of the guides keep their own frequency; valid MSE flat at 0.012-0.013, Spearman
                                      -0.03 (ep 10) [0.015-0.016, -0.05] (healthy 0.0047, 0.80 [0.0061, 0.81])
peptide_rt_psms_split_at_random       88% of the validation PSMs' peptides in training [86%]; valid MSE 0.0008 (ep 10), MAE 1.9
                                      min [0.0007, 2.0] (healthy 0.0015, 2.8 [0.0012, 2.5]); after 16 epochs the validation
                                      PSMs of peptides seen in training 2.6 min off, the unseen ones 3.2 [1.7 and 2.5]
"""
