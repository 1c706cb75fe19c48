"""A stop signal at any instant from the start of `ntrain fit` counts (issue 34): SIGINT and SIGTERM sent at instants from
0 to 12 s after the process starts (through the interpreter's start, the imports, the config, the task, the setup and
the first epochs). Each try is one of:
- `stopped`: exit 75, status.json stopped (or no run directory yet: stopped during setup, nothing trained);
- `killed before Python ran ntrain`: the signal's default action (exit -2/-15), before `ntrain.__main__` took the signals;
- `python's own start`: a KeyboardInterrupt inside the interpreter's start (site), which no code of ntrain can take;
- `after the final record`: exit 0, finished, its final record written before the signal: by design nothing changes how
  a run ended after that record (the end: curves.png, the card, may take seconds on a loaded machine);
- `LOST`: the run trained to its end and exited 0 (the failure this exists to catch), or anything else.
Also counts tries whose stderr holds a traceback or more than one line.

    OMP_NUM_THREADS=1 PYTHONPATH=tests python bench/readers_stops.py [--tries 2] [--epochs 40]   # writes bench/results/readers_stops.json
"""
import argparse, collections, json, os, shutil, signal, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, OMP_NUM_THREADS='1', PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT/'tests')]), PYTHONWARNINGS='ignore')
INSTANTS = [0.0, 0.01, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0, 1.3, 1.6, 2.0, 2.5, 3.0, 4.0, 5.0, 6.5, 8.0, 10.0, 12.0]

def one(d:Path, sig, at:float, epochs:int)->dict:
    rd = d/f'{sig.name}-{at}'
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', 'task=tasks_for_tests:tiny', 'num_workers=0', f'epochs={epochs}',
                          'early_stop.patience=null', 'progress=false', f'run_dir={rd}'], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic(); time.sleep(at); p.send_signal(sig); sent = time.time()
    try: out, err = p.communicate(timeout=300)
    except subprocess.TimeoutExpired: p.kill(); out, err = p.communicate()
    st = json.loads((rd/'status.json').read_text()).get('state') if (rd/'status.json').exists() else None
    ends = [json.loads(l) for l in (rd/'metrics.jsonl').read_text().splitlines() if '"finished"' in l] if (rd/'metrics.jsonl').exists() else []
    after_end = bool(ends) and ends[-1].get('time', sent) < sent  # the final record was out before the signal: by design, it changes nothing
    rc, lines = p.returncode, [l for l in err.strip().splitlines() if l.strip()]
    if rc == 75 and st in ('stopped', None): how = 'stopped' if st else 'stopped during setup (no run directory yet)'
    elif rc == -sig: how = "killed before Python ran ntrain"
    elif rc == 1 and 'init_import_site' in err: how = "python's own start (site)"
    elif rc == 0 and st == 'finished' and after_end: how = 'after the final record (changes nothing, by design)'
    else: how = f'LOST (exit {rc}, state {st})'
    shutil.rmtree(rd, ignore_errors=True)
    return dict(signal=sig.name, at=at, rc=rc, state=st, how=how, seconds=round(time.monotonic() - t0, 2),
                traceback='Traceback' in err and 'init_import_site' not in err, lines=len(lines), first=lines[0][:160] if lines else '')

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--tries', type=int, default=2); ap.add_argument('--epochs', type=int, default=5000)
    ap.add_argument('--at', type=float, nargs='*', default=INSTANTS, help='the instants (s after the start)')
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'readers_stops.json')); a = ap.parse_args()
    d, rows = Path(tempfile.mkdtemp(prefix='stops-')), []
    for _ in range(a.tries):
        for sig in (signal.SIGINT, signal.SIGTERM):
            for at in a.at:
                rows.append(one(d, sig, at, a.epochs)); print(json.dumps(rows[-1]), flush=True)
    count = collections.Counter(r['how'] for r in rows)
    summary = dict(tries=len(rows), outcomes=dict(count), lost=sum(r['how'].startswith('LOST') for r in rows),
                   tracebacks=sum(r['traceback'] for r in rows), over_one_line=sum(r['lines'] > 1 and not r['how'].startswith("python's") for r in rows))
    print(json.dumps(summary, indent=1))
    Path(a.out).write_text(json.dumps(dict(when=time.strftime('%Y-%m-%d %H:%M:%S'), note='a shared, loaded 2-core machine', summary=summary, rows=rows), indent=1))
    shutil.rmtree(d, ignore_errors=True)

if __name__ == '__main__': main()
