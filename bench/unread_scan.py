"""Which gallery programs have a prediction that does not line up with their targets (the ladder's `Bench.unread`, set at the
first forward): every program's rung 1, seed 0. Round 22's change touches these programs only.

    OMP_NUM_THREADS=1 PYTHONPATH=. python bench/unread_scan.py .    # prints them; writes bench/results/unread_scan.json
"""
import sys, json, tempfile
sys.path.insert(0, sys.argv[1] + '/bench')
import ladder_gallery as G
from ntrain.ladder import kernel
seen = {}
orig = kernel.Bench.forward
def fwd(self, model, batch):
    out = orig(self, model, batch); seen['u'] = self.unread; return out
kernel.Bench.forward = fwd
res = {}
for name in list(G.HEALTHY) + list(G.BROKEN):
    seen.clear()
    try: G.run(name, 0, rungs='1')
    except Exception as e: res[name] = f'error {type(e).__name__}: {e}'[:200]; continue
    res[name] = seen.get('u')
    if res[name]: print(name, res[name], flush=True)
json.dump(res, open(sys.argv[1] + '/bench/results/unread_scan.json', 'w'), indent=1)
print('programs', len(res), 'unread', sum(bool(v) and not str(v).startswith('error') for v in res.values()), 'errors', sum(str(v).startswith('error') for v in res.values()))
