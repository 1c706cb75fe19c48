"""`ntrain launch --slurm` on a real one-node Slurm (tests/slurm_local.py: munged, slurmctld and slurmd started once for
this file, as root, and stopped at its end): a 2-process run requeued mid-run ends bit-identical to the same run launched
without Slurm; a job with a short time limit and its warning finishes across requeues; scancel ends the run `stopped`
and it resumes; a job held in the queue reads PENDING. Skipped without root or the Slurm packages (`.ci/run` installs
them); under CI=true a skip is a failure. Every wait is bounded.
"""
import json, os, subprocess, sys, time
from pathlib import Path
import pytest
from conftest import logs, ROOT
import slurm_local

TIMEOUT = 240
EXACT = ['epochs=4', 'num_workers=0', 'batch_size=32', 'deterministic=true', 'ckpt_every=5', 'log_every=2', 'progress=false']

@pytest.fixture(scope='module')
def slurm(tmp_path_factory):
    "A local one-node Slurm for this file; SLURM_CONF set for every command the tests and ntrain run."
    if (why := slurm_local.missing()):
        msg = f'no local Slurm here: missing {", ".join(why)} (apt-get install slurmctld slurmd slurm-client munge)'
        if os.environ.get('CI') == 'true': pytest.fail(msg)  # in CI a skipped Slurm test is a failure
        pytest.skip(msg)
    d = tmp_path_factory.mktemp('slurm')
    env = slurm_local.start(d)
    before = os.environ.get('SLURM_CONF')
    os.environ['SLURM_CONF'] = env['SLURM_CONF']
    try: yield d
    finally:
        slurm_local.stop(d)
        if before is None: os.environ.pop('SLURM_CONF', None)
        else: os.environ['SLURM_CONF'] = before

def env(**kw):
    e = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1', NTRAIN_DIST_TIMEOUT='60',
             PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT/'tests'), os.environ.get('PYTHONPATH', '')])))
    e.update({k: str(v) for k, v in kw.items()})
    return e

def cli(*args, rd=None, timeout=TIMEOUT, expect=0, cwd=None):
    r = subprocess.run([sys.executable, '-m', 'ntrain', *map(str, args)], env=env(), capture_output=True, text=True, timeout=timeout, cwd=cwd)
    if expect is not None and r.returncode != expect:
        raise AssertionError(f'ntrain {" ".join(map(str, args))}: exit {r.returncode}, expected {expect}\n'
                             f'STDOUT:\n{r.stdout[-3000:]}\nSTDERR:\n{r.stderr[-3000:]}\n{everything(rd) if rd else ""}')
    return r

def everything(rd)->str:
    "The run's logs and the Slurm job's log, for a failure message."
    rd = Path(rd)
    job = (rd/'slurm.log').read_text(errors='replace')[-4000:] if (rd/'slurm.log').exists() else ''
    return f'{logs(rd)}\n----- slurm.log\n{job}\n----- slurm-events.jsonl\n' + ((rd/'slurm-events.jsonl').read_text() if (rd/'slurm-events.jsonl').exists() else '')

def job_id(rd)->str: return json.loads((Path(rd)/'slurm.json').read_text())['job_id']

def wait_for(what, cond, rd, timeout=TIMEOUT, every=0.2):
    t0 = time.monotonic()
    while not (v := cond()):
        if time.monotonic() - t0 > timeout: raise AssertionError(f'{what}: not within {timeout} s\n{everything(rd)}')
        time.sleep(every)
    return v

def job_ended(rd):
    "The job's final state once it has left the queue for good (COMPLETED, CANCELLED, TIMEOUT, FAILED), else None."
    from ntrain.slurm import job_state, LIVE_JOB
    st = job_state(rd, max_age=0)
    return st['state'] if st and st['state'] not in LIVE_JOB else None

def steps_done(rd)->int:
    p = Path(rd)/'metrics.jsonl'
    if not p.exists(): return 0
    return max([json.loads(l).get('step', 0) for l in p.read_text().splitlines() if '"kind": "step"' in l] or [0])

