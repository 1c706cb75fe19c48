"""A user's own model and data, trained right. The user-shaped tasks of `ntrain.ladder.user_tasks` (a token LM with
-100 padding and a summed loss, a regression, dict batches with an output object, a tuple output with an auxiliary
loss, BatchNorm) through ladder rungs 1-4, fit, load and resume; the broken ones caught at the right rung; val_loss
per token at two validation batch sizes and on 2 processes, against a computation by hand."""
import os
os.environ.setdefault('OMP_NUM_THREADS', '1')
import json, math, threading
from pathlib import Path
import pytest
import torch
import torch.nn.functional as F
import yaml
from torch import nn
from torch.utils.data import TensorDataset
from conftest import run_cli
import ntrain
from ntrain.core import NtrainError, ConfigError, TaskError
from ntrain.loggers import read_metrics
from ntrain.ladder.user_tasks import USER_TASKS, USER_BROKEN, PAD, token_lm, regression, off_by_one, tuple_aux, pairs

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures('one_thread')]


def one_line(e)->str:
    s = str(e)
    assert '\n' not in s.strip(), s
    return s


# ============================================================ the ladder
@pytest.mark.parametrize('name', list(USER_TASKS))
def test_healthy_user_task_passes_every_rung(name, tmp_path):
    make, keys = USER_TASKS[name]
    res = ntrain.ladder(task=make(), rungs='1-4', run_dir=tmp_path, write=False, **keys)  # config keys as keywords, as for fit
    assert [r.verdict for r in res.rungs] == ['pass'] * 4, res.table()
    r2 = res.rung(2)
    assert r2.numbers['rel_gap'] <= r2.numbers['tolerance'], res.table()
    if name == 'token_lm':  # judged per token under loss_norm='items': about ln(16), not 16 x 12 x ln(16)
        assert r2.numbers['expected'] == pytest.approx(math.log(16)) and r2.numbers['items'] < r2.numbers['samples'] * 12
        assert res.rung(1).numbers['targets_checked'].startswith('the batches')  # a Dataset of its own: no labels to scan whole
    if name in ('dict_batch', 'tuple_aux', 'batchnorm'):
        assert res.rung(4).numbers['metric'] == 'val_acc'


@pytest.mark.parametrize('name', list(USER_BROKEN))
def test_broken_user_task_is_caught_by_the_right_rung(name, tmp_path):
    make, args, keys, rung, verdict, cause, word = USER_BROKEN[name]
    res = ntrain.ladder(task=make(**args), rungs='1-4', run_dir=tmp_path, write=False, **keys)
    r = res.rung(rung)
    assert r.verdict == verdict and cause in r.causes and word in r.diagnosis, res.table()
    assert all(x.ok for x in res.rungs if x.rung < rung), res.table()
    assert 'init_scale' not in r.causes and 'lr_low' not in r.causes, res.table()  # nothing the rung's own numbers rule out
    if name == 'flat_regression_targets':  # torch's own warning is shown too
        assert 'UserWarning: Using a target size' in r.diagnosis, r.diagnosis


def test_one_bad_label_is_named_by_the_plain_model_ladder_and_by_fit(tmp_path):
    "One label 10 among 2,000 of 10 classes: the ladder scans the TensorDataset before the loss; fit runs the same check."
    res = ntrain.ladder(**off_by_one(), rungs='1-4', run_dir=tmp_path)
    r = res.rung(1)
    assert r.verdict == 'fail' and r.causes == ['bad_labels'], res.table()
    assert 'train sample 1234: target 10 is outside [0, 10)' in r.diagnosis and 'IndexError' not in r.diagnosis, r.diagnosis
    kw = off_by_one()
    task = ntrain.Task(model=lambda: kw['model'], train=kw['train'], valid=TensorDataset(torch.randn(8, 12), torch.zeros(8, dtype=torch.long)),
                       num_classes=10)
    with pytest.raises(TaskError, match=r'train sample 1234: target 10 is outside \[0, 10\)'):
        ntrain.fit(task=task, run_dir=tmp_path/'fit', num_workers=0, quiet=True)
    assert not (tmp_path/'fit'/'metrics.jsonl').exists()


