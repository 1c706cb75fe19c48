"""The launcher: `launch_command`, the `Launch` handle (records read incrementally, through a resume's rewrite; how a run
ended), `attach` and pid reuse, `kill`; and, once the Trainer polls the stop file, stopping every rank, also through a
save that takes longer than torchrun's 30 s grace.

Every subprocess has a timeout; a failing torchrun test prints the log of every rank.
"""
import json, os, signal, socket, subprocess, sys, time
from pathlib import Path
import pytest
from conftest import logs
import torch
import ntrain
from ntrain.core import NtrainError
from ntrain.events import END_KINDS, STOP_FILE, apply_record, record, watch
from ntrain.launch import Launch, attach, launch, launch_command
from ntrain.rundir import process_start_time, read_status, write_status
from ntrain.lifecycle import run_state
from ntrain.events import MEASURED

TIMEOUT = 240
TIMING = set(MEASURED)  # measurements, not numerics
ENV = dict(PYTHONUNBUFFERED='1', NTRAIN_DIST_TIMEOUT='60')

def lines(p)->list: return [json.loads(l) for l in Path(p).read_text().splitlines() if l.strip()]

def append(p, recs):
    with open(p, 'a') as f: f.write(''.join(json.dumps(r) + '\n' for r in recs))

def procs_with(text:str)->list:
    "Pids of the processes whose command line holds `text` (Linux)."
    out = []
    for p in Path('/proc').glob('[0-9]*'):
        try: cmd = (p/'cmdline').read_bytes().replace(b'\0', b' ').decode(errors='replace')
        except OSError: continue
        if text in cmd and int(p.name) != os.getpid(): out.append(int(p.name))
    return out

def wait_for(cond, timeout=TIMEOUT, what='condition'):
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout: raise AssertionError(f'{what}: not after {timeout} s')
        time.sleep(0.05)

def launch_info(rd, **kw)->dict:
    info = dict(pid=os.getpid(), pid_start=process_start_time(os.getpid()), host=socket.gethostname(), node_rank=0, nnodes=1,
                log='launch.log', command=['torchrun'], started=time.time())
    info.update(kw)
    (Path(rd)/'launch.json').write_text(json.dumps(info))
    return info

@pytest.fixture
def sleeper():
    "A process that is not ntrain's, in a session of its own, to stand for a pid that was reused."
    p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'], start_new_session=True)
    wait_for(lambda: process_start_time(p.pid) is not None, 10, 'sleeper started')
    yield p
    if p.poll() is None: p.kill()
    p.wait(timeout=10)

# --- the dry run -----------------------------------------------------------------------------------------------------------
def test_launch_command_single_and_multi_node(tmp_path):
    c = launch_command('digits', ['epochs=1'], nproc=4, run_dir=tmp_path/'r')
    assert set(c) == {'command', 'srun', 'argv'}
    a = c['argv']
    assert a[:4] == [sys.executable, '-m', 'torch.distributed.run', '--nproc-per-node=4'] and '--standalone' in a
    assert a[a.index('-m', 3):] == ['-m', 'ntrain', 'fit', 'digits', 'epochs=1', f'run_dir={tmp_path/"r"}', '--auto-resume']
    assert c['command'].split() == a  # no spaces to quote here
    assert 'srun --nodes=1' in c['srun'] and '--gpus-per-node=4' in c['srun'] and 'rdzv-id=$SLURM_JOB_ID' in c['srun']
    assert not (tmp_path/'r').exists()  # a dry run starts and writes nothing
    m = launch_command('digits', nproc=1, nnodes=2, node_rank=1, rdzv_endpoint='10.0.0.1:29400', rdzv_id='job7', max_restarts=2,
                       run_dir=tmp_path/'m')['argv']
    assert {'--nnodes=2', '--node-rank=1', '--rdzv-backend=c10d', '--rdzv-endpoint=10.0.0.1:29400', '--rdzv-id=job7',
            '--max-restarts=2'} <= set(m) and '--standalone' not in m
    with pytest.raises(NtrainError, match='need run_dir'): launch_command('digits', nnodes=2, rdzv_endpoint='127.0.0.1:1')
    with pytest.raises(NtrainError, match='rdzv-endpoint'): launch_command('digits', nnodes=2, run_dir=tmp_path/'m')
    # a config given as a dict is saved where the command reads it
    d = launch_command(dict(epochs=1), run_dir=tmp_path/'d')['argv']
    assert str(tmp_path/'d'/'launch_config.yaml') in d and (tmp_path/'d'/'launch_config.yaml').exists()
    # resume: the run directory's own config
    (tmp_path/'old').mkdir(); (tmp_path/'old'/'config.yaml').write_text('epochs: 1\n')
    r = launch_command(tmp_path/'old', ['epochs=3'], resume=True)['argv']
    assert r[r.index('ntrain'):] == ['ntrain', 'resume', str(tmp_path/'old'), 'epochs=3']
    with pytest.raises(NtrainError, match='not a run directory'): launch_command(tmp_path/'nothing', resume=True)

