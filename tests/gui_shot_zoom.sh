#!/usr/bin/env bash
# Larger text for slides at the same picture size (issue 15: a figure font size): `shot --zoom 1.5` draws each view
# as the window does at zoom 150%. For views of a rung of each kind of text (grid labels, bank rows, bars, code):
#  - the SVG stays 1600x900, no text in it is under a 21 px line (the 14 px floor times 1.5: the view lays itself
#    out in 1/1.5 of the picture and is magnified) and its smallest text is 1.45 times the default picture's or more;
#  - the PNG stays 1600x900, differs from the default PNG, and agrees with its own SVG rendered by rsvg-convert
#    (the same threshold as gui.export's F12 check), so its text is the SVG's larger text;
#  - `export --deck --zoom` and `shot --zoom` refuse a zoom outside the window's 0.8-3 in one line, exit 2.
# usage: gui_shot_zoom.sh BIN PNG_STATS DIR
set -euo pipefail
bin=$1 stats=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
if [ -z "${DISPLAY:-}" ]; then
  source "$(dirname "$0")/private_x.sh"
  start_private_x "$dir" 1920x1080
fi
kernel=mma_tf32/01_vectorized
for view in layout banks perf code; do
  for z in 1 1.5; do
    "$bin" shot --view "$view" --kernel "$kernel" --theme light --zoom "$z" -o "$dir/${view}_$z.svg"
    "$bin" shot --view "$view" --kernel "$kernel" --theme light --zoom "$z" -o "$dir/${view}_$z.png"
    read -r w h _ _ < <("$stats" "$dir/${view}_$z.png")
    [ "$w $h" = "1600 900" ] || fail "$view at zoom $z: the PNG is ${w}x$h, not 1600x900"
  done
  python3 - "$dir/${view}_1.svg" "$dir/${view}_1.5.svg" <<'PY'
import re, sys, xml.dom.minidom as m
def sizes(path):
    d = m.parse(path).documentElement
    assert (d.getAttribute("width"), d.getAttribute("height")) == ("1600", "900"), f"{path} is not 1600x900"
    return sorted({float(s) for s in re.findall(r'font-size="([0-9.]+)"', open(path).read())})
a, b = sizes(sys.argv[1]), sizes(sys.argv[2])
assert a and b, "no text"
# No text under the floor every view keeps (a 14 px line: font-size 12.03) magnified 1.5 times. Each view sizes
# its text by its own rules in a rect 1.5 times smaller (a title by its pane, clamped to 14-18 px lines; cell
# labels left out where cells got too small), so a size grows by 1.5 where it was clamped at either end and a
# little less between: the smallest grows by 1.47 or more on these views.
floor = 14 * 2048 / 2384  # font-size of a 14 px line: DejaVu's em per line height (viz/canvas_svg.cpp)
assert b[0] >= 1.5 * floor - 0.02, f"text of {b[0]} at zoom 1.5, under the floor {floor:.2f} magnified 1.5 times"
assert b[0] >= 1.45 * a[0], f"smallest text {a[0]} at zoom 1 is only {b[0]} at zoom 1.5"
print(f"font-size {a[0]}-{a[-1]} at zoom 1, {b[0]}-{b[-1]} at zoom 1.5")
PY
  read -r _ _ _ pct _ < <("$stats" --diff "$dir/${view}_1.png" "$dir/${view}_1.5.png" 0)
  awk -v p="$pct" 'BEGIN { exit !(p > 1) }' || fail "$view: the PNG at zoom 1.5 differs from zoom 1 in only $pct% of the pixels"
  rsvg-convert -w 1600 -h 900 -o "$dir/${view}_1.5_rsvg.png" "$dir/${view}_1.5.svg"
  read -r _ _ _ agree _ < <("$stats" --diff "$dir/${view}_1.5.png" "$dir/${view}_1.5_rsvg.png" 96)
  awk -v p="$agree" 'BEGIN { exit !(p < 4) }' || fail "$view: the PNG at zoom 1.5 and its SVG rendered differ in $agree% of the pixels"
  echo "ok: $view at zoom 1.5: PNG differs from zoom 1 in $pct% of the pixels, from its SVG rendered in $agree%"
