"""`loggers=[mlflow]` as a user meets it: `ntrain fit` in subprocesses logging into a SQLite database beside the
run directories, with no server, read back with MLflow's own client; two runs started at once into one database; a run
killed with SIGKILL and resumed into the same MLflow run; a stopped run and a failed one (their MLflow status); a tracking
URI where nothing listens.

The runs are the tiny task with a train set that takes 10 ms a sample (tests/integrity_tasks.py `slow`): 16 steps an
epoch, long enough for the logger's thread to import MLflow and connect while the run trains."""
import json, os, signal, socket, subprocess, sys
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
