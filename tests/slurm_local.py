"""A local one-node Slurm for the tests (tests/test_slurm.py): munged, slurmctld and slurmd started as root, without systemd,
from a slurm.conf in a directory of its own (`SLURM_CONF` points the client commands at it). By hand:
`python tests/slurm_local.py DIR` starts it and prints the `export SLURM_CONF=...` line; `python tests/slurm_local.py DIR --stop` ends it."""
import os, shutil, signal, socket, subprocess, sys, time
from pathlib import Path

DAEMONS = ('munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scontrol', 'scancel')

def missing()->list:
    "What this machine lacks to run a local Slurm: root, or the packages' commands."
    out = [] if os.geteuid() == 0 else ['root (the daemons run as root)']
    out += [d for d in DAEMONS if not shutil.which(d) and not Path('/usr/sbin', d).exists()]
    return out

def _free_port()->int:
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def _conf(d:Path)->str:
    node = subprocess.run(['slurmd', '-C'], capture_output=True, text=True, timeout=30).stdout.splitlines()[0]
    # RealMemory above what the machine has marks the node INVAL: ask for a little less than slurmd -C saw. The node says it has
    # 8 cores (config_overrides): a job that mostly sleeps (the time-limit test's) runs beside the others on a 2-core machine
    over = dict(CPUs='8', Boards='1', SocketsPerBoard='1', CoresPerSocket='8', ThreadsPerCore='1')
    words = [f"RealMemory={int(int(w.split('=')[1]) * 0.9)}" if w.startswith('RealMemory=') else
             f"{w.split('=')[0]}={over[w.split('=')[0]]}" if w.split('=')[0] in over else w for w in node.split()]
    name = words[0].split('=')[1]
    return '\n'.join([
        'ClusterName=ntraintest', f'SlurmctldHost={name}(127.0.0.1)', 'SlurmUser=root', 'SlurmdUser=root',
        f'SlurmctldPort={_free_port()}', f'SlurmdPort={_free_port()}', 'AuthType=auth/munge', 'AuthInfo=cred_expire=10',
        f'StateSaveLocation={d}/state', f'SlurmdSpoolDir={d}/spool', f'SlurmctldPidFile={d}/slurmctld.pid', f'SlurmdPidFile={d}/slurmd.pid',
        f'SlurmctldLogFile={d}/slurmctld.log', f'SlurmdLogFile={d}/slurmd.log',
        'ProctrackType=proctrack/linuxproc', 'TaskPlugin=task/none', 'SelectType=select/cons_tres', 'SelectTypeParameters=CR_Core',
        'MpiDefault=none', 'JobRequeue=1', 'SlurmdParameters=config_overrides', 'ReturnToService=2', 'KillWait=30', 'MinJobAge=600', 'SchedulerType=sched/backfill',
        'SchedulerParameters=sched_interval=2', 'InactiveLimit=0', 'SlurmdTimeout=300', 'JobCompType=jobcomp/filetxt',
        f'JobCompLoc={d}/jobcomp.txt', ' '.join(words), f'PartitionName=debug Nodes={name} Default=YES MaxTime=INFINITE State=UP', ''])

def _munge_ok()->bool:
    try: return subprocess.run('munge -n | unmunge', shell=True, capture_output=True, timeout=10).returncode == 0
    except subprocess.TimeoutExpired: return False

def start(d)->dict:
    "Start munged (when none answers), slurmctld and slurmd from a slurm.conf in `d`; the environment the clients need."
    d = Path(d); (d/'state').mkdir(parents=True, exist_ok=True); (d/'spool').mkdir(exist_ok=True)
    (d/'slurm.conf').write_text(_conf(d))
    env = dict(os.environ, SLURM_CONF=str(d/'slurm.conf'))
    if not _munge_ok():
        Path('/run/munge').mkdir(parents=True, exist_ok=True); shutil.chown('/run/munge', 'munge', 'munge')
        subprocess.run(['runuser', '-u', 'munge', '--', 'munged', '--force'], check=True, timeout=30)
        (d/'munged-started').write_text('')  # stop() ends it again
        for _ in range(50):
            if _munge_ok(): break
            time.sleep(0.1)
    procs = [subprocess.Popen([name, '-D', *extra, '-f', str(d/'slurm.conf')], env=env, stdout=subprocess.DEVNULL,
                              stderr=open(d/f'{name}.err', 'ab'), start_new_session=True)
             for name, extra in (('slurmctld', ['-i']), ('slurmd', []))]
    (d/'pids').write_text(' '.join(str(p.pid) for p in procs)); (d/'started').write_text(repr(time.time()))
    t0 = time.monotonic()
    while time.monotonic() - t0 < 60:
        r = subprocess.run(['sinfo', '-h', '-o', '%T'], env=env, capture_output=True, text=True, timeout=30)
        if r.stdout.strip() == 'idle': return env
        if any(p.poll() is not None for p in procs): break  # a daemon refused its configuration
        time.sleep(0.5)
    stop(d)
    raise RuntimeError(f'the local Slurm did not come up idle: sinfo says {r.stdout.strip() or r.stderr.strip()}; see {d}/*.log')

def stop(d):
    "End the slurmctld and slurmd started from `d`, and munged if `start` started it."
    d = Path(d)
    try: pids = [int(p) for p in (d/'pids').read_text().split()]
    except OSError: return
    env = dict(os.environ, SLURM_CONF=str(d/'slurm.conf'))
    subprocess.run(['scancel', '--user=root', '--full'], env=env, capture_output=True, timeout=30)
    t0 = time.monotonic()  # the jobs stop (SIGTERM: each saves) and leave; KillWait is 30 s
    while time.monotonic() - t0 < 45:
        r = subprocess.run(['squeue', '-h', '-o', '%i'], env=env, capture_output=True, text=True, timeout=30)
        if r.returncode or not r.stdout.strip(): break
        time.sleep(0.5)
    for p in pids:
        try: os.killpg(p, signal.SIGTERM)
        except ProcessLookupError: pass
    t0 = time.monotonic()
    while time.monotonic() - t0 < 15 and any(Path(f'/proc/{p}').exists() and 'Z' not in Path(f'/proc/{p}/stat').read_text().split(')')[1][:3] for p in pids):
        time.sleep(0.1)
    for p in pids:
        try: os.killpg(p, signal.SIGKILL)
        except ProcessLookupError: pass
        try: os.waitpid(p, 0)  # (our child, when started by this process: reaped)
        except ChildProcessError: pass
    since = float((d/'started').read_text()) if (d/'started').exists() else time.time()
    for proc in Path('/proc').glob('[0-9]*'):  # a job step's daemon outlives slurmd: the ones this cluster left are ended too
        try:
            if proc.joinpath('cmdline').read_bytes().startswith(b'slurmstepd:') and proc.stat().st_mtime >= since - 1:
                os.kill(int(proc.name), signal.SIGKILL)
        except (OSError, ValueError): pass
    (d/'pids').unlink(missing_ok=True)
    if (d/'munged-started').exists():  # the munged start() started (one that answered before stays)
        try: os.kill(int(Path('/run/munge/munged.pid').read_text()), signal.SIGTERM)
        except (OSError, ValueError): pass
        (d/'munged-started').unlink()

if __name__ == '__main__':
    if '--stop' in sys.argv: stop(sys.argv[1])
    else: print(f"export SLURM_CONF={start(sys.argv[1])['SLURM_CONF']}")
