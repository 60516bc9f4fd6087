// An arrive whose slot is ahead of its ring's next one: the count value
// the program gives it ran ahead of the ring's arrives (here the arrive of
// group 1 is missing, as when a pipeline's last arrive is dropped). The
// checker takes it as one skipped group (an arrive that arms nothing) and
// group 2: the ring's count matches the arrives again, and only slot 1,
// skipped, has completed one phase fewer than the count says.
//   @skipped: waits on slots 0 and 2 only; in-order arrivals make the
//     wait for group 2 complete the copy of the missing group too.
//     Correct; the checker reported "the slot is out of step" before.
//   @skipped_count: the same with count values (`x & 3`, `(x & 4) != 0`)
//     carried as a pipeline carries them; correct.
//   @skip_in_one_iteration: a loop of one iteration whose arrives skip
//     a slot (count x, x + 2); it waits on the second. Correct: a loop of
//     constant trip count up to 8 is followed iteration by iteration, so
//     no second iteration (where slot 1, skipped, would be waited on) is
//     assumed.
//   @skip_in_two_iterations: the same loop run twice: the second
//     iteration waits on slot 1, skipped by the first: the wait returns at
//     once and the read after it races (apipe-run stops there, lazy).
//   @wait_on_skipped: a wait on slot 1 with the parity of group 1: no
//     arrive ever armed that phase, so it never completes (apipe-run:
//     deadlock); the checker reports the wait.
// The correct functions print what make-sync prints in every mode. A[i]=i.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1,random:2,random:3 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=broken --completion=eager 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not apipe-run %s --entry=broken_two --completion=lazy 2>&1 | FileCheck %s --check-prefix=BROKEN2
// SYNC: ( 1, 5, 9 )
// SYNC-NEXT: ( 1, 5, 9 )
// SYNC-NEXT: ( 1, 5, 0 )
// MODES-COUNT-5: ( 1, 5, 9 ){{[[:space:]]+}}( 1, 5, 9 ){{[[:space:]]+}}( 1, 5, 0 )

func.func @skipped(%A: memref<16xf32>) -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.copy %A[%c8], %buf[%c2, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  // CHECK-NOT: out of step
  apipe.mbarrier_arrive_copies %ring[%c2] : memref<4xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %false : memref<4xi64, 3>
  %x = memref.load %buf[%c0, %c1] : memref<3x4xf32>
  apipe.mbarrier_wait %ring[%c2], %false : memref<4xi64, 3>
  %y = memref.load %buf[%c1, %c1] : memref<3x4xf32>
  %z = memref.load %buf[%c2, %c1] : memref<3x4xf32>
  %r = vector.from_elements %x, %y, %z : vector<3xf32>
  return %r : vector<3xf32>
}

func.func @skipped_count(%A: memref<16xf32>) -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  %s0 = arith.andi %c0, %c3 : index
  apipe.mbarrier_arrive_copies %ring[%s0] : memref<4xi64, 3>
  %x1 = arith.addi %c0, %c1 : index
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  %x2 = arith.addi %x1, %c1 : index
  apipe.copy %A[%c8], %buf[%c2, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  %s2 = arith.andi %x2, %c3 : index
  apipe.mbarrier_arrive_copies %ring[%s2] : memref<4xi64, 3>
  %h0 = arith.andi %c0, %c4 : index
  %p0 = arith.cmpi ne, %h0, %c0 : index
  apipe.mbarrier_wait %ring[%s0], %p0 : memref<4xi64, 3>
  %x = memref.load %buf[%c0, %c1] : memref<3x4xf32>
  %h2 = arith.andi %x2, %c4 : index
  %p2 = arith.cmpi ne, %h2, %c0 : index
  apipe.mbarrier_wait %ring[%s2], %p2 : memref<4xi64, 3>
  %y = memref.load %buf[%c1, %c1] : memref<3x4xf32>
  %z = memref.load %buf[%c2, %c1] : memref<3x4xf32>
  %r = vector.from_elements %x, %y, %z : vector<3xf32>
  return %r : vector<3xf32>
}

