#!/usr/bin/env bash
# The real window on the bundled capture, driven through a private Xvfb with xdotool as a user would:
#  1. at 1280x720, 1600x900, 1920x1080 and 2560x1440, for a rung of each ladder, no two widgets overlap and
#     no view text is drawn below 14 px (the window's own audit, --audit --report);
#  2. double-clicking a view's title maximises it and again restores it; M over a view and Esc do the same;
#     the down arrow selects the next rung; Ctrl + zooms;
#  2c. a view dragged by its title moves (Esc leaves it), "default layout" puts the views back;
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

# ---- 1b. The kernel list scrolls to the selected rung by whole rows ----------------------------------------
# A picture's first row read as a sliver of "06_warp_64x64" under the header; the last rung, at the list's end,
# stays whole at the bottom. (Each row's name is a widget of the audit: none may be cut, at the top or the bottom.)
for zoom in 1.5 1.75; do
  for kernel in mma_f16/12_persistent hopper/06_tma_store; do
    rm -rf "$XDG_CONFIG_HOME"
    mkdir -p "$(dirname "$settings")"
    printf '{"schema": "gemmscope-settings/1", "kernel": "%s", "zoom": %s}\n' "$kernel" "$zoom" >"$settings"
    report=$dir/audit.json
    rm -f "$report"
    "$bin" --frames 6 --width 1366 --height 768 --audit --report "$report"
    # The top row, and for the last rung the bottom one (elsewhere the list's bottom edge may cut a row).
    cut=$(field "$report" "(lambda rows: [w[0] for w in (rows[0], rows[-1])[:1 + ('$kernel' == 'hopper/06_tma_store')]
          if w[4] < max(v[4] for v in rows) - 0.5])(sorted((w for w in r['audit']['widgets']
          if w[0].startswith(('kernel name ', 'family in '))), key=lambda w: w[2]))")
    [ "$cut" = "[]" ] || fail "$kernel at 1366x768, zoom $zoom: a row of the kernel list cut: $cut"
  done
