import os, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]

# Every record the engine emits in a test, in-process or in a subprocess that copies os.environ, is checked against the
# record schema (ntrain.events.SCHEMA, `check_record`): set before ntrain is imported, which reads it once.
os.environ['NTRAIN_CHECK_RECORDS'] = '1'

# In-process runs draw curves.png here when matplotlib is loaded already, as in a notebook (ntrain.plots.plot_curves);
# otherwise each run's end would wait for a one-shot drawing process. That path is tested on its own (test_plotter.py).
import matplotlib; matplotlib.use('Agg')
import matplotlib.figure, matplotlib.backends.backend_agg

# tests/run.sh runs the suite in two processes (pytest-xdist, each file kept in one), then these files alone: their
# figures are latencies (a click to its state, a plot's lag, a stop) that a second test's load would distort, and the
# browser tests bring their own load (a process holding one core).
SERIAL = {'test_browser.py', 'test_browser_runs.py', 'test_browser_saved.py', 'test_widgets.py', 'test_events.py'}
# (test_notebooks_kernel.py asserts no latency: it runs beside the others, where its reader's pause costs nothing)

def pytest_configure(config):
    config.addinivalue_line('markers', 'serial: run alone, after the others (tests/run.sh)')

def pytest_collection_modifyitems(config, items):
    for it in items:
        if it.path.name in SERIAL: it.add_marker(pytest.mark.serial)

def run_cli(*args, cwd=None, env=None, timeout=300, check=None):
    "Run `python -m ntrain ARGS` in a subprocess, as a user would, with a timeout."
    e = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1', **(env or {}))
    r = subprocess.run([sys.executable, '-m', 'ntrain', *map(str, args)], cwd=cwd, env=e, capture_output=True,
                       text=True, timeout=timeout)
    if check is not None and r.returncode != check:
        raise AssertionError(f'exit {r.returncode}, expected {check}\nSTDOUT:\n{r.stdout[-3000:]}\nSTDERR:\n{r.stderr[-3000:]}')
    return r

def logs(rd)->str:
    "Every log of a run directory, for a failure message."
    rd, out = Path(rd), []
    for p in sorted(rd.glob('launch*.log')) + sorted(rd.glob('logs/*.log')) + [rd/'log.txt']:
        if p.exists(): out.append(f'----- {p.name}\n{p.read_text(errors="replace")[-4000:]}')
    return '\n'.join(out)

@pytest.fixture
def cli():
    return run_cli

@pytest.fixture
def one_thread():
    "In-process training on one torch thread (the 2-core machine also runs the test's own loaders); restored after."
    import torch
    n = torch.get_num_threads(); torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)
