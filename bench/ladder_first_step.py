"""Time to the first optimizer step of the sanity ladder's rung 1, as a notebook cell runs it in a fresh kernel:
`import ntrain; ntrain.ladder('digits', rungs='1')`. Used by bench/e2e.py (section ttfs).

    python bench/ladder_first_step.py RUN_DIR

A global optimizer step post-hook (`torch.optim.optimizer.register_optimizer_step_post_hook`) stamps the end of
rung 1's optimizer step without changing what the ladder runs; the `rung_end` record of rung 1 (after its
validation batch, checkpoint round trip and metrics write) is stamped too. Prints `BENCH_RESULT {json}`.
"""
import time
T_SCRIPT = time.time()
import json, sys
import torch
from torch.optim.optimizer import register_optimizer_step_post_hook
stamps = []
register_optimizer_step_post_hook(lambda opt, args, kwargs: stamps.append(time.time()))
import ntrain
T_IMPORTED = time.time()

recs = []
res = ntrain.ladder('digits', rungs='1', run_dir=sys.argv[1] if len(sys.argv) > 1 else None, callbacks=[recs.append])
end = next((r for r in recs if r.get('kind') == 'rung_end' and r.get('rung') == 1), {})
print('BENCH_RESULT ' + json.dumps(dict(tool='ntrain-ladder', t_script=T_SCRIPT, t_imported=T_IMPORTED,
                                        t_first_step=stamps[0] if stamps else None, t_rung_end=end.get('time'),
                                        verdict=res.rungs[0].verdict if res.rungs else None, t_end=time.time())), flush=True)
