// Helpers that choose among their arguments, return views at narrow-integer
// offsets, or return a view of a global: the caller's access is mapped
// through each at its positions, each buffer under the helper's condition
// for it (trial 39: a choice a helper returns or stores through was its
// whole buffers, or any memory; a view at an i32 offset and a global's
// view were whole buffers: false errors on elements no copy touches).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-choices.mlir:62:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-choices.mlir:66:3: error: 'func.call' op writes a buffer region that an async copy may still be writing (its destination)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-choices.mlir:68:3: error: 'func.call' op writes a buffer region that an async copy may still be writing (its destination)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-choices.mlir:72:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
func.func private @either(%m: memref<16xf32>, %n: memref<16xf32>, %i: index) -> memref<16xf32> {
  %c8 = arith.constant 8 : index
  %low = arith.cmpi ult, %i, %c8 : index
  %r = arith.select %low, %m, %n : memref<16xf32>
  return %r : memref<16xf32>
}
func.func private @store_either(%m: memref<16xf32>, %n: memref<16xf32>, %i: index) {
  %c8 = arith.constant 8 : index
  %low = arith.cmpi ult, %i, %c8 : index
  %r = scf.if %low -> memref<16xf32> {
    scf.yield %m : memref<16xf32>
  } else {
    scf.yield %n : memref<16xf32>
  }
  %v = arith.constant 9.0 : f32
  memref.store %v, %r[%i] : memref<16xf32>
  return
}
func.func private @window(%m: memref<16xf32>, %o: i32) -> memref<4xf32, strided<[1], offset: ?>> {
  %i = arith.index_cast %o : i32 to index
  %v = memref.subview %m[%i] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
  return %v : memref<4xf32, strided<[1], offset: ?>>
}
memref.global "private" @g : memref<16xf32> = dense<1.0>
func.func private @global_tail() -> memref<8xf32, strided<[1], offset: 8>> {
  %g = memref.get_global @g : memref<16xf32>
  %v = memref.subview %g[8] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
  return %v : memref<8xf32, strided<[1], offset: 8>>
}
func.func @f(%A: memref<16xf32> {llvm.noalias}, %B: memref<16xf32> {llvm.noalias}, %D: memref<16xf32> {llvm.noalias}, %E: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c9 = arith.constant 9 : index
  %c12 = arith.constant 12 : index
  %i2 = arith.constant 2 : i32
  %i12 = arith.constant 12 : i32
  %seven = arith.constant 7.0 : f32
  %g = memref.get_global @g : memref<16xf32>
  // The copies read A[0, 4) and g[0, 4), and write D[0, 4) and E[8, 12).
  apipe.copy %A[%c0], %D[%c0], 4 : memref<16xf32> to memref<16xf32>
  apipe.copy %g[%c0], %E[%c9], 3 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  // A at 2 and 9 are A only below 8: A[2] (error), B[9] (silent).
  %lo = func.call @either(%A, %B, %c2) : (memref<16xf32>, memref<16xf32>, index) -> memref<16xf32>
  memref.store %seven, %lo[%c2] : memref<16xf32>
  %hi = func.call @either(%A, %B, %c9) : (memref<16xf32>, memref<16xf32>, index) -> memref<16xf32>
  memref.store %seven, %hi[%c2] : memref<16xf32>
  // E or D, at the index passed: D[2] (error), E[12] (silent), E[9] (error).
  func.call @store_either(%D, %E, %c2) : (memref<16xf32>, memref<16xf32>, index) -> ()
  func.call @store_either(%D, %E, %c12) : (memref<16xf32>, memref<16xf32>, index) -> ()
  func.call @store_either(%D, %E, %c9) : (memref<16xf32>, memref<16xf32>, index) -> ()
  // A window at an i32 offset 2: w[2] is A[4] (silent), w[0] A[2] (error).
  %w = func.call @window(%A, %i2) : (memref<16xf32>, i32) -> memref<4xf32, strided<[1], offset: ?>>
  memref.store %seven, %w[%c2] : memref<4xf32, strided<[1], offset: ?>>
  memref.store %seven, %w[%c0] : memref<4xf32, strided<[1], offset: ?>>
  // The global's tail: g[8 + 0] (silent); the copy reads g[0, 3).
  %t = func.call @global_tail() : () -> memref<8xf32, strided<[1], offset: 8>>
  memref.store %seven, %t[%c0] : memref<8xf32, strided<[1], offset: 8>>
  apipe.wait_group 0
  return
}
