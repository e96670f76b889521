#!/bin/bash
set -u
B=.devpack/build; G=$B/gemmscope; O=$OUT
timeout 60 $B/tests/gpu_tests --gtest_filter='StreamK.*:*mma_f16_13*' --gtest_brief=1 > $O/gtests13.txt 2>&1; echo rc $?; tail -n 3 $O/gtests13.txt
timeout 60 compute-sanitizer --tool memcheck $G bench --kernels mma_f16/13_stream_k --sizes 2816x768x3072,5120x1280x4096 --verify-only > $O/memcheck.txt 2>&1; echo rc $?; grep -E 'SUMMARY|verified|FAILED' $O/memcheck.txt
timeout 90 $G bench --kernels mma_f16/12_persistent,mma_f16/13_stream_k --sizes 8192,4352x512x4096 --rounds 5 > $O/bench.txt 2>&1; tail -n 4 $O/bench.txt
echo "[$(date +%T)] ctest a"
ctest --test-dir $B -L gpu -j1 --timeout 300 -I 1,690 > $O/ctest_a.txt 2>&1; echo rc $?; tail -n 6 $O/ctest_a.txt
echo "[$(date +%T)] done"