func.func @wait_on_skipped(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c2] : memref<4xi64, 3>
  // CHECK: check-hazards-mbarrier-skipped-slot-run.mlir:[[# @LINE + 2]]:3: error: 'apipe.mbarrier_wait' op waits on a slot that an earlier arrive skipped
  // BROKEN: check-hazards-mbarrier-skipped-slot-run.mlir:[[# @LINE + 1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return: it waits for phase 0 (parity 0)
  apipe.mbarrier_wait %ring[%c1], %false : memref<4xi64, 3>
  %y = memref.load %buf[%c1, %c1] : memref<3x4xf32>
  return %y : f32
}

func.func @skip_in_one_iteration(%A: memref<16xf32>) -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %r:3 = scf.for %i = %c0 to %c1 step %c1 iter_args(%x = %c0, %u = %zero, %v = %zero) -> (index, f32, f32) {
    apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xf32> to memref<3x4xf32>
    %s0 = arith.andi %x, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%s0] : memref<4xi64, 3>
    apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<16xf32> to memref<3x4xf32>
    %x2 = arith.addi %x, %c2 : index
    %s2 = arith.andi %x2, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%s2] : memref<4xi64, 3>
    %h = arith.andi %x2, %c4 : index
    %p = arith.cmpi ne, %h, %c0 : index
    apipe.mbarrier_wait %ring[%s2], %p : memref<4xi64, 3>
    %a = memref.load %buf[%c0, %c1] : memref<3x4xf32>
    %b = memref.load %buf[%c1, %c1] : memref<3x4xf32>
    %x3 = arith.addi %x, %c3 : index
    scf.yield %x3, %a, %b : index, f32, f32
  }
  %w = vector.from_elements %r#1, %r#2, %zero : vector<3xf32>
  return %w : vector<3xf32>
}

func.func @skip_in_two_iterations(%A: memref<16xf32>) -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %r:3 = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %c0, %u = %zero, %v = %zero) -> (index, f32, f32) {
    apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xf32> to memref<3x4xf32>
    %s0 = arith.andi %x, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%s0] : memref<4xi64, 3>
    apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<16xf32> to memref<3x4xf32>
    %x2 = arith.addi %x, %c2 : index
    %s2 = arith.andi %x2, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%s2] : memref<4xi64, 3>
    %h = arith.andi %x2, %c4 : index
    %p = arith.cmpi ne, %h, %c0 : index
    // CHECK: check-hazards-mbarrier-skipped-slot-run.mlir:[[# @LINE + 2]]:5: error: 'apipe.mbarrier_wait' op waits on a slot that an earlier arrive skipped
    // BROKEN2: check-hazards-mbarrier-skipped-slot-run.mlir:[[# @LINE + 2]]:10: error: the host reads global memory byte 4 of the destination buffer of its own asynchronous copy still in flight
    apipe.mbarrier_wait %ring[%s2], %p : memref<4xi64, 3>
    %a = memref.load %buf[%c0, %c1] : memref<3x4xf32>
    %b = memref.load %buf[%c1, %c1] : memref<3x4xf32>
    %x3 = arith.addi %x, %c3 : index
    scf.yield %x3, %a, %b : index, f32, f32
  }
  %w = vector.from_elements %r#1, %r#2, %zero : vector<3xf32>
  return %w : vector<3xf32>
}

func.func @init(%A: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<16xf32>
  }
  return
}

func.func @main() {
  %A = memref.alloc() : memref<16xf32>
  func.call @init(%A) : (memref<16xf32>) -> ()
  %v = func.call @skipped(%A) : (memref<16xf32>) -> vector<3xf32>
  vector.print %v : vector<3xf32>
  %w = func.call @skipped_count(%A) : (memref<16xf32>) -> vector<3xf32>
  vector.print %w : vector<3xf32>
  %o = func.call @skip_in_one_iteration(%A) : (memref<16xf32>) -> vector<3xf32>
  vector.print %o : vector<3xf32>
  return
}

func.func @broken_two() {
  %A = memref.alloc() : memref<16xf32>
  func.call @init(%A) : (memref<16xf32>) -> ()
  %t = func.call @skip_in_two_iterations(%A) : (memref<16xf32>) -> vector<3xf32>
  vector.print %t : vector<3xf32>
  return
}

func.func @broken() {
  %A = memref.alloc() : memref<16xf32>
  func.call @init(%A) : (memref<16xf32>) -> ()
  %y = func.call @wait_on_skipped(%A) : (memref<16xf32>) -> f32
  vector.print %y : f32
  return
}
