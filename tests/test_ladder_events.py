"The ladder's records, its stop token and whose exceptions become a verdict: on digits and on tasks that are not digits."
import json, os, signal, subprocess, sys, threading, time
import pytest
import torch
from torch import nn
from torch.utils.data import TensorDataset
from conftest import ROOT
import tasks_for_tests
from ntrain.events import watch
from ntrain.ladder import ladder

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures('one_thread')]


def _json(x): return json.loads(json.dumps(x, default=str))

def _check_stream(recs, res, run_dir):
    "The records a callback saw: their order and fields agree with the result, and ladder.jsonl holds the same records."
    kinds = [r['kind'] for r in recs]
    assert kinds[0] == 'ladder_start' and kinds[-1] == 'ladder_end', kinds
    assert recs[0]['rungs'][:len(res.rungs)] == [r.rung for r in res.rungs] and recs[0]['run_dir'] == str(run_dir)
    assert [r['rung'] for r in recs if r['kind'] == 'rung_start'] == [r.rung for r in res.rungs if r.verdict != 'refused']
    assert [r['result'] for r in recs if r['kind'] == 'rung_end'] == [r.to_dict() for r in res.rungs]
    assert recs[-1]['result'] == res.to_dict()
    assert _json(recs) == watch(run_dir, 'ladder.jsonl').poll()  # a view fed from the file sees what a callback saw
    return kinds

def test_records_of_a_regression_with_the_lr_range_test(tmp_path):
    "MSE on a plain model: every rung 3 step with its target, rung 4's evaluations and threshold (mode min), lr_find, leak_check."
    torch.manual_seed(0)
    x = torch.randn(600, 4); y = x @ torch.tensor([[1.], [-2.], [.5], [3.]]) + 0.1 * torch.randn(600, 1)
    recs = []
    res = ladder(model=nn.Linear(4, 1), train=TensorDataset(x[:500], y[:500]), valid=TensorDataset(x[500:], y[500:]), loss=nn.MSELoss(),
                 optimizer=lambda p: torch.optim.Adam(p, lr=0.05), rungs='1-4', force=True, run_dir=tmp_path, callbacks=[recs.append],
                 settings=dict(lr_find=True, small_epochs=3, overfit_steps=200, overfit_ratio=0.05))
    _check_stream(recs, res, tmp_path)
    r3, r4 = res.rung(3), res.rung(4)
    steps = [r for r in recs if r['kind'] == 'rung_step']
    assert [r['step'] for r in steps] == list(range(1, r3.numbers['steps'] + 1)) and [r['loss'] for r in steps] == r3.series['loss']
    assert {r['target'] for r in steps} == {r3.numbers['threshold']} and {r['rung'] for r in steps} == {3}
    ev = [r for r in recs if r['kind'] in ('rung_eval', 'rung_threshold')]
    assert [(r['kind'], r.get('epoch')) for r in ev] == [('rung_eval', -1), ('rung_threshold', None)] + [('rung_eval', e) for e in range(3)]
    assert ev[1]['metric'] == 'val_loss' and ev[1]['mode'] == 'min' and ev[1]['threshold'] == r4.numbers['threshold']
    assert [r['value'] for r in ev if r['kind'] == 'rung_eval'] == r4.series['val_loss'] and 'train_loss' not in ev[0]
    lf = [r for r in recs if r['kind'] == 'lr_find']
    assert lf[-1]['done'] and lf[-1]['suggested_lr'] == r4.numbers['suggested_lr'] and lf[-1]['points'] == len(lf) - 1
    assert [r['lr'] for r in lf[:-1]] == r4.series['lr_find_lr']
    lk = [r for r in recs if r['kind'] == 'leak_check']
    assert lk[-1]['overlap'] == 0 and lk[-1]['done'] == lk[-1]['total'] == 500 + 100 and [r['done'] for r in lk[:-1]] == [512]

def test_records_of_a_dict_batch_task(tmp_path):
    "Hugging-Face-style dict batches and model outputs with .logits: the rungs run and every record is there."
    recs = []
    res = ladder(task=tasks_for_tests.hf_style(), rungs='1-4', force=True, run_dir=tmp_path, callbacks=[recs.append], settings=dict(small_epochs=2))
    assert res.rung(1).verdict == 'pass' and res.rung(1).numbers['inputs'] == {'input': 'float32[64, 16]'}, res.table()
    kinds = _check_stream(recs, res, tmp_path)
    assert kinds.count('rung_step') == res.rung(3).numbers['steps'] and kinds.count('rung_eval') == res.rung(4).numbers['epochs'] + 1 and 'rung_threshold' in kinds  # (more epochs when extended)
    assert next(r for r in recs if r['kind'] == 'rung_threshold')['mode'] == 'max'

def test_stop_from_a_worker_thread_in_rung_3(tmp_path):
    "Stopped from a callback at rung 3's first step: rungs 1-2 keep their verdicts, rung 3 reads stopped, rung 4 does not run."
    halt, recs, out, when = threading.Event(), [], {}, {}
    def cb(rec):
        recs.append(rec)
        if rec['kind'] == 'rung_step' and not halt.is_set(): when['set'] = time.monotonic(); halt.set()
    th = threading.Thread(target=lambda: out.update(res=ladder('digits', rungs='1-4', run_dir=tmp_path, callbacks=[cb], stop=halt)))
    th.start(); th.join(120)
    assert not th.is_alive()
    res = out['res']
    assert time.monotonic() - when['set'] < 5  # includes writing ladder.json and the rung 3 plot
    assert [r.verdict for r in res.rungs] == ['pass', 'pass', 'stopped'] and res.rung(4) is None, res.table()
    assert (res.status, res.stopped, res.exit_code, res.ok) == ('stopped', 'stop token', 75, False)
    assert res.rung(3).causes == [] and 1 <= res.rung(3).numbers['steps'] < 30
    d = json.loads((tmp_path/'ladder.json').read_text())
    assert [r['verdict'] for r in d['rungs']] == ['pass', 'pass', 'stopped'] and d['status'] == 'stopped' and d['stopped'] == 'stop token'
    _check_stream(recs, res, tmp_path)

