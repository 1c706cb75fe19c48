"""`ntrain fit digits epochs=8` with the plotter process (the default on Linux) against the same with NTRAIN_PLOTTER=0
(curves.png drawn in the training process): wall time of the whole process, in alternating pairs, one run of this
script. Writes bench/results/plotter.json.

    python bench/plotter_bench.py              # 10 pairs
    python bench/plotter_bench.py --pairs 20

Each run is a fresh process in a fresh working directory, with a fresh `run_dir=`; the environment is this one
(plus PYTHONPATH=the repository root, so the checkout's ntrain is the one run). Pair k runs the plotter side first
when k is even and second when k is odd. Ratio per pair: with the plotter / without; median and interquartile range
(inclusive quartiles)."""
from __future__ import annotations
import argparse, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def one(plotter:bool, args:list)->float:
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        if plotter: env.pop('NTRAIN_PLOTTER', None)
        else: env['NTRAIN_PLOTTER'] = '0'
        cmd = [sys.executable, '-m', 'ntrain', 'fit', 'digits', *args, f'run_dir={d}/run']
        t0 = time.perf_counter()
        r = subprocess.run(cmd, cwd=d, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=600)
        took = time.perf_counter() - t0
        if r.returncode != 0 or not Path(d, 'run', 'curves.png').exists():
            raise SystemExit(f'{cmd} failed ({r.returncode}):\n{r.stderr[-2000:]}')
        return took

def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--pairs', type=int, default=10)
    p.add_argument('--args', nargs='*', default=['epochs=8'], help='overrides for `ntrain fit digits` (default epochs=8)')
    p.add_argument('--out', default=str(ROOT/'bench'/'results'/'plotter.json'))
    a = p.parse_args()
    one(True, a.args)  # warm the page cache and matplotlib's font cache; not counted
    pairs = []
    for k in range(a.pairs):
        order = (True, False) if k % 2 == 0 else (False, True)
        t = {s: one(s, a.args) for s in order}
        pairs.append(dict(plotter=round(t[True], 4), no_plotter=round(t[False], 4), ratio=round(t[True] / t[False], 4), plotter_first=order[0]))
        print(f'pair {k + 1}/{a.pairs}: plotter {t[True]:.3f} s, NTRAIN_PLOTTER=0 {t[False]:.3f} s, ratio {t[True] / t[False]:.3f}', flush=True)
    ratios = [x['ratio'] for x in pairs]
    q1, med, q3 = statistics.quantiles(ratios, n=4, method='inclusive')
    res = dict(command=f"ntrain fit digits {' '.join(a.args)} run_dir=FRESH (cwd: a fresh temporary directory)", sides=['plotter', 'NTRAIN_PLOTTER=0'],
               pairs=pairs, ratio_median=round(statistics.median(ratios), 4), ratio_q1=round(q1, 4), ratio_q3=round(q3, 4),
               plotter_median_s=round(statistics.median(x['plotter'] for x in pairs), 3),
               no_plotter_median_s=round(statistics.median(x['no_plotter'] for x in pairs), 3),
               omp_num_threads=os.environ.get('OMP_NUM_THREADS'), cpus=os.cpu_count(), when=time.strftime('%Y-%m-%d %H:%M:%S'))
    Path(a.out).write_text(json.dumps(res, indent=1) + '\n')
    print(f"ratio plotter / NTRAIN_PLOTTER=0: median {res['ratio_median']:.3f}, IQR {res['ratio_q1']:.3f}-{res['ratio_q3']:.3f} "
          f"(medians {res['plotter_median_s']:.2f} s vs {res['no_plotter_median_s']:.2f} s) -> {a.out}")

if __name__ == '__main__': main()
