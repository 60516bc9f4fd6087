// A copy whose source and destination share bytes has no defined result
// (the order of its element copies is unspecified): apipe-run stops at it
// with a located error in every completion mode (trial 29: it copied as
// memmove, while apipe-make-sync's loop copied forwards, and the two
// printed different values). Adjacent ranges are fine.
// RUN: not apipe-run %s -e overlapping 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not apipe-run %s -e overlapping --completion=eager 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: apipe-run %s -e adjacent --completion=lazy,random:1 2>&1 | FileCheck %s --check-prefix=ADJACENT
// OVERLAP: copy-overlap.mlir:[[#@LINE+11]]:3: error: 'apipe.copy' reads and writes overlapping memory (8 bytes of its source are bytes of its destination): the order of its element copies is unspecified
// RUN: not apipe-run %s -e strided 2>&1 | FileCheck %s --check-prefix=STRIDED
// STRIDED: copy-overlap.mlir:52:3: error: 'apipe.copy' reads and writes overlapping memory (8 bytes of its source are bytes of its destination)
// ADJACENT-COUNT-2: [0,  1,  2,  3,  0,  1,  2,  3]
func.func private @printMemrefF32(memref<*xf32>)
func.func @overlapping() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %g = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%g : memref<8xf32>)
  apipe.copy %g[%c0], %g[%c2], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %g : memref<8xf32>
  return
}
func.func @adjacent() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %g = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %g[%i] : memref<8xf32>
  }
  apipe.copy %g[%c0], %g[%c4], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  %u = memref.cast %g : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %g : memref<8xf32>
  return
}
func.func @strided() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %g = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%g : memref<8xf32>)
  %even = memref.subview %g[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  apipe.copy %even[%c0], %g[%c2], 4 : memref<4xf32, strided<[2]>> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %g : memref<8xf32>
  return
}
