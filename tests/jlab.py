"""JupyterLab 4 on 127.0.0.1 and Debian's Chromium driven by Playwright (no browser download), for the browser tests.

`lab(tmp_path, notebooks)` serves copies of `notebooks` and yields a `Lab`; `Lab.page()` opens a Chromium page.
`open_notebook` waits for its kernel; `run_cells` runs cells as Shift-Enter does; `kernel_latency` times a `1+1`
sent to the notebook's kernel as a cell would send it. `cpu_hog` holds one core busy, as a user's other work does.
Under CI=true a browser test that cannot run fails instead of skipping."""
import contextlib, json, os, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get('NTRAIN_ARTIFACTS') or Path(tempfile.gettempdir())/'ntrain-artifacts')
CHROMIUM = '/usr/bin/chromium'
ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
TOKEN = 'ntrain-test-token'


def need(ok:bool, why:str):
    "Skip when the browser cannot run here; under CI=true that is a failure."
    if ok: return
    if os.environ.get('CI') == 'true': pytest.fail(f'browser test cannot run under CI: {why}')
    pytest.skip(why)


def _port()->int:
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


class Lab:
    def __init__(self, url:str, tmp:Path, runs:Path, work:Path, pw):
        self.url, self.tmp, self.runs, self.work, self.pw, self.browser = url, tmp, runs, work, pw, None

    def page(self, width:int=1300, height:int=1000):
        if self.browser is None: self.browser = self.pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = self.browser.new_page(viewport=dict(width=width, height=height))
        page.set_default_timeout(120_000)
        return page


