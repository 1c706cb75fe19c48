"""Strip widget state from notebooks: `metadata.widgets` and every widget-view output (nbdev_clean keeps both).

Usage: python tests/strip_widgets.py NOTEBOOK...   (what a saved notebook keeps then: the panels' static PNG and tables)
"""
import json, sys
from pathlib import Path

WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json'

def strip(nb:dict)->dict:
    "The notebook without widget state; outputs that held only a widget view are dropped, the others keep their other formats."
    nb.get('metadata', {}).pop('widgets', None)
    for c in nb.get('cells', []):
        outs = []
        for o in c.get('outputs', []):
            data = o.get('data')
            if isinstance(data, dict) and WIDGET_VIEW in data:
                data.pop(WIDGET_VIEW)
                if not [k for k in data if k != 'text/plain']: continue
            outs.append(o)
        if 'outputs' in c: c['outputs'] = outs
    return nb

def widget_state(nb:dict)->list:
    "Where a notebook holds widget state: ['metadata.widgets', 'cell 3', ...]."
    out = ['metadata.widgets'] if 'widgets' in nb.get('metadata', {}) else []
    for i, c in enumerate(nb.get('cells', [])):
        if any(WIDGET_VIEW in (o.get('data') or {}) for o in c.get('outputs', [])): out.append(f'cell {i}')
    return out

if __name__ == '__main__':
    for p in map(Path, sys.argv[1:]):
        nb = json.loads(p.read_text())
        if widget_state(nb): p.write_text(json.dumps(strip(nb), indent=1, ensure_ascii=False) + '\n'); print(f'stripped {p}')