# --- the handle's reader ---------------------------------------------------------------------------------------------------
def test_records_read_only_what_was_appended(tmp_path):
    p = tmp_path/'metrics.jsonl'
    append(p, [record('start', step=0), record('step', epoch=0, step=1, loss=2.0), record('step', epoch=0, step=2, loss=1.5)])
    h = Launch(tmp_path, ['torchrun'], pid=None)
    assert [r['step'] for r in h.records()] == [0, 1, 2] and len(h.new_records()) == 3 and h.new_records() == []
    size = p.stat().st_size
    assert h._watcher._f.tell() == size  # the reader stands at the end of what it read
    # change a byte of what was read, in place: a reader that read the file again would see step 7
    with open(p, 'r+b') as f:
        f.seek(p.read_bytes().index(b'"step": 1')); f.write(b'"step": 7')
    append(p, [record('step', epoch=0, step=3, loss=1.2)])
    with open(p, 'a') as f: f.write('{"kind": "epoch", "epo')  # a line still being written
    assert [r['step'] for r in h.new_records()] == [3]
    assert h._watcher._f.tell() == p.stat().st_size  # it read the new bytes once, from where it stood
    assert [r['step'] for r in h.records()] == [0, 1, 2, 3]  # the changed record was not read again
    with open(p, 'a') as f: f.write('ch": 0, "step": 4, "val_loss": 1.0}\n')
    assert [r['kind'] for r in h.new_records()] == ['epoch'] and h.records('epoch')[0]['val_loss'] == 1.0

def test_records_through_a_resume_rewrite_equal_the_final_file(tmp_path):
    p = tmp_path/'metrics.jsonl'
    h, seen = Launch(tmp_path, ['torchrun'], pid=None), []
    assert h.records() == []  # no file yet
    def rewrite(keep:int, gen:int, then:list):
        "A resume: the first `keep` records stay, then the resume record, into a new file renamed over the old one."
        kept = p.read_text().splitlines()[:keep]
        tmp = tmp_path/'metrics.jsonl.tmp'
        tmp.write_text('\n'.join(kept) + '\n')
        append(tmp, [record('resume', records=keep, step=keep - 1, generation=gen)] + then)
        os.replace(tmp, p)
    append(p, [record('start', step=0, generation=0)] + [record('step', step=i, loss=1.0 / i) for i in range(1, 5)])
    seen += h.new_records()
    rewrite(3, 1, [record('step', step=3, loss=0.3)])  # crashed after step 4, resumed from the checkpoint at step 2
    append(p, [record('step', step=4, loss=0.25), record('step', step=5, loss=0.2)])
    seen += h.new_records()
    rewrite(6, 2, [record('step', step=5, loss=0.2)])  # and again, never seen between this rewrite and the next records
    append(p, [record('step', step=6, loss=0.1), record('finished', step=6, reason='epochs')])
    seen += h.new_records()
    final = lines(p)
    view = []
    for r in final: apply_record(view, r)
    assert view == final  # the final file holds no record a rewind cuts
    assert h.records() == final
    replay = []
    for r in seen: apply_record(replay, r)
    assert replay == final and [r['generation'] for r in seen if r['kind'] == 'resume'] == [1, 2]

