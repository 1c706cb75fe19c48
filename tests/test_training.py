"""Training from the command line as a user runs it: bad input before and during a run, run directories, accumulation,
precision, determinism, metrics, signals and early stopping; mostly the CLI in subprocesses with timeouts.

Helper tasks live in tests/tasks_for_tests.py and are named as `task=tasks_for_tests:NAME`; the subprocesses get
tests/ and the repository root on PYTHONPATH (the root first, so the ntrain under test is this tree's).
"""
import os
os.environ.setdefault('OMP_NUM_THREADS', '1')
import hashlib, json, math, re, shutil, signal, subprocess, sys, time
from pathlib import Path
import pytest
import torch
from conftest import run_cli, ROOT

torch.set_num_threads(1)
TESTS = Path(__file__).resolve().parent
ENV = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS)]), MPLBACKEND='Agg')
sys.path[:0] = [str(ROOT), str(TESTS)]
import ntrain
from ntrain.loggers import read_metrics
import tasks_for_tests as tft
from ntrain.events import MEASURED

TINY = ('task=tasks_for_tests:tiny', 'num_workers=0')
TIME_FIELDS = set(MEASURED)  # measurements, not numerics


def cli(*args, cwd=None, env=None, timeout=120, check=None):
    return run_cli(*args, cwd=cwd, env={**ENV, **(env or {})}, timeout=timeout, check=check)


def snapshot(d:Path)->dict:
    "sha256 of every file under `d`, by relative path."
    return {str(p.relative_to(d)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.rglob('*')) if p.is_file()}


def one_error_line(r)->str:
    lines = r.stderr.strip().splitlines()
    assert r.returncode != 0, r.stdout[-2000:]
    assert len(lines) == 1, f'expected one line on stderr, got:\n{r.stderr}'
    assert lines[0].startswith('ntrain: error: '), lines[0]
    return lines[0]


def state_dict_finite(path)->bool:
    sd = ntrain.engine.checkpoint.load(path)
    return all(torch.isfinite(v).all() for v in sd['model'].values() if v.is_floating_point())


# ============================================================ fixtures: runs several tests read
@pytest.fixture(scope='session')
def prior_run(tmp_path_factory):
    "A finished run directory (tiny task, 1 epoch), copied by the tests that must leave a run intact."
    rd = tmp_path_factory.mktemp('prior')/'run'
    cli('fit', 'digits', *TINY, f'run_dir={rd}', 'epochs=1', check=0)
    return rd


@pytest.fixture(scope='session')
def digits_default(tmp_path_factory):
    "The README's main job: `ntrain fit digits` with the default config, in a fresh working directory."
    cwd = tmp_path_factory.mktemp('digits_default')
    t0 = time.perf_counter()
    r = cli('fit', 'digits', cwd=cwd, timeout=180, check=0)
    wall = time.perf_counter() - t0
    runs = list((cwd/'runs').iterdir())
    assert len(runs) == 1, runs
    return dict(r=r, rd=runs[0], cwd=cwd, wall=wall)


# ============================================================ 1. bad input: one line, non-zero exit, nothing lost
# Errors found before anything is written: the run directory holds a finished run, which must stay byte-identical.
SETUP_ERRORS = {
    'config_typo': (['batch_sise=32'], ["unknown key 'batch_sise'", "did you mean 'batch_size'"]),
    'wrong_type': (['epochs=abc'], ["key 'epochs'", 'expects int']),
    'wrong_type_nested': (['early_stop.patience=soon'], ["key 'early_stop.patience'", 'expects int']),
    'task_not_importable': (['task=no_such_module_xyz:make_task'], ["no_such_module_xyz", 'cannot import']),
    'task_function_missing': (['task=tasks_for_tests:tinyy'], ["tinyy", "did you mean 'tiny'"]),
    'empty_dataset': (['task=tasks_for_tests:empty'], ['train dataset is empty']),
    'batch_larger_than_dataset': ([*TINY, 'batch_size=512', 'drop_last=true'], ['256 samples', '512', 'drop_last']),
    'float_targets': ([*TINY, 'task_args={float_targets: true}'], ['float32', 'integer class indices']),
    'target_out_of_range': ([*TINY, 'task_args={bad_index: 37}'], ['train sample 37', 'target 4', '[0, 4)']),
}

