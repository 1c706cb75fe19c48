"""`loggers=[mlflow]` under `kill -9` and load: nothing lost, nothing duplicated, no store damaged (issue 34, item 1).

    python bench/tracker_kills.py                 # 20 kills and one run under 2 CPU hogs -> bench/results/tracker_kills.json
    python bench/tracker_kills.py --kills 4 --no-load

Each kill case is `ntrain fit` of a small run (`tests/integrity_tasks.py` `slow`: 16 steps an epoch, 10 ms a sample,
`log_every=1`, a checkpoint every 5 steps) sent to MLflow's SQLite store beside the run directories, killed with
SIGKILL at a uniformly random instant of its life (a run that ends before its instant is checked too, and another
case is drawn until there are `--kills` kills) from the moment its run directory holds config.yaml (that life
measured first on one run left alone; before it there is no tracker to test). Every fourth case starts
with no store at all, so the kill can land while the store is being made. After the kill the run is continued as a
user would: even cases `ntrain resume` (when a checkpoint exists; it must end FINISHED), odd cases `ntrain sync RUN`
(it must end as the run's files say: KILLED, or FINISHED when the kill came after the end record). A run whose drain
at the end ran out of time starts a sender in the background (its warning gives the pid): the check waits for it. Then every step, val and epoch value of `metrics.jsonl` is looked up in MLflow with
`MlflowClient`: lost (in the file, not in MLflow), duplicated (a key's step logged twice), wrong (another value; the
timing fields of a step replayed after a resume are counted apart: MLflow keeps the first value sent), and
the MLflow run's status against the run's end. The store must open with MLflow's own client after every case, and no
store is ever moved aside (`mlflow.db.broken-*`: a half-made store).

The load case: one run of 3 epochs into a fresh store while 2 processes spin on the CPUs (this machine has 2): what
the run sent by itself (and its background sender, if it started one), then after `ntrain sync`.

Figures taken on a shared 2-core machine are slow and noisy; the counts (lost, duplicated, status) are the result."""
from __future__ import annotations
import argparse, json, os, random, signal, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1',
           PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT/'tests')] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]))
ENV.pop('MLFLOW_TRACKING_URI', None)
OPTS = ['task=integrity_tasks:slow', 'task_args.delay=0.01', 'batch_size=16', 'num_workers=0', 'progress=false', 'log_every=1',
        'ckpt_every=5', 'deterministic=true', 'loggers=[mlflow]']

TIMING = ('data_wait', 'samples_per_s')  # fields measured, not computed: a step replayed after a resume has other values

def ntrain(*args, timeout=600, **kw):
    return subprocess.run([sys.executable, '-m', 'ntrain', *map(str, args)], env=ENV, capture_output=True, text=True, timeout=timeout, **kw)

def expected(rd:Path)->dict:
    "{key: {step: value}} of every number of a step, val or epoch record of metrics.jsonl (the last value of a step: a resume rewinds)."
    from ntrain.trackers import metrics_of
    from ntrain.loggers import read_metrics
    out = {}
    for r in read_metrics(rd):
        for k, v, s, _ in metrics_of(r): out.setdefault(k, {})[s] = v
    return out

def senders(rd:Path, timeout:float=600)->dict:
    "Wait for the background senders the run's warnings name (`ntrain sync` a drain that ran out of time started) to exit."
    import re
    from ntrain.loggers import read_metrics
    pids = [int(m) for r in read_metrics(rd, 'message') for m in re.findall(r'a sender in the background \(pid (\d+)\)', r.get('text', ''))]
    t0 = time.monotonic()
    for pid in pids:
        while Path(f'/proc/{pid}').exists() and time.monotonic() - t0 < timeout:
            try:
                if Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()[0] == 'Z': break
            except (OSError, IndexError): break
            time.sleep(0.2)
    return dict(sender_pids=pids, sender_wait_s=round(time.monotonic() - t0, 1))

