"""Right verdicts on users' tasks. Rung 4 against its control fit on permuted targets, on three seeds of each
row of `ntrain.ladder.user_tasks.RUNG4_ROWS` (shuffled digits labels, 20% label noise, imbalanced binary, multi-label,
regression, segmentation, clean digits): never the wrong verdict, mostly the right one, and a fail on shuffled labels
blames the labels. `bench/rung4_sweep.py` runs the same rows over 60 seeds each."""
import os
os.environ.setdefault('OMP_NUM_THREADS', '1')
import pytest
from ntrain.ladder import ladder
from ntrain.ladder.user_tasks import RUNG4_ROWS

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures('one_thread')]


@pytest.mark.parametrize('name', list(RUNG4_ROWS))
def test_rung4_verdicts_on_three_seeds(name, tmp_path):
    make, base, right, wrong = RUNG4_ROWS[name]
    rungs = '3-4' if 'fail' in right else '4'  # rung 4's diagnosis blames the labels when rung 3 memorised a batch
    got = []
    for seed in range(3):
        res = ladder(base, [f'seed={seed}'], task=make(seed), rungs=rungs, force=True, write=False, run_dir=tmp_path/str(seed),
                     settings=dict(leak_max=0))
        r = res.rung(4)
        got.append(r.verdict)
        assert r.verdict != wrong, (seed, res.table())
        assert ('labels' in r.causes) == (r.verdict == 'fail'), (seed, res.table())  # a fail blames the labels, nothing else does
        assert 'no_control' not in r.causes, (seed, res.table())
    assert sum(v in right for v in got) >= 2, got
