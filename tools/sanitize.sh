#!/usr/bin/env bash
# compute-sanitizer over every rung and variant (issue 16, item 3), on a GPU machine (after tools/devpack.sh, as
# tools/on-device.sh describes):
#   GS_BUILD=.devpack/build tools/on-device.sh bash tools/sanitize.sh OUT [SIZES] [TOOLS]
# Each tool runs `gemmscope bench --verify-only` (one launch per kernel, precision and size, checked against
# cuBLAS; cuBLAS's reference launches are instrumented too), and writes
# OUT/sanitize_<tool>.txt; OUT/sanitize_summary.txt has one line per tool: its error summary and exit code.
#   SIZES  default 520x264x200,512 (an edge-case shape no tile divides, and 512^3)
#   TOOLS  default memcheck,racecheck,synccheck,initcheck
set -uo pipefail
out=$1
sizes=${2:-520x264x200,512}
tools=${3:-memcheck,racecheck,synccheck,initcheck}
build=${GS_BUILD:-build}
mkdir -p "$out"
: >"$out/sanitize_summary.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$out/sanitize_summary.txt"
compute-sanitizer --version | tail -1 >>"$out/sanitize_summary.txt"
for tool in ${tools//,/ }; do
  t0=$(date +%s)
  compute-sanitizer --tool "$tool" --print-limit 20 --error-exitcode 9 \
    "$build/gemmscope" bench --verify-only --sizes "$sizes" >"$out/sanitize_$tool.txt" 2>&1
  rc=$?
  launches=$(grep -c "verified\|FAILED" "$out/sanitize_$tool.txt")
  failed=$(grep -c "FAILED" "$out/sanitize_$tool.txt")
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error" "$out/sanitize_$tool.txt" | tail -1)
  echo "$tool: exit $rc, ${summary:-no summary line}, $launches kernel launches checked ($failed failed verification), $(($(date +%s) - t0)) s" |
    tee -a "$out/sanitize_summary.txt"
done
