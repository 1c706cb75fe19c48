"""The speed check (`ntrain speed`, nbs/02_ladder/06_speed.ipynb): one short smoke of the command in a subprocess, and its verdict
logic on synthetic timings. Its verdicts on the gallery of tasks with known bottlenecks are measured by hand in
bench/speed_gallery.py (3 repeats each), never here: they are timings."""
import json, os, subprocess, sys
from pathlib import Path
import pytest
from ntrain.ladder.speed import BOTTLENECKS, Fix, trials_table, recommended

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope='module')
def check(tmp_path_factory):
    "`ntrain speed` on a tiny task, once: its output and run directory."
    rd = tmp_path_factory.mktemp('speed')/'run'
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT/'tests'}", OMP_NUM_THREADS='1', NTRAIN_PLOTTER='0')
    p = subprocess.run([sys.executable, '-m', 'ntrain', 'speed', 'digits', 'task=tasks_for_tests:tiny', 'num_workers=0', 'batch_size=32',
                        f'run_dir={rd}', '--budget', '20', '--repeats', '2'], capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    return p, rd


def test_the_command_writes_speed_json(check):
    p, rd = check
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    d = json.loads((rd/'speed.json').read_text())
    assert d['bottleneck'] in BOTTLENECKS and d['evidence'] and isinstance(d['recommend'], dict)
    rows = {r['fix']: r for r in d['rows']}
    assert rows['baseline']['samples_per_s'] > 0 and 'num_workers=2' in rows and 'batch_size=64' in rows
    assert not rows['batch_size=64'].get('recommended') and rows['batch_size=64']['verdict'].startswith('information')
    assert set(d['shares']) >= {'data', 'h2d', 'forward', 'backward', 'optimizer', 'logging', 'checkpoint'}
    assert d['repeats'] == 2 and d['steps'] >= 15 and 'DDP communication is out of scope' in d['notes'][0]
    out = p.stdout
    assert 'fix' in out and 'speedup' in out and f"bottleneck: {d['bottleneck']}" in out and 'use: ' in out and 'speed.json' in out
    assert '**Speed check:**' in (rd/'run.md').read_text()  # the card's Throughput line


def _runs(xs, loss=1.0): return [dict(samples_per_s=x, loss=loss) for x in xs]


def test_the_verdicts_on_synthetic_timings():
    fx = [Fix('num_workers=2', dict(num_workers=2, persistent_workers=True)), Fix('num_workers=4', dict(num_workers=4)),
          Fix('bf16', dict(precision='bf16'), numerics=True), Fix('compile', dict(compile=True), numerics=True)]
    runs = {'baseline': _runs([100, 103, 98]),
            'num_workers=2': _runs([130, 128, 131]),         # 30% faster, repeats 5% apart: beyond the band
            'num_workers=4': _runs([104, 101, 106]),         # 4% faster inside a 5% band
            'bf16': _runs([200, 198, 203], loss=1.03),       # twice as fast, the loss 3% away: not recommended
            'compile': _runs([150, 151, 149], loss=1.01)}    # faster, the loss 1% away: recommended
    rows = {r['fix']: r for r in trials_table(fx, runs)}
    assert rows['num_workers=2']['recommended'] and rows['num_workers=2']['band'] == pytest.approx(0.05, abs=1e-3)
    assert not rows['num_workers=4']['recommended'] and rows['num_workers=4']['verdict'] == 'within noise'
    assert not rows['bf16']['recommended'] and 'loss moved 3.0%' in rows['bf16']['verdict']
    assert rows['compile']['recommended']
    assert recommended(list(rows.values()), fx) == dict(compile=True, num_workers=2, persistent_workers=True)
    # workers 30% faster on a task whose data wait is 2% of the step: more than removing it all could give, so noise
    fx[0].data = True
    rows = {r['fix']: r for r in trials_table(fx[:1], {k: runs[k] for k in ('baseline', 'num_workers=2')}, data_share=0.02)}
    assert not rows['num_workers=2']['recommended'] and 'data wait could make it' in rows['num_workers=2']['verdict']
