"""How far the ladder panel's live plot lags its rung 3, and how often it draws, with one core held busy (issue 35).

In one process, as in a kernel: a `Ladder` on digits runs rung 3 (rungs 1-2 first) on its thread, the panel's pump draws
its plot; a second process spins on one core (`tests/jlab.py`'s `cpu_hog`). Each record the rung sends is timed as it is
queued; the lag of a record is the time until the plot has drawn its step (`LivePlot.state['step']`), sampled every 10 ms.
What this leaves out: the browser's own transport of the PNG (a few ms on one machine). Rung 3 at the default lr (a rung of
1-2 s) and at lr 2e-4 (several seconds), `--repeats` times each. Writes bench/results/views_lag.json.

    OMP_NUM_THREADS=1 PYTHONPATH=tests python bench/views_lag.py [--repeats 3] [--no-hog]
"""
import argparse, json, os, queue, sys, tempfile, threading, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]/'tests'))
import torch
import ntrain
from jlab import cpu_hog

class TimedQueue(queue.SimpleQueue):
    "The panel's record queue, noting when each rung-3 step record was put."
    def __init__(self): super().__init__(); self.put_at = []
    def put(self, r, *a, **k):
        if r.get('kind') == 'rung_step': self.put_at.append((r['step'], time.monotonic()))
        super().put(r, *a, **k)

def one(lr, seed_dir:Path)->dict:
    lad = ntrain.Ladder('digits', [f'optim.lr={lr}'] if lr else [], run_dir=seed_dir)
    lad.show(); lad.run('1-2'); lad.wait(120)
    lad.q = TimedQueue()
    samples, done = [], threading.Event()
    def watch():
        while not done.is_set(): samples.append((time.monotonic(), lad.plot.state['step'], lad.plot.state['what'])); time.sleep(0.01)
    t = threading.Thread(target=watch, daemon=True); t.start()
    t0 = time.monotonic(); lad.run('3'); lad.wait(300); rung_s = time.monotonic() - t0
    time.sleep(0.5); done.set(); t.join()
    end = max(at for _, at in lad.q.put_at) if lad.q.put_at else t0
    lags = []
    for step, at in lad.q.put_at:
        seen = next((ts for ts, s, w in samples if ts >= at and w == 'rung3' and s is not None and s >= step), None)
        lags.append((seen if seen is not None else samples[-1][0]) - at)
    draws = sorted({s for ts, s, w in samples if w == 'rung3' and s is not None and ts <= end})  # steps drawn while the rung ran
    lags.sort()
    q = lambda p: round(lags[min(len(lags) - 1, int(p * len(lags)))], 3) if lags else None
    return dict(lr=lr or 'default', rung_s=round(rung_s, 2), records=len(lags), p50=q(0.5), p90=q(0.9), max=q(1.0) if lags else None,
                draws_while_running=len(draws), verdict=lad.state['rungs'][2]['verdict'])

if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('--repeats', type=int, default=3); ap.add_argument('--no-hog', action='store_true')
    a = ap.parse_args()
    torch.set_num_threads(1)
    rows, tmp = [], Path(tempfile.mkdtemp())
    import contextlib
    with (contextlib.nullcontext() if a.no_hog else cpu_hog()):
        for i in range(a.repeats):
            for lr in (None, 2e-4):
                rows.append(one(lr, tmp/f'{i}-{lr}')); print(json.dumps(rows[-1]), flush=True)
    out = Path(__file__).parent/'results'/'views_lag.json'
    out.write_text(json.dumps(dict(hog=not a.no_hog, load=os.getloadavg(), rows=rows), indent=1))
    print(out)
