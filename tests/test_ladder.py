"The sanity ladder: the healthy example passes, each broken task is caught by the right rung with the right cause."
import json, os
import pytest
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader
from conftest import run_cli, ROOT
from ntrain.core import NtrainError
from ntrain.ladder import ladder
from ntrain.ladder.gallery import BROKEN

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures('one_thread')]


def test_healthy_digits_passes_rungs_1_to_4(tmp_path):
    res = ladder('digits', run_dir=tmp_path)
    assert [r.verdict for r in res.rungs] == ['pass'] * 4, res.table()
    assert res.exit_code == 0
    assert res.rung(1).numbers['inputs'] == 'float32[64, 1, 8, 8]' and res.rung(1).numbers['targets'] == 'int64[64]'
    assert abs(res.rung(2).numbers['measured'] - res.rung(2).numbers['expected']) < 0.15 * res.rung(2).numbers['expected']
    assert res.rung(3).numbers['final_loss'] <= res.rung(3).numbers['threshold']
    assert res.rung(4).numbers['final'] > res.rung(4).numbers['threshold'] and res.rung(4).numbers['overlap'] == 0
    d = json.loads((tmp_path/'ladder.json').read_text())
    assert d['ok'] and [r['verdict'] for r in d['rungs']] == ['pass'] * 4 and d['rungs'][2]['series']['loss']
    for f in ('ladder_rung3.png', 'ladder_rung4.png', 'ladder/rung1.pt', 'ladder/metrics.jsonl'): assert (tmp_path/f).exists(), f

@pytest.mark.parametrize('name', list(BROKEN))
def test_each_broken_task_is_caught_by_the_right_rung(tmp_path, name):
    overrides, rung, verdict, cause, word = BROKEN[name]
    res = ladder('digits', overrides, run_dir=tmp_path)
    r = res.rung(rung)
    assert r.verdict == verdict, res.table()
    assert cause in r.causes and word in r.diagnosis, res.table()
    assert all(x.ok for x in res.rungs if x.rung < rung), res.table()  # caught here, not earlier
    assert all(x.verdict == 'refused' for x in res.rungs if x.rung > rung)
    assert res.exit_code == 1

def test_random_labels_pass_rung_3_and_fail_rung_4(tmp_path):
    res = ladder('digits', BROKEN['random_labels'][0], run_dir=tmp_path)
    assert res.rung(3).verdict == 'pass' and res.rung(4).verdict == 'fail'

def test_nan_in_the_overfit_batch_is_named_by_rung_3_too(tmp_path):
    res = ladder('digits', BROKEN['nan_outputs'][0], rungs='3', force=True, run_dir=tmp_path)
    assert [r.rung for r in res.rungs] == [3]
    r = res.rung(3)
    assert r.verdict == 'fail' and 'nan' in r.causes and 'nan_forward' in r.causes and "module 'scale'" in r.diagnosis, r.diagnosis
    assert 'not the data size' in r.diagnosis

def test_refuses_a_later_rung_after_a_failure_unless_forced(tmp_path):
    ov = BROKEN['big_init'][0]
    res = ladder('digits', ov, rungs='3', run_dir=tmp_path/'a')
    assert [r.verdict for r in res.rungs] == ['pass', 'fail', 'refused']
    assert res.rung(3).numbers == {} and 'force=True' in res.rung(3).diagnosis and res.exit_code == 1
    forced = ladder('digits', ov, rungs='3', force=True, run_dir=tmp_path/'b')
    assert [r.rung for r in forced.rungs] == [3] and forced.rung(3).verdict != 'refused' and forced.rung(3).numbers['steps'] > 0

def test_plain_model_dataset_and_loss(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(600, 8); y = (x[:, 0] + x[:, 1] > 0).long()
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
    before = [p.clone() for p in model.parameters()]
    res = ladder(model=model, train=TensorDataset(x[:500], y[:500]), valid=TensorDataset(x[500:], y[500:]),
                 loss=nn.CrossEntropyLoss(), optimizer=torch.optim.Adam(model.parameters(), lr=1e-2), run_dir=tmp_path)
    assert res.ok, res.table()
    assert res.rung(1).numbers['inputs'] == 'float32[64, 8]' and abs(res.rung(2).numbers['expected'] - 0.6931) < 1e-3
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))  # the user's model is untouched

