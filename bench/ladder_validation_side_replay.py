"""Round 35: replay `taught_as_much` on every rung 4 the validation side blamed (`labels`, "the model learns from the
validation targets but not from the training targets") in the gallery sweeps stored under bench/results. The rule reads
only numbers the diagnosis prints (the fit's metric and the validation fit's), so the replay is exact: a run whose training
targets took the metric as far as the validation ones becomes inconclusive. Usage: python bench/ladder_validation_side_replay.py"""
import json, glob, re, collections
seen = {}
for f in sorted(glob.glob('bench/results/ladder_sweep*.json')):
    try: d = json.load(open(f))
    except Exception: continue
    for row in d.get('rows', []):
        for run in row['runs']:
            r4 = run.get('rungs', {}).get('4')
            if not r4: continue
            dg = r4['diagnosis']
            if not dg.startswith('the model learns from the validation targets'): continue
            m = re.search(r'and (\S+) went (\S+) -> (\S+?); trained the same way on (\d+) validation samples and judged on the other (\d+), it beat every permutation of them \((\S+) (\S+) -> (\S+?),', dg)
            key = (row['name'], run['seed'], f)
            seen[key] = (row['kind'], row['expect'] if 'expect' in row else '', m.groups() if m else dg[:300], run['wrong'])
for k, v in sorted(seen.items()): print(k[0], k[1], k[2].split('/')[-1], v[0], v[3], v[2])
print('--- replay of taught_as_much')
ch = 0
for k, v in sorted(seen.items()):
    g = v[2]
    if not isinstance(g, tuple): print('unparsed', k); continue
    metric, s, fin, _, _, vm, vs, vf = g
    t = float(fin) <= float(vf) if metric == 'val_loss' else float(fin) >= float(vf)
    if t: ch += 1; print('CHANGES', k[0], k[1], v[0], metric, fin, vf)
print(f'{len(seen)} runs failed labels by the validation side; {ch} become inconclusive')
