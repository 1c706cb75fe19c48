"""Round 52 (issue 32): rungs 1-4 of every seen program whose rung-4 control was once called diverged in a recorded sweep
(bench/results/ladder_sweep_*.json), at up to two of those seeds, on this tree: which still diverge, and the verdicts
where the control now stands (`train_start`). `python bench/ladder_control_start_rerun.py OUT.jsonl PART NPARTS` (two
processes: PART 0 and 1 of 2; about 25 min). Figures: bench/results/r52_control_start.jsonl. Part 0 of
the recorded figures ran before `VAL_WORSE` (multvae_heldout_users_misaligned seed 1 was `inconclusive` there; it fails `labels` now)."""
import sys, json, glob, time, collections
import os; here = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, here); sys.path.insert(0, os.path.dirname(here))
import ladder_gallery as G
out, part, nparts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
c = collections.defaultdict(set)
for f in sorted(glob.glob(os.path.join(here, 'results', 'ladder_sweep_*.json'))):
    try: d = json.load(open(f))
    except Exception: continue
    rows = d['rows'] if isinstance(d, dict) and 'rows' in d else d
    if not isinstance(rows, list): continue
    for row in rows:
        if not isinstance(row, dict) or 'runs' not in row: continue
        for run in row['runs']:
            r4 = run.get('rungs', {}).get('4')
            if r4 and 'control diverged' in r4.get('diagnosis', ''): c[row['name']].add(run['seed'])
jobs = sorted((n, s) for n, ss in c.items() if n in G.HALF for s in sorted(ss)[:2])
for i, (n, s) in enumerate(jobs):
    if i % nparts != part: continue
    t = time.time()
    try:
        res = G.run(n, s, rungs='1-4'); r4 = res.rung(4)
        d = dict(name=n, seed=s, kind='healthy' if n in G.HEALTHY else 'broken', verdicts={k: (r.verdict, r.causes) for k, r in enumerate(res.rungs, 1)} if isinstance(res.rungs, list) else {k: (r.verdict, r.causes) for k, r in res.rungs.items()},
                 diverged='control diverged' in (r4.diagnosis if r4 else ''), diag=(r4.diagnosis[:400] if r4 else None))
    except Exception as e: d = dict(name=n, seed=s, error=repr(e)[:300])
    d['s'] = round(time.time() - t, 1)
    with open(out, 'a') as fh: fh.write(json.dumps(d, default=str) + '\n')
    print(d['name'], d['seed'], d.get('verdicts', d.get('error')), d.get('diverged'), d['s'], flush=True)
