#!/usr/bin/env python3
"""Prints a Markdown table of a `gemmscope bench --json` file: one row per kernel, the ratio to
cuBLAS of the same dtype beside TFLOP/s, and the device line the numbers belong to."""
import json
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: bench_table.py BENCH.json", file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    d = doc["device"]
    print(f"{d['name']} (sm_{d['compute_capability'].replace('.', '')}, {d['sm_count']} SMs, max SM clock "
          f"{d['sm_clock_mhz']} MHz, memory clock {d['mem_clock_mhz']} MHz), driver {d['driver']}, "
          f"CUDA {d['cuda_runtime']}, {d['date'][:10]}\n")
    print("| kernel | dtype | size | TFLOP/s | cuBLAS TFLOP/s | of cuBLAS | rel. error |")
    print("|---|---|---|---:|---:|---:|---:|")
    for r in doc["results"]:
        size = f"{r['m']}x{r['n']}x{r['k']}"
        print(f"| `{r['kernel']}` | {r['dtype']} | {size} | {r['tflops']:.1f} | {r['cublas_tflops']:.1f} | "
              f"{100 * r['ratio']:.1f}% | {r['rel_err']:.1e} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
