#!/usr/bin/env python3
"""README's sectors-per-request table: Nsight Compute's ratio (tools/gmem_ncu.sh) beside what gemmscope's
model (core/gmem.h: distinct 32-byte sectors of the active lanes' bytes, one request per warp instruction)
counts on the rung's traced addresses in a capture.

  tools/gmem_table.py CAPTURE.json gmem_ncu.csv   -> a Markdown table on stdout
"""
import csv
import json
import sys

from capture_json import load_json

OPS = {"load": "ld", "cp.async": "ldgsts", "store": "st"}


def model(capture):
    """kernel -> op -> [requests, sectors] over the capture's traced records."""
    out = {}
    for g in capture.get("gmem", []):
        spans = sorted((o, o + g["width"]) for o in g["offset"] if o is not None)
        if not spans:
            continue
        sectors = set()
        for b, e in spans:
            sectors.update(range(b // 32, (e - 1) // 32 + 1))
        acc = out.setdefault(g["kernel"], {}).setdefault(OPS[g["kind"]], [0, 0])
        acc[0] += 1
        acc[1] += len(sectors)
    return out


def main():
    capture = load_json(sys.argv[1])
    measured = {}
    for row in csv.DictReader(open(sys.argv[2])):
        if row["op"] in OPS.values():
            measured[(row["kernel"], row["op"])] = float(row["ncu_sectors_per_request"])
    mod = model(capture)

    def cell(m, n):
        if m is None and n is None:
            return "-"
        ms = f"{m[1] / m[0]:.2f}" if m else "not traced"
        ns = f"{n:.2f}" if n is not None else "none"
        if m is not None and n is not None and abs(m[1] / m[0] - n) < 0.005:
            return f"{ms} = {ns}"
        return f"{ms} / {ns}"

    # Nsight Compute (2025.x on sm_90) reports cp.async's global reads (LDGSTS) under op_ld: the loads column
    # compares them with the traced cp.async records where the rung has no LDG of its own.
    print("| rung | loads: gemmscope / Nsight Compute | stores: gemmscope / Nsight Compute |")
    print("|---|---|---|")
    kernels = [k for k in dict.fromkeys([k for k, _ in measured] + list(mod)) if "[" not in k]
    for k in kernels:
        ops = mod.get(k, {})
        load = ops.get("ld") or ops.get("ldgsts")
        kind = "" if "ld" in ops or "ldgsts" not in ops else " (cp.async)"
        print(f"| {k} | {cell(load, measured.get((k, 'ld')))}{kind} | {cell(ops.get('st'), measured.get((k, 'st')))} |")


if __name__ == "__main__":
    main()
