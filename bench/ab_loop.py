"""Before against after: `bench/loop_bench.py` and `ntrain fit digits` on two checkouts, side by side (run by hand).

    git -C . worktree add ../base COMMIT
    python bench/ab_loop.py ../base . --pairs 10 --e2e-pairs 5     # writes bench/results/ab_loop.json

Each pair runs `loop_bench.py --pairs 2` (two ntrain/bare pairs per mode, num_workers 0; its median, the mean of the
two) in a fresh process for each checkout, alternating which goes first, so 10 pairs hold 20 loop_bench pairs a
side; the figure per mode is the per-pair ratio of the two in-loop ratios (after / before: 1.0 is unchanged, above
is faster), median and IQR. End to end: `python -m ntrain fit digits`
(the README's main job) in a fresh directory, wall seconds, after / before per pair, alternating too. Both
checkouts are byte-compiled first (`python -m compileall`), as pip compiles a package it installs.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

def quartiles(xs):
    xs = list(xs)
    if len(xs) < 2: return dict(median=xs[0], q1=xs[0], q3=xs[0], n=len(xs))
    q = statistics.quantiles(xs, n=4, method='inclusive')
    return dict(median=statistics.median(xs), q1=q[0], q3=q[2], n=len(xs))

def loop_once(root:Path, modes, workers, inner:int=2, epochs:int=3)->dict:
    "One loop_bench pair per mode in `root`'s checkout: {mode: (ratio, ntrain steps/s, bare steps/s)}."
    with tempfile.TemporaryDirectory() as d:
        out = Path(d)/'loop.json'
        env = dict(os.environ, PYTHONPATH=str(root))
        r = subprocess.run([sys.executable, 'bench/loop_bench.py', '--pairs', str(inner), '--epochs', str(epochs), '--workers', str(workers), '--modes', *modes,
                            '--no-digits-run', '--out', str(out)], cwd=root, env=env, capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stderr[-3000:]
        res = json.loads(out.read_text())['results']
    return {x['mode']: (x['ratio_median'], x['ntrain_steps_per_s_median'], x['bare_steps_per_s_median']) for x in res}

def e2e_once(root:Path)->float:
    "Wall seconds of `python -m ntrain fit digits` with `root`'s ntrain, in a fresh directory."
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PYTHONPATH=str(root))
        t0 = time.perf_counter()
        r = subprocess.run([sys.executable, '-m', 'ntrain', 'fit', 'digits'], cwd=d, env=env, capture_output=True, text=True, timeout=900)
        wall = time.perf_counter() - t0
        assert r.returncode == 0, r.stderr[-3000:]
    return wall

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('before'); ap.add_argument('after')
    ap.add_argument('--pairs', type=int, default=10)
    ap.add_argument('--inner', type=int, default=2, help="loop_bench's own pairs per process (at least 2)")
    ap.add_argument('--epochs', type=int, default=3, help="loop_bench's timed epochs per measurement (22 steps each)")
    ap.add_argument('--e2e-pairs', type=int, default=5)
    ap.add_argument('--modes', nargs='+', default=['train', 'full'])
    ap.add_argument('--workers', type=int, default=0)
    ap.add_argument('--out', default='bench/results/ab_loop.json')
    a = ap.parse_args()
    sides = dict(before=Path(a.before).resolve(), after=Path(a.after).resolve())
    commits = {k: subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=p, capture_output=True, text=True).stdout.strip() for k, p in sides.items()}
    for p in sides.values(): subprocess.run([sys.executable, '-m', 'compileall', '-q', 'ntrain', 'bench'], cwd=p, check=True)
    rows, e2e = [], []
    out = dict(command='python bench/ab_loop.py ' + ' '.join(sys.argv[1:]), commits=commits, when=time.strftime('%Y-%m-%d %H:%M:%S'),
               loadavg_start=os.getloadavg())
    for i in range(a.pairs):
        order = ('before', 'after') if i % 2 == 0 else ('after', 'before')
        r = {s: loop_once(sides[s], a.modes, a.workers, a.inner, a.epochs) for s in order}
        rows.append(r)
        print(f'pair {i+1}/{a.pairs} ({order[0]} first): ' + '  '.join(
            f"{m} {r['before'][m][0]:.3f} -> {r['after'][m][0]:.3f}" for m in a.modes), flush=True)
    for i in range(a.e2e_pairs):
        order = ('before', 'after') if i % 2 == 0 else ('after', 'before')
        w = {s: e2e_once(sides[s]) for s in order}
        e2e.append(w)
        print(f"e2e {i+1}/{a.e2e_pairs} ({order[0]} first): {w['before']:.2f} s -> {w['after']:.2f} s", flush=True)
    out['loop'] = {m: dict(before_ratio=quartiles(r['before'][m][0] for r in rows), after_ratio=quartiles(r['after'][m][0] for r in rows),
                           after_over_before=quartiles(r['after'][m][0] / r['before'][m][0] for r in rows),
                           before_steps_per_s=quartiles(r['before'][m][1] for r in rows), after_steps_per_s=quartiles(r['after'][m][1] for r in rows))
                   for m in a.modes} if rows else {}  # (--pairs 0: end to end only)
    if e2e: out['e2e'] = dict(before_s=quartiles(w['before'] for w in e2e), after_s=quartiles(w['after'] for w in e2e),
                              after_over_before=quartiles(w['after'] / w['before'] for w in e2e))
    out['pairs'], out['e2e_pairs'], out['loadavg_end'] = rows, e2e, os.getloadavg()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=1) + '\n')
    for m, v in out['loop'].items():
        print(f"{m}: in-loop ratio before {v['before_ratio']['median']:.3f}, after {v['after_ratio']['median']:.3f}; "
              f"after/before {v['after_over_before']['median']:.3f} (IQR {v['after_over_before']['q1']:.3f}-{v['after_over_before']['q3']:.3f})")
    if e2e: print(f"e2e: after/before {out['e2e']['after_over_before']['median']:.3f} (IQR {out['e2e']['after_over_before']['q1']:.3f}-{out['e2e']['after_over_before']['q3']:.3f})")
    print(f'written {a.out}')

if __name__ == '__main__':
    main()
