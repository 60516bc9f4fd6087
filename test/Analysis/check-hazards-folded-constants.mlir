// apipe-check-hazards on programs whose constants are computed, as they are
// before `--canonicalize`: `arith.index_cast` of an i32 constant,
// `affine.apply` of a constant, `arith.subi` and `arith.muli` of constants.
// MLIR's folders give their values, so the checker sees the same program as
// with `arith.constant`s: a loop of 14 iterations, the slot `x mod 3`, a
// ring of 8 slots. Before, such a constant was unknown: the checker
// reported 3 false races in @pipelined (a copy 3 iterations old was thought
// still in flight) and refused @ring (a slot it "cannot relate to the ring's
// arrivals"). The twins that wait too little are reported
// (check-hazards-folded-constants-invalid.mlir).
// RUN: apipe-opt %s --apipe-check-hazards | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// VALUES: {{^}}[1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// VALUES-NEXT: {{^}}[2,  6,  10,  14,  18,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

// The pipeliner's output for one tile stream of 16 iterations, 3 versions
// (`apipe-software-pipeline` on examples like benches/check_hazards_scaling),
// with its constants computed.
// CHECK-LABEL: func.func @pipelined
func.func @pipelined(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}) {
  %c14_i32 = arith.constant 14 : i32
  %c14 = arith.index_cast %c14_i32 : i32 to index
  %zero = arith.constant 0 : index
  %c2 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%zero]
  %c10 = arith.constant 10 : index
  %c7 = arith.constant 7 : index
  %c3 = arith.subi %c10, %c7 : index
  %c0 = arith.subi %c2, %c2 : index
  %c1 = arith.subi %c3, %c2 : index
  %c15 = arith.addi %c14, %c1 : index
  %c4 = arith.muli %c2, %c2 : index
  %alloc = memref.alloc() : memref<3x4xf32>
  %0 = arith.muli %c0, %c4 : index
  %subview = memref.subview %alloc[%c0, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
  apipe.copy %A[%0], %subview[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
  apipe.commit_group
  %1 = arith.muli %c1, %c4 : index
  %subview_0 = memref.subview %alloc[%c1, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
  apipe.copy %A[%1], %subview_0[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
  apipe.commit_group
  scf.for %i = %c0 to %c14 step %c1 {
    %4 = arith.addi %i, %c2 : index
    %5 = arith.muli %4, %c4 : index
    %6 = arith.remui %4, %c3 : index
    %subview_3 = memref.subview %alloc[%6, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %A[%5], %subview_3[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group
    apipe.wait_group 2
    %7 = arith.remui %i, %c3 : index
    %subview_4 = memref.subview %alloc[%7, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %8 = memref.load %subview_4[%c1] : memref<4xf32, strided<[1], offset: ?>>
    memref.store %8, %out[%i] : memref<16xf32>
  }
  apipe.commit_group
  apipe.wait_group 2
  %subview_1 = memref.subview %alloc[%c2, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
  %2 = memref.load %subview_1[%c1] : memref<4xf32, strided<[1], offset: ?>>
  memref.store %2, %out[%c14] : memref<16xf32>
  apipe.commit_group
  apipe.wait_group 2
  %subview_2 = memref.subview %alloc[%c0, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
  %3 = memref.load %subview_2[%c1] : memref<4xf32, strided<[1], offset: ?>>
  memref.store %3, %out[%c15] : memref<16xf32>
  return
}

// A ring of 8 slots armed 5 times in a loop of 5 iterations, then one wait
// for the last group: the arrival count, the trip count, the slot mask and
// the parity bit are computed.
// CHECK-LABEL: func.func @ring
func.func @ring(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %one_i32 = arith.constant 1 : i32
  %c1 = arith.index_cast %one_i32 : i32 to index
  %c2 = arith.addi %c1, %c1 : index
  %c4 = arith.muli %c2, %c2 : index
  %c5 = arith.addi %c4, %c1 : index
  %c8 = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%c4]
  %c7 = arith.subi %c8, %c1 : index
  %buf = memref.alloc() : memref<8x4xf32>
  %ring = memref.alloca() : memref<8xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<8xi64, 3>
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%cnt = %c0) -> (index) {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%i, %c0], 4 : memref<64xf32> to memref<8x4xf32>
    %s = arith.andi %cnt, %c7 : index
    apipe.mbarrier_arrive_copies %ring[%s] : memref<8xi64, 3>
    %n = arith.addi %cnt, %c1 : index
    scf.yield %n : index
  }
  %last = arith.subi %r, %c1 : index
  %s = arith.andi %last, %c7 : index
  %ph = arith.andi %last, %c8 : index
  %odd = arith.cmpi ne, %ph, %c0 : index
  apipe.mbarrier_wait %ring[%s], %odd : memref<8xi64, 3>
  scf.for %i = %c0 to %c5 step %c1 {
    %x = memref.load %buf[%i, %c2] : memref<8x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %none = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @pipelined(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %none, %out[%i] : memref<16xf32>
  }
  func.call @ring(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
