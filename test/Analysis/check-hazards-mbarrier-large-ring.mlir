// apipe-check-hazards on rings of many slots. Its state records the
// followers of at most 64 groups per ring, whatever K is: a fuzzed ring of
// 2^31 slots once made it ask for 32 GiB and abort. Such rings now get the
// same located reports as small ones, at once, and a loop's fixed point
// gets the rounds its deepest ring needs (a correct loop on a ring of 32
// slots was once given up after 24 rounds).
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// Correct loops on such rings: check-hazards-mbarrier-large-ring-correct.mlir.

// The fuzz reproducer: arrives on `count & 3` of a ring of 2^31 slots, and
// never waits.
// CHECK: large-ring.mlir:[[# @LINE + 13]]:5: error: 'apipe.mbarrier_arrive_copies' op arrives on a slot that is not provably the ring's next slot (the number of earlier arrives on it, mod 2147483648): expected `count & 2147483647` of the ring's count
func.func @ring_smaller_than_masks(%A: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %ring = memref.alloca() : memref<2147483648xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2147483648xi64, 3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
    %v = arith.remui %i, %c4 : index
    apipe.copy %A[%c0], %buf[%v, %c0], 4 : memref<64xf32> to memref<4x4xf32>
    %slot = arith.andi %count, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2147483648xi64, 3>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

// The right mask, `count & (2^31 - 1)`, but no wait: the slot is re-armed
// 2^31 groups later, before any wait completed its group (no error in a
// host function, whose one thread's arrivals count in order), and each
// copy writes into the buffer of a copy 4 iterations back that no wait
// completed.
// CHECK-NOT: reuses its slot too early
// CHECK: large-ring.mlir:[[# @LINE + 11]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
func.func @no_wait(%A: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm = arith.constant 2147483647 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %ring = memref.alloca() : memref<2147483648xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2147483648xi64, 3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
    %v = arith.remui %i, %c4 : index
    apipe.copy %A[%c0], %buf[%v, %c0], 4 : memref<64xf32> to memref<4x4xf32>
    %slot = arith.andi %count, %cm : index
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2147483648xi64, 3>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  return
}


// -----

// An arrive far ahead of the ring's next slot on a ring of 2^31 slots
// (the loop's arrives on the bare count are refused first): not taken as
// skipped groups (at most 8 are; this would be 2^31 - 99,993 of them),
// reported at once.
// CHECK: large-ring.mlir:[[# @LINE + 11]]:5: error: 'apipe.mbarrier_arrive_copies' op arrives on a slot that apipe-check-hazards cannot relate to the ring's arrivals
// CHECK: large-ring.mlir:[[# @LINE + 14]]:3: error: 'apipe.mbarrier_arrive_copies' op arrives on slot 7, but on some path it arms group 100000 of its ring, whose slot is 100000 (of 2147483648): the slot is out of step with the ring's arrivals
func.func @far_ahead(%A: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %cn = arith.constant 100000 : index
  %false = arith.constant false
  %ring = memref.alloca() : memref<2147483648xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2147483648xi64, 3>
  %x = scf.for %i = %c0 to %cn step %c1 iter_args(%x = %c0) -> (index) {
    apipe.mbarrier_arrive_copies %ring[%x] : memref<2147483648xi64, 3>
    %n = arith.addi %x, %c1 : index
    scf.yield %n : index
  }
  apipe.mbarrier_arrive_copies %ring[%c7] : memref<2147483648xi64, 3>
  apipe.mbarrier_wait %ring[%c7], %false : memref<2147483648xi64, 3>
  return
}
