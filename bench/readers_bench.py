"""The readers on a run of 1 M and 2 M records: peak memory (RSS) and wall time of `ntrain report`, `watch`, `compare`,
`runs`, a dashboard's view (`RunView` fed by a chunked `Watcher`) and `attach`; and `watch --timeout 5` on a run that
looks live, which must end within 2 s of its timeout. Targets (issue 34): peak RSS <= 300 MB, report <= 30 s.

    OMP_NUM_THREADS=1 python bench/readers_bench.py [--sizes 1000000 2000000] [--keep DIR]   # writes bench/results/readers.json

A real tiny run gives the files a card needs (config.yaml, env.json); its metrics.jsonl is replaced by a synthetic one:
its start record, N-2 records (a `step` record each step, an `epoch` and a `val` record every 1000 steps, a `checkpoint`
record every 5000), and a `finished` record. Each reader runs in a child process; its peak RSS is the child's ru_maxrss."""
import argparse, json, os, shutil, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, OMP_NUM_THREADS='1', PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT/'tests')]), PYTHONWARNINGS='ignore')

def base_run(d:Path)->Path:
    rd = d/'base'
    subprocess.run([sys.executable, '-m', 'ntrain', 'fit', 'digits', 'task=tasks_for_tests:tiny', 'num_workers=0', 'epochs=1',
                    'progress=false', f'run_dir={rd}'], env=ENV, check=True, capture_output=True, timeout=300)
    return rd

