"""The readers of a run's files on damaged files: `Watcher` (`watch`, `Launch.records`), the views (`RunView`, `run_info`,
`runs`, `console_watch`) and `ntrain watch`. Garbage bytes, lines that are not records, a file cut or rewritten in place,
a run directory that does not exist yet and a damaged status.json: nothing raises, and what can be read is read.

Every subprocess has a timeout.
"""
import io, json, os, subprocess, sys, time
from pathlib import Path
import pytest
import ntrain
from ntrain.events import apply_record, record, watch, Watcher
from ntrain.launch import Launch
from ntrain.rundir import read_status
from ntrain.notebook.viewmodel import RunView, console_watch, run_info, runs
from conftest import ROOT

GARBAGE = [b'\xff\xfe{"kind": "ep"', b'\x80abc', b'\x00\x00\x00\x00', b'{"kind": "step", "st', b'\xed\xa0\x80', b'[' * 100_000]
NOT_DICTS = [b'5', b'[1, 2]', b'"x"', b'null', b'true']

def line(r:dict)->bytes: return json.dumps(r).encode() + b'\n'

def stream(end:str='finished', status:str='finished')->list:
    "A small run's records: start, steps, an epoch and its end record."
    t = 1000.0
    out = [record('start', epochs=1, total_steps=4, steps_per_epoch=4, monitor='val_acc', mode='max', step=0, generation=0, time=t)]
    out += [record('step', epoch=0, step=s, loss=2.0 - 0.1 * s, time=t + s) for s in range(1, 5)]
    out.append(record('epoch', epoch=0, step=4, train_loss=1.7, val_loss=1.8, val_acc=0.5, time=t + 5))
    return out + [record(end, epoch=0, step=4, reason='epochs' if end == 'finished' else end, status=status, time=t + 6)]

def ntrain_cmd(*args): return [sys.executable, '-m', 'ntrain', *map(str, args)]

def env(): return dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1', PYTHONPATH=f"{ROOT}:{ROOT/'tests'}")

# ---------------------------------------------------------------- bad lines: skipped and counted
def test_garbage_and_non_dict_lines_are_skipped_and_counted(tmp_path):
    p, recs = tmp_path/'metrics.jsonl', stream()
    p.write_bytes(line(recs[0]) + b''.join(g + b'\n' for g in GARBAGE) + line(recs[1]))
    w = watch(tmp_path)
    assert w.poll() == recs[:2] and w.bad == len(GARBAGE)
    with open(p, 'ab') as f: f.write(b''.join(n + b'\n' for n in NOT_DICTS) + line(recs[2]))
    assert w.poll() == [recs[2]] and w.bad == len(GARBAGE) + len(NOT_DICTS)
    # a last line still being written is waited for, not counted; once whole it is a record
    half = line(recs[3])
    with open(p, 'ab') as f: f.write(half[:7])
    assert w.poll() == [] and w.bad == len(GARBAGE) + len(NOT_DICTS)
    with open(p, 'ab') as f: f.write(half[7:] + b'\xff\xfe\n' + b''.join(map(line, recs[4:])))
    assert w.poll() == recs[3:] and w.bad == len(GARBAGE) + len(NOT_DICTS) + 1
    # follow() over the same file from the start: the good records, up to the end record
    assert list(Watcher(p).follow(timeout=5, interval=0.01)) == recs

def test_fields_of_the_wrong_type_do_not_crash_the_reader_or_the_views(tmp_path):
    p, recs = tmp_path/'metrics.jsonl', stream()
    odd = [dict(kind='resume', records='x', generation='y'), dict(kind='step', step='s', epoch=None, loss='l'),
           dict(kind='epoch', epoch='e', step=[]), dict(kind='val', step={}), dict(kind='message', level=3, text=None),
           dict(kind=[1]), dict(kind={'a': 1}), dict(no_kind=1)]
    p.write_bytes(b''.join(map(line, recs[:3] + odd + recs[3:])))
    (tmp_path/'status.json').write_text(json.dumps(dict(state='finished', step='4', total_steps=[4], progress_time='t', updated='u')))
    got = watch(tmp_path).poll()
    assert len(got) == len(recs) + len(odd)
    view = []
    for r in got: apply_record(view, r)
    out = io.StringIO()
    assert console_watch(tmp_path, out=out, interval=0.01) == 'finished'
    assert 'finished' in out.getvalue().splitlines()[-1]
    info = run_info(tmp_path)
    assert info['state'] == 'finished'

