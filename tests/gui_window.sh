#!/usr/bin/env bash
# The window itself (not the offscreen shot): opens on the bundled capture under Xvfb, runs the real
# event loop for a few hundred frames and exits cleanly without printing anything.
set -euo pipefail
bin=$1
if [ -z "${DISPLAY:-}" ]; then  # an X server of its own (xvfb-run -a can pick a display another test just took)
  dir=$(mktemp -d)
  source "$(dirname "$0")/private_x.sh"
  start_private_x "$dir" 1920x1080
  trap 'kill $xvfb 2>/dev/null; rm -rf "$dir"; true' EXIT
fi
err=$("$bin" --frames 300 2>&1 >/dev/null) || { echo "FAIL: window exited non-zero: $err"; exit 1; }
[ -z "$err" ] || { echo "FAIL: the window printed errors: $err"; exit 1; }
echo "window ran 300 frames on the bundled capture"
# --replay FILE opens that capture instead.
"$bin" --replay "$(dirname "$bin")/captures/h200.json.gz" --frames 30
echo "window ran 30 frames with --replay"
