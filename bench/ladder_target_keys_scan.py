"""Round 55 (issue 32), measured on the seen programs before the rule: rung 4's control for dict samples with no target key
of ntrain's and a forward of your own (`_key_seen`, round 53) permuted the first key whose permutation changes the
targets; half AQ's ESMM keeps its targets under two keys ('click' and 'buy'), and permuting one alone leaves the other
to learn. For every program whose samples reach `_key_seen`, the keys it now permutes together (the control's slot),
from the fresh model on the first 64 training samples (no training).
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_target_keys_scan.py . 0 /tmp/tk_$p.json $p & done; wait
    python bench/ladder_target_keys_scan.py --table /tmp/tk_0.json /tmp/tk_1.json
Figures: bench/results/r55_target_keys_scan.txt (seed 0; halves A-AQ, all seen after round 54)."""
import sys, os, tempfile


def table(rs:list):
    hit = [d for d in rs if 'keys' in d]
    print(f"{len(rs)} programs read, {len(hit)} reach the control of dict samples with a forward of their own, "
          f"{sum(len(d['keys']) > 1 for d in hit)} with more than one target key, {sum('error' in d for d in rs)} errors")
    for d in sorted(hit, key=lambda d: (-len(d['keys']), d['name'])):
        print(f"  {d['kind']:7} {d['half']:3} {d['name']:45} keys permuted: {d['keys']}")


def fill(f, d):
    import random
    from collections.abc import Mapping
    from torch.utils.data import Subset
    from gallery_scan import ladder_bench
    from ntrain.ladder import small_data as S
    b = ladder_bench(f(d['seed']), tempfile.mkdtemp())
    train = b.task.train
    if not hasattr(train, '__getitem__') or not hasattr(train, '__len__'): return
    first = train[0]
    if not isinstance(first, Mapping) or S.target_slot(b.task, first) is not None: return
    n = min(64, len(train)); sub = Subset(train, range(n)); perm = list(range(n)); random.Random(0).shuffle(perm)
    ds, why = S._key_seen(b, b.model(), sub, perm, first, min(16, n))
    d['keys'] = [] if ds is None else list(ds.slot) if isinstance(ds.slot, tuple) else [ds.slot]


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'keys' in d or 'error' in d, table)
