#!/usr/bin/env bash
# Benchmark of apipe-run (CPU emulation): JIT + run time of the 3-stage
# pipelined loop of test/Emulation/pipeline-stress.mlir at 16 and 1,000,000
# iterations, in each completion mode, against the apipe-make-sync output of
# the same program through the same JIT. Prints figures; not a test.
#
#   cargo build && benches/emulation.sh [REPEATS]
#
# Each figure is the minimum over REPEATS runs (default 5) of the times that
# `apipe-run --time` reports: compile = parse + lowering + LLVM code
# generation of the entry (JIT), run = the
# entry function's execution (including the program's own initialization
# and checking loops, the same in both programs).
#
# The runtime cost per iteration is the difference of the run times at 1M
# iterations divided by 1M (the dev profile builds apipe-lowering, which
# holds the runtime, at opt-level 2; see Cargo.toml).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${APIPE_BIN_DIR:-$root/target/debug}
repeats=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=benches/apipe_run_time.sh
source "$root/benches/apipe_run_time.sh"

printf '%-10s %-10s %12s %12s %12s %10s\n' iterations mode compile_ms run_ms total_ms vs_sync
for n in 16 1000000; do
  src="$work/loop-$n.mlir"
  sed "s/%n = arith.constant 10000 : index/%n = arith.constant $n : index/" \
    "$root/test/Emulation/pipeline-stress.mlir" > "$src"
  "$bin/apipe-opt" "$src" --apipe-make-sync > "$work/sync-$n.mlir"
  read -r sc sr < <(measure "$work/sync-$n.mlir")
  st=$(awk -v a="$sc" -v b="$sr" 'BEGIN{printf "%.1f", a+b}')
  printf '%-10s %-10s %12.1f %12.1f %12s %10s\n' "$n" make-sync "$sc" "$sr" "$st" 1.00
  for mode in lazy eager random:1; do
    read -r c r < <(measure "$src" --completion=$mode)
    t=$(awk -v a="$c" -v b="$r" 'BEGIN{printf "%.1f", a+b}')
    ratio=$(awk -v a="$t" -v b="$st" 'BEGIN{printf "%.2f", a/b}')
    printf '%-10s %-10s %12.1f %12.1f %12s %10s\n' "$n" "$mode" "$c" "$r" "$t" "$ratio"
  done
done

