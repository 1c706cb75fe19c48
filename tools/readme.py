#!/usr/bin/env python3
"""README.md is made from nbs/index.ipynb, the docs site's front page: its Markdown cells, in order, a blank line apart.

    python tools/readme.py           # write README.md from nbs/index.ipynb
    python tools/readme.py --check   # exit 1, naming the first line that differs, if README.md is not index.ipynb's
    python tools/readme.py --init    # (once) make nbs/index.ipynb from README.md, a cell per '## ' section

Edit nbs/index.ipynb, then run this (tests/run.sh checks that the two agree, as it checks nbs/ against ntrain/).
The README's links are relative to the repository's root, and stay so in the notebook (the site builder,
tools/docs.py, resolves index.ipynb's links from the root)."""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INDEX, README = ROOT/'nbs'/'index.ipynb', ROOT/'README.md'


def readme_text(nb:dict)->str:
    cells = [''.join(c['source']).strip('\n') for c in nb['cells'] if c['cell_type'] == 'markdown']
    return '\n\n'.join(c for c in cells if c) + '\n'


def init():
    text = README.read_text(encoding='utf-8')
    parts = [p.strip('\n') for p in re.split(r'\n\n(?=## )', text)]
    nb = dict(cells=[dict(cell_type='markdown', metadata={}, source=p.splitlines(keepends=True)) for p in parts],
              metadata=dict(kernelspec=dict(display_name='Python 3', language='python', name='python3')), nbformat=4, nbformat_minor=5)
    INDEX.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    assert readme_text(nb) == text, 'README.md does not split into sections a blank line apart'


def main(argv):
    if '--init' in argv: init(); return 0
    want = readme_text(json.loads(INDEX.read_text(encoding='utf-8')))
    if '--check' in argv:
        have = README.read_text(encoding='utf-8') if README.exists() else ''
        if have == want: return 0
        a, b = have.splitlines(), want.splitlines()
        i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
        print(f'README.md differs from nbs/index.ipynb at line {i + 1}: edit nbs/index.ipynb, run python tools/readme.py, '
              f'and commit both', file=sys.stderr)
        return 1
    README.write_text(want, encoding='utf-8'); return 0


if __name__ == '__main__': sys.exit(main(sys.argv[1:]))
