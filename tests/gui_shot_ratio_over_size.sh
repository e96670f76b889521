#!/usr/bin/env bash
# Issue 14's ratio-over-size picture: `shot --view perf --ratio-over-size H100_BENCH.json,H200_CAPTURE.json` on the
# committed files, checked as a reader of it would:
#  - the SVG parses, rsvg-convert renders it, and the PNG of the same command agrees with that rendering;
#  - one line per family (wmma: per accumulate type) per file, named "RUNG · GPU" in the legend, the rung being the
#    family's best verified rung at 4096^3 (no variants), and the 100% cuBLAS line;
#  - the CSV beside it holds every plotted point, each equal to the file's own ratio at that size (a bench row's
#    "ratio", a capture run's tflops / cublas_tflops), from 256 to 8192;
#  - a file that is not JSON, a bench JSON with a NaN or a missing field, a view other than perf: one line, exit != 0.
# usage: gui_shot_ratio_over_size.sh BIN PNG_STATS BENCH_JSON CAPTURE DIR
set -euo pipefail
bin=$1 stats=$2 bench=$3 capture=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
"$bin" shot --view perf --ratio-over-size "$bench,$capture" --theme light -o "$dir/ratio.svg"
[ -f "$dir/ratio.csv" ] || fail "no ratio.csv beside ratio.svg"
rsvg-convert -w 1600 -h 900 -o "$dir/ratio_rsvg.png" "$dir/ratio.svg" || fail "rsvg-convert cannot render ratio.svg"
PYTHONPATH="$(dirname "$0")/../tools" python3 - "$dir/ratio.svg" "$dir/ratio.csv" "$bench" "$capture" <<'PY'
import collections, csv, json, sys, xml.dom.minidom as m
from capture_json import load_json
svg, csv_path, bench_path, cap_path = sys.argv[1:]
texts = [t.firstChild.data for t in m.parse(svg).getElementsByTagName("text") if t.firstChild]
assert "Top rungs against cuBLAS over size" in texts, texts[:5]
def rows_of(path):
    d = load_json(path)
    if "schema" in d:  # a capture: ratio worked out, verified = finite rel_err and TFLOP/s > 0
        return d["device"]["name"], [dict(r, ratio=r["tflops"] / r["cublas_tflops"] if r["cublas_tflops"] > 0 else 0,
                                          ok=r["rel_err"] is not None and r["tflops"] > 0) for r in d["runs"]]
    return d["device"]["name"], d["results"]
expected = {}  # label -> {size: ratio}
for path in (bench_path, cap_path):
    device, rows = rows_of(path)
    gpu = device.replace("NVIDIA ", "").split()[0]
    top = {}
    for r in rows:
        if "[" in r["kernel"] or not r["ok"] or (r["m"], r["n"], r["k"]) != (4096, 4096, 4096):
            continue
        key = (r["kernel"].split("/")[0], r["dtype"])
        if key not in top or r["ratio"] > top[key]["ratio"]:
            top[key] = r
    for (fam, dtype), r in top.items():
        two = sum(1 for f, _ in top if f == fam) > 1
        label = fam + "/" + r["kernel"].split("/")[1].split("_")[0] + (" " + dtype if two else "") + " \u00b7 " + gpu
        points = {}
        for s in rows:
            if s["kernel"] == r["kernel"] and s["dtype"] == dtype and s["ok"] and s["m"] == s["n"] == s["k"]:
                points.setdefault(s["m"], s["ratio"])
        expected[label] = points
series = collections.defaultdict(dict)
for row in csv.DictReader(open(csv_path)):
    assert row["plot"] == "series: M = N = K", row
    assert row["tflops"] == "" and row["cublas_tflops"] == "", f"a share of cuBLAS written as TFLOP/s: {row}"
    # The line as its legend names it (a middle dot written ", " in the CSV); the kernel column its full name.
    line = row["line"].replace(", ", " \u00b7 ")
    assert "cuBLAS" in line or (row["kernel"].startswith(line.split("/")[0] + "/") and row["dtype"]), row
    series[line][int(float(row["x"]))] = float(row["ratio"])
refs = [l for l in series if "cuBLAS" in l]
assert len(refs) == 1 and set(series[refs[0]].values()) == {1.0}, refs
del series[refs[0]]
assert set(series) == set(expected), f"plotted {sorted(series)}, expected {sorted(expected)}"
assert len(expected) >= 2 * 5, f"{len(expected)} lines: fewer than 5 families on 2 GPUs"
for label, points in expected.items():
    assert label in texts, f"the legend does not name {label!r}"
    got = series[label]
    assert sorted(got) == sorted(points), (label, sorted(got), sorted(points))
    assert min(got) <= 256 and max(got) >= 8192, (label, sorted(got))
    for size, ratio in points.items():
        assert abs(got[size] - ratio) <= 1e-5 + 1e-5 * ratio, (label, size, got[size], ratio)
