"""The ladder's verdicts over seeds on the gallery (bench/ladder_gallery.py): false fails of healthy programs, false passes
of broken ones (not caught at their rung with their cause), per row with Wilson 95% intervals, each half apart.

    OMP_NUM_THREADS=1 nice -n 10 python bench/ladder_sweep.py --rungs 1-4 --seeds 10 --half C
    OMP_NUM_THREADS=1 nice -n 10 python bench/ladder_sweep.py --cost BASE_CHECKOUT   # rungs 1-3 time against a base checkout

Writes bench/results/ladder_sweep_<half>.json (or ladder_cost.json) and prints a markdown table.
A healthy run is a false fail when any rung in `--rungs` fails (or is refused, or raises). A broken program whose
expected rung is within `--rungs` is a false pass unless that rung's verdict is one it expects and names one of its
causes; rows expected at a later rung (rung 4) are skipped under `--rungs 1-3`.
"""
from __future__ import annotations
import argparse, json, math, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

def wilson(k:int, n:int, z:float=1.96)->tuple:
    "Wilson score interval of k successes in n trials."
    if n == 0: return (0.0, 1.0)
    p = k / n; d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d; h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))

def rung_range(s:str)->list:
    a, _, b = s.partition('-'); return list(range(int(a), int(b or a) + 1))

def _rungs(exp)->tuple:
    "The rungs at which a broken program counts as caught: one, or a tuple of them."
    return tuple(exp['rung']) if isinstance(exp['rung'], (tuple, list)) else (exp['rung'],)

def judge(name, seed, rungs):
    import ladder_gallery as G
    t = time.perf_counter()
    try: res = G.run(name, seed, rungs=rungs)
    except Exception as e: return dict(error=f'{type(e).__name__}: {e}'[:300], seconds=time.perf_counter() - t)
    out = dict(seconds=time.perf_counter() - t, rungs={r.rung: dict(verdict=r.verdict, causes=r.causes, curve=r.numbers.get('curve'),
               steps=r.numbers.get('steps'), diagnosis=r.diagnosis[:400]) for r in res.rungs})
    return out

def sweep(args, save=None):
    "Every selected row over seeds 0..seeds-1, seed by seed (each seed's rows before the next seed), `save(rows)` after each seed: a sweep cut short keeps equal seeds per row."
    import ladder_gallery as G
    rs = rung_range(args.rungs)
    rows = []
    halves = {'A+B': {'A', 'B'}, 'A+B+C': {'A', 'B', 'C'}}.get(args.half, {args.half})  # 'AA' to 'AD' are halves of their own
    for kind, table in (('healthy', G.HEALTHY), ('broken', G.BROKEN)):
        for name in table:
            if args.half != 'all' and G.HALF[name] not in halves: continue
            if args.only and name not in args.only: continue
            exp = None if kind == 'healthy' else table[name][1]
            if exp and not set(_rungs(exp)) & set(rs): continue
            rows.append(dict(name=name, kind=kind, half=G.HALF[name], expect=exp, runs=[], wrong=0, n=0))
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for row in rows:
            name, kind, exp = row['name'], row['kind'], row['expect']
            r = judge(name, seed, args.rungs)
            if kind == 'healthy':
                bad = 'error' in r or any(v['verdict'] in ('fail', 'refused') for v in r['rungs'].values())
            else:
                vs = [r.get('rungs', {}).get(k) for k in _rungs(exp)]  # caught at any of its rungs (rung 3 or 4 for a learning rate)
                bad = not any(v is not None and v['verdict'] in exp['verdicts'] and (not exp['causes'] or set(exp['causes']) & set(v['causes'])) for v in vs)
            r.update(seed=seed, wrong=bool(bad)); row['runs'].append(r); row['wrong'] += bool(bad); row['n'] += 1
            print(f"{name} seed {seed}: {'WRONG' if bad else 'ok'} {r.get('error') or [(k, v['verdict'], v['causes']) for k, v in r['rungs'].items()]} {r['seconds']:.1f}s", flush=True)
        if save: save(rows, seed + 1)
    return rows

def table(rows, title)->str:
    out = [f'#### {title}', '', '| program | kind | wrong / runs | rate | Wilson 95% | verdicts seen |', '|---|---|---|---|---|---|']
    for kind in ('healthy', 'broken'):
        ks = [r for r in rows if r['kind'] == kind]
        for r in ks:
            lo, hi = wilson(r['wrong'], r['n'])
            seen = {}
            for x in r['runs']:
                key = 'error' if 'error' in x else ' '.join(f"{k}:{v['verdict']}" + (f"({','.join(v['causes'])})" if v['causes'] else '') for k, v in x['rungs'].items() if v['verdict'] != 'pass' or str(k) == '3' and v.get('curve'))
                seen[key or 'all pass'] = seen.get(key or 'all pass', 0) + 1
            out.append(f"| {r['name']} | {kind} | {r['wrong']} / {r['n']} | {r['wrong'] / max(r['n'], 1):.0%} | {lo:.0%}-{hi:.0%} | " +
                       '; '.join(f'{k} x{v}' for k, v in seen.items()) + ' |')
        k, n = sum(r['wrong'] for r in ks), sum(r['n'] for r in ks)
        if n:
            lo, hi = wilson(k, n)
            out.append(f"| **all {kind}** | {'false fail' if kind == 'healthy' else 'false pass'} | {k} / {n} | {k / n:.1%} | {lo:.1%}-{hi:.1%} | |")
    return '\n'.join(out)

