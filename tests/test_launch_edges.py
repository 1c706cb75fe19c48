"""The edges of `ntrain launch`. A rendezvous endpoint held by a service that accepts connections and
never answers is refused in one line, within seconds, naming the endpoint and the process that holds it; a refused launch
leaves the run directory it was pointed at byte-identical (or absent, when it did not exist); a rank that crashes on every
start ends the run `failed` with a message once torchrun gives up, never `running`.

Every subprocess has a timeout; a failing torchrun test prints the run's logs.
"""
import hashlib, json, os, signal, socket, subprocess, sys, threading, time
from pathlib import Path
import pytest
from conftest import ROOT, logs
from ntrain.launch import attach
from ntrain.rundir import process_start_time, read_status

TESTS = Path(__file__).resolve().parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]), OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1')
TINY = ['task=tasks_for_tests:tiny', 'num_workers=0', 'epochs=1', 'progress=false']


def ntrain(*args, timeout=120, **env):
    "`python -m ntrain ARGS` in a subprocess: (exit code, stdout, stderr, seconds)."
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, '-m', 'ntrain', *map(str, args)], env=dict(ENV, **env), capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr, time.monotonic() - t0


def refused(code, err, *texts):
    "A refusal: exit 2 and one line on stderr, `ntrain: error: ...`, holding each of `texts`; the line."
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith('ntrain: error: '), (code, err[-3000:])
    for t in texts: assert t in lines[0], (t, lines[0])
    return lines[0]


