"""What the 2x picture costs the live plot: `LivePlot` at scale 1 and scale 2 (device pixels per CSS pixel), redrawing
the same synthetic run (a step record every step to 1,200, an epoch every 20) in alternating order, with `final=True`
(every update redraws). Each redraw's thread CPU (`LivePlot.cost_s`) is kept, split into incremental (lines blitted over
the kept background) and full (axes drawn again). Why it matters: the dashboard spaces redraws to keep under 5% of a
core, so the gap between two redraws is cost / 0.05: 2x the cost, 2x the lag, until `plot_lag` (1 s) bounds it.

    OMP_NUM_THREADS=1 python bench/plot_scale.py     # ~20 s; bench/results/plot_scale.json
"""
import json, math, os, statistics, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault('MPLBACKEND', 'Agg')
from ntrain.plots import LivePlot

def view(n:int)->dict:
    "A RunView dict at step n: a loss that falls with some noise, an epoch every 20 steps."
    st = list(range(1, n + 1)); lo = [2.0 * math.exp(-i / 300) + 0.05 * ((i * 7919) % 13) / 13 for i in st]
    ep = list(range(1, n // 20 + 1)); es = [e * 20 for e in ep]
    return {'curves': {'step': st, 'loss': lo, 'epoch_step': es, 'train_loss': [lo[s - 1] for s in es],
                       'val_loss': [lo[s - 1] * 1.1 for s in es], 'epoch': ep, 'metric': [0.5 + e / 100 for e in ep]},
            'monitor': 'accuracy', 'step': n, 'total_steps': 2000, 'epochs': 100}

def one(scale:float)->dict:
    p, inc, full, png = LivePlot(scale=scale), [], [], b''
    for n in range(5, 1200, 3):
        before = p.full_redraws; out = p.update(view(n), final=True)
        if out is None: continue
        png = out; (full if p.full_redraws > before else inc).append(p.cost_s)
    q = lambda xs, f: round(1e3 * sorted(xs)[int(f * (len(xs) - 1))], 1)
    return dict(scale=scale, incremental=dict(n=len(inc), median_ms=q(inc, .5), p90_ms=q(inc, .9)),
                full=dict(n=len(full), median_ms=q(full, .5), max_ms=q(full, 1.0)), png_kb=len(png) // 1024)

if __name__ == '__main__':
    t0, load0 = time.time(), os.getloadavg()
    rows = [one(s) for s in (1.0, 2.0, 1.0, 2.0)]  # alternating: the machine's noise falls on both
    for r in rows: print(r)
    by = {s: [r for r in rows if r['scale'] == s] for s in (1.0, 2.0)}
    ratio = statistics.median(b['incremental']['median_ms'] / a['incremental']['median_ms'] for a, b in zip(by[1.0], by[2.0]))
    print(f'incremental redraw, 2x over 1x: {ratio:.2f}; at 5% of a core that spaces redraws {by[2.0][0]["incremental"]["median_ms"] / 50:.2f} s apart at 2x')
    out = dict(rows=rows, ratio_incremental=round(ratio, 2), load=[load0, os.getloadavg()], seconds=round(time.time() - t0, 1))
    (ROOT/'bench'/'results'/'plot_scale.json').write_text(json.dumps(out, indent=1))
