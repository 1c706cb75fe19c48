"""The upgrade path: a run directory and a notebook made by ntrain at 2de8b08 (tests/fixtures) still report, list,
attach, display and resume with today's ntrain, and the old notebook runs again, top to bottom."""
import os, shutil, subprocess, sys
from pathlib import Path
import pytest
from conftest import ROOT, logs
import ntrain
from ntrain.rundir import read_status

TESTS = Path(__file__).resolve().parent
FIX = TESTS/'fixtures'
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]), OMP_NUM_THREADS='1', PYTHONWARNINGS='ignore')


@pytest.fixture
def old_run(tmp_path):
    rd = tmp_path/'runs'/'launched-2de8b08'; shutil.copytree(FIX/'launched-2de8b08', rd)
    return rd


def test_an_old_launched_run_reports_lists_attaches_displays_and_resumes(old_run):
    rd = old_run
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'report', rd], env=ENV, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and '**Run:** launched-2de8b08' in r.stdout and 'resumable' in r.stdout, r.stderr
    listed = ntrain.runs(rd.parent)
    assert [x['state'] for x in listed] == ['stopped'], listed
    h = ntrain.attach(rd)
    assert not h.running and h.poll() == 75 and h.result.status == 'stopped', h
    db = ntrain.dashboard(h)
    db.wait(timeout=60)
    assert db.state['state'] == 'stopped' and db.state['step'] == read_status(rd)['step'], db.state
    epoch = read_status(rd)['epoch']
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'resume', rd, '--nproc', '2', f'epochs={epoch + 2}'], env=ENV, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:] + logs(rd)
    assert read_status(rd)['state'] == 'finished' and read_status(rd)['run_id'].startswith('legacy-')
    assert [e['epoch'] for e in ntrain.loggers.read_metrics(rd, 'epoch')][-1] == epoch + 1


def test_a_notebook_made_at_2de8b08_runs_again(old_run, tmp_path):
    nbclient, nbformat = pytest.importorskip('nbclient'), pytest.importorskip('nbformat')
    nb = nbformat.read(FIX/'notebook-2de8b08.ipynb', as_version=4)
    env = dict(ENV, NTRAIN_FIXTURE_RUN=str(old_run))
    old = dict(os.environ); os.environ.update(env)  # the kernel inherits this process's environment
    try: nbclient.NotebookClient(nb, timeout=300, kernel_name='python3', resources={'metadata': {'path': str(tmp_path)}}).execute()
    finally: os.environ.clear(); os.environ.update(old)
    errors = [o for c in nb.cells for o in c.get('outputs', []) if o.get('output_type') == 'error']
    assert not errors, [(e['ename'], e['evalue']) for e in errors]
    text = '\n'.join(o.get('text', '') for c in nb.cells for o in c.get('outputs', []) if o.get('output_type') == 'stream')
    assert 'finished 0' in text and 'stopped' in text, text[-2000:]
