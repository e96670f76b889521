#!/usr/bin/env bash
# A capture that does not load, given to the window: the window stays up on the bundled capture and says why in
# the words the command line uses (the file, the field path, the problem), on stderr and on a red band under its
# top bar until dismissed; `shot` with the same capture still exits 1 with that line.
# usage: gui_bad_capture.sh BIN PNG_STATS CAPTURE DIR
set -euo pipefail
bin=$1 stats=$2 capture=$3 dir=$4
rm -rf "$dir"
mkdir -p "$dir"
export XDG_CONFIG_HOME=$dir/config
fail() { echo "FAIL: $*"; exit 1; }
bad=$dir/tflops_1e39.json
PYTHONPATH="$(dirname "$0")/../tools" python3 - "$capture" "$bad" <<'PY'
import json, sys
from capture_json import load_json
d = load_json(sys.argv[1])
d["runs"][3]["tflops"] = 1e39
json.dump(d, open(sys.argv[2], "w"))
PY

# The command line: one line naming the file, the field and the problem; exit 1; nothing written.
rc=0
"$bin" shot --view perf --replay "$bad" -o "$dir/x.svg" 2>"$dir/shot.err" || rc=$?
[ $rc -eq 1 ] || fail "shot of a damaged capture exited $rc"
[ "$(wc -l <"$dir/shot.err")" -eq 1 ] || fail "shot said more than one line: $(cat "$dir/shot.err")"
msg=$(sed 's/^gemmscope shot: //' "$dir/shot.err")
case $msg in *"tflops_1e39.json: runs[3].tflops: 1e+39 is out of range"*) ;; *) fail "shot said: $msg" ;; esac
[ ! -e "$dir/x.svg" ] || fail "shot wrote a picture of a damaged capture"

# The real window under a private Xvfb.
source "$(dirname "$0")/private_x.sh"
start_private_x "$dir" 1600x900
report=$dir/report.json
"$bin" --replay "$bad" --exit-after 240 --width 1600 --height 900 --audit --report "$report" 2>"$dir/window.err" &
app=$!
field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($1)" "$report"; }
wait_report "$report"  # a sanitizer build starts slowly
# Up to 15 s for 5 frames: an idle window draws no more (each read of the report starts a Python, about 0.4 s, so
# the wait is counted in seconds, not reads; counted in reads it took 75 s and, under a parallel ctest, used up
# the window's --exit-after before the dismiss below).
deadline=$((SECONDS + 15))
while [ $SECONDS -lt $deadline ] && [ "$(field "r['frames']")" -lt 5 ]; do sleep 0.1; done
kill -0 $app 2>/dev/null || fail "the window is gone"
[ "$(cat "$dir/window.err")" = "gemmscope: $msg; showing the bundled capture instead" ] ||
  fail "stderr is not the one line: $(cat "$dir/window.err")"
alert=$(field "r['alert']")
[ "$alert" = "$msg · showing the bundled capture instead" ] || fail "the window's alert: '$alert'"
case $(field "r['banner']") in "Bundled capture "*) ;; *) fail "the banner: $(field "r['banner']")" ;; esac
[ "$(field "r['audit']['overlaps']")" = "[]" ] || fail "overlaps: $(field "r['audit']['overlaps']")"
python3 - "$report" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w = {x[0].split(" in ")[0]: x[1:] for x in r["audit"]["widgets"]}  # "alert in gemmscope at ..."
for need in ("alert", "alert dismiss", "banner", "hint"):
    if need not in w: sys.exit(f"FAIL: no '{need}' on screen")
x, y, wd, h = w["alert"]
if not (0 <= x and x + wd <= 1600 and wd > 800): sys.exit(f"FAIL: the alert is at {w['alert']}")
if not (w["banner"][1] < y < w["hint"][1] < r["panes"]["kernels"][1]):
    sys.exit("FAIL: the alert is not between the top bar and the hint, above the workspace")
if r["audit"]["min_text_px"] < 11: sys.exit(f"FAIL: text of {r['audit']['min_text_px']} px")
print(f"ok: the alert {wd:.0f}x{h:.0f} px under the top bar; the workspace below it; smallest text "
      f"{r['audit']['min_text_px']} px")
PY
top=$(field "round(r['panes']['kernels'][1])")
# Dismissed: the band goes and the workspace takes its place.
read -r x y w h <<<"$(field "' '.join(str(round(v)) for v in next(w[1:] for w in r['audit']['widgets'] if w[0].startswith('alert dismiss in ')))")"
wid=$(xdotool search --sync --name '^gemmscope$' | head -1)
for _ in 1 2 3; do
  xdotool mousemove --window "$wid" $((x + w / 2)) $((y + h / 2)) click 1
  for _ in $(seq 30); do [ -z "$(field "r['alert']")" ] && break; sleep 0.1; done
  [ -z "$(field "r['alert']")" ] && break
done
[ -z "$(field "r['alert']")" ] || fail "the alert stays after 'dismiss'"
[ "$(field "round(r['panes']['kernels'][1])")" -lt "$top" ] || fail "the workspace did not move up into the band's place"
kill -0 $app 2>/dev/null || fail "the window is gone after dismissing"
xdotool key --window "$wid" ctrl+q
rc=0
wait $app || rc=$?
app=
[ $rc -eq 0 ] || fail "the window exited $rc"
echo "ok: the window stayed up on the bundled capture, said '$msg', and let it be dismissed"

# The picture (headless, 1600x900): the band is red with text in it, where the report says.
env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --replay "$bad" --headless --frames 3 --width 1600 --height 900 --audit \
  --report "$dir/headless.json" --last-frame "$dir/alert.png" 2>/dev/null || fail "the headless window exited non-zero"
report=$dir/headless.json
read -r x y w h <<<"$(field "' '.join(str(round(v)) for v in next(w[1:] for w in r['audit']['widgets'] if w[0].startswith('alert in ')))")"
read -r _ _ colours _ rgb <<<"$("$stats" --region "$x" "$y" "$w" "$h" "$dir/alert.png")"
python3 - "$colours" "$rgb" <<'PY'
import sys
colours, rgb = int(sys.argv[1]), sys.argv[2]
r, g, b = (int(rgb[i:i + 2], 16) for i in (0, 2, 4))
if not (r > g + 30 and r > b + 30): sys.exit(f"FAIL: the alert band is #{rgb}, not red")
if colours < 20: sys.exit(f"FAIL: {colours} colours in the band: no text drawn")
print(f"ok: the alert band is #{rgb} with {colours} colours of text in it")
PY
