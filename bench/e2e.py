"""End to end, as a user runs it: whole processes of ntrain against what a user would pick instead (the reference
loop as a script, PyTorch Lightning, Hugging Face Accelerate), timed in alternating pairs. One command writes
bench/results/e2e.json and bench/RESULTS.md:

    . .venv/bin/activate            # with Lightning and Accelerate installed (bench/README.md)
    python bench/e2e.py             # every default section, 20 pairs each (about 45-60 min on 2 quiet cores)
    python bench/e2e.py --sections digits fixed --pairs 20
    python bench/e2e.py --rehearsal --pairs 2    # proves the suite runs; writes under bench/results/rehearsal/
    python bench/e2e.py --render                 # RESULTS.md again from bench/results/e2e.json

Every run is a fresh process in a fresh working directory (on --workdir's filesystem) with the same environment
(this one; --omp-threads N sets OMP_NUM_THREADS for every side). Each round runs every side of a section once, in
the listed order in even rounds and in reverse in odd ones, so each ntrain-vs-other pair alternates which goes
first. Per-round ratios ntrain / other; median and interquartile range (inclusive quartiles). Verdict against a
target T: `meets` when the median <= T, `tie` when the IQR spans T, else `loses`.

Sections (what exactly is timed on each side is in bench/README.md):
  import   `python -c "import torch"` vs `python -c "import ntrain"` (and Lightning, Accelerate): wall time of the
           whole process, and the import alone (perf_counter around the import statement inside the process);
           plus one `python -X importtime -c "import ntrain"`: the modules ntrain adds beyond torch.
  digits   `ntrain fit digits epochs=8` (the literal command, run in an empty directory) against
           bench/reference_fit.py, bench/lightning_fit.py and bench/accelerate_fit.py doing the same work:
           wall time from just before the process is started to its exit. Targets 1.05 (reference), 1.0 (others).
  probe    bench/fixed_cost_probe.py: ntrain's fit in-process with timers around what is not a training step.
  fixed    `ntrain fit digits epochs=8 log_every=1` against reference_fit.py: the fixed cost, (first optimizer
           step - process start) + (exit - last optimizer step), ntrain's minus the reference's. Target 0.3 s.
           ntrain's step stamps are the `time` of the first and the last `step` record in metrics.jsonl (written
           right after the step, with log_every=1); the reference prints time.time() taken right after sched.step().
  mlp      as digits, with the compute-bound MLP: `ntrain fit digits task=bench.bench_tasks:mlp epochs=3` against
           the three scripts with `--model mlp --epochs 3`. Target 1.0.
  ttfs     time to the first optimizer step, from process start: `ntrain fit` (first step record, log_every=1),
           the notebook's ladder rung 1 (bench/ladder_first_step.py), the three scripts (1 epoch); and
           `ntrain launch --nproc 2` against the reference and Accelerate under `torchrun --nproc-per-node 2` and
           Lightning with `--devices 2` (its own launcher), rank 0's first step. Target 1.0.
  ckpt     bench/ckpt_compare.py (saves and loads of the same state: ntrain, bare torch.save/torch.load,
           Lightning's checkpoint IO, Accelerate's save and save_state).
  loop     (optional) bench/loop_bench.py: the in-loop ratio, train-only and full-epoch modes. Target 0.97.
  dist     (optional) bench/dist_bench.py: time per step at 1, 2 and 4 processes, ntrain against the reference script.
"""
from __future__ import annotations
import argparse, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT/'bench'
PY = sys.executable
BIN = Path(PY).parent
DEFAULT_SECTIONS = ['import', 'digits', 'fixed', 'probe', 'mlp', 'ttfs', 'ckpt']
ALL_SECTIONS = DEFAULT_SECTIONS + ['loop', 'dist']
TIMEOUT = 900


# ---------------------------------------------------------------- small helpers
def quartiles(xs)->dict:
    xs = [x for x in xs if x is not None]
    if not xs: return dict(median=None, q1=None, q3=None, iqr=None, n=0)
    if len(xs) == 1: return dict(median=xs[0], q1=xs[0], q3=xs[0], iqr=0.0, n=1)
    q = statistics.quantiles(xs, n=4, method='inclusive')
    return dict(median=statistics.median(xs), q1=q[0], q3=q[2], iqr=q[2] - q[0], n=len(xs))

def verdict(q:dict, target:float, lower_is_better:bool=True)->str:
    if q.get('median') is None: return 'n/a'
    m, lo, hi = q['median'], q['q1'], q['q3']
    if (m <= target) if lower_is_better else (m >= target): return 'meets'
    if lo <= target <= hi: return 'tie'
    return 'loses'

def ntrain_cmd()->list:
    exe = BIN/'ntrain'
    return [str(exe)] if exe.exists() else [PY, '-m', 'ntrain']

def torchrun_cmd()->list:
    exe = BIN/'torchrun'
    return [str(exe)] if exe.exists() else [PY, '-m', 'torch.distributed.run']

