"""The panels without a browser: buttons clicked in code, badges and numbers asserted, the live plot's growth, a broken
gallery task, Stop, one run at a time, and the dashboard following a real 2-process run to its end. Also: no notebook
in nbs/ holds widget state."""
import json, os, subprocess, sys, time
from pathlib import Path
import pytest
import ntrain
from ntrain.launch import launch
from strip_widgets import widget_state

ROOT = Path(__file__).resolve().parents[1]

def until(cond, timeout=120, what='condition', every=0.02):
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout: raise AssertionError(f'{what}: not after {timeout} s')
        time.sleep(every)

def badge(lad, k): return lad.w[f'badge{k}'].value

def test_no_notebook_in_nbs_holds_widget_state():
    bad = {str(p.relative_to(ROOT)): w for p in sorted((ROOT/'nbs').rglob('*.ipynb')) if '.ipynb_checkpoints' not in p.parts
           and (w := widget_state(json.loads(p.read_text())))}
    assert not bad, f'widget state in committed notebooks (run python tests/strip_widgets.py on them): {bad}'

def test_run_buttons_live_plot_and_one_run_at_a_time(tmp_path):
    # a low lr makes rung 3 take a few seconds (~200 steps): at the panel's own pace (at most 4 redraws a second, within 5%
    # of the rung's wall time) its plot must be redrawn at least twice while it runs, each time rung 3's own curve
    lad = ntrain.Ladder('digits', ['optim.lr=0.0002'], run_dir=tmp_path/'lad')
    lad.show()
    lad.w['run3'].click()                                           # rung 3 runs 1-2 first (no fresh pass yet)
    seen = []
    until(lambda: lad.state['rungs'][2]['verdict'] == 'running', 60, 'rung 3 running')
    lad.w['run14'].click()                                          # a second run is refused in one line
    assert lad.state['notice'].startswith('refused: a run is going on') and '\n' not in lad.state['notice']
    while lad.busy:
        st = lad.state
        if st['rungs'][2]['verdict'] == 'running' and st['plot']['redraws']:
            p = st['plot']; seen.append((p['what'], p['redraws'], p['step']))
            assert p['what'] == 'rung3' and (p['step'] is None or p['step'] <= len(st['series']['rung3']['step'])), (p, len(st['series']['rung3']['step']))
        time.sleep(0.02)
    lad.wait(60)
    draws = sorted({s for s in seen if s[2]})
    assert len(draws) >= 2 and draws[-1][2] > draws[0][2], f'the plot grew {draws} times while rung 3 ran'
    p = lad.state['plot']
    assert p['what'] == 'rung3' and p['step'] == lad.state['series']['rung3']['step'][-1] and f"data-draws='{p['redraws']}'" in lad.w['state'].value
    assert [r['verdict'] for r in lad.state['rungs']][:3] == ['pass'] * 3
    assert "data-verdict='pass'" in badge(lad, 3) and 'final loss' in lad.w['info3'].value  # every number, in the row's details
    assert lad.state['rungs'][2]['summary'].startswith('loss ') and ' steps on ' in lad.state['rungs'][2]['summary']
    # re-running rung 4 alone keeps 1-3; an edit of lr makes them stale
    lad.w['run4'].click(); lad.wait(120)
    assert [r.rung for r in lad.result.rungs] == [1, 2, 3, 4] and lad.result.rung(4).verdict == 'pass'
    lad.w['lr'].value = '0.001'
    assert "data-stale='1'" in badge(lad, 3) and lad.state['settings']['lr'] == 0.001

def test_broken_gallery_task_shows_fail_and_its_diagnosis(tmp_path):
    lad = ntrain.Ladder('digits', task='ntrain.ladder.gallery:frozen', run_dir=tmp_path/'lad')
    lad.show(); lad.w['run14'].click(); lad.wait(180)
    st = lad.state
    assert [r['verdict'] for r in st['rungs']][:4] == ['pass', 'pass', 'fail', 'refused'], [r['verdict'] for r in st['rungs']]
    assert "data-verdict='fail'" in badge(lad, 3) and 'frozen' in ' '.join(st['rungs'][2]['causes'])
    assert 'ntrain-diagnosis' in lad.w['info3'].value and 'could not overfit' in lad.w['info3'].value
    assert 'refused' in st['rungs'][3]['diagnosis']

