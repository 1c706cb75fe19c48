"""What the notebook's live views cost the training they show, in alternating pairs. Run by hand on a quiet machine:

    python bench/notebook_bench.py                     # both parts, 20 pairs each: bench/results/notebook.json
    python bench/notebook_bench.py --parts rung3 --pairs 5

Part `rung3`: the ladder's rungs 1-3 on digits, as `ntrain.ladder(...)` (no view) against `ntrain.Ladder(...)`, the
panel, shown and run from code (its rungs on a worker thread, its pump on a daemon thread applying records and
redrawing the live PNG plot, as on a kernel's event loop). The figure is rung 3's own time (`RungResult.seconds`),
panel / plain per pair; target at most 1.05. The panel's redraws are counted, to show the plot was live.

Part `dashboard`: a 2-process `ntrain.launch('digits', epochs=E)` run watched by `ntrain.dashboard(handle)` in this
process (polling the run's files every 0.25 s, redrawing its plot at most every 0.5 s), against the same launch
waited on with `Launch.wait()`. The figure is the run's training time as its own records give it (from the `start`
record to the `finished` record, so torchrun's start-up noise stays out), watched / unwatched per pair; target at
most 1.03. All processes share this machine's cores, which is what a notebook user has.
"""
import argparse, json, os, platform, statistics, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault('OMP_NUM_THREADS', '1')
os.environ.setdefault('MPLBACKEND', 'Agg')

def quartiles(xs):
    xs = sorted(xs)
    if len(xs) < 2: return xs[0], xs[0]
    q = statistics.quantiles(xs, n=4, method='inclusive')
    return q[0], q[2]

def summary(ratios, target):
    med = statistics.median(ratios); lo, hi = quartiles(ratios)
    verdict = 'meets' if med <= target else 'tie' if lo <= target <= hi else 'loses'
    return dict(median=round(med, 4), iqr=[round(lo, 4), round(hi, 4)], target=target, verdict=verdict, n=len(ratios))

def rung3_pair(i, tmp):
    import ntrain
    out = {}
    for side in (('plain', 'panel') if i % 2 == 0 else ('panel', 'plain')):
        rd = Path(tmp)/f'{side}{i}'
        if side == 'plain':
            res = ntrain.ladder('digits', rungs='1-3', run_dir=rd, quiet=True)
            out['plain'] = res.rung(3).seconds
        else:
            lad = ntrain.Ladder('digits', run_dir=rd); lad.show(); lad.run('1-3'); res = lad.wait(600)
            out['panel'] = res.rung(3).seconds
            out['redraws'] = lad.state['plot']['redraws']
            out['points'] = len(lad.state['series'].get('rung3', {}).get('loss', []))
        assert res.rung(3).verdict in ('pass', 'warn'), res.table()
    return out

def run_time(rd)->float:
    recs = [json.loads(l) for l in (Path(rd)/'metrics.jsonl').read_text().splitlines() if l.strip()]
    start = next(r['time'] for r in recs if r['kind'] == 'start')
    end = next(r['time'] for r in recs if r['kind'] in ('finished', 'stopped', 'failed'))
    assert recs[-1]['kind'] == 'finished', recs[-1]
    return end - start

def dashboard_pair(i, tmp, epochs):
    import ntrain
    out = {}
    for side in (('unwatched', 'watched') if i % 2 == 0 else ('watched', 'unwatched')):
        rd = Path(tmp)/f'{side}{i}'
        h = ntrain.launch('digits', [f'epochs={epochs}', 'early_stop.patience=null'], nproc=2, run_dir=rd, wait=False, echo=False)
        if side == 'watched':
            d = ntrain.dashboard(h); d.wait(900)
            out['dashboard_state'] = d.state['state']
        else: h.wait(900)
        assert h.result.exit_code == 0, (side, h.result)
        out[side] = run_time(rd)
    return out

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--pairs', type=int, default=20)
    ap.add_argument('--parts', nargs='+', default=['rung3', 'dashboard'], choices=['rung3', 'dashboard'])
    ap.add_argument('--epochs', type=int, default=10, help='epochs of the launched run in part dashboard')
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'notebook.json'))
    a = ap.parse_args()
    import torch, ntrain
    result = dict(command='python bench/notebook_bench.py ' + ' '.join(sys.argv[1:]), when=time.strftime('%Y-%m-%d %H:%M:%S'),
                  machine=dict(cpu=platform.processor() or platform.machine(), cpus=os.cpu_count(), platform=platform.platform()),
                  versions=dict(python=platform.python_version(), torch=torch.__version__, ntrain=ntrain.__version__),
                  omp_threads=os.environ.get('OMP_NUM_THREADS'), load_start=os.getloadavg(), parts={})
    with tempfile.TemporaryDirectory() as tmp:
        if 'rung3' in a.parts:
            rows = []
            for i in range(a.pairs):
                rows.append(rung3_pair(i, tmp)); print('rung3', i, rows[-1], flush=True)
            result['parts']['rung3'] = dict(pairs=rows, ratio=summary([r['panel'] / r['plain'] for r in rows], 1.05),
                                            plain_median_s=statistics.median(r['plain'] for r in rows),
                                            panel_median_s=statistics.median(r['panel'] for r in rows),
                                            redraws_median=statistics.median(r['redraws'] for r in rows))
        if 'dashboard' in a.parts:
            rows = []
            for i in range(a.pairs):
                rows.append(dashboard_pair(i, tmp, a.epochs)); print('dashboard', i, rows[-1], flush=True)
            result['parts']['dashboard'] = dict(pairs=rows, ratio=summary([r['watched'] / r['unwatched'] for r in rows], 1.03),
                                                unwatched_median_s=statistics.median(r['unwatched'] for r in rows),
                                                watched_median_s=statistics.median(r['watched'] for r in rows))
    result['load_end'] = os.getloadavg()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(result, indent=1) + '\n')
    for k, v in result['parts'].items(): print(k, v['ratio'])
    print('wrote', a.out)

if __name__ == '__main__': main()
