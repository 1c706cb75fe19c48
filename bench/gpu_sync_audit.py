"""Sync audit for bench/gpu.sh: does ntrain's training step make the host wait for the device?

    python bench/gpu_sync_audit.py --out DIR [--precisions bf16,fp32,fp16] [--resnet]

`torch.cuda.set_sync_debug_mode("warn")` makes every synchronizing CUDA call (an .item(), a .cpu(), a blocking
copy, a nonzero(), ...) raise a warning; each warning is recorded with the Python stack of the thread that made
it. A run of `ntrain.fit` (digits on CUDA, 2 epochs, `log_every=1000` so that only the first step's read-back and
the epoch ends read losses back) is made per precision, and every sync is put in one place by its stack:

  step        inside the optimizer step (`train_window`, `_micro`) or elsewhere in `train_epoch` outside the
              read-backs below: must be none for bf16 and fp32
  readback    the loss read-backs (`flush`, `step_record`, `epoch_record`): once per log interval, by design
  grad_scaler inside torch's GradScaler (fp16 only; GradScaler.step syncs by design)
  validate, save, setup, other: outside the training loop

A sync raised on a thread with no Python frame (autograd's device threads, during backward) cannot be placed:
it is printed to stderr instead, and gpu.sh counts those lines. Prints one line per precision and writes
DIR/sync_audit.json. Exit status 0 (the verdict is in the output).
Without CUDA it says so and does nothing. `--resnet` also audits bench_tasks.resnet50_synth (bf16, channels_last).
"""
import argparse, collections, json, sys, tempfile, threading, time, traceback, warnings
from pathlib import Path
import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent)); sys.path.insert(0, str(HERE))

READBACK = ('flush', 'step_record', 'epoch_record')
STEP = ('train_window', '_micro')


def place(stack)->str:
    names = [f.name for f in stack]
    files = [f.filename for f in stack]
    if any('grad_scaler' in f for f in files): return 'grad_scaler'
    if any(n in READBACK for n in names): return 'readback'
    if any(n in STEP for n in names): return 'step'
    if 'validate' in names: return 'validate'
    if any(n in ('save', 'submit', '_write', 'snapshot', 'state_dict', '_end_epoch', 'params_finite') for n in names): return 'save'
    if 'train_epoch' in names: return 'step'  # in the loop, outside the read-backs: counts against the step
    if any(n in ('setup', '_build_model', '_setup_process', '_open_run') for n in names): return 'setup'
    return 'other'


def audit(name:str, overrides:list, task=None)->dict:
    import ntrain
    counts, examples = collections.Counter(), {}
    lock = threading.Lock()
    def show(message, category, filename, lineno, file=None, line=None):
        if 'synchroniz' not in str(message): return
        st = traceback.extract_stack()[:-1]
        where = place(st)
        with lock:
            counts[where] += 1
            if where not in examples:
                examples[where] = dict(message=str(message)[:200], stack=[f'{f.filename.split("/")[-1]}:{f.lineno} {f.name}' for f in st[-8:]])
    with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
        warnings.simplefilter('always')
        warnings.showwarning = show
        torch.cuda.set_sync_debug_mode('warn')
        try: res = ntrain.fit('digits', overrides + [f'run_dir={d}/run'], task=task, quiet=True)
        finally: torch.cuda.set_sync_debug_mode('default')
    ok = counts['step'] == 0
    return dict(run=name, overrides=overrides, status=res.status, steps=res.steps, syncs=dict(counts), step_syncs=counts['step'],
                verdict='no sync in the step' if ok else f"{counts['step']} sync(s) in the step", examples=examples)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--out', required=True)
    p.add_argument('--precisions', default='bf16,fp32,fp16')
    p.add_argument('--resnet', action='store_true')
    a = p.parse_args(argv)
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    if not torch.cuda.is_available():
        print('sync audit: skipped (no CUDA device; torch.cuda.set_sync_debug_mode needs one)')
        (out/'sync_audit.json').write_text(json.dumps(dict(skipped='no CUDA')))
        return
    common = ['epochs=2', 'log_every=1000', 'num_workers=2', 'early_stop.patience=null', 'device=cuda']
    results = []
    for prec in [x for x in a.precisions.split(',') if x]:
        r = audit(f'digits {prec}', common + [f'precision={prec}'])
        results.append(r)
        print(f"sync audit, digits {prec}: {r['verdict']}; syncs by place {r['syncs']}"
              + ('  (fp16: GradScaler syncs by design)' if prec == 'fp16' else ''), flush=True)
        (out/'sync_audit.json').write_text(json.dumps(dict(torch=torch.__version__, gpu=torch.cuda.get_device_name(), results=results), indent=1))
    if a.resnet:
        from bench_tasks import resnet50_synth
        r = audit('resnet50 bf16 channels_last', ['epochs=1', 'log_every=1000', 'early_stop.patience=null', 'device=cuda', 'precision=bf16',
                                                   'channels_last=true', 'batch_size=128'], task=resnet50_synth(128 * 6, 256))
        results.append(r)
        print(f"sync audit, resnet50 bf16 channels_last: {r['verdict']}; syncs by place {r['syncs']}", flush=True)
        (out/'sync_audit.json').write_text(json.dumps(dict(torch=torch.__version__, gpu=torch.cuda.get_device_name(), results=results), indent=1))
    for r in results:
        if r['step_syncs']: print(f"  {r['run']}: first sync in the step: {r['examples'].get('step')}")


if __name__ == '__main__':
    main()
