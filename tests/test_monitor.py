"""A monitor direction you can trust. Names are read by whole words (`val_mape` is minimised, not
'map'), a Metric's `higher_is_better` wins over its name, a name nobody can read is refused asking for `mode=`, and
best.pt, early stopping, the `start` record, the card and rung 5 share the one answer; a resume keeps the direction
its run recorded."""
import os
os.environ.setdefault('OMP_NUM_THREADS', '1')
import json, math
from pathlib import Path
import pytest
import torch
import yaml
from torch import nn
from torch.utils.data import TensorDataset
import ntrain
from ntrain.engine import checkpoint as ckpt
from ntrain.core import ConfigError
from ntrain.card import run_card
from ntrain.loggers import read_metrics
from ntrain.engine.optim import monitor_mode, metric_direction
from ntrain.ladder.full_run import _run_numbers

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures('one_thread')]

MINIMISED = ['loss', 'nll', 'ce', 'mse', 'rmse', 'mae', 'mape', 'smape', 'wmape', 'wer', 'cer', 'perplexity', 'ppl', 'bpb',
             'error', 'top1_error', 'dice_loss', 'iou_loss', 'focal_loss', 'kl', 'fid', 'lpips', 'ece', 'brier', 'eer']
MAXIMISED = ['acc', 'accuracy', 'top5_acc', 'f1', 'f1_macro', 'auc', 'auroc', 'map', 'map50', 'iou', 'miou', 'dice', 'r2', 'bleu',
             'rouge_l', 'psnr', 'ssim', 'precision', 'recall', 'mcc', 'kappa', 'ndcg', 'mrr', 'spearman', 'exact_match']
TABLE = {**{n: 'min' for n in MINIMISED}, **{n: 'max' for n in MAXIMISED}}


@pytest.mark.parametrize('name', list(TABLE))
def test_the_direction_of_each_name(name):
    want = TABLE[name]
    for full in (f'val_{name}', f'train_{name}', name, f"val.{name.replace('_', '-')}"):
        assert monitor_mode(full) == want, full
        assert metric_direction(full) == want, full
    assert monitor_mode(f'val_{name}', 'max' if want == 'min' else 'min') != want  # the config's mode= wins


@pytest.mark.parametrize('name', ['val_score', 'val_metric', 'train_score', 'lr'])
def test_a_name_it_cannot_read_is_refused_asking_for_mode(name):
    assert metric_direction(name) is None
    with pytest.raises(ConfigError) as e: monitor_mode(name)
    msg = str(e.value)
    assert '\n' not in msg and "key 'mode'" in msg and f"'{name}'" in msg and 'set mode=max or mode=min' in msg, msg


# ------------------------------------------------------------------------------------------------ tasks
class MAPE(ntrain.Metric):
    "Mean absolute percentage error, in percent: no higher_is_better, so its name decides."
    name = 'mape'
    def __init__(self):
        super().__init__(); self.add_state('ape', torch.zeros((), dtype=torch.float64)); self.add_state('n', torch.zeros((), dtype=torch.float64))
    def update(self, preds, target): self.ape += ((preds - target).abs() / target.abs()).sum().double(); self.n += target.numel()
    def compute(self): return {self.name: 100 * (self.ape / self.n).item() if self.n > 0 else math.nan}


def mape_task(metric: str = 'mape', higher_is_better=None):
    "A linear regression with targets away from 0, whose only metric is a MAPE named `metric` (importable: test_monitor:mape_task)."
    g = torch.Generator().manual_seed(0)
    x = torch.randn(384, 4, generator=g); y = x @ torch.tensor([[.5], [-1.], [.25], [.75]]) + 6
    m = MAPE(); m.name = metric
    if higher_is_better is not None: m.higher_is_better = higher_is_better
    return ntrain.Task(model=lambda: nn.Linear(4, 1), train=TensorDataset(x[:256], y[:256]), valid=TensorDataset(x[256:], y[256:]),
                       loss=nn.MSELoss(), metrics=[m], name='mape')


KEYS = ['task=test_monitor:mape_task', 'num_workers=0', 'batch_size=32', 'optim.lr=0.2', 'progress=false', 'log_every=4']


def cfg(*over):
    return ntrain.apply_overrides(ntrain.Config(), [*KEYS, *over])


def test_a_metric_that_declares_its_direction_wins_over_its_name():
    "An 'acc'-like name whose Metric says higher_is_better=False is minimised; the config's mode= still wins over both."
    t = ntrain.Trainer(cfg('monitor=val_acc_gap', 'task_args={metric: acc_gap, higher_is_better: false}'), quiet=True).setup()
    assert (t.mode, t.es_mode) == ('min', 'min')
    t = ntrain.Trainer(cfg('monitor=val_score', 'task_args={metric: score, higher_is_better: true}'), quiet=True).setup()
    assert t.mode == 'max'
    t = ntrain.Trainer(cfg('monitor=val_acc_gap', 'mode=max', 'task_args={metric: acc_gap, higher_is_better: false}'), quiet=True).setup()
    assert t.mode == 'max'
    with pytest.raises(ConfigError, match="key 'mode': .*'val_score'"):
        ntrain.Trainer(cfg('monitor=val_score', 'task_args={metric: score}'), quiet=True).setup()


