"""The RunHandle protocol (nbs/03_launch/01_handle): one conformance test over both kinds of run, a run on a thread of this
process (`ThreadRun`) and a run under torchrun (`ntrain.launch(..., wait=False)`, a `Launch`), on the same small task."""
import os, time
from pathlib import Path
import pytest
from conftest import logs, ROOT
import tasks_for_tests
from ntrain.config import Config, apply_overrides
from ntrain.handle import RunHandle, ThreadRun
from ntrain.launch import Launch, launch

pytestmark = [pytest.mark.timeout(400), pytest.mark.usefixtures('one_thread')]

TIMEOUT = 240
KEYS = {'epochs': 60, 'batch_size': 16, 'num_workers': 0, 'log_every': 1}
ENV = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT/'tests')]), PYTHONUNBUFFERED='1', NTRAIN_DIST_TIMEOUT='60')

def start(kind:str, rd:Path):
    cfg = apply_overrides(Config(), KEYS)
    if kind == 'thread': return ThreadRun(cfg, task=tasks_for_tests.tiny(), run_dir=rd)
    return launch(cfg, task='tasks_for_tests:tiny', nproc=1, run_dir=rd, wait=False, env=ENV)

def until(cond, what:str, timeout:float=TIMEOUT):
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout: raise AssertionError(f'{what}: not after {timeout} s')
        time.sleep(0.05)

@pytest.mark.parametrize('kind', ['thread', 'launch'])
def test_every_member_of_the_protocol(tmp_path, kind):
    rd = tmp_path/'run'
    h = start(kind, rd)
    assert isinstance(h, RunHandle) and isinstance(h, Launch if kind == 'launch' else ThreadRun)
    try:
        assert Path(h.run_dir) == rd and h.running and h.poll() is None and h.result is None
        # records grow while it runs; new_records gives each once
        until(lambda: h.records('step'), 'a step record')
        n1, new = len(h.records()), h.new_records()
        assert new and h.records()[0]['kind'] == 'start' and new[-1] in h.records()
        until(lambda: len(h.records()) > n1, 'more records')
        assert h.status().get('state') in ('starting', 'running') and isinstance(h.log(), str)
        assert h.nproc == 1
        assert (h.cannot_kill is None) if kind == 'launch' else h.cannot_kill.startswith('a run in this kernel can only be stopped')
        # stop: it finishes its step, saves and ends stopped; the records hold the final record
        res = h.stop(timeout=TIMEOUT)
    finally:
        if h.running: h.stop(timeout=0); h.wait(TIMEOUT)
    assert (res.status, res.exit_code) == ('stopped', 75), logs(rd)
    assert not h.running and h.poll() == 75 and h.result is res and h.wait(timeout=1) is res
    assert h.records()[-1]['kind'] == 'stopped' and (rd/'ckpt'/'last.pt').exists(), logs(rd)
    assert h.kill() is False  # nothing left to kill (and a thread is never killed)
    assert h.status()['state'] == 'stopped'
    # resumed: a new handle on the same run, which continues it from its newest checkpoint to the end
    h2 = h.resumed()
    try: res2 = h2.wait(timeout=TIMEOUT)
    finally:
        if h2.running: h2.stop(timeout=TIMEOUT)
    assert type(h2) is type(h) and h2.nproc == 1 and Path(h2.run_dir) == rd
    assert (res2.status, res2.exit_code, h2.result) == ('finished', 0, res2), logs(rd)
    kinds = [r['kind'] for r in h2.records()]
    assert 'resume' in kinds and kinds[-1] == 'finished' and len(h2.records('epoch')) == KEYS['epochs'], kinds

def test_a_thread_run_is_stopped_not_killed(tmp_path):
    h = start('thread', tmp_path/'run')
    try:
        until(lambda: h.records('step'), 'a step record')
        assert h.kill() is False  # a graceful stop instead: the run saves and ends stopped
        res = h.wait(TIMEOUT)
    finally:
        if h.running: h.stop(TIMEOUT)
    assert (res.status, res.exit_code) == ('stopped', 75) and h.run_result.status == 'stopped'

def test_a_handle_shown_in_a_cell_loads_its_view_which_the_handle_never_imports(tmp_path):
    """A `Launch` shown in a cell (`_ipython_display_`) is its dashboard: the handle asks `display` for the view of 'run'; the
    package's front loads `run_panel` on that first display, which registers it. Outside a kernel the view prints the repr,
    as it always did. In a fresh interpreter that imported only the launcher."""
    import subprocess, sys
    code = (f"import sys\nfrom ntrain.launch import Launch\nh = Launch({str(tmp_path)!r}, [], pid=1)\n"
            "print('before', 'ntrain.notebook.dashboard' in sys.modules)\nh._ipython_display_()\n"
            "from ntrain import display\nfrom ntrain.notebook import dashboard as run_panel\nprint('after', 'ntrain.notebook.dashboard' in sys.modules, display._VIEWS['run'] is run_panel._display_launch)")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120, env=dict(os.environ, **ENV))
    assert r.stdout.splitlines() == ['before False', f'Launch(pid 1, failed, {tmp_path})', 'after True True'], r.stdout + r.stderr
