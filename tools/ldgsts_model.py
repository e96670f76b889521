#!/usr/bin/env python3
"""What Nsight Compute counts as global sectors per request of a cp.async (LDGSTS) warp instruction:
distinct (128-byte global line, 32-byte unit of shared memory) pairs over the instruction's bytes. Fitted to
bench/ldgsts_probe.cu's 54 single-instruction cases (bench/results/ldgsts_probe_h200.tsv, every one equal),
then applied here to each rung's traced cp.async instructions in a capture (warp 0, first k-iteration: the
global record of a site paired with the shared record of the same site, in program order) beside the ratio
Nsight Compute measured over the whole kernel (bench/results/gmem_ncu_h200.csv).
  tools/ldgsts_model.py CAPTURE NCU_CSV [PROBE_TSV]
With PROBE_TSV it first checks the rule on every probe case and exits 1 if one differs (a CTest runs that)."""
import collections
import csv
import json
import sys

from capture_json import load_json


def pairs(lanes, width):
    """lanes: (global byte offset, shared byte address) of each active lane, `width` bytes each."""
    return len({((g + b) // 128, (d + b) // 32) for g, d in lanes for b in range(0, width, 4)})


def sectors(lanes, width):
    return len({(g + b) // 32 for g, _ in lanes for b in range(0, width, 4)})


def cp_async_records(cap):
    """(kernel, "A" or "B") -> (global records, shared records) of the capture's cp.async instructions of warp 0 in
    the first k-iteration, each list in program order: the i-th of one is the same instruction as the i-th of the
    other ("As ..." shared sites pair with A, "Bs ..." with B)."""
    out = collections.defaultdict(lambda: ([], []))
    for g in cap["gmem"]:
        if g["kind"] == "cp.async" and g["warp"] == 0 and g["iteration"] == 0:
            out[(g["kernel"], g["site"])][0].append(g)
    for s in cap["smem"]:
        if s["kind"] == "cp.async" and s["warp"] == 0 and s["iteration"] == 0:
            out[(s["kernel"], s["site"][:1])][1].append(s)
    return out


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: ldgsts_model.py CAPTURE NCU_CSV [PROBE_TSV]")
    if len(sys.argv) == 4:  # the fit: every probe case
        lines = [l for l in open(sys.argv[3]).read().splitlines() if l and not l.startswith("#")]
        rows = [l.split("\t") for l in lines[1:]]
        bad = 0
        for r in rows:
            lanes = [tuple(map(int, f.split(":"))) for f in r[1:33]]
            if pairs(lanes, 16) != int(r[33]):
                bad += 1
                print(f"probe case '{r[0]}': model {pairs(lanes, 16)}, measured {r[33]}")
        print(f"{len(rows) - bad} of {len(rows)} probe cases equal")
        if bad or not rows:
            sys.exit(1)
    cap = load_json(sys.argv[1])
    measured = {r["kernel"]: float(r["ncu_sectors_per_request"]) for r in csv.DictReader(open(sys.argv[2]))
                if r["op"] == "ld"}
    records = cp_async_records(cap)
    print("| rung | Nsight Compute | distinct sectors | (global line, shared 32-B unit) |")
    print("|---|---:|---:|---:|")
    for kernel in sorted({k for k, _ in records}):
        if kernel not in measured:
            continue
        n = sec = pr = 0
        paired = True
        for site in ("A", "B"):
            gl, sl = records.get((kernel, site), ([], []))
            if len(gl) != len(sl):
                paired = False
                break
            for g, s in zip(gl, sl):
                lanes = [(o, a) for o, a in zip(g["offset"], s["addr"]) if o is not None and a is not None]
                n += 1
                sec += sectors(lanes, g["width"])
                pr += pairs(lanes, g["width"])
        if not paired or n == 0:
            print(f"| {kernel} | {measured[kernel]:.2f} | (records not paired one to one) | |")
            continue
        print(f"| {kernel} | {measured[kernel]:.2f} | {sec / n:.2f} | {pr / n:.2f} |")


if __name__ == "__main__":
    main()
