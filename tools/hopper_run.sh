#!/usr/bin/env bash
# One device call for the hopper ladder, in the order that keeps the most information when something breaks:
# GPU facts (name, clocks, driver), the hopper GPU tests one rung per process under a timeout (a hang or a
# fault in one rung leaves the others' results), SASS opcode counts of the hopper kernels, then
# `gemmscope bench` of the chosen rungs in ONE process, so every ratio is to cuBLAS timed beside it.
#
# Run on the GPU machine from the repository root, with the build carried in .devpack (tools/devpack.sh):
#   GS_BUILD=.devpack/build tools/on-device.sh .devpack/hopper_run.sh OUT TAG [SIZES] [RUNGS] [STEPS]
#   OUT    folder that receives three files: the bench JSON, the bench table and logs_TAG.tgz (every log, the
#          SASS listing); the lent machine returns at most 8 files from $OUT
#   TAG    file name stem of the bench JSON, e.g. h100 -> OUT/hopper_h100.json
#   SIZES  bench sizes (default 2048,4096,8192)
#   RUNGS  comma-separated rung names (default every hopper rung)
#   STEPS  any of tests,alltests,sass,bench,ncu (default tests,sass,bench); alltests: every GPU test of every
#          family in one process (the NoProbe SASS test needs a build configured with GEMMSCOPE_SASS_CHECK=ON)
#   REPEATS (environment) timed launches per kernel in the bench, median taken (default 30)
set -uo pipefail
out=$1
tag=$2
sizes=${3:-2048,4096,8192}
all="hopper/01_tma_wgmma,hopper/02_tile_128x256,hopper/03_warp_specialized,hopper/04_persistent,hopper/04_persistent[order=none],hopper/05_cluster_multicast,hopper/06_tma_store"
rungs=${4:-$all}
steps=${5:-tests,sass,bench}
build=${GS_BUILD:-build}
final=$out
out=$(mktemp -d)
mkdir -p "$final"
trap 'tar czf "$final/logs_$tag.tgz" -C "$out" . ; cp "$out"/hopper_*.json "$out"/bench_*.txt "$final"/ 2>/dev/null' EXIT
has() { [[ ",$steps," == *",$1,"* ]]; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv | tee "$out/gpu.txt"

if has tests; then
  for r in ${rungs//,/ }; do
    f="*$(echo "$r" | sed 's/[^A-Za-z0-9]/_/g')_*"  # gtest's name for the case: non-alphanumerics as _
    timeout 300 "$build/tests/gpu_tests" --gtest_filter="$f" >"$out/tests_${r#hopper/}.log" 2>&1
    echo "tests $r: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/tests_${r#hopper/}.log" | tr '\n' ' ')"
    grep -E 'Failure|error|Expected|Which is|relative error' "$out/tests_${r#hopper/}.log" | head -8
  done
  timeout 120 "$build/tests/gpu_tests" --gtest_filter='HarnessTest.*:Registry.*' >"$out/tests_harness.log" 2>&1
  echo "harness/registry: exit $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/tests_harness.log" | tr '\n' ' ')"
fi

if has alltests; then
  timeout 300 "$build/tests/gpu_tests" >"$out/tests_all.log" 2>&1
  echo "all GPU tests: exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)  \] [0-9]' "$out/tests_all.log" | tr '\n' ' ')"
  grep -E '^\[  FAILED  \]' "$out/tests_all.log" | head -20
fi

if has sass; then
  obj=$(find "$build/kernels" -path '*gs_rungs_hopper.dir*ladder.cu.o' | head -1)
  cuobjdump -sass "$obj" >"$out/hopper.sass" 2>&1
  # opcode histogram per NoProbe kernel: HGMMA, UTMALDG/UTMASTG (TMA), SYNCS (mbarrier), LDL/STL (spills)
  awk '/Function :/ { f = $3; next }
       f ~ /NoProbe/ && /^ +\/\*[0-9a-f]+\*\// {
         line = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", line); sub(/^@!?U?P[0-9T] +/, "", line);
         split(line, w, " "); op = w[1]; sub(/\..*/, "", op); n[f " " op]++ }
       END { for (k in n) print n[k], k }' "$out/hopper.sass" |
    grep -E ' (HGMMA|UTMALDG|UTMASTG|UTMAPF|SYNCS|LDL|STL|USETMAXREG|BAR|STS|STG)$' |
    sed -E 's/_ZN2gs[0-9]+//; s/6kernel[^ ]*//' | sort -k2,2 -k3,3 | tee "$out/sass_counts.txt"
fi

if has bench; then
  timeout 400 "$build/gemmscope" bench --kernels "$rungs" --sizes "$sizes" --repeats "${REPEATS:-30}" \
    --json "$out/hopper_$tag.json" 2>&1 |
    tee "$out/bench_$tag.txt"
fi

if has ncu; then
  # One launch of the top rung at 4096^3, clocks left as they are (METHOD.md).
  top=${rungs##*,}
  timeout 300 ncu --clock-control none --set full --kernel-name-base demangled -k regex:hopper -c 1 -o "$out/ncu_${top#hopper/}" \
    "$build/gemmscope" bench --kernels "$top" --sizes 4096 >"$out/ncu.log" 2>&1
  echo "ncu: exit $?"
  ncu --import "$out/ncu_${top#hopper/}.ncu-rep" --page details >"$out/ncu_details.txt" 2>&1
  grep -E 'Duration|SM Busy|Compute \(SM\)|Memory Throughput|L2 Hit|Registers|Achieved Occupancy|Tensor' "$out/ncu_details.txt" | head -30
fi
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader | sed 's/^/after: /'
