"""The per-step cost of DDP on 2 CPU processes (gloo) against 1 process, at the same per-process batch.

Run by hand:  OMP_NUM_THREADS=1 python bench/dist_bench.py --pairs 5
Writes bench/results/dist.json. Each measurement is a whole `ntrain fit` / `ntrain launch` of the digits example
(num_workers=0, batch 64 per process, 3 epochs); steps/s comes from the run's own epoch records (training time
only, excluding validation and checkpoints). Pairs alternate which side runs first; the figure is the median and
IQR of the per-pair ratio of time per step (2 processes / 1 process). On a 2-core machine the two processes also
compete for the cores, so this is an upper bound on what DDP's all-reduce costs.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

def run(nproc:int, d:Path)->float:
    rd = d/f'n{nproc}-{time.time_ns()}'
    args = ['digits', 'epochs=3', 'num_workers=0', 'batch_size=64', f'run_dir={rd}', 'early_stop.patience=null']
    cmd = [sys.executable, '-m', 'ntrain'] + (['fit', *args] if nproc == 1 else ['launch', *args, '--nproc', str(nproc)])
    subprocess.run(cmd, check=True, capture_output=True, timeout=600, env=dict(os.environ, OMP_NUM_THREADS='1'))
    recs = [json.loads(l) for l in (rd/'metrics.jsonl').read_text().splitlines() if '"kind": "epoch"' in l]
    steps = recs[-1]['step'] - recs[0]['step']
    secs = sum(r['epoch_time'] for r in recs[1:])  # epoch 0 holds the warm-up
    return secs / steps

def main():
    p = argparse.ArgumentParser(); p.add_argument('--pairs', type=int, default=5); a = p.parse_args()
    ratios, detail = [], []
    with tempfile.TemporaryDirectory() as d:
        for i in range(a.pairs):
            order = (1, 2) if i % 2 == 0 else (2, 1)
            t = {n: run(n, Path(d)) for n in order}
            ratios.append(t[2] / t[1]); detail.append(dict(one_s_per_step=t[1], two_s_per_step=t[2], ratio=t[2] / t[1]))
            print(f'pair {i}: 1 proc {t[1]*1e3:.2f} ms/step, 2 procs {t[2]*1e3:.2f} ms/step, ratio {t[2]/t[1]:.3f}', flush=True)
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    out = dict(bench='dist_bench', command=f'OMP_NUM_THREADS=1 python bench/dist_bench.py --pairs {a.pairs}',
               when=time.strftime('%Y-%m-%d %H:%M:%S'), load_avg=os.getloadavg(),
               ratio_time_per_step_2proc_over_1proc=dict(median=statistics.median(ratios), q1=q[0], q3=q[2]), pairs=detail)
    Path('bench/results').mkdir(parents=True, exist_ok=True)
    Path('bench/results/dist.json').write_text(json.dumps(out, indent=1))
    print(json.dumps(out['ratio_time_per_step_2proc_over_1proc']))

if __name__ == '__main__': main()
