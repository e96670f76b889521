#!/usr/bin/env bash
# Every view follows the selected rung: `shot --view layout --kernel K` draws that rung's own instruction
# (an sgemm rung, which has no fragments, its thread tiling), and `--view banks` opens on its worst access.
# usage: gui_follow.sh BIN DIR
set -euo pipefail
bin=$1 dir=$2
mkdir -p "$dir"
texts() { grep -o '>[^<]*</text>' "$1" | sed 's/^>//; s/<\/text>$//; s/&apos;/'"'"'/g'; }
expect() {  # expect VIEW KERNEL TEXT...: the view's SVG for KERNEL has a text element containing each TEXT
  local view=$1 kernel=$2
  shift 2
  local svg="$dir/${view}_${kernel//\//-}.svg"
  "$bin" shot --view "$view" --kernel "$kernel" -o "$svg"
  for want in "$@"; do
    # No grep -q: its early exit would kill the pipeline's writer with SIGPIPE, a failure under pipefail.
    texts "$svg" | grep -F -- "$want" >/dev/null || { echo "FAIL: $view of $kernel does not say '$want'"; exit 1; }
  done
  echo "ok: $view of $kernel says: $*"
}
expect layout sgemm/01_naive "thread 0 (warp 0, lane 0) computes 1 element of C: row 0, column 0" \
  "straight from global memory"
expect layout sgemm/05_blocktile_2d "computes 64 elements of C: rows 0:8, columns 0:8" "from shared memory for 64 FMA"
expect layout sgemm/07_warptile "computes 64 elements of C: rows 0:4, 16:20, columns 0:4, 32:36"
expect layout wmma/05_padded_smem "wmma.m16n16k16.f16" "each element twice in one lane's fragment"
# A rung opens on the instruction it adds over the rung before: 08 on ldmatrix.x4 (its picture had been 07's mma
# grids under another title), 09 on its mma again; wmma/11 writes out the ldmatrix its fragments load with.
expect layout mma_f16/08_ldmatrix "ldmatrix.x4" "lane i supplies the row address" "8 warps (4x2) of 64x64 over a 256x128"
expect layout mma_f16/09_xor_permuted "mma.m16n8k16.f16"
expect layout mma_tf32/08_ldmatrix "ldmatrix.x4" "lane i supplies the row address"
expect layout wmma/11_ldmatrix_xor "ldmatrix.x4" "lane i supplies the row address"
expect layout mma_tf32/04_registers "mma.m16n8k8.tf32" "tf32 · 4 elements/lane"
# A rung whose change is in its epilogue opens there and says so; the one before it does not.
expect timeline hopper/06_tma_store "shown: its first epilogue, where this rung changes"
svg="$dir/timeline_h05.svg"
"$bin" shot --view timeline --kernel hopper/05_cluster_multicast -o "$svg"
if texts "$svg" | grep -F "where this rung changes" >/dev/null; then echo "FAIL: hopper/05 opens on a focus it has not"; exit 1; fi
echo "ok: hopper/05's timeline opens on its first k-tiles"
# 03 loads its row of B fragments again for each row of tiles (as its bank table counts them); 04 once a k-step.
expect layout mma_tf32/03_cp_async "it loads 2 A fragments (16x8) and 16 B fragments (8x8): its 8 again for" \
  "each of its 2 rows of tiles"
expect layout mma_tf32/04_registers "it loads 2 A fragments (16x8) and 8 B fragments (8x8)"
# A rung that accumulates only in f16 beside a C traced with f32 accumulators says so; one that also runs f16.f32 does not.
expect layout wmma/10_warp_128x64 "C: traced with f32 accumulators; wmma/10_warp_128x64 accumulates in f16, a fragment not traced"
svg="$dir/layout_wmma09.svg"
"$bin" shot --view layout --kernel wmma/09_pipelined -o "$svg"
if texts "$svg" | grep -F "a fragment not traced" >/dev/null; then echo "FAIL: wmma/09 (f16.f32 too) is said to accumulate in f16 only"; exit 1; fi
# The launch order's times in ms past 10 ms (sgemm/01 runs 276 ms: not "275865 us"), and no cost named for probes
# that cost nothing measurable.
expect swizzle sgemm/02_gmem_coalesce "the traced run took 275.6 ms, 0.999x" "275.9 ms: the probes cost no measurable time here" \
  "the traced run took 44.4 ms, 2x the timed" "22.2 ms: the probes' cost"
