"""ResNet-50 on synthetic ImageNet-shaped data, for bench/gpu.sh (the GPU path). Imports nothing from ntrain.

    python bench/gpu_resnet.py throughput --out DIR          # images/s: fp32 eager vs bf16 + channels_last (+ compile)
    python bench/gpu_resnet.py compare --out DIR             # the reference loop against ntrain on ResNet-50

throughput: one fixed batch already on the device (uint8 images, 3x224x224, batch 256, 1000 classes), so the
figure is the model's training step and nothing else, as the public anchors measure it (NVIDIA's reference
ResNet-50: 2,470 img/s with AMP on an A100-80GB; timm: about 2,600 img/s on an A100). SGD (lr 0.1, momentum 0.9,
weight decay 1e-4), cross-entropy, cudnn.benchmark on. Variants, in this order (the slowest to build last):
  fp32              fp32, NCHW, eager (torch's default TF32 settings)
  bf16_cl           bf16 autocast + channels_last, eager
  bf16_cl_compile   bf16 autocast + channels_last + torch.compile (inductor, default mode)
Each: `--warmup` untimed steps (the compile happens there), then `--steps` timed steps between two
synchronizations; images/s = steps x batch / seconds. Every variant's result is appended to DIR/resnet50.jsonl and
printed as soon as it is known; a variant that would pass `--deadline` (epoch seconds) is skipped.

compare: bench/reference_fit.py --model resnet50 against `ntrain fit` of bench/bench_tasks.py:resnet50_synth,
both bf16 autocast + channels_last, AdamW + OneCycle, batch 256, 2 epochs of `--train-samples`, ntrain's default
workers, loss read back every 10 steps on both sides. The figure: training samples/s of the second epoch from each
side's own epoch record (the sum of per-step times, data wait included), and its ratio ntrain / reference.

Without CUDA both run a tiny rehearsal (batch 2, 32x32 images, a few steps, fp32, no compile) to prove the code paths.
"""
import argparse, json, os, subprocess, sys, time
from pathlib import Path
import torch
from torch import nn

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from resnet50 import resnet50


def env_info()->dict:
    "The machine and versions, for every record (the lent machine may have no git: then commit is None)."
    import platform
    try: commit = subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip() or None
    except Exception: commit = None
    return dict(python=platform.python_version(), torch=torch.__version__, cuda=torch.version.cuda, cpu_count=os.cpu_count(),
                gpu=torch.cuda.get_device_name() if torch.cuda.is_available() else None, commit=commit)

_ENV = None
def emit(out:Path, rec:dict):
    global _ENV
    if _ENV is None: _ENV = env_info()
    rec = dict(rec, loadavg=os.getloadavg(), **_ENV, time=time.time())
    with open(out/'resnet50.jsonl', 'a') as f: f.write(json.dumps(rec) + '\n')
    print(json.dumps(rec), flush=True)


def throughput(a):
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    cuda = torch.cuda.is_available()
    dev = torch.device('cuda' if cuda else 'cpu')
    B, S, steps, warm = (a.batch, a.image_size, a.steps, a.warmup) if cuda else (2, 32, 2, 1)
    torch.backends.cudnn.benchmark = True
    g = torch.Generator(device='cpu').manual_seed(0)
    x = torch.randint(0, 256, (B, 3, S, S), dtype=torch.uint8, generator=g).to(dev)
    y = torch.randint(0, 1000, (B,), generator=g).to(dev)
    variants = [v for v in a.variants.split(',') if v]
    for name in variants:
        if a.deadline and time.time() > a.deadline - 10:
            emit(out, dict(kind='throughput', variant=name, skipped='time budget spent')); continue
        if not cuda and 'compile' in name:
            emit(out, dict(kind='throughput', variant=name, skipped='no CUDA: inductor on the CPU is too slow for a rehearsal')); continue
        torch.manual_seed(0)
        model = resnet50().to(dev)
        cl, bf16, comp = '_cl' in name, name.startswith('bf16'), name.endswith('compile')
        if cl: model = model.to(memory_format=torch.channels_last)
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
        fwd = torch.compile(model) if comp else model
        loss_fn = nn.CrossEntropyLoss()
        def step():
            with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=bf16):
                loss = loss_fn(fwd(x), y)
            loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
        t0 = time.perf_counter()
        for _ in range(warm): step()
        if cuda: torch.cuda.synchronize()
        t1 = time.perf_counter()
        for _ in range(steps): step()
        if cuda: torch.cuda.synchronize()
        dt = time.perf_counter() - t1
        rec = dict(kind='throughput', variant=name, device=torch.cuda.get_device_name() if cuda else 'cpu', batch=B, image_size=S,
                   steps=steps, images_per_s=steps * B / dt, warmup_s=t1 - t0,
                   max_mem_gib=torch.cuda.max_memory_allocated() / 2**30 if cuda else None)
        emit(out, rec)
        del model, opt, fwd
        if cuda: torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    res = {json.loads(l)['variant']: json.loads(l) for l in (out/'resnet50.jsonl').read_text().splitlines() if '"throughput"' in l}
    base, best = res.get('fp32', {}).get('images_per_s'), max((r.get('images_per_s') or 0 for r in res.values()), default=0)
    if base and best: print(f'ResNet-50 best/fp32 eager: {best / base:.2f}x ({best:,.0f} vs {base:,.0f} img/s); anchors: 2,470 (NVIDIA, A100 AMP), ~2,600 (timm, A100)')


