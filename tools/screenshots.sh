#!/usr/bin/env bash
# Regenerates the README's pictures with `gemmscope shot` from the bundled capture (Xvfb if headless).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/gemmscope}
run() { if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s "-screen 0 1920x1080x24" "$@"; fi; }
run "$bin" shot --view all -o "$root/docs/gemmscope.png"
run "$bin" shot --view layout --op mma.m16n8k16.f16 --theme light -o "$root/docs/layout-mma-m16n8k16.png"
run "$bin" shot --view perf -o "$root/docs/perf.png"
ls -la "$root/docs"
