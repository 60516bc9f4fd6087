#!/usr/bin/env bash
# The main job: set up the machine, build the tools, then
# 1. every bundled example (examples/*.mlir): parse + verify + print, then
#    feed the printed IR back through apipe-opt and check that it prints the
#    same text (round trip); the printed IR is kept under out/examples/;
# 2. the whole GPU flow on examples/sgemm.mlir (a 64x64x16-tile fp32 GEMM,
#    3 stages): apipe-software-pipeline, then apipe-translate (apipe passes,
#    upstream MLIR to NVVM, LLVM's NVPTX backend through inkwell) to PTX for
#    sm_80 and sm_90, each assembled by ptxas with its resource usage; the
#    files are kept under out/sgemm/.
set -euo pipefail

cd "$(dirname "$0")/.."

bash scripts/setup.sh

if ! command -v cargo >/dev/null 2>&1 && [[ -x "${HOME:-}/.cargo/bin/cargo" ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi

echo "main: building the tools (cargo build --bins)"
cargo build -q --bins
OPT=target/debug/apipe-opt
TRANSLATE=target/debug/apipe-translate

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
  if generic="$("$OPT" --mlir-print-op-generic "$1" 2>/dev/null)"; then
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

SGEMM=out/sgemm
mkdir -p "$SGEMM"
"$OPT" examples/sgemm.mlir --apipe-software-pipeline -o "$SGEMM/sgemm.pipelined.mlir"
echo "main: sgemm pipelined by apipe-software-pipeline -> $SGEMM/sgemm.pipelined.mlir" \
  "($(grep -c 'apipe.wait_group' "$SGEMM/sgemm.pipelined.mlir") wait_group," \
  "$(grep -c 'apipe.commit_group' "$SGEMM/sgemm.pipelined.mlir") commit_group)"
for sm in 80 90; do
  ptx="$SGEMM/sgemm.sm_$sm.ptx"
  "$TRANSLATE" "$SGEMM/sgemm.pipelined.mlir" --to-ptx --sm="$sm" -o "$ptx"
  echo "main: sgemm PTX for sm_$sm -> $ptx ($(grep -c 'cp\.async\.c[ag]\.shared\.global' "$ptx") cp.async," \
    "$(grep -c 'cp\.async\.wait_group' "$ptx") cp.async.wait_group)"
  "$TRANSLATE" "$SGEMM/sgemm.pipelined.mlir" --to-cubin --sm="$sm" --resource-usage \
    -o "$SGEMM/sgemm.sm_$sm.cubin" | sed "s/^/main: ptxas sm_$sm: /"
  echo "main: cubin for sm_$sm -> $SGEMM/sgemm.sm_$sm.cubin"
done