def test_console_watch_and_cli_watch_read_a_run_with_garbage_lines(tmp_path):
    recs = stream()
    (tmp_path/'metrics.jsonl').write_bytes(b''.join(g + b'\n' for g in GARBAGE[:3]) + b''.join(map(line, recs[:3]))
                                           + b''.join(n + b'\n' for n in NOT_DICTS) + b''.join(map(line, recs[3:])))
    (tmp_path/'status.json').write_text(json.dumps(dict(state='finished', step=4, total_steps=4)))
    out = io.StringIO()
    assert console_watch(tmp_path, out=out, interval=0.01) == 'finished'
    assert out.getvalue().rstrip().splitlines()[-1].startswith('finished  step 4/4')
    r = subprocess.run(ntrain_cmd('watch', tmp_path), capture_output=True, text=True, timeout=120, env=env())
    assert r.returncode == 0 and r.stdout.rstrip().splitlines()[-1].startswith('finished  step 4/4'), (r.stdout, r.stderr)
    assert 'Traceback' not in r.stderr and 'skipped' in r.stdout + r.stderr   # it says lines were skipped, in one line

# ---------------------------------------------------------------- a file cut or rewritten in place
def test_in_place_truncation_rewinds_and_reads_the_new_file(tmp_path):
    p, a = tmp_path/'metrics.jsonl', stream()
    p.write_bytes(b''.join(map(line, a[:4])))
    w, view = watch(tmp_path), []
    for r in w.poll(): apply_record(view, r)
    ino = os.stat(p).st_ino
    # cut to nothing, in place (the same inode): a rewind marker, and nothing else yet
    with open(p, 'r+b') as f: f.truncate(0)
    got = w.poll()
    assert [r['kind'] for r in got] == ['rewind']
    for r in got: apply_record(view, r)
    assert view == []
    # new content, shorter than what was read: every record of it
    b = [dict(r, time=r['time'] + 500) for r in a[:2]]
    with open(p, 'ab') as f: f.write(b''.join(map(line, b)))
    for r in w.poll(): apply_record(view, r)
    assert view == b and os.stat(p).st_ino == ino
    # rewritten in place with content longer than what was read (`cp other metrics.jsonl`): a rewind, then all of it
    c = [dict(r, time=r['time'] + 900) for r in a]
    with open(p, 'r+b') as f: f.truncate(0); f.write(b''.join(map(line, c)))
    got = w.poll()
    assert got[0]['kind'] == 'rewind' and got[1:] == c and os.stat(p).st_ino == ino
    view = []
    for r in [*a[:4], *got]: apply_record(view, r)
    assert view == c
    # a resume's rewrite (a new inode) still works after a rewind: from its resume record on
    keep = p.read_bytes().split(b'\n')[:3]
    tmp = tmp_path/'new'
    res = record('resume', records=3, step=2, generation=1)
    tmp.write_bytes(b'\n'.join(keep) + b'\n' + line(res) + line(record('step', step=3)))
    os.replace(tmp, p)
    for r in w.poll(): apply_record(view, r)
    assert view == [json.loads(l) for l in p.read_text().splitlines()]

def test_run_view_and_launch_records_reset_on_a_rewind(tmp_path):
    p, a = tmp_path/'metrics.jsonl', stream()
    p.write_bytes(b''.join(map(line, a)))
    h = Launch(tmp_path, [], pid=None)
    v = RunView()
    for r in h.new_records(): v.apply(r)
    assert v.end is not None and len(v.curves['step']) == 4 and len(h.records()) == len(a)
    with open(p, 'r+b') as f: f.truncate(0); f.write(b''.join(map(line, a[:3])))
    for r in h.new_records(): v.apply(r)
    assert v.end is None and v.curves['step'] == [1, 2] and h.records() == a[:3]

# ---------------------------------------------------------------- Launch.records on a damaged file
def test_launch_records_and_follow_on_a_damaged_file(tmp_path):
    recs = stream('stopped', 'stopped')
    (tmp_path/'metrics.jsonl').write_bytes(line(recs[0]) + b'\xff\xfe{"kind": "ep"\n' + b''.join(n + b'\n' for n in NOT_DICTS)
                                           + b''.join(map(line, recs[1:])))
    (tmp_path/'launch.json').write_text(json.dumps(dict(pid=2**22 + 7, pid_start=1.0, host='elsewhere', command=[])))
    h = ntrain.attach(tmp_path)
    assert h.records() == recs and h.records('stopped') == recs[-1:]
    h2 = Launch(tmp_path, [], pid=None)
    assert list(h2.follow(timeout=5, interval=0.01)) == recs

