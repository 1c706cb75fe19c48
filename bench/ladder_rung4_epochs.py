"""Rung 4's epochs for one gallery program and seed, as rung 4 judges them: each epoch's (mean training loss, validation
loss), the first and highest training step, and what `blew_up` and `train_wrecked` say; then every rung's verdict.

    cd bench && OMP_NUM_THREADS=1 python ladder_rung4_epochs.py vad_logmel_mlp 8

Issue 32 round 46 read `lr_high`'s catches and the VAD MLP's false fail with it (bench/RESULTS.md, "Round 46")."""
import importlib, math, sys
import ladder_gallery as G

S = importlib.import_module('ntrain.ladder.small_data')  # the module, not `ntrain.ladder`'s function of the same name
_words = S._rung4_words

def _show(b, r, verdict, t, moved, model, vl, ctrl, why, rerun, hist, train_losses, *rest, **kw):
    print('epochs (train_loss, val_loss):', [(round(e.get('train_loss', math.nan), 4), round(e['loss'], 4)) for e in hist])
    top = max(train_losses)
    print(f'training steps: first {train_losses[0]:.4g}, highest {top:.4g} at step {train_losses.index(top)}')
    print('blew_up:', S.blew_up([e['loss'] for e in hist]), '| train_wrecked:', S.train_wrecked(train_losses))
    return _words(b, r, verdict, t, moved, model, vl, ctrl, why, rerun, hist, train_losses, *rest, **kw)

if __name__ == '__main__':
    S._rung4_words = _show
    res = G.run(sys.argv[1], int(sys.argv[2]), rungs='1-4')
    for r in res.rungs: print(f'rung {r.rung}: {r.verdict} {r.causes}')