def test_follow_ends_at_the_end_record_or_when_torchrun_has_ended(tmp_path, sleeper):
    p = tmp_path/'metrics.jsonl'
    append(p, [record('start', step=0), record('step', step=1, loss=1.0)])
    h = Launch(tmp_path, ['torchrun'], pid=sleeper.pid, pid_start=process_start_time(sleeper.pid))  # alive
    t0 = time.monotonic()
    assert [r['kind'] for r in h.follow(timeout=0.5)] == ['start', 'step'] and time.monotonic() - t0 >= 0.5  # no end yet
    append(p, [record('step', step=2, loss=0.5), record('stopped', step=2, reason='stop file'), record('message', level='info', text='late')])
    t0 = time.monotonic()
    assert [r['kind'] for r in h.follow(timeout=30)] == ['step', 'stopped'] and time.monotonic() - t0 < 5  # ends at the end record
    assert h.running  # while torchrun still runs
    assert [r['text'] for r in h.new_records()] == ['late']  # read with the end record, not yielded: still new
    append(p, [record('message', level='info', text='later'), record('message', level='info', text='latest')])
    f = h.follow(timeout=30)
    assert next(f)['text'] == 'later'
    f.close()  # a caller that stops early loses nothing either
    assert [r['text'] for r in h.new_records()] == ['latest']
    append(p, [record('message', level='info', text='late')])
    sleeper.kill(); sleeper.wait(timeout=10)
    append(p, [record('step', step=3, loss=0.4)])  # written before torchrun exited: one more read after the end
    t0 = time.monotonic()
    assert [r.get('text', r.get('step')) for r in h.follow(timeout=30)] == ['late', 3] and time.monotonic() - t0 < 5

# --- how a run ended -------------------------------------------------------------------------------------------------------
def test_the_exit_code_is_the_runs_own_state(tmp_path):
    dead = subprocess.Popen([sys.executable, '-c', 'pass']); dead.wait(timeout=30)
    for state, code in [('finished', 0), ('early_stopped', 0), ('max_steps', 0), ('stopped', 75), ('nonfinite', 3), ('failed', 1),
                        ('running', 1)]:
        write_status(tmp_path, state=state)  # the words of before
        h = Launch(tmp_path, ['torchrun'], pid=dead.pid, pid_start=1.0)
        assert (h.running, h.poll(), h.result.status, h.result.returncode) == (False, code, state if state != 'running' else 'failed', None)
    # the lifecycle's words: a state and its reason
    for state, reason, word, code in [('finished', 'epochs', 'finished', 0), ('finished', 'early_stopped', 'early_stopped', 0),
                                      ('finished', 'max_steps', 'max_steps', 0), ('stopped', 'SIGTERM', 'stopped', 75),
                                      ('failed', 'non_finite', 'nonfinite', 3), ('failed', 'ValueError: x', 'failed', 1), ('killed', 'Kill', 'killed', 137)]:
        write_status(tmp_path, state=state, reason=reason)
        h = Launch(tmp_path, ['torchrun'], pid=dead.pid, pid_start=1.0)
        assert (h.poll(), h.result.status) == (code, word), (state, reason)
    # a status left by an earlier launch of the directory is not this run's: this one failed before training began
    write_status(tmp_path, state='stopped')
    h = Launch(tmp_path, ['torchrun'], pid=dead.pid, pid_start=1.0, status_before=read_status(tmp_path)['updated'])
    assert (h.poll(), h.result.status) == (1, 'failed')

# --- attach, pid reuse, multi-node logs ------------------------------------------------------------------------------------
def test_attach_never_signals_a_reused_pid(tmp_path, sleeper, capsys):
    start = process_start_time(sleeper.pid)
    write_status(tmp_path, state='running', step=10)
    launch_info(tmp_path, pid=sleeper.pid, pid_start=start + 5)  # the run's torchrun started 5 s before this process
    h = attach(tmp_path)
    assert (h.pid, h.running, h.result.status, h.result.exit_code) == (sleeper.pid, False, 'failed', 1)
    assert h.stop() is h.result and not (tmp_path/STOP_FILE).exists()  # an ended run is not asked to stop
    assert h.kill() is False
    err = capsys.readouterr().err
    assert err.count(f'pid {sleeper.pid} is no longer the torchrun of {tmp_path}') == 2, err
    assert len(err.strip().splitlines()) == 2  # one line each
    time.sleep(0.3); assert sleeper.poll() is None  # never signalled
    assert read_status(tmp_path)['state'] == 'failed'  # its torchrun was gone and its status said running: the handle settled it
    # the same pid with its own start time is the run's: kill() takes it and its process group
    write_status(tmp_path, state='running', step=10, reason=None)
    launch_info(tmp_path, pid=sleeper.pid, pid_start=start)
    h = attach(tmp_path)
    assert h.running and h.cannot_kill is None and h.kill() is True
    assert sleeper.wait(timeout=10) == -signal.SIGKILL
    assert not h.running and (h.result.status, h.result.exit_code) == ('killed', 137)
    st = read_status(tmp_path)  # it said it goes on: once its process is gone, it says killed, and who killed it
    assert (st['state'], st['reason']) == ('killed', 'Launch.kill') and run_state(tmp_path)['state'] == 'killed', st

