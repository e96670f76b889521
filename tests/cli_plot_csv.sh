#!/usr/bin/env bash
# The throughput view's numbers travel with its picture (issue 15: "the throughput and ratio plots export their data
# as CSV beside the picture"): `shot --view perf -o X.svg` also writes X.csv, whose bars are the capture's own runs
# (TFLOP/s, cuBLAS, their ratio) and whose series are the size sweep drawn; a view that plots no numbers writes none.
# usage: cli_plot_csv.sh BIN CAPTURE DIR
set -euo pipefail
bin=$1 capture=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
"$bin" shot --view perf --kernel hopper/06_tma_store --replay "$capture" -o "$dir/perf.svg"
[ -f "$dir/perf.csv" ] || { echo "FAIL: no perf.csv beside perf.svg"; exit 1; }
"$bin" shot --view banks --kernel hopper/06_tma_store --replay "$capture" -o "$dir/banks.svg"
[ ! -e "$dir/banks.csv" ] || { echo "FAIL: the bank view plots no numbers but wrote banks.csv"; exit 1; }
PYTHONPATH="$(dirname "$0")/../tools" python3 - "$dir/perf.csv" "$capture" <<'PY'
import csv, json, sys
from capture_json import load_json
rows = list(csv.DictReader(open(sys.argv[1])))
cap = load_json(sys.argv[2])
runs = {(r["kernel"], r["dtype"]): r for r in cap["runs"] if (r["m"], r["n"], r["k"]) == (4096, 4096, 4096)}
bars = [r for r in rows if r["plot"] == "bars"]
series = [r for r in rows if r["plot"].startswith("series")]
assert [b["kernel"] for b in bars][:2] == ["hopper/01_tma_wgmma", "hopper/02_tile_128x256"], bars[:2]
assert any(b["kernel"] == "hopper/06_tma_store" for b in bars)
for b in bars:
    run = runs[(b["kernel"], b["dtype"])]
    t, c = float(b["tflops"]), float(b["cublas_tflops"])
    assert abs(t - run["tflops"]) <= 1e-4 * run["tflops"], (b, run["tflops"])
    assert abs(c - run["cublas_tflops"]) <= 1e-4 * run["cublas_tflops"], (b, run["cublas_tflops"])
    assert abs(float(b["ratio"]) - t / c) <= 1e-4, b
    assert b["x"] == "4096x4096x4096" and b["verified"] == "yes", b
# Every line's row names its kernel in full and its dtype, the names the bars use ("01_tma_wgmma" in the legend is
# hopper/01_tma_wgmma here), and keeps the legend's words in the line column, in ASCII.
for s in series:
    assert s["dtype"] == "f16.f32", s
    assert s["kernel"].startswith("cuBLAS") or s["kernel"] in {b["kernel"] for b in bars}, s
    assert s["line"] and s["line"].isascii() and s["kernel"].endswith(s["line"]) or "cuBLAS" in s["line"], s
labels = {s["kernel"] for s in series}
assert any("cuBLAS" in l for l in labels), labels
xs = sorted({float(s["x"]) for s in series})
assert xs[0] <= 256 and xs[-1] >= 8192, xs
print(f"perf.csv: {len(bars)} bars equal to the capture's runs, {len(series)} series points of {len(labels)} lines")
PY