def test_stop_leaves_the_rung_stopped(tmp_path):
    lad = ntrain.Ladder('digits', ['optim.lr=0.0001'], run_dir=tmp_path/'lad')
    lad.show(); lad.w['run14'].click()
    until(lambda: len(lad.state['series']['rung3']['loss']) > 3, 60, 'rung 3 under way')
    t0 = time.monotonic(); lad.w['stop'].click(); lad.wait(60)
    assert time.monotonic() - t0 < 30  # a loaded 2-core machine: seconds, not the rung's whole length
    st = lad.state
    assert st['rungs'][2]['verdict'] == 'stopped' and st['rungs'][3]['verdict'] == 'not run', [r['verdict'] for r in st['rungs']]
    assert "data-verdict='stopped'" in badge(lad, 3)

def test_dashboard_follows_a_real_two_process_run_to_its_end(tmp_path):
    h = launch('digits', ['epochs=3'], nproc=2, run_dir=tmp_path/'run', wait=False, env=dict(NTRAIN_DIST_TIMEOUT='60'))
    db = ntrain.dashboard(h)
    assert ntrain.dashboard(h) is db
    res = db.wait(timeout=240)
    st = db.state
    logs = '\n'.join(p.read_text()[-2000:] for p in sorted((tmp_path/'run').rglob('*.log')))
    assert res.status == 'finished' and st['state'] == 'finished', logs
    assert st['progress'] == 1.0 and len(st['curves']['epoch']) == 3 and st['restarts'] == 0
    assert db.w['bar'].value == 1.0 and "data-state='finished'" in db.w['title'].value
    p = st['plot']
    assert db.card and 'Best val' in db.card and p['what'] == 'run' and p['redraws'] >= 1 and db.png[:4] == b'\x89PNG'
    assert p['step'] == st['curves']['epoch_step'][-1] == st['total_steps'] and not p['as_of'], p  # the final picture: the last step
    assert f"data-plot-what='run' data-plot-step='{p['step']}' data-draws='{p['redraws']}'" in db.w['title'].value
    assert 'rank0' in db.w['logs'].value and 'rank1' in db.w['logs'].value
    assert db.w['stop'].disabled and db.w['resume'].disabled

# --- words for users: internal names never reach the screen -------------------------------------------------------------
# every name here is ntrain's own (a class, a method, a file, a record's raw reason) or a figure no person should read
INTERNAL = ('stop file', 'Launch.kill', 'Launch.stop', 'ThreadRun', 'stop requested on another rank', 'every rank', 'stop token',
            'x its first value', 'KeyboardInterrupt', 'early_stopped', 'non_finite', 'None', 'torchrun exit None')

def seen(*htmls)->str:
    "What a reader sees of widget HTML: the text, without tags, attributes or styles."
    import html, re
    return html.unescape(re.sub(r'<[^>]+>', ' ', re.sub(r'<style>.*?</style>', ' ', ' '.join(htmls), flags=re.S)))

def dashboard_text(db)->str:
    w = db.w
    return seen(w['title'].value, w['bar_text'].value, w['stats'].value, w['notice'].value, w['fresh'].value) + ' ' + (db.card or '')

def internal(text:str)->list: return [n for n in INTERNAL if n in text]

def fake_run(d:Path, state:str, reason:str, stop_line=None)->Path:
    "A run directory as a launched run leaves it (its launcher long gone), with a stop file's line when given."
    recs = [dict(kind='start', epochs=2, total_steps=4, steps_per_epoch=2, monitor='val_loss', mode='min', world_size=1, step=0, time=1.0)]
    recs += [dict(kind='epoch', epoch=e, step=2 * e + 2, train_loss=1.0, val_loss=1.0, samples_per_s=900.0 + e, time=3.0 + e) for e in (0, 1)]
    status = dict(finished='finished', stopped='stopped', failed='failed', killed=None)[state]
    if status: recs.append(dict(kind=state, status=status if reason != 'early_stopped' else 'early_stopped', reason=reason, step=4))
    d.mkdir(parents=True)
    (d/'metrics.jsonl').write_text(''.join(json.dumps(r) + '\n' for r in recs))
    (d/'status.json').write_text(json.dumps(dict(state=state, reason=reason, step=4, total_steps=4, epoch=2, updated=10.0)))
    (d/'launch.json').write_text(json.dumps(dict(pid=2**22 + 11, pid_start=1.0, host=os.uname().nodename, command=['x'], started=0.5, nproc=1)))
    if stop_line: (d/'STOP').write_text(stop_line + '\n')
    return d

