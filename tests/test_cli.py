"The CLI as a user runs it: in a subprocess, with a timeout."
import json
from pathlib import Path
from conftest import run_cli

def test_fit_digits_writes_the_run_directory(tmp_path):
    rd = tmp_path/'run'
    r = run_cli('fit', 'digits', f'run_dir={rd}', 'epochs=2', 'num_workers=0', check=0)
    assert f'run directory: {rd}' in r.stdout
    assert '**Run:**' in r.stdout and '**Best val:**' in r.stdout and '**Resume tested:**' in r.stdout
    for f in ('config.yaml', 'env.json', 'metrics.jsonl', 'curves.png', 'run.md', 'log.txt', 'status.json', 'ckpt/last.pt', 'ckpt/best.pt'):
        assert (rd/f).exists(), f
    epochs = [json.loads(l) for l in (rd/'metrics.jsonl').read_text().splitlines() if '"epoch"' in l and '"kind": "epoch"' in l]
    assert [e['epoch'] for e in epochs] == [0, 1]
    assert json.loads((rd/'status.json').read_text())['state'] == 'finished'

def test_unknown_key_is_one_line_naming_the_nearest(tmp_path):
    r = run_cli('fit', 'digits', 'early_stop.patiance=3', cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().count('\n') == 0, r.stderr
    assert "early_stop.patience" in r.stderr

def test_report_rebuilds_the_card(tmp_path):
    rd = tmp_path/'run'
    run_cli('fit', 'digits', f'run_dir={rd}', 'epochs=1', 'num_workers=0', check=0)
    (rd/'run.md').unlink()
    r = run_cli('report', rd, check=0)
    assert '**Global batch:** 64 (64 x 1 process x 1)' in r.stdout and (rd/'run.md').exists()
