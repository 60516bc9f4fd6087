// apipe-check-hazards, mbarrier form with two rings whose first groups are
// counted by one value (`%c0`): each ring's arrive names its copies under
// its own ring, so a wait on one ring's group completes that ring's
// copies (and, arrivals being in order, the copies before its arrive) and
// never a copy that only the other ring's equal count names. The converted
// programs of check-hazards-mbarrier-shared-counts.mlir have this form.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --split-input-file --apipe-make-sync -o /dev/null
// Hand-written: %c0 counts the first group of both rings. Ring %ra's
// group 0 closes the copy into %a; the wait on ring %ra with %c0 completes
// it.
func.func @first_groups(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  %ra = memref.alloca() : memref<4xi64, 3>
  %rb = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ra, %c1 : memref<4xi64, 3>
  apipe.mbarrier_init %rb, %c1 : memref<4xi64, 3>
  %s0 = arith.andi %c0, %c3 : index
  apipe.mbarrier_arrive_copies %rb[%s0] : memref<4xi64, 3>
  apipe.copy %A[%c0], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.mbarrier_arrive_copies %ra[%s0] : memref<4xi64, 3>
  %b = arith.andi %c0, %c4 : index
  %p = arith.cmpi ne, %b, %c0 : index
  apipe.mbarrier_wait %ra[%s0], %p : memref<4xi64, 3>
  %x = memref.load %a[%c1] : memref<4xf32>
  return %x : f32
}

// -----

// Its broken twin waits on ring %rb's group 0 (the same %c0), armed before
// the copy: the copy stays in flight.
func.func @first_group_of_the_other_ring(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  %ra = memref.alloca() : memref<4xi64, 3>
  %rb = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ra, %c1 : memref<4xi64, 3>
  apipe.mbarrier_init %rb, %c1 : memref<4xi64, 3>
  %s0 = arith.andi %c0, %c3 : index
  apipe.mbarrier_arrive_copies %rb[%s0] : memref<4xi64, 3>
  apipe.copy %A[%c0], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.mbarrier_arrive_copies %ra[%s0] : memref<4xi64, 3>
  %b = arith.andi %c0, %c4 : index
  %p = arith.cmpi ne, %b, %c0 : index
  apipe.mbarrier_wait %rb[%s0], %p : memref<4xi64, 3>
  // CHECK: shared-count-rings.mlir:[[# @LINE + 2]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  // CHECK: shared-count-rings.mlir:[[# @LINE - 6]]:3: note: the async copy still in flight
  %x = memref.load %a[%c1] : memref<4xf32>
  return %x : f32
}
