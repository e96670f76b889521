#!/usr/bin/env bash
# A bounded fuzz run of one target (issue 16, item 2): first every committed corpus input (a regression test),
# then SECONDS of libFuzzer from the corpus, at most 1 GB per input and 5 s per input. New inputs go to WORKDIR,
# never into the repository; a crash leaves its input in WORKDIR/crash-* and fails the test: keep that input in
# tests/fuzz/corpus/TARGET/ with the fix.
#   run.sh FUZZER CORPUS WORKDIR SECONDS
set -uo pipefail
fuzzer=$1 corpus=$2 work=$3 seconds=$4
rm -rf "$work" && mkdir -p "$work/new"
common=(-rss_limit_mb=1024 -timeout=5 -max_len=200000 -artifact_prefix="$work/" -print_final_stats=1)
if ! "$fuzzer" "${common[@]}" -runs=0 "$corpus" >"$work/replay.log" 2>&1; then
  tail -30 "$work/replay.log"; echo "FAIL: a committed corpus input fails"; exit 1
fi
echo "corpus: $(ls "$corpus" | wc -l) inputs replayed"
if ! "$fuzzer" "${common[@]}" -max_total_time="$seconds" "$work/new" "$corpus" >"$work/fuzz.log" 2>&1; then
  tail -30 "$work/fuzz.log"; echo "FAIL: libFuzzer found a crash: $(ls "$work"/crash-* "$work"/oom-* "$work"/timeout-* 2>/dev/null)"; exit 1
fi
grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/fuzz.log"
echo "ok: $(grep -oE 'number_of_executed_units: [0-9]+' "$work/fuzz.log" | grep -oE '[0-9]+') executions in ${seconds} s, no crash"
