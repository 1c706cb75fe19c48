"""Round 62 (issue 32), measured on the seen programs: a model that moves state of its own as it trains, outside the
optimizer (half AT's MoCo v2: a momentum key encoder whose parameters require no gradient, and a queue of keys filled in
every training forward). On one batch its queue fills with the batch's own keys and the loss rises, which rung 3 failed as
`lr_high` and `frozen`. For every program, a fresh model takes 5 of rung 3's steps on its first training batch, then 5
more, and `own_state` names the tensors that moved by themselves over both (a flag set once, at a data-dependent init, is
left out): these are the programs `held_still` may judge (only when rung 3
fails for `MOVING` causes alone).
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_own_state_scan.py . 0,1 /tmp/os_$p.json $p & done; wait
    python bench/ladder_own_state_scan.py --table /tmp/os_0.json /tmp/os_1.json
Figures: bench/results/r62_own_state_scan.txt (seeds 0 and 1)."""
import sys, os
from gallery_scan import print_rows


def table(rs:list):
    own = [d for d in rs if d.get('own')]
    print(f"{len(rs)} runs read (program x seed); state of its own moved in {len(own)} ({len({d['name'] for d in own})} programs); "
          f"{sum('error' in d for d in rs)} errors")
    print_rows(own, lambda d: f"{len(d['own'])} tensors: {', '.join(d['own'][:4])}{' ...' if len(d['own']) > 4 else ''}")


def fill(f, d):
    import copy, torch
    from gallery_scan import program_bench
    from ntrain.core import to_device
    from ntrain.ladder.overfit import own_state
    b = program_bench(f, d)
    m = b.model().train(); o = b.optimizer(m); batch = to_device(b.first_batch()[0], b.device)
    init = copy.deepcopy(m.state_dict())
    for _ in range(5): b.train_step(m, o, batch)
    later = copy.deepcopy(m.state_dict())
    for _ in range(5): b.train_step(m, o, batch)
    d["own"] = own_state(m, init, later)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: d.get('own') or 'error' in d, table)
