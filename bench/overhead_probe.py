"""Where ntrain's per-step overhead over the bare loop comes from, one suspected cause at a time (run by hand).

    PYTHONPATH=. python bench/overhead_probe.py            # writes bench/results/overhead.json

Each cause is timed in isolation, many repetitions, median of rounds, in microseconds per optimizer step
(batch 64, accum 1, 22 steps per epoch), on the same objects the loop uses. Compare the sum with the per-step gap
1/ntrain_steps_per_s - 1/bare_steps_per_s from loop.json.
"""
from __future__ import annotations
import json, statistics, sys, tempfile, time
from pathlib import Path
import torch
from torch.utils.data import DataLoader

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import ntrain
from ntrain.core import to_device
from ntrain.data import mix_seed, check_batch_targets
sys.path.insert(0, str(ROOT/'bench'))
from loop_bench import make_trainer, Bare


def per_call_us(fn, n:int, rounds:int=7)->float:
    "Median over rounds of the mean time of one call, in microseconds."
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n): fn()
        out.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(out)


def main():
    torch.set_num_threads(1)
    res = {}
    with tempfile.TemporaryDirectory() as d:
        t = make_trainer(4, 0, Path(d)/'run')
        bare = Bare(4, 0, Path(d))
        steps = t.batches_per_epoch

        # 1. data loading: one epoch of ntrain's keyed loader vs a plain DataLoader over the same dataset
        def ntrain_epoch():
            t.train_sampler.set_epoch(1)
            for _ in t.train_loader: pass
        def bare_epoch():
            for _ in bare.train_dl: pass
        res['loader_ntrain_us_per_step'] = per_call_us(ntrain_epoch, 3) / steps
        res['loader_bare_us_per_step'] = per_call_us(bare_epoch, 3) / steps
        res['loader_gap_us_per_step'] = res['loader_ntrain_us_per_step'] - res['loader_bare_us_per_step']
        # 1a. the keyed-seed hash (splitmix64 in Python) for 64 samples, part of the loader gap
        res['keyed_seed_mix_us_per_step'] = per_call_us(lambda: [mix_seed(0, 1, i) for i in range(64)], 200)
        # 1b. seeding a generator per sample (both sides call sample_rng(); ntrain seeds with the mix)
        g = torch.Generator()
        res['generator_manual_seed_x64_us_per_step'] = per_call_us(lambda: [g.manual_seed(12345 + i) for i in range(64)], 200)

        batch, idx, real = next(iter(t.train_loader))
        x, y = batch
        model = t.model
        with torch.no_grad(): preds = model(x)

        # 2. train metrics (Accuracy + F1) updated on every micro-batch
        mets = t.task.make_metrics()
        res['train_metrics_update_us_per_step'] = per_call_us(lambda: [m.update(preds, y) for m in mets], 500)
        for m in mets:
            res[f'metric_{m.name}_update_us'] = per_call_us(lambda m=m: m.update(preds, y), 500)

        # 3. to_device's tree_map on an (x, y) CPU batch vs the bare loop's two .to() calls
        res['to_device_tree_map_us_per_step'] = per_call_us(lambda: to_device(batch, t.device, True), 2000)
        res['bare_two_to_calls_us_per_step'] = per_call_us(lambda: (x.to(t.device, non_blocking=True), y.to(t.device, non_blocking=True)), 2000)

        # 4. the real-sample mask check and bookkeeping done per micro-batch
        res['real_mask_check_us_per_step'] = per_call_us(lambda: int(real.sum()) if not bool(real.all()) else len(real), 2000)
        loss = torch.tensor(1.0)
        res['pending_append_detach_us_per_step'] = per_call_us(lambda: (loss.detach(), 64, None, idx), 5000)

        # 5. read-back every log_every (10) steps: stack + .cpu() + tolist of 10 losses and 10 grad norms, per step
        losses = [torch.tensor(0.5) for _ in range(10)]
        res['flush_readback_us_per_step'] = per_call_us(lambda: (torch.stack(losses).cpu().tolist(), torch.stack(losses).float().cpu().tolist()), 500) / 10
        # 6. time.perf_counter x4 and the loop's Python around the step (window list, counters)
        res['perf_counter_x4_us_per_step'] = per_call_us(lambda: (time.perf_counter(), time.perf_counter(), time.perf_counter(), time.perf_counter()), 5000)

        # 7. target check of the first epoch (only the first epoch a process runs)
        res['first_epoch_target_check_us_per_step'] = per_call_us(lambda: check_batch_targets(batch, idx, t.task.num_classes, t.task.ignore_index), 1000)

        # the whole step without data loading: ntrain's train_step vs the bare step body, same model and batch
        window = [(batch, idx, real)]
        t.train_metrics_backup = t.train_metrics
        def ntrain_step():
            t.train_step(window)
            if len(t.stats.pending) >= 10: t.flush()
        bm, opt, sched = bare.model, bare.opt, bare.sched
        sched.total_steps = 10**9; t.scheduler.total_steps = 10**9
        def bare_step():
            with torch.autocast(device_type='cpu', dtype=torch.float16, enabled=False):
                l = bare.loss_fn(bm(x), y)
            bare.scaler.scale(l).backward()
            bare.scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(bm.parameters(), max_norm=1.0)
            bare.scaler.step(opt); bare.scaler.update()
            opt.zero_grad(set_to_none=True)
            sched.step()
        t.epoch += 1  # past the first epoch a process runs: no target checks, as in the steady state
        for _ in range(2):
            res['step_body_ntrain_us'] = per_call_us(ntrain_step, 60)
            res['step_body_bare_us'] = per_call_us(bare_step, 60)
        t.train_metrics = []
        res['step_body_ntrain_no_train_metrics_us'] = per_call_us(ntrain_step, 60)
        res['step_body_gap_us'] = res['step_body_ntrain_us'] - res['step_body_bare_us']
        t.close(report=False)

        # 8. end of epoch (mode 'full'): ntrain's validate + _end_epoch vs the reference loop's validation + save_checkpoint
        t2 = make_trainer(12, 0, Path(d)/'run2'); b2 = Bare(12, 0, Path(d))
        rows = []
        for e in range(6):
            t2.train_epoch()
            a0 = time.perf_counter(); v = t2.validate(); a1 = time.perf_counter()
            orig, ts = t2.save, [0.0, 0]
            def timed_save(*which, orig=orig):  # (`end_epoch` saves best and last in one call)
                s0 = time.perf_counter(); orig(*which); ts[0] += time.perf_counter() - s0; ts[1] += 1
            t2.save = timed_save
            t2.end_epoch(v); a2 = time.perf_counter(); t2.save = orig
            b2.train_epoch(); b2.model.eval()
            c0 = time.perf_counter()
            with torch.inference_mode(): vl = sum(b2.loss_fn(b2.model(xx), yy).item() for xx, yy in b2.val_dl) / len(b2.val_dl)
            c1 = time.perf_counter(); b2.save_checkpoint(e, vl); c2 = time.perf_counter()
            rows.append(((a1 - a0) * 1e3, (a2 - a1) * 1e3, ts[0] * 1e3, ts[1], (c1 - c0) * 1e3, (c2 - c1) * 1e3))
        med = [statistics.median(c) for c in zip(*rows[1:])]
        res.update(end_epoch_ntrain_validate_ms=med[0], end_epoch_ntrain_end_epoch_ms=med[1], end_epoch_ntrain_saves_ms=med[2],
                   end_epoch_ntrain_saves_per_epoch=med[3], end_epoch_bare_validate_ms=med[4], end_epoch_bare_save_ms=med[5])
        # one fsync of a small file on this filesystem (ntrain's atomic writes fsync the file and the directory)
        import os
        fp = Path(d)/'f.bin'
        def fsync_once():
            with open(fp, 'wb') as f: f.write(b'x' * 1000); f.flush(); os.fsync(f.fileno())
        res['fsync_small_file_ms'] = per_call_us(fsync_once, 20) / 1e3
        t2.close(report=False)
    out = ROOT/'bench'/'results'/'overhead.json'
    out.write_text(json.dumps(res, indent=1))
    for k, v in res.items(): print(f'{k:<45} {v:10.2f}')
    print(f'written {out}')


if __name__ == '__main__':
    main()
