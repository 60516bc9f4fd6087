// `memref.generic_atomic_rmw` of a float element is a located "not
// supported" error and exit 1 under apipe-run in every completion mode
// (MLIR 22 lowers the op to `llvm.cmpxchg`, which takes integers only),
// never a JIT failure. Integer elements run (generic-atomic-rmw.mlir).
//
// RUN: not apipe-run %s 2>&1 | FileCheck %s
// RUN: not apipe-run %s --completion=eager 2>&1 | FileCheck %s
// RUN: not apipe-run %s --completion=random:2 2>&1 | FileCheck %s
// CHECK: generic-atomic-rmw-float.mlir:[[# @LINE + 6]]:8: error: 'memref.generic_atomic_rmw' of a non-integer element is not supported by apipe-run (MLIR 22 lowers it to 'llvm.cmpxchg', which takes integers only)

func.func @main() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 2.5 : f32
  %a = memref.alloc() : memref<4xf32>
  %x = memref.generic_atomic_rmw %a[%c0] : memref<4xf32> {
  ^bb0(%cur: f32):
    %n = arith.addf %cur, %f : f32
    memref.atomic_yield %n : f32
  }
  vector.print %x : f32
  memref.dealloc %a : memref<4xf32>
  return
}
