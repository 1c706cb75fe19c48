"""How far below every control's best a validation loss went in rung 4's fails judged no better than the controls (the
diagnosis says "no better than", whatever the cause: `labels` mostly), over every sweep recorded in
bench/results/ladder_sweep_*.json (read from each run's diagnosis: its val_loss and the best control's); the round 29 rule
`FAR_BELOW` never fails a loss under that fraction of the best control's. (Leakage fails of rows whose fit beat the
controls are not judged by it, and are not counted.) Prints the ratios (val_loss / best control) of
each kind, lowest first. `python bench/ladder_far_below_scan.py > bench/results/r29_far_below.txt` (seconds)."""
import json, glob, re
from pathlib import Path
HERE = Path(__file__).parent
ratios = dict(broken=[], healthy=[])
files = sorted(glob.glob(str(HERE / 'results' / 'ladder_sweep_*.json')))
for f in files:
    try: d = json.load(open(f))
    except ValueError: continue
    for row in d.get('rows', []):
        for r in row['runs']:
            v = r.get('rungs', {}).get('4')
            if not v or v['verdict'] != 'fail' or 'no better than' not in v['diagnosis']: continue
            m = re.search(r'val_loss (\S+) -> (\S+) on', v['diagnosis'])
            mb = re.search(r'the best of all \d controls is val_loss (\S+)', v['diagnosis']) or re.search(r'reached val_loss (\S+) at best', v['diagnosis'])
            if not (m and mb): continue
            try: fl, cb = float(m.group(2).rstrip(',:;')), float(mb.group(1).rstrip(',:;)'))
            except ValueError: continue
            ratios[row['kind']].append((fl / cb if cb > 0 else float('nan'), row['name'], r['seed'], Path(f).name))
print(f'{len(files)} sweep files; rung 4 fails judged no better than the controls, whose val_loss and best control could be read: '
      + ', '.join(f'{k} {len(v)}' for k, v in ratios.items()))
for kind, xs in ratios.items():
    below = sorted(x for x in xs if x[0] < 1)
    print(f'\n{kind}: {len(below)} of {len(xs)} below every control\'s best; val_loss / best control, lowest first:')
    for x in below[:30]: print(f'  {x[0]:.3f}  {x[1]} seed {x[2]} ({x[3]})')
