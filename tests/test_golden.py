"""Numerics are sacred: today's digits runs against a golden copy of their metrics, on 1 and 2 processes.

The golden files hold the non-timing fields of every `step` and `epoch` record of metrics.jsonl for
`ntrain fit digits deterministic=true epochs=4` and for the same config under `ntrain launch --nproc 2`, with the
machine they were made on (torch version, CPU capability and a hash of the CPU's flags) and `numerics_commit`: the
commit whose code made them.

A CPU other than the one that made a golden rounds differently (other kernels, other blockings), and a training
run amplifies rounding: on one AMD EPYC with the same torch build the loss differs by 2e-6 at step 40 and by 1e-4
at step 80. So the comparison depends on where it runs:
- on the golden's machine, the records must be equal exactly;
- elsewhere, they must be equal exactly to the records of the pinned commit (`numerics_commit`, taken out of git
  with `git archive`) run on this machine: what does not depend on the machine is whether this code computes what
  the pinned code computes. They are also held against the golden itself, within a tolerance derived from measured
  drift (`drift` in the golden file: per record, 10x the largest relative difference measured between this
  run and others whose only change is rounding), which catches gross changes without git history. Without the pinned
  commit (a shallow clone, a tarball) that tolerance is the test; with it, the tolerance only warns.
The negative controls show an exact comparison still fails on a rounding-level change: a one-ulp (float32) change of
the learning rate, and a reordered sum (`NTRAIN_TEST_REORDER=batch`: every sum over a batch in another order).

Regenerate (only for a change that is meant to move the numbers, with its own reason and note; commit the code first,
since the golden pins the commit it was made at):
    NTRAIN_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
Measure the drift envelope on a machine (merged into the golden files' `drift`; a new machine adds its own rows):
    python tests/test_golden.py --drift
"""
import io, json, math, os, subprocess, sys, tarfile, warnings
from pathlib import Path
from typing import Optional
import pytest
import torch
from ntrain.events import MEASURED

GOLDEN = Path(__file__).parent/'golden'
REPO = Path(__file__).parents[1]
TIMING = set(MEASURED)  # measurements, not numerics
ARGS = ['digits', 'deterministic=true', 'epochs=4']
CASES = {'digits_1proc': ['fit'], 'digits_2proc': ['launch', '--nproc', '2'], 'digits_2proc_fresh': ['launch', '--nproc', '2']}
# `ntrain launch` forks its ranks from the launcher where torch is a CPU build; NTRAIN_FORK_WORKERS=0 starts them as
# fresh `python -m ntrain` processes. Both must give the same numbers: one golden file.
GOLD = {'digits_2proc_fresh': 'digits_2proc'}
ENV = {'digits_2proc_fresh': dict(NTRAIN_FORK_WORKERS='0')}
SAFETY, RTOL_FLOOR = 10.0, 1e-6  # the tolerance elsewhere: SAFETY x the measured drift so far, never under RTOL_FLOOR
# Rounding-level changes the exact comparison must catch (and the extra args or env that make them).
CONTROLS = {'lr_one_ulp': ([f"optim.lr={float(torch.nextafter(torch.tensor(0.003), torch.tensor(1.0))):.17g}"], {}),
            'reordered_sum': ([], dict(NTRAIN_TEST_REORDER='batch'))}

def cpu_flags()->str:
    "The CPU's feature flags (Linux), as a short hash: another set may pick other kernels."
    import hashlib
    try: flags = next(l for l in Path('/proc/cpuinfo').read_text().splitlines() if l.startswith(('flags', 'Features'))).split(':', 1)[1].split()
    except (OSError, StopIteration): return 'unknown'
    return hashlib.sha256(' '.join(sorted(flags)).encode()).hexdigest()[:16]

def machine()->dict:
    return dict(torch=str(torch.__version__), cpu_capability=torch.backends.cpu.get_cpu_capability(), cpu_flags=cpu_flags())

def records(rd)->list:
    out = []
    for line in (Path(rd)/'metrics.jsonl').read_text().splitlines():
        r = json.loads(line)
        if r.get('kind') in ('step', 'epoch'): out.append({k: v for k, v in r.items() if k not in TIMING})
    return out

