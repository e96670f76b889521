#!/usr/bin/env bash
# An idle window costs nothing: on the bundled capture with no input for 30 s under Xvfb (Mesa's software
# GL), the gemmscope process uses under 5% of one core, start-up included.
# usage: gui_idle.sh BIN DIR
set -euo pipefail
bin=$1 dir=$2
mkdir -p "$dir"
export XDG_CONFIG_HOME=$dir/config
seconds=30
# Our own X server, so that the time measured below is the window's alone.
for n in $(seq 141 210); do [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] || break; done
Xvfb ":$n" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; true' EXIT
export DISPLAY=":$n"
for _ in $(seq 100); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
TIMEFORMAT='%U %S'
cpu=$( { time "$bin" --exit-after $seconds >/dev/null 2>"$dir/stderr"; } 2>&1 )
read -r user sys <<<"$cpu"
share=$(python3 -c "print(round(100 * ($user + $sys) / $seconds, 2))")
echo "idle window over ${seconds}s: ${user}s user + ${sys}s system = ${share}% of one core"
python3 -c "import sys; sys.exit(not float(sys.argv[1]) < 5)" "$share" || { echo "FAIL: an idle window should use under 5%"; exit 1; }
