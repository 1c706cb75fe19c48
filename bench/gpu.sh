#!/usr/bin/env bash
# GPU checks on a lent machine (Python 3.12, torch 2.11, no network): one prepared script, ~6 minutes,
# writing its results to $OUT as it goes. Run from the repository root:  OUT=/tmp/out bash bench/gpu.sh
# Checks: bf16 autocast, fp16 + GradScaler, torch.compile (inductor), channels_last, NCCL DDP on one GPU under
# torchrun, and whether DDP's validation curve matches the single-process run; throughput for each; the background
# checkpoint saver on CUDA tensors against saving in the loop. EPOCHS=1 for a quick rehearsal on a CPU machine.
set -uo pipefail
OUT=${OUT:-/tmp/ntrain-gpu}; mkdir -p "$OUT"
log() { echo "$@" | tee -a "$OUT/summary.txt"; }
pip install --no-deps --no-build-isolation -e . >"$OUT/pip.log" 2>&1 || export PYTHONPATH="$PWD:${PYTHONPATH:-}"
python -c "import sklearn" 2>/dev/null || log "WARNING: scikit-learn missing: the digits example cannot load"
nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
python -m ntrain env >"$OUT/env.txt" 2>&1; log "$(head -3 "$OUT/env.txt")"
COMMON="digits epochs=${EPOCHS:-4} num_workers=2 batch_size=256 deterministic=false early_stop.patience=null log_every=5"
card() { grep -E '^\*\*(Run|Best|Global)' "$1/run.md" 2>/dev/null | tr -d '*' | tee -a "$OUT/summary.txt"; }
run() {  # name, then extra keys
  local name=$1; shift
  local t0=$(date +%s.%N)
  timeout 150 python -m ntrain fit $COMMON run_dir="$OUT/$name" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?; local t1=$(date +%s.%N)
  log "== $name: exit $rc, wall $(python -c "print(f'{$t1-$t0:.1f}')") s"; card "$OUT/$name"
}
run bf16 precision=bf16
run fp16 precision=fp16
run fp32 precision=fp32 tf32=true
run compile precision=bf16 compile=true
run channels_last precision=bf16 channels_last=true
# checkpoints: the background saver's CUDA snapshot (device-to-host copy) against saving in the loop
run save_async precision=bf16 ckpt_every=2
run save_sync precision=bf16 ckpt_every=2 ckpt_async=false
python - "$OUT" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import json, sys, torch
from pathlib import Path
from ntrain.checkpoint import snapshot, Saver, load
out = Path(sys.argv[1])
for d in ('save_async', 'save_sync'):
    s = json.loads((out/d/'status.json').read_text()) if (out/d/'status.json').exists() else {}
    print(f"{d:10s} checkpoints {s.get('checkpoints')}")
dev = 'cuda' if torch.cuda.is_available() else 'cpu'
w = torch.randn(1000, 64, device=dev); before = w.cpu().clone()
snap = snapshot({'emb': w, 'head': w, 'row': w[3]})
w.add_(1)
ok = torch.equal(snap['emb'], before) and torch.equal(snap['row'], before[3]) and snap['emb'].data_ptr() == snap['head'].data_ptr() and snap['emb'].device.type == 'cpu'
sv = Saver(); sv.submit({'model': {'w': w}}, dict(path=out/'snap.pt')); sv.wait()
print(f"snapshot of {dev} tensors: {'ok' if ok else 'WRONG'}; background save of a {dev} state loads back equal: {torch.equal(load(out/'snap.pt')['model']['w'], w.cpu())}")
PY
# NCCL DDP on one GPU under torchrun, against the single-process bf16 run above
timeout 150 python -m ntrain launch $COMMON precision=bf16 strategy=ddp run_dir="$OUT/ddp1" --nproc 1 >"$OUT/ddp1.log" 2>&1
log "== ddp1 (NCCL, torchrun --nproc 1): exit $?"; card "$OUT/ddp1"
python - "$OUT" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
ep = lambda d: [json.loads(l) for l in (out/d/'metrics.jsonl').read_text().splitlines() if '"kind": "epoch"' in l] if (out/d/'metrics.jsonl').exists() else []
a, b = ep('bf16'), ep('ddp1')
if a and b:
    gaps = [abs(x['val_loss'] - y['val_loss']) / abs(x['val_loss']) for x, y in zip(a, b)]
    print(f"DDP(1 GPU, NCCL) vs single process, val_loss relative gaps per epoch: {', '.join(f'{g:.1e}' for g in gaps)}")
for d in ('bf16', 'fp16', 'fp32', 'compile', 'channels_last', 'save_async', 'save_sync', 'ddp1'):
    r = ep(d)
    if r: print(f"{d:14s} samples/s (median epoch) {sorted(x['samples_per_s'] for x in r)[len(r)//2]:,.0f}  final val_acc {r[-1]['val_acc']:.4f}"
                + (f"  skipped steps {r[-1].get('skipped_steps')}" if 'skipped_steps' in r[-1] else ''))
PY
log "done: $OUT/summary.txt"