def run(case, rd, code:Optional[Path]=None, extra=(), env:Optional[dict]=None)->list:
    "Run `case` into `rd` and return its records; `code`: a directory holding another `ntrain` package to run instead."
    verb, *flags = CASES[case]
    e = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1', NTRAIN_DIST_TIMEOUT='60')
    e.pop('NTRAIN_FORK_WORKERS', None); e.update(ENV.get(case, {})); e.update(env or {})
    if code is not None: e['PYTHONPATH'] = str(code)  # with cwd=code: `python -m ntrain` and every rank import that package
    r = subprocess.run([sys.executable, '-m', 'ntrain', verb, *ARGS, *extra, f'run_dir={rd}', *flags], env=e, cwd=code,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f'exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}'
    if verb == 'launch':  # which way the ranks started: forked from the launcher (a CPU build of torch) or fresh
        cpu_build = torch.version.cuda is None and getattr(torch.version, 'hip', None) is None
        want = 'forked' if cpu_build and case not in ENV else 'fresh'
        assert json.loads((Path(rd)/'launch.json').read_text())['workers'] == want
    world = int(flags[flags.index('--nproc') + 1]) if '--nproc' in flags else 1
    for line in (Path(rd)/'metrics.jsonl').read_text().splitlines():  # each epoch names every rank's peak memory (this CPU: its resident set)
        rec = json.loads(line)
        if rec.get('kind') == 'epoch': assert sorted(rec['peak_mem']) == [str(i) for i in range(world)] and min(rec['peak_mem'].values()) > 10, rec
    return records(rd)

def rel(a, b)->float:
    "Relative difference of two record values (0 for equal non-floats, inf for unequal ones)."
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b): return 0.0 if math.isnan(a) and math.isnan(b) else math.inf
        return abs(a - b) / max(abs(a), abs(b), 1e-12)
    return 0.0 if a == b else math.inf

def differs(got:list, ref:list, rtol:Optional[list]=None)->Optional[str]:
    "None when `got` equals `ref` (exactly, or within `rtol[i]` relative at record i); else the first difference, in one line."
    if len(got) != len(ref): return f'{len(got)} records, the reference has {len(ref)}'
    for i, (g, w) in enumerate(zip(got, ref)):
        if g.keys() != w.keys(): return f'record {i}: fields {sorted(g.keys() ^ w.keys())} differ'
        for k in w:
            d = rel(g[k], w[k])
            if d > (0.0 if rtol is None else rtol[i]):
                return f"record {i} ({w['kind']} step {w['step']}) {k}: {g[k]!r}, reference {w[k]!r} ({'exact' if rtol is None else f'rtol {rtol[i]:.1e}'})"
    return None

def drift(got:list, ref:list)->list:
    "Per record, the largest relative difference of its fields."
    return [max((rel(g[k], w[k]) for k in w), default=0.0) for g, w in zip(got, ref)]

def tolerance(gold:dict)->list:
    "Per record: SAFETY x the largest drift measured up to that record (rounding only grows), at least RTOL_FLOOR."
    rows, out, worst = list(gold.get('drift', {}).values()), [], 0.0
    for i in range(len(gold['records'])):
        worst = max([worst, *(r[i] for r in rows if i < len(r))])
        out.append(max(RTOL_FLOOR, SAFETY * worst))
    return out

def golden(case)->dict: return json.loads((GOLDEN/f'{GOLD.get(case, case)}.json').read_text())

def pinned_code(commit:str, root:Path)->Optional[Path]:
    "The `ntrain` package of `commit`, unpacked under `root` (git archive); None when this checkout does not hold the commit."
    out = root/commit
    if (out/'ntrain').is_dir(): return out
    r = subprocess.run(['git', '-C', str(REPO), 'archive', '--format=tar', commit, 'ntrain'], capture_output=True, timeout=60)
    if r.returncode: return None
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(r.stdout)) as tf: tf.extractall(out, filter='data')
    probe = subprocess.run([sys.executable, '-c', 'import ntrain; print(ntrain.__file__)'], cwd=out, env=dict(os.environ, PYTHONPATH=str(out)),
                           capture_output=True, text=True, timeout=60)
    assert probe.stdout.strip() == str(out/'ntrain'/'__init__.py'), f'the pinned code is not the one imported: {probe.stdout}{probe.stderr}'
    return out

_refs = {}  # golden name -> this machine's records of the pinned commit (made once per file)

def reference(case, root:Path)->Optional[list]:
    "The records of the golden's pinned commit, run on this machine; None without that commit here."
    name = GOLD.get(case, case)
    if name not in _refs:
        code = pinned_code(golden(case)['numerics_commit'], root/'code')
        _refs[name] = None if code is None else run(name, root/f'ref-{name}', code=code)
    return _refs[name]

@pytest.fixture(scope='module')
def ref_root(tmp_path_factory): return tmp_path_factory.mktemp('pinned')

