// apipe-check-hazards, mbarrier form with two rings (two queues): a count
// value names the groups of its own ring only. Ring %rb's count after its
// first group is 1, and so is ring %ra's after its first: the value %b1
// (%rb's count, whose group the wait names) equals %ra's count at the
// arrive that closes the copy. The checker took %b1 to name that group of
// %ra too, so the wait on %rb seemed to complete the copy, and the read of
// its data went unreported (the differential harness's mbarrier form found
// it: a wait removed from a pipelined loop with two queues).
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --split-input-file --apipe-make-sync -o /dev/null

func.func @wait_on_the_other_ring(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  %ra = memref.alloca() : memref<4xi64, 3>
  %rb = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ra, %c1 : memref<4xi64, 3>
  apipe.mbarrier_init %rb, %c1 : memref<4xi64, 3>
  // Group 0 of %rb, then group 0 of %ra, then group 1 of %rb: no copies.
  %b0s = arith.andi %c0, %c3 : index
  apipe.mbarrier_arrive_copies %rb[%b0s] : memref<4xi64, 3>
  %b1 = arith.addi %c0, %c1 : index
  %a0s = arith.andi %c0, %c3 : index
  apipe.mbarrier_arrive_copies %ra[%a0s] : memref<4xi64, 3>
  %a1 = arith.addi %c0, %c1 : index
  %b1s = arith.andi %b1, %c3 : index
  apipe.mbarrier_arrive_copies %rb[%b1s] : memref<4xi64, 3>
  // The copy, closed by group 1 of %ra.
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  %a1s = arith.andi %a1, %c3 : index
  apipe.mbarrier_arrive_copies %ra[%a1s] : memref<4xi64, 3>
  // Waits for group 1 of %rb, which closed no copy.
  %b1b = arith.andi %b1, %c4 : index
  %b1p = arith.cmpi ne, %b1b, %c0 : index
  apipe.mbarrier_wait %rb[%b1s], %b1p : memref<4xi64, 3>
  // CHECK: two-rings.mlir:[[# @LINE + 2]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  // CHECK: two-rings.mlir:[[# @LINE - 8]]:3: note: the async copy still in flight
  %x = memref.load %buf[%c0] : memref<4xf32>
  return %x : f32
}

// -----

// Its twin waits for group 1 of %ra, which closes the copy: silent.
func.func @wait_on_the_copy_ring(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  %ra = memref.alloca() : memref<4xi64, 3>
  %rb = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ra, %c1 : memref<4xi64, 3>
  apipe.mbarrier_init %rb, %c1 : memref<4xi64, 3>
  %b0s = arith.andi %c0, %c3 : index
  apipe.mbarrier_arrive_copies %rb[%b0s] : memref<4xi64, 3>
  %b1 = arith.addi %c0, %c1 : index
  %a0s = arith.andi %c0, %c3 : index
  apipe.mbarrier_arrive_copies %ra[%a0s] : memref<4xi64, 3>
  %a1 = arith.addi %c0, %c1 : index
  %b1s = arith.andi %b1, %c3 : index
  apipe.mbarrier_arrive_copies %rb[%b1s] : memref<4xi64, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  %a1s = arith.andi %a1, %c3 : index
  apipe.mbarrier_arrive_copies %ra[%a1s] : memref<4xi64, 3>
  %a1b = arith.andi %a1, %c4 : index
  %a1p = arith.cmpi ne, %a1b, %c0 : index
  apipe.mbarrier_wait %ra[%a1s], %a1p : memref<4xi64, 3>
  %x = memref.load %buf[%c0] : memref<4xf32>
  return %x : f32
}

// -----

// The same in a loop: the counts of %ra and %rb advance in step, so %b is
// also %ra's count at its arrive. The wait on %rb's group of this iteration
// (armed before the copy) leaves the copy in flight.
func.func @lockstep(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  %ra = memref.alloca() : memref<4xi64, 3>
  %rb = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ra, %c1 : memref<4xi64, 3>
  apipe.mbarrier_init %rb, %c1 : memref<4xi64, 3>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0) -> (index, index) {
    %bs = arith.andi %b, %c3 : index
    apipe.mbarrier_arrive_copies %rb[%bs] : memref<4xi64, 3>
    %b1 = arith.addi %b, %c1 : index
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %as = arith.andi %a, %c3 : index
    apipe.mbarrier_arrive_copies %ra[%as] : memref<4xi64, 3>
    %a1 = arith.addi %a, %c1 : index
    %bb = arith.andi %b, %c4 : index
    %bp = arith.cmpi ne, %bb, %c0 : index
    apipe.mbarrier_wait %rb[%bs], %bp : memref<4xi64, 3>
    // CHECK: two-rings.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%c0] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    %ab = arith.andi %a, %c4 : index
    %ap = arith.cmpi ne, %ab, %c0 : index
    apipe.mbarrier_wait %ra[%as], %ap : memref<4xi64, 3>
    scf.yield %a1, %b1 : index, index
  }
  return
}

// -----

// Its twin waits on %ra's group before the read: silent.
func.func @lockstep_twin(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  %ra = memref.alloca() : memref<4xi64, 3>
  %rb = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ra, %c1 : memref<4xi64, 3>
  apipe.mbarrier_init %rb, %c1 : memref<4xi64, 3>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0) -> (index, index) {
    %bs = arith.andi %b, %c3 : index
    apipe.mbarrier_arrive_copies %rb[%bs] : memref<4xi64, 3>
    %b1 = arith.addi %b, %c1 : index
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %as = arith.andi %a, %c3 : index
    apipe.mbarrier_arrive_copies %ra[%as] : memref<4xi64, 3>
    %a1 = arith.addi %a, %c1 : index
    %bb = arith.andi %b, %c4 : index
    %bp = arith.cmpi ne, %bb, %c0 : index
    apipe.mbarrier_wait %rb[%bs], %bp : memref<4xi64, 3>
    %ab = arith.andi %a, %c4 : index
    %ap = arith.cmpi ne, %ab, %c0 : index
    apipe.mbarrier_wait %ra[%as], %ap : memref<4xi64, 3>
    %x = memref.load %buf[%c0] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %a1, %b1 : index, index
  }
  return
}
