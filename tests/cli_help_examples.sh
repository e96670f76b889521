#!/usr/bin/env bash
# Every example a subcommand's --help gives runs as written: exit 0, and the files it names written. The examples
# that need a CUDA GPU (record, bench) run as written too, and must get as far as looking for the GPU (exit 1 and
# "no CUDA device", not a usage error). export's take minutes (gui.deck runs the deck): their values are checked
# with --help added. The files an example reads (capture.json, h100_sizes.json, ...) are the bundled capture and
# the committed bench results.
# usage: cli_help_examples.sh BIN DIR
set -euo pipefail
bin=$(realpath "$1") dir=$2 src=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
if [ -z "${DISPLAY:-}" ]; then
  source "$src/tests/private_x.sh"
  start_private_x "$dir" 1920x1080
fi
zcat "$src/assets/captures/h200.json.gz" >capture.json
cp capture.json h100.json
cp "$src/bench/results/h100_sizes.json" "$src/bench/results/h200_sizes.json" .
fail() { echo "FAIL: $*"; exit 1; }
ran=0 parsed=0
for sub in record bench layout banks swizzle export shot list; do
  examples=$("$bin" "$sub" --help | sed -n '/^Examples:/,$p' | grep '^  gemmscope \|^  seq ' | sed 's/^  //; s/  \{2,\}.*$//')
  [ -n "$examples" ] || fail "gemmscope $sub --help gives no example"
  while IFS= read -r ex; do
    [ -n "$ex" ] || continue
    cmd=${ex//gemmscope /\"\$bin\" }
    case "$sub" in
      record|bench)
        rc=0
        bash -c "bin='$bin'; $cmd" >/dev/null 2>"err.txt" || rc=$?
        [ $rc = 1 ] && grep -q "no CUDA device" err.txt || fail "'$ex' (no GPU here): exit $rc, $(cat err.txt)"
        parsed=$((parsed + 1));;
      export)
        bash -c "bin='$bin'; $cmd --help" >/dev/null 2>"err.txt" || fail "'$ex' does not parse: $(cat err.txt)"
        parsed=$((parsed + 1));;
      *)
        bash -c "set -o pipefail; bin='$bin'; $cmd" >out.txt 2>err.txt || fail "'$ex' failed: $(cat err.txt)"
        for f in $(grep -o -- '-o [^ ]*' <<<"$ex" | cut -c4-); do
          [ -s "$f" ] || fail "'$ex' wrote no $f"
        done
        [ -s out.txt ] || grep -q -- ' -o ' <<<"$ex" || fail "'$ex' printed nothing"
        ran=$((ran + 1));;
    esac
  done <<<"$examples"
done
# What the banks examples say they print.
[ "$(seq 0 4 124 | "$bin" banks --width 4)" = "wavefronts=1 ideal=1 conflicts=0" ] || fail "banks: consecutive words"
[ "$(seq 0 128 3968 | "$bin" banks --width 4)" = "wavefronts=32 ideal=1 conflicts=31" ] || fail "banks: 128-byte stride"
echo "ok: $ran examples ran, $parsed checked up to the GPU or the deck"