def assert_bit_identical(a, b):
    import torch
    from ntrain.engine.checkpoint import load as load_ckpt
    from ntrain.events import MEASURED
    wa, wb = (load_ckpt(Path(r)/'ckpt'/'last.pt')['model'] for r in (a, b))
    assert wa.keys() == wb.keys()
    for k in wa: assert torch.equal(wa[k], wb[k]), f'{k} differs\n{everything(b)}'
    epochs = lambda rd: [{k: v for k, v in json.loads(l).items() if k not in set(MEASURED)}
                         for l in (Path(rd)/'metrics.jsonl').read_text().splitlines() if '"kind": "epoch"' in l]
    assert epochs(a) == epochs(b) and len(epochs(a)) == 4

@pytest.fixture(scope='module')
def time_limit_run(slurm, tmp_path_factory):
    """Submitted first, checked last: a 1-process run of ~90 s of training (a train set that sleeps 10 ms a sample), given
    2 minutes and the default warning (60 s, half the limit), so it cannot end within its first job. It mostly sleeps,
    so its minutes overlap the other tests (the node says it has 8 cores)."""
    rd = tmp_path_factory.mktemp('tl')/'run'
    cli('launch', 'digits', 'task=integrity_tasks:slow', 'task_args.delay=0.01', 'epochs=35', 'early_stop.patience=null', 'num_workers=0', 'batch_size=32',
           'progress=false', f'run_dir={rd}', '--nproc', 1, '--slurm', '--time=2', '--max-requeues=4', rd=rd)
    return rd

@pytest.fixture(scope='module')
def reference(tmp_path_factory):
    "The same 2-process run, launched without Slurm."
    rd = tmp_path_factory.mktemp('ref')/'run'
    cli('launch', 'digits', *EXACT, f'run_dir={rd}', '--nproc', 2, rd=rd)
    return rd

def test_a_held_job_reads_pending_and_leaves_the_queue_on_stop(slurm, time_limit_run, tmp_path):
    import ntrain
    rd = tmp_path/'held'
    out = cli('launch', 'digits', *EXACT, f'run_dir={rd}', '--nproc', 2, '--slurm', '--sbatch=--hold', rd=rd).stdout
    assert f'slurm job {job_id(rd)}: run directory {rd}' in out, out
    h = ntrain.attach(rd)
    st = wait_for('the held job reads PENDING', lambda: (s := h.scheduler) and s['state'] == 'PENDING' and s['reason'] and s, rd)
    assert st['reason'].startswith('JobHeld') and st['source'] == 'squeue', st
    assert h.running and h.poll() is None and h.cannot_kill is None and 'PENDING (JobHeld' in repr(h), repr(h)
    listed = cli('runs', tmp_path).stdout
    assert f'{rd}' in listed and 'queued' in listed and f'slurm job {job_id(rd)}: PENDING (JobHeld' in listed, listed
    watched = cli('watch', rd, '--timeout', 2, '--wait', 0, expect=None).stdout
    assert f'slurm job {job_id(rd)}: PENDING (JobHeld' in watched, watched
    from ntrain.notebook.dashboard import dashboard
    db = dashboard(h)  # its stats row names the job's state
    wait_for('the dashboard shows PENDING', lambda: f'job {job_id(rd)}: PENDING (JobHeld' in db.w['stats'].value, rd, timeout=30)
    h.stop(timeout=0)  # a job in the queue: Stop takes it out (scancel); nothing ran
    assert wait_for('the held job leaves the queue', lambda: job_ended(rd), rd, timeout=60) == 'CANCELLED'
    res = h.wait(60)
    assert res.status == 'killed' and not (rd/'status.json').exists(), res
    wait_for('the dashboard shows CANCELLED', lambda: f'job {job_id(rd)}: CANCELLED' in db.w['stats'].value, rd, timeout=30)

