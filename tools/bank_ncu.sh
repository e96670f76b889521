#!/usr/bin/env bash
# Nsight Compute as the bank model's ground truth, in one device call (issue 9):
#   1. bench/bank_probe's cases, one warp and one shared-memory instruction per launch, each launch profiled
#      with the shared-memory wavefront and bank-conflict counters -> OUT/bank_probe.tsv (the committed table)
#   2. the clock64 price of 1..32-way conflicts -> OUT/bank_price.tsv
#   3. every rung's first launch in `gemmscope bench` at SIZE^3 with the same counters and the instruction
#      counts -> OUT/bank_rungs.csv (tools/bank_reconcile.py compares it with the model)
# Clocks are left as they are (--clock-control none). Every log, the reports and the SASS go to
# OUT/bank_logs.tgz. Run on the GPU machine from the repository root with the build carried in .devpack:
#   GS_BUILD=.devpack/build tools/on-device.sh bash tools/bank_ncu.sh OUT PROBE [SIZE] [STEPS]
# (on-device.sh makes the carried build's paths and libraries resolve for gemmscope)
#   PROBE  the bank_probe binary (nvcc -O3 -arch=sm_90 -o bank_probe bench/bank_probe.cu)
#   STEPS  any of probe,price,rungs,sass,repeat (default probe,price,rungs); GS_PROBE_GROUPS and
#          GS_PRICE_WIDTHS narrow the probe and price steps (e.g. "lds2_ sts2_" and 2: the 2-byte accesses)
#          sass: the width of every shared-memory instruction of every NoProbe rung kernel (cuobjdump of the
#                rung objects the build carries) -> OUT/rung_smem_sass.txt
#          repeat: three launches each of sgemm/03, 04, 07 and wmma/02 with the same counters, to see which
#                of their counts change from launch to launch -> bank_logs.tgz:repeat_*.csv
set -uo pipefail
final=$1
probe=$2
size=${3:-1024}
steps=${4:-probe,price,rungs}
build=${GS_BUILD:-build}
out=$(mktemp -d)
mkdir -p "$final"
trap 'tar czf "$final/bank_logs.tgz" -C "$out" . ; cp "$out"/bank_probe.tsv "$out"/bank_price.tsv "$out"/bank_rungs.csv "$out"/rung_smem_sass.txt "$final"/ 2>/dev/null' EXIT
has() { [[ ",$steps," == *",$1,"* ]]; }
t0=$(date +%s)

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"
ncu --version | tail -1 | tee "$out/ncu_version.txt"

# Metric names: ask this ncu on this GPU, keep the ones it knows (an unknown name fails the whole run).
ncu --query-metrics >"$out/query_metrics.txt" 2>&1
wanted="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
smsp__sass_inst_executed_op_ldsm.sum smsp__sass_inst_executed_op_ldgsts.sum
launch__grid_size launch__block_size launch__shared_mem_per_block_dynamic launch__shared_mem_per_block_static"
metrics=$(python3 - "$out/query_metrics.txt" $wanted <<'EOF'
import sys
known = set()
for line in open(sys.argv[1], errors="replace"):
    f = line.split()
    if f: known.add(f[0])
keep = [m for m in sys.argv[2:] if m in known or m.rsplit(".", 1)[0] in known]
missing = [m for m in sys.argv[2:] if m not in keep]
if missing: print("ncu does not know:", " ".join(missing), file=sys.stderr)
print(",".join(keep))
EOF
)
echo "metrics: $metrics" >"$out/metrics.txt"
echo "$(echo "$metrics" | tr ',' '\n' | wc -l) metrics known to ncu"

if has probe; then
  # Each probe kernel must hold exactly one shared-memory instruction, else the counters are not its own.
  cuobjdump -sass "$probe" >"$out/bank_probe.sass" 2>&1
  awk '/Function :/ { f = $3; next }
       /^ +\/\*[0-9a-f]+\*\// { line = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", line); sub(/^@!?P[0-9T] +/, "", line);
         split(line, w, " "); op = w[1]; sub(/\..*/, "", op); if (op ~ /^(LDS|STS|LDSM|LDGSTS|ATOMS|LD|ST)$/) n[f] = n[f] " " op }
       END { for (k in n) print k ":" n[k] }' "$out/bank_probe.sass" | sort | tee "$out/probe_sass_ops.txt"
  # GS_PROBE_GROUPS: the case groups to profile, an op (lds) or a case-name prefix (lds2_: the 2-byte loads).
  for grp in ${GS_PROBE_GROUPS:-lds ldmatrix sts cp.async}; do
    [ $(($(date +%s) - t0)) -gt 330 ] && { echo "probe: out of time before $grp"; break; }
    timeout $((360 - $(date +%s) + t0)) ncu --clock-control none --metrics "$metrics" -k regex:bp_ -f -o "$out/probe_$grp" \
      "$probe" cases "$out/cases_$grp.tsv" "$grp" >"$out/probe_$grp.log" 2>&1
    echo "probe $grp: exit $? after $(($(date +%s) - t0)) s"
    ncu -i "$out/probe_$grp.ncu-rep" --csv --page raw --print-units base >"$out/probe_$grp.csv" 2>>"$out/probe_$grp.log"
  done
  python3 "$(dirname "$0")/bank_join.py" "$out" "$(cat "$out/gpu.txt")" "$(cat "$out/ncu_version.txt")" \
    "$metrics" >"$out/bank_probe.tsv"
  echo "probe table: $(grep -vc '^#' "$out/bank_probe.tsv") lines (header included)"
