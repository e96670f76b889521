#!/usr/bin/env bash
# Prepares a build made on this machine to run on a GPU machine that has the CUDA toolkit and
# driver but none of our Debian packages: copies the shared libraries gemmscope needs that are
# not part of glibc or CUDA into .devpack/lib (git-ignored). Carry build/ and .devpack/ there and
# run tools/on-device.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
mkdir -p "$root/.devpack/lib"
rm -f "$root/.devpack/lib/"*
# Libraries glibc ships, and the CUDA ones, are on the GPU machine already.
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libgcc_s\.|libstdc\+\+\.|libcublas|libcudart|libcuda\.)'
ldd "$build/gemmscope" | awk '/=> \// { print $1, $3 }' | while read -r name path; do
  [[ $name =~ $skip ]] && continue
  cp -L "$path" "$root/.devpack/lib/$name"
done
du -sh "$root/.devpack/lib" | awk '{ print "devpack: " $1 " of shared libraries" }'
