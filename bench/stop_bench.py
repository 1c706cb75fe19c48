"""How long a graceful stop takes, as a scheduler sees it: from the signal to the command's exit.

Slurm's `scancel` (KillWait) and torchrun's agent send SIGKILL 30 s after SIGTERM; ntrain's target is 20 s on the
digits example, the step finished, `last.pt` saved, exit 75. For each layout (`ntrain fit digits`, and `ntrain launch
digits --nproc 2`) and each way a scheduler signals (`group`: SIGTERM to the process group, as `timeout` and a terminal
do; `tree`: SIGTERM to every process of the command, in random order, as systemd's cgroup kill and Slurm do), N runs are
signalled at a random moment of their training (0.5-4 s after the first step record), and the seconds from the signal to
the exit are recorded with the exit status and the run's final state.

    python bench/stop_bench.py              # 10 runs of each; bench/results/stop.json
    python bench/stop_bench.py --runs 3 --layouts fit
"""
import argparse, json, os, platform, random, signal, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from ntrain.rundir import process_tree
ARGS = ['digits', 'epochs=200', 'early_stop.patience=null', 'progress=false', 'log_every=1']
LAYOUTS = {'fit': ['fit', *ARGS], 'launch2': ['launch', *ARGS, '--nproc', '2']}


def first_step(rd:Path)->bool:
    p = rd/'metrics.jsonl'
    return p.exists() and b'"kind": "step"' in p.read_bytes()


def one(layout:str, how:str, rnd:random.Random, work:Path)->dict:
    rd = work/f'{layout}-{how}-{time.time_ns()}'
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS=os.environ.get('OMP_NUM_THREADS', '1'))
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', *LAYOUTS[layout], f'run_dir={rd}'], env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        t0 = time.monotonic()
        while not first_step(rd):
            if p.poll() is not None or time.monotonic() - t0 > 300: raise RuntimeError(f'{layout}: no first step (exit {p.poll()})')
            time.sleep(0.02)
        time.sleep(rnd.uniform(0.5, 4.0))
        t1 = time.monotonic()
        if how == 'group': os.killpg(p.pid, signal.SIGTERM)
        else:
            pids = process_tree(p.pid); rnd.shuffle(pids)
            for q in pids:
                try: os.kill(q, signal.SIGTERM)
                except ProcessLookupError: pass
        p.wait(timeout=120)
        took = time.monotonic() - t1
    finally:
        if p.poll() is None: os.killpg(p.pid, signal.SIGKILL); p.wait()
    st = json.loads((rd/'status.json').read_text()) if (rd/'status.json').exists() else {}
    return dict(seconds=round(took, 3), exit=p.returncode, state=st.get('state'), step=st.get('step'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--runs', type=int, default=10)
    ap.add_argument('--layouts', nargs='+', default=list(LAYOUTS))
    ap.add_argument('--hows', nargs='+', default=['group', 'tree'])
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'stop.json'))
    a = ap.parse_args()
    rnd, res = random.Random(a.seed), {}
    commit = subprocess.run(['git', '-C', str(ROOT), 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as d:
        for layout in a.layouts:
            for how in a.hows:
                runs = [one(layout, how, rnd, Path(d)) for _ in range(a.runs)]
                s = [r['seconds'] for r in runs]
                res[f'{layout}/{how}'] = dict(runs=runs, median_s=statistics.median(s), max_s=max(s), within_20s=sum(x < 20 for x in s),
                                              exit_75=sum(r['exit'] == 75 for r in runs), stopped=sum(r['state'] == 'stopped' for r in runs))
                r = res[f'{layout}/{how}']
                print(f"{layout:8s} {how:5s}  median {r['median_s']:.2f} s  max {r['max_s']:.2f} s  within 20 s {r['within_20s']}/{a.runs}  "
                      f"exit 75 {r['exit_75']}/{a.runs}  stopped {r['stopped']}/{a.runs}", flush=True)
    out = dict(commit=commit, machine=dict(cpus=os.cpu_count(), python=platform.python_version()), load=os.getloadavg(), runs=a.runs,
               seed=a.seed, command=' '.join(sys.argv), results=res)
    Path(a.out).write_text(json.dumps(out, indent=1))
    print(f'wrote {a.out}')


if __name__ == '__main__':
    main()
