"""Rung 4's second run, watched in a real browser on a busy machine (run by hand; not part of the test suite).

Since rung 4 runs once more on `small_grow` times the samples when its first run ends inconclusive, the ladder panel's
live plot should start rung 4's curves again at the second run (the view resets rung 4's series at a `rung_eval`
record with epoch -1). This script watches that as a user would: JupyterLab 4 + Chromium (tests/jlab.py), a process
holding one core busy all along, a notebook whose first cell builds `ntrain.Ladder` for the gallery's `anode_rings`
(seed 2: rung 4 inconclusive on 512 samples, then run again on 1024), and Run 1-4 clicked.

While rungs 1-4 run, every ~0.2 s it samples the panel's plot as the page says it (`data-plot-what`, `data-plot-step`,
`data-draws`, `data-points`, a hash of the image), the status line, the warnings and rung 4's badge and summary; it
reads ladder.jsonl as it grows (each record's own wall time, and when this script first saw it). Screenshots of the
panel (and of its plot alone) go to the artifacts folder (tests/jlab.py's ARTIFACTS, /tmp/ntrain-artifacts):
rung4_rerun_1_first.png (the first run of rung 4), rung4_rerun_2_gap.png (after the "once more" message, before the
second run's first evaluation), rung4_rerun_3_restart.png (right after the page shows the restart),
rung4_rerun_4_end.png (the end) and rung4_rerun_5_details.png (rung 4's details opened). Figures go to
bench/results/rung4_rerun_browser.json.

    cd /work/main && nice -n 5 timeout 900 .venv/bin/python bench/rung4_rerun_browser.py
"""
import hashlib, json, os, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT/'tests')]
import nbformat
from jlab import ARTIFACTS, cpu_hog, lab, open_notebook, run_cells

PROGRAM, SEED = 'anode_rings', 2
OUT = ROOT/'bench'/'results'/'rung4_rerun_browser.json'
CELLS = [
    f"""import sys
sys.path.insert(0, {str(ROOT/'bench')!r})
import ladder_gallery as G, ntrain
lad = ntrain.Ladder(run_dir='lad', **G.HEALTHY[{PROGRAM!r}]({SEED}))  # what G.run({PROGRAM!r}, {SEED}) gives ntrain.ladder
lad""",
]

# one evaluate per sample: what the panel shows now
PROBE = """() => {
  const L = document.querySelector('.ntrain-ladder'); if (!L) return null;
  const s = L.querySelector('.ntrain-ladder-state'), b4 = L.querySelector('.ntrain-badge[data-rung="4"]');
  const n4 = L.querySelector('.ntrain-numbers[data-rung="4"]'), img = L.querySelector('img'), w = L.querySelector('.ntrain-warnings summary');
  const src = img ? img.src : '';
  let h = 2166136261; for (let i = 0; i < src.length; i += 7) { h ^= src.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
  return {what: s ? s.dataset.plotWhat : null, step: s && s.dataset.plotStep !== '' ? +s.dataset.plotStep : null,
          draws: s ? +s.dataset.draws : null, points: s ? +s.dataset.points : null, busy: s ? s.dataset.busy : null,
          status: (L.querySelector('.ntrain-status') || {}).innerText || '', warnings: w ? w.innerText : '',
          v4: b4 ? b4.dataset.verdict : null, s4: n4 ? n4.innerText : '', img: src.length + ':' + h.toString(16)};
}"""


