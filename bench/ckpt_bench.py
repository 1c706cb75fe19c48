"""Checkpoint benchmark (issue 4), run by hand:

    OMP_NUM_THREADS=1 python bench/ckpt_bench.py [--pairs 30] [--out bench/results/ckpt.json]

1. ntrain's save against a bare `torch.save` of the same state to a file that is then fsynced, side by side in
   rotating order, ratio per round, median and IQR, for the digits trainer's state and a larger synthetic state:
   - `blocking`: what the training loop waits for with the default background saver (`Saver.submit`: the
     plain-data check and the copy of the state);
   - `durable`: the same save until it is on disk (`submit` then `wait`: sha256, temporary file, fsync, rotation,
     manifest, rename, directory fsync);
   - `sync`: `ntrain.engine.checkpoint.save` called directly (`ckpt_async=false`).
2. Save time as a fraction of epoch time for digits at the default ckpt_every (null: last.pt and best.pt at each
   epoch end) and at ckpt_every=5, with the background saver and without: the time the loop waited for saves, and
   the whole epoch time, which also shows what the background writes cost the loop (GIL, cores).
3. What a save costs the loop all in (`loop_cost_per_save`): a save after every step against no saves, in blocks,
   for the digits CNN (a tiny model whose step is mostly Python, so a background thread competes for the GIL) and
   for the same CNN with 128 channels (a 10.8 MB state; its step runs mostly in torch kernels, which release it).
4. Time for a mid-epoch resume to reach its first optimizer step, against a fresh start, both in-process, with
   the cost of skipping the consumed batches by iterating them (what a sampler-level skip avoids) for scale.
"""
import argparse, json, os, platform, statistics, sys, tempfile, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from ntrain.engine import checkpoint as ckpt
from ntrain.config import load_config
from ntrain.engine.trainer import Trainer

def quartiles(xs):
    if len(xs) < 2: return dict(median=xs[0], q1=xs[0], q3=xs[0], iqr=0.0, n=len(xs))  # (a brief run: --reps 1)
    q = statistics.quantiles(xs, n=4)
    return dict(median=statistics.median(xs), q1=q[0], q3=q[2], iqr=q[2] - q[0], n=len(xs))

def bare_save(state, path):
    with open(path, 'wb') as f:
        torch.save(state, f); f.flush(); os.fsync(f.fileno())

def save_vs_bare(state, d:Path, pairs:int)->dict:
    d.mkdir(parents=True, exist_ok=True)
    saver = ckpt.Saver(background=True)
    times = {k: [] for k in ('blocking', 'durable', 'sync', 'bare')}
    def background():
        t0 = time.perf_counter()
        saver.submit(state, dict(path=d/'last.pt', rotate_to=d/'prev.pt'))
        t1 = time.perf_counter(); saver.wait()
        return dict(blocking=t1 - t0, durable=time.perf_counter() - t0)
    def sync():
        t0 = time.perf_counter(); ckpt.save(state, d/'sync.pt', rotate_to=d/'sync-prev.pt'); return dict(sync=time.perf_counter() - t0)
    def bare():
        t0 = time.perf_counter(); bare_save(state, d/'bare.pt'); return dict(bare=time.perf_counter() - t0)
    runs = [background, sync, bare]
    for i in range(pairs + 2):
        t = {}
        for j in range(3): t.update(runs[(i + j) % 3]())  # rotate which goes first
        if i < 2: continue  # warm-up
        for k, v in t.items(): times[k].append(v)
    ratio = {k: quartiles([a / b for a, b in zip(times[k], times['bare'])]) for k in ('blocking', 'durable', 'sync')}
    return dict(size_bytes=(d/'last.pt').stat().st_size, ratio_to_bare=ratio, seconds={k: quartiles(v) for k, v in times.items()})

def digits_cfg(d, **kw):
    o = dict(run_dir=str(d), num_workers=0, progress=False, deterministic=True, log_every=1)
    o.update(kw)
    return load_config('digits', [f'{k}={"null" if v is None else v}' for k, v in o.items()])

def bare_trainer_save(t:Trainer):
    "The reference loop's way, for scale: the same state, built the same way, written with a bare torch.save plus fsync."
    t.bare_saves, t.bare_s = 0, 0.0
    def save(*which):
        sd = t.state_dict()
        t0 = time.perf_counter()
        for w in which or ('last',): bare_save(sd, t.run_dir/'ckpt'/f'{w}.pt')
        t.bare_s += time.perf_counter() - t0; t.bare_saves += 1
    t.save = save

