"""What the panels' live plot costs: ntrain.plots' LivePlot (lines blitted over a cached background) against the
figure rebuilt at every redraw (bench/rebuilt_plots.py: PngCanvas with draw_run / draw_ladder, as the panels drew up to b99b3d3), and what it costs a rung that
runs beside it. Run by hand:

    python bench/plot_bench.py                       # both parts: bench/results/liveplot.json, its section of bench/RESULTS.md
    python bench/plot_bench.py --parts costs
    python bench/plot_bench.py --parts rung --pairs 16 --rung-s 3

Part `costs`: one process, a CPU hog on one core (another process, `while True: pass`) and a rung training on a thread
of this process (a LadderSession's rung 3 on digits, again and again), as in a busy kernel. A run's record stream (440
steps, a step record every 10, an epoch every 22) and rung 3's (300 steps) are fed to `RunView` / `LadderView`; at each
new record the old way (`PngCanvas.draw(draw_run, d)`) and the new (`LivePlot.update(d, final=True)`) redraw the same
dict, in alternating order, at the panels' 720x240 px. Each redraw's thread CPU (`time.thread_time`) and wall time
(`time.perf_counter`) are kept; the new ones are split into incremental and full. Figures: median, p90, max.
Targets: incremental p90 <= 30 ms of thread CPU over >= 50 redraws; full redraws each < 250 ms and at most 1 in 5.

Part `rung`: rung 3 of digits made to last about `--rung-s` seconds (overfit_steps calibrated, overfit_ratio 1e-9 so
it never stops early), run by `LadderSession.run('3', force=True)` on a thread of this process, with and without the
panel's plot: records from the rung's callback into a queue, a `Pump` every 0.25 s applying them to a `LadderView` and
calling `LivePlot.update(view.to_dict(), total=overfit_steps)` (which redraws when its clock, 5% of a core, says it is
due), as the ladder panel does; without the panel the rung runs with no callback. The figure is the rung's training
time (from its `rung_start` record to its last `rung_step`, stamped in the callback on both sides), with / without,
per pair, alternating which goes first; and the redraws of rung 3's own curve while it ran. Targets: ratio median <=
1.05, at least 2 redraws of its own curve. The CPU hog runs during this part too unless `--no-hog-rung`.

Part `lag`: `ntrain.launch('digits', epochs=E)` on 2 processes (with the hog), followed from this process as the
dashboard follows a run: `handle.new_records()` into a `RunView` and `LivePlot.update` (5% of a core, as the dashboard) from a `Pump`
every 0.25 s. Sampled every 0.25 s over the run: how long the oldest step record in metrics.jsonl not yet drawn has
waited (0 when the newest is drawn); median, p90, max; and the pump's thread CPU over the run's wall time. Target: p90
<= 2 s at <= 5% of a core. (The panel's widgets and the browser are not in it: the dashboard's own test covers those.)
"""
from __future__ import annotations
import argparse, json, math, os, platform, queue, statistics, subprocess, sys, tempfile, threading, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault('OMP_NUM_THREADS', '1')
os.environ.setdefault('MPLBACKEND', 'Agg')
SECTION = '## The live plot (bench/plot_bench.py)'

# ---------------------------------------------------------------- figures
def pct(xs, q):
    "The q-quantile (0-1) of xs, nearest rank."
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]

def stats(xs)->dict:
    return dict(n=len(xs), median=statistics.median(xs), p90=pct(xs, 0.9), max=max(xs)) if xs else dict(n=0)

def quartiles(xs):
    if len(xs) < 2: return xs[0], xs[0]
    q = statistics.quantiles(sorted(xs), n=4, method='inclusive')
    return q[0], q[2]

# ---------------------------------------------------------------- load: a hog and a training thread
def hog():
    return subprocess.Popen([sys.executable, '-c', 'while True: pass'], start_new_session=True)