# Another op explored (--op): the rung's warp tiling, drawn with its own mma, is not shown under the other op's grids.
svg="$dir/layout_s8.svg"
"$bin" shot --view layout --kernel mma_f16/01_vectorized --op mma.m16n8k32.s8 -o "$svg"
if texts "$svg" | grep -F "8 warps (2x4)" >/dev/null; then echo "FAIL: the s8 layout shows mma_f16/01's warp tiling"; exit 1; fi
texts "$svg" | grep -F "mma.m16n8k32.s8" >/dev/null || { echo "FAIL: the explored op is not drawn"; exit 1; }
echo "ok: an explored op's layout leaves the rung's warp tiling out"
# The bank view opens on the rung's worst site: mma_tf32/01's B-fragment loads (4-way, but 4 times as many as A's 8-way).
expect banks mma_tf32/01_vectorized "Bs load (frag), warp 0, k-iteration 0" "(4-way on banks 0-7)"
expect banks mma_f16/01_vectorized "(4-way on banks 0-3)"
# A rung with no conflict, after one with none, opens on the site it adds: 08 on its ldmatrix reads (its slide had
# shown the tile copies that 03-10 all open on).
expect banks mma_f16/08_ldmatrix "As ldmatrix.x4, warp 0, k-iteration 0"
expect banks mma_tf32/08_ldmatrix "As ldmatrix (frag), warp 0, k-iteration 0"
# The launch-order view shows the rung's measured order beside the same kernel in row-major order: mma_f16/07's
# swizzle (bands of 16 tile columns, CUTLASS's identity swizzle with log tile 4) against its variant [order=none];
# a rung with no such twin gets the rung before it.
expect swizzle mma_f16/07_swizzle "mma_f16/07_swizzle" "cutlass:4 order" "mma_f16/07_swizzle[order=none]" \
  "row-major order" "all 512 blocks done"
expect swizzle mma_f16/06_warp_64x64 "mma_f16/06_warp_64x64" "row-major order" "mma_f16/05_double_buffer"
# Stream-K: the bundled capture traces mma_f16/13 where it splits tiles (5120x1280x4096): a whole wave by rung 12's
# kernel, then the leftover tiles in pieces on every SM; its timeline follows a stream-K CTA through its piece, its
# wait for the partial sums it owns, and its epilogue.
expect swizzle mma_f16/13_stream_k "at 5120x1280x4096" "132 whole by 132 CTAs, then 68 split along k into"
expect timeline mma_f16/13_stream_k "CTA 0 (1 piece of a tile split along k)" "partial sums in" "epilogue"
# The timeline shows a sampled block of the rung's warps, the rung before below: 05's copies overlapping
# its mma (short waits) over 04's load-then-compute.
expect timeline mma_f16/05_double_buffer "mma_f16/05_double_buffer" "mma_f16/04_registers" "wait" "load" \
  "cycles of the SM"
# A block-order variant runs its rung's code on another grid: the bank, global-memory and timeline views draw the
# rung's traces under the variant's name, and say whose traces they are.
expect banks "sgemm/10_thread_tile_16x8[order=triton:8]" "sgemm/10_thread_tile_16x8[order=triton:8]" \
  "its rung's traces (an order moves whole blocks, not their accesses)"
expect gmem "sgemm/10_thread_tile_16x8[order=triton:8]" "sgemm/10_thread_tile_16x8[order=triton:8]" \
  "its rung's traces (an order moves whole blocks, not their accesses)"
