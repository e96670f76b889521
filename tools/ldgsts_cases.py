#!/usr/bin/env python3
"""The rungs' own cp.async instructions as bench/ldgsts_probe cases: warp 0's first record of each cp.async
site (A and B) of every rung whose shared tile is padded, plus unpadded controls, from a capture. Global
offsets are kept relative to the record's first 128-byte line, shared offsets modulo their first 128-byte line
(a 16-byte chunk's place in its lines is what the hardware sees).
  tools/ldgsts_cases.py CAPTURE OUT.tsv"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from capture_json import load_json  # noqa: E402
from ldgsts_model import cp_async_records  # noqa: E402

RUNGS = ["mma_f16/03_cp_async", "mma_f16/06_warp_64x64", "mma_f16/09_xor_permuted", "wmma/04_dbuf_cp_async",
         "wmma/05_padded_smem", "wmma/07_bmma", "wmma/08_multistage", "mma_tf32/03_cp_async",
         "mma_tf32/06_warp_64x64"]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: ldgsts_cases.py CAPTURE OUT.tsv")
    records = cp_async_records(load_json(sys.argv[1]))
    rows = []
    for k in RUNGS:
        for site in ("A", "B"):
            g, s = records.get((k, site), ([], []))
            if not g or not s:
                sys.exit(f"ldgsts_cases: {k} has no paired cp.async record of {site}")
            g, s = g[0], s[0]
            if None in g["offset"] or None in s["addr"]:
                continue
            g0 = min(g["offset"]) // 128 * 128
            s0 = min(s["addr"]) // 128 * 128
            fields = [f"{o - g0}:{a - s0}" for o, a in zip(g["offset"], s["addr"])]
            rows.append(f"{k} {site}\t" + "\t".join(fields))
    with open(sys.argv[2], "w") as f:
        f.write("case\t" + "\t".join(f"lane{l}" for l in range(32)) + "\n")
        f.write("\n".join(rows) + "\n")
    print(f"{len(rows)} cases", file=sys.stderr)


main()
