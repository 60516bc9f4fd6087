// A stage that copies its tile out with memref.copy (a whole-view access,
// no indices): with num-stages=3 the tile gets 3 versions, and each
// iteration's memref.copy reads its own version's subview while the next
// two are in flight. apipe-check-hazards is silent on the result (it took
// the memref.copy as reading every version, a false read-after-write), and
// the result prints what make-sync prints in every completion mode.
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 -o %t.piped.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=VERSIONS < %t.piped.mlir
// RUN: apipe-opt %t.piped.mlir --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %t.piped.mlir --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=ALL
// VERSIONS: memref.alloc() : memref<3x4xf32>
// VERSIONS: scf.for
// VERSIONS: apipe.wait_group 1
// VERSIONS: memref.copy %{{.*}}, %{{.*}} : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>
// CHECK: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
// ALL-COUNT-3: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15]
func.func @k(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %o = memref.subview %out[%off] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %buf, %o : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
  }
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  func.call @k(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
