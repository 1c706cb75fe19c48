"""Issue 33's bug classes (modes, not_updating, no_grad_params, ranks_diverged): broken and fixed programs, 5 seeds each.

Run by hand (not a test), from the repository root (~4 min on 2 shared cores):

    OMP_NUM_THREADS=1 PYTHONPATH=.:tests python bench/silent_bugs.py [--seeds 5] [--no-dist]

Each program is a full `ntrain.fit` (in process; the 2-process rows through `ntrain launch --nproc 2`, gloo), 3 epochs
of the tiny 4-class task (12 steps: `no_grad_params` judges a run shorter than 20 steps at its last step; the HF-style
task 24 steps), 2 epochs of each healthy program. A row's shapes: a plain model
(tensor batches), an HF-style model (dict batches, keyword arguments, an output object: `user_tasks.dict_batch`'s
shape) and a 2-process run. Outcomes:
- modes: the broken program's factory returns its model in eval mode (as `from_pretrained` does): right when every
  training forward ran in train mode and BatchNorm's `num_batches_tracked` counted every step; a stage frozen in the
  model's own `train()`: right when its weights did not move.
- checks: right when the run says the check's name (a `message` record with `check` at level warning, or a `failed`
  record naming `ranks_diverged`) and names the broken tensors; a false alarm is any check warning or check failure on
  a fixed or healthy program (the info report of exactly-zero gradients is not an alarm).
The healthy set is ntrain's own (digits, `ladder.user_tasks.USER_TASKS`, a drop-path model): issue 32's healthy
gallery was not committed when this was written. Writes bench/results/silent_bugs.json and prints the table.
"""
from __future__ import annotations
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
# SILENT_BUGS_NTRAIN=/path/to/another/checkout: its ntrain instead (the same programs before the change)
sys.path[:0] = [os.environ.get('SILENT_BUGS_NTRAIN', str(ROOT)), str(ROOT/'tests')]
import ntrain
from ntrain.ladder import user_tasks as ut
import checks_tasks as ct
from tasks_for_tests import tiny, D, C

OPTS = dict(num_workers=0, quiet=True, log_every=4, epochs=3)


# ---------------------------------------------------------------- HF-style twins (dict batches, keyword args, output object)
class HFLazyHead(ut.DictModel):
    def __init__(self, fixed=False):
        super().__init__()
        if not fixed: self.head = None
    def forward(self, features):
        if self.head is None: self.head = nn.Linear(32, C)
        return super().forward(features)

class HFDetached(ut.DictModel):
    def __init__(self, fixed=False): super().__init__(); self.fixed = fixed
    def forward(self, features):
        h = self.body(features)
        return ut.ClassifierOutput(logits=self.head(h if self.fixed else h.detach()), hidden=h)

class Watched(nn.Module):
    "Dropout and BatchNorm; counts training forwards and those in train mode."
    def __init__(self, hf=False):
        super().__init__(); self.hf = hf; self.forwards = self.in_train = 0
        self.net = nn.Sequential(nn.Linear(D, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, C))
    def forward(self, x=None, features=None):
        if torch.is_grad_enabled(): self.forwards += 1; self.in_train += self.training
        out = self.net(features if self.hf else x)
        return ut.ClassifierOutput(logits=out) if self.hf else out

class FreezesStem(nn.Module):
    def __init__(self, hf=False, fixed=False):
        super().__init__(); self.hf, self.fixed = hf, fixed; self.stem, self.head = nn.Linear(D, 32), nn.Linear(32, C)
    def train(self, mode=True):
        super().train(mode)
        if not self.fixed:
            for p in self.stem.parameters(): p.requires_grad_(False)
        return self
    def forward(self, x=None, features=None):
        out = self.head(torch.relu(self.stem(features if self.hf else x)))
        return ut.ClassifierOutput(logits=out) if self.hf else out


def _task(hf, model):
    t = ut.dict_batch() if hf else tiny()
    t.model = model; return t


def run(task, seed, tmp):
    recs = []
    r = ntrain.fit(task=task, seed=seed, run_dir=tmp, callbacks=[recs.append], **OPTS)
    alarms = [x for x in recs if x.get('check') and x.get('level') == 'warning']
    return r, alarms


