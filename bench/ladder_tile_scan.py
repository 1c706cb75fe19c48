"""Issue 32, round 65 candidate (measured on the seen programs only): patches of one image cut with overlap and split at
random (half AZ's srcnn_patches_split_after_cutting: 12 x 12 patches with stride 6, passed rung 4 in 10 of 10 seeds), whose
overlaps no run of `shared_windows` holds. No training: for every program and seed, `shared_windows` as rung 4 runs it
(exact, then up to scale and shift), and `ntrain.ladder.small_data.shared_tiles` when what it finds is not on both sides:
validation inputs with three tiles of 4 x 4 values (`TILE_AGREE`) that one training input holds at one other place (rung 4 takes the
tiles when they are on both sides, or when the windows found nothing). Rung 4 judges what it finds as it judges
shared windows (`WINDOW_SURE` of the probed samples with both sides fails `leakage`, `LEAK_SURE` warns, one side notes).
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_tile_scan.py . 0,1 /tmp/tile_$p.json $p & done; wait
    python bench/ladder_tile_scan.py --table /tmp/tile_0.json /tmp/tile_1.json"""
import sys, os
from gallery_scan import print_rows


def fill(f, d):
    import time
    from gallery_scan import program_bench
    from ntrain.ladder.small_data import shared_windows, shared_tiles, both_sides
    from ntrain.ladder.init_loss import rng_kept
    task = program_bench(f, d).task
    if task.raw is not None: d['skip'] = 'raw'; return
    with rng_kept():
        sw = shared_windows(task.train, task.valid)
        if sw is not None and not sw['shared']: sw = shared_windows(task.train, task.valid, scaled=True) or sw
        d['windows'] = None if sw is None else sw['shared']
        if both_sides(sw): return  # rung 4 looks at tiles only when the windows are not on both sides
        t0 = time.time(); st = shared_tiles(task.train, task.valid); d['tile_s'] = round(time.time() - t0, 2)
    if st is not None: d['tiles'] = {k: st[k] for k in ('shared', 'probed', 'checked_train', 'earlier', 'later')}


def table(rs:list):
    from ntrain.ladder.small_data import WINDOW_SURE, LEAK_SURE
    ok = [r for r in rs if r.get('tiles')]
    hit = [r for r in ok if r['tiles']['shared']]
    def verdict(t):
        both = min(t['earlier'], t['later']) >= t['shared'] / 4; share = t['shared'] / t['probed']
        return 'fail' if both and share >= WINDOW_SURE else 'warn' if both and share >= LEAK_SURE else 'note'
    print(f"{len(rs)} runs read; inputs with tiles to compare in {len(ok)} ({len({r['name'] for r in ok})} programs); shared in {len(hit)}: "
          f"healthy {sorted({r['name'] for r in hit if r['kind'] == 'healthy'})}, broken {sorted({r['name'] for r in hit if r['kind'] == 'broken'})}; "
          f"{sum('error' in r for r in rs)} errors; slowest tile scans {sorted((r.get('tile_s', 0), r['name']) for r in rs)[-3:]}")
    print_rows(hit, lambda r: f"{r['tiles']['shared']} of {r['tiles']['probed']} (earlier {r['tiles']['earlier']}, later {r['tiles']['later']}; "
               f"{r['tiles']['checked_train']} training inputs): {verdict(r['tiles'])}")


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'error' in d or (d.get('tiles') or {}).get('shared'), table)
