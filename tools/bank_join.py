#!/usr/bin/env python3
"""Joins bench/bank_probe's case tables with Nsight Compute's raw CSV of the same launches (tools/bank_ncu.sh)
into the table tests/data/bank_probe_h100.tsv holds: one row per case, the op's wavefronts and conflicts,
the instruction count that shows the launch executed exactly one shared-memory instruction, the 32 lane
offsets, and every metric asked for.
  bank_join.py DIR "GPU, driver, clocks" "ncu version" METRICS [DATE] > table.tsv
DIR holds cases_<group>.tsv and probe_<group>.csv for the groups lds, ldmatrix, sts, cp.async, or for the
2-byte groups lds2_ and sts2_ (GS_PROBE_GROUPS in tools/bank_ncu.sh)."""
import csv
import datetime
import os
import sys

out, gpu, ncu, metrics = sys.argv[1:5]
date = sys.argv[5] if len(sys.argv) > 5 else datetime.date.today().isoformat()
asked = metrics.split(",")
pairs = {  # op -> (wavefronts metric, conflicts metric, instructions metric)
    "lds": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
            "smsp__sass_inst_executed_op_shared_ld.sum"),
    "sts": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
            "smsp__sass_inst_executed_op_shared_st.sum"),
    "ldmatrix": ("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
                 "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",
                 "smsp__sass_inst_executed_op_ldsm.sum"),
    # This ncu has no hardware wavefront counter for LDGSTS: the instrumented one, beside the hardware
    # conflict counter.
    "cp.async": ("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
                 "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
                 "smsp__sass_inst_executed_op_ldgsts.sum"),
}
print(f"# bench/bank_probe.cu under Nsight Compute {ncu}, --clock-control none")
print(f"# GPU, driver, clocks at start (SM, max SM, memory): {gpu}")
print(f"# measured {date} by tools/bank_ncu.sh: one warp, one shared-memory instruction per launch")
print("# wavefronts, conflicts: lds l1tex__..._op_ld, sts l1tex__..._op_st, ldmatrix sm__sass_..._op_ldsm,")
print("# cp.async sm__sass_..._op_ldgsts wavefronts (instrumented) and l1tex__..._op_ldgsts conflicts (hardware);")
print("# instructions: the op's executed shared-memory instructions; offsets: lane 0..31 byte offsets, - inactive;")
print("# metrics: every counter of the launch (names shortened: l1tex__data_ -> l1_, sm__sass_l1tex_data_ -> sass_,")
print("# pipe_lsu_ -> '', mem_shared_ -> sh_, smsp__sass_inst_executed_ -> inst_, .sum dropped)")
print("case\top\twidth\twavefronts\tconflicts\tinstructions\toffsets\tmetrics")


def short(m):
    for a, b in (("l1tex__data_", "l1_"), ("sm__sass_l1tex_data_", "sass_"), ("pipe_lsu_", ""),
                 ("mem_shared_", "sh_"), ("mem_shared", "sh"), ("smsp__sass_inst_executed_", "inst_"), (".sum", "")):
        m = m.replace(a, b)
    return m


for grp in ("lds", "lds2_", "ldmatrix", "sts", "sts2_", "cp.async"):
    cpath, rpath = f"{out}/cases_{grp}.tsv", f"{out}/probe_{grp}.csv"
    if not (os.path.exists(cpath) and os.path.exists(rpath)):
        continue
    cases = list(csv.DictReader(open(cpath), delimiter="\t"))
    rows = [r for r in csv.DictReader(open(rpath)) if "bp_" in r.get("Kernel Name", "")]
    if len(rows) != len(cases):
        print(f"{grp}: {len(rows)} profiled launches for {len(cases)} cases: not joined", file=sys.stderr)
        continue
    for c, r in zip(cases, rows):
        key = "ldmatrix" if c["op"].startswith("ldmatrix") else c["op"]
        w, cf, ni = (r.get(m, "").replace(",", "") for m in pairs[key])
        allm = ";".join(f"{short(m)}={r.get(m, '').replace(',', '')}" for m in asked if m in r)
        print(f"{c['case']}\t{c['op']}\t{c['width']}\t{w}\t{cf}\t{ni}\t{c['offsets']}\t{allm}")