def test_sigint_on_the_main_thread_stops_the_ladder_and_the_handlers_come_back(tmp_path):
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    def interrupt(rec):
        if rec['kind'] == 'rung_step' and rec['step'] == 1: os.kill(os.getpid(), signal.SIGINT)
    res = ladder(task=tasks_for_tests.tiny(), rungs='1-4', run_dir=tmp_path, callbacks=[interrupt])
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    assert res.stopped == 'SIGINT' and [r.verdict for r in res.rungs] == ['pass', 'pass', 'stopped'], res.table()

def test_a_callback_that_raises_is_removed_with_one_warning(tmp_path):
    seen = []
    def broken(rec):
        if rec['kind'] == 'rung_start': raise KeyError('no view')
    res = ladder(task=tasks_for_tests.tiny(), rungs='1-2', run_dir=tmp_path, callbacks=[broken, seen.append])
    assert res.ok, res.table()
    warnings = [r for r in seen if r['kind'] == 'message']
    assert len(warnings) == 1 and warnings[0]['level'] == 'warning' and 'broken' in warnings[0]['text'] and 'KeyError' in warnings[0]['text']
    assert [r['kind'] for r in seen][-1] == 'ladder_end'

class RaisesInForward(nn.Module):
    def __init__(self): super().__init__(); self.lin = nn.Linear(16, 4)
    def forward(self, x): raise ValueError('shapes do not line up')

def test_an_exception_in_user_code_is_a_rung_fail_naming_it(tmp_path):
    t = tasks_for_tests.tiny(); t.model = RaisesInForward
    res = ladder(task=t, rungs='1-3', run_dir=tmp_path/'a')
    r = res.rung(1)
    assert r.verdict == 'fail' and r.causes == ['forward'] and [x.verdict for x in res.rungs] == ['fail', 'refused', 'refused']
    assert 'forward pass' in r.diagnosis and 'ValueError' in r.diagnosis and 'shapes do not line up' in r.diagnosis
    assert 'test_ladder_events.py:' in r.diagnosis  # where in the user's code
    # an exception where no rung expects one (the theory hook of rung 2) also becomes a fail naming the call site
    x = torch.randn(100, 3); y = torch.randn(100, 1)
    res = ladder(model=nn.Linear(3, 1), train=TensorDataset(x, y), loss=nn.MSELoss(), expected_init_loss=lambda task, batch: 1 / 0,
                 rungs='2', force=True, run_dir=tmp_path/'b')
    r = res.rung(2)
    assert r.verdict == 'fail' and r.causes == ['theory'] and 'Task.expected_init_loss raised ZeroDivisionError' in r.diagnosis, r.diagnosis
    assert r.numbers['measured'] > 0  # what the rung measured before the hook raised is kept

def test_an_ntrain_bug_propagates_with_its_traceback_after_ladder_json(tmp_path, monkeypatch):
    from ntrain.ladder import overfit
    def buggy(model): raise RuntimeError('a bug in ntrain')
    monkeypatch.setattr(overfit, 'grad_report', buggy)
    recs = []
    with pytest.raises(RuntimeError, match='a bug in ntrain') as e:
        ladder(task=tasks_for_tests.tiny(), rungs='1-4', run_dir=tmp_path, callbacks=[recs.append])
    assert any(f.name == 'buggy' for f in e.traceback)
    d = json.loads((tmp_path/'ladder.json').read_text())
    assert [(r['rung'], r['verdict']) for r in d['rungs']] == [(1, 'pass'), (2, 'pass'), (3, 'fail')] and d['rungs'][2]['causes'] == ['internal']
    assert 'a bug in ntrain' in d['rungs'][2]['diagnosis'] and [r['kind'] for r in recs][-2:] == ['rung_end', 'ladder_end']

def test_cli_ctrl_c_stops_the_ladder_with_exit_75(tmp_path):
    "`ntrain ladder` in a subprocess, watched through ladder.jsonl; SIGINT in rung 3 stops it cleanly: table, ladder.json, exit 75."
    env = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1')
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'ladder', 'digits', f'run_dir={tmp_path}', '--overfit-steps', '20000', '--overfit-ratio', '0'],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        w, t0 = watch(tmp_path, 'ladder.jsonl'), time.monotonic()
        while not any(r['kind'] == 'rung_step' for r in w.poll()):
            assert p.poll() is None and time.monotonic() - t0 < 90, 'no rung 3 step seen'
            time.sleep(0.1)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None: p.kill(); p.communicate()
    assert p.returncode == 75, out + err
    assert 'rung 3: STOPPED' in out and 'stopped (SIGINT)' in out
    d = json.loads((tmp_path/'ladder.json').read_text())
    assert [r['verdict'] for r in d['rungs']] == ['pass', 'pass', 'stopped'] and d['stopped'] == 'SIGINT'
