#!/usr/bin/env python3
"""Rewrites README.md's kernel section (between the KERNELS markers) from the registry's bench JSON:
the goal per ladder, the top rung's ratio, the full table and the per-family size plots; and what each rung
adds, as `gemmscope list --json` reads it from the rung's own file.
usage: readme_kernels.py BENCH_JSON_NAME[,BENCH_JSON_NAME...] [GEMMSCOPE_BINARY]"""
import json
import pathlib
import subprocess
import sys

from capture_json import load_json

# The goals of issue 14: the top rung's ratio to cuBLAS of the same dtype, at 4096^3 and at 8192^3, on each GPU.
GOALS = {"sgemm": 0.95, "wmma": 0.55, "mma_f16": 0.72, "mma_tf32": 0.62}
REFERENCE = {"sgemm": "cuBLAS SGEMM, pedantic fp32", "wmma": "cuBLAS fp16 GEMM, same accumulate",
             "mma_f16": "cuBLAS fp16 GEMM, fp32 accumulate", "mma_tf32": "cuBLAS TF32 GEMM"}


def listed(words):
    """'a', 'a and b', 'a, b and c'."""
    return " and ".join(filter(None, [", ".join(words[:-1]), words[-1]])) if words else ""


def top_ratio(doc, fam, dtype, size):
    """The best rung of a family at size^3 in one bench JSON: (ratio, kernel), or None where it was not run."""
    rows = [r for r in doc["results"] if r["m"] == r["n"] == r["k"] == size and r["kernel"].startswith(fam + "/")
            and "[" not in r["kernel"] and (dtype is None or r["dtype"] == dtype)]
    if not rows:
        return None
    top = max(rows, key=lambda r: r["ratio"])
    return top["ratio"], top["kernel"]


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    results = root / "bench" / "results"
    # usage: readme_kernels.py BENCH_JSON_NAME[,BENCH_JSON_NAME...] [GEMMSCOPE_BINARY]: one column per file (per
    # GPU); a file NAME.json is read together with NAME_sizes.json where that exists (the top rungs over sizes).
    names = sys.argv[1].split(",")
    docs = []
    for n in names:
        doc = json.loads((results / n).read_text())
        sizes = results / n.replace(".json", "_sizes.json")
        if sizes.exists():
            have = {(r["kernel"], r["dtype"], r["m"], r["n"], r["k"]) for r in doc["results"]}
            extra = [r for r in json.loads(sizes.read_text())["results"]
                     if (r["kernel"], r["dtype"], r["m"], r["n"], r["k"]) not in have]  # the main file's row wins
            doc = {**doc, "results": doc["results"] + extra}
        docs.append((n, doc))
    bench = results / names[0]
    cols = [f"{d['device']['name'].replace('NVIDIA ', '').replace(' 80GB HBM3', '')}, {d['device']['date'][:10]}"
            for _, d in docs]
    lines = ["Every rung is checked against cuBLAS on random inputs (output poisoned first) by `ctest -L gpu`; "
             "`gemmscope bench` times it beside cuBLAS of the same dtype in the same process. The best rung of each "
             "ladder against the goals of issue 14, at 4096^3 / 8192^3 (a dash: not measured on that GPU):",
             "",
             "| ladder | reference | goal | " + " | ".join(cols) + " |",
             "|---|---|---:|" + "---:|" * len(cols)]
    for fam, goal in GOALS.items():
        dtypes = ["f16.f32", "f16.f16"] if fam == "wmma" else [None]
        for dt in dtypes:
            cells = []
            for _, doc in docs:
                tops = [top_ratio(doc, fam, dt, size) for size in (4096, 8192)]
                parts = ["-" if t is None else f"{100 * t[0]:.1f}%{'' if t[0] >= goal else ' (below)'}" for t in tops]
                # The rung each figure is of: one name where one rung is best at both sizes, else each its own.
                rungs = [t[1].split("/")[1] for t in tops if t]
                if len(set(rungs)) > 1:
                    parts = [p + ("" if t is None else f" `{t[1].split('/')[1]}`") for p, t in zip(parts, tops)]
                    rungs = []
                cells.append(" / ".join(parts) + (f" `{rungs[0]}`" if rungs else ""))
            label = fam + (f" {dt}" if dt else "")
            lines.append(f"| {label} | {REFERENCE[fam]} | {100 * goal:.0f}% | " + " | ".join(cells) + " |")
    # How each column's cuBLAS was timed: bench pairs it with every run since 2026-11-27 (the file says so);
    # older files timed it once per shape, at the first run of that shape in the process.
    lines.append("")
    for (n, doc), col in zip(docs, cols):
        how = ("timed beside each run, their launches alternating (ABBA), so both meet the same clocks"
               if "cublas_timing" in doc
               else "timed once per shape, at the process's first run of that shape (bench before 2026-11-27)")
        lines.append(f"- {col}: cuBLAS {how}")
    # The window, its pictures and the deck read the bundled capture, another recording: say by how much its ratios
    # differ from the H200 file's (a lecturer quoting this table beside a slide had found 64.3% against 59.9%).
    cap = load_json(root / "assets" / "captures" / "h200.json.gz")
    shown = {(r["kernel"], r["dtype"]): r for r in cap["runs"]
             if (r["m"], r["n"], r["k"]) == (4096, 4096, 4096) and r.get("cublas_tflops", 0) > 0}
    for n, doc in docs:
        if "H200" not in doc["device"]["name"]:
            continue
        diffs = []
        for r in doc["results"]:
            c = shown.get((r["kernel"], r["dtype"]))
            if c and (r["m"], r["n"], r["k"]) == (4096, 4096, 4096) and r.get("cublas_tflops", 0) > 0 and "[" not in r["kernel"]:
                diffs.append((abs(100 * c["tflops"] / c["cublas_tflops"] - 100 * r["tflops"] / r["cublas_tflops"]),
                              r["kernel"], r["dtype"], 100 * c["tflops"] / c["cublas_tflops"], 100 * r["tflops"] / r["cublas_tflops"]))
        if diffs:
            d, k, dt, a, b = max(diffs)
            lines.append(f"- The window, its pictures and the deck show the bundled capture, another recording on an H200 "
                         f"(`gemmscope record`, another process and day than `bench/results/{n}`): a rung's share of cuBLAS "
                         f"there differs from this table's by up to {d:.1f} points at 4096^3 ({k} {dt}: {a:.1f}% against "
                         f"{b:.1f}%), each run meeting the clocks and power of its moment. Compare rungs within one source.")
    tables = [subprocess.run([sys.executable, str(root / "tools" / "bench_table.py"), str(results / n)],
                             check=True, capture_output=True, text=True).stdout for n, _ in docs]
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
    for (n, _), table in zip(docs, tables):
        lines += ["", f"<details><summary>Every rung at 4096^3 (bench/results/{n})</summary>", "", table, "</details>"]
    lines += ["",
              "<details><summary>What each rung adds (`gemmscope list`; the full text is in the rung's file)</summary>",
              "", *ladder, "", "</details>", "",
              "TFLOP/s against size, each ladder beside cuBLAS of its dtype (`gemmscope shot --view perf --kernel K`, "
              "from the bundled capture):", ""]
    for fam in GOALS:
        lines.append(f"![{fam} ladder over size](docs/perf-{fam}.png)")
    # The rungs the bundled capture has no run of (added after it was recorded), read from both, not written by hand.
    capture = load_json(root / "assets" / "captures" / "h200.json.gz")
    captured = {run["kernel"] for run in capture["runs"]}
    newer = [r["name"] for r in rungs if not r["variant_of"] and r["name"] not in captured]
    lines += ["", "Each family's top rung (its best at 4096^3) as a share of cuBLAS of its dtype from 256^3 to 8192^3, on "
              "the H100 (solid, bench/results/h100_sizes.json) and the H200 (dashed, bench/results/h200_sizes.json), "
              "each file one `gemmscope bench` process: `gemmscope shot --view perf --ratio-over-size "
              "bench/results/h100_sizes.json,bench/results/h200_sizes.json --theme light -o docs/ratio-over-size.png`", "",
              "![Top rungs against cuBLAS over size](docs/ratio-over-size.png)"]
    if newer:
        lines += ["", f"{listed([f'`{n}`' for n in newer])} {'are' if len(newer) > 1 else 'is'} newer than the bundled capture (recorded on "
                  f"the {capture['device']['name'].replace('NVIDIA ', '')}): replayed, "
                  "the window and `shot` list them with their explanations, code and layouts, and its measured views "
                  "(and the deck) say that the capture predates them, until a capture recorded on a GPU "
                  "(`gemmscope record`) includes them."]
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
