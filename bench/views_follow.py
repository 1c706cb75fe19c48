"""How soon two ended dashboards of one run follow it when a terminal resumes or stops it, with one core held busy (issue 35).

In one process, as in a kernel: a run on a thread (`ThreadRun`, digits) and two `Dashboard`s of it; stopped by the first's
Stop. Then, `--cycles` times: `ntrain resume RUN` in another process (the terminal), and once it has trained a few
seconds, `ntrain stop RUN` from another. On disk, the change is the first of: the run's first record past the stop (its
`time`) or status.json saying so (its mtime); for the stop, the `stopped` record or status.json saying `stopped`. The lag is
the time from that change until both dashboards read it (RUNNING at a step past the stop; STOPPED), sampled every 20 ms.
An ended dashboard checks the files every 1 s (`Dashboard._watch_files`); a live one ticks every 0.25 s. What this leaves
out: the browser's transport (tests/test_browser_saved.py measures one resume in the page). Writes bench/results/views_follow.json.

    OMP_NUM_THREADS=1 python bench/views_follow.py [--cycles 10] [--no-hog] [--every 2]      # ~3.5 min here
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]/'tests'))
import torch
import matplotlib; matplotlib.use('Agg')
from jlab import cpu_hog

def disk(rd:Path, off:int, past:int, state:str):
    "When the files first said `state` (past step `past` for running): (first record's time, status.json's mtime), None each until then; the new offset."
    t_rec = t_st = None
    try:
        st = json.loads((rd/'status.json').read_text())
        if st.get('state') == state and (state != 'running' or (st.get('step') or 0) > past): t_st = (rd/'status.json').stat().st_mtime
    except (OSError, ValueError): pass
    with open(rd/'metrics.jsonl', 'rb') as f: f.seek(off); chunk = f.read()
    whole = chunk[:chunk.rfind(b'\n') + 1]
    for line in whole.splitlines():
        try: r = json.loads(line)
        except ValueError: continue
        if t_rec is None and ((state == 'running' and r.get('kind') in ('step', 'epoch') and (r.get('step') or 0) > past)
                              or (state == 'stopped' and r.get('kind') == 'stopped')): t_rec = r.get('time')
    return t_rec, t_st, off + len(whole)

def follow(views, rd:Path, state:str, past:int, off:int, timeout:float=240)->dict:
    "Wait until every view reads `state`; the lag from the first file that said it (records read from byte `off`)."
    t0, t_rec, t_st, t_views = time.monotonic(), None, None, None
    while t_views is None or (t_rec is None and t_st is None):
        assert time.monotonic() - t0 < timeout, (state, (rd/'status.json').read_text())
        r, s, off = disk(rd, off, past, state)
        t_rec, t_st = t_rec or r, t_st or s
        if t_views is None:
            briefs = []
            for d in views:
                with d._lock: briefs.append(d.view.brief())
            if all(b['state'] == state and (state != 'running' or (b['step'] or 0) > past) for b in briefs): t_views = time.time()
        time.sleep(0.02)
    first = min(t for t in (t_rec, t_st) if t is not None)
    return dict(state=state, lag=round(t_views - first, 3), after_record=None if t_rec is None else round(t_views - t_rec, 3),
                after_status=None if t_st is None else round(t_views - t_st, 3))

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--cycles', type=int, default=8); ap.add_argument('--no-hog', action='store_true')
    ap.add_argument('--every', type=float, default=None, help="the ended views' check of the files, s (default: the dashboard's; 2: as before issue 35's round 2)")
    a = ap.parse_args()
    torch.set_num_threads(1)
    from ntrain.handle import ThreadRun
    from ntrain.notebook.dashboard import Dashboard
    if a.every is not None: Dashboard._watch_files.__defaults__ = (a.every,)
    every = Dashboard._watch_files.__defaults__[0]
    env = dict(os.environ, OMP_NUM_THREADS='1')
    rows = []
    with tempfile.TemporaryDirectory() as tmp, (cpu_hog() if not a.no_hog else open(os.devnull)):
        rd = Path(tmp)/'run'
        h = ThreadRun('digits', ['epochs=400', 'num_workers=0', 'early_stop.patience=null'], run_dir=rd)  # (never ends on its own)
        views = [Dashboard(h), Dashboard(h)]
        while views[0].state['step'] < 20: time.sleep(0.1)
        views[0].stop(timeout=120); views[1].wait(timeout=60)
        for i in range(a.cycles):
            past, off = max(d.state['step'] for d in views), (rd/'metrics.jsonl').stat().st_size
            p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'resume', str(rd)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            try:
                rows.append(dict(cycle=i, **follow(views, rd, 'running', past, off))); print(json.dumps(rows[-1]), flush=True)
                time.sleep(3)
                off = (rd/'metrics.jsonl').stat().st_size
                q = subprocess.Popen([sys.executable, '-m', 'ntrain', 'stop', str(rd)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
                rows.append(dict(cycle=i, **follow(views, rd, 'stopped', past, off))); print(json.dumps(rows[-1]), flush=True)
                q.wait(timeout=120); p.wait(timeout=120)
            finally:
                if p.poll() is None: p.kill(); p.wait(30)
    out = dict(hog=not a.no_hog, every=every, load=os.getloadavg(), rows=rows)
    for s in ('running', 'stopped'):
        lags = sorted(r['lag'] for r in rows if r['state'] == s)
        out[s] = dict(n=len(lags), p50=lags[len(lags) // 2], p90=lags[int(0.9 * (len(lags) - 1))], max=lags[-1])
        print(s, out[s])
    (Path(__file__).parent/'results'/f"views_follow{'' if a.every is None else f'_every{a.every:g}'}.json").write_text(json.dumps(out, indent=1))

if __name__ == '__main__': main()
