"""How fresh a dashboard is, and what a saved notebook shows, in a real browser on a busy machine.

JupyterLab 4 and Chromium (tests/jlab.py), a process holding one core busy, "save widget state" on. A notebook launches
two runs on torchrun and shows their dashboards: a short one runs to its end (its card shows), a long one runs on.
While the kernel is alive, the long run's dashboard says "updated 0-2 s ago" (counted by the browser). The notebook is
saved mid-run, then the kernel is restarted: the long run's old output says that the kernel is not answering within
10 s of its last update, and strikes its RUNNING badge through; the ended dashboard never warns. The long run is
stopped from a shell, and the saved notebook is reopened after its end, twice: without its widget state (what
JupyterLab saves with the setting off), in a tab beside the live notebook, whose dashboards (the same display ids)
are still rendered: the copy's sibling outputs show, the short run's final picture and card, the long run's line "as
of HH:MM: running step N/M", and no "model not found"; then, the live notebook closed, as saved (with widget state:
the dashboards render from it, and nothing shows twice). The former also in Notebook 7. Before that, in the restarted kernel:
two dashboards of one run (a launched run, and `ntrain.dashboard(run_dir)` in the next cell), stopped by the first's
Stop, then resumed by `ntrain resume` from a terminal: both read RUNNING past the stop within 2 s of status.json saying
so (the time from the file's change to the page showing it), and both end FINISHED with the new card. After the restart
no picture is broken, and at each of these moments the page shows no internal name (`jlab.check_words`). Figures go to
the artifacts folder (browser_saved.json)."""
import json, os, re, subprocess, sys, time, urllib.request
from pathlib import Path
import nbformat, nbformat.sign
import pytest
from jlab import ARTIFACTS, ROOT, TOKEN, check_words, cpu_hog, internal_words, lab, open_notebook, run_cells, shoot

pytestmark = pytest.mark.timeout(600)

CELLS = [
    "import ntrain\nh1 = ntrain.launch('digits', ['epochs=2'], nproc=1, wait=False, run_dir='runs/short')\nh1",
    "h2 = ntrain.launch('digits', ['epochs=400'], nproc=1, wait=False, run_dir='runs/long')\nh2",
    # 2, 3 (run in the restarted kernel): a run and a second dashboard of its run directory
    "import ntrain\nh3 = ntrain.launch('digits', ['epochs=12'], nproc=1, wait=False, run_dir='runs/both')\nh3",
    "ntrain.dashboard('runs/both')",
]
AS_OF = r'as of \d\d:\d\d: {} step (\d+)/(\d+)'


