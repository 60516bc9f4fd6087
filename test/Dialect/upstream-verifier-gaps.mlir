// Rules of upstream ops that MLIR 22's own verifier misses, and that later
// passes rely on, are checked by apipe's verifier after parsing in every
// tool: a located error and exit 1. A fuzzed input once crashed apipe-run in
// generate-runtime-verification with one index on a rank-2 memref.
//
// RUN: not apipe-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not apipe-run %s 2>&1 | FileCheck %s --check-prefix=EMU
// RUN: apipe-opt %S/Inputs/generic-atomic-rmw-valid.mlir | FileCheck %s --check-prefix=VALID
// VALID: memref.generic_atomic_rmw %{{.*}}[%{{.*}}, %{{.*}}] : memref<3x4xi32>

// CHECK: upstream-verifier-gaps.mlir:[[@LINE+6]]:8: error: 'memref.generic_atomic_rmw' op expects the number of subscripts to be equal to memref rank: 2, got 1 (MLIR 22's verifier does not check it)
// EMU: upstream-verifier-gaps.mlir:[[@LINE+5]]:8: error: 'memref.generic_atomic_rmw' op expects the number of subscripts to be equal to memref rank: 2, got 1
func.func @main() {
  %c0 = arith.constant 8 : index
  %f = arith.constant 2.5 : f32
  %a = memref.alloc() : memref<3x4xf32>
  %x = memref.generic_atomic_rmw %a[%c0] : memref<3x4xf32> {
  ^bb0(%cur: f32):
    %n = arith.addf %cur, %f : f32
    memref.atomic_yield %n : f32
  }
  vector.print %x : f32
  memref.dealloc %a : memref<3x4xf32>
  return
}

// -----

// CHECK: upstream-verifier-gaps.mlir:[[@LINE+2]]:8: error: 'memref.generic_atomic_rmw' op expects the number of subscripts to be equal to memref rank: 1, got 3
func.func @more(%a: memref<8xi32>, %i: index) -> i32 {
  %x = memref.generic_atomic_rmw %a[%i, %i, %i] : memref<8xi32> {
  ^bb0(%cur: i32):
    memref.atomic_yield %cur : i32
  }
  return %x : i32
}
