"""`ntrain.compare` and `ntrain compare` on real runs: two runs of the tiny task that differ only in optim.lr show
exactly that key in the config table, and a row each with its state, epochs, best value and throughput."""
import os
from pathlib import Path
import pytest
from conftest import run_cli, ROOT
import ntrain
from ntrain.loggers import read_metrics

TESTS = Path(__file__).resolve().parent
ENV = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]))
OPTS = ['task=tasks_for_tests:tiny', 'epochs=2', 'num_workers=0', 'progress=false']

@pytest.fixture(scope='module')
def two(tmp_path_factory):
    "Two finished runs of the tiny task (in this process, on one torch thread) that differ in optim.lr."
    import torch
    root, n = tmp_path_factory.mktemp('compare'), torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        for name, lr in (('slow-lr', 0.001), ('fast-lr', 0.01)):
            assert ntrain.fit('digits', [*OPTS, f'optim.lr={lr}'], run_dir=root/name, quiet=True).status == 'finished'
    finally: torch.set_num_threads(n)
    return root/'slow-lr', root/'fast-lr'

def test_the_diff_is_exactly_the_key_that_differs(two):
    c = ntrain.compare(two)
    assert c.diff == {'optim.lr': [0.001, 0.01]}
    for row, rd in zip(c.runs, two):
        ep = read_metrics(rd, 'epoch')
        assert (row['name'], row['state'], row['epochs'], row['epochs_planned']) == (rd.name, 'finished', 2, 2)
        assert (row['monitor'], row['mode']) == ('val_acc', 'max') and row['best'] == max(r['val_acc'] for r in ep)  # the digits config's monitor
        assert row['samples_per_s'] in [r['samples_per_s'] for r in ep]
    for cv, rd in zip(c.curves, two):  # the curves the view overlays: each run's own
        assert cv['val_loss'] == [r['val_loss'] for r in read_metrics(rd, 'epoch')] and cv['epoch'] == [1, 2]

def test_the_command_prints_the_table(two):
    r = run_cli('compare', *two, env=ENV, timeout=120, check=0)
    lines = r.stdout.splitlines()
    assert lines[0].split() == ['config', 'key', 'slow-lr', 'fast-lr'] and lines[1].split() == ['optim.lr', '0.001', '0.01'] and lines[2] == ''
    assert [l.split()[:3] for l in lines[4:]] == [['slow-lr', 'finished', '2/2'], ['fast-lr', 'finished', '2/2']]
    bad = run_cli('compare', two[0], two[0].parent/'nope', env=ENV, timeout=120, check=2)
    assert bad.stderr.count('\n') == 1 and 'nope' in bad.stderr
