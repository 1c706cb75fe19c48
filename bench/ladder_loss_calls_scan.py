"""Round 55 (issue 32), measured on the seen programs before the rule: a loss that gives probabilities to a function that
reads logits (half AQ's esmm_probabilities_into_bce_with_logits: a loss of its own calls F.binary_cross_entropy_with_logits
on pCTR and pCTR x pCVR). For every program, the fresh model on its first training batch (no training),
`ntrain.ladder.init_loss.logits_given_probs`: the function the loss calls on values in [0, 1] that a sigmoid or softmax
(or a product of them) made, and the op. Also every program whose loss calls either function at all (the denominator).
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_loss_calls_scan.py . 0,1 /tmp/lc_$p.json $p & done; wait
    python bench/ladder_loss_calls_scan.py --table /tmp/lc_0.json /tmp/lc_1.json
Figures: bench/results/r55_loss_calls_scan.txt (seeds 0 and 1; halves A-AQ, all seen after round 54)."""
import sys, os
from gallery_scan import print_rows


def table(rs:list):
    calls, hit = [d for d in rs if d.get('calls')], [d for d in rs if 'op' in d]
    print(f"{len(rs)} runs read (program x seed); the loss calls F.binary_cross_entropy_with_logits or F.cross_entropy in "
          f"{len(calls)} ({sum(d['kind'] == 'healthy' for d in calls)} healthy); on probabilities in {len(hit)}; {sum('error' in d for d in rs)} errors")
    print_rows(hit, lambda d: f"F.{d['fn']} on a {d['op']}'s output")


def fill(f, d):
    import torch
    from gallery_scan import program_bench
    from ntrain.ladder import init_loss as I
    from ntrain.core import to_device
    b = program_bench(f, d)
    batch = b.first_batch()[0]
    try:
        with torch.enable_grad(), I.CallsOn(('binary_cross_entropy_with_logits', 'cross_entropy')) as calls:
            out, t = b.forward(b.model().eval(), to_device(batch, b.device)); calls.seen.clear(); b.compute_loss(out, t)
        d["calls"] = sorted({n for n, *_ in calls.seen})
    except Exception: d['calls'] = []
    if (lg := I.logits_given_probs(b, batch)): d.update(fn=lg[0], op=lg[1])


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'op' in d or 'error' in d, table)