def save_fraction(d:Path, epochs:int, ckpt_every, mode:str)->dict:
    "mode: background (the default saver), sync (ckpt_async=false) or bare (bare_trainer_save)."
    t = Trainer(digits_cfg(d, epochs=epochs, ckpt_every=ckpt_every, ckpt_async=mode == 'background', **{'early_stop.patience': None}), quiet=True)
    if mode == 'bare': bare_trainer_save(t)
    t0 = time.perf_counter(); res = t.fit(); wall = time.perf_counter() - t0
    ep = sum(r['epoch_time'] for r in res.history)
    c = res.checkpoints if mode != 'bare' else dict(saves=t.bare_saves, blocked_s=t.bare_s, write_s=t.bare_s)
    return dict(ckpt_every=ckpt_every, mode=mode, epochs=epochs, saves=c['saves'], loop_waited_s=c['blocked_s'],
                write_s=c['write_s'], epoch_train_s=ep, fraction=c['blocked_s'] / ep, fit_wall_s=wall,
                saves_per_epoch=(1 if not ckpt_every else 1 + (t.steps_per_epoch - 1) // ckpt_every), best_saves='when val_acc improves')

MODES = ('background', 'sync', 'bare')

def save_fractions(d:Path, reps:int, epochs:int=4)->dict:
    """Each setting `reps` times, interleaved; medians. `loop_cost_per_save_s`: how much longer the whole fit takes
    per extra save, from ckpt_every=1 against the default (every step against every epoch); it includes building
    the state (the same in every mode) and, for the background saver, what its thread takes from the loop (the GIL,
    the cores). `bare` is the reference loop's bare torch.save plus fsync of the same state, for scale."""
    settings = [(ce, m) for ce in (None, 5, 1) for m in MODES]
    rows = {s: [] for s in settings}
    for i in range(reps):
        for k in range(len(settings)):  # rotate the order from one round to the next
            ce, m = settings[(k + i) % len(settings)]
            rows[(ce, m)].append(save_fraction(d/f'{i}-{k}', epochs, ce, m))
    out = []
    for (ce, m), rs in rows.items():
        r = dict(rs[0]); r.update(reps=reps, **{k: statistics.median(x[k] for x in rs) for k in ('fraction', 'loop_waited_s', 'write_s', 'epoch_train_s', 'fit_wall_s')})
        out.append(r)
    return out

def loop_cost_per_save(d:Path, rounds:int, steps:int=20, **cfg)->dict:
    """What a save costs the training loop, all in: blocks of `steps` digits optimizer steps with a save of the
    trainer's state after every step, in each mode, against the same block without saves, rotating the order each
    round. A block ends when its last save is on disk. Cost per save = (block - block without saves) / steps, so it
    includes building the state (the same in every mode) and what a background save takes from the steps running
    beside it (the GIL, the cores). Ratio per round to the bare torch.save plus fsync; median and IQR."""
    t = Trainer(digits_cfg(d/'run', epochs=2, **cfg), quiet=True).open()
    t.train_sampler.set_epoch(0)
    batches = [b for _, b in zip(range(steps), t.train_loader)]
    cd = d/'run'/'ckpt'
    bg, sy = ckpt.Saver(background=True), ckpt.Saver(background=False)
    saves = dict(none=None,
                 background=lambda: bg.submit(t.state_dict(), dict(path=cd/'last.pt', rotate_to=cd/'prev.pt')),
                 sync=lambda: sy.submit(t.state_dict(), dict(path=cd/'sync.pt', rotate_to=cd/'sync-prev.pt')),
                 bare=lambda: bare_save(t.state_dict(), cd/'bare.pt'))
    modes = list(saves)
    blocks = {m: [] for m in modes}
    for r in range(rounds + 1):
        for k in range(len(modes)):
            m = modes[(k + r) % len(modes)]
            t0 = time.perf_counter()
            for b in batches:
                t.train_step(b)
                if saves[m]: saves[m]()
            bg.wait(); t.flush()
            if r: blocks[m].append(time.perf_counter() - t0)  # round 0 warms up
    per = {m: [(x - n) / steps for x, n in zip(blocks[m], blocks['none'])] for m in modes if m != 'none'}
    t.close(report=False)
    return dict(config=cfg, state_bytes=(cd/'bare.pt').stat().st_size, steps_per_block=steps, rounds=rounds, block_without_saves_s=quartiles(blocks['none']),
                cost_per_save_s={m: quartiles(v) for m, v in per.items()},
                ratio_to_bare={m: quartiles([a / b for a, b in zip(per[m], per['bare'])]) for m in ('background', 'sync')})

def first_step_time(make)->float:
    "Seconds from constructing the Trainer to the end of its first optimizer step."
    t0 = time.perf_counter(); out = {}
    t = make()
    def hooked(window, _orig=Trainer.train_step):
        _orig(t, window)
        if 'first' not in out: out['first'] = time.perf_counter() - t0; t.request_stop('bench')
    t.train_step = hooked
    t.fit()
    return out['first']

def resume_vs_fresh(d:Path, reps:int, batch_size:int=8, stop_at:int=150)->dict:
    # a run stopped mid-epoch at `stop_at` (of 179 batches per epoch at batch_size 8)
    src = d/'src'
    t = Trainer(digits_cfg(src, epochs=2, batch_size=batch_size), quiet=True,
                callbacks=[lambda r: r.get('kind') == 'step' and r['step'] == stop_at and t.request_stop('bench')])
    t.fit()
    assert t.batch_in_epoch == stop_at and t.epoch == 0, (t.epoch, t.batch_in_epoch)
    bpe = t.batches_per_epoch
    fresh, resumed = [], []
    import shutil
    for i in range(reps):
        fd = d/f'fresh{i}'
        fresh.append(first_step_time(lambda: Trainer(digits_cfg(fd, epochs=2, batch_size=batch_size), quiet=True)))
        rd = d/f'resumed{i}'; shutil.copytree(src, rd)
        cfg = load_config(rd/'config.yaml', [f'run_dir={rd}'])
        resumed.append(first_step_time(lambda: Trainer(cfg, run_dir=rd, resume=True, quiet=True)))
    # what skipping by iterating (and loading) the consumed batches would cost
    t2 = Trainer(digits_cfg(d/'iter', epochs=2, batch_size=batch_size), quiet=True).setup()
    t2.train_sampler.set_epoch(0); it = iter(t2.train_loader)
    t0 = time.perf_counter()
    for _ in range(stop_at): next(it)
    iterate = time.perf_counter() - t0
    return dict(batches_per_epoch=bpe, resumed_at_batch=stop_at, fresh_first_step_s=quartiles(fresh),
                resumed_first_step_s=quartiles(resumed), iterating_the_skipped_batches_s=iterate,
                note='both include building the task, model and loaders; the resume also loads and verifies the checkpoint')

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--pairs', type=int, default=30)
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--rounds', type=int, default=15, help='rounds of the loop-cost blocks')
    ap.add_argument('--big-mb', type=int, default=64, help='size of the synthetic state')
    ap.add_argument('--dir', default=None, help='where to write (default: a temporary directory beside the repo, same filesystem as runs/)')
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'ckpt.json'))
    a = ap.parse_args()
    torch.set_num_threads(1)
    base = Path(a.dir or tempfile.mkdtemp(prefix='ckpt-bench-', dir=ROOT))
    try:
        out = dict(when=time.strftime('%Y-%m-%dT%H:%M:%S%z'), torch=torch.__version__, python=platform.python_version(),
                   machine=platform.machine(), cpus=len(os.sched_getaffinity(0)), dir=base.name,
                   command='OMP_NUM_THREADS=1 python bench/ckpt_bench.py ' + ' '.join(sys.argv[1:]))
        out['loadavg_before'] = os.getloadavg()
        # what the extra work costs on this machine: sha256 throughput and one directory fsync
        blob = os.urandom(32 << 20); t0 = time.perf_counter(); import hashlib; hashlib.sha256(blob).hexdigest()
        out['sha256_MB_per_s'] = 32 / (time.perf_counter() - t0)
        fs = []
        for _ in range(10):
            t0 = time.perf_counter(); ckpt.fsync_dir(base); fs.append(time.perf_counter() - t0)
        out['fsync_dir_s'] = quartiles(fs)
        # 1. save vs bare torch.save
        t = Trainer(digits_cfg(base/'state', epochs=1, max_steps=5), quiet=True); t.fit()
        state = ckpt.load(base/'state'/'ckpt'/'last.pt')
        n = a.big_mb * (1 << 20) // 4
        big = dict(model={f'layer{i}.weight': torch.randn(n // 8) for i in range(8)}, step=1, epoch=0, config={}, rng=[ckpt.rng_state()])
        out['save_vs_bare'] = dict(digits_state=save_vs_bare(state, base/'s1', a.pairs),
                                   synthetic=save_vs_bare(big, base/'s2', max(6, a.pairs // 3)))
        print(json.dumps(out['save_vs_bare'], indent=1), flush=True)
        # 2. save as a fraction of epoch time
        out['save_fraction'] = save_fractions(base/'f', a.reps)
        print(json.dumps(out['save_fraction'], indent=1), flush=True)
        out['loop_cost_per_save'] = dict(digits=loop_cost_per_save(base/'c', a.rounds),
                                         digits_128_channels=loop_cost_per_save(base/'c128', max(4, a.rounds // 2), **{'task_args.channels': 128}))
        print(json.dumps(out['loop_cost_per_save'], indent=1), flush=True)
        # 3. resume vs fresh start
        out['resume_vs_fresh'] = resume_vs_fresh(base/'r', a.reps)
        print(json.dumps(out['resume_vs_fresh'], indent=1), flush=True)
    finally:
        import shutil; shutil.rmtree(base, ignore_errors=True)
    out['loadavg_after'] = os.getloadavg()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=1) + '\n')
    print(f'wrote {a.out}')

if __name__ == '__main__':
    main()
