"""Records per second through `Events` (the door of every record the engine writes): before the record schema
(`ntrain/events.py` at BASE), after it with the check off (a run's case), and after it with NTRAIN_CHECK_RECORDS=1
(the test suite's case), side by side in one process, interleaved in pairs so that the machine's noise hits each alike.

    python bench/record_bench.py [--base 20e8930] [--n 20000] [--pairs 15]   # writes bench/results/record_check.md

Each timing emits N `step` records (the loop's most frequent record, as `Trainer.step_record` builds it) to one sink
that keeps nothing (the cost measured is the door's, not a file's) and no callbacks."""
import argparse, importlib.util, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

def _module(name:str, source:str):
    f = Path(tempfile.mkdtemp())/f'{name}.py'; f.write_text(source)
    spec = importlib.util.spec_from_file_location(name, f); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    return m

def rate(events_mod, check:bool, n:int)->float:
    "Records per second through one `Events` built with the check on or off (as the switch read at import would set it)."
    events_mod.CHECK_RECORDS = check  # (the old module has no such name: it is then ignored)
    ev = events_mod.Events(sinks=[lambda r: None])
    recs = [dict(kind='step', epoch=0, step=i, loss=2.3, lr=1e-3, grad_norm=0.5, samples_per_s=5000.0, data_wait=0.01, time=1.7e9 + i)
            for i in range(n)]
    t = time.perf_counter()
    for r in recs: ev.emit(r)
    return n / (time.perf_counter() - t)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--base', default='20e8930', help='the commit before the schema')
    ap.add_argument('--n', type=int, default=20000); ap.add_argument('--pairs', type=int, default=15)
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'record_check.md'))
    a = ap.parse_args()
    before = _module('events_before', subprocess.run(['git', 'show', f'{a.base}:ntrain/events.py'], cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    import ntrain.events as after
    cases = {'before (at %s)' % a.base: (before, False), 'after, check off (a run)': (after, False), 'after, check on (the tests)': (after, True)}
    got = {k: [] for k in cases}
    for _ in range(2): [rate(m, c, a.n) for m, c in cases.values()]  # warm up
    for _ in range(a.pairs):
        for k, (m, c) in cases.items(): got[k].append(rate(m, c, a.n))
    base = statistics.median(got[next(iter(cases))])
    head = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    lines = [f'# Records per second through `Events.emit` (bench/record_bench.py)', '',
             f'`python bench/record_bench.py --base {a.base} --n {a.n} --pairs {a.pairs}` at {head}, {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}, '
             f'load average {os.getloadavg()[0]:.2f}; {a.n} `step` records per timing, one sink that keeps nothing, no callbacks.', '',
             '| case | records/s, median | IQR | vs before |', '|---|---|---|---|']
    for k, xs in got.items():
        q = statistics.quantiles(xs, n=4)
        lines.append(f'| {k} | {statistics.median(xs):,.0f} | {q[0]:,.0f} - {q[2]:,.0f} | {statistics.median(xs) / base:.3f} |')
    Path(a.out).parent.mkdir(parents=True, exist_ok=True); Path(a.out).write_text('\n'.join(lines) + '\n')
    print('\n'.join(lines))

if __name__ == '__main__': main()
