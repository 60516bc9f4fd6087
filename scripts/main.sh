#!/usr/bin/env bash
# The main job: set up the machine, build apipe-opt, and run it on every
# bundled example (examples/*.mlir): parse + verify + print, then feed the
# printed IR back through apipe-opt and check that it prints the same text
# (round trip). The printed IR is kept under out/examples/.
#
# NOTE: this is the foundation stage. Later issues extend the main job with
# software pipelining (apipe-software-pipeline), counting <-> token
# conversion, PTX generation (apipe-translate --to-ptx) and ptxas
# validation, and CPU emulation (apipe-run).
set -euo pipefail

cd "$(dirname "$0")/.."

bash scripts/setup.sh

if ! command -v cargo >/dev/null 2>&1 && [[ -x "${HOME:-}/.cargo/bin/cargo" ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi

echo "main: building apipe-opt (cargo build --bin apipe-opt)"
cargo build -q --bin apipe-opt
OPT=target/debug/apipe-opt
MLIR_OPT=/usr/lib/llvm-22/bin/mlir-opt

shopt -s nullglob
examples=(examples/*.mlir)
if ((${#examples[@]} == 0)); then
  echo "main: FAIL: no examples/*.mlir found" >&2
  exit 1
fi

OUT=out/examples
mkdir -p "$OUT"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Number of operations in a printed module: reprint it in MLIR's generic form
# (every op is then one line starting with `"dialect.op"`) and count.
count_ops() {
  local generic
  if generic="$("$MLIR_OPT" --allow-unregistered-dialect --mlir-print-op-generic "$1" 2>/dev/null)"; then
    grep -cE '^[[:space:]]*(%[^=]+= )?"[A-Za-z_][A-Za-z0-9_$]*\.[A-Za-z0-9_.$]+"' <<<"$generic" || true
  else
    echo "?"
  fi
}

failed=0
for f in "${examples[@]}"; do
  name="$(basename "$f")"
  first="$OUT/$name"
  second="$tmp/$name.round2"
  if ! "$OPT" "$f" >"$first" 2>"$tmp/err"; then
    echo "FAIL $f: apipe-opt failed to parse/verify it:" >&2
    sed 's/^/     /' "$tmp/err" >&2
    failed=$((failed + 1))
    continue
  fi
  if ! "$OPT" - <"$first" >"$second" 2>"$tmp/err"; then
    echo "FAIL $f: apipe-opt could not re-read its own output ($first):" >&2
    sed 's/^/     /' "$tmp/err" >&2
    failed=$((failed + 1))
    continue
  fi
  if ! cmp -s "$first" "$second"; then
    echo "FAIL $f: round trip changed the printed IR:" >&2
    diff -u "$first" "$second" | head -40 | sed 's/^/     /' >&2 || true
    failed=$((failed + 1))
    continue
  fi
  echo "ok   $f ($(count_ops "$first") ops)"
done

total=${#examples[@]}
if ((failed)); then
  echo "main: FAILED: $failed of $total examples failed (verify + print + round trip)" >&2
  exit 1
fi
echo "main: all $total examples verified, printed and round-tripped (printed IR in $OUT/)"
