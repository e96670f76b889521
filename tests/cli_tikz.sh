#!/usr/bin/env bash
# `gemmscope layout --format tex`: a standalone TikZ picture of a fragment layout with one node per cell whose
# label is the lane:elem pairs the CSV gives for that cell, filled with the lane's colour; it compiles with
# pdflatex where TeX Live is installed, and says that it skipped that where it is not.
# usage: cli_tikz.sh BIN DIR
set -euo pipefail
bin=$1 dir=$2
mkdir -p "$dir"
for spec in "mma.m16n8k16.f16 A" "mma.m16n8k8.tf32 B" "ldmatrix.x4.trans A"; do
  read -r op operand <<<"$spec"
  tex=$dir/${op}_$operand.tex
  "$bin" layout --op "$op" --operand "$operand" --format tex -o "$tex"
  "$bin" layout --op "$op" --operand "$operand" >"$dir/layout.csv"
  python3 - "$tex" "$dir/layout.csv" <<'PY'
import csv, re, sys
tex, rows = open(sys.argv[1]).read(), list(csv.DictReader(open(sys.argv[2])))
want = {}
for r in rows:
    want.setdefault((int(r["row"]), int(r["col"])), []).append(f'{r["lane"]}:{r["elem"]}')
got = {}
for col, row, label in re.findall(r"\\node\[text=(?:white|black)\] at \((\d+)\.5,(\d+)\.5\) \{([^}]*)\};", tex):
    got[(int(row), int(col))] = label.split("\\\\")
fills = re.findall(r"\\fill\[lane(\d+)\] \((\d+),(\d+)\)", tex)
if got != want: sys.exit(f"FAIL: {sys.argv[1]}: cell labels differ from the CSV ({len(got)} vs {len(want)} cells)")
for lane, col, row in fills:
    if want[(int(row), int(col))][0].split(":")[0] != lane: sys.exit(f"FAIL: cell ({row},{col}) filled with lane {lane}")
if "\\documentclass[tikz,border=4pt]{standalone}" not in tex or not tex.rstrip().endswith("\\end{document}"):
    sys.exit("FAIL: not a standalone document")
print(f"ok: {sys.argv[1].split('/')[-1]}: {len(got)} cells labelled lane:elem as the CSV says, filled by lane")
PY
done
if command -v pdflatex >/dev/null 2>&1; then
  (cd "$dir" && pdflatex -interaction=nonstopmode -halt-on-error mma.m16n8k16.f16_A.tex >pdflatex.log 2>&1) ||
    { tail -20 "$dir/pdflatex.log"; echo "FAIL: pdflatex"; exit 1; }
  [ -s "$dir/mma.m16n8k16.f16_A.pdf" ] || { echo "FAIL: no PDF"; exit 1; }
  echo "ok: pdflatex compiled the picture"
else
  echo "SKIPPED: pdflatex is not installed here (TeX Live): the picture was not compiled"
fi
