#!/usr/bin/env python3
"""README's sectors-per-request table: Nsight Compute's ratio (tools/gmem_ncu.sh) beside what gemmscope's
model (core/gmem.h: distinct 32-byte sectors of the active lanes' bytes, one request per warp instruction)
counts on the rung's traced addresses in a capture.

  tools/gmem_table.py CAPTURE.json gmem_ncu.csv   -> a Markdown table on stdout
"""
import csv
import json
import sys

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
    capture = json.load(open(sys.argv[1]))
    measured = {}
    for row in csv.DictReader(open(sys.argv[2])):
        if row["op"] in OPS.values():
            measured[(row["kernel"], row["op"])] = float(row["ncu_sectors_per_request"])
    mod = model(capture)
    print("| rung | instruction | gemmscope (traced) | Nsight Compute | |")
    print("|---|---|---|---|---|")
    kernels = [k for k in dict.fromkeys([k for k, _ in measured] + list(mod))]
    for k in kernels:
        for op in ("ld", "ldgsts", "st"):
            m = mod.get(k, {}).get(op)
            n = measured.get((k, op))
            if m is None and n is None:
                continue
            ms = f"{m[1] / m[0]:.2f}" if m else "not traced"
            ns = f"{n:.2f}" if n is not None else "none"
            same = "" if m is None or n is None else ("=" if abs(m[1] / m[0] - n) < 0.05 * max(n, 1) else "differs")
            print(f"| {k} | {op} | {ms} | {ns} | {same} |")


if __name__ == "__main__":
    main()
