"""Rung 2's verdict on every program of the ladder's gallery (rungs 1-2, each seed given), for comparing two checkouts.

    OMP_NUM_THREADS=1 PYTHONPATH=TREE:TREE/bench python bench/rung2_scan.py OUT.json 0,1

Writes {name/seed: dict(v=verdict, c=causes, z=zero_output_ratio, sd=outputs_std)} after each program (a stopped scan
keeps what it did). Round 23 compared this checkout with the one before it this way: only mmoe_linear_init_std1 changed."""
import sys, json, time
import ladder_gallery as G

def scan(out:str, seeds:list):
    names, res = list(G.HEALTHY) + list(G.BROKEN), {}
    for s in seeds:
        for n in names:
            t = time.time()
            try:
                r = G.run(n, s, rungs='1-2').rung(2)
                res[f'{n}/{s}'] = dict(v=None, c=None, t=time.time() - t) if r is None else dict(
                    v=r.verdict, c=r.causes, z=r.numbers.get('zero_output_ratio'), sd=r.numbers.get('outputs_std'), t=time.time() - t)
            except Exception as e: res[f'{n}/{s}'] = dict(v='error', c=[repr(e)[:200]], t=time.time() - t)
            with open(out, 'w') as f: json.dump(res, f, indent=0)

if __name__ == '__main__': scan(sys.argv[1], [int(s) for s in sys.argv[2].split(',')])
