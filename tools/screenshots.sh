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
# Launch order: mma_f16/07's bands beside the same kernel in row-major order ([order=none]), the waves on the
# per-SM timelines.
run "$bin" shot --view swizzle --kernel mma_f16/07_swizzle --theme light -o "$root/docs/swizzle-mma_f16-07.png"
# Stream-K: mma_f16/13's whole wave, then the leftover tiles' pieces on every SM, beside rung 12.
run "$bin" shot --view swizzle --kernel mma_f16/13_stream_k --theme light -o "$root/docs/swizzle-mma_f16-13.png"
# Global memory: sgemm/02's loads beside 01's (one sector for the whole warp against 32).
run "$bin" shot --view gmem --kernel sgemm/02_gmem_coalesce --theme light -o "$root/docs/gmem-sgemm-02.png"
# The mma_f16 ladder on the roofline, under the H200's measured ceilings.
run "$bin" shot --view roofline --kernel mma_f16/10_multistage --theme light -o "$root/docs/roofline-mma_f16.png"
# The pipeline timeline: 05's double buffer above, 04 below on the same cycle scale.
run "$bin" shot --view timeline --kernel mma_f16/05_double_buffer --theme light -o "$root/docs/timeline-mma_f16-05.png"
# The code view: what 08 changed from 07.
run "$bin" shot --view code --kernel mma_f16/08_ldmatrix --theme light -o "$root/docs/code-mma_f16-08.png"
# The hopper ladder: wgmma's accumulator one warp per band, the descriptor swizzle modes, the persistent
# rung's tiles per SM, its producer and consumers across tiles.
run "$bin" shot --view layout --kernel hopper/04_persistent --theme light -o "$root/docs/layout-wgmma.png"
run "$bin" shot --view banks --kernel hopper/04_persistent --theme light -o "$root/docs/banks-hopper-swizzle.png"
run "$bin" shot --view swizzle --kernel hopper/04_persistent --theme light -o "$root/docs/swizzle-hopper-04.png"
run "$bin" shot --view timeline --kernel hopper/04_persistent --theme light -o "$root/docs/timeline-hopper-04.png"
# TFLOP/s against size for each ladder and cuBLAS of its dtype: one picture per family.
# (mma_f16/09, not 10: the bundled capture replays a live series of 10, which its pane shows instead.)
for k in sgemm/01_naive wmma/01_naive mma_f16/09_xor_permuted mma_tf32/11_swapped_operands hopper/06_tma_store; do
  run "$bin" shot --view perf --kernel "$k" --theme light -o "$root/docs/perf-${k%%/*}.png"
done
ls -la "$root/docs"