def test_a_requeued_run_ends_bit_identical_to_one_without_slurm(slurm, reference, tmp_path):
    "`scontrol requeue` mid-run: SIGTERM to the job, every rank saves and stops; Slurm reruns the job, which resumes exactly."
    rd = tmp_path/'run'
    cli('launch', 'digits', *EXACT, f'run_dir={rd}', '--nproc', 2, '--slurm', rd=rd)
    jid = job_id(rd)
    wait_for('the run reaches step 10', lambda: steps_done(rd) >= 10, rd)
    run_id = json.loads((rd/'status.json').read_text())['run_id']
    subprocess.run(['scontrol', 'requeue', jid], check=True, timeout=60, capture_output=True)
    assert wait_for('the requeued job completes', lambda: job_ended(rd), rd, timeout=TIMEOUT) == 'COMPLETED', everything(rd)
    st = json.loads((rd/'status.json').read_text())
    assert st['state'] == 'finished' and st['run_id'] == run_id, st
    starts = [e['restart'] for e in map(json.loads, (rd/'slurm-events.jsonl').read_text().splitlines()) if e['event'] == 'started']
    assert starts == [0, 1], everything(rd)
    kinds = [json.loads(l)['kind'] for l in (rd/'metrics.jsonl').read_text().splitlines()]
    assert kinds.count('resume') == 1 and kinds[-1] == 'finished', kinds  # (one history: the stop's record is rewound by the resume)
    assert_bit_identical(reference, rd)
    import ntrain
    h = ntrain.attach(rd)
    assert h.poll() == 0 and h.result.status == 'finished' and h.scheduler['state'] == 'COMPLETED', (h.result, h.scheduler)
    assert 'requeued 1x' in cli('runs', tmp_path).stdout

def test_scancel_ends_stopped_and_the_run_resumes(slurm, reference, tmp_path):
    "Kill of a Slurm run is scancel: SIGTERM, every rank saves; the job ends CANCELLED, the run `stopped`; resumed, it ends exactly."
    import ntrain
    rd = tmp_path/'run'
    h = ntrain.launch('digits', EXACT, run_dir=rd, nproc=2, slurm=True, env=env())
    first = h.job
    wait_for('the run reaches step 10', lambda: steps_done(rd) >= 10, rd)
    assert h.kill() is True
    res = h.wait(TIMEOUT)
    assert res.status == 'stopped' and res.exit_code == 75, (res, everything(rd))
    assert h.scheduler['state'] == 'CANCELLED', h.scheduler
    assert json.loads((rd/'status.json').read_text())['state'] == 'stopped'
    h2 = h.resumed()  # a new job of the same run
    assert h2.job != first and json.loads((rd/'slurm.json').read_text())['jobs'] == [first, h2.job]
    assert h2.wait(TIMEOUT).status == 'finished', everything(rd)
    assert h2.scheduler['state'] == 'COMPLETED'
    assert_bit_identical(reference, rd)

def test_a_time_limit_with_its_warning_finishes_across_requeues(slurm, time_limit_run):
    "The warning (B:USR1, 60 s before the 2-minute limit) stops the run, which saves; the job requeues itself; the next job resumes."
    rd = time_limit_run
    assert wait_for('the time-limited job completes', lambda: job_ended(rd), rd, timeout=420, every=1) == 'COMPLETED', everything(rd)
    evs = [json.loads(l) for l in (rd/'slurm-events.jsonl').read_text().splitlines()]
    names = [e['event'] for e in evs]
    assert 'warned' in names and 1 <= names.count('requeue') <= 4, everything(rd)
    assert names.index('warned') < names.index('requeue') < len(names) - 1 - names[::-1].index('started'), names
    st = json.loads((rd/'status.json').read_text())
    assert st['state'] == 'finished' and st['step'] == st['total_steps'], st
    kinds = [json.loads(l)['kind'] for l in (rd/'metrics.jsonl').read_text().splitlines()]
    assert kinds.count('resume') == names.count('requeue') and kinds[-1] == 'finished', (kinds, everything(rd))
