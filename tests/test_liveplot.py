"""The live plot (ntrain.plots) fed by the real view-models: full redraws only when the limits grow, the blitted PNG
equal to a full redraw of the same data, the placeholder, "as of step N", integer epoch ticks, a new plot for a new
run or rung, and the plain state the panels publish. No timing asserts: the costs are in bench/plot_bench.py."""
import io, math
import numpy as np
import pytest
from PIL import Image
from ntrain.plots import LivePlot, RedrawClock, WAITING, HEADS
from ntrain.notebook.viewmodel import LadderView, RunView

def pixels(png:bytes)->np.ndarray: return np.asarray(Image.open(io.BytesIO(png)).convert('RGB')).astype(int)

def close(a:bytes, b:bytes, tol:float=0.5)->bool:
    "Two PNGs of the same size whose pixels differ by under `tol` on average (0-255) and in under 0.5% of the pixels."
    pa, pb = pixels(a), pixels(b)
    return pa.shape == pb.shape and np.abs(pa - pb).mean() < tol and (np.abs(pa - pb).max(-1) > 32).mean() < 0.005

def run_records(total:int=440, spe:int=22, log_every:int=10, monitor:str='val_acc'):
    "A run's record stream, as metrics.jsonl holds it: start, a step record every `log_every` steps, an epoch record every `spe`."
    yield dict(kind='start', epochs=total // spe, total_steps=total, steps_per_epoch=spe, world_size=1, monitor=monitor, mode='max', time=0.0, step=0)
    for s in range(1, total + 1):
        if s % log_every == 0: yield dict(kind='step', step=s, epoch=(s - 1) // spe, loss=2.3 * math.exp(-s / 80) + 0.05, time=s * 0.01)
        if s % spe == 0:
            e = s // spe - 1
            yield dict(kind='epoch', epoch=e, step=s, train_loss=2.3 * math.exp(-s / 80) + 0.06, val_loss=2.3 * math.exp(-s / 90) + 0.1,
                       val_acc=1 - math.exp(-s / 60), time=s * 0.01)

def ladder_records(n:int=300, loss0:float=2.3):
    "Rung 3's records: its start and a rung_step per step."
    yield dict(kind='rung_start', rung=3)
    for s in range(1, n + 1): yield dict(kind='rung_step', rung=3, step=s, loss=loss0 * 0.985 ** s, target=loss0 * 0.02)

def test_full_redraws_only_when_limits_grow():
    # a run drawn at every record: at most one redraw in five is full; a redraw within the limits is incremental
    v, lp, n, within = RunView(), LivePlot(budget=0.025), 0, 0
    for r in run_records():
        v.apply(r)
        sig, full0, what0 = lp.sig, lp.state['full_redraws'], lp.state['what']
        if lp.update(v.to_dict(), key='run-a', final=True) is None: continue
        n += 1
        if what0 == 'run' and lp.sig == sig:  # the limits did not move: the redraw was incremental
            assert lp.state['full_redraws'] == full0, lp.state; within += 1
    st = lp.state
    assert st['what'] == 'run' and st['step'] == 440 and st['redraws'] == n > 50 and within >= n - st['full_redraws'], st
    assert st['full_redraws'] <= st['redraws'] / 5, st
    # rung 3 with no total known: x doubles from 10 steps, y in decades; 300 steps, a redraw each
    lv, lp = LadderView(), LivePlot()
    for r in ladder_records(300):
        lv.apply(r); lp.update(lv.to_dict(), final=True)
    st = lp.state
    assert (st['what'], st['step'], st['redraws']) == ('rung3', 300, 301) and st['full_redraws'] <= 300 / 5, st
    assert lp.axes[0].get_xlim() == (0, 320) and lp.axes[0].get_yscale() == 'log'

def test_clock_keeps_to_its_budget():
    # redraws asked for 20 times a second, one in ten a full one of 200 ms: the CPU they take stays within the budget
    c, spent, draws, t = RedrawClock(budget=0.05, every=0.1), 0.0, 0, 0.0
    c.drew(1.0, 0.0)
    while t < 60:
        t += 0.05
        if c.due(t):
            cost = 0.2 if draws % 10 == 9 else 0.01
            c.drew(cost, t, full=cost > 0.1); spent += cost; draws += 1
    assert draws > 20 and spent <= 0.05 * 60 + c.burst + 0.2, (draws, spent)

def test_png_grows_and_equals_a_full_redraw():
    v, lp, pngs = RunView(), LivePlot(budget=0.025), []
    for r in run_records():
        v.apply(r)
        if (p := lp.update(v.to_dict(), final=True)) is not None: pngs.append(p)
    assert len(set(pngs)) == len(pngs)  # each redraw drew something new
    assert not close(pngs[len(pngs) // 2], pngs[-1])
    once = LivePlot(budget=0.025); once.update(v.to_dict(), final=True)
    assert once.state['redraws'] == once.state['full_redraws'] == 1
    assert close(once.png, lp.png)
    # and against a forced full redraw of the same plot
    assert close(lp.draw(lp_frame(v), full=True), once.png)
    # rung 3 and rung 4, mid-run, the same way
    lv, a = LadderView(), LivePlot()
    for r in list(ladder_records(120)) + [dict(kind='rung_start', rung=4), dict(kind='rung_eval', rung=4, epoch=-1, val_loss=2.3, metric='val_acc', value=0.1),
                                        dict(kind='rung_threshold', rung=4, metric='val_acc', threshold=0.2, mode='max')] + \
             [dict(kind='rung_eval', rung=4, epoch=e, train_loss=2 / (e + 1), val_loss=2.1 / (e + 1), value=0.1 + 0.15 * e, metric='val_acc') for e in range(5)]:
        lv.apply(r); a.update(lv.to_dict(), final=True)
        if r.get('rung') == 3 and r.get('step') == 120:
            b = LivePlot(); b.update(lv.to_dict(), final=True); assert close(a.png, b.png)
    b = LivePlot(); b.update(lv.to_dict(), final=True)
    assert a.state['what'] == 'rung4' and close(a.png, b.png) and a.axes[1].get_xlim() == (-0.5, 5.5)  # epoch 0: before training

def lp_frame(v):
    from ntrain.plots import frame_of
    return frame_of(v.to_dict())

def test_placeholder_never_empty():
    lp = LivePlot()  # a fresh panel's image: the ladder's line, not an empty or broken image
    assert lp.png.startswith(b'\x89PNG') and lp.state['what'] is None and lp.note.get_text() == HEADS[None]
    assert (pixels(lp.png) < 200).any()
    v = RunView(); v.apply(next(run_records()))  # a run that started: no point yet
    assert lp.update(v.to_dict(), final=True) is not None
    st = lp.state
    assert (st['what'], st['step'], lp.note.get_text()) == ('run', None, WAITING) and not any(ax.get_visible() for ax in lp.axes)
    assert (pixels(lp.png) < 200).any() and not close(lp.png, LivePlot().png)
    lv = LadderView(); lv.apply(dict(kind='rung_start', rung=3)); lp.update(lv.to_dict())
    assert (lp.state['what'], lp.note.get_text()) == ('rung3', WAITING)
    waiting = lp.png
    lv.apply(dict(kind='rung_step', rung=3, step=1, loss=2.3, target=0.046)); lp.update(lv.to_dict(), final=True)
    assert lp.note.get_text() == '' and all(ax.get_visible() for ax in lp.axes)
    lv.apply(dict(kind='rung_start', rung=3)); lp.update(lv.to_dict())  # rung 3 again: the same "waiting" picture, kept
    assert lp.png is waiting and lp.state['redraws'] == 1 and lp.note.get_text() == WAITING
    lv.apply(dict(kind='rung_step', rung=3, step=1, loss=2.3, target=0.046)); lp.update(lv.to_dict(), final=True)
    assert lp.note.get_text() == '' and all(ax.get_visible() for ax in lp.axes) and lp.state['full_redraws'] == 2
    # the axes never show matplotlib's empty default (+-0.04 around 0)
    assert lp.axes[0].get_ylim() == (0.01, 10.0), lp.axes[0].get_ylim()

def test_as_of_step_when_behind_the_run():
    v, lp = RunView(), LivePlot()
    for r in run_records():
        v.apply(r)
        if r.get('step') == 200 and r['kind'] == 'step': break
    d = v.to_dict()
    lp.update(d, final=True); assert not lp.state['as_of']
    d['step'] = 205; lp.update(d, final=True)  # status.json a few steps ahead (within one record interval): not behind
    assert not lp.state['as_of'] and 'as of' not in lp.head.get_text()
    d['step'] = 275; lp.update(d, final=True)  # status.json says 275, the records end at 200
    assert lp.state['as_of'] and lp.state['step'] == 200 and 'as of step 200' in lp.head.get_text()
    assert not close(lp.png, LivePlot().png)

def test_epoch_ticks_are_integers():
    v, lp = RunView(), LivePlot()
    for r in run_records(total=66, spe=22):
        v.apply(r); lp.update(v.to_dict(), final=True)
    lv, lp4 = LadderView(), LivePlot()
    for r in [dict(kind='rung_start', rung=4)] + [dict(kind='rung_eval', rung=4, epoch=e, train_loss=1 / (e + 1), val_loss=1.1 / (e + 1), value=0.3 + 0.1 * e, metric='val_acc') for e in range(3)]:
        lv.apply(r); lp4.update(lv.to_dict(), final=True)
    for ax in (lp.axes[1], *lp4.axes):
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks

def test_a_new_run_or_rung_is_a_new_plot():
    lv, lp = LadderView(), LivePlot()
    for r in ladder_records(80): lv.apply(r); lp.update(lv.to_dict(), final=True)
    assert (lp.state['what'], lp.state['step'], lp.state['redraws']) == ('rung3', 80, 81)
    first = lp.png
    for r in ladder_records(3, loss0=1.7): lv.apply(r)  # rung 3 again: its series starts over
    lp.update(lv.to_dict(), final=True)
    st = lp.state
    assert (st['step'], st['redraws'], st['full_redraws']) == (3, 1, 1) and not close(first, lp.png)
    lv.apply(dict(kind='lr_find', lr=1e-6, loss=2.3)); lp.update(lv.to_dict(), final=True)
    assert (lp.state['what'], lp.state['redraws'], lp.head.get_text()) == ('lr_find', 1, 'LR range test: 1 steps')
    # rung 3 run again with the same axes: its backgrounds are the kept ones (none drawn again), the picture the same
    lv2, lp2 = LadderView(), LivePlot()
    for r in ladder_records(50): lv2.apply(r); lp2.update(lv2.to_dict(), final=True)
    first, kept = lp2.png, dict(lp2._kept)
    for r in ladder_records(50): lv2.apply(r); lp2.update(lv2.to_dict(), final=True)
    assert lp2.state['redraws'] == 51 and lp2._kept == kept and close(first, lp2.png)
    # the dashboard's plot: another run (key) is another plot, even with the same points
    v = RunView()
    for r in run_records(): v.apply(r)
    lp.update(v.to_dict(), key='runs/a', final=True); a = lp.png
    lp.update(v.to_dict(), key='runs/b', final=True)
    assert lp.state['redraws'] == 1 and lp.key == 'runs/b' and close(a, lp.png)
    # nothing of the previous plot is left: only this plot's lines
    assert [l.get_label() for l in lp.axes[0].get_lines() if l.get_animated()] == ['train loss (step)', 'train loss (epoch)', 'val loss']

def test_state_is_plain_data():
    import json
    lp = LivePlot()
    st = lp.state
    assert set(st) >= {'what', 'step', 'redraws', 'full_redraws', 'cost_s'} and json.loads(json.dumps(st)) == st
    assert st['redraws'] == st['full_redraws'] == 1 and st['cost_s'] > 0
    lv = LadderView()
    for r in ladder_records(40): lv.apply(r); lp.update(lv.to_dict(), final=True)
    st = lp.state
    assert (st['what'], st['step'], st['redraws']) == ('rung3', 40, 41) and 0 < st['cost_s'] and st['full_redraws'] < 41 / 5
    assert lp.update(lv.to_dict(), final=True) is None and lp.state == st  # nothing new: no redraw