# ---------------------------------------------------------------- ntrain watch waits for a run directory
def test_watch_waits_for_a_run_directory_that_appears(tmp_path):
    rd = tmp_path/'later'
    p = subprocess.Popen(ntrain_cmd('watch', rd, '--wait', '60', '--every', '1'), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env())
    try:
        time.sleep(1.0); rd.mkdir()          # the directory first, empty
        time.sleep(1.0)                      # then its files
        tmp = tmp_path/'tmp'; tmp.write_bytes(b''.join(map(line, stream())))
        (rd/'status.json').write_text(json.dumps(dict(state='finished', step=4, total_steps=4)))
        os.replace(tmp, rd/'metrics.jsonl')
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None: p.kill(); p.wait()
    assert p.returncode == 0, (out, err)
    assert err.strip().count('\n') == 0 and 'waiting' in err and str(rd) in err, err   # one line saying it waits
    assert out.rstrip().splitlines()[-1].startswith('finished  step 4/4'), out

def test_watch_gives_up_on_a_run_directory_that_never_appears(tmp_path):
    rd = tmp_path/'never'
    t0 = time.monotonic()
    r = subprocess.run(ntrain_cmd('watch', rd, '--wait', '1.5'), capture_output=True, text=True, timeout=60, env=env())
    assert r.returncode != 0 and time.monotonic() - t0 >= 1.5, (r.stdout, r.stderr)
    err = r.stderr.strip().splitlines()
    assert len(err) == 2 and 'waiting' in err[0] and err[1].startswith(f'ntrain: error: {rd}') and '1.5 s' in err[1], r.stderr
    # --wait 0: no wait at all, one line as before
    r = subprocess.run(ntrain_cmd('watch', rd, '--wait', '0'), capture_output=True, text=True, timeout=60, env=env())
    assert r.returncode == 2 and r.stderr.strip().count('\n') == 0 and 'not a run directory' in r.stderr, r.stderr
    # a path that is a file, not a directory: refused at once
    f = tmp_path/'file'; f.write_text('x')
    r = subprocess.run(ntrain_cmd('watch', f, '--wait', '30'), capture_output=True, text=True, timeout=60, env=env())
    assert r.returncode == 2 and r.stderr.strip().count('\n') == 0 and 'not a directory' in r.stderr, r.stderr

# ---------------------------------------------------------------- a damaged status.json does not overrule the end record
DAMAGED = [b'\x00\xff{"state": ', b'[1, 2]', b'"finished"', b'{"state": 5, "step": "x"}', b'']

def test_a_finished_run_with_a_damaged_status_reads_finished(tmp_path):
    rd = tmp_path/'run'
    ntrain.fit('digits', run_dir=rd, epochs=1, num_workers=0, quiet=True)
    recs = [json.loads(l) for l in (rd/'metrics.jsonl').read_text().splitlines()]
    status = recs[-1]['status'] if recs[-1]['kind'] == 'finished' else next(r['status'] for r in recs if r['kind'] == 'finished')
    assert status == 'finished' and read_status(rd)['state'] == 'finished'
    for bad in DAMAGED:
        (rd/'status.json').write_bytes(bad)
        assert run_info(rd)['state'] == 'finished', bad
        assert [r['state'] for r in runs(tmp_path)] == ['finished'], bad
        v = RunView()
        for r in recs: v.apply(r)
        v.heartbeat(read_status(rd), running=False)
        assert v.state == 'finished' and v.to_dict()['state'] == 'finished', bad
        assert console_watch(rd, out=io.StringIO(), interval=0.01) == 'finished', bad
    r = subprocess.run(ntrain_cmd('watch', rd), capture_output=True, text=True, timeout=120, env=env())
    assert r.returncode == 0 and r.stdout.rstrip().splitlines()[-1].startswith('finished'), (r.stdout, r.stderr)

@pytest.mark.parametrize('end,status,state,code', [('finished', 'early_stopped', 'finished', 0), ('stopped', 'stopped', 'stopped', 75),
                                                   ('failed', 'nonfinite', 'failed', 3)])
def test_the_end_record_says_how_a_run_ended_when_status_is_damaged(tmp_path, end, status, state, code):
    (tmp_path/'metrics.jsonl').write_bytes(b''.join(map(line, stream(end, status))) + line(record('message', level='warning', text='after the end')))
    (tmp_path/'status.json').write_bytes(b'\x00\xff{"state": ')
    assert run_info(tmp_path)['state'] == state and run_info(tmp_path)['step'] == 4
    assert console_watch(tmp_path, out=io.StringIO(), interval=0.01) == state
    r = subprocess.run(ntrain_cmd('watch', tmp_path), capture_output=True, text=True, timeout=120, env=env())
    assert r.returncode == code and r.stdout.rstrip().splitlines()[-1].startswith(state), (r.stdout, r.stderr)  # the run's own exit code
    # a final record beats a stale status.json too; with none, a status whose process is gone reads lost
    (tmp_path/'status.json').write_text(json.dumps(dict(state='running', step=2, pid=2**22 + 7)))
    assert run_info(tmp_path)['state'] == state
    (tmp_path/'metrics.jsonl').write_bytes(b''.join(map(line, stream(end, status)[:-1])))
    assert run_info(tmp_path)['state'] == 'lost'


