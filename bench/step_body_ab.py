"""The step body alone, ms per optimizer step on one digits batch (no data loading), in this process: `train_window`
and `train_step` (run by hand; for a before/after, run it with each checkout on PYTHONPATH, alternating):

    for s in ../before . ../before .; do OMP_NUM_THREADS=1 PYTHONPATH=$s python bench/step_body_ab.py 10; done

A checkout from before the stepwise API (no `Trainer.open`) is opened the way `fit` opened it then.
"""
import sys, time, statistics, tempfile, torch
from pathlib import Path
torch.set_num_threads(1)
import ntrain
from ntrain.engine.trainer import Trainer
cfg = ntrain.load_config('digits', ['epochs=2', 'num_workers=0', 'progress=false', 'early_stop.patience=null'])
d = tempfile.mkdtemp()
t = Trainer(cfg, run_dir=Path(d)/'run', quiet=True)
t = t.open() if hasattr(t, 'open') else (t._setup_process(), t._claim_run_dir(), t.setup(), t._open_run(), t)[-1]
t.train_sampler.set_epoch(0)
window = [next(iter(t.train_loader))]
t.scheduler.total_steps = 10**9
t.epoch += 1
fns = dict(window=lambda: t.train_window(window))
if hasattr(t, 'train_step'): fns['step'] = lambda: t.train_step(window)
res = {k: [] for k in fns}
for r in range(int(sys.argv[1]) if len(sys.argv) > 1 else 15):
    for k, f in fns.items():
        t0 = time.perf_counter()
        for _ in range(20): f()
        t.flush()
        res[k].append((time.perf_counter() - t0) / 20 * 1e3)
print({k: round(statistics.median(v), 3) for k, v in res.items()})
