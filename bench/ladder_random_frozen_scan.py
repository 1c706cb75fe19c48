"""Round 63 (issue 32), measured on the seen programs: parameters frozen at a random init (half AX's context tower, frozen
by a fine-tuning script whose weights were never loaded), which rung 3 passed as a linear probe. For every program (no
training; seeds given), the parameters that require no gradient, less those the model moves by itself over 5 + 5 of rung
3's steps (`own_state`), and of them those at a random init (`random_frozen`: two builds under two seeds differ). Rung 3
warns `frozen` for these, unless it fails.
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_random_frozen_scan.py . 0,1 /tmp/rf_$p.json $p & done; wait
    python bench/ladder_random_frozen_scan.py --table /tmp/rf_0.json /tmp/rf_1.json
Figures: bench/results/r63_random_frozen_scan.txt (seeds 0 and 1)."""
import sys, os
from gallery_scan import print_rows


def table(rs:list):
    fr = [d for d in rs if d.get('frozen')]
    rnd = [d for d in rs if d.get('random')]
    print(f"{len(rs)} runs read (program x seed); frozen parameters (not moved by the model) in {len(fr)} ({len({d['name'] for d in fr})} programs); "
          f"at a random init in {len(rnd)} ({len({d['name'] for d in rnd})} programs: healthy {len({d['name'] for d in rnd if d['kind'] == 'healthy'})}); "
          f"{sum('error' in d for d in rs)} errors")
    print_rows(fr, lambda d: f"{len(d['frozen'])} frozen, {len(d['random'])} at a random init: {', '.join(d['random'][:3])}")


def fill(f, d):
    import copy
    from gallery_scan import program_bench
    from ntrain.core import to_device
    from ntrain.ladder.overfit import own_state, random_frozen
    b = program_bench(f, d)
    m = b.model().train()
    frozen = [k for k, p in m.named_parameters() if not p.requires_grad]
    if not frozen: d['frozen'] = []; return
    o = b.optimizer(m); batch = to_device(b.first_batch()[0], b.device); init = copy.deepcopy(m.state_dict())
    for _ in range(5): b.train_step(m, o, batch)
    later = copy.deepcopy(m.state_dict())
    for _ in range(5): b.train_step(m, o, batch)
    own = own_state(m, init, later)
    d['frozen'] = [k for k in frozen if k not in own]
    d['random'] = random_frozen(b, d['frozen'])


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: d.get('random') or 'error' in d, table)
