#!/usr/bin/env bash
# Prepares the GPU bundle (the GPU harness): PTX of each example in
# up to five versions, plus the runner:
# - `pipelined`: apipe-software-pipeline on the annotated examples/*.mlir
#   (only when apipe-opt has that pass);
# - `hand`: the hand-pipelined counting form examples/pipelined/*.mlir;
# - `mbarrier`: apipe-software-pipeline in token form, lowered in the
#   mbarrier form (apipe-translate --sync=mbarrier, docs/mbarrier.md);
# - `bulk` (sm_90 only): the Hopper bulk-copy form examples/bulk/*.mlir
#   (cp.async.bulk completing bytes on an mbarrier, docs/mbarrier.md);
# - `sync`: apipe-make-sync of the annotated examples/*.mlir. Inputs are generated on the
# GPU machine from a fixed seed, so nothing large travels.
#
#   bash benches/gpu/prepare.sh [SM]          # SM: 90 (default, Hopper) or 80
#
# Then, on the GPU machine (no cargo there; CuPy and PyTorch are):
#
#   python3 target/gpu-bundle/runner.py target/gpu-bundle
#
# (with the device tool: carry target/gpu-bundle.)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
sm="${1:-90}"
bundle="$root/target/gpu-bundle"
bin="$root/target/debug"
cargo build --quiet --manifest-path "$root/Cargo.toml" -p apipe-tools
rm -rf "$bundle"
mkdir -p "$bundle"
have_pipeliner=false
if "$bin/apipe-opt" --help | grep -q -- "--apipe-software-pipeline "; then
  have_pipeliner=true
fi
for example in sgemm copy_bw stream_sum; do
  if $have_pipeliner; then
    "$bin/apipe-opt" "$root/examples/$example.mlir" --apipe-software-pipeline \
      | "$bin/apipe-translate" - --to-ptx --sm="$sm" -o "$bundle/$example.pipelined.ptx"
    "$bin/apipe-opt" "$root/examples/$example.mlir" --apipe-software-pipeline="sync=tokens" \
      | "$bin/apipe-translate" - --to-ptx --sm="$sm" --sync=mbarrier -o "$bundle/$example.mbarrier.ptx"
  fi
  "$bin/apipe-translate" "$root/examples/pipelined/$example.mlir" --to-ptx --sm="$sm" \
    -o "$bundle/$example.hand.ptx"
  if [ "$sm" = 90 ] && [ -f "$root/examples/bulk/$example.mlir" ]; then
    "$bin/apipe-translate" "$root/examples/bulk/$example.mlir" --to-ptx --sm="$sm" \
      -o "$bundle/$example.bulk.ptx"
  fi
  "$bin/apipe-opt" "$root/examples/$example.mlir" --apipe-make-sync \
    | "$bin/apipe-translate" - --to-ptx --sm="$sm" -o "$bundle/$example.sync.ptx"
done
cp "$root/benches/gpu/runner.py" "$bundle/"
echo "sm_$sm" > "$bundle/SM"
du -sh "$bundle"
echo "bundle: $bundle (run: python3 $bundle/runner.py $bundle)"
