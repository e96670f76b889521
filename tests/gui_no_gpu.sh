#!/usr/bin/env bash
# What a machine lacks, each said in one line, the window on the bundled capture where it can show anything:
# no GPU (this machine, where it has none), a driver too old for the CUDA runtime, no NVML, an NVML of another driver
# version, no display. The driver's libraries are stand-ins (fake_driver.c) that gemmscope's own dlopen calls find
# through LD_LIBRARY_PATH; NVML is read by the live window, here with the fake GPU worker (--fake-gpu).
# usage: gui_no_gpu.sh BIN OLD_DRIVER_DIR NVML_MISMATCH_DIR DIR
set -euo pipefail
bin=$1 old_driver=$2 nvml_mismatch=$3 dir=$4
rm -rf "$dir"
mkdir -p "$dir"
export XDG_CONFIG_HOME=$dir/config
fail() { echo "FAIL: $*"; exit 1; }
field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($1)" "$2"; }

# window_banner NAME [ENV...]: the headless window's banner with those variables set; it must exit 0 having said
# nothing but its summary line.
window_banner() {
  local name=$1
  shift
  env -u DISPLAY -u WAYLAND_DISPLAY "$@" "$bin" --headless --frames 2 --report "$dir/$name.json" 2>"$dir/$name.err" ||
    { cat "$dir/$name.err"; fail "$name: the window exited non-zero"; }
  [ "$(grep -vc '^headless on ' "$dir/$name.err")" -eq 0 ] || fail "$name: the window said: $(cat "$dir/$name.err")"
  field "r['banner']" "$dir/$name.json"
}
# record_says NAME [ENV...]: record's one line (it needs a GPU): exit 1.
record_says() {
  local name=$1 rc=0
  shift
  env "$@" "$bin" record -o "$dir/$name-capture.json" 2>"$dir/$name-record.err" || rc=$?
  [ $rc -eq 1 ] || fail "$name: record exited $rc"
  [ "$(wc -l <"$dir/$name-record.err")" -eq 1 ] || fail "$name: record said: $(cat "$dir/$name-record.err")"
  [ ! -e "$dir/$name-capture.json" ] || fail "$name: record wrote a capture"
  sed 's/^gemmscope record: no CUDA device: //' "$dir/$name-record.err"
}

# No GPU: the reason CUDA gives, the same in record's line and in the window's banner, which names the bundled capture.
banner=$(window_banner no_gpu)
case $banner in
  "Live on "*) echo "skipped: this machine has a CUDA GPU (the window runs live)" ;;
  "No CUDA device · Bundled capture "*)
    why=$(record_says no_gpu)
    [ "$banner" != "${banner%" · $why"}" ] || fail "the banner '$banner' does not end with '$why'"
    case $why in
      "no NVIDIA driver is loaded (libcuda.so.1 not found)" | "the NVIDIA driver sees no CUDA-capable GPU") ;;
      *) fail "no GPU: an unexpected reason: $why" ;;
    esac
    echo "ok: no GPU: '$why', the window on the bundled capture" ;;
  *) fail "no GPU: the banner says '$banner'" ;;
esac

# A driver older than the runtime (CUDA 11.4): said with both versions, not as a missing driver.
banner=$(window_banner old_driver LD_LIBRARY_PATH="$old_driver")
why=$(record_says old_driver LD_LIBRARY_PATH="$old_driver")
case $why in
  "the NVIDIA driver supports CUDA 11.4, older than the CUDA "*" this build needs; update the driver") ;;
  *) fail "old driver: record says '$why'" ;;
esac
case $banner in "No CUDA device · Bundled capture "*" · $why") ;; *) fail "old driver: the banner says '$banner'" ;; esac
echo "ok: old driver: '$why', the window on the bundled capture"

# NVML: the live window's throughput view says why it shows no clocks (the F12 SVG of the workspace, maximised to
# the view, holds its text).
nvml_says() {  # NAME [ENV...]: the throughput view's device line
  local name=$1
  shift
  env -u DISPLAY -u WAYLAND_DISPLAY XDG_CONFIG_HOME="$dir/$name-config" "$@" "$bin" --headless --fake-gpu --exit-after 3 \
    --maximize perf --script 2:export 2>"$dir/$name.err" || { cat "$dir/$name.err"; fail "$name: the window exited non-zero"; }
  local svg
  svg=$(ls "$dir/$name-config"/gemmscope/exports/all_*.svg 2>/dev/null | head -1)
  [ -n "$svg" ] || fail "$name: no workspace export"
  python3 - "$svg" <<'PY'
import re, sys, html
text = [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", open(sys.argv[1]).read())]
print(next((t for t in text if "NVML" in t), ""))
PY
}
if ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so\.1 '; then
  echo "skipped: no NVML (this machine has libnvidia-ml.so.1)"
else
  says=$(nvml_says no_nvml)
  [ "$says" = "Fake GPU (worker test, no CUDA) · NVML not found (libnvidia-ml.so.1 comes with the NVIDIA driver): no clocks, power or temperature" ] ||
    fail "no NVML: the throughput view says '$says'"
  echo "ok: no NVML: '$says'"
fi
says=$(nvml_says nvml_mismatch LD_LIBRARY_PATH="$nvml_mismatch")
[ "$says" = "Fake GPU (worker test, no CUDA) · NVML did not start: RM has detected an NVML/RM version mismatch. (a driver upgraded but not yet loaded: reboot)" ] ||
  fail "NVML of another version: the throughput view says '$says'"
echo "ok: NVML of another driver version: '$says'"

# No display: the window cannot open; one line naming DISPLAY, exit 1 (shot and export need none: gui.headless).
rc=0
env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --frames 1 2>"$dir/no_display.err" || rc=$?
[ $rc -eq 1 ] || fail "no display: the window exited $rc"
[ "$(wc -l <"$dir/no_display.err")" -eq 1 ] || fail "no display: said $(cat "$dir/no_display.err")"
grep -q "^gemmscope: cannot open a display: .*DISPLAY is not set; run under xvfb-run" "$dir/no_display.err" ||
  fail "no display: said $(cat "$dir/no_display.err")"
echo "ok: no display: $(cat "$dir/no_display.err")"
# ... and a capture that does not load says so in the same line: it waits for a window to show it, and none comes.
head -c 20000 "$(dirname "$0")/../assets/captures/h200.json.gz" >"$dir/cut.json.gz"
rc=0
env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --replay "$dir/cut.json.gz" --frames 1 2>"$dir/no_display2.err" || rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$dir/no_display2.err")" -eq 1 ] &&
  grep -q "^gemmscope: cannot open a display: .*(and .*cut.json.gz: gzip data cut short" "$dir/no_display2.err" ||
  fail "no display, a cut capture: exit $rc, said $(cat "$dir/no_display2.err")"
echo "ok: no display and a cut capture: one line names both"
