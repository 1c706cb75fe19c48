"""Rung 1's (and rung 2's) looks at what users get wrong before training (issue 33, parts 3 and 4), over seeds, by hand:

    OMP_NUM_THREADS=1 nice -n 10 python bench/rung1_checks.py [SEEDS] [OUT.json]

Each bug class has broken programs (the cause must be named: a miss counts against detection) and fixed or healthy
ones (the cause must not be named: a false alarm), in a plain-model shape and a Hugging Face-style one (dict batches, a
model called with keywords returning an output object) where the class allows, and for unused parameters a real
2-process gloo run under `ntrain launch` (its one failure line must name the parameters and the key; with the key set
the run must finish). The healthy gallery (digits, the gallery's dropout, `USER_TASKS`, the tasks of `RUNG4_ROWS`: their labels broken only for rung 4) runs rungs 1 and 2 with 2 workers: none of the
four causes may be named. The factory's time is reported, not judged: a factory that initialises its weights twice
against one that does it once. Writes every run's verdict and causes to OUT (default bench/results/rung1_checks.json)
and prints the table for bench/RESULTS.md."""
import json, os, re, subprocess, sys, tempfile, time, statistics
from pathlib import Path
import numpy as np
import torch
from torch import nn
from torch.utils.data import Dataset
torch.set_num_threads(1)
import ntrain
from ntrain.data import Task
from ntrain.examples import digits
from ntrain.ladder.kernel import bench
from ntrain.ladder.one_step import rung1
from ntrain.ladder.init_loss import rung2
from ntrain.ladder.user_tasks import USER_TASKS, RUNG4_ROWS, DictModel, ClassifierOutput, D, C
from ntrain.ladder.gallery import dropout

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
OUT = sys.argv[2] if len(sys.argv) > 2 else str(ROOT/'bench/results/rung1_checks.json')
TMP = Path(tempfile.mkdtemp(prefix='rung1-checks-'))

def _rule(n, seed):
    w = torch.randn(D, C, generator=torch.Generator().manual_seed(1234))
    x = torch.randn(n, D, generator=torch.Generator().manual_seed(seed))
    return x, (x @ w).argmax(1)

# --- datasets: where the augmentation's randomness comes from --------------------------------------------------------
class Aug(Dataset):
    "The 4-class problem with noise added to the features: `rng` says where the noise comes from; `hf`: dict samples."
    def __init__(self, n, seed, rng='none', hf=False, labels=None):
        self.x, self.y = _rule(n, seed); self.kind, self.hf, self.labels = rng, hf, labels
        self.rs = np.random.RandomState(seed); self.gen = np.random.default_rng(seed)
        import random; self.pyr = random.Random(seed)
    def __len__(self): return len(self.x)
    def noise(self):
        k = self.kind
        if k == 'none': return torch.zeros(D)
        if k == 'RandomState': return torch.from_numpy(self.rs.randn(D)).float()
        if k == 'Generator': return torch.from_numpy(self.gen.standard_normal(D)).float()
        if k == 'random.Random': return torch.tensor([self.pyr.gauss(0, 1) for _ in range(D)])
        if k == 'sample_rng': return torch.randn(D, generator=ntrain.sample_rng())
        if k == 'torch global': return torch.randn(D)
        if k == 'numpy global': return torch.from_numpy(np.random.randn(D)).float()
        raise ValueError(k)
    def __getitem__(self, i):
        x, y = self.x[i] + 0.1 * self.noise(), self.y[i]
        if self.labels is not None: y = self.labels[int(y)]
        return {'features': x, 'labels': y} if self.hf else (x, y)

def _mlp(): return nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, C))

def task(seed, rng='none', hf=False, model=None, labels=None, **kw):
    tr, va = Aug(512, seed, rng, hf, labels), Aug(128, seed + 1, 'none', hf, labels)
    return Task(model=model or (DictModel if hf else _mlp), train=tr, valid=va, num_classes=C, **kw)

# --- models --------------------------------------------------------------------------------------------------------
class Spare(nn.Module):
    "An MLP with a layer built but never used in forward."
    def __init__(self): super().__init__(); self.net, self.spare = _mlp(), nn.Linear(D, C)
    def forward(self, x): return self.net(x)

class DictSpare(DictModel):
    "The HF-style model with a pooler it never calls (as a checkpoint's unused head)."
    def __init__(self): super().__init__(); self.pooler = nn.Linear(32, 32)

def sn_digits(fixed=False, api='hook'):
    "A spectral-norm MLP on digits; `fixed`: the factory runs one training-mode forward; api='parametrize': the new API."
    sn = nn.utils.spectral_norm if api == 'hook' else nn.utils.parametrizations.spectral_norm
    def make():
        m = nn.Sequential(nn.Flatten(), sn(nn.Linear(64, 64)), nn.ReLU(), sn(nn.Linear(64, 10)))
        if fixed:
            with torch.no_grad(): m.train()(torch.zeros(1, 1, 8, 8))
        return m
    return make

