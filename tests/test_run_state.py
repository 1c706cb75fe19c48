"""One run state for every view. For each case of files on disk, `run_state`/`run_info`, `ntrain.runs`, a
`RunView` fed the run's records and status, `ntrain runs`, `ntrain watch` (and its exit code) and the run card say the
same state. Real runs: a launched run killed by `Launch.kill`, a plain `ntrain fit` killed from outside (lost), a run
stopped by `ntrain stop` (stopping, then stopped) and resumed, a finished run with a damaged status.json, and a run that
fails: its dashboard shows the error, never healthy epoch lines.

Every subprocess has a timeout; a failing test prints the run's logs.
"""
import json, os, re, signal, socket, subprocess, sys, tempfile, threading, time
from pathlib import Path
import pytest
from conftest import ROOT, logs
import ntrain
from ntrain.card import run_card
from ntrain.config import load_config
from ntrain.events import Watcher, apply_record
from ntrain.handle import RunHandle
from ntrain.launch import LaunchResult, attach, launch
from ntrain.lifecycle import STATES, run_state
from ntrain.rundir import process_alive, process_start_time, process_tree, read_status
from ntrain.notebook.dashboard import dashboard
from ntrain.notebook.viewmodel import RunView, run_info, runs

TESTS = Path(__file__).resolve().parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]), OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1',
           NTRAIN_PLOTTER='0', NTRAIN_DIST_TIMEOUT='60')
SLOW = ['task=integrity_tasks:slow', 'num_workers=0', 'batch_size=32', 'progress=false', 'log_every=1']  # ~0.6 s a step


def ntrain_cli(*args, timeout=120, **env):
    return subprocess.run([sys.executable, '-m', 'ntrain', *map(str, args)], env=dict(ENV, **env), capture_output=True, text=True, timeout=timeout)


def wait_for(cond, timeout=120, what='condition', every=0.05):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, f'{what}: not after {timeout} s'
        time.sleep(every)


def records(rd)->list:
    out = []
    for r in Watcher(Path(rd)/'metrics.jsonl').poll(): apply_record(out, r)
    return out


def card_state(rd)->str:
    "The state word of the run card's Epochs line."
    m = re.search(r'\*\*Epochs:\*\* \d+ \((?:\d+ run, )?([a-z]+)', run_card(rd))
    assert m, run_card(rd)
    return m.group(1)


def alive(rd)->bool:
    "Whether a process that writes the run lives here (torchrun's, in launch.json; the trainer's, in status.json): what a handle knows."
    li = json.loads((rd/'launch.json').read_text()) if (rd/'launch.json').exists() else {}
    found = [process_alive(d.get('pid'), d.get('pid_start')) for d in (li, read_status(rd)) if d.get('pid') and d.get('host') == socket.gethostname()]
    return any(found) if found else None

EXIT = dict(finished=0, stopped=75, failed=1, killed=137, lost=1, starting=0, running=0, stopping=0)  # a live run: the watch ends at --timeout

def views(rd:Path, watch_timeout:float=0.5)->dict:
    "The state each view says of run directory `rd` (alone in its parent directory), and `ntrain watch`'s exit code."
    rd = Path(rd)
    v = RunView(launched=(rd/'launch.json').exists())  # fed as a dashboard feeds it: the records, status.json, whether the run's process runs
    for r in records(rd): v.apply(r)
    v.heartbeat(read_status(rd), running=alive(rd))
    listed = ntrain_cli('runs', rd.parent)
    line = next((l for l in listed.stdout.splitlines() if l.startswith(str(rd) + ' ')), None)
    assert listed.returncode == 0 and line, (listed.stdout, listed.stderr)
    w = ntrain_cli('watch', rd, '--every', '1', '--timeout', watch_timeout, '--wait', 0)
    assert w.stdout.strip(), (w.stdout, w.stderr)
    return dict(run_state=run_state(rd)['state'], run_info=run_info(rd)['state'], runs=[r['state'] for r in runs(rd.parent)][0], run_view=v.state,
                cli_runs=line.split()[1], cli_watch=w.stdout.strip().splitlines()[-1].split()[0], card=card_state(rd), watch_exit=w.returncode)


def assert_everywhere(rd, state:str, code:int=None)->dict:
    "Every view says `state`, and `ntrain watch` exits with the run's own exit code (`code`, else the state's)."
    got = views(rd)
    assert got == dict({k: state for k in got}, watch_exit=EXIT[state] if code is None else code), (got, logs(rd))
    return got


# ---------------------------------------------------------------- the table: files on disk, one state in every view
def _gone()->int:
    p = subprocess.Popen([sys.executable, '-c', 'pass']); p.wait(); return p.pid

