"""A candidate for round 54 (issue 32), measured on the seen programs before any rule: a softmax over independent labels
fed to BCE (half AN's toxic_softmax_over_labels, which rung 2 only warns about). For every program whose loss is BCE on
two label columns or more, the fresh model's output on its first training batch (eval mode, no training): the share of
rows whose values lie in [0, 1] and sum to 1 (within 1e-4), and the targets' mean number of positives a row.
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_softmax_bce_scan.py . 0 /tmp/sm_$p.json $p & done; wait
    python bench/ladder_softmax_bce_scan.py --table /tmp/sm_0.json /tmp/sm_1.json
Figures: bench/results/r53_softmax_bce_scan.txt (seeds 0; halves A-AO, all seen after round 53)."""
import sys, os, json, tempfile


def table(files:list):
    rs = [d for f in files for d in json.load(open(f))]
    bce = [d for d in rs if 'rows_sum_to_one' in d]
    print(f"{len(rs)} programs read, {len(bce)} with BCE on 2+ label columns, {sum('error' in d for d in rs)} errors")
    for d in sorted(bce, key=lambda d: (-d['rows_sum_to_one'], d['name'])):
        print(f"  {d['kind']:7} {d['half']:3} {d['name']:45} rows summing to 1: {d['rows_sum_to_one']:.2f}  columns {d['columns']}  positives a row {d['positives']:.2f}")
    for d in rs:
        if 'error' in d: print(f"  error {d['name']}: {d['error']}")


def scan():
    import torch
    from gallery_scan import scan_setup, run_scan, ladder_bench
    from ntrain.core import to_device
    seeds, out, G, S, names = scan_setup(())
    def fill(f, d):
        b = ladder_bench(f(d['seed']), tempfile.mkdtemp())
        if not b.is_bce: return
        model = b.model(); model.eval()
        batch = to_device(b.first_batch()[0], b.device)
        with torch.no_grad(): out, t = b.forward(model, batch)[:2]
        p = out if torch.is_tensor(out) else b.prediction(out)  # the model's own output: what a softmax head hands the loss
        if not (torch.is_tensor(p) and torch.is_tensor(t)) or p.ndim != 2 or p.shape[1] < 2 or p.shape != t.shape: return
        p = p.float()
        ok = ((p >= 0) & (p <= 1)).all(1) & ((p.sum(1) - 1).abs() < 1e-4)
        d.update(rows_sum_to_one=float(ok.float().mean()), columns=p.shape[1], positives=float(t.float().sum(1).mean()))
    run_scan(G, names, seeds, out, fill, lambda d: d.get('rows_sum_to_one', 0) > 0 or 'error' in d)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if sys.argv[1] == '--table': table(sys.argv[2:])
    else: scan()
