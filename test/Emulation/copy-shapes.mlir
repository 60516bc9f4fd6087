// Copies of every shape the runtime lands: zero-fill (src_elements), a
// strided destination (a subview), rank-3 and rank-1 memrefs, and 1-, 2-
// and 8-byte elements (a copy whose source and destination overlap is an
// error: test/Emulation/copy-overlap.mlir). After
// the wait every policy prints what the synchronous reference prints.
//
// RUN: apipe-run %s --completion=lazy | FileCheck %s
// RUN: apipe-run %s --completion=eager | FileCheck %s
// RUN: apipe-run %s --completion=random:4 | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
//
// A memref.global in memory space 3 as the destination (memory spaces
// become host memory, globals included): stale before the wait under lazy.
// RUN: apipe-run %s --entry=global_destination --completion=lazy | FileCheck %s --check-prefix=GLOBAL-LAZY
// RUN: apipe-run %s --entry=global_destination --completion=eager | FileCheck %s --check-prefix=GLOBAL-EAGER
// GLOBAL-LAZY: [0,  0,  0,  0]
// GLOBAL-LAZY: [7,  7,  7,  7]
// GLOBAL-EAGER: [7,  7,  7,  7]
// GLOBAL-EAGER: [7,  7,  7,  7]

// Zero-fill: 2 of 4 elements read, 2 zeroed, over a buffer of 9s.
// CHECK: sizes = [6] strides = [1] data =
// CHECK-NEXT: [10,  11,  0,  0,  9,  9]
// A strided destination: every other element of %s.
// CHECK: sizes = [8] strides = [1] data =
// CHECK-NEXT: [12,  9,  13,  9,  14,  9,  9,  9]
// A subview at a run-time offset as the source: A[5 + 1 ..] (the lowering
// needs expand-strided-metadata before lower-affine).
// CHECK: sizes = [2] strides = [1] data =
// CHECK-NEXT: [16,  17]
// Rank 3 to rank 1: row [1, 1] of a 2x2x3 buffer.
// CHECK: sizes = [3] strides = [1] data =
// CHECK-NEXT: [19,  20,  21]
// i8, f16, index elements.
// CHECK: sizes = [2] strides = [1] data =
// CHECK-NEXT: [-5,  7]
// CHECK: sizes = [2] strides = [1] data =
// CHECK-NEXT: [1.5,  -2.25]
// CHECK: sizes = [2] strides = [1] data =
// CHECK-NEXT: [123456789012,  -3]

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI64(memref<*xi64>)

func.func @iota(%m: memref<?xi32>, %base: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.addi %ii, %base : i32
    memref.store %v, %m[%i] : memref<?xi32>
  }
  return
}

func.func @five() -> index {
  %c5 = arith.constant 5 : index
  return %c5 : index
}

