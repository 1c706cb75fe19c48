"""The panels without a browser: buttons clicked in code, badges and numbers asserted, the live plot's growth, a broken
gallery task, Stop, one run at a time, and the dashboard following a real 2-process run to its end. Also: no notebook
in nbs/ holds widget state."""
import json, os, time
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
    lad.w['lr'].value = 0.001
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