@contextlib.contextmanager
def lab(tmp_path:Path, notebooks:list, env:dict=None):
    "JupyterLab serving copies of `notebooks` (paths) under `tmp_path/lab`, the tutorial's runs going to `runs/` there (relative, as a user's); yields a `Lab`."
    need(Path(CHROMIUM).exists(), f'{CHROMIUM} not found (apt-get install chromium)')
    try: from playwright.sync_api import sync_playwright
    except ImportError: need(False, 'playwright is not installed (pip install -e .[dev])')
    work = tmp_path/'lab'; runs = work/'runs'; work.mkdir(); runs.mkdir()  # runs below the notebooks: a panel shows runs/..., no temporary path
    for nb in notebooks: shutil.copy(nb, work)
    settings = tmp_path/'settings'/'@jupyterlab'/'apputils-extension'; settings.mkdir(parents=True)
    (settings/'notification.jupyterlab-settings').write_text(json.dumps(dict(fetchNews='false', checkForUpdates=False)))
    port = _port()
    e = dict(os.environ, NTRAIN_TUTORIAL_DIR='runs', OMP_NUM_THREADS='1', NTRAIN_DIST_TIMEOUT='60',
             JUPYTERLAB_SETTINGS_DIR=str(tmp_path/'settings'), JUPYTERLAB_WORKSPACES_DIR=str(tmp_path/'ws'), **(env or {}))
    log = open(tmp_path/'lab.log', 'wb')
    p = subprocess.Popen([sys.executable, '-m', 'jupyterlab', '--no-browser', '--allow-root', '--ServerApp.ip=127.0.0.1', f'--ServerApp.port={port}',
                          f'--IdentityProvider.token={TOKEN}', f'--ServerApp.root_dir={work}', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate',
                          '--LabApp.expose_app_in_browser=True'], cwd=work, env=e, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f'http://127.0.0.1:{port}'
    try:
        t0 = time.monotonic()
        while True:
            try: urllib.request.urlopen(f'{url}/api/status?token={TOKEN}', timeout=2); break
            except OSError:
                if time.monotonic() - t0 > 90 or p.poll() is not None: raise AssertionError('JupyterLab did not start:\n' + (tmp_path/'lab.log').read_text()[-3000:])
                time.sleep(0.3)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as pw:
            lb = Lab(url, tmp_path, runs, work, pw)
            try: yield lb
            finally:
                if lb.browser is not None: lb.browser.close()
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            try: p.wait(20)
            except subprocess.TimeoutExpired: os.killpg(p.pid, signal.SIGKILL); p.wait(10)
        log.close()
        for lj in tmp_path.rglob('launch.json'):  # never leave a run behind (under runs/, or where the notebook put it)
            subprocess.run([sys.executable, '-m', 'ntrain', 'stop', str(lj.parent)], capture_output=True, timeout=60)


def open_notebook(lb:Lab, page, name:str):
    "Open `name` in JupyterLab and wait until its kernel is idle; the news question, if asked, is answered No."
    page.goto(f'{lb.url}/lab/tree/{name}?token={TOKEN}')
    page.locator('.jp-Notebook .jp-Cell:visible').first.wait_for()  # (a tab JupyterLab restored may hold hidden ones)
    # (JupyterLab may restore other tabs first: the one in front changes until `name` is)
    mine = f"window.jupyterapp?.shell.currentWidget?.context?.path === {json.dumps(name)}"
    page.wait_for_function(f"() => {mine} && !!window.jupyterapp.shell.currentWidget.sessionContext", polling=250)
    page.evaluate("async () => { const nb = window.jupyterapp.shell.currentWidget; await nb.sessionContext.ready; }")
    page.wait_for_function(f"() => {mine} && window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel?.status === 'idle'", polling=250)
    for b in page.locator('.jp-Notification-Toast button:has-text("No")').all(): b.click()
    page.evaluate("() => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = 0; }")


def run_cell(page, i:int):
    "Run cell `i` alone, as its Run button does (run-and-select-next would add a cell after the last one)."
    page.evaluate(f"() => {{ window.jupyterapp.shell.currentWidget.content.activeCellIndex = {i}; }}")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell')")


def run_cells(page, n:int, start:int=None):
    "Run `n` cells from the active one (or cell `start`), as Shift-Enter does."
    if start is not None: page.evaluate(f"() => {{ window.jupyterapp.shell.currentWidget.content.activeCellIndex = {start}; }}")
    for _ in range(n): page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell-and-select-next')")


_CELLS = "window.jupyterapp.shell.currentWidget.content.widgets.filter(c => c.model.type === 'code')"

def cell_errors(page)->list:
    "Every error and stderr output of the open notebook's code cells (from its model: cells out of view count too), as text."
    return page.evaluate(f"""() => {_CELLS}.flatMap(c => c.model.outputs.toJSON()).filter(o => o.output_type === 'error' ||
        (o.output_type === 'stream' && o.name === 'stderr')).map(o => o.output_type === 'error' ? o.ename + ': ' + o.evalue : [].concat(o.text).join(''))""")


def execution_counts(page)->list:
    "The execution count of every code cell (None: never run, or queued)."
    return page.evaluate(f"() => {_CELLS}.map(c => c.model.executionCount)")


_IDLE = "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'"
_FAILED = "c.model.outputs.toJSON().some(o => o.output_type === 'error')"

def wait_all_run(page, timeout_ms:int=900_000):
    """Wait until every code cell has run (each has an execution count) and the kernel is idle, or one has failed (JupyterLab
    runs no cell after a failed one)."""
    page.wait_for_function(f"() => {_IDLE} && ({_CELLS}.every(c => c.model.executionCount) || {_CELLS}.some(c => {_FAILED}))",
                           timeout=timeout_ms, polling=500)


def wait_cell(page, i:int, timeout_ms:int=900_000):
    "Wait until cell `i` has run (a markdown cell at once) and the kernel is idle."
    page.wait_for_function(f"() => {{ const c = window.jupyterapp.shell.currentWidget.content.widgets[{i}]; return {_IDLE} && "
                           f"(c.model.type !== 'code' || c.model.executionCount || {_FAILED}); }}", timeout=timeout_ms, polling=500)


def n_cells(page)->int:
    "How many cells the open notebook has."
    return page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets.length")


def kernel_latency(page)->float:
    "Seconds from sending `1+1` to the notebook's kernel, as a cell does, to its result."
    return page.evaluate("""async () => {
        const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
        const t0 = performance.now(); let got = null;
        const f = k.requestExecute({code: '1+1', silent: false, store_history: false});
        f.onIOPub = m => { if (m.header.msg_type === 'execute_result') got = performance.now(); };
        await f.done;
        return ((got || performance.now()) - t0) / 1000; }""")


@contextlib.contextmanager
def cpu_hog():
    "One process that keeps one core busy for as long as the block runs (a user's machine is never idle)."
    spin = 'import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass'  # busy; ends with the test's process, even killed
    p = subprocess.Popen([sys.executable, '-c', spin], start_new_session=True)
    try: yield p
    finally: p.kill(); p.wait(10)


def snap(loc, name:str):
    """A screenshot of one element (a panel) in the artifacts folder, cut from the page as it shows: scrolled into view,
    left to settle, never taller than the window (an element screenshot would resize the window, and JupyterLab lays
    the notebook out again mid-shot)."""
    loc.scroll_into_view_if_needed()
    page = loc.page
    page.wait_for_timeout(500)
    b, vp = loc.bounding_box(), page.viewport_size
    y0 = max(0.0, b['y']); clip = dict(x=max(0.0, b['x']), y=y0, width=min(b['width'], vp['width']), height=min(b['y'] + b['height'], vp['height']) - y0)
    page.screenshot(path=str(ARTIFACTS/name), clip=clip)


def shoot(page, name:str):
    "A full-page screenshot in the artifacts folder, for a failure or the record."
    try: page.screenshot(path=str(ARTIFACTS/name), full_page=True)
    except Exception: pass


# --- words for users: what the page shows, and the internal names that must never be among it ---------------------------
# ntrain's own names (a class, a method, a file, a raw recorded reason), Python's, and figures no person should read
INTERNAL = {
    'stop file': r'stop file', 'Launch.kill/stop': r'Launch\.(kill|stop)', 'ThreadRun': r'ThreadRun', 'RunHandle': r'RunHandle',
    'another rank': r'stop requested on another rank', 'every rank': r'every rank finishes', 'raw stop request': r'stop requested by ',
    'a ratio of 1e7 or more': r'\d{7,}(\.\d+)? ?x its first value', 'Traceback': r'Traceback', 'KeyboardInterrupt': r'KeyboardInterrupt',
    'None': r'\bNone\b', 'NaN': r'\b(NaN|nan)\b', 'a raw reason': r'\b(early_stopped|non_finite|max_steps)\b', 'stop token': r'stop token',
    'a private name': r'(?<![\w/\-])_[a-z][a-z0-9]*(_[a-z0-9]+)*\b',  # _pump, _tick (a path's part, runs/_x, is not one)
}

_SHOWN = """() => window.jupyterapp.shell.currentWidget.content.widgets.map((c, i) => {
    if (c.model.type !== 'code') return null;
    const out = c.node.querySelector('.jp-OutputArea'); if (!out) return null;
    const tips = [...out.querySelectorAll('[title]')].filter(e => e.getClientRects().length > 0).map(e => e.getAttribute('title'));
    return {cell: i, text: out.innerText, tips: tips}; }).filter(x => x && (x.text.trim() || x.tips.length))"""

def shown_words(page)->list:
    """What the open notebook's outputs show a person: per code cell, its outputs' visible text (`innerText`: nothing hidden)
    and the tooltips of its visible elements. [dict(cell, text, tips)]."""
    return page.evaluate(_SHOWN)


def internal_words(page, when:str)->list:
    "Each internal name (`INTERNAL`) the page shows, as 'NAME in cell I's text|tooltip (WHEN): ...context...'."
    import re
    bad = []
    for o in shown_words(page):
        for where, text in [('text', o['text'])] + [('tooltip', t) for t in o['tips']]:
            for name, pat in INTERNAL.items():
                for m in re.finditer(pat, text):
                    bad.append(f"{name!r} in cell {o['cell']}'s {where} ({when}): ...{text[max(0, m.start() - 60):m.end() + 60]!r}...")
    return bad


def check_words(page, when:str, figures:dict=None):
    "Fail, naming the word, the cell and the moment, when the page shows an internal name; `figures` keeps what was checked."
    bad = internal_words(page, when)
    if figures is not None: figures.setdefault('words checked', []).append(when)
    assert not bad, 'internal names on the page:\n' + '\n'.join(bad)