done

set +e
for cmd in "shot --view perf -o $dir/x.png" "export --deck $dir/deck"; do
  for z in 0.4 0.75 3.5 nan; do
    # shellcheck disable=SC2086
    "$bin" $cmd --zoom "$z" >/dev/null 2>"$dir/err.txt"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$dir/err.txt")" -eq 1 ] && grep -q -- '--zoom' "$dir/err.txt" ||
      fail "${cmd%% *} --zoom $z: exit $rc, $(head -c 300 "$dir/err.txt")"
  done
done
[ -e "$dir/x.png" ] || [ -e "$dir/deck" ] && fail "a refused --zoom wrote something"
echo "ok: --zoom outside 0.8-3 refused in one line by shot and export"
# A zoom the size cannot hold: 640x400 at 300% left the workspace 213x133 of room, its panes overlapping. Refused,
# naming the largest zoom that size holds; that zoom itself is drawn.
"$bin" shot --view all --size 640x400 --zoom 3 -o "$dir/x.png" >/dev/null 2>"$dir/err.txt"
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$dir/err.txt")" = "gemmscope shot: --zoom 3 leaves a 640x400 picture 213x133 of room, under the 640x400 the workspace is laid out for: --zoom 1 at most at this size, or a larger --size" ] ||
  fail "shot --size 640x400 --zoom 3: exit $rc, $(head -c 300 "$dir/err.txt")"
[ -e "$dir/x.png" ] && fail "a refused --zoom wrote something"
"$bin" shot --view layout --size 640x400 --zoom 1.66 -o "$dir/most.svg" || fail "the largest zoom named (1.66) is refused too"
echo "ok: a zoom its --size cannot hold is refused, the largest it holds drawn"

# A projector's zoom in a laptop's window: the kernel list takes the room its longest name needs from views that
# can spare it, so every rung's name is whole ("11_swapped_opera..." was cut at 150% in 1366x768).
"$bin" shot --view all --size 1366x768 --zoom 1.5 --kernel mma_tf32/11_swapped_operands -o "$dir/all_150.svg"
python3 - "$dir/all_150.svg" <<'PY' || fail "a rung's name is cut in the kernel list at 150% in 1366x768"
import sys, xml.dom.minidom as m
texts = [n.firstChild.data for n in m.parse(sys.argv[1]).getElementsByTagName("text") if n.firstChild]
assert "11_swapped_operands" in texts, [t for t in texts if t.startswith("11_")]
assert not [t for t in texts if t.startswith("11_sw") and t.endswith("...")], "cut"
PY
echo "ok: every rung name whole in the kernel list at 150% in 1366x768"

# Lane numbers before the warp tiling's drawing: at a projector's zoom the tiling at the right had left every
# fragment grid colour only (wmma/05 at 150%, mma_f16 at 200% on 1920x1080); where its words instead of its drawing
# give the cells room for their numbers, the words go under the grids.
for case in "wmma/05_padded_smem 1600x900 1.5" "mma_f16/06_warp_64x64 1920x1080 2"; do
  read -r kernel size z <<<"$case"
  "$bin" shot --view layout --kernel "$kernel" --size "$size" --zoom "$z" -o "$dir/lanes.svg"
  python3 - "$dir/lanes.svg" <<'PY' || fail "$kernel at $z on $size: no lane numbers in the fragment grids"
import sys, xml.dom.minidom as m
texts = [n.firstChild.data for n in m.parse(sys.argv[1]).getElementsByTagName("text") if n.firstChild]
lanes = sum(t == "31" for t in texts)  # lane 31's cells (the axes stop at 15)
assert lanes >= 4, f"{lanes} cells labelled 31"
assert any(t.startswith("Warp tiling (") for t in texts), "the tiling's words"
PY
done
echo "ok: at 150% and 200% the fragment cells keep their lane numbers, the warp tiling in words"
