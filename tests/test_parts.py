"""The parts a Trainer owns, each on its own (no full run but two short ones): `TrainState` over a checkpoint made at
2de8b08, `EpochStats` against the accumulator it replaced, `Checkpointer` and `RunFiles` on damaged inputs, the
timer's cost when off, a config that is never replaced, and the stepwise API's misuses in one line each."""
import math, os, random, shutil, time
from pathlib import Path
import pytest, torch
import ntrain
from ntrain.engine import checkpoint as ckpt
from ntrain.config import Config, apply_overrides, load_config
from ntrain.core import NtrainError, CheckpointError
from ntrain.engine.runfiles import RunFiles
from ntrain.engine.trainstate import TrainState, Checkpointer, read_config_dict
from ntrain.engine.trainer import Trainer, EpochStats, NoTimer, PhaseTimer
from ntrain.ladder.user_tasks import regression

FIX = Path(__file__).resolve().parent/'fixtures'


def same(a, b)->bool:
    "Equal plain data, tensors compared by value."
    if isinstance(a, torch.Tensor): return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, dict): return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)): return type(a) == type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def within(a, b)->bool:
    "Every key of `a` is in `b`, with the same value (nested dicts: the same, recursively)."
    if isinstance(a, dict) and isinstance(b, dict): return all(k in b and within(v, b[k]) for k, v in a.items())
    return same(a, b)


def keys(d, at=''):
    "Every key path of nested dicts."
    out = set()
    for k, v in d.items():
        out.add(at + str(k))
        if isinstance(v, dict) and k not in ('model', 'optimizer', 'scheduler', 'scaler', 'config'): out |= keys(v, f'{at}{k}.')
    return out


def test_train_state_reads_an_old_checkpoint_and_writes_its_layout_back():
    sd = ckpt.load(FIX/'launched-2de8b08'/'ckpt'/'last.pt')
    st = TrainState.from_dict(sd)
    assert (st.step, st.epoch, st.world_size) == (sd['step'], sd['ntrain']['position']['epoch'], sd['ntrain']['world_size'])
    back = st.to_dict()
    assert within(sd, back)  # every key it had, the same value
    assert back['ntrain']['run_id'] is None and back['ntrain']['position']['pending'] is None  # the keys it lacked: their defaults


def test_a_new_checkpoint_has_the_old_layout(tmp_path):
    old = ckpt.load(FIX/'launched-2de8b08'/'ckpt'/'last.pt')
    res = ntrain.fit('digits', run_dir=tmp_path/'run', quiet=True, epochs=1, max_steps=3, num_workers=0, progress=False)
    new = ckpt.load(Path(res.run_dir)/'ckpt'/'last.pt')
    assert keys(old) <= keys(new), keys(old) - keys(new)
    assert keys(new) - keys(old) <= {'ntrain.position.pending', 'ntrain.run_id'}, keys(new) - keys(old)  # what ntrain added since


def old_flush(pending, acc, step):
    "The accumulator EpochStats replaced (one process), as it was at 20e8930."
    if not pending: return
    losses = torch.stack([p[0].float() for p in pending]).cpu().tolist()
    gns = [p[2] for p in pending if p[2] is not None]
    acc['grad_norms'] += torch.stack(gns).float().cpu().tolist() if gns else []
    for (_, n, _, idx), v in zip(pending, losses):
        acc['losses'].append(v); acc['counts'].append(n)
        acc['streak'] = 0 if math.isfinite(v) else acc['streak'] + 1
        if acc['streak']: acc['bad'] = (acc['bad'] + [dict(step=step, loss=v, indices=idx.tolist())])[-16:]


def test_epoch_stats_gives_the_numbers_the_old_accumulator_gave():
    rnd = random.Random(0)
    s, acc = EpochStats(), dict(losses=[], counts=[], grad_norms=[], bad=[], streak=0)
    step, pending = 0, []
    for _ in range(50):
        for j in range(rnd.randint(1, 4)):
            loss = torch.tensor(rnd.choice([rnd.uniform(0, 3), float('nan')]) if rnd.random() < 0.1 else rnd.uniform(0, 3))
            n, idx = rnd.randint(1, 64), torch.arange(rnd.randint(1, 5))
            s.add(loss, n, idx); pending.append((loss, n, None, idx))
        gn = torch.tensor(rnd.uniform(0, 2)); s.add_grad_norm(gn); pending[-1] = pending[-1][:2] + (gn,) + pending[-1][3:]
        step += 1
        if rnd.random() < 0.3:
            s.read_back(step); old_flush(pending, acc, step); pending = []
    s.read_back(step); old_flush(pending, acc, step)
    assert same([s.losses, s.counts, s.grad_norms, s.bad, s.streak], [acc['losses'], acc['counts'], acc['grad_norms'], acc['bad'], acc['streak']])
    tot = sum(acc['counts'])
    assert same(s.loss(), math.fsum(l * n for l, n in zip(acc['losses'], acc['counts'])) / tot)


