"""Round 59 (issue 32), measured on the seen programs: the `ignore_index` a loss of one's own gives `F.cross_entropy` or
`F.nll_loss` (half AR's sentence_vae: `F.cross_entropy(..., ignore_index=0)` inside a VAE's loss, the padding token the
commonest target, judged by an accuracy that counted it). For every program, the bench on its first training batch (no
training): the task's `ignore_index`, and, when it is None, what the bench reads off the loss's first call
(`Bench.compute_loss`, `calls_ignore_index`), with the share of the batch's targets equal to it.
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_ignore_index_scan.py . 0,1 /tmp/ii_$p.json $p & done; wait
    python bench/ladder_ignore_index_scan.py --table /tmp/ii_0.json /tmp/ii_1.json
Figures: bench/results/r59_ignore_index_scan.txt (seeds 0 and 1; halves A-AS)."""
import sys, os
from gallery_scan import print_rows


def table(rs:list):
    own = [d for d in rs if d.get('task_ign') is None and 'error' not in d]
    read = [d for d in own if d.get('read') is not None]
    print(f"{len(rs)} runs read (program x seed); no ignore_index on the task in {len(own)}; one read off the loss's calls in {len(read)}; "
          f"{sum('error' in d for d in rs)} errors")
    print_rows(read, lambda d: f"ignore_index {d['read']}: {d['share']:.1%} of the first batch's targets")


def fill(f, d):
    import torch
    from gallery_scan import program_bench
    from ntrain.core import to_device
    b = program_bench(f, d)
    d['task_ign'] = b.ignore_index
    out, t = b.forward(b.model().eval(), to_device(b.first_batch()[0], b.device))
    with torch.no_grad(): b.compute_loss(out, t)
    if d['task_ign'] is None and (v := b.ignore_index) is not None:
        d.update(read=v, share=float((t == v).float().mean()))


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: d.get('read') is not None or 'error' in d, table)
