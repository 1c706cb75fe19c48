"""ntrain's training loop against a bare copy of the reference loop of the training practice ntrain follows, on the digits CNN at batch 64.

Run by hand (not a test), from the repository root:

    PYTHONPATH=. python bench/loop_bench.py                       # 20 pairs, num_workers 0 and 1, both modes
    PYTHONPATH=. python bench/loop_bench.py --pairs 30 --workers 0 --modes train

One process on the CPU, torch.set_num_threads(--threads) on both sides. Each pair times ntrain and the bare loop
back to back, in alternating order (ntrain first in even pairs, bare first in odd ones), each on fresh objects
built outside the timed region, after one untimed warm-up epoch. The figure is the per-pair ratio
ntrain steps/s / bare steps/s: its median and interquartile range.

Modes (what the timed region holds, on both sides):
  train  the training epochs only (per-step overhead): ntrain's `Trainer.train_epoch()` plus the read-back of the
         epoch's pending losses (`flush`), against the reference loop's inner loop.
Both modes drive ntrain only through its public stepwise API: `Trainer.open()`, `train_epoch()` (`train_step` on
each window), `flush()`, `validate()`, `end_epoch()`, `close()`.
  full   each epoch as a real run does it: training, then validation, then checkpointing. ntrain: `train_epoch()` and
         `end_epoch(validate())` (epoch record to metrics.jsonl, best/last/prev checkpoints with sha256 manifest,
         status.json, rate-limited curves.png). Bare (`--bare-epoch-end reference`, the default): bench/reference_fit.py's
         epoch end: validation loss and accuracy, an epoch record appended to metrics.jsonl, and its `save_checkpoint`
         of last.pt (and best.pt when accuracy improved): torch.save of model/optimizer/scheduler/scaler/RNG state to a
         temporary file, fsync, os.replace, fsync of the directory, the durability the issue asks of the reference side.
         `--bare-epoch-end light` is the definition before 2026-11-30: the loss only, last.pt by os.replace, no fsync.
Same on both sides: ntrain.examples.digits() data split and Digits datasets (shift augmentation 1 on train),
DigitsCNN(32), AdamW lr 3e-3 wd 0.01, OneCycle pct_start 0.15 over the same total steps, clip_grad 1.0,
zero_grad(set_to_none=True), fp32, batch 64 drop_last shuffle, validation batch 128, the same num_workers,
persistent workers when num_workers > 0, no pinned memory.
"""
from __future__ import annotations
import argparse, json, math, os, platform, random, statistics, subprocess, sys, tempfile, time
from pathlib import Path
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import ntrain
from ntrain.examples import digits, DigitsCNN
from ntrain.engine.trainer import Trainer

BS, LR, WD, PCT, CLIP = 64, 3e-3, 0.01, 0.15, 1.0
EPOCH_END = 'reference'  # --bare-epoch-end


# ------------------------------------------------------------------ the bare loop (the reference loop)
def seed_all(seed:int) -> None:
    random.seed(seed); np.random.seed(seed); torch.manual_seed(seed); torch.cuda.manual_seed_all(seed)


