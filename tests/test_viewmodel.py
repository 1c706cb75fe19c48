"""The view-models fed recorded record streams (no widgets): the badges, the progress, the stale heartbeat, a resume."""
import json, time
from pathlib import Path
import ntrain
from ntrain.notebook.viewmodel import LadderView, RunView, runs, status_line

def recorded_ladder(tmp_path, **kw):
    "A real ladder's record stream (digits, rungs 1-3), as the callbacks receive it."
    recs = []
    ntrain.ladder('digits', rungs='1-3', run_dir=tmp_path/'lad', callbacks=[recs.append], **kw)
    return recs

def test_ladder_view_from_a_real_stream(tmp_path):
    recs = recorded_ladder(tmp_path)
    v = LadderView(dict(lr=0.003)); v.begin()
    seen = []
    for r in recs:
        v.apply(r)
        if r['kind'] == 'rung_step': seen.append(v.to_dict()['rungs'][2]['verdict'])
    st = v.to_dict()
    assert set(seen) == {'running'} and len(seen) == len(st['series']['rung3']['loss']) > 5
    assert [r['verdict'] for r in st['rungs']] == ['pass', 'pass', 'pass', 'not run', 'not run']
    assert st['rungs'][2]['numbers']['final_loss'] < st['series']['rung3']['target'] * 1.0001
    assert not st['busy'] and st['running'] is None

def test_ladder_view_fail_and_stop(tmp_path):
    # a rung that fails shows fail and its diagnosis; a stop leaves the running rung stopped
    v = LadderView(); v.begin()
    for r in [dict(kind='ladder_start', rungs=[1, 3]), dict(kind='rung_start', rung=3),
              dict(kind='rung_end', rung=3, result=dict(verdict='fail', numbers={}, diagnosis='the learning rate is 0', causes=['lr_zero']))]:
        v.apply(r)
    assert v.to_dict()['rungs'][2]['verdict'] == 'fail' and 'learning rate' in v.to_dict()['rungs'][2]['diagnosis']
    v.apply(dict(kind='rung_start', rung=4)); v.end('Stop button')
    assert v.to_dict()['rungs'][3]['verdict'] == 'stopped'

def test_run_view_from_a_real_run_with_a_resume(tmp_path):
    rd = tmp_path/'run'
    ntrain.fit('digits', epochs=2, run_dir=rd, quiet=True, log_every=1, ckpt_every=5, max_steps=12)
    recs = [json.loads(l) for l in (rd/'metrics.jsonl').read_text().splitlines()]
    v = RunView()
    for r in recs: v.apply(r)
    v.heartbeat(json.loads((rd/'status.json').read_text()), running=False, outcome=dict(status='finished', exit_code=0))
    d = v.to_dict()
    assert d['state'] == 'finished' and d['step'] == 12 and d['total_steps'] and d['eta_s'] is None
    assert len(d['curves']['step']) == 12 and d['monitor'] == 'val_acc' and d['restarts'] == 0
    # a resume record rewinds the curves to the records that stay and counts a restart
    keep = next(i for i, r in enumerate(recs) if r['kind'] == 'step' and r['step'] == 5) + 1
    v.apply(dict(kind='resume', records=keep, step=5, epoch=0, total_steps=d['total_steps'], monitor='val_acc', generation=1, time=time.time()))
    assert v.curves['step'][-1] == 5 and v.restarts == 1

def test_stale_heartbeat_and_eta():
    v = RunView(stale_s=30)
    v.apply(dict(kind='start', total_steps=100, epochs=1, time=0.0, step=0))
    for s in range(1, 11): v.apply(dict(kind='step', step=s, epoch=0, loss=1.0, time=float(s)))
    v.heartbeat(dict(state='running', step=10, progress_time=10.0), running=True)
    assert v.to_dict(now=11.0)['eta_s'] == 90.0 and v.state_at(11.0) == 'running'
    d = v.to_dict(now=100.0)
    assert d['state'] == 'running' and d['stale_for'] == 90 and 'no progress for 90 s' in status_line(d)  # stale is not a state
    v.heartbeat(dict(state='running', step=10, progress_time=10.0), running=False)   # the process is gone, nothing says how it ended
    assert v.state_at(100.0) == 'lost' and v.to_dict(now=100.0)['stale_for'] is None

def test_runs_reads_files_only(tmp_path):
    (tmp_path/'evil').mkdir()
    (tmp_path/'evil'/'config.yaml').write_text('task: os:system\ntask_args: {command: "touch PWNED"}\n')
    (tmp_path/'evil'/'status.json').write_text(json.dumps(dict(state='finished', step=3, updated=1.0)))
    rl = runs(tmp_path)
    assert [r['state'] for r in rl] == ['finished'] and not (tmp_path/'PWNED').exists()
    assert 'evil' in rl._repr_markdown_()

def test_runs_leaves_out_a_speed_checks_own_runs(tmp_path):
    # the panel's Speed check and `ntrain speed` train trials in a run directory of their own: not a run of the user's
    for d, st in (('lad', dict(state='finished', reason='epochs')), ('lad/speed-20261203-101010', dict(state='finished', reason='max_steps')),
                  ('digits-speed', dict(state='running')), ('other', dict(state='stopped', reason='SIGTERM'))):
        (tmp_path/d).mkdir(parents=True); (tmp_path/d/'status.json').write_text(json.dumps(dict(st, updated=1.0)))
    (tmp_path/'other'/'speed.json').write_text('{}')  # a speed check named by the user, known by its speed.json
    (tmp_path/'lad'/'ladder.json').write_text('{}')
    assert [r['name'] for r in runs(tmp_path)] == ['lad']
