"""The book's cell sizes at a commit: export cells, their mean and median lines, how many are over 30 and over 60 lines,
and the `show_doc` calls. Usage: python tools/count_cells.py [REV ...] (default HEAD)."""
import json, subprocess, sys

def sizes(rev:str='HEAD')->dict:
    "{notebook path: [lines of each export cell]} and the number of show_doc calls, for the notebooks of `rev`."
    ls = subprocess.run(['git', 'ls-tree', '-r', '--name-only', rev, 'nbs'], capture_output=True, text=True, check=True).stdout.split()
    out, shows = {}, 0
    for f in (f for f in ls if f.endswith('.ipynb')):
        nb = json.loads(subprocess.run(['git', 'show', f'{rev}:{f}'], capture_output=True, text=True, check=True).stdout)
        src = [''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'code']
        out[f] = [len(s.splitlines()) for s in src if s.startswith('#| export')]
        shows += sum(s.count('show_doc(') for s in src)
    return dict(cells=out, show_doc=shows)

def summary(rev:str='HEAD')->str:
    s = sizes(rev); lines = sorted(l for ls in s['cells'].values() for l in ls); n, tot = len(lines), sum(lines)
    return (f"{rev}: {len(s['cells'])} notebooks, {n} export cells, mean {tot / n:.1f} lines, median {lines[n // 2]}, "
            f"over 30: {sum(l > 30 for l in lines)}, over 60: {sum(l > 60 for l in lines)}, "
            f"share of exported lines in cells over 60: {sum(l for l in lines if l > 60) / tot:.0%}, show_doc calls: {s['show_doc']}")

if __name__ == '__main__':
    for rev in sys.argv[1:] or ['HEAD']: print(summary(rev))