@pytest.mark.parametrize('case', list(SETUP_ERRORS))
def test_bad_input_before_the_run(case, prior_run, tmp_path):
    args, needles = SETUP_ERRORS[case]
    rd = tmp_path/'run'
    shutil.copytree(prior_run, rd)
    before = snapshot(rd)
    r = cli('fit', 'digits', f'run_dir={rd}', 'num_workers=0', *args, cwd=tmp_path)
    line = one_error_line(r)
    assert r.returncode == 2
    for n in needles: assert n in line, (n, line)
    assert snapshot(rd) == before, 'the run directory was changed'


# Errors found once the run has started (the first batches): a file already in the run directory must survive.
RUN_ERRORS = {
    'float_targets_batch_check': ([*TINY, 'task_args={float_targets: true, hook: false}'], ['train sample', 'float32', 'integer']),
    'target_out_of_range_batch_check': ([*TINY, 'task_args={bad_index: 37, hook: false}'], ['train sample 37', 'target 4']),
    'nan_at_first_step': (['task=tasks_for_tests:nan_from', 'num_workers=0'], ['nan at the first step', 'train samples [']),
    'out_of_memory': (['task=tasks_for_tests:oom', 'num_workers=0'], ['out of memory', 'batch_size 64', 'accum', 'bf16', 'activation_checkpointing']),
    'items_without_count_hook': ([*TINY, 'loss_norm=items'], ["'loss_norm'", 'count_items']),
}

_run_errors = {}

def _run_error(case, tmp_path_factory):
    "Run a RUN_ERRORS case once per session (two tests read each result)."
    if case not in _run_errors:
        args, needles = RUN_ERRORS[case]
        tmp = tmp_path_factory.mktemp(case)
        rd = tmp/'run'
        (rd/'notes').mkdir(parents=True)
        (rd/'notes'/'keep.txt').write_text('my notes\n')
        r = cli('fit', 'digits', f'run_dir={rd}', *args, cwd=tmp)
        _run_errors[case] = (r, rd, needles)
    return _run_errors[case]

@pytest.mark.parametrize('case', list(RUN_ERRORS))
def test_bad_input_during_the_run(case, tmp_path_factory):
    r, rd, needles = _run_error(case, tmp_path_factory)
    line = one_error_line(r)
    assert r.returncode == 2
    for n in needles: assert n in line, (n, line)
    assert (rd/'notes'/'keep.txt').read_text() == 'my notes\n'


@pytest.mark.parametrize('case', [
    'float_targets_batch_check', 'target_out_of_range_batch_check',
    'nan_at_first_step', 'out_of_memory'])
def test_failed_run_is_not_left_running(case, tmp_path_factory):
    "A watcher reading status.json must see that the run failed, not a run that is 'running' forever."
    r, rd, _ = _run_error(case, tmp_path_factory)
    assert r.returncode == 2
    st = json.loads((rd/'status.json').read_text())
    assert st['state'] == 'failed', st


def test_reusing_a_run_directory_is_refused(prior_run, tmp_path):
    rd = tmp_path/'run'
    shutil.copytree(prior_run, rd)
    before = snapshot(rd)
    r = cli('fit', 'digits', *TINY, f'run_dir={rd}', 'epochs=1', cwd=tmp_path)
    line = one_error_line(r)
    assert 'already holds a run' in line and f'ntrain resume {rd}' in line
    assert snapshot(rd) == before