def notebook(path:Path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata['kernelspec'] = dict(name='python3', display_name='Python 3', language='python')
    nbformat.write(nb, path)


def front(page):
    "The notebook in front (JupyterLab keeps other tabs in the page)."
    return page.locator(f'[id="{page.evaluate("() => window.jupyterapp.shell.currentWidget.id")}"]')


def cell(page, i:int): return front(page).locator('.jp-Notebook .jp-Cell').nth(i)


def js_cell(i:int)->str: return f"window.jupyterapp.shell.currentWidget.node.querySelectorAll('.jp-Notebook .jp-Cell')[{i}]"


def seconds(page, i:int)->int:
    "The seconds that cell `i`'s dashboard says since its last update (the browser's counter)."
    return int(page.evaluate(f"() => getComputedStyle({js_cell(i)}.querySelector('.ntrain-secs')).getPropertyValue('--ntrain-s')"))


def warns(page, i:int)->bool:
    "Whether cell `i`'s dashboard shows its 'no word from the kernel' warning."
    return page.evaluate(f"() => {{ const g = {js_cell(i)}.querySelector('.ntrain-gone'); return !!g && g.getBoundingClientRect().width > 0; }}")


def saved_line(nb:dict, i:int)->str:
    "The text/plain of cell `i`'s sibling output in a saved notebook."
    texts = [''.join(o.get('data', {}).get('text/plain', '')) for o in nb['cells'][i].get('outputs', [])]
    return next((t for t in texts if t.startswith('as of')), '')


def close_front(page):
    "Close the notebook in front, unsaved (its kernel goes on)."
    page.evaluate("() => { const w = window.jupyterapp.shell.currentWidget; w.context.model.dirty = false; w.close(); }")


def reopen(lb, page, name:str, beside:bool=False):
    """Open `name` (JupyterLab may restore other tabs first), or with `beside` in a new tab of the page as it is (the
    other tabs' widget views stay rendered), and wait until it is in front, its kernel idle."""
    if beside: page.evaluate(f"async () => {{ await window.jupyterapp.commands.execute('docmanager:open', {{path: '{name}'}}); }}")
    else: open_notebook(lb, page, name)
    page.wait_for_function(f"() => window.jupyterapp.shell.currentWidget?.context?.path === '{name}' && "
                           "window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status === 'idle'", polling=250)


def both_show(stopped_at:int)->str:
    "JS: whether the dashboards of cells 2 and 3 both read RUNNING at a step beyond `stopped_at`."
    return (f"() => [2, 3].every(i => {{ const e = {js_cell('i')}.querySelector('.ntrain-run-state'); "
            f"return !!e && e.dataset.state === 'running' && +e.dataset.step > {stopped_at}; }})")


def broken_images(page)->list:
    "The images of the notebook in front that the browser could not draw (loaded, naturalWidth 0): their source's start."
    return page.evaluate("() => [...window.jupyterapp.shell.currentWidget.node.querySelectorAll('img')].filter(i => i.complete && "
                         "i.naturalWidth === 0).map(i => (i.getAttribute('src') || '(no src)').slice(0, 40))")


def visible(loc)->int: return sum(1 for k in range(loc.count()) if loc.nth(k).is_visible())


def test_freshness_and_the_saved_notebook(tmp_path):
    nb = tmp_path/'dash.ipynb'; notebook(nb)
    figures = {}
    env = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT/'tests')]))
    with cpu_hog(), lab(tmp_path, [nb], env=env) as lb:
        plugin = tmp_path/'settings'/'@jupyter-widgets'/'jupyterlab-manager'; plugin.mkdir(parents=True)
        (plugin/'plugin.jupyterlab-settings').write_text(json.dumps(dict(saveState=True)))
        page = lb.page()
        try:
            open_notebook(lb, page, nb.name)
            run_cells(page, 2)
            c0, c1 = cell(page, 0), cell(page, 1)
            # the short run ends: its card shows in the widget, the sibling stays hidden, the ended view never warns
            c0.locator('.ntrain-run-state[data-state="finished"]').wait_for(timeout=240_000)
            c0.locator('.ntrain-dashboard :text("Best val")').wait_for(timeout=60_000)
            assert c0.locator('.ntrain-fresh[data-live="0"]').count() == 1 and c0.locator('.ntrain-gone').count() == 0
            assert visible(c0.locator('.ntrain-saved')) == 0 and c0.locator('.ntrain-saved').count() == 1
            check_words(page, 'a run finished, another running', figures)
            # the long run: while the kernel is alive its dashboard says "updated 0-2 s ago" (the heartbeat: 1.5 s)
            page.wait_for_function(f"() => +{js_cell(1)}.querySelector('.ntrain-run-state').dataset.step > 0", timeout=240_000, polling=250)
            ago = []
            for _ in range(12): ago.append(seconds(page, 1)); assert not warns(page, 1); time.sleep(0.4)
            figures['updated N s ago while the kernel is alive (N, every 0.4 s)'] = ago
            # saved mid-run: the sibling says where the run was, and when
            page.wait_for_function(f"""() => /running step [1-9]/.test(window.jupyterapp.shell.currentWidget.content.widgets[1].model.outputs.toJSON()
                .map(o => [].concat((o.data || {{}})['text/plain'] || '').join('')).join(' '))""", timeout=60_000, polling=500)
            page.evaluate("async () => { await window.jupyterapp.commands.execute('docmanager:save'); }")
            saved = json.loads((lb.work/nb.name).read_text())
            figures['saved mid-run: the long run says'] = said = saved_line(saved, 1)
            # the kernel restarts: the old output says so within 10 s of its last update, the ended one never warns
            kid = page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id")
            t0 = time.monotonic()
            urllib.request.urlopen(urllib.request.Request(f'{lb.url}/api/kernels/{kid}/restart', data=b'', method='POST',
                                                          headers={'Authorization': f'token {TOKEN}'}), timeout=60)
            figures['restart request (s)'] = round(time.monotonic() - t0, 2)
            page.wait_for_function(f"() => {{ const g = {js_cell(1)}.querySelector('.ntrain-gone'); return g && g.getBoundingClientRect().width > 0; }}",
                                   timeout=30_000, polling=100)
            figures['restart to "no word from the kernel" (s)'] = gone_s = round(time.monotonic() - t0, 2)
            figures['its counter then (s)'] = seconds(page, 1)
            figures['broken images after the restart'] = broken = broken_images(page)
            check_words(page, 'after a kernel restart', figures)
            time.sleep(max(1.5, 11 - gone_s))  # (a part re-created after the line's last render is struck through up to 1 s later)
            struck = page.evaluate(f"() => getComputedStyle({js_cell(1)}.querySelector('.ntrain-state-badge')).textDecorationLine")
            figures['Stop, Kill once the kernel is gone (pointer-events)'] = dead = page.evaluate(
                f"() => ['.ntrain-stop', '.ntrain-kill'].map(s => getComputedStyle({js_cell(1)}.querySelector('.ntrain-dashboard ' + s)).pointerEvents)")
            c1.locator('.ntrain-dashboard').screenshot(path=str(ARTIFACTS/'dashboard_kernel_gone.png'))
            ended_warns = warns(page, 0)
            # the long run, which does not need the kernel, is stopped from a shell and ends (the tab stays open)
            rd = lb.work/'runs'/'long'
            subprocess.run([sys.executable, '-m', 'ntrain', 'stop', str(rd)], capture_output=True, timeout=120, env=dict(os.environ, **env))
            t1 = time.monotonic()
            while json.loads((rd/'status.json').read_text()).get('state') not in ('stopped', 'finished'):
                assert time.monotonic() - t1 < 120, (rd/'status.json').read_text(); time.sleep(0.5)
            # two dashboards of one run, in the restarted kernel: a launched run (cell 2) and a second view of its run
            # directory (cell 3); Stop in the first; then `ntrain resume` from a terminal: both follow it from the files
            t_both = time.monotonic(); run_cells(page, 2, start=2)
            c2, c3 = cell(page, 2), cell(page, 3)
            page.wait_for_function(f"() => +{js_cell(2)}.querySelector('.ntrain-run-state')?.dataset.step > 0", timeout=240_000, polling=250)
            c3.locator('.ntrain-run-state[data-state="running"]').wait_for(timeout=60_000)
            check_words(page, 'two dashboards of a run, running', figures)
            c2.locator('.ntrain-dashboard .ntrain-stop').click()
            for c in (c2, c3): c.locator('.ntrain-run-state[data-state="stopped"]').wait_for(timeout=120_000)
            stopped_at = int(c2.locator('.ntrain-run-state').get_attribute('data-step'))
            check_words(page, 'two dashboards, after Stop', figures)
            figures['stopped dashboard: its title and status line'] = stop_said = [c2.locator(s).first.inner_text() for s in ('.ntrain-run-state', '.ntrain-status')]
            rd3 = lb.work/'runs'/'both'
            term = subprocess.Popen([sys.executable, '-m', 'ntrain', 'resume', str(rd3)], cwd=lb.work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, env=dict(os.environ, OMP_NUM_THREADS='1', **env))
            try:
                # on disk, the run past its stop: its first record beyond the stop (its time) or status.json saying so (its mtime)
                t_status = t_record = t_page = None; t0, off = time.monotonic(), (rd3/'metrics.jsonl').stat().st_size
                while t_page is None or t_status is None or t_record is None:
                    assert time.monotonic() - t0 < 180 and term.poll() is None, (term.poll(), (rd3/'status.json').read_text())
                    if t_status is None:
                        try: st, m = json.loads((rd3/'status.json').read_text()), (rd3/'status.json').stat().st_mtime
                        except (OSError, ValueError): st = {}
                        if st.get('state') == 'running' and (st.get('step') or 0) > stopped_at: t_status = m
                    if t_record is None:
                        with open(rd3/'metrics.jsonl', 'rb') as f: f.seek(off); chunk = f.read()
                        whole = chunk[:chunk.rfind(b'\n') + 1]; off += len(whole)
                        for line in whole.splitlines():
                            try: r = json.loads(line)
                            except ValueError: continue
                            if t_record is None and r.get('kind') in ('step', 'epoch') and (r.get('step') or 0) > stopped_at: t_record = r.get('time') or time.time()
                    if t_page is None and page.evaluate(both_show(stopped_at)): t_page = time.time()
                    time.sleep(0.05)
                figures['resume from a terminal: both dashboards past the stop, after its first record (s)'] = round(t_page - t_record, 2)
                figures['... after status.json said so (s)'] = round(t_page - t_status, 2)
                figures['... after the first of them: the lag (s)'] = follow_s = round(t_page - min(t_record, t_status), 2)
                check_words(page, 'two dashboards, resumed from a terminal', figures)
                for c in (c2, c3): c.locator('.ntrain-run-state[data-state="finished"]').wait_for(timeout=240_000)
                assert term.wait(timeout=120) == 0, term.communicate()[0][-3000:]
            finally:
                if term.poll() is None: term.kill(); term.wait(timeout=30)
            # both end with the new card (run.md, written just after the end), not the stop's
            page.wait_for_function("() => [2, 3].every(i => /Epochs:[^\\n]*finished/.test(" + js_cell('i') + ".querySelector('.ntrain-dashboard').innerText))",
                                   timeout=60_000, polling=250)
            ends = [dict(restarts=c.locator('.ntrain-run-state').get_attribute('data-restarts'), step=c.locator('.ntrain-run-state').get_attribute('data-step'),
                         epochs=re.findall(r'Epochs:[^\n]*', c.locator('.ntrain-dashboard').first.inner_text())) for c in (c2, c3)]
            figures['two dashboards at the end'] = ends
            figures['two dashboards: the whole part (s)'] = round(time.monotonic() - t_both, 1)
            check_words(page, 'two dashboards, finished after the resume', figures)
            front(page).screenshot(path=str(ARTIFACTS/'two_dashboards_resumed.png'))
            # the check itself: an internal name shown in cell 3's output is named, with its cell; a hidden one is not shown
            page.evaluate(f"""() => {{ const o = {js_cell(3)}.querySelector('.jp-OutputArea');
                for (const [t, hide] of [['ThreadRun.stop', false], ['Launch.kill', true]]) {{ const e = document.createElement('span');
                    e.className = 'ntrain-probe'; e.textContent = t; if (hide) e.style.display = 'none'; o.appendChild(e); }} }}""")
            figures['the words check, probed'] = probe = internal_words(page, 'a probe')
            page.evaluate("() => document.querySelectorAll('.ntrain-probe').forEach(e => e.remove())")
            # reopened without widget state (what JupyterLab saves with the setting off): the siblings show
            bare = json.loads(json.dumps(saved)); bare['metadata'].pop('widgets', None)
            for name, content in (('bare.ipynb', bare), ('kept.ipynb', saved)):  # signed, as JupyterLab signs what it saves: trusted
                n = nbformat.from_dict(content); nbformat.sign.NotebookNotary().sign(n); nbformat.write(n, lb.work/name)
            # the copy opens beside the live notebook, whose dashboards (the same display ids, and the styles that hide
            # their siblings) stay rendered in its tab: the copy's siblings show all the same
            reopen(lb, page, 'bare.ipynb', beside=True)
            b0, b1 = cell(page, 0), cell(page, 1)
            figures['bare: dashboards rendered in the live tab beside it'] = live_beside = page.locator('.ntrain-dashboard').count()
            b1.locator('.ntrain-saved-line').wait_for(timeout=60_000)
            page.wait_for_function("() => [...window.jupyterapp.shell.currentWidget.node.querySelectorAll('.jp-OutputArea-output')].filter(n => n.textContent.includes('model not found')).length == 2",
                                   timeout=60_000, polling=250)
            img = b0.locator('.ntrain-saved img')
            img.wait_for(timeout=30_000)
            bare_figs = dict(img_width=img.evaluate('e => e.naturalWidth'), card=b0.locator('.ntrain-saved').inner_text(),
                             long_line=b1.locator('.ntrain-saved-line').inner_text(),
                             errors_visible=visible(front(page).locator('.jp-OutputArea-output:has-text("model not found")')),
                             dashboards=front(page).locator('.ntrain-dashboard').count(), imgs_visible=visible(b0.locator('img')))
            front(page).screenshot(path=str(ARTIFACTS/'saved_no_widget_state.png'))
            close_front(page); close_front(page)  # the copy, then the live notebook
            # reopened as saved, with widget state: the dashboards render from it, and their siblings stay hidden
            reopen(lb, page, 'kept.ipynb')
            k0 = cell(page, 0)
            k0.locator('.ntrain-dashboard .ntrain-run-state[data-state="finished"]').wait_for(timeout=60_000)
            cell(page, 1).locator('.ntrain-dashboard').wait_for(timeout=60_000)
            nb_k = front(page)
            kept_figs = dict(dashboards=visible(nb_k.locator('.ntrain-dashboard')), siblings_visible=visible(nb_k.locator('.ntrain-saved')),
                             siblings=nb_k.locator('.ntrain-saved').count(), imgs_visible_cell0=visible(k0.locator('img')),
                             errors=nb_k.locator('.jp-OutputArea-output:has-text("model not found")').count())
            front(page).screenshot(path=str(ARTIFACTS/'saved_with_widget_state.png'))
            figures.update(bare=bare_figs, kept=kept_figs)
            close_front(page)
            # the same in Notebook 7 (served by the same server: /notebooks/...): the siblings show, the picture and the card
            nb7 = lb.page()
            nb7.goto(f'{lb.url}/notebooks/bare.ipynb?token={TOKEN}')
            nb7.locator('.jp-Notebook .jp-Cell').first.wait_for()
            nb7.locator('.ntrain-saved-line').first.wait_for(timeout=60_000)
            nb7.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output')].filter(n => n.textContent.includes('model not found')).length == 2",
                                  timeout=60_000, polling=250)
            n0, n1 = nb7.locator('.jp-Notebook .jp-Cell').nth(0), nb7.locator('.jp-Notebook .jp-Cell').nth(1)
            n0.locator('.ntrain-saved img').wait_for(timeout=30_000)
            figures['notebook 7'] = nb7_figs = dict(img_width=n0.locator('.ntrain-saved img').evaluate('e => e.naturalWidth'),
                                                    card=n0.locator('.ntrain-saved').inner_text(), long_line=n1.locator('.ntrain-saved-line').inner_text(),
                                                    errors_visible=visible(nb7.locator('.jp-OutputArea-output:has-text("model not found")')))
            nb7.screenshot(path=str(ARTIFACTS/'saved_notebook7.png'))
        except Exception:
            shoot(page, 'browser_saved_failure.png'); raise
        finally:
            (ARTIFACTS/'browser_saved.json').write_text(json.dumps(figures, indent=1))
            print(json.dumps(figures, indent=1))
    assert max(ago) <= 3, ago  # a heartbeat every 1.5 s; a loaded machine may deliver one late
    assert re.fullmatch(AS_OF.format('running') + r' \(run .*long\)', said) and int(re.match(AS_OF.format('running'), said).group(1)) > 0, said
    assert 'widgets' in saved['metadata'], 'save widget state was on: the notebook should hold it'
    assert gone_s <= 10 + 2.5 and figures['its counter then (s)'] >= 9, figures  # 10 s after the last update, seen polling
    assert struck == 'line-through' and not ended_warns, (struck, ended_warns)
    assert dead == ['none', 'none'], dead  # a view whose kernel is gone: its live buttons take no click
    assert broken == [], broken  # (a restart leaves every picture drawn)
    assert [t.count('by you (Stop button)') for t in stop_said] == [1, 0], stop_said  # who stopped it: said once, in the title
    assert follow_s <= 2.0, follow_s  # every open view agrees within 2 s of status.json (a check of the files every 1 s)
    assert all(e['restarts'] == '1' and len(e['epochs']) == 1 and 'finished' in e['epochs'][0] and 'stop' not in e['epochs'][0] for e in ends), ends
    assert ends[0]['step'] == ends[1]['step'], ends
    assert len(probe) == 1 and probe[0].startswith("'ThreadRun' in cell 3's text (a probe)"), probe
    assert bare_figs['img_width'] > 100 and 'Best val' in bare_figs['card'] and re.match(AS_OF.format('finished'), bare_figs['card']), bare_figs
    assert re.fullmatch(AS_OF.format('running') + r' \(run .*long\)', bare_figs['long_line']), bare_figs
    assert live_beside == 4, live_beside  # (what the copy was opened beside: the live tab's four dashboards)
    assert bare_figs['errors_visible'] == 0 and bare_figs['dashboards'] == 0 and bare_figs['imgs_visible'] == 1, bare_figs
    assert kept_figs == dict(dashboards=2, siblings_visible=0, siblings=2, imgs_visible_cell0=1, errors=0), kept_figs
    assert (nb7_figs['img_width'] > 100 and nb7_figs['card'] == bare_figs['card'] and nb7_figs['long_line'] == bare_figs['long_line']
            and nb7_figs['errors_visible'] == 0), nb7_figs  # Notebook 7 shows what JupyterLab shows
