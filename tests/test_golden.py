"""Numerics are sacred: today's digits runs against a golden copy of their metrics, on 1 and 2 processes.

The golden files hold the non-timing fields of every `step` and `epoch` record of metrics.jsonl for
`ntrain fit digits deterministic=true epochs=4` and for the same config under `ntrain launch --nproc 2`, with the
torch version and CPU capability they were made with. Where both match this machine, the records must be equal
exactly; elsewhere (another torch or another CPU kernel set) to 1e-6 relative, and the test says so.

Regenerate (only for a change that is meant to move the numbers, with its own reason and note):
    NTRAIN_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
"""
import json, math, os, subprocess, sys, warnings
from pathlib import Path
import pytest
import torch
from ntrain.events import MEASURED

GOLDEN = Path(__file__).parent/'golden'
TIMING = set(MEASURED)  # measurements, not numerics
ARGS = ['digits', 'deterministic=true', 'epochs=4']
CASES = {'digits_1proc': ['fit'], 'digits_2proc': ['launch', '--nproc', '2'], 'digits_2proc_fresh': ['launch', '--nproc', '2']}
# `ntrain launch` forks its ranks from the launcher where torch is a CPU build; NTRAIN_FORK_WORKERS=0 starts them as
# fresh `python -m ntrain` processes. Both must give the same numbers: one golden file.
GOLD = {'digits_2proc_fresh': 'digits_2proc'}
ENV = {'digits_2proc_fresh': dict(NTRAIN_FORK_WORKERS='0')}
RTOL = 1e-6

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

def run(case, rd):
    verb, *flags = CASES[case]
    env = dict(os.environ, OMP_NUM_THREADS='1', PYTHONUNBUFFERED='1', NTRAIN_DIST_TIMEOUT='60')
    env.pop('NTRAIN_FORK_WORKERS', None); env.update(ENV.get(case, {}))
    r = subprocess.run([sys.executable, '-m', 'ntrain', verb, *ARGS, f'run_dir={rd}', *flags], env=env,
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

def close(a, b)->bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b): return math.isnan(a) and math.isnan(b)
        return abs(a - b) <= RTOL * max(abs(a), abs(b), 1e-12)
    return a == b

@pytest.mark.parametrize('case', list(CASES))
def test_digits_matches_golden(case, tmp_path):
    got = run(case, tmp_path/'run')
    path = GOLDEN/f'{GOLD.get(case, case)}.json'
    if os.environ.get('NTRAIN_REGEN_GOLDEN') == '1' and case not in GOLD:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(dict(command=['ntrain', *CASES[case][:1], *ARGS, *CASES[case][1:]], machine=machine(),
                                        records=got), indent=1) + '\n')
        pytest.skip(f'regenerated {path.name}')
    gold = json.loads(path.read_text())
    exact = gold['machine'] == machine()
    assert len(got) == len(gold['records']), f"{len(got)} records, golden has {len(gold['records'])}"
    for i, (g, w) in enumerate(zip(got, gold['records'])):
        assert g.keys() == w.keys(), f'record {i}: fields {sorted(g.keys() ^ w.keys())} differ'
        for k in w:
            ok = g[k] == w[k] if exact else close(g[k], w[k])
            assert ok, f"record {i} ({w['kind']} step {w['step']}) {k}: {g[k]!r}, golden {w[k]!r} ({'exact' if exact else f'rtol {RTOL}'})"
    if not exact:
        warnings.warn(f"golden {case} was made on {gold['machine']}, this is {machine()}: compared to {RTOL} relative, not exactly")