# ============================================================ fit, resume, load
@pytest.mark.parametrize('name', list(USER_TASKS))
def test_user_task_fits_resumes_and_loads(name, tmp_path):
    "Starts from the documented defaults, is recorded as in memory, stops, resumes with task=, and loads with task=."
    make, keys = USER_TASKS[name]
    task, rd, stop = make(), tmp_path/'run', threading.Event()
    at_3 = lambda rec: stop.set() if rec['kind'] == 'step' and rec['step'] >= 3 else None
    res = ntrain.fit(task=task, run_dir=rd, epochs=2, num_workers=0, log_every=1, stop=stop, callbacks=[at_3], quiet=True, **keys)
    assert (res.status, res.steps) == ('stopped', 3)
    cfg = yaml.safe_load((rd/'config.yaml').read_text())
    assert (cfg['task'], cfg['task_args'], cfg['monitor'], cfg['early_stop']['patience']) == (f'in-memory:{name}', {}, 'val_loss', None)
    for call in (lambda: ntrain.resume(rd, quiet=True), lambda: ntrain.load(rd, 'last')):
        with pytest.raises(TaskError) as e: call()
        assert f"this run used an in-memory task '{name}': pass task=" in one_line(e.value)
    done = ntrain.resume(rd, task=task, quiet=True)
    assert done.status == 'finished' and done.steps == 16, done
    ep = done.history[-1]
    assert math.isfinite(ep['val_loss']) and math.isfinite(ep['train_loss'])
    if task.num_classes: assert 0 <= ep['val_acc'] <= 1 and 0 <= ep['val_f1'] <= 1  # F1 on -100 targets: no crash
    else: assert ep['val_mse'] == pytest.approx(ep['val_loss'], rel=1e-6)
    model, cfg = ntrain.load(rd, 'last', task=task)
    sd = ntrain.engine.checkpoint.load(rd/'ckpt'/'last.pt')['model']
    assert all(torch.equal(v, sd[k]) for k, v in model.state_dict().items()) and not model.training


def test_report_and_check_resume_on_an_in_memory_run(tmp_path):
    rd = tmp_path/'run'
    ntrain.fit(task=regression(), run_dir=rd, epochs=1, num_workers=0, quiet=True)
    card = ntrain.card.write_card(rd)  # what `ntrain report` prints
    assert 'in-memory task' in card and f'check-resume {rd}' not in card, card
    r = run_cli('resume', rd, timeout=120)
    assert r.returncode == 2 and r.stderr.strip().count('\n') == 0 and "in-memory task 'regression'" in r.stderr, r.stderr
    with pytest.raises(NtrainError) as e: ntrain.check_resume(rd/'config.yaml', quiet=True)
    assert 'in-memory task' in one_line(e.value)


# ============================================================ wrong numbers
def by_hand(model, ds)->tuple:
    "Per-token validation loss and accuracy over every real token, computed here in float64."
    model.eval()
    with torch.no_grad(): logits = model(ds.x).double()
    y = ds.y.reshape(-1)
    keep = y != PAD
    ce = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y, ignore_index=PAD, reduction='sum')
    acc = (logits.reshape(-1, logits.shape[-1]).argmax(-1)[keep] == y[keep]).double().mean()
    per_seq = [F.cross_entropy(logits[i], ds.y[i], ignore_index=PAD).item() for i in range(len(ds))]  # the mean of sequence means
    return (ce / keep.sum()).item(), acc.item(), sum(per_seq) / len(per_seq)

def test_token_val_loss_is_per_token_at_any_val_batch_size():
    "val_loss = summed token losses / tokens, whatever the val batch size; val_acc counts real tokens only."
    base = ntrain.Config(loss_norm='items', num_workers=0)
    got = {}
    for vbs in (7, 32):
        t = ntrain.Trainer(ntrain.apply_overrides(base, {'val_batch_size': vbs}), task=token_lm(), quiet=True).setup()
        with torch.no_grad():
            for p in t.model.parameters(): p.mul_(3)  # confident outputs: token losses that differ, so weightings differ
        got[vbs] = t.validate()
    loss, acc, per_seq = by_hand(t.model, t.task.valid)
    for v in got.values():
        assert v['val_loss'] == pytest.approx(loss, rel=1e-5) and v['val_acc'] == pytest.approx(acc, rel=1e-6)
    assert abs(per_seq - loss) > 1e-3 * loss  # weighting by sequences differs by 100x the tolerance: the check can fail


def launch_two(tmp_path, name:str, task:str, **keys):
    "`ntrain launch --nproc 2` of a config naming the importable `task`, in a subprocess with timeouts; (the result, the run directory)."
    rd = tmp_path/'run'
    (tmp_path/f'{name}.yaml').write_text(yaml.safe_dump(dict(name=name, task=task, num_workers=0, run_dir=str(rd), **keys)))
    r = run_cli('launch', tmp_path/f'{name}.yaml', '--nproc', '2', env=dict(NTRAIN_DIST_TIMEOUT='60'), timeout=240)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return r, rd