def test_a_mape_run_keeps_its_lowest_epoch_everywhere(tmp_path):
    "val_mape falls: early stopping lets it run, best.pt is the lowest epoch, and the start record, the card and rung 5 agree."
    rd = tmp_path/'run'
    res = ntrain.fit(cfg('epochs=4', 'monitor=val_mape', 'early_stop.patience=1', f'run_dir={rd}'), quiet=True)
    vals = [h['val_mape'] for h in res.history]
    assert res.status == 'finished' and len(vals) == 4, (res, vals)  # the substring rule stopped it after 2 epochs
    low = min(range(4), key=vals.__getitem__)
    assert vals[0] > vals[low] and low != max(range(4), key=vals.__getitem__), vals
    assert res.best['epoch'] == low and res.best['value'] == vals[low]
    best = ckpt.load(rd/'ckpt'/'best.pt')
    assert best['ntrain']['best']['epoch'] == low and best['ntrain']['history'][-1]['epoch'] == low
    model, _ = ntrain.load(rd)  # best.pt
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), best['model'].values()))
    start = read_metrics(rd, 'start')[0]
    assert (start['monitor'], start['mode'], start['early_stop_metric'], start['early_stop_mode']) == ('val_mape', 'min', 'val_mape', 'min')
    card = run_card(rd)
    assert f"**Best val:** mape {vals[low]:.4g} at epoch {low + 1} (lower is better; ckpt/best.pt)" in card, card
    n = _run_numbers(ntrain.load_config(str(rd/'config.yaml')), read_metrics(rd))
    assert (n['best'], n['best_mode']) == (vals[low], 'min')


def _rewrite_start(rd: Path, **fields):
    """metrics.jsonl's start record as an older ntrain wrote it: `fields` set, the early-stop fields gone; padded with spaces
    to its length, so that the byte offsets the checkpoints hold still fall between records."""
    lines = (rd/'metrics.jsonl').read_text().splitlines()
    for i, l in enumerate(lines):
        r = json.loads(l)
        if r.get('kind') == 'start':
            for k in ('early_stop_metric', 'early_stop_mode'): r.pop(k, None)
            r.update(fields); new = json.dumps(r)
            assert len(new) <= len(l); lines[i] = new.ljust(len(l))
    (rd/'metrics.jsonl').write_text('\n'.join(lines) + '\n')


def test_a_resume_keeps_the_direction_its_run_recorded(tmp_path):
    "A run directory whose start record says mode=max for val_mape (the old substring rule) resumes with max, saying so in one warning."
    rd = tmp_path/'run'
    ntrain.fit(cfg('epochs=2', 'monitor=val_mape', f'run_dir={rd}'), quiet=True)
    _rewrite_start(rd, mode='max')
    seen = []
    res = ntrain.resume(rd, ['epochs=3'], quiet=True, callbacks=[seen.append])
    assert res.status == 'finished', res
    warn = [r['text'] for r in seen if r.get('kind') == 'message' and r.get('level') == 'warning']
    assert len(warn) == 1 and 'recorded mode=max for val_mape' in warn[0] and 'mode=min' in warn[0], warn
    assert read_metrics(rd, 'resume')[-1]['mode'] == 'max'
    res = ntrain.resume(rd, ['epochs=4', 'mode=min'], quiet=True)  # the config's word changes it
    assert res.status == 'finished' and read_metrics(rd, 'resume')[-1]['mode'] == 'min'


def test_an_old_run_of_a_name_nobody_can_read_still_resumes(tmp_path):
    "val_score with mode=max, in a run directory whose config says auto: the recorded direction resumes it; without one, mode= is asked for."
    rd = tmp_path/'run'
    ntrain.fit(cfg('epochs=1', 'monitor=val_score', 'mode=max', 'task_args={metric: score}', f'run_dir={rd}'), quiet=True)
    c = yaml.safe_load((rd/'config.yaml').read_text()); c['mode'] = 'auto'; c['early_stop'].pop('mode', None)
    (rd/'config.yaml').write_text(yaml.safe_dump(c, sort_keys=False))
    _rewrite_start(rd)
    res = ntrain.resume(rd, ['epochs=2'], quiet=True)
    assert res.status == 'finished' and read_metrics(rd, 'resume')[-1]['mode'] == 'max'
    _rewrite_start(rd, mode=None)
    (rd/'metrics.jsonl').write_text(''.join((l if '"resume"' not in l else ' ' * len(l)) + '\n' for l in (rd/'metrics.jsonl').read_text().splitlines()))
    with pytest.raises(ConfigError, match="key 'mode': .*'val_score'"): ntrain.resume(rd, ['epochs=3'], quiet=True)
