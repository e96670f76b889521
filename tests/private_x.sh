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