def test_cross_entropy_ignore_index_is_not_a_bad_target(tmp_path):
    "Token classification the Hugging Face way: nn.CrossEntropyLoss(ignore_index=-100) with num_classes set."
    r = cli('fit', 'digits', 'task=tasks_for_tests:tokens_ce', 'monitor=val_loss', 'num_workers=0', f'run_dir={tmp_path/"run"}', 'epochs=1', cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_out_of_range_message_names_the_bad_value():
    "For a (batch, seq) target the message must quote the offending value, not the row's first element."
    task = tft.tokens_ce(); task.num_classes = 5
    t = ntrain.Trainer(ntrain.Config(), task=task, quiet=True)
    y = torch.tensor([[1, 2, 3], [0, 1, 7]])
    with pytest.raises(ntrain.NtrainError) as e: t._check_batch_targets((torch.zeros(2, 3, 16), y), torch.tensor([10, 11]))
    msg = str(e.value)
    assert 'sample 11' in msg and 'target 7' in msg, msg


# ============================================================ 2. the run directory
def test_run_dir_is_used_and_printed(tmp_path):
    rd = tmp_path/'somewhere'/'mine'
    r = cli('fit', 'digits', *TINY, f'run_dir={rd}', 'max_steps=2', cwd=tmp_path, check=0)
    assert f'run directory: {rd}' in r.stdout
    assert (rd/'config.yaml').exists() and (rd/'ckpt'/'last.pt').exists()
    assert not (tmp_path/'runs').exists()


def test_default_run_dir_is_runs_name_timestamp(digits_default):
    rd, cwd = digits_default['rd'], digits_default['cwd']
    assert rd.parent == cwd/'runs'
    assert re.fullmatch(r'digits-\d{8}-\d{6}(-\d+)?', rd.name), rd.name
    assert f'run directory: runs/{rd.name}' in digits_default['r'].stdout or f'run directory: {rd}' in digits_default['r'].stdout


# ============================================================ 3. gradient accumulation
def _digits_cfg(*ov):
    return ntrain.load_config('digits', ['num_workers=0', *ov])


def test_accumulation_gives_the_same_gradients():
    g1 = tft.grads_after_one_step(_digits_cfg('batch_size=64', 'accum=1'))
    g4 = tft.grads_after_one_step(_digits_cfg('batch_size=16', 'accum=4'))
    assert g1.keys() == g4.keys()
    assert any(g.abs().max() > 1e-4 for g in g1.values())
    diff = max((g1[k] - g4[k]).abs().max().item() for k in g1)
    assert diff <= 1e-6, diff
    # the check can fail: a different first window gives different gradients
    g_other = tft.grads_after_one_step(_digits_cfg('batch_size=64', 'accum=1', 'seed=1'))
    assert max((g1[k] - g_other[k]).abs().max().item() for k in g1 if g1[k].shape == g_other[k].shape) > 1e-4


def test_last_partial_window_takes_a_step(tmp_path):
    "drop_last=false, 23 batches per epoch, accum 4: 6 steps per epoch (the last of 3 micro-batches) and OneCycle ends at its end value."
    used = []
    from torch.optim.optimizer import register_optimizer_step_pre_hook
    h = register_optimizer_step_pre_hook(lambda opt, a, k: used.append(opt.param_groups[0]['lr']))
    try:
        res = ntrain.fit(_digits_cfg('drop_last=false', 'accum=4', 'epochs=2', 'log_every=1', 'early_stop.patience=null'),
                         run_dir=tmp_path/'run', quiet=True)
    finally: h.remove()
    assert res.status == 'finished'
    n_train = 1797 - int(1797 * 0.2)
    batches = math.ceil(n_train / 64)
    assert batches % 4 != 0, 'the dataset must give a partial window'
    total = math.ceil(batches / 4) * 2
    sched = ntrain.engine.checkpoint.load(tmp_path/'run'/'ckpt'/'last.pt')['scheduler']
    assert sched['total_steps'] == total
    assert res.steps == total == len(used) == sched['last_epoch']
    steps = [r['step'] for r in read_metrics(tmp_path/'run', 'step')]
    assert steps == list(range(1, total + 1))
    end = 3e-3 / 25 / 1e4   # OneCycle's defaults: div_factor 25, final_div_factor 1e4
    assert used[-1] == pytest.approx(end, rel=1e-6), (used[-3:], end)


def test_loss_norm_items_normalises_over_the_window():
    "A summed token loss with loss_norm=items: 4x16 equals 1x64 and equals sum(loss)/tokens over the 64 samples."
    base = dict(task='tasks_for_tests:tokens', loss_norm='items', clip_grad=None, num_workers=0)
    c1 = ntrain.Config.from_dict(dict(base, batch_size=64, accum=1))
    c4 = ntrain.Config.from_dict(dict(base, batch_size=16, accum=4))
    g1, g4 = tft.grads_after_one_step(c1), tft.grads_after_one_step(c4)
    # by hand, on the same 64 samples and the same initial weights
    t = ntrain.Trainer(c4, quiet=True).setup()
    keys = [k for b in t.train_sampler.batches(0)[:4] for k in b]
    ds = t.task.train
    x = torch.stack([ds[i][0] for _, i, _ in keys]); y = torch.stack([ds[i][1] for _, i, _ in keys])
    model = t.model
    loss = tft.token_sum_loss(model(x), y) / (y != tft.PAD).sum()
    loss.backward()
    manual = {n: p.grad for n, p in model.named_parameters()}
    # and per-micro-batch normalisation would differ: the item counts per micro-batch are unequal
    counts = [int((torch.stack([ds[i][1] for _, i, _ in b]) != tft.PAD).sum()) for b in t.train_sampler.batches(0)[:4]]
    assert len(set(counts)) > 1, counts
    assert max((manual[k] - g1[k]).abs().max().item() for k in g1) <= 1e-6, '1x64 is not sum/items'
    assert max((manual[k] - g4[k]).abs().max().item() for k in g4) <= 1e-6, '4x16 is not sum/items'


def test_loss_norm_items_trains_from_the_cli(tmp_path):
    rd = tmp_path/'run'
    cli('fit', 'digits', 'task=tasks_for_tests:tokens', 'num_workers=0', 'loss_norm=items', 'accum=2', 'batch_size=32',
        'epochs=2', 'monitor=val_loss', 'early_stop.patience=null', f'run_dir={rd}', check=0)
    ep = read_metrics(rd, 'epoch')
    assert len(ep) == 2 and all(math.isfinite(e['train_loss']) and math.isfinite(e['val_loss']) for e in ep)


# ============================================================ 4. fp16 with GradScaler on the CPU
def test_fp16_gradscaler_skips_an_inf_step_and_goes_on(tmp_path):
    rd = tmp_path/'run'
    cli('fit', 'digits', 'task=tasks_for_tests:inf_grad_at', 'task_args={k: 3}', 'num_workers=0', 'precision=fp16',
        'batch_size=32', 'epochs=2', 'log_every=1', 'early_stop.patience=null', f'run_dir={rd}', check=0)
    steps = read_metrics(rd, 'step')
    assert len(steps) == 16 and steps[-1]['step'] == 16
    assert all('scale' in s and 'skipped_steps' in s for s in steps)
    assert steps[2]['skipped_steps'] == 0 and steps[3]['skipped_steps'] >= 1   # the 4th step (forward k=3) was skipped
    assert steps[3]['scale'] < steps[2]['scale']
    assert all(math.isfinite(s['loss']) for s in steps)
    ep = read_metrics(rd, 'epoch')
    assert ep[0]['skipped_steps'] >= 1
    assert json.loads((rd/'status.json').read_text())['state'] == 'finished'
    assert state_dict_finite(rd/'ckpt'/'last.pt')
    assert json.loads((rd/'env.json').read_text())['precision'] == 'fp16'


# ============================================================ 5. compile, channels_last, bf16
@pytest.mark.parametrize('args', [('compile=true', 'compile_backend=aot_eager'), ('channels_last=true',), ('precision=bf16',)],
                         ids=['compile_aot_eager', 'channels_last', 'bf16'])
def test_digits_variants_train_one_epoch(args, tmp_path):
    rd = tmp_path/'run'
    cli('fit', 'digits', 'num_workers=0', 'epochs=1', f'run_dir={rd}', *args, timeout=240, check=0)
    ep = read_metrics(rd, 'epoch')
    assert len(ep) == 1 and math.isfinite(ep[0]['val_loss']) and ep[0]['val_acc'] > 0.3
    assert state_dict_finite(rd/'ckpt'/'last.pt')
    model, _ = ntrain.load(rd, 'last')   # loads into a plain model: no _orig_mod. prefixes
    assert isinstance(model, torch.nn.Module)


# ============================================================ 6. import weight
def test_import_ntrain_pulls_in_no_widgets_or_matplotlib():
    r = subprocess.run([sys.executable, '-X', 'importtime', '-c', 'import ntrain'], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, **ENV))
    assert r.returncode == 0, r.stderr[-2000:]
    mods = {l.split('|')[-1].strip() for l in r.stderr.splitlines() if l.startswith('import time:')}
    assert 'ntrain' in mods
    bad = sorted(m for m in mods if m.split('.')[0] in ('ipywidgets', 'matplotlib'))
    assert not bad, bad


