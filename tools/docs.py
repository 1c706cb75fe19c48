#!/usr/bin/env python3
"""Build the docs site from the notebooks, and test them on the way.

Every notebook under nbs/ is executed as `nbdev_test` runs it (cells marked with a flag of settings.ini's `tst_flags`,
or `#| eval: false`, are not run; a notebook whose front matter says `skip_exec` is rendered as it is), in worker
processes that each take one notebook at a time, with a timeout per notebook. A notebook that fails fails the build,
with its traceback. Then each is rendered to HTML (nbconvert's lab template, directives and `#| hide` cells removed)
with a sidebar of the chapters; a widget view, which needs a kernel, is left out: a panel shows through its static
sibling output (the picture and the card, `ntrain.notebook.dashboard.publish_panel`). `nbs/index.ipynb` is the front page (it is
also the README's source, tools/readme.py). Files of the repository that a page links to (the README's screenshots,
AGENTS.md, bench/RESULTS.md) are copied in, Markdown rendered to HTML. Last, every internal link and anchor of the site
is checked; a broken one fails the build. Links to other hosts are not followed (the machines here have no network).

    python tools/docs.py [--out _docs] [--workers 2] [--timeout 900] [--only GLOB] [--no-exec]

Writes the site to --out and its figures (seconds per notebook, pages, links checked) to OUT/build.json. No output is
committed: the site is made from a clean clone each time (tests/run.sh does, as the notebooks' test).
"""
import argparse, fnmatch, html, json, os, re, select, shutil, signal, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'
WIDGET = 'application/vnd.jupyter.widget-view+json'


# ------------------------------------------------------------------ executing (the worker)
def _skip_flags()->set:
    from nbdev.config import get_config
    return set(get_config().tst_flags.split())

def execute(fn:Path, out:Path, flags:set)->dict:
    "Run notebook `fn` as nbdev_test does, keep its outputs in `out` (JSON); whether it passed, its seconds, its error."
    from execnb.shell import CaptureShell
    from execnb.nbio import write_nb
    from fastcore.xtras import working_directory
    from nbdev.frontmatter import FrontmatterProc
    from nbdev.process import NBProcessor
    os.environ['IN_TEST'] = '1'
    nb = NBProcessor(fn, procs=FrontmatterProc, process=True).nb
    fm = getattr(nb, 'frontmatter_', {}) or {}
    def no_eval(cell):
        if cell.cell_type != 'code' or 'nbdev_export' + '(' in cell.source: return True
        d = getattr(cell, 'directives_', {}) or {}
        if d.get('eval:', [''])[0].lower() == 'false': return True
        return bool(flags & d.keys())
    t0, err = time.time(), None
    if str(fm.get('skip_exec', '')).lower() not in ('true', '1', 'yes'):
        shell = CaptureShell(fn)
        try:
            with working_directory(fn.parent): shell.run_all(nb, exc_stop=True, preproc=no_eval)
        except BaseException: err = shell.prettytb(fname=fn)
    write_nb(nb, out)
    return dict(ok=err is None, seconds=round(time.time() - t0, 1), error=err)

def worker(flags:set):
    """Read `NB OUT RESULT SITE PAGES` lines on stdin; execute each notebook and, when it passed and SITE is given, write
    its page there (the chapters' list: the JSON file PAGES); write its result (JSON) to RESULT when done."""
    sys.path.insert(0, str(ROOT))
    for line in sys.stdin:
        nb, out, res, site, pages = line.rstrip('\n').split('\t')
        r = execute(Path(nb), Path(out), flags)
        if r['ok'] and site:
            t0 = time.time()
            try: r['wanted'] = write_page(Path(nb), json.loads(Path(out).read_text(encoding='utf-8')), Path(site), json.loads(Path(pages).read_text()))
            except Exception:
                import traceback
                r.update(ok=False, error='its page could not be written:\n' + traceback.format_exc(limit=-4))
            r['render_s'] = round(time.time() - t0, 1)
        Path(res + '.tmp').write_text(json.dumps(r)); os.replace(res + '.tmp', res)


