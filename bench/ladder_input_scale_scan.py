"""Round 57 (issue 32), measured on the seen programs: rung 2 fails `init_scale` when the loss is far off its theory because
the last layer's inputs are large (`head_inputs`) and the model's float inputs are not standardised (`input_scale`: rms
beyond INPUT_SCALE, 100). For every program, the first training batch's float inputs (no model, no training): those
beyond INPUT_SCALE, the programs that rung 2 could fail this way (the rest of the rule needs the loss off theory with
large head inputs, which `bench/results` records as a rung-2 `init_scale` warning).
    for p in 0 1; do OMP_NUM_THREADS=1 python bench/ladder_input_scale_scan.py . 0 /tmp/is_$p.json $p & done; wait
    python bench/ladder_input_scale_scan.py --table /tmp/is_0.json /tmp/is_1.json
Figures: bench/results/r57_input_scale_scan.txt (seed 0; halves A-AS)."""
import sys, os, json, tempfile


def table(files:list):
    rs = [d for f in files for d in json.load(open(f))]
    hit = [d for d in rs if 'rms' in d]
    print(f"{len(rs)} programs read, {len(hit)} with float inputs of rms beyond 100 "
          f"({sum(d['kind'] == 'healthy' for d in hit)} healthy), {sum('error' in d for d in rs)} errors")
    for d in sorted(hit, key=lambda d: (d['kind'], -d['rms'])):
        print(f"  {d['kind']:7} {d['half']:3} {d['name']:45} input rms {d['rms']:.3g}  largest {d['max']:.3g}")
    for d in rs:
        if 'error' in d: print(f"  error {d['name']} seed {d['seed']}: {d['error']}")


def scan():
    from gallery_scan import scan_setup, run_scan, ladder_bench
    from ntrain.ladder.init_loss import input_scale
    seeds, out, G, S, names = scan_setup(())
    def fill(f, d):
        b = ladder_bench(f(d['seed']), tempfile.mkdtemp())
        if (xs := input_scale(b.first_batch()[0])): d.update(xs)
    run_scan(G, names, seeds, out, fill, lambda d: 'rms' in d or 'error' in d)


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if sys.argv[1] == '--table': table(sys.argv[2:])
    else: scan()
