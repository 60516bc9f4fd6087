#!/usr/bin/env bash
# Benchmark of apipe-run on GPU kernels (not a test): JIT + run time of the
# hand-pipelined sgemm (examples/pipelined/sgemm.mlir) at 256x256x256 (16
# blocks x 256 threads, 16 K tiles of 16), in each completion mode, with the
# race checker on and off, against its apipe-make-sync version through the
# same emulator in the same run of this script.
#
#   cargo build -p apipe-tools && bash benches/emulation_gpu.sh [REPEATS] [JOBS]
#
# Each figure is the minimum over REPEATS runs (default 3) of what
# `apipe-run --time` reports: compile = parse + lowering + LLVM code
# generation (JIT), run = the entry's execution (the host's initialization
# of A and B, 2 x 65536 elements, is included and the same in every
# program). ratio = (compile + run) / that of make-sync without racecheck;
# run ratio = run / make-sync's run. thread-iter/s = emulated GPU-thread
# main-loop iterations per second of run time: 4096 threads x 16 K tiles.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${APIPE_BIN_DIR:-$root/target/debug}
repeats=${1:-3}
jobs=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sed -e 's/arith.constant 128 : index/arith.constant 16 : index/' -e 's/2048/256/g' \
  "$root/examples/pipelined/sgemm.mlir" > "$work/kernel.mlir"
cat > "$work/driver.mlir" <<'MLIR'
module attributes {gpu.container_module} {
// @kernels
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c256 = arith.constant 256 : index
    %A = memref.alloc() : memref<256x256xf32>
    %B = memref.alloc() : memref<256x256xf32>
    %C = memref.alloc() : memref<256x256xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      scf.for %j = %c0 to %c256 step %c1 {
        %s = arith.addi %i, %j : index
        %m = arith.remui %s, %c7 : index
        %a = arith.subi %m, %c3 : index
        %ai = arith.index_cast %a : index to i32
        %af = arith.sitofp %ai : i32 to f32
        memref.store %af, %A[%i, %j] : memref<256x256xf32>
        %n = arith.remui %s, %c5 : index
        %ni = arith.index_cast %n : index to i32
        %nf = arith.sitofp %ni : i32 to f32
        memref.store %nf, %B[%i, %j] : memref<256x256xf32>
      }
    }
    gpu.launch_func @kernels::@sgemm blocks in (%c4, %c4, %c1) threads in (%c256, %c1, %c1) args(%A : memref<256x256xf32>, %B : memref<256x256xf32>, %C : memref<256x256xf32>)
    %x = memref.load %C[%c5, %c7] : memref<256x256xf32>
    func.call @printF32(%x) : (f32) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
MLIR
sed -e "/^\/\/ @kernels$/r $work/kernel.mlir" "$work/driver.mlir" > "$work/sgemm.mlir"
"$bin/apipe-opt" "$work/sgemm.mlir" --apipe-make-sync > "$work/sync.mlir"

run_flags=(--jobs="$jobs")
# shellcheck source=benches/apipe_run_time.sh
source "$root/benches/apipe_run_time.sh"

iterations=$((4096 * 16))
printf '%-10s %-10s %-9s %11s %9s %9s %7s %9s %14s\n' program mode racecheck compile_ms run_ms total_ms ratio run_ratio thread-iter/s
read -r bc br < <(measure "$work/sync.mlir" --racecheck=false)
bt=$(awk -v a="$bc" -v b="$br" 'BEGIN{printf "%.1f", a+b}')
row() { # program mode racecheck compile run
  local t ratio rr tps
  t=$(awk -v a="$4" -v b="$5" 'BEGIN{printf "%.1f", a+b}')
  ratio=$(awk -v a="$t" -v b="$bt" 'BEGIN{printf "%.2f", a/b}')
  rr=$(awk -v a="$5" -v b="$br" 'BEGIN{printf "%.2f", a/b}')
  tps=$(awk -v r="$5" -v n="$iterations" 'BEGIN{printf "%.0f", n/(r/1000)}')
  printf '%-10s %-10s %-9s %11.1f %9.1f %9s %7s %9s %14s\n' "$1" "$2" "$3" "$4" "$5" "$t" "$ratio" "$rr" "$tps"
}
row make-sync - off "$bc" "$br"
read -r c r < <(measure "$work/sync.mlir" --racecheck=true)
row make-sync - on "$c" "$r"
for mode in lazy eager random:1; do
  for rc in true false; do
    read -r c r < <(measure "$work/sgemm.mlir" --completion=$mode --racecheck=$rc)
    row pipelined "$mode" "$([ $rc = true ] && echo on || echo off)" "$c" "$r"
  done
done
