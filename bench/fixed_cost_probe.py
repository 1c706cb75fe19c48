"""Where ntrain's fixed cost goes in `ntrain fit`: the CLI run in-process with wall-clock timers around the
pieces that are not training steps. Run by hand, several times, on a quiet machine:

    python bench/fixed_cost_probe.py                       # ntrain fit digits epochs=8 (in a temporary directory)
    python bench/fixed_cost_probe.py epochs=1 --repeat 3
    python bench/fixed_cost_probe.py --json out.json

It starts a child process per repeat (so imports are paid as a user pays them) that stamps time.time() at its
first line, wraps the functions below with timers (each skipped if the engine no longer has it), runs
`ntrain.cli.main(['fit', 'digits', ...])`, and reports. The parent stamps the exit. Timed pieces: `import ntrain.cli, ntrain.engine.trainer` (torch with them),
the CLI parser, `Trainer._setup_process`, `_claim_run_dir`, `get_task` (scikit-learn's import and the digits
load), `_build_model` (torch.optim's first use imports torch._dynamo), `_open_run` with `env_record`,
`pip_freeze` and `git_state` inside it, every `draw_curves` (with where it was called from: the epoch end, inside
the loop, or the end of the run), `write_card`, `validate`, `end_epoch`, `Saver.wait`, the first optimizer step's
end (a global step post-hook), the last one, and the interpreter's exit after `main` returns.
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import time, sys, json
T0 = time.time()
import ntrain.cli, ntrain.engine.trainer  # what `ntrain fit` loads before its setup (`import ntrain` alone loads nothing)
T_IMPORT = time.time()
import torch, traceback
from torch.optim.optimizer import register_optimizer_step_post_hook
rec = dict(t_script=T0, t_imported=T_IMPORT, calls=[], steps=[])
register_optimizer_step_post_hook(lambda o, a, k: rec['steps'].append(time.time()))
def wrap(owner, name, label=None):
    f = getattr(owner, name, None)
    if f is None: return
    def g(*args, **kw):
        t = time.time()
        try: return f(*args, **kw)
        finally:
            where = [fr.name for fr in traceback.extract_stack()[:-1]]
            ctx = 'end_epoch' if 'end_epoch' in where else 'result' if 'result' in where else ''
            rec['calls'].append((label or name, t, time.time(), ctx, len(rec['steps'])))
    setattr(owner, name, g)
import ntrain.engine.trainer as tr, ntrain.core as core, ntrain.card as card, ntrain.plots as plots, ntrain.data as data, ntrain.engine.checkpoint as ck, ntrain.cli as cli
import ntrain.engine.trainstate as rs
for n in ('_setup_process', '_claim_run_dir', '_build_model', '_open_run', 'validate', 'end_epoch', 'result', 'setup'):
    wrap(tr.Trainer, n)
wrap(tr, 'get_task'); wrap(core, 'pip_freeze'); wrap(core, 'git_state'); wrap(tr, 'env_record'); wrap(core, 'env_record', 'env_record(core)')
wrap(plots, 'draw_curves'); wrap(card, 'write_card'); wrap(ck.Saver, 'wait', 'Saver.wait'); wrap(cli, 'parser')
def finish(code, fast=False):  # the command line's way out (os._exit where the engine has it): stamp, then leave as `ntrain` does
    rec['t_main_end'], rec['code'] = time.time(), code
    print('PROBE ' + json.dumps(rec), flush=True)
    try: return FINISH(code, fast=True)
    except TypeError: return FINISH(code)  # an engine without the fast exit
FINISH, cli._finish = cli._finish, finish
rec['t_main_start'] = time.time()
try: cli.main(sys.argv[1:])
except SystemExit: pass
'''


def one(overrides, env)->dict:
    with tempfile.TemporaryDirectory() as d:
        t_launch = time.time()
        r = subprocess.run([sys.executable, '-c', CHILD, 'fit', 'digits', *overrides, f'run_dir={d}/run'], cwd=d, env=env,
                           capture_output=True, text=True, timeout=900)
        t_exit = time.time()
    line = next((l for l in r.stdout.splitlines() if l.startswith('PROBE ')), None)
    if line is None: raise SystemExit(f'the child failed:\n{r.stderr[-3000:]}')
    rec = json.loads(line[6:])
    rel = lambda t: t - t_launch
    rows = [('interpreter up (first line)', 0.0, rel(rec['t_script'])), ('import ntrain.cli, ntrain.engine.trainer', rel(rec['t_script']), rel(rec['t_imported']))]
    for name, a, b, ctx, nsteps in rec['calls']:
        rows.append((name + (f' [in {ctx}]' if ctx else '') + f' (after step {nsteps})', rel(a), rel(b)))
    steps = rec['steps']
    pieces = {'import ntrain.cli, ntrain.engine.trainer': rec['t_imported'] - rec['t_script']}
    for name, a, b, ctx, nsteps in rec['calls']:
        k = name + (f' [in {ctx}]' if ctx else '')
        pieces[k] = pieces.get(k, 0.0) + (b - a)
    out = dict(pieces=pieces, overrides=overrides, wall=t_exit - t_launch, first_step=rel(steps[0]) if steps else None, last_step=rel(steps[-1]) if steps else None,
               main_end=rel(rec['t_main_end']), exit_after_main=t_exit - rec['t_main_end'], steps=len(steps),
               rows=sorted(rows, key=lambda r: r[1]), code=rec['code'])
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('overrides', nargs='*', default=['epochs=8'])
    p.add_argument('--repeat', type=int, default=1)
    p.add_argument('--json', default=None)
    a = p.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get('PYTHONPATH', '')]))
    res, la0 = [], os.getloadavg()
    for i in range(a.repeat):
        r = one(a.overrides, env); res.append(r)
        print(f"== ntrain fit digits {' '.join(a.overrides)}  (load average {os.getloadavg()[0]:.2f})")
        print(f"   wall {r['wall']:.2f} s; first step at {r['first_step']:.2f} s; last step at {r['last_step']:.2f} s; "
              f"main() returned at {r['main_end']:.2f} s; interpreter exit {r['exit_after_main']:.2f} s; {r['steps']} steps")
        for name, s, e in r['rows']:
            if e - s >= 0.005: print(f"   {s:7.2f} -> {e:7.2f}  {e - s:6.3f} s  {name}")
    if a.json:
        sys.path.insert(0, str(ROOT/'bench'))
        from e2e import meta
        Path(a.json).write_text(json.dumps(dict(bench='fixed_cost_probe', command='python bench/fixed_cost_probe.py ' + ' '.join(sys.argv[1:] if argv is None else argv),
                                                when=time.strftime('%Y-%m-%d %H:%M:%S'), loadavg_start=la0, loadavg_end=os.getloadavg(), **meta(), runs=res), indent=1))


if __name__ == '__main__':
    main()