class SNDict(DictModel):
    "The HF-style model with spectral norm on its layers."
    def __init__(self, fixed=False):
        super().__init__(); self.body[0] = nn.utils.spectral_norm(nn.Linear(D, 32)); self.head = nn.utils.spectral_norm(nn.Linear(32, C))
        if fixed:
            with torch.no_grad(): self.train()(features=torch.zeros(1, D))

def bn_big():
    m = nn.Sequential(nn.Flatten(), nn.Linear(64, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 10))
    with torch.no_grad(): m[-1].weight.mul_(30)
    return m

class Wide(nn.Module):
    "Eight 512-wide layers initialised orthogonally (a QR each); `twice`: the initialisation runs again, as a library's post_init may repeat the constructor's."
    def __init__(self, twice=False):
        super().__init__(); self.layers = nn.Sequential(*[nn.Linear(512, 512) for _ in range(8)], nn.Linear(512, C))
        for _ in range(2 if twice else 1):
            for m in self.layers: nn.init.orthogonal_(m.weight)
    def forward(self, x): return self.layers(torch.nn.functional.pad(x, (0, 512 - D)))

def with_digits(model, seed):
    d = digits(); return Task(model=model, train=d.train, valid=d.valid, num_classes=10)

STR = ['bird', 'cat', 'dog', 'fish']

# case: (class, shape, broken?, cause, task of a seed, rung, overrides)
W2 = ['num_workers=2']
CASES = [
    ('worker_rng', 'plain', True, 'worker_rng', lambda s: task(s, 'RandomState'), 1, W2),
    ('worker_rng', 'plain (random.Random)', True, 'worker_rng', lambda s: task(s, 'random.Random'), 1, W2),
    ('worker_rng', 'hf (numpy Generator)', True, 'worker_rng', lambda s: task(s, 'Generator', hf=True), 1, W2),
    ('worker_rng', 'plain fixed: sample_rng', False, 'worker_rng', lambda s: task(s, 'sample_rng'), 1, W2),
    ('worker_rng', 'plain: torch global RNG', False, 'worker_rng', lambda s: task(s, 'torch global'), 1, W2),
    ('worker_rng', 'plain: numpy global RNG', False, 'worker_rng', lambda s: task(s, 'numpy global'), 1, W2),
    ('worker_rng', 'plain: no randomness', False, 'worker_rng', lambda s: task(s, 'none'), 1, W2),
    ('worker_rng', 'hf fixed: sample_rng', False, 'worker_rng', lambda s: task(s, 'sample_rng', hf=True), 1, W2),
    ('unused_params', 'plain', True, 'unused_params', lambda s: task(s, model=Spare), 1, []),
    ('unused_params', 'hf', True, 'unused_params', lambda s: task(s, hf=True, model=DictSpare), 1, []),
    ('unused_params', 'plain fixed', False, 'unused_params', lambda s: task(s), 1, []),
    ('unused_params', 'hf fixed', False, 'unused_params', lambda s: task(s, hf=True), 1, []),
    ('string_labels', 'plain', True, 'string_labels', lambda s: task(s, labels=STR), 1, []),
    ('string_labels', 'hf', True, 'string_labels', lambda s: task(s, hf=True, labels=STR), 1, []),
    ('string_labels', 'plain fixed', False, 'string_labels', lambda s: task(s, labels=[0, 1, 2, 3]), 1, []),
    ('string_labels', 'hf fixed', False, 'string_labels', lambda s: task(s, hf=True, labels=[0, 1, 2, 3]), 1, []),
    ('eval_state', 'plain (digits, spectral_norm)', True, 'eval_state', lambda s: with_digits(sn_digits(), s), 2, []),
    ('eval_state', 'hf (spectral_norm)', True, 'eval_state', lambda s: task(s, model=SNDict), 2, []),
    ('eval_state', 'plain fixed: a training-mode forward', False, 'eval_state', lambda s: with_digits(sn_digits(True), s), 2, []),
    ('eval_state', 'plain: parametrizations.spectral_norm', False, 'eval_state', lambda s: with_digits(sn_digits(api='p'), s), 2, []),
    ('eval_state', 'hf fixed', False, 'eval_state', lambda s: task(s, model=lambda: SNDict(True)), 2, []),
    ('eval_state', 'BatchNorm, last layer x30 (off for another cause)', False, 'eval_state', lambda s: with_digits(bn_big, s), 2, []),
]
OURS = ('worker_rng', 'unused_params', 'string_labels', 'eval_state')