ME = dict(pid=os.getpid(), pid_start=process_start_time(os.getpid()), host=socket.gethostname())
GONE = dict(pid=_gone(), pid_start=None, host=socket.gethostname())
START = dict(kind='start', step=0, epochs=3, total_steps=30, monitor='val_acc', mode='max', time=1000.0)
FIN = dict(kind='finished', step=22, status='early_stopped', reason='early_stopped', time=1010.0)
TABLE = {  # name: (status.json (a dict, or raw bytes), records, launch.json, the state every view says)
    'running, its process alive': (dict(state='running', step=5, **ME), [START], None, 'running'),
    'running, its process gone': (dict(state='running', step=5, **GONE), [START], None, 'lost'),
    'stopping, its process alive': (dict(state='stopping', reason='SIGTERM', step=7, **ME), [START], None, 'stopping'),
    'stopping, its process gone': (dict(state='stopping', reason='SIGTERM', step=7, **GONE), [START], None, 'lost'),
    'a final record, status.json stale': (dict(state='running', step=20, **GONE), [START, FIN], None, 'finished'),
    'a final record, status.json damaged': (b'\x00\xff{"state": ', [START, FIN], None, 'finished'),
    'finished, in the words of before': (dict(state='max_steps', step=9, **GONE), [], None, 'finished'),
    'nonfinite, in the words of before': (dict(state='nonfinite', step=3, **GONE), [], None, ('failed', 3)),
    'died, a view\'s word of before': (dict(state='died', step=3, **GONE), [], None, 'lost'),
    'stopped': (dict(state='stopped', reason='SIGTERM', step=7, **GONE), [START, dict(kind='stopped', step=7, status='stopped', reason='SIGTERM')], None, 'stopped'),
    'failed': (dict(state='failed', reason='ValueError: x', step=7, **GONE), [START, dict(kind='failed', step=7, status='failed', reason='ValueError: x')], None, 'failed'),
    'killed': (dict(state='killed', reason='Launch.kill', step=4, **GONE), [START], None, 'killed'),
    'resumed after a final record': (dict(state='running', step=23, **ME), [START, FIN, dict(START, kind='resume', step=22)], None, 'running'),
    'launched, torchrun not started yet': (None, [], ME, 'starting'),
    'launched, torchrun gone, the trainer still runs': (dict(state='running', step=2, **ME), [START], GONE, 'running'),
    'launched, torchrun gone, nothing written': (None, [], GONE, 'lost'),
    'on another host': (dict(state='running', step=5, pid=1, host='elsewhere'), [START], None, 'running'),
}

