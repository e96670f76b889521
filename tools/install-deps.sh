#!/usr/bin/env bash
# Installs the Debian 12 packages gemmscope builds and tests with; idempotent.
# Runs apt-get only for packages that are missing, as root or through sudo.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libglfw3-dev libimgui-dev python3-glad libstb-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev zlib1g-dev
  fonts-dejavu-core xvfb xauth libgl1-mesa-dri libegl1 libegl-mesa0 xdotool python3
  clang libclang-rt-14-dev librsvg2-bin chromium
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "gemmscope: installing missing Debian packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=""
  elif command -v sudo >/dev/null 2>&1; then sudo="sudo"
  else
    echo "gemmscope: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The CUDA toolkit does not come from Debian: find nvcc or say where to get it.
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "gemmscope: nvcc not found; install the CUDA toolkit (with cuBLAS) and put its bin/ on PATH" >&2
  exit 1
fi
