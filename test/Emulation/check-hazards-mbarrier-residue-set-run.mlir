// A wait whose slot is moved (`((w & 3) + 1) mod 4`, the parity of w's
// phase before) after an inner loop, in an outer loop whose iterations
// arrive 10 times each on a ring of 4 slots: the count at the outer loop's
// top differs between iterations by 10, so no one residue mod 8 (or mod 4)
// holds on every path, but the set of them does.
//   @mixed: one group before the loop, so the count n at the wait is 11,
//     21, 31 or 41 (n mod 8 in {3, 5, 7, 1}, never 0 mod 4), and the wait
//     names group n - 4 (complete) on every path. Correct: the checker is
//     silent (it reported "cannot relate" while it kept one residue
//     only), and every mode prints make-sync's 820.
//   @broken: no group before the loop: n mod 4 is 2 or 0, and where it
//     is 0 the moved slot is in the next phase and its parity names a
//     phase the slot has not reached: the checker reports the wait and
//     apipe-run stops there (deadlock) in lazy and eager completion.
// A[i] = i.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1,random:2,random:3 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=main_broken --completion=lazy 2>&1 | FileCheck %s --check-prefix=RUN-BROKEN
// RUN: not apipe-run %s --entry=main_broken --completion=eager 2>&1 | FileCheck %s --check-prefix=RUN-BROKEN
// SYNC: 820
// MODES-COUNT-5: {{^}}820{{$}}
// RUN-BROKEN: check-hazards-mbarrier-residue-set-run.mlir:[[@LINE+75]]:5: error: deadlock: this 'apipe.mbarrier_wait' can never return

func.func @mixed(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c63 = arith.constant 63 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4x1xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %A[%c0], %tile[%c0, %c0], 1 : memref<64xf32> to memref<4x1xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
  %false = arith.constant false
  apipe.mbarrier_wait %ring[%c0], %false : memref<4xi64, 3>
  %r:2 = scf.for %o = %c0 to %c4 step %c1 iter_args(%x = %c1, %acc = %zero) -> (index, f32) {
    %in:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%y = %x, %a = %acc) -> (index, f32) {
      %s = arith.andi %y, %c3 : index
      %src = arith.andi %y, %c63 : index
      apipe.copy %A[%src], %tile[%s, %c0], 1 : memref<64xf32> to memref<4x1xf32>
      apipe.mbarrier_arrive_copies %ring[%s] : memref<4xi64, 3>
      %hi = arith.andi %y, %c4 : index
      %p = arith.cmpi ne, %hi, %c0 : index
      apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
      %v = memref.load %tile[%s, %c0] : memref<4x1xf32>
      %a2 = arith.addf %a, %v : f32
      %y2 = arith.addi %y, %c1 : index
      scf.yield %y2, %a2 : index, f32
    }
    %w = arith.subi %in#0, %c1 : index
    %low = arith.andi %w, %c3 : index
    %hi = arith.andi %w, %c4 : index
    %p = arith.cmpi eq, %hi, %c0 : index
    %m = arith.addi %low, %c1 : index
    %s = arith.remui %m, %c4 : index
    apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
    scf.yield %in#0, %in#1 : index, f32
  }
  return %r#1 : f32
}

func.func @broken(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c63 = arith.constant 63 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4x1xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %r:2 = scf.for %o = %c0 to %c4 step %c1 iter_args(%x = %c0, %acc = %zero) -> (index, f32) {
    %in:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%y = %x, %a = %acc) -> (index, f32) {
      %s = arith.andi %y, %c3 : index
      %src = arith.andi %y, %c63 : index
      apipe.copy %A[%src], %tile[%s, %c0], 1 : memref<64xf32> to memref<4x1xf32>
      apipe.mbarrier_arrive_copies %ring[%s] : memref<4xi64, 3>
      %hi = arith.andi %y, %c4 : index
      %p = arith.cmpi ne, %hi, %c0 : index
      apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
      %v = memref.load %tile[%s, %c0] : memref<4x1xf32>
      %a2 = arith.addf %a, %v : f32
      %y2 = arith.addi %y, %c1 : index
      scf.yield %y2, %a2 : index, f32
    }
    %w = arith.subi %in#0, %c1 : index
    %low = arith.andi %w, %c3 : index
    %hi = arith.andi %w, %c4 : index
    %p = arith.cmpi eq, %hi, %c0 : index
    %m = arith.addi %low, %c1 : index
    %s = arith.remui %m, %c4 : index
    // CHECK: check-hazards-mbarrier-residue-set-run.mlir:[[@LINE+1]]:5: error: 'apipe.mbarrier_wait' op can deadlock
    apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
    scf.yield %in#0, %in#1 : index, f32
  }
  return %r#1 : f32
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %A = memref.alloc() : memref<64xf32>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  scf.for %j = %c0 to %c64 step %c1 {
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    memref.store %jf, %A[%j] : memref<64xf32>
  }
  %r = func.call @mixed(%A) : (memref<64xf32>) -> f32
  vector.print %r : f32
  return
}

func.func @main_broken() {
  %c1 = arith.constant 1 : index
  %A = memref.alloc() : memref<64xf32>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  scf.for %j = %c0 to %c64 step %c1 {
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    memref.store %jf, %A[%j] : memref<64xf32>
  }
  %r = func.call @broken(%A) : (memref<64xf32>) -> f32
  vector.print %r : f32
  return
}
