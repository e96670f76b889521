#!/usr/bin/env bash
# Global-memory sectors per request, measured: Nsight Compute on every rung that reads A and B with its
# lanes (the hopper rungs use TMA), one launch at 2048^3 in `gemmscope bench`, clocks left as they are:
#   l1tex__t_{sectors,requests}_pipe_lsu_mem_global_op_{ld,ldgsts,st}.sum
# (ld: ordinary loads, ldgsts: cp.async's global side, st: stores). Beside them, what gemmscope's model
# counts on the rung's traced addresses (core/gmem.h) in a capture recorded by the same build.
# On a GPU machine (after tools/devpack.sh; see tools/on-device.sh):
#   GS_BUILD=.devpack/build tools/on-device.sh tools/gmem_ncu.sh OUT CAPTURE
# writes OUT/gmem_ncu.csv (kernel,op,ncu_requests,ncu_sectors,ncu_sectors_per_request) and prints it.
set -uo pipefail
out=$1
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GS_BUILD:-build}
csv=$out/gmem_ncu.csv
echo "kernel,op,ncu_requests,ncu_sectors,ncu_sectors_per_request" >"$csv"
metrics=""
for op in ld ldgsts st; do
  metrics+="l1tex__t_requests_pipe_lsu_mem_global_op_$op.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_$op.sum,"
done
metrics=${metrics%,}
# GS_KERNELS=a,b,...: only these rungs (e.g. the ones added since the committed table).
kernels=$("$root/$build/gemmscope" list --json | GS_KERNELS=${GS_KERNELS:-} python3 -c '
import json, os, sys
only = [k for k in os.environ["GS_KERNELS"].split(",") if k]
for k in json.load(sys.stdin):
    if k["family"] != "hopper" and "[" not in k["name"] and (not only or k["name"] in only): print(k["name"])')
for kernel in $kernels; do
  ns=gs::${kernel//\//_}::
  raw=$(ncu --clock-control none --metrics "$metrics" --csv --page raw --print-units base --kernel-name-base demangled \
          -k "regex:${ns}kernel<gs::NoProbe" -c 1 \
          "$root/$build/gemmscope" bench --kernels "$kernel" --sizes 2048 --repeats 10 2>&1)
  python3 - "$raw" "$kernel" >>"$csv" <<'PY'
import csv, io, sys
raw, kernel = sys.argv[1], sys.argv[2]
rows = [r for r in csv.reader(io.StringIO(raw)) if r]
head = next((r for r in rows if any(c.startswith("l1tex__t_requests") for c in r)), None)
if not head:
    print(f"{kernel},none,,,")
    sys.stderr.write(f"no profile for {kernel}:\n{raw[-1500:]}\n")
    sys.exit(0)
val = rows[-1]
for op in ("ld", "ldgsts", "st"):
    rq = f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"
    se = f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum"
    if rq not in head or se not in head:
        continue
    r = float(val[head.index(rq)].replace(",", "") or 0)
    s = float(val[head.index(se)].replace(",", "") or 0)
    if r == 0:
        continue
    print(f"{kernel},{op},{r:.0f},{s:.0f},{s / r:.2f}")
PY
done
cat "$csv"
