// `vector.compressstore` / `expandload` with a constant mask access as many
// consecutive elements from their base as the mask sets lanes (vector
// dialect), not the whole buffer: a store whose lanes are all off, or a
// load of elements past the copy's, was a false error (trial 64). A set
// lane that meets the copy is still an error, as apipe-run shows.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %s --entry=none_set --completion=lazy
// RUN: apipe-run %s --entry=packed_disjoint --completion=eager | FileCheck %s --check-prefix=DISJOINT
// DISJOINT: ( 0, 0, 9, 0 )
// RUN: not apipe-run %s --entry=packed_overlap --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: the host reads global memory byte 4 of the destination buffer of its own asynchronous copy still in flight

// Copy writes B[0..3].
func.func @none_set() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<4xf32>
  %B = memref.alloc() : memref<16xf32>
  %pt = arith.constant dense<9.0> : vector<4xf32>
  %m = arith.constant dense<false> : vector<4xi1>
  apipe.copy %A[%c0], %B[%c0], 4 : memref<4xf32> to memref<16xf32>
  apipe.commit_group
  vector.compressstore %B[%c8], %m, %pt : memref<16xf32>, vector<4xi1>, vector<4xf32>
  apipe.wait_group 0
  return
}
// Three set lanes from B[1]: B[1..3], in flight.
func.func @packed_overlap() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %A = memref.alloc() : memref<4xf32>
  %B = memref.alloc() : memref<16xf32>
  %pt = arith.constant dense<9.0> : vector<4xf32>
  %m = arith.constant dense<[true, true, false, true]> : vector<4xi1>
  apipe.copy %A[%c0], %B[%c0], 4 : memref<4xf32> to memref<16xf32>
  apipe.commit_group
  // CHECK: check-hazards-packed-lanes.mlir:[[# @LINE + 1]]:8: error: 'vector.expandload' op reads a buffer region that an async copy may still be writing (read-after-write)
  %v = vector.expandload %B[%c1], %m, %pt : memref<16xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  apipe.wait_group 0
  vector.print %v : vector<4xf32>
  return
}
// Three set lanes from B[4]: B[4..6], disjoint.
func.func @packed_disjoint() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<4xf32>
  %B = memref.alloc() : memref<16xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%B : memref<16xf32>)
  %pt = arith.constant dense<9.0> : vector<4xf32>
  %m = arith.constant dense<[true, true, false, true]> : vector<4xi1>
  apipe.copy %A[%c0], %B[%c0], 4 : memref<4xf32> to memref<16xf32>
  apipe.commit_group
  %v = vector.expandload %B[%c4], %m, %pt : memref<16xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  apipe.wait_group 0
  vector.print %v : vector<4xf32>
  return
}