class Worker:
    "One worker process; `run(nb)` waits at most `timeout` s for it, and a worker that ran over is killed and replaced."
    def __init__(self, tmp:Path, k:int, site:str='', pages:str=''):
        self.tmp, self.k, self.p, self.n, self.site, self.pages = tmp, k, None, 0, site, pages
    def start(self):
        env = dict(os.environ, OMP_NUM_THREADS=os.environ.get('OMP_NUM_THREADS', '1'), MPLBACKEND='Agg', PYTHONDONTWRITEBYTECODE='1')
        self.log = open(self.tmp/f'worker{self.k}.log', 'ab')
        self.p = subprocess.Popen([sys.executable, __file__, '--worker'], stdin=subprocess.PIPE, stdout=self.log,
                                  stderr=subprocess.STDOUT, cwd=ROOT, env=env, text=True, start_new_session=True)
    def run(self, nb:Path, timeout:float)->tuple:
        if self.p is None or self.p.poll() is not None: self.start()
        self.n += 1
        out, res = self.tmp/f'{self.k}-{self.n}.ipynb', self.tmp/f'{self.k}-{self.n}.json'
        self.p.stdin.write(f'{nb}\t{out}\t{res}\t{self.site}\t{self.pages}\n'); self.p.stdin.flush()
        t0 = time.monotonic()
        while not res.exists():
            if self.p.poll() is not None:
                self.log.flush(); tail = Path(self.log.name).read_text(errors='replace').splitlines()[-25:]
                return dict(ok=False, seconds=round(time.monotonic() - t0, 1), error=f'the worker process died (exit {self.p.returncode}); the end of its log:\n' + '\n'.join(tail)), None
            if time.monotonic() - t0 > timeout:
                self.kill()
                return dict(ok=False, seconds=round(time.monotonic() - t0, 1), error=f'did not finish in {timeout:g} s (killed)'), None
            time.sleep(0.1)
        return json.loads(res.read_text()), out
    def kill(self):
        if self.p is not None and self.p.poll() is None:
            import signal
            try: os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError: pass
            self.p.wait(30)
    def close(self):
        if self.p is not None and self.p.poll() is None:
            self.p.stdin.close()
            try: self.p.wait(60)
            except subprocess.TimeoutExpired: self.kill()


def shown(p:Path)->str:
    "A path as the messages show it: from the repository's root when it is inside."
    try: return str(p.relative_to(ROOT))
    except ValueError: return str(p)

def execute_all(nbs:list, tmp:Path, workers:int, timeout:float, site:str='', pages:str='')->dict:
    "Each notebook on the first free worker (which writes its page into `site`, if given); {notebook: (result, executed copy)}."
    import threading, queue
    todo, done, lock = queue.Queue(), {}, threading.Lock()
    for nb in sorted(nbs, key=lambda p: -p.stat().st_size): todo.put(nb)  # (the big ones first: a shorter tail)
    def loop(k):
        w = Worker(tmp, k, site, pages)
        try:
            while True:
                try: nb = todo.get_nowait()
                except queue.Empty: return
                try: r = w.run(nb, timeout)
                except Exception as e: r = dict(ok=False, seconds=0.0, error=f'{type(e).__name__}: {e}'), None
                with lock:
                    done[nb] = r
                    print(f"  {'ok  ' if r[0]['ok'] else 'FAIL'} {r[0]['seconds']:6.1f} s  {shown(nb)}", flush=True)
        finally: w.close()
    ts = [threading.Thread(target=loop, args=(k,)) for k in range(max(1, min(workers, len(nbs))))]
    for t in ts: t.start()
    for t in ts: t.join()
    return done


# ------------------------------------------------------------------ rendering
DIRECTIVE = re.compile(r'^\s*#\|\s*(.*)$')

def _directives(src:str)->tuple:
    "A code cell's directives (`#| hide` -> {'hide': ''}) and its source without them."
    d, keep = {}, []
    for line in src.splitlines():
        m = DIRECTIVE.match(line)
        if m and not keep:
            k, _, v = m.group(1).partition(' '); d[k.rstrip(':')] = v.strip()
        else: keep.append(line)
    return d, '\n'.join(keep).strip('\n')

def title_of(nb:dict, fallback:str)->str:
    for c in nb['cells']:
        if c['cell_type'] == 'markdown':
            m = re.search(r'^#\s+(.+)$', ''.join(c['source']), re.M)
            if m: return m.group(1).strip()
    return fallback