# ---------------------------------------------------------------- bounded memory (issue 34): the readers stream the file
def _big_run(rd:Path, steps:int)->tuple:
    "A run directory whose metrics.jsonl holds `steps` step records (a val and an epoch record every 1000), a spike, a gap and a best point."
    rd.mkdir(parents=True)
    lines = [json.dumps(record('start', epochs=steps // 1000, total_steps=steps, steps_per_epoch=1000, monitor='val_loss', mode='min',
                               step=0, generation=0, time=1000.0))]
    best = (steps * 3 // 5 + 7, 0.001)
    for s in range(1, steps + 1):
        loss = 'NaN' if s == steps // 2 + 3 else repr(best[1] if s == best[0] else 2.0 / (1 + s / 5000) + 0.05 * ((s * 7919) % 11) / 11 + (3.0 if s == steps // 3 else 0.0))
        lines.append(f'{{"kind": "step", "epoch": {(s - 1) // 1000}, "step": {s}, "loss": {loss}, "lr": 0.001, "grad_norm": 0.5, '
                     f'"samples_per_s": 9999.5, "data_wait": 0.01, "time": {1000.0 + s}}}')
        if s % 1000 == 0:
            e = s // 1000 - 1
            lines.append(json.dumps(dict(kind='val', epoch=e, step=s, val_loss=1.0 / (e + 1), time=1000.0 + s)))
            lines.append(json.dumps(dict(kind='epoch', epoch=e, step=s, train_loss=1.1 / (e + 1), val_loss=1.0 / (e + 1), lr=1e-3, samples_per_s=9999.5,
                                         data_wait=0.01, epoch_time=1.0, peak_mem={'0': 1.0}, time=1000.0 + s)))
    lines.append(json.dumps(record('finished', epoch=steps // 1000 - 1, step=steps, reason='epochs', status='finished', time=1000.0 + steps + 1)))
    (rd/'metrics.jsonl').write_text('\n'.join(lines) + '\n')
    return best

def test_readers_hold_bounded_memory_and_the_decimated_curve_keeps_first_last_best(tmp_path):
    """80,162 records (13 MB; some 140 MB as dicts): `read_records` and a `RunView` fed a chunk at a time (what `ntrain watch`,
    `report` and `compare` do) stay within a few MB; the step curve keeps its first, last and best points, a spike and a gap."""
    import tracemalloc
    from ntrain.events import read_records
    rd = tmp_path/'run'; best = _big_run(rd, 80_000)
    assert (rd/"metrics.jsonl").stat().st_size > 13e6
    tracemalloc.start()
    try:
        kept = read_records(rd, ('start', 'resume', 'epoch'))
        _, peak = tracemalloc.get_traced_memory(); tracemalloc.reset_peak()
        assert len(kept) == 81 and kept[-1]['epoch'] == 79 and peak < 8e6, (len(kept), peak)
        v, w = RunView(launched=False), Watcher(rd, chunk=Watcher.CHUNK)
        while True:
            for r in w.poll(): v.apply(r)
            if not w.behind: break
        w.close()
        _, peak = tracemalloc.get_traced_memory()
    finally: tracemalloc.stop()
    assert peak < 12e6, peak
    c = v.curves
    assert len(c['step']) <= 2 * RunView.POINTS and len(c['step']) == len(c['loss'])
    assert c['step'][0] == 1 and c['step'][-1] == 80_000  # the first and the last point
    assert best in set(zip(c['step'], c['loss']))  # the best loss
    assert 80_000 // 3 in c['step'] and c['loss'][c['step'].index(40_003)] is None  # the spike; the gap (a non-finite loss)
    assert c['epoch'] == list(range(1, 81)) and len(c['val_loss']) == 80  # every epoch
    assert v.to_dict()['end']['state'] == 'finished' and v.step() == 80_000
    assert [r['kind'] for r in v.records].count('epoch') == 80 and len(v.records) <= 80 * 2 + RunView.TAIL + 2
    # a resume that cuts back into the decimated past: the points after its `records` go, the curve goes on from there
    n = 1 + 30_000 + 2 * 30  # the records up to step 30,000 (its val and epoch records included)
    v.apply(record('resume', records=n, step=30_000, epoch=30, generation=1, time=9e4))
    assert max(v.curves['step']) <= 30_000 and len(v.curves['epoch']) == 30 and v.restarts == 1
