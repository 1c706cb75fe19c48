"""Round 61 (issue 32), measured on the seen programs: cross-entropy whose class targets name each row's positive by its
place (half AT's MoCo: every target 0, the positive key first; in-batch pairs: each row its own index), where an initial
loss far below ln C is the contrastive structure at work, not a bug. For every program under cross-entropy, the targets
the forward returns for the first training batch (a fresh model, no training): `positives_by_position`.
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_positives_scan.py . 0,1 /tmp/pp_$p.json $p & done; wait
    python bench/ladder_positives_scan.py --table /tmp/pp_0.json /tmp/pp_1.json
Figures: bench/results/r61_positives_scan.txt (seeds 0 and 1; halves A-AU)."""
import sys, os
from gallery_scan import print_rows


def table(rs:list):
    ce, hit = [d for d in rs if d.get('ce')], [d for d in rs if d.get('positional')]
    print(f"{len(rs)} runs read (program x seed); cross-entropy in {len(ce)}; targets by position in {len(hit)}; {sum('error' in d for d in rs)} errors")
    print_rows(hit, lambda d: d['how'])


def fill(f, d):
    import torch
    from gallery_scan import program_bench
    from ntrain.ladder import init_loss as I
    from ntrain.core import to_device
    b = program_bench(f, d)
    d['ce'] = bool(b.is_ce)
    if not b.is_ce: return
    with torch.no_grad(): _, t = b.forward(b.model().eval(), to_device(b.first_batch()[0], b.device))
    if I.positives_by_position(t): d.update(positional=True, how='one class' if bool((t == t[0]).all()) else 'each row its index')


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: d.get('positional') or 'error' in d, table)
