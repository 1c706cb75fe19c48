"""Issue 32, round 67 candidate (measured on the seen programs only): `target_copies` (round 48) fails rung 4 `leakage` when
validation targets' first `COPY_ROWS` (8) rows appear verbatim in training samples, and took a probe with 4 distinct values
of 8 (`COPY_DISTINCT`) as evidence. Half BD's dereverberation DNN (healthy, split by utterance) failed it in 10 of 10 seeds:
its targets are clean log spectra of 32 bins, read as 32 rows of one value, and the floor (`log(1e-3)`, exactly, wherever no
harmonic reaches) makes many frames' first bins the same bits. No training: for every program and seed, `target_copies` at
`COPY_DISTINCT` 4 and 8.
Found (bench/results/r67_target_copy_scan.txt, halves A-BE, seeds 0-1): at 8 the dereverberation DNN still shares 173 of 360,
so distinct values do not explain it: its targets are standardised per bin, and the floor frame becomes one vector of 32
distinct values, the same in every silent frame of every utterance. Asking for 8 of 8 would only lose a catch (half AO's
tox21_nan_labels_unmasked); not applied. What tells the floor from a forecast's window is where the match sits (the same
place in a training target, against another place or an input).
Round 67 (applied): a match only at the start of a training target is no evidence (`in_place`); the scan records both
(bench/results/r67_copy_place_scan.txt, halves A-BE, seeds 0-1): the dereverberation DNN's 173-182 of 360 become 0, its
lr twin's too (caught at rung 3), and every other verdict stays (the four windows split at random, 135-936 of each).
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_target_copy_scan.py . 0,1 /tmp/tc_$p.json $p & done; wait
    python bench/ladder_target_copy_scan.py --table /tmp/tc_0.json /tmp/tc_1.json"""
import sys, os
from gallery_scan import print_rows


def fill(f, d):
    from gallery_scan import program_bench
    from ntrain.ladder import small_data as S
    from ntrain.ladder.init_loss import rng_kept
    task = program_bench(f, d).task
    if task.raw is not None: d['skip'] = 'raw'; return
    for k in (4, 8):
        S.COPY_DISTINCT = k
        with rng_kept(): tc = S.target_copies(task.train, task.valid)
        d[f'd{k}'] = None if tc is None else [tc['shared'] + tc['in_place'], tc['probed']]  # round 66 counted both
        if tc is None: break  # no target sequences, or quantised: the same at 8
        if k == 4: d['place'] = [tc['shared'], tc['probed']]  # round 67: a match at the same place of a training target is none
    S.COPY_DISTINCT = 4


def table(rs:list):
    from ntrain.ladder.small_data import LEAK_SURE
    ok = [r for r in rs if r.get('d4')]
    def v(x): return 'none' if not x or not x[0] else 'fail' if x[0] >= LEAK_SURE * x[1] else 'warn'
    ch = [r for r in ok if v(r['d4']) != v(r.get('d8'))]
    hit = [r for r in ok if r['d4'][0]]
    print(f"{len(rs)} runs read; target sequences in {len(ok)}; shared at COPY_DISTINCT 4 in {len(hit)}; verdicts that change at 8 in {len(ch)}: "
          f"healthy {sorted({r['name'] for r in ch if r['kind'] == 'healthy'})}, broken {sorted({r['name'] for r in ch if r['kind'] == 'broken'})}; "
          f"{sum('error' in r for r in rs)} errors")
    print_rows(hit, lambda r: f"at 4: {r['d4'][0]} of {r['d4'][1]} ({v(r['d4'])}); at 8: {r['d8'] and r['d8'][0]} of {r['d8'] and r['d8'][1]} ({v(r.get('d8'))})"
                              + (f"; elsewhere (round 67): {r['place'][0]} ({v(r['place'])})" if 'place' in r else ''))
    pl = [r for r in ok if 'place' in r and v(r['d4']) != v(r['place'])]
    print(f"verdicts that change when a match at the same place of a training target is none (round 67): healthy "
          f"{sorted({r['name'] for r in pl if r['kind'] == 'healthy'})}, broken {sorted({r['name'] for r in pl if r['kind'] == 'broken'})}")


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'error' in d or (d.get('d4') or [0])[0], table)