def test_a_handle_on_another_host_stops_by_file_and_never_kills(tmp_path, sleeper, capsys):
    write_status(tmp_path, state='running')
    launch_info(tmp_path, pid=sleeper.pid, pid_start=process_start_time(sleeper.pid), host='another-node')
    h = attach(tmp_path)
    assert h.running and not h.local  # on another host, running follows status.json
    assert 'another-node' in h.cannot_kill and 'Stop' in h.cannot_kill
    assert h.kill() is False and 'runs on another-node' in capsys.readouterr().err
    assert read_status(tmp_path)['state'] == 'running'  # a kill refused writes nothing
    assert h.stop(timeout=0) is None and (tmp_path/STOP_FILE).read_text().startswith('stop requested by Launch.stop')
    write_status(tmp_path, state='stopped')
    assert h.wait(timeout=5).exit_code == 75 and sleeper.poll() is None

def test_attach_reads_the_multi_node_log_path(tmp_path):
    (tmp_path/'launch-node1.log').write_text('node 1 torchrun output\n')
    launch_info(tmp_path, node_rank=1, nnodes=2, log='launch-node1.log')
    h = attach(tmp_path)
    assert (h.log_path, h.node_rank, h.log()) == (tmp_path/'launch-node1.log', 1, 'node 1 torchrun output\n')
    # a multi-node launch writes each node's record apart: node 0 and node 1 share the run directory
    (tmp_path/'launch.json').unlink()
    for k in (0, 1):
        (tmp_path/f'launch-node{k}.json').write_text(json.dumps(dict(pid=1, node_rank=k, nnodes=2, log=f'launch-node{k}.log',
                                                                     host=socket.gethostname() if k == 1 else 'head-node', command=[])))
    assert attach(tmp_path).log_path.name == 'launch-node1.log'  # this host's
    assert attach(tmp_path, node_rank=0).log_path.name == 'launch-node0.log'
    with pytest.raises(NtrainError, match='no launch.json of node 2'): attach(tmp_path, node_rank=2)

# --- torchrun for real -----------------------------------------------------------------------------------------------------
def test_launch_waits_and_returns_the_handle_with_its_result(tmp_path):
    rd = tmp_path/'run'; rd.mkdir()
    (rd/STOP_FILE).write_text('an earlier stop\n')  # must not stop this run
    h = launch('digits', ['epochs=1', 'num_workers=0', 'log_every=2'], nproc=2, run_dir=rd, echo=False, env=ENV)
    assert isinstance(h, Launch) and h.result is not None, logs(rd)
    assert (h.result.status, h.result.exit_code, h.result.returncode) == ('finished', 0, 0), logs(rd)
    assert not (rd/STOP_FILE).exists()
    ep = h.records('epoch')
    assert len(ep) == 1 and ep[0]['epoch'] == 0 and ep[0]['val_loss'] > 0
    assert h.records() == lines(rd/'metrics.jsonl')
    info = json.loads((rd/'launch.json').read_text())
    assert info['pid'] == h.pid and info['pid_start'] > 0 and info['host'] == socket.gethostname()
    assert (info['node_rank'], info['nnodes'], info['log']) == (0, 1, 'launch.log') and (rd/'launch.log').exists()
    a = attach(rd)  # after the end: the same run, the same records, how it ended (torchrun's exit status is not ours to know)
    assert (a.running, a.result.status, a.result.exit_code, a.result.returncode) == (False, 'finished', 0, None)
    assert a.records() == h.records()

def test_follow_then_kill_leaves_no_process(tmp_path):
    rd = tmp_path/'run'
    h = launch('digits', ['epochs=50', 'num_workers=0', 'log_every=1'], nproc=2, run_dir=rd, wait=False, env=ENV)
    try:
        kinds = []
        for r in h.follow(timeout=TIMEOUT):
            kinds.append(r['kind'])
            if r['kind'] == 'step': break
        assert kinds[-1] == 'step', logs(rd)
        assert h.running and procs_with(f'run_dir={rd}')  # torchrun and its workers
        with pytest.raises(NtrainError, match='still running'): launch('digits', ['epochs=1'], nproc=2, run_dir=rd, wait=False)
        assert h.kill() is True
        wait_for(lambda: not procs_with(f'run_dir={rd}'), 15, 'every process of the run gone after kill()')
    finally:
        if h.running: h.kill()
    res = h.wait(timeout=30)
    assert (res.status, res.exit_code, res.returncode) == ('killed', 137, -signal.SIGKILL), logs(rd)
    st = read_status(rd)
    assert (st['state'], st['reason'], run_state(rd)['state']) == ('killed', 'Launch.kill', 'killed'), st
    assert [r['kind'] for r in h.records()][:len(kinds)] == kinds

