#!/usr/bin/env bash
# The whole test suite: the notebooks and the package are in sync, every notebook runs, then pytest.
# Usage: tests/run.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" MPLBACKEND=Agg PYTHONDONTWRITEBYTECODE=1

snapshot() { find ntrain nbs -type f \( -name '*.py' -o -name '*.ipynb' \) -not -path '*/.ipynb_checkpoints/*' | sort | xargs sha256sum; }
before=$(snapshot)
nbdev_export
nbdev_clean
after=$(snapshot)
if [ "$before" != "$after" ]; then
  echo "FAIL: nbdev_export/nbdev_clean changed these files; the notebooks and ntrain/ were out of sync:" >&2
  diff <(echo "$before") <(echo "$after") | grep '^[<>]' | awk '{print $3}' | sort -u >&2
  echo "Edit nbs/, run nbdev_export and nbdev_clean, and commit the result." >&2
  exit 1
fi
if [ "${CI:-}" = "true" ]; then git diff --exit-code --stat -- ntrain nbs; fi

echo "== nbdev_test: every notebook is a test"
nbdev_test --n_workers 2

echo "== pytest"
python -m pytest tests "$@"
