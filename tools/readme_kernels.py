#!/usr/bin/env python3
"""Rewrites README.md's kernel section (between the KERNELS markers) from the registry's bench JSON:
the goal per ladder, the top rung's ratio, the full table and the per-family size plots; and what each rung
adds, as `gemmscope list --json` reads it from the rung's own file.
usage: readme_kernels.py BENCH_JSON_NAME [GEMMSCOPE_BINARY]"""
import json
import pathlib
import subprocess
import sys

GOALS = {"sgemm": 0.90, "wmma": 0.40, "mma_f16": 0.60, "mma_tf32": 0.50}
REFERENCE = {"sgemm": "cuBLAS SGEMM, pedantic fp32", "wmma": "cuBLAS fp16 GEMM, fp32 accumulate",
             "mma_f16": "cuBLAS fp16 GEMM, fp32 accumulate", "mma_tf32": "cuBLAS TF32 GEMM"}


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    bench = root / "bench" / "results" / sys.argv[1]
    doc = json.loads(bench.read_text())
    rows = [r for r in doc["results"] if r["m"] == r["n"] == r["k"] == 4096]
    lines = ["Every rung is checked against cuBLAS on random inputs (output poisoned first) by `ctest -L gpu`; "
             "`gemmscope bench` times it beside cuBLAS of the same dtype in the same process. At M = N = K = 4096:",
             "",
             "| ladder | reference | goal | top rung | reached |",
             "|---|---|---:|---|---:|"]
    for fam, goal in GOALS.items():
        fam_rows = [r for r in rows if r["kernel"].startswith(fam + "/") and r["dtype"] != "f16.f16"]
        if not fam_rows:
            continue
        top = max(fam_rows, key=lambda r: r["ratio"])
        mark = "" if top["ratio"] >= goal else " (below the goal)"
        lines.append(f"| {fam} | {REFERENCE[fam]} | {100 * goal:.0f}% | `{top['kernel']}` | "
                     f"{100 * top['ratio']:.1f}%{mark} |")
    table = subprocess.run([sys.executable, str(root / "tools" / "bench_table.py"), str(bench)],
                           check=True, capture_output=True, text=True).stdout
    binary = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else root / "build" / "gemmscope"
    rungs = json.loads(subprocess.run([str(binary), "list", "--json"], check=True, capture_output=True, text=True).stdout)
    # One line per rung; its variants in a few words (each toggle's values), not one line each.
    ladder = []
    for r in rungs:
        if r["variant_of"]:
            continue
        values = {}
        for v in rungs:
            if v["variant_of"] == r["name"]:
                for key, value in v["toggles"].items():
                    values.setdefault(key, []).append(value)
        extra = "".join(f"; variants `[{key}=S]`, S = {', '.join(vals)}" for key, vals in values.items())
        ladder.append(f"- `{r['name']}`: {r['title']}{extra}")
    lines += ["", f"<details><summary>Every rung ({bench.relative_to(root)})</summary>", "", table, "</details>", "",
              "<details><summary>What each rung adds (`gemmscope list`; the full text is in the rung's file)</summary>",
              "", *ladder, "", "</details>", "",
              "TFLOP/s against size, each ladder beside cuBLAS of its dtype (`gemmscope shot --view perf --kernel K`, "
              "from the bundled capture):", ""]
    for fam in GOALS:
        lines.append(f"![{fam} ladder over size](docs/perf-{fam}.png)")
    lines += ["", "Why each rung is faster or not than the one before, with the prediction made before measuring it: "
              "[bench/NOTES.md](bench/NOTES.md)."]
    readme = root / "README.md"
    text = readme.read_text()
    start, end = "<!-- KERNELS:BEGIN -->", "<!-- KERNELS:END -->"
    if start not in text:
        text = text.replace("<!-- KERNEL-TABLE -->", start + "\n" + end)
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    readme.write_text(head + start + "\n" + "\n".join(lines) + "\n" + end + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
