"""Issue 32, round 64 candidate (measured on the seen programs only): squashing activations saturated at init, the init bug
that still trains (half AX's LLNet with N(0, 1) weights: its sigmoids saturated from the first layer on, rung 2's regression
theory fitting the initial loss, rung 3 and 4 passing). No training: for every program and seed,
`ntrain.ladder.init_loss.saturated` (rung 2's: one forward of the first batch by a fresh model in eval mode, every call to
`sigmoid` or `tanh` on a tensor, not the gates inside fused RNN kernels, and the share of all their inputs where the
derivative is under 0.01: |x| > 4.6 for a sigmoid, > 2.65 for a tanh). Rung 2 fails `init_scale` from `SATURATED` (0.25).
    for p in 0 1; do OMP_NUM_THREADS=1 HELD_OUT=AZ,BA python bench/ladder_saturation_scan.py . 0,1 /tmp/sat_$p.json $p & done; wait
    python bench/ladder_saturation_scan.py --table /tmp/sat_0.json /tmp/sat_1.json"""
import sys, os
from gallery_scan import print_rows



def fill(f, d):
    from gallery_scan import program_bench
    from ntrain.ladder.init_loss import saturated
    if (s := saturated(program_bench(f, d))) is None: d['share'] = None; return
    d['share'], d['calls'], d['elements'], d['worst'] = round(s['share'], 4), s['calls'], s['elements'], s['worst']


def table(rs:list):
    ok = [r for r in rs if r.get('share') is not None]
    print(f"{len(rs)} runs read; {len(ok)} with a sigmoid or tanh; {sum('error' in r for r in rs)} errors")
    for a in (0.1, 0.2, 0.3, 0.5, 0.7):
        h = sorted({r['name'] for r in ok if r['kind'] == 'healthy' and r['share'] >= a})
        bb = sorted({r['name'] for r in ok if r['kind'] == 'broken' and r['share'] >= a})
        print(f"  share >= {a}: healthy {len(h)} {h[:6]}, broken {len(bb)} {bb[:8]}")
    print("  healthy's largest shares:", sorted(((r['share'], r['name'], r['seed']) for r in ok if r['kind'] == 'healthy'), reverse=True)[:5])
    print_rows([r for r in ok if r['share'] >= 0.05], lambda r: f"share {r['share']} over {r['calls']} calls ({r['elements']} values); the worst {r['worst']}")


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gallery_scan import scan_main
    scan_main(fill, lambda d: 'error' in d or (d.get('share') or 0) >= 0.2, table)
