# Sourced by the GUI tests that drive the real window: start_private_x DIR WxH starts an X server of
# their own (xdotool and the CPU measurement need to know which one; Xvfb picks a free display itself, so
# tests run in parallel never collide), exports DISPLAY, and on exit kills it and the window in $app.
start_private_x() {
  local dir=$1 size=$2
  rm -f "$dir/display"
  Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp 3>"$dir/display" >/dev/null 2>&1 &
  xvfb=$!
  app=
  trap 'kill $xvfb 2>/dev/null; [ -z "$app" ] || kill $app 2>/dev/null; true' EXIT
  for _ in $(seq 100); do [ -s "$dir/display" ] && break; sleep 0.1; done
  [ -s "$dir/display" ] || { echo "FAIL: Xvfb did not start"; exit 1; }
  export DISPLAY=":$(head -1 "$dir/display")"
  for _ in $(seq 100); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
}
# wait_report FILE: until the window in $app has written its first report. A sanitizer build under a parallel
# ctest takes tens of seconds to inflate and check the bundled capture, so this waits while the window lives
# (up to 3 minutes) and fails at once, with one line, when it has died.
wait_report() {
  for _ in $(seq 1800); do
    [ -s "$1" ] && return 0
    kill -0 "$app" 2>/dev/null || { echo "FAIL: the window exited before writing its report"; exit 1; }
    sleep 0.1
  done
  echo "FAIL: the window wrote no report in 3 minutes"
  exit 1
}
