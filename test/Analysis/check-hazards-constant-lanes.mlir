// A masked or indexed vector access with constant lanes touches the hull of
// its set lanes only (vector dialect: a masked-off lane accesses nothing):
// `vector.maskedload` / `maskedstore` with an `arith.constant` mask or a
// `vector.constant_mask`, and `vector.gather` / `scatter` of a rank-1
// memref with constant indices. The hull of every lane was a false
// read-after-write (trial 61); a set lane that meets the copy is still an
// error, as apipe-run shows.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %s --entry=masked_disjoint --completion=lazy | FileCheck %s --check-prefix=ZERO
// RUN: apipe-run %s --entry=gather_disjoint --completion=eager | FileCheck %s --check-prefix=ZERO
// ZERO: 0
// RUN: apipe-run %s --entry=constant_mask_store --completion=random:5 | FileCheck %s --check-prefix=ONE
// ONE: 1
// RUN: not apipe-run %s --entry=masked_overlap --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=gather_overlap --completion=eager 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: the host reads global memory byte 12 of the destination buffer of its own asynchronous copy still in flight

func.func private @printF32(f32)
// Lanes 2, 3 set at base 2: elements 4, 5; the copy writes 0..3.
func.func @masked_disjoint() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<16xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buf : memref<16xf32>)
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %m = arith.constant dense<[false, false, true, true]> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %v = vector.maskedload %buf[%c2], %m, %p : memref<16xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  apipe.wait_group 0
  %x = vector.extract %v[3] : f32 from vector<4xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}
// Lane 1 set at base 2: element 3, in flight.
func.func @masked_overlap() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<16xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %m = arith.constant dense<[false, true, false, false]> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  // CHECK: check-hazards-constant-lanes.mlir:[[# @LINE + 1]]:8: error: 'vector.maskedload' op reads a buffer region that an async copy may still be writing (read-after-write)
  %v = vector.maskedload %buf[%c2], %m, %p : memref<16xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  apipe.wait_group 0
  %x = vector.extract %v[1] : f32 from vector<4xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}
// constant_mask [2] at base 4: elements 4, 5: disjoint; a store.
func.func @constant_mask_store() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<16xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %m = vector.constant_mask [2] : vector<8xi1>
  %v = arith.constant dense<1.0> : vector<8xf32>
  vector.maskedstore %buf[%c4], %m, %v : memref<16xf32>, vector<8xi1>, vector<8xf32>
  apipe.wait_group 0
  %x = memref.load %buf[%c4] : memref<16xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}
// Gather at indices [0 (off), 9, 10, 11]: disjoint.
func.func @gather_disjoint() {
  %c0 = arith.constant 0 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<16xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%buf : memref<16xf32>)
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %i = arith.constant dense<[0, 9, 10, 11]> : vector<4xi32>
  %m = arith.constant dense<[false, true, true, true]> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  %v = vector.gather %buf[%c0][%i], %m, %p : memref<16xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  apipe.wait_group 0
  %x = vector.extract %v[1] : f32 from vector<4xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}
// Gather at indices [9, 3 (set), ...]: element 3 in flight.
func.func @gather_overlap() {
  %c0 = arith.constant 0 : index
  %A = memref.alloc() : memref<16xf32>
  %buf = memref.alloc() : memref<16xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %i = arith.constant dense<[9, 3, 10, 11]> : vector<4xindex>
  %m = arith.constant dense<true> : vector<4xi1>
  %p = arith.constant dense<0.0> : vector<4xf32>
  // CHECK: check-hazards-constant-lanes.mlir:[[# @LINE + 1]]:8: error: 'vector.gather' op reads a buffer region that an async copy may still be writing (read-after-write)
  %v = vector.gather %buf[%c0][%i], %m, %p : memref<16xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  apipe.wait_group 0
  %x = vector.extract %v[1] : f32 from vector<4xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}