class Bare:
    "The reference loop on the CPU, fp32, accum 1, built once per measurement."
    def __init__(self, epochs:int, num_workers:int, ckdir:Path):
        seed_all(0)
        task = digits()
        self.train_dl = DataLoader(task.train, batch_size=BS, shuffle=True, num_workers=num_workers,
                                   pin_memory=False, persistent_workers=num_workers > 0, drop_last=True)
        self.val_dl = DataLoader(task.valid, batch_size=2 * BS, num_workers=num_workers, pin_memory=False,
                                 persistent_workers=num_workers > 0)
        self.device = torch.device('cpu')
        self.model = DigitsCNN(32, 10).to(self.device)
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=LR, weight_decay=WD)
        self.accum = 1
        total_steps = math.ceil(len(self.train_dl) / self.accum) * epochs
        self.sched = torch.optim.lr_scheduler.OneCycleLR(self.opt, max_lr=LR, total_steps=total_steps, pct_start=PCT)
        self.scaler = torch.amp.GradScaler('cpu', enabled=False)
        self.loss_fn = nn.CrossEntropyLoss()
        self.ckdir, self.epoch, self.steps, self.best = ckdir, 0, 0, None
        self.log = open(ckdir/'metrics.jsonl', 'a')
        self.cfg = dict(batch_size=BS, lr=LR, epochs=epochs)

    def train_epoch(self):
        model, opt, sched, scaler, accum, device = self.model, self.opt, self.sched, self.scaler, self.accum, self.device
        model.train()
        for i, (x, y) in enumerate(self.train_dl):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.autocast(device_type=device.type, dtype=torch.float16, enabled=device.type == 'cuda'):
                loss = self.loss_fn(model(x), y) / accum
            scaler.scale(loss).backward()
            if (i + 1) % accum == 0:
                scaler.unscale_(opt)
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=CLIP)
                scaler.step(opt); scaler.update()
                opt.zero_grad(set_to_none=True)
                sched.step()
                self.steps += 1

    def end_epoch(self):
        if EPOCH_END == 'light': return self.end_epoch_light()
        model, device, loss_fn = self.model, self.device, self.loss_fn
        model.eval()
        with torch.inference_mode():  # bench/reference_fit.py's epoch end: loss and accuracy, an epoch record, last (and best) durable
            tot = torch.zeros(3, dtype=torch.float64, device=device)
            for x, y in self.val_dl:
                x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
                out = model(x); l = loss_fn(out, y)
                tot += torch.stack([l.double() * len(y), (out.argmax(1) == y).sum().double(), torch.tensor(len(y), dtype=torch.float64)])
            val_loss, val_acc = (tot[0] / tot[2]).item(), (tot[1] / tot[2]).item()
        improved = self.best is None or val_acc > self.best
        if improved: self.best = val_acc
        self.log.write(json.dumps(dict(kind='epoch', epoch=self.epoch, step=self.steps, val_loss=val_loss, val_acc=val_acc,
                                       lr=self.sched.get_last_lr()[0], time=time.time())) + '\n'); self.log.flush()
        self.save_checkpoint(self.epoch, val_loss, durable=True)
        if improved: self.save_checkpoint(self.epoch, val_loss, 'best.pt', durable=True)
        self.epoch += 1

    def end_epoch_light(self):
        "The definition before 2026-11-30: validation loss only, last.pt by os.replace without fsync."
        model, device, loss_fn = self.model, self.device, self.loss_fn
        model.eval()
        with torch.inference_mode():
            val_loss = sum(loss_fn(model(x.to(device)), y.to(device)).item() for x, y in self.val_dl) / len(self.val_dl)
        self.save_checkpoint(self.epoch, val_loss)
        self.epoch += 1

    def save_checkpoint(self, epoch, val_loss, name='last.pt', durable=False):
        path = str(self.ckdir/name)
        state = {
            'model': self.model.state_dict(), 'optimizer': self.opt.state_dict(),
            'scheduler': self.sched.state_dict(), 'scaler': self.scaler.state_dict(),
            'epoch': epoch, 'val_loss': val_loss,
            'rng': {'torch': torch.get_rng_state(), 'cuda': torch.cuda.get_rng_state_all(),
                    'numpy': np.random.get_state(), 'python': random.getstate()},
            'config': self.cfg,
        }
        tmp = path + '.tmp'
        with open(tmp, 'wb') as f:
            torch.save(state, f)
            if durable: f.flush(); os.fsync(f.fileno())
        os.replace(tmp, path)
        if durable:
            fd = os.open(self.ckdir, os.O_RDONLY)
            try: os.fsync(fd)
            finally: os.close(fd)


