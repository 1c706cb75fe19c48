"""The docs site's builder (tools/docs.py) and the README's source (tools/readme.py), in parts: what a page keeps of a
notebook, where links point, and a link check that fails on what is broken. tests/run.sh builds the whole site, with
every notebook executed, as the notebooks' test."""
import json, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tools'))
import docs, readme  # noqa: E402


def test_a_page_keeps_the_sibling_not_the_widget_view_nor_directives_nor_hidden_cells():
    sibling = {'output_type': 'display_data', 'metadata': {}, 'data': {'text/markdown': ["<div class='ntrain-saved'>\n", 'as of 12:00</div>'], 'text/plain': 'as of 12:00'}}  # (lines, as executed)
    view = {'output_type': 'display_data', 'metadata': {}, 'data': {docs.WIDGET: {'model_id': 'x'}, 'text/plain': 'VBox(...)'}}
    nb = {'cells': [
        {'cell_type': 'code', 'metadata': {}, 'source': '#| export\ndef f(): pass', 'outputs': [], 'execution_count': 1},
        {'cell_type': 'code', 'metadata': {}, 'source': '#| hide\nsecret = 1', 'outputs': [], 'execution_count': 2},
        {'cell_type': 'code', 'metadata': {}, 'source': 'panel', 'outputs': [view, sibling], 'execution_count': 3},
        {'cell_type': 'markdown', 'metadata': {}, 'source': ['# Title\n', 'text']}],
        'metadata': {'widgets': {'state': {}}}, 'nbformat': 4, 'nbformat_minor': 5}
    page = docs.for_the_page(nb)
    assert [c['source'] for c in page['cells']] == ['def f(): pass', 'panel', '# Title\ntext']
    assert page['cells'][1]['outputs'] == [sibling] and 'widgets' not in page['metadata']
    assert docs.title_of(nb, 'x') == 'Title'
    body = docs.render(nb, 'Title')
    assert 'ntrain-saved' in body and 'VBox(' not in body and 'secret' not in body and '#| export' not in body


def test_links_point_where_the_files_land_and_the_check_fails_on_broken_ones(tmp_path):
    wanted = set()
    page = ('<a href="03_rungs.ipynb#rung-3">r</a> <a href="../01_engine/09_trainer.ipynb">t</a> <img src="../../docs/ladder_panel.png"> '
            '<a href="https://x.org/a.ipynb">e</a> <a href="#top">t</a>')
    out = docs.relink(page, ROOT/'nbs'/'02_ladder', '02_ladder/05_session.html', wanted)  # a chapter's page links within and across chapters
    assert 'href="03_rungs.html#rung-3"' in out and 'href="../01_engine/09_trainer.html"' in out and 'src="../_repo/docs/ladder_panel.png"' in out, out
    assert 'href="https://x.org/a.ipynb"' in out and 'href="#top"' in out
    assert wanted == {'nbs/02_ladder/03_rungs.ipynb', 'nbs/01_engine/09_trainer.ipynb', 'docs/ladder_panel.png'}
    assert docs.relink('<a href="README.md#gpu-installs">g</a>', ROOT, 'tutorials/x.html', set()) == '<a href="../index.html#gpu-installs">g</a>'
    # the check: a good site passes, then each kind of break is named with its page
    site = tmp_path/'site'; (site/'tutorials').mkdir(parents=True)
    (site/'index.html').write_text('<h2 id="a">A</h2><a href="tutorials/t.html#b">t</a><a href="#a">self</a><a href="https://nowhere">x</a>')
    (site/'tutorials'/'t.html').write_text('<h2><a id="b"></a>B</h2><a href="../index.html#a">i</a><img src="data:image/png;base64,AA">')
    n, broken = docs.check_links(site)
    assert (n, broken) == (3, [])
    (site/'tutorials'/'t.html').write_text('<h2 id="b">B</h2><a href="../index.html#nope">i</a><img src="gone.png"><a href="../../out.html">o</a>')
    n, broken = docs.check_links(site)
    assert broken == ['tutorials/t.html: ../index.html#nope (no anchor "nope" in index.html)', 'tutorials/t.html: gone.png (no such file on the site)',
                      'tutorials/t.html: ../../out.html (no such file on the site)'], broken


def test_headings_carry_githubs_anchors_as_the_readme_links_them():
    page = docs._github_ids('<h2 id="GPU-installs">GPU installs<a class="anchor-link" href="#GPU-installs">¶</a></h2>')
    assert '<a id="gpu-installs"></a>' in page and 'id="GPU-installs"' in page


def test_the_readme_is_index_ipynbs_markdown_and_the_check_names_the_line(tmp_path, monkeypatch):
    nb = json.loads(readme.INDEX.read_text())
    assert readme.readme_text(nb) == readme.README.read_text(), 'README.md is not nbs/index.ipynb: run python tools/readme.py'
    assert readme.readme_text(nb).startswith('# ntrain\n') and '<!-- test-command -->' in readme.readme_text(nb)
    monkeypatch.setattr(readme, 'README', tmp_path/'README.md')
    (tmp_path/'README.md').write_text(readme.readme_text(nb).replace('## What it does', '## What it did'))
    r = subprocess.run([sys.executable, '-c', f'import sys; sys.path.insert(0, {str(ROOT/"tools")!r}); import readme; from pathlib import Path; '
                        f'readme.README = Path({str(tmp_path/"README.md")!r}); sys.exit(readme.main(["--check"]))'], capture_output=True, text=True, timeout=60)
    line = readme.readme_text(nb).splitlines().index('## What it does') + 1
    assert r.returncode == 1 and f'README.md differs from nbs/index.ipynb at line {line}:' in r.stderr, r.stderr


def _nb(path:Path, *sources):
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nbformat.write(nb, path); return path


def test_a_failing_or_hanging_notebook_fails_with_its_error_and_a_skipped_flag_is_not_run(tmp_path):
    ok = _nb(tmp_path/'ok.ipynb', 'x = 1 + 1\nx', '#| slow\nraise SystemExit("a slow cell ran")')
    bad = _nb(tmp_path/'bad.ipynb', 'y = 2', 'assert y == 3, "y is not 3"')
    hang = _nb(tmp_path/'hang.ipynb', 'import time\ntime.sleep(600)')
    (tmp_path/'work').mkdir()
    done = docs.execute_all([ok, bad, hang], tmp_path/'work', workers=2, timeout=20)
    r, out = done[ok]
    assert r['ok'] and json.loads(out.read_text())['cells'][0]['outputs'][0]['data']['text/plain'] in ('2', ['2']), r
    r, _ = done[bad]
    assert not r['ok'] and 'AssertionError' in r['error'] and 'y is not 3' in r['error'], r
    r, out = done[hang]
    assert not r['ok'] and r['error'] == 'did not finish in 20 s (killed)' and out is None, r


def test_no_export_cell_is_over_60_lines():
    "The book's rule: an export cell over 60 lines is split (one function or method per cell, `ntrain.core.patch`)."
    import json
    long = {f'{p.relative_to(ROOT)} cell {i}': n for p in sorted((ROOT/'nbs').rglob('*.ipynb')) if '.ipynb_checkpoints' not in p.parts
            for i, c in enumerate(json.loads(p.read_text())['cells'])
            if c['cell_type'] == 'code' and ''.join(c['source']).startswith('#| export') and (n := len(''.join(c['source']).splitlines())) > 60}
    assert not long, long
