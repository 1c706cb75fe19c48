"""The plotter process (see nbs/00_foundation/11_plots.ipynb): `ntrain fit` draws curves.png in a forked child, the training process
never imports matplotlib, a gone or failing plotter falls back to drawing in-process, and no plotter outlives its command."""
import json, os, re, shutil, signal, subprocess, sys, time
from pathlib import Path
import pytest
from conftest import run_cli, logs

REPORT = re.compile(r'ntrain-test: rank (\d+) plotter pid (\d+|None) drew (\d+) failed (\d+); matplotlib here: (\[[^\]]*\])')
FIT = ('fit', 'digits', 'epochs=1', 'num_workers=0', 'progress=false')

def report(text:str, rank:int=0)->dict:
    "The NTRAIN_TEST_PLOTTER=report line of `rank` (see nbs/01_engine/05_faults.ipynb)."
    ms = [m for m in REPORT.finditer(text) if int(m.group(1)) == rank]
    assert len(ms) == 1, f'no single report line for rank {rank} in:\n{text[-3000:]}'
    m = ms[0]
    return dict(pid=None if m.group(2) == 'None' else int(m.group(2)), drew=int(m.group(3)), failed=int(m.group(4)), mpl=eval(m.group(5)))

def assert_png(p:Path):
    "curves.png is a whole, valid PNG of the size draw_curves makes (a loss and a metrics panel)."
    from PIL import Image
    assert p.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n', p
    with Image.open(p) as im: im.verify()
    with Image.open(p) as im: assert im.size == (1000, 360), im.size

def gone(pid:int, within:float=1.0)->bool:
    "Whether process `pid` no longer exists (neither running nor a zombie) within `within` seconds."
    end = time.monotonic() + within
    while Path(f'/proc/{pid}').exists():
        if time.monotonic() > end: return False
        time.sleep(0.02)
    return True

def state(pid:int):
    "The process state letter of `pid` (R, S, Z...), or None when it is gone."
    try: return Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()[0]
    except (OSError, IndexError): return None

def children(pid:int)->list:
    out = []
    for p in Path('/proc').glob('[0-9]*'):
        try: ppid = int(p.joinpath('stat').read_text().rsplit(')', 1)[1].split()[1])
        except (OSError, IndexError, ValueError): continue
        if ppid == pid: out.append(int(p.name))
    return out

def open_fds(pid:int)->dict:
    "fd number -> what it points at, for the fds of `pid` that stay open while they are read (a running process opens and closes files between the listing and the readlink)."
    out = {}
    for f in Path(f'/proc/{pid}/fd').iterdir():
        try: out[int(f.name)] = os.readlink(f)
        except FileNotFoundError: continue
    return out

def maps(pid:int)->str:
    try: return Path(f'/proc/{pid}/maps').read_text()
    except OSError: return ''

pytestmark = pytest.mark.skipif(not sys.platform.startswith('linux'), reason='the plotter forks on Linux only')

def test_fit_draws_in_the_plotter_and_never_imports_matplotlib(tmp_path):
    rd = tmp_path/'run'
    t0 = time.monotonic()
    r = run_cli(*FIT, f'run_dir={rd}', env={'NTRAIN_TEST_PLOTTER': 'report'}, timeout=300, check=0)  # capture_output=True
    took = time.monotonic() - t0
    rep = report(r.stderr)
    assert rep['pid'] and rep['drew'] == 1 and rep['failed'] == 0, rep
    assert rep['mpl'] == [], f'the training process imported matplotlib: {rep["mpl"][:5]}'
    assert_png(rd/'curves.png')
    assert gone(rep['pid']), f'plotter {rep["pid"]} still there (state {state(rep["pid"])}) after the command returned'
    assert 'cannot write' not in r.stderr, r.stderr
    # without the plotter, a one-shot child draws it: the training process still never imports matplotlib
    rd0 = tmp_path/'off'
    r0 = run_cli(*FIT, f'run_dir={rd0}', env={'NTRAIN_TEST_PLOTTER': 'report', 'NTRAIN_PLOTTER': '0'}, timeout=300, check=0)
    rep0 = report(r0.stderr)
    assert rep0['pid'] is None and rep0['drew'] == 0 and rep0['mpl'] == [], rep0
    assert_png(rd0/'curves.png')
    # the negative control: a process that has matplotlib loaded draws in itself, and the report line sees it
    rd1 = tmp_path/'loaded'
    r1 = subprocess.run([sys.executable, '-c', 'import matplotlib.figure, sys; from ntrain.cli import main; main(sys.argv[1:])', *FIT, f'run_dir={rd1}'],
                        env=dict(os.environ, OMP_NUM_THREADS='1', NTRAIN_TEST_PLOTTER='report', NTRAIN_PLOTTER='0'), capture_output=True, text=True, timeout=300)
    assert r1.returncode == 0, r1.stderr[-2000:]
    rep1 = report(r1.stderr)
    assert 'matplotlib.figure' in rep1['mpl'], rep1
    assert_png(rd1/'curves.png')
    print(f'with the plotter {took:.2f} s')

