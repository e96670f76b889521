#!/usr/bin/env bash
# The real window on the bundled capture, driven through a private Xvfb with xdotool as a user would:
#  1. at 1280x720, 1600x900, 1920x1080 and 2560x1440, for a rung of each ladder, no two widgets overlap and
#     no view text is drawn below 14 px (the window's own audit, --audit --report);
#  2. double-clicking a view's title maximises it and again restores it; M over a view and Esc do the same;
#     the down arrow selects the next rung; Ctrl + zooms;
#  3. the arrangement, selection and zoom come back on the next start; a damaged settings file gives the
#     defaults and says so (Ctrl Q quits, saving them).
# usage: gui_workspace.sh BIN DIR
set -euo pipefail
bin=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
export XDG_CONFIG_HOME=$dir/config
settings=$XDG_CONFIG_HOME/gemmscope/settings.json

source "$(dirname "$0")/private_x.sh"
start_private_x "$dir" 2560x1440

field() {  # field FILE EXPR: a Python expression over the report `r`
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"
}
fail() { echo "FAIL: $*"; exit 1; }

# ---- 1. The audit ----------------------------------------------------------------------------------
for kernel in sgemm/05_blocktile_2d wmma/05_padded_smem mma_f16/08_ldmatrix mma_tf32/01_vectorized; do
  for size in 1280x720 1600x900 1920x1080 2560x1440; do
    rm -rf "$XDG_CONFIG_HOME"
    mkdir -p "$(dirname "$settings")"
    printf '{"schema": "gemmscope-settings/1", "kernel": "%s"}\n' "$kernel" >"$settings"
    report=$dir/audit.json
    rm -f "$report"
    "$bin" --frames 6 --width "${size%x*}" --height "${size#*x}" --audit --report "$report"
    [ "$(field "$report" "r['kernel']")" = "$kernel" ] || fail "$size: the window did not select $kernel"
    overlaps=$(field "$report" "len(r['audit']['overlaps'])")
    [ "$overlaps" = 0 ] || fail "$kernel at $size: $(field "$report" "r['audit']['overlaps']")"
    min=$(field "$report" "r['audit']['min_text_px']")
    python3 -c "import sys; sys.exit(not float(sys.argv[1]) >= 14)" "$min" ||
      fail "$kernel at $size: text drawn at $min px: $(field "$report" "r['audit']['smallest_text']")"
    echo "ok: $kernel at $size: $(field "$report" "r['audit']['items']") widgets, none overlapping; smallest text $min px"
  done
done

# ---- 2. Real input -----------------------------------------------------------------------------------
rm -rf "$XDG_CONFIG_HOME"
report=$dir/live.json
rm -f "$report"
"$bin" --exit-after 60 --width 1600 --height 900 --report "$report" &
app=$!
wait_report "$report"
wid=$(xdotool search --sync --name '^gemmscope$' | head -1)
# wait_for EXPR: until the report says so (the window redraws after each input; a sanitizer build's frames, beside
# other tests, can take seconds each: up to a minute).
wait_for() {
  for _ in $(seq 600); do
    [ "$(field "$report" "$1")" = True ] && return 0
    sleep 0.1
  done
  fail "waited for $1; report: $(cat "$report")"
}
title() {  # a point on view $1's title bar, right of the title text
  field "$report" "'%d %d' % (r['panes']['$1'][0] + 12, r['panes']['$1'][1] + 14)"
}
read -r x y < <(title banks)
xdotool mousemove --window "$wid" "$x" "$y"
wait_for "r['hovered'] == 'banks'"
sleep 0.3  # a loaded machine can take the move and the clicks in one frame, still hovering what the pointer left
xdotool click --repeat 2 --delay 60 1
wait_for "r['maximized'] == 'banks'"
echo "ok: double-click on the Bank conflicts title maximised it"
read -r x y < <(title banks)
xdotool mousemove --window "$wid" "$x" "$y"
sleep 0.3  # (the maximised banks view is hovered already: its title is what the double-click must find)
xdotool click --repeat 2 --delay 60 1
wait_for "r['maximized'] == ''"
echo "ok: a second double-click restored the arrangement"
read -r x y < <(field "$report" "'%d %d' % (r['panes']['layout'][0] + 200, r['panes']['layout'][1] + 300)")
xdotool mousemove --window "$wid" "$x" "$y"
wait_for "r['hovered'] == 'layout'"
xdotool key --window "$wid" m
wait_for "r['maximized'] == 'layout'"
xdotool key --window "$wid" Escape
wait_for "r['maximized'] == ''"
echo "ok: M over the fragment layout maximised it, Esc restored it"
first=$(field "$report" "r['kernel']")
xdotool key --window "$wid" Down
wait_for "r['kernel'] != '$first'"
echo "ok: the down arrow moved from $first to $(field "$report" "r['kernel']")"
xdotool key --window "$wid" ctrl+equal
wait_for "abs(r['zoom'] - 1.1) < 1e-3"
echo "ok: Ctrl + zoomed to 110%"
xdotool keydown ctrl click 4 keyup ctrl
wait_for "abs(r['zoom'] - 1.2) < 1e-3"
echo "ok: Ctrl + wheel zoomed to 120%"
# Clicking a bar of the throughput chart selects its rung: walk down the bars' labels until one does.
before=$(field "$report" "r['kernel']")
# Eight views share the window: maximise the chart first (M over it), as a user would to read its bars.
read -r x y < <(title perf)
xdotool mousemove --window "$wid" "$x" "$y"
wait_for "r['hovered'] == 'perf'"  # the window learns which pane is under the pointer on the frame the move wakes
xdotool key --window "$wid" m
wait_for "r['maximized'] == 'perf'"
read -r px py ph < <(field "$report" "'%d %d %d' % (r['panes']['perf'][0] + 90, r['panes']['perf'][1], r['panes']['perf'][3])")
for dy in $(seq 60 9 $((ph - 10))); do
  xdotool mousemove --window "$wid" "$px" $((py + dy)) click 1
  sleep 0.3
  [ "$(field "$report" "r['kernel']")" != "$before" ] && break
done
[ "$(field "$report" "r['kernel']")" != "$before" ] || fail "clicking the throughput bars selected no rung"
echo "ok: clicking a throughput bar selected $(field "$report" "r['kernel']")"
xdotool key --window "$wid" Escape
wait_for "r['maximized'] == ''"
chosen=$(field "$report" "r['kernel']")
xdotool key --window "$wid" ctrl+q
wait $app || fail "the window exited with an error"
echo "ok: Ctrl Q closed the window"
app=

# ---- 3. Remembered, and a damaged file ---------------------------------------------------------------
rm -f "$report"
"$bin" --frames 4 --report "$report"
[ "$(field "$report" "r['kernel']")" = "$chosen" ] || fail "the selection was not remembered"
[ "$(field "$report" "abs(r['zoom'] - 1.2) < 1e-3")" = True ] || fail "the zoom was not remembered"
echo "ok: the next start came back with $chosen at 120%"
printf '{"schema": "gemmscope-settings/1", "zoom": "big' >"$settings"
rm -f "$report"
"$bin" --frames 4 --report "$report"
[ "$(field "$report" "'could not be used' in r['message']")" = True ] || fail "no notice for a damaged settings file"
[ "$(field "$report" "abs(r['zoom'] - 1.0) < 1e-3")" = True ] || fail "a damaged settings file did not give the defaults"
echo "ok: a damaged settings file gave the defaults and said: $(field "$report" "r['message']")"