def test_plain_dataloader_mse_and_a_step_function_that_never_steps(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(400, 4); y = x @ torch.tensor([[1.], [-2.], [.5], [3.]])
    model = nn.Linear(4, 1)
    def step(model, batch, opt):  # the user's own step, which forgets optimizer.step()
        opt.zero_grad(); loss = nn.functional.mse_loss(model(batch[0]), batch[1]); loss.backward(); return loss
    res = ladder(model=model, train=DataLoader(TensorDataset(x, y), batch_size=50), loss=nn.MSELoss(), step=step, rungs='1-3', run_dir=tmp_path)
    assert res.rung(1).numbers['batch_size'] == 50
    assert res.rung(2).verdict == 'pass', res.table()
    r = res.rung(3)
    assert r.verdict == 'fail' and 'flat' in r.causes and 'step_fn' in r.causes and 'optimizer.step()' in r.diagnosis, r.diagnosis

def test_no_theory_warns_and_the_hook_gives_one(tmp_path):
    x = torch.randn(200, 3); y = torch.randn(200, 1)
    l1 = lambda p, t: (p - t).abs().mean()
    res = ladder(model=nn.Linear(3, 1), train=TensorDataset(x, y), loss=l1, rungs='2', force=True, run_dir=tmp_path/'a')
    assert res.rung(2).verdict == 'warn' and 'expected_init_loss' in res.rung(2).diagnosis
    res = ladder(model=nn.Linear(3, 1), train=TensorDataset(x, y), loss=l1, rungs='2', force=True, run_dir=tmp_path/'b',
                 expected_init_loss=lambda task, batch: 1e6)
    assert res.rung(2).verdict == 'fail'

def test_bad_input_is_a_one_line_ntrain_error(tmp_path):
    with pytest.raises(NtrainError, match='rungs are 1 to 5'): ladder('digits', rungs='2-7', run_dir=tmp_path)
    with pytest.raises(NtrainError, match="did you mean 'overfit_steps'"): ladder('digits', settings=dict(overfit_step=3), run_dir=tmp_path)
    with pytest.raises(NtrainError, match=r"settings=dict\(overfit_steps=\.\.\.\)"): ladder('digits', overfit_step=3, run_dir=tmp_path)

def test_healthy_digits_passes_every_rung_and_rung_5_hands_over_to_the_trainer(tmp_path):
    recs = []
    res = ladder('digits', ['epochs=1', 'num_workers=0'], rungs='1-5', run_dir=tmp_path, callbacks=[recs.append])
    assert [r.verdict for r in res.rungs] == ['pass'] * 5, res.table()
    r = res.rung(5)
    assert r.numbers['status'] == 'finished' and r.numbers['epochs'] == 1, res.table()
    assert (tmp_path/'ckpt'/'last.pt').exists() and (tmp_path/'ladder.json').exists()
    # the run's own records reach the ladder's callbacks, between rung 5's start and end
    kinds = [x['kind'] for x in recs]
    run = kinds[max(k for k, x in enumerate(recs) if x['kind'] == 'rung_start') + 1:kinds.index('ladder_end') - 1]
    assert run[0] == 'start' and 'epoch' in run and run[-1] == 'finished', run

def test_rung_5_is_stopped_by_the_ladders_stop_token(tmp_path):
    "A stop during the full run: the run saves last.pt and ends stopped, rung 5 reads stopped, ladder.json says so."
    import threading
    halt = threading.Event()
    def cb(rec):
        if rec['kind'] == 'step': halt.set()
    res = ladder('digits', ['epochs=3', 'num_workers=0', 'log_every=5'], rungs='5', force=True, run_dir=tmp_path, callbacks=[cb], stop=halt)
    assert [r.verdict for r in res.rungs] == ['stopped'] and res.rung(5).numbers['status'] == 'stopped', res.table()
    assert res.exit_code == 75 and (tmp_path/'ckpt'/'last.pt').exists()
    assert json.loads((tmp_path/'ladder.json').read_text())['stopped'] == 'stop token'

def test_cli_rungs_1_2_pass_and_write_the_report(tmp_path):
    r = run_cli('ladder', 'digits', f'run_dir={tmp_path}', '--rungs', '1-2', timeout=120, check=0)
    assert 'rung 1: PASS' in r.stdout and 'initial loss vs theory' in r.stdout and 'ladder.json' in r.stdout
    d = json.loads((tmp_path/'ladder.json').read_text())
    assert [x['rung'] for x in d['rungs']] == [1, 2] and d['ok']

def test_cli_a_failing_task_exits_non_zero(tmp_path):
    r = run_cli('ladder', 'digits', f'run_dir={tmp_path}', 'task=ntrain.ladder.gallery:big_init', '--rungs', '1-3', cwd=ROOT, timeout=120)
    assert r.returncode == 1, r.stdout + r.stderr
    assert 'FAIL' in r.stdout and 'REFUSED' in r.stdout and "last layer's init scale" in r.stdout
    assert json.loads((tmp_path/'ladder.json').read_text())['ok'] is False

def test_cli_bad_rungs_is_one_line(tmp_path):
    r = run_cli('ladder', 'digits', f'run_dir={tmp_path}', '--rungs', '9', timeout=120)
    assert r.returncode == 2 and r.stderr.strip().count('\n') == 0 and 'rungs are 1 to 5' in r.stderr

def test_a_nan_gradient_is_traced_to_the_backward_op(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(200, 4); y = (x[:, 0] > 0).long()
    def loss(p, t):  # finite forward, NaN backward: d sqrt(u)/du is inf at u = 0, times du/dp = 0
        return nn.functional.cross_entropy(p, t) + torch.sqrt((p - p.detach()).pow(2).sum())
    res = ladder(model=nn.Linear(4, 2), train=TensorDataset(x, y), loss=loss, rungs='1', run_dir=tmp_path)
    r = res.rung(1)
    assert r.verdict == 'fail' and 'nan_params' in r.causes and 'nan_backward' in r.causes, r.diagnosis
    assert 'detect_anomaly names' in r.diagnosis and 'Backward' in r.diagnosis, r.diagnosis

def test_a_diverging_loss_blames_the_learning_rate(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(300, 4) * 3; y = x @ torch.tensor([[1.], [-2.], [.5], [3.]])
    res = ladder(None, ['clip_grad=null'], model=nn.Linear(4, 1), train=TensorDataset(x, y), loss=nn.MSELoss(),
                 optimizer=lambda p: torch.optim.SGD(p, lr=1.0), rungs='3', force=True, run_dir=tmp_path)
    r = res.rung(3)
    assert r.verdict == 'fail' and 'lr_high' in r.causes and 'learning rate is too high' in r.diagnosis, r.diagnosis

def test_wrong_number_of_classes_is_named(tmp_path):
    x = torch.randn(200, 4); y = torch.randint(0, 3, (200,))
    res = ladder(model=nn.Linear(4, 5), train=TensorDataset(x, y), num_classes=3, rungs='2', force=True, run_dir=tmp_path)
    r = res.rung(2)
    assert r.verdict == 'fail' and 'num_classes' in r.causes and 'wrong number of classes' in r.diagnosis, r.diagnosis

def test_cli_and_panel_write_the_same_ladder_json(tmp_path):
    """One driver (LadderSession): the same inputs give a byte-equal ladder.json, timings aside, from `ntrain ladder` in a
    subprocess and from the panel driven by its widgets (the editor's lr, then the Run 1-4 button)."""
    import re, shutil
    from ntrain.notebook.ladder_panel import Ladder
    rd = tmp_path/'lad'
    run_cli('ladder', 'digits', f'run_dir={rd}', 'optim.lr=0.005', '--rungs', '1-4', timeout=300, check=0)
    cli = (rd/'ladder.json').read_bytes()
    shutil.rmtree(rd)
    lad = Ladder('digits', [f'run_dir={rd}'])
    lad.show()
    lad.w['lr'].value = '0.005'
    lad.w['run14'].click()
    lad.wait(300)
    panel = (rd/'ladder.json').read_bytes()
    untimed = lambda b: re.sub(rb'"(\w+_)?seconds": [-+.e0-9]+', b'"seconds": 0', b)  # rung 1's factory_seconds and step_seconds too
    assert untimed(cli) == untimed(panel), (cli.decode()[:3000], panel.decode()[:3000])
    d = json.loads(panel)
    assert [(r['rung'], r['verdict'], r['settings']['lr']) for r in d['rungs']] == [(n, 'pass', 0.005) for n in range(1, 5)]
    assert "data-verdict='pass'" in lad.w['badge4'].value and not lad.w['run14'].disabled  # the widgets render the session's result

def test_a_session_on_tasks_that_are_not_digits(tmp_path, monkeypatch):
    """A regression task given as module:function and a dict-batch Task object: the base config is Config() (never digits),
    the run directories are named after the task, and the dict-batch task's rung 5 runs in this process on a thread
    (torchrun cannot import a Task object), passes with its wall time, and ladder.json says so."""
    from dataclasses import asdict
    from pathlib import Path
    from ntrain.config import Config
    from ntrain.handle import ThreadRun
    from ntrain.ladder import LadderSession
    from ntrain.ladder.full_run import IN_KERNEL
    from ntrain.ladder import user_tasks
    monkeypatch.chdir(tmp_path)
    reg = LadderSession(task='ntrain.ladder.user_tasks:regression')
    assert asdict(reg.base) == asdict(Config()) and reg.run_dir.parent == Path('runs') and reg.run_dir.name.startswith('regression-'), reg.run_dir
    res = reg.run('1-3')
    assert [r.verdict for r in res.rungs] == ['pass'] * 3, res.table()
    assert reg.refused(4) is None and reg.refused(5).startswith('rung 4 (small data moves val) has not run')
    reg.edit(lr=0.01)
    assert reg.stale(1) and reg.refused(4).startswith('rung 1 (one step end to end) passed with other settings'), reg.refused(4)
    dic = LadderSession(task=user_tasks.dict_batch(), epochs=2)
    assert dic.base.name == 'run' and dic.run_dir.name.startswith('dict_batch-'), dic.run_dir
    res = dic.run('1-5', nproc=2)
    r5 = res.rung(5)
    assert [r.verdict for r in res.rungs] == ['pass'] * 5, res.table()
    assert isinstance(dic.handle, ThreadRun) and dic.handle.run_dir == dic.run_dir and r5.numbers['status'] == 'finished'
    assert r5.seconds > 0 and IN_KERNEL in r5.diagnosis and r5.numbers['epochs'] == 2, r5.diagnosis
    d = json.loads((dic.run_dir/'ladder.json').read_text())
    assert d['rungs'][4]['verdict'] == 'pass' and d['rungs'][4]['seconds'] == r5.seconds
    assert (dic.run_dir/'config.yaml').exists() and 'name: run' in (dic.run_dir/'config.yaml').read_text()
