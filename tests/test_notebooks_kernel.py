"""The tutorial in a real Jupyter kernel (nbclient): every cell, a 2-process launch, a kernel restart and `attach`;
nothing on stderr in any cell; saved with its widget state stripped it still holds the final PNGs and tables.
Also: the README's main command on a fresh matplotlib cache writes nothing to stderr, and ends with the run card.

Executed notebooks go to an artifacts folder outside the tree (NTRAIN_ARTIFACTS, default /tmp/ntrain-artifacts)."""
import json, os, re, subprocess, sys, tempfile, time
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get('NTRAIN_ARTIFACTS') or Path(tempfile.gettempdir())/'ntrain-artifacts')
TUTORIAL = ROOT/'nbs'/'tutorials'/'digits_workbench.ipynb'

def _outputs(cell, kind=None): return [o for o in cell.get('outputs', []) if kind is None or o.get('output_type') == kind]

def test_tutorial_runs_in_a_kernel_with_restart_and_attach(tmp_path, monkeypatch):
    nbformat = pytest.importorskip('nbformat'); nbclient = pytest.importorskip('nbclient')
    from jupyter_core.utils import run_sync
    from strip_widgets import strip, widget_state
    monkeypatch.setenv('NTRAIN_TUTORIAL_DIR', str(tmp_path/'runs'))
    monkeypatch.setenv('OMP_NUM_THREADS', '1'); monkeypatch.setenv('NTRAIN_DIST_TIMEOUT', '60')
    nb = nbformat.read(TUTORIAL, as_version=4)
    assert nb.metadata.kernelspec.name == 'python3'
    restart_at = next(i for i, c in enumerate(nb.cells) if c.cell_type == 'code' and 'ntrain.runs(root)' in c.source)
    # a reader's pause after the launch cell, before the cell that stops the run: the tutorial holds at any pace
    # (NTRAIN_TUTORIAL_PAUSE; the 30-epoch run it used to launch had ended by then, and its stop cell failed)
    pause_after = next(i for i, c in enumerate(nb.cells) if c.cell_type == 'code' and 'ntrain.launch(' in c.source)
    pause = float(os.environ.get('NTRAIN_TUTORIAL_PAUSE', 25))
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name='python3', resources={'metadata': {'path': str(tmp_path)}})
    restarted = False
    with client.setup_kernel():
        for i, cell in enumerate(nb.cells):
            if i == restart_at:  # the kernel restarts here: the run goes on in its own session
                run_sync(client.km.restart_kernel)(now=True)
                run_sync(client.kc.wait_for_ready)(timeout=120); restarted = True
            if cell.cell_type == 'code': client.execute_cell(cell, i)
            if i == pause_after: time.sleep(pause)
    assert restarted
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, ARTIFACTS/'digits_workbench.executed.ipynb')
    errs = {i: [o.get('text', '') for o in _outputs(c, 'stream') if o.get('name') == 'stderr'] for i, c in enumerate(nb.cells)}
    assert not any(errs.values()), {i: e for i, e in errs.items() if e}   # a healthy run writes nothing to stderr
    stripped = strip(json.loads(nbformat.writes(nb)))
    (ARTIFACTS/'digits_workbench.stripped.ipynb').write_text(json.dumps(stripped, indent=1))
    assert not widget_state(stripped)
    cells = stripped['cells']
    def data(pred): return [o['data'] for c in cells if c['cell_type'] == 'code' and pred(''.join(c['source']).strip()) for o in c['outputs'] if 'data' in o]
    md = lambda d: ''.join(d.get('text/markdown', ''))   # a saved notebook holds multi-line text as a list of lines
    ladder_out = data(lambda s: s.endswith('\nlad'))
    assert any('image/png' in d and '| 3 | overfit one batch | FAIL' in md(d) for d in ladder_out), ladder_out
    run_out = data(lambda s: s.endswith('\ndb'))
    assert any('image/png' in d and 'Best val' in md(d) for d in run_out), run_out   # the final curves and the card
    assert any('image/png' in d for d in data(lambda s: s.endswith('\nh')))   # the launch cell's dashboard, updated at its end

def test_readme_main_command_writes_nothing_to_stderr(tmp_path):
    cmd = re.search(r'<!-- main-command -->\s*```bash\n(.*?)\n```', (ROOT/'README.md').read_text(), re.S).group(1)
    args = cmd.split('&&')[-1].split()   # the command after the install: ntrain ladder digits --rungs 1-5 --nproc 2
    assert args[0] == 'ntrain'
    env = dict(os.environ, MPLCONFIGDIR=str(tmp_path/'mpl'), OMP_NUM_THREADS='1')  # a fresh matplotlib font cache
    env.pop('MPLBACKEND', None)
    r = subprocess.run([sys.executable, '-m', 'ntrain', *args[1:], f'run_dir={tmp_path}/run'], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=400)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert r.stderr == '', r.stderr[-3000:]
    assert 'finished after' in r.stdout
    # the table, then the path of ladder.json, then, last, the run card of rung 5's run (as the README says)
    from ntrain.card import run_card
    out, run = r.stdout.rstrip(), tmp_path/'run'
    card = run_card(run).rstrip()
    assert '**Run:**' in card and out.endswith('\n' + card), out[-3000:]
    assert out.index('full run') < out.rindex(f'\nreport: {run/"ladder.json"}\n') < len(out) - len(card), out[-3000:]
