#!/usr/bin/env bash
# `gemmscope layout` prints the PTX ISA layouts of mma.m16n8k16 exactly as the golden files hold them.
set -euo pipefail
bin=$1 data=$2 tmp=$3
mkdir -p "$tmp"
for operand in A B C; do
  "$bin" layout --op mma.m16n8k16.f16 --operand $operand > "$tmp/$operand.csv"
  diff -u "$data/layout_mma.m16n8k16.f16_$operand.csv" "$tmp/$operand.csv"
  echo "mma.m16n8k16.f16 $operand: $(($(wc -l < "$tmp/$operand.csv") - 1)) cells match"
done
# -o writes the same bytes as standard output.
"$bin" layout --op mma.m16n8k16.f16 --operand A --format csv -o "$tmp/A2.csv"
cmp "$tmp/A.csv" "$tmp/A2.csv"
# Every documented op and operand prints a header and 32 lanes' worth of cells.
for op in mma.m16n8k16.f16 mma.m16n8k8.f16 mma.m16n8k8.tf32 mma.m8n8k16.s8 mma.m16n8k32.s8; do
  for operand in A B C; do
    out=$("$bin" layout --op $op --operand $operand)
    [ "$(head -1 <<<"$out")" = "lane,elem,row,col" ] || { echo "FAIL: $op $operand header"; exit 1; }
    lanes=$(tail -n +2 <<<"$out" | cut -d, -f1 | sort -un | wc -l)
    [ "$lanes" = 32 ] || { echo "FAIL: $op $operand has $lanes lanes"; exit 1; }
  done
done
# SVG: a complete document with one labelled cell per element (16x16 for A).
"$bin" layout --op mma.m16n8k16.f16 --operand A --format svg -o "$tmp/A.svg"
grep -q '</svg>' "$tmp/A.svg"
[ "$(grep -o '<rect' "$tmp/A.svg" | wc -l)" -ge 256 ] || { echo "FAIL: A.svg has fewer than 256 cells"; exit 1; }
echo "svg ok"