def test_token_val_loss_is_per_token_on_two_processes(tmp_path):
    "ntrain launch --nproc 2 on 67 validation sequences (one padding copy): the epoch's val_loss is the by-hand per-token loss."
    r, rd = launch_two(tmp_path, 'lm', 'ntrain.ladder.user_tasks:token_lm', loss_norm='items', epochs=1, batch_size=32, val_batch_size=16)
    ep = read_metrics(rd, 'epoch')[-1]
    model, cfg = ntrain.load(rd, 'last')  # the config names an importable task: no task= needed
    loss, acc, _ = by_hand(model, token_lm().valid)
    assert ep['val_loss'] == pytest.approx(loss, rel=1e-5) and ep['val_acc'] == pytest.approx(acc, rel=1e-6)
    assert yaml.safe_load((rd/'config.yaml').read_text())['task'] == 'ntrain.ladder.user_tasks:token_lm'
    assert 'BatchNorm' not in r.stdout + r.stderr + (rd/'log.txt').read_text()  # no BatchNorm, no warning about it
    assert not [m for m in read_metrics(rd, 'message') if m.get('level') == 'warning'], read_metrics(rd, 'message')


def test_batchnorm_on_two_processes_says_why_the_curve_differs(tmp_path):
    "ntrain launch --nproc 2 of a model with BatchNorm and no sync_bn: one warning at setup, naming sync_bn=true and rank 0's statistics."
    r, rd = launch_two(tmp_path, 'bn', 'ntrain.ladder.user_tasks:batchnorm', epochs=1, batch_size=32)
    warn = [m['text'] for m in read_metrics(rd, 'message') if m.get('level') == 'warning']
    assert len(warn) == 1 and '\n' not in warn[0], warn
    w = warn[0]
    assert 'the model has 1 BatchNorm layer and trains on 2 processes without sync_bn' in w and 'sync_bn=true (CUDA)' in w, w
    assert "validation uses rank 0's running statistics" in w and 'broadcast_buffers' in w, w
    assert [l for l in (rd/'log.txt').read_text().splitlines() if 'BatchNorm' in l] == [f'warning: {w}']
    assert read_metrics(rd, 'epoch')[-1]['epoch'] == 0  # a warning, not a refusal: the run trained


# ============================================================ defaults, monitor, names
def test_monitor_the_task_does_not_log_is_refused_before_the_first_step(tmp_path):
    with pytest.raises(ConfigError) as e:
        ntrain.fit(task=regression(), monitor='val_acc', run_dir=tmp_path/'run', num_workers=0, quiet=True)
    msg = one_line(e.value)
    assert "key 'monitor': 'val_acc' is not a metric this task logs" in msg and 'val_mse' in msg, msg
    assert not (tmp_path/'run'/'metrics.jsonl').exists()
    with pytest.raises(ConfigError, match="did you mean 'optim.lr'"): ntrain.fit(task=regression(), lr=1e-3, quiet=True)


def test_a_metric_that_fails_names_itself(tmp_path):
    class Boom(ntrain.Metric):
        name = 'boom'
        def update(self, preds, target): raise IndexError('index 9 is out of bounds')
        def compute(self): return {'boom': 0.0}
    task = tuple_aux(); task.metrics = [Boom()]
    with pytest.raises(TaskError) as e: ntrain.fit(task=task, run_dir=tmp_path/'run', num_workers=0, epochs=1, quiet=True)
    assert "metric 'boom' (Boom) failed in update on predictions float32[64, 4]" in one_line(e.value)


# ============================================================ a loss-only model: no prediction, no targets
def no_metrics_warnings(rd)->list:
    return [m['text'] for m in read_metrics(rd, 'message') if m.get('level') == 'warning' and m['text'].startswith('no metrics')]