expect timeline "mma_f16/07_swizzle[order=none]" "mma_f16/07_swizzle[order=none]" "the stamps of mma_f16/07_swizzle;"
# The code view shows the rung's source against the rung before: 09's XOR permutation of 08's tiles.
expect code mma_f16/09_xor_permuted "mma_f16/09_xor_permuted" "against mma_f16/08_ldmatrix:" "lines added"
expect code sgemm/01_naive "the first rung of its ladder: every line is new"
# A toggle variant: the rung's own source, the lines that read the template parameter the toggle sets marked.
expect code "mma_f16/10_multistage[xor=off]" "[xor=off]: the rung's own source; marked, the" "lines that name kXor"
expect code "wmma/08_multistage[pad=off]" "[pad=off]: the rung's own source; marked, the" "lines that name kP or P, what the toggle sets"
# Without a GPU the throughput pane replays the live series the bundled capture recorded on the H200, its
# toggles marked: mma_f16/10 through [stages=2], [stages=3] and [order=none] and back.
expect perf mma_f16/10_multistage "A live session's series, replayed from the capture" "[stages=2]" "[stages=3]" "[order=no" "its own"
# The series ran at the live loop's 2048^3, the bars at 4096^3: the plot's title says so (10's 405 TFLOP/s line beside
# its 472 TFLOP/s bar read as a contradiction).
expect perf mma_f16/10_multistage "TFLOP/s over seconds, at 2048^3 (the bars: 4096x4096x4096)"
# A variant the series never ran gets the curves over size, its own among them in bold: the series of 10 and its
# other toggles left [xor=off] out of its own picture.
svg="$dir/perf_xor_off.svg"
"$bin" shot --view perf --kernel 'mma_f16/10_multistage[xor=off]' -o "$svg"
texts "$svg" | grep -F "TFLOP/s over M = N = K" >/dev/null || { echo "FAIL: perf of [xor=off] draws no curves over size"; exit 1; }
[ "$(grep -c 'font-weight="bold"[^>]*>10_multistage\[xor=off\]</text>' "$svg")" -ge 2 ] ||
  { echo "FAIL: perf of [xor=off] does not name its bar and its curve in bold"; exit 1; }
[ "$(grep -c '^"series: M = N = K, f16.f32",mma_f16/10_multistage\[xor=off\],f16.f32,.*,10_multistage\[xor=off\]$' "${svg%.svg}.csv")" = 6 ] ||
  { echo "FAIL: the CSV beside perf of [xor=off] has not its 6 sizes over M = N = K"; exit 1; }
echo "ok: perf of mma_f16/10[xor=off] draws its own curve over size"
# The throughput view marks the rung: its ladder's bars, the rung's bar label in bold.
svg="$dir/perf_mma_tf32.svg"
"$bin" shot --view perf --kernel mma_tf32/04_registers -o "$svg"
grep -q 'font-weight="bold"[^>]*>04_registers</text>' "$svg" || { echo "FAIL: perf does not mark 04_registers"; exit 1; }
texts "$svg" | grep -F "mma_tf32 ladder" >/dev/null || { echo "FAIL: perf does not show the mma_tf32 ladder"; exit 1; }
echo "ok: perf shows the mma_tf32 ladder with 04_registers marked"
# The default window's bank pane is short under the site table: it draws one row of the 32 banks, each with its way,
# in place of the caption, never nothing (mma_f16/10[xor=off]'s ldmatrix: 8 on banks 0-7, README's example).
for size in 1600x900 1920x1080; do
  svg="$dir/all_xor_off_$size.svg"
  "$bin" shot --view all --size "$size" --kernel 'mma_f16/10_multistage[xor=off]' -o "$svg"
  # awk reads to the end (an early exit would kill texts with SIGPIPE, a failure under pipefail).
  ways=$(texts "$svg" | awk '/^bank$/ && !done { row = 1; next } row && /^way$/ { print n + 0; row = 0; done = 1 } row && /^8$/ { n++ }')
  [ "$ways" = 8 ] || { echo "FAIL: at $size the bank pane's way row reads '$ways' banks at 8, not 8"; exit 1; }
  echo "ok: at $size the bank pane shows 8-way on 8 banks"
done