TIME_SCRIPT = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
import ladder_gallery as G
from ntrain.ladder import ladder
import tempfile
out = {}
for name in sys.argv[2].split(','):
    t = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        if name == 'digits': ladder('digits', rungs=sys.argv[3], run_dir=d, write=False)
        else: G.run(name, 0, rungs=sys.argv[3])
    out[name] = time.perf_counter() - t
import ntrain; out['ntrain_from'] = ntrain.__file__
print('TIMES ' + json.dumps(out))
'''

def cost(args):
    "Rungs `--rungs` on digits and each healthy program (`--skip` some, or `--skip all`), base checkout against this one, alternating, in fresh processes."
    import ladder_gallery as G
    names = ['digits'] + [n for n in G.HEALTHY if n not in (args.skip or []) and 'all' not in (args.skip or [])]
    trees = dict(base=str(Path(args.cost).resolve()), new=str(HERE.parent))
    got = {k: {n: [] for n in names} for k in trees}
    for rep in range(args.reps):
        for k, tree in (trees.items() if rep % 2 == 0 else reversed(list(trees.items()))):
            env = dict(os.environ, PYTHONPATH=tree)
            p = subprocess.run([sys.executable, '-c', TIME_SCRIPT, str(HERE), ','.join(names), args.rungs], env=env, capture_output=True, text=True, timeout=3600,
                               cwd=tempfile.gettempdir())  # not the checkout: `python -c` puts the working directory before PYTHONPATH
            line = [l for l in p.stdout.splitlines() if l.startswith('TIMES ')]
            if not line: print(p.stderr[-2000:]); raise SystemExit(f'{k} failed')
            times = json.loads(line[0][6:]); where = times.pop('ntrain_from')
            if not where.startswith(tree): raise SystemExit(f'{k}: ntrain came from {where}, not {tree}')
            for n, s in times.items(): got[k][n].append(s)
            print(k, rep, {n: round(v[-1], 2) for n, v in got[k].items()}, flush=True)
    med = {k: {n: statistics.median(v) for n, v in d.items()} for k, d in got.items()}
    ratios = {n: med['new'][n] / med['base'][n] for n in names}
    gal = [n for n in names if n != 'digits']
    res = dict(base=args.cost, rungs=args.rungs, reps=args.reps, seconds=got, median=med, ratio=ratios, digits_ratio=ratios['digits'],
               gallery_median_ratio=statistics.median(ratios[n] for n in gal) if gal else None,
               gallery_median_program_seconds=dict(base=statistics.median(med['base'][n] for n in gal), new=statistics.median(med['new'][n] for n in gal)) if gal else None)
    return res

if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--rungs', default='1-4'); ap.add_argument('--seeds', type=int, default=10); ap.add_argument('--first-seed', type=int, default=0)
    ap.add_argument('--half', default='all', choices=['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'AA', 'AB', 'AC', 'AD', 'AE', 'AF', 'AG', 'AH', 'AI', 'AJ', 'AK', 'AL', 'AM', 'AN', 'AO', 'AP', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AV', 'AW', 'AX', 'AY', 'AZ', 'BA', 'BB', 'BC', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'A+B', 'A+B+C', 'all']); ap.add_argument('--only', nargs='*'); ap.add_argument('--out', help='the JSON file name under bench/results/')
    ap.add_argument('--cost', help='a base checkout: time rungs 1-3 there and here'); ap.add_argument('--reps', type=int, default=2)
    ap.add_argument('--skip', nargs='*', help='--cost: programs left out (the slowest, to save time)')
    a = ap.parse_args()
    (HERE/'results').mkdir(exist_ok=True)
    if a.cost:
        r = cost(a)
        (HERE/'results'/(a.out or 'ladder_cost.json')).write_text(json.dumps(r, indent=1))
        print(json.dumps({k: r[k] for k in ('ratio', 'digits_ratio', 'gallery_median_ratio', 'gallery_median_program_seconds')}, indent=1))
    else:
        t = time.time()
        def save(rows, done):
            out = dict(rungs=a.rungs, seeds=a.seeds, seeds_done=done, half=a.half, seconds=time.time() - t, rows=rows)
            (HERE/'results'/(a.out or f'ladder_sweep_{a.half}.json')).write_text(json.dumps(out, indent=1))
        rows = sweep(a, save)
        print(table(rows, f'half {a.half}, rungs {a.rungs}, seeds {a.first_seed}-{a.first_seed + a.seeds - 1}'))