@pytest.mark.parametrize('case', list(CASES))
def test_digits_matches_golden(case, tmp_path, ref_root):
    got = run(case, tmp_path/'run')
    if os.environ.get('NTRAIN_REGEN_GOLDEN') == '1' and case not in GOLD:
        dirty = subprocess.run(['git', '-C', str(REPO), 'status', '--porcelain', '--', 'ntrain'], capture_output=True, text=True).stdout.strip()
        assert not dirty, f'commit the code first: the golden pins the commit it is made at, and ntrain/ has changes:\n{dirty}'
        head = subprocess.run(['git', '-C', str(REPO), 'rev-parse', 'HEAD'], capture_output=True, text=True, check=True).stdout.strip()
        GOLDEN.mkdir(exist_ok=True)
        (GOLDEN/f'{case}.json').write_text(json.dumps(dict(command=['ntrain', *CASES[case][:1], *ARGS, *CASES[case][1:]], machine=machine(),
                                                           numerics_commit=head, records=got), indent=1) + '\n')
        pytest.skip(f'regenerated {case}.json (drift rows dropped: measure them again with python tests/test_golden.py --drift)')
    gold = golden(case)
    if gold['machine'] == machine():
        assert (d := differs(got, gold['records'])) is None, f'{d} (this is the golden\'s machine: compared exactly)'
        return
    ref = reference(case, ref_root)
    if ref is not None:
        assert (d := differs(got, ref)) is None, f"{d} (against the pinned commit {gold['numerics_commit'][:10]} run on this machine, exactly)"
    far = differs(got, gold['records'], tolerance(gold))
    where = f"golden made on {gold['machine']}, this is {machine()}"
    if ref is None:
        assert far is None, f'{far} ({where}; the pinned commit is not in this checkout, so the measured drift is the test)'
        warnings.warn(f"{where}: compared within the measured drift only; the pinned commit {gold['numerics_commit'][:10]} is not in this checkout")
    elif far is not None:
        warnings.warn(f'{where}: the numbers equal the pinned commit\'s, but this machine drifts from the golden beyond the measured '
                      f'envelope ({far}); add its drift: python tests/test_golden.py --drift')

@pytest.mark.parametrize('control', list(CONTROLS))
def test_negative_controls_fail(control, tmp_path, ref_root):
    "A rounding-level change to the numbers fails the exact comparison, on the golden's machine and elsewhere."
    extra, env = CONTROLS[control]
    gold = golden('digits_1proc')
    ref = gold['records'] if gold['machine'] == machine() else reference('digits_1proc', ref_root)
    if ref is None: pytest.skip(f"not the golden's machine and no pinned commit {gold['numerics_commit'][:10]} here: no exact reference")
    got = run('digits_1proc', tmp_path/'run', extra=extra, env=env)
    d = differs(got, ref)
    assert d is not None, f'{control} gave the same records as the reference: the exact comparison cannot see a change of this size'
    if control == 'reordered_sum':  # the learning rate is untouched: what differs is a loss or a gradient, by rounding alone
        first = next(i for i, (g, w) in enumerate(zip(got, ref)) if g != w)
        assert got[first]['lr'] == ref[first]['lr'] and max(drift(got, ref)[:first + 1]) < 1e-5, (d, got[first], ref[first])

def measure_drift(root:Path):
    "Run each golden case under rounding-only changes on this machine; merge each one's per-record drift into the golden file."
    import numpy as np
    variants = {'native': {}, 'aten_avx2': dict(ATEN_CPU_CAPABILITY='avx2'), 'aten_default': dict(ATEN_CPU_CAPABILITY='default'),
                'reordered_sum': dict(NTRAIN_TEST_REORDER='batch')}
    for case in [c for c in CASES if c not in GOLD]:
        path = GOLDEN/f'{case}.json'; gold = json.loads(path.read_text())
        for name, env in variants.items():
            if name == 'reordered_sum' and case != 'digits_1proc': continue
            d = drift(run(case, root/f'{case}-{name}', env=env), gold['records'])
            label = f"{machine()['cpu_flags']}/{machine()['cpu_capability']}/{name}"
            gold.setdefault('drift', {})[label] = [float(f'{x:.3g}') for x in d]
            print(f'{case} {label}: max {max(d):.2e}, at the last record {d[-1]:.2e}', flush=True)
        path.write_text(json.dumps(gold, indent=1) + '\n')
        print(f'{case}: tolerance per record {[f"{x:.0e}" for x in tolerance(gold)]}', flush=True)

if __name__ == '__main__' and sys.argv[1:] == ['--drift']:
    import tempfile
    with tempfile.TemporaryDirectory() as d: measure_drift(Path(d))
