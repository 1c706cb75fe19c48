"""Small tasks the foundation tests name as `task=tasks_for_tests:NAME` (tests/ must be on PYTHONPATH).

Every task here is tiny (a few hundred random samples, a linear or two-layer model) so that a CLI run in a
subprocess takes a second or two on one CPU thread. Each one breaks exactly one thing on purpose.
"""
from __future__ import annotations
from dataclasses import dataclass
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import Dataset
import ntrain
from ntrain.data import Task

D, C = 16, 4  # features, classes


class Pairs(Dataset):
    "(x, y) pairs from two tensors."
    def __init__(self, x, y): self.x, self.y = x, y
    def __len__(self): return len(self.x)
    def __getitem__(self, i): return self.x[i], self.y[i]


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(D, C, generator=torch.Generator().manual_seed(1234))  # one fixed rule, learnable
    x = torch.randn(n, D, generator=g)
    return x, (x @ w).argmax(1)


def _mlp(): return nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, C))


def tiny(n_train:int=256, n_valid:int=64, hook:bool=True, float_targets:bool=False, bad_index:int|None=None,
         bad_value:int=C)->Task:
    "A learnable 4-class problem on 16 random features. Options break the targets on purpose."
    xt, yt = _data(n_train, 0)
    xv, yv = _data(n_valid, 1)
    if bad_index is not None: yt = yt.clone(); yt[bad_index] = bad_value
    if float_targets: yt, yv = yt.float(), yv.float()
    sets = dict(train=yt, valid=yv)
    return Task(model=_mlp, train=Pairs(xt, yt), valid=Pairs(xv, yv), num_classes=C,
                targets=(lambda split: sets[split]) if hook else None, name='tiny')


def renamed()->Task:
    "tiny, with a Task.name of its own that is not safe for a path as it is."
    t = tiny(); t.name = 'my model/v2'; return t

def empty()->Task:
    "A task whose training set has no samples."
    t = tiny()
    t.train = Pairs(torch.zeros(0, D), torch.zeros(0, dtype=torch.long))
    return t


# ---------------------------------------------------------------- models that fail on purpose
class NaNFrom(nn.Module):
    "An MLP whose output becomes NaN from its `k`-th training forward on (0-based): with accum=1, from step k+1."
    def __init__(self, k:int):
        super().__init__(); self.net, self.k, self.calls = _mlp(), k, 0
    def forward(self, x):
        out = self.net(x)
        if self.training:
            if self.calls >= self.k: out = out * float('nan')
            self.calls += 1
        return out


def nan_from(k:int=0, **kw)->Task:
    "The tiny task with a model whose loss is NaN from training forward `k` on (k=0: NaN at the first step)."
    t = tiny(**kw)
    t.model = lambda: NaNFrom(k)
    return t


class OOMModel(nn.Module):
    "A model whose forward raises the CUDA out-of-memory error (as a real GPU would), even on a CPU build."
    def __init__(self): super().__init__(); self.net = _mlp()
    def forward(self, x):
        raise torch.cuda.OutOfMemoryError('CUDA out of memory. Tried to allocate 20.00 GiB (simulated by tasks_for_tests)')


def oom()->Task:
    t = tiny()
    t.model = OOMModel
    return t


class BoomAt(nn.Module):
    "An MLP whose training forward number `k` (0-based) raises ValueError: a run that fails after its first epochs were logged."
    def __init__(self, k:int):
        super().__init__(); self.net, self.k, self.calls = _mlp(), k, 0
    def forward(self, x):
        if self.training:
            if self.calls == self.k: raise ValueError(f'boom at training forward {self.k}')
            self.calls += 1
        return self.net(x)


def boom_at(k:int=6)->Task:
    "The tiny task with a model that raises at training forward `k`."
    t = tiny()
    t.model = lambda: BoomAt(k)
    return t


class _InfGrad(torch.autograd.Function):
    "Identity forward; backward returns an infinite gradient when `poison` is set."
    @staticmethod
    def forward(ctx, x, poison):
        ctx.poison = poison
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return (g * float('inf') if ctx.poison else g), None


