"""The event stream, the stop token and the file reader, as a user meets them: a run on a worker thread stopped
from the main thread, "Interrupt kernel" in a real Jupyter kernel, a callback that breaks, and a view that follows a
run's files through a SIGKILL and a resume.

Every subprocess and thread has a timeout.
"""
import json, os, signal, subprocess, sys, threading, time
from pathlib import Path
import pytest
import torch
import ntrain
from ntrain.engine import checkpoint as ckpt
from ntrain.events import watch, apply_record
from ntrain.loggers import read_metrics
from ntrain.events import MEASURED

TESTS = Path(__file__).parent
ROOT = TESTS.parent
TIMING = set(MEASURED)  # measurements, not numerics
EXACT = dict(epochs=2, num_workers=0, deterministic=True, log_every=1, ckpt_every=5, quiet=True)

def strip(recs, kinds=('step', 'epoch', 'val')):
    return [{k: v for k, v in r.items() if k not in TIMING} for r in recs if r.get('kind') in kinds]

def assert_same_run(a, b):
    "Bit-identical weights and optimizer state in last.pt, and the same step/epoch records."
    sa, sb = ckpt.load(Path(a)/'ckpt'/'last.pt'), ckpt.load(Path(b)/'ckpt'/'last.pt')
    for k in sa['model']: assert torch.equal(sa['model'][k], sb['model'][k]), k
    for i, st in sa['optimizer']['state'].items():
        for k, v in st.items():
            if torch.is_tensor(v): assert torch.equal(v, sb['optimizer']['state'][i][k]), (i, k)
    assert strip(read_metrics(a)) == strip(read_metrics(b))

@pytest.fixture(scope='module')
def alone(tmp_path_factory):
    "The run left alone: digits, deterministic, 2 epochs."
    rd = tmp_path_factory.mktemp('alone')/'run'
    res = ntrain.fit('digits', run_dir=rd, **EXACT)
    assert res.status == 'finished'
    return rd

def on_thread(fn, timeout=120):
    "Run fn() on a worker thread; return (thread, result box)."
    box = {}
    def run():
        try: box['res'] = fn()
        except BaseException as e: box['err'] = e
    th = threading.Thread(target=run, daemon=True); th.start()
    return th, box

def wait_for(cond, timeout=60, what='condition'):
    t0 = time.time()
    while not cond():
        if time.time() - t0 > timeout: raise AssertionError(f'timed out waiting for {what}')
        time.sleep(0.01)

# ---------------------------------------------------------------- the stop token
def test_stop_from_the_main_thread_while_fit_runs_on_a_worker(alone, tmp_path):
    rd, stop, seen = tmp_path/'run', threading.Event(), []
    th, box = on_thread(lambda: ntrain.fit('digits', run_dir=rd, stop=stop, callbacks=[seen.append], **EXACT))
    wait_for(lambda: any(r['kind'] == 'step' and r['step'] >= 7 for r in list(seen)), what='step 7')
    t0 = time.time(); stop.set(); th.join(timeout=30)
    took = time.time() - t0
    assert not th.is_alive() and 'err' not in box, box.get('err')
    res = box['res']
    assert res.status == 'stopped' and took < 3, (res.status, took)
    st = json.loads((rd/'status.json').read_text())
    assert st['state'] == 'stopped' and st['exit_code'] == 75
    assert ckpt.load(rd/'ckpt'/'last.pt')['step'] == res.steps   # last.pt holds the last step
    assert seen[-1]['kind'] == 'stopped' and seen[-1]['reason'] == 'stop token'
    done = ntrain.resume(rd, quiet=True)
    assert done.status == 'finished'
    assert_same_run(alone, rd)

