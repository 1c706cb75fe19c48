"""Rung 2's verdict on every program of the ladder's gallery (rungs 1-2, each seed given), for comparing two checkouts.

    OMP_NUM_THREADS=1 PYTHONPATH=TREE:TREE/bench python bench/rung2_scan.py OUT.json 0,1 [PART]

Writes {name/seed: dict(v=verdict, c=causes, z=zero_output_ratio, sd=outputs_std, theory, last, v1, c1)} after each program (a
stopped scan keeps what it did); `last` is the last layer at init (`last_layer`: its gain, its inputs' and outputs' rms),
where the checkout has it. PART 0 or 1 takes every other program, for two processes side by side (about 2 min each).
Round 23 compared this checkout with the one before it this way: only mmoe_linear_init_std1 changed; round 28 likewise
(bench/results/r28_last_layer_scan.txt): only vonmises_normal_init. `v1`, `c1`: rung 1's verdict and causes (round 30,
bench/results/r30_rung1_scan.txt)."""
import sys, json, time, importlib
import ladder_gallery as G

R, I = importlib.import_module('ntrain.ladder.rungs'), importlib.import_module('ntrain.ladder.init_loss')

def _measured(rung2):
    "Rung 2 as it is, with the last layer at init in its numbers (`scan_last`), where this checkout can measure it."
    def wrapped(b):
        r = rung2(b)
        if hasattr(I, 'last_layer'): r.numbers['scan_last'] = I.last_layer(b)
        return r
    return wrapped

def scan(out:str, seeds:list, part=None):
    names, res = list(G.HEALTHY) + list(G.BROKEN), {}
    if part is not None: names = names[part::2]
    R.RUNGS[2] = _measured(R.RUNGS[2])
    for s in seeds:
        for n in names:
            t = time.time()
            try:
                got = G.run(n, s, rungs='1-2'); r, r1 = got.rung(2), got.rung(1)
                res[f'{n}/{s}'] = dict(v=None, c=None, t=time.time() - t) if r is None else dict(
                    v=r.verdict, c=r.causes, z=r.numbers.get('zero_output_ratio'), sd=r.numbers.get('outputs_std'),
                    theory=r.numbers.get('expected') is not None, last=r.numbers.get('scan_last'), t=time.time() - t)
                if r1 is not None: res[f'{n}/{s}'].update(v1=r1.verdict, c1=r1.causes)  # rung 1's too (round 30 compares it)
            except Exception as e: res[f'{n}/{s}'] = dict(v='error', c=[repr(e)[:200]], t=time.time() - t)
            with open(out, 'w') as f: json.dump(res, f, indent=0)

if __name__ == '__main__': scan(sys.argv[1], [int(s) for s in sys.argv[2].split(',')], int(sys.argv[3]) if len(sys.argv) > 3 else None)
