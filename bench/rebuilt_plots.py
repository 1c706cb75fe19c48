"""The baseline of bench/plot_bench.py: the live plots as the panels drew them before the blitted `LivePlot` (`ntrain.plots`, up to b99b3d3),
the figure cleared and built again at every redraw. Kept here, out of the package, only to be measured against."""
import io, math
from ntrain.plots import log_scale

class PngCanvas:
    "One reused matplotlib figure on an Agg canvas: `draw(fn, *args)` clears it, calls `fn(fig, *args)` and returns PNG bytes."
    def __init__(self, size=(9, 3), dpi:int=80):
        from matplotlib.figure import Figure
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        self.fig = Figure(figsize=size, dpi=dpi); FigureCanvasAgg(self.fig)
        self.draws = 0
    def draw(self, fn, *args)->bytes:
        self.fig.clear(); fn(self.fig, *args)
        buf = io.BytesIO(); self.fig.canvas.print_png(buf); self.draws += 1
        return buf.getvalue()

def _xy(xs, ys)->tuple:
    pts = [(x, y) for x, y in zip(xs, ys) if x is not None and isinstance(y, (int, float)) and math.isfinite(y)]
    return [p[0] for p in pts], [p[1] for p in pts]

def draw_run(fig, d:dict):
    "The dashboard's plot of `RunView.to_dict()`: loss per step with each epoch's train and validation loss; the monitored metric per epoch."
    c = d['curves']
    ax = fig.add_subplot(1, 2, 1)
    ax.plot(*_xy(c['step'], c['loss']), lw=1, color='C0', alpha=.6, label='train loss (step)')
    ax.plot(*_xy(c['epoch_step'], c['train_loss']), 'o-', color='C0', label='train loss (epoch)')
    ax.plot(*_xy(c['epoch_step'], c['val_loss']), 'o-', color='C1', label='val loss')
    ys = [y for y in c['loss'] + c['train_loss'] + c['val_loss'] if isinstance(y, (int, float)) and math.isfinite(y)]
    if ys and min(ys) > 0 and max(ys) / min(ys) > 20: log_scale(ax)
    if d.get('total_steps'): ax.set_xlim(0, d['total_steps'])
    ax.set_xlabel('step'); ax.set_ylabel('loss'); ax.grid(alpha=.3)
    if ys: ax.legend(fontsize=7)
    ax2 = fig.add_subplot(1, 2, 2)
    m = d.get('monitor') or 'metric'
    ax2.plot(*_xy(c['epoch'], c['metric']), 'o-', color='C2', label=m)
    if d.get('epochs'): ax2.set_xlim(0.5, d['epochs'] + 0.5)
    ax2.set_xlabel('epoch'); ax2.set_ylabel(m); ax2.grid(alpha=.3)
    fig.suptitle(f"{d['state']}  " + (f"step {d['step']}/{d['total_steps']}" if d.get('total_steps') else ''), fontsize=9)
    fig.subplots_adjust(left=0.07, right=0.985, bottom=0.16, top=0.86, wspace=0.25)  # fixed margins: a tight_layout lays out twice per redraw

def draw_ladder(fig, st:dict):
    "The live plot of `LadderView.to_dict()`: rung 3's loss per step and its target, rung 4's losses and metric against the noise threshold, or the LR range test."
    s, which = st['series'], st['plot']
    pos = lambda ys: ys and all(isinstance(y, (int, float)) and y > 0 for y in ys)
    if which == 'rung3':
        r = s['rung3']; ax = fig.add_subplot(1, 1, 1)
        ax.plot(r['step'], r['loss'], lw=1.2, label='loss')
        if r['target']: ax.axhline(r['target'], ls='--', color='0.5', label='target')
        if pos(r['loss']) and (r['target'] or 1) > 0: log_scale(ax)
        ax.set_xlabel('step'); ax.set_title('rung 3: overfit one batch', fontsize=9)
    elif which == 'rung4':
        r = s['rung4']; ax = fig.add_subplot(1, 2, 1)
        ax.plot([e for e, v in zip(r['epoch'], r['train_loss']) if v is not None], [v for v in r['train_loss'] if v is not None], 'o-', label='train loss')
        ax.plot(r['epoch'], r['val_loss'], 'o-', label='val loss'); ax.set_xlabel('epoch'); ax.set_title('rung 4: 1% of the data', fontsize=9)
        ax2 = fig.add_subplot(1, 2, 2)
        ax2.plot(r['epoch'], r['value'], 'o-', color='C2', label=r['metric'] or 'metric')
        if r['threshold'] is not None: ax2.axhline(r['threshold'], ls='--', color='0.5', label='beyond noise')
        ax2.set_xlabel('epoch'); ax2.grid(alpha=.3); ax2.legend(fontsize=7)
    elif which == 'lr_find':
        r = s['lr_find']; ax = fig.add_subplot(1, 1, 1)
        ax.plot(r['lr'], r['loss'], lw=1.2, label='smoothed loss')
        if r['lr']: log_scale(ax, 'x')
        if r['suggested']: ax.axvline(r['suggested'], ls='--', color='C3', label=f"suggested max LR {r['suggested']:.2g}")
        ax.set_xlabel('learning rate'); ax.set_title('LR range test', fontsize=9)
    else:
        ax = fig.add_subplot(1, 1, 1); ax.text(0.5, 0.5, 'the live plot shows rung 3, rung 4 and the LR range test as they run', ha='center', va='center', fontsize=9)
        ax.set_axis_off(); return
    ax.grid(alpha=.3); ax.legend(fontsize=7)
    fig.subplots_adjust(left=0.07, right=0.985, bottom=0.17, top=0.88, wspace=0.22)