def check(rd:Path, uri:str, want_status:str)->dict:
    "What MLflow holds of run `rd` against its metrics.jsonl."
    from mlflow.tracking import MlflowClient
    c = MlflowClient(uri)
    want = expected(rd)
    ids = json.loads((rd/'mlflow.json').read_text()) if (rd/'mlflow.json').exists() else {}
    if not ids: return dict(points=sum(map(len, want.values())), lost=sum(map(len, want.values())), dup=0, wrong=0, status=None, ok=not want)
    run = c.get_run(ids['run_id'])
    found = c.search_runs([ids['experiment_id']], filter_string=f"tags.`ntrain.run_id` = '{ids['ntrain_run_id']}'")
    lost = dup = wrong = timing = 0
    for k in set(want) | set(run.data.metrics):
        hist = c.get_metric_history(ids['run_id'], k)
        steps = [m.step for m in hist]
        dup += len(steps) - len(set(steps))
        got = {m.step: m.value for m in hist}
        lost += sum(1 for s in want.get(k, {}) if s not in got)
        differ = sum(1 for s, v in want.get(k, {}).items() if s in got and got[s] != v)
        if k.split('/')[-1] in TIMING: timing += differ  # a replayed step's timing: MLflow keeps the first value sent (it cannot delete)
        else: wrong += differ
        wrong += sum(1 for s in got if s not in want.get(k, {}))  # a point the file does not hold
    st = run.info.status
    return dict(points=sum(map(len, want.values())), lost=lost, dup=dup, wrong=wrong, replayed_timings=timing, status=st, mlflow_runs=len(found),
                ok=lost == dup == wrong == 0 and st == want_status and len(found) == 1)

def store_ok(root:Path)->dict:
    "The store opens with MLflow's own client, is at this MLflow's schema, and nothing was moved aside or left half-made."
    from mlflow.tracking import MlflowClient
    from ntrain.trackers import _inspect
    from mlflow.store.db.utils import _get_latest_schema_revision
    p = root/'mlflow.db'
    out = dict(exists=p.exists(), broken=sorted(x.name for x in root.glob('mlflow.db.broken-*')), tmp=sorted(x.name for x in root.glob('mlflow.db.tmp-*')))
    if p.exists():
        out['schema_ok'] = _inspect(p)[0] == _get_latest_schema_revision()
        try: MlflowClient(f'sqlite:///{p}').search_experiments(); out['opens'] = True
        except Exception as e: out['opens'] = False; out['error'] = str(e).splitlines()[0][:200]
    return out

def fit_cmd(rd:Path, epochs:int):
    return [sys.executable, '-m', 'ntrain', 'fit', 'digits', f'run_dir={rd}', *OPTS, f'epochs={epochs}']

def appears(p:Path, proc, timeout:float=300)->bool:
    "Wait until `p` exists (True), or the process ended or `timeout` passed (False)."
    end = time.monotonic() + timeout
    while not p.exists():
        if proc.poll() is not None or time.monotonic() > end: return False
        time.sleep(0.02)
    return True

def life(base:Path, epochs:int)->float:
    "Seconds one run left alone lives from the moment its run directory holds config.yaml to its exit (into a fresh store: the longest life)."
    rd = base/'calib'/'runs'/'r'
    p = subprocess.Popen(fit_cmd(rd, epochs), env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=base)
    appears(rd/'config.yaml', p); t0 = time.monotonic(); p.wait(600)
    if p.returncode != 0: raise SystemExit(f'the calibration run failed ({p.returncode})')
    return time.monotonic() - t0

def kill_case(base:Path, k:int, at:float, fresh:bool, epochs:int)->dict:
    root = base/(f'fresh{k}' if fresh else 'shared')/'runs'
    root.mkdir(parents=True, exist_ok=True)
    rd, uri = root/f'k{k}', f'sqlite:///{root}/mlflow.db'
    had_store = (root/'mlflow.db').exists()
    p = subprocess.Popen(fit_cmd(rd, epochs), env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=base)
    appears(rd/'config.yaml', p)  # the instant is drawn over the run's life from there (its imports before: no tracker yet)
    try: p.wait(at); ended_alone = True
    except subprocess.TimeoutExpired:
        os.kill(p.pid, signal.SIGKILL); p.wait(); ended_alone = False
    row = dict(case=k, kill_at_s=round(at, 2), fresh_store=fresh, store_before=had_store, exit=p.returncode, ended_before_kill=ended_alone,
               killed_making_store=bool(list(root.glob('mlflow.db.tmp-*'))) or (not ended_alone and not (root/'mlflow.db').exists()))
    if not (rd/'config.yaml').exists():
        row.update(then='nothing to continue: killed before the run directory', store=store_ok(root), ok=True)
        row['ok'] = not row['store']['broken'] and row['store'].get('opens', True) is not False
        return row
    resumable = (rd/'ckpt'/'last.pt').exists() and not ended_alone
    if k % 2 == 0 and resumable:
        r = ntrain('resume', rd); row.update(then='resume', then_exit=r.returncode, then_err=r.stderr[-300:] if r.returncode else '')
        want = 'FINISHED'
    else:
        from ntrain.lifecycle import run_state
        ended = run_state(rd)['state']  # what the run's files say: a kill after its end record leaves a finished run
        r = ntrain('sync', rd); row.update(then='sync', then_exit=r.returncode, then_out=(r.stdout + r.stderr).strip()[-300:], files_say=ended)
        want = {'finished': 'FINISHED', 'failed': 'FAILED'}.get(ended, 'KILLED')
    row.update(senders(rd))  # a resume whose drain ran out of time started one: it sends the rest
    row.update(check(rd, uri, want), want_status=want, store=store_ok(root))
    row['ok'] = row['ok'] and not row['store']['broken'] and row['store'].get('opens') is True and row['store'].get('schema_ok') is True
    return row

