"""`loggers=[mlflow]` as a user meets it: `ntrain fit` in subprocesses logging into a SQLite database beside the
run directories, with no server, read back with MLflow's own client; two runs started at once into one database; a run
killed with SIGKILL and resumed into the same MLflow run; a stopped run and a failed one (their MLflow status); a tracking
URI where nothing listens. Issue 34: a kill while the store is being made leaves no store (and `ntrain sync` then
sends every record once); a half-made store is moved aside, one holding runs is named and left as it is; a store
deleted mid-run is one warning, with nothing of MLflow's log on the terminal.

The runs are the tiny task with a train set that takes 10 ms a sample (tests/integrity_tasks.py `slow`): 16 steps an
epoch, long enough for the logger's thread to import MLflow and connect while the run trains."""
import json, os, signal, socket, subprocess, sys, time
from pathlib import Path
import pytest
from conftest import run_cli, ROOT

mlflow = pytest.importorskip('mlflow', reason="the mlflow extra: pip install -e '.[dev]'")
from mlflow.tracking import MlflowClient
from ntrain.loggers import read_metrics

TESTS = Path(__file__).resolve().parent
ENV = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]))
ENV.pop('MLFLOW_TRACKING_URI', None)
OPTS = ['task=integrity_tasks:slow', 'task_args.delay=0.01', 'epochs=1', 'batch_size=16', 'num_workers=0', 'progress=false',
        'log_every=2', 'deterministic=true', 'loggers=[mlflow]']

def cmd(*args): return [sys.executable, '-m', 'ntrain', *map(str, args)]
def env(**kw): return dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1', **{k: v for k, v in ENV.items()}, **kw)

def expected(rd)->dict:
    "{key: [(step, value)]} that metrics.jsonl says MLflow holds: each number of a step, val or epoch record as `kind/field`."
    out = {}
    for r in read_metrics(rd):
        if r['kind'] not in ('step', 'val', 'epoch'): continue
        for k, v in r.items():
            if k not in ('kind', 'step', 'time', 'epoch') and isinstance(v, (int, float)) and not isinstance(v, bool):
                out.setdefault(f"{r['kind']}/{k}", []).append((r['step'], float(v)))
    return out

def logged(client, run_id)->dict:
    "{key: [(step, value)]} as MLflow holds them, in the order it returns them."
    return {k: [(m.step, m.value) for m in client.get_metric_history(run_id, k)] for k in client.get_run(run_id).data.metrics}

def warnings_of(rd)->list:
    "The run's warning records about its tracker (a loaded machine may add others: curves.png drawn late)."
    return [r['text'] for r in read_metrics(rd, 'message') if r.get('level') == 'warning' and 'mlflow' in r.get('text', '').lower()]

