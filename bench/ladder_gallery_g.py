"""Half G of the ladder's gallery (issue 32): held out from the sixth round of rules (`ladder rules, round 6 (frozen):` on r6),
written before that commit and run once after it. Families not in halves A-F: a padded BiLSTM tagger, quantile (pinball)
regression, distillation from a fixed teacher (KL divergence), pairwise ranking (MarginRankingLoss), attention-pooled
multiple-instance bags, a Hugging Face-style model (dict batches, an output object, `ntrain.hf_forward`).
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module last.

Protocol, fixed before the freeze: each program checked by hand only with a plain torch loop (shapes, 5 epochs: the healthy
ones learn, the broken ones are broken as meant), never with the ladder. After the `ladder rules, round 6 (frozen):`
commit appears on r6, r6 is merged and half G runs once, rungs 1-4, seeds 0-9 as two processes (seeds 0-4, 5-9):
`OMP_NUM_THREADS=1 nice -n 19 timeout 2400 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half G`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.
"""
from __future__ import annotations
from types import SimpleNamespace
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys

# ---------------------------------------------------------------- a sequence tagger: padded sentences, a tag per token
def _tagged(seed, n, V=60, K=5, T=15, split=0):
    "Sentences of 5-15 words padded with 0; each word has its own tag, except ambiguous words (a tenth) whose tag follows the previous one."
    gw, g = torch.Generator().manual_seed(4242 + seed), _gen(seed * 71 + split)  # gw: the lexicon, shared by both splits
    lex, amb = torch.randint(0, K, (V,), generator=gw), torch.rand(V, generator=gw) < 0.1
    x, y = torch.zeros(n, T, dtype=torch.long), torch.full((n, T), -100)
    for i in range(n):
        L = int(torch.randint(5, T + 1, (1,), generator=g)); w = torch.randint(1, V, (L,), generator=g)
        t = lex[w].clone()
        for j in range(1, L):
            if amb[w[j]]: t[j] = (t[j - 1] + 1) % K
        x[i, :L], y[i, :L] = w, t
    return x, y

class Tagger(nn.Module):  # embeddings, a bidirectional LSTM, a tag per token (the PyTorch NLP tutorial's tagger, batched)
    def __init__(self, V=60, e=32, h=32, K=5, softmax=False, always_dropout=False):
        super().__init__(); self.softmax, self.always_dropout = softmax, always_dropout
        self.emb = nn.Embedding(V, e, padding_idx=0); self.lstm = nn.LSTM(e, h, batch_first=True, bidirectional=True)
        self.drop, self.out = nn.Dropout(0.3), nn.Linear(2 * h, K)
    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        h = F.dropout(h, 0.3, training=True) if self.always_dropout else self.drop(h)
        o = self.out(h)
        return o.softmax(-1) if self.softmax else o

def _tag_fwd(model, b): return model(b[0]).reshape(-1, 5), b[1].reshape(-1)  # padding tags are -100: CrossEntropyLoss ignores them

@healthy('G')
def lstm_tagger(seed):  # CrossEntropyLoss(ignore_index=-100), Adam 1e-3
    (x, y), (vx, vy) = _tagged(seed, 1500), _tagged(seed, 300, split=1)
    return dict(model=Tagger, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), forward=_tag_fwd, loss=nn.CrossEntropyLoss(ignore_index=-100),
                num_classes=5, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- quantile regression: three quantiles, the pinball loss
QS = (0.1, 0.5, 0.9)

def _skewed(seed, n, split=0):
    "y = a linear function of 4 features plus right-skewed (exponential) noise whose scale grows with the first feature."
    g = _gen(seed * 73 + split)
    x = torch.randn(n, 4, generator=g)
    noise = -torch.log(torch.rand(n, generator=g).clamp_min(1e-7)) * (0.3 + 0.2 * x[:, 0].abs())
    return x, (x @ torch.tensor([0.8, -0.5, 0.3, 0.0]) + noise)[:, None]

def pinball(pred, y):  # the mean over quantiles of max(q * e, (q - 1) * e), e = y - pred
    e = y - pred; q = torch.tensor(QS)
    return torch.maximum(q * e, (q - 1) * e).mean()

@healthy('G')
def quantile_reg(seed):  # an MLP with a head per quantile, Adam 1e-3
    (x, y), (vx, vy) = _skewed(seed, 2000), _skewed(seed, 500, split=1)
    return dict(model=lambda: nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, len(QS))),
                train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=pinball, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- distillation: a student matches a fixed teacher's softened probabilities
TEMP = 4.0

