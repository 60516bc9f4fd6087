#!/usr/bin/env bash
# Benchmark of apipe-run's use-after-free checks (not a test): the run-time
# cost of the check before each memref access once something has been
# freed. One program, three variants, all measured in the same run of this
# script:
#
#   - early: a scratch buffer is freed BEFORE the main loop. From the first
#     free of the process on, every checked access asks the runtime
#     (apipe_emu_live): a buffer the thread found live since the last free
#     hits its small cache, any other is looked up in the run's heap table
#     (its lock and a hash lookup);
#   - late: the same program with that dealloc AFTER the main loop: the
#     same checks are compiled in, but until the first free each one
#     returns after one atomic load;
#   - none: no dealloc anywhere: no check is compiled in (the baseline).
#
# The main loop: `@touch` reads, increments and writes back each element
# of a memref<?xf32> of 65536 elements that it receives as an argument (an
# argument is of unknown provenance, so both accesses are checked), 32
# times: 2 x 2^21 checked accesses.
#
#   cargo build -p apipe-tools && nice -n 19 timeout 900 bash benches/emulation_use_after_free.sh [REPEATS]
#
# Each figure is the minimum over REPEATS runs (default 5) of what
# `apipe-run --time` reports: compile = parse + lowering + LLVM code
# generation (JIT), run = the entry's execution. ratio = run / run of
# `late` (the cost of the lookups); vs_none = run / run of `none` (the
# whole cost of the checks); ns/access = (run - run of none) / accesses.
# The dev profile builds apipe-lowering, which holds the runtime, at
# opt-level 2 (Cargo.toml), and the JIT code at -O2.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${APIPE_BIN_DIR:-$root/target/debug}
repeats=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# program EARLY LATE: the program with the scratch dealloc before the loop
# (EARLY = 1), after it (LATE = 1), or neither.
program() {
  local early="" late="" final=""
  [ "$1" = 1 ] && early='memref.dealloc %X : memref<16xf32>'
  [ "$2" = 1 ] && late='memref.dealloc %X : memref<16xf32>'
  [ "$1" = 1 ] || [ "$2" = 1 ] && final='memref.dealloc %B : memref<?xf32>'
  cat <<MLIR
func.func private @printF32(f32)
func.func private @printNewline()
func.func @touch(%B: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %B[%i] : memref<?xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %B[%i] : memref<?xf32>
  }
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c32 = arith.constant 32 : index
  %n = arith.constant 65536 : index
  %zero = arith.constant 0.0 : f32
  %X = memref.alloc() : memref<16xf32>
  $early
  %B = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %B[%i] : memref<?xf32>
  }
  scf.for %r = %c0 to %c32 step %c1 {
    func.call @touch(%B, %n) : (memref<?xf32>, index) -> ()
  }
  $late
  %x = memref.load %B[%c5] : memref<?xf32>
  func.call @printF32(%x) : (f32) -> ()
  func.call @printNewline() : () -> ()
  $final
  return
}
MLIR
}
program 1 0 > "$work/early.mlir"
program 0 1 > "$work/late.mlir"
program 0 0 > "$work/none.mlir"
for v in early late none; do
  out=$("$bin/apipe-run" "$work/$v.mlir")
  [ "$out" = 32 ] || { echo "$v printed '$out', expected 32" >&2; exit 1; }
done

# shellcheck source=benches/apipe_run_time.sh
source "$root/benches/apipe_run_time.sh"

accesses=$((2 * 65536 * 32))
read -r nc nr < <(measure "$work/none.mlir")
read -r lc lr < <(measure "$work/late.mlir")
read -r ec er < <(measure "$work/early.mlir")
printf '%-8s %11s %9s %7s %8s %10s\n' variant compile_ms run_ms ratio vs_none ns/access
row() { # variant compile run
  local ratio vs ns
  ratio=$(awk -v a="$3" -v b="$lr" 'BEGIN{printf "%.2f", a/b}')
  vs=$(awk -v a="$3" -v b="$nr" 'BEGIN{printf "%.2f", a/b}')
  ns=$(awk -v a="$3" -v b="$nr" -v n="$accesses" 'BEGIN{printf "%.1f", (a-b)*1e6/n}')
  printf '%-8s %11.1f %9.1f %7s %8s %10s\n' "$1" "$2" "$3" "$ratio" "$vs" "$ns"
}
row none "$nc" "$nr"
row late "$lc" "$lr"
row early "$ec" "$er"