# ============================================================ 7. TensorBoard
def test_tensorboard_logger_writes_scalars(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    rd = tmp_path/'run'
    cli('fit', 'digits', *TINY, 'epochs=2', 'loggers=[tensorboard]', f'run_dir={rd}', check=0)
    assert list((rd/'tb').glob('events.out.tfevents.*'))
    acc = EventAccumulator(str(rd/'tb')); acc.Reload()
    assert 'epoch/val_loss' in acc.Tags()['scalars']
    tb = [(e.step, e.value) for e in acc.Scalars('epoch/val_loss')]
    js = [(r['step'], r['val_loss']) for r in read_metrics(rd, 'epoch')]
    assert [s for s, _ in tb] == [s for s, _ in js]
    assert [v for _, v in tb] == pytest.approx([v for _, v in js], rel=1e-6)


# ============================================================ 8. a Hugging-Face-style task
def test_hf_style_task_trains_through_the_python_api(tmp_path):
    cfg = ntrain.load_config('digits', ['num_workers=0', 'epochs=3', 'optim.lr=0.03', 'early_stop.patience=null'])
    res = ntrain.fit(cfg, task=tft.hf_style(), run_dir=tmp_path/'run', quiet=True)
    assert res.status == 'finished' and res.epochs_run == 3
    assert res.history[-1]['val_acc'] > 0.5            # learned: chance is 0.25
    assert res.history[-1]['val_loss'] < res.history[0]['val_loss']


# ============================================================ 9. non-finite loss mid-run
def test_nonfinite_mid_run_stops_with_exit_3_and_keeps_finite_checkpoints(tmp_path):
    "16 steps per epoch; the loss is NaN from step 21 (epoch 2, 5th batch) on."
    rd = tmp_path/'run'
    r = cli('fit', 'digits', 'task=tasks_for_tests:nan_from', 'task_args={k: 20}', 'num_workers=0', 'batch_size=16',
            'epochs=4', 'log_every=1', 'ckpt_every=2', 'early_stop.patience=null', f'run_dir={rd}', cwd=tmp_path)
    assert r.returncode == 3, r.stderr[-2000:]
    nan = ntrain.engine.checkpoint.load(rd/'nan.pt')
    assert nan['bad'][0]['step'] == 21
    expected = [i for _, i, _ in ntrain.data.EpochSampler(256, 16, seed=0, shuffle=True, drop_last=True).batches(1)[4]]
    assert nan['bad'][0]['indices'] == expected
    for name in ('last.pt', 'best.pt'): assert state_dict_finite(rd/'ckpt'/name), name
    assert ntrain.engine.checkpoint.load(rd/'ckpt'/'last.pt')['step'] == 20
    st = json.loads((rd/'status.json').read_text())
    assert (st['state'], st['reason'], st['exit_code']) == ('failed', 'non_finite', 3), st


# ============================================================ 10. the profiler
def test_profile_writes_a_trace_and_top_ops(tmp_path):
    rd = tmp_path/'run'
    cli('fit', 'digits', *TINY, 'batch_size=16', 'epochs=1', 'profile.steps=3', f'run_dir={rd}', check=0)
    trace = json.loads((rd/'profile'/'trace.json').read_text())
    assert trace.get('traceEvents')
    top = (rd/'profile'/'top_ops.txt').read_text()
    assert 'Name' in top and 'aten::' in top


# ============================================================ 11. deterministic runs
def test_deterministic_runs_give_identical_metrics(tmp_path):
    recs = []
    for i in (1, 2):
        rd = tmp_path/f'run{i}'
        cli('fit', 'digits', 'num_workers=0', 'epochs=1', 'log_every=5', 'deterministic=true', f'run_dir={rd}', check=0)
        recs.append([{k: v for k, v in r.items() if k not in TIME_FIELDS} for r in read_metrics(rd) if r['kind'] in ('step', 'epoch', 'val')])
        assert 'deterministic on' in (rd/'run.md').read_text()
    assert len(recs[0]) >= 5 and recs[0] == recs[1]


# ============================================================ 12. what the records hold
EPOCH_KEYS = {'epoch', 'step', 'train_loss', 'val_loss', 'val_acc', 'train_acc', 'lr', 'samples_per_s', 'data_wait'}

def test_epoch_and_step_records(digits_default):
    rd = digits_default['rd']
    ep, st = read_metrics(rd, 'epoch'), read_metrics(rd, 'step')
    assert ep
    for r in ep:
        assert EPOCH_KEYS <= r.keys(), EPOCH_KEYS - r.keys()
        assert all(isinstance(r[k], (int, float)) and math.isfinite(r[k]) for k in EPOCH_KEYS)
    log_every = 10
    assert [r['step'] for r in st] == list(range(log_every, ep[-1]['step'] + 1, log_every))


def test_validation_loss_is_sample_weighted(digits_default):
    rd = digits_default['rd']
    last = read_metrics(rd, 'epoch')[-1]
    model, cfg = ntrain.load(rd, 'last')
    valid = ntrain.examples.digits().valid
    x = torch.stack([valid[i][0] for i in range(len(valid))]); y = torch.stack([valid[i][1] for i in range(len(valid))])
    with torch.inference_mode():
        losses = torch.nn.functional.cross_entropy(model(x).double(), y, reduction='none')
    weighted = losses.mean().item()
    bs = 2 * cfg.batch_size
    unweighted = sum(c.mean().item() for c in losses.split(bs)) / math.ceil(len(losses) / bs)
    assert last['val_loss'] == pytest.approx(weighted, rel=1e-5, abs=1e-6)
    assert abs(unweighted - weighted) > 1e-4   # the check tells the two apart


# ============================================================ 13. F1 against sklearn, merged states
def test_f1_matches_sklearn_and_merges_exactly():
    from sklearn.metrics import f1_score
    g = torch.Generator().manual_seed(0)
    C, N = 5, 301
    logits = torch.randn(N, C, generator=g)
    y = torch.randint(0, C, (N,), generator=g)
    p = logits.argmax(1)
    for avg in ('macro', 'weighted', 'micro'):
        full = ntrain.F1(C, avg); full.update(logits, y)
        v = next(iter(full.compute().values()))
        assert v == pytest.approx(f1_score(y.numpy(), p.numpy(), average=avg), abs=1e-12), avg
        a, b = ntrain.F1(C, avg), ntrain.F1(C, avg)
        a.update(logits[:150], y[:150]); b.update(logits[150:], y[150:])
        merged = ntrain.F1(C, avg); merged.load_state({k: a.state()[k] + b.state()[k] for k in a.state()})
        assert merged.compute() == full.compute()
    acc, a, b = ntrain.Accuracy(), ntrain.Accuracy(), ntrain.Accuracy()
    acc.update(logits, y); a.update(logits[:150], y[:150]); b.update(logits[150:], y[150:])
    m = ntrain.Accuracy(); m.load_state({k: a.state()[k] + b.state()[k] for k in a.state()})
    assert m.compute() == acc.compute()
    assert acc.compute()['acc'] == pytest.approx((p == y).double().mean().item(), rel=1e-7)  # Accuracy divides in float32


# ============================================================ 14. SIGINT / SIGTERM
@pytest.mark.parametrize('sig', [signal.SIGTERM, signal.SIGINT], ids=['SIGTERM', 'SIGINT'])
def test_signal_stops_saves_and_exits_75(sig, tmp_path):
    rd = tmp_path/'run'
    env = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1', **ENV)
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'fit', 'digits', 'num_workers=0', 'epochs=40', 'log_every=1',
                          'early_stop.patience=null', f'run_dir={rd}'], cwd=tmp_path, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and p.poll() is None and not read_metrics(rd, 'step'): time.sleep(0.05)
        assert p.poll() is None, 'the run ended before it could be signalled'
        assert read_metrics(rd, 'step'), 'no step record within 60 s'
        p.send_signal(sig)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None: p.kill(); p.wait()
    assert p.returncode == 75, err[-2000:]
    assert (rd/'ckpt'/'last.pt').exists()
    st = json.loads((rd/'status.json').read_text())
    assert st['state'] == 'stopped' and st['exit_code'] == 75
    assert f'ntrain resume {rd}' in out


