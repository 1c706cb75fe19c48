#!/usr/bin/env bash
# GPU checks on a lent machine (Python 3.12, torch 2.11, no network): one prepared script, at most BUDGET_S
# seconds (default 470 on a GPU, under 8 minutes; 900 on a CPU rehearsal), writing each result to $OUT as soon as it is known. From the repository root:
#     OUT=/tmp/out bash bench/gpu.sh
# Sections, in priority order (each under its own time guard; one that would start after the budget is skipped,
# and says so in $OUT/summary.txt):
#   speed        `ntrain speed` on synthetic ResNet-50 (fp32, TF32 off, so that bf16, TF32, channels_last and compile are
#                all trials; 2 repeats): the bottleneck, the syncs and busy fraction, and every row of its table
#   anchors      bf16 and compile throughput (from the throughput section) against NVIDIA's published ResNet-50 figure:
#                2,470 img/s on an A100 (the ratio; another GPU is said, not judged)
#   nccl_golden  the digits golden run (deterministic, 4 epochs) under NCCL on 1 and on 2 processes: the relative gaps of
#                the step and epoch losses (2 processes need 2 GPUs; skipped, saying so)
#   throughput   ResNet-50 on synthetic ImageNet-shaped data: fp32 eager vs bf16 + channels_last, with and without
#                torch.compile, in images/s (bench/gpu_resnet.py throughput)
#   sync         sync audit: torch.cuda.set_sync_debug_mode("warn") during ntrain's bf16, fp32 and fp16 steps
#                (bench/gpu_sync_audit.py; fp16's GradScaler.step syncs by design)
#   resnet_loop  the reference loop against ntrain on ResNet-50, bf16 + channels_last (bench/gpu_resnet.py compare)
#   digits       ntrain's digits example in bf16, fp16 + GradScaler, fp32 + TF32
#   saves        the background checkpoint saver on CUDA tensors against saving in the loop, and the snapshot check
#   ddp          NCCL DDP on one GPU under torchrun, against the single-process curve
#   compile      ntrain's compile=true (inductor) on the digits example
#   sync_bn      a BatchNorm model (ntrain.ladder.user_tasks:batchnorm) with sync_bn=true on 1 and on 2 processes (NCCL): the
#                validation curves' gap (2 processes need 2 GPUs: NCCL refuses two ranks on one device; skipped, saying so)
# SECTIONS="throughput sync" runs only those. EPOCHS (default 2) sets the digits runs' epochs.
# On a machine without CUDA (a rehearsal: EPOCHS=1 OUT=/tmp/r bash bench/gpu.sh) the CUDA-only parts skip cleanly
# and the rest runs tiny versions of itself, so the script exits 0.
set -uo pipefail
OUT=${OUT:-/tmp/ntrain-gpu}; mkdir -p "$OUT"
T0=$(date +%s); DEADLINE=$((T0 + 900))
SECTIONS=${SECTIONS:-"speed throughput anchors sync nccl_golden sync_bn resnet_loop digits saves ddp compile"}
exec 3>&1   # the console: log lines go there and to summary.txt, never into a section's redirected output
log() { echo "$@" | tee -a "$OUT/summary.txt" >&3; }
want() { [[ " $SECTIONS " == *" $1 "* ]]; }
left() { echo $((DEADLINE - $(date +%s))); }
# guard NAME CAP_S CMD...: run CMD under `timeout` of min(CAP_S, time left); skip it when under 15 s are left
guard() {
  local name=$1 cap=$2; shift 2
  local l; l=$(left)
  if (( l < 15 )); then log "== $name: skipped (time budget spent: ${BUDGET_S} s)"; return 3; fi
  local t=$(( cap < l ? cap : l )); local s=$(date +%s)
  timeout -k 5 "$t" "$@"; local rc=$?
  if (( rc == 124 || rc == 137 )); then log "== $name: stopped by its time guard after $t s"; fi
  log "   ($name: exit $rc, $(( $(date +%s) - s )) s; $(left) s of the budget left)"
  return 0
}
pip install --no-deps --no-build-isolation -e . >"$OUT/pip.log" 2>&1 || export PYTHONPATH="$PWD:${PYTHONPATH:-}"
export PYTHONPATH="$PWD:${PYTHONPATH:-}"   # bench.bench_tasks for the ResNet-50 task
python -c "import sklearn" 2>/dev/null || log "WARNING: scikit-learn missing: the digits example cannot load"
CUDA=$(python -c "import torch; print(int(torch.cuda.is_available()))" 2>/dev/null || echo 0)
# the 4-minute limit is the device's; a CPU rehearsal gets room to run every section, and one torch thread per
# process (two intra-op threads on a few busy cores are many times slower)
[ "$CUDA" = 1 ] || export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
BUDGET_S=${BUDGET_S:-$([ "$CUDA" = 1 ] && echo 470 || echo 900)}
DEADLINE=$((T0 + BUDGET_S))
nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
python -m ntrain env >"$OUT/env.txt" 2>&1; log "$(head -3 "$OUT/env.txt")"
log "gpu.sh: CUDA available: $CUDA; budget ${BUDGET_S} s; sections: $SECTIONS"