class InfGradAt(nn.Module):
    "An MLP whose gradients are infinite on training forward number `k` (0-based) only; the loss stays finite."
    def __init__(self, k:int):
        super().__init__(); self.net, self.k, self.calls = _mlp(), k, 0
    def forward(self, x):
        out = self.net(x)
        if self.training:
            out = _InfGrad.apply(out, self.calls == self.k)
            self.calls += 1
        return out


def inf_grad_at(k:int=3)->Task:
    t = tiny()
    t.model = lambda: InfGradAt(k)
    return t


# ---------------------------------------------------------------- a Hugging-Face-style task
class DictPairs(Pairs):
    def __getitem__(self, i): return {'input': self.x[i], 'labels': self.y[i]}


@dataclass
class Output:
    "What a Hugging Face model returns: an object with `.logits` (and more)."
    logits: torch.Tensor
    hidden: torch.Tensor | None = None


class HFStyleModel(nn.Module):
    def __init__(self): super().__init__(); self.body, self.head = nn.Sequential(nn.Linear(D, 32), nn.ReLU()), nn.Linear(32, C)
    def forward(self, input):  # keyword name as in the batch dict
        h = self.body(input)
        return Output(logits=self.head(h), hidden=h)


def hf_style()->Task:
    xt, yt = _data(256, 0); xv, yv = _data(64, 1)
    return Task(model=HFStyleModel, train=DictPairs(xt, yt), valid=DictPairs(xv, yv), num_classes=C,
                forward=ntrain.hf_forward, name='hf_style')


# ---------------------------------------------------------------- a token-level task for loss_norm=items
T, V, PAD = 6, 5, -100  # sequence length, vocabulary (classes), ignored target


class Tokens(Dataset):
    "Sequences of T tokens with a variable number of real targets (the rest are PAD): per-sample item counts differ."
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, T, D, generator=g)
        self.y = (self.x[..., :V]).argmax(-1)
        lengths = torch.randint(1, T + 1, (n,), generator=g)
        self.y[torch.arange(T)[None, :] >= lengths[:, None]] = PAD
    def __len__(self): return len(self.x)
    def __getitem__(self, i): return self.x[i], self.y[i]


def token_sum_loss(preds, target):
    "Cross-entropy summed over the real tokens (PAD ignored): with loss_norm=items ntrain divides by the item count."
    return F.cross_entropy(preds.reshape(-1, V).float(), target.reshape(-1), ignore_index=PAD, reduction='sum')


def count_tokens(batch): return int((batch[1] != PAD).sum())


def tokens(n_train:int=256, n_valid:int=64)->Task:
    return Task(model=lambda: nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, V)),
                train=Tokens(n_train, 0), valid=Tokens(n_valid, 1), loss=token_sum_loss, metrics=[],
                count_items=count_tokens, name='tokens')


def tokens_ce(n_train:int=256, n_valid:int=64)->Task:
    "Token classification the Hugging Face way: nn.CrossEntropyLoss(ignore_index=-100) and num_classes set."
    class CE(nn.CrossEntropyLoss):
        def forward(self, p, t): return super().forward(p.reshape(-1, V), t.reshape(-1))
    return Task(model=lambda: nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, V)),
                train=Tokens(n_train, 0), valid=Tokens(n_valid, 1), loss=CE(ignore_index=PAD), metrics=[],
                num_classes=V, name='tokens_ce')


def grads_after_one_step(cfg, task=None)->dict:
    "Gradients of the first optimizer step of `cfg`: the optimizer's step and zero_grad are skipped."
    t = ntrain.Trainer(cfg, task=task, quiet=True).setup()
    t.train_sampler.set_epoch(0)
    it = iter(t.train_loader)
    window = [next(it) for _ in range(t.accum)]
    t.optimizer.step = lambda *a, **k: None  # keep the gradients
    t.optimizer.zero_grad = lambda *a, **k: None
    t.train_window(window)
    return {n: p.grad.clone() for n, p in t.model.named_parameters()}


class _Spare(nn.Module):
    "tiny's MLP with a layer built but never used in forward: DDP finds no gradient for it."
    def __init__(self):
        super().__init__(); self.net, self.spare = _mlp(), nn.Linear(D, C)
    def forward(self, x): return self.net(x)


def spare()->Task:
    "tiny with a parameter unused in forward (`spare.weight`, `spare.bias`)."
    t = tiny(); t.model = _Spare; t.name = 'spare'; return t
