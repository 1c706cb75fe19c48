#!/usr/bin/env bash
# The torchrun tests must never flake: run them N times in a row (default 20); stop at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20}
for i in $(seq "$n"); do
  echo "== run $i/$n"
  python -m pytest tests/test_dist.py -x -q -p no:cacheprovider
done
echo "all $n runs passed"
