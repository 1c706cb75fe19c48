"""The resume guarantee, proven the way a user meets it: the CLI in subprocesses, killed with SIGKILL at exact and at
seeded random points, resumed, and compared bit for bit with the same run left alone.

The task is digits with dropout (tests/resume_tasks.py), so training draws from the global torch RNG: that is what
makes the negative control that skips restoring the RNG fail, as it must. Digits' random-shift augmentation is on.
"""
import hashlib, json, os, random, resource, shutil, signal, subprocess, sys, time
from pathlib import Path
import pytest
import torch
from conftest import run_cli, ROOT
from ntrain.engine.resume_check import compare_runs, describe_diff, metric_records

TESTS = Path(__file__).resolve().parent
ENV = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]))
# 2 epochs of 22 optimizer steps (batch 32 x accum 2), a checkpoint every 4 steps, a step record every step
OPTS = ['task=resume_tasks:digits_dropout', 'epochs=2', 'batch_size=32', 'accum=2', 'ckpt_every=4', 'num_workers=0',
        'deterministic=true', 'log_every=1', 'progress=false']
STEPS = 44

def cli(*args, env=None, timeout=120, check=None):
    return run_cli(*args, env={**ENV, **(env or {})}, timeout=timeout, check=check)

def fit(rd, *extra, fault=None, check=0, env=None):
    r = cli('fit', 'digits', f'run_dir={rd}', *OPTS, *extra, env={**(env or {}), **({'NTRAIN_FAULT': fault} if fault else {})}, check=check)
    return r

def resume(rd, *extra, fault=None, check=0, env=None):
    return cli('resume', rd, *extra, env={**(env or {}), **({'NTRAIN_FAULT': fault} if fault else {})}, check=check)

def assert_same(alone, resumed):
    c = compare_runs(alone, resumed)
    assert c['identical'], describe_diff(c)
    assert c['metrics']['records'] > STEPS  # every step record and the epoch records were compared

def sha(p): return hashlib.sha256(Path(p).read_bytes()).hexdigest()

@pytest.fixture(scope='module')
def alone(tmp_path_factory):
    "The reference: the run left alone."
    rd = tmp_path_factory.mktemp('alone')/'run'
    fit(rd)
    assert max(r['step'] for r in metric_records(rd)) == STEPS
    return rd

# ---------------------------------------------------------------- deterministic kill points
def killed(rd, fault, started):
    r = resume(rd, fault=fault, check=None) if started else fit(rd, fault=fault, check=None)
    assert r.returncode == -signal.SIGKILL, (fault, r.returncode, r.stderr[-2000:])  # died by SIGKILL at that point
    return r