func.func @print(%m: memref<?xi32>) {
  %u = memref.cast %m : memref<?xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %nine = arith.constant 9 : i32
  %c10 = arith.constant 10 : i32
  %zero = arith.constant 0 : i32
  %A = memref.alloc() : memref<16xi32>
  %Ad = memref.cast %A : memref<16xi32> to memref<?xi32>
  func.call @iota(%Ad, %c10) : (memref<?xi32>, i32) -> ()

  // Zero-fill.
  %z = memref.alloc() : memref<6xi32, 3>
  linalg.fill ins(%nine : i32) outs(%z : memref<6xi32, 3>)
  apipe.copy %A[%c0], %z[%c0], 4, %c2 : memref<16xi32> to memref<6xi32, 3>

  // Strided destination.
  %s = memref.alloc() : memref<8xi32>
  linalg.fill ins(%nine : i32) outs(%s : memref<8xi32>)
  %view = memref.subview %s[0] [3] [2] : memref<8xi32> to memref<3xi32, strided<[2]>>
  apipe.copy %A[%c2], %view[%c0], 3 : memref<16xi32> to memref<3xi32, strided<[2]>>

  // A source subview at a run-time offset.
  %five = func.call @five() : () -> index
  %tail = memref.subview %A[%five] [8] [1] : memref<16xi32> to memref<8xi32, strided<[1], offset: ?>>
  %pair = memref.alloc() : memref<2xi32>
  apipe.copy %tail[%c1], %pair[%c0], 2 : memref<8xi32, strided<[1], offset: ?>> to memref<2xi32>

  // Rank 3 source.
  %r3 = memref.alloc() : memref<2x2x3xi32>
  %flat = memref.collapse_shape %r3 [[0, 1, 2]] : memref<2x2x3xi32> into memref<12xi32>
  %flatd = memref.cast %flat : memref<12xi32> to memref<?xi32>
  func.call @iota(%flatd, %c10) : (memref<?xi32>, i32) -> ()
  %row = memref.alloc() : memref<3xi32>
  apipe.copy %r3[%c1, %c1, %c0], %row[%c0], 3 : memref<2x2x3xi32> to memref<3xi32>

  // Element sizes 1, 2, 8.
  %b8 = memref.alloc() : memref<2xi8>
  %m5 = arith.constant -5 : i8
  %p7 = arith.constant 7 : i8
  memref.store %m5, %b8[%c0] : memref<2xi8>
  memref.store %p7, %b8[%c1] : memref<2xi8>
  %d8 = memref.alloc() : memref<2xi8>
  apipe.copy %b8[%c0], %d8[%c0], 2 : memref<2xi8> to memref<2xi8>
  %b16 = memref.alloc() : memref<2xf16>
  %h1 = arith.constant 1.5 : f16
  %h2 = arith.constant -2.25 : f16
  memref.store %h1, %b16[%c0] : memref<2xf16>
  memref.store %h2, %b16[%c1] : memref<2xf16>
  %d16 = memref.alloc() : memref<2xf16>
  apipe.copy %b16[%c0], %d16[%c0], 2 : memref<2xf16> to memref<2xf16>
  %b64 = memref.alloc() : memref<2xindex>
  %big = arith.constant 123456789012 : index
  %m3 = arith.constant -3 : index
  memref.store %big, %b64[%c0] : memref<2xindex>
  memref.store %m3, %b64[%c1] : memref<2xindex>
  %d64 = memref.alloc() : memref<2xindex>
  apipe.copy %b64[%c0], %d64[%c0], 2 : memref<2xindex> to memref<2xindex>

  apipe.commit_group
  apipe.wait_group 0

  %zh = memref.memory_space_cast %z : memref<6xi32, 3> to memref<6xi32>
  %zd = memref.cast %zh : memref<6xi32> to memref<?xi32>
  func.call @print(%zd) : (memref<?xi32>) -> ()
  %sd = memref.cast %s : memref<8xi32> to memref<?xi32>
  func.call @print(%sd) : (memref<?xi32>) -> ()
  %paird = memref.cast %pair : memref<2xi32> to memref<?xi32>
  func.call @print(%paird) : (memref<?xi32>) -> ()
  %rowd = memref.cast %row : memref<3xi32> to memref<?xi32>
  func.call @print(%rowd) : (memref<?xi32>) -> ()
  // Widen the small types to print them.
  %w8 = memref.alloc() : memref<2xi32>
  %wf = memref.alloc() : memref<2xf32>
  %w64 = memref.alloc() : memref<2xi64>
  scf.for %i = %c0 to %c2 step %c1 {
    %x = memref.load %d8[%i] : memref<2xi8>
    %xw = arith.extsi %x : i8 to i32
    memref.store %xw, %w8[%i] : memref<2xi32>
    %h = memref.load %d16[%i] : memref<2xf16>
    %hw = arith.extf %h : f16 to f32
    memref.store %hw, %wf[%i] : memref<2xf32>
    %k = memref.load %d64[%i] : memref<2xindex>
    %kw = arith.index_cast %k : index to i64
    memref.store %kw, %w64[%i] : memref<2xi64>
  }
  %w8d = memref.cast %w8 : memref<2xi32> to memref<?xi32>
  func.call @print(%w8d) : (memref<?xi32>) -> ()
  %wfu = memref.cast %wf : memref<2xf32> to memref<*xf32>
  func.call @printMemrefF32(%wfu) : (memref<*xf32>) -> ()
  %w64u = memref.cast %w64 : memref<2xi64> to memref<*xi64>
  func.call @printMemrefI64(%w64u) : (memref<*xi64>) -> ()
  return
}

memref.global "private" @tile : memref<4xi32, 3> = dense<0>

func.func @global_destination() {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : i32
  %A = memref.alloca() : memref<4xi32>
  linalg.fill ins(%c7 : i32) outs(%A : memref<4xi32>)
  %t = memref.get_global @tile : memref<4xi32, 3>
  %u = memref.cast %t : memref<4xi32, 3> to memref<*xi32, 3>
  %h = memref.memory_space_cast %u : memref<*xi32, 3> to memref<*xi32>
  apipe.copy %A[%c0], %t[%c0], 4 : memref<4xi32> to memref<4xi32, 3>
  apipe.commit_group
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  apipe.wait_group 0
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  return
}
