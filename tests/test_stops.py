"""Stops at the edges of a run: every phase of the last epoch, the signals a scheduler sends, and what happens after the end.

A graceful stop (a signal, `ntrain stop`, the stop file, `Launch.stop()`, a stop token) finishes the step, saves, and
exits 75; a resume must then end bit-identical to the run left alone (the comparison of the resume tests,
`ntrain.engine.resume_check.compare_runs`). Tasks here are not digits: a padded token loss (`loss_norm=items`) and dict batches.
"""
import os, signal, subprocess, sys, threading, time
from pathlib import Path
import pytest
from conftest import ROOT
import ntrain
from ntrain.config import load_config
from ntrain.engine.trainer import Trainer
from ntrain.engine.resume_check import compare_runs, describe_diff
from ntrain.rundir import read_status, process_tree
from ntrain.lifecycle import end_state
from ntrain.loggers import read_metrics

TESTS = Path(__file__).resolve().parent
sys.path[:0] = [p for p in (str(ROOT), str(TESTS)) if p not in sys.path]
ENV = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]), OMP_NUM_THREADS='1', PYTHONWARNINGS='ignore', MPLBACKEND='Agg')

# 2 epochs of 8 optimizer steps (256 samples, batch 32), a step record every step
TOKENS = ['task=tasks_for_tests:tokens', 'loss_norm=items', 'monitor=val_loss', 'epochs=2', 'batch_size=32', 'num_workers=0',
          'deterministic=true', 'log_every=1', 'progress=false']
DICTS = ['task=tasks_for_tests:hf_style', 'epochs=2', 'batch_size=32', 'num_workers=0', 'deterministic=true', 'log_every=1', 'progress=false']


def _phase(t): return t.status.data.get('phase') if t.status is not None else None


def run(rd, opts, when=None, on_record=None):
    "A run of `opts` in `rd`; `when(trainer)` asks it to stop (polled as a stop token is); a stopped run is resumed to its end."
    t = None
    cbs = [lambda r: on_record(t, r)] if on_record else []
    t = Trainer(load_config('digits', [*opts, f'run_dir={rd}']), stop=(lambda: when(t)) if when else None, quiet=True, callbacks=cbs)
    first = t.fit()
    res = ntrain.resume(rd, quiet=True) if first.status == 'stopped' else first
    return first, res


@pytest.fixture(scope='module')
def alone(tmp_path_factory):
    "The runs left alone, one per layout."
    out = {}
    def get(name, opts):
        if name not in out:
            rd = tmp_path_factory.mktemp(name)/'run'
            out[name] = (rd, run(rd, opts)[1])
        return out[name]
    return get


LAST = 1  # the last epoch's index
PHASES = {  # name -> (options, extra keys, when to stop)
    'the last epoch, mid-training': (TOKENS, [], lambda t: t.epoch == LAST and t.batch_in_epoch == 3),
    'the last step of the last epoch': (TOKENS, [], lambda t: t.step == 16),
    "the last epoch's validation": (TOKENS, [], lambda t: t.epoch == LAST and _phase(t) == 'validate'),
    "the last epoch's validation (dict batches)": (DICTS, [], lambda t: t.epoch == LAST and _phase(t) == 'validate'),
    'a validation inside the last epoch': (TOKENS, ['val_every_n_steps=3'], lambda t: t.step == 12 and _phase(t) == 'validate'),
    'the validation after max_steps, mid-epoch': (TOKENS, ['max_steps=12'], lambda t: t.step == 12 and _phase(t) == 'validate'),
    "the last epoch's save": (TOKENS, [], lambda t: t.epoch == LAST + 1 and _phase(t) == 'save'),
}