def time_bare(epochs:int, num_workers:int, mode:str)->tuple:
    with tempfile.TemporaryDirectory() as d:
        b = Bare(epochs + 1, num_workers, Path(d))
        b.train_epoch()                                   # warm-up epoch (workers start, allocator warms)
        if mode == 'full': b.end_epoch()
        s0 = b.steps
        t0 = time.perf_counter()
        for _ in range(epochs):
            b.train_epoch()
            if mode == 'full': b.end_epoch()
        dt = time.perf_counter() - t0
        n = b.steps - s0
        b.log.close(); del b
    return n, dt


# ------------------------------------------------------------------ ntrain's loop
def make_trainer(epochs:int, num_workers:int, run_dir:Path)->Trainer:
    cfg = ntrain.load_config('digits', [f'epochs={epochs}', f'num_workers={num_workers}', 'early_stop.patience=null',
                                        'progress=false', 'pin_memory=false'])
    return Trainer(cfg, run_dir=run_dir, quiet=True).open()  # what Trainer.fit does before its epochs


def time_ntrain(epochs:int, num_workers:int, mode:str)->tuple:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as d:
        t = make_trainer(epochs + 1, num_workers, Path(d)/'run')
        def one_epoch():
            assert t.train_epoch() is None
            if mode == 'full': t.end_epoch(t.validate())
            else: t.flush(); t.epoch += 1; t.batch_in_epoch = 0  # the next epoch, without the epoch's end
        one_epoch()                                       # warm-up epoch (also the first-epoch target checks)
        s0 = t.step
        t0 = time.perf_counter()
        for _ in range(epochs): one_epoch()
        t.saver.wait()                                    # the last save is on disk before the clock stops
        dt = time.perf_counter() - t0
        n = t.step - s0
        t.close(report=False)  # files closed, status.json final (its timer thread must not write into a removed directory); no card
        del t
    return n, dt


# ------------------------------------------------------------------ pairs
def quartiles(xs):
    q = statistics.quantiles(xs, n=4, method='inclusive')
    return q[0], statistics.median(xs), q[2]


def run_pairs(pairs:int, epochs:int, num_workers:int, mode:str, log=print)->dict:
    rows = []
    for i in range(pairs):
        order = ('ntrain', 'bare') if i % 2 == 0 else ('bare', 'ntrain')
        r = {}
        for side in order:
            n, dt = (time_ntrain if side == 'ntrain' else time_bare)(epochs, num_workers, mode)
            r[side] = dict(steps=n, seconds=dt, steps_per_s=n / dt)
        assert r['ntrain']['steps'] == r['bare']['steps'], r
        r['ratio'] = r['ntrain']['steps_per_s'] / r['bare']['steps_per_s']
        rows.append(r)
        log(f"  [{mode} w{num_workers}] pair {i+1:2d}/{pairs} ({order[0]} first): ntrain {r['ntrain']['steps_per_s']:7.1f} "
            f"bare {r['bare']['steps_per_s']:7.1f} steps/s  ratio {r['ratio']:.3f}")
    ratios = [r['ratio'] for r in rows]
    q1, med, q3 = quartiles(ratios)
    return dict(mode=mode, num_workers=num_workers, pairs=pairs, epochs_per_measurement=epochs,
                steps_per_measurement=rows[0]['ntrain']['steps'],
                ratio_median=med, ratio_q1=q1, ratio_q3=q3, ratio_iqr=q3 - q1,
                ntrain_steps_per_s_median=statistics.median(r['ntrain']['steps_per_s'] for r in rows),
                bare_steps_per_s_median=statistics.median(r['bare']['steps_per_s'] for r in rows),
                meets_target_0_97=med >= 0.97, pairs_detail=rows)


