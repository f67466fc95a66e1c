#!/usr/bin/env bash
# Installs what sched-apply needs and is missing: MLIR/LLVM 22 from Debian's
# packages (for melior and the mlir-opt cross-checks). Safe to run again:
# it does nothing when everything is there.
set -euo pipefail

packages=(libmlir-22-dev mlir-22-tools llvm-22-dev libclang-22-dev libpolly-22-dev
          libzstd-dev libz3-dev libxml2-dev zlib1g-dev
          libomp-22-dev                        # OpenMP runtime for `parallel`, loaded into the JIT
          g++                                  # builds payload/shim/registry.cpp
          python3-numpy libopenblas0-pthread)  # numpy + OpenBLAS: benches/compare_numpy.py

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "install: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "install: cargo is missing; install the Rust toolchain (https://rustup.rs) first" >&2
  exit 1
fi

for component in rustfmt clippy-driver; do
  if ! command -v "$component" >/dev/null 2>&1; then
    echo "install: $component is missing; add it with 'rustup component add ${component%-driver}'" >&2
    exit 1
  fi
done

for tool in /usr/lib/llvm-22/bin/mlir-opt /usr/lib/llvm-22/bin/mlir-runner; do
  if [ ! -x "$tool" ]; then
    echo "install: $tool is missing after installing mlir-22-tools" >&2
    exit 1
  fi
done