# ============================================================ 15. ntrain env
def test_env_prints_torch_version_and_warns_about_an_unused_gpu(tmp_path):
    r = cli('env', check=0)
    assert torch.__version__ in r.stdout
    if shutil.which('nvidia-smi') is None: assert 'warning' not in r.stderr
    bin_ = tmp_path/'bin'; bin_.mkdir()
    fake = bin_/'nvidia-smi'
    fake.write_text('#!/bin/sh\necho "NVIDIA H100 80GB HBM3"\n'); fake.chmod(0o755)
    r = cli('env', env=dict(PATH=f"{bin_}{os.pathsep}{os.environ['PATH']}"), check=0)
    warn = [l for l in r.stderr.splitlines() if l.startswith('warning:')]
    assert torch.version.cuda is None  # the CPU build these machines carry
    assert len(warn) == 1 and 'H100' in warn[0] and 'CPU build' in warn[0], r.stderr


# ============================================================ 16. early stopping
def test_early_stop_when_nothing_improves(tmp_path):
    rd = tmp_path/'run'
    r = cli('fit', 'digits', *TINY, 'optim.lr=0', 'epochs=6', 'early_stop.patience=1', 'monitor=val_loss',
            f'run_dir={rd}', check=0)
    ep = read_metrics(rd, 'epoch')
    assert len(ep) == 2
    st = json.loads((rd/'status.json').read_text())
    assert (st['state'], st['reason']) == ('finished', 'early_stopped'), st
    assert 'early stop at 2' in (rd/'run.md').read_text() and 'early stop at 2' in r.stdout


