#!/usr/bin/env bash
# `gemmscope export --deck` on the bundled capture (issue 15): a folder that did not exist holds, for every rung,
# a PNG and an SVG of each view that has something of it to show, and index.html with the rungs in ladder order;
# every picture and link index.html names exists (parsed with Python's HTML parser; gui.deck_chromium then loads
# the deck this leaves in DIR/deck in a browser), the SVGs render with rsvg-convert, the PNGs are 1600x900; an existing folder or a missing parent is refused in one
# line; SIGINT mid-way leaves neither the deck nor its temporary folder.
# Each picture is its `shot`, pixel for pixel, whatever pictures came before it in the deck.
# usage: cli_deck.sh BIN DIR PNG_STATS
set -euo pipefail
bin=$1 dir=$2 stats=$3
rm -rf "$dir"
mkdir -p "$dir"
source "$(dirname "$0")/private_x.sh"
start_private_x "$dir" 1600x900
fail() { echo "FAIL: $*"; exit 1; }

"$bin" export --deck "$dir/deck" --theme light >"$dir/out.txt" 2>"$dir/err.txt" || fail "export exited $?: $(tail -2 "$dir/err.txt")"
grep -q "^wrote $dir/deck: [0-9]* pictures of [0-9]* rungs" "$dir/out.txt" || fail "no summary line: $(cat "$dir/out.txt")"
grep -q "export: picture 1 of" "$dir/err.txt" || fail "no progress on stderr"
ls "$dir" | grep -q "\.tmp-" && fail "a temporary folder was left: $(ls "$dir")"
rungs=$("$bin" list --json | python3 -c 'import json,sys; print(sum(1 for k in json.load(sys.stdin) if not k["variant_of"]))')
# The capture the deck draws: the bundled one, copied beside the binary by the build.
capture=$(ls "$(dirname "$bin")"/captures/*.json* | head -1)
PYTHONPATH="$(dirname "$0")/../tools" python3 - "$dir/deck" "$rungs" "$capture" <<'PY'
import os, struct, sys
from html.parser import HTMLParser
from capture_json import load_json
deck, rungs = sys.argv[1], int(sys.argv[2])
ran = {r["kernel"] for r in load_json(sys.argv[3])["runs"]}
refs, ids, sections, text, contents = [], set(), [], {}, []
class P(HTMLParser):
    nav = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "nav": self.nav = True
        if self.nav and tag == "a": contents.append(a["href"][1:])
        if "id" in a: ids.add(a["id"])
        if tag == "section": sections.append(a.get("id"))
        if tag == "img": refs.append(a["src"])
        if tag == "a": refs.append(a["href"])
    def handle_endtag(self, tag):
        if tag == "nav": self.nav = False
    def handle_data(self, data):
        if sections: text[sections[-1]] = text.get(sections[-1], "") + data
page = open(os.path.join(deck, "index.html")).read()
P().feed(page)
# the page's title names the GPU the capture was recorded on
title = page[page.index("<title>") + 7:page.index("</title>")]
assert title == "gemmscope deck, " + load_json(sys.argv[3])["device"]["name"], f"title: {title}"
files = [r for r in refs if not r.startswith("#")]
missing = [r for r in files if not os.path.exists(os.path.join(deck, r))]
broken = [r for r in refs if r.startswith("#") and r[1:] not in ids]
pngs = sorted(f for f in os.listdir(deck) if f.endswith(".png"))
svgs = sorted(f for f in os.listdir(deck) if f.endswith(".svg"))
assert not missing, f"index.html names missing files: {missing[:5]}"
assert not broken, f"index.html links missing anchors: {broken[:5]}"
assert len(sections) == rungs, f"{len(sections)} rung sections for {rungs} rungs"
# the contents list every rung, in ladder order, after its ladder's heading
assert [c for c in contents if c.endswith("_rung")] == sections, "the contents do not list every rung in order"
families = list(dict.fromkeys(s.split("-")[0] for s in sections))
assert [c for c in contents if c.endswith("_ladder")] == [f + "_ladder" for f in families], f"ladders in the contents: {contents}"
assert contents.index(families[-1] + "_ladder") < contents.index(sections[-1]), "a rung listed before its ladder"
assert [p[:-4] for p in pngs] == [s[:-4] for s in svgs], "every picture as PNG and SVG"
csvs = sorted(f for f in os.listdir(deck) if f.endswith(".csv"))
assert set(files) == set(pngs) | set(svgs) | set(csvs), "index.html shows every picture and links every CSV"
# the plotted numbers beside each throughput picture, linked from its caption
assert csvs and all(f.endswith("_perf.csv") for f in csvs), f"CSVs beside other views: {csvs[:5]}"
assert {f[:-4] for f in csvs} == {f[:-4] for f in pngs if f.endswith("_perf.png")}, "a throughput picture without its CSV"
# every rung has its code; every rung the capture measured its throughput, and one it did not says so
assert sum(f.endswith("_code.png") for f in pngs) == rungs, "not every rung has a code picture"
for s in sections:
    measured = os.path.exists(os.path.join(deck, s[: -len("_rung")] + "_perf.png"))
    # the measured line (a rung's explanation may speak of cuBLAS too)
    assert measured == ("of cuBLAS's" in text.get(s, "") and "in the same process" in text.get(s, "")), \
        f"{s}: a throughput picture without its line, or the reverse"
    assert measured or "Not measured in this capture" in text.get(s, ""), f"{s}: no throughput and no reason"
# a throughput picture for exactly the rungs the capture ran (a rung newer than it has none, and says so)
perf = {f[: -len("_perf.png")] for f in pngs if f.endswith("_perf.png")}
ran_files = {k.replace("/", "-") for k in ran}
assert perf == {s[: -len("_rung")] for s in sections} & ran_files, f"throughput pictures {sorted(perf ^ ran_files)[:5]}"
assert len(perf) >= rungs // 2, "the bundled capture measured fewer than half the rungs"
# the fragment or thread layout: every rung but the hopper ones (wgmma's warpgroup layouts are not drawn yet)
assert all(os.path.exists(os.path.join(deck, s[: -len("_rung")] + "_layout.png")) for s in sections if not s.startswith("hopper")), \
    "a non-hopper rung without its layout picture"
assert not any(f.startswith("sgemm-01_naive_banks") for f in pngs), "sgemm/01 has no shared memory to show"
# variants: the one the README cites for ldmatrix conflicts has its bank picture inside its rung's section, under a
# heading naming it; order variants have none (the rung's launch-order view draws row-major order beside its own)
assert "mma_f16-10_multistage-xor-off-_banks.png" in pngs, "no bank picture of mma_f16/10_multistage[xor=off]"
assert "variant mma_f16/10_multistage[xor=off]" in text.get("mma_f16-10_multistage_rung", ""), "no variant heading"
assert not any("-order-" in f for f in pngs), "an order variant has slides"
for f in pngs[:: max(1, len(pngs) // 12)]:
    with open(os.path.join(deck, f), "rb") as fh:
        head = fh.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (1600, 900), f"{f}: not a 1600x900 PNG"
print(f"ok: {len(pngs)} pictures of {rungs} rungs, every reference in index.html resolves")
PY
for f in $(ls "$dir/deck"/*.svg | awk 'NR % 40 == 1'); do
  rsvg-convert "$f" -o "$dir/check.png" || fail "rsvg-convert cannot render $(basename "$f")"
done
echo "ok: sampled SVGs render with rsvg-convert"

# A picture is its shot: the deck drew each PNG with the window's panels, kept from picture to picture, and the bank
# view of rungs with no conflict (wmma/10, sgemm/08, mma_f16/09) opened on the site the picture before showed, where
# its SVG and its shot opened on the rung's own.
for k in wmma/10_warp_128x64 sgemm/08_double_buffer mma_f16/09_xor_permuted; do
  for v in banks gmem; do
    name=$(echo "$k" | tr / -)_$v
    [ -e "$dir/deck/$name.png" ] || continue
    "$bin" shot --view $v --kernel $k --theme light -o "$dir/shot_$name.png" 2>/dev/null
    read -r _ _ differ _ _ < <("$stats" --diff "$dir/deck/$name.png" "$dir/shot_$name.png")
    [ "$differ" = 0 ] || fail "the deck's $name.png is not its shot: $differ pixels differ"
  done
done
echo "ok: sampled deck pictures are their shots"

set +e
"$bin" export --deck "$dir/deck" >/dev/null 2>"$dir/err2.txt"
[ $? -eq 2 ] && grep -q "exists already" "$dir/err2.txt" || fail "an existing deck folder was not refused: $(cat "$dir/err2.txt")"
"$bin" export --deck "$dir/no/such/deck" >/dev/null 2>"$dir/err3.txt"
# Exit 1, as every command that writes into a folder that is not there (shot -o, --last-frame).
[ $? -eq 1 ] && grep -q "does not exist" "$dir/err3.txt" || fail "a missing parent folder was not refused: $(cat "$dir/err3.txt")"
# A link that points nowhere is there too: refused at once (it was taken for free, and the rename failed on it after
# every picture was drawn).
ln -sfn nowhere "$dir/dangling"
"$bin" export --deck "$dir/dangling" --formats svg >/dev/null 2>"$dir/err6.txt"
[ $? -eq 2 ] && grep -q "exists already" "$dir/err6.txt" && ! grep -q "picture 1 of" "$dir/err6.txt" ||
  fail "a dangling link as --deck was not refused at once: $(tail -1 "$dir/err6.txt")"
# A folder named with a trailing slash (as a shell completes it) is that folder.
"$bin" export --deck "$dir/slash/" --formats svg >/dev/null 2>"$dir/err5.txt"
[ $? -eq 0 ] && [ -f "$dir/slash/index.html" ] || fail "--deck DIR/ was not written: $(tail -1 "$dir/err5.txt")"
# The deck's folder has a folder's usual mode under the umask, not its temporary's 0700.
[ "$(stat -c %a "$dir/slash")" = "$(printf '%o' $((0777 & ~$(umask))))" ] || fail "the deck folder's mode: $(stat -c %a "$dir/slash")"
echo "ok: --deck with a trailing slash made that folder"
# Started as a terminal starts it (job control on: SIGINT not ignored, as it is for a script's background job).
set -m
"$bin" export --deck "$dir/cut" >/dev/null 2>"$dir/err4.txt" &
pid=$!
set +m
# Interrupted once it is drawing (a loaded machine can take more than 10 s to reach picture 26, and a signal
# before the export has started drawing is not what this checks).
for _ in $(seq 600); do grep -q "picture 2[0-9] of" "$dir/err4.txt" 2>/dev/null && break; sleep 0.1; done
grep -q "picture 2[0-9] of" "$dir/err4.txt" || fail "the export said nothing of picture 26 in 60 s: $(cat "$dir/err4.txt")"
kill -INT $pid
wait $pid
rc=$?
set -e
[ $rc -eq 1 ] || fail "an interrupted export exited $rc"
[ -e "$dir/cut" ] && fail "an interrupted export left a deck"
ls "$dir" | grep -q "cut.tmp-" && fail "an interrupted export left its temporary folder"
echo "ok: existing and missing folders refused; SIGINT left nothing behind"
# A signal the export was started ignoring stays ignored: under nohup a SIGHUP (an ssh session closed) does not
# cost the deck.
set +e
nohup "$bin" export --deck "$dir/kept" --formats svg >/dev/null 2>"$dir/err7.txt" &
pid=$!
for _ in $(seq 600); do grep -q "picture 2[0-9] of" "$dir/err7.txt" 2>/dev/null && break; sleep 0.1; done
kill -HUP $pid
wait $pid
rc=$?
set -e
[ $rc -eq 0 ] && [ -f "$dir/kept/index.html" ] || fail "a SIGHUP under nohup stopped the export (exit $rc): $(tail -1 "$dir/err7.txt")"
echo "ok: a SIGHUP under nohup left the export to finish"

# --formats svg: no display needed (none given), every picture shown as its SVG, no PNG written; a bad list refused.
env -u DISPLAY -u WAYLAND_DISPLAY "$bin" export --deck "$dir/svg" --formats svg >"$dir/svg.txt" 2>"$dir/svg.err" ||
  fail "export --formats svg with no display exited $?: $(tail -2 "$dir/svg.err")"
grep -q "^wrote $dir/svg: [0-9]* pictures of [0-9]* rungs and [0-9]* variants (SVG), index.html" "$dir/svg.txt" || fail "summary: $(cat "$dir/svg.txt")"
python3 - "$dir/svg" "$dir/deck" <<'PY'
import os, re, sys
svg, full = sys.argv[1:]
srcs = re.findall(r'<img src="([^"]+)"', open(os.path.join(svg, "index.html")).read())
pictures = sorted(f[:-4] for f in os.listdir(full) if f.endswith(".svg"))
assert sorted(s[:-4] for s in srcs) == pictures, "the SVG deck shows other pictures than the full one"
assert all(s.endswith(".svg") and os.path.exists(os.path.join(svg, s)) for s in srcs), "an <img> that is not its SVG"
assert not [f for f in os.listdir(svg) if f.endswith(".png")], "a PNG in an SVG-only deck"
links = [h for h in re.findall(r'<a href="([^"#][^"]*)"', open(os.path.join(svg, "index.html")).read())]
assert links and all(h.endswith("_perf.csv") and os.path.exists(os.path.join(svg, h)) for h in links), \
    f"links to files not written, or no CSV linked: {links[:5]}"
print(f"ok: --formats svg: {len(srcs)} SVG pictures, no PNG, no display")
PY
set +e
"$bin" export --deck "$dir/bad" --formats gif >/dev/null 2>"$dir/err5.txt"
rc=$?
set -e
[ $rc -eq 2 ] && [ "$(wc -l <"$dir/err5.txt")" -le 2 ] && [ ! -e "$dir/bad" ] || fail "--formats gif: exit $rc, $(cat "$dir/err5.txt")"