def test_sigkill_at_exact_points_then_resume_is_bit_identical(alone, tmp_path):
    "One run killed at every kind of point in turn, resumed each time, ends bit-identical to the run left alone."
    rd = tmp_path/'run'
    killed(rd, 'step:9', False)          # mid-epoch, between two checkpoints (the last at step 8)
    # a flipped bit in last.pt: one line names it, and the resume falls back to prev.pt (step 4)
    p = rd/'ckpt'/'last.pt'
    b = bytearray(p.read_bytes()); b[len(b)//2] ^= 0x10; p.write_bytes(bytes(b))
    r = killed(rd, 'window:10', True)    # inside an accumulation window: after step 11's first micro-batch
    warn = [l for l in r.stdout.splitlines() if 'skipping damaged' in l]
    assert len(warn) == 1 and str(p) in warn[0] and 'sha256' in warn[0], r.stdout[-2000:]
    assert 'resumed at epoch 1 batch 8' in r.stdout   # prev.pt: step 4 = 8 micro-batches
    killed(rd, 'ckpt_tmp:12', True)      # between writing last.pt's temporary file and the rename
    names = sorted(p.name for p in (rd/'ckpt').iterdir())
    assert 'last.pt' not in names and 'prev.pt' in names and any(n.endswith('.tmp') for n in names), names
    killed(rd, 'save:16', True)          # while step 16's save is being written in the background
    killed(rd, 'ckpt_tmp:22', True)      # the same at the end of epoch 1
    resume(rd)
    assert_same(alone, rd)
    assert not list((rd/'ckpt').glob('.*.tmp'))  # the interrupted saves' temporary files are cleaned up

@pytest.fixture(scope='module')
def killed_at_9(tmp_path_factory):
    "A run killed with SIGKILL after step 9, not yet resumed (copy it before use)."
    rd = tmp_path_factory.mktemp('killed')/'run'
    killed(rd, 'step:9', False)
    return rd

# ---------------------------------------------------------------- seeded random kill points
def test_several_seeded_random_kills_in_one_run(alone, tmp_path):
    rng = random.Random(1234)
    rd, started, point = tmp_path/'run', False, 0
    kinds = ['step', 'window', 'ckpt_tmp', 'save']
    for _ in range(3):
        kind = rng.choice(kinds)
        lo = point + 1
        saves = [s for s in range(lo, STEPS) if s % 4 == 0 or s == 22]  # steps that save last.pt
        if kind in ('ckpt_tmp', 'save') and not saves: kind = 'step'
        k = rng.choice(saves) if kind in ('ckpt_tmp', 'save') else rng.randint(lo, STEPS - 2)
        fault = f'{kind}:{k}'
        killed(rd, fault, started)
        started, point = True, k
    resume(rd)
    assert_same(alone, rd)

def test_sigkill_at_a_random_moment_then_resume(alone, tmp_path):
    "A kill from outside, not through the fault hook: as soon as a seeded random step is logged, wherever the run is then."
    rd, k = tmp_path/'run', random.Random(7).randint(1, STEPS - 4)
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', f'run_dir={rd}', *OPTS],
                         env=dict(os.environ, OMP_NUM_THREADS='1', **ENV), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        t0 = time.time()
        while p.poll() is None and not any(r['step'] >= k for r in metric_records(rd)) and time.time() - t0 < 60: time.sleep(0.002)
        p.send_signal(signal.SIGKILL); p.wait(timeout=60)
    finally:
        if p.poll() is None: p.kill()
    assert p.returncode == -signal.SIGKILL, f'the run ended ({p.returncode}) before the kill'
    resume(rd)
    assert_same(alone, rd)

# ---------------------------------------------------------------- workers and augmentation
def test_workers_with_augmentation_killed_and_resumed_match_the_run_alone(alone, tmp_path):
    "num_workers=2 with the random shift running in the workers: the same numbers as num_workers=0, across a kill."
    rd = tmp_path/'run'
    r = fit(rd, 'num_workers=2', fault='step:27', check=None)
    assert r.returncode == -signal.SIGKILL
    resume(rd)
    assert_same(alone, rd)

# ---------------------------------------------------------------- negative controls: the comparison must catch these
@pytest.mark.parametrize('skip,where', [('rng', 'loss'), ('scheduler', 'lr')])
def test_negative_control_a_resume_that_skips_restoring_fails(alone, killed_at_9, tmp_path, skip, where):
    rd = tmp_path/'run'; shutil.copytree(killed_at_9, rd)
    resume(rd, env={'NTRAIN_TEST_SKIP_RESTORE': skip})
    c = compare_runs(alone, rd)
    assert not c['identical'], f'skipping the {skip} restore went unnoticed'
    first = c['metrics']['first']
    assert first is not None and first['alone']['step'] == 9 and first['alone'][where] != first['resumed'][where], describe_diff(c)

# ---------------------------------------------------------------- graceful preemption
def test_ctrl_c_saves_exits_75_and_resumes_identically(alone, tmp_path):
    "SIGINT to the whole process group, as a terminal's Ctrl-C: the DataLoader workers must ignore it (SIGTERM takes the same path)."
    rd, sig = tmp_path/'run', 'SIGINT'
    extra = ['num_workers=2']
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', f'run_dir={rd}', *OPTS, *extra],
                         env=dict(os.environ, OMP_NUM_THREADS='1', **ENV), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        t0 = time.time()
        while not any(r['step'] >= 3 for r in metric_records(rd)):
            assert time.time() - t0 < 60 and p.poll() is None, 'the run never reached step 3'
            time.sleep(0.02)
        os.killpg(p.pid, getattr(signal, sig))  # the whole process group, as a terminal's Ctrl-C does
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None: p.kill()
    assert p.returncode == 75, (p.returncode, err[-2000:])
    assert 'checkpoint saved' in out and json.loads((rd/'status.json').read_text())['state'] == 'stopped'
    resume(rd)
    assert_same(alone, rd)

# ---------------------------------------------------------------- finished, extended, changed
def test_resuming_a_finished_run_does_nothing_and_says_so(alone, tmp_path):
    rd = tmp_path/'run'; shutil.copytree(alone, rd)
    before = {p.name: sha(p) for p in [rd/'metrics.jsonl', rd/'config.yaml', *sorted((rd/'ckpt').iterdir())]}
    r = resume(rd)
    assert 'already complete' in r.stdout and 'nothing to do' in r.stdout
    assert {p.name: sha(p) for p in [rd/'metrics.jsonl', rd/'config.yaml', *sorted((rd/'ckpt').iterdir())]} == before

def test_extending_a_finished_run_holds_the_final_lr(alone, tmp_path):
    rd = tmp_path/'run'; shutil.copytree(alone, rd)
    resume(rd, 'epochs=3')
    recs = metric_records(rd)
    assert recs[:len(metric_records(alone))] == metric_records(alone)  # the first two epochs untouched, nothing twice
    ep = [r for r in recs if r['kind'] == 'epoch']
    assert [e['epoch'] for e in ep] == [0, 1, 2] and ep[-1]['step'] == 66
    last_lr = ep[1]['lr']
    assert all(r['lr'] == last_lr for r in recs if r['kind'] == 'step' and r['step'] > STEPS)  # OneCycle's end, held

@pytest.mark.parametrize('change,key', [('batch_size=16', 'batch_size'), ('optim.name=sgd', 'optim.name'),
                                        ('task_args={channels: 16}', 'parameter')])
def test_a_resume_that_changes_the_state_is_refused_naming_the_key(alone, tmp_path, change, key):
    rd = tmp_path/'run'; shutil.copytree(alone, rd)
    r = resume(rd, change, 'epochs=3', check=2)
    assert r.stderr.count('\n') == 1 and key in r.stderr and ('--reset-optimizer' if key == 'optim.name' else '--force') in r.stderr, r.stderr

# ---------------------------------------------------------------- never corrupt
@pytest.mark.parametrize('background', [True, False])
def test_a_full_disk_during_a_save_leaves_the_checkpoints_intact(alone, tmp_path, background):
    """RLIMIT_FSIZE (EFBIG) stops root too: the save fails with one clear line and last/prev/best stay byte-for-byte.
    A save that fails in the background stops the run at its next step, as a synchronous one does at once."""
    rd = tmp_path/'run'; shutil.copytree(alone, rd)
    before = {p.name: sha(p) for p in sorted((rd/'ckpt').iterdir())}
    limit = 200_000  # bigger than metrics.jsonl, smaller than a checkpoint (about 730 kB)
    def small_files(): resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    r = subprocess.run([sys.executable, '-m', 'ntrain', 'resume', str(rd), 'epochs=3', f'ckpt_async={str(background).lower()}'],
                       env=dict(os.environ, OMP_NUM_THREADS='1', **ENV), capture_output=True, text=True, timeout=120, preexec_fn=small_files)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and 'cannot write checkpoint' in err[0] and 'too large' in err[0].lower(), err
    assert {p.name: sha(p) for p in sorted((rd/'ckpt').iterdir())} == before
    # the first save of the resumed run (step 48, ckpt_every=4) failed: a synchronous save stops there, a background
    # one within the few steps the write takes to fail, and long before the epoch's end at step 66
    assert max(r['step'] for r in metric_records(rd)) <= (58 if background else 48)
    assert json.loads((rd/'status.json').read_text())['state'] == 'failed'

def test_an_unwritable_checkpoint_directory_is_one_clear_line(tmp_path):
    "ENOTDIR (a regular file where the directory should be) stops root too."
    rd = tmp_path/'run'; rd.mkdir(); (rd/'ckpt').write_text('not a directory')
    r = fit(rd, check=2)
    assert r.stderr.count('\n') == 1 and 'checkpoint directory' in r.stderr and str(rd/'ckpt') in r.stderr, r.stderr

def test_a_checkpoint_that_needs_pickled_code_is_refused_naming_the_globals(alone, tmp_path):
    rd = tmp_path/'run'; shutil.copytree(alone, rd)
    sd = torch.load(rd/'ckpt'/'last.pt', weights_only=True)
    import numpy as np
    sd['val_loss'] = np.float64(0.5)   # what a seed-style script saves without thinking
    for n in ('last.pt', 'prev.pt'): torch.save(sd, rd/'ckpt'/n)
    (rd/'ckpt'/'manifest.json').unlink(missing_ok=True)  # checkpoints carry their own record now; an older run had a manifest
    r = resume(rd, 'epochs=3', check=2)
    assert r.stderr.count('\n') == 1 and 'refusing to unpickle' in r.stderr and 'numpy' in r.stderr, r.stderr

def test_killed_before_the_first_checkpoint_starts_again(alone, tmp_path):
    rd = tmp_path/'run'
    assert fit(rd, 'ckpt_every=null', fault='step:3', check=None).returncode == -signal.SIGKILL
    assert not (rd/'ckpt'/'last.pt').exists() and (rd/'metrics.jsonl').stat().st_size > 0
    r = resume(rd, 'ckpt_every=4')
    assert 'starting the run from the beginning' in r.stdout
    assert_same(alone, rd)

# ---------------------------------------------------------------- foreign checkpoints
def test_init_from_a_foreign_seed_format_checkpoint_reads_its_weights_only(alone, tmp_path):
    from ntrain.engine.trainer import Trainer
    from ntrain.config import load_config
    cfg = load_config('digits', OPTS + [f'run_dir={tmp_path/"new"}'])
    w = torch.load(alone/'ckpt'/'best.pt', weights_only=True)['model']
    foreign = tmp_path/'seed.pt'  # the seed's format: DDP-prefixed weights and other keys next to them
    torch.save(dict(model={f'module.{k}': v for k, v in w.items()}, optimizer={}, epoch=3, val_loss=0.25), foreign)
    if str(TESTS) not in sys.path: sys.path.insert(0, str(TESTS))
    seen = []
    t = Trainer(cfg, quiet=True, init_from=foreign, callbacks=[seen.append])
    t.model_at_start = None
    orig = t._run
    def first_weights():  # the weights the run starts from, before its first step
        t.model_at_start = {k: v.clone() for k, v in t.model.state_dict().items()}; t.request_stop('test'); return orig()
    t._run = first_weights
    res = t.fit()
    assert all(torch.equal(v, w[k]) for k, v in t.model_at_start.items())
    assert res.status == 'stopped'
    assert seen[0]['kind'] == 'start' and seen[0]['step'] == 0 and seen[0]['epoch'] == 0
    assert any(r['kind'] == 'message' and 'initialised the model from' in r['text'] for r in seen)

# ---------------------------------------------------------------- the user's own proof
def test_check_resume_verb_stores_the_verdict_for_the_run_card(tmp_path):
    home = tmp_path/'home'
    conf = ['digits', 'num_workers=0', 'deterministic=true', 'epochs=2']
    r = cli('check-resume', *conf, '--seed', '2', env={'NTRAIN_HOME': str(home)}, timeout=240, check=0)
    assert 'PASSED' in r.stdout and 'bit-identical' in r.stdout, r.stdout
    [f] = list((home/'resume_checks').glob('*.json'))
    rec = json.loads(f.read_text())
    assert rec['summary'].startswith('killed at step') and rec['when'] and rec['passed']
    # the card of any run of that config (here: its config.yaml alone) carries the verdict
    from ntrain.config import load_config
    from ntrain.card import run_card
    rd = tmp_path/'full'; rd.mkdir()
    (rd/'config.yaml').write_text(load_config(conf[0], conf[1:] + [f'run_dir={rd}', 'name=full']).to_yaml())
    os.environ['NTRAIN_HOME'] = str(home)
    try: card = run_card(rd)
    finally: del os.environ['NTRAIN_HOME']
    assert f"**Resume tested:** {rec['summary']} ({rec['when'][:10]})" in card, card

# ---------------------------------------------------------------- crash consistency of the checkpoint rotation
@pytest.mark.parametrize('point', ['written', 'rotated', 'renamed', 'synced'])
def test_sigkill_at_each_instant_of_the_rotation_resumes_from_a_verified_checkpoint(alone, tmp_path, point):
    "Killed at each rename and fsync of step 12's last.pt rotation: a verified checkpoint is there, and the resume ends bit-identical."
    from ntrain.engine import checkpoint as ckpt
    rd = tmp_path/'run'
    killed(rd, f'ckpt_{point}:12', False)
    cd = rd/'ckpt'
    verified = [p.name for p in [cd/'last.pt', cd/'prev.pt', *cd.glob('.last.pt.*.tmp')] if ckpt.integrity(p)[0] == 'verified']
    assert verified, sorted(p.name for p in cd.iterdir())
    assert ckpt.newest_valid(cd, warn=lambda t: None) is not None
    r = resume(rd)
    assert 'resumed at epoch 1 batch 24' in r.stdout, r.stdout[-1500:]  # step 12 (24 micro-batches): a complete temporary file is adopted
    assert not list(cd.glob('.*.tmp'))
    assert_same(alone, rd)

@pytest.mark.parametrize('manifest', ['missing', 'garbled'])
def test_a_damaged_last_pt_with_no_or_a_garbled_manifest_falls_back_to_prev(alone, killed_at_9, tmp_path, manifest):
    rd = tmp_path/'run'; shutil.copytree(killed_at_9, rd)
    if manifest == 'garbled': (rd/'ckpt'/'manifest.json').write_text('{"last.pt": {"sha256": "0", "size": 1}, ')
    p = rd/'ckpt'/'last.pt'; b = bytearray(p.read_bytes()); b[len(b)//2] ^= 0x10; p.write_bytes(bytes(b))
    r = resume(rd)
    assert 'skipping damaged checkpoint' in r.stdout and 'resumed at epoch 1 batch 8' in r.stdout, r.stdout[-2000:]
    assert (rd/'ckpt'/'last.pt.damaged').exists()
    assert_same(alone, rd)

def test_a_checkpoint_without_a_record_is_passed_over_for_a_verified_one(killed_at_9, tmp_path):
    "last.pt re-saved by another tool with overwritten weights (no integrity record): prev.pt, verified, is used."
    rd = tmp_path/'run'; shutil.copytree(killed_at_9, rd)
    sd = torch.load(rd/'ckpt'/'last.pt', weights_only=True)
    sd['model'] = {k: torch.full_like(v, 1e30) if v.is_floating_point() else v for k, v in sd['model'].items()}
    torch.save(sd, rd/'ckpt'/'last.pt')
    r = resume(rd, 'epochs=1')
    assert 'carries no integrity record' in r.stdout and 'resumed at epoch 1 batch 8' in r.stdout, r.stdout[-2000:]
    # with no verified checkpoint left, one line says why
    for n in ('prev.pt', 'last.pt.unverified'): (rd/'ckpt'/n).unlink(missing_ok=True)
    for n in ('last.pt',): (rd/'ckpt'/n).write_bytes(b'garbage')
    r = resume(rd, 'epochs=2', check=2)
    assert r.stderr.count('\n') == 1 and 'no valid checkpoint' in r.stderr, r.stderr
