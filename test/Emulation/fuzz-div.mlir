// A minimised fuzz find (apipe-fuzz campaign --seed 404, run:eager): it was a
// SIGSEGV (a remui by a constant 0 made a poisoned copy index).
// It is now a located error, exit 1, in every completion mode.
// RUN: not apipe-run %s --completion=eager 2>&1 | FileCheck %s
// RUN: not apipe-run %s --completion=lazy 2>&1 | FileCheck %s
// RUN: not apipe-run %s --completion=random:3 2>&1 | FileCheck %s
// CHECK: fuzz-div.mlir:[[# @LINE + 12]]:12: error: 'arith.remui' division by zero
// CHECK-NOT: error

module {
  func.func @two_queues(%arg0: memref<64xf32>, %arg1: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %alloc_0 = memref.alloc() : memref<2x4xf32, 3>
    scf.for %arg2 = %c0 to %c16 step %c1 {
      %9 = arith.remui %arg2, %c2 : index
      %11 = memref.load %alloc_0[%9, %c3] : memref<2x4xf32, 3>
    }
    return
  }
  func.func @main() {
    %alloc = memref.alloc() : memref<64xf32>
    %alloc_0 = memref.alloc() : memref<16xf32>
    call @two_queues(%alloc, %alloc_0) : (memref<64xf32>, memref<16xf32>) -> ()
    return
  }
}