@pytest.mark.parametrize('case', list(TABLE))
def test_every_view_says_the_same_state(case, tmp_path):
    status, recs, launched, want = TABLE[case]
    want, code = want if isinstance(want, tuple) else (want, None)
    rd = tmp_path/'runs'/'run'; rd.mkdir(parents=True)
    (rd/'config.yaml').write_text(load_config('digits', ['epochs=3']).to_yaml())  # (the card needs one; nothing imports it)
    if isinstance(status, bytes): (rd/'status.json').write_bytes(status)
    elif status is not None: (rd/'status.json').write_text(json.dumps(status))
    if recs: (rd/'metrics.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in recs))
    if launched is not None: (rd/'launch.json').write_text(json.dumps(dict(launched, nproc=2, command=[], started=1000.0)))
    assert_everywhere(rd, want, code)


def test_every_state_has_a_view():
    "Every state of the lifecycle is a word every view prints (and the dashboard has a colour for)."
    from ntrain.notebook.dashboard import _COLORS
    assert set(_COLORS) == set(STATES)


# ---------------------------------------------------------------- real runs
def test_a_launched_run_killed_by_launch_kill_reads_killed(tmp_path):
    rd = tmp_path/'runs'/'run'
    h = launch('digits', [*SLOW, 'epochs=50'], nproc=2, run_dir=rd, wait=False, env=ENV, echo=False)
    try:
        wait_for(lambda: any(r['kind'] == 'step' for r in h.records()) or not h.running, 180, 'a step record')
        assert isinstance(h, RunHandle) and h.running and h.cannot_kill is None and h.nproc == 2, logs(rd)
        assert run_state(rd)['state'] == 'running' and read_status(rd)['state'] == 'running'
        assert h.kill() is True
    finally:
        if h.running: h.kill()
    res = h.wait(timeout=30)
    assert (res.status, res.exit_code) == ('killed', 137), (res, logs(rd))
    st = read_status(rd)
    assert (st['state'], st['reason'], st['exit_code']) == ('killed', 'Launch.kill', 137), st
    assert_everywhere(rd, 'killed')
    from ntrain.ladder.full_run import run_verdict  # as rung 5 of a ladder: its badge reads KILLED, not FAIL
    r5 = run_verdict(h, load_config(rd/'config.yaml'), time.time() - 5)
    assert r5.verdict == 'killed' and not r5.ok and 'killed by you (kill())' in r5.diagnosis and 'Launch.kill' not in r5.diagnosis, r5.diagnosis
    db = dashboard(attach(rd)); db.wait(timeout=30)  # the dashboard's state dict: killed, said in its colour, not as a failure
    d = db.state
    assert (d['state'], d['reason'], d['error_lines']) == ('killed', 'Launch.kill', []), d
    assert 'ntrain-failure' not in db.w['stats'].value and 'by you (kill())' in db.w['title'].value and 'Launch.kill' not in db.w['title'].value
    assert "data-state='killed'" in db.w['title'].value and not db.w['resume'].disabled  # (its ckpt/ was made when it opened its files)


def test_a_fit_killed_from_outside_reads_lost(tmp_path):
    "SIGKILL to a plain `ntrain fit` (a scheduler's cgroup kill): nothing is left to say how it ended. Every view says lost."
    rd = tmp_path/'runs'/'run'
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', *SLOW, 'epochs=50', f'run_dir={rd}'], env=ENV,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: p.poll() is not None or any(r['kind'] == 'step' for r in records(rd)), 180, 'a step record')
        assert p.poll() is None and run_state(rd)['state'] == 'running', logs(rd)
        for pid in reversed(process_tree(p.pid)):
            try: os.kill(pid, signal.SIGKILL)
            except ProcessLookupError: pass
        assert p.wait(timeout=30) == -signal.SIGKILL
    finally:
        if p.poll() is None: p.kill(); p.wait(timeout=30)
    assert read_status(rd)['state'] == 'running'  # nobody wrote how it ended: the readers say so
    assert_everywhere(rd, 'lost')
    assert run_state(rd)['reason'] == 'its process ended without writing how'


def test_a_run_stopped_by_ntrain_stop_reads_stopping_then_stopped_and_its_resume_finished(tmp_path):
    rd = tmp_path/'runs'/'run'
    # each checkpoint write takes 4 s: the stop's save is long enough to be seen as `stopping`
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', *SLOW, 'epochs=1', f'run_dir={rd}'], env=dict(ENV, NTRAIN_TEST_SLOW_SAVE='4'),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: p.poll() is not None or any(r['kind'] == 'step' for r in records(rd)), 180, 'a step record')
        assert p.poll() is None, p.communicate(timeout=30)[0]
        stop = subprocess.Popen([sys.executable, '-m', 'ntrain', 'stop', rd, '--wait', '--timeout', '120'], env=ENV,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(lambda: run_state(rd)['state'] == 'stopping', 60, 'stopping', every=0.02)
        st = read_status(rd)
        assert (st['state'], st['reason']) == ('stopping', 'stop file'), st
        assert ntrain_cli('runs', rd.parent).stdout.split()[1] == 'stopping'
        out, err = stop.communicate(timeout=150)
        assert stop.returncode == 0 and out.strip().endswith(f'{rd}: stopped by you (ntrain stop)'), (out, err)
        assert p.wait(timeout=60) == 75
    finally:
        for q in (p,):
            if q.poll() is None: q.kill(); q.wait(timeout=30)
    st = read_status(rd)
    assert (st['state'], st['reason'], st['exit_code']) == ('stopped', 'stop file', 75), st
    assert_everywhere(rd, 'stopped')
    assert 'stopped at 0, resumable' in run_card(rd)
    # a stopped run is not stopped again: one line
    r = ntrain_cli('stop', rd)
    assert r.returncode == 2 and r.stderr.strip() == f'ntrain: error: {rd}: not running (state stopped); nothing to stop', r.stderr
    # resumed: the final record of before is cut, the run goes on and finishes; every view says finished
    r = ntrain_cli('resume', rd, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert_everywhere(rd, 'finished')
    v = RunView()
    for rec in records(rd): v.apply(rec)
    assert v.restarts == 1 and [r['kind'] for r in records(rd)].count('stopped') == 0


def test_a_finished_run_with_a_damaged_status_reads_finished(tmp_path, one_thread):
    rd = tmp_path/'runs'/'run'
    res = ntrain.fit('digits', ['task=tasks_for_tests:tiny', 'num_workers=0', 'epochs=2'], run_dir=rd, quiet=True)
    st = read_status(rd)
    assert (res.status, st['state'], st['reason'], st['exit_code']) == ('finished', 'finished', 'epochs', 0), st
    assert_everywhere(rd, 'finished')
    (rd/'status.json').write_bytes(b'\x00\xff{"state": ')
    assert_everywhere(rd, 'finished')
    assert '**Epochs:** 2 (finished)' in run_card(rd)


def test_a_failed_launch_shows_its_error_not_its_epoch_lines(tmp_path):
    "A run whose model raises in its second epoch: failed everywhere; the dashboard shows the error and the traceback's tail."
    rd = tmp_path/'runs'/'run'
    h = launch('digits', ['task=tasks_for_tests:boom_at', 'task_args.k=6', 'num_workers=0', 'batch_size=32', 'epochs=3', 'progress=false'],
               nproc=2, run_dir=rd, env=ENV, echo=False)
    assert (h.result.status, h.result.exit_code) == ('failed', 1), logs(rd)
    assert 'epoch 1/3' in (rd/'logs'/'rank0.log').read_text()  # healthy lines were logged before it failed
    st = read_status(rd)
    assert (st['state'], st['reason']) == ('failed', 'ValueError: boom at training forward 6'), st
    assert_everywhere(rd, 'failed')
    db = dashboard(attach(rd)); db.wait(timeout=30)
    d = db.state
    assert d['state'] == 'failed' and d['reason'] == 'ValueError: boom at training forward 6', d
    assert d['error_lines'][0] == '--- launch.log' and d['error_lines'][-1].endswith('ValueError: boom at training forward 6'), d['error_lines']
    assert not any('epoch ' in l.split(']: ')[-1][:6] for l in d['error_lines']), d['error_lines']
    fail = db.w['stats'].value.split('ntrain-failure')[1]
    assert 'the run failed' in fail and 'boom at training forward 6' in fail and 'epoch 1/3' not in fail and 'train_loss' not in fail, fail


# ---------------------------------------------------------------- the dashboard knows only the RunHandle protocol
class ThreadRun:
    "A stand-in for the in-kernel run handle: `fit` on a thread of this process, behind the RunHandle protocol and nothing more."
    nproc, cannot_kill = 1, 'a run on a thread of this kernel cannot be killed: Stop ends it at its next step'
    def __init__(self, run_dir, overrides):
        self.run_dir, self.result, self._stop = Path(run_dir), None, threading.Event()
        self._w, self._records, self._new = Watcher(self.run_dir/'metrics.jsonl'), [], []
        def work():
            try:
                r = ntrain.fit('digits', overrides, run_dir=self.run_dir, stop=self._stop, quiet=True)
                self.result = LaunchResult(str(self.run_dir), [], r.exit_code, r.status, None)
            except Exception as e: self.result = LaunchResult(str(self.run_dir), [], 1, 'failed', None, f'{type(e).__name__}: {e}')
        self._t = threading.Thread(target=work, daemon=True); self._t.start()
    @property
    def running(self)->bool: return self._t.is_alive()
    def poll(self): return None if self.running else self.result.exit_code
    def wait(self, timeout=None):
        self._t.join(timeout)
        if self._t.is_alive(): raise TimeoutError('still running')
        return self.result
    def status(self)->dict: return read_status(self.run_dir)
    def _pull(self):
        for r in self._w.poll(): apply_record(self._records, r); self._new.append(r)
    def records(self, kind=None)->list: self._pull(); return [r for r in self._records if kind is None or r.get('kind') == kind]
    def new_records(self)->list: self._pull(); out, self._new = self._new, []; return out
    def stop(self, timeout=120): self._stop.set(); return None if timeout == 0 else self.wait(timeout)
    def kill(self)->bool: raise AssertionError('the dashboard called kill() on a handle whose cannot_kill says it cannot')
    def resumed(self, nproc=None): raise AssertionError('not resumed here')
    def log(self, rank=None)->str: return (self.run_dir/'log.txt').read_text() if (self.run_dir/'log.txt').exists() else ''


def test_the_dashboard_of_a_thread_run_disables_kill_and_shows_its_error(tmp_path, one_thread):
    h = ThreadRun(tmp_path/'run', ['task=tasks_for_tests:boom_at', 'task_args.k=10', 'num_workers=0', 'batch_size=32', 'epochs=3'])
    assert isinstance(h, RunHandle)
    db = dashboard(h)
    assert db.w['kill'].disabled and db.w['kill'].tooltip == h.cannot_kill and h.cannot_kill in db.w['cannot_kill'].value
    assert db.kill() is False and db.notice == f'not killed: {h.cannot_kill}'
    db.wait(timeout=120)
    d = db.state
    assert (d['state'], d['reason']) == ('failed', 'ValueError: boom at training forward 10'), d
    assert 'epoch 1/3' in (h.run_dir/'log.txt').read_text()  # healthy lines were logged before it failed
    assert not any('epoch' in l for l in d['error_lines']), d['error_lines']  # (log.txt holds no traceback: nothing shown but the error)
    fail = db.w['stats'].value.split('ntrain-failure')[1]
    assert 'boom at training forward 10' in fail and 'epoch 1/3' not in fail, fail
    assert db.w['kill'].disabled and db.w['stop'].disabled and run_info(h.run_dir)['state'] == 'failed'
