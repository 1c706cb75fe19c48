"""Scale: the training loop's time per optimizer step at 1, 2 and 4 processes, ntrain against the reference script.

Run by hand, from the repository root:

    OMP_NUM_THREADS=1 python bench/dist_bench.py --pairs 5          # ~10 min on 2 cores; writes bench/results/dist.json

At each process count N, one round runs both sides back to back, in alternating order:
  ntrain     `ntrain fit` (N=1) or `ntrain launch --nproc N` (N>1; `--force` where N exceeds the CPUs)
  reference  bench/reference_fit.py (N=1) or `torchrun --standalone --nproc-per-node N bench/reference_fit.py`
on the digits CNN with the same per-process batch, num_workers 0, fp32, early stopping off and `--epochs` epochs.
Time per step comes from each run's own epoch records (`epoch_time`: training only, no validation or checkpoints),
over the epochs after the first (which holds the warm-up). Figures:
  - overhead at N: ntrain's time per step / the reference's, per round (median and IQR);
  - DDP's cost: time per step at N / at 1 process, per round, on each side. On a 2-core machine N processes also
    share the cores (4 processes on 2 cores run two to a core), so this is an upper bound on what the all-reduce costs.
"""
import argparse, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable

def torchrun(n:int)->list:
    exe = Path(PY).parent/'torchrun'
    return ([str(exe)] if exe.exists() else [PY, '-m', 'torch.distributed.run']) + ['--standalone', f'--nproc-per-node={n}']

def command(side:str, n:int, rd:Path, epochs:int, batch:int)->list:
    if side == 'ntrain':
        args = ['digits', f'epochs={epochs}', 'num_workers=0', f'batch_size={batch}', f'run_dir={rd}', 'early_stop.patience=null',
                'progress=false', 'precision=fp32']
        if n == 1: return [PY, '-m', 'ntrain', 'fit', *args]
        return [PY, '-m', 'ntrain', 'launch', *args, '--nproc', str(n)] + (['--force'] if n > len(os.sched_getaffinity(0)) else [])
    script = [str(ROOT/'bench'/'reference_fit.py'), '--model', 'cnn', '--epochs', str(epochs), '--num-workers', '0', '--patience', '0',
              '--batch-size', str(batch), '--precision', 'fp32', '--out', str(rd)]
    return ([PY] if n == 1 else torchrun(n)) + script

def s_per_step(rd:Path)->float:
    recs = [json.loads(l) for l in (rd/'metrics.jsonl').read_text().splitlines() if '"kind": "epoch"' in l]
    if len(recs) < 2: raise RuntimeError(f'{rd}: {len(recs)} epoch records')
    return sum(r['epoch_time'] for r in recs[1:]) / (recs[-1]['step'] - recs[0]['step'])

def run(side:str, n:int, work:Path, epochs:int, batch:int)->float:
    rd = work/f'{side}-{n}-{time.time_ns()}'
    cmd = command(side, n, rd, epochs, batch)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=work, env=dict(os.environ, OMP_NUM_THREADS='1'))
    if r.returncode != 0: raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}\n{(r.stderr or r.stdout)[-2000:]}")
    t = s_per_step(rd); shutil.rmtree(rd, ignore_errors=True)
    return t

def quartiles(xs)->dict:
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return dict(median=statistics.median(xs), q1=q[0], q3=q[2], n=len(xs))

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--pairs', type=int, default=5)
    p.add_argument('--nprocs', type=int, nargs='+', default=[1, 2, 4])
    p.add_argument('--epochs', type=int, default=5)
    p.add_argument('--batch-size', type=int, default=32, help='per process')
    p.add_argument('--out', default=str(ROOT/'bench'/'results'/'dist.json'))
    a = p.parse_args(argv)
    t = {(s, n): [] for s in ('ntrain', 'reference') for n in a.nprocs}
    load0, t0 = os.getloadavg(), time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        for i in range(a.pairs):
            for n in a.nprocs:
                for s in (('ntrain', 'reference') if (i + n) % 2 == 0 else ('reference', 'ntrain')):
                    t[s, n].append(run(s, n, Path(d), a.epochs, a.batch_size))
                print(f"round {i+1}/{a.pairs} nproc {n}: ntrain {t['ntrain', n][-1]*1e3:.2f} ms/step, "
                      f"reference {t['reference', n][-1]*1e3:.2f} ms/step, ratio {t['ntrain', n][-1]/t['reference', n][-1]:.3f}", flush=True)
    one = min(a.nprocs)
    out = dict(bench='dist_bench', command='OMP_NUM_THREADS=1 python bench/dist_bench.py ' + ' '.join(sys.argv[1:] if argv is None else argv),
               when=time.strftime('%Y-%m-%d %H:%M:%S'), wall_s=time.perf_counter() - t0, load_avg=[load0, os.getloadavg()],
               machine=dict(cpus=os.cpu_count(), affinity=len(os.sched_getaffinity(0)), platform=platform.platform()),
               settings=dict(epochs=a.epochs, batch_size_per_process=a.batch_size, num_workers=0, precision='fp32', backend='gloo'),
               seconds_per_step={f'{s}_{n}': quartiles(v) for (s, n), v in t.items()},
               overhead={str(n): quartiles([x / y for x, y in zip(t['ntrain', n], t['reference', n])]) for n in a.nprocs},
               scale={s: {str(n): quartiles([x / y for x, y in zip(t[s, n], t[s, one])]) for n in a.nprocs if n != one}
                      for s in ('ntrain', 'reference')})
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=1))
    for n in a.nprocs:
        q = out['overhead'][str(n)]
        print(f"nproc {n}: ntrain/reference time per step {q['median']:.3f} (IQR {q['q1']:.3f}-{q['q3']:.3f})")
    print(f'written {a.out}')

if __name__ == '__main__': main()
