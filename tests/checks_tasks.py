"""Tasks for tests/test_checks.py and bench/silent_bugs.py, importable by torchrun's ranks as `checks_tasks:NAME`
(tests/ on PYTHONPATH): tiny models that are silently wrong in one way each, and their fixed twins."""
from __future__ import annotations
import os
import torch
from torch import nn
from tasks_for_tests import tiny, D, C


class Drifts(nn.Module):
    "An MLP that nudges its last bias in place on one rank only, from its `k`-th training forward: the ranks drift apart."
    def __init__(self, k:int=3, rank:int=1, fixed:bool=False):
        super().__init__(); self.net = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, C)); self.k, self.rank, self.fixed, self.calls = k, rank, fixed, 0
    def forward(self, x):
        if self.training:
            self.calls += 1
            if self.calls >= self.k and (self.fixed or int(os.environ.get('RANK', 0)) == self.rank):  # fixed: every rank alike
                with torch.no_grad(): self.net[2].bias.add_(1e-3)
        return self.net(x)


def drift(k:int=3, fixed:bool=False, **kw):
    "The tiny task with a model whose rank 1 changes a parameter the other ranks do not (fixed: every rank does it alike)."
    t = tiny(**kw); t.model = lambda: Drifts(k, fixed=fixed); t.name = 'drift'
    return t


class LazyHead(nn.Module):
    "A body made in __init__ and a head made at the first forward, after the optimizer was built (fixed: made in __init__)."
    def __init__(self, fixed:bool=False):
        super().__init__(); self.body = nn.Sequential(nn.Linear(D, 32), nn.ReLU()); self.head = nn.Linear(32, C) if fixed else None
    def forward(self, x):
        if self.head is None: self.head = nn.Linear(32, C).to(x.device)
        return self.head(self.body(x))


def lazy_head(fixed:bool=False, **kw):
    t = tiny(**kw); t.model = lambda: LazyHead(fixed); t.name = 'lazy_head'
    return t


class Detached(nn.Module):
    "A two-stage MLP whose first stage is cut from the loss by a `detach()` (fixed: no detach)."
    def __init__(self, fixed:bool=False):
        super().__init__(); self.stem, self.head, self.fixed = nn.Sequential(nn.Linear(D, 32), nn.ReLU()), nn.Linear(32, C), fixed
    def forward(self, x):
        h = self.stem(x)
        return self.head(h if self.fixed else h.detach())


def detached(fixed:bool=False, **kw):
    t = tiny(**kw); t.model = lambda: Detached(fixed); t.name = 'detached'
    return t


class DropPath(nn.Module):
    "A residual branch dropped whole on about half the training steps (batch-level drop-path): healthy, must not alarm."
    def __init__(self):
        super().__init__(); self.stem, self.branch, self.head = nn.Linear(D, 32), nn.Linear(32, 32), nn.Linear(32, C)
    def forward(self, x):
        h = torch.relu(self.stem(x))
        if not self.training or torch.rand(()) < 0.5: h = h + torch.relu(self.branch(h))
        return self.head(h)


def drop_path(**kw):
    t = tiny(**kw); t.model = DropPath; t.name = 'drop_path'
    return t
