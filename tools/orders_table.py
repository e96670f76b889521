#!/usr/bin/env python3
"""Markdown tables for README from tools/orders_run.sh's results.

  orders_table.py l2 GPU=l2_GPU.csv ...        none -> own order, and the other variants measured, per size
  orders_table.py bench GPU=orders_GPU.json ... TFLOP/s of each ordering rung in every order (median of rounds)
"""
import csv
import json
import sys


def l2_table(pairs):
    """One row per GPU, rung and size: row-major (none) -> the rung's own order, and its fastest variant."""
    print("| GPU | kernel (own order) | M×N×K | L2 hit rate | DRAM read, GB | time, µs | faster | other variant, time |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for gpu, path in pairs:
        rows = [r for r in csv.DictReader(open(path)) if r["duration_ns"]]
        by = {}
        for r in rows:
            by.setdefault((r["kernel"].split("[")[0], r["size"]), {})[r["order"]] = r
        for (rung, size), v in by.items():
            none, own = v.get("none"), v.get("own")
            if not none or not own:
                continue
            t = lambda r: float(r["duration_ns"]) / 1e3
            gain = lambda r: f"{100 * (t(none) / t(r) - 1):+.1f}%"
            others = [f"{o}: {t(r):.0f} ({gain(r)})" for o, r in v.items() if o not in ("none", "own")]
            own_name = {"hopper/04_persistent": "grouped"}.get(rung, "banded")
            print(f"| {gpu} | `{rung}` ({own_name}) | {size.replace('x', '×')} | "
                  f"{float(none['l2_hit_pct']):.1f}% → {float(own['l2_hit_pct']):.1f}% | "
                  f"{float(none['dram_read_bytes']) / 1e9:.2f} → {float(own['dram_read_bytes']) / 1e9:.2f} | "
                  f"{t(none):.0f} → {t(own):.0f} | {gain(own)} | {'; '.join(others)} |")


def bench_table(pairs):
    orders = ["own", "none"] + [f"cutlass:{l}" for l in range(5)] + [f"triton:{g}" for g in (1, 2, 4, 8, 16)]
    print("| GPU | kernel | dtype | M×N×K | " + " | ".join(orders) + " |")
    print("|---|---|---|---|" + "---:|" * len(orders))
    for gpu, path in pairs:
        table = {}
        for r in json.load(open(path))["results"]:
            name = r["kernel"]
            rung = name.split("[")[0]
            order = name.split("order=")[1][:-1] if "[" in name else "own"
            table.setdefault((rung, r["dtype"], f"{r['m']}×{r['n']}×{r['k']}"), {})[order] = r["tflops"]
        for (rung, dtype, size), v in table.items():
            best = max(v.values())
            cells = [(f"**{v[o]:.0f}**" if v[o] == best else f"{v[o]:.0f}") if o in v else "" for o in orders]
            print(f"| {gpu} | `{rung}` | {dtype} | {size} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    kind, args = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    (l2_table if kind == "l2" else bench_table)(args)
