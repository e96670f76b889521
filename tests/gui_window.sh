#!/usr/bin/env bash
# The window itself (not the offscreen shot): opens on the bundled capture under Xvfb, runs the real
# event loop for a few hundred frames and exits cleanly without printing anything.
set -euo pipefail
bin=$1
run() { if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s "-screen 0 1920x1080x24" "$@"; fi; }
err=$(run "$bin" --frames 300 2>&1 >/dev/null) || { echo "FAIL: window exited non-zero: $err"; exit 1; }
[ -z "$err" ] || { echo "FAIL: the window printed errors: $err"; exit 1; }
echo "window ran 300 frames on the bundled capture"
# --replay FILE opens that capture instead.
run "$bin" --replay "$(dirname "$bin")/captures/h200.json.gz" --frames 30
echo "window ran 30 frames with --replay"