def synth(base:Path, rd:Path, n:int):
    "A copy of `base` whose metrics.jsonl holds `n` records."
    shutil.copytree(base, rd)
    start = json.loads((base/'metrics.jsonl').read_text().splitlines()[0])
    steps = n - 2 - 2 * ((n - 2) // 1002)
    start.update(total_steps=steps, epochs=max(steps // 1000, 1), steps_per_epoch=1000)
    t = start['time']
    with open(rd/'metrics.jsonl', 'w') as f:
        f.write(json.dumps(start) + '\n'); k = 1
        for s in range(1, steps + 1):
            if k >= n - 1: break
            t += 0.01
            f.write(json.dumps(dict(kind='step', epoch=(s - 1) // 1000, step=s, loss=2.3 / (1 + s / 1e4) + 0.01 * ((s * 7919) % 13) / 13,
                                    lr=1e-3, grad_norm=0.5 + (s % 17) / 17, samples_per_s=12345.6 + s % 100, data_wait=0.0123, time=t)) + '\n'); k += 1
            if s % 1000 == 0 and k < n - 2:
                e = s // 1000 - 1
                f.write(json.dumps(dict(kind='val', epoch=e, step=s, val_loss=2.0 / (1 + e), val_acc=0.5 + 0.4 * e / (e + 10), time=t)) + '\n')
                f.write(json.dumps(dict(kind='epoch', epoch=e, step=s, train_loss=2.1 / (1 + e), train_acc=0.5, val_loss=2.0 / (1 + e),
                                        val_acc=0.5 + 0.4 * e / (e + 10), lr=1e-3, samples_per_s=12345.6, data_wait=0.0123, epoch_time=10.0,
                                        peak_mem={'0': 123.4}, time=t)) + '\n'); k += 2
        f.write(json.dumps(dict(kind='finished', epoch=max(steps // 1000 - 1, 0), step=s, reason='epochs', status='finished', time=t)) + '\n')
    st = json.loads((rd/'status.json').read_text()); st.update(step=s, total_steps=steps)
    (rd/'status.json').write_text(json.dumps(st))

def live_copy(rd:Path, live:Path):
    "The run as a live one: status.json says running, held by this (live) process; no final record."
    if not live.exists():
        shutil.copytree(rd, live)
        with open(live/'metrics.jsonl', 'r+b') as f:  # the final record cut off
            f.seek(-2, 2)
            while f.read(1) != b'\n': f.seek(-2, 1)
            f.truncate()
    sys.path.insert(0, str(ROOT))
    from ntrain.rundir import process_id
    st = json.loads((live/'status.json').read_text())
    st.update(state='running', phase='train', progress_time=time.time(), updated=time.time(), **process_id())
    (live/'status.json').write_text(json.dumps(st))

# the child's own peak RSS (VmHWM: per address space, so not the parent's at the fork), written at its exit
HWM = ("import atexit, os, runpy, sys\n"
       "def _hwm():\n    kb = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
       "    open(os.environ['HWM_OUT'], 'w').write(kb)\n"
       "atexit.register(_hwm)\nsys.argv = sys.argv[1:]\n"
       "if sys.argv[0] == '-m': sys.argv = ['ntrain'] + sys.argv[2:]; runpy.run_module('ntrain', run_name='__main__')\n"
       "else: exec(compile(sys.argv[0], '<bench>', 'exec'), {'__name__': '__main__'})\n")

def measure(argv:list, timeout:float=600)->dict:
    "Run `python ARGV...` (argv without the interpreter): exit code, wall time, the child's peak RSS."
    import resource
    out = Path(tempfile.mkstemp()[1]); t = time.monotonic(); ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, '-c', HWM, *argv], env=dict(ENV, HWM_OUT=str(out)), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=timeout)
    wall = time.monotonic() - t; ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)  # the child's own CPU seconds: what a quiet machine would take
    kb = out.read_text().strip(); out.unlink()
    return dict(rc=r.returncode, wall_s=round(wall, 2), cpu_s=round(cpu, 2), peak_rss_mb=round(int(kb) / 1024, 1) if kb else None,
                stderr=r.stderr.decode(errors='replace')[-300:])

VIEW = ("import sys; from ntrain.events import Watcher; from ntrain.notebook.viewmodel import RunView; v = RunView(launched=False); "
        "w = Watcher(sys.argv[1], chunk=Watcher.CHUNK)\nwhile True:\n    [v.apply(r) for r in w.poll()]\n    if not w.behind: break\n"
        "d = v.to_dict(); assert d['end'] and len(d['curves']['step']) <= 2 * v.POINTS, len(d['curves']['step'])")
ATTACH = "import sys, ntrain; h = ntrain.attach(sys.argv[1]); print(len(h.records()))"

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--sizes', type=int, nargs='+', default=[1_000_000, 2_000_000])
    ap.add_argument('--keep', default=None); ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'readers.json'))
    a = ap.parse_args()
    d = Path(a.keep or tempfile.mkdtemp(prefix='readers-bench-')); d.mkdir(parents=True, exist_ok=True)
    base = d/'base' if (d/'base'/'config.yaml').exists() else base_run(d)
    py, out = [], {}
    for n in a.sizes:
        rd, live = d/f'runs{n}'/'run', d/f'live{n}'/'run'
        if not rd.exists(): synth(base, rd, n)
        live_copy(rd, live)
        if not (rd/'launch.json').exists():  # for attach: a launch whose process is gone
            (rd/'launch.json').write_text(json.dumps(dict(pid=2 ** 22 - 7, pid_start=1.0, host='nowhere', command=['ntrain'], started=1.0)))
        size = (rd/'metrics.jsonl').stat().st_size
        r = {'records': n, 'file_mb': round(size / 2 ** 20, 1)}
        r['report'] = measure(py + ['-m', 'ntrain', 'report', str(rd)])
        r['watch'] = measure(py + ['-m', 'ntrain', 'watch', str(rd), '--every', '1000'])
        r['watch --timeout 5 (live)'] = m = measure(py + ['-m', 'ntrain', 'watch', str(live), '--timeout', '5', '--every', '1000'])
        m['over_timeout_s'] = round(m['wall_s'] - 5, 2)
        r['compare'] = measure(py + ['-m', 'ntrain', 'compare', str(rd), str(rd)])
        r['runs'] = measure(py + ['-m', 'ntrain', 'runs', str(rd.parent)])
        r['dashboard view'] = measure(py + [VIEW, str(rd/'metrics.jsonl')])
        r['attach (Launch.records)'] = measure(py + [ATTACH, str(rd)])
        out[str(n)] = r
        print(json.dumps(r, indent=1), flush=True)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(dict(when=time.strftime('%Y-%m-%d %H:%M:%S'), note='a shared, loaded 2-core machine: times are inflated', results=out), indent=1))
    if not a.keep: shutil.rmtree(d, ignore_errors=True)

if __name__ == '__main__': main()
