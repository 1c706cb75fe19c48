#!/usr/bin/env bash
# Copy the README's two screenshots and the panels at 1000 and 1400 px, taken in a real browser by tests/test_browser.py, from the artifacts folder
# (NTRAIN_ARTIFACTS, default /tmp/ntrain-artifacts) into docs/.
set -euo pipefail
cd "$(dirname "$0")"
src="${NTRAIN_ARTIFACTS:-${TMPDIR:-/tmp}/ntrain-artifacts}"
for f in ladder_panel.png dashboard_running.png ladder_1000.png dashboard_1000.png ladder_1400.png dashboard_1400.png; do
  [ -f "$src/$f" ] || { echo "missing $src/$f: run python -m pytest tests/test_browser.py first" >&2; exit 1; }
  cp "$src/$f" "./$f"; echo "docs/$f"
done
