"""Round 62 (issue 32), measured on the seen programs: a next-step model that sees the step it predicts (half AT's
WaveNet on mu-law codes with 'same' padding: x = codes[:-1], y = codes[1:], each output reads the next code, its target),
which rung 4 did not catch (its validation falls with the copy). For every program, `next_inputs` (the input item that,
shifted one step, is the target) and, where there is one, `reads_next_target` on a fresh model (no training): the probes
whose prediction moves when only the next input changes. Rung 4 fails `leakage` when it moves in most probes.
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_next_scan.py . 0,1 /tmp/nx_$p.json $p & done; wait
    python bench/ladder_next_scan.py --table /tmp/nx_0.json /tmp/nx_1.json
Figures: bench/results/r62_next_scan.txt (seeds 0 and 1)."""
import sys, os
from gallery_scan import print_rows


def table(rs:list):
    found = [d for d in rs if d.get('item') is not None]
    fails = [d for d in found if d.get('next') and d['next']['sees'] * 2 > d['next']['probes']]
    print(f"{len(rs)} runs read (program x seed); targets an input shifted one step in {len(found)} ({len({d['name'] for d in found})} programs); "
          f"rung 4 would fail `leakage` in {len(fails)} (healthy {sum(d['kind'] == 'healthy' for d in fails)}); {sum('error' in d for d in rs)} errors")
    print_rows(found, lambda d: f"item {d['item']!r}: " + (f"moves in {d['next']['sees']} of {d['next']['probes']} probes" if d.get('next') else 'not probed (no position per target, or a random forward)'))


def fill(f, d):
    from gallery_scan import program_bench
    from ntrain.ladder import small_data as S
    b = program_bench(f, d)
    d['item'] = S.next_inputs(b.task, b.task.train)
    if d['item'] is not None: d['next'] = S.reads_next_target(b, b.model(), b.task.train)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: d.get('item') is not None or 'error' in d, table)
