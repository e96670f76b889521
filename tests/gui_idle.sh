#!/usr/bin/env bash
# An idle window costs nothing: on the bundled capture with no input, under Xvfb (Mesa's software GL), the
# gemmscope process uses under 5% of one core over 30 s once it has drawn its first frames. Start-up
# (reading the capture, building fonts) is reported beside it.
# usage: gui_idle.sh BIN DIR
set -euo pipefail
bin=$1 dir=$2
mkdir -p "$dir"
export XDG_CONFIG_HOME=$dir/config
seconds=30
# Our own X server, so that the time measured below is the window's alone.
source "$(dirname "$0")/private_x.sh"
start_private_x "$dir" 1920x1080
report=$dir/report.json
rm -f "$report"
"$bin" --exit-after $((seconds + 15)) --report "$report" >/dev/null 2>"$dir/stderr" &
app=$!
for _ in $(seq 200); do [ -s "$report" ] && break; sleep 0.1; done
[ -s "$report" ] || { echo "FAIL: the window drew nothing"; exit 1; }
sleep 2  # the frames after the first, until the window settles and sleeps
ticks() { awk '{ print $14 + $15 }' "/proc/$app/stat"; }  # user + system, in clock ticks
hz=$(getconf CLK_TCK)
start=$(ticks)
sleep $seconds
end=$(ticks)
kill $app
wait $app 2>/dev/null || true
app=
share=$(python3 -c "print(round(100 * ($end - $start) / $hz / $seconds, 2))")
echo "start-up and first frames: $(python3 -c "print($start / $hz)") s of CPU"
echo "idle for ${seconds}s after that: $(python3 -c "print(($end - $start) / $hz)") s of CPU = ${share}% of one core"
python3 -c "import sys; sys.exit(not float(sys.argv[1]) < 5)" "$share" || { echo "FAIL: an idle window should use under 5%"; exit 1; }
