"""The speed check's gallery: CPU tasks built to have one known bottleneck each (bench/speed_gallery.py runs them).

    ntrain speed digits task=bench.speed_tasks:io_bound num_workers=0 batch_size=32     # data: a per-sample latency, as I/O
    ntrain speed digits task=bench.speed_tasks:wide_mlp num_workers=0                   # compute: a wide MLP
    ntrain speed digits task=bench.speed_tasks:small num_workers=0 batch_size=16        # none: a small, healthy task

Every task is in memory and small (`small` at batch 16: at batch 64 its main-process loading is a quarter of its step,
on the data row's threshold); each sample of `io_bound` waits `latency` seconds first (time.sleep, which holds no
core, as a read from disk or the network does), so DataLoader workers overlap the waits even with a hog on the other core.
"""
import time
import torch
from torch import nn
from torch.utils.data import Dataset
from ntrain.data import Task

C = 4  # classes


class Slow(Dataset):
    "(x, y) pairs from two tensors, each one after `latency` seconds of waiting (0: none)."
    def __init__(self, x, y, latency:float=0.0): self.x, self.y, self.latency = x, y, latency
    def __len__(self): return len(self.x)
    def __getitem__(self, i):
        if self.latency: time.sleep(self.latency)
        return self.x[i], self.y[i]


def _data(n:int, d:int, seed:int):
    "n samples of d random features, labelled by one fixed linear rule (learnable)."
    w = torch.randn(d, C, generator=torch.Generator().manual_seed(1234))
    x = torch.randn(n, d, generator=torch.Generator().manual_seed(seed))
    return x, (x @ w).argmax(1)


def _mlp(d:int, width:int, depth:int):
    layers, k = [], d
    for _ in range(depth): layers += [nn.Linear(k, width), nn.ReLU()]; k = width
    return nn.Sequential(*layers, nn.Linear(k, C))


def io_bound(latency:float=0.001, n_train:int=2048, n_valid:int=256, d:int=32)->Task:
    "Data-bound: a small MLP whose training samples each wait `latency` s (validation samples do not)."
    (xt, yt), (xv, yv) = _data(n_train, d, 0), _data(n_valid, d, 1)
    return Task(model=lambda: _mlp(d, 64, 1), train=Slow(xt, yt, latency), valid=Slow(xv, yv), num_classes=C, name='io_bound')


def wide_mlp(width:int=1024, depth:int=3, n_train:int=2048, n_valid:int=256, d:int=256)->Task:
    "Compute-bound: a wide MLP on in-memory samples; its matmuls run near the CPU's rate."
    (xt, yt), (xv, yv) = _data(n_train, d, 0), _data(n_valid, d, 1)
    return Task(model=lambda: _mlp(d, width, depth), train=Slow(xt, yt), valid=Slow(xv, yv), num_classes=C, name='wide_mlp')


def small(n_train:int=2048, n_valid:int=256, d:int=16)->Task:
    "Healthy and small: a two-layer MLP on in-memory samples; nothing in the Speed table applies."
    (xt, yt), (xv, yv) = _data(n_train, d, 0), _data(n_valid, d, 1)
    return Task(model=lambda: _mlp(d, 32, 1), train=Slow(xt, yt), valid=Slow(xv, yv), num_classes=C, name='small')