@pytest.mark.parametrize('phase', list(PHASES))
def test_a_stop_in_each_phase_of_the_last_epoch_loses_nothing(phase, alone, tmp_path, one_thread):
    "The stopped run's checkpoint says what is pending; the resume does it, and the run ends bit-identical to the run left alone."
    opts, extra, when = PHASES[phase]
    ref_dir, ref = alone(('tok' if opts is TOKENS else 'dict') + '-'.join(x.replace('=', '') for x in extra), opts + extra)
    rd = tmp_path/'run'
    first, res = run(rd, opts + extra, when)
    if phase == "the last epoch's save":  # the run's work is done: it finishes, as it was about to
        assert first.status == 'finished', first
    else:
        assert first.status == 'stopped', first
        assert not any('already complete' in r.get('text', '') for r in read_metrics(rd, 'message')), 'a resume skipped the rest of the run'
    assert res.status == ref.status, (res, ref)
    assert [h['epoch'] for h in res.history] == [h['epoch'] for h in ref.history]
    assert res.best == ref.best, (res.best, ref.best)
    c = compare_runs(ref_dir, rd)
    assert c['identical'], describe_diff(c)
    st = read_status(rd)
    assert (st['state'], st['reason']) == end_state(ref.status), (st, ref.status)  # the same end, in the lifecycle's words


def test_the_checkpoint_of_a_stop_in_validation_says_validation_is_pending(tmp_path, one_thread):
    rd = tmp_path/'run'
    t = None
    t = Trainer(load_config('digits', [*TOKENS, f'run_dir={rd}']), stop=lambda: t.epoch == LAST and _phase(t) == 'validate', quiet=True)
    assert t.fit().status == 'stopped'
    sd = ntrain.engine.checkpoint.load(rd/'ckpt'/'last.pt')
    assert sd['ntrain']['position'] == dict(epoch=LAST, batch=8, micro=0, pending='validate'), sd['ntrain']['position']
    msg = [r['text'] for r in read_metrics(rd, 'message') if 'stopped at step' in r['text']]
    assert msg and 'the validation of epoch 2 is pending' in msg[0], msg


def test_a_stop_after_the_final_record_leaves_the_run_finished(tmp_path, one_thread):
    "A stop that arrives once the run has said it finished changes nothing."
    rd, seen = tmp_path/'run', []
    stop = threading.Event()
    def on_record(t, r):
        seen.append(r['kind'])
        if r['kind'] == 'finished': stop.set()
    t = Trainer(load_config('digits', [*TOKENS, f'run_dir={rd}']), stop=stop, quiet=True, callbacks=[lambda r: on_record(None, r)])
    res = t.fit()
    assert res.status == 'finished' and stop.is_set()
    assert read_status(rd)['state'] == 'finished' and seen[-1] == 'finished'
    assert (rd/'run.md').exists()


# ------------------------------------------------------------------------------------------------------------------------
# signals, as schedulers send them
SLOW = ['task=integrity_tasks:slow_tokens', 'loss_norm=items', 'monitor=val_loss', 'epochs=2', 'batch_size=32', 'num_workers=2',
        'deterministic=true', 'log_every=1', 'progress=false']


def _steps(rd)->int:
    return max([r.get('step', 0) for r in read_metrics(rd) if r.get('kind') == 'step'] or [0])


SEED = int(os.environ.get('NTRAIN_STRESS_SEED', 0))  # tests/stress_stops.sh varies it: where the signal lands, and the order of the pids

def signalled(argv, rd, how, at_step=None, seed=None, timeout=120):
    """`ntrain ARGV` in a session of its own, signalled once its run passed `at_step`: `group` (SIGTERM to the process
    group, as `timeout` and Slurm do), `tree` (SIGTERM to every process below it, in random order), or a signal's name
    for the command's process alone. Returns (exit code, stdout, stderr, seconds from the signal to the exit)."""
    import random
    rnd = random.Random(SEED)
    at_step, seed = at_step or rnd.randint(2, 6), seed if seed is not None else rnd.randint(0, 10**6)
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', *map(str, argv)], env={**os.environ, **ENV}, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        t0 = time.monotonic()
        while _steps(rd) < at_step:
            assert p.poll() is None and time.monotonic() - t0 < timeout, f'the run never reached step {at_step}'
            time.sleep(0.02)
        t1 = time.monotonic()
        if how == 'group': os.killpg(p.pid, signal.SIGTERM)
        elif how == 'tree':
            pids = process_tree(p.pid); random.Random(seed).shuffle(pids)
            for q in pids:
                try: os.kill(q, signal.SIGTERM)
                except ProcessLookupError: pass
        else: os.kill(p.pid, getattr(signal, how))
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err, time.monotonic() - t1
    finally:
        if p.poll() is None: os.killpg(p.pid, signal.SIGKILL); p.wait()


