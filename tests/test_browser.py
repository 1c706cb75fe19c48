"""A real browser: JupyterLab 4 on 127.0.0.1 and Debian's Chromium driven by Playwright (no browser download).

Opens the tutorial, runs its first cells, clicks rungs 1-4 and waits for the pass badges and a drawn plot, sets 30
epochs and clicks rung 5 (a 2-process torchrun run), watches its curve grow, stops it, resumes it and waits for the
run card. The panels expose their state as data attributes; the test waits on those, never on sleeps. Screenshots
go to the artifacts folder outside the tree (NTRAIN_ARTIFACTS, default /tmp/ntrain-artifacts); docs/copy_screenshots.sh
copies the README's two into docs/. Under CI=true a skipped browser test is a failure."""
import json, os, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get('NTRAIN_ARTIFACTS') or Path(tempfile.gettempdir())/'ntrain-artifacts')
CHROMIUM = '/usr/bin/chromium'
ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

def _need(ok:bool, why:str):
    if ok: return
    if os.environ.get('CI') == 'true': pytest.fail(f'browser test cannot run under CI: {why}')
    pytest.skip(why)

def _port()->int:
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

@pytest.fixture
def lab(tmp_path):
    "JupyterLab on 127.0.0.1 serving a copy of the tutorial; yields (url, token, folder)."
    _need(Path(CHROMIUM).exists(), f'{CHROMIUM} not found (apt-get install chromium)')
    try: import playwright.sync_api  # noqa: F401
    except ImportError: _need(False, 'playwright is not installed (pip install -e .[dev])')
    work = tmp_path/'lab'; work.mkdir()
    shutil.copy(ROOT/'nbs'/'tutorials'/'digits_workbench.ipynb', work)
    settings = tmp_path/'settings'/'@jupyterlab'/'apputils-extension'; settings.mkdir(parents=True)
    (settings/'notification.jupyterlab-settings').write_text(json.dumps(dict(fetchNews='false', checkForUpdates=False)))
    port, token = _port(), 'ntrain-test-token'
    env = dict(os.environ, NTRAIN_TUTORIAL_DIR=str(tmp_path/'runs'), OMP_NUM_THREADS='1', NTRAIN_DIST_TIMEOUT='60',
               JUPYTERLAB_SETTINGS_DIR=str(tmp_path/'settings'), JUPYTERLAB_WORKSPACES_DIR=str(tmp_path/'ws'))
    log = open(tmp_path/'lab.log', 'wb')
    p = subprocess.Popen([sys.executable, '-m', 'jupyterlab', '--no-browser', '--allow-root', '--ServerApp.ip=127.0.0.1', f'--ServerApp.port={port}',
                          f'--IdentityProvider.token={token}', f'--ServerApp.root_dir={work}', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate', '--LabApp.expose_app_in_browser=True'],
                         cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f'http://127.0.0.1:{port}'
    try:
        t0 = time.monotonic()
        while True:
            try: urllib.request.urlopen(f'{url}/api/status?token={token}', timeout=2); break
            except OSError:
                if time.monotonic() - t0 > 90 or p.poll() is not None: raise AssertionError('JupyterLab did not start:\n' + (tmp_path/'lab.log').read_text()[-3000:])
                time.sleep(0.3)
        yield url, token, tmp_path
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            try: p.wait(20)
            except subprocess.TimeoutExpired: os.killpg(p.pid, signal.SIGKILL); p.wait(10)
        log.close()
        for lj in (tmp_path/'runs').rglob('launch.json'):  # never leave a run behind
            subprocess.run([sys.executable, '-m', 'ntrain', 'stop', str(lj.parent)], capture_output=True, timeout=60)

def _points(page)->int:
    return int(page.get_attribute('.ntrain-dashboard .ntrain-run-state', 'data-points') or 0)

def test_tutorial_in_jupyterlab(lab):
    from playwright.sync_api import sync_playwright
    url, token, tmp = lab
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport=dict(width=1300, height=1000))
            page.set_default_timeout(120_000)
            page.goto(f'{url}/lab/tree/digits_workbench.ipynb?token={token}')
            page.wait_for_selector('.jp-Notebook .jp-Cell')
            page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget && window.jupyterapp.shell.currentWidget.sessionContext")
            page.evaluate("async () => { const nb = window.jupyterapp.shell.currentWidget; await nb.sessionContext.ready; }")
            page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'")
            for b in page.locator('.jp-Notification-Toast button:has-text("No")').all(): b.click()   # the news question, if asked
            page.evaluate("() => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = 0; }")
            for _ in range(5):   # title, prose, imports, prose, the panel
                page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell-and-select-next')")
            page.wait_for_selector('.ntrain-ladder .ntrain-run-all')
            # rungs 1-4 by the panel's button: the pass badges and a drawn plot
            page.click('.ntrain-ladder .ntrain-run-all')
            for k in (1, 2, 3, 4): page.wait_for_selector(f'.ntrain-badge[data-rung="{k}"][data-verdict="pass"]', timeout=240_000)
            page.wait_for_selector('.ntrain-ladder-state[data-busy="0"]', state='attached')
            assert int(page.get_attribute('.ntrain-ladder-state', 'data-draws')) >= 1
            assert page.locator('.ntrain-ladder img').first.evaluate('e => e.naturalWidth') > 100
            page.locator('.ntrain-ladder').screenshot(path=str(ARTIFACTS/'ladder_panel.png'))
            # rung 5 on 2 processes, 30 epochs: the dashboard opens below, its curve grows
            epochs = page.locator('.ntrain-ladder .widget-inline-hbox:has(label:text-is("epochs")) input')
            epochs.fill('30'); epochs.press('Enter')
            page.wait_for_function("() => document.querySelector('.ntrain-badge[data-rung=\"4\"]').dataset.stale === '0'")
            page.click('.ntrain-ladder .ntrain-run-5')
            page.wait_for_selector('.ntrain-dashboard .ntrain-run-state[data-state="running"]', timeout=180_000)
            p0 = _points(page)
            page.wait_for_function(f"() => +document.querySelector('.ntrain-dashboard .ntrain-run-state').dataset.points > {p0}", timeout=120_000)
            p1 = _points(page)
            page.wait_for_function(f"() => +document.querySelector('.ntrain-dashboard .ntrain-run-state').dataset.points > {p1}", timeout=120_000)
            page.locator('.ntrain-dashboard').screenshot(path=str(ARTIFACTS/'dashboard_running.png'))
            # stop, resume, the run card
            page.click('.ntrain-dashboard .ntrain-stop')
            page.wait_for_selector('.ntrain-dashboard .ntrain-run-state[data-state="stopped"]', timeout=180_000)
            page.wait_for_selector('.ntrain-dashboard .ntrain-resume:not([disabled])')
            page.click('.ntrain-dashboard .ntrain-resume')
            page.wait_for_selector('.ntrain-dashboard .ntrain-run-state[data-state="running"]', timeout=180_000)
            page.wait_for_selector('.ntrain-dashboard .ntrain-run-state[data-state="finished"]', timeout=400_000)
            page.wait_for_selector('.ntrain-dashboard :text("Best val")', timeout=60_000)
            assert int(page.get_attribute('.ntrain-dashboard .ntrain-run-state', 'data-restarts')) == 1
            page.wait_for_selector('.ntrain-badge[data-rung="5"][data-verdict="pass"]', timeout=60_000)
            page.locator('.ntrain-dashboard').screenshot(path=str(ARTIFACTS/'dashboard_finished.png'))
        except Exception:
            try: page.screenshot(path=str(ARTIFACTS/'browser_failure.png'), full_page=True)
            except Exception: pass
            raise
        finally:
            browser.close()
