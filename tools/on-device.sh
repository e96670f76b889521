#!/usr/bin/env bash
# Runs on a GPU machine over a build made elsewhere (build/ and .devpack/ carried along):
# makes the build's absolute paths resolve, then runs the command given, e.g.
#   tools/on-device.sh ctest --test-dir build -L gpu --output-on-failure
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GS_BUILD:-build}  # the carried build folder, relative to the repository root
cache="$root/$build/CMakeCache.txt"
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
bin=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$cache")
# CTest files name the source and build folders by the absolute paths they had where they were built:
# make both resolve here (the build folder usually sits inside the source folder, then one link does).
link() { if [ -n "$1" ] && [ ! -e "$1" ]; then mkdir -p "$(dirname "$1")"; ln -s "$2" "$1"; fi; }
link "$src" "$root"
link "$bin" "$root/$build"
# Binaries and libraries tools/devpack.sh compressed for the trip (one xz archive; each binary alone from older packs).
if [ -e "$root/$build/binaries.tar.xz" ]; then
  tar -C "$root/$build" -xJf "$root/$build/binaries.tar.xz" && rm "$root/$build/binaries.tar.xz"
fi
for bin in "$root/$build/gemmscope" "$root/$build/tests/gpu_tests"; do
  if [ -e "$bin.xz" ]; then unxz -f "$bin.xz"; elif [ -e "$bin.gz" ]; then gunzip -f "$bin.gz"; fi
done
for f in "$root/.devpack/lib/"*.xz "$root/.devpack/fonts/"*.xz; do [ -e "$f" ] && unxz -f "$f"; done
# Fonts from .devpack where the machine has none (it is a bare, lent machine; we run as root there).
fonts=/usr/share/fonts/truetype/dejavu
if [ -d "$root/.devpack/fonts" ] && [ ! -e "$fonts/DejaVuSans.ttf" ] && [ -w / ]; then
  mkdir -p "$fonts" && cp "$root/.devpack/fonts/"*.ttf "$fonts/"
fi
# Headless frames (EGL) on the NVIDIA driver: glvnd's libEGL from .devpack, the driver's vendor library.
for json in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
  if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -e "$json" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$json; fi
done
# cuBLAS from the GPU machine's toolkit, the Debian libraries from .devpack.
export LD_LIBRARY_PATH="$root/.devpack/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$@"