@pytest.mark.parametrize('how', ['kill', 'stall', 'fail'])
def test_a_gone_or_failing_plotter_never_fails_the_run_nor_imports_matplotlib_here(tmp_path, how):
    "Gone (killed) or late (stopped): a one-shot child draws curves.png. Failing: its draw would fail there too, so one warning."
    rd = tmp_path/'run'
    r = run_cli(*FIT, f'run_dir={rd}', env={'NTRAIN_TEST_PLOTTER': f'{how},report'}, timeout=300, check=0)
    rep = report(r.stderr)
    assert rep['pid'] and rep['drew'] == 0, rep
    assert rep['mpl'] == [], rep  # never in the training process
    warn = [l for l in r.stdout.splitlines() if l.startswith('warning:')]
    if how == 'fail':
        assert rep['failed'] == 1, rep  # the plotter answered an error: said once, the run finished
        assert len(warn) == 1 and 'curves.png' in warn[0] and 'the run goes on' in warn[0], r.stdout[-2000:]
    else:
        assert_png(rd/'curves.png'); assert not warn, warn
    assert 'Traceback' not in r.stderr + r.stdout, r.stderr
    assert not list(rd.glob('**/.*tmp*')) and not (rd/'no-such-directory').exists()
    assert gone(rep['pid']), f'plotter {rep["pid"]} still there (state {state(rep["pid"])})'


def _fake_matplotlib(tmp_path, body):
    d = tmp_path/'fake'; (d/'matplotlib').mkdir(parents=True, exist_ok=True)
    (d/'matplotlib'/'__init__.py').write_text(body)
    return str(d)

@pytest.mark.parametrize('how', ['broken', 'slow'])
def test_a_broken_or_slow_matplotlib_never_fails_or_holds_up_a_finished_run(tmp_path, how):
    "The run finishes (exit 0, status finished, run.md written) with one warning; from its final record to exit in 5 s plus a margin."
    rd = tmp_path/'run'
    body = "raise ImportError('this matplotlib is broken')\n" if how == 'broken' else "import time; time.sleep(120)\n"
    for plotter in ('1', '0'):
        rd = tmp_path/f'run{plotter}'
        env = {'PYTHONPATH': os.pathsep.join([_fake_matplotlib(tmp_path, body), os.environ.get('PYTHONPATH', '')]), 'NTRAIN_PLOTTER': plotter}
        t0 = time.time()
        r = run_cli(*FIT, f'run_dir={rd}', env=env, timeout=300)
        end = time.time()
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        assert 'Traceback' not in r.stderr + r.stdout, r.stderr[-3000:]
        warn = [l for l in r.stdout.splitlines() if l.startswith('warning:')]
        assert len(warn) == 1 and 'curves.png' in warn[0], r.stdout[-2000:]
        assert (rd/'run.md').exists() and not (rd/'curves.png').exists()
        import json
        final = [json.loads(l) for l in (rd/'metrics.jsonl').read_text().splitlines() if '"finished"' in l][-1]
        assert json.loads((rd/'status.json').read_text())['state'] == 'finished'
        assert end - final['time'] < 5 + 2.5, (plotter, end - final['time'])  # 5 s and the process's own exit

def test_a_picture_given_up_on_is_late_never_lost(tmp_path):
    """Issue 34: the plotter stopped (`stall`) and a one-shot child's matplotlib too slow, so the run gives curves.png up;
    its card says pending, not missing; the next reader (`ntrain report`) draws it, and the card no longer says so."""
    rd = tmp_path/'run'
    slow = _fake_matplotlib(tmp_path, "import time; time.sleep(120)\n")
    r = run_cli(*FIT, f'run_dir={rd}', env={'NTRAIN_TEST_PLOTTER': 'stall', 'PYTHONPATH': os.pathsep.join([slow, os.environ.get('PYTHONPATH', '')])}, timeout=300)
    assert r.returncode == 0 and not (rd/'curves.png').exists() and (rd/'curves.png.pending').exists(), r.stdout[-2000:] + r.stderr[-2000:]
    card = (rd/'run.md').read_text()
    assert '**Curves:** curves.png pending' in card and f'ntrain report {rd}' in card, card
    rd2 = tmp_path/'copy'; shutil.copytree(rd, rd2)  # another reader: a handle made by `attach` draws it too
    (rd2/'launch.json').write_text(json.dumps(dict(pid=2**22 + 7, command=[])))
    from ntrain.launch import attach
    attach(rd2); assert_png(rd2/'curves.png'); assert not (rd2/'curves.png.pending').exists()
    rep = run_cli('report', rd, timeout=120, check=0)
    assert_png(rd/'curves.png')
    assert not (rd/'curves.png.pending').exists() and 'pending' not in rep.stdout and 'pending' not in (rd/'run.md').read_text(), rep.stdout

