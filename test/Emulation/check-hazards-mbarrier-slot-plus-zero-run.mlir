// A wait whose slot is the slot of a count moved by zero (`((w & 3) + 0)
// mod 4`) and whose parity is that count's own (`(w & 4) != 0`), after a
// loop of dynamic trip count: the ring's count mod 8 is not known there,
// but slot and parity are both w's, so the wait names group w whatever
// the count is.
//   @moved: w = count - 1, the latest group. Correct: the checker is
//     silent (it reported "cannot relate": it looked for the count's
//     residue to split on), and every mode prints make-sync's values
//     for %n = 0, 3 and 9.
//   @plus_k: the same wait with slot `(w + 4) mod 4` (`arith.remui`):
//     the count w + 4 has w's slot. Silent (it reported "cannot relate"),
//     and every mode prints make-sync's values for %n = 3 and 9.
//   @broken: w = count, a group not armed yet: the checker reports the
//     wait, and apipe-run stops there (deadlock).
// A[i] = i.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1,random:2,random:3 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=main_broken --completion=lazy 2>&1 | FileCheck %s --check-prefix=RUN-BROKEN
// RUN: not apipe-run %s --entry=main_broken --completion=eager 2>&1 | FileCheck %s --check-prefix=RUN-BROKEN
// SYNC: 0
// SYNC-NEXT: 9
// SYNC-NEXT: 54
// SYNC-NEXT: 9
// SYNC-NEXT: 54
// MODES-COUNT-5: {{^}}0{{[[:space:]]+}}9{{[[:space:]]+}}54{{[[:space:]]+}}9{{[[:space:]]+}}54{{$}}
// RUN-BROKEN: check-hazards-mbarrier-slot-plus-zero-run.mlir:[[@LINE+104]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return

func.func @moved(%A: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c63 = arith.constant 63 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4x1xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %A[%c0], %tile[%c0, %c0], 1 : memref<64xf32> to memref<4x1xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%y = %c1, %acc = %zero) -> (index, f32) {
    %s = arith.andi %y, %c3 : index
    %src = arith.andi %y, %c63 : index
    apipe.copy %A[%src], %tile[%s, %c0], 1 : memref<64xf32> to memref<4x1xf32>
    apipe.mbarrier_arrive_copies %ring[%s] : memref<4xi64, 3>
    %hi = arith.andi %y, %c4 : index
    %p = arith.cmpi ne, %hi, %c0 : index
    apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
    %v = memref.load %tile[%s, %c0] : memref<4x1xf32>
    %acc2 = arith.addf %acc, %v : f32
    %y2 = arith.addi %y, %c1 : index
    scf.yield %y2, %acc2 : index, f32
  }
  %w = arith.subi %r#0, %c1 : index
  %low = arith.andi %w, %c3 : index
  %hi = arith.andi %w, %c4 : index
  %p = arith.cmpi ne, %hi, %c0 : index
  %m = arith.addi %low, %c0 : index
  %s = arith.remui %m, %c4 : index
  apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
  %v = memref.load %tile[%s, %c0] : memref<4x1xf32>
  %sum = arith.addf %r#1, %v : f32
  return %sum : f32
}

func.func @plus_k(%A: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c63 = arith.constant 63 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4x1xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %A[%c0], %tile[%c0, %c0], 1 : memref<64xf32> to memref<4x1xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%y = %c1, %acc = %zero) -> (index, f32) {
    %s = arith.andi %y, %c3 : index
    %src = arith.andi %y, %c63 : index
    apipe.copy %A[%src], %tile[%s, %c0], 1 : memref<64xf32> to memref<4x1xf32>
    apipe.mbarrier_arrive_copies %ring[%s] : memref<4xi64, 3>
    %hi = arith.andi %y, %c4 : index
    %p = arith.cmpi ne, %hi, %c0 : index
    apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
    %v = memref.load %tile[%s, %c0] : memref<4x1xf32>
    %acc2 = arith.addf %acc, %v : f32
    %y2 = arith.addi %y, %c1 : index
    scf.yield %y2, %acc2 : index, f32
  }
  %w = arith.subi %r#0, %c1 : index
  %low = arith.andi %w, %c3 : index
  %hi = arith.andi %w, %c4 : index
  %p = arith.cmpi ne, %hi, %c0 : index
  %t = arith.addi %w, %c4 : index
  %s = arith.remui %t, %c4 : index
  apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
  %v = memref.load %tile[%s, %c0] : memref<4x1xf32>
  %sum = arith.addf %r#1, %v : f32
  return %sum : f32
}

func.func @broken(%A: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c63 = arith.constant 63 : index
  %tile = memref.alloc() : memref<4x1xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %A[%c0], %tile[%c0, %c0], 1 : memref<64xf32> to memref<4x1xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%y = %c1) -> (index) {
    %s = arith.andi %y, %c3 : index
    %src = arith.andi %y, %c63 : index
    apipe.copy %A[%src], %tile[%s, %c0], 1 : memref<64xf32> to memref<4x1xf32>
    apipe.mbarrier_arrive_copies %ring[%s] : memref<4xi64, 3>
    %hi = arith.andi %y, %c4 : index
    %p = arith.cmpi ne, %hi, %c0 : index
    apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
    %y2 = arith.addi %y, %c1 : index
    scf.yield %y2 : index
  }
  %low = arith.andi %r, %c3 : index
  %hi = arith.andi %r, %c4 : index
  %p = arith.cmpi ne, %hi, %c0 : index
  %m = arith.addi %low, %c0 : index
  %s = arith.remui %m, %c4 : index
  // CHECK: check-hazards-mbarrier-slot-plus-zero-run.mlir:[[@LINE+1]]:3: error: 'apipe.mbarrier_wait' op can deadlock
  apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
  %v = memref.load %tile[%s, %c0] : memref<4x1xf32>
  return %v : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %j = %c0 to %c64 step %c1 {
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    memref.store %jf, %A[%j] : memref<64xf32>
  }
  %r0 = func.call @moved(%A, %c0) : (memref<64xf32>, index) -> f32
  vector.print %r0 : f32
  %r3 = func.call @moved(%A, %c3) : (memref<64xf32>, index) -> f32
  vector.print %r3 : f32
  %r9 = func.call @moved(%A, %c9) : (memref<64xf32>, index) -> f32
  vector.print %r9 : f32
  %k3 = func.call @plus_k(%A, %c3) : (memref<64xf32>, index) -> f32
  vector.print %k3 : f32
  %k9 = func.call @plus_k(%A, %c9) : (memref<64xf32>, index) -> f32
  vector.print %k9 : f32
  return
}

func.func @main_broken() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %j = %c0 to %c64 step %c1 {
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    memref.store %jf, %A[%j] : memref<64xf32>
  }
  %r = func.call @broken(%A, %c3) : (memref<64xf32>, index) -> f32
  vector.print %r : f32
  return
}