def for_the_page(nb:dict)->dict:
    "What a page shows of an executed notebook: no directives, no hidden cells, no widget views (their siblings show)."
    cells = []
    for c in nb['cells']:
        src = ''.join(c['source']) if isinstance(c['source'], list) else c['source']
        if c['cell_type'] == 'code':
            d, src = _directives(src)
            if 'hide' in d or 'default_exp' in d and not src or not src and not c.get('outputs'): continue
            if d.get('echo') == 'false': src = ''
            outs = [o for o in c.get('outputs', []) if WIDGET not in o.get('data', {})]
            if d.get('output') == 'false': outs = []
            c = dict(c, source=src, outputs=outs)
        else: c = dict(c, source=src)
        cells.append(dict(c, id=c.get('id') or f'cell-{len(cells)}'))
    meta = {k: v for k, v in nb.get('metadata', {}).items() if k != 'widgets'}
    return dict(nb, cells=cells, metadata=meta)


def render(nb:dict, title:str)->str:
    import nbformat
    from nbconvert import HTMLExporter
    ex = HTMLExporter(template_name='lab')
    node = nbformat.reads(json.dumps(for_the_page(nb)), as_version=4)  # (reads joins the outputs' lists of lines, as a saved file has them)
    body, _ = ex.from_notebook_node(node, resources=dict(metadata=dict(name=title)))
    return body


SIDE_CSS = """<style>
body{margin-left:290px!important}
.ntrain-side{position:fixed;top:0;left:0;bottom:0;width:270px;overflow-y:auto;padding:16px 10px;box-sizing:border-box;
  border-right:1px solid #ddd;background:#fafafa;font:13px/1.45 system-ui,sans-serif}
.ntrain-side a{display:block;padding:2px 6px;color:#1a4f8b;text-decoration:none;border-radius:3px}
.ntrain-side a:hover{background:#e8eef6}.ntrain-side a.ntrain-here{background:#1a4f8b;color:#fff}
.ntrain-side h4{margin:12px 6px 4px;font-size:11px;text-transform:uppercase;color:#666;letter-spacing:.04em}
.ntrain-side .ntrain-home{font-weight:600;font-size:15px;margin-bottom:6px}
</style>"""

def sidebar(pages:list, here:str)->str:
    "The chapters, grouped by folder (nbs/ first), with the current page marked; links relative to `here`."
    out, group = [SIDE_CSS, '<nav class="ntrain-side">'], None
    for site, title in pages:
        g = str(Path(site).parent) if site != 'index.html' else ''
        if site == 'index.html':
            out.append(f'<a class="ntrain-home{" ntrain-here" if site == here else ""}" href="{rel(here, site)}">{html.escape(title)}</a>'); continue
        if g != group:
            group = g; out.append(f'<h4>{html.escape(chapter_title(g))}</h4>')
        out.append(f'<a{" class=ntrain-here" if site == here else ""} href="{rel(here, site)}">{html.escape(title)}</a>')
    return '\n'.join(out + ['</nav>'])

def chapter_title(folder:str)->str:
    "A chapter's folder as its title: '01_engine' -> 'Engine', 'tutorials' -> 'Tutorials'."
    return re.sub(r'^\d+_', '', Path(folder).name or 'chapters').replace('_', ' ').capitalize()

def rel(here:str, target:str)->str:
    return os.path.relpath(target, os.path.dirname(here) or '.').replace(os.sep, '/')


def site_path(repo_rel:str)->str:
    "Where a repository file lands on the site: nbs/X.ipynb -> X.html; a Markdown file -> .html; others as they are, under _repo/."
    p = Path(repo_rel)
    if p.parts and p.parts[0] == 'nbs' and p.suffix == '.ipynb': return str(Path(*p.parts[1:]).with_suffix('.html'))
    if p.suffix == '.md': return str(Path('_repo', p).with_suffix('.html'))
    return str(Path('_repo', p))

LINK = re.compile(r'''(\s(?:href|src)=)(["'])(.*?)\2''', re.S)
EXTERNAL = re.compile(r'^(?:[a-z][a-z0-9+.-]*:|//)', re.I)

