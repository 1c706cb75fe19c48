"""Rung 4's verdicts over many seeds, and what its control fit costs. Run by hand (about 30 minutes on 2 cores):

    python bench/rung4_sweep.py                          # 60 seeds per row, 10 cost pairs
    python bench/rung4_sweep.py --seeds 5 --pairs 2      # a quick look
    python bench/rung4_sweep.py --rows shuffled_labels digits

Rows: `ntrain.ladder.user_tasks.RUNG4_ROWS` (shuffled digits labels, 20% symmetric label noise, imbalanced binary with 5%
positives, 8-label multi-label with 25% positives, MSE regression, per-pixel segmentation, clean digits). Seed s
builds the row's task with data seed s and runs `ntrain.ladder(..., seed=s, rungs='3-4', force=True)`: the run's
seed moves the initial weights, rung 4's subset, the batch order and the control's permutation. Rung 3 runs first,
as in the ladder, because rung 4's diagnosis reads it (a fail blames the labels when rung 3 memorised a batch).
`leak_max=0`: the leakage check (which no row trips) is left out of the sweep to save time; the cost part keeps it.

Each row names the verdicts that are right and the one that is an error (a pass on shuffled labels: a false pass;
a fail on a healthy task: a false fail). The table gives each verdict's count, the error rate with its Wilson 95%
interval, and how often a fail blamed the labels (cause `labels`). The target: every error rate at most 5%.

The cost part: rung 4 on digits with its default settings (leakage check included), as it was before the control
(the module that held it at --before, imported from git as its own module) and as it is now, in alternating pairs in this
one process; the ratio now / before per pair, its median and IQR. The target: at most 2.
"""
from __future__ import annotations
import argparse, importlib.util, json, math, os, platform, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault('OMP_NUM_THREADS', '1')
os.environ.setdefault('MPLBACKEND', 'Agg')
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))


