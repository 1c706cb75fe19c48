#!/bin/bash
# The speed check's false "data" verdicts on the healthy small task (bench/speed_tasks.py:small), on a busy machine:
# N checks (`ntrain speed`, seeds 1..N) with HOGS processes spinning (1 or 2 of the 2 cores), each check's row, data
# share and recommendation. The row must be 'none' and the recommendation {} every time.
# Usage, from the repository root: bench/speed_healthy_load.sh N HOGS
set -u
cd "$(dirname "$0")/.."; export OMP_NUM_THREADS=1
n=${1:-5}; hogs=${2:-1}; pids=()
for _ in $(seq 1 "$hogs"); do python -c "while True: pass" & pids+=($!); done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
for i in $(seq 1 "$n"); do
  rd=$(mktemp -d)/run
  timeout 200 python -m ntrain speed digits task=bench.speed_tasks:small num_workers=0 batch_size=16 log_every=10 \
    early_stop.patience=null seed="$i" run_dir="$rd" > /dev/null 2>&1
  python -c "import json;d=json.load(open('$rd/speed.json'));print('hogs $hogs', 'seed $i', d['bottleneck'], 'data', round(d['shares'].get('data',0),3), 'recommend', d['recommend'], f\"{d['seconds']} s\")"
done