def case_mode(hf, broken, seed, tmp):
    made = []
    def factory():
        m = Watched(hf); made.append(m); return m.eval() if broken else m
    r, alarms = run(_task(hf, factory), seed, tmp)
    m = made[-1]
    right = m.forwards == r.steps and m.in_train == m.forwards and int(m.net[1].num_batches_tracked) == r.steps
    return dict(right=right, alarm=bool(alarms), detail=f'{m.in_train}/{m.forwards} forwards in train mode')

def case_frozen(hf, broken, seed, tmp):
    made = []
    def factory():
        m = FreezesStem(hf, fixed=not broken); made.append((m, m.stem.weight.detach().clone())); return m
    r, alarms = run(_task(hf, factory), seed, tmp)
    m, w0 = made[-1]
    moved = not torch.equal(m.stem.weight, w0)
    return dict(right=(not moved) if broken else moved, alarm=bool(alarms), detail='stem moved' if moved else 'stem frozen')

def case_check(check, tensors, make):
    def case(hf, broken, seed, tmp):
        r, alarms = run(_task(hf, lambda: make(hf, not broken)), seed, tmp)
        hit = [a for a in alarms if a['check'] == check and set(a['tensors']) == set(tensors[hf])]
        right = bool(hit) and len(alarms) == 1 if broken else not alarms  # fixed: quiet is right
        return dict(right=right, alarm=bool(alarms), detail='; '.join(a['text'][:80] for a in alarms))
    return case

LAZY = lambda hf, fixed: HFLazyHead(fixed) if hf else ct.LazyHead(fixed)
DET = lambda hf, fixed: HFDetached(fixed) if hf else ct.Detached(fixed)
ROWS = {  # name: (case, shapes)
    'eval-mode factory (modes)': case_mode,
    'stage frozen in train() (modes)': case_frozen,
    'head made in forward (not_updating)': case_check('not_updating', {False: ['head.weight', 'head.bias'], True: ['head.weight', 'head.bias']}, LAZY),
    'detached stage (no_grad_params)': case_check('no_grad_params', {False: ['stem.0.weight', 'stem.0.bias'], True: ['body.0.weight', 'body.0.bias']}, DET),
}


def dist_case(broken, seed, tmp):
    env = dict(os.environ, OMP_NUM_THREADS='1', NTRAIN_DIST_TIMEOUT='60', NTRAIN_PLOTTER='0',
               PYTHONPATH=os.pathsep.join([str(ROOT/'tests'), str(ROOT), os.environ.get('PYTHONPATH', '')]))
    args = [sys.executable, '-m', 'ntrain', 'launch', 'digits', 'task=checks_tasks:drift', '--nproc', '2', 'epochs=3', 'num_workers=0',
            'log_every=4', 'progress=false', f'seed={seed}', f'run_dir={tmp}'] + ([] if broken else ['task_args.fixed=true'])
    p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    recs = [json.loads(l) for l in (Path(tmp)/'metrics.jsonl').read_text().splitlines()] if (Path(tmp)/'metrics.jsonl').exists() else []
    failed = [x for x in recs if x['kind'] == 'failed' and 'ranks_diverged' in x.get('reason', '')]
    alarms = [x for x in recs if x.get('check') and x.get('level') == 'warning'] + failed
    right = (bool(failed) and 'net.2.bias' in failed[0]['reason'] and p.returncode != 0) if broken else (p.returncode == 0 and not alarms)
    return dict(right=right, alarm=bool(alarms), detail=(failed[0]['reason'][:100] if failed else f'exit {p.returncode}'))


def healthy_programs():
    out = {'digits': lambda: ntrain.examples.digits()}
    for name, (f, keys) in ut.USER_TASKS.items(): out[name] = (lambda f=f, keys=keys: (f(), keys))
    out['drop_path'] = lambda: ct.drop_path(n_train=1024)  # 32 steps in 2 epochs: past no_grad_params' 20
    return out

TASK_KEYS = {'model', 'train', 'valid', 'loss', 'metrics', 'num_classes', 'forward', 'collate_fn', 'count_items', 'prediction', 'ignore_index'}

def gallery_programs(path):
    "issue 32's HEALTHY programs as fit takes them: the Task's keys, then config keys; the ladder-only `optimizer`/`step` left out."
    import importlib.util
    spec = importlib.util.spec_from_file_location('ladder_gallery', path); mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    def make(f, seed):
        kw = f(seed)
        from ntrain.data import Task
        task = Task(**{k: v for k, v in kw.items() if k in TASK_KEYS}, name=f.__name__)
        keys = {k: v for k, v in kw.items() if k not in TASK_KEYS | {'optimizer', 'step', 'seed'}}
        return task, keys
    return {f'gallery:{n}': (lambda f=f: (lambda seed: make(f, seed))) for n, f in mod.HEALTHY.items()}

