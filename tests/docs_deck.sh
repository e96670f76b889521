#!/usr/bin/env bash
# docs/deck, the deck README links (issue 15), is the deck of this build's ladders: a section for every rung
# `gemmscope list` has, in its order, with its code picture and a picture for every view index.html names; then
# headless Chromium loads it (deck_chromium.sh: every picture decodes). tools/docs_deck.sh remakes it.
# usage: docs_deck.sh BIN DECK WORKDIR
set -euo pipefail
bin=$1 deck=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir"
"$bin" list --json >"$dir/list.json"
python3 - "$dir/list.json" "$deck" <<'PY'
import json, os, re, sys
rungs = [k["name"] for k in json.load(open(sys.argv[1])) if not k["variant_of"]]
deck = sys.argv[2]
page = open(os.path.join(deck, "index.html")).read()
sections = re.findall(r'<section id="([^"]+)_rung">\s*<h3>([^:<]+):', page)
names = [n for _, n in sections]
missing = [r for r in rungs if r not in names]
assert not missing, f"docs/deck lacks {missing}: remake it with tools/docs_deck.sh"
assert names == rungs, f"docs/deck has rungs this build does not, or another order: {sorted(set(names) - set(rungs))}"
for file, name in sections:
    assert os.path.exists(os.path.join(deck, file + "_code.png")), f"{name}: no code picture"
srcs = re.findall(r'<img src="([^"]+)"', page)
assert all(os.path.exists(os.path.join(deck, s)) for s in srcs), "index.html shows a picture docs/deck lacks"
extra = sorted(set(f for f in os.listdir(deck) if f.endswith(".png")) - set(srcs))
assert not extra, f"pictures no page shows: {extra[:5]}"
print(f"ok: docs/deck has every one of the {len(rungs)} rungs in ladder order, {len(srcs)} pictures")
PY
exec "$(dirname "$0")/deck_chromium.sh" "$deck" "$dir/chromium"