class Trainer(threading.Thread):
    "A rung training on a thread of this process, again and again, until stopped."
    def __init__(self, tmp):
        super().__init__(name='bench-training', daemon=True)
        from ntrain.ladder import LadderSession
        self.session = LadderSession('digits', run_dir=Path(tmp)/'load', settings=dict(overfit_steps=100000, overfit_ratio=1e-9))
        self.halt, self.steps = threading.Event(), 0
    def run(self):
        def count(r):
            if r.get('kind') == 'rung_step': self.steps += 1
        while not self.halt.is_set():
            self.session.run('3', force=True, write=False, callbacks=[count], stop=lambda: 'bench' if self.halt.is_set() else None)

def run_records(total:int=440, spe:int=22, log_every:int=10):
    "A run's records as metrics.jsonl holds them (start, a step record every `log_every` steps, an epoch every `spe`)."
    yield dict(kind='start', epochs=total // spe, total_steps=total, steps_per_epoch=spe, world_size=1, monitor='val_acc', mode='max', time=0.0, step=0)
    for s in range(1, total + 1):
        if s % log_every == 0: yield dict(kind='step', step=s, epoch=(s - 1) // spe, loss=2.3 * math.exp(-s / 80) + 0.05 + 0.02 * math.sin(s), time=s * 0.01)
        if s % spe == 0:
            yield dict(kind='epoch', epoch=s // spe - 1, step=s, train_loss=2.3 * math.exp(-s / 80) + 0.06, val_loss=2.3 * math.exp(-s / 90) + 0.1,
                       val_acc=1 - math.exp(-s / 60), time=s * 0.01)

def rung3_records(n:int=300):
    yield dict(kind='rung_start', rung=3)
    for s in range(1, n + 1): yield dict(kind='rung_step', rung=3, step=s, loss=2.3 * 0.985 ** s * (1 + 0.03 * math.sin(s)), target=0.046)

def timed(fn):
    c0, w0 = time.thread_time(), time.perf_counter()
    out = fn()
    return out, time.thread_time() - c0, time.perf_counter() - w0

def costs(tmp, hogging:bool)->dict:
    "Part costs: old and new redraws of the same dicts, alternating, under load."
    from ntrain.plots import LivePlot
    from rebuilt_plots import PngCanvas, draw_run, draw_ladder  # (bench/: the figure rebuilt at each redraw, as before)
    from ntrain.notebook.viewmodel import RunView, LadderView
    h = hog() if hogging else None
    load = Trainer(tmp); load.start()
    try:
        time.sleep(2.0)  # the rung is training
        out = {}
        for what in ('run', 'rung3'):
            view = RunView() if what == 'run' else LadderView()
            old, new = PngCanvas(), LivePlot(budget=0.05)
            old.draw(draw_run if what == 'run' else draw_ladder, view.to_dict() if what == 'run' else dict(view.to_dict(), plot='rung3'))  # fonts, caches
            rows = dict(old=[], inc=[], full=[])
            recs = run_records() if what == 'run' else rung3_records()
            for i, r in enumerate(recs):
                view.apply(r)
                d = view.to_dict()
                if what == 'rung3' and not d['series']['rung3']['step']: continue
                sides = ('old', 'new') if i % 2 == 0 else ('new', 'old')
                for side in sides:
                    if side == 'old':
                        if what == 'rung3' and i % 3: continue  # every third record: enough redraws, less time
                        _, c, w = timed(lambda: old.draw(draw_run if what == 'run' else draw_ladder, d))
                        rows['old'].append((c, w))
                    else:
                        f0 = new.state['full_redraws'] if new.state['what'] == what else 0
                        png, c, w = timed(lambda: new.update(d, final=True))
                        if png is None: continue
                        rows['full' if new.state['full_redraws'] > f0 else 'inc'].append((c, w))
            st = new.state
            out[what] = {k: dict(cpu=stats([c for c, _ in v]), wall=stats([w for _, w in v])) for k, v in rows.items()}
            out[what].update(redraws=st['redraws'], full_redraws=st['full_redraws'], points=len(d['curves']['step']) if what == 'run' else len(d['series']['rung3']['step']))
            print(what, json.dumps({k: (v['cpu'].get('median'), v['cpu'].get('p90'), v['cpu'].get('max')) for k, v in out[what].items() if isinstance(v, dict)}), flush=True)
        out['training_steps_during'] = load.steps
        return out
    finally:
        load.halt.set(); load.join(60)
        if h is not None: h.kill(); h.wait(10)

# ---------------------------------------------------------------- part rung
def rung_once(session, steps:int, panel:bool)->dict:
    "Rung 3 on a thread, with or without the panel's plot following it; its training seconds and the plot's redraws while it ran."
    from ntrain.plots import LivePlot
    from ntrain.notebook.viewmodel import LadderView, Pump
    stamps, q, done = {}, queue.SimpleQueue(), threading.Event()
    def stamp(r):
        k = r.get('kind')
        if k == 'rung_start': stamps['start'] = time.perf_counter()
        elif k == 'rung_step': stamps['last'] = time.perf_counter()
        elif k == 'rung_end': stamps['end'] = time.perf_counter()
    cbs = [stamp]
    if panel:
        view, lp, seen = session.bench_view, session.bench_plot, []  # the panel's: kept from one run to the next
        cbs.append(q.put)
        def tick():
            while True:
                try: view.apply(q.get_nowait())
                except queue.Empty: break
            d = view.to_dict()
            running = 'start' in stamps and 'end' not in stamps
            if lp.update(d, total=steps, final=done.is_set()) is not None and running and lp.state['what'] == 'rung3' and lp.state['step']:
                seen.append(lp.state['step'])
            return not (done.is_set() and q.empty())
        pump = Pump(tick, 0.25, loop=False).start()
    t = threading.Thread(target=lambda: (session.run('3', force=True, write=False, callbacks=cbs), done.set()), daemon=True)
    t.start(); t.join(600)
    out = dict(seconds=stamps['last'] - stamps['start'])
    if panel:
        while pump.alive: time.sleep(0.05)
        out.update(redraws_while_running=len(seen), steps_drawn=seen, redraws=lp.state['redraws'], full_redraws=lp.state['full_redraws'])
    return out

def rung(tmp, pairs:int, rung_s:float, hogging:bool, charge:str='wall')->dict:
    from ntrain.ladder import LadderSession
    from ntrain.plots import LivePlot
    from ntrain.notebook.viewmodel import LadderView
    h = hog() if hogging else None
    try:
        probe = LadderSession('digits', run_dir=Path(tmp)/'probe', settings=dict(overfit_steps=100, overfit_ratio=1e-9))
        per = min(rung_once(probe, 100, False)['seconds'] for _ in range(2)) / 100
        steps = max(50, round(rung_s / per))
        print(f'rung 3: {per * 1e3:.1f} ms a step -> overfit_steps={steps}', flush=True)
        s = LadderSession('digits', run_dir=Path(tmp)/'rung', settings=dict(overfit_steps=steps, overfit_ratio=1e-9))
        s.bench_view, s.bench_plot = LadderView(), LivePlot(budget=0.05, charge=charge)  # the panel's plot: made once, as the panel makes it when shown
        rung_once(s, steps, True)  # warm-up, not counted
        rows = []
        for i in range(pairs):
            r = {}
            for side in ((False, True) if i % 2 == 0 else (True, False)):
                r['panel' if side else 'plain'] = rung_once(s, steps, side)
            row = dict(plain_s=r['plain']['seconds'], panel_s=r['panel']['seconds'], ratio=r['panel']['seconds'] / r['plain']['seconds'],
                       redraws_while_running=r['panel']['redraws_while_running'], steps_drawn=r['panel']['steps_drawn'],
                       full_redraws=r['panel']['full_redraws'], panel_first=i % 2 == 1)
            rows.append(row); print('pair', i, {k: v for k, v in row.items() if k != 'steps_drawn'}, flush=True)
        ratios = [r['ratio'] for r in rows]
        lo, hi = quartiles(ratios)
        return dict(steps=steps, ms_per_step=per * 1e3, pairs=rows, ratio=dict(median=statistics.median(ratios), q1=lo, q3=hi, max=max(ratios), n=len(ratios)),
                    plain_median_s=statistics.median(r['plain_s'] for r in rows), panel_median_s=statistics.median(r['panel_s'] for r in rows),
                    redraws_while_running=dict(min=min(r['redraws_while_running'] for r in rows), median=statistics.median(r['redraws_while_running'] for r in rows)),
                    hog=hogging, charge=charge)
    finally:
        if h is not None: h.kill(); h.wait(10)

# ---------------------------------------------------------------- part lag
def lag(tmp, epochs:int, nproc:int, hogging:bool)->dict:
    "A launched run followed as the dashboard follows it: how far its plot is behind the newest step record, and the CPU that takes."
    import ntrain
    from ntrain.plots import LivePlot
    from ntrain.notebook.viewmodel import RunView, Pump
    h = hog() if hogging else None
    try:
        rd = Path(tmp)/'lag'
        handle = ntrain.launch('digits', [f'epochs={epochs}', 'early_stop.patience=null'], nproc=nproc, run_dir=rd, wait=False, echo=False)
        view, lp, rows, cpu = RunView(), LivePlot(budget=0.05), [], [0.0]
        seen = {}  # step -> when its record was read here
        def tick():
            c0 = time.thread_time()
            for r in handle.new_records(): view.apply(r)
            d = view.to_dict()
            if lp.update(d, key=str(rd), final=not handle.running) is not None: rows.append((time.time(), lp.state['step'], lp.state['full_redraws']))
            cpu[0] += time.thread_time() - c0
            return handle.running
        t0 = time.perf_counter(); c = Pump(tick, 0.25, loop=False).start()
        while c.alive: time.sleep(0.1)
        wall = time.perf_counter() - t0
        tick()
        recs = [json.loads(l) for l in (rd/'metrics.jsonl').read_text().splitlines() if l.strip()]
        steps = [(r['step'], r['time']) for r in recs if r.get('kind') == 'step']
        # every 0.25 s from the first step record to the last: if a record written by then is not drawn yet, the lag is how
        # long the oldest such record has waited (time.time() in both processes); 0 when the newest record is drawn
        lags, u = [], steps[0][1]
        while u <= steps[-1][1]:
            drawn = max((st for when, st, _ in rows if when <= u and st is not None), default=-1)
            waiting = [t for st, t in steps if t <= u and st > drawn]
            lags.append(u - min(waiting) if waiting else 0.0); u += 0.25
        return dict(epochs=epochs, nproc=nproc, steps=len(steps), run_s=wall, lag=stats(lags), pump_cpu_share=cpu[0] / wall, redraws=lp.state['redraws'],
                    full_redraws=lp.state['full_redraws'], exit_code=handle.result.exit_code if handle.result else None, hog=hogging)
    finally:
        if h is not None: h.kill(); h.wait(10)

# ---------------------------------------------------------------- RESULTS.md
def ms(x): return f'{x * 1e3:.1f}'

def markdown(res:dict)->str:
    L = [SECTION, '', f"Command: `{res['command']}`; when {res['when']}; commit {res['commit']}; {res['machine']['cpu']}, {res['machine']['cpus']} CPUs; "
         f"load {tuple(round(x, 2) for x in res['load_start'])} -> {tuple(round(x, 2) for x in res['load_end'])}; OMP_NUM_THREADS={res['omp_threads']}.", '']
    if res.get('note'): L += [res['note'], '']
    P = res['parts']
    if 'costs' in P:
        c = P['costs']
        L += [f"**Redraw costs** at 720x240 px, with a CPU hog on one core{'' if res.get('hog', True) else ' (no hog: --no-hog)'} and a rung training on a thread of the same "
              f"process ({c['training_steps_during']} training steps during the part). Old: `PngCanvas.draw(draw_run | draw_ladder)`, the figure rebuilt; "
              'new: `LivePlot.update`, split into incremental (lines blitted over the kept background) and full (limits grew). '
              'Milliseconds of thread CPU (`time.thread_time`) and wall time, median / p90 / max.', '',
              '| plot | redraw | n | CPU median | CPU p90 | CPU max | wall median | wall p90 | wall max |', '|---|---|---|---|---|---|---|---|---|']
        for what in ('run', 'rung3'):
            for k, name in (('old', 'old: figure rebuilt'), ('inc', 'new: incremental'), ('full', 'new: full')):
                v = c[what][k]
                if not v['cpu'].get('n'): continue
                L.append(f"| {what} | {name} | {v['cpu']['n']} | {ms(v['cpu']['median'])} | **{ms(v['cpu']['p90'])}** | {ms(v['cpu']['max'])} | "
                         f"{ms(v['wall']['median'])} | {ms(v['wall']['p90'])} | {ms(v['wall']['max'])} |")
        L.append('')
        for what in ('run', 'rung3'):
            v = c[what]; inc, full = v['inc']['cpu'], v['full']['cpu']
            ok = inc['n'] >= 50 and inc['p90'] <= 0.030 and (not full.get('n') or full['max'] < 0.250) and v['full_redraws'] <= v['redraws'] / 5
            L.append(f"- `{what}`: {v['redraws']} redraws of {v['points']} points, {v['full_redraws']} full ({v['full_redraws'] / v['redraws']:.0%}); "
                     f"incremental p90 {ms(inc['p90'])} ms (target <= 30 ms over >= 50), full max {ms(full['max']) if full.get('n') else '-'} ms (target < 250 ms, at most 1 in 5): "
                     f"**{'meets' if ok else 'misses'}**; the old redraw's median is {c[what]['old']['cpu']['median'] / inc['median']:.0f}x the incremental one's.")
        L.append('')
    for key in [k for k in P if k.startswith('rung')]:  # ('rung_cpu': the same part run with --charge cpu, merged in)
        r = P[key]; q = r['ratio']
        ok = q['median'] <= 1.05 and r['redraws_while_running']['min'] >= 2
        L += [f"**A rung of {r['plain_median_s']:.1f} s with the panel's plot** (rung 3 of digits, {r['steps']} steps at {r['ms_per_step']:.1f} ms, on a thread; "
              f"the plot fed by a `Pump` every 0.25 s, its clock at 5% of a core charging each redraw's {r.get('charge', 'cpu')} time{', a CPU hog on one core' if r['hog'] else ''}), "
              f"against the same rung with no view, {q['n']} alternating pairs; the figure is the rung's training time, with / without.", '',
              '| ratio median | IQR | max | target | without (median) | with (median) | redraws of its own curve while it ran (min / median) | verdict |',
              '|---|---|---|---|---|---|---|---|',
              f"| **{q['median']:.3f}** | {q['q1']:.3f}-{q['q3']:.3f} | {q['max']:.3f} | 1.05, and >= 2 redraws | {r['plain_median_s']:.2f} s | {r['panel_median_s']:.2f} s | "
              f"{r['redraws_while_running']['min']} / {r['redraws_while_running']['median']:g} | {'meets' if ok else 'misses'} |", '']
    if 'lag' in P:
        g = P['lag']; q = g['lag']
        ok = q['p90'] <= 2.0 and g['pump_cpu_share'] <= 0.05
        L += [f"**A launched run's plot against its records** (`ntrain.launch('digits', epochs={g['epochs']})` on {g['nproc']} processes"
              f"{', a CPU hog on one core' if g['hog'] else ''}; {g['steps']} step records over {g['run_s']:.1f} s): this process follows it as the dashboard "
              "does (`new_records()` into a `RunView`, a `Pump` every 0.25 s, `LivePlot.update` at 5% of a core). The lag, sampled every 0.25 s "
              "from the first step record to the last: how long the oldest record written but not yet drawn has waited (0 when the newest is drawn).", '',
              '| lag median | p90 | max | target | the pump\'s CPU (share of a core) | redraws | full | verdict |', '|---|---|---|---|---|---|---|---|',
              f"| {q['median']:.2f} s | **{q['p90']:.2f} s** | {q['max']:.2f} s | p90 <= 2 s at <= 5% of a core | {g['pump_cpu_share']:.1%} | {g['redraws']} | {g['full_redraws']} | "
              f"{'meets' if ok else 'misses'} |", '']
    return '\n'.join(L).rstrip() + '\n'

def write_results_md(section:str, path:Path):
    "Put `section` into RESULTS.md: in place of its previous version, else before the GPU section (else at the end)."
    text = path.read_text() if path.exists() else '# ntrain benchmark results\n'
    if SECTION in text:
        a = text.index(SECTION); b = text.find('\n## ', a + len(SECTION))
        text = text[:a] + section + ('\n' + text[b + 1:] if b >= 0 else '')
    elif '\n## The GPU path' in text:
        i = text.index('\n## The GPU path'); text = text[:i + 1] + section + '\n' + text[i + 1:]
    else: text = text.rstrip() + '\n\n' + section
    path.write_text(text)

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--parts', nargs='+', default=['costs', 'rung', 'lag'], choices=['costs', 'rung', 'lag'])
    ap.add_argument('--epochs', type=int, default=20, help='part lag: epochs of the launched digits run')
    ap.add_argument('--nproc', type=int, default=2, help='part lag: its processes')
    ap.add_argument('--pairs', type=int, default=16)
    ap.add_argument('--rung-s', type=float, default=3.0, help='how long the measured rung 3 runs, about')
    ap.add_argument('--charge', default='wall', choices=['wall', 'cpu'], help="part rung: what the plot's clock charges a redraw (LivePlot's `charge`)")
    ap.add_argument('--no-hog', action='store_true', help='part costs without the CPU hog')
    ap.add_argument('--no-hog-rung', action='store_true', help='part rung without the CPU hog')
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'liveplot.json'))
    ap.add_argument('--md', default=str(ROOT/'bench'/'RESULTS.md'))
    a = ap.parse_args()
    import torch, ntrain
    commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT, capture_output=True, text=True, timeout=30).stdout.strip()
    res = dict(command='python bench/plot_bench.py ' + ' '.join(sys.argv[1:]), when=time.strftime('%Y-%m-%d %H:%M:%S'), commit=commit,
               machine=dict(cpu=platform.processor() or platform.machine(), cpus=os.cpu_count(), platform=platform.platform()),
               versions=dict(python=platform.python_version(), torch=torch.__version__, matplotlib=__import__('matplotlib').__version__),
               omp_threads=os.environ.get('OMP_NUM_THREADS'), load_start=os.getloadavg(), hog=not a.no_hog, parts={})
    with tempfile.TemporaryDirectory() as tmp:
        if 'costs' in a.parts: res['parts']['costs'] = costs(tmp, not a.no_hog)
        if 'rung' in a.parts: res['parts']['rung'] = rung(tmp, a.pairs, a.rung_s, not a.no_hog_rung, a.charge)
        if 'lag' in a.parts: res['parts']['lag'] = lag(tmp, a.epochs, a.nproc, not a.no_hog)
    res['load_end'] = os.getloadavg()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=1) + '\n')
    md = markdown(res)
    Path(a.out).with_suffix('.md').write_text(md)
    write_results_md(md, Path(a.md))
    print(md); print('wrote', a.out, 'and', a.md)

if __name__ == '__main__': main()
