#!/usr/bin/env bash
# Toggling an optimization in the real window, through real input (xdotool on a private Xvfb, the bundled
# capture): with mma_f16/10 selected, the block order combo's "none" selects [order=none] and back; the
# kernel list's "cp.async stages" combo opened by a click and its
# "2" picked selects mma_f16/10_multistage[stages=2]; the block order combo then offers "none" disabled (no
# variant changes two toggles), and clicking it changes nothing; picking its own stages again goes back; the
# XOR permutation combo's "off" selects [xor=off] and back.
# usage: gui_toggle.sh BIN DIR
set -euo pipefail
bin=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
export XDG_CONFIG_HOME=$dir/config
settings=$XDG_CONFIG_HOME/gemmscope/settings.json
mkdir -p "$(dirname "$settings")"
printf '{"schema": "gemmscope-settings/1", "kernel": "mma_f16/10_multistage", "hint_dismissed": true}\n' >"$settings"
source "$(dirname "$0")/private_x.sh"
start_private_x "$dir" 1600x900
fail() { echo "FAIL: $*"; exit 1; }
report=$dir/report.json
"$bin" --exit-after 170 --width 1600 --height 900 --audit --report "$report" &  # outlives a slow run: the test ends it
app=$!
wait_report "$report"
wid=$(xdotool search --sync --name '^gemmscope$' | head -1)
field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($1)" "$report"; }
drawn() { [ "$(field "any(w[0].startswith('$1') for w in r['audit']['widgets'])")" = True ]; }  # a widget noted as PREFIX...
list_open() { [ "$(field "any(' variant entry ' in w[0] for w in r['audit']['widgets'])")" = True ]; }
wait_kernel() {  # until the report names this kernel
  for _ in $(seq 50); do
    [ "$(field "r['kernel']")" = "$1" ] && return 0
    sleep 0.1
  done
  fail "the window selects $(field "r['kernel']"), not $1"
}
# pick WIDGET ROW: click the combo noted as WIDGET, then the ROW-th entry of its list (0: the rung's own).
# after_frames N: until the window has drawn two frames past N (an open list is on screen before its row is
# clicked, however slowly a loaded machine draws).
after_frames() {
  for _ in $(seq 80); do [ "$(field "r['frames']")" -ge $(($1 + 2)) ] && return 0; sleep 0.1; done
}
pick() {
  # The list's entries are noted once drawn ("WIDGET entry ROW"). First the list closed (a report from before the
  # last click can still show it open), then the combo clicked, then the row waited for, however slow the frames
  # (a sanitizer build's), and its middle clicked.
  local entry="$(echo "$1" | sed 's/ variant$//') variant entry $2 in "
  for _ in $(seq 100); do
    drawn "$entry" || break
    sleep 0.1
  done
  read -r x y w h <<<"$(field "' '.join(str(round(v)) for v in next(w[1:] for w in r['audit']['widgets'] if w[0].startswith('$1 in ')))")"
  local f0
  f0=$(field "r['frames']")
  xdotool mousemove --window "$wid" $((x + w / 2)) $((y + h / 2)) click 1
  after_frames "$f0"
  for _ in $(seq 100); do
    drawn "$entry" && break
    sleep 0.1
  done
  read -r x y w h <<<"$(field "' '.join(str(round(v)) for v in next((w[1:] for w in r['audit']['widgets'] if w[0].startswith('$entry')), [0, 0, 0, 0]))")"
  [ "$w" != 0 ] && xdotool mousemove --window "$wid" $((x + w / 2)) $((y + h / 2)) click 1
  sleep 0.6
}
# pick_until WIDGET ROW KERNEL: pick, and once more if a loaded machine let the first click land early.
# Three tries: under a full parallel ctest a combo's list can open a frame late and the second click miss it.
pick_until() {
  for _ in 1 2; do
    pick "$1" "$2"
    for _ in $(seq 30); do [ "$(field "r['kernel']")" = "$3" ] && return 0; sleep 0.1; done
    xdotool mousemove --window "$wid" 150 860 click 1  # close whatever list is open
    sleep 0.6
  done
  pick "$1" "$2"
  wait_kernel "$3"
}
wait_kernel mma_f16/10_multistage
# The same click on the block order's "none" selects it while no other toggle is set (so the clicks below
# land on the rows they mean), and its own order goes back.
pick_until "block order variant" 1 "mma_f16/10_multistage[order=none]"
pick_until "block order variant" 0 mma_f16/10_multistage
echo "ok: the block order combo selected [order=none] and back"
pick_until "cp.async stages variant" 1 "mma_f16/10_multistage[stages=2]"
echo "ok: the stages combo selected mma_f16/10_multistage[stages=2]"
pick "block order variant" 1
sleep 0.5
wait_kernel "mma_f16/10_multistage[stages=2]"
# A disabled entry leaves the list open: a click on the rung's explanation (plain text) closes it; wait until the
# report shows it closed (the next click would otherwise only close it).
xdotool mousemove --window "$wid" 150 860 click 1
for _ in $(seq 100); do
  list_open || break
  sleep 0.1