# ---- the speed check on synthetic ResNet-50: its verdict and every row of its table
if want speed; then
  log "== ntrain speed on synthetic ResNet-50 (fp32, TF32 off; batch 128; 2 repeats; budget 180 s; a CPU rehearsal: the gallery's small task)"
  SP_BUDGET=$([ "$CUDA" = 1 ] && echo 180 || echo 60)
  SP_TASK=$([ "$CUDA" = 1 ] && echo "task=bench.bench_tasks:resnet50_synth batch_size=128" || echo "task=bench.speed_tasks:small batch_size=64")
  guard speed $((SP_BUDGET + 60)) python -m ntrain speed digits $SP_TASK precision=fp32 tf32=false num_workers=4 log_every=10 \
    run_dir="$OUT/speed" --budget "$SP_BUDGET" --repeats 2 >"$OUT/speed.log" 2>&1
  python - "$OUT" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
from pathlib import Path
p = Path(sys.argv[1])/'speed'/'speed.json'
if not p.exists(): print('   no speed.json (see speed.log)'); sys.exit(0)
d = json.loads(p.read_text())
print(f"   bottleneck {d['bottleneck']}: {d['evidence']}")
print(f"   measures {d.get('measures')}; check {d['seconds']} s; stopped {d.get('stopped')}; recommend {d['recommend']}")
for r in d['rows']:
    sp = f"x{r['speedup']:.2f} +/- {r['band']:.0%}" if r.get('speedup') is not None else '-'
    print(f"   {r['fix']:16s} {r.get('samples_per_s') or 0:10,.0f} samples/s {sp:16s} {r.get('verdict')}" + (f" (compile {r['compile_s']:.0f} s)" if r.get('compile_s') else ''))
PY
fi

# ---- ResNet-50 throughput (images/s), written to $OUT/resnet50.jsonl variant by variant
if want throughput; then
  log "== ResNet-50 throughput (synthetic 3x224x224 uint8, batch 256, SGD; 10 warm-up + 30 timed steps)"
  guard throughput 130 python bench/gpu_resnet.py throughput --out "$OUT" --deadline "$((DEADLINE - 60))" 2>"$OUT/throughput.err" \
    | tee -a "$OUT/summary.txt"
fi

# ---- bf16 and compile throughput against NVIDIA's published ResNet-50 training figure (2,470 img/s, A100)
if want anchors; then
  log "== anchors: ResNet-50 training throughput against NVIDIA's 2,470 img/s on an A100"
  guard anchors 15 python - "$OUT" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import json, sys
