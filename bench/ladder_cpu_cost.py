"""Rungs 1-4's CPU time (time.process_time, one thread: steadier than wall time on a shared machine) on digits and some
gallery programs, a base checkout against this one, alternating, each in a fresh process run outside both checkouts.

    OMP_NUM_THREADS=1 nice -n 19 python bench/ladder_cpu_cost.py /work/main gcn diabetes_mlp friedman_mlp --reps 3
"""
import argparse, json, os, statistics, subprocess, sys, tempfile
from pathlib import Path
HERE = Path(__file__).resolve().parent
SCRIPT = r'''
import json, sys, time, tempfile
sys.path.insert(0, sys.argv[1])
import ladder_gallery as G, ntrain
from ntrain.ladder import ladder
out = {}
for name in sys.argv[2].split(','):
    t = time.process_time()
    with tempfile.TemporaryDirectory() as d:
        if name == 'digits': ladder('digits', rungs='1-4', run_dir=d, write=False)
        else: G.run(name, 0, rungs='1-4')
    out[name] = time.process_time() - t
print('CPU ' + json.dumps(dict(out, ntrain_from=ntrain.__file__)))
'''
if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('base'); ap.add_argument('names', nargs='*'); ap.add_argument('--reps', type=int, default=3); ap.add_argument('--out', default='ladder_cpu_cost_r4.json')
    a = ap.parse_args()
    names = ['digits'] + a.names
    trees = dict(base=str(Path(a.base).resolve()), new=str(HERE.parent))
    got = {k: {n: [] for n in names} for k in trees}
    for rep in range(a.reps):
        for k in (list(trees) if rep % 2 == 0 else list(reversed(list(trees)))):
            p = subprocess.run([sys.executable, '-c', SCRIPT, str(HERE), ','.join(names)], env=dict(os.environ, PYTHONPATH=trees[k]),
                               capture_output=True, text=True, timeout=1800, cwd=tempfile.gettempdir())
            line = [l for l in p.stdout.splitlines() if l.startswith('CPU ')]
            if not line: print(p.stderr[-2000:]); raise SystemExit(f'{k} failed')
            d = json.loads(line[0][4:]); where = d.pop('ntrain_from')
            if not where.startswith(trees[k]): raise SystemExit(f'{k}: ntrain from {where}')
            for n, s in d.items(): got[k][n].append(s)
            print(k, rep, {n: round(v[-1], 2) for n, v in got[k].items()}, flush=True)
    med = {k: {n: statistics.median(v) for n, v in d.items()} for k, d in got.items()}
    res = dict(base=a.base, reps=a.reps, cpu_seconds=got, median=med, ratio={n: med['new'][n] / med['base'][n] for n in names})
    (HERE/'results'/a.out).write_text(json.dumps(res, indent=1))
    print(json.dumps(res['ratio'], indent=1))
