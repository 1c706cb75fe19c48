"""Checkpoint saves and loads of one and the same state: ntrain against a bare torch.save/torch.load, against
Lightning's checkpoint IO and against Accelerate's saves. Run by hand (bench/e2e.py runs it in its `ckpt` section):

    OMP_NUM_THREADS=1 python bench/ckpt_compare.py --reps 20        # writes bench/results/ckpt_compare.json

The state is what ntrain writes: `ckpt/last.pt` of a short `ntrain.fit` (3 optimizer steps, so AdamW has its
moments), loaded back as plain data: the digits CNN (about 0.7 MB) and bench_tasks' MLP (width 1024, depth 4,
about 39 MB). Every way below saves that dict (or, for Accelerate's save_state, objects holding exactly it), to
the same filesystem (--dir, default a temporary directory), in rotating order, `--reps` rounds after 2 warm-up
rounds; figures are medians with the IQR of per-round ratios to `bare`.

Saves:
  ntrain_sync        ntrain.engine.checkpoint.save(state, last.pt, rotate_to=prev.pt): plain-data check, sha256, temporary
                     file, fsync, manifest, rotation, rename, directory fsync (what ckpt_async=false does in the loop)
  ntrain_blocking    Saver(background=True).submit(...): what the training loop waits for (check and copy of the state)
  ntrain_durable     the same background save until it is on disk (submit, then wait)
  bare               torch.save to a file, flush, fsync (no temporary file, no rename)
  bare_atomic        bench/reference_fit.py's save: temporary file, fsync, os.replace, directory fsync
  lightning          lightning_fabric TorchCheckpointIO.save_checkpoint (what ModelCheckpoint calls): torch.save
                     to memory, then one write through fsspec; no fsync
  accelerate         Accelerator.save(state, path): torch.save on the main process; no fsync
  accelerate_state   Accelerator.save_state(dir) of the prepared model, optimizer and scheduler holding the same
                     state: model.safetensors, optimizer.bin, scheduler.bin, random_states_0.pkl; no fsync
Loads (of the file each wrote):
  ntrain_load        ntrain.engine.checkpoint.load: sha256 against the manifest, then torch.load(weights_only=True)
  bare_load          torch.load(weights_only=True)
  lightning_load     TorchCheckpointIO.load_checkpoint
  accelerate_state_load   Accelerator.load_state(dir) into the prepared objects
"""
import argparse, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT/'bench'
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(BENCH))
import ntrain
from ntrain.engine import checkpoint as ckpt
from reference_fit import atomic_save, DigitsCNN, MLP


def quartiles(xs):
    xs = list(xs)
    if len(xs) == 1: return dict(median=xs[0], q1=xs[0], q3=xs[0], iqr=0.0, n=1)
    q = statistics.quantiles(xs, n=4, method='inclusive')
    return dict(median=statistics.median(xs), q1=q[0], q3=q[2], iqr=q[2] - q[0], n=len(xs))


def ntrain_state(kind:str, d:Path)->dict:
    "The state ntrain writes after 3 optimizer steps, as plain data."
    task = None
    if kind == 'mlp':
        from bench_tasks import mlp
        task = mlp()
    res = ntrain.fit('digits', task=task, run_dir=d/f'fit-{kind}', quiet=True, epochs=1, max_steps=3, num_workers=0)
    return ckpt.load(Path(res.run_dir)/'ckpt'/'last.pt')


def bare_save(state, path):
    with open(path, 'wb') as f:
        torch.save(state, f); f.flush(); os.fsync(f.fileno())