def snapshot(d: Path) -> dict:
    "Every file's bytes (as a hash) and every directory under `d`: what a refused launch must leave as it was."
    d = Path(d)
    return {str(p.relative_to(d)): 'dir' if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(d.rglob('*')) if not p.is_symlink()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


def wait_for(cond, timeout=60, what='condition'):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, f'{what}: not after {timeout} s'
        time.sleep(0.05)


@pytest.fixture
def silent_port():
    "A port on 127.0.0.1 held by this test's process: connections are accepted and never answered."
    srv, conns, done = socket.create_server(('127.0.0.1', 0)), [], threading.Event()
    srv.settimeout(0.1)
    def serve():
        while not done.is_set():
            try: conns.append(srv.accept()[0])
            except OSError: pass
    t = threading.Thread(target=serve, daemon=True); t.start()
    yield srv.getsockname()[1]
    done.set(); t.join(2)
    for c in [*conns, srv]: c.close()


@pytest.fixture
def finished_run(tmp_path_factory):
    "A run directory holding a finished run (the tiny task, one epoch), and an old stop request in it."
    rd = tmp_path_factory.mktemp('held')/'run'
    code, out, err, _ = ntrain('fit', 'digits', *TINY, f'run_dir={rd}')
    assert code == 0, err[-3000:]
    (rd/'STOP').write_text('stop requested long ago\n')
    return rd


# --- 1. a rendezvous endpoint held by something that is not a rendezvous store -------------------------------------------------
def test_an_endpoint_that_accepts_and_never_answers_is_refused_in_one_line(tmp_path, silent_port):
    "It used to hang with no output: torch's store client waits on a silent peer with no timeout."
    rd = tmp_path/'run'
    try: code, out, err, took = ntrain('launch', 'digits', *TINY, '--nproc', 1, '--nnodes', 2, '--node-rank', 0,
                                       '--rdzv-endpoint', f'127.0.0.1:{silent_port}', f'run_dir={rd}', timeout=45)
    except subprocess.TimeoutExpired: pytest.fail('ntrain launch still waits on an endpoint that never answers, after 45 s')
    refused(code, err, f'--rdzv-endpoint 127.0.0.1:{silent_port} is held by pid {os.getpid()} (', 'not a torch rendezvous store')
    assert took < 20, f'refused after {took:.1f} s: the probe is bounded by 10 s (plus starting Python and the pre-flight)'
    assert not rd.exists()  # nothing was made for a launch that was refused


# --- 2. a refused launch leaves the directory as it was ------------------------------------------------------------------------
def test_refused_launches_leave_a_directory_holding_a_run_byte_identical(finished_run, silent_port):
    rd, before = finished_run, snapshot(finished_run)
    cases = [
        (['launch', 'digits', *TINY, '--nproc', 1, f'run_dir={rd}'], 'already holds a run'),
        (['launch', 'digits', *TINY, '--nproc', 0, f'run_dir={rd}'], '--nproc must be an integer >= 1'),
        (['resume', rd, '--nproc', 64], 'more processes than the'),
        (['resume', rd, '--nproc', 1, 'batch_size=4096'], 'is larger than the train set'),
        (['resume', rd, '--nproc', 1, '--nnodes', 2, '--node-rank', 0, '--rdzv-endpoint', f'127.0.0.1:{silent_port}'],
         f'is held by pid {os.getpid()}'),
    ]
    for args, why in cases:
        try: code, out, err, _ = ntrain(*args, timeout=45)
        except subprocess.TimeoutExpired: pytest.fail(f'{args}: no answer after 45 s')
        refused(code, err, why)
        assert snapshot(rd) == before, f'{args} changed {rd}'


def test_a_run_directory_whose_torchrun_runs_is_refused_whatever_its_launch_record(tmp_path):
    """Node 0 of a two-node run waits for node 1 at the rendezvous (its record is launch-node0.json, its rank 0 has not
    taken the run's lock yet): a one-node launch of the same directory is refused, and changes nothing there. Node 1 of
    that run is not refused: it finds its run's rendezvous on the endpoint, and the two nodes finish the run."""
    rd, port = tmp_path/'run', free_port()
    node = lambda k: subprocess.Popen([sys.executable, '-m', 'ntrain', 'launch', 'digits', *TINY, '--nproc', '1', '--nnodes', '2', '--node-rank', str(k),
                                       '--rdzv-endpoint', f'127.0.0.1:{port}', f'run_dir={rd}'], env=dict(ENV, NTRAIN_DIST_TIMEOUT='60'),
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    nodes, agent = [node(0)], None
    try:
        wait_for(lambda: (rd/'launch-node0.json').exists(), 60, 'launch-node0.json')
        agent = json.loads((rd/'launch-node0.json').read_text())['pid']
        os.kill(agent, signal.SIGSTOP)  # the waiting torchrun writes nothing while the second launch looks at its directory
        time.sleep(0.3)
        before = snapshot(rd)
        code, out, err, _ = ntrain('launch', 'digits', *TINY, '--nproc', 1, f'run_dir={rd}', timeout=120)
        refused(code, err, f'its torchrun (pid {agent}, node 0 of 2) is still running')
        assert snapshot(rd) == before
        os.kill(agent, signal.SIGCONT)
        nodes.append(node(1))
        outs = [p.communicate(timeout=180)[0] for p in nodes]
        assert [p.returncode for p in nodes] == [0, 0], '\n'.join(outs) + logs(rd)
        assert read_status(rd)['state'] == 'finished'
    finally:
        if agent is not None and nodes[0].poll() is None:  # (a failure: node 0's torchrun may still wait)
            for s in (signal.SIGCONT, signal.SIGKILL):
                try: os.killpg(agent, s)  # torchrun's agent leads a session of its own
                except ProcessLookupError: pass
        for p in nodes:
            if p.poll() is None: p.kill()
            p.wait(timeout=30)


def test_refused_while_running_or_locked_leaves_the_directory_as_it_was(finished_run, tmp_path):
    "A resume refused because the run's torchrun still runs (its launch.json), or because another process writes the run."
    rd, before = finished_run, snapshot(finished_run)
    sleeper = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'], start_new_session=True)
    try:  # a torchrun of this directory that still runs, as its launch.json says (pid and start time)
        wait_for(lambda: process_start_time(sleeper.pid) is not None, 10, 'sleeper')
        info = dict(pid=sleeper.pid, pid_start=process_start_time(sleeper.pid), host=socket.gethostname(), node_rank=0, nnodes=1,
                    log='launch.log', command=['torchrun'], started=time.time())
        (rd/'launch.json').write_text(json.dumps(info))
        before = snapshot(rd)
        code, out, err, _ = ntrain('resume', rd, '--nproc', 1)
        refused(code, err, f'its torchrun (pid {sleeper.pid}) is still running')
        assert snapshot(rd) == before
    finally: sleeper.kill(); sleeper.wait(timeout=10)
    # a run being written by a plain `ntrain fit` (its lock held), frozen while the launch is refused
    rd2 = tmp_path/'written'
    fit = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', 'task=integrity_tasks:slow', 'num_workers=0', 'epochs=3',
                            'batch_size=32', 'progress=false', f'run_dir={rd2}'], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: read_status(rd2).get('state') == 'running' and (rd2/'config.yaml').exists(), 60, 'the fit running')
        os.kill(fit.pid, signal.SIGSTOP); time.sleep(0.3)
        before = snapshot(rd2)
        code, out, err, _ = ntrain('resume', rd2, '--nproc', 1)
        refused(code, err, f'is being written by pid {fit.pid} on {socket.gethostname()}')
        assert snapshot(rd2) == before
    finally:
        fit.kill(); fit.wait(timeout=30)


# --- 3. a crash loop ends failed ------------------------------------------------------------------------------------------
def test_a_crash_looping_rank_ends_the_run_failed_not_running(tmp_path):
    """Rank 0 dies at its first sample on every start (a segfault, an OOM kill, os._exit): it never writes how the run ended.
    Once torchrun has used its restart and gives up, the launcher writes `failed` and says what happened."""
    rd = tmp_path/'run'
    code, out, err, took = ntrain('launch', 'digits', *TINY, 'task=integrity_tasks:crash_on_rank', 'task_args.rank=0', 'task_args.how=exit',
                                  '--nproc', 2, '--max-restarts', 1, f'run_dir={rd}', timeout=180, NTRAIN_DIST_TIMEOUT='60')
    assert code == 1, err[-3000:] + logs(rd)
    st = read_status(rd)
    assert st['state'] == 'failed', (st, logs(rd))
    assert st['exit_code'] == 1 and st['finished']
    msg = st['message']
    assert msg.startswith('torchrun ended with exit 1 after 1 restart while status.json said running; rank 0 exited with 1'), msg
    assert '\n' not in msg
    res = attach(rd).wait(timeout=10)  # a handle attached afterwards finds the same end, and writes nothing more
    assert (res.status, res.exit_code, res.message) == ('failed', 1, msg)
    assert read_status(rd) == st
