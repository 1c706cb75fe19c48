"""Round 33's `target_in_inputs` over every gallery program's training data (no training): which programs' float targets are
their own input columns up to scale and shift, and how close every other comes (the largest share of a target column's
spread its best input column leaves); from round 40, class targets held by one input position too. Halves still held
out (`HELD_OUT`) are left out. Two halves side by side:
`for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_input_copy_scan.py . 0,1 /tmp/tin_$p.json $p & done; wait` (about 5 min),
then `python bench/ladder_input_copy_scan.py --table /tmp/tin_0.json /tmp/tin_1.json`. Figures: bench/results/r33_input_copy_scan.txt, r40_class_in_inputs_scan.txt."""
import sys, json, time
HELD_OUT = ('Z',)  # halves not seen yet (round 40: A-Y are all seen)
if sys.argv[1] == '--table':
    rs = [d for f in sys.argv[2:] for d in json.load(open(f))]
    print(f"{len(rs)} runs ({len({d['name'] for d in rs})} programs, seeds {sorted({d['seed'] for d in rs})}), {sum('error' in d for d in rs)} errors; flagged:")
    for d in rs:
        if d.get('r'): print(f"  {d['kind']:7} {d['half']} {d['name']} seed {d['seed']}: {d['r']}")
    sys.exit()
from gallery_scan import scan_setup
seeds, out, G, S, names = scan_setup(HELD_OUT); res = []
for seed in seeds:
    for name, kind in names:
        f = G.HEALTHY[name] if name in G.HEALTHY else G.BROKEN[name][0]
        t0 = time.time()
        try: d = dict(name=name, kind=kind, half=G.HALF[name], seed=seed, r=S.target_in_inputs(f(seed)['train']))
        except Exception as e: d = dict(name=name, kind=kind, half=G.HALF.get(name), seed=seed, error=repr(e)[:200])
        d['s'] = round(time.time() - t0, 2); res.append(d); json.dump(res, open(out, 'w'))
        if d.get('r'): print(d, flush=True)
print('done', flush=True)
