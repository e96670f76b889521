#!/usr/bin/env bash
# `gemmscope layout` prints the PTX ISA layouts of mma.m16n8k16 exactly as the golden files hold them,
# and ldmatrix's one operand.
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
# ldmatrix: one operand, A (the loaded tile), 2 elements per matrix per lane, every tile element once.
for op in ldmatrix.x1 ldmatrix.x2 ldmatrix.x4 ldmatrix.x1.trans ldmatrix.x2.trans ldmatrix.x4.trans; do
  out=$("$bin" layout --op $op --operand A)
  [ "$(head -1 <<<"$out")" = "lane,elem,row,col" ] || { echo "FAIL: $op header"; exit 1; }
  lanes=$(tail -n +2 <<<"$out" | cut -d, -f1 | sort -un | wc -l)
  [ "$lanes" = 32 ] || { echo "FAIL: $op has $lanes lanes"; exit 1; }
  x=${op#ldmatrix.x}; matrices=${x%%.*}
  cells=$(tail -n +2 <<<"$out" | wc -l)
  [ "$cells" = $((64 * matrices)) ] || { echo "FAIL: $op has $cells cells, want $((64 * matrices))"; exit 1; }
  distinct=$(tail -n +2 <<<"$out" | cut -d, -f3,4 | sort -u | wc -l)
  [ "$distinct" = "$cells" ] || { echo "FAIL: $op holds $distinct distinct elements in $cells cells"; exit 1; }
  echo "$op A: $cells cells, each element once"
done
# The tiling feeds mma directly: .x4 is mma.m16n8k16's A fragment, .x2.trans its B fragment, cell for cell.
"$bin" layout --op ldmatrix.x4 --operand A | tail -n +2 > "$tmp/ldm_x4.csv"
diff -u <(tail -n +2 "$data/layout_mma.m16n8k16.f16_A.csv") "$tmp/ldm_x4.csv"
"$bin" layout --op ldmatrix.x2.trans --operand A | tail -n +2 > "$tmp/ldm_x2t.csv"
diff -u <(tail -n +2 "$data/layout_mma.m16n8k16.f16_B.csv") "$tmp/ldm_x2t.csv"
echo "ldmatrix.x4 = mma A, ldmatrix.x2.trans = mma B"
# Its picture names the lane supplying each row address: chips L0..L31 for .x4.
"$bin" layout --op ldmatrix.x4 --operand A --format svg -o "$tmp/ldm.svg"
grep -q '</svg>' "$tmp/ldm.svg"
for chip in L0 L15 L16 L31; do
  grep -q ">$chip</text>" "$tmp/ldm.svg" || { echo "FAIL: ldm.svg has no $chip chip"; exit 1; }
done
echo "ldmatrix svg ok"
# wgmma: the accumulator across a warpgroup, 128 threads x 8 registers, every element of 64x16 once; thread 37
# (warp 1, lane 5) holds rows 17 and 25, columns 2-3 and 10-11 (the PTX ISA figure).
"$bin" layout --op wgmma.m64n16k16.f16 --operand C | tail -n +2 > "$tmp/wg.csv"
[ "$(wc -l < "$tmp/wg.csv")" -eq 1024 ] || { echo "FAIL: wgmma C has $(wc -l < "$tmp/wg.csv") slots, want 1024"; exit 1; }
[ "$(cut -d, -f3,4 "$tmp/wg.csv" | sort -u | wc -l)" -eq 1024 ] || { echo "FAIL: wgmma C repeats an element"; exit 1; }
[ "$(grep '^37,' "$tmp/wg.csv" | cut -d, -f3,4 | tr '\n' ' ')" = "17,2 17,3 25,2 25,3 17,10 17,11 25,10 25,11 " ] ||
  { echo "FAIL: thread 37: $(grep '^37,' "$tmp/wg.csv" | tr '\n' ' ')"; exit 1; }
echo "wgmma csv ok"
# SVG: a complete document with one labelled cell per element (16x16 for A).
"$bin" layout --op mma.m16n8k16.f16 --operand A --format svg -o "$tmp/A.svg"
grep -q '</svg>' "$tmp/A.svg"
[ "$(grep -o '<rect' "$tmp/A.svg" | wc -l)" -ge 256 ] || { echo "FAIL: A.svg has fewer than 256 cells"; exit 1; }
# The operands not asked for are drawn empty and say so, not "not documented" (PTX documents all three).
[ "$(grep -c '>not asked for (--operand A)</text>' "$tmp/A.svg")" -eq 2 ] ||
  { echo "FAIL: A.svg does not say B and C were not asked for"; exit 1; }
if grep -q '>not documented</text>' "$tmp/A.svg"; then echo "FAIL: A.svg calls a documented operand not documented"; exit 1; fi
echo "svg ok"
# Without --format, -o's extension decides: an SVG document in a .svg file, not CSV text.
"$bin" layout --op mma.m16n8k16.f16 --operand B -o "$tmp/B.svg"
grep -q '</svg>' "$tmp/B.svg" || { echo "FAIL: -o B.svg without --format did not write an SVG"; exit 1; }
echo "svg from the extension ok"
