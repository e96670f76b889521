#!/usr/bin/env bash
# `gemmscope shot --view VIEW [--kernel KERNEL]` on the bundled capture, under Xvfb when there is no
# display: the PNG must be 1600x900 and drawn: many distinct colours, and no colour covering 97% or more
# (a blank window, or one with only a title, is 99-100% background). Any TEXT arguments must appear
# in the SVG of the same view (as a text element's content; TEXT* as the start of one).
# usage: gui_shot.sh BIN PNG_STATS VIEW DIR [KERNEL [TEXT...]]
set -euo pipefail
bin=$1 stats=$2 view=$3 dir=$4
kernel=${5:-}
shift $(( $# < 5 ? $# : 5 ))
args=(shot --view "$view")
[ -z "$kernel" ] || args+=(--kernel "$kernel")
mkdir -p "$dir"
png="$dir/$view.png"
rm -f "$png"
if [ -z "${DISPLAY:-}" ]; then  # an X server of its own (xvfb-run -a can pick a display another test just took)
  source "$(dirname "$0")/private_x.sh"
  start_private_x "$dir" 1920x1080
fi
"$bin" "${args[@]}" -o "$png"
read -r w h colours dominant < <("$stats" "$png")
echo "$view.png: ${w}x${h}, $colours distinct colours, most common colour covers $dominant% of pixels"
[ "$w" = 1600 ] && [ "$h" = 900 ] || { echo "FAIL: expected 1600x900"; exit 1; }
[ "$colours" -ge 200 ] || { echo "FAIL: only $colours colours: blank or nearly blank"; exit 1; }
awk -v d="$dominant" 'BEGIN { exit !(d < 97) }' || { echo "FAIL: one colour covers $dominant%"; exit 1; }
# The same view as SVG: the same drawing code, written as vector shapes.
svg="$dir/$view.svg"
rm -f "$svg"
"$bin" "${args[@]}" -o "$svg"
grep -q '</svg>' "$svg" || { echo "FAIL: $svg is not a complete SVG"; exit 1; }
shapes=$(grep -oE '<(rect|line|polyline|polygon|circle|text)' "$svg" | wc -l)
[ "$shapes" -ge 40 ] || { echo "FAIL: $svg has only $shapes shapes and texts"; exit 1; }
echo "$view.svg: $shapes shapes and texts"
for text in "$@"; do  # TEXT* : a text element starting with TEXT
  if [[ $text == *'*' ]]; then want=">${text%'*'}"; else want=">$text</text>"; fi
  grep -qF "$want" "$svg" || { echo "FAIL: $svg has no text '$text'"; exit 1; }
done
[ $# = 0 ] || echo "$view.svg: says all of: $*"
# The light theme (slides), where asked (SHOT_LIGHT=1, gui.every_view): the same view as PNG and SVG, another
# picture (the background alone covers most of it), drawn just as fully, on a white SVG background.
[ "${SHOT_LIGHT:-0}" = 1 ] || exit 0
light="$dir/${view}_light.png"
rm -f "$light"
"$bin" "${args[@]}" --theme light -o "$light"
read -r lw lh lcolours _ < <("$stats" "$light")
[ "$lw $lh" = "1600 900" ] && [ "$lcolours" -ge 200 ] || { echo "FAIL: light $view.png is ${lw}x$lh, $lcolours colours"; exit 1; }
read -r _ _ _ pct _ < <("$stats" --diff "$png" "$light")
awk -v p="$pct" 'BEGIN { exit !(p >= 30) }' || { echo "FAIL: light and dark $view.png differ in only $pct% of pixels"; exit 1; }
"$bin" "${args[@]}" --theme light -o "$dir/${view}_light.svg"
# the first shape is the background: the whole picture, white in the light theme, not in the dark one
bg() { grep -o '<rect[^>]*>' "$1" | head -1; }
[ "$(bg "$dir/${view}_light.svg")" = '<rect x="0" y="0" width="1600" height="900" fill="#ffffff"/>' ] ||
  { echo "FAIL: the light $view.svg starts with $(bg "$dir/${view}_light.svg"), not a white background"; exit 1; }
[ "$(bg "$svg")" != "$(bg "$dir/${view}_light.svg")" ] || { echo "FAIL: the dark $view.svg has the light background"; exit 1; }
echo "${view}_light.png: differs from the dark one in $pct% of pixels; the light SVG has a white background"