from pathlib import Path
p = Path(sys.argv[1])/'resnet50.jsonl'
recs = [json.loads(l) for l in p.read_text().splitlines()] if p.exists() else []
rs = {r['variant']: r for r in recs if r.get('kind') == 'throughput' and r.get('images_per_s')}
if not rs: print('   no throughput figures (the throughput section did not run or was skipped)')
for v, r in rs.items():
    a100 = 'A100' in str(r.get('device'))
    print(f"   {v:22s} {r['images_per_s']:8,.0f} img/s = {r['images_per_s'] / 2470:.2f} x the anchor" + ('' if a100 else f" (on {r.get('device')}, not an A100: said, not judged)"))
PY
fi

# ---- sync audit: no host-device sync inside the bf16 and fp32 steps
if want sync; then
  log "== sync audit (torch.cuda.set_sync_debug_mode('warn'))"
  guard sync 50 python bench/gpu_sync_audit.py --out "$OUT" --precisions bf16,fp32,fp16 2>"$OUT/sync.err" | tee -a "$OUT/summary.txt"
  # warnings raised where no Python frame is (autograd's device threads) go to stderr, unplaced: count them
  log "   sync warnings outside Python frames (in sync.err, not placed): $(grep -c 'synchronizing CUDA' "$OUT/sync.err" 2>/dev/null)"
fi

# ---- the reference loop against ntrain on ResNet-50 (bf16 + channels_last)
if want resnet_loop; then
  log "== ResNet-50: the reference loop against ntrain (bf16, channels_last, batch 256, 2 epochs of 30 steps)"
  guard resnet_loop "$([ "$CUDA" = 1 ] && echo 80 || echo 240)" python bench/gpu_resnet.py compare --out "$OUT" --deadline "$((DEADLINE - 5))" 2>"$OUT/resnet_loop.err" \
    | tee -a "$OUT/summary.txt"
fi

# ---- the digits golden under NCCL: 1 against 2 processes
if want nccl_golden; then
  NGPU=$(python -c "import torch; print(torch.cuda.device_count())" 2>/dev/null || echo 0)
  if (( NGPU >= 2 )); then
    log "== NCCL golden: digits deterministic=true epochs=4, ntrain launch --nproc 1 against --nproc 2"
    for n in 1 2; do
      guard "nccl_golden$n" 60 python -m ntrain launch digits deterministic=true epochs=4 run_dir="$OUT/golden$n" --nproc $n >"$OUT/golden$n.log" 2>&1
    done
    guard nccl_gaps 15 python - "$OUT" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
rec = lambda d: [json.loads(l) for l in (out/d/'metrics.jsonl').read_text().splitlines() if json.loads(l).get('kind') in ('step', 'epoch')] if (out/d/'metrics.jsonl').exists() else []
a, b = rec('golden1'), rec('golden2')
gaps = [abs(x.get('loss', x.get('train_loss', 0)) - y.get('loss', y.get('train_loss', 0))) / max(abs(x.get('loss', x.get('train_loss', 1))), 1e-12) for x, y in zip(a, b)]
print(f"   {len(a)} and {len(b)} records; loss relative gaps, 2 processes vs 1: max {max(gaps):.1e}" if gaps else '   no records to compare (see golden*.log)')
PY
  else log "== nccl_golden: skipped: 1 against 2 processes needs 2 GPUs ($NGPU here)"; fi
fi

COMMON="digits epochs=${EPOCHS:-2} num_workers=2 batch_size=256 deterministic=false early_stop.patience=null log_every=5"
card() { grep -E '^\*\*(Run|Best|Global)' "$1/run.md" 2>/dev/null | tr -d '*' | tee -a "$OUT/summary.txt"; }
run() {  # name, then extra keys
  local name=$1; shift
  local t0=$(date +%s.%N)
  guard "$name" 60 python -m ntrain fit $COMMON run_dir="$OUT/$name" "$@" >"$OUT/$name.log" 2>&1 || return 0
  local t1=$(date +%s.%N)
  log "== $name: wall $(python -c "print(f'{$t1-$t0:.1f}')") s"; card "$OUT/$name"
}
cuda_only() { log "== $1: skipped (CUDA only: $2)"; }
if want digits; then
  run bf16 precision=bf16
  if [ "$CUDA" = 1 ]; then run fp16 precision=fp16; else cuda_only fp16 "GradScaler's fp16 path"; fi
  run fp32 precision=fp32 tf32=true