def run_case(make, rung, over, seed, name, config='digits'):
    b = bench(config, overrides=[f'seed={seed}', *over], task=make(seed), run_dir=TMP/f'{name}-{seed}')
    t0 = time.perf_counter()
    r = (rung1 if rung == 1 else rung2)(b)
    return dict(verdict=r.verdict, causes=r.causes, seconds=round(time.perf_counter() - t0, 3),
                first_line=r.diagnosis.splitlines()[0] if r.diagnosis else '', numbers={k: v for k, v in r.numbers.items() if k.endswith('seconds')})

def launch(seed, key:bool):
    rd = TMP/f'launch-{seed}-{key}'
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT/'tests')]), OMP_NUM_THREADS='1', NTRAIN_DIST_TIMEOUT='60')
    cmd = [sys.executable, '-m', 'ntrain', 'launch', 'digits', 'task=tasks_for_tests:spare', 'num_workers=0', 'epochs=1', 'progress=false',
           f'seed={seed}', f'run_dir={rd}', *(['ddp.find_unused_parameters=true'] if key else []), '--nproc', '2']
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    last = [l for l in p.stderr.splitlines() if l.startswith('ntrain: error: the run ended')]
    return dict(exit=p.returncode, line=last[-1] if last else '', seconds=round(time.perf_counter() - t0, 1))

def main():
    rows, out = [], dict(seeds=list(SEEDS), cases=[], launch=[], healthy=[], factory=[])
    for cls, shape, broken, cause, make, rung, over in CASES:
        runs = [run_case(make, rung, over, s, f'{cls}-{len(rows)}') for s in SEEDS]
        named = [cause in r['causes'] for r in runs]
        first = [bool(r['causes']) and r['causes'][0] == cause for r in runs] if cls == 'string_labels' else named
        out['cases'].append(dict(cls=cls, shape=shape, broken=broken, rung=rung, runs=runs))
        rows.append((cls, shape, 'broken' if broken else 'fixed', f'rung {rung}', f'{sum(first if broken else named)}/{len(runs)}'))
        print(rows[-1], [r['causes'] for r in runs], flush=True)
    for key in (False, True):
        runs = [launch(s, key) for s in SEEDS]
        ok = [(r['exit'] == 0) if key else (r['exit'] == 1 and 'spare.weight' in r['line'] and 'ddp.find_unused_parameters=true' in r['line']) for r in runs]
        out['launch'].append(dict(key=key, runs=runs))
        rows.append(('unused_params', '2-process launch' + (' with ddp.find_unused_parameters=true' if key else ''), 'fixed' if key else 'broken',
                     'ntrain launch', f"{sum(ok) if not key else sum(not o for o in ok)}/{len(runs)}"))
        print(rows[-1], runs[0]['line'][:300], flush=True)
    gallery = [(name, lambda s, make=make: make(), 'digits', keys) for name, (make, keys) in [('digits', (digits, {})), ('dropout', (dropout, {})), *USER_TASKS.items()]]
    gallery += [(f'rung4 row {name}', of_seed, base or None, {}) for name, (of_seed, base, _, _) in RUNG4_ROWS.items() if name not in ('digits', 'regression')]
    for name, make, config, keys in gallery:
        over = ['num_workers=2', *[f'{k}={v}' for k, v in keys.items()]]
        runs = [dict(r1=run_case(make, 1, over, s, f'h-{name}', config), r2=run_case(make, 2, over, s, f'h2-{name}', config)) for s in SEEDS]
        alarms = sum(any(c in OURS for c in r['r1']['causes'] + r['r2']['causes']) for r in runs)
        out['healthy'].append(dict(task=name, runs=runs))
        rows.append(('healthy', name, 'healthy', 'rungs 1, 2', f'{alarms}/{len(runs)}'))
        print(rows[-1], flush=True)
    run_case(lambda s: task(s, model=Wide), 1, [], 0, 'wide-warm')  # warm-up: the first factory pays for imports
    for twice in (False, True):
        runs = [run_case(lambda s: task(s, model=lambda: Wide(twice)), 1, [], s, f'wide-{twice}') for s in SEEDS]
        out['factory'].append(dict(twice=twice, runs=runs))
    f = [statistics.median(r['numbers']['factory_seconds'] for r in x['runs']) for x in out['factory']]
    st = [statistics.median(r['numbers']['step_seconds'] for r in x['runs']) for x in out['factory']]
    Path(OUT).parent.mkdir(parents=True, exist_ok=True); Path(OUT).write_text(json.dumps(out, indent=1))
    print('\n| class | program | kind | judged by | named (broken: detection; fixed/healthy: false alarms) |\n|---|---|---|---|---|')
    for r in rows: print('| ' + ' | '.join(r) + ' |')
    print(f'\nfactory time (median of {len(SEEDS)}): once {f[0]:.4f} s, twice {f[1]:.4f} s ({f[1] / f[0]:.2f} x); the step {st[0]:.4f} s / {st[1]:.4f} s')

if __name__ == '__main__': main()
