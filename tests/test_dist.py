"""torchrun for real, on the CPU with gloo: the same curve on any number of processes, restarts, graceful stops, two nodes.

Every subprocess has a timeout; a failing test prints the log of every rank. Under CI=true a skip is a failure.
"""
import json, os, signal, socket, subprocess, sys, time
from pathlib import Path
import pytest
from conftest import logs
import torch
import torch.distributed as dist
from ntrain.engine.checkpoint import load as load_ckpt
from ntrain.events import MEASURED

TIMEOUT = 240
TIMING = set(MEASURED)  # measurements, not numerics
F64 = ['epochs=2', 'num_workers=0', 'task_args.dtype=float64', 'log_every=5']

def setup_module():
    if not dist.is_available() or not dist.is_gloo_available():
        msg = 'torch.distributed with gloo is not available'
        if os.environ.get('CI') == 'true': pytest.fail(msg)  # in CI a skipped torchrun test is a failure
        pytest.skip(msg)

def env(**kw):
    e = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1', NTRAIN_DIST_TIMEOUT='60')
    e.update({k: str(v) for k, v in kw.items()})
    return e


def ntrain(*args, rd=None, timeout=TIMEOUT, expect=0, **e):
    r = subprocess.run([sys.executable, '-m', 'ntrain', *map(str, args)], env=env(**e), capture_output=True, text=True, timeout=timeout)
    if expect is not None and r.returncode != expect:
        raise AssertionError(f'ntrain {" ".join(map(str, args))}: exit {r.returncode}, expected {expect}\n'
                             f'STDOUT:\n{r.stdout[-3000:]}\nSTDERR:\n{r.stderr[-3000:]}\n{logs(rd) if rd else ""}')
    return r

def epochs(rd)->list:
    return [json.loads(l) for l in (Path(rd)/'metrics.jsonl').read_text().splitlines() if '"kind": "epoch"' in l]

def assert_same_curve(a, b, keys=('val_loss', 'val_acc', 'val_f1', 'train_loss', 'train_acc', 'lr'), rtol=1e-5):
    A, B = epochs(a), epochs(b)
    assert len(A) == len(B) > 0, (len(A), len(B))
    for ra, rb in zip(A, B):
        for k in keys:
            assert abs(ra[k] - rb[k]) <= rtol * max(abs(ra[k]), 1e-12), f'epoch {ra["epoch"]} {k}: {ra[k]} vs {rb[k]}\n{logs(b)}'

def curve_differs(a, b, keys=('val_loss', 'val_acc', 'val_f1'), rtol=1e-5)->bool:
    return any(abs(ra[k] - rb[k]) > rtol * abs(ra[k]) for ra, rb in zip(epochs(a), epochs(b)) for k in keys)

def free_port()->int:
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

@pytest.fixture(scope='module')
def curves(tmp_path_factory):
    "1 x 64, 1 x 32 x accum 2, and 2 x 32 processes: the same global batches, in float64 (see the digits notebook)."
    d = tmp_path_factory.mktemp('curves')
    ntrain('fit', 'digits', *F64, f'run_dir={d/"one64"}', rd=d/'one64')
    ntrain('fit', 'digits', *F64, 'batch_size=32', 'accum=2', f'run_dir={d/"one32x2"}', rd=d/'one32x2')
    ntrain('launch', 'digits', *F64, 'batch_size=32', f'run_dir={d/"two32"}', '--nproc', 2, rd=d/'two32')
    return d

def test_process_count_gives_the_same_curve(curves):
    # 359 validation samples: not a multiple of 2, so one rank's last batch carries a zero-weight copy
    assert_same_curve(curves/'one64', curves/'one32x2')
    assert_same_curve(curves/'one64', curves/'two32')

@pytest.mark.parametrize('naive', ['pad', 'mean'])
def test_negative_control_naive_validation_differs(curves, naive):
    "Validation padded as DistributedSampler pads, or averaged without counts, must fail the comparison."
    rd = curves/f'naive-{naive}'
    ntrain('launch', 'digits', *F64, 'batch_size=32', f'run_dir={rd}', '--nproc', 2, rd=rd, NTRAIN_TEST_NAIVE_VAL=naive)
    assert curve_differs(curves/'one64', rd)