WORDS = [('stopped', 'stop file', 'stop requested by Launch.stop', 'stopped by you (stop())'),
         ('stopped', 'stop requested on another rank', 'Stop button', 'stopped by you (Stop button)'),
         ('stopped', 'stop file', 'stop requested by ntrain stop', 'stopped by you (ntrain stop)'),
         ('stopped', 'SIGTERM', None, 'stopped by SIGTERM (the scheduler)'),
         ('stopped', 'ThreadRun.stop', None, 'stopped by you (stop())'),
         ('killed', 'Launch.kill', None, 'killed by you (kill())'), ('killed', 'Kill button', None, 'killed by you (Kill button)'),
         ('finished', 'early_stopped', None, 'finished early (early stopping)'), ('failed', 'non_finite', None, 'failed (the loss was not finite)')]

def test_every_reason_a_user_sees_is_in_words(tmp_path):
    # each recorded reason, read back from its files by the dashboard, `ntrain.runs` and `ntrain runs`: the words, never the name
    from ntrain.launch import attach
    for i, (state, reason, line, words) in enumerate(WORDS):
        rd = fake_run(tmp_path/'runs'/f'r{i}', state, reason, line)
        db = ntrain.dashboard(attach(rd)); db.wait(timeout=30)
        text = dashboard_text(db)
        assert words[len(state):].strip(' :()') in seen(db.w['title'].value, db.w['stats'].value) and not internal(text), (words, internal(text), text)
        assert text.count('killed') <= 1, text  # the kill is said once (the title), not again in the numbers or a notice
        assert db.w['kill'].disabled and db.w['kill'].button_style == '' and db.w['stop'].disabled and 'ended' in db.w['stop'].tooltip
    table = ntrain.runs(tmp_path/'runs').table()
    cli = subprocess.run([sys.executable, '-m', 'ntrain', 'runs', str(tmp_path/'runs')], capture_output=True, text=True, timeout=120)
    for text in (table, cli.stdout):
        assert not internal(text) and all(w[len(st):].strip(' :()') in text for st, *_, w in WORDS), (internal(text), text)
    from ntrain.ladder.overfit import loss_rose  # rung 3's words for a loss that rose a billionfold
    assert not internal(loss_rose([1.0, 1.4e9, 0.9])), loss_rose([1.0, 1.4e9, 0.9])

def test_stop_button_of_a_run_in_this_kernel_in_words(tmp_path, one_thread):
    # a run on a thread of this kernel, stopped with its dashboard's Stop button: one process, so no "every rank"; the state,
    # the notice and the card in words; the card and the dashboard give one throughput
    from ntrain.handle import ThreadRun
    h = ThreadRun('digits', ['epochs=40', 'num_workers=0'], run_dir=tmp_path/'run')
    db = ntrain.dashboard(h)
    until(lambda: len(db.state['curves']['epoch']) >= 2 and db.state['state'] == 'running', 120, 'two epochs done')
    assert not db.w['stop'].disabled and 'the run stops after its current step' in db.w['stop'].tooltip
    db.w['stop'].click()
    assert db.state['state'] == 'stopping' and 'the run finishes its step' in db.notice, (db.state['state'], db.notice)
    db.wait(timeout=120)
    text = dashboard_text(db)
    assert db.state['state'] == 'stopped' and 'by you (Stop button)' in seen(db.w['title'].value) and not internal(text), (internal(text), text)
    sps = db.state['samples_per_s']
    assert f'{sps:,.0f} samples/s' in db.card and f'{sps:,.0f}' in seen(db.w['stats'].value), (sps, db.card)  # one number per fact
    assert not db.w['resume'].disabled and db.w['stop'].disabled

