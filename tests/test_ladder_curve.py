"""Rungs 2 and 3 on programs they were not tuned on (issue 32): rung 2's theory reads the loss it is given (BCE's
pos_weight, NLLLoss after log_softmax, summed reductions; cross-entropy's weight= and label_smoothing keep ln C) and warns
on a raw-unit regression target; rung 3 judges the curve: a floor-bound loss (a VAE's summed BCE + KL) and a linear probe
pass, and say why. A 3-seed smoke test over a few rows of bench/ladder_gallery.py; bench/ladder_sweep.py measures them
all over 10 seeds."""
import math, sys
from pathlib import Path
import pytest
import torch
from torch import nn
from ntrain.ladder import ladder

sys.path.insert(0, str(Path(__file__).resolve().parents[1]/'bench'))
import ladder_gallery as G

pytestmark = [pytest.mark.timeout(300), pytest.mark.usefixtures('one_thread')]

def gallery(name, seed=0, rungs='1-3', **over):
    return G.run(name, seed, rungs=rungs, **over)

def test_rung_2_pos_weight_is_in_the_theory():
    r = gallery('imbalanced_bce', rungs='2').rung(2)
    assert r.verdict == 'pass' and 'pos_weight' in r.numbers['theory'], r.diagnosis
    assert r.numbers['expected'] > 1.2 * math.log(2), r.numbers  # 10% positives weighted 9x: about ln 2 x 1.7

def test_rung_2_nll_after_log_softmax_has_a_theory():
    r = gallery('mnist_nll', rungs='2').rung(2)
    assert r.verdict == 'pass' and 'NLLLoss' in r.numbers['theory'] and abs(r.numbers['expected'] - math.log(10)) < 1e-9, r.diagnosis

@pytest.mark.parametrize('loss, expected', [
    (nn.CrossEntropyLoss(reduction='sum'), 64 * math.log(10)),
    (nn.CrossEntropyLoss(weight=torch.linspace(0.5, 2, 10)), math.log(10)),
    (nn.CrossEntropyLoss(label_smoothing=0.1), math.log(10))])
def test_rung_2_summed_ce_and_weights_and_smoothing(loss, expected):
    r = gallery('rnn_rows', rungs='2', loss=loss).rung(2)
    assert r.verdict == 'pass' and abs(r.numbers['expected'] - expected) < 1e-3 * expected, (r.numbers, r.diagnosis)

def test_rung_2_summed_bce():
    r = gallery('multilabel', rungs='2', loss=nn.BCEWithLogitsLoss(reduction='sum')).rung(2)
    assert r.verdict == 'pass' and abs(r.numbers['expected'] - 64 * 4 * math.log(2)) < 1e-2, (r.numbers, r.diagnosis)

def test_raw_unit_target_warns_target_scale_and_rung_3_names_it():
    res = gallery('tabular_raw')
    r2, r3 = res.rung(2), res.rung(3)
    assert r2.verdict == 'warn' and 'target_scale' in r2.causes and 'standardise the target: mean 1.2e4' in r2.diagnosis, r2.diagnosis
    assert r3.ok, res.table()
    if r3.verdict == 'warn': assert 'target_scale' in r3.causes and 'may be too low' not in r3.diagnosis, r3.diagnosis

def test_floor_bound_vae_passes_rung_3():
    r = gallery('vae', rungs='3').rung(3)
    assert r.verdict == 'pass' and r.numbers['curve'] in ('floor', 'steep'), r.diagnosis
    assert r.numbers['final_loss'] > r.numbers['threshold'] and 'fell' in r.diagnosis, r.diagnosis  # not memorised: judged by its curve

def test_linear_probe_passes_rung_3_and_says_so():  # the gallery's probe with Adam: its SGD at lr 1e-3 barely moves on random features
    r = gallery('linear_probe', rungs='3', optimizer=lambda p: torch.optim.Adam(p, lr=1e-2)).rung(3)
    assert r.verdict == 'pass' and 'linear_probe' in r.causes and 'a linear probe' in r.diagnosis and 'frozen' not in r.causes, r.diagnosis

def test_linear_probe_as_written_passes_rung_3_and_a_bias_only_head_does_not():
    "The gallery's probe as written (SGD 1e-3 on small random features: slow) passes once its head learns at 10-100x the lr; a head whose weight is frozen too fails `frozen`."
    r = gallery('linear_probe', 1, rungs='3').rung(3)
    assert r.verdict == 'pass' and 'linear_probe' in r.causes and r.numbers['higher_lr']['lr'] > 1e-3, r.diagnosis
    r = gallery('probe_bias_only', 1, rungs='3').rung(3)
    assert r.verdict == 'fail' and 'frozen' in r.causes and 'cannot reduce the loss' in r.diagnosis, r.diagnosis

def test_raw_unit_target_names_the_scale_in_rung_4():
    r = gallery('tabular_raw', rungs='1-4').rung(4)
    assert r.verdict == 'warn' and 'target_scale' in r.causes and 'labels' not in r.causes, r.diagnosis
    assert "the target's scale" in r.diagnosis and 'standardise the target' in r.diagnosis, r.diagnosis

SMOKE_HEALTHY = ['gcn', 'poly_reg', 'siamese']
SMOKE_BROKEN = ['rnn_frozen_but_bias', 'poly_lr_zero']

@pytest.mark.parametrize('name', SMOKE_HEALTHY + SMOKE_BROKEN)
def test_gallery_smoke_3_seeds(name):
    for seed in range(3):
        res = gallery(name, seed)
        if name in SMOKE_HEALTHY: assert all(r.ok for r in res.rungs), (seed, res.table())
        else:
            exp = G.BROKEN[name][1]; r = res.rung(exp['rung'])
            assert r.verdict in exp['verdicts'] and set(exp['causes']) & set(r.causes), (seed, res.table())
