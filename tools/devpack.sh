#!/usr/bin/env bash
# Prepares a build made on this machine to run on a GPU machine that has the CUDA toolkit and driver
# but none of our Debian packages, within the size a lent machine accepts:
#   .devpack/lib      the shared libraries gemmscope needs beyond glibc and CUDA
#   .devpack/<build>  a slim copy of the build folder: binaries, CTest files, the rung objects the
#                     NoProbe SASS test reads, the bundled captures
# Carry .devpack (git-ignored) and run:  GS_BUILD=.devpack/<build> tools/on-device.sh ctest ...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=${1:-build}  # usage: devpack.sh [BUILD] [--full]
build="$root/$name"
out="$root/.devpack/$name"
rm -rf "$root/.devpack"
mkdir -p "$root/.devpack/lib" "$out"
# Libraries glibc ships, and the CUDA ones, are on the GPU machine already.
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libgcc_s\.|libstdc\+\+\.|libcublas|libcudart|libcuda\.)'
ldd "$build/gemmscope" | awk '/=> \// { print $1, $3 }' | while read -r lib path; do
  [[ $lib =~ $skip ]] && continue
  cp -L "$path" "$root/.devpack/lib/$lib"
done
# libEGL (glvnd) is opened at run time by the headless frames (--headless, shots with no DISPLAY); the GPU
# machine's driver brings the vendor library it dispatches to.
for lib in libEGL.so.1 libGLdispatch.so.0; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ { print $NF; exit }')
  [ -n "$path" ] && cp -L "$path" "$root/.devpack/lib/$lib"
done
# The DejaVu fonts the window draws with (the GPU machine has none; ImGui's fallback font looks different).
mkdir -p "$root/.devpack/fonts"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
  /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf "$root/.devpack/fonts/" 2>/dev/null || true
(cd "$build" && find . \( -name CMakeCache.txt -o -name CTestTestfile.cmake -o -name '*_tests.cmake' \
    -o -name '*_include.cmake' -o -path './kernels/CMakeFiles/gs_rungs*.o' -o -path './captures/*' \) -print0 |
  xargs -0 cp --parents -t "$out")
cp "$build/gemmscope" "$out/"
cp "$build/tests/gpu_tests" "$out/tests/"
# The lent machine takes 64 MiB with the working tree: the binaries travel stripped, in one xz archive whose
# dictionary spans both (they share every rung's kernels: 14 MB for the two, where each compressed alone took
# 13.4 MB and gzip -9 of each 54% of its size), and tools/on-device.sh unpacks them. --full keeps the rung
# objects and the captures the SASS check reads.
if [ "${2:-}" != "--full" ]; then
  rm -rf "$out/captures" "$out/kernels/CMakeFiles"
  strip "$out/gemmscope" "$out/tests/gpu_tests"
  tar -C "$out" -cf - gemmscope tests/gpu_tests | xz -T1 --lzma2=preset=9e,dict=192MiB >"$out/binaries.tar.xz"
  rm "$out/gemmscope" "$out/tests/gpu_tests"
  xz -9 -T0 "$root/.devpack/lib/"*  # the libraries too (3.3 MB -> about 1.2)
  xz -9 -T0 "$root/.devpack/fonts/"*  # and the fonts (1.8 MB -> about 0.9): the tracked tree leaves little room
fi
du -sh "$root/.devpack" | awk '{ print "devpack: " $1 }'
