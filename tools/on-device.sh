#!/usr/bin/env bash
# Runs on a GPU machine over a build made elsewhere (build/ and .devpack/ carried along):
# makes the build's absolute paths resolve, then runs the command given, e.g.
#   tools/on-device.sh ctest --test-dir build -L gpu --output-on-failure
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$root/build/CMakeCache.txt")
# CTest files name the source folder by the absolute path it had where it was built.
if [ -n "$src" ] && [ "$src" != "$root" ] && [ ! -e "$src" ]; then
  mkdir -p "$(dirname "$src")"
  ln -s "$root" "$src"
fi
# cuBLAS from the GPU machine's toolkit, the Debian libraries from .devpack.
export LD_LIBRARY_PATH="$root/.devpack/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$@"
