"""What `loggers=[mlflow]` adds to a run's wall time: `ntrain fit digits` with no tracker, with a tracking URI where
nothing listens, and with the default SQLite database (one made beforehand: a project's second run), in alternating
triples, one run of this script. Writes bench/results/tracker.json. The issue's bound: an unreachable tracker adds at
most 5 s; the drain at the end waits at most 10 s.

    python bench/tracker_bench.py               # 5 triples of `ntrain fit digits epochs=2`
    python bench/tracker_bench.py --triples 10 --args epochs=4

Each run is a fresh process in a fresh working directory, with a fresh run directory under one runs root per side
(the SQLite side's database is made once, before the first timed run). Triple k rotates the order of the sides.
Reported per side: the median wall time, and the median of the per-triple differences from the run with no tracker."""
from __future__ import annotations
import argparse, json, os, socket, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIDES = ('none', 'unreachable', 'sqlite')

def dead_port()->int:
    s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
    return port

def one(side:str, root:Path, k:int, args:list)->float:
    extra = {'none': [], 'unreachable': ['loggers=[mlflow]', f'tracking_uri=http://127.0.0.1:{dead_port()}'], 'sqlite': ['loggers=[mlflow]']}[side]
    with tempfile.TemporaryDirectory() as cwd:
        env = dict(os.environ, PYTHONPATH=str(ROOT)); env.pop('MLFLOW_TRACKING_URI', None)
        cmd = [sys.executable, '-m', 'ntrain', 'fit', 'digits', *args, *extra, f'run_dir={root/side/f"r{k}"}']
        t0 = time.perf_counter()
        r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=600)
        took = time.perf_counter() - t0
    if r.returncode != 0: raise SystemExit(f'{cmd} failed ({r.returncode}):\n{r.stderr[-2000:]}')
    return took

def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--triples', type=int, default=5)
    p.add_argument('--args', nargs='*', default=['epochs=2', 'num_workers=0', 'progress=false'], help='overrides for `ntrain fit digits`')
    p.add_argument('--out', default=str(ROOT/'bench'/'results'/'tracker.json'))
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        one('sqlite', root, -1, a.args)  # makes the database (its tables: several seconds, once), warms the caches; not counted
        rows = []
        for k in range(a.triples):
            order = SIDES[k % 3:] + SIDES[:k % 3]
            t = {s: one(s, root, k, a.args) for s in order}
            rows.append({s: round(t[s], 3) for s in SIDES} | dict(order=list(order)))
            print(f'triple {k + 1}/{a.triples}: ' + ', '.join(f'{s} {t[s]:.2f} s' for s in SIDES), flush=True)
    med = {s: round(statistics.median(r[s] for r in rows), 3) for s in SIDES}
    added = {s: round(statistics.median(r[s] - r['none'] for r in rows), 3) for s in SIDES[1:]}
    res = dict(command=f"ntrain fit digits {' '.join(a.args)} [loggers=[mlflow] [tracking_uri=http://127.0.0.1:DEAD]] run_dir=FRESH",
               rows=rows, median_s=med, added_median_s=added, omp_num_threads=os.environ.get('OMP_NUM_THREADS'), cpus=os.cpu_count(),
               when=time.strftime('%Y-%m-%d %H:%M:%S'))
    Path(a.out).write_text(json.dumps(res, indent=1) + '\n')
    print(f"median wall time: {med}; added over no tracker (median of triples): {added} -> {a.out}")

if __name__ == '__main__': main()