def test_two_dashboards_follow_a_run_resumed_from_a_terminal(tmp_path, one_thread):
    # two dashboards of one run, both ended (stopped): the ladder panel's rung 5 (a run on a thread here) and a second one;
    # the run resumed by `ntrain resume` in another process: each open view, and rung 5's badge, follows it from its files
    # within 2 s of a change (state, step, buttons; a check of the files every 1 s), and all end with the new end and its card
    from ntrain.notebook.dashboard import Dashboard
    from ntrain.lifecycle import run_state
    lad = ntrain.Ladder('digits', ['epochs=8', 'num_workers=0'], run_dir=tmp_path/'run')
    lad.show(); assert lad.run('5', force=True, nproc=0)
    until(lambda: lad.dashboard is not None and len(lad.dashboard.state['curves']['epoch']) >= 1, 120, 'an epoch done')
    a = lad.dashboard; b = Dashboard(a.handle); rd = a.run_dir
    lad.w['stop'].click(); lad.wait(120); b.wait(timeout=60)
    stopped_at = a.state['step']
    assert a.state['state'] == b.state['state'] == 'stopped' and b.state['step'] == stopped_at and not b.w['resume'].disabled
    assert "data-verdict='stopped'" in badge(lad, 5) and 'by you (Stop button)' in seen(lad.w['info5'].value)
    for d in (a, b):  # who stopped it: said once (the title), not again in the status line
        assert dashboard_text(d).count('by you (Stop button)') == 1 and not internal(dashboard_text(d)), dashboard_text(d)
    p = subprocess.Popen([sys.executable, '-m', 'ntrain', 'resume', str(rd)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=dict(os.environ, OMP_NUM_THREADS='1'))
    try:
        until(lambda: run_state(rd)['state'] == 'running' and (run_state(rd)['step'] or 0) > stopped_at, 120, 'the resumed run under way', every=0.05)
        t0 = time.monotonic()
        until(lambda: all(d.state['state'] == 'running' and d.state['step'] > stopped_at for d in (a, b)) and "data-verdict='running'" in badge(lad, 5),
              10, 'both views and rung 5 follow the resume', every=0.05)
        lag = time.monotonic() - t0
        print(f'views behind the resume on disk: {lag:.2f} s')
        assert lag < 2.0, lag  # a check of the files every 1 s
        for d in (a, b):
            assert d.follows and d.w['resume'].disabled and not d.w['stop'].disabled and d.w['kill'].disabled and 'resumed elsewhere' in d.w['kill'].tooltip
        assert 'by you' not in seen(lad.w['info5'].value)  # (the row's details: the run now, not the stop's numbers)
        status = lambda: seen(lad.w['state'].value)  # the panel's status line: the run now, not the stop's notice
        until(lambda: 'running' in status() and 'by you' not in status() and 'resumed outside this panel' in status(), 5, 'the status line follows the resume')
        assert p.wait(timeout=180) == 0, p.communicate()[0]
    finally:
        if p.poll() is None: p.kill(); p.wait(timeout=30)
    until(lambda: all(d.state['state'] == 'finished' for d in (a, b)), 10, 'both views read the end')
    # the card: run.md is written just after status.json says finished; each view shows it within a check of the files
    until(lambda: all(d.card and 'finished' in d.card.split('**Epochs:**')[-1] for d in (a, b)), 10, 'both views show the new card')
    for d in (a, b):
        st = d.state
        assert st['step'] == st['total_steps'] and st['restarts'] == 1 and d.w['resume'].disabled and 'finished' in d.card.split('**Epochs:**')[1]
    assert a.state['samples_per_s'] == b.state['samples_per_s'] and f"{a.state['samples_per_s']:,.0f} samples/s" in a.card
    until(lambda: "data-verdict='pass'" in badge(lad, 5), 5, "rung 5 reads the run's new end")
    until(lambda: 'finished' in status() and 'by you' not in status(), 5, 'the status line reads the new end')
    row = seen(lad.w['info5'].value)
    assert 'finished' in row and 'by you' not in row and f"{a.state['total_steps']}/{a.state['total_steps']}" in row, row
