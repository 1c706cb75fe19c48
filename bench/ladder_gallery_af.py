"""Half AF of the ladder's gallery: held out from the rules frozen at 87b4c78 (round 47), and run once on them.
Families not in halves A-AE: dysphonia measures for Parkinson's disease (Little et al. 2009: 22 voice measures of sustained
vowels, a dozen recordings a subject; an MLP, BCE with logits; subjects split with GroupShuffleSplit; groups declared: the
subject); concrete compressive strength (Yeh 1998: seven mix components in kg/m^3 and the age in days; an MLP, MSE in MPa);
Telco customer churn (IBM's sample: tenure, charges, contract, internet service, payment method; one-hot categories, an MLP,
BCE with logits); NYC taxi trip duration (the Kaggle competition: haversine and Manhattan distances, bearing, pickup time;
an MLP on log1p of the seconds, the RMSLE as MSE); SMS spam filtering with the torchtext tutorial's model (an EmbeddingBag of
the tokens, mean mode, a linear layer; a collate_fn that concatenates the messages and builds their offsets; a batch of three
tensors and a forward of its own); realised-volatility forecasting (a neural HAR-RV: the last 22 days' log realised variance
of an asset, the next week's log realised variance; split in time per asset); heart disease severity (the Cleveland data's
13 attributes, one-hot chest pain and thal, five classes 0-4; an MLP with dropout, cross-entropy); 3-D human pose from 2-D
joints (Martinez et al. 2017's simple baseline, shrunk: a linear layer, two residual blocks of linear-BN-ReLU-dropout, 16
joints; Kaiming init; subjects 9 and 11 validate, as Human3.6M); abalone age from shell measurements (UCI: sex, sizes and
weights, rings; an MLP with a softplus output and the RMSLE as its loss); wind-turbine power from 10-minute SCADA records
(wind speed, direction, temperature; the manufacturer's power curve with curtailment and icing; an MLP, MSE on power as a
fraction of rating); airfoil self-noise (NASA's Brooks, Pope and Marcolini data: frequency, angle of attack, chord, velocity,
displacement thickness to the sound pressure level in dB; an MLP on standardised inputs and target); and ATP tennis match
outcomes (a Siamese player encoder: the same MLP scores both players' ranking, points, age, form and surface record, the
logit their difference; BCE with logits; the last fifth of the matches by date validates).
At most 2000 samples and about 46k parameters a program; see CHECKS for the plain-loop timings. Registered into
ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AE.

Protocol: written by a helper in a worktree at 261b482 (branch halfAF), held out from the rules frozen at 87b4c78 (round 47).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI). It read bench/ladder_gallery.py's head, helpers and tail (the import lines), half AE whole,
the module docstrings and @broken lines of halves A-AD (for the rung and cause conventions and the families taken), a grep of
ladder_sweep.py for 'half' (the --half line and a few neighbours), and the signature and docstring of `ntrain.Task` via help();
it ran `git status` and `git rev-parse --short HEAD`, no git log. Each program was checked by hand only with a plain torch loop
of its author's kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seed 0 and seed 1.
Two programs declare groups (parkinsons_voice_mlp and its broken twin parkinsons_recordings_split_at_random; "groups
declared" in their factories' docstrings) and are to be reported apart. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half AF`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
import ntrain
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

_t = lambda a, dt=torch.float32: torch.tensor(np.asarray(a), dtype=dt)

def _mlp(d, *h, out=1, drop=0.0):
    layers = []
    for a, b in zip((d,) + h, h): layers += [nn.Linear(a, b), nn.ReLU()] + ([nn.Dropout(drop)] if drop else [])
    return nn.Sequential(*layers, nn.Linear(h[-1] if h else d, out))

# ---------------------------------------------------------------- Parkinson's disease from dysphonia measures (Little et al. 2009)
def _voices(seed, n_subj=80, rec=12):
    """80 subjects (about 60% with Parkinson's), a dozen sustained-vowel recordings each: 22 measures (jitter, shimmer,
    NHR/HNR, RPDE, DFA, spread1/2, D2, PPE) from a subject's own voice (a strong personal offset), the disease's severity
    (raising jitter, shimmer, noise and PPE, lowering HNR) and recording noise."""
    g = np.random.default_rng(1000 + seed * 2281); L = g.normal(0, 1, (22, 3)); eff = g.normal(0, 1, 22) * 0.35; X, y, subj = [], [], []
    for s in range(n_subj):
        pd = g.random() < 0.6; sev = g.gamma(2, 0.5) if pd else 0.0; off = L @ g.normal(0, 1, 3) * 0.8 + g.normal(0, 0.8, 22)
        for _ in range(rec):
            z = off + eff * sev + 0.6 * eff * pd + g.normal(0, 0.4, 22); X.append(np.exp(0.3 * z)); y.append(float(pd)); subj.append(f'phon_R01_S{s:02d}')
    return np.array(X, np.float32), np.array(y, np.float32), np.array(subj)

def _voice_data(seed, random_split=False):
    """20% of the subjects validate (GroupShuffleSplit on the name's subject part); StandardScaler on the training rows.
    random_split: train_test_split of the recordings: each validation recording's subject has others in train."""
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    from sklearn.preprocessing import StandardScaler
    X, y, subj = _voices(seed); idx = np.arange(len(y))
    if random_split: tr, va = train_test_split(idx, test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(idx, groups=subj))
    sc = StandardScaler().fit(X[tr]); X = sc.transform(X)
    return TensorDataset(_t(X[tr]), _t(y[tr])[:, None]), TensorDataset(_t(X[va]), _t(y[va])[:, None]), {'train': list(subj[tr]), 'valid': list(subj[va])}

@healthy('AF')
def parkinsons_voice_mlp(seed, random_split=False):  # 22 -> 32 -> 16 -> 1, ReLU, dropout 0.2; BCE with logits, Adam 1e-3, batches of 32
    "groups declared: the subject (the recording name's phon_R01_Sxx part)."
    tr, va, keys = _voice_data(seed, random_split=random_split)
    model = lambda: _mlp(22, 32, 16, drop=0.2)
    task = ntrain.Task(model=model, train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- concrete compressive strength (Yeh 1998)
AGES = np.array([3, 7, 14, 28, 56, 90, 180, 365])

def _concrete(seed, n=1000):
    """Mixes: cement 100-540, blast-furnace slag, fly ash, water 120-250, superplasticizer, coarse and fine aggregate (kg/m^3)
    and the age in days; strength (MPa) by Abrams' law on the water-binder ratio, the slag and ash reacting later than cement,
    the superplasticizer's help, log-age maturity, noise."""
    g = np.random.default_rng(1000 + seed * 2287); c = g.uniform(100, 540, n); sl = g.uniform(0, 300, n) * (g.random(n) < 0.55); fa = g.uniform(0, 200, n) * (g.random(n) < 0.45)
    w = g.uniform(120, 250, n); sp = g.uniform(0, 30, n) * (g.random(n) < 0.6); ca = g.uniform(800, 1150, n); fi = g.uniform(590, 990, n); age = g.choice(AGES, n, p=[.13, .12, .06, .40, .09, .08, .06, .06])
    m = np.log(age) / np.log(28); binder = c + 0.6 * sl * np.clip(m, 0, 1.3) + 0.4 * fa * np.clip(m, 0, 1.4)
    f = 95 / 14 ** (w / binder) * (1 + 0.012 * sp) * np.clip(0.35 + 0.65 * m, 0.3, 1.35) + g.normal(0, 3, n)
    return np.c_[c, sl, fa, w, sp, ca, fi, age].astype(np.float32), np.clip(f, 2, 85).astype(np.float32)

def _concrete_data(seed, sorted_features=False):
    """The spreadsheet's rows shuffled, 800 train and 200 validate, features standardised by the training rows.
    sorted_features: X = df[features].sort_values('Age') for a look at the curing ages, y = df['Strength'] as it was."""
    X, y = _concrete(seed)
    if sorted_features: X = X[np.argsort(X[:, 7], kind='stable')]
    p = np.random.default_rng(seed).permutation(len(y)); tr, va = p[:800], p[800:]; mu, sd = X[tr].mean(0), X[tr].std(0)
    return TensorDataset(_t((X[tr] - mu) / sd), _t(y[tr])[:, None]), TensorDataset(_t((X[va] - mu) / sd), _t(y[va])[:, None])

@healthy('AF')
def concrete_strength_mlp(seed, sorted_features=False):  # 8 -> 64 -> 32 -> 1, ReLU; MSE in MPa, Adam 1e-2, batches of 32
    tr, va = _concrete_data(seed, sorted_features=sorted_features)
    return dict(model=lambda: _mlp(8, 64, 32), train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- Telco customer churn (IBM's sample data)
CONTRACT, INTERNET, PAYMENT = ('Month-to-month', 'One year', 'Two year'), ('DSL', 'Fiber optic', 'No'), ('Electronic check', 'Mailed check', 'Bank transfer (automatic)', 'Credit card (automatic)')
REASONS = ('Competitor offered higher download speeds', 'Attitude of support person', 'Price too high', 'Moved', "Don't know")

def _telco(seed, n=2000):
    """Customers: tenure (months), contract, internet service, payment method, senior, partner, tech support, monthly and
    total charges; churn from a logistic of month-to-month contracts, fibre, electronic checks, short tenure and no tech
    support (about a quarter churn). Churners carry a Churn Reason, the rest an empty one."""
    g = np.random.default_rng(1000 + seed * 2293); rows = []
    for _ in range(n):
        ct = g.choice(3, p=[.55, .21, .24]); it = g.choice(3, p=[.34, .44, .22]); pm = g.choice(4, p=[.34, .23, .22, .21]); ten = int(np.clip(g.exponential(14 + 18 * ct), 1, 72))
        sen, par, ts = g.random() < .16, g.random() < .48, (g.random() < .3) and it < 2
        mc = 20 + (25 if it == 0 else 50 if it == 1 else 0) + 10 * ts + g.uniform(0, 25); tc = mc * ten * g.uniform(0.95, 1.05)
        z = -1.2 + 1.3 * (ct == 0) - 0.9 * (ct == 2) + 0.9 * (it == 1) + 0.6 * (pm == 0) - 0.045 * ten + 0.4 * sen - 0.3 * par - 0.6 * ts + g.normal(0, 0.3)
        ch = g.random() < 1 / (1 + np.exp(-z)); rows.append((ten, ct, it, pm, sen, par, ts, mc, tc, ch, REASONS[g.integers(5)] if ch else ''))
    return rows

def _telco_data(seed, reason_column=False):
    """One-hot Contract, InternetService, PaymentMethod; SeniorCitizen, Partner, TechSupport as 0/1; tenure, MonthlyCharges
    and log TotalCharges standardised by the training rows; 1600 customers train, 400 validate. reason_column: the frame's
    every column but customerID and Churn through pd.get_dummies, Churn Reason included (the empty reason a category of its
    own): a one-hot of 'stayed or why they left'."""
    rows = _telco(seed); oh = lambda v, k: np.eye(k, dtype=np.float32)[list(v)]
    ten, ct, it, pm, sen, par, ts, mc, tc, ch, rs = map(list, zip(*rows)); num = np.c_[ten, mc, np.log(tc)].astype(np.float32)
    p = np.random.default_rng(seed).permutation(len(rows)); tr, va = p[:1600], p[1600:]; num = (num - num[tr].mean(0)) / num[tr].std(0)
    X = np.c_[num, oh(ct, 3), oh(it, 3), oh(pm, 4), np.c_[sen, par, ts].astype(np.float32)]
    if reason_column: X = np.c_[X, oh([(('',) + REASONS).index(r) for r in rs], 6)]
    y = np.array(ch, np.float32)[:, None]
    return TensorDataset(_t(X[tr]), _t(y[tr])), TensorDataset(_t(X[va]), _t(y[va]))

@healthy('AF')
def telco_churn_mlp(seed, reason_column=False):  # 16 -> 32 -> 16 -> 1, ReLU; BCE with logits, Adam 1e-3, batches of 64
    tr, va = _telco_data(seed, reason_column=reason_column); d = tr.tensors[0].shape[1]
    return dict(model=lambda: _mlp(d, 32, 16), train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- NYC taxi trip duration (the Kaggle competition's features)
def _trips(seed, n=2000):
    """Pickups and dropoffs around Manhattan (lat/lon), pickup day of week and minute of day; the duration (s) from the
    street distance over a speed that falls in the rush hours and on weekdays, lognormal noise, a few very long trips."""
    g = np.random.default_rng(1000 + seed * 2297); lat0, lon0 = 40.75, -73.98
    pla, plo = lat0 + g.normal(0, 0.025, n), lon0 + g.normal(0, 0.02, n); d = g.lognormal(0.6, 0.7, n) / 111
    b = g.uniform(0, 2 * np.pi, n); dla, dlo = pla + d * np.cos(b), plo + d * np.sin(b) / np.cos(np.deg2rad(lat0))
    dow, mod = g.integers(0, 7, n), g.integers(0, 1440, n); h = mod / 60
    speed = 22 - 8 * (np.exp(-0.5 * ((h - 8.5) / 1.5) ** 2) + np.exp(-0.5 * ((h - 17.5) / 2) ** 2)) * (dow < 5) + 6 * ((h < 5) | (h > 22))
    km = 1.3 * 111 * (np.abs(dla - pla) + np.abs(dlo - plo) * np.cos(np.deg2rad(lat0)))
    dur = (km / speed * 3600 + 120) * g.lognormal(0, 0.25, n) * np.where(g.random(n) < 0.02, 4, 1)
    return pla, plo, dla, dlo, dow, mod, np.minimum(dur, 6 * 3600)

def _taxi_data(seed, eda_speed=False):
    """Haversine and Manhattan distances, bearing (sin, cos), the coordinates, hour (sin, cos), day of week one-hot; standard
    scaled by the training rows; the target log1p(trip_duration). 1600 trips train, 400 validate. eda_speed: the average
    speed (km/h, haversine distance over trip_duration) computed in the exploration for a plot of speed by hour, left in
    the frame whose every column but the id and the target becomes a feature."""
    pla, plo, dla, dlo, dow, mod, dur = _trips(seed); R = 6371; p1, p2 = np.deg2rad(pla), np.deg2rad(dla); dp, dl = p2 - p1, np.deg2rad(dlo - plo)
    hav = 2 * R * np.arcsin(np.sqrt(np.sin(dp / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2)); man = R * (np.abs(dp) + np.abs(dl) * np.cos(p1))
    br = np.arctan2(np.sin(dl) * np.cos(p2), np.cos(p1) * np.sin(p2) - np.sin(p1) * np.cos(p2) * np.cos(dl)); h = mod / 60
    X = np.c_[hav, man, np.sin(br), np.cos(br), pla, plo, dla, dlo, np.sin(2 * np.pi * h / 24), np.cos(2 * np.pi * h / 24), np.eye(7)[dow]]
    if eda_speed: X = np.c_[X, hav / dur * 3600]
    p = np.random.default_rng(seed).permutation(len(dur)); tr, va = p[:1600], p[1600:]; X = (X - X[tr].mean(0)) / X[tr].std(0).clip(1e-8)
    y = np.log1p(dur)[:, None]
    return TensorDataset(_t(X[tr]), _t(y[tr])), TensorDataset(_t(X[va]), _t(y[va]))

@healthy('AF')
def taxi_trip_duration(seed, eda_speed=False):  # 17 -> 64 -> 32 -> 1, ReLU; MSE on log1p(seconds) (the RMSLE squared), Adam 3e-3, batches of 32
    tr, va = _taxi_data(seed, eda_speed=eda_speed); d = tr.tensors[0].shape[1]
    return dict(model=lambda: _mlp(d, 64, 32), train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- SMS spam with the torchtext tutorial's EmbeddingBag classifier
HAM_W = 'ok i am going home now see you later lol sorry got it what time are we meeting tonight dinner love can call me when you reach yeah sure no problem did u eat my class finish at then wait da thanks haha good night morning tmr will be there just reached where r u'.split()
SPAM_W = 'free win won prize claim cash txt call now urgent reply stop mobile award guaranteed 1000 offer ringtone tone nokia selected customer service voucher entry weekly draw per min 150p 18 apply valid code'.split()

def _sms(seed, n=1500):
    """Messages of 3-25 tokens: ham from everyday words, spam (about 15%) from promotional words mixed with everyday ones;
    token ids from a vocabulary built on the whole corpus (1 is <unk>, 0 unused)."""
    g = np.random.default_rng(1000 + seed * 2309); vocab = {w: i + 2 for i, w in enumerate(dict.fromkeys(HAM_W + SPAM_W))}; msgs, ys = [], []
    for _ in range(n):
        sp = g.random() < 0.15; L = int(g.integers(3, 26)); k = g.binomial(L, 0.45) if sp else g.binomial(L, 0.03)
        w = list(g.choice(SPAM_W, k)) + list(g.choice(HAM_W, L - k)); g.shuffle(w); msgs.append(np.array([vocab[x] if g.random() > 0.03 else 1 for x in w])); ys.append(int(sp))
    return msgs, np.array(ys), len(vocab) + 2

class SmsDataset(Dataset):
    def __init__(self, msgs, ys): self.msgs, self.ys = msgs, ys
    def __len__(self): return len(self.ys)
    def __getitem__(self, i): return self.ys[i], self.msgs[i]

def collate_batch(batch):  # the tutorial's: labels, the concatenated token ids, each message's offset
    labels, texts, offsets = [], [], [0]
    for lab, txt in batch: labels.append(lab); t = torch.tensor(txt, dtype=torch.int64); texts.append(t); offsets.append(t.size(0))
    return torch.cat(texts), torch.tensor(offsets[:-1]).cumsum(dim=0), torch.tensor(labels, dtype=torch.int64)

class TextClassificationModel(nn.Module):  # the tutorial's, embed_dim 32; weights uniform in +-0.5, bias zero
    def __init__(self, vocab_size, embed_dim=32, num_class=2):
        super().__init__(); self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False); self.fc = nn.Linear(embed_dim, num_class)
        self.embedding.weight.data.uniform_(-0.5, 0.5); self.fc.weight.data.uniform_(-0.5, 0.5); self.fc.bias.data.zero_()
    def forward(self, text, offsets): return self.fc(self.embedding(text, offsets))

def _sms_fwd(model, b): text, offsets, y = b; return model(text, offsets), y

@healthy('AF')
def sms_spam_embeddingbag(seed, sort_texts=False):  # cross-entropy, SGD 5 (the tutorial's), batches of 64; 1200 messages train, 300 validate
    msgs, ys, V = _sms(seed); c = collate_batch
    if sort_texts: msgs = sorted(msgs, key=len)  # sort_texts: the messages sorted by length to batch alike lengths together, the labels list left as read
    tr, va = SmsDataset(msgs[:1200], ys[:1200]), SmsDataset(msgs[1200:], ys[1200:])
    return dict(model=lambda: TextClassificationModel(V), train=DataLoader(tr, batch_size=64, shuffle=True, collate_fn=c), valid=DataLoader(va, batch_size=64, collate_fn=c),
                forward=_sms_fwd, loss=nn.CrossEntropyLoss(), num_classes=2, optimizer=lambda p: torch.optim.SGD(p, lr=5.0), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- realised-volatility forecasting (a neural HAR-RV)
def _returns(seed, n_assets=8, days=300):
    "Daily log realised variance of eight assets: a long-memory mix of three AR(1) components (daily, weekly, monthly) around the asset's level, with leverage jumps."
    g = np.random.default_rng(1000 + seed * 2311); out = []
    for _ in range(n_assets):
        lvl = g.normal(-9, 0.5); c = np.zeros(3); phi = np.array([0.3, 0.8, 0.97]); s = np.array([0.45, 0.2, 0.07]); lrv = np.zeros(days + 60)
        for t in range(days + 60): c = phi * c + s * g.normal(size=3); lrv[t] = lvl + c.sum() + 0.4 * (g.random() < 0.02)
        out.append(lrv[60:] + g.normal(0, 0.25, days))  # measurement noise of the daily realised variance
    return out

def _vol_data(seed, centered=False):
    """Per asset: windows of the last 22 days' log RV (minus the asset's training mean), the target the log of the next five
    days' mean RV (same centring); the first 75% of each asset's days train, the rest validate. centered: the daily series
    smoothed first by rolling(5, center=True).mean() to tame the noise: each window's last two days average in the next two days' RV."""
    X, Y = ([], []), ([], [])
    for lrv in _returns(seed):
        s = np.convolve(lrv, np.ones(5) / 5, 'same') if centered else lrv; cut = int(0.75 * len(lrv)); m = lrv[:cut].mean()
        for t in range(22, len(lrv) - 5):
            k = int(t >= cut)
            if t < cut < t + 5: continue
            X[k].append(s[t - 22:t] - m); Y[k].append([np.log(np.exp(lrv[t:t + 5]).mean()) - m])
    return tuple(TensorDataset(_t(np.array(X[k])), _t(np.array(Y[k]))) for k in (0, 1))

@healthy('AF')
def har_rv_mlp(seed, centered=False):  # 22 -> 32 -> 16 -> 1, ReLU; MSE, Adam 1e-3, batches of 32
    tr, va = _vol_data(seed, centered=centered)
    return dict(model=lambda: _mlp(22, 32, 16), train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- heart disease severity (the Cleveland data, classes 0-4)
def _cleveland(seed, n=1500):
    """age, sex, cp (1-4), trestbps, chol, fbs, restecg, thalach, exang, oldpeak, slope, ca (0-3), thal (3, 6, 7) from a latent
    disease burden that sets num (0 none, 1-4 severity), about half 0."""
    g = np.random.default_rng(1000 + seed * 2333); rows, ys = [], []
    for _ in range(n):
        age = g.normal(54, 9); sex = g.random() < 0.68; b = -1.2 + 0.04 * (age - 54) + 0.8 * sex + g.normal(0, 1.2); num = int(np.clip(np.floor(b + 1), 0, 4))
        cp = 4 if g.random() < 0.3 + 0.15 * max(b, 0) else g.integers(1, 4); thal = 7 if g.random() < 0.2 + 0.2 * max(b, 0) else (6 if g.random() < 0.1 else 3)
        ca = int(np.clip(g.poisson(0.3 + 0.5 * max(b, 0)), 0, 3)); rows.append([age, sex, cp, g.normal(131, 17), g.normal(246, 50), g.random() < 0.15, g.integers(0, 3),
                     g.normal(152 - 8 * max(b, 0) - 0.6 * (age - 54), 18), g.random() < 0.2 + 0.15 * max(b, 0), max(0, g.normal(0.6 + 0.6 * max(b, 0), 0.9)), g.integers(1, 4), ca, thal]); ys.append(num)
    return np.array(rows, np.float64), np.array(ys)

def _heart_data(seed):
    "cp and thal one-hot, the rest standardised by the training rows; 1200 patients train, 300 validate."
    R, y = _cleveland(seed); cp = np.eye(4)[R[:, 2].astype(int) - 1]; th = np.eye(3)[[(3, 6, 7).index(int(v)) for v in R[:, 12]]]
    num = np.delete(R, [2, 12], 1); num = (num - num[:1200].mean(0)) / num[:1200].std(0); X = np.c_[num, cp, th]
    return TensorDataset(_t(X[:1200]), torch.tensor(y[:1200])), TensorDataset(_t(X[1200:]), torch.tensor(y[1200:]))

@healthy('AF')
def heart_disease_mlp(seed, softmax_out=False):  # 18 -> 32 -> 16 -> 5, ReLU, dropout 0.3; cross-entropy, Adam 1e-3, batches of 32
    tr, va = _heart_data(seed)
    model = lambda: nn.Sequential(nn.Linear(18, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 5),
                                  *([nn.Softmax(dim=1)] if softmax_out else []))  # softmax_out: the Keras Dense(5, activation='softmax') kept in the port
    return dict(model=model, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- 3-D human pose from 2-D joints (Martinez et al. 2017, "a simple yet effective baseline")
PARENT = [-1, 0, 1, 2, 0, 4, 5, 0, 7, 8, 8, 10, 11, 8, 13, 14]  # hip; right hip, knee, foot; left hip, knee, foot; spine, thorax, head; left shoulder, elbow, wrist; right ones
REST = np.array([[0, 0, 0], [-1, 0, 0], [0, -4, 0], [0, -4, 0], [1, 0, 0], [0, -4, 0], [0, -4, 0], [0, 2.2, 0], [0, 2.2, 0], [0, 1.5, 0],
                 [-1.6, -0.2, 0], [0, -2.6, 0], [0, -2.4, 0], [1.6, -0.2, 0], [0, -2.6, 0], [0, -2.4, 0]], float) * 0.11

def _rot(a, b, c):
    ca, sa, cb, sb, cc, sc = np.cos(a), np.sin(a), np.cos(b), np.sin(b), np.cos(c), np.sin(c)
    return np.array([[1, 0, 0], [0, ca, -sa], [0, sa, ca]]) @ np.array([[cb, 0, sb], [0, 1, 0], [-sb, 0, cb]]) @ np.array([[cc, -sc, 0], [sc, cc, 0], [0, 0, 1]])

def _poses(seed, per=260):
    """Seven subjects (S1, S5-S9, S11) with their own bone lengths; poses from a kinematic chain of random joint rotations
    (legs and arms swinging, the spine bending), a camera turning about the vertical at 3.5-5.5 m; pinhole projection. 2-D
    joints in pixels relative to the hip, divided by 100; 3-D joints in metres relative to the hip, camera frame."""
    g = np.random.default_rng(1000 + seed * 2339); X, Y, S = [], [], []
    for s in ('S1', 'S5', 'S6', 'S7', 'S8', 'S9', 'S11'):
        bl = g.uniform(0.9, 1.1) * g.uniform(0.92, 1.08, 16)
        for _ in range(per):
            P = np.zeros((16, 3)); Rg = [np.eye(3)] * 16
            for j in range(1, 16):
                lim = 0.9 if j in (2, 5, 11, 12, 14, 15) else 0.35
                Rg[j] = Rg[PARENT[j]] @ _rot(*g.uniform(-lim, lim, 3)); P[j] = P[PARENT[j]] + Rg[j] @ REST[j] * bl[j]
            cam = _rot(0, g.uniform(-np.pi, np.pi), 0) @ P.T; cam = cam.T + np.array([0, 0, g.uniform(3.5, 5.5)])
            uv = 1150 * cam[:, :2] / cam[:, 2:] ; X.append(((uv - uv[:1]) / 100).ravel()); Y.append((cam - cam[:1]).ravel()); S.append(s)
    return np.array(X, np.float32), np.array(Y, np.float32), np.array(S)

class LinearModel(nn.Module):  # Martinez's: w1, two residual blocks of (Linear, BN, ReLU, Dropout) x 2, w2; 128 units and dropout 0.2 (1024 and 0.5 there)
    def __init__(self, n=128, p=0.2, uniform_init=False):
        super().__init__(); self.w1, self.bn1 = nn.Linear(32, n), nn.BatchNorm1d(n)
        blk = lambda: nn.Sequential(nn.Linear(n, n), nn.BatchNorm1d(n), nn.ReLU(), nn.Dropout(p), nn.Linear(n, n), nn.BatchNorm1d(n), nn.ReLU(), nn.Dropout(p))
        self.blocks = nn.ModuleList([blk(), blk()]); self.w2 = nn.Linear(n, 48); self.drop = nn.Dropout(p)
        for m in self.modules():
            if isinstance(m, nn.Linear):
                if uniform_init: nn.init.uniform_(m.weight)  # uniform_init: nn.init.uniform_ for the repo's kaiming_normal: every weight in U(0, 1)
                else: nn.init.kaiming_normal_(m.weight)
    def forward(self, x):
        y = self.drop(F.relu(self.bn1(self.w1(x))))
        for b in self.blocks: y = y + b(y)
        return self.w2(y)

@healthy('AF')
def pose_lifting_baseline(seed, uniform_init=False):  # MSE on the 48 normalised coordinates, Adam 1e-3, batches of 64; S1, S5-S8 train, S9 and S11 validate
    X, Y, S = _poses(seed); va = np.isin(S, ['S9', 'S11'])  # both sides normalised by the training subjects' mean and std (the repo's normalize_data)
    X = (X - X[~va].mean(0)) / (X[~va].std(0) + 1e-8); Y = (Y - Y[~va].mean(0)) / (Y[~va].std(0) + 1e-8); Y[:, :3] = 0  # the hip, always 0
    return dict(model=lambda: LinearModel(uniform_init=uniform_init), train=TensorDataset(_t(X[~va]), _t(Y[~va])), valid=TensorDataset(_t(X[va]), _t(Y[va])),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- abalone age from shell measurements (UCI)
def _abalone(seed, n=2000):
    """Sex (M, F, I), length, diameter, height (mm / 200), whole, shucked, viscera and shell weights (g / 200) growing with
    age along von Bertalanffy curves, each animal's own size; rings (age - 1.5) 2-27."""
    g = np.random.default_rng(1000 + seed * 2341); age = np.clip(g.gamma(7, 1.6, n) + 1.5, 2.5, 28.5); sex = np.where(age < 6 + g.normal(0, 2, n), 2, g.integers(0, 2, n))
    k = g.lognormal(0, 0.12, n); L = 0.75 * (1 - np.exp(-0.28 * age)) * k * np.where(sex == 2, 0.93, 1); D = 0.79 * L * g.lognormal(0, 0.03, n); H = 0.27 * L * g.lognormal(0, 0.08, n)
    W = 4.2 * L ** 3 * g.lognormal(0, 0.1, n); sh = W * (0.43 - 0.005 * age) * g.lognormal(0, 0.08, n); vi = W * 0.22 * g.lognormal(0, 0.1, n); se = W * (0.26 + 0.004 * age) * g.lognormal(0, 0.08, n)
    return np.c_[np.eye(3)[sex], L, D, H, W, sh, vi, se].astype(np.float32), np.round(age - 1.5).astype(np.float32)

def rmsle_loss(pred, y): return torch.sqrt(F.mse_loss(torch.log1p(pred), torch.log1p(y)))

def rmsle_sklearn(pred, y):  # the metric from sklearn, wrapped to give backward() something: a new leaf, cut from the model
    from sklearn.metrics import mean_squared_log_error
    return torch.tensor(np.sqrt(mean_squared_log_error(y.numpy(), pred.detach().numpy())), requires_grad=True)

@healthy('AF')
def abalone_rings_rmsle(seed, sklearn_loss=False):  # 10 -> 64 -> 32 -> 1, ReLU, softplus out; the RMSLE, Adam 3e-3, batches of 64; 1600 train, 400 valid
    X, y = _abalone(seed); p = np.random.default_rng(seed).permutation(len(y)); tr, va = p[:1600], p[1600:]; X = (X - X[tr].mean(0)) / X[tr].std(0)
    model = lambda: nn.Sequential(_mlp(10, 64, 32), nn.Softplus())
    return dict(model=model, train=TensorDataset(_t(X[tr]), _t(y[tr])[:, None]), valid=TensorDataset(_t(X[va]), _t(y[va])[:, None]),
                loss=rmsle_sklearn if sklearn_loss else rmsle_loss, optimizer=lambda p: torch.optim.Adam(p, lr=3e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- wind-turbine power from SCADA records
def _scada(seed, n=2000):
    """10-minute records of a 2 MW turbine: wind speed (Weibull, k 2, c 8 m/s), direction, ambient temperature; power along
    the manufacturer's curve (cut-in 3, rated 12.5, cut-out 25 m/s) times an air-density factor, yaw misalignment losses
    for some directions (a neighbouring turbine's wake), curtailment to 60% in 5% of records, icing in cold humid ones,
    noise; about 4% of records with the anemometer missing (NaN) from SCADA outages."""
    g = np.random.default_rng(1000 + seed * 2347); v = g.weibull(2, n) * 8; d = g.uniform(0, 360, n); T = g.normal(8, 9, n)
    pc = np.clip((v ** 3 - 27) / (12.5 ** 3 - 27), 0, 1) * (v < 25); rho = 1.225 * 288 / (273 + T) / 1.225
    wake = 1 - 0.35 * np.exp(-0.5 * ((d - 250) / 15) ** 2) * (v < 14); P = np.clip(pc * rho * wake, 0, 1)
    P = np.where(g.random(n) < 0.05, np.minimum(P, 0.6), P); P = np.where((T < 0) & (g.random(n) < 0.2), P * 0.5, P); P = np.clip(P + g.normal(0, 0.02, n), 0, 1)
    v = np.where(g.random(n) < 0.04, np.nan, v)
    return np.c_[v, np.sin(np.deg2rad(d)), np.cos(np.deg2rad(d)), T].astype(np.float32), P.astype(np.float32)

def _scada_data(seed, keep_na=False):
    """df.dropna() (the anemometer outages), the first 80% of the records by time train, the rest validate; StandardScaler
    on the training rows. keep_na: no dropna (StandardScaler fits around the NaNs and passes them through)."""
    from sklearn.preprocessing import StandardScaler
    X, P = _scada(seed)
    if not keep_na: ok = ~np.isnan(X).any(1); X, P = X[ok], P[ok]
    k = int(0.8 * len(P)); sc = StandardScaler().fit(X[:k]); X = sc.transform(X).astype(np.float32)
    return TensorDataset(_t(X[:k]), _t(P[:k])[:, None]), TensorDataset(_t(X[k:]), _t(P[k:])[:, None])

@healthy('AF')
def wind_turbine_power_mlp(seed, keep_na=False):  # 4 -> 64 -> 64 -> 1, ReLU; MSE on power / rated power, Adam 1e-3, batches of 64
    tr, va = _scada_data(seed, keep_na=keep_na)
    return dict(model=lambda: _mlp(4, 64, 64), train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- airfoil self-noise (NASA, Brooks, Pope and Marcolini 1989)
def _airfoil(seed, n=1500):
    """NACA 0012 sections: frequency (200-20000 Hz, third-octave centres), angle of attack (0-22 deg), chord (0.025-0.3 m),
    velocity (31.7-71.3 m/s), suction-side displacement thickness (growing with angle, shrinking with chord Reynolds);
    the scaled sound pressure level (dB) from the turbulent boundary-layer trailing-edge noise shape in the Strouhal
    number, 50 log10 of the velocity, 10 log10 of the thickness, the stall's low-frequency hump, noise 1 dB."""
    g = np.random.default_rng(1000 + seed * 2351); fr = np.array([200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000])
    f = g.choice(fr, n).astype(float); a = g.choice([0, 1.5, 2, 3, 4, 5.3, 7.3, 9.9, 12.3, 15.4, 17.4, 19.7, 22.2], n); c = g.choice([0.0254, 0.0508, 0.1016, 0.1524, 0.2286, 0.3048], n); U = g.choice([31.7, 39.6, 55.5, 71.3], n)
    re = U * c / 1.5e-5; ds = c * 0.0601 * re ** -0.114 * 10 ** (0.0432 * a); St = f * ds / U
    spl = 10 * np.log10(ds * U ** 5 / 1e-2 ** 2 / 1e8) - 12 * np.log10(St / 0.02 + 0.02 / St) ** 2 + 6 * (a > 12.5) * np.exp(-0.5 * (np.log(St / 0.004)) ** 2) + g.normal(0, 1, n)
    return np.c_[f, a, c, U, ds].astype(np.float64), (spl - spl.mean() + 125).astype(np.float64)

@healthy('AF')
def airfoil_noise_mlp(seed, lr=1e-2):  # 5 -> 64 -> 64 -> 1, ReLU; X and y through StandardScaler; MSE, SGD with momentum 0.9, batches of 32; 1200 train, 300 valid
    from sklearn.preprocessing import StandardScaler
    X, y = _airfoil(seed); p = np.random.default_rng(seed).permutation(len(y)); tr, va = p[:1200], p[1200:]
    sx, sy = StandardScaler().fit(X[tr]), StandardScaler().fit(y[tr, None]); X, Y = sx.transform(X), sy.transform(y[:, None])
    return dict(model=lambda: _mlp(5, 64, 64), train=TensorDataset(_t(X[tr]), _t(Y[tr])), valid=TensorDataset(_t(X[va]), _t(Y[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- ATP match outcomes (a Siamese player encoder)
def _matches(seed, n_players=150, n=2000):
    """150 players with an overall and a per-surface skill drifting over the seasons; 2000 matches in date order between
    players drawn by ranking; per player the log rank, log ranking points, age, height, the last ten matches' win rate and
    the win rate on the surface; the winner from the logistic of the skill difference. Rows as atp_matches: winner_*, loser_*."""
    g = np.random.default_rng(1000 + seed * 2357); sk = g.normal(0, 1, n_players); surf_sk = g.normal(0, 0.4, (n_players, 3)); age = g.uniform(19, 33, n_players); ht = g.normal(186, 7, n_players)
    form = [[] for _ in range(n_players)]; sform = [[[] for _ in range(3)] for _ in range(n_players)]; rows = []
    for m in range(n):
        sk += g.normal(0, 0.01, n_players); rank = np.argsort(np.argsort(-sk)) + 1; s = g.choice(3, p=[.55, .3, .15])
        a, b = g.choice(n_players, 2, replace=False, p=np.exp(-np.arange(n_players) / 60)[rank - 1] / np.exp(-np.arange(n_players) / 60)[rank - 1].sum())
        pa = 1 / (1 + np.exp(-1.3 * ((sk[a] + surf_sk[a, s]) - (sk[b] + surf_sk[b, s]))))
        w, l = (a, b) if g.random() < pa else (b, a)
        feat = lambda i: [np.log(rank[i]), np.log(8000 * np.exp(-rank[i] / 25) + 10 * g.lognormal(0, 0.3)), (age[i] - 26) / 4, (ht[i] - 186) / 7,
                          np.mean(form[i][-10:]) if form[i] else 0.5, np.mean(sform[i][s][-10:]) if sform[i][s] else 0.5]
        rows.append((feat(w), feat(l), s)); form[w].append(1); form[l].append(0); sform[w][s].append(1); sform[l][s].append(0)
    return rows

class SiamesePlayers(nn.Module):  # the same encoder scores each player from his features and the surface; the logit is the difference
    def __init__(self):
        super().__init__(); self.enc = nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x): return (self.enc(x[:, 0]) - self.enc(x[:, 1])).squeeze(-1)

def _tennis_data(seed, pm_one=False):
    """Player 1 the winner or the loser at random (np.random.rand() < 0.5), the label whether player 1 won; each player's six
    features with the surface one-hot; the last 400 matches validate. pm_one: the label np.where(swap, -1, 1), the
    margin-loss convention of the author's first model, kept when the head became BCEWithLogitsLoss."""
    rows = _matches(seed); swap = np.random.default_rng(seed).random(len(rows)) < 0.5; X = np.zeros((len(rows), 2, 9), np.float32)
    for i, (w, l, s) in enumerate(rows):
        a, b = (l, w) if swap[i] else (w, l); X[i, 0, :6], X[i, 1, :6] = a, b; X[i, :, 6 + s] = 1
    y = np.where(swap, -1.0, 1.0) if pm_one else (~swap).astype(np.float64)
    return TensorDataset(_t(X[:1600]), _t(y[:1600])), TensorDataset(_t(X[1600:]), _t(y[1600:]))

@healthy('AF')
def tennis_siamese_players(seed, pm_one=False):  # BCE with logits, Adam 1e-3, batches of 64
    tr, va = _tennis_data(seed, pm_one=pm_one)
    return dict(model=SiamesePlayers, train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AF
@broken('AF', 'parkinsons_recordings_split_at_random', 4, ('leakage',))
def parkinsons_recordings_split_at_random(seed):  # train_test_split of the recordings, not the subjects: each valid recording's subject in train
    "groups declared: the subject, as its healthy twin (the author passes the subject key but splits the recordings)."
    return parkinsons_voice_mlp(seed, random_split=True)

@broken('AF', 'concrete_features_sorted_by_age', 4, ('labels',))
def concrete_features_sorted_by_age(seed): return concrete_strength_mlp(seed, sorted_features=True)  # X sorted by age, y left in the sheet's order

@broken('AF', 'telco_churn_reason_one_hot', 4, ('leakage',))
def telco_churn_reason_one_hot(seed): return telco_churn_mlp(seed, reason_column=True)  # pd.get_dummies over every column: Churn Reason ('' for stayers) in the inputs

@broken('AF', 'taxi_eda_speed_in_features', 4, ('leakage',))
def taxi_eda_speed_in_features(seed): return taxi_trip_duration(seed, eda_speed=True)  # the exploration's avg_speed = distance / trip_duration left among the features

@broken('AF', 'sms_texts_sorted_by_length_alone', 4, ('labels',))
def sms_texts_sorted_by_length_alone(seed): return sms_spam_embeddingbag(seed, sort_texts=True)  # sorted(texts, key=len) for bucketing, the labels in the file's order

@broken('AF', 'har_rv_centered_smoothing', 4, ('leakage',))
def har_rv_centered_smoothing(seed): return har_rv_mlp(seed, centered=True)  # rolling(5, center=True) before the windows: the last input days average in the first two target days

@broken('AF', 'heart_keras_softmax_before_ce', 2, ('softmax',))
def heart_keras_softmax_before_ce(seed): return heart_disease_mlp(seed, softmax_out=True)  # softmax output layer kept in front of CrossEntropyLoss

@broken('AF', 'pose_uniform_init', 2, ('init_scale',))
def pose_uniform_init(seed): return pose_lifting_baseline(seed, uniform_init=True)  # nn.init.uniform_(w): U(0, 1) weights, all positive, through five layers of 128 and residual sums

@broken('AF', 'abalone_sklearn_rmsle_leaf', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def abalone_sklearn_rmsle_leaf(seed): return abalone_rings_rmsle(seed, sklearn_loss=True)  # the loss a new leaf (torch.tensor(..., requires_grad=True)) of sklearn's metric: no gradient reaches the model

@broken('AF', 'wind_scada_outages_kept', 1, ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward'))
def wind_scada_outages_kept(seed): return wind_turbine_power_mlp(seed, keep_na=True)  # no dropna: NaN wind speeds through StandardScaler into the batches

@broken('AF', 'airfoil_lr_1e2_for_1e_2', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def airfoil_lr_1e2_for_1e_2(seed): return airfoil_noise_mlp(seed, lr=1e2)  # lr=1e2 typed for 1e-2: SGD with momentum diverges

@broken('AF', 'tennis_pm_one_labels_in_bce', 1, ('bad_labels',))
def tennis_pm_one_labels_in_bce(seed): return tennis_siamese_players(seed, pm_one=True)  # labels -1/+1 into BCEWithLogitsLoss: the loss unbounded below on the -1 rows

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch size
# (or DataLoaders), forward and loss, train shuffled, valid in batches of 256; valid loss and a metric (AUC for the binary ones,
# accuracy, R^2 over all outputs), init -> epoch 5; s/ep the seconds an epoch of training. Every factory builds and runs its batches.
CHECKS = """
parkinsons_voice_mlp        valid BCE 0.823 -> 0.527, AUC 0.75 (s1 0.673 -> 0.569, 0.76); 768 recordings of 64 subjects; 0.03 s/ep; first
                            written with a weaker personal voice (AUC 0.955 by subjects, 0.978 by recordings): stronger offsets, then this
concrete_strength_mlp       valid MSE 1188 -> 66.5 MPa^2, R^2 0.78 (s1 1101 -> 83.4, 0.71); 800 mixes; 0.03 s/ep
telco_churn_mlp             valid BCE 0.641 -> 0.513, AUC 0.80 (s1 0.466, 0.82); 1600 customers; 0.03 s/ep
taxi_trip_duration          valid MSE of log1p 43.9 -> 0.219, R^2 0.40 (s1 0.280, 0.39); 1600 trips; 0.05 s/ep; first written with Adam 1e-3
                            and batches of 64 (R^2 -1.1 at epoch 5: log1p targets of ~6.5 from a zero-mean output), then 3e-3 and 32
sms_spam_embeddingbag       valid CE 0.656 -> 0.078, accuracy 0.97 (majority 0.85; s1 0.104, 0.97); 1200 messages; 0.02 s/ep
har_rv_mlp                  valid MSE 0.422 -> 0.224, R^2 0.30 (s1 0.230 -> 0.155, 0.13); 1592 windows of 8 assets; 0.05 s/ep
heart_disease_mlp           valid CE 1.68 -> 0.835, accuracy 0.67 (s1 0.777, 0.69); 1200 patients; 0.04 s/ep
pose_lifting_baseline       valid MSE 17.8 -> 0.856 on standardised coordinates, R^2 0.16, still falling (0.78 at 8 ep; s1 0.863, 0.16);
                            1300 poses of 5 subjects; 77.7k parameters; 0.09-0.14 s/ep; first written with dropout 0.5 and targets in
                            metres (R^2 -6 at epoch 5), then the repo's normalize_data on the targets and dropout 0.2 at 128 units
abalone_rings_rmsle         valid RMSLE 1.94 -> 0.304 (s1 1.89 -> 0.271); 1600 shells; 0.03 s/ep
wind_turbine_power_mlp      valid MSE 0.165 -> 0.0056, R^2 0.94 (s1 0.0051, 0.94); 1530 records after dropna; 0.03 s/ep
airfoil_noise_mlp           valid MSE 1.09 -> 0.031 (standardised dB), R^2 0.97 (s1 0.026, 0.975); 1200 rows; 0.03 s/ep
tennis_siamese_players      valid BCE 0.669 -> 0.494, AUC 0.85 (s1 0.701 -> 0.511, 0.82); 1600 matches; 0.04-0.06 s/ep
parkinsons_recordings_split_at_random  valid 0.755 -> 0.337, AUC 0.96 (healthy 0.527, 0.75; s1 0.465, 0.91 against 0.569, 0.76);
                                       0.215 and 0.99 at 8 ep against the healthy 0.361 and 0.84
concrete_features_sorted_by_age        valid 1187 -> 339, R^2 -0.10, train 318 (s1 320, -0.11): the variance of the strengths
telco_churn_reason_one_hot             valid 0.656 -> 0.131, AUC 0.999 (healthy 0.513, 0.80; s1 0.173, 0.999)
taxi_eda_speed_in_features             valid 0.166, R^2 0.55 (healthy 0.219, 0.40; s1 0.219, 0.52 against 0.280, 0.39); 0.110 against 0.172
                                       at 8 ep; first written as the dropoff time's minute of day beside the pickup's (no gain in 8 epochs)
sms_texts_sorted_by_length_alone       valid 0.67 -> 0.423, accuracy 0.853: the majority class (s1 0.426, 0.853); first written as offsets
                                       without the leading 0, which EmbeddingBag refuses (offsets[0] has to be 0): a rung-1 error, not this
har_rv_centered_smoothing              valid 0.154, R^2 0.52 (healthy 0.224, 0.30; s1 0.109, 0.39 against 0.155, 0.13); first written with
                                       rolling(3): 0.395 against 0.30, so 5
heart_keras_softmax_before_ce          valid CE 1.62 -> 1.237, accuracy 0.67 (healthy 0.835; s1 1.212, 0.69)
pose_uniform_init                      valid MSE 2.2e19 at init (healthy 17.8), 2.9e4 after 5 epochs (s1 1.7e19, 1.7e4)
abalone_sklearn_rmsle_leaf             valid 1.943 throughout, train 1.946: nothing moves (s1 1.892)
wind_scada_outages_kept                nan from the first batch, valid and train (s1 too); 1600 records, 4% with NaN wind speed
airfoil_lr_1e2_for_1e_2                nan after the first epoch, valid and train (s1 too)
tennis_pm_one_labels_in_bce            train loss 0.64 -> -0.47 and falling without bound, valid -0.96 at epoch 5; AUC 0.85 as the healthy's (s1
                                       -0.50, 0.82)
"""
