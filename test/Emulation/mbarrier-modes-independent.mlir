// Each completion mode of one apipe-run call starts from nothing: a run
// that stops at a run-time error with mbarrier arrivals still pending (on
// rings of the entry's stack, whose addresses the next run reuses) leaves
// no slot or arrival behind. @racy waits for the second group of a
// one-slot ring with the parity of the first (phase 0 is current, so the
// wait returns at once) and reads the second group's data: lazy
// completion stops there; eager completion lands the copies at issue and
// prints the data. A[i] = i + 4. The run after the lazy one used to
// see the lazy run's pending arrivals on its own ring and report a read
// of a copy in flight at @main's correct read.
//
// RUN: not apipe-run %s --completion=lazy,eager,eager 2>&1 | FileCheck %s
// CHECK: // apipe-run: completion=lazy schedule=forward
// CHECK-NEXT: mbarrier-modes-independent.mlir:[[# @LINE + 20]]:8: error: the host reads global memory byte 16 of the destination buffer of its own asynchronous copy still in flight
// CHECK: // apipe-run: completion=eager schedule=forward
// CHECK-NEXT: ( 7, 13 )
// CHECK-NEXT: // apipe-run: completion=eager schedule=forward
// CHECK-NEXT: ( 7, 13 )
// CHECK-NOT: error

func.func @racy(%A: memref<16xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %true = arith.constant true
  %buf = memref.alloc() : memref<2x4xi32>
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xi32> to memref<2x4xi32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.copy %A[%c3], %buf[%c1, %c0], 4 : memref<16xi32> to memref<2x4xi32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<1xi64, 3>
  %x = memref.load %buf[%c1, %c0] : memref<2x4xi32>
  return %x : i32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %false = arith.constant false
  %A = memref.alloc() : memref<16xi32>
  %c16 = arith.constant 16 : index
  %c4_i32 = arith.constant 4 : i32
  scf.for %i = %c0 to %c16 step %c1 {
    %v = arith.index_cast %i : index to i32
    %w = arith.addi %v, %v : i32
    %u = arith.subi %w, %v : i32
    %s = arith.addi %u, %c4_i32 : i32
    memref.store %s, %A[%i] : memref<16xi32>
  }
  %buf = memref.alloc() : memref<4xi32>
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.copy %A[%c9], %buf[%c0], 4 : memref<16xi32> to memref<4xi32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  %y = func.call @racy(%A) : (memref<16xi32>) -> i32
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  %z = memref.load %buf[%c0] : memref<4xi32>
  %r = vector.from_elements %y, %z : vector<2xi32>
  vector.print %r : vector<2xi32>
  return
}
