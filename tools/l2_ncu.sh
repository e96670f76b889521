#!/usr/bin/env bash
# What a block order does to L2, measured: Nsight Compute on kernels in several orders, at sizes where the
# operands outgrow the L2, with clocks left as they are. By default the swizzling rungs against their variants
# [order=none] (mma_f16/07 and 10: cutlass:4 vs row-major; mma_tf32/07 and 10: cutlass:5 vs row-major;
# hopper/04: grouped vs row-major); or the kernels named after TAG. For each: L2 hit rate
# (lts__t_sector_hit_rate.pct), DRAM bytes read (dram__bytes_read.sum) and the kernel's duration
# (gpu__time_duration.sum) of the kernel's first launch in `gemmscope bench` (ncu flushes the caches first).
# On a GPU machine (after tools/devpack.sh; see tools/on-device.sh):
#   GS_BUILD=.devpack/build tools/on-device.sh tools/l2_ncu.sh OUT TAG [KERNEL ...]
# writes OUT/l2_TAG.csv (kernel,size,order,l2_hit_pct,dram_read_bytes,duration_ns,tflops) and prints it;
# `gemmscope record --ncu-l2 OUT/l2_TAG.csv` keeps it in a capture. L2_SIZES overrides the sizes.
set -uo pipefail
out=$1 tag=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GS_BUILD:-build}
csv=$out/l2_$tag.csv
sizes=${L2_SIZES:-4096x16384x4096 8192x8192x8192}
echo "kernel,size,order,l2_hit_pct,dram_read_bytes,duration_ns,tflops" >"$csv"
metrics=lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=("mma_f16/07_swizzle[order=none]" mma_f16/07_swizzle "mma_f16/10_multistage[order=none]"
  mma_f16/10_multistage "mma_tf32/07_swizzle[order=none]" mma_tf32/07_swizzle "mma_tf32/10_multistage[order=none]"
  mma_tf32/10_multistage "hopper/04_persistent[order=none]" hopper/04_persistent)
for kernel in "${kernels[@]}"; do
  # The order column: a variant's scheme, or "own" for a rung's own order (cutlass:L, hopper/04's grouped order).
  order=own
  [[ $kernel == *"[order="* ]] && { order=${kernel##*\[order=}; order=${order%]}; }
  base=${kernel%%[*}
  ns=gs::${base//\//_}::
  for size in $sizes; do
    raw=$(ncu --clock-control none --metrics "$metrics" --csv --page raw --print-units base --kernel-name-base demangled \
            -k "regex:${ns}kernel<gs::NoProbe" -c 1 \
            "$root/$build/gemmscope" bench --kernels "$kernel" --sizes "$size" --repeats 10 2>/dev/null)
    # The CSV's header row names the metrics; its last row holds the values of the one profiled launch.
    line=$(python3 - "$raw" <<'PY'
import csv, io, sys
rows = [r for r in csv.reader(io.StringIO(sys.argv[1])) if r]
head = next((r for r in rows if "gpu__time_duration.sum" in r), None)
if not head: sys.exit(0)
val = rows[-1]
get = lambda m: float(val[head.index(m)].replace(",", ""))
print(f"{get('lts__t_sector_hit_rate.pct'):.1f},{get('dram__bytes_read.sum'):.0f},{get('gpu__time_duration.sum'):.0f}")
PY
)
    if [ -z "$line" ]; then echo "$kernel,$size,$order,,,," >>"$csv"; echo "no profile for $kernel $size"; continue; fi
    IFS=, read -r hit dram ns_time <<<"$line"
    IFS=x read -r m n k <<<"$size"
    tflops=$(python3 -c "print(round(2*$m*$n*$k/$ns_time/1e3, 1))")
    echo "$kernel,$size,$order,$hit,$dram,$ns_time,$tflops" >>"$csv"
  done
done
cat "$csv"
