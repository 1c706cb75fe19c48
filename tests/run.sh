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

python tools/readme.py --check  # README.md is made from nbs/index.ipynb

# Every notebook is a test: each executed as nbdev_test runs it, then the docs site built from the executed notebooks
# into _docs/, and its internal links checked. A failing notebook or a broken link fails here. It runs in one worker
# beside the first pytest part below (that part leaves about a third of the two cores idle, waiting on its
# subprocesses); its log is printed when both have ended.
docs_log=$(mktemp)
echo "== the notebooks, executed; the docs site built from them (tools/docs.py), beside pytest's first part: ${docs_log}"
python tools/docs.py --out _docs --workers 1 > "$docs_log" 2>&1 & docs_pid=$!
trap 'kill "$docs_pid" 2>/dev/null || true; rm -f "$docs_log"' EXIT

# Two processes, each test file kept in one (its module fixtures made once), then the latency-bound files alone (their
# list: tests/conftest.py SERIAL), once the notebooks are done. Every part always runs; the script fails if any does.
# Exit 5 is "nothing selected".
echo "== pytest: ${NTRAIN_TEST_WORKERS:-2} processes"
rc1=0; python -m pytest tests -n "${NTRAIN_TEST_WORKERS:-2}" --dist loadfile -m "not serial" "$@" || rc1=$?
rc0=0; wait "$docs_pid" || rc0=$?
echo "== the notebooks and the docs site (exit ${rc0}):"; cat "$docs_log"
echo "== pytest: the latency tests, alone"
rc2=0; python -m pytest tests -p no:xdist -m serial "$@" || rc2=$?
if [ "$rc0" != 0 ]; then echo "FAIL: the notebooks or the docs site (above)" >&2; exit "$rc0"; fi
for rc in $rc1 $rc2; do if [ "$rc" != 0 ] && [ "$rc" != 5 ]; then exit "$rc"; fi; done
if [ "$rc1" = 5 ] && [ "$rc2" = 5 ]; then echo "FAIL: no test selected" >&2; exit 5; fi