def test_a_loss_only_model_is_judged_by_its_loss(tmp_path):
    "A CLIP-style dual encoder (a dict of logits per view, no targets) passes rung 1, fails no rung, and fits on its loss with one line."
    res = ntrain.ladder(task=pairs(), rungs='1-4', run_dir=tmp_path/'ladder', write=False)
    assert res.rung(1).verdict == 'pass' and 'fail' not in [r.verdict for r in res.rungs], res.table()
    assert 'logits_per_a, logits_per_b' in res.rung(1).numbers['loss_only'] and 'no metrics' in res.rung(1).diagnosis
    rd = tmp_path/'run'
    done = ntrain.fit(task=pairs(), run_dir=rd, epochs=2, num_workers=0, quiet=True)
    assert done.status == 'finished', done
    h = done.history
    assert [sorted(k for k in ep if k.startswith(('val_', 'train_'))) for ep in h] == [['train_loss', 'val_loss']] * 2, h
    assert h[-1]['val_loss'] < h[0]['val_loss'] < 6, h
    w = no_metrics_warnings(rd)
    assert len(w) == 1 and '\n' not in w[0] and 'the default metrics (MSE) have nothing to read' in w[0], w
    # metrics named by the task need a prediction: rung 1 and fit say to give Task(prediction=...), in one line
    named = pairs(); named.metrics = [ntrain.metrics.MSE()]
    r1 = ntrain.ladder(task=named, rungs='1', run_dir=tmp_path/'named', write=False).rung(1)
    assert (r1.verdict, r1.causes) == ('fail', ['prediction']) and 'Task(prediction=' in r1.diagnosis, r1.diagnosis
    with pytest.raises(TaskError) as e: ntrain.fit(task=named, run_dir=tmp_path/'fit_named', epochs=1, num_workers=0, quiet=True)
    assert 'the model returned a dict with logits_per_a, logits_per_b and no tensor' in one_line(e.value) and 'Task(prediction=' in one_line(e.value)
    # and a prediction of one's own feeds them
    own = pairs(); own.metrics = [ntrain.metrics.Accuracy()]
    own.prediction = lambda out: out['logits_per_a']
    own.forward = lambda model, b: (model(*b), torch.arange(len(b[0])))  # the i-th a goes with the i-th b: accuracy of the match
    ep = ntrain.fit(task=own, run_dir=tmp_path/'own', epochs=1, num_workers=0, quiet=True).history[-1]
    assert 0 <= ep['val_acc'] <= 1 and not no_metrics_warnings(tmp_path/'own'), ep


def test_a_loss_only_model_on_two_processes(tmp_path):
    "ntrain launch --nproc 2 of the dual encoder: every rank drops the default metrics alike, one warning, the run ends."
    r, rd = launch_two(tmp_path, 'pairs', 'ntrain.ladder.user_tasks:pairs', epochs=2, batch_size=32)
    eps = read_metrics(rd, 'epoch')
    assert len(eps) == 2 and eps[-1]['val_loss'] < eps[0]['val_loss'] and 'val_mse' not in eps[-1], eps
    assert len(no_metrics_warnings(rd)) == 1, read_metrics(rd, 'message')


class StepRecord(nn.Module):  # a spiking net's habit (snnTorch): the output is every time step's record, (steps, batch, classes)
    def __init__(self): super().__init__(); self.fc = nn.Linear(8, 3)
    def forward(self, x): h = self.fc(x); return torch.stack([h * (t + 1) / 4 for t in range(4)]), h.detach()

def record_loss(out, y): return sum(F.cross_entropy(m, y) for m in out[0]) / len(out[0])  # every step's cross-entropy

def test_a_prediction_that_does_not_line_up_with_the_targets_is_judged_by_its_loss(tmp_path):
    """Half R's spiking net crashed rung 4 (its accuracy compared 10 time steps of labels with the targets). The default
    metrics cannot read a prediction that is not one per target: rung 1 says so in one line, no rung fails or raises, and
    fit logs its loss alone with one warning. A classifier with no num_classes gets the same, with the hint."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(512, 8, generator=g); y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    kw = dict(model=StepRecord, train=TensorDataset(x[:400], y[:400]), valid=TensorDataset(x[400:], y[400:]), loss=record_loss, num_classes=3)
    res = ntrain.ladder(rungs='1-4', run_dir=tmp_path/'ladder', write=False, **kw)
    assert [r.verdict for r in res.rungs] == ['pass', 'warn', 'pass', 'pass'], res.table()  # rung 2: no theory for record_loss
    why = res.rung(1).numbers['loss_only']
    assert why.startswith('the prediction (the first element of a tuple of 2): float32[4, 64, 3] gives 768 labels for 64 targets (int64[64])'), why
    done = ntrain.fit(run_dir=tmp_path/'run', epochs=2, num_workers=0, quiet=True, **kw)
    assert done.status == 'finished' and sorted(k for k in done.history[-1] if k.startswith(('val_', 'train_'))) == ['train_loss', 'val_loss'], done.history
    w = no_metrics_warnings(tmp_path/'run')
    assert len(w) == 1 and 'gives 768 labels for 64 targets' in w[0] and 'Task(prediction=' in w[0], w
    plain = dict(kw, model=lambda: nn.Linear(8, 3), loss=nn.CrossEntropyLoss(), num_classes=None)  # the default metrics: MSE
    done = ntrain.fit(run_dir=tmp_path/'ce', epochs=1, num_workers=0, quiet=True, **plain)
    w = no_metrics_warnings(tmp_path/'ce')
    assert done.status == 'finished' and len(w) == 1 and 'gives 192 values for 64 targets' in w[0] and 'num_classes= gives accuracy and F1' in w[0], w
