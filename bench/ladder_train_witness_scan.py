"""A candidate for round 64 (issue 32), not applied: rung 4's `labels` blame with a validation split too small for its
own witness (under 2 x SWAP_MIN samples) asks the train split (`_blame_by_splits`), and the blame stands unless that fit
passes *and* its training loss ends below every permutation's. Half AY's IPNN on an ad log (an embedding per id memorises
permuted clicks as well as real ones) passed within the train split (val_auroc 0.52 -> 0.58) with a training loss above
one permutation's, and failed `labels` in seed 0. The candidate: a pass there suffices (`v.verdict == 'pass'` beside `ok`
in `_blame_by_splits`), as the notebook's prose already says ("when it learns there (it beats its permutations ...)").
This scan measures it: the programs whose rung 4 failed `labels` in some held-out sweep (CANDIDATES.json: [kind, name,
[seeds]], from bench/results/ladder_sweep_r*_heldout_*.json), with a validation split under 2 x SWAP_MIN; rung 4 runs again
on the seeds that failed (at most 3 each) on the tree with the change, and `flipped` says whether the change decided it
(the train witness passed with a training loss not below its permutations'). Slow: some runs take minutes; run it on an
idle machine (in 2026-12-07's session it could not finish beside four sweeps).
    python bench/ladder_train_witness_scan.py --candidates CANDIDATES.json
    OMP_NUM_THREADS=1 python bench/ladder_train_witness_scan.py CANDIDATES.json OUT.jsonl
    python bench/ladder_train_witness_scan.py --table OUT.jsonl"""
import sys, os, json, time, tempfile


def table(f):
    rs = [json.loads(l) for l in open(f)]
    print(f"{len(rs)} runs; small validation in {sum(r.get('small', False) for r in rs)}; decided by the new condition in {sum(r.get('flipped', False) for r in rs)}")
    for r in rs:
        if r.get('small'): print(f"  {r['kind']:7} {r['name']:45} seed {r['seed']}  {r.get('verdict')} {r.get('causes')}  train_fit {r.get('train_fit')}  {'FLIPPED' if r.get('flipped') else ''}")


def main(cands, out):
    here = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, here); sys.path.insert(0, os.path.dirname(here))
    import ladder_gallery as G
    from gallery_scan import program_bench
    from ntrain.ladder.small_data import SWAP_MIN
    for kind, name, seeds in json.load(open(cands)):
        f = G.HEALTHY.get(name) or (G.BROKEN[name][0] if name in G.BROKEN else None)
        if f is None: continue
        try: nv = len(program_bench(f, dict(seed=seeds[0])).task.valid)
        except Exception as e: nv = None
        if nv is None or nv >= 2 * SWAP_MIN:
            with open(out, 'a') as fh: fh.write(json.dumps(dict(kind=kind, name=name, seed=seeds[0], small=False, valid=nv)) + '\n')
            continue
        for s in seeds[:3]:
            t = time.time()
            try:
                r = G.run(name, s, rungs='4').rung(4); tf = r.numbers.get('train_fit')
                flipped = bool(tf and tf['verdict'] == 'pass' and tf['control_train_ends'] and tf['train_loss_end'] >= min(tf['control_train_ends'])
                               and r.verdict == 'warn' and 'inconclusive' in r.causes)
                d = dict(kind=kind, name=name, seed=s, small=True, valid=nv, verdict=r.verdict, causes=r.causes, flipped=flipped,
                         train_fit=tf and {k: tf[k] for k in ('verdict', 'train_loss_end', 'control_train_ends')})
            except Exception as e: d = dict(kind=kind, name=name, seed=s, small=True, error=repr(e)[:200])
            d['s'] = round(time.time() - t, 1)
            with open(out, 'a') as fh: fh.write(json.dumps(d) + '\n')
            print(d, flush=True)


def candidates(out):
    "[kind, name, [seeds]] of every program whose rung 4 failed `labels` in a held-out sweep under bench/results, into `out`."
    import glob, collections
    here = os.path.dirname(os.path.abspath(__file__)); c = collections.defaultdict(set)
    for f in sorted(glob.glob(os.path.join(here, 'results', 'ladder_sweep_r*_heldout_*.json'))):
        for row in json.load(open(f))['rows']:
            for i, run in enumerate(row['runs']):
                r4 = run.get('rungs', {}).get('4')
                if r4 and r4['verdict'] == 'fail' and 'labels' in r4['causes']: c[(row['kind'], row['name'])].add(run.get('seed', i))
    json.dump([[k[0], k[1], sorted(v)] for k, v in c.items()], open(out, 'w'))
    print(f"{len(c)} programs, {sum(len(v) for v in c.values())} runs")


if __name__ == '__main__':
    if sys.argv[1] == '--table': table(sys.argv[2])
    elif sys.argv[1] == '--candidates': candidates(sys.argv[2])
    else: main(sys.argv[1], sys.argv[2])