done
echo "ok: the kernel list shows whole rows around the selected rung at 150% and 175%, at its end too"

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
# quit_window: Ctrl Q saves and quits. (Once, in a CI run, the window was gone by the time xdotool sent it: the X
# error is not the test's verdict; the window's exit status and what the next start finds saved are.)
quit_window() {
  xdotool key --window "$wid" ctrl+q || echo "note: xdotool could not send Ctrl Q (the window was gone)"
  wait $app || fail "the window exited with an error (status $?)"
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
# (Zoomed last: at 125% the 1600x900 window's columns are too short for their stacks and become tabs.) The steps
# are the ones a lecturer names: 110%, 125%, then 150%.
xdotool key --window "$wid" ctrl+equal
wait_for "abs(r['zoom'] - 1.1) < 1e-3"
echo "ok: Ctrl + zoomed to 110%"
xdotool keydown ctrl click 4 keyup ctrl
wait_for "abs(r['zoom'] - 1.25) < 1e-3"
echo "ok: Ctrl + wheel zoomed to 125%"
# Zooming in stops where the window would have less room than the workspace is laid out for: 1600x900 at 250% is
# 640x360, under 640x400 (300% of a 1280x720 window drew a toolbar's checkboxes under a view's words). The top bar
# says why; the zoom stays at 200%.
for want in 1.5 1.75 2.0; do
  xdotool key --window "$wid" ctrl+equal
  wait_for "abs(r['zoom'] - $want) < 1e-3"
done
xdotool key --window "$wid" ctrl+equal
wait_for "'less room than the workspace needs (640x400)' in r['message']"
[ "$(field "$report" "abs(r['zoom'] - 2.0) < 1e-3")" = True ] || fail "zoomed past 200% in a 1600x900 window: $(field "$report" "r['zoom']")"
echo "ok: zooming in stops at 200% in 1600x900: $(field "$report" "r['message']")"
for want in 1.75 1.5 1.25; do  # back to 125%, which the next start must remember
  xdotool key --window "$wid" ctrl+minus
  wait_for "abs(r['zoom'] - $want) < 1e-3"
done
chosen=$(field "$report" "r['kernel']")
quit_window
echo "ok: Ctrl Q closed the window"
app=

# ---- 2b. A laptop's window: columns too short for their views become tabs ----------------------------------
saved_config=$XDG_CONFIG_HOME  # (section 3 reads what section 2 saved)
# open_window NAME WxH: a window of its own settings ($dir/config-NAME) and report ($dir/NAME.json), audited
open_window() {
  export XDG_CONFIG_HOME=$dir/config-$1
  report=$dir/$1.json
  rm -f "$report"
  "$bin" --exit-after 60 --width "${2%x*}" --height "${2#*x}" --audit --report "$report" &
  app=$!
  wait_report "$report"
  wid=$(xdotool search --sync --name '^gemmscope$' | head -1)
}
open_window tabs 1366x768
# Every view is either a pane or a tab; a strip of tabs hangs over a pane that reaches the bottom.
[ "$(field "$report" "sorted(set(r['panes']) | {v for t in r['tabs'] for v in t['views']}) == sorted(['kernels', 'layout', 'banks', 'gmem', 'swizzle', 'perf', 'roofline', 'timeline', 'code'])")" = True ] ||
  fail "at 1366x768 some view is neither a pane nor a tab: $(field "$report" "r['panes'], r['tabs']")"
[ "$(field "$report" "len(r['tabs']) >= 1 and all(r['panes'][t['shown']][3] > 600 for t in r['tabs'])")" = True ] ||
  fail "at 1366x768 the short columns did not become tabs over a full-height pane: $(field "$report" "r['tabs']")"
[ "$(field "$report" "'swizzle' in r['panes']")" = False ] || fail "the launch order is a pane before its tab was clicked"
# The tab's place from the audit's widgets ("tab swizzle in ...").
read -r x y < <(field "$report" "next('%d %d' % (w[1] + w[3] / 2, w[2] + w[4] / 2) for w in r['audit']['widgets'] if w[0].startswith('tab swizzle '))")
xdotool mousemove --window "$wid" "$x" "$y" click 1
wait_for "'swizzle' in r['panes'] and any(t['shown'] == 'swizzle' for t in r['tabs'])"
[ "$(field "$report" "'gmem' in r['panes']")" = False ] || fail "the launch order's tab showed, but Global memory stayed a pane"
echo "ok: at 1366x768 the views stand in $(field "$report" "len(r['tabs'])") columns of tabs; clicking Launch order showed it"
# A tab is its view's title there: a double-click maximises the view (the hint says "double-click a view's title").
xdotool mousemove --window "$wid" "$x" "$y" click --repeat 2 --delay 60 1
wait_for "r['maximized'] == 'swizzle'"
xdotool key --window "$wid" Escape
wait_for "r['maximized'] == ''"
echo "ok: double-clicking the Launch order tab maximised it, Esc restored it"
quit_window
app=
rm -f "$report"
"$bin" --frames 4 --width 1366 --height 768 --report "$report"
[ "$(field "$report" "any(t['shown'] == 'swizzle' for t in r['tabs'])")" = True ] || fail "the tab shown was not remembered"
rm -f "$report"
"$bin" --frames 4 --width 1920 --height 1080 --report "$report"
[ "$(field "$report" "len(r['tabs']) == 0 and len(r['panes']) == 9")" = True ] ||
  fail "at 1920x1080 the views are not all stacked side by side again: $(field "$report" "r['tabs']")"
echo "ok: the next start showed Launch order's tab again; at 1920x1080 every view has its own pane"
export XDG_CONFIG_HOME=$saved_config
report=$dir/live.json

# ---- 2c. A view dragged by its title moves there; Esc leaves it; "default layout" puts it back -------------------
saved_config=$XDG_CONFIG_HOME
open_window move 1920x1080
first=$(field "$report" "r['columns']")
# drag VIEW X Y [esc]: press on the view's title, move in steps to (X, Y) (Esc there), release
drag() {
  local x y i
  read -r x y < <(title "$1")
  xdotool mousemove --window "$wid" "$x" "$y"
  sleep 0.3
  xdotool mousedown 1
  for i in 1 2 3 4 5; do
    xdotool mousemove --window "$wid" $((x + ($2 - x) * i / 5)) $((y + ($3 - y) * i / 5))
    sleep 0.1
  done
  sleep 0.3
  if [ "${4:-}" = esc ]; then
    xdotool key --window "$wid" Escape
    sleep 0.3
  fi
  xdotool mouseup 1
}
# The lower half of the code view's pane: the timeline goes under it, in its column, and is drawn there.
read -r cx cy < <(field "$report" "'%d %d' % (r['panes']['code'][0] + r['panes']['code'][2] / 2, r['panes']['code'][1] + r['panes']['code'][3] * 0.8)")
drag timeline "$cx" "$cy"
below="any(c[c.index('code') + 1:c.index('code') + 2] == ['timeline'] for c in r['columns'] if 'code' in c) and
       r['panes']['timeline'][1] > r['panes']['code'][1] and abs(r['panes']['timeline'][0] - r['panes']['code'][0]) < 1"
wait_for "$below"
wait_for "r['message'].startswith('moved Pipeline timeline below Code')"
echo "ok: dragging the timeline's title onto the lower half of the code view put it below: $(field "$report" "r['columns']")"
moved=$(field "$report" "r['columns']")
# Esc while dragging: the throughput view stays where it was.
read -r lx ly < <(field "$report" "'%d %d' % (r['panes']['layout'][0] + r['panes']['layout'][2] * 0.9, r['panes']['layout'][1] + r['panes']['layout'][3] / 2)")
drag perf "$lx" "$ly" esc
sleep 0.5
[ "$(field "$report" "r['columns']")" = "$moved" ] || fail "Esc during a drag moved the view: $(field "$report" "r['columns']")"
echo "ok: Esc during a drag left every view where it was"
# "default layout" (in the top bar once a view has moved) puts every view back.
read -r x y < <(field "$report" "next('%d %d' % (w[1] + w[3] / 2, w[2] + w[4] / 2) for w in r['audit']['widgets'] if w[0].startswith('default layout '))")
xdotool mousemove --window "$wid" "$x" "$y" click 1
wait_for "r['columns'] == $first"
[ "$(field "$report" "any(w[0].startswith('default layout ') for w in r['audit']['widgets'])")" = False ] ||
  fail "the default layout button stayed after the default arrangement came back"
echo "ok: \"default layout\" put every view back"
# Moved again, it is there at the next start.
drag timeline "$cx" "$cy"
wait_for "$below"
quit_window
app=
rm -f "$report"
"$bin" --frames 4 --width 1920 --height 1080 --report "$report"
[ "$(field "$report" "$below")" = True ] || fail "the moved timeline was not remembered: $(field "$report" "r['columns']")"
echo "ok: the timeline, dragged below the code view, was there at the next start"
export XDG_CONFIG_HOME=$saved_config
report=$dir/live.json

# ---- 3. Remembered, and a damaged file ---------------------------------------------------------------
rm -f "$report"
"$bin" --frames 4 --report "$report"
[ "$(field "$report" "r['kernel']")" = "$chosen" ] || fail "the selection was not remembered"
[ "$(field "$report" "abs(r['zoom'] - 1.25) < 1e-3")" = True ] || fail "the zoom was not remembered"
echo "ok: the next start came back with $chosen at 125%"
printf '{"schema": "gemmscope-settings/1", "zoom": "big' >"$settings"
rm -f "$report"
"$bin" --frames 4 --report "$report"
[ "$(field "$report" "'could not be used' in r['message']")" = True ] || fail "no notice for a damaged settings file"
[ "$(field "$report" "abs(r['zoom'] - 1.0) < 1e-3")" = True ] || fail "a damaged settings file did not give the defaults"
echo "ok: a damaged settings file gave the defaults and said: $(field "$report" "r['message']")"
