#!/usr/bin/env bash
# Remakes docs/deck, the lecture deck README links: `gemmscope export --deck` of the bundled capture, light theme,
# PNG only (the SVGs would add 60 MB), each PNG reduced to a 256-colour palette by pngquant (Debian's `pngquant`),
# which keeps about a fifth of the bytes with the text as sharp on a projector. Run after a rung is added or the
# bundled capture re-recorded (test docs.deck checks that the deck has every rung and that every picture loads).
#   tools/docs_deck.sh [BUILD]      (needs a display, Xvfb (xvfb-run) or EGL for the PNGs; about 3 minutes)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
command -v pngquant >/dev/null || { echo "docs_deck.sh: needs pngquant (apt-get install pngquant)" >&2; exit 1; }
new="$root/docs/deck.new"
rm -rf "$new"
run=()
[ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null && run=(xvfb-run -a -s "-screen 0 1920x1080x24")
"${run[@]}" "$build/gemmscope" export --deck "$new" --formats png --theme light
# Quality 0-60: the palette may lose up to that much (the views use a few dozen colours and anti-aliased text);
# --skip-if-larger keeps a PNG that a palette would not shrink.
pngquant --quality 0-60 --speed 1 --strip --skip-if-larger --ext .png --force "$new"/*.png || { rc=$?; [ $rc -eq 98 ] || exit $rc; }
rm -rf "$root/docs/deck"
mv "$new" "$root/docs/deck"
du -sh "$root/docs/deck" | awk '{ print "docs/deck: " $1 }'