@pytest.fixture(scope='module')
def slow_alone(tmp_path_factory):
    rd = tmp_path_factory.mktemp('slow')/'run'
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'fit', 'digits', *SLOW, f'run_dir={rd}'], env={**os.environ, **ENV},
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return rd


@pytest.mark.parametrize('how', ['group', 'tree', 'SIGHUP', 'SIGUSR1'])
def test_scheduler_signals_stop_the_run_save_and_resume_bit_identical(how, slow_alone, tmp_path):
    """SIGTERM to the whole process group (DataLoader workers and the plotter included) or to every process in random
    order, and SIGHUP or SIGUSR1 to the command: a graceful stop well within the 30 s a scheduler allows, exit 75."""
    rd = tmp_path/'run'
    code, out, err, took = signalled(['fit', 'digits', *SLOW, f'run_dir={rd}'], rd, how)
    assert code == 75, (code, out[-2000:], err[-2000:])
    assert took < 20, f'the stop took {took:.1f} s'
    assert 'checkpoint saved' in out and 'Traceback' not in err + out, err[-2000:]
    st = read_status(rd)
    assert st['state'] == 'stopped', st
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'resume', rd], env={**os.environ, **ENV}, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    c = compare_runs(slow_alone, rd)
    assert c['identical'], describe_diff(c)


HANDOFF = r"""
import os, signal, time, multiprocessing.connection as mc
import torch
from ntrain.events import Stopper, signals_stop, StopWaiting
from ntrain.data import EpochSampler, make_loader, _kill
answer, hit = mc.answer_challenge, []
def signalled_answer(c, authkey):  # the main process's side of a worker's handing over of a tensor: SIGTERM lands in it, once
    if not hit: hit.append(1); os.kill(os.getpid(), signal.SIGTERM); time.sleep(0.3)
    return answer(c, authkey)
mc.answer_challenge = signalled_answer
ds = torch.utils.data.TensorDataset(torch.arange(64.).view(16, 4))
s, it = Stopper(), iter(make_loader(ds, EpochSampler(16, 4, seed=0), seed=0, num_workers=1))
with signals_stop(s):
    s.waiting = True
    try: print('batch', tuple(next(it)[0][0].shape))
    except StopWaiting: print('abandoned')
    finally: s.waiting = False
    import gc; gc.collect(); time.sleep(1)  # (a broken handshake's socket closes here: the worker would print its traceback now)
    print('stop', s(), 'handshake signalled', len(hit))
_kill(it.inner)
"""


def test_a_stop_signal_in_a_workers_handing_over_of_a_batch_breaks_nothing(tmp_path):
    """SIGTERM landing just as the main process takes a batch's tensors from a DataLoader worker (a handshake on a socket
    for each file descriptor): the batch comes, the stop is kept for the step's end, and no worker prints a traceback.
    (Before, the stop raised out of the handshake; the worker printed `ConnectionResetError`, as a CI run of
    test_scheduler_signals_stop_the_run_save_and_resume_bit_identical[group] once did.)"""
    r = subprocess.run([sys.executable, '-c', HANDOFF], env={**os.environ, **ENV}, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0 and 'Traceback' not in r.stderr, r.stderr[-3000:]
    assert r.stdout.split() == ['batch', '(4,', '4)', 'stop', 'SIGTERM', 'handshake', 'signalled', '1'], r.stdout


def test_a_signal_after_the_final_record_leaves_the_run_finished(tmp_path):
    "SIGTERM, SIGINT twice and SIGHUP once the final record is out: exit 0, status finished, the card written."
    rd = tmp_path/'run'
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'fit', 'digits', *TOKENS, 'num_workers=1', 'loggers=[integrity_tasks:signal_after_finished]',
                        f'run_dir={rd}'], env={**os.environ, **ENV}, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert 'Traceback' not in r.stderr and read_status(rd)['state'] == 'finished'
    assert [x['kind'] for x in read_metrics(rd) if x['kind'] in ('finished', 'failed', 'stopped')] == ['finished']
    assert (rd/'run.md').exists()


