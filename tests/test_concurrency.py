"""One writer per run directory. Two `fit`s, `fit` against `resume`, two `launch`es of one directory: exactly
one wins, the other is refused in one line naming the holder's pid and host, and the winner's run is whole. A run
killed with SIGKILL (DataLoader workers still alive) resumes at once; `attach().stop()` never signals another process.
Every subprocess has a timeout."""
import json, os, re, signal, socket, subprocess, sys, time
from pathlib import Path
import pytest
from conftest import ROOT

TESTS = Path(__file__).resolve().parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]), OMP_NUM_THREADS='1', PYTHONWARNINGS='ignore', PYTHONUNBUFFERED='1')
import ntrain
from ntrain.engine import checkpoint as ckpt
from ntrain.loggers import read_metrics
from ntrain.rundir import read_status, process_start_time

SLOW = ['task=integrity_tasks:slow', 'num_workers=0', 'epochs=3', 'batch_size=32', 'progress=false']  # about 6 s

def start(*args):
    return subprocess.Popen([sys.executable, '-m', 'ntrain', *map(str, args)], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

def finish(p, timeout=180):
    try: out, err = p.communicate(timeout=timeout)
    finally:
        if p.poll() is None: p.kill(); p.wait()
    return p.returncode, out, err

def wait_for(cond, timeout=60, what='condition'):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, what
        time.sleep(0.05)

def assert_whole(rd, epochs=3):
    "One run's files: its config, each epoch once, verified checkpoints, finished."
    assert read_status(rd)['state'] == 'finished'
    assert [r['epoch'] for r in read_metrics(rd, 'epoch')] == list(range(epochs))
    assert [r['kind'] for r in read_metrics(rd) if r['kind'] in ('start', 'resume', 'finished', 'failed')][-1] == 'finished'
    for n in ('last.pt', 'best.pt'): assert ckpt.integrity(rd/'ckpt'/n)[0] == 'verified', n
    assert ckpt.load(rd/'ckpt'/'last.pt')['config']['epochs'] == epochs

def refused_line(err, pid=None):
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith('ntrain: error: '), err
    if pid is not None: assert f'pid {pid} on {socket.gethostname()}' in lines[0], lines[0]
    return lines[0]

def test_two_fits_on_one_directory_exactly_one_wins(tmp_path):
    for k in range(2):  # twice: the race goes either way
        rd = tmp_path/f'run{k}'
        a, b = start('fit', 'digits', *SLOW, f'run_dir={rd}'), start('fit', 'digits', *SLOW, f'run_dir={rd}')
        (ca, oa, ea), (cb, ob, eb) = finish(a), finish(b)
        assert sorted([ca, cb]) == [0, 2], (ca, ea[-1500:], cb, eb[-1500:])
        loser_err, winner = (eb, a) if ca == 0 else (ea, b)
        line = refused_line(loser_err)
        assert f'pid {winner.pid} on {socket.gethostname()}' in line or 'already holds a run' in line, line
        assert_whole(rd)

def test_resume_of_a_live_run_is_refused_naming_its_pid(tmp_path):
    rd = tmp_path/'run'
    a = start('fit', 'digits', *SLOW, f'run_dir={rd}')
    try:
        wait_for(lambda: any(r['kind'] == 'epoch' for r in read_metrics(rd)), 120, 'a first epoch')
        b = subprocess.run([sys.executable, '-m', 'ntrain', 'resume', str(rd), 'epochs=5'], env=ENV, capture_output=True, text=True, timeout=120)
        assert b.returncode == 2, b.stderr
        refused_line(b.stderr, a.pid)
    finally: code, out, err = finish(a)
    assert code == 0, err[-2000:]
    assert_whole(rd)

def test_sigkill_with_dataloader_workers_then_resume_at_once(tmp_path):
    "The lock is the killed process's own: its DataLoader workers, which outlive it for a moment, do not hold it."
    rd = tmp_path/'run'
    a = start('fit', 'digits', 'task=integrity_tasks:slow', 'num_workers=2', 'epochs=3', 'batch_size=32', 'ckpt_every=2', 'progress=false', f'run_dir={rd}')
    try: wait_for(lambda: (rd/'ckpt'/'last.pt').exists() and any(r.get('step', 0) >= 3 for r in read_metrics(rd)), 120, 'a checkpoint')
    finally: a.kill(); a.wait(timeout=30)
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'resume', str(rd)], env=ENV, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    assert 'resumed at epoch' in r.stdout
    assert_whole(rd)

def test_two_launches_on_one_directory_exactly_one_wins(tmp_path):
    rd = tmp_path/'run'
    args = ['launch', 'digits', 'task=integrity_tasks:slow', 'num_workers=0', 'epochs=3', 'batch_size=32', f'run_dir={rd}', '--nproc', '1']
    a, b = start(*args), start(*args)
    (ca, oa, ea), (cb, ob, eb) = finish(a, 300), finish(b, 300)
    assert sorted([ca, cb]) == [0, 2], (ca, ea[-1500:], cb, eb[-1500:])
    line = refused_line(eb if ca == 0 else ea)
    assert re.search(r'still running|being (launched|written) by pid \d+ on|already holds a run', line), line
    assert_whole(rd)
    # and once the run holds its lock, a third launch is refused by it
    info = json.loads((rd/'launch.json').read_text())
    assert info['pid'] and not (rd/'STOP').exists()

def test_attach_stop_never_signals_an_unrelated_process(tmp_path):
    "A launch.json whose pid is now another process's (no start time recorded; the run says it finished)."
    p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], start_new_session=True)
    try:
        wait_for(lambda: process_start_time(p.pid) is not None, 10)
        (tmp_path/'status.json').write_text(json.dumps(dict(state='finished', updated=time.time())))
        (tmp_path/'launch.json').write_text(json.dumps(dict(pid=p.pid, host=socket.gethostname(), node_rank=0, nnodes=1, command=[], log='launch.log')))
        h = ntrain.attach(tmp_path)
        assert not h.running and h.result.status == 'finished'
        h.stop(); assert h.kill() is False
        time.sleep(0.3)
        assert p.poll() is None, 'an unrelated process was signalled'
        assert not (tmp_path/'STOP').exists()
    finally: p.kill(); p.wait(timeout=10)
