#!/usr/bin/env bash
# One device call that refreshes a GPU's committed numbers, most important first, each step logged:
#   facts  GPU name, clocks and driver (nvidia-smi)
#   tests  every GPU test (ctest -L gpu, one process per test), its summary kept. About 10.5 minutes on an H100
#          since wmma/11 (1076 tests): past one device call's 10, so run it by halves, e.g. `ctest ... -I 1,540`
#          and `-I 541,` in two calls (-I counts the tests ctest selected, not their numbers in the log)
#   gtests the same tests in one gpu_tests process (about 40 s; the fault drill and the SASS check are ctest's)
#   bench  `gemmscope bench --json` of every ladder rung, the hopper ones too, at 4096^3 (--rounds 3):
#          bench/results/TAG.json
#   sizes  the top rungs from 256 to 8192 (--rounds 5): bench/results/TAG_sizes.json
#   record a capture with the sweep README gives, gzipped: OUT/capture_TAG.json.gz
# Run on the GPU machine from the repository root, the build carried in .devpack (tools/devpack.sh):
#   GS_BUILD=.devpack/build tools/on-device.sh tools/gpu_refresh.sh OUT TAG [STEPS]
# STEPS: comma-separated, default facts,tests,bench,sizes.
set -uo pipefail
out=$1
tag=$2
steps=${3:-facts,tests,bench,sizes}
build=${GS_BUILD:-build}
gs="$build/gemmscope"
mkdir -p "$out"
has() { [[ ",$steps," == *",$1,"* ]]; }
log() { echo "[$(date +%T)] $*"; }
ladder=$(for f in sgemm wmma mma_f16 mma_tf32 hopper; do "$gs" list 2>/dev/null | awk -v f="$f/" 'index($1, f) == 1 && $1 !~ /\[/ { print $1 }'; done | paste -sd,)
top="sgemm/10_thread_tile_16x8,sgemm/11_block_128x256_k16,wmma/08_multistage,wmma/09_pipelined,wmma/10_warp_128x64,wmma/11_ldmatrix_xor,mma_f16/10_multistage,mma_f16/11_tma_producer,mma_f16/12_persistent,mma_f16/13_stream_k,mma_tf32/10_multistage,mma_tf32/11_swapped_operands,mma_tf32/12_tma_producer,hopper/06_tma_store"
if has facts; then
  nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,clocks.mem,power.limit,driver_version --format=csv | tee "$out/facts_$tag.txt"
fi
if has tests; then
  log tests
  ctest --test-dir "$build" -L gpu -j1 --timeout 300 >"$out/ctest_gpu_$tag.txt" 2>&1
  tail -n 15 "$out/ctest_gpu_$tag.txt"
fi
if has gtests; then
  log gtests
  "$build/tests/gpu_tests" --gtest_brief=1 >"$out/gpu_tests_$tag.txt" 2>&1
  tail -n 8 "$out/gpu_tests_$tag.txt"
fi
if has bench; then
  log "bench: $ladder"
  "$gs" bench --kernels "$ladder" --sizes 4096 --rounds 3 --json "$out/$tag.json" \
    >"$out/bench_${tag}.txt" 2>&1
  tail -n 52 "$out/bench_${tag}.txt"
fi
if has sizes; then
  log sizes
  "$gs" bench --kernels "$top" --sizes 256,512,1024,2048,4096,8192 --rounds 5 --json "$out/${tag}_sizes.json" \
    >"$out/bench_sizes_${tag}.txt" 2>&1
  tail -n 40 "$out/bench_sizes_${tag}.txt"
fi
if has record; then
  log record
  "$gs" record -o "$out/capture_$tag.json" --sweep 256,512,1024,2048,8192 \
    --ncu-l2 "bench/results/l2_$tag.csv" --smem-price "bench/results/bank_price_$tag.tsv" >"$out/record_$tag.txt" 2>&1
  tail -n 5 "$out/record_$tag.txt"
  gzip -9 "$out/capture_$tag.json"
fi
log done
