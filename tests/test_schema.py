"""The record schema (`ntrain.events.SCHEMA`) against what the engine writes: every record of real short runs (digits through a
stop and a resume, a task of `ntrain.ladder.user_tasks`, two failures) and of a ladder on a user task passes `check_record`; a wrong
record fails in one line naming its kind and field; an older `metrics.jsonl` reads with the schema's defaults.
The whole suite runs with NTRAIN_CHECK_RECORDS=1 (conftest.py): every record written in-process is checked as it is emitted."""
import json, os
from pathlib import Path
import pytest
import ntrain
from ntrain import events
from ntrain.events import SCHEMA, END_KINDS, Events, check_record, field, read, best_epoch, direction, layout, record
from ntrain.loggers import read_metrics
from ntrain.notebook.viewmodel import RunView
from ntrain.ladder.user_tasks import multilabel, regression
from conftest import ROOT

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures('one_thread')]
FAST = dict(epochs=2, batch_size=64, num_workers=0, deterministic=True, log_every=2, progress=False, val_every_n_steps=4)
OLD = ROOT/'tests'/'fixtures'/'run-2de8b08'


def _checked(recs:list)->set:
    "The kinds of `recs`, each record checked against the schema."
    for r in recs: check_record(r)
    return {r['kind'] for r in recs}

def test_the_suite_checks_every_record():
    assert os.environ.get('NTRAIN_CHECK_RECORDS') == '1' and events.CHECK_RECORDS
    assert Events().sinks[0] is check_record  # set up once per Events: nothing per record when the switch is off

def test_every_record_of_a_digits_run_stopped_and_resumed(tmp_path):
    seen, rd = [], tmp_path/'digits'
    res = ntrain.fit('digits', run_dir=rd, callbacks=[seen.append], stop=lambda: any(r['kind'] == 'epoch' for r in seen), quiet=True, **FAST)
    assert res.status == 'stopped'
    assert ntrain.resume(rd, callbacks=[seen.append], quiet=True).status == 'finished'
    kinds = _checked(seen)
    assert kinds >= {'start', 'step', 'val', 'epoch', 'checkpoint', 'message', 'stopped', 'resume', 'finished'}, kinds
    assert _checked(read_metrics(rd)) >= kinds - {'stopped'}  # the file: what a reader gets back (the resume cut the stop)
    recs = read_metrics(rd)
    b = best_epoch(recs, 'val_acc', direction(recs))
    assert direction(recs) == 'max' and b['val_acc'] == max(r['val_acc'] for r in recs if r['kind'] == 'epoch')

def test_every_record_of_a_user_task_and_of_failures(tmp_path):
    seen = []
    res = ntrain.fit(task=multilabel(n_train=512, n_valid=256), run_dir=tmp_path/'ml', callbacks=[seen.append], quiet=True,
                     **dict(FAST, epochs=1))
    assert res.status == 'finished' and _checked(seen) >= {'start', 'step', 'val', 'epoch', 'finished'}
    ep = next(r for r in seen if r['kind'] == 'epoch')
    assert [n for n in ep if n.startswith(('val_', 'train_')) and n not in ('val_loss', 'train_loss')]  # its own metrics: the patterns
    # tiny tasks of 4 steps an epoch: the loss is NaN from step 3 on (stopped after 3 in a row); the model raises at step 7
    for task, status in (('tasks_for_tests:nan_from', 'nonfinite'), ('tasks_for_tests:boom_at', 'failed')):
        seen = []
        try: res = ntrain.fit('digits', [f'task={task}', f"task_args={{k: {2 if status == 'nonfinite' else 6}}}"], run_dir=tmp_path/status,
                              callbacks=[seen.append], quiet=True, **FAST)
        except Exception as e: assert status == 'failed', e
        else: assert res.status == status
        assert 'failed' in _checked(seen) and _checked(read_metrics(tmp_path/status))
    assert any('bad' in r for r in read_metrics(tmp_path/'nonfinite') if r['kind'] == 'failed')

def test_every_record_of_a_ladder_on_a_user_task(tmp_path):
    seen = []
    ntrain.ladder(task=regression(), rungs='1-4', force=True, run_dir=tmp_path, callbacks=[seen.append],
                  settings=dict(lr_find=True, small_epochs=2, overfit_steps=60), num_workers=0)
    kinds = _checked(seen)
    assert kinds >= {'ladder_start', 'rung_start', 'rung_step', 'rung_eval', 'rung_threshold', 'lr_find', 'leak_check', 'rung_end', 'ladder_end'}, kinds

@pytest.mark.parametrize('rec, says', [
    (dict(kind='stpe', step=1), "unknown record kind 'stpe'"),
    (dict(record('checkpoint', epoch=0, step=4, which='last')), "checkpoint record: field 'path' is missing (str)"),
    (dict(record('finished', epoch=0, step=4, reason='epochs', status='finished'), step='4'), "finished record: field 'step' is str '4', not int"),
    (dict(record('epoch', epoch=0, step=4, train_loss=1.0, lr=0.1, samples_per_s=1.0, data_wait=0.0, epoch_time=1.0, peak_mem={}), val_acc=[0.5]),
     "epoch record: field 'val_acc' is list [0.5], not number|null"),
])
def test_a_wrong_record_fails_in_one_line_and_is_not_written(rec, says):
    written = []
    ev = Events(sinks=[written.append])
    with pytest.raises(ValueError) as e: ev.emit(rec)
    assert says in str(e.value) and '\n' not in str(e.value) and written == []

def test_an_older_metrics_file_reads_with_the_defaults(tmp_path):
    recs = read_metrics(OLD)
    start = next(r for r in recs if r['kind'] == 'start')
    assert 'run_id' not in start and 'early_stop_metric' not in start  # written before those fields existed
    with pytest.raises(ValueError, match="start record: field 'early_stop_metric' is missing"): check_record(start)
    lay = layout(recs)
    assert (lay['run_id'], lay['early_stop_metric'], lay['early_stop_mode'], lay['epochs']) == (None, None, None, start['epochs'])
    assert best_epoch(recs, start['monitor'], direction(recs)) is not None
    v = RunView(); [v.apply(r) for r in recs]
    assert v.to_dict()['total_steps'] == start['total_steps'] and len(v.curves['epoch']) == sum(r['kind'] == 'epoch' for r in recs)
    # a line of an even older writer: no lr, no rates; a field of the wrong type reads as its default
    old = dict(kind='step', epoch=0, step=3, loss=2.0, time=1.0)
    assert (read(old)['lr'], read(old)['samples_per_s'], field(dict(old, loss='x'), 'loss'), read(old)['loss']) == (None, None, None, 2.0)
    assert field(dict(kind='lr_find', rung=4), 'done') is False and field(dict(kind='epoch', val_acc=0.5), 'val_acc') == 0.5

def test_every_kind_is_declared_with_time():
    assert set(SCHEMA) == set(events.KINDS) and all('time' in f for f in SCHEMA.values())
    assert all(set(SCHEMA[k]) == set(SCHEMA['stopped']) | ({'bad'} if k == 'failed' else set()) for k in END_KINDS)
