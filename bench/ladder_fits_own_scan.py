"""Round 37's and 39's check: rungs 1-4 on chosen gallery programs and seeds, recording whether rung 4's fit learned its
training targets better than permuted ones while validation gained nothing (`numbers['fits_own']`, round 37), or failed
`labels` by the formula with no control (`no_control`, round 39). Only such runs can change under those rounds, and
their old verdict is known without running the old tree: `fail(labels)`. The new one is what `_blame_by_splits` made of
it (the validation split's witness, or `init_gap`: the blame stands, or `inconclusive`).

    OMP_NUM_THREADS=1 PYTHONPATH=TREE:TREE/bench python bench/ladder_fits_own_scan.py OUT.json SEEDS NAME...   (SEEDS: 0,1)
    python bench/ladder_fits_own_scan.py --table OUT.json...

Writes {name/seed: dict(kind, v4, c4, fits_own, witness)} after each run (a stopped scan keeps what it did)."""
import sys, json, time
from pathlib import Path

def scan(out:str, seeds:list, names:list):
    import ladder_gallery as G
    res = json.loads(Path(out).read_text()) if Path(out).exists() else {}
    for s in seeds:
        for n in names:
            if f'{n}/{s}' in res: continue
            t = time.time()
            r = G.run(n, s, rungs='1-4')
            r4 = next((x for x in r.rungs if x.rung == 4), None)
            kind = 'healthy' if n in G.HEALTHY else 'broken'
            res[f'{n}/{s}'] = dict(kind=kind, v4=r4 and r4.verdict, c4=r4 and r4.causes, fits_own=bool(r4 and r4.numbers.get('fits_own')), no_control=bool(r4 and 'no_control' in r4.numbers), control=bool(r4 and 'control' in r4.numbers),
                                   witness=r4 and r4.numbers.get('validation_fit', {}).get('verdict'), within_train=r4 and r4.numbers.get('train_fit', {}).get('verdict'), init_gap=bool(r4 and r4.numbers.get('init_gap')), first=[(x.rung, x.verdict, x.causes) for x in r.rungs][:3])
            Path(out).write_text(json.dumps(res, indent=1))
            print(n, s, res[f'{n}/{s}'], f'{time.time() - t:.0f}s', flush=True)

def table(files:list):
    res = {}
    for f in files: res.update(json.loads(Path(f).read_text()))
    hit = {k: v for k, v in res.items() if v['fits_own'] or v.get('no_control') and (v['witness'] or v.get('init_gap'))}
    print(f"{len(res)} runs; {len(hit)} reached a witness (round 37: the fit learned its training targets, validation gained nothing; "
          "round 39: a labels fail by the formula, no control)")
    for k, v in sorted(hit.items()):
        why = ("a fresh model scores the splits apart (init_gap)" if v.get('init_gap', v['witness'] is None) else f"the validation split's fit: {v['witness']}"
               + (f", the same fit within the train split: {v['within_train']}" if v.get('within_train') else ''))
        print(f"  {k} ({v['kind']}{', no control' if v.get('no_control') else ''}): fail(labels) or warn -> {v['v4']}({','.join(v['c4'])}); {why}")
    for kind in ('healthy', 'broken'):
        rs = [v for v in res.values() if v['kind'] == kind]
        bad = [v for v in rs if (v['v4'] == 'fail') == (kind == 'healthy')]
        print(f"  {kind}: {len(rs)} runs, rung 4 {'fail' if kind == 'healthy' else 'not fail'} in {len(bad)}")

if __name__ == '__main__':
    a = sys.argv[1:]
    if a[0] == '--table': table(a[1:])
    else: scan(a[0], [int(s) for s in a[1].split(',')], a[2:])