def test_stop_inside_validation_resumes_exactly(alone, tmp_path):
    "A stop that arrives during an epoch's validation saves the epoch before its validation; the resume validates it."
    rd = tmp_path/'run'
    res = ntrain.fit('digits', run_dir=rd, stop=lambda: not torch.is_grad_enabled(), **EXACT)
    assert res.status == 'stopped' and res.epochs_run == 0
    sd = ckpt.load(rd/'ckpt'/'last.pt')
    assert sd['ntrain']['position']['epoch'] == 0 and sd['ntrain']['position']['batch'] > 0
    assert ntrain.resume(rd, quiet=True).status == 'finished'
    assert_same_run(alone, rd)

def test_stop_during_setup_trains_nothing(tmp_path):
    rd, seen = tmp_path/'run', []
    res = ntrain.fit('digits', run_dir=rd, stop=lambda: True, callbacks=[seen.append], **EXACT)
    assert res.status == 'stopped' and res.steps == 0 and seen[-1]['kind'] == 'stopped'
    assert not rd.exists()  # a new run makes its directory only once setup is done
    rd.mkdir()  # as `launch` makes it: then status.json follows the run from its setup on
    res = ntrain.fit('digits', run_dir=rd, stop=lambda: True, **EXACT)
    assert res.status == 'stopped' and json.loads((rd/'status.json').read_text())['state'] == 'stopped'
    assert not (rd/'ckpt').exists()

def test_stop_file_stops_a_plain_run_and_a_stale_one_does_not(tmp_path):
    rd, seen = tmp_path/'run', []
    def touch_at_3(r):
        if r['kind'] == 'step' and r['step'] == 3: ntrain.events.request_stop_file(rd); time.sleep(0.25)  # the file is polled every 0.2 s
    res = ntrain.fit('digits', run_dir=rd, callbacks=[seen.append, touch_at_3], **EXACT)
    assert res.status == 'stopped' and seen[-1]['reason'] == 'stop file'
    # the stop file is still there; a resume started after it must not stop at once
    os.utime(rd/'STOP', (time.time() - 60, time.time() - 60))
    assert ntrain.resume(rd, quiet=True).status == 'finished'

# ---------------------------------------------------------------- callbacks
def test_a_callback_that_raises_is_removed_with_one_warning_and_the_run_finishes(tmp_path):
    rd, good = tmp_path/'run', []
    def broken(rec):
        if rec['kind'] == 'step': raise RuntimeError('my plot broke')
    res = ntrain.fit('digits', run_dir=rd, callbacks=[broken, good.append], epochs=1, num_workers=0, quiet=True)
    assert res.status == 'finished'
    warns = [r for r in good if r['kind'] == 'message' and r['level'] == 'warning']
    assert len(warns) == 1 and 'my plot broke' in warns[0]['text'] and 'broken' in warns[0]['text'], warns
    on_disk = read_metrics(rd)
    assert [r for r in on_disk if r['kind'] == 'message' and r['level'] == 'warning'] == warns
    assert [r['kind'] for r in good] == [r['kind'] for r in on_disk]  # the callback and the file saw the same records

def test_status_file_shows_phase_and_progress(tmp_path):
    rd, snaps = tmp_path/'run', []
    def look(rec):
        if rec['kind'] in ('step', 'epoch') and (rd/'status.json').exists(): snaps.append(json.loads((rd/'status.json').read_text()))
    # progress is written at most every 2 s: a slow callback makes the run last long enough to see it move
    slow = lambda rec: time.sleep(0.12) if rec['kind'] == 'step' else None
    ntrain.fit('digits', run_dir=rd, callbacks=[look, slow], epochs=2, num_workers=0, log_every=1, quiet=True)
    mid = [s for s in snaps if s.get('progress_time')]
    assert mid and {'phase', 'phase_started', 'pid', 'pid_start', 'host', 'generation'} <= set(mid[-1]), snaps[-1]
    assert mid[-1]['phase'] in ('train', 'validate', 'save') and mid[-1]['pid'] == os.getpid()
    end = json.loads((rd/'status.json').read_text())
    assert end['state'] == 'finished' and end['phase'] is None
    assert ntrain.rundir.run_alive(rd)  # this process wrote it and lives

