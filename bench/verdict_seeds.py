"""False passes and false fails of rung 1's and rung 3's newer judgements over seeds (issue 21, parts 3 and 4), by hand:

    OMP_NUM_THREADS=1 python bench/verdict_seeds.py [SEEDS] [OUT.json]

Each judgement has broken cases (the cause must be named: a miss is a false pass), healthy ones (the cause must not be
named: a false fail) and borderline ones (`None`: a learning rate that fails some seeds; when the rung fails, the cause
must be named). Writes every run's verdict, causes, and whether `loss_rose` would flag its whole curve."""
import json, math, sys, tempfile, time
import torch
torch.set_num_threads(1)
from ntrain.ladder import ladder
from ntrain.ladder.overfit import loss_rose
from ntrain.ladder import gallery as g
from ntrain.ladder.user_tasks import USER_TASKS

SEEDS = range(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
OUT = sys.argv[2] if len(sys.argv) > 2 else 'bench/results/verdict_seeds.json'
M9 = 'optim.kwargs={momentum: 0.9}'
# judgement: [(case, broken?, ladder kwargs, rungs, the rung judged)]
CASES = {
    'lr_high': [('sgd m0.9 lr 10', True, dict(overrides=['optim.name=sgd', 'optim.lr=10', M9]), '3', 3),
                ('adam lr 10', True, dict(overrides=['optim.name=adam', 'optim.lr=10']), '3', 3),
                ('sgd m0.9 lr 1 (borderline)', None, dict(overrides=['optim.name=sgd', 'optim.lr=1', M9]), '3', 3),
                ('digits (adamw 3e-3)', False, {}, '3', 3),
                ('sgd m0.9 lr 0.1 (noisy)', False, dict(overrides=['optim.name=sgd', 'optim.lr=0.1', M9]), '3', 3),
                ('adamw lr 0.03 (spiky)', False, dict(overrides=['optim.lr=0.03']), '3', 3),
                ('lr 1e-5 (slow)', False, dict(overrides=['optim.lr=1e-5']), '3', 3),
                ('lr 0', False, dict(overrides=['optim.lr=0']), '3', 3)],
    'zero_grad': [('adamw: no zero_grad', True, dict(step=g.step_no_zero_grad), '3', 3),
                  ('sgd m0.9: no zero_grad', True, dict(step=g.step_no_zero_grad, overrides=['optim.name=sgd', 'optim.lr=0.1', M9]), '3', 3),
                  ('adamw: step_ok', False, dict(step=g.step_ok), '3', 3),
                  ('adamw: zero_grad after', False, dict(step=g.step_zero_grad_after), '3', 3),
                  ('sgd m0.9: step_ok', False, dict(step=g.step_ok, overrides=['optim.name=sgd', 'optim.lr=0.1', M9]), '3', 3),
                  ('sgd m0.9: zero_grad after', False, dict(step=g.step_zero_grad_after, overrides=['optim.name=sgd', 'optim.lr=0.1', M9]), '3', 3)],
    'nondeterministic': [('unseeded', True, dict(overrides=['task=ntrain.ladder.gallery:unseeded']), '3', 3),
                         ('digits', False, {}, '3', 3), ('dropout', False, dict(overrides=['task=ntrain.ladder.gallery:dropout']), '3', 3),
                         ('eval_ignored (seeded dropout)', False, dict(overrides=['task=ntrain.ladder.gallery:eval_ignored']), '3', 3)]
                        + [(f'user task {k}', False, dict(task=k), '3', 3) for k in USER_TASKS],
    'eval_mode': [('eval_ignored', True, dict(overrides=['task=ntrain.ladder.gallery:eval_ignored']), '1', 1),
                  ('digits', False, {}, '1', 1), ('dropout', False, dict(overrides=['task=ntrain.ladder.gallery:dropout']), '1', 1)]
                 + [(f'user task {k}', False, dict(task=k), '1', 1) for k in USER_TASKS],
}
# the table test's shorter budget: the same verdicts at 100 steps as at 300?
for steps in (100, 300):
    CASES[f'table rows at overfit_steps={steps}'] = [
        ('zero_grad', True, dict(step=g.step_no_zero_grad, settings=dict(overfit_steps=steps)), '3', 3, 'zero_grad'),
        ('frozen', True, dict(overrides=['task=ntrain.ladder.gallery:frozen'], settings=dict(overfit_steps=steps)), '3', 3, 'frozen'),
        ('lr 1e-7', True, dict(overrides=['optim.lr=1e-7'], settings=dict(overfit_steps=steps)), '3', 3, 'lr_low'),
        ('sgd m0.9 lr 10', True, dict(overrides=['optim.name=sgd', 'optim.lr=10', M9], settings=dict(overfit_steps=steps)), '3', 3, 'lr_high'),
        ('adam lr 10', True, dict(overrides=['optim.name=adam', 'optim.lr=10'], settings=dict(overfit_steps=steps)), '3', 3, 'lr_high')]

def run(kw, seed, rungs):
    kw = dict(kw); ov = list(kw.pop('overrides', [])) + [f'seed={seed}']
    if 'task' in kw:
        make, keys = USER_TASKS[kw.pop('task')]
        return ladder(task=make(), rungs=rungs, force=True, run_dir=tempfile.mkdtemp(), write=False, seed=seed, **keys, **kw)
    return ladder('digits', ov, rungs=rungs, force=True, run_dir=tempfile.mkdtemp(), write=False, **kw)

rows, summary = [], {}
for judgement, cases in CASES.items():
    for case in cases:
        name, broken, kw, rungs, k = case[:5]
        cause = case[5] if len(case) > 5 else judgement
        s = summary.setdefault(judgement, dict(broken_runs=0, false_pass=0, healthy_runs=0, false_fail=0, healthy_curve_flagged=0,
                                               borderline_runs=0, borderline_failed=0, borderline_failed_unnamed=0))
        for seed in SEEDS:
            t = time.time(); res = run(kw, seed, rungs); r = res.rung(k)
            named = cause in r.causes
            loss = r.series.get('loss') or []
            row = dict(judgement=judgement, case=name, broken=broken, seed=seed, verdict=r.verdict, causes=r.causes,
                       seconds=round(time.time() - t, 2), steps=r.numbers.get('steps'), repeat=r.numbers.get('repeat'),
                       keeps_gradients=r.numbers.get('keeps_gradients'), suggested_lr=r.numbers.get('suggested_lr'),
                       rose_on_whole_curve=loss_rose(loss) if loss else None, too_low_said='too low' in r.diagnosis)
            if broken is None:
                s['borderline_runs'] += 1
                if r.verdict == 'fail': s['borderline_failed'] += 1; s['borderline_failed_unnamed'] += not named
            elif broken:
                s['broken_runs'] += 1; s['false_pass'] += not named
            else:
                s['healthy_runs'] += 1; s['false_fail'] += named
                if judgement == 'lr_high' and row['rose_on_whole_curve']: s['healthy_curve_flagged'] += 1
            if judgement == 'lr_high' and loss and loss_rose(loss) and row['too_low_said']: s.setdefault('too_low_on_a_rise', 0); s['too_low_on_a_rise'] += 1
            rows.append(row)
            print(json.dumps(row), flush=True)
json.dump(dict(command=' '.join(['python'] + sys.argv), torch=torch.__version__, summary=summary, rows=rows), open(OUT, 'w'), indent=1)
print(json.dumps(summary, indent=1))
