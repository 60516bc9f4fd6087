// A `memref.reinterpret_cast` maps a position through its offset and
// strides only: a dynamic size bounds the positions but does not move them,
// and a dynamic stride that folds to a constant is that constant. A
// dynamic size or stride made the access the whole buffer (trial 61: a
// false read-after-write on a read of element 0 while the copy wrote
// elements 4..7). A dynamic stride that does not fold is still the whole
// buffer.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %s --entry=dynamic_size --completion=lazy | FileCheck %s --check-prefix=ZERO
// RUN: apipe-run %s --entry=offset_dynamic_size --completion=eager | FileCheck %s --check-prefix=ZERO
// RUN: apipe-run %s --entry=dynamic_stride --completion=random:4 | FileCheck %s --check-prefix=ZERO
// ZERO: 0
// RUN: not apipe-run %s --entry=overlap_2d --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=overlap_stride --completion=eager 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: the host reads global memory byte 24 of the destination buffer of its own asynchronous copy still in flight

func.func private @printF32(f32)
// Disjoint: element 0 (dynamic size), the copy writes 4..7.
func.func @dynamic_size() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buf : memref<8xf32>)
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<16xf32> to memref<8xf32>
  apipe.commit_group
  %e = memref.reinterpret_cast %buf to offset: [0], sizes: [%c2], strides: [1] : memref<8xf32> to memref<?xf32, strided<[1]>>
  %x = memref.load %e[%c0] : memref<?xf32, strided<[1]>>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
// Disjoint: element 3 + 0.
func.func @offset_dynamic_size() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buf : memref<8xf32>)
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<16xf32> to memref<8xf32>
  apipe.commit_group
  %e = memref.reinterpret_cast %buf to offset: [3], sizes: [%c2], strides: [1] : memref<8xf32> to memref<?xf32, strided<[1], offset: 3>>
  %x = memref.load %e[%c0] : memref<?xf32, strided<[1], offset: 3>>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
// Disjoint: a dynamic stride that folds to 2: elements 0, 2.
func.func @dynamic_stride() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buf : memref<8xf32>)
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<16xf32> to memref<8xf32>
  apipe.commit_group
  %e = memref.reinterpret_cast %buf to offset: [0], sizes: [2], strides: [%c2] : memref<8xf32> to memref<2xf32, strided<[?]>>
  %x = memref.load %e[%c1] : memref<2xf32, strided<[?]>>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
// Overlap: offset 1, dynamic sizes, 2-d, stride 4 along rows: [1][1] is element 6.
func.func @overlap_2d() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buf : memref<8xf32>)
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<16xf32> to memref<8xf32>
  apipe.commit_group
  %e = memref.reinterpret_cast %buf to offset: [1], sizes: [%c2, %c2], strides: [4, 1] : memref<8xf32> to memref<?x?xf32, strided<[4, 1], offset: 1>>
  // CHECK: check-hazards-reinterpret-dynamic.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %e[%c1, %c1] : memref<?x?xf32, strided<[4, 1], offset: 1>>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
// Overlap: dynamic stride 3 (folds): index 2 is element 6.
func.func @overlap_stride() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buf : memref<8xf32>)
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<16xf32> to memref<8xf32>
  apipe.commit_group
  %e = memref.reinterpret_cast %buf to offset: [0], sizes: [%c3], strides: [%c3] : memref<8xf32> to memref<?xf32, strided<[?]>>
  // CHECK: check-hazards-reinterpret-dynamic.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %e[%c2] : memref<?xf32, strided<[?]>>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
// A stride from an argument: the whole buffer.
func.func @unknown_stride(%s: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<16xf32> to memref<8xf32>
  apipe.commit_group
  %e = memref.reinterpret_cast %buf to offset: [0], sizes: [2], strides: [%s] : memref<8xf32> to memref<2xf32, strided<[?]>>
  // CHECK: check-hazards-reinterpret-dynamic.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %e[%c0] : memref<2xf32, strided<[?]>>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
