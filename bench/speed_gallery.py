"""The speed check's gallery, by hand: CPU tasks with one known bottleneck each (bench/speed_tasks.py), the check's
verdict on each repeated 3 times, and a separate measurement of the data fix against the baseline that confirms (or
not) what the check recommended. From the repository root:

    OMP_NUM_THREADS=1 python bench/speed_gallery.py              # bench/results/speed_gallery.json, its section of bench/RESULTS.md
    OMP_NUM_THREADS=1 python bench/speed_gallery.py --repeats 1 --tasks small   # a quick look

Each check is `ntrain.speed(...)`: a child process (`ntrain speed`) with its default 60 s budget; its own run time
is the wall time of that call, process start included. The data-bound task runs with a CPU hog on one core, as its
workers must help even then. The confirming measurement runs in this process (`ntrain.ladder.speed.trial`): baseline and
the fix, `--pairs` pairs in alternating order (AB, BA, ...), `--steps` timed steps each; its ratio is the median of
the pairs' ratios of samples/s.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SECTION = '## The speed check on its gallery (bench/speed_gallery.py)'
GALLERY = [  # name, task, config keys, the bottleneck it is built to have, a CPU hog on one core during its measurements
    dict(name='data-bound', task='bench.speed_tasks:io_bound', keys=['num_workers=0', 'batch_size=32'], expect='data', hog=True),
    dict(name='compute-bound', task='bench.speed_tasks:wide_mlp', keys=['num_workers=0', 'batch_size=64'], expect='compute', hog=False),
    dict(name='healthy small', task='bench.speed_tasks:small', keys=['num_workers=0', 'batch_size=16'], expect='none', hog=False),
]
FIX = dict(num_workers=2, persistent_workers=True)  # the data fix every task is confirmed against


class Hog:
    "A process spinning on one core while the block runs (ended by its pid)."
    def __init__(self, on:bool): self.on, self.p = on, None
    def __enter__(self):
        if self.on: self.p = subprocess.Popen([sys.executable, '-c', 'while True: pass'])
        return self
    def __exit__(self, *exc):
        if self.p is not None: self.p.kill(); self.p.wait()


def config(g:dict, extra=()): return ['digits', [f"task={g['task']}", *g['keys'], 'log_every=10', 'early_stop.patience=null', *extra]]


def check(g:dict, budget:float, out:Path, i:int)->dict:
    "One speed check of the task in its child process: its verdict, recommendation, trials and own run time."
    import ntrain
    cfg, keys = config(g)
    t0 = time.monotonic()
    r = ntrain.speed(cfg, keys, run_dir=out/f"{g['name'].replace(' ', '_')}-{i}", quiet=True, budget=budget)
    return dict(bottleneck=r.bottleneck, evidence=r.evidence, recommend=r.recommend, seconds=time.monotonic() - t0, check_seconds=r.seconds,
                rows=[{k: x.get(k) for k in ('fix', 'samples_per_s', 'speedup', 'band', 'verdict', 'recommended')} for x in r.rows])


def confirm(g:dict, pairs:int, steps:int, out:Path)->dict:
    "The fix against the baseline, measured apart: `pairs` alternating pairs of trials; the median ratio of samples/s."
    from ntrain.config import load_config
    from ntrain.data import get_task
    from ntrain.events import Stopper
    from ntrain.ladder.speed import trial
    cfg = load_config(*config(g)); task = get_task(cfg.task, **cfg.task_args)
    ratios, k = [], 0
    for p in range(pairs):
        got = {}
        for arm in (('base', 'fix') if p % 2 == 0 else ('fix', 'base')):
            k += 1
            got[arm] = trial(cfg, task, {} if arm == 'base' else FIX, 5 + steps, 5, Stopper(), out/f"confirm-{g['name'].replace(' ', '_')}-{k}")['samples_per_s']
        ratios.append(got['fix'] / got['base'])
    return dict(fix=' '.join(f'{k}={v}' for k, v in FIX.items()), ratios=ratios, median=statistics.median(ratios))


def section(res:dict)->str:
    L = [SECTION, '', f"{res['when']}, {res['machine']}; `{res['command']}`. Each task's check {res['repeats']} times (a child process "
         f"each, budget {res['budget']:g} s), then the data fix ({res['fix']}) against the baseline measured apart: {res['pairs']} alternating "
         f"pairs of {res['steps']} timed steps, median ratio of samples/s (min-max).", '',
         '| task | built to be | verdicts | recommended | the check\'s own run time | confirming: fix / baseline | agrees |', '|---|---|---|---|---|---|---|']
    for name, t in res['tasks'].items():
        v = ', '.join(c['bottleneck'] for c in t['checks'])
        rec = '; '.join(' '.join(f'{k}={x}' for k, x in c['recommend'].items()) or '{}' for c in t['checks'])
        secs = ', '.join(f"{c['seconds']:.0f} s" for c in t['checks'])
        c = t['confirm']
        L.append(f"| {name} | {t['expect']} | {v} | {rec} | {secs} | x{c['median']:.2f} ({min(c['ratios']):.2f}-{max(c['ratios']):.2f}) | {t['agrees']} |")
    L += ['', "'agrees': every verdict names the row the task was built for, and the fix is recommended exactly when the separate "
          "measurement finds it faster by more than the widest noise band the checks reported.", '']
    return '\n'.join(L)


def write_results_md(text:str, path:Path):
    "Put the section into RESULTS.md: in place of its previous version, else before the GPU section (else at the end)."
    md = path.read_text() if path.exists() else '# ntrain benchmark results\n'
    if SECTION in md:
        a = md.index(SECTION); b = md.find('\n## ', a + len(SECTION))
        md = md[:a] + text + ('\n' + md[b + 1:] if b >= 0 else '')
    elif '\n## The GPU path' in md:
        i = md.index('\n## The GPU path'); md = md[:i + 1] + text + '\n' + md[i + 1:]
    else: md = md.rstrip() + '\n\n' + text
    path.write_text(md)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--repeats', type=int, default=3); ap.add_argument('--budget', type=float, default=60.0)
    ap.add_argument('--pairs', type=int, default=3); ap.add_argument('--steps', type=int, default=100)
    ap.add_argument('--tasks', nargs='+', default=[g['name'].split()[0].split('-')[0] for g in GALLERY], help='data, compute, healthy')
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'speed_gallery.json')); ap.add_argument('--md', default=str(ROOT/'bench'/'RESULTS.md'))
    a = ap.parse_args()
    os.environ['PYTHONPATH'] = os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')])  # the child imports bench.speed_tasks
    tmp = Path(tempfile.mkdtemp(prefix='speed-gallery-'))
    res = dict(when=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), machine=f'{os.cpu_count()} CPUs, load {tuple(round(x, 2) for x in os.getloadavg())}',
               command=' '.join(['python', 'bench/speed_gallery.py'] + sys.argv[1:]), repeats=a.repeats, budget=a.budget, pairs=a.pairs, steps=a.steps,
               fix=' '.join(f'{k}={v}' for k, v in FIX.items()), tasks={})
    for g in GALLERY:
        if g['name'].split()[0].split('-')[0] not in a.tasks: continue
        with Hog(g['hog']):
            checks = []
            for i in range(a.repeats):
                checks.append(check(g, a.budget, tmp, i)); c = checks[-1]
                print(f"{g['name']} {i + 1}/{a.repeats}: {c['bottleneck']} | {c['evidence']} | recommend {c['recommend']} | {c['seconds']:.0f} s", flush=True)
            conf = confirm(g, a.pairs, a.steps, tmp)
        print(f"{g['name']}: {conf['fix']} / baseline measured apart: x{conf['median']:.2f} {[round(r, 2) for r in conf['ratios']]}", flush=True)
        band = max((r['band'] or 0) for c in checks for r in c['rows'] if r['fix'].startswith('num_workers'))
        faster = conf['median'] > 1 + band
        recs = [any(k == 'num_workers' for k in c['recommend']) for c in checks]
        agrees = all(c['bottleneck'] == g['expect'] for c in checks) and all(r == faster for r in recs)
        res['tasks'][g['name']] = dict(expect=g['expect'], checks=checks, confirm=conf, band=band, agrees='yes' if agrees else 'NO')
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(res, indent=1) + '\n')
    text = section(res); print('\n' + text)
    write_results_md(text, Path(a.md))


if __name__ == '__main__': main()