def git(*args)->str:
    return subprocess.run(['git', *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

def version(mod:str):
    try:
        from importlib.metadata import version as v
        return v(mod)
    except Exception: return None

def machine()->dict:
    model = platform.processor() or platform.machine()
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'): model = line.split(':', 1)[1].strip(); break
    except OSError: pass
    mem = None
    try:
        for line in open('/proc/meminfo'):
            if line.startswith('MemTotal'): mem = round(int(line.split()[1]) / 2**20, 1); break
    except OSError: pass
    try: aff = len(os.sched_getaffinity(0))
    except AttributeError: aff = os.cpu_count()
    return dict(cpu=model, cpu_count=os.cpu_count(), affinity=aff, mem_gib=mem, platform=platform.platform())

def meta()->dict:
    "What every result file records: machine, versions, commit, load average now."
    return dict(machine=machine(), loadavg=os.getloadavg(),
                versions={k: version(k) for k in ('torch', 'pytorch-lightning', 'accelerate', 'ntrain', 'numpy', 'scikit-learn')} | dict(python=platform.python_version()),
                git=dict(commit=git('rev-parse', 'HEAD'), dirty=bool(git('status', '--porcelain', '--', 'ntrain', 'nbs', 'bench'))))

def fs_type(path:Path)->str:
    r = subprocess.run(['stat', '-f', '-c', '%T', str(path)], capture_output=True, text=True)
    return r.stdout.strip() or '?'

def read_jsonl(p:Path)->list:
    out = []
    if not p.exists(): return out
    for line in p.read_text().splitlines():
        try: out.append(json.loads(line))
        except ValueError: pass
    return out

def bench_line(stdout:str)->dict:
    for line in reversed(stdout.splitlines()):
        if line.startswith('BENCH_RESULT '): return json.loads(line[len('BENCH_RESULT '):])
    return {}


# ---------------------------------------------------------------- one process
class Side:
    "One way of doing the work: how to start it in a directory, and how to read its step stamps afterwards."
    def __init__(self, name:str, argv, reader:str='bench', env:dict|None=None):
        self.name, self.argv, self.reader, self.env = name, argv, reader, env or {}

    def run(self, wd:Path, base_env:dict)->dict:
        wd.mkdir(parents=True, exist_ok=True)
        argv = [a.replace('{wd}', str(wd)) for a in self.argv]
        env = dict(base_env, **self.env)
        t_launch = time.time(); p0 = time.perf_counter()
        r = subprocess.run(argv, cwd=wd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
        wall = time.perf_counter() - p0; t_exit = time.time()
        out = dict(side=self.name, wall=wall, rc=r.returncode)
        if r.returncode != 0:
            err = (r.stderr or '') + (r.stdout or '')
            lines = [l for l in err.splitlines() if 'Error' in l or 'error:' in l]
            out['error'] = '\n'.join(dict.fromkeys(lines[:6])) + '\n...\n' + err[-1500:]
            return out
        info = self.read(wd, r.stdout)
        out.update(info)
        first, last = info.get('t_first_step'), info.get('t_last_step')
        if first is not None: out['ttfs'] = first - t_launch
        if last is not None: out['tail'] = t_exit - last
        if first is not None and last is not None: out['fixed'] = out['ttfs'] + out['tail']
        for k in ('t_script', 't_imported', 't_start_record', 't_finished_record', 't_end', 't_rung_end'):
            if info.get(k) is not None: out[k.replace('t_', 'at_', 1)] = info[k] - t_launch
        if info.get('t_end') is not None: out['end_to_exit'] = t_exit - info['t_end']
        if info.get('t_finished_record') is not None: out['finished_to_exit'] = t_exit - info['t_finished_record']
        return out

    def read(self, wd:Path, stdout:str)->dict:
        if self.reader == 'bench':
            b = bench_line(stdout)
            return {k: b.get(k) for k in ('t_script', 't_imported', 't_first_step', 't_last_step', 't_end', 't_rung_end', 'epochs_run',
                                          'steps', 'best_val_acc', 'final_val_acc', 'torch_threads', 'num_workers', 'world_size', 'params', 'verdict')}
        # ntrain: its run directory's records (metrics.jsonl is rank 0's under torchrun)
        runs = sorted(wd.glob('runs/*/metrics.jsonl')) + sorted(wd.glob('run/metrics.jsonl'))
        if not runs: return dict(error='no metrics.jsonl')
        recs = read_jsonl(runs[-1])
        steps = [r for r in recs if r.get('kind') == 'step']
        epochs = [r for r in recs if r.get('kind') == 'epoch']
        start = next((r for r in recs if r.get('kind') == 'start'), {})
        fin = next((r for r in recs if r.get('kind') in ('finished', 'stopped', 'failed')), {})
        first = steps[0] if steps else {}
        last = steps[-1] if steps else {}
        exact = bool(first) and first.get('step') == 1 and last.get('step') == (epochs[-1]['step'] if epochs else None)
        return dict(t_start_record=start.get('time'), t_finished_record=fin.get('time'),
                    t_first_step=first.get('time') if first.get('step') == 1 else None,
                    t_last_step=last.get('time') if exact else None, epochs_run=len(epochs),
                    steps=epochs[-1]['step'] if epochs else None,
                    best_val_acc=max((e.get('val_acc', 0) for e in epochs), default=None),
                    final_val_acc=epochs[-1].get('val_acc') if epochs else None, world_size=start.get('world_size'))


def ntrain_line(argv:list)->str:
    "The ntrain command as a user types it."
    return 'ntrain ' + ' '.join(argv[len(ntrain_cmd()):])

def script(name:str, *args)->list: return [PY, str(BENCH/name), '--out', '{wd}/out', *args]


# ---------------------------------------------------------------- rounds of alternating order
def run_rounds(name:str, sides:list, pairs:int, work:Path, env:dict, log)->list:
    rows = []
    for i in range(pairs):
        order = sides if i % 2 == 0 else list(reversed(sides))
        row = {}
        for s in order:
            wd = work/f'{name}-{i}-{s.name}'
            try: row[s.name] = s.run(wd, env)
            except subprocess.TimeoutExpired: row[s.name] = dict(side=s.name, error=f'timeout after {TIMEOUT} s')
            finally: shutil.rmtree(wd, ignore_errors=True)
        rows.append(row)
        log(f"  [{name}] round {i+1}/{pairs} ({order[0].name} first): " +
            '  '.join(f"{k} {v['wall']:.2f}s" + (f" ttfs {v['ttfs']:.2f}s" if v.get('ttfs') is not None else '')
                      if 'error' not in v else f"{k} FAILED" for k, v in row.items()))
        for k, v in row.items():
            if 'error' in v: log(f"    {k} failed: {v['error'][-600:]}")
    return rows

def ratios(rows:list, a:str, b:str, metric:str='wall')->dict:
    xs = [r[a][metric] / r[b][metric] for r in rows if r.get(a, {}).get(metric) and r.get(b, {}).get(metric)]
    return quartiles(xs)

def per_side(rows:list, metrics=('wall', 'ttfs', 'tail', 'fixed', 'at_script', 'at_imported', 'at_start_record',
                                  'at_finished_record', 'finished_to_exit', 'end_to_exit', 'at_rung_end'))->dict:
    names = {k for r in rows for k in r}
    out = {}
    for n in sorted(names):
        d = {m: quartiles([r[n].get(m) for r in rows if n in r and r[n].get(m) is not None]) for m in metrics}
        d = {m: q for m, q in d.items() if q['n']}
        d['failed'] = sum(1 for r in rows if 'error' in r.get(n, {}))
        d['epochs_run'] = sorted({r[n].get('epochs_run') for r in rows if n in r and r[n].get('epochs_run') is not None})
        d['best_val_acc'] = quartiles([r[n].get('best_val_acc') for r in rows if n in r])['median']
        out[n] = d
    return out


# ---------------------------------------------------------------- sections
# `import ntrain` loads nothing until a name is used (PEP 562), so ntrain's side times what a script pulls: the engine
IMPORTS = dict(ntrain='from ntrain import fit', torch='import torch', lightning='import pytorch_lightning', accelerate='import accelerate')

def sec_import(a, work, env, log)->dict:
    def imp(name, stmt):  # noqa: the side's name, the import statement it times
        code = (f"import time; t=time.perf_counter(); {stmt}; "
                f"import json; print('BENCH_RESULT ' + json.dumps(dict(import_s=time.perf_counter()-t)))")
        s = Side(name, [PY, '-c', code])
        base_read = s.read
        s.read = lambda wd, out: dict(base_read(wd, out), import_s=bench_line(out).get('import_s'))
        return s
    sides = [imp(k, v) for k, v in IMPORTS.items() if k not in ('lightning', 'accelerate') or version(dict(lightning='pytorch-lightning').get(k, k))]
    rows = run_rounds('import', sides, a.pairs, work, env, log)
    for r in rows:
        for v in r.values(): v['import_s'] = v.get('import_s')
    res = dict(sides=per_side(rows, metrics=('wall', 'import_s')), rows=rows,
               comparisons=[dict(a='ntrain', b='torch', metric='wall', target=None, **ratios(rows, 'ntrain', 'torch')),
                            dict(a='ntrain', b='torch', metric='import_s', target=None, **ratios(rows, 'ntrain', 'torch', 'import_s'))])
    for o in ('lightning', 'accelerate'):
        if any(o in r for r in rows):
            c = dict(a='ntrain', b=o, metric='wall', target=1.0, **ratios(rows, 'ntrain', o)); c['verdict'] = verdict(c, 1.0)
            res['comparisons'].append(c)
    res['importtime'], res['statements'] = importtime(env), IMPORTS
    return res

def importtime(env)->dict:
    "One `python -X importtime -c 'from ntrain import fit'`: top-level packages by cumulative time, and ntrain's own modules."
    r = subprocess.run([PY, '-X', 'importtime', '-c', IMPORTS['ntrain']], capture_output=True, text=True, env=env, timeout=300)
    rows = []
    for line in r.stderr.splitlines():
        if not line.startswith('import time:') or 'self [us]' in line: continue
        parts = line[len('import time:'):].split('|')
        if len(parts) != 3: continue
        try: self_us, cum_us, raw = int(parts[0]), int(parts[1]), parts[2]
        except ValueError: continue
        raw = raw[1:]  # the space after the bar
        depth = (len(raw) - len(raw.lstrip(' '))) // 2
        rows.append(dict(name=raw.strip(), self_us=self_us, cum_us=cum_us, depth=depth))
    top = {}
    for x in rows:  # a package's cumulative time is that of its outermost import
        pkg = x['name'].split('.')[0]
        if pkg == 'ntrain': continue
        if pkg not in top or (x['depth'], -x['cum_us']) < (top[pkg]['depth'], -top[pkg]['cum_us']): top[pkg] = dict(x, pkg=pkg)
    start = max((i for i, x in enumerate(rows) if x['depth'] == 0 and x['name'] == 'site'), default=-1)  # the interpreter's own start ends with site
    total = sum(x['cum_us'] for x in rows[start + 1:] if x['depth'] == 0) or None  # every top-level import the statement made
    ntrain_self = sum(x['self_us'] for x in rows if x['name'].split('.')[0] == 'ntrain')
    return dict(total_ms=total / 1e3 if total else None, ntrain_self_ms=ntrain_self / 1e3,
                top_packages_ms=[(t['pkg'], round(t['cum_us'] / 1e3, 1)) for t in sorted(top.values(), key=lambda t: -t['cum_us'])[:15]],
                ntrain_modules_ms=sorted(((x['name'], round(x['cum_us'] / 1e3, 1)) for x in rows if x['name'].startswith('ntrain')), key=lambda t: -t[1])[:12])

def fit_sides(model:str, epochs:int, extra_ntrain=(), with_others=True)->list:
    if model == 'cnn': nt = ntrain_cmd() + ['fit', 'digits', f'epochs={epochs}', *extra_ntrain]
    else: nt = ntrain_cmd() + ['fit', 'digits', 'task=bench.bench_tasks:mlp', f'epochs={epochs}', *extra_ntrain]
    args = ['--model', model, '--epochs', str(epochs)]
    sides = [Side('ntrain', nt, reader='ntrain'), Side('reference', script('reference_fit.py', *args))]
    if with_others:
        if version('pytorch-lightning'): sides.append(Side('lightning', script('lightning_fit.py', *args)))
        if version('accelerate'): sides.append(Side('accelerate', script('accelerate_fit.py', *args)))
    return sides

def fit_section(name, a, work, env, log, model, epochs, targets)->dict:
    sides = fit_sides(model, epochs)
    rows = run_rounds(name, sides, a.pairs, work, env, log)
    comps = [dict(a='ntrain', b=s.name, metric='wall', target=targets[s.name], **ratios(rows, 'ntrain', s.name)) for s in sides[1:]]
    for c in comps: c['verdict'] = verdict(c, c['target'])
    return dict(command=ntrain_line(sides[0].argv), epochs=epochs, sides=per_side(rows), comparisons=comps, rows=rows,
                same_epochs=all(len({r[k].get('epochs_run') for k in r if 'error' not in r[k]}) == 1 for r in rows))

def sec_digits(a, work, env, log):
    return fit_section('digits', a, work, env, log, 'cnn', a.epochs, dict(reference=1.05, lightning=1.0, accelerate=1.0))

def sec_mlp(a, work, env, log):
    return fit_section('mlp', a, work, env, log, 'mlp', a.mlp_epochs, dict(reference=1.0, lightning=1.0, accelerate=1.0))

def sec_fixed(a, work, env, log):
    sides = fit_sides('cnn', a.epochs, extra_ntrain=['log_every=1'], with_others=False)
    rows = run_rounds('fixed', sides, a.pairs, work, env, log)
    diff = lambda m: quartiles([r['ntrain'][m] - r['reference'][m] for r in rows
                                if r['ntrain'].get(m) is not None and r['reference'].get(m) is not None])
    d = diff('fixed')
    res = dict(command=ntrain_line(sides[0].argv), epochs=a.epochs, sides=per_side(rows), rows=rows,
               fixed_minus_reference=dict(target=0.3, verdict=verdict(d, 0.3), **d),
               ttfs_minus_reference=diff('ttfs'), tail_minus_reference=diff('tail'),
               wall_ratio=ratios(rows, 'ntrain', 'reference'))
    return res

def sec_ttfs(a, work, env, log):
    lt = ['--epochs', '1']
    sides = [Side('ntrain_fit', ntrain_cmd() + ['fit', 'digits', 'epochs=1', 'log_every=1'], reader='ntrain'),
             Side('ntrain_ladder1', [PY, str(BENCH/'ladder_first_step.py'), '{wd}/ladder']),
             Side('reference', script('reference_fit.py', *lt))]
    have_pl, have_acc = bool(version('pytorch-lightning')), bool(version('accelerate'))
    if have_pl: sides.append(Side('lightning', script('lightning_fit.py', *lt)))
    if have_acc: sides.append(Side('accelerate', script('accelerate_fit.py', *lt)))
    if not a.no_launch:
        tr = torchrun_cmd() + ['--standalone', '--nproc-per-node', '2']
        sides.append(Side('ntrain_launch2', ntrain_cmd() + ['launch', 'digits', 'epochs=1', 'log_every=1', 'run_dir={wd}/run', '--nproc', '2'], reader='ntrain'))
        sides.append(Side('reference_ddp2', tr + script('reference_fit.py', *lt)[1:]))
        if have_pl: sides.append(Side('lightning_ddp2', script('lightning_fit.py', *lt, '--devices', '2', '--accelerator', 'cpu')))
        if have_acc: sides.append(Side('accelerate_ddp2', tr + script('accelerate_fit.py', *lt)[1:]))
    rows = run_rounds('ttfs', sides, a.ttfs_pairs or a.pairs, work, env, log)
    names = {s.name for s in sides}
    comps = []
    for nt, others in (('ntrain_fit', ('reference', 'lightning', 'accelerate')), ('ntrain_ladder1', ('reference', 'lightning', 'accelerate')),
                       ('ntrain_launch2', ('reference_ddp2', 'lightning_ddp2', 'accelerate_ddp2'))):
        for o in others:
            if nt in names and o in names:
                c = dict(a=nt, b=o, metric='ttfs', target=1.0, **ratios(rows, nt, o, 'ttfs')); c['verdict'] = verdict(c, 1.0); comps.append(c)
    return dict(sides=per_side(rows), comparisons=comps, rows=rows)

def sec_ckpt(a, work, env, log):
    out = work/'ckpt_compare.json'
    cmd = [PY, str(BENCH/'ckpt_compare.py'), '--reps', str(a.ckpt_reps or a.pairs), '--out', str(out), '--dir', str(work/'ckpt-files')]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    log('  ' + '\n  '.join(r.stdout.strip().splitlines()[-4:]))
    shutil.rmtree(work/'ckpt-files', ignore_errors=True)
    if r.returncode != 0: return dict(error=r.stderr[-3000:], command=' '.join(cmd))
    res = json.loads(out.read_text())
    res['command'] = f"python bench/ckpt_compare.py --reps {a.ckpt_reps or a.pairs}"
    return res

def sec_probe(a, work, env, log):
    "bench/fixed_cost_probe.py: where ntrain's own fixed cost goes, timed in-process; medians over --probe-repeat runs."
    out = work/'probe.json'
    cmd = [PY, str(BENCH/'fixed_cost_probe.py'), f'epochs={a.epochs}', '--repeat', str(a.probe_repeat), '--json', str(out)]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    if r.returncode != 0 or not out.exists(): return dict(error=(r.stderr or r.stdout)[-3000:], command=' '.join(cmd))
    runs = json.loads(out.read_text())['runs']
    keys = sorted({k for x in runs for k in x['pieces']}, key=lambda k: -statistics.median(x['pieces'].get(k, 0.0) for x in runs))
    med = lambda f: statistics.median(f(x) for x in runs)
    return dict(command=f'python bench/fixed_cost_probe.py epochs={a.epochs} --repeat {a.probe_repeat}', repeats=len(runs),
                pieces={k: med(lambda x: x['pieces'].get(k, 0.0)) for k in keys}, wall=med(lambda x: x['wall']),
                first_step=med(lambda x: x['first_step']), last_step=med(lambda x: x['last_step']), main_end=med(lambda x: x['main_end']),
                exit_after_main=med(lambda x: x['exit_after_main']))

def sec_loop(a, work, env, log):
    out = work/'loop.json'
    cmd = [PY, str(BENCH/'loop_bench.py'), '--pairs', str(a.pairs), '--out', str(out), '--no-digits-run']
    r = subprocess.run(cmd, cwd=ROOT, env=dict(env, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=7200)
    if r.returncode != 0: return dict(error=r.stderr[-3000:], command=' '.join(cmd))
    res = json.loads(out.read_text())
    for x in res['results']:
        x.pop('pairs_detail', None); x['verdict'] = verdict(dict(median=x['ratio_median'], q1=x['ratio_q1'], q3=x['ratio_q3']), 0.97, lower_is_better=False)
    return res

def sec_dist(a, work, env, log):
    p = work/'dist.json'
    cmd = [PY, str(BENCH/'dist_bench.py'), '--pairs', str(max(2, a.pairs // 4)), '--out', str(p)]
    r = subprocess.run(cmd, cwd=ROOT, env=dict(env, OMP_NUM_THREADS='1'), capture_output=True, text=True, timeout=7200)
    if r.returncode != 0 or not p.exists(): return dict(error=(r.stderr or r.stdout)[-3000:], command=' '.join(cmd))
    return json.loads(p.read_text())

SECTIONS = dict(import_=sec_import, digits=sec_digits, fixed=sec_fixed, probe=sec_probe, mlp=sec_mlp, ttfs=sec_ttfs, ckpt=sec_ckpt, loop=sec_loop, dist=sec_dist)


# ---------------------------------------------------------------- RESULTS.md
def f3(x): return '-' if x is None else f'{x:.3f}'
def fs(x): return '-' if x is None else f'{x:.2f} s'
def ms(x): return '-' if x is None else f'{x*1e3:.1f} ms'

def where_table(s:dict)->list:
    "Medians of each side's stamps, in seconds after its process was started."
    L = ['', 'Where the time goes (medians, seconds after the process was started; `-`: not known on that side):', '',
         '| side | interpreter up | imports done | start record | first step | last step to exit | finished record to exit | script end to exit |',
         '|---|---|---|---|---|---|---|---|']
    for k, v in s['sides'].items():
        g = lambda m: fs(v.get(m, {}).get('median'))
        L.append(f"| {k} | {g('at_script')} | {g('at_imported')} | {g('at_start_record')} | {g('ttfs')} | {g('tail')} | {g('finished_to_exit')} | {g('end_to_exit')} |")
    return L

def render(res:dict, gpu_text:str|None=None)->str:
    L = []
    rehearsal = res.get('rehearsal')
    L.append('# ntrain benchmark results' + (' (REHEARSAL: not results)' if rehearsal else ''))
    L.append('')
    if rehearsal:
        L += ['> **REHEARSAL.** These figures come from a run with few pairs on a machine loaded by other jobs. They only',
              '> prove that the suite runs end to end. They are noise, not results: do not quote them.', '']
    if res.get('preamble'): L += [res['preamble'], '']  # written by hand after a merge of runs: what changed between them
    m, v = res['machine'], res['versions']
    L.append(f"Command: `{res['command']}`  ")
    L.append(f"When: {res['when']} (wall {res.get('wall_s', 0)/60:.1f} min); commit {res['git']['commit'][:10]}"
             f"{' (with uncommitted changes)' if res['git']['dirty'] else ''}; branch {res['git']['branch']}  ")
    L.append(f"Machine: {m['cpu']}, {m['cpu_count']} CPUs ({m['affinity']} in the affinity), {m['mem_gib']} GiB; {m['platform']}; "
             f"workdir filesystem {res.get('workdir_fs')}  ")
    L.append(f"Versions: python {v['python']}, torch {v['torch']}, pytorch-lightning {v['pytorch-lightning']}, accelerate {v['accelerate']}, "
             f"ntrain {v['ntrain']}, numpy {v['numpy']}, scikit-learn {v['scikit-learn']}  ")
    L.append(f"Environment: OMP_NUM_THREADS={res['env'].get('OMP_NUM_THREADS') or 'unset'}; pairs {res['pairs']}; "
             + (f"bytecode {res['bytecode']}; " if res.get('bytecode') else '') +
             f"load average at the start {tuple(round(x, 2) for x in res['loadavg_start'])}, at the end {tuple(round(x, 2) for x in res.get('loadavg_end', ()))}")
    L.append('')
    L.append('Ratios are ntrain / other per round (alternating order), median and IQR; lower is better except in the in-loop '
             'table. A median at or better than the target is `meets`; an IQR that spans it, `tie`; otherwise `loses`.')
    S = res['sections']
    la = lambda s: (f" (load {tuple(round(x, 2) for x in S[s].get('loadavg_start', ()))} -> {tuple(round(x, 2) for x in S[s].get('loadavg_end', ()))}, {S[s].get('wall_s', 0):.0f} s)"
                    + (f"\n\n*{S[s]['note']}*" if S[s].get('note') else ''))  # a section merged from another run says which

    def comp_table(sec, metric_label='wall time'):
        rows = ['| ntrain | against | ratio median | IQR | target | verdict | ntrain median | other median |', '|---|---|---|---|---|---|---|---|']
        for c in sec.get('comparisons', []):
            sa, sb = sec['sides'].get(c['a'], {}), sec['sides'].get(c['b'], {})
            ma, mb = sa.get(c['metric'], {}).get('median'), sb.get(c['metric'], {}).get('median')
            rows.append(f"| {c['a']} | {c['b']} | **{f3(c['median'])}** | {f3(c['q1'])}-{f3(c['q3'])} | {c['target'] if c.get('target') is not None else '-'} | "
                        f"{c.get('verdict', '-')} | {fs(ma)} | {fs(mb)} |")
        return rows

    if 'digits' in S or 'mlp' in S:
        for key, title in (('digits', 'End to end: the digits CNN'), ('mlp', 'End to end: the compute-bound MLP')):
            if key not in S: continue
            s = S[key]
            L += ['', f'## {title}' + la(key), '']
            if 'error' in s: L.append(f"FAILED: {s['error'][-500:]}"); continue
            L.append(f"ntrain: `{s['command']}`; the others: bench/reference_fit.py, lightning_fit.py, accelerate_fit.py "
                     f"`--model {'cnn' if key == 'digits' else 'mlp'} --epochs {s['epochs']}`. Wall time of the whole process.")
            L.append('')
            L += comp_table(s)
            ep = {k: v['epochs_run'] for k, v in s['sides'].items()}
            L.append('')
            L.append(f"Epochs run per side: {ep}; best val_acc (median): " + ', '.join(f"{k} {f3(v['best_val_acc'])}" for k, v in s['sides'].items())
                     + ('' if s.get('same_epochs') else ' **(the sides ran different numbers of epochs in some rounds)**')
                     + '; failed runs: ' + ', '.join(f"{k} {v['failed']}" for k, v in s['sides'].items()))
            L += where_table(s)
            L += ['', '(ntrain runs with its log_every here, so its first and last step are not stamped: see the fixed-cost table.)']
    if 'fixed' in S:
        s = S['fixed']; L += ['', '## Fixed cost against the reference script' + la('fixed'), '']
        if 'error' in s: L.append(f"FAILED: {s['error'][-500:]}")
        else:
            f = s['fixed_minus_reference']
            L.append(f"ntrain: `{s['command']}`; reference: `bench/reference_fit.py --epochs {S['fixed'].get('epochs', 8)}`. Fixed cost = (first optimizer step - "
                     "process start) + (exit - last optimizer step); the table gives ntrain's minus the reference's, per round.")
            L += ['', '| | median | IQR | target | verdict |', '|---|---|---|---|---|',
                  f"| fixed cost, ntrain - reference | **{fs(f['median'])}** | {fs(f['q1'])} to {fs(f['q3'])} | 0.3 s | {f['verdict']} |",
                  f"| start to first step, ntrain - reference | {fs(s['ttfs_minus_reference']['median'])} | {fs(s['ttfs_minus_reference']['q1'])} to {fs(s['ttfs_minus_reference']['q3'])} | | |",
                  f"| last step to exit, ntrain - reference | {fs(s['tail_minus_reference']['median'])} | {fs(s['tail_minus_reference']['q1'])} to {fs(s['tail_minus_reference']['q3'])} | | |",
                  f"| wall ratio (log_every=1) | {f3(s['wall_ratio']['median'])} | {f3(s['wall_ratio']['q1'])}-{f3(s['wall_ratio']['q3'])} | | |"]
            L += where_table(s)
    if 'probe' in S:
        s = S['probe']; L += ['', "## Where ntrain's fixed cost goes (in-process timers)" + la('probe'), '']
        if 'error' in s: L.append(f"FAILED: {s['error'][-500:]}")
        else:
            L.append(f"`{s['command']}`: `ntrain fit digits` run by `ntrain.cli.main` in a fresh process with timers around the pieces "
                     f"that are not training steps; medians of {s['repeats']} runs. Wall {fs(s['wall'])}; first optimizer step at "
                     f"{fs(s['first_step'])}, last at {fs(s['last_step'])}; main() returned at {fs(s['main_end'])}; the interpreter's "
                     f"exit then took {fs(s['exit_after_main'])}. Pieces nest (setup holds get_task and _build_model; _open_run holds "
                     "env_record, which holds pip_freeze; [in end_epoch] is inside the training loop, [in result] after it).")
            L += ['', '| piece | seconds (median) |', '|---|---|'] + [f'| {k} | {v:.3f} |' for k, v in s['pieces'].items() if v >= 0.002]
    if 'ttfs' in S:
        s = S['ttfs']; L += ['', '## Time to the first optimizer step' + la('ttfs'), '']
        if 'error' in s: L.append(f"FAILED: {s['error'][-500:]}")
        else:
            L.append('From process start to the end of the first optimizer step (rank 0 under torchrun). 1 epoch of digits.')
            L += [''] + comp_table(s)
            L += ['', '| side | first step (median) | IQR | failed |', '|---|---|---|---|']
            for k, v in s['sides'].items():
                q = v.get('ttfs', {})
                L.append(f"| {k} | {fs(q.get('median'))} | {fs(q.get('q1'))} to {fs(q.get('q3'))} | {v['failed']} |")
    if 'import' in S:
        s = S['import']; L += ['', '## Import' + la('import'), '']
        L += ['| process | wall (median) | IQR | import alone (median) |', '|---|---|---|---|']
        for k, v in s['sides'].items():
            L.append(f"| `python -c '{IMPORTS.get(k, 'import ' + k) if s.get('statements') else 'import ' + dict(lightning='pytorch_lightning').get(k, k)}'` | {fs(v['wall']['median'])} | {fs(v['wall']['q1'])} to {fs(v['wall']['q3'])} | {fs(v.get('import_s', {}).get('median'))} |")
        L.append('')
        for c in s['comparisons']:
            L.append(f"- {c['a']} / {c['b']} ({c['metric']}): median {f3(c['median'])}, IQR {f3(c['q1'])}-{f3(c['q3'])}"
                     + (f"; target {c['target']}: {c['verdict']}" if c.get('target') is not None else ''))
        it = s.get('importtime', {})
        if it.get('total_ms'):
            L.append(f"- `python -X importtime -c '{IMPORTS['ntrain'] if s.get('statements') else 'import ntrain'}'`: {it['total_ms']:.0f} ms in all, of which ntrain's own modules (self time) "
                     f"{it['ntrain_self_ms']:.0f} ms. Packages by cumulative import time: " + ', '.join(f'{p} {t:.0f} ms' for p, t in it['top_packages_ms'][:10]))
    if 'ckpt' in S:
        s = S['ckpt']; L += ['', '## Checkpoints: the same state, saved and loaded' + la('ckpt'), '']
        if 'error' in s: L.append(f"FAILED: {s['error'][-500:]}")
        else:
            L.append(f"`{s['command']}`. Median seconds, and the median (IQR) of per-round ratios to the bare save/load.")
            for r in s['results']:
                sec = r['seconds']
                L += ['', f"**{r['state']}** state, {r['state_bytes']/1e6:.2f} MB, {r['reps']} rounds", '',
                      '| save | median | / bare torch.save + fsync |', '|---|---|---|', f"| bare | {ms(sec['bare']['median'])} | 1 |"]
                for k, q in r['save_ratio_to_bare'].items():
                    L.append(f"| {k} | {ms(sec[k]['median'])} | {f3(q['median'])} ({f3(q['q1'])}-{f3(q['q3'])}) |")
                L += ['', '| load | median | / bare torch.load |', '|---|---|---|', f"| bare_load | {ms(sec['bare_load']['median'])} | 1 |"]
                for k, q in r['load_ratio_to_bare'].items():
                    L.append(f"| {k} | {ms(sec[k]['median'])} | {f3(q['median'])} ({f3(q['q1'])}-{f3(q['q3'])}) |")
                L.append('')
                L.append('ntrain durable / ' + ', '.join(f"{k} {f3(q['median'])}" for k, q in r['ntrain_durable_vs'].items())
                         + '; ntrain blocking / ' + ', '.join(f"{k} {f3(q['median'])}" for k, q in r['ntrain_blocking_vs'].items())
                         + '; ntrain load / ' + ', '.join(f"{k} {f3(q['median'])}" for k, q in r['ntrain_load_vs'].items()) + '.')
    if 'loop' in S:
        s = S['loop']; L += ['', '## In the loop: ntrain steps/s / bare steps/s (higher is better)' + la('loop'), '']
        if 'error' in s: L.append(f"FAILED: {s['error'][-500:]}")
        else:
            L += ['| mode | num_workers | ratio median | IQR | target | verdict |', '|---|---|---|---|---|---|']
            for x in s['results']:
                L.append(f"| {x['mode']} | {x['num_workers']} | **{f3(x['ratio_median'])}** | {f3(x['ratio_q1'])}-{f3(x['ratio_q3'])} | 0.97 | {x['verdict']} |")
    if 'dist' in S:
        s = S['dist']; L += ['', '## Scale: time per optimizer step at 1, 2 and 4 processes (bench/dist_bench.py)' + la('dist'), '']
        if 'error' in s: L.append(f"FAILED: {s['error'][-500:]}")
        elif 'overhead' not in s: L.append('(an older dist.json: rerun `python bench/e2e.py --sections dist`)')
        else:
            st = s['settings']
            L += [f"`{s['command']}`: digits CNN, {st['epochs']} epochs, batch {st['batch_size_per_process']} per process, num_workers 0, "
                  f"{st['precision']}, gloo; time per step from each run's epoch records (training only, after the first epoch). "
                  f"{s['machine']['affinity']} CPUs: 4 processes run two to a core.", '',
                  '| processes | ntrain ms/step | reference ms/step | ntrain / reference (median) | IQR | ntrain: / 1 process | reference: / 1 process |',
                  '|---|---|---|---|---|---|---|']
            for n, q in s['overhead'].items():
                sp = s['seconds_per_step']; sc = lambda side: s['scale'][side].get(n)
                cell = lambda x: f"{f3(x['median'])} ({f3(x['q1'])}-{f3(x['q3'])})" if x else '1'
                L.append(f"| {n} | {sp[f'ntrain_{n}']['median']*1e3:.2f} | {sp[f'reference_{n}']['median']*1e3:.2f} | **{f3(q['median'])}** | "
                         f"{f3(q['q1'])}-{f3(q['q3'])} | {cell(sc('ntrain'))} | {cell(sc('reference'))} |")
    nb = BENCH/'results'/'notebook.json'
    if nb.exists() and not rehearsal:
        n = json.loads(nb.read_text()); P = n['parts']
        L += ['', '## The notebook (bench/notebook_bench.py)', '',
              f"Command: `{n['command']}`; when {n['when']}; load {tuple(round(x, 2) for x in n['load_start'])} -> {tuple(round(x, 2) for x in n['load_end'])}.", '',
              '| what | ratio median | IQR | target | verdict | pairs | without | with |', '|---|---|---|---|---|---|---|---|']
        if 'rung3' in P:
            r = P['rung3']; q = r['ratio']
            L.append(f"| rung 3 with the panel's live plot / plain `ladder()` (rung 3's seconds) | **{f3(q['median'])}** | {f3(q['iqr'][0])}-{f3(q['iqr'][1])} | "
                     f"{q['target']} | {q['verdict']} | {q['n']} | {fs(r['plain_median_s'])} | {fs(r['panel_median_s'])} ({r['redraws_median']:.0f} redraws) |")
        if 'dashboard' in P:
            r = P['dashboard']; q = r['ratio']
            L.append(f"| a 2-process run watched by the dashboard / waited on (start to finished record) | **{f3(q['median'])}** | {f3(q['iqr'][0])}-{f3(q['iqr'][1])} | "
                     f"{q['target']} | {q['verdict']} | {q['n']} | {fs(r['unwatched_median_s'])} | {fs(r['watched_median_s'])} |")
    lp = BENCH/'results'/'liveplot.md'  # bench/plot_bench.py's section, as it wrote it
    if lp.exists() and not rehearsal: L += [''] + lp.read_text().rstrip().splitlines()
    L += ['', '## The GPU path (bench/gpu.sh)', '']
    if gpu_text:
        if 'CUDA available: 0' in gpu_text:
            L += ['No device was lent: what follows is a CPU rehearsal of gpu.sh (the CUDA-only parts skip, the rest runs tiny '
                  'versions of itself). Its figures are not GPU results.', '']
        L += ['```', gpu_text.rstrip(), '```']
    else: L.append(res.get('gpu_note') or 'No device was lent for this run; `bench/gpu.sh` is ready (see bench/README.md).')
    return '\n'.join(L) + '\n'


# ---------------------------------------------------------------- main
def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split('\n', 1)[1])
    p.add_argument('--sections', nargs='+', default=DEFAULT_SECTIONS, help=f"of {', '.join(ALL_SECTIONS)}, or 'all'")
    p.add_argument('--pairs', type=int, default=20, help='alternating pairs (rounds) per section')
    p.add_argument('--ttfs-pairs', type=int, default=None, help='rounds for the ttfs section (default --pairs)')
    p.add_argument('--ckpt-reps', type=int, default=None, help='rounds for ckpt_compare (default --pairs)')
    p.add_argument('--epochs', type=int, default=8, help='digits epochs (the issue: 8)')
    p.add_argument('--mlp-epochs', type=int, default=3)
    p.add_argument('--probe-repeat', type=int, default=5, help='runs of fixed_cost_probe.py')
    p.add_argument('--omp-threads', type=int, default=None, help='set OMP_NUM_THREADS for every side (default: as this shell has it)')
    p.add_argument('--no-launch', action='store_true', help='ttfs: leave out the 2-process launches')
    p.add_argument('--workdir', default=None, help='where the runs go (default: a temporary directory)')
    p.add_argument('--rehearsal', action='store_true', help='label everything as a rehearsal; write under bench/results/rehearsal/')
    p.add_argument('--out', default=None, help='JSON (default bench/results/e2e.json)')
    p.add_argument('--md', default=None, help='markdown (default bench/RESULTS.md)')
    p.add_argument('--gpu-summary', default=None, help="gpu.sh's $OUT/summary.txt, to include in RESULTS.md")
    p.add_argument('--render', action='store_true', help='only write the markdown again from the JSON')
    a = p.parse_args(argv)
    sub = BENCH/'results'/('rehearsal' if a.rehearsal else '')
    out = Path(a.out or sub/('e2e.json')); md = Path(a.md or (sub/'RESULTS.md' if a.rehearsal else BENCH/'RESULTS.md'))
    gpu_text = Path(a.gpu_summary).read_text() if a.gpu_summary and Path(a.gpu_summary).exists() else None
    if a.render:
        res = json.loads(out.read_text())
        md.write_text(render(res, gpu_text)); print(f'written {md}'); return
    secs = ALL_SECTIONS if a.sections == ['all'] else a.sections
    bad = [s for s in secs if s not in ALL_SECTIONS]
    if bad: p.error(f"unknown section(s) {bad}; known: {ALL_SECTIONS}")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT)] + ([os.environ['PYTHONPATH']] if os.environ.get('PYTHONPATH') else [])))
    env.pop('NTRAIN_FAULT', None)
    if a.omp_threads: env['OMP_NUM_THREADS'] = str(a.omp_threads)
    # ntrain (and bench/'s modules the scripts import) as pip installs a package: with its bytecode compiled. An editable
    # install leaves none, and with PYTHONDONTWRITEBYTECODE=1 (set on these machines) none is ever written, so every
    # process would compile ntrain's sources again (about 0.09 s here) while Lightning's and Accelerate's came compiled.
    if not a.render: subprocess.run([PY, '-m', 'compileall', '-q', str(ROOT/'ntrain'), str(BENCH)], check=True, capture_output=True)
    work = Path(a.workdir) if a.workdir else Path(tempfile.mkdtemp(prefix='ntrain-e2e-'))
    work.mkdir(parents=True, exist_ok=True)
    import torch
    res = dict(bench='e2e', command='python bench/e2e.py ' + ' '.join(sys.argv[1:] if argv is None else argv), rehearsal=a.rehearsal or a.pairs < 20,
               when=time.strftime('%Y-%m-%d %H:%M:%S'), pairs=a.pairs, machine=machine(), workdir_fs=fs_type(work),
               versions={k: version(k) for k in ('torch', 'pytorch-lightning', 'accelerate', 'ntrain', 'numpy', 'scikit-learn')} | dict(python=platform.python_version()),
               git=dict(commit=git('rev-parse', 'HEAD'), branch=git('rev-parse', '--abbrev-ref', 'HEAD'), dirty=bool(git('status', '--porcelain', '--', 'ntrain', 'nbs', 'bench'))),
               env={k: env.get(k) for k in ('OMP_NUM_THREADS', 'MKL_NUM_THREADS')}, torch_threads_default=torch.get_num_threads(),
               loadavg_start=os.getloadavg(), bytecode='compiled first (python -m compileall ntrain bench), as pip does on install', sections={})
    log = lambda s: print(s, flush=True)
    t_all = time.perf_counter()
    try:
        for s in secs:
            log(f"== {s} ({a.pairs if s != 'ttfs' else a.ttfs_pairs or a.pairs} pairs); load average {os.getloadavg()}")
            t0, la0 = time.perf_counter(), os.getloadavg()
            try: r = SECTIONS['import_' if s == 'import' else s](a, work, env, log)
            except Exception as e:
                import traceback; traceback.print_exc()
                r = dict(error=f'{type(e).__name__}: {e}')
            r.update(loadavg_start=la0, loadavg_end=os.getloadavg(), wall_s=time.perf_counter() - t0)
            res['sections'][s] = r
            for c in r.get('comparisons', []):
                log(f"=> {s}: {c['a']} / {c['b']} ({c['metric']}): median {f3(c['median'])} IQR {f3(c['q1'])}-{f3(c['q3'])}"
                    + (f" target {c['target']}: {c.get('verdict')}" if c.get('target') is not None else ''))
            if s == 'fixed' and 'fixed_minus_reference' in r:
                f = r['fixed_minus_reference']; log(f"=> fixed: ntrain - reference {fs(f['median'])} (IQR {fs(f['q1'])} to {fs(f['q3'])}), target 0.3 s: {f['verdict']}")
            res['loadavg_end'] = os.getloadavg(); res['wall_s'] = time.perf_counter() - t_all
            out.parent.mkdir(parents=True, exist_ok=True); out.write_text(json.dumps(res, indent=1))
    finally:
        if not a.workdir: shutil.rmtree(work, ignore_errors=True)
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(render(res, gpu_text))
    log(f'written {out} and {md}')


if __name__ == '__main__':
    main()