fi
if want saves; then
  # checkpoints: the background saver's CUDA snapshot (device-to-host copy) against saving in the loop
  run save_async precision=bf16 ckpt_every=2
  run save_sync precision=bf16 ckpt_every=2 ckpt_async=false
  guard snapshot 30 python - "$OUT" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import json, sys, torch
from pathlib import Path
from ntrain.engine.checkpoint import snapshot, Saver, load
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
fi
if want ddp; then
  # NCCL DDP on one GPU under torchrun, against the single-process bf16 run above
  if guard ddp1 60 python -m ntrain launch $COMMON precision=bf16 strategy=ddp run_dir="$OUT/ddp1" --nproc 1 >"$OUT/ddp1.log" 2>&1; then
    log "== ddp1 (NCCL, torchrun --nproc 1)"; card "$OUT/ddp1"
  fi
fi
if want compile; then
  if [ "$CUDA" = 1 ]; then run compile precision=bf16 compile=true; else cuda_only compile "inductor compiles too slowly on a few CPU cores"; fi
fi
if want sync_bn; then
  NGPU=$(python -c "import torch; print(torch.cuda.device_count())" 2>/dev/null || echo 0)
  if (( NGPU >= 2 )); then
    printf 'name: bn\ntask: ntrain.ladder.user_tasks:batchnorm\nepochs: 3\nbatch_size: 32\nsync_bn: true\nseed: 0\n' >"$OUT/bn.yaml"
    for n in 1 2; do
      guard "sync_bn$n" 60 python -m ntrain launch "$OUT/bn.yaml" run_dir="$OUT/bn$n" --nproc $n >"$OUT/bn$n.log" 2>&1
    done
  else log "== sync_bn: skipped: 1 against 2 processes needs 2 GPUs ($NGPU here)"; fi
fi
python - "$OUT" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
ep = lambda d: [json.loads(l) for l in (out/d/'metrics.jsonl').read_text().splitlines() if '"kind": "epoch"' in l] if (out/d/'metrics.jsonl').exists() else []
a, b = ep('bf16'), ep('ddp1')
if a and b:
    gaps = [abs(x['val_loss'] - y['val_loss']) / abs(x['val_loss']) for x, y in zip(a, b)]
    print(f"DDP(1 GPU, NCCL) vs single process, val_loss relative gaps per epoch: {', '.join(f'{g:.1e}' for g in gaps)}")
a, b = ep('bn1'), ep('bn2')
if a and b:
    gaps = [abs(x['val_loss'] - y['val_loss']) / abs(x['val_loss']) for x, y in zip(a, b)]
    print(f"BatchNorm, sync_bn=true: 2 processes vs 1, val_loss relative gaps per epoch: {', '.join(f'{g:.1e}' for g in gaps)}")
for d in ('bf16', 'fp16', 'fp32', 'compile', 'save_async', 'save_sync', 'ddp1'):
    r = ep(d)
    if r: print(f"{d:14s} samples/s (median epoch) {sorted(x['samples_per_s'] for x in r)[len(r)//2]:,.0f}  final val_acc {r[-1]['val_acc']:.4f}"
                + (f"  skipped steps {r[-1].get('skipped_steps')}" if 'skipped_steps' in r[-1] else ''))
PY
log "done in $(( $(date +%s) - T0 )) s (budget ${BUDGET_S} s): $OUT/summary.txt"
exit 0
