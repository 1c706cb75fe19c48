"""The reference loop of the training practice ntrain follows, as a self-contained script doing the same work as
`ntrain fit digits epochs=8`. It imports nothing from ntrain.

    python bench/reference_fit.py                          # digits CNN, 8 epochs, in ./ref-run
    python bench/reference_fit.py --model mlp --epochs 3   # the compute-bound MLP on the same data
    torchrun --nproc-per-node 2 bench/reference_fit.py     # DDP (gloo on the CPU), as the reference loop's DDP section
    python bench/reference_fit.py --model resnet50 --precision bf16 --channels-last   # the GPU path (bench/resnet50.py)

The same work as ntrain's digits example:
- data: scikit-learn's bundled digits, images / 16 as float32 (N, 1, 8, 8), split by a torch.Generator seeded with
  split_seed 0 (`randperm`), the first 20% validation (ntrain.examples.digits, copied);
- augmentation: a random shift of up to 1 pixel (zero padding, then an 8x8 crop), drawn in the DataLoader worker
  (Python's `random`, which DataLoader seeds per worker from the seeded base seed);
- loader: batch 64, shuffle, drop_last, validation batch 128, persistent workers, pinned memory only on CUDA, and
  ntrain's default worker count for this machine: max(0, min(8, CPUs in the affinity // local processes - 1));
- model: DigitsCNN(32, 10) (copied) or, with --model mlp, `MLP` (bench/bench_tasks.py:mlp uses this class);
- AdamW lr 3e-3 weight decay 0.01, OneCycle (pct_start 0.15) over epochs x batches per epoch, clip_grad_norm_ 1.0,
  zero_grad(set_to_none=True), cross-entropy; the reference loop's autocast/GradScaler lines (fp32 on the CPU);
- every 10 steps the losses since the last read are read back in one transfer and a step line goes to
  metrics.jsonl (ntrain's digits log_every=10); every epoch: validation loss and accuracy, an epoch line to
  metrics.jsonl and to stdout, `last.pt` (and `best.pt` when val_acc improved) written atomically (temporary file,
  flush, fsync, os.replace, directory fsync) with the reference loop's state (model, optimizer, scheduler, scaler,
  epoch, RNG states, config); early stopping on val_acc with patience 4 (the digits example's).
- seeded: seed_all(0).

At exit it prints one machine-readable line, `BENCH_RESULT {json}`, with wall-clock (time.time()) stamps:
t_script (first line of this file, before imports), t_imported, t_first_step (the end of the first optimizer step:
after sched.step()), t_last_step (the end of the last one), t_end (everything done, just before exit); plus epochs
run, steps, best and final val_acc, per-epoch training time and samples/s, torch threads and num_workers.
"""
import time
T_SCRIPT = time.time()
import argparse, json, math, os, random, sys
from pathlib import Path
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset, Subset
from torch.utils.data.distributed import DistributedSampler
T_IMPORTED = time.time()

BATCH, LR, WD, PCT, CLIP, LOG_EVERY = 64, 3e-3, 0.01, 0.15, 1.0, 10


# ---------------------------------------------------------------- data (copied from ntrain.examples.digits)
def digits_split(val_fraction:float=0.2, split_seed:int=0):
    "(x_train, y_train), (x_valid, y_valid): the digits images in [0, 1] as (N, 1, 8, 8) float32, ntrain's seeded split."
    # the file sklearn.datasets.load_digits reads, read as it reads it, without importing scikit-learn (as ntrain does)
    import importlib.util
    f = os.path.join(os.path.dirname(importlib.util.find_spec('sklearn').origin), 'datasets', 'data', 'digits.csv.gz')
    d = np.loadtxt(f, delimiter=',')
    x = torch.tensor(d[:, :-1].reshape(-1, 8, 8), dtype=torch.float32).unsqueeze(1) / 16.0
    y = torch.tensor(d[:, -1].astype(np.int64), dtype=torch.long)
    g = torch.Generator(); g.manual_seed(split_seed)
    perm = torch.randperm(len(x), generator=g)
    n_val = int(len(x) * val_fraction)
    vi, ti = perm[:n_val], perm[n_val:]
    return (x[ti], y[ti]), (x[vi], y[vi])