LAUNCHED = [x for x in SLOW if not x.startswith(('num_workers', 'batch_size'))] + ['num_workers=1', 'batch_size=16']


@pytest.fixture(scope='module')
def launched_alone(tmp_path_factory):
    rd = tmp_path_factory.mktemp('launched')/'run'
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'launch', 'digits', '--nproc', '2', *LAUNCHED, f'run_dir={rd}'], env={**os.environ, **ENV},
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    return rd


@pytest.mark.parametrize('how', ['group', 'tree'])
def test_scheduler_signals_stop_a_launched_run_on_every_rank(how, launched_alone, tmp_path):
    """`ntrain launch --nproc 2`: SIGTERM to the command's group (it asks every rank to stop), or to every process of the tree
    in random order (the launcher, torchrun's agent, which forwards it, the ranks, their workers, the plotter): every rank
    stops after the same step and saves, within the 30 s torchrun's agent allows; the resume is bit-identical."""
    from conftest import logs
    rd = tmp_path/'run'
    code, out, err, took = signalled(['launch', 'digits', '--nproc', '2', *LAUNCHED, f'run_dir={rd}'], rd, how)
    assert code == 75, (code, out[-2000:], err[-2000:], logs(rd))
    assert took < 20, f'the stop took {took:.1f} s'
    assert 'Traceback' not in out + err, (out + err)[-3000:]
    assert read_status(rd)['state'] == 'stopped'
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'resume', rd, '--nproc', '2'], env={**os.environ, **ENV}, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:] + logs(rd)
    c = compare_runs(launched_alone, rd)
    assert c['identical'], describe_diff(c)


LEAK = '''
import concurrent.futures as cf, multiprocessing as mp, sys
def job(_):
    from ntrain.config import load_config
    from ntrain.engine.trainer import Trainer
    t = Trainer(load_config('digits', ['task=tasks_for_tests:tokens', 'monitor=val_loss', 'num_workers=2', 'progress=false']), quiet=True).setup()
    t.train_sampler.set_epoch(0); next(iter(t.train_loader))  # workers started, the loader never closed
    return 1
if __name__ == '__main__':
    if sys.argv[1] == 'pool':
        with cf.ProcessPoolExecutor(1, mp_context=mp.get_context('fork')) as p: print(list(p.map(job, [0])))
    else: print(job(0))
'''

@pytest.mark.parametrize('where', ['main', 'pool'])
def test_a_process_that_leaves_a_loader_open_still_exits(where, tmp_path):
    "Workers ignore SIGTERM, which multiprocessing's exit sends daemon children before it waits for them: ntrain reaps its own first."
    (tmp_path/'leak.py').write_text(LEAK)
    r = subprocess.run([sys.executable, str(tmp_path/'leak.py'), where], env={**os.environ, **ENV}, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and '1' in r.stdout, (r.returncode, r.stderr[-2000:])


# ------------------------------------------------------------------------------------------------------------------------
# a stop while the loop waits for a batch that never comes
from ntrain.data import EpochSampler
HUNG = EpochSampler(256, 32, seed=0, shuffle=True, drop_last=True).batches(0)[6][0][1]  # the first sample of epoch 1's batch 6
FAULTY = ['task=integrity_tasks:faulty', 'epochs=2', 'batch_size=32', 'progress=false', 'log_every=1', 'deterministic=true']


@pytest.fixture(scope='module')
def faulty_alone(tmp_path_factory):
    rd = tmp_path_factory.mktemp('faulty')/'run'
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'fit', 'digits', *FAULTY, 'num_workers=0', f'run_dir={rd}'], env={**os.environ, **ENV},
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return rd


