"""Issue 32, round 64 candidate (measured on the seen programs only): parameters the model holds but never registered (half
AZ's DRAW with its latent heads in a Python list, half BA's TAGCN with its hop weights in one), which train nothing while the
rest of the model learns around them. No training beyond one step: for every program and seed, a fresh model, its optimizer
and one training step on rung 1's batch (`Bench.train_step`), then `ntrain.ladder.one_step.unregistered`: the tensors held
outside the registered parameters (plain attributes, Python lists, tuples and dicts under every submodule) that got a
gradient, split by whether the optimizer holds them. Rung 1 fails `frozen` for the first kind, warns for the second.
    for p in 0 1; do OMP_NUM_THREADS=1 HELD_OUT=AZ,BA python bench/ladder_unregistered_scan.py . 0,1 /tmp/ur_$p.json $p & done; wait
    python bench/ladder_unregistered_scan.py --table /tmp/ur_0.json /tmp/ur_1.json"""
import sys, os
from gallery_scan import print_rows


def fill(f, d):
    from gallery_scan import program_bench
    from ntrain.core import to_device
    from ntrain.ladder.one_step import unregistered
    b = program_bench(f, d)
    m = b.model().train(); o = b.optimizer(m)
    b.train_step(m, o, to_device(b.first_batch()[0], b.device))
    d['lost'], d['kept'] = unregistered(m, o)


def table(rs:list):
    hit = [r for r in rs if r.get('lost') or r.get('kept')]
    print(f"{len(rs)} runs read; unregistered tensors with a gradient in {len(hit)}: "
          f"healthy {len({r['name'] for r in hit if r['kind'] == 'healthy'})}, broken {len({r['name'] for r in hit if r['kind'] == 'broken'})} programs; "
          f"{sum('error' in r for r in rs)} errors")
    print_rows(hit, lambda r: f"not in the optimizer {r['lost'][:4]}, in it {r['kept'][:4]}")


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'error' in d or d.get('lost') or d.get('kept'), table)