def relink(page_html:str, src_dir:Path, here:str, wanted:set)->str:
    """Each relative link of a page, resolved from its source's folder in the repository, pointed at where that file is
    on the site; the repository files the site must carry are added to `wanted`."""
    def fix(m):
        url = html.unescape(m.group(3))
        if not url or url.startswith('#') or EXTERNAL.match(url): return m.group(0)
        path, _, frag = url.partition('#')
        target = (src_dir/path).resolve()
        try: repo_rel = str(target.relative_to(ROOT))
        except ValueError: return m.group(0)  # (outside the repository: the check reports it)
        if target.is_dir() and (target/'README.md').exists(): repo_rel = str(Path(repo_rel)/'README.md')
        if repo_rel == 'README.md': site = 'index.html'
        else:
            site = site_path(repo_rel)
            if not site.startswith('_repo') or target.exists(): wanted.add(repo_rel)
        new = rel(here, site) + (f'#{frag}' if frag else '')
        return f'{m.group(1)}{m.group(2)}{html.escape(new, quote=True)}{m.group(2)}'
    return LINK.sub(fix, page_html)


def write_page(nb:Path, executed:dict, site_root:Path, pages:list)->list:
    "Write notebook `nb`'s page (from its executed copy) into the site; the repository files it links to."
    site = site_path(str(nb.relative_to(ROOT)))
    title = dict(map(tuple, pages)).get(site, nb.stem)
    src_dir = ROOT if nb.name == 'index.ipynb' else nb.parent  # (index is the README's source: its links are the README's)
    wanted = set()
    page = relink(_github_ids(render(executed, title)), src_dir, site, wanted)
    page = re.sub(r'(<body[^>]*>)', lambda m: m.group(1) + sidebar(pages, site), page, count=1)
    (site_root/site).parent.mkdir(parents=True, exist_ok=True); (site_root/site).write_text(page, encoding='utf-8')
    return sorted(wanted)


def markdown_page(md_path:Path, title:str)->str:
    import mistune
    body = mistune.html(md_path.read_text(encoding='utf-8'))
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            '<style>body{font:15px/1.55 system-ui,sans-serif;max-width:60em;padding:1em 2em}pre{background:#f5f5f5;padding:.6em;overflow:auto}'
            'table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}</style></head>'
            f'<body>{_github_ids(body)}</body></html>')

def _slug(text:str)->str:
    "GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'."
    return re.sub(r'\s', '-', re.sub(r'[^\w\- ]', '', html.unescape(re.sub(r'<[^>]+>', '', text)).strip().lower()))

def _github_ids(page:str)->str:
    "Give each heading GitHub's anchor too (the README's links are written for GitHub), beside nbconvert's own id."
    def add(m):
        slug = _slug(m.group(3))
        return f'{m.group(1)}<a id="{slug}"></a>{m.group(3)}{m.group(4)}' if slug else m.group(0)
    return re.sub(r'(<h([1-6])[^>]*>)(.*?)(</h\2>)', add, page, flags=re.S)


# ------------------------------------------------------------------ checking
class _Links:
    def __init__(self, text:str):
        from html.parser import HTMLParser
        self.links, self.ids = [], set()
        outer = self
        class P(HTMLParser):
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                for k in ('id', 'name'):
                    if a.get(k): outer.ids.add(a[k])
                for k in ('href', 'src'):
                    if a.get(k) and tag in ('a', 'img', 'link', 'script', 'iframe', 'source'): outer.links.append(a[k])
        P().feed(text)

def check_links(site:Path)->tuple:
    "Every internal link and anchor of the site's pages: (links checked, [broken: 'page: link (why)'])."
    pages = {p.relative_to(site).as_posix(): _Links(p.read_text(encoding='utf-8', errors='replace')) for p in site.rglob('*.html')}
    n, broken = 0, []
    for page, L in sorted(pages.items()):
        for url in L.links:
            if EXTERNAL.match(url) or url.startswith('data:'): continue
            n += 1
            path, _, frag = url.partition('#')
            target = os.path.normpath(os.path.join(os.path.dirname(page), path)).replace(os.sep, '/') if path else page
            if target.startswith('..') or not (site/target).exists():
                broken.append(f'{page}: {url} (no such file on the site)'); continue
            if frag and target in pages and frag not in pages[target].ids:
                broken.append(f'{page}: {url} (no anchor "{frag}" in {target})')
    return n, broken


# ------------------------------------------------------------------ the build
def notebooks(only:str=None)->list:
    out = []
    for p in sorted(NBS.rglob('*.ipynb')):
        rel_p = p.relative_to(NBS)
        if any(part.startswith(('.', '_')) for part in rel_p.parts): continue
        if any((d/'.notest').exists() for d in p.parents if NBS in d.parents or d == NBS) and p.name != 'index.ipynb': continue
        if only and not fnmatch.fnmatch(str(rel_p), only): continue
        out.append(p)
    return out