def digits_default_run(threads_env:dict, log=print)->dict:
    "The README's main job, as a user runs it: `python -m ntrain fit digits`, wall time and validation accuracy."
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PYTHONPATH=str(ROOT), **threads_env)
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, '-m', 'ntrain', 'fit', 'digits'], cwd=d, env=env, capture_output=True, text=True, timeout=600)
        wall = time.perf_counter() - t0
        assert r.returncode == 0, r.stderr[-2000:]
        rd = next((Path(d)/'runs').iterdir())
        ep = ntrain.loggers.read_metrics(rd, 'epoch')
        res = dict(command='python -m ntrain fit digits', env=threads_env, torch_threads=int(subprocess.run([sys.executable, '-c', 'import torch; print(torch.get_num_threads())'], env=env, capture_output=True, text=True).stdout), wall_s=wall, epochs=len(ep),
                   final_val_acc=ep[-1]['val_acc'], best_val_acc=max(e['val_acc'] for e in ep),
                   train_time_s=sum(e['epoch_time'] for e in ep), cpu_count=os.cpu_count(),
                   affinity=len(os.sched_getaffinity(0)))
        log(f"  digits default run {threads_env or '(default threads)'}: {wall:.1f} s wall, best val_acc {res['best_val_acc']:.4f}, final {res['final_val_acc']:.4f}")
        return res


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--pairs', type=int, default=20)
    p.add_argument('--epochs', type=int, default=3, help='timed epochs per measurement (22 steps each)')
    p.add_argument('--workers', type=int, nargs='+', default=[0, 1])
    p.add_argument('--modes', nargs='+', default=['train', 'full'], choices=['train', 'full'])
    p.add_argument('--threads', type=int, default=1, help='torch.set_num_threads on both sides')
    p.add_argument('--bare-epoch-end', choices=['reference', 'light'], default='reference',
                   help="full mode, the bare side's epoch end: reference_fit.py's (loss and accuracy, an epoch record, last/best "
                        "saved atomically and fsynced: the issue's same durability) or 'light' (loss only, last.pt without fsync: "
                        "the definition before 2026-11-30)")
    p.add_argument('--no-digits-run', action='store_true')
    p.add_argument('--only-digits-run', action='store_true', help='only the digits default runs, merged into an existing --out')
    p.add_argument('--out', default=str(ROOT/'bench'/'results'/'loop.json'))
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    global EPOCH_END; EPOCH_END = a.bare_epoch_end
    out = dict(bench='loop_bench', command='PYTHONPATH=. python bench/loop_bench.py ' + ' '.join(sys.argv[1:] if argv is None else argv),
               when=time.strftime('%Y-%m-%d %H:%M:%S'), torch=torch.__version__, python=platform.python_version(),
               cpu=platform.processor() or platform.machine(), cpu_count=os.cpu_count(), threads=a.threads,
               ntrain_commit=subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=ROOT, capture_output=True, text=True).stdout.strip(),
               target='ntrain steps/s >= 0.97 x bare steps/s (median of per-pair ratios)', bare_epoch_end=a.bare_epoch_end,
               loadavg_start=os.getloadavg(), results=[])
    for mode in ([] if a.only_digits_run else a.modes):
        for nw in a.workers:
            print(f'mode {mode}, num_workers {nw}: {a.pairs} pairs of {a.epochs} epochs', flush=True)
            res = run_pairs(a.pairs, a.epochs, nw, mode, log=lambda s: print(s, flush=True))
            print(f"=> {mode} w{nw}: ratio median {res['ratio_median']:.3f} IQR [{res['ratio_q1']:.3f}, {res['ratio_q3']:.3f}] "
                  f"(ntrain {res['ntrain_steps_per_s_median']:.1f}, bare {res['bare_steps_per_s_median']:.1f} steps/s)", flush=True)
            out['results'].append(res)
    if a.only_digits_run and Path(a.out).exists():
        prev = json.loads(Path(a.out).read_text()); prev.pop('digits_default_run', None); out = dict(prev, digits_default_run_command=out['command'])
    if not a.no_digits_run:
        # as a user runs it (torch's default intra-op threads), and with one thread per process
        out['digits_default_run'] = [digits_default_run(e, log=lambda s: print(s, flush=True)) for e in ({}, {'OMP_NUM_THREADS': '1'})]
    out['loadavg_end'] = os.getloadavg()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=1))
    print(f'written {a.out}')


if __name__ == '__main__':
    main()
