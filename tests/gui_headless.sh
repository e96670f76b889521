#!/usr/bin/env bash
# Frames with no window and no X server (EGL: Mesa's surfaceless platform here, NVIDIA's device platform on a
# GPU machine): `shot` with no DISPLAY draws the same picture as under Xvfb, and the headless window on the
# bundled capture draws its few settling frames and then none (nothing moves, no input can come), writing
# its last frame and a frame log.
# usage: gui_headless.sh BIN PNG_STATS DIR
set -euo pipefail
bin=$1 stats=$2 dir=$3
mkdir -p "$dir"
export XDG_CONFIG_HOME=$dir/config
fail() { echo "FAIL: $*"; exit 1; }

# The same view through EGL (no DISPLAY) and through a hidden GLFW window under Xvfb. The EGL one is named in
# upper case, as a camera names its pictures: .PNG is a PNG (it was refused as "must end in .png or .svg").
env -u DISPLAY -u WAYLAND_DISPLAY "$bin" shot --view banks --kernel mma_tf32/01_vectorized -o "$dir/egl.PNG" ||
  fail "shot with no DISPLAY"
(source "$(dirname "$0")/private_x.sh" && start_private_x "$dir" 1920x1080 &&
  "$bin" shot --view banks --kernel mma_tf32/01_vectorized -o "$dir/glx.png") || fail "shot under Xvfb"
python3 - "$stats" "$dir/egl.PNG" "$dir/glx.png" <<'PY'
import subprocess, sys
stats, egl, glx = sys.argv[1:]
def info(p):  # png_stats: width height distinct-colours mean-brightness
    return subprocess.run([stats, p], check=True, capture_output=True, text=True).stdout.split()
a, b = info(egl), info(glx)
if a[:2] != ["1600", "900"]: sys.exit(f"FAIL: EGL shot is {a[0]}x{a[1]}")
# Both are Mesa's llvmpipe: the same picture, up to a handful of antialiased edge pixels.
if abs(int(a[2]) - int(b[2])) > 0.02 * int(b[2]) or abs(float(a[3]) - float(b[3])) > 0.2:
    sys.exit(f"FAIL: EGL and Xvfb shots differ: {a} vs {b}")
print("ok: EGL and Xvfb draw the same picture", a)
PY

# The headless window: 3 settling frames, then it sleeps; its last frame and log written.
env -u DISPLAY -u WAYLAND_DISPLAY "$bin" --headless --exit-after 3 --width 1280 --height 720 \
  --frame-log "$dir/frames.csv" --last-frame "$dir/last.png" 2>"$dir/stderr" || { cat "$dir/stderr"; fail "headless window"; }
frames=$(($(wc -l <"$dir/frames.csv") - 1))
[ "$frames" -eq 3 ] || fail "an idle headless window drew $frames frames in 3 s (want the 3 settling frames)"
# It keeps up: each frame after the first (which builds the font atlas) is drawn in under 100 ms, llvmpipe's drawing
# included (about 20 ms here on 2 cores; 240 ms while the timeline's "below:" list scanned every stage record of the
# capture for every rung, every frame).
slow=$(awk -F, 'NR > 2 && $2 > 100 { print $2 " ms" }' "$dir/frames.csv")
[ -z "$slow" ] || fail "frames after the first took $(echo $slow): $(tr '\n' ' ' <"$dir/frames.csv")"
[ "$("$stats" "$dir/last.png" | cut -d' ' -f1-2)" = "1280 720" ] || fail "last frame is not 1280x720"
grep -q "headless on " "$dir/stderr" || fail "no summary line"
# F12 with no window (--script 0:export): the workspace PNG (window size at the default 2x) and SVG are written
# between frames, and the frames after it are still the window's (the export's framebuffer is let go of): the last
# frame differs from the one above only in the status line naming the file.
env -u DISPLAY -u WAYLAND_DISPLAY XDG_CONFIG_HOME="$dir/config-export" "$bin" --headless --exit-after 3 --width 1280 \
  --height 720 --script 0:export --last-frame "$dir/last-export.png" 2>"$dir/stderr-export" ||
  { cat "$dir/stderr-export"; fail "headless window with an export"; }
all=$dir/config-export/gemmscope/exports/all_mma_f16-01_vectorized_4096_H200
[ "$("$stats" "$all.png" | cut -d' ' -f1-2)" = "2560 1440" ] || fail "the headless F12 PNG is not 2560x1440"
grep -q '</svg>' "$all.svg" || fail "the headless F12 wrote no complete SVG"
read -r _ _ _ pct _ < <("$stats" --diff "$dir/last.png" "$dir/last-export.png")
awk -v p="$pct" 'BEGIN { exit !(p > 0 && p < 2) }' || fail "the frame after the export differs from the window's in $pct% of its pixels"
echo "ok: headless F12 wrote $(basename "$all").png (2560x1440) and .svg; the next frames differ from the window's only in the status ($pct% of the pixels)"
# Asked for no end, it refuses rather than running forever.
if env -u DISPLAY "$bin" --headless 2>"$dir/err2"; then fail "--headless with no --exit-after ran"; fi
grep -q "needs --exit-after or --frames" "$dir/err2" || fail "unclear message: $(cat "$dir/err2")"
echo "ok: headless window idles after 3 frames; $(cat "$dir/stderr")"