def compare(kind:str, state:dict, d:Path, reps:int, log=print)->dict:
    from lightning_fabric.plugins.io.torch_io import TorchCheckpointIO
    from accelerate import Accelerator
    d.mkdir(parents=True, exist_ok=True)
    model = DigitsCNN() if kind == 'cnn' else MLP()
    model.load_state_dict(state['model'])
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01); opt.load_state_dict(state['optimizer'])
    sch = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=state['scheduler']['total_steps'])
    sch.load_state_dict(state['scheduler'])
    acc = Accelerator(cpu=True)
    pm, po, ps = acc.prepare(model, opt, sch)
    pio = TorchCheckpointIO()
    saver = ckpt.Saver(background=True)
    t = {}
    def timed(name, fn):
        t0 = time.perf_counter(); fn(); t.setdefault(name, []).append(time.perf_counter() - t0)
    def background():
        t0 = time.perf_counter(); saver.submit(state, dict(path=d/'bg.pt', rotate_to=d/'bg-prev.pt'))
        t1 = time.perf_counter(); saver.wait(); t2 = time.perf_counter()
        t.setdefault('ntrain_blocking', []).append(t1 - t0); t.setdefault('ntrain_durable', []).append(t2 - t0)
    ops = [
        lambda: timed('ntrain_sync', lambda: ckpt.save(state, d/'last.pt', rotate_to=d/'prev.pt')),
        background,
        lambda: timed('bare', lambda: bare_save(state, d/'bare.pt')),
        lambda: timed('bare_atomic', lambda: atomic_save(state, str(d/'atomic.pt'))),
        lambda: timed('lightning', lambda: pio.save_checkpoint(state, d/'pl.ckpt')),
        lambda: timed('accelerate', lambda: acc.save(state, d/'acc.pt')),
        lambda: timed('accelerate_state', lambda: acc.save_state(str(d/'acc-state'))),
        lambda: timed('ntrain_load', lambda: ckpt.load(d/'last.pt')),
        lambda: timed('bare_load', lambda: torch.load(d/'bare.pt', weights_only=True)),
        lambda: timed('lightning_load', lambda: pio.load_checkpoint(d/'pl.ckpt')),
        lambda: timed('accelerate_state_load', lambda: acc.load_state(str(d/'acc-state'))),
    ]
    for op in ops[:7]: op()  # the files exist before any load
    for i in range(reps + 2):
        if i == 2: t.clear()  # two warm-up rounds
        for j in range(len(ops)): ops[(i + j) % len(ops)]()
    saves = ['ntrain_sync', 'ntrain_blocking', 'ntrain_durable', 'bare_atomic', 'lightning', 'accelerate', 'accelerate_state']
    loads = ['ntrain_load', 'lightning_load', 'accelerate_state_load']
    n = len(t['bare'])
    out = dict(state=kind, state_bytes=(d/'bare.pt').stat().st_size, reps=n,
               seconds={k: quartiles(v) for k, v in t.items()},
               save_ratio_to_bare={k: quartiles([a / b for a, b in zip(t[k], t['bare'])]) for k in saves},
               load_ratio_to_bare={k: quartiles([a / b for a, b in zip(t[k], t['bare_load'])]) for k in loads},
               ntrain_durable_vs={k: quartiles([a / b for a, b in zip(t['ntrain_durable'], t[k])]) for k in ('lightning', 'accelerate', 'accelerate_state', 'bare_atomic')},
               ntrain_blocking_vs={k: quartiles([a / b for a, b in zip(t['ntrain_blocking'], t[k])]) for k in ('lightning', 'accelerate', 'accelerate_state')},
               ntrain_load_vs={k: quartiles([a / b for a, b in zip(t['ntrain_load'], t[k])]) for k in ('lightning_load', 'accelerate_state_load', 'bare_load')})
    s = out['seconds']
    log(f"  {kind} ({out['state_bytes']/1e6:.2f} MB): " + ', '.join(f"{k} {s[k]['median']*1e3:.2f} ms" for k in s))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--reps', type=int, default=20)
    p.add_argument('--states', nargs='+', default=['cnn', 'mlp'], choices=['cnn', 'mlp'])
    p.add_argument('--dir', default=None, help='where the files go (default: a temporary directory)')
    p.add_argument('--out', default=str(BENCH/'results'/'ckpt_compare.json'))
    a = p.parse_args(argv)
    torch.set_num_threads(int(os.environ.get('OMP_NUM_THREADS', torch.get_num_threads())))
    base = Path(a.dir) if a.dir else Path(tempfile.mkdtemp(prefix='ckpt-compare-'))
    try:
        from e2e import meta
        res = dict(bench='ckpt_compare', command='python bench/ckpt_compare.py ' + ' '.join(sys.argv[1:] if argv is None else argv),
                   when=time.strftime('%Y-%m-%d %H:%M:%S'), loadavg_start=os.getloadavg(), cpu_count=os.cpu_count(),
                   torch_threads=torch.get_num_threads(), dir_fs=subprocess.run(['stat', '-f', '-c', '%T', str(base)], capture_output=True, text=True).stdout.strip(),
                   **meta(), results=[])
        for kind in a.states:
            state = ntrain_state(kind, base)
            res['results'].append(compare(kind, state, base/kind, a.reps))
        res['loadavg_end'] = os.getloadavg()
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(res, indent=1))
        print(f'written {a.out}')
    finally:
        if not a.dir: shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    main()