# ---------------------------------------------------------------- the file reader through a crash and a resume
def test_reader_and_callback_follow_a_run_through_sigkill_and_resume(alone, tmp_path):
    rd, view, stop = tmp_path/'run', [], threading.Event()
    w = watch(rd)
    def follow():
        while not stop.is_set():
            for r in w.poll(): apply_record(view, r)
            time.sleep(0.02)
        for r in w.poll(): apply_record(view, r)
    th = threading.Thread(target=follow, daemon=True); th.start()
    try:
        env = dict(os.environ, OMP_NUM_THREADS=str(torch.get_num_threads()), NTRAIN_FAULT='step:13')  # the threads of the run left alone
        args = [f'{k}={v}' for k, v in EXACT.items() if k != 'quiet']
        r = subprocess.run([sys.executable, '-m', 'ntrain', 'fit', 'digits', f'run_dir={rd}', *args], env=env,
                           capture_output=True, text=True, timeout=180)
        assert r.returncode == -signal.SIGKILL, r.stderr[-2000:]
        wait_for(lambda: any(x.get('step') == 13 for x in view), what='the reader to see step 13')
        cb = []
        assert ntrain.resume(rd, callbacks=[cb.append], quiet=True).status == 'finished'
    finally:
        stop.set(); th.join(timeout=10)
    final = read_metrics(rd)
    assert view == final  # the reader's stream, with its rewinds applied, is the final file
    assert any(r['kind'] == 'resume' for r in view)
    res_rec = next(r for r in final if r['kind'] == 'resume')
    assert res_rec['step'] == 10 and res_rec['generation'] == 1   # rewound to the checkpoint of step 10
    assert cb == final[res_rec['records']:]  # the callback saw exactly the records from the resume on
    assert_same_run(alone, rd)

# ---------------------------------------------------------------- "Interrupt kernel" in a real Jupyter kernel
def test_interrupt_kernel_stops_a_fit_cell_and_the_run_resumes(tmp_path):
    jc = pytest.importorskip('jupyter_client')
    rd = tmp_path/'run'
    km = jc.KernelManager(kernel_name='python3')
    km.start_kernel(cwd=str(tmp_path), env=dict(os.environ, OMP_NUM_THREADS='1'))
    kc = km.client(); kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        # a slow callback keeps the run going long enough to interrupt it mid-epoch
        code = (f"import time, ntrain\n"
                f"res = ntrain.fit('digits', run_dir={str(rd)!r}, epochs=3, num_workers=0, log_every=1, quiet=True,\n"
                f"                 callbacks=[lambda r: time.sleep(0.1) if r['kind'] == 'step' else None])\n")
        msg_id = kc.execute(code)
        wait_for(lambda: (rd/'metrics.jsonl').exists() and '"kind": "step"' in (rd/'metrics.jsonl').read_text(), 120, 'a step record')
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=60)
        while reply['parent_header'].get('msg_id') != msg_id: reply = kc.get_shell_msg(timeout=60)
        assert reply['content']['status'] == 'ok', reply['content']   # no KeyboardInterrupt in the cell
        outs = []
        kc.execute_interactive("print(res.status, res.steps)", timeout=60, output_hook=outs.append)
    finally:
        kc.stop_channels(); km.shutdown_kernel(now=True)
    text = ''.join(m['content'].get('text', '') for m in outs if m['msg_type'] == 'stream')
    status, steps = text.split()
    assert status == 'stopped' and 0 < int(steps) < 66, text
    assert json.loads((rd/'status.json').read_text())['state'] == 'stopped'
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'resume', str(rd)], env=dict(os.environ, OMP_NUM_THREADS='1'),
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    st = json.loads((rd/'status.json').read_text())
    assert st['state'] == 'finished' and st['reason'] in ('epochs', 'early_stopped'), st
