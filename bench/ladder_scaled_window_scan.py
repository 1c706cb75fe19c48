"""Round 63 (issue 32), measured on the seen programs: `shared_windows(scaled=True)`, runs compared up to scale and shift
(each run z-scored on its own), which rung 4 asks when no run is shared bit for bit. Half AY's LSTM-FCN cut overlapping
windows of machine recordings and z-scored each one (the UCR custom) before a split at random, and passed rung 4: no run
was the same bit for bit. For every program (no training; seeds given), `shared_windows` as rung 4 reads it, bit for bit
and scaled, and what rung 4 would say of the scaled one where the exact one finds nothing (fail from `WINDOW_SURE` with
both sides, warn from `LEAK_SURE`, a note on one side).
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_scaled_window_scan.py . 0,1 /tmp/sw_$p.json $p & done; wait
    python bench/ladder_scaled_window_scan.py --table /tmp/sw_0.json /tmp/sw_1.json
Figures: bench/results/r63_scaled_window_scan.txt (seeds 0 and 1)."""
import sys, os
from gallery_scan import print_rows


def verdict(sw):
    from ntrain.ladder import small_data as S
    if not sw or not sw['shared']: return None
    both = min(sw['earlier'], sw['later']) >= sw['shared'] / 4; share = sw['shared'] / sw['probed']
    return 'fail' if both and share >= S.WINDOW_SURE else 'warn' if both and share >= S.LEAK_SURE else 'note' if not both else None


def table(rs:list):
    new = [d for d in rs if not (d.get('exact') or {}).get('shared') and verdict(d.get('scaled'))]
    print(f"{len(rs)} runs read (program x seed); checked in {sum(d.get('exact') is not None for d in rs)}; nothing shared bit for bit "
          f"but shared up to scale and shift in {len(new)} ({len({d['name'] for d in new})} programs); {sum('error' in d for d in rs)} errors")
    for v in ('fail', 'warn', 'note'):
        print_rows([d for d in new if verdict(d['scaled']) == v], lambda d: f"{v}: {d['scaled']}")


def fill(f, d):
    from ntrain.ladder import small_data as S
    kw = f(d['seed']); tr, va = (kw['task'].train, kw['task'].valid) if 'task' in kw else (kw['train'], kw.get('valid'))
    if va is not None and hasattr(tr, '__getitem__') and hasattr(va, '__getitem__') and not kw.get('raw') and getattr(kw.get('task'), 'raw', None) is None:
        d['exact'] = S.shared_windows(tr, va)
        if d['exact'] is not None and not d['exact']['shared']: d['scaled'] = S.shared_windows(tr, va, scaled=True)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: verdict(d.get('scaled')) or 'error' in d, table)