def healthy_case(make, seed, tmp):
    got = make()
    if callable(got): got = got(seed)  # (a gallery program takes its seed)
    t, keys = got if isinstance(got, tuple) else (got, {})
    recs = []
    r = ntrain.fit(task=t, seed=seed, run_dir=tmp, callbacks=[recs.append], **{**OPTS, 'epochs': 2, **keys})
    alarms = [x for x in recs if x.get('check') and x.get('level') == 'warning']
    return dict(alarm=bool(alarms) or r.status == 'failed', steps=r.steps, detail='; '.join(a['text'][:100] for a in alarms))


def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--seeds', type=int, default=5); ap.add_argument('--no-dist', action='store_true')
    ap.add_argument('--rows', default='', help='only the rows whose name holds this text; no healthy set')
    ap.add_argument('--out', default='silent_bugs.json'); ap.add_argument('--first-seed', type=int, default=0)
    ap.add_argument('--gallery', default='', help="issue 32's healthy gallery (bench/ladder_gallery.py of its branch): its HEALTHY programs too")
    a = ap.parse_args()
    torch.set_num_threads(1)
    seeds, res, t0 = range(a.first_seed, a.first_seed + a.seeds), dict(rows=[], healthy=[]), time.time()
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        for name, case in ROWS.items():
            if a.rows and a.rows not in name: continue  # ('gallery-only': no row)
            for hf in (False, True):
                for broken in (True, False):
                    outs = [case(hf, broken, s, d/f'{len(res["rows"])}_{s}') for s in seeds]
                    res['rows'].append(dict(row=name, shape='HF-style' if hf else 'plain', program='broken' if broken else 'fixed',
                                            right=sum(o['right'] for o in outs), alarms=sum(o['alarm'] for o in outs), n=len(outs),
                                            details=sorted({o['detail'] for o in outs})))
                    print(res['rows'][-1], flush=True)
        if not a.no_dist and not a.rows:
            for broken in (True, False):
                outs = [dist_case(broken, s, d/f'dist_{broken}_{s}') for s in seeds]
                res['rows'].append(dict(row='ranks that drift (ranks_diverged)', shape='2 processes', program='broken' if broken else 'fixed',
                                        right=sum(o['right'] for o in outs), alarms=sum(o['alarm'] for o in outs), n=len(outs),
                                        details=sorted({o['detail'] for o in outs})))
                print(res['rows'][-1], flush=True)
        progs = {} if a.rows else healthy_programs()
        if a.gallery: progs = gallery_programs(a.gallery) if a.rows == 'gallery-only' else {**progs, **gallery_programs(a.gallery)}
        for name, make in progs.items():
            try: outs = [healthy_case(make, s, d/f'h_{name}_{s}') for s in seeds]
            except Exception as e:  # a gallery program written for the ladder that fit does not take as it is: not counted
                res['healthy'].append(dict(program=name, error=ntrain.core.first_line(e)[:200])); print(res['healthy'][-1], flush=True); continue
            res['healthy'].append(dict(program=name, alarms=sum(o['alarm'] for o in outs), n=len(outs), steps=outs[0]['steps'],
                                       details=sorted({o['detail'] for o in outs if o['detail']})))
            print(res['healthy'][-1], flush=True)
    res.update(seconds=round(time.time() - t0, 1), torch=torch.__version__, command=' '.join(sys.argv), ntrain=ntrain.__file__)
    (ROOT/'bench'/'results'/a.out).write_text(json.dumps(res, indent=1) + '\n')
    print('\n| bug class | shape | program | right outcome | check alarms (false on fixed) |\n|---|---|---|---|---|')
    for r in res['rows']:
        print(f"| {r['row']} | {r['shape']} | {r['program']} | {r['right']}/{r['n']} | {r['alarms']}/{r['n']} |")
    print('\n| healthy program | alarms |\n|---|---|')
    for r in res['healthy']: print(f"| {r['program']} | not run: {r['error']} |" if 'error' in r else f"| {r['program']} | {r['alarms']}/{r['n']} |")


if __name__ == '__main__':
    main()