def compare(a):
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    cuda = torch.cuda.is_available()
    n, B, S, prec = (a.train_samples, a.batch, a.image_size, 'bf16') if cuda else (8, 2, 32, 'fp32')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')]))
    ref_cmd = [sys.executable, str(HERE/'reference_fit.py'), '--model', 'resnet50', '--epochs', '2', '--patience', '0',
               '--precision', prec, '--channels-last', '--batch-size', str(B), '--train-samples', str(n),
               '--valid-samples', str(2 * B), '--image-size', str(S), '--out', str(out/'ref_r50')]
    nt_cmd = [sys.executable, '-m', 'ntrain', 'fit', 'digits', 'task=bench.bench_tasks:resnet50_synth', f'task_args.train_samples={n}',
              f'task_args.valid_samples={2 * B}', f'task_args.image_size={S}', f'precision={prec}', 'channels_last=true', 'epochs=2',
              'early_stop.patience=null', f'batch_size={B}', 'log_every=10', f'run_dir={out/"ntrain_r50"}']
    res = {}
    for side, cmd in (('reference', ref_cmd), ('ntrain', nt_cmd)):
        left = (a.deadline - time.time() - 5) if a.deadline else 600
        if left < 20: emit(out, dict(kind='compare', side=side, skipped='time budget spent')); continue
        t0 = time.perf_counter()
        try: r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=left)
        except subprocess.TimeoutExpired:
            emit(out, dict(kind='compare', side=side, error=f'timed out after {left:.0f} s')); continue
        wall = time.perf_counter() - t0
        (out/f'{side}_r50.log').write_text(r.stdout + r.stderr)
        if r.returncode != 0:
            emit(out, dict(kind='compare', side=side, error=(r.stderr or r.stdout)[-1500:], wall_s=wall)); continue
        if side == 'reference':
            b = next(json.loads(l[13:]) for l in reversed(r.stdout.splitlines()) if l.startswith('BENCH_RESULT '))
            sps = b['samples_per_s']
        else:
            recs = [json.loads(l) for l in (out/'ntrain_r50'/'metrics.jsonl').read_text().splitlines()]
            sps = [x['samples_per_s'] for x in recs if x.get('kind') == 'epoch']
        res[side] = sps[-1]
        emit(out, dict(kind='compare', side=side, samples_per_s_by_epoch=sps, wall_s=wall, batch=B, image_size=S, precision=prec, train_samples=n))
    if len(res) == 2:
        emit(out, dict(kind='compare', side='ratio', ntrain_over_reference=res['ntrain'] / res['reference'],
                       note='training samples/s of epoch 2, each from its own epoch record'))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('what', choices=['throughput', 'compare'])
    p.add_argument('--out', required=True)
    p.add_argument('--batch', type=int, default=256)
    p.add_argument('--image-size', type=int, default=224)
    p.add_argument('--steps', type=int, default=30)
    p.add_argument('--warmup', type=int, default=10)
    p.add_argument('--variants', default='fp32,bf16_cl,bf16_cl_compile')
    p.add_argument('--train-samples', type=int, default=256 * 30)
    p.add_argument('--deadline', type=float, default=None, help='epoch seconds: skip what would start too late')
    a = p.parse_args(argv)
    (throughput if a.what == 'throughput' else compare)(a)


if __name__ == '__main__':
    main()