def order(p:Path)->tuple:
    "index first, then the tutorials, then the chapters (nbs/'s folders) in name order."
    r = p.relative_to(NBS)
    return (r.name != 'index.ipynb', r.parts[0] != 'tutorials', str(r))

def build(out:Path, workers:int, timeout:float, only:str=None, execute_nbs:bool=True)->int:
    t0 = time.monotonic()
    nbs = sorted(notebooks(only), key=order)
    if not nbs: print(f'no notebook under {NBS} matches {only!r}', file=sys.stderr); return 2
    if out.exists(): shutil.rmtree(out)
    out.mkdir(parents=True)
    figures = dict(notebooks={}, failed=[])
    with tempfile.TemporaryDirectory(prefix='ntrain-docs-') as tmp:
        pages = [(site_path(str(nb.relative_to(ROOT))), title_of(json.loads(nb.read_text(encoding='utf-8')), nb.stem)) for nb in nbs]
        (Path(tmp)/'pages.json').write_text(json.dumps(pages))
        if execute_nbs:
            print(f'== executing {len(nbs)} notebooks and writing their pages ({workers} workers, {timeout:g} s each)', flush=True)
            done = execute_all(nbs, Path(tmp), workers, timeout, str(out), str(Path(tmp)/'pages.json'))
        else:
            done = {nb: (dict(ok=True, seconds=0.0, error=None, wanted=write_page(nb, json.loads(nb.read_text(encoding='utf-8')), out, pages)), nb) for nb in nbs}
        for nb in nbs:
            r, path = done[nb]
            figures['notebooks'][str(nb.relative_to(ROOT))] = r['seconds']
            if not r['ok']: figures['failed'].append(str(nb.relative_to(ROOT))); print(f"\nFAIL {nb.relative_to(ROOT)}: {r['error']}", file=sys.stderr)
        if figures['failed']:
            print(f"\nnotebooks failed: {', '.join(figures['failed'])}", file=sys.stderr)
            (out/'build.json').write_text(json.dumps(figures, indent=1)); return 1
        figures['render_s'] = round(sum(done[nb][0].get('render_s', 0) for nb in nbs), 1)
        wanted = set().union(*(done[nb][0]['wanted'] for nb in nbs))
        done_files = set()
        while wanted - done_files:  # repository files the pages link to (a Markdown page may link to more)
            repo_rel = sorted(wanted - done_files)[0]; done_files.add(repo_rel)
            src, site = ROOT/repo_rel, site_path(repo_rel)
            if not src.is_file() or site.endswith('.html') and not site.startswith('_repo'): continue
            (out/site).parent.mkdir(parents=True, exist_ok=True)
            if src.suffix == '.md':
                (out/site).write_text(relink(markdown_page(src, repo_rel), src.parent, site, wanted), encoding='utf-8')
            else: shutil.copyfile(src, out/site)
    n, broken = check_links(out)
    figures.update(pages=len(list(out.rglob('*.html'))), notebook_pages=len(nbs), links_checked=n, broken=broken,
                   seconds=round(time.monotonic() - t0, 1))
    (out/'build.json').write_text(json.dumps(figures, indent=1))
    print(f"== {len(nbs)} notebooks, {figures['pages']} pages, {n} internal links checked, {len(broken)} broken, {figures['seconds']:g} s: {out}")
    for b in broken: print(f'BROKEN LINK {b}', file=sys.stderr)
    return 1 if broken else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--out', default=str(ROOT/'_docs'))
    ap.add_argument('--workers', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=900, help='seconds per notebook')
    ap.add_argument('--only', help="a glob of notebooks under nbs/ (e.g. '10*'); the link check then sees only those pages")
    ap.add_argument('--no-exec', action='store_true', help='render the notebooks as they are, unexecuted')
    ap.add_argument('--worker', action='store_true', help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    # Started as a background job (tests/run.sh runs it beside pytest), this process and so every notebook it executes
    # would inherit SIGINT ignored; the notebooks' Ctrl-C examples need it as a user's shell gives it.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN: signal.signal(signal.SIGINT, signal.default_int_handler)
    if a.worker: return worker(_skip_flags())
    os.chdir(ROOT)
    return build(Path(a.out).resolve(), a.workers, a.timeout, a.only, not a.no_exec)

if __name__ == '__main__': sys.exit(main())
