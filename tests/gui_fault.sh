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
  # The live series goes on across the restart: its points in order, the earlier ones kept, a gap where no worker
  # ran (the fault, the 1 s back-off), and points of the new worker after it.
  python3 - "$out/series.csv" "$kind" <<'PY'
import csv, sys
series, kind = sys.argv[1:]
t = [float(r["t_s"]) for r in csv.DictReader(open(series))]
if any(b <= a for a, b in zip(t, t[1:])): sys.exit(f"FAIL: {kind}: series times not increasing")
if len(t) < 20: sys.exit(f"FAIL: {kind}: {len(t)} points in all")
gap, i = max((b - a, i) for i, (a, b) in enumerate(zip(t, t[1:])))
before, after = i + 1, len(t) - i - 1
if gap < 0.8 or before < 10 or after < 10:
    sys.exit(f"FAIL: {kind}: largest gap {gap:.2f} s with {before} points before it and {after} after (want a gap "
             "over 0.8 s, 10 points on each side)")
print(f"ok: {kind}: {before} points kept from before the fault, a {gap:.1f} s gap, {after} points after the restart")
PY
}

drill signal 30 "fault_drill/signal faulted: the GPU worker was killed by signal 11 (Segmentation fault); fault_drill/signal is not run again"
drill hang 1 "fault_drill/hang hung: fault drill did not finish within 1.0 s, so the worker was killed; fault_drill/hang is not run again"

# The flag is checked: an unknown drill is one line and exit 2; without a GPU, the real drills have nothing to run on.
if "$bin" --fake-gpu --fault-drill oob 2>"$dir/err"; then fail "--fake-gpu --fault-drill oob ran"; fi
grep -q "^gemmscope: --fault-drill: 'oob' is not one of sticky, signal" "$dir/err" || fail "unclear: $(cat "$dir/err")"
echo "ok: the window contains a worker that dies or hangs"
