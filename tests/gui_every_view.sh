#!/usr/bin/env bash
# Every view of the table (the names `shot` lists when asked for one it does not know) renders as PNG and
# as SVG, in the dark and the light theme, through tests/gui_shot.sh's checks.
# usage: gui_every_view.sh BIN PNG_STATS DIR
set -euo pipefail
bin=$1 stats=$2 dir=$3
here=$(dirname "$0")
msg=$("$bin" shot --view no-such-view -o "$dir/x.png" 2>&1 || true)
list=$(sed -n 's/.*(available: \(.*\))$/\1/p' <<<"$msg")
[ -n "$list" ] || { echo "FAIL: shot did not list its views: $msg"; exit 1; }
IFS=', ' read -r -a views <<<"$list"
echo "views: ${views[*]}"
# each in both themes: the light one differs from the dark one and has the white background
for v in "${views[@]}"; do SHOT_LIGHT=1 "$here/gui_shot.sh" "$bin" "$stats" "$v" "$dir"; done
