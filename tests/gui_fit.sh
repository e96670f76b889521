#!/usr/bin/env bash
# On a screen smaller than its 1600x900, the window opens at the screen's size, all of it on the screen (a
# 1366x768 laptop lost the right-hand views and the theme switches past its edge); --width and --height are kept
# as given.
set -euo pipefail
bin=$1 dir=$2
mkdir -p "$dir"
source "$(dirname "$0")/private_x.sh"
start_private_x "$dir" 1366x768
export XDG_CONFIG_HOME=$dir/config
geometry() {  # geometry ARGS...: the window's WxH while it runs
  "$bin" "$@" --exit-after 20 &
  app=$!
  local g=
  for _ in $(seq 150); do
    g=$(xdotool search --sync --onlyvisible --name '^gemmscope' getwindowgeometry 2>/dev/null | sed -n 's/.*Geometry: //p' | head -1)
    [ -n "$g" ] && break
    sleep 0.1
  done
  sleep 0.5  # a resize the window asks for after it is mapped
  g=$(xdotool search --onlyvisible --name '^gemmscope' getwindowgeometry 2>/dev/null | sed -n 's/.*Geometry: //p' | head -1)
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  app=
  echo "$g"
}
got=$(geometry)
[ "$got" = 1366x768 ] || { echo "FAIL: on a 1366x768 screen the window opened at '$got'"; exit 1; }
echo "ok: on a 1366x768 screen the window opens at 1366x768"
got=$(geometry --width 1000 --height 700)
[ "$got" = 1000x700 ] || { echo "FAIL: --width 1000 --height 700 opened at '$got'"; exit 1; }
echo "ok: --width 1000 --height 700 is kept"