def wilson(k:int, n:int, z:float=1.96)->tuple:
    "The Wilson score interval of k successes in n trials."
    if n == 0: return (math.nan, math.nan)
    p = k / n; d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def git(*args)->str:
    return subprocess.run(['git', *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def one(name:str, seed:int, work:Path)->dict:
    "Rungs 3 and 4 of row `name` at `seed`: the verdict, causes and the numbers that decided it."
    import ntrain
    from ntrain.ladder.user_tasks import RUNG4_ROWS
    make, base, right, wrong = RUNG4_ROWS[name]
    t0 = time.perf_counter()
    res = ntrain.ladder(base, [f'seed={seed}'], task=make(seed), rungs='3-4', force=True, write=False,
                        run_dir=work/f'{name}-{seed}', settings=dict(leak_max=0))
    r3, r4 = res.rung(3), res.rung(4)
    n = r4.numbers
    return dict(seed=seed, verdict=r4.verdict, causes=r4.causes, rung3=r3.verdict, metric=n.get('metric'), start=n.get('start'),
                final=n.get('final'), threshold=n.get('threshold'), val_loss=n.get('val_loss'), loss_threshold=n.get('loss_threshold'),
                constant=n.get('constant'), judged=n.get('judged'), no_control=n.get('no_control'), seconds=r4.seconds,
                wall=time.perf_counter() - t0, control=n.get('control'), main=dict(val_loss=r4.series.get('val_loss_epochs'),
                **({n['metric']: r4.series.get(n['metric'])} if n.get('metric') != 'val_loss' else {})))


def summarize(name:str, runs:list)->dict:
    from ntrain.ladder.user_tasks import RUNG4_ROWS
    _, _, right, wrong = RUNG4_ROWS[name]
    n = len(runs)
    count = {v: sum(r['verdict'] == v for r in runs) for v in ('pass', 'warn', 'fail')}
    bad = count.get(wrong, 0)
    lo, hi = wilson(bad, n)
    return dict(n=n, right=list(right), error=f'false {wrong}', counts=count, errors=bad, error_rate=bad / n if n else math.nan,
                wilson95=[lo, hi], right_rate=sum(r['verdict'] in right for r in runs) / n if n else math.nan,
                labels_blamed=sum('labels' in r['causes'] for r in runs), meets=bad / n <= 0.05 if n else False,
                seconds_median=statistics.median(r['seconds'] for r in runs) if runs else None)


def load_before(commit:str):
    """The module that held rung 4 at `commit` (`ntrain/ladder/small_data.py`, before that `ntrain/ladder/rungs.py`, before
    the subpackages `ntrain/rungs.py`), imported as a module of its own in the package it was in (`ntrain.ladder._rung4_before`)."""
    for rel in ('ntrain/ladder/small_data.py', 'ntrain/ladder/rungs.py', 'ntrain/rungs.py'):
        got = subprocess.run(['git', 'show', f'{commit}:{rel}'], cwd=ROOT, capture_output=True, text=True)
        if got.returncode == 0: src = got.stdout; break
    else: raise SystemExit(f'no module with rung 4 at {commit}')
    path = Path(tempfile.mkdtemp())/'rung4_before.py'; path.write_text(src)
    name = ('ntrain.ladder' if rel.startswith('ntrain/ladder/') else 'ntrain') + '._rung4_before'
    spec = importlib.util.spec_from_file_location(name, path)  # in the package it was in: its relative imports resolve
    mod = importlib.util.module_from_spec(spec); sys.modules[spec.name] = mod; spec.loader.exec_module(mod)
    return mod


def cost(pairs:int, before:str, work:Path, log)->dict:
    "Rung 4 on digits before and after, in alternating pairs after one warm-up call of each: seconds each, ratio now / before per pair."
    from ntrain.ladder.kernel import bench
    from ntrain.ladder import small_data as now
    old = load_before(before)
    for side in (old, now): side.rung4(bench('digits', run_dir=work/'cost-warm'))  # first calls pay one-off costs: not counted
    rows = []
    for i in range(pairs):
        row = {}
        for side in (('before', 'now') if i % 2 == 0 else ('now', 'before')):
            b = bench('digits', run_dir=work/f'cost-{side}-{i}')
            t0 = time.perf_counter(); r = (old if side == 'before' else now).rung4(b); row[side] = time.perf_counter() - t0
            row[f'{side}_verdict'] = r.verdict
        row['ratio'] = row['now'] / row['before']
        rows.append(row)
        log(f"cost pair {i + 1}/{pairs}: before {row['before']:.2f} s, now {row['now']:.2f} s, ratio {row['ratio']:.3f}")
    rs = sorted(r['ratio'] for r in rows)
    q = statistics.quantiles(rs, n=4, method='inclusive') if len(rs) > 1 else [rs[0], rs[0], rs[0]]
    med = statistics.median(rs)
    return dict(before_commit=before, pairs=rows, median=med, iqr=[q[0], q[2]], target=2.0, meets=med <= 2.0,
                before_median_s=statistics.median(r['before'] for r in rows), now_median_s=statistics.median(r['now'] for r in rows))


def pct(x:float)->str: return f'{100 * x:.1f}%'


def render(res:dict)->str:
    first = res.get('seed0', 0)
    L = [f"## Rung 4 against a null: verdicts over {res['seeds']} seeds per row (seeds {first}-{first + res['seeds'] - 1}), and the control's cost", '',
         f"*`{res['command']}` at commit {res['commit']}, {res['when']} (wall {res['wall_s'] / 60:.1f} min); "
         f"load {tuple(round(x, 2) for x in res['load_start'])} -> {tuple(round(x, 2) for x in res['load_end'])}; "
         f"{res['machine']['cpus']} CPUs, torch {res['versions']['torch']}, OMP_NUM_THREADS={res['omp_threads']}*", '',
         "Rung 4 trains a control fit of the same samples with their targets permuted, from the same initial weights, and passes only "
         "when the validation loss and the metric both beat the control's best by its swing (its largest epoch-to-epoch change once it stops "
         "improving); the metric must also beat chance, and for BCE and MSE the loss must beat the constant predictor at the training prior. "
         "It fails when the loss is no better than the control's (or the constant predictor's), or when nothing beats a control that has "
         "settled, and warns (inconclusive) between. "
         "Seed s: the row's data seed and the run's seed; rungs 3-4 through `ntrain.ladder`, `leak_max=0`. "
         "Error: the verdict that is wrong for the row (a pass on shuffled labels; a fail on a healthy task), with its Wilson 95% interval; "
         "target at most 5% at the point estimate.", '',
         '| row | right | pass | warn | fail | error | rate | Wilson 95% | fail blaming labels | meets | rung 4 median |',
         '|---|---|---|---|---|---|---|---|---|---|---|']
    for name, s in res['rows'].items():
        c = s['counts']; lo, hi = s['wilson95']
        L.append(f"| {name} | {'/'.join(s['right'])} | {c['pass']} | {c['warn']} | {c['fail']} | {s['error']} | **{pct(s['error_rate'])}** "
                 f"({s['errors']}/{s['n']}) | {pct(lo)}-{pct(hi)} | {s['labels_blamed']} | {'yes' if s['meets'] else 'NO'} | {s['seconds_median']:.2f} s |")
    if res.get('cost'):
        c = res['cost']
        L += ['', f"**Cost on digits:** rung 4 now / before (its module at {c['before_commit'][:7]}), {len(c['pairs'])} alternating pairs in one "
                  f"process, default settings (leakage check included): median **{c['median']:.3f}** (IQR {c['iqr'][0]:.3f}-{c['iqr'][1]:.3f}; "
                  f"{c['before_median_s']:.2f} s -> {c['now_median_s']:.2f} s); target at most 2: {'meets' if c['meets'] else 'LOSES'}."]
    return '\n'.join(L) + '\n'


def put_section(md:Path, text:str):
    "Replace (or append) the section between the rung4_sweep markers of `md`."
    a, b = '<!-- rung4_sweep -->', '<!-- /rung4_sweep -->'
    body = md.read_text() if md.exists() else ''
    block = f'{a}\n{text}{b}\n'
    if a in body and b in body: body = body[:body.index(a)] + block + body[body.index(b) + len(b) + 1:]
    else: body = body.rstrip('\n') + '\n\n' + block
    md.write_text(body)


def main(argv=None):
    from ntrain.ladder.user_tasks import RUNG4_ROWS
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--seeds', type=int, default=60, help='seeds per row')
    p.add_argument('--seed0', type=int, default=0, help='the first seed (a held-out range: --seed0 60)')
    p.add_argument('--rows', nargs='*', default=list(RUNG4_ROWS), choices=list(RUNG4_ROWS))
    p.add_argument('--pairs', type=int, default=10, help='cost pairs (0: no cost part)')
    p.add_argument('--before', default='b99b3d3', help='the commit whose rung 4 the cost part compares with')
    p.add_argument('--out', default=str(ROOT/'bench/results/rung4_sweep.json'))
    p.add_argument('--md', default=str(ROOT/'bench/results/rung4_sweep.md'))
    p.add_argument('--results-md', default=str(ROOT/'bench/RESULTS.md'), help="where the section goes ('' for nowhere)")
    a = p.parse_args(argv)
    import torch, ntrain
    log = lambda s: print(s, flush=True)
    t0, work = time.perf_counter(), Path(tempfile.mkdtemp(prefix='rung4-sweep-'))
    res = dict(command='python bench/rung4_sweep.py ' + ' '.join(argv if argv is not None else sys.argv[1:]), commit=git('rev-parse', '--short', 'HEAD'),
               dirty=bool(git('status', '--porcelain', 'ntrain', 'nbs', 'bench')), when=time.strftime('%Y-%m-%d %H:%M:%S'),
               machine=dict(cpu=platform.processor() or platform.machine(), cpus=os.cpu_count(), platform=platform.platform()),
               versions=dict(python=platform.python_version(), torch=torch.__version__, ntrain=getattr(ntrain, '__version__', '?')),
               omp_threads=os.environ.get('OMP_NUM_THREADS'), load_start=os.getloadavg(), seeds=a.seeds, seed0=a.seed0, runs={}, rows={})
    for name in a.rows:
        runs = []
        for s in range(a.seed0, a.seed0 + a.seeds):
            runs.append(one(name, s, work))
            r = runs[-1]
            log(f"{name} seed {s}: {r['verdict']} {r['causes']} {r['metric']} {r['final']:.4g} (threshold {r['threshold']:.4g}) "
                f"val_loss {r['val_loss']:.4g} {r['judged']} {r['seconds']:.1f} s")
        res['runs'][name], res['rows'][name] = runs, summarize(name, runs)
        log(f"== {name}: {res['rows'][name]['counts']}, error rate {res['rows'][name]['error_rate']:.3f}")
    if a.pairs: res['cost'] = cost(a.pairs, a.before, work, log)
    res['load_end'], res['wall_s'] = os.getloadavg(), time.perf_counter() - t0
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=1, default=str) + '\n')
    text = render(res)
    Path(a.md).write_text(text)
    if a.results_md: put_section(Path(a.results_md), text)
    print(text)
    return 0 if all(s['meets'] for s in res['rows'].values()) and res.get('cost', {}).get('meets', True) else 1


if __name__ == '__main__':
    sys.exit(main())
