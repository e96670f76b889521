#!/usr/bin/env bash
# Why one block order is slower than another when it reads less from DRAM: Nsight Compute on a kernel in
# several orders, one launch each (the first, caches flushed, clocks as found), with what its warps wait on
# and where its L2 traffic goes: L2 hit rate, DRAM bytes read, duration, L2 sectors that crossed between
# the two L2 partitions (ltcfabric), L2 sectors per slice (mean and busiest: a hot slice), and the average warps stalled per issue on a long scoreboard (global
# or L2 data) and at a barrier (__syncthreads after a cp.async wait). Metrics this ncu does not know are left
# out and named. On a GPU machine (after tools/devpack.sh; see tools/on-device.sh):
#   GS_BUILD=.devpack/build tools/on-device.sh tools/order_stalls.sh OUT TAG SIZE KERNEL...
# writes OUT/stalls_TAG.csv: kernel,size, then one column per metric.
set -uo pipefail
out=$1 tag=$2 size=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GS_BUILD:-build}
want="gpu__time_duration.sum lts__t_sector_hit_rate.pct dram__bytes_read.sum lts__t_sectors_srcunit_ltcfabric.sum
lts__t_sectors.sum lts__t_sectors.avg lts__t_sectors.max smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio"
known=$(ncu --query-metrics --chip gh100 2>/dev/null | awk '{print $1}')
metrics=""
for m in $want; do
  base=${m%.*}
  if [ -z "$known" ] || grep -qx "$base" <<<"$known"; then metrics="$metrics,$m"; else echo "ncu does not know $m: left out"; fi
done
metrics=${metrics#,}
csv=$out/stalls_$tag.csv
echo "kernel,size,${metrics}" >"$csv"
for kernel in "$@"; do
  base=${kernel%%[*}
  ns=gs::${base//\//_}::
  raw=$(ncu --clock-control none --metrics "$metrics" --csv --page raw --print-units base --kernel-name-base demangled \
          -k "regex:${ns}kernel<gs::NoProbe" -c 1 \
          "$root/$build/gemmscope" bench --kernels "$kernel" --sizes "$size" --repeats 10 2>/dev/null)
  python3 - "$raw" "$kernel" "$size" "$metrics" >>"$csv" <<'PY'
import csv, io, sys
raw, kernel, size, metrics = sys.argv[1:]
rows = [r for r in csv.reader(io.StringIO(raw)) if r]
head = next((r for r in rows if "gpu__time_duration.sum" in r), None)
vals = [rows[-1][head.index(m)].replace(",", "") if head and m in head else "" for m in metrics.split(",")]
print(",".join([kernel, size] + vals))
PY
  tail -1 "$csv"
done