# The subtitle says how each file timed cuBLAS: a bench file that paired it with each run says so, as does a
# capture whose runs all were (cublas_paired); a bench file from before pairing timed it once per size.
subtitle = next((t for t in texts if "top rung:" in t), "")
for path in (bench_path, cap_path):
    d = load_json(path)
    runs = [r for r in d.get("runs", []) if r.get("cublas_tflops", 0) > 0]
    paired = (str(d.get("cublas_timing", "")).startswith("paired") if "results" in d
              else bool(runs) and all(r.get("cublas_paired") for r in runs))
    want = "cuBLAS beside each run" if paired else "cuBLAS once per size"
    name = path.rsplit("/", 1)[-1]
    assert f"{name} (" in subtitle and want in subtitle.split(f"{name} (", 1)[1].split(")", 1)[0], (want, subtitle)
print(f"ratio.svg: {len(expected)} lines equal to the files' ratios, e.g. " +
      ", ".join(f"{l} {100 * expected[l][8192]:.1f}% at 8192" for l in sorted(expected)[:2]))
PY
# The PNG: the same drawing code as the SVG, so it agrees with the SVG rendered (gui.shot_zoom's threshold).
if [ -z "${DISPLAY:-}" ]; then
  source "$(dirname "$0")/private_x.sh"
  start_private_x "$dir" 1920x1080
fi
"$bin" shot --view perf --ratio-over-size "$bench,$capture" --theme light -o "$dir/ratio.png"
read -r w h colours _ < <("$stats" "$dir/ratio.png")
[ "$w $h" = "1600 900" ] && [ "$colours" -ge 200 ] || fail "ratio.png is ${w}x$h with $colours colours"
read -r _ _ _ agree _ < <("$stats" --diff "$dir/ratio.png" "$dir/ratio_rsvg.png" 96)
awk -v p="$agree" 'BEGIN { exit !(p < 4) }' || fail "ratio.png and ratio.svg rendered differ in $agree% of the pixels"
echo "ok: ratio.png agrees with ratio.svg rendered ($agree% of pixels differ)"

# Bad input: one line naming the file (and the field), a non-zero exit, no picture.
printf 'not json\n' >"$dir/text.json"
python3 - "$bench" "$dir" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
nan = json.loads(json.dumps(d)); nan["results"][3]["ratio"] = float("nan")
json.dump(nan, open(sys.argv[2] + "/nan.json", "w"), indent=1)  # Python writes NaN, which is not JSON
missing = json.loads(json.dumps(d)); del missing["results"][2]["cublas_tflops"]
json.dump(missing, open(sys.argv[2] + "/missing.json", "w"), indent=1)
PY
check() {  # check EXPECTED_RC WORDS_THE_LINE_HAS... -- ARGS...
  local want=$1 words=() rc
  shift
  while [ "$1" != -- ]; do words+=("$1"); shift; done
  shift
  rm -f "$dir/bad.svg"
  set +e
  "$bin" shot "$@" -o "$dir/bad.svg" >/dev/null 2>"$dir/err.txt"
  rc=$?
  set -e
  [ "$rc" = "$want" ] || fail "$*: exit $rc, not $want: $(head -c 300 "$dir/err.txt")"
  [ "$(wc -l <"$dir/err.txt")" = 1 ] || fail "$*: not one line: $(head -c 600 "$dir/err.txt")"
  for w in "${words[@]}"; do grep -qF -- "$w" "$dir/err.txt" || fail "$*: the line does not say '$w': $(cat "$dir/err.txt")"; done
  [ ! -e "$dir/bad.svg" ] || fail "$*: wrote a picture"
  echo "ok: exit $rc: $(cat "$dir/err.txt")"
}
check 1 text.json "not valid JSON" -- --view perf --ratio-over-size "$bench,$dir/text.json"
check 1 nan.json NaN "line " -- --view perf --ratio-over-size "$dir/nan.json,$capture"
check 1 missing.json "results[2]" cublas_tflops -- --view perf --ratio-over-size "$dir/missing.json"
check 2 "--ratio-over-size" "--view banks" -- --view banks --ratio-over-size "$bench"
check 2 "unknown view" -- --view ratios --ratio-over-size "$bench"
check 2 "--replay" -- --view perf --ratio-over-size "$bench" --replay "$capture"
