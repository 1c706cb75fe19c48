"""Issue 32, round 69 (measured on the seen programs only): `shared_windows` (round 58) fails rung 4 `leakage` when
validation inputs hold a run of `WINDOW_STEPS` input steps that a training input holds bit for bit at another place:
windows of one recording cut with overlap, then split at random. Half BI's DeepDDI MLP (healthy: drug pairs split first,
each side given both orders) failed it in 10 of 10 seeds: its input is two drugs' similarity profiles side by side, and a
drug of a validation pair sits in many training pairs, in the other slot of some. Round 69: a run that several training
inputs hold at one place is a block they share (an entity's descriptor), not a window's overlap, unless one training input
holds the sample's runs at two shifts (its parts rearranged: the same pair in the other order); `blocks` counts the samples
left out. No training: for every program and seed, `shared_windows` (and its scaled form where the plain one shares none,
as rung 4 asks them) on the tree given, so two trees compare:
    for t in OLD NEW; do for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_window_block_scan.py $t 0,1 /tmp/wb_$(basename $t)_$p.json $p & done; done; wait
    python bench/ladder_window_block_scan.py --table /tmp/wb_OLD_0.json /tmp/wb_OLD_1.json -- /tmp/wb_NEW_0.json /tmp/wb_NEW_1.json"""
import sys, os
from gallery_scan import print_rows


def fill(f, d):
    from gallery_scan import program_bench
    from ntrain.ladder import small_data as S
    from ntrain.ladder.init_loss import rng_kept
    task = program_bench(f, d).task
    if task.raw is not None: d['skip'] = 'raw'; return
    with rng_kept():
        sw = S.shared_windows(task.train, task.valid)
        if sw is not None and not sw['shared'] and (ss := S.shared_windows(task.train, task.valid, scaled=True)) is not None and ss['shared']: sw = dict(ss, scaled=True)
    d['sw'] = None if sw is None else dict(shared=sw['shared'], probed=sw['probed'], both=S.both_sides(sw), scaled=bool(sw.get('scaled')), blocks=sw.get('blocks'))


def verdict(sw):
    "What rung 4's window notes make of it: fail from `WINDOW_SURE` on both sides, warn from `LEAK_SURE`, else none."
    from ntrain.ladder.small_data import WINDOW_SURE, LEAK_SURE
    if not sw or not sw['shared'] or not sw['both']: return 'none'
    s = sw['shared'] / sw['probed']
    return 'fail' if s >= WINDOW_SURE else 'warn' if s >= LEAK_SURE else 'none'


def table(old:list, new:list):
    key = lambda r: (r['name'], r['seed'])
    o = {key(r): r for r in old}
    both = [(o[key(r)], r) for r in new if key(r) in o]
    hit = [(a, b) for a, b in both if (a.get('sw') or {}).get('shared') or (b.get('sw') or {}).get('shared')]
    print(f"{len(both)} runs on both trees; a shared window on either in {len(hit)}; {sum('error' in r for r in old + new)} errors")
    ch = [(a, b) for a, b in hit if verdict(a.get('sw')) != verdict(b.get('sw'))]
    print(f"verdicts that change: healthy {sorted({b['name'] for a, b in ch if b['kind'] == 'healthy'})}, broken {sorted({b['name'] for a, b in ch if b['kind'] == 'broken'})}")
    fmt = lambda sw: 'None' if not sw else f"{sw['shared']} of {sw['probed']}{' scaled' if sw['scaled'] else ''}{'' if sw['both'] else ' one side'}"
    print_rows([dict(b, old=a.get('sw')) for a, b in hit], lambda r: f"before: {fmt(r['old'])} ({verdict(r['old'])}); after: {fmt(r.get('sw'))} ({verdict(r.get('sw'))}), blocks {(r.get('sw') or {}).get('blocks')}")


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if sys.argv[1] == '--table':
        import json
        a = sys.argv[2:]; i = a.index('--')
        table([d for f in a[:i] for d in json.load(open(f))], [d for f in a[i + 1:] for d in json.load(open(f))])
    else:
        from gallery_scan import scan_main
        scan_main(fill, lambda d: 'error' in d or (d.get('sw') or {}).get('shared') or (d.get('sw') or {}).get('blocks'), None)