def test_ladder_rung5_hands_the_run_to_launch(tmp_path):
    lad = ntrain.ladder('digits', ['epochs=1', 'num_workers=0'], rungs=[5], force=True, settings=dict(nproc=2), run_dir=tmp_path/'lad')
    r = lad.rungs[0]
    assert (r.rung, r.verdict, r.numbers['status'], r.numbers['epochs']) == (5, 'pass', 'finished', 1), (r, logs(tmp_path/'lad'))

# --- stopping, with the Trainer that polls the stop file -------------------------------------------------------------------
EXACT = ['epochs=2', 'num_workers=0', 'batch_size=32', 'deterministic=true', 'ckpt_every=5', 'log_every=2']

def stop_steps(rd)->list:
    "The step each rank says it stopped at, from its own log."
    import re
    out = []
    for r in range(2):
        m = re.search(r'stopped at step (\d+)', (Path(rd)/'logs'/f'rank{r}.log').read_text())
        out.append(int(m.group(1)) if m else None)
    return out

def assert_no_worker_killed(rd):
    log = (Path(rd)/'launch.log').read_text(errors='replace')
    for bad in ('closing signal', 'SIGKILL', 'ChildFailedError', 'death signal'): assert bad not in log, logs(rd)

def test_stop_reaches_every_rank_which_exit_0_and_resume_exactly(tmp_path):
    ref = launch('digits', EXACT, nproc=2, run_dir=tmp_path/'ref', echo=False, env=ENV)
    assert ref.result.exit_code == 0, logs(tmp_path/'ref')
    rd = tmp_path/'run'
    h = launch('digits', EXACT, nproc=2, run_dir=rd, wait=False, env=ENV)
    try:
        assert next((r for r in h.follow(timeout=TIMEOUT) if r['kind'] == 'step'), None) is not None, logs(rd)
        res = h.stop(timeout=TIMEOUT)
    finally:
        if h.running: h.kill()
    assert (res.status, res.exit_code, res.returncode) == ('stopped', 75, 0), logs(rd)  # workers exit 0 to torchrun
    assert read_status(rd)['state'] == 'stopped' and [r['kind'] for r in h.records() if r['kind'] in END_KINDS] == ['stopped']
    a, b = stop_steps(rd)
    assert a is not None and a == b, (a, b, logs(rd))
    assert_no_worker_killed(rd)
    assert (rd/STOP_FILE).exists()
    r2 = h.resumed()  # the RunHandle's resume (the dashboard's Resume): as launched, 2 processes, ENV; the stop file of the stop above must not stop it
    assert r2 is not h and r2.nproc == 2 and r2.env == ENV and '--nproc-per-node=2' in r2.command, r2.command
    r2.wait(timeout=TIMEOUT)
    assert (r2.result.status, r2.result.exit_code) == ('finished', 0), logs(rd)
    assert any(r['kind'] == 'resume' for r in r2.records())
    wa, wb = (ntrain.engine.checkpoint.load(Path(x)/'ckpt'/'last.pt')['model'] for x in (tmp_path/'ref', rd))
    assert wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)
    strip = lambda rs: [{k: v for k, v in r.items() if k not in TIMING} for r in rs]
    assert strip(ref.records('epoch')) == strip(r2.records('epoch'))

