#!/usr/bin/env bash
# A deck (issue 15: the one gui.deck wrote, or docs/deck that README links), as a reader opens it: index.html loaded in headless Chromium, and every
# picture it shows (its <img>s) and links (each PNG's SVG) loaded and decoded there, to the last row of pixels.
# A wrapper page of this test's own holds index.html in an iframe; the iframe's load (all its images in) adds the
# linked SVGs as images of the wrapper, which hold back the wrapper's load event, and the wrapper's load handler
# draws each image on a canvas and reads its bottom-right pixel (the figures are opaque: a truncated PNG decodes
# to transparent rows there, a broken or missing file has no size). --dump-dom prints the DOM after that handler.
# Python counts what index.html names; every one must come back "ok". Skipped (77) where no Chromium is installed.
# usage: deck_chromium.sh DECK WORKDIR
set -euo pipefail
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chromium" ]; then
  echo "SKIP: no chromium on PATH (tools/install-deps.sh installs Debian's)"
  exit 77
fi
deck=$(realpath "$1") dir=$2
[ -f "$deck/index.html" ] || { echo "FAIL: no deck at $deck (gui.deck writes it)"; exit 1; }
rm -rf "$dir"
mkdir -p "$dir"
dir=$(realpath "$dir")

python3 - "$deck/index.html" "$dir/check.html" <<'PY'
import json, pathlib, sys
index, wrapper = pathlib.Path(sys.argv[1]), sys.argv[2]
page = """<!DOCTYPE html><html><body><pre id="result">not checked</pre><div id="linked" hidden></div>
<iframe id="deck" src=SRC style="width:1700px;height:900px"></iframe>
<script>
const out = document.getElementById("result"), frame = document.getElementById("deck");
frame.addEventListener("load", () => {  // before the wrapper's own load: these images hold it back
  const doc = frame.contentDocument;
  for (const a of doc.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href");
    if (href.startsWith("#") || href.endsWith(".csv")) continue;  // a picture's numbers, no image (gui.deck checks them)
    const img = document.createElement("img");
    img.dataset.ref = href;
    img.src = new URL(href, doc.baseURI).href;
    document.getElementById("linked").appendChild(img);
  }
});
window.addEventListener("load", () => {
  const doc = frame.contentDocument;
  if (!doc || !doc.images) { out.textContent = "the deck's document did not load"; return; }
  const canvas = document.createElement("canvas"), ctx = canvas.getContext("2d", {willReadFrequently: true});
  const check = (img, ref) => {
    if (!img.complete || img.naturalWidth === 0) return "bad (not loaded) " + ref;
    canvas.width = img.naturalWidth, canvas.height = img.naturalHeight;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0);  // decodes it now
    let alpha;
    try { alpha = ctx.getImageData(canvas.width - 1, canvas.height - 1, 1, 1).data[3]; }
    catch (e) { return "bad (" + e.name + ") " + ref; }
    return (alpha === 255 ? "ok " : "bad (bottom-right pixel transparent) ") + ref;
  };
  const lines = [];
  for (const img of doc.images) lines.push("img " + check(img, img.getAttribute("src")));
  for (const img of document.querySelectorAll("#linked img")) lines.push("link " + check(img, img.dataset.ref));
  out.textContent = lines.join("\\n") + "\\nchecked";
});
</script></body></html>
"""
with open(wrapper + ".tmp", "w") as f:
    f.write(page.replace("SRC", json.dumps(index.as_uri())))
pathlib.Path(wrapper + ".tmp").rename(wrapper)
PY

start=$(date +%s)
# --allow-file-access-from-files: the wrapper reads the iframe's document and the canvas stays readable
# (file: pages are each their own origin otherwise); its own profile, so tests run side by side never share one.
timeout 300 "$chromium" --headless --disable-gpu --no-sandbox --allow-file-access-from-files \
  --user-data-dir="$dir/profile" --dump-dom "file://$dir/check.html" >"$dir/dom.html" 2>"$dir/chromium.txt" ||
  { echo "FAIL: chromium exited $?: $(grep -v dbus "$dir/chromium.txt" | tail -3)"; exit 1; }
echo "chromium: $(( $(date +%s) - start )) s"

python3 - "$deck/index.html" "$dir/dom.html" <<'PY'
import html, re, sys
from html.parser import HTMLParser
imgs, links = [], []
class P(HTMLParser):
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img": imgs.append(a["src"])
        if tag == "a" and not a["href"].startswith("#") and not a["href"].endswith(".csv"): links.append(a["href"])
P().feed(open(sys.argv[1]).read())
m = re.search(r'<pre id="result">(.*?)</pre>', open(sys.argv[2]).read(), re.S)
assert m, "no result in Chromium's DOM"
lines = html.unescape(m.group(1)).split("\n")
assert lines[-1] == "checked", f"Chromium did not finish the check: {lines[-1][:200]}"
bad = [l for l in lines[:-1] if not l.startswith(("img ok ", "link ok "))]
assert not bad, f"{len(bad)} pictures did not load in Chromium, e.g. {bad[:5]}"
ok_imgs = [l[len("img ok "):] for l in lines if l.startswith("img ok ")]
ok_links = [l[len("link ok "):] for l in lines if l.startswith("link ok ")]
assert imgs and ok_imgs == imgs, f"index.html shows {len(imgs)} pictures, Chromium loaded {len(ok_imgs)}"
assert ok_links == links, f"index.html links {len(links)} files, Chromium loaded {len(ok_links)}"
print(f"ok: Chromium loaded and decoded all {len(imgs)} pictures of index.html and the {len(links)} files they link")
PY