def load_case(base:Path, epochs:int)->dict:
    "A run into a fresh store while 2 processes spin on the CPUs; checked as it ended, and after `ntrain sync`."
    root = base/'load'/'runs'; rd, uri = root/'r', f"sqlite:///{base/'load'/'runs'}/mlflow.db"
    hogs = [subprocess.Popen([sys.executable, '-c', 'while True: pass']) for _ in range(2)]
    try:
        t0 = time.monotonic(); r = subprocess.run(fit_cmd(rd, epochs), env=ENV, capture_output=True, text=True, timeout=1200, cwd=base)
        took = time.monotonic() - t0
    finally:
        for h in hogs: h.kill(); h.wait()
    from ntrain.loggers import read_metrics
    warns = [m['text'] for m in read_metrics(rd, 'message') if m.get('level') == 'warning']
    row = dict(exit=r.returncode, wall_s=round(took, 1), warnings=warns, **senders(rd))
    try: row['as_ended'] = check(rd, uri, 'FINISHED')
    except Exception as e: row['as_ended'] = dict(error=str(e).splitlines()[0][:200])
    s = ntrain('sync', rd); row['sync'] = (s.stdout + s.stderr).strip()[-300:]
    row['after_sync'] = check(rd, uri, 'FINISHED'); row['store'] = store_ok(root)
    row['ok'] = row['after_sync']['ok'] and row['store'].get('opens') is True and not row['store']['broken']
    return row

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--kills', type=int, default=20)
    ap.add_argument('--epochs', type=int, default=2)
    ap.add_argument('--seed', type=int, default=34)
    ap.add_argument('--no-load', action='store_true')
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'tracker_kills.json'))
    a = ap.parse_args()
    rng, rows, t_start = random.Random(a.seed), [], time.time()
    with tempfile.TemporaryDirectory() as d:
        base = Path(d)
        T = life(base, a.epochs); print(f'one run left alone, from config.yaml to its exit: {T:.1f} s', flush=True)
        k = 0
        while sum(not r['ended_before_kill'] for r in rows) < a.kills and k < 2 * a.kills:  # a run that ended before its instant is no kill: another is drawn
            fresh = k % 4 == 0
            at = rng.uniform(0.0, 0.8 * T)
            row = kill_case(base, k, at, fresh, a.epochs); rows.append(row); k += 1
            print(f"case {k} (kills {sum(not r['ended_before_kill'] for r in rows)}/{a.kills}) at {at:.1f} s ({'fresh store' if fresh else 'store there'}): then {row.get('then')}: "
                  f"points {row.get('points')}, lost {row.get('lost')}, dup {row.get('dup')}, wrong {row.get('wrong')}, "
                  f"status {row.get('status')} (want {row.get('want_status')}); killed before the store was published {row['killed_making_store']}; store {row['store']}; ok {row['ok']}", flush=True)
        load = None if a.no_load else load_case(base, a.epochs + 1)
        if load: print(f"under 2 CPU hogs: {load}", flush=True)
    kills = [r for r in rows if 'points' in r]
    summary = dict(cases=len(rows), kills=sum(not r['ended_before_kill'] for r in rows), checked=len(kills), before_run_dir=len(rows) - len(kills),
                   points=sum(r['points'] for r in kills), lost=sum(r['lost'] for r in kills), duplicated=sum(r['dup'] for r in kills),
                   wrong=sum(r['wrong'] for r in kills), replayed_timings=sum(r.get('replayed_timings', 0) for r in kills), status_wrong=sum(r['status'] != r['want_status'] for r in kills),
                   killed_making_store=sum(r['killed_making_store'] for r in rows), stores_broken=sum(bool(r['store']['broken']) for r in rows), stores_unopenable=sum(r['store'].get('opens') is False for r in rows),
                   all_ok=all(r['ok'] for r in rows) and (load is None or load['ok']))
    res = dict(command=' '.join(['python bench/tracker_kills.py', *sys.argv[1:]]), life_s=round(T, 1), summary=summary, rows=rows, load=load,
               cpus=os.cpu_count(), started=time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(t_start)), took_s=round(time.time() - t_start),
               note='a shared 2-core machine (other engineers\' jobs running): times are distorted; the counts are the result')
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=1) + '\n')
    print(json.dumps(summary), '->', a.out)

if __name__ == '__main__': main()