@pytest.fixture(scope='module')
def root(tmp_path_factory):
    """Two runs started at once into one database (made beforehand, as a project's first run makes it: its tables take several
    seconds, a one-time cost that a loaded machine can stretch past the 10 s drain) with no experiment yet, differing in optim.lr."""
    base = tmp_path_factory.mktemp('trackers'); root, cwd = base/'runs', base/'cwd'; cwd.mkdir(); root.mkdir()
    MlflowClient(f'sqlite:///{root}/mlflow.db').search_experiments()
    procs = [subprocess.Popen(cmd('fit', 'digits', f'run_dir={root/name}', *OPTS, f'optim.lr={lr}'), cwd=cwd, env=env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name, lr in (('a', 0.003), ('b', 0.01))]
    for p in procs:
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, f'exit {p.returncode}\n{out[-2000:]}\n{err[-2000:]}'
    assert sorted(os.listdir(cwd)) == []  # nothing in the current directory (MLflow's own default is mlflow.db and mlruns/ there)
    return root

def test_two_runs_at_once_both_complete(root):
    c = MlflowClient(f'sqlite:///{root}/mlflow.db')
    runs = c.search_runs([c.get_experiment_by_name('ntrain').experiment_id])
    assert sorted(r.info.run_name for r in runs) == ['a', 'b'] and {r.info.status for r in runs} == {'FINISHED'}
    assert warnings_of(root/'a') == warnings_of(root/'b') == []

def test_a_fit_read_back(root):
    rd = root/'a'
    ids = json.loads((rd/'mlflow.json').read_text())
    assert ids['tracking_uri'] == f'sqlite:///{root}/mlflow.db'  # the runs root's database
    c = MlflowClient(ids['tracking_uri'])
    run = c.get_run(ids['run_id'])
    cfg = (rd/'config.yaml').read_text()
    assert run.info.status == 'FINISHED' and run.data.tags['ntrain.state'] == 'finished'
    assert f"run_id: {run.data.tags['ntrain.run_id']}\n" in cfg and run.data.tags['torch']
    p = run.data.params
    assert (p['optim.lr'], p['epochs'], p['task_args.delay'], p['run.global_batch'], p['run.world_size'], p['run.lr_scaling']) == ('0.003', '1', '0.01', '16', '1', 'none')
    want = expected(rd)
    assert 'step/loss' in want and 'epoch/val_loss' in want and len(want['step/loss']) == 8
    assert logged(c, ids['run_id']) == want  # every key, the same steps and values, in order
    assert {a.path for a in c.list_artifacts(ids['run_id'])} == {'config.yaml', 'run.md'} | ({'curves.png'} if (rd/'curves.png').exists() else set())
    art = Path(run.info.artifact_uri.replace('file://', ''))
    assert art.is_relative_to(root/'mlartifacts') and (art/'run.md').read_text() == (rd/'run.md').read_text()

def test_killed_and_resumed_is_one_mlflow_run(root):
    "SIGKILL after step 23 (the last checkpoint at step 20), then a resume: one MLflow run, each key's steps strictly increasing, none missing."
    rd = root/'k'
    r = run_cli('fit', 'digits', f'run_dir={rd}', *OPTS, 'epochs=2', 'ckpt_every=5', 'log_every=1', env={**ENV, 'NTRAIN_FAULT': 'step:23'}, timeout=180)
    assert r.returncode == -signal.SIGKILL, r.stderr[-2000:]
    run_cli('resume', rd, env=ENV, timeout=180, check=0)
    c = MlflowClient(f'sqlite:///{root}/mlflow.db')
    ours = json.loads((rd/'mlflow.json').read_text())
    found = c.search_runs([ours['experiment_id']], filter_string=f"tags.`ntrain.run_id` = '{ours['ntrain_run_id']}'")
    assert [x.info.run_id for x in found] == [ours['run_id']] and found[0].info.status == 'FINISHED'
    got, want = logged(c, ours['run_id']), expected(rd)
    assert sorted(got) == sorted(want)
    for k, pts in got.items():
        steps = [s for s, _ in pts]
        assert steps == sorted(set(steps)), (k, steps)  # strictly increasing
        assert steps == [s for s, _ in want[k]], (k, steps)  # none missing, none extra
    assert got['step/loss'] == want['step/loss']  # the replayed steps are bit-identical: the first values sent are the run's
    assert warnings_of(rd) == []

def test_a_tracker_that_is_not_there(tmp_path):
    "A tracking URI where nothing listens (a run in this process): it finishes, and says so in one warning record (the time it adds: bench/tracker_bench.py)."
    import ntrain, torch
    s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
    rd, n = tmp_path/'runs'/'r', torch.get_num_threads()
    torch.set_num_threads(1)
    try: res = ntrain.fit('digits', [*OPTS, 'task_args.delay=0', f'tracking_uri=http://127.0.0.1:{port}'], run_dir=rd, quiet=True)
    finally: torch.set_num_threads(n)
    assert res.status == 'finished'
    w = warnings_of(rd)
    assert len(w) == 1 and 'mlflow' in w[0] and f'127.0.0.1:{port}' in w[0] and 'cannot be reached' in w[0], w
    assert [r['kind'] for r in read_metrics(rd) if r['kind'] in ('finished', 'failed', 'stopped')] == ['finished']
    assert not (tmp_path/'runs'/'mlflow.db').exists()

def test_stopped_is_killed_and_failed_is_failed(root):
    "Two runs in this process into the same database: one stopped on request (KILLED, tagged ntrain.state=stopped), one whose model raises (FAILED)."
    import threading, ntrain, torch
    n = torch.get_num_threads(); torch.set_num_threads(1)
    stop = threading.Event()
    try:
        res = ntrain.fit('digits', [*OPTS, 'task_args.delay=0', 'epochs=3'], run_dir=root/'stopped', quiet=True, stop=stop,
                         callbacks=[lambda r: r['kind'] == 'step' and stop.set()])  # stop once the first step record is out
        with pytest.raises(Exception, match='boom'):
            ntrain.fit('digits', ['task=tasks_for_tests:boom_at', *OPTS[2:]], run_dir=root/'failed', quiet=True)
    finally: torch.set_num_threads(n)
    assert res.status == 'stopped'
    c = MlflowClient(f'sqlite:///{root}/mlflow.db')
    for name, status, state in (('stopped', 'KILLED', 'stopped'), ('failed', 'FAILED', 'failed')):
        run = c.get_run(json.loads((root/name/'mlflow.json').read_text())['run_id'])
        assert (run.info.status, run.data.tags['ntrain.state']) == (status, state), name
        assert warnings_of(root/name) == []


def test_a_kill_while_the_store_is_made_leaves_none_and_sync_sends_everything_once(tmp_path):
    "SIGKILL 300 ms into making a new store (NTRAIN_FAULT=store:300): no store, nothing half-made; `ntrain sync` makes it, sends every point, once."
    root = tmp_path/'runs'; rd = root/'r'
    r = run_cli('fit', 'digits', f'run_dir={rd}', *OPTS, env={**ENV, 'NTRAIN_FAULT': 'store:300'}, timeout=180)
    assert r.returncode == -signal.SIGKILL, r.stderr[-2000:]
    assert not (root/'mlflow.db').exists() and not list(root.glob('mlflow.db.broken-*'))  # nothing published: whole, or not at all
    s = run_cli('sync', rd, env=ENV, timeout=120, check=0)
    assert not list(root.glob('mlflow.db.tmp-*')) and not list(root.glob('mlflow.db.broken-*'))  # the killed maker's file removed
    c, ours = MlflowClient(f'sqlite:///{root}/mlflow.db'), json.loads((rd/'mlflow.json').read_text())
    want, got = expected(rd), logged(c, ours['run_id'])
    assert got == want and sum(map(len, want.values())) > 0, (sorted(got), sorted(want))  # every key, every step once, the same values
    assert f"{sum(map(len, want.values()))} values sent" in s.stdout, s.stdout
    assert c.get_run(ours['run_id']).info.status == 'KILLED'  # as the run's files say it ended (lost: an outside SIGKILL)
    again = run_cli('sync', rd, env=ENV, timeout=120, check=0)
    assert ' 0 values sent' in again.stdout and logged(c, ours['run_id']) == want, again.stdout

def _ended_run(rd, steps=4):
    "A run directory of an ended run, written by hand: config.yaml (its run_id) and metrics.jsonl."
    rd.mkdir(parents=True)
    (rd/'config.yaml').write_text(f'run_id: {rd.name}\n')
    recs = [dict(kind='start', step=0, time=1.0), *[dict(kind='step', step=s, loss=1.0 / s, time=1.0 + s) for s in range(1, steps + 1)],
            dict(kind='finished', step=steps, reason='epochs', time=9.0)]
    (rd/'metrics.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in recs))
    return rd

def test_a_half_made_store_is_moved_aside_and_one_with_runs_is_named(tmp_path):
    """A store with MLflow's first tables and no migrations (a kill inside MLflow's own making): moved aside, a new one
    made. A store holding runs at another schema: one line naming it and the fix, the file left byte for byte."""
    import sqlalchemy, sqlite3
    from mlflow.store.tracking.dbmodels.initial_models import Base  # what MLflow makes first, before its migrations
    from ntrain.trackers import sync, TrackerError
    root = tmp_path/'runs'; root.mkdir()
    eng = sqlalchemy.create_engine(f'sqlite:///{root}/mlflow.db'); Base.metadata.create_all(eng); eng.dispose()  # half-made, no runs
    res = sync(_ended_run(root/'a'))
    aside = list(root.glob('mlflow.db.broken-*'))
    assert len(aside) == 1 and 'moved aside' in res['notes'][0] and aside[0].name in res['notes'][0], res
    c = MlflowClient(f'sqlite:///{root}/mlflow.db')
    assert [m.step for m in c.get_metric_history(res['run_id'], 'step/loss')] == [1, 2, 3, 4]
    con = sqlite3.connect(root/'mlflow.db'); con.execute("update alembic_version set version_num = '0a8213491aaa'"); con.commit(); con.close()
    before = (root/'mlflow.db').read_bytes()
    with pytest.raises(TrackerError) as e: sync(_ended_run(root/'b'))
    line = str(e.value)
    assert '\n' not in line and 'holds 1 runs' in line and 'mlflow db upgrade' in line and str(root/'mlflow.db') in line, line
    assert (root/'mlflow.db').read_bytes() == before and len(list(root.glob('mlflow.db.broken-*'))) == 1  # never changed, never moved

def test_a_store_deleted_mid_run_is_one_warning_and_nothing_on_the_terminal(tmp_path):
    "The store deleted while the run sends (its MLflow log was 82 lines on stderr): one warning record naming it; `ntrain sync` sends all to a new one."
    root = tmp_path/'runs'; rd = root/'r'; root.mkdir()
    from ntrain.trackers import _make_store
    _make_store(root/'mlflow.db')  # a store there before the run (made as ntrain makes one: no connection of this process stays open on it)
    p = subprocess.Popen(cmd('fit', 'digits', f'run_dir={rd}', *OPTS, 'epochs=2', 'log_every=1'), cwd=tmp_path, env=env(),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.monotonic()
        while not (rd/'mlflow.json').exists() and p.poll() is None and time.monotonic() - t0 < 120: time.sleep(0.05)
        (root/'mlflow.db').unlink()
        out, err = p.communicate(timeout=180)
    finally:
        if p.poll() is None: p.kill(); p.wait()
    assert p.returncode == 0, err[-2000:]
    assert err.strip() == '', err[-3000:]  # nothing of MLflow's (nor SQLAlchemy's) log
    w = warnings_of(rd)
    assert len(w) == 1 and 'deleted or replaced' in w[0] and f'ntrain sync {rd}' in w[0], w
    run_cli('sync', rd, env=ENV, timeout=120, check=0)
    c, ours = MlflowClient(f'sqlite:///{root}/mlflow.db'), json.loads((rd/'mlflow.json').read_text())
    assert logged(c, ours['run_id']) == expected(rd) and c.get_run(ours['run_id']).info.status == 'FINISHED'

def _alive(pid:int)->bool:
    "Whether process `pid` is there and not a zombie."
    try: return Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()[0] != 'Z'
    except (OSError, IndexError): return False

def test_what_the_drain_could_not_send_a_sender_in_the_background_sends(tmp_path, monkeypatch):
    "A drain that runs out of time (here 0.05 s): the warning names a detached `ntrain sync`; it sends the rest once the run has ended."
    import re, ntrain, torch
    from ntrain.trackers import MLflowLogger, _make_store
    root = tmp_path/'runs'; rd = root/'r'; root.mkdir()
    _make_store(root/'mlflow.db')
    monkeypatch.setattr(MLflowLogger, 'DRAIN_S', 0.05)
    finish = MLflowLogger._finish
    def slow_finish(self, *a, **k):  # the end state takes longer than the drain: on an idle machine it could take under 0.05 s (a flake)
        time.sleep(0.5)
        if not self._abandon.is_set(): finish(self, *a, **k)
    monkeypatch.setattr(MLflowLogger, '_finish', slow_finish)
    n = torch.get_num_threads(); torch.set_num_threads(1)
    try: res = ntrain.fit('digits', [*OPTS, 'task_args.delay=0'], run_dir=rd, quiet=True)
    finally: torch.set_num_threads(n)
    w = warnings_of(rd)
    assert res.status == 'finished' and len(w) == 1 and 'a sender in the background (pid' in w[0] and f'ntrain sync {rd}' in w[0], w
    pid, t0 = int(re.search(r'pid (\d+)', w[0]).group(1)), time.monotonic()
    while _alive(pid):
        assert time.monotonic() - t0 < 120, 'the sender is still there after 120 s'
        time.sleep(0.1)
    c, ours = MlflowClient(f'sqlite:///{root}/mlflow.db'), json.loads((rd/'mlflow.json').read_text())
    assert logged(c, ours['run_id']) == expected(rd) and c.get_run(ours['run_id']).info.status == 'FINISHED'