# ============================================================ 17. the README's main job
def test_digits_default_reaches_95_percent(digits_default):
    ep = read_metrics(digits_default['rd'], 'epoch')
    best = max(r['val_acc'] for r in ep)
    assert best > 0.95, best
    assert '**Best val:** acc' in digits_default['r'].stdout
    st = json.loads((digits_default['rd']/'status.json').read_text())
    assert st['state'] == 'finished' and st['reason'] in ('epochs', 'early_stopped'), st


def test_sync_bn_on_cpu_is_one_clear_line(tmp_path):
    "SyncBatchNorm refuses CPU tensors: asking for it on the CPU fails before anything is written."
    rd = tmp_path/'run'
    r = cli('fit', 'digits', 'sync_bn=true', f'run_dir={rd}', cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip().count('\n') == 0, r.stderr
    assert "'sync_bn'" in r.stderr and 'CUDA' in r.stderr and not rd.exists()


def test_global_batch_derives_accum_and_lr_scaling(tmp_path):
    "global_batch=128 with batch_size=32 on one process means accum 4; linear scaling multiplies the lr by 4."
    rd = tmp_path/'run'
    r = cli('fit', 'digits', 'global_batch=128', 'batch_size=32', 'lr_scaling=linear', 'epochs=1', 'num_workers=0',
            f'run_dir={rd}', cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert 'global batch 128 (32 x 1 x 4)' in r.stdout
    card = (rd/'run.md').read_text()
    assert '**Global batch:** 128 (32 x 1 process x 4)' in card and 'OneCycle max 0.012' in card

def test_fit_takes_class_probabilities_as_targets(tmp_path):
    """Mixup mixes one-hot targets in Task.forward while training: cross-entropy takes class probabilities, and fit's target
    check refused them ("target from Task.forward is torch.float32 but cross-entropy ... needs integer class indices")."""
    import torch.nn.functional as F
    from torch.utils.data import TensorDataset
    from ntrain.examples import load_digits_arrays
    x, y = load_digits_arrays()
    def mixup(model, b):
        xb, yb = b
        if not model.training: return model(xb), yb
        i, t = torch.randperm(len(xb)), F.one_hot(yb, 10).float()
        return model(0.7 * xb + 0.3 * xb[i]), 0.7 * t + 0.3 * t[i]
    task = ntrain.Task(model=lambda: torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(64, 10)), train=TensorDataset(x[:1200], y[:1200]),
                       valid=TensorDataset(x[1200:], y[1200:]), loss=torch.nn.CrossEntropyLoss(), forward=mixup, num_classes=10)
    res = ntrain.fit(task=task, run_dir=tmp_path/'run', epochs=2, quiet=True)
    assert res.status == 'finished' and res.epochs_run == 2, res

def test_a_forward_that_takes_derivatives_validates(tmp_path):
    """A physics-informed net takes u'' by autograd in its forward, under torch.enable_grad(), so that evaluation works too.
    Under inference_mode no tensor can require grad, so validation (and rung 1's validation batch) raised "element 0 of
    tensors does not require grad"; ntrain evaluates under no_grad, which enable_grad lifts."""
    from torch.utils.data import TensorDataset
    from ntrain.ladder import ladder
    def pinn(model, b):
        x, f = b
        with torch.enable_grad():
            x = x.clone().requires_grad_(True); u = model(x)
            du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
            d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
        return d2u, -f  # the residual u'' + f
    g = torch.Generator().manual_seed(0)
    def data(n): x = torch.rand(n, 1, generator=g); return TensorDataset(x, math.pi ** 2 * torch.sin(math.pi * x))
    mk = lambda: torch.nn.Sequential(torch.nn.Linear(1, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1))
    task = ntrain.Task(model=mk, train=data(256), valid=data(64), loss=torch.nn.MSELoss(), forward=pinn)
    res = ntrain.fit(task=task, run_dir=tmp_path/'run', epochs=1, quiet=True)
    assert res.status == 'finished' and math.isfinite(res.best_val_loss if hasattr(res, 'best_val_loss') else 0.0), res
    r1 = ladder(task=task, rungs='1', run_dir=tmp_path/'lad', write=False).rung(1)
    assert r1.verdict != 'fail' and 'valid' not in r1.causes, r1.diagnosis
