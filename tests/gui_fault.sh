#!/usr/bin/env bash
# Fault containment through the real window (headless, EGL) with the fake GPU worker (no CUDA): the fault drill
# kills the worker by SIGSEGV, or hangs it until the watchdog (--watchdog 1) kills it. The window must say which
# kernel faulted and why, restart the worker, go on with the live series it had, and exit normally.
# usage: gui_fault.sh BIN PNG_STATS DIR
set -euo pipefail
bin=$1 stats=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir"
export XDG_CONFIG_HOME=$dir/config
fail() { echo "FAIL: $*"; exit 1; }

drill() {  # KIND WATCHDOG EXPECTED-FAULT-LINE
  local kind=$1 watchdog=$2 says=$3 out=$dir/$1
  mkdir -p "$out"
  local start=$SECONDS
  env -u DISPLAY -u WAYLAND_DISPLAY timeout 60 "$bin" --headless --exit-after 10 --fake-gpu --fault-drill "$kind" \
    --watchdog "$watchdog" --width 1280 --height 720 --series-log "$out/series.csv" --last-frame "$out/last.png" \
    2>"$out/stderr" || { cat "$out/stderr"; fail "$kind: the window did not exit normally"; }
  [ $((SECONDS - start)) -lt 30 ] || fail "$kind: took $((SECONDS - start)) s"
  grep -F "fault: $says; restarting the GPU worker in 1.0 s" "$out/stderr" >/dev/null ||
    { cat "$out/stderr"; fail "$kind: no fault line saying: $says"; }
  grep -F "fault: $says; GPU worker restarted, everything measured before kept" "$out/stderr" >/dev/null ||
    { cat "$out/stderr"; fail "$kind: the worker was not restarted"; }
  [ "$("$stats" "$out/last.png" | cut -d' ' -f1-2)" = "1280 720" ] || fail "$kind: no last frame"
  # The live series goes on across the restart: points from before the fault and after the restart, in order.
  python3 - "$out/stderr" "$out/series.csv" "$kind" <<'PY'
import csv, re, sys
err, series, kind = sys.argv[1:]
times = [float(m.group(1)) for m in re.finditer(r"^([0-9.]+) s: fault: .*restarted", open(err).read(), re.M)]
if not times: sys.exit(f"FAIL: {kind}: no restart time")
restarted = times[0]
t = [float(r["t_s"]) for r in csv.DictReader(open(series))]
if any(b <= a for a, b in zip(t, t[1:])): sys.exit(f"FAIL: {kind}: series times not increasing")
before, after = [x for x in t if x < restarted - 1], [x for x in t if x > restarted]
if len(before) < 10 or len(after) < 10:
    sys.exit(f"FAIL: {kind}: {len(before)} points before the fault, {len(after)} after the restart (want 10 each)")
print(f"ok: {kind}: restarted at {restarted:.2f} s; {len(before)} points kept from before, {len(after)} after")
PY
}

drill signal 30 "fault_drill/signal faulted: the GPU worker was killed by signal 11 (Segmentation fault); fault_drill/signal is not run again"
drill hang 1 "fault_drill/hang hung: fault drill did not finish within 1.0 s, so the worker was killed; fault_drill/hang is not run again"

# The flag is checked: an unknown drill is one line and exit 2; without a GPU, the real drills have nothing to run on.
if "$bin" --fake-gpu --fault-drill oob 2>"$dir/err"; then fail "--fake-gpu --fault-drill oob ran"; fi
grep -q "^gemmscope: --fault-drill: 'oob' is not one of sticky, signal" "$dir/err" || fail "unclear: $(cat "$dir/err")"
echo "ok: the window contains a worker that dies or hangs"
