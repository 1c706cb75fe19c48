"""The same work as bench/reference_fit.py (and `ntrain fit digits epochs=8`) with Hugging Face Accelerate: the
reference loop with `accelerator.prepare`, `accelerator.backward`, `accelerator.clip_grad_norm_`,
`gather_for_metrics` and `accelerator.save`. Benchmark-only: Accelerate is never an ntrain requirement (install
line in bench/README.md).

    python bench/accelerate_fit.py                          # digits CNN, 8 epochs, in ./acc-run
    python bench/accelerate_fit.py --model mlp --epochs 3
    torchrun --nproc-per-node 2 bench/accelerate_fit.py     # 2 processes (Accelerate reads torchrun's environment)

Same data, split, shift augmentation in the worker, loader, model, AdamW, OneCycle, clipping, precision
(`mixed_precision='no'` on the CPU; `--mixed-precision bf16` on a GPU), early stopping on val_acc with patience 4,
seed 0 (`accelerate.utils.set_seed`), logging every 10 steps to metrics.jsonl, all as in reference_fit.py.
Checkpoints: `last.pt` every epoch and `best.pt` when val_acc improved, the reference loop's state (unwrapped
model, optimizer, scheduler, epoch, RNG states, config) written with `accelerator.save` to a temporary file, then
fsync, os.replace and a directory fsync: the reference side's durability.

Prints `BENCH_RESULT {json}` at exit (main process), with the stamps of reference_fit.py.
"""
import time
T_SCRIPT = time.time()
import argparse, json, math, os, random, sys
from pathlib import Path
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader
from accelerate import Accelerator
from accelerate.utils import set_seed
sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference_fit import build_data, build_model, default_num_workers, fsync_dir, BATCH, LR, WD, PCT, CLIP, LOG_EVERY
T_IMPORTED = time.time()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--epochs', type=int, default=8)
    p.add_argument('--model', default='cnn', choices=['cnn', 'mlp', 'resnet50'])
    p.add_argument('--width', type=int, default=1024); p.add_argument('--depth', type=int, default=4)
    p.add_argument('--out', default='acc-run')
    p.add_argument('--num-workers', type=int, default=None)
    p.add_argument('--patience', type=int, default=4)
    p.add_argument('--batch-size', type=int, default=BATCH)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--cpu', action='store_true', help='force the CPU (implied when CUDA is not available)')
    p.add_argument('--mixed-precision', default='no', choices=['no', 'bf16', 'fp16'])
    p.add_argument('--train-samples', type=int, default=256 * 40); p.add_argument('--valid-samples', type=int, default=512)
    p.add_argument('--image-size', type=int, default=224)
    a = p.parse_args(argv)
    # on a machine without CUDA, cpu=True is what makes Accelerate use torchrun's processes (MULTI_CPU, gloo)
    acc = Accelerator(cpu=a.cpu or not torch.cuda.is_available(), mixed_precision=a.mixed_precision)
    set_seed(a.seed)
    nw = default_num_workers() if a.num_workers is None else a.num_workers
    pin = acc.device.type == 'cuda'
    train_ds, val_ds = build_data(a.model, a)
    train_dl = DataLoader(train_ds, batch_size=a.batch_size, shuffle=True, num_workers=nw, pin_memory=pin,
                          persistent_workers=nw > 0, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=2 * a.batch_size, num_workers=nw, pin_memory=pin, persistent_workers=nw > 0)
    model = build_model(a.model, a)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=WD)
    # the prepared scheduler steps once per process per optimizer step: the schedule spans the batches of all processes
    total_steps = len(train_dl) // acc.num_processes * acc.num_processes * a.epochs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=LR, total_steps=total_steps, pct_start=PCT)
    model, opt, train_dl, val_dl, sched = acc.prepare(model, opt, train_dl, val_dl, sched)
    loss_fn = nn.CrossEntropyLoss()
    cfg = dict(vars(a), lr=LR, weight_decay=WD, pct_start=PCT, clip_grad=CLIP, num_workers=nw, world_size=acc.num_processes)

    out = Path(a.out); ck = out/'ckpt'
    if acc.is_main_process: ck.mkdir(parents=True, exist_ok=True)
    log = open(out/'metrics.jsonl', 'a') if acc.is_main_process else None
    def save_checkpoint(epoch, val_loss, path):
        state = {'model': acc.unwrap_model(model).state_dict(), 'optimizer': opt.state_dict(), 'scheduler': sched.state_dict(),
                 'epoch': epoch, 'val_loss': val_loss,
                 'rng': {'torch': torch.get_rng_state(), 'cuda': torch.cuda.get_rng_state_all(),
                         'numpy': np.random.get_state(), 'python': random.getstate()}, 'config': cfg}
        tmp = str(path) + '.tmp'
        acc.save(state, tmp)                                   # torch.save on the main process
        if acc.is_main_process:
            with open(tmp, 'rb+') as f: os.fsync(f.fileno())
            os.replace(tmp, path); fsync_dir(str(path.parent))

    t_first = t_last = None
    step, best, bad_epochs, history = 0, None, 0, []
    for epoch in range(a.epochs):
        model.train()
        losses, logged, train_s, t_prev = [], 0, 0.0, time.perf_counter()
        for x, y in train_dl:
            loss = loss_fn(model(x), y)
            acc.backward(loss)
            acc.clip_grad_norm_(model.parameters(), CLIP)
            opt.step(); sched.step(); opt.zero_grad(set_to_none=True)
            step += 1
            t_last = time.time()
            if t_first is None: t_first = t_last
            losses.append(loss.detach())
            if step % LOG_EVERY == 0:
                vals = torch.stack(losses[logged:]).float().cpu().tolist(); logged = len(losses)
                if log: log.write(json.dumps(dict(kind='step', epoch=epoch, step=step, loss=sum(vals) / len(vals),
                                                  lr=sched.get_last_lr()[0], time=time.time())) + '\n')
            now = time.perf_counter(); train_s += now - t_prev; t_prev = now
        train_loss = torch.stack(losses).float().mean().item() if losses else math.nan
        model.eval()
        with torch.inference_mode():
            tot = torch.zeros(3, dtype=torch.float64, device=acc.device)
            for x, y in val_dl:
                out_ = model(x)
                l = nn.functional.cross_entropy(out_, y, reduction='none')
                l, pred, yy = acc.gather_for_metrics((l, out_.argmax(1), y))
                tot += torch.stack([l.double().sum(), (pred == yy).sum().double(), torch.tensor(len(yy), dtype=torch.float64, device=acc.device)])
            val_loss, val_acc = (tot[0] / tot[2]).item(), (tot[1] / tot[2]).item()
        improved = best is None or val_acc > best
        if improved: best, bad_epochs = val_acc, 0
        else: bad_epochs += 1
        rec = dict(kind='epoch', epoch=epoch, step=step, train_loss=train_loss, val_loss=val_loss, val_acc=val_acc,
                   lr=sched.get_last_lr()[0], epoch_time=train_s, samples_per_s=len(losses) * a.batch_size * acc.num_processes / max(train_s, 1e-9), time=time.time())
        history.append(rec)
        if log: log.write(json.dumps(rec) + '\n'); log.flush()
        acc.print(f"epoch {epoch+1}/{a.epochs}  train_loss {train_loss:.4f}  val_loss {val_loss:.4f}  val_acc {val_acc:.4f}  "
                  f"lr {rec['lr']:.2e}  {rec['samples_per_s']:.0f} samples/s" + ('  *' if improved else ''))
        acc.wait_for_everyone()
        save_checkpoint(epoch, val_loss, ck/'last.pt')
        if improved: save_checkpoint(epoch, val_loss, ck/'best.pt')
        if a.patience and bad_epochs >= a.patience:
            acc.print(f'early stop: val_acc did not improve for {a.patience} epochs'); break
    if log: log.close()
    acc.end_training()
    if acc.is_main_process:
        res = dict(tool='accelerate', model=a.model, t_script=T_SCRIPT, t_imported=T_IMPORTED, t_first_step=t_first, t_last_step=t_last,
                   epochs_run=len(history), steps=step, best_val_acc=best, final_val_acc=history[-1]['val_acc'] if history else None,
                   epoch_train_s=[h['epoch_time'] for h in history], samples_per_s=[h['samples_per_s'] for h in history],
                   params=sum(p.numel() for p in acc.unwrap_model(model).parameters()), torch_threads=torch.get_num_threads(),
                   num_workers=nw, world_size=acc.num_processes, device=str(acc.device), precision=a.mixed_precision, t_end=time.time())
        print('BENCH_RESULT ' + json.dumps(res), flush=True)


if __name__ == '__main__':
    main()