class ShiftDigits(Dataset):
    "Digits with a random shift of up to `shift` pixels, drawn where the sample is loaded (the DataLoader worker)."
    def __init__(self, x, y, shift:int=0): self.x, self.y, self.shift = x, y, shift
    def __len__(self): return len(self.x)
    def __getitem__(self, i):
        x = self.x[i]
        if self.shift:
            s = self.shift; k = 2*s + 1
            h = random.randrange(k * k)  # seeded per worker by DataLoader (base_seed + worker id)
            dx, dy = h % k, h // k
            x = F.pad(x, (s, s, s, s))[:, dy:dy + 8, dx:dx + 8]
        return x, self.y[i]


# ---------------------------------------------------------------- models
class DigitsCNN(nn.Module):
    "Three 3x3 convolutions and a linear head for 8x8 digits (ntrain.examples.DigitsCNN, copied)."
    def __init__(self, channels:int=32, num_classes:int=10):
        super().__init__()
        c = channels
        self.features = nn.Sequential(
            nn.Conv2d(1, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, 2*c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(2*c, 2*c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Linear(2*c*4, num_classes)
    def forward(self, x): return self.head(self.features(x).flatten(1))


class MLP(nn.Module):
    "A wide MLP on the flattened 8x8 digits, where the matmuls, not Python, set the step time."
    def __init__(self, width:int=1024, depth:int=4, num_classes:int=10, in_features:int=64):
        super().__init__()
        layers, d = [nn.Flatten()], in_features
        for _ in range(depth): layers += [nn.Linear(d, width), nn.ReLU()]; d = width
        self.net = nn.Sequential(*layers, nn.Linear(d, num_classes))
    def forward(self, x): return self.net(x)


def default_num_workers()->int:
    "ntrain's default: the CPU affinity shared among the local processes, less one for the loop, at most 8."
    try: cpus = len(os.sched_getaffinity(0))
    except AttributeError: cpus = os.cpu_count() or 1
    return max(0, min(8, cpus // int(os.environ.get('LOCAL_WORLD_SIZE', 1)) - 1))


def build_data(model:str, a):
    "Train and validation datasets for the model: digits (cnn, mlp) or synthetic images (resnet50)."
    if model == 'resnet50':
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from resnet50 import SynthImages
        return SynthImages(a.train_samples, a.image_size, seed=0), SynthImages(a.valid_samples, a.image_size, seed=1)
    (xt, yt), (xv, yv) = digits_split()
    return ShiftDigits(xt, yt, shift=1), ShiftDigits(xv, yv)


def build_model(model:str, a)->nn.Module:
    if model == 'cnn': return DigitsCNN(32, 10)
    if model == 'mlp': return MLP(a.width, a.depth)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from resnet50 import resnet50
    return resnet50()


# ---------------------------------------------------------------- the durable save
def fsync_dir(d:str):
    fd = os.open(d, os.O_RDONLY)
    try: os.fsync(fd)
    finally: os.close(fd)


def atomic_save(state:dict, path:str):
    "torch.save to a temporary file, flush and fsync it, rename it over `path`, fsync the directory."
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        torch.save(state, f); f.flush(); os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(os.path.dirname(path) or '.')


def seed_all(seed:int) -> None:
    random.seed(seed); np.random.seed(seed); torch.manual_seed(seed); torch.cuda.manual_seed_all(seed)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--epochs', type=int, default=8)
    p.add_argument('--model', default='cnn', choices=['cnn', 'mlp', 'resnet50'])
    p.add_argument('--width', type=int, default=1024, help='MLP width')
    p.add_argument('--depth', type=int, default=4, help='MLP hidden layers')
    p.add_argument('--out', default='ref-run', help='run directory: metrics.jsonl, ckpt/last.pt, ckpt/best.pt')
    p.add_argument('--num-workers', type=int, default=None, help="default: ntrain's default for this machine")
    p.add_argument('--patience', type=int, default=4, help='early stopping on val_acc; 0 turns it off')
    p.add_argument('--batch-size', type=int, default=BATCH)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--device', default='auto')
    p.add_argument('--precision', default='auto', choices=['auto', 'fp32', 'bf16', 'fp16'],
                   help="auto: the reference loop's rule (bf16 on CUDA where supported, else fp16 on CUDA, fp32 elsewhere)")
    p.add_argument('--channels-last', action='store_true')
    p.add_argument('--compile', action='store_true')
    p.add_argument('--train-samples', type=int, default=256 * 40, help='resnet50: synthetic train samples')
    p.add_argument('--valid-samples', type=int, default=512, help='resnet50: synthetic validation samples')
    p.add_argument('--image-size', type=int, default=224, help='resnet50: image side')
    a = p.parse_args(argv)

    # the process group, under torchrun (the reference loop's DDP section; gloo on the CPU)
    world = int(os.environ.get('WORLD_SIZE', 1)); rank = int(os.environ.get('RANK', 0))
    device = torch.device(('cuda' if torch.cuda.is_available() else 'cpu') if a.device == 'auto' else a.device)
    if world > 1:
        if device.type == 'cuda': torch.cuda.set_device(int(os.environ['LOCAL_RANK'])); device = torch.device('cuda', int(os.environ['LOCAL_RANK']))
        dist.init_process_group('nccl' if device.type == 'cuda' else 'gloo')
    main_rank = rank == 0

    seed_all(a.seed)
    if a.precision == 'auto':
        use_bf16 = device.type == 'cuda' and torch.cuda.is_bf16_supported()
        amp_on = device.type == 'cuda'
    else:
        use_bf16, amp_on = a.precision == 'bf16', a.precision in ('bf16', 'fp16')
    amp_dtype = torch.bfloat16 if use_bf16 else torch.float16
    scaler = torch.amp.GradScaler(device.type, enabled=(amp_on and not use_bf16 and device.type == 'cuda'))
    if device.type == 'cuda': torch.backends.cuda.matmul.allow_tf32 = True; torch.backends.cudnn.allow_tf32 = True  # ntrain's tf32=true

    nw = default_num_workers() if a.num_workers is None else a.num_workers
    pin = device.type == 'cuda'
    train_ds, val_ds = build_data(a.model, a)
    sampler = DistributedSampler(train_ds, shuffle=True, seed=a.seed, drop_last=True) if world > 1 else None
    train_dl = DataLoader(train_ds, batch_size=a.batch_size, shuffle=sampler is None, sampler=sampler, num_workers=nw,
                          pin_memory=pin, persistent_workers=nw > 0, drop_last=True)
    if world > 1: val_ds = Subset(val_ds, range(rank, len(val_ds), world))  # each sample once; sums all-reduced below
    val_dl = DataLoader(val_ds, batch_size=2 * a.batch_size, num_workers=nw, pin_memory=pin, persistent_workers=nw > 0)

    model = build_model(a.model, a).to(device)
    if a.channels_last: model = model.to(memory_format=torch.channels_last)
    fwd = torch.compile(model) if a.compile else model
    if world > 1:
        from torch.nn.parallel import DistributedDataParallel as DDP
        fwd = DDP(fwd, device_ids=[device.index] if device.type == 'cuda' else None)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=WD)
    accum = 1
    total_steps = math.ceil(len(train_dl) / accum) * a.epochs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=LR, total_steps=total_steps, pct_start=PCT)
    loss_fn = nn.CrossEntropyLoss()
    cfg = dict(vars(a), batch_size=a.batch_size, lr=LR, weight_decay=WD, pct_start=PCT, clip_grad=CLIP, num_workers=nw, world_size=world)

    out = Path(a.out); ck = out/'ckpt'
    if main_rank: ck.mkdir(parents=True, exist_ok=True)
    log = open(out/'metrics.jsonl', 'a') if main_rank else None
    def save_checkpoint(epoch, val_loss, path):
        state = {
            'model': model.state_dict(), 'optimizer': opt.state_dict(),
            'scheduler': sched.state_dict(), 'scaler': scaler.state_dict(),
            'epoch': epoch, 'val_loss': val_loss,
            'rng': {'torch': torch.get_rng_state(), 'cuda': torch.cuda.get_rng_state_all(),
                    'numpy': np.random.get_state(), 'python': random.getstate()},
            'config': cfg,
        }
        atomic_save(state, str(path))

    t_first = t_last = None
    step, best, bad_epochs, history = 0, None, 0, []
    for epoch in range(a.epochs):
        if sampler is not None: sampler.set_epoch(epoch)   # otherwise every epoch sees the same order
        model.train()
        losses, logged, train_s, t_prev = [], 0, 0.0, time.perf_counter()
        for i, (x, y) in enumerate(train_dl):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.autocast(device_type=device.type, dtype=amp_dtype, enabled=amp_on):
                loss = loss_fn(fwd(x), y) / accum
            scaler.scale(loss).backward()
            if (i + 1) % accum == 0:
                scaler.unscale_(opt)
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=CLIP)
                scaler.step(opt); scaler.update()
                opt.zero_grad(set_to_none=True)
                sched.step()
                step += 1
                t_last = time.time()                       # the end of this optimizer step
                if t_first is None: t_first = t_last
                losses.append(loss.detach())
                if step % LOG_EVERY == 0:                  # one read-back per LOG_EVERY steps, no .item() in the step
                    vals = torch.stack(losses[logged:]).float().cpu().tolist(); logged = len(losses)
                    if log: log.write(json.dumps(dict(kind='step', epoch=epoch, step=step, loss=sum(vals) / len(vals),
                                                      lr=sched.get_last_lr()[0], time=time.time())) + '\n')
            now = time.perf_counter(); train_s += now - t_prev; t_prev = now
        train_loss = torch.stack(losses).float().mean().item() if losses else math.nan

        model.eval()
        with torch.inference_mode():
            tot = torch.zeros(3, dtype=torch.float64, device=device)   # loss sum, correct, samples
            for x, y in val_dl:
                x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
                with torch.autocast(device_type=device.type, dtype=amp_dtype, enabled=amp_on):
                    out_ = fwd(x) if world == 1 else model(x)
                    l = loss_fn(out_, y)
                tot += torch.stack([l.double() * len(y), (out_.argmax(1) == y).sum().double(), torch.tensor(len(y), dtype=torch.float64, device=device)])
            if world > 1: dist.all_reduce(tot)
            val_loss, val_acc = (tot[0] / tot[2]).item(), (tot[1] / tot[2]).item()
        improved = best is None or val_acc > best
        if improved: best, bad_epochs = val_acc, 0
        else: bad_epochs += 1
        rec = dict(kind='epoch', epoch=epoch, step=step, train_loss=train_loss, val_loss=val_loss, val_acc=val_acc,
                   lr=sched.get_last_lr()[0], epoch_time=train_s, samples_per_s=len(losses) * a.batch_size * world / max(train_s, 1e-9), time=time.time())
        history.append(rec)
        if main_rank:
            log.write(json.dumps(rec) + '\n'); log.flush()
            print(f"epoch {epoch+1}/{a.epochs}  train_loss {train_loss:.4f}  val_loss {val_loss:.4f}  val_acc {val_acc:.4f}  "
                  f"lr {rec['lr']:.2e}  {rec['samples_per_s']:.0f} samples/s" + ('  *' if improved else ''), flush=True)
            save_checkpoint(epoch, val_loss, ck/'last.pt')
            if improved: save_checkpoint(epoch, val_loss, ck/'best.pt')
        if world > 1: dist.barrier()
        if a.patience and bad_epochs >= a.patience:
            if main_rank: print(f'early stop: val_acc did not improve for {a.patience} epochs')
            break
    if log: log.close()
    if world > 1: dist.destroy_process_group()
    if main_rank:
        res = dict(tool='reference', model=a.model, t_script=T_SCRIPT, t_imported=T_IMPORTED, t_first_step=t_first, t_last_step=t_last,
                   epochs_run=len(history), steps=step, best_val_acc=best, final_val_acc=history[-1]['val_acc'] if history else None,
                   epoch_train_s=[h['epoch_time'] for h in history], samples_per_s=[h['samples_per_s'] for h in history],
                   params=sum(p.numel() for p in model.parameters()), torch_threads=torch.get_num_threads(), num_workers=nw,
                   world_size=world, device=str(device), precision='bf16' if (amp_on and use_bf16) else 'fp16' if amp_on else 'fp32',
                   t_end=time.time())
        print('BENCH_RESULT ' + json.dumps(res), flush=True)


if __name__ == '__main__':
    main()