def notebook(path:Path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata['kernelspec'] = dict(name='python3', display_name='Python 3', language='python')
    nbformat.write(nb, path)


def shot(page, loc, name:str):
    "The element as the page shows it now (clipped to the window), at once: no settling pause while sampling."
    try:
        b, vp = loc.bounding_box(), page.viewport_size
        y0 = max(0.0, b['y'])
        clip = dict(x=max(0.0, b['x']), y=y0, width=min(b['width'], vp['width']), height=min(b['y'] + b['height'], vp['height']) - y0)
        page.screenshot(path=str(ARTIFACTS/name), clip=clip)
        return str(ARTIFACTS/name)
    except Exception as e: return f'failed: {e}'


def main():
    tmp = Path(tempfile.mkdtemp(prefix='rung4-rerun-'))
    nb = tmp/'rung4_rerun.ipynb'; notebook(nb)
    fig = dict(lab_dir=str(tmp), program=f'bench/ladder_gallery_l.py: {PROGRAM}, seed {SEED}, rungs 1-4, ntrain.Ladder(run_dir=..., **factory(seed)), Run 1-4 clicked',
               machine=f'{os.cpu_count()} cores, load {os.getloadavg()}, one core held by jlab.cpu_hog', shots={})
    env = dict(PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT/'bench')]))
    samples, recs, off = [], [], 0
    with cpu_hog(), lab(tmp, [nb], env=env) as lb:
        page = lb.page(1300, 1200)
        jsonl = lb.work/'lad'/'ladder.jsonl'
        try:
            open_notebook(lb, page, nb.name)
            run_cells(page, 1)
            panel = page.locator('.ntrain-ladder').first
            panel.locator('.ntrain-run-all').wait_for(timeout=180_000)
            panel.scroll_into_view_if_needed()
            plot = panel.locator('img').first
            t_click = time.time()
            panel.locator('.ntrain-run-all').click()
            fig['clicked at'] = t_click
            t_end = time.monotonic() + 600
            done_at = None
            while time.monotonic() < t_end:
                # the records written so far, stamped with when this script first saw them
                if jsonl.exists():
                    with open(jsonl, 'rb') as f: f.seek(off); chunk = f.read()
                    whole = chunk[:chunk.rfind(b'\n') + 1]; off += len(whole)
                    seen = time.time()
                    for line in whole.splitlines():
                        try: r = json.loads(line)
                        except ValueError: continue
                        recs.append(dict(r, seen=seen))
                p = page.evaluate(PROBE); t = time.time()
                if p is None: time.sleep(0.2); continue
                p['t'] = t; samples.append(p)
                r4 = [r for r in recs if r.get('rung') == 4 or r.get('kind') == 'message']
                starts = [r for r in r4 if r.get('kind') == 'rung_eval' and r.get('epoch') == -1]
                msg = [r for r in r4 if r.get('kind') == 'message' and any(w in (r.get('text') or '') for w in ('once more', 'running again'))]
                # the screenshots, each once
                if 'first' not in fig['shots'] and not msg and p['v4'] == 'running' and p['what'] == 'rung4' and (p['step'] or 0) >= 3:
                    fig['shots']['first'] = dict(t=t, sample=p, panel=shot(page, panel, 'rung4_rerun_1_first.png'), plot=shot(page, plot, 'rung4_rerun_1_first_plot.png'))
                if msg and len(starts) < 2 and 'gap' not in fig['shots'] and t - msg[0]['time'] > 0.3:  # (the gap lasts about 1 s here)
                    fig['shots']['gap'] = dict(t=t, sample=p, panel=shot(page, panel, 'rung4_rerun_2_gap.png'), plot=shot(page, plot, 'rung4_rerun_2_gap_plot.png'))
                if len(starts) >= 2 and 'restart' not in fig['shots'] and p['what'] == 'rung4' and p['step'] is not None and p['step'] <= 1:
                    fig['shots']['restart'] = dict(t=t, sample=p, panel=shot(page, panel, 'rung4_rerun_3_restart.png'), plot=shot(page, plot, 'rung4_rerun_3_restart_plot.png'))
                if p['busy'] == '0' and p['v4'] not in (None, 'running', 'not run') and any(r.get('kind') == 'ladder_end' for r in recs):
                    done_at = done_at or t
                    if t - done_at > 1.5: break  # a few samples after the end
                elif p['busy'] == '0' and any(r.get('kind') == 'ladder_end' for r in recs) and p['v4'] in ('not run', None):
                    break  # ended before rung 4 (a rung failed): nothing to watch
                dt = 0.2 - (time.time() - t)
                if dt > 0: time.sleep(dt)
            page.wait_for_timeout(500)
            fig['shots']['end'] = dict(panel=shot(page, panel, 'rung4_rerun_4_end.png'), plot=shot(page, plot, 'rung4_rerun_4_end_plot.png'))
            d4 = panel.locator('.ntrain-details[data-rung="4"]')
            if d4.count():
                d4.locator('summary').click(); page.wait_for_timeout(500)
                d4.scroll_into_view_if_needed()
                fig['shots']['details'] = dict(panel=shot(page, d4, 'rung4_rerun_5_details.png'))
                fig['rung 4 details text'] = d4.inner_text()
            fig['final'] = dict(
                badges={k: panel.locator(f'.ntrain-badge[data-rung="{k}"]').inner_text() for k in (1, 2, 3, 4)},
                summaries={k: panel.locator(f'.ntrain-numbers[data-rung="{k}"]').inner_text() for k in (1, 2, 3, 4)},
                times={k: panel.locator(f'.ntrain-time[data-rung="{k}"]').inner_text() for k in (1, 2, 3, 4)},
                status=panel.locator('.ntrain-status').inner_text(), panel_text=panel.inner_text())
            if jsonl.exists():
                with open(jsonl, 'rb') as f: f.seek(off); rest = f.read()
                recs += [dict(json.loads(l), seen=time.time()) for l in rest.splitlines() if l.strip()]
        except Exception as e:
            fig['error'] = repr(e)
            try: page.screenshot(path=str(ARTIFACTS/'rung4_rerun_error.png'), full_page=True)
            except Exception: pass
            raise
        finally:
            fig.update(summarize(samples, recs))
            fig['samples'] = [dict(t=round(s['t'], 3), what=s['what'], step=s['step'], draws=s['draws'], points=s['points'], v4=s['v4'],
                                   img=s['img'], status=s['status'], warnings=s['warnings'], s4=s['s4']) for s in samples]
            fig['records (rung 4 and messages)'] = [{k: v for k, v in r.items() if k in ('kind', 'rung', 'epoch', 'time', 'seen', 'level', 'text', 'value', 'val_loss', 'threshold')}
                                                    for r in recs if r.get('rung') == 4 or r.get('kind') in ('message', 'ladder_end')]
            OUT.parent.mkdir(parents=True, exist_ok=True)
            OUT.write_text(json.dumps(fig, indent=1, default=str))
            print(json.dumps({k: v for k, v in fig.items() if k not in ('samples', 'records (rung 4 and messages)')}, indent=1, default=str))
            print('figures:', OUT)


