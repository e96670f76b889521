#!/usr/bin/env bash
# Is the roofline's L2 line what L2 can deliver? Nsight Compute, clocks left as they are, on the ceiling's own
# probe (kernels/ceilings.cu l2_read, launched by the GPU test HarnessTest.MeasurePeaks) and on rungs whose
# tiling asks L2 for more than that line at their measured speed (the hopper rungs fed by TMA), at 4096^3.
# For each: L2 sectors read and all L2 bytes, the kernel's duration, and L2's throughput as a share of its peak.
# On a GPU machine (after tools/devpack.sh; see tools/on-device.sh):
#   GS_BUILD=.devpack/build tools/on-device.sh tools/l2_roof_ncu.sh OUT [KERNEL ...]
# writes OUT/l2_roof.csv (kernel,size,l2_read_bytes,l2_bytes,duration_ns,l2_pct_of_peak) and prints it.
set -uo pipefail
out=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GS_BUILD:-build}
csv=$out/l2_roof.csv
metrics=lts__t_sectors_op_read.sum,lts__t_bytes.sum,gpu__time_duration.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(hopper/01_tma_wgmma hopper/03_warp_specialized hopper/04_persistent mma_f16/10_multistage)
echo "kernel,size,l2_read_bytes,l2_bytes,duration_ns,l2_pct_of_peak" >"$csv"

# The CSV's header row names the metrics; its last row holds the values of the one profiled launch.
row() {
  python3 - "$1" "$2" "$3" <<'PY'
import csv, io, sys
raw, name, size = sys.argv[1:4]
rows = [r for r in csv.reader(io.StringIO(raw)) if r]
head = next((r for r in rows if "gpu__time_duration.sum" in r), None)
if not head:
    print(f"{name},{size},,,,", flush=True); sys.exit(0)
v = dict(zip(head, rows[-1]))
num = lambda k: float(v[k].replace(",", ""))
print(f"{name},{size},{num('lts__t_sectors_op_read.sum') * 32:.0f},{num('lts__t_bytes.sum'):.0f},"
      f"{num('gpu__time_duration.sum'):.0f},{num('lts__t_sectors.avg.pct_of_peak_sustained_elapsed'):.1f}")
PY
}

# The ceiling's probe: its first launch is the warm-up one, timed like the others.
raw=$(ncu --clock-control none --metrics "$metrics" --csv --page raw --print-units base -k regex:l2_read -c 1 \
        "$root/$build/tests/gpu_tests" --gtest_filter=HarnessTest.MeasurePeaks 2>/dev/null)
row "$raw" l2_read "l2/4" >>"$csv"
for kernel in "${kernels[@]}"; do
  ns=gs::${kernel//\//_}::
  raw=$(ncu --clock-control none --metrics "$metrics" --csv --page raw --print-units base --kernel-name-base demangled \
          -k "regex:${ns}kernel<gs::NoProbe" -c 1 \
          "$root/$build/gemmscope" bench --kernels "$kernel" --sizes 4096 --repeats 10 2>/dev/null)
  row "$raw" "$kernel" 4096 >>"$csv"
done
cat "$csv"