def test_checkpointer_refuses_what_a_resume_cannot_use(tmp_path):
    warned = []
    cp = Checkpointer(tmp_path, warn=warned.append); cp.make_dir()
    torch.save(dict(model={'w': torch.ones(1)}), cp.dir/'last.pt')  # a plain state dict: no position
    with pytest.raises(CheckpointError, match='not a checkpoint ntrain can resume from'): cp.load(cp.dir/'last.pt')
    (cp.dir/'last.pt').write_bytes(b'garbage'); (cp.dir/'prev.pt').write_bytes(b'garbage too')  # neither carries a record
    with pytest.raises(CheckpointError, match='no valid checkpoint to resume from'): cp.load(cp.newest())
    ckpt.save(dict(model={}, step=1, ntrain=dict(position={})), cp.dir/'prev.pt')  # a verified prev.pt: a resume continues from it
    assert cp.newest().name == 'prev.pt' and 'skipping last.pt' in warned[-1], warned


def test_run_files_never_write_through_a_link(tmp_path):
    rd = tmp_path/'run'; rd.mkdir()
    (rd/'metrics.jsonl').symlink_to(tmp_path/'elsewhere.txt')
    files = RunFiles(rd)
    assert files.holds_run()  # a dangling link counts: the directory is not free
    (rd/'metrics.jsonl').unlink(); (rd/'log.txt').symlink_to(tmp_path/'outside.txt')
    with pytest.raises(NtrainError, match='is a symbolic link'): files.open('name: run\n', None)
    assert not (tmp_path/'outside.txt').exists()
    files.close()


def test_the_timer_costs_nothing_when_off(tmp_path):
    cfg = load_config('digits', ['epochs=1', 'num_workers=0', 'progress=false'])
    t = Trainer(cfg, run_dir=tmp_path/'run', quiet=True).open()
    assert isinstance(t.timer, NoTimer)
    batches = iter(t.train_batches())
    for _ in range(3): t.train_step(next(batches))  # warm
    t0 = time.perf_counter()
    for _ in range(5): t.train_step(next(batches))
    step = (time.perf_counter() - t0) / 5
    off = t.timer
    t0 = time.perf_counter()
    for _ in range(10000):
        with off('forward'): pass
    per_block = (time.perf_counter() - t0) / 10000
    t.close(report=False)
    assert 5 * per_block < 0.005 * step, (per_block, step)  # five blocks a step: under 0.5% of a digits step on any machine


def test_the_config_is_never_replaced(tmp_path):
    cfg = apply_overrides(Config(), ['epochs=1', 'num_workers=0', 'progress=false'])
    t = Trainer(cfg, regression(), run_dir=tmp_path/'run', quiet=True)
    t.fit()
    assert t.cfg is cfg and cfg.task == Config().task and cfg.run_id is None
    assert (t.run_config.task, t.run_config.run_id) == ('in-memory:regression', t.run_id)
    assert read_config_dict(tmp_path/'run'/'config.yaml')['task'] == 'in-memory:regression'
    sd = ckpt.load(tmp_path/'run'/'ckpt'/'last.pt')
    assert (sd['config']['task'], sd['config']['run_id'], sd['ntrain']['run_id']) == ('in-memory:regression', t.run_id, t.run_id)


def test_the_stepwise_api_refuses_misuse_in_one_line(tmp_path):
    cfg = apply_overrides(Config(), ['epochs=1', 'num_workers=0', 'progress=false'])
    with pytest.raises(NtrainError, match='not open'): Trainer(cfg, regression(), run_dir=tmp_path/'a', quiet=True).close()
    t = Trainer(cfg, regression(), run_dir=tmp_path/'b', quiet=True).open()
    with pytest.raises(NtrainError, match='opened already'): t.open()
    with pytest.raises(NtrainError, match='opened already'): t.fit()
    res = t.close(report=False)
    assert res.status == 'stopped' and (tmp_path/'b'/'ckpt'/'last.pt').exists()  # closed before its epoch: resumable
    assert ntrain.resume(tmp_path/'b', task=regression(), quiet=True).status == 'finished'


def test_the_stepwise_api_counts_the_epochs_time_and_data_wait(tmp_path):
    "Driven by hand (`train_batches` + `train_step`), an epoch's rate is a rate: its time and data wait are counted as `train_epoch` counts them."
    cfg = load_config('digits', ['epochs=1', 'num_workers=0', 'progress=false', 'max_steps=6'])
    t = Trainer(cfg, run_dir=tmp_path/'run', quiet=True).open()
    for window in t.train_batches():
        t.train_step(window)
        if t.step >= 5: break
    s = t.stats
    t.close(report=False)
    assert s.time > 0 and 0 < s.data_wait < s.time, (s.time, s.data_wait)
    assert s.samples / s.time < 1e6, s.samples / s.time  # (it was 1e12: time stayed 0)
