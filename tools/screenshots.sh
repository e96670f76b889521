#!/usr/bin/env bash
# Regenerates the README's pictures with `gemmscope shot` from the bundled capture (Xvfb if headless).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/gemmscope}
run() { if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s "-screen 0 1920x1080x24" "$@"; fi; }
# The whole window at 1920x1080: every view side by side, following the default rung.
run "$bin" shot --view all --size 1920x1080 -o "$root/docs/gemmscope.png"
run "$bin" shot --view layout --op mma.m16n8k16.f16 --kernel mma_f16/10_multistage --theme light -o "$root/docs/layout-mma-m16n8k16.png"
# An sgemm rung has no fragments: the layout view shows which thread computes which elements instead.
run "$bin" shot --view layout --kernel sgemm/02_gmem_coalesce --theme light -o "$root/docs/layout-sgemm-02.png"
run "$bin" shot --view banks --kernel mma_tf32/01_vectorized --theme light -o "$root/docs/banks-mma_tf32-01.png"
# Launch order: mma_f16/07's swizzle beside 06's row-major order, the waves on the per-SM timelines.
run "$bin" shot --view swizzle --kernel mma_f16/07_swizzle --theme light -o "$root/docs/swizzle-mma_f16-07.png"
# TFLOP/s against size for each ladder and cuBLAS of its dtype: one picture per family.
for k in sgemm/01_naive wmma/01_naive mma_f16/10_multistage mma_tf32/10_multistage hopper/06_tma_store; do
  run "$bin" shot --view perf --kernel "$k" --theme light -o "$root/docs/perf-${k%%/*}.png"
done
ls -la "$root/docs"
