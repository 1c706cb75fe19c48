"""The same work as bench/reference_fit.py (and `ntrain fit digits epochs=8`) with PyTorch Lightning: a
LightningModule and a Trainer as a Lightning user writes them. Benchmark-only: Lightning is never an ntrain
requirement (install line in bench/README.md).

    python bench/lightning_fit.py                       # digits CNN, 8 epochs, in ./pl-run
    python bench/lightning_fit.py --model mlp --epochs 3
    python bench/lightning_fit.py --devices 2           # DDP on 2 CPU processes, Lightning's own launcher

Same data, split, shift augmentation in the worker, loader (batch 64, shuffle, drop_last, validation batch 128,
persistent workers, ntrain's default worker count), model, AdamW, OneCycle stepped every step, gradient clipping
1.0 (`gradient_clip_val`), precision (32-true on the CPU; `--precision bf16-mixed` on a GPU), early stopping on
val_acc with patience 4, seed 0 (`seed_everything`), all from reference_fit.py. Lightning's side of things, left at
its defaults except where the comparison needs a setting:
- the progress bar off; `CSVLogger` (the run's metrics file); `log_every_n_steps=10` (ntrain's digits log_every);
  the train loss logged on_step and on_epoch, val_loss and val_acc on_epoch (weighted by batch size: exact);
- `ModelCheckpoint(monitor='val_acc', mode='max', save_top_k=1, save_last=True)`: best.ckpt and last.ckpt every
  epoch, Lightning's full checkpoint (model, optimizer, scheduler, loops, callbacks). Lightning writes them
  without fsync (as users get them);
- Lightning's defaults stay: the model summary, the two sanity-check validation batches before training.

Prints `BENCH_RESULT {json}` at exit (rank 0), with the stamps of reference_fit.py: t_first_step and t_last_step
are taken in `on_train_batch_end`, which Lightning calls right after the optimizer step (the OneCycle step follows
within microseconds).
"""
import time
T_SCRIPT = time.time()
import argparse, json, math, os, sys, warnings
from pathlib import Path
import torch
from torch import nn
import pytorch_lightning as pl
from pytorch_lightning.callbacks import ModelCheckpoint, EarlyStopping, Callback
from pytorch_lightning.loggers import CSVLogger
from torch.utils.data import DataLoader
sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference_fit import build_data, build_model, default_num_workers, BATCH, LR, WD, PCT, CLIP, LOG_EVERY
T_IMPORTED = time.time()


class LitClassifier(pl.LightningModule):
    def __init__(self, net:nn.Module, total_steps:int, compile:bool=False):
        super().__init__()
        self.net, self.total_steps = net, total_steps
        self.fwd = torch.compile(net) if compile else net
        self.loss_fn = nn.CrossEntropyLoss()
    def forward(self, x): return self.fwd(x)
    def training_step(self, batch, i):
        x, y = batch
        loss = self.loss_fn(self(x), y)
        self.log('train_loss', loss, on_step=True, on_epoch=True, batch_size=len(y))
        return loss
    def validation_step(self, batch, i):
        x, y = batch
        out = self(x)
        self.log('val_loss', self.loss_fn(out, y), on_epoch=True, batch_size=len(y))
        self.log('val_acc', (out.argmax(1) == y).float().mean(), on_epoch=True, batch_size=len(y))
    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=LR, weight_decay=WD)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=LR, total_steps=self.total_steps, pct_start=PCT)
        return dict(optimizer=opt, lr_scheduler=dict(scheduler=sched, interval='step'))


class StepClock(Callback):
    "Wall-clock stamps of the first and the last optimizer step."
    def __init__(self): self.first = self.last = None; self.steps = 0
    def on_train_batch_end(self, trainer, module, outputs, batch, i):
        self.last = time.time(); self.steps += 1
        if self.first is None: self.first = self.last


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--epochs', type=int, default=8)
    p.add_argument('--model', default='cnn', choices=['cnn', 'mlp', 'resnet50'])
    p.add_argument('--width', type=int, default=1024); p.add_argument('--depth', type=int, default=4)
    p.add_argument('--out', default='pl-run')
    p.add_argument('--num-workers', type=int, default=None)
    p.add_argument('--patience', type=int, default=4)
    p.add_argument('--batch-size', type=int, default=BATCH)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--devices', type=int, default=1)
    p.add_argument('--accelerator', default='auto')
    p.add_argument('--precision', default='32-true', help="Lightning's precision flag: 32-true, bf16-mixed, 16-mixed")
    p.add_argument('--compile', action='store_true')
    p.add_argument('--train-samples', type=int, default=256 * 40); p.add_argument('--valid-samples', type=int, default=512)
    p.add_argument('--image-size', type=int, default=224)
    a = p.parse_args(argv)
    pl.seed_everything(a.seed, workers=False, verbose=False)
    if a.devices > 1: os.environ.setdefault('LOCAL_WORLD_SIZE', str(a.devices))  # ntrain's default worker count per process
    nw = default_num_workers() if a.num_workers is None else a.num_workers
    pin = torch.cuda.is_available() and a.accelerator != 'cpu'
    train_ds, val_ds = build_data(a.model, a)
    train_dl = DataLoader(train_ds, batch_size=a.batch_size, shuffle=True, num_workers=nw, pin_memory=pin,
                          persistent_workers=nw > 0, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=2 * a.batch_size, num_workers=nw, pin_memory=pin, persistent_workers=nw > 0)
    total_steps = (len(train_dl) // a.devices) * a.epochs  # DistributedSampler splits the batches among the processes
    net = build_model(a.model, a)
    module = LitClassifier(net, total_steps, a.compile)
    out = Path(a.out)
    clock = StepClock()
    ckpt = ModelCheckpoint(dirpath=out/'ckpt', filename='best', monitor='val_acc', mode='max', save_top_k=1, save_last=True)
    callbacks = [ckpt, clock] + ([EarlyStopping(monitor='val_acc', mode='max', patience=a.patience)] if a.patience else [])
    strategy = 'ddp' if a.devices > 1 else 'auto'
    trainer = pl.Trainer(max_epochs=a.epochs, accelerator=a.accelerator, devices=a.devices, strategy=strategy,
                         precision=a.precision, enable_progress_bar=False, logger=CSVLogger(str(out), name='', version=''),
                         callbacks=callbacks, gradient_clip_val=CLIP, log_every_n_steps=LOG_EVERY, default_root_dir=str(out))
    with warnings.catch_warnings():
        warnings.filterwarnings('ignore', message='.*does not have many workers.*')
        trainer.fit(module, train_dl, val_dl)
    if trainer.global_rank == 0:
        m = trainer.callback_metrics
        best = ckpt.best_model_score
        res = dict(tool='lightning', model=a.model, t_script=T_SCRIPT, t_imported=T_IMPORTED, t_first_step=clock.first, t_last_step=clock.last,
                   epochs_run=trainer.current_epoch, steps=trainer.global_step, best_val_acc=float(best) if best is not None else None,
                   final_val_acc=float(m['val_acc']) if 'val_acc' in m else None, params=sum(p.numel() for p in net.parameters()),
                   torch_threads=torch.get_num_threads(), num_workers=nw, world_size=trainer.world_size, device=str(module.device),
                   precision=a.precision, t_end=time.time())
        print('BENCH_RESULT ' + json.dumps(res), flush=True)


if __name__ == '__main__':
    main()
