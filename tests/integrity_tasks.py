"""Tasks and loggers for the integrity tests (tests/test_bad_inputs.py, tests/test_concurrency.py), named as
`task=integrity_tasks:NAME` (tests/ on PYTHONPATH). Each breaks one thing on purpose, and only while the environment
variable that names it is set, so that the resume of a failed run finishes."""
import os, signal, time
import torch
import ntrain
from tasks_for_tests import tiny, Pairs


class Faulty(Pairs):
    "Pairs whose sample `k` misbehaves while INTEGRITY_FAULT=how:k is set: raise, segv, kill, hang, nan, shape."
    def __getitem__(self, i):
        how, _, k = os.environ.get('INTEGRITY_FAULT', '').partition(':')
        if how and i == int(k):
            if how == 'raise': raise ValueError(f'cannot decode sample {i}')
            if how == 'segv': os.kill(os.getpid(), signal.SIGSEGV)
            if how == 'kill': os.kill(os.getpid(), signal.SIGKILL)
            if how == 'hang': time.sleep(3600)
            if how == 'nan': return torch.full_like(self.x[i], float('nan')), self.y[i]
            if how == 'shape': return torch.zeros(len(self.x[i]) + 3), self.y[i]  # one sample of another size: the batch cannot collate
        return self.x[i], self.y[i]


def faulty(**kw):
    "The tiny task (256 train samples, 4 classes) with a train set whose sample INTEGRITY_FAULT names misbehaves."
    t = tiny(hook=False, **kw)
    t.train = Faulty(t.train.x, t.train.y)
    return t


def slow(delay: float = 0.02, **kw):
    "The tiny task with a train set that takes `delay` s a sample: a run that lasts long enough to be raced."
    t = tiny(hook=False, **kw)
    class Slow(Pairs):
        def __getitem__(self, i):
            time.sleep(delay); return self.x[i], self.y[i]
    t.train = Slow(t.train.x, t.train.y)
    return t


def not_a_task():
    "A task function that returns something else."
    return {'model': None}


def two_arg_logger(run_dir, project):
    "A logger factory with the wrong signature (ntrain calls factory(run_dir))."
    raise AssertionError('never called')


def slow_tokens(delay: float = 0.01, **kw):
    "The padded token task (loss_norm=items) with a train set that takes `delay` s a sample: long enough to be signalled mid-run."
    from tasks_for_tests import tokens, Tokens
    t = tokens(**kw)
    class Slow(Tokens):
        def __getitem__(self, i):
            time.sleep(delay); return super().__getitem__(i)
    slow = Slow.__new__(Slow); slow.__dict__.update(t.train.__dict__)
    t.train = slow
    return t


def signal_after_finished(run_dir):
    "A logger that sends its own process SIGTERM, SIGINT twice and SIGHUP once the run's final record is out: nothing may change."
    def log(rec):
        if rec.get('kind') == 'finished':
            for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGINT): os.kill(os.getpid(), s); time.sleep(0.05)
    return log


def crash_on_rank(rank: int = 1, how: str = 'raise', **kw):
    "The tiny task with a train set that fails at the first sample on torchrun rank `rank`, on every start: a crash loop. `how`: raise, or exit (the process dies at once)."
    t = tiny(hook=False, **kw)
    class Crashing(Pairs):
        def __getitem__(self, i):
            if os.environ.get('RANK') == str(rank):
                if how == 'exit': os._exit(1)
                raise RuntimeError(f'rank {rank} cannot read sample {i}')
            return self.x[i], self.y[i]
    t.train = Crashing(t.train.x, t.train.y)
    return t


def frozen(**kw):
    "The tiny task with a model frozen whole (requires_grad=False everywhere): nothing can train."
    t = tiny(hook=False, **kw)
    make = t.model
    t.model = lambda: make().requires_grad_(False)
    return t


class Stream(torch.utils.data.IterableDataset):
    "The tiny pairs as an IterableDataset, with a len() when `sized`."
    def __init__(self, x, y, sized: bool): self.x, self.y, self.sized = x, y, sized
    def __iter__(self): return iter(zip(self.x, self.y))
    def __len__(self):
        if not self.sized: raise TypeError('no len')
        return len(self.x)


def stream(sized: bool = True, **kw):
    "The tiny task whose train set is an IterableDataset (set after the Task was made, as `fit` then sees it)."
    t = tiny(hook=False, **kw)
    t.train = Stream(t.train.x, t.train.y, sized)
    return t


def stream_task(sized: bool = False):
    "A Task made with an IterableDataset: refused when the Task is made."
    t = tiny(hook=False)
    return ntrain.Task(model=t.model, train=Stream(t.train.x, t.train.y, sized), valid=t.valid, num_classes=t.num_classes)


class Score(ntrain.Metric):
    "Accuracy under a name that says nothing of its direction, and no higher_is_better."
    name = 'score'
    def __init__(self):
        super().__init__(); self.add_state('ok', torch.zeros(())); self.add_state('n', torch.zeros(()))
    def update(self, preds, target): self.ok += (preds.argmax(-1) == target).sum(); self.n += target.numel()
    def compute(self): return {'score': (self.ok / self.n).item() if self.n > 0 else float('nan')}


def scored(**kw):
    "The tiny task whose only metric is `score`."
    t = tiny(hook=False, **kw)
    t.metrics = [Score()]
    return t


def grouped(short=False, **kw):
    "The tiny task with each sample's group declared (Task.groups): made-up ids of 4 samples each, numbered across both splits, so groups cross the split; `short`: one key missing from train."
    t = tiny(hook=False, **kw)
    n = dict(train=len(t.train), valid=len(t.valid))
    t.groups = lambda s: [i // 4 for i in range(n[s] - (short and s == 'train'))]
    return t
