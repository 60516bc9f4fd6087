#!/usr/bin/env bash
# Idempotent setup for a fresh Debian 12 (x86-64) machine.
#
#  - Debian packages: LLVM/MLIR 22 (headers, static libs, tools incl. lit and
#    FileCheck), Polly (llvm-config --link-static lists -lPolly), and the
#    libraries the static link needs (zstd, z3, xml2, zlib), python3-venv.
#  - A project-local venv at .venv with the PyPI wheel nvidia-cuda-nvcc-cu12,
#    which provides ptxas (no GPU needed to run it).
#  - A check that a Rust toolchain (cargo, >= 1.85) is available.
#  - A check that what the mlir-opt plugin and the C API test build on is
#    there (scripts/build-plugin.sh, run by `cargo test`): the shared
#    libMLIR.so / libLLVM.so that mlir-opt uses, the MLIR C API archives,
#    clang/clang++ of the same LLVM (all from the packages above).
#
# When everything is already in place this takes about a second: apt-get and
# pip are only called for what is missing.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT="$PWD"

log() { echo "setup: $*"; }
die() { echo "setup: error: $*" >&2; exit 1; }

LLVM_PREFIX=/usr/lib/llvm-22
PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libclang-22-dev
  clang-22 libpolly-22-dev libzstd-dev libz3-dev libxml2-dev zlib1g-dev
  python3-venv
)

# --- 1. Debian packages ------------------------------------------------------
missing=()
for pkg in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  SUDO=()
  if [[ "$(id -u)" != 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      SUDO=(sudo)
    else
      die "not root and no sudo; install as root: ${missing[*]}"
    fi
  fi
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  log "Debian packages present (${#PACKAGES[@]})"
fi

# --- 2. Python venv with ptxas ----------------------------------------------
VENV="$ROOT/.venv"

find_ptxas() {
  local p
  for p in "$VENV"/lib/python3*/site-packages/nvidia/cuda_nvcc/bin/ptxas; do
    if [[ -x "$p" ]]; then echo "$p"; return 0; fi
  done
  return 1
}

ptxas_ok() {
  local p
  p="$(find_ptxas)" || return 1
  "$p" --version >/dev/null 2>&1
}

if ptxas_ok; then
  log "ptxas present in .venv"
else
  if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    rm -rf "$VENV"
    # Use python3 from PATH (possibly pyenv); fall back to Debian's python3.
    created=0
    for py in python3 /usr/bin/python3; do
      command -v "$py" >/dev/null 2>&1 || continue
      log "creating .venv with $("$py" --version 2>&1) ($(command -v "$py"))"
      if "$py" -m venv "$VENV"; then created=1; break; fi
      rm -rf "$VENV"
    done
    ((created)) || die "could not create the venv at .venv (python3 -m venv failed)"
  fi
  log "installing nvidia-cuda-nvcc-cu12 into .venv (ptxas)"
  "$VENV/bin/python" -m pip install -q nvidia-cuda-nvcc-cu12
  ptxas_ok || die "ptxas not found or not runnable under .venv after pip install"
fi
PTXAS="$(find_ptxas)"

# --- 3. Rust toolchain -------------------------------------------------------
if ! command -v cargo >/dev/null 2>&1 && [[ -x "${HOME:-}/.cargo/bin/cargo" ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  die "cargo not found on PATH or in \$HOME/.cargo/bin. A Rust toolchain >= 1.85 is required; install it with rustup (https://rustup.rs): curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh"
fi
rust_ver="$(rustc --version 2>/dev/null | awk '{print $2}')"
if [[ "$rust_ver" =~ ^1\.([0-9]+) ]] && ((BASH_REMATCH[1] < 85)); then
  die "rustc $rust_ver is too old: a Rust toolchain >= 1.85 is required (rustup update)"
fi

# --- 4. Final checks ----------------------------------------------------------
for tool in lit FileCheck mlir-opt llvm-config; do
  [[ -x "$LLVM_PREFIX/bin/$tool" ]] || die "$LLVM_PREFIX/bin/$tool missing (llvm-22-tools / mlir-22-tools)"
done
# The plugin (scripts/build-plugin.sh) links over these.
for file in lib/libMLIR.so lib/libLLVM.so lib/libMLIRCAPIIR.a bin/clang bin/clang++; do
  [[ -e "$LLVM_PREFIX/$file" ]] || die "$LLVM_PREFIX/$file missing (libmlir-22-dev / llvm-22-dev / clang-22)"
done

log "ok: rustc ${rust_ver:-?}, $LLVM_PREFIX/bin/{lit,FileCheck}, ptxas ${PTXAS#"$ROOT"/}"
