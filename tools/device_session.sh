#!/usr/bin/env bash
# One device call of the work a session owes a GPU, by mode, so that a session with a machine spends its minutes on
# the GPU rather than on writing this again (it had been rewritten into the git-ignored .devpack by hand each time).
#   a    (H200 only; exits at once on another card) the owed H200 work: record the 13 kernels whose bundled traces
#        are older than their code (OUT/rec_h200.json.gz, merged on the CPU with tools/capture_merge.py: --only smem
#        for sgemm/09-11, --only stages,blocks for mma_tf32/05-11), gpu_tests, then the bench refresh with
#        hopper/01-05 (tools/gpu_refresh.sh OUT h200 bench,sizes)
#   h    the H100 bench refresh and gpu_tests
#   any  a on an H200, else h
#   b, c the first and second half of `ctest -L gpu` (one 10-minute call each), logs OUT/ctest_a_GPU.txt and
#        OUT/ctest_b_GPU.txt
# Every mode writes nvidia-smi's facts first (OUT/gpu.txt). Run from the repository root on the GPU machine, the build
# carried in .devpack (tools/devpack.sh build):
#   GS_BUILD=.devpack/build tools/on-device.sh tools/device_session.sh MODE "$OUT"
set -uo pipefail
mode=${1:?usage: device_session.sh a|h|any|b|c OUT}
out=${2:?usage: device_session.sh a|h|any|b|c OUT}
build=${GS_BUILD:-build}
mkdir -p "$out"
nvidia-smi >"$out/gpu.txt" 2>&1
name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
case $name in *H200*) gpu=h200 ;; *) gpu=h100 ;; esac
echo "GPU: ${name:-none} ($gpu)"
[ "$mode" = any ] && { [ "$gpu" = h200 ] && mode=a || mode=h; }
kernels='sgemm/09_cp_async,sgemm/10_thread_tile_16x8,sgemm/10_thread_tile_16x8[vec=off],sgemm/11_block_128x256_k16,mma_tf32/05_double_buffer,mma_tf32/06_warp_64x64,mma_tf32/07_swizzle,mma_tf32/08_ldmatrix,mma_tf32/09_xor_permuted,mma_tf32/10_multistage,mma_tf32/10_multistage[stages=2],mma_tf32/10_multistage[stages=3],mma_tf32/11_swapped_operands'
case $mode in
  a)
    [ "$gpu" = h200 ] || { echo "mode a wants an H200; this is $name"; exit 0; }
    "$build/gemmscope" record -o "$out/rec_h200.json" --kernels "$kernels" >"$out/record_h200.txt" 2>&1 &&
      gzip -f "$out/rec_h200.json"
    tail -n 3 "$out/record_h200.txt"
    "$build/tests/gpu_tests" --gtest_brief=1 >"$out/gpu_tests_h200.txt" 2>&1
    tail -n 4 "$out/gpu_tests_h200.txt"
    "$(dirname "$0")/gpu_refresh.sh" "$out" h200 bench,sizes
    ;;
  h)
    "$(dirname "$0")/gpu_refresh.sh" "$out" h100 bench,sizes
    "$build/tests/gpu_tests" --gtest_brief=1 >"$out/gpu_tests_h100.txt" 2>&1
    tail -n 4 "$out/gpu_tests_h100.txt"
    ;;
  b | c)
    # -I indexes the tests ctest selected (-L gpu): 1195 of them since the wgmma ceiling's kernels
    range=$([ "$mode" = b ] && echo 1,690 || echo 691,1195)
    log="$out/ctest_$([ "$mode" = b ] && echo a || echo b)_$gpu.txt"
    ctest --test-dir "$build" -L gpu -j1 --timeout 300 -I "$range" >"$log" 2>&1
    tail -n 12 "$log"
    ;;
  *) echo "unknown mode '$mode' (a, h, any, b or c)"; exit 2 ;;
esac
