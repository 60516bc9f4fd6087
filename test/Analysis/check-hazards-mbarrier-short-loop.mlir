// apipe-check-hazards on a loop whose constant trip count keeps it from
// arming any slot of its ring twice: the arrives before an iteration are
// bounded by the trip count, so no arrive is reported as reusing its slot.
// Each copy is waited for before its read, in the loop or after it (the
// twin without the wait, whose read races, is @arrived_not_waited in
// check-hazards-mbarrier-invalid.mlir; with ten iterations the ring wraps,
// @arrived_not_waited_wraps).
// RUN: apipe-opt %s --apipe-check-hazards | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// VALUES: {{^}}[1,  5,  9,  13,  17,  -1,  -1,  -1]
// VALUES-NEXT: {{^}}[2,  6,  10,  14,  18,  -1,  -1,  -1]
// VALUES-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

// CHECK-LABEL: func.func @arrived_and_waited
func.func @arrived_and_waited(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8x4xf32>
  %ring = memref.alloca() : memref<8xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<8xi64, 3>
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%cnt = %c0) -> (index) {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%i, %c0], 4 : memref<64xf32> to memref<8x4xf32>
    %s = arith.andi %cnt, %c7 : index
    apipe.mbarrier_arrive_copies %ring[%s] : memref<8xi64, 3>
    %ph = arith.andi %cnt, %c8 : index
    %odd = arith.cmpi ne, %ph, %c0 : index
    apipe.mbarrier_wait %ring[%s], %odd : memref<8xi64, 3>
    %x = memref.load %buf[%i, %c1] : memref<8x4xf32>
    memref.store %x, %out[%i] : memref<8xf32>
    %n = arith.addi %cnt, %c1 : index
    scf.yield %n : index
  }
  return
}

// No wait in the loop: the five groups are all in flight at its end (the
// ring has room for eight), and one wait on the last completes them all.
// CHECK-LABEL: func.func @waited_after_loop
func.func @waited_after_loop(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
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
    memref.store %x, %out[%i] : memref<8xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %none = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %none, %out[%i] : memref<8xf32>
  }
  func.call @arrived_and_waited(%A, %out) : (memref<64xf32>, memref<8xf32>) -> ()
  %u = memref.cast %out : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @waited_after_loop(%A, %out) : (memref<64xf32>, memref<8xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