fi

if has price; then
  timeout 60 "$probe" price ${GS_PRICE_WIDTHS:-} >"$out/bank_price.tsv" 2>&1  # e.g. GS_PRICE_WIDTHS=2
  echo "price: exit $?"
fi

if has rungs; then
  # The first launch of every rung (its verification launch, full size), clocks as found. Rungs only: a
  # variant is its rung's kernel under another order or depth, and would only make the run longer.
  # GS_KERNELS=a,b,...: only these rungs (e.g. the ones added since the committed table).
  rung_list=${GS_KERNELS:-$("$build/gemmscope" list --json | python3 -c '
import json, sys
print(",".join(k["name"] for k in json.load(sys.stdin) if not k["variant_of"]))')}
  timeout $((520 - $(date +%s) + t0)) ncu --clock-control none --metrics "$metrics" --kernel-name-base demangled \
    --kernel-id "::regex:NoProbe:1" -f -o "$out/rungs" \
    "$build/gemmscope" bench --kernels "$rung_list" --sizes "$size" --repeats 10 >"$out/rungs.log" 2>&1
  echo "rungs: exit $? after $(($(date +%s) - t0)) s"
  ncu -i "$out/rungs.ncu-rep" --csv --page raw --print-units base >"$out/bank_rungs.csv" 2>>"$out/rungs.log"
  n=$(($(wc -l <"$out/bank_rungs.csv") - 2))
  echo "rungs profiled: $n"
  if [ "$n" -lt 20 ]; then  # --kernel-id matched too few: one ncu per rung instead, as long as time allows
    for k in $(cat "${probe%/*}/rungs.txt"); do  # rung names, one a line, beside the probe binary
      [ $(($(date +%s) - t0)) -gt 520 ] && { echo "rungs: out of time at $k"; break; }
      timeout 60 ncu --clock-control none --metrics "$metrics" --kernel-name-base demangled -k regex:NoProbe -c 1 \
        -f -o "$out/rung_${k//[^A-Za-z0-9]/_}" "$build/gemmscope" bench --kernels "$k" --sizes "$size" >>"$out/rungs.log" 2>&1
      ncu -i "$out/rung_${k//[^A-Za-z0-9]/_}.ncu-rep" --csv --page raw --print-units base 2>>"$out/rungs.log" |
        tail -n +3 >>"$out/bank_rungs.csv"
    done
    echo "rungs profiled one by one: $(($(wc -l <"$out/bank_rungs.csv") - 2))"
  fi
fi

if has sass; then
  for obj in $(find "$build/kernels" -name '*.o' -path '*gs_rungs*'); do cuobjdump -sass "$obj"; done >"$out/rungs.sass" 2>&1
  awk '/Function :/ { f = $3; next }
       f ~ /NoProbe/ && /^ +\/\*[0-9a-f]+\*\// { line = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", line); sub(/^@!?P[0-9T] +/, "", line);
         split(line, w, " "); op = w[1]; sub(/;$/, "", op); if (op ~ /^(LDS|STS|LDSM|LDGSTS)/) n[f " " op]++ }
       END { for (k in n) print n[k], k }' "$out/rungs.sass" | sort -k2,2 -k3,3 >"$out/rung_smem_sass.txt"
  echo "sass: $(wc -l <"$out/rung_smem_sass.txt") (kernel, opcode) pairs"
fi

if has repeat; then
  for k in sgemm/03_smem_tiling sgemm/04_blocktile_1d sgemm/07_warptile wmma/02_smem; do
    ns=${k//\//_}
    timeout 60 ncu --clock-control none --metrics "$metrics" --kernel-name-base demangled -k "regex:${ns}::kernel<(gs::)?NoProbe" \
      -c 3 -f -o "$out/repeat_$ns" "$build/gemmscope" bench --kernels "$k" --sizes "$size" >>"$out/repeat.log" 2>&1
    ncu -i "$out/repeat_$ns.ncu-rep" --csv --page raw --print-units base >"$out/repeat_$ns.csv" 2>>"$out/repeat.log"
    python3 - "$out/repeat_$ns.csv" "$k" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if "NoProbe" in r.get("Kernel Name", "")]
for r in rows:
    g = lambda m: r.get(m, "?")
    print(sys.argv[2], "ld W/C", g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
          g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), "st W/C",
          g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), g("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"))
EOF
  done
fi

echo "--- summary after $(($(date +%s) - t0)) s"
cat "$out/probe_sass_ops.txt" 2>/dev/null | head -20
grep -v '^#' "$out/bank_probe.tsv" 2>/dev/null | cut -f1-6 | awk 'NR % 12 == 2' | head -40
cat "$out/bank_price.tsv" 2>/dev/null
grep -E "sgemm_0[345]" "$out/rung_smem_sass.txt" 2>/dev/null | sed -E 's/_ZN2gs[0-9]+//' | cut -c1-90