def test_the_plotter_is_detached_ignores_ctrl_c_and_dies_with_its_parent(tmp_path):
    "While a run goes on: the child holds /dev/null and its two pipes only (no caller's pipe, no run-directory lock), ignores SIGINT, has matplotlib loaded; SIGKILL of the parent takes it along."
    rd = tmp_path/'run'
    e = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1')
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', 'epochs=20', 'num_workers=0', 'progress=false', f'run_dir={rd}'],
                         env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        while not ((plotters := [k for k in children(p.pid) if 'backend_agg' in maps(k)]) and (rd/'metrics.jsonl').exists()):
            assert p.poll() is None and time.monotonic() < end, 'no child of the run imported matplotlib'  # (others: the env probe's git, pip)
            time.sleep(0.05)
        assert len(plotters) == 1, plotters
        c = plotters[0]
        assert 'backend_agg' not in maps(p.pid)  # (the training process has not loaded matplotlib)
        fds = open_fds(c)
        assert [fds[i] for i in (0, 1, 2)] == ['/dev/null'] * 3, fds
        rest = [v for k, v in fds.items() if k > 2 and not v.endswith('.so')]  # (a shared library the loader holds open for an instant, mid-import)
        assert len(rest) == 2 and all(v.startswith('pipe:') for v in rest), fds
        parent_fds = set(open_fds(p.pid).values())
        assert any(str(rd) in v for v in parent_fds), parent_fds  # the parent holds run-directory files open; the child none
        sigign = int(next(l for l in Path(f'/proc/{c}/status').read_text().splitlines() if l.startswith('SigIgn:')).split()[1], 16)
        assert sigign & (1 << (signal.SIGINT - 1)), hex(sigign)
        os.kill(c, signal.SIGINT); time.sleep(0.3)
        assert state(c) not in (None, 'Z') and p.poll() is None, 'SIGINT ended the plotter'
        p.kill(); p.wait(timeout=30)
        end = time.monotonic() + 5
        while state(c) not in (None, 'Z'):  # a zombie of init's is dead: it has no parent of ours to wait on it
            assert time.monotonic() < end, f'the plotter outlived its SIGKILLed parent (state {state(c)})'
            time.sleep(0.02)
    finally:
        if p.poll() is None: p.kill(); p.wait(timeout=30)
        p.stderr.close()

def test_resume_draws_in_the_plotter(tmp_path):
    rd = tmp_path/'run'
    k = run_cli('fit', 'digits', 'epochs=2', 'num_workers=0', 'progress=false', f'run_dir={rd}', env={'NTRAIN_FAULT': 'step:5'}, timeout=300)
    assert k.returncode == -signal.SIGKILL, k.stderr[-2000:]  # killed mid-run (its plotter went with it)
    r = run_cli('resume', rd, env={'NTRAIN_TEST_PLOTTER': 'report'}, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    rep = report(r.stderr)
    assert rep['pid'] and rep['mpl'] == [] and rep['failed'] == 0, rep
    if rep['drew'] != 1:  # a loaded machine: the plotter missed the final draw's 5 s; a one-shot child drew it, or it is late, never lost
        pending = rd/'curves.png.pending'
        assert (rd/'curves.png').exists() or re.search(r'in time|had not imported|stuck', pending.read_text()), rep
        if pending.exists(): run_cli('report', rd, timeout=300, check=0)  # the next reader draws it
        assert not pending.exists()
    assert_png(rd/'curves.png')
    assert gone(rep['pid'])

def test_under_torchrun_rank0_draws_in_its_plotter(tmp_path):
    rd = tmp_path/'run'
    r = run_cli('launch', *FIT[1:], '--nproc', '2', f'run_dir={rd}', env={'NTRAIN_TEST_PLOTTER': 'report'}, timeout=400)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:] + logs(rd)
    text = (rd/'launch.log').read_text(errors='replace')  # the ranks' stderr (also echoed on the command's stdout)
    r0, r1 = report(text, 0), report(text, 1)
    assert r0['pid'] and r0['drew'] == 1 and r0['mpl'] == [], r0
    assert r1['pid'] is None and r1['drew'] == 0, r1  # ranks other than 0 start none
    assert_png(rd/'curves.png')
    assert gone(r0['pid'])