done
! list_open || fail "the block order list did not close"
echo "ok: block order 'none' with stages=2 is not compiled: disabled, the selection stays"
pick_until "cp.async stages variant" 0 mma_f16/10_multistage
echo "ok: its own stages again selects the rung"
# The XOR permutation switched off: the variant with unpermuted tiles, whose bank view opens on an 8-way ldmatrix.
pick_until "XOR permutation variant" 1 "mma_f16/10_multistage[xor=off]"
pick_until "XOR permutation variant" 0 mma_f16/10_multistage
echo "ok: the XOR permutation combo selected [xor=off] and back"
# The layout view's TikZ button writes each operand of the rung's op as a .tex picture into the exports folder.
read -r x y w h <<<"$(field "' '.join(str(round(v)) for v in next(w[1:] for w in r['audit']['widgets'] if w[0].startswith('TikZ in ')))")"
xdotool mousemove --window "$wid" $((x + w / 2)) $((y + h / 2)) click 1
for _ in $(seq 30); do [ "$(ls "$XDG_CONFIG_HOME"/gemmscope/exports/layout_*.tex 2>/dev/null | wc -l)" -ge 3 ] && break; sleep 0.1; done
n=$(ls "$XDG_CONFIG_HOME"/gemmscope/exports/layout_*.tex 2>/dev/null | wc -l)
[ "$n" -ge 3 ] || fail "the TikZ button wrote $n .tex files, not A, B and C"
grep -l 'begin{tikzpicture}' "$XDG_CONFIG_HOME"/gemmscope/exports/layout_*.tex >/dev/null || fail "no TikZ picture in them"
echo "ok: the TikZ button wrote $(ls "$XDG_CONFIG_HOME"/gemmscope/exports/ | grep -c '\.tex$') pictures: $(ls "$XDG_CONFIG_HOME"/gemmscope/exports/ | tr '\n' ' ')"
# The layout pane's SVG button: the file's name says the view, the op, the size the rung was measured at and
# the GPU; the banner then offers the path to copy.
read -r x y w h <<<"$(field "' '.join(str(round(v)) for v in next(w[1:] for w in r['audit']['widgets'] if w[0].startswith('SVG in gemmscope/layout')))")"
xdotool mousemove --window "$wid" $((x + w / 2)) $((y + h / 2)) click 1
for _ in $(seq 30); do ls "$XDG_CONFIG_HOME"/gemmscope/exports/layout_*_4096_H200.svg >/dev/null 2>&1 && break; sleep 0.1; done
svg=$(ls "$XDG_CONFIG_HOME"/gemmscope/exports/layout_*_4096_H200.svg 2>/dev/null | head -1)
[ -n "$svg" ] || fail "no layout_..._4096_H200.svg export: $(ls "$XDG_CONFIG_HOME"/gemmscope/exports/)"
for _ in $(seq 30); do drawn 'copy path in ' && break; sleep 0.1; done
drawn 'copy path in ' || fail "no copy path button"
echo "ok: the SVG export is $(basename "$svg"), and the banner offers its path to copy"
