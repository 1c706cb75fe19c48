"""The in-run checks' own cost (issue 33): `Trainer.checks.seconds` (the checks time themselves) over the training steps' time.

Run by hand (not a test), from the repository root:

    OMP_NUM_THREADS=1 PYTHONPATH=. python bench/checks_cost.py                       # 1 process: digits' CNN and a wider MLP
    OMP_NUM_THREADS=1 PYTHONPATH=. python -m torch.distributed.run --nproc-per-node 2 bench/checks_cost.py --ddp   # 2 processes, gloo

Each run drives `Trainer` through its public stepwise API (`open`, `train_batches`/`train_step`, `validate`,
`end_epoch`, `close`) with the default periods (`not_updating` once, `no_grad_params` over the first 20 steps,
`ranks_diverged` every 100 steps and at each epoch's end under DDP). The figure is checks.seconds / the summed wall
time of `train_step` calls. The numerator also holds the blocking rank comparison at each epoch's end, which runs
outside `train_step` (and includes the wait for the slower rank): the ratio errs high. Wall-clock A/B on a shared
2-core machine is too noisy for effects of this size; this measures the checks directly.
Writes bench/results/checks_cost.json (or checks_cost_ddp.json), rank 0.
"""
from __future__ import annotations
import argparse, json, os, platform, sys, tempfile, time
from pathlib import Path
import torch
from torch import nn
from torch.utils.data import TensorDataset

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from ntrain.config import Config
from ntrain.data import Task
from ntrain.engine.trainer import Trainer
from ntrain.examples import digits


def wide_mlp_task(n=8192, d=256, c=10, seed=0)->Task:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g); y = (x[:, :c]).argmax(1)
    mk = lambda: nn.Sequential(nn.Linear(d, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, c))
    return Task(model=mk, train=TensorDataset(x, y), valid=TensorDataset(x[:1024], y[:1024]), num_classes=c, name='wide_mlp')


def measure(name, task, cfg)->dict:
    with tempfile.TemporaryDirectory() as d:
        rd = Path(d)/'run'
        if 'RANK' in os.environ:  # every rank the same directory (rank 0's)
            rd = Path(os.environ.get('CHECKS_COST_DIR', '/tmp/checks_cost'))/os.environ.get('TORCHELASTIC_RUN_ID', 'run')/name  # (fresh per launch)
        tr = Trainer(cfg, task=task, run_dir=rd, quiet=True, force=True).open()
        step_s, steps = 0.0, 0
        while tr.epoch < cfg.epochs:
            for w in tr.train_batches():
                t0 = time.perf_counter(); tr.train_step(w); step_s += time.perf_counter() - t0; steps += 1
                if tr.step % cfg.log_every == 0: tr.emit(tr.step_record())
            tr.end_epoch(tr.validate())
        tr.close(report=False)
        ch = tr.checks
        return dict(task=name, steps=steps, step_ms=1e3 * step_s / steps, checks_ms_total=1e3 * ch.seconds,
                    checks_share=ch.seconds / step_s, world=tr.world, every=ch.EVERY, no_grad_steps=ch.NO_GRAD_STEPS,
                    replicated=len(ch.replicated))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ddp', action='store_true'); ap.add_argument('--epochs', type=int, default=4)
    a = ap.parse_args()
    torch.set_num_threads(1)
    base = dict(num_workers=0, progress=False, log_every=25, epochs=a.epochs, seed=0)
    rows = [measure('digits_cnn', digits(), Config(batch_size=64, **base)),
            measure('wide_mlp', wide_mlp_task(), Config(batch_size=64, **base))]
    if int(os.environ.get('RANK', 0)) == 0:
        out = ROOT/'bench'/'results'/('checks_cost_ddp.json' if a.ddp else 'checks_cost.json')
        out.write_text(json.dumps(dict(rows=rows, torch=torch.__version__, host=platform.node(), time=time.time(),
                                       command=' '.join(sys.argv)), indent=1) + '\n')
        for r in rows:
            print(f"{r['task']:12s} world {r['world']}  {r['steps']} steps  step {r['step_ms']:.2f} ms  checks {r['checks_ms_total']:.2f} ms in all "
                  f"= {100 * r['checks_share']:.3f}% of the step time")


if __name__ == '__main__':
    main()