@pytest.mark.parametrize('workers,how', [(0, 'SIGTERM'), (0, 'stop file'), (1, 'SIGTERM'), (1, 'stop file')])
def test_a_stop_while_a_batch_hangs_ends_the_run_in_seconds_and_resumes_exactly(workers, how, faulty_alone, tmp_path):
    "Default settings (loader_timeout 600 s): the sample of batch 6 never returns; a stop ends the run within 10 s, exit 75."
    rd = tmp_path/'run'
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', *FAULTY, f'num_workers={workers}', f'run_dir={rd}'],
                         env={**os.environ, **ENV, 'INTEGRITY_FAULT': f'hang:{HUNG}'}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.monotonic()
        while _steps(rd) < 6:
            assert p.poll() is None and time.monotonic() - t0 < 120, 'the run never reached step 6'
            time.sleep(0.05)
        time.sleep(1.0)  # it waits for batch 6 now
        t1 = time.monotonic()
        if how == 'SIGTERM': p.send_signal(signal.SIGTERM)
        else: assert subprocess.run([sys.executable, '-m', 'ntrain', 'stop', rd], env={**os.environ, **ENV}, capture_output=True, timeout=60).returncode == 0
        out, err = p.communicate(timeout=60)
        took = time.monotonic() - t1
    finally:
        if p.poll() is None: p.kill(); p.wait()
    assert p.returncode == 75, (p.returncode, out[-2000:], err[-2000:])
    assert took < 10, f'the stop took {took:.1f} s'
    assert read_status(rd)['state'] == 'stopped' and _steps(rd) == 6
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'resume', rd], env={**os.environ, **ENV}, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    c = compare_runs(faulty_alone, rd)
    assert c['identical'], describe_diff(c)


def test_under_torchrun_a_stop_while_a_rank_waits_on_a_hung_batch_ends_the_run_in_seconds(tmp_path):
    """A rank cannot stop alone (its peer waits in a collective): it waits `Stopper.grace` (5 s) for the batch, then fails
    naming it; its peer fails at once, naming itself; the run ends `failed` well inside torchrun's 30 s, never hangs."""
    from conftest import logs
    rd = tmp_path/'run'
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'launch', 'digits', '--nproc', '2', *FAULTY, 'batch_size=16', 'num_workers=1',
                          f'run_dir={rd}'], env={**os.environ, **ENV, 'INTEGRITY_FAULT': f'hang:{HUNG}'}, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        t0 = time.monotonic()
        while _steps(rd) < 6:
            assert p.poll() is None and time.monotonic() - t0 < 120, 'the run never reached step 6' + logs(rd)
            time.sleep(0.05)
        time.sleep(1.5)  # a rank waits for the batch holding the hung sample now
        t1 = time.monotonic()
        assert subprocess.run([sys.executable, '-m', 'ntrain', 'stop', rd], env={**os.environ, **ENV}, capture_output=True, timeout=60).returncode == 0
        out, err = p.communicate(timeout=120)
        took = time.monotonic() - t1
    finally:
        if p.poll() is None: os.killpg(p.pid, signal.SIGKILL); p.wait()
    assert p.returncode not in (0, 75), (p.returncode, out[-2000:])
    assert took < 20, f'the run took {took:.1f} s to end after the stop' + logs(rd)
    st = read_status(rd)
    assert st['state'] == 'failed' and ': rank ' in st['message'], st
    text = logs(rd)
    assert f'had not come 5 s after the stop request' in text and f'{HUNG}' in text, text[-3000:]


def test_a_keyboard_interrupt_in_a_callback_is_a_stop_and_mutating_a_record_changes_nothing(tmp_path, one_thread):
    "A callback that raises KeyboardInterrupt asks for the stop (resumable, not failed); one that edits its record edits a copy."
    rd = tmp_path/'run'
    def meddle(r):
        if r['kind'] == 'epoch': r['val_loss'] = -1.0; r['epoch'] = 99
    def interrupt(r):
        if r['kind'] == 'step' and r['step'] == 11: raise KeyboardInterrupt
    res = ntrain.fit('digits', [*TOKENS, f'run_dir={rd}'], callbacks=[meddle, interrupt], quiet=True)
    assert res.status == 'stopped' and res.steps == 11, res
    assert [h['epoch'] for h in res.history] == [0] and res.history[0]['val_loss'] > 0
    assert read_status(rd)['state'] == 'stopped'
    assert [r['epoch'] for r in read_metrics(rd, 'epoch')] == [0]
