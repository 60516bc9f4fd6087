#!/usr/bin/env bash
# The whole GPU flow on examples/sgemm.mlir (issue 5: "the README's main job
# runs this whole flow on sgemm and prints where the PTX went"; scripts/ and
# the README belong to the lead, who can call this script from the main job).
#
# 1. pipeline: apipe-software-pipeline on the annotated kernel when apipe-opt
#    has that pass, else the hand-pipelined counting form
#    examples/pipelined/sgemm.mlir;
# 2. lower and emit PTX for sm_80 and sm_90 (apipe-translate: apipe passes,
#    upstream MLIR to NVVM, LLVM NVPTX through inkwell);
# 3. assemble each PTX with ptxas and print its resource usage.
#
#   bash examples/sgemm_flow.sh [OUT_DIR]      (default: out/sgemm)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/out/sgemm}"
bin="$root/target/debug"
cargo build -q --manifest-path "$root/Cargo.toml" --bin apipe-opt --bin apipe-translate
mkdir -p "$out"
if "$bin/apipe-opt" --help | grep -q -- "--apipe-software-pipeline "; then
  "$bin/apipe-opt" "$root/examples/sgemm.mlir" --apipe-software-pipeline -o "$out/sgemm.pipelined.mlir"
  echo "sgemm_flow: pipelined by apipe-software-pipeline -> $out/sgemm.pipelined.mlir"
else
  cp "$root/examples/pipelined/sgemm.mlir" "$out/sgemm.pipelined.mlir"
  echo "sgemm_flow: apipe-software-pipeline not available: hand-pipelined examples/pipelined/sgemm.mlir"
fi
for sm in 80 90; do
  "$bin/apipe-translate" "$out/sgemm.pipelined.mlir" --to-ptx --sm="$sm" -o "$out/sgemm.sm_$sm.ptx"
  echo "sgemm_flow: PTX for sm_$sm -> $out/sgemm.sm_$sm.ptx ($(grep -c 'cp.async' "$out/sgemm.sm_$sm.ptx") cp.async lines)"
  "$bin/apipe-translate" "$out/sgemm.pipelined.mlir" --to-cubin --sm="$sm" --resource-usage \
    -o "$out/sgemm.sm_$sm.cubin" | sed "s/^/sgemm_flow: ptxas sm_$sm: /"
done