def _teacher_probs(seed):
    "A fixed teacher (sklearn's logistic regression fitted on the train split), its probabilities at temperature TEMP as the targets."
    from sklearn.linear_model import LogisticRegression
    (x, y), (vx, vy) = _digits(seed)
    clf = LogisticRegression(max_iter=300).fit(x.flatten(1).numpy(), y.numpy())
    soft = lambda a: torch.softmax(torch.tensor(clf.decision_function(a.flatten(1).numpy()), dtype=torch.float32) / TEMP, 1)
    return (x, soft(x)), (vx, soft(vx))

def distill_loss(student_logits, teacher_probs):  # Hinton et al.: KL at temperature T, scaled by T^2
    return F.kl_div(F.log_softmax(student_logits / TEMP, 1), teacher_probs, reduction='batchmean') * TEMP ** 2

class Student(nn.Module):
    def __init__(self): super().__init__(); self.net = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
    def forward(self, x): return self.net(x)

@healthy('G')
def distill_kl(seed):  # Adam 1e-3
    (x, p), (vx, vp) = _teacher_probs(seed)
    return dict(model=Student, train=TensorDataset(x, p), valid=TensorDataset(vx, vp), loss=distill_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- pairwise ranking: which of two items is more relevant
def _item_pairs(seed, n, split=0):
    "Pairs of items (10 features each); the target is +1 when the first item's relevance (linear in the features, plus noise) is higher, else -1."
    g, gw = _gen(seed * 79 + split), torch.Generator().manual_seed(5151 + seed)
    w = torch.randn(10, generator=gw)
    a, b = torch.randn(n, 10, generator=g), torch.randn(n, 10, generator=g)
    ra, rb = a @ w + 0.5 * torch.randn(n, generator=g), b @ w + 0.5 * torch.randn(n, generator=g)
    return torch.stack([a, b], 1), torch.where(ra > rb, 1.0, -1.0)

class Scorer(nn.Module):  # one score per item, the same net for both items of a pair (RankNet-style)
    def __init__(self): super().__init__(); self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
    def forward(self, pair): return self.net(pair[:, 0]).squeeze(1), self.net(pair[:, 1]).squeeze(1)

_rank = nn.MarginRankingLoss(margin=1.0)
def rank_loss(scores, target): return _rank(scores[0], scores[1], target)

@healthy('G')
def ranknet_pairs(seed):  # SGD 0.01 with momentum 0.9
    (x, t), (vx, vt) = _item_pairs(seed, 2000), _item_pairs(seed, 500, split=1)
    return dict(model=Scorer, train=TensorDataset(x, t), valid=TensorDataset(vx, vt), loss=rank_loss,
                optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- multiple-instance learning: a bag of digits is positive when it holds a 9
def _bags(x, y, n, g, k=8):
    i = torch.randint(0, len(y), (n, k), generator=g)
    return TensorDataset(x[i], (y[i] == 9).any(1).float()[:, None])

class AttentionMIL(nn.Module):  # Ilse et al. 2018: an instance encoder, attention weights over the bag, a classifier on the pooled bag
    def __init__(self, h=64, a=32):
        super().__init__()
        self.enc = nn.Sequential(nn.Flatten(), nn.Linear(64, h), nn.ReLU())
        self.att = nn.Sequential(nn.Linear(h, a), nn.Tanh(), nn.Linear(a, 1)); self.cls = nn.Linear(h, 1)
    def forward(self, bags):  # B, k, 1, 8, 8
        B, k = bags.shape[:2]
        h = self.enc(bags.flatten(0, 1)).view(B, k, -1)
        w = torch.softmax(self.att(h), 1)
        return self.cls((w * h).sum(1))

@healthy('G')
def mil_attention(seed):  # BCEWithLogitsLoss, Adam 5e-4 with weight decay 1e-4 as the paper sets it
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed + 83)
    return dict(model=AttentionMIL, train=_bags(x, y, 1000, g), valid=_bags(vx, vy, 250, g), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=5e-4, weight_decay=1e-4), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- a Hugging Face-style classifier: dict batches, an output object
class DictDocs(Dataset):
    "Reviews of 6-20 tokens padded to 20: input_ids, attention_mask and labels (1 when positive words outnumber negative ones)."
    def __init__(self, seed, n, split=0, V=200, T=20):
        g = _gen(seed * 89 + split)
        self.ids, self.mask, self.labels = torch.zeros(n, T, dtype=torch.long), torch.zeros(n, T, dtype=torch.long), torch.zeros(n, dtype=torch.long)
        for i in range(n):
            L = int(torch.randint(6, T + 1, (1,), generator=g)); w = torch.randint(21, V, (L,), generator=g)
            s = torch.rand(L, generator=g) < 0.3; w[s] = torch.randint(1, 21, (int(s.sum()),), generator=g)  # 1-10 positive, 11-20 negative
            self.ids[i, :L], self.mask[i, :L] = w, 1
            pos, neg = int(((w >= 1) & (w <= 10)).sum()), int(((w >= 11) & (w <= 20)).sum())
            self.labels[i] = int(pos > neg or (pos == neg and bool(torch.rand(1, generator=g) < 0.5)))
    def __len__(self): return len(self.labels)
    def __getitem__(self, i): return dict(input_ids=self.ids[i], attention_mask=self.mask[i], labels=self.labels[i])

class TinySeqClassifier(nn.Module):  # the shape of AutoModelForSequenceClassification: (input_ids, attention_mask, labels=None) -> .logits, .loss
    def __init__(self, V=200, d=64, k=2):
        super().__init__(); self.emb = nn.Embedding(V, d, padding_idx=0); self.pre = nn.Sequential(nn.Linear(d, d), nn.GELU()); self.classifier = nn.Linear(d, k)
    def forward(self, input_ids, attention_mask, labels=None):
        m = attention_mask[..., None].float()
        pooled = (self.emb(input_ids) * m).sum(1) / m.sum(1).clamp_min(1)
        logits = self.classifier(self.pre(pooled))
        return SimpleNamespace(logits=logits, loss=None if labels is None else F.cross_entropy(logits, labels))

def seq_cls_loss(out, labels): return F.cross_entropy(out.logits, labels)

def _hf_forward():
    import ntrain; return ntrain.hf_forward

@healthy('G')
def hf_dict_classifier(seed):  # AdamW 1e-3, batches of dicts through ntrain.hf_forward
    return dict(model=TinySeqClassifier, train=DictDocs(seed, 2000), valid=DictDocs(seed, 400, split=1), forward=_hf_forward(), loss=seq_cls_loss,
                num_classes=2, optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- broken variants of half G
@broken('G', 'tagger_tags_off_by_one', 4, ('labels',))
def tagger_tags_off_by_one(seed):  # train tags shifted one token left (each word gets the next word's tag), as after an off-by-one in the reader
    kw = lstm_tagger(seed); x, y = kw['train'].tensors
    y2 = torch.full_like(y, -100); y2[:, :-1] = y[:, 1:]; y2[x == 0] = -100
    kw['train'] = TensorDataset(x, y2); return kw

@broken('G', 'tagger_softmax_before_ce', 2, ('softmax',))
def tagger_softmax_before_ce(seed): return dict(lstm_tagger(seed), model=lambda: Tagger(softmax=True))

@broken('G', 'tagger_dropout_in_eval', 1, ('eval_mode',), ('warn', 'fail'))
def tagger_dropout_in_eval(seed): return dict(lstm_tagger(seed), model=lambda: Tagger(always_dropout=True))

@broken('G', 'ranknet_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def ranknet_lr_x1000(seed): return dict(ranknet_pairs(seed), optimizer=lambda p: torch.optim.SGD(p, lr=10.0, momentum=0.9))

@broken('G', 'mil_shuffled_labels', 4, ('labels',))
def mil_shuffled_labels(seed):
    kw = mil_attention(seed); x, y = kw['train'].tensors
    kw['train'] = TensorDataset(x, y[torch.randperm(len(y), generator=_gen(seed + 61))]); return kw

@broken('G', 'distill_stale_optimizer', (1, 3), ('frozen', 'not_updating', 'flat', 'stuck', 'lr_zero'))
def distill_stale_optimizer(seed):  # the optimizer holds another model's parameters (the model was built again after it)
    return dict(distill_kl(seed), optimizer=lambda p: torch.optim.Adam(Student().parameters(), lr=1e-3))

@broken('G', 'quantile_leak', 4, ('leakage',))
def quantile_leak(seed):  # a validation set that re-uses a quarter of the train rows
    kw = quantile_reg(seed); x, y = kw['train'].tensors; vx, vy = kw['valid'].tensors
    kw['valid'] = TensorDataset(torch.cat([vx[:375], x[:125]]), torch.cat([vy[:375], y[:125]])); return kw

def step_hf_no_zero_grad(model, batch, opt):
    out = model(**batch); out.loss.backward(); opt.step(); return out.loss

@broken('G', 'hf_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def hf_no_zero_grad(seed): return dict(hf_dict_classifier(seed), step=step_hf_no_zero_grad)