def summarize(samples, recs)->dict:
    "When the records were written and when the page showed them: the restart of rung 4's curves in particular."
    out = {}
    evals = [r for r in recs if r.get('kind') == 'rung_eval' and r.get('rung') == 4]
    starts = [r for r in evals if r.get('epoch') == -1]
    msg = next((r for r in recs if r.get('kind') == 'message' and any(w in (r.get('text') or '') for w in ('once more', 'running again'))), None)
    end4 = next((r for r in recs if r.get('kind') == 'rung_end' and r.get('rung') == 4), None)
    start4 = next((r for r in recs if r.get('kind') == 'rung_start' and r.get('rung') == 4), None)
    out['records'] = dict(rung4_start=start4 and start4['time'], first_eval_start=starts[0]['time'] if starts else None,
                          message=msg and dict(time=msg['time'], level=msg.get('level'), text=msg.get('text')),
                          second_eval_start=starts[1]['time'] if len(starts) > 1 else None, rung4_end=end4 and end4['time'],
                          first_run_epochs=max((r['epoch'] for r in evals if starts and (len(starts) < 2 or r['time'] < starts[1]['time'])), default=None) if evals else None,
                          second_run_epochs=max((r['epoch'] for r in evals if len(starts) > 1 and r['time'] >= starts[1]['time']), default=None),
                          rung4_verdict=end4 and end4['result']['verdict'])
    if len(starts) > 1:
        t1 = starts[1]['time']
        after = [s for s in samples if s['t'] >= t1]
        prev = [s for s in samples if s['t'] < t1 and s['what'] == 'rung4']
        drop = next((s for s in after if s['what'] == 'rung4' and s['step'] is not None and s['step'] <= 1), None)
        out['restart'] = dict(step_before=prev[-1]['step'] if prev else None, draws_before=prev[-1]['draws'] if prev else None,
                              page_step_dropped_after_s=round(drop['t'] - t1, 3) if drop else None,
                              step_after=drop and drop['step'], draws_after=drop and drop['draws'],
                              climbs_again_to=max((s['step'] or 0 for s in after if drop and s['t'] >= drop['t'] and s['what'] == 'rung4'), default=None),
                              page_steps_after_restart=[s['step'] for s in after if drop and s['t'] >= drop['t'] and s['what'] == 'rung4'][:40])
        if msg: out['restart']['first_run_plot_shown_after_message_s'] = round(drop['t'] - msg['time'], 3) if drop else None
        if msg: out['restart']['gap_message_to_second_start_s'] = round(t1 - msg['time'], 3)
        # the rung's own records as the page followed them: how long each second-run epoch waited to be drawn
        lag = []
        for r in evals:
            if r['time'] < t1: continue
            s = next((s for s in samples if s['t'] >= r['time'] and s['what'] == 'rung4' and s['step'] is not None and s['step'] >= r['epoch'] + 1), None)
            lag.append(round(s['t'] - r['time'], 3) if s else None)
        out['restart']['second_run_epoch_shown_after_s'] = lag
    # the page's words about the second run at any moment (the message, or "second run")
    out['words seen'] = sorted({s['status'] for s in samples if s['status']} | {s['warnings'] for s in samples if s['warnings']} | {s['s4'] for s in samples if s['s4'].startswith('running:')})
    out['any word of a second run while it ran'] = any(w in s['status'] + s['warnings'] + s['s4'] for s in samples for w in ('once more', 'running again', 'second'))
    return out


if __name__ == '__main__': main()
