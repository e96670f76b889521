#!/usr/bin/env bash
# Nsight Compute on one rung at one size, on a GPU machine (after tools/devpack.sh; see on-device.sh):
#   tools/profile.sh OUTDIR KERNEL [SIZE]     e.g. tools/profile.sh $OUT mma_tf32/06_warp_64x64 4096
# Profiles the rung's first launch in `gemmscope bench` (ncu flushes the caches before each pass) with the
# full section set, clocks left as they are, and writes OUTDIR/<family>_<rung>.txt (details page) and
# OUTDIR/<family>_<rung>_sass.csv (per-instruction warp-stall samples of the k-loop).
set -euo pipefail
out=$1 kernel=$2 size=${3:-4096}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GS_BUILD:-build}
name=${kernel//\//_}
ns=gs::${name}::  # rung namespace, e.g. gs::mma_tf32_06_warp_64x64::kernel<...>
rep=/tmp/$name
"$root/tools/on-device.sh" ncu --clock-control none --set full --import-source no \
  --kernel-name-base demangled -k "regex:${ns}kernel<gs::NoProbe" -c 1 -f -o "$rep" \
  "$root/$build/gemmscope" bench --kernels "$kernel" --sizes "$size" --repeats 10 >/dev/null
ncu -i "$rep.ncu-rep" --page details >"$out/$name.txt"
ncu -i "$rep.ncu-rep" --page source --print-source sass --csv >"$out/${name}_sass.csv"
echo "profiled $kernel at $size: $out/$name.txt"
