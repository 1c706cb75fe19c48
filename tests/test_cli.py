"The CLI as a user runs it: in a subprocess, with a timeout."
import contextlib, io, json
import pytest
from ntrain.cli import parser
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

VERBS = ('fit', 'resume', 'report', 'env', 'keys', 'ladder', 'launch', 'check-resume')

def test_every_verb_parses_and_is_listed():
    r = run_cli('--help', check=0)  # a fresh process lists every verb (all argparse code is in cli.py)
    for v in VERBS: assert v in r.stdout, v
    helps = {}
    for v in VERBS:  # each verb's own help, in this process: it parses
        out = io.StringIO()
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as e: parser().parse_args([v, '--help'])
        assert e.value.code == 0 and out.getvalue().startswith(f'usage: ntrain {v}'), (v, out.getvalue()[:200])
        helps[v] = out.getvalue()
    assert '--overfit-steps' in helps['ladder'] and '--max-restarts' in helps['resume']

def test_every_verb_runs(tmp_path):
    rd = tmp_path/'run'
    run_cli('fit', 'digits', f'run_dir={rd}', 'epochs=1', 'num_workers=0', check=0)
    assert 'the run is already complete' in run_cli('resume', rd, check=0).stdout
    assert '**Run:**' in run_cli('report', rd, check=0).stdout
    assert 'torch' in run_cli('env', check=0).stdout
    assert 'early_stop.patience' in run_cli('keys', check=0).stdout
    r = run_cli('ladder', 'digits', f'run_dir={tmp_path/"lad"}', '--rungs', '1-2', check=0)
    assert 'rung 2: PASS' in r.stdout and (tmp_path/'lad'/'ladder.json').exists()
    r = run_cli('launch', 'digits', '--nproc', '2', '--dry-run', check=0)
    assert '--nproc-per-node=2' in r.stdout and 'srun' in r.stdout
    r = run_cli('check-resume', 'digits', '--epochs', '1', '--max-steps', '6', '--kill-at', '3', f'run_dir={tmp_path/"cr"}',
                env={'NTRAIN_HOME': str(tmp_path/'home')}, timeout=300, check=0)
    assert 'PASSED' in r.stdout

def test_an_import_error_in_a_verbs_module_fails_loudly(tmp_path):
    "A broken module is a traceback and a non-zero exit, never a verb that vanishes from the parser."
    import subprocess, sys, os
    code = "import sys; sys.modules['ntrain.launch'] = None\nfrom ntrain.cli import main\nmain(['launch', 'digits', '--dry-run'])"
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120, env=dict(os.environ, OMP_NUM_THREADS='1'))
    assert r.returncode != 0 and 'Traceback' in r.stderr and 'ntrain.launch' in r.stderr, r.stderr[-2000:]
    assert 'ModuleNotFoundError' in r.stderr or 'ImportError' in r.stderr