def test_two_nodes_match_one_node(curves, tmp_path):
    "Two 'nodes', each a torchrun with one worker, rendezvous on 127.0.0.1 and give one node's two-worker curve."
    rd, port = tmp_path/'two-nodes', free_port()
    procs = [subprocess.Popen([sys.executable, '-m', 'ntrain', 'launch', 'digits', *F64, 'batch_size=32', f'run_dir={rd}',
                               '--nproc', '1', '--nnodes', '2', '--node-rank', str(r), '--rdzv-endpoint', f'127.0.0.1:{port}'],
                              env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for r in range(2)]
    try: outs = [p.communicate(timeout=TIMEOUT)[0] for p in procs]
    finally:
        for p in procs: p.kill() if p.poll() is None else None
    assert [p.returncode for p in procs] == [0, 0], '\n'.join(outs) + logs(rd)
    assert_same_curve(curves/'two32', rd)

# --- exact resume under torchrun: deterministic, with mid-epoch checkpoints ------------------------------------------------
EXACT = ['epochs=2', 'num_workers=0', 'batch_size=32', 'deterministic=true', 'ckpt_every=5', 'log_every=2']

def weights(rd, name='last.pt'):
    return load_ckpt(Path(rd)/'ckpt'/name)['model']

def assert_bit_identical(a, b):
    wa, wb = weights(a), weights(b)
    assert wa.keys() == wb.keys()
    for k in wa: assert torch.equal(wa[k], wb[k]), f'{k} differs\n{logs(b)}'
    strip = lambda rs: [{k: v for k, v in r.items() if k not in TIMING} for r in rs]
    assert strip(epochs(a)) == strip(epochs(b))

@pytest.fixture(scope='module')
def reference(tmp_path_factory):
    rd = tmp_path_factory.mktemp('ref')/'run'
    ntrain('launch', 'digits', *EXACT, f'run_dir={rd}', '--nproc', 2, rd=rd)
    return rd

def test_killed_worker_restarts_and_matches(reference, tmp_path):
    "Rank 1 is SIGKILLed mid-epoch; torchrun restarts both workers; they resume from the newest checkpoint."
    rd = tmp_path/'run'
    ntrain('launch', 'digits', *EXACT, f'run_dir={rd}', '--nproc', 2, '--max-restarts', 1, rd=rd,
           NTRAIN_FAULT='step:8', NTRAIN_FAULT_RANK=1)
    assert 'resumed at epoch 1 batch 5' in (rd/'log.txt').read_text(), logs(rd)  # step 5's checkpoint: 5 batches per rank
    assert_bit_identical(reference, rd)

def test_sigterm_stops_every_rank_at_the_same_step_and_resumes_exactly(reference, tmp_path):
    rd = tmp_path/'run'
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'launch', 'digits', *EXACT, f'run_dir={rd}', '--nproc', '2'],
                         env=env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        t0 = time.time()
        while time.time() - t0 < TIMEOUT and not ((rd/'metrics.jsonl').exists() and '"kind": "step"' in (rd/'metrics.jsonl').read_text()):
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        out = p.communicate(timeout=TIMEOUT)[0]
    finally:
        if p.poll() is None: p.kill()
    assert p.returncode == 75, out + logs(rd)
    stops = [next(l for l in (rd/'logs'/f'rank{r}.log').read_text().splitlines() if l.startswith('stopped at step')) for r in range(2)]
    assert stops[0].split()[3] == stops[1].split()[3], stops
    assert json.loads((rd/'status.json').read_text())['state'] == 'stopped'
    ntrain('resume', rd, '--nproc', 2, rd=rd)
    assert_bit_identical(reference, rd)

def test_resume_on_another_process_count_is_refused(reference, tmp_path):
    import shutil
    rd = tmp_path/'copy'; shutil.copytree(reference, rd)
    (rd/'status.json').write_text('{"state": "stopped"}')
    r = ntrain('resume', rd, 'epochs=3', expect=2)
    assert 'written by 2 process(es), this run has 1' in r.stderr and r.stderr.strip().count('\n') == 0, r.stderr

# --- FSDP2 --------------------------------------------------------------------------------------------------------------
BUF = ['task_args.normalize=true']  # the digits CNN with its input normalisation in buffers

def test_fsdp_matches_ddp_on_a_model_with_buffers(tmp_path):
    ddp, fsdp = tmp_path/'ddp', tmp_path/'fsdp'
    ntrain('launch', 'digits', *F64, *BUF, 'batch_size=32', f'run_dir={ddp}', '--nproc', 2, rd=ddp)
    ntrain('launch', 'digits', *F64, *BUF, 'batch_size=16', 'accum=2', 'strategy=fsdp', f'run_dir={fsdp}', '--nproc', 2, rd=fsdp)
    assert_same_curve(ddp, fsdp)
    assert (fsdp/'ckpt'/'latest').read_text().strip().startswith('step-')
    # best.pt is one consolidated file that loads without a process group, buffers included
    from ntrain.engine.api import load
    model, cfg = load(fsdp)
    assert {'mean', 'std'} <= set(dict(model.named_buffers()))
    assert sum(p.numel() for p in model.parameters()) == sum(p.numel() for p in load(ddp)[0].parameters())

def test_fsdp_sharded_checkpoints_resume_exactly(tmp_path):
    ref, rd = tmp_path/'ref', tmp_path/'run'
    args = ['digits', *EXACT, *BUF, 'strategy=fsdp']
    ntrain('launch', *args, f'run_dir={ref}', '--nproc', 2, rd=ref)
    ntrain('launch', *args, f'run_dir={rd}', '--nproc', 2, '--max-restarts', 1, rd=rd, NTRAIN_FAULT='step:13', NTRAIN_FAULT_RANK=0)
    assert 'resumed at epoch 1 batch 10' in (rd/'log.txt').read_text(), logs(rd)
    wa, wb = load_ckpt(ref/'ckpt'/'best.pt')['model'], load_ckpt(rd/'ckpt'/'best.pt')['model']
    for k in wa: assert torch.equal(wa[k], wb[k]), k
    strip = lambda rs: [{k: v for k, v in r.items() if k not in TIMING} for r in rs]
    assert strip(epochs(ref)) == strip(epochs(rd))
    assert not list((rd/'ckpt').glob('*.tmp'))