def start_cli(rd, *args, **env):
    e = dict(os.environ, OMP_NUM_THREADS='1', **ENV, **{k: str(v) for k, v in env.items()})
    return subprocess.Popen([sys.executable, '-m', 'ntrain', 'launch', 'digits', *args, f'run_dir={rd}', '--nproc', '2'],
                            env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

def wait_for_step(rd, p):
    w = watch(rd)
    wait_for(lambda: p.poll() is not None or any(r['kind'] == 'step' for r in w.poll()), TIMEOUT, 'a step record')
    assert p.poll() is None, p.communicate(timeout=10)[0] + logs(rd)

SLOW = ['epochs=3', 'num_workers=0', 'batch_size=8', 'log_every=1']

def test_ctrl_c_stops_through_a_save_longer_than_torchruns_grace(tmp_path):
    "Each checkpoint write sleeps 35 s: over the 30 s torchrun's agent gives workers after SIGTERM. The stop file needs no grace."
    rd = tmp_path/'run'
    p = start_cli(rd, *SLOW, NTRAIN_TEST_SLOW_SAVE=35)
    try:
        wait_for_step(rd, p)
        t0 = time.monotonic(); p.send_signal(signal.SIGINT)
        out = p.communicate(timeout=TIMEOUT)[0]
        took = time.monotonic() - t0
    finally:
        if p.poll() is None: p.kill(); p.wait(timeout=30)
    assert p.returncode == 75, out + logs(rd)
    assert took >= 30, f'the stop took {took:.0f} s: the slow save did not happen (NTRAIN_TEST_SLOW_SAVE)\n{out}'
    st = read_status(rd)
    assert st['state'] == 'stopped', st
    last = ntrain.engine.checkpoint.load(rd/'ckpt'/'last.pt')  # complete, and of the step the run stopped at
    assert last['step'] == st['step'], (last['step'], st)
    assert_no_worker_killed(rd)
    assert not procs_with(f'run_dir={rd}')

def test_a_second_ctrl_c_kills_the_run(tmp_path):
    rd = tmp_path/'run'
    p = start_cli(rd, *SLOW, NTRAIN_TEST_SLOW_SAVE=35)
    try:
        wait_for_step(rd, p)
        p.send_signal(signal.SIGINT)
        wait_for(lambda: (rd/STOP_FILE).exists(), 10, 'the stop file'); time.sleep(1)
        t0 = time.monotonic(); p.send_signal(signal.SIGINT)
        out = p.communicate(timeout=60)[0]
        took = time.monotonic() - t0
    finally:
        if p.poll() is None: p.kill(); p.wait(timeout=30)
    assert p.returncode == 137 and took < 20, (p.returncode, took, out + logs(rd))
    assert 'killing the run' in out
    st = read_status(rd)  # it was stopping (saving for 35 s) when the second Ctrl-C killed it
    assert (st['state'], st['reason']) == ('killed', 'a second Ctrl-C of ntrain launch'), st
    wait_for(lambda: not procs_with(f'run_dir={rd}'), 15, 'every process of the run gone')

def test_resume_force_reaches_every_worker(tmp_path, capsys):
    "`ntrain resume RUN --nproc N --force`: each worker's own resume gets --force, or it refuses what the user forced."
    from ntrain.config import load_config
    rd = tmp_path/'run'; rd.mkdir()
    (rd/'config.yaml').write_text(load_config('digits').to_yaml())
    forced = launch_command(rd, nproc=2, resume=True, force_resume=True)['argv']
    plain = launch_command(rd, nproc=2, resume=True)['argv']
    assert forced[-3:] == ['resume', str(rd), '--force'] and '--force' not in plain, (forced, plain)
    from ntrain.cli import main
    with pytest.raises(SystemExit) as e: main(['resume', str(rd), '--nproc', '2', '--force', '--dry-run'])
    assert e.value.code == 0 and capsys.readouterr().out.splitlines()[0].endswith(f'resume {rd} --force')


def test_a_launched_run_is_named_after_its_task(tmp_path, monkeypatch):
    """No config and no run_dir: the base is `Config()` (not digits), and the run is named after the task: its Task.name,
    which the pre-flight's import finds, made safe for a path; the dry run imports nothing and names it by the function."""
    monkeypatch.chdir(tmp_path)
    argv = launch_command(task='ntrain.ladder.user_tasks:regression')['argv']
    assert any(a.startswith('run_dir=runs/regression-') for a in argv), argv
    env = dict(ENV, PYTHONPATH=os.pathsep.join([str(Path(ntrain.__file__).parents[1]), str(Path(__file__).parent)]))
    h = launch(None, ['epochs=1', 'num_workers=0', 'batch_size=64', 'progress=false'], task='tasks_for_tests:renamed', nproc=1, env=env, echo=False)
    rd = Path(h.run_dir)
    assert h.result.status == 'finished' and rd.parent == Path('runs') and rd.name.startswith('my-model-v2-'), (h.result, logs(tmp_path/rd))
    cfg = (rd/'config.yaml').read_text()
    assert 'digits' not in cfg and 'task: tasks_for_tests:renamed' in cfg, cfg
