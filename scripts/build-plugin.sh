#!/usr/bin/env bash
# Builds target/plugin/libApipePlugin.so: the apipe dialect + pass plugin for
# upstream mlir-opt and the C API library (include/apipe-c), over Debian's
# libMLIR.so, the library mlir-opt itself uses (one process must hold one
# copy of MLIR: two copies have two registries and two TypeID sets).
#
#  1. target/plugin/lib/libMLIR-C.so: Debian ships the MLIR C API only as
#     static archives; link them (all but the ExecutionEngine) into a shared
#     library over libMLIR.so and libLLVM.so;
#  2. the `plugin` crate with MLIR_SYS_LINK_SHARED=1 (mlir-sys then links
#     -lMLIR -lMLIR-C), in its own target directory so that the tools keep
#     their static build, with a run path to libMLIR-C.so next to it;
#     the crates' C++ (dialect, C API shims, the pass wrapper) becomes
#     shared libraries over libMLIR.so there (libApipeDialectCpp.so,
#     libApipePassesCpp.so: build-support/cpp_library.rs says why they cannot
#     be inside the Rust cdylib);
#  3. copy the library to target/plugin/libApipePlugin.so and the C++
#     libraries to target/plugin/lib/ (its run path $ORIGIN/lib).
#
# Incremental: a second run with nothing changed takes seconds.
# Usage: bash scripts/build-plugin.sh        (prints the library's path)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT="$PWD"
LLVM_PREFIX="${MLIR_SYS_220_PREFIX:-/usr/lib/llvm-22}"
OUT="$ROOT/target/plugin"
mkdir -p "$OUT/lib"

# --- 1. libMLIR-C.so ----------------------------------------------------------
CAPI="$OUT/lib/libMLIR-C.so"
archives=()
for a in "$LLVM_PREFIX"/lib/libMLIRCAPI*.a; do
  [[ "$a" == *ExecutionEngine* ]] || archives+=("$a")
done
if [[ ! -f "$CAPI" ]] || [[ -n "$(find "$LLVM_PREFIX"/lib/libMLIRCAPI*.a -newer "$CAPI" -print -quit)" ]]; then
  echo "build-plugin: linking $(basename "$CAPI") from ${#archives[@]} C API archives" >&2
  "$LLVM_PREFIX/bin/clang++" -shared -o "$CAPI.tmp" -Wl,-soname,libMLIR-C.so \
    -Wl,--whole-archive "${archives[@]}" -Wl,--no-whole-archive \
    -L"$LLVM_PREFIX/lib" -lMLIR -lLLVM -Wl,-rpath,"$LLVM_PREFIX/lib" -Wl,--no-undefined
  mv "$CAPI.tmp" "$CAPI"
fi

# --- 2. the plugin crate ------------------------------------------------------
export MLIR_SYS_LINK_SHARED=1
export APIPE_MLIR_C_LIB_DIR="$OUT/lib"
export CARGO_TARGET_DIR="$OUT/cargo"
export RUSTFLAGS="-L native=$OUT/lib -C link-arg=-Wl,-rpath,\$ORIGIN/lib -C link-arg=-Wl,-rpath,$LLVM_PREFIX/lib"
MESSAGES="$OUT/cargo-messages.json"
(cd plugin && cargo build --locked --message-format=json-render-diagnostics \
  ${APIPE_PLUGIN_PROFILE:+--profile "$APIPE_PLUGIN_PROFILE"} >"$MESSAGES")

# --- 3. the library -----------------------------------------------------------
PROFILE_DIR="${APIPE_PLUGIN_PROFILE:-debug}"
[[ "$PROFILE_DIR" == dev ]] && PROFILE_DIR=debug
# The C++ libraries, from the output directories of the build scripts that
# made them in this build.
python3 - "$MESSAGES" "$OUT/lib" <<'PY'
import json, os, shutil, sys
messages, lib_dir = sys.argv[1], sys.argv[2]
wanted = {"libApipeDialectCpp.so", "libApipePassesCpp.so"}
found = set()
for line in open(messages):
    message = json.loads(line)
    if message.get("reason") != "build-script-executed":
        continue
    for name in wanted:
        path = os.path.join(message["out_dir"], name)
        if os.path.isfile(path):
            shutil.copyfile(path, os.path.join(lib_dir, name + ".tmp"))
            os.replace(os.path.join(lib_dir, name + ".tmp"), os.path.join(lib_dir, name))
            found.add(name)
if found != wanted:
    sys.exit(f"build-plugin: the build made no {sorted(wanted - found)}")
PY
cp -f "$CARGO_TARGET_DIR/$PROFILE_DIR/libApipePlugin.so" "$OUT/libApipePlugin.so"
echo "$OUT/libApipePlugin.so"
