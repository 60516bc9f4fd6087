// A switch on a function argument that fixes how many groups each
// iteration of an outer loop arrives: the pipeliner's guard of a loop of
// dynamic trip count (`scf.index_switch` on `min(n, stages - 1)`) has this
// shape. Five groups before the loop, then per iteration one group for
// %n = 0 (case 0) or two (default), each waited for and read at once;
// after the switch, a wait whose slot is moved by one (`((w & 3) + 1) mod
// 4`, the parity of w's phase before, w = count - 1) names group count - 4
// when count mod 4 != 0. Per case the counts after the switch are 6, 7
// (one group) or 7, 9 (two): never 0 mod 4. Joined over the cases, the
// count at the loop's top may be 6 and the switch add 2: 8.
//   @cases: correct; the checker analyzes the function once per case of
//     the switch (its selector is computed from the arguments only, so an
//     execution takes one case at every visit) and is silent; it reported
//     "can deadlock" when it joined the cases. Every mode prints
//     make-sync's values for %n = 0 and %n = 1.
//   @broken: four groups before the loop: with two groups per iteration
//     the count after the switch is 8 in the second iteration, where the
//     moved slot names a phase the slot has not reached: reported at the
//     wait, and apipe-run stops there (deadlock) for %n = 1.
// A[i] = i.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1,random:2,random:3 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=main_broken --completion=lazy 2>&1 | FileCheck %s --check-prefix=RUN-BROKEN
// SYNC: 21
// SYNC-NEXT: 36
// MODES-COUNT-5: {{^}}21{{[[:space:]]+}}36{{$}}
// RUN-BROKEN: 15
// RUN-BROKEN-NEXT: check-hazards-mbarrier-switch-cases-run.mlir:[[@LINE+149]]:5: error: deadlock: this 'apipe.mbarrier_wait' can never return

func.func @cases(%A: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cpre = arith.constant 5 : index
  %c63 = arith.constant 63 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4x1xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %pre:2 = scf.for %i = %c0 to %cpre step %c1 iter_args(%y = %c0, %a = %zero) -> (index, f32) {
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
  %r:2 = scf.for %o = %c0 to %c2 step %c1 iter_args(%x = %pre#0, %acc = %pre#1) -> (index, f32) {
    %sel = arith.minui %n, %c1 : index
    %in:2 = scf.index_switch %sel -> index, f32
    case 0 {
      %s0 = arith.andi %x, %c3 : index
      %src0 = arith.andi %x, %c63 : index
      apipe.copy %A[%src0], %tile[%s0, %c0], 1 : memref<64xf32> to memref<4x1xf32>
      apipe.mbarrier_arrive_copies %ring[%s0] : memref<4xi64, 3>
      %hi0 = arith.andi %x, %c4 : index
      %p0 = arith.cmpi ne, %hi0, %c0 : index
      apipe.mbarrier_wait %ring[%s0], %p0 : memref<4xi64, 3>
      %v0 = memref.load %tile[%s0, %c0] : memref<4x1xf32>
      %a1 = arith.addf %acc, %v0 : f32
      %x1 = arith.addi %x, %c1 : index
      scf.yield %x1, %a1 : index, f32
    }
    default {
      %s1 = arith.andi %x, %c3 : index
      %src1 = arith.andi %x, %c63 : index
      apipe.copy %A[%src1], %tile[%s1, %c0], 1 : memref<64xf32> to memref<4x1xf32>
      apipe.mbarrier_arrive_copies %ring[%s1] : memref<4xi64, 3>
      %hi1 = arith.andi %x, %c4 : index
      %p1 = arith.cmpi ne, %hi1, %c0 : index
      apipe.mbarrier_wait %ring[%s1], %p1 : memref<4xi64, 3>
      %v1 = memref.load %tile[%s1, %c0] : memref<4x1xf32>
      %a1 = arith.addf %acc, %v1 : f32
      %x1 = arith.addi %x, %c1 : index
      %s2 = arith.andi %x1, %c3 : index
      %src2 = arith.andi %x1, %c63 : index
      apipe.copy %A[%src2], %tile[%s2, %c0], 1 : memref<64xf32> to memref<4x1xf32>
      apipe.mbarrier_arrive_copies %ring[%s2] : memref<4xi64, 3>
      %hi2 = arith.andi %x1, %c4 : index
      %p2 = arith.cmpi ne, %hi2, %c0 : index
      apipe.mbarrier_wait %ring[%s2], %p2 : memref<4xi64, 3>
      %v2 = memref.load %tile[%s2, %c0] : memref<4x1xf32>
      %a2 = arith.addf %a1, %v2 : f32
      %x2 = arith.addi %x1, %c1 : index
      scf.yield %x2, %a2 : index, f32
    }
    %w = arith.subi %in#0, %c1 : index
    %low = arith.andi %w, %c3 : index
    %whi = arith.andi %w, %c4 : index
    %wp = arith.cmpi eq, %whi, %c0 : index
    %m = arith.addi %low, %c1 : index
    %ws = arith.remui %m, %c4 : index
    apipe.mbarrier_wait %ring[%ws], %wp : memref<4xi64, 3>
    scf.yield %in#0, %in#1 : index, f32
  }
  return %r#1 : f32
}

func.func @broken(%A: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cpre = arith.constant 4 : index
  %c63 = arith.constant 63 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4x1xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %pre:2 = scf.for %i = %c0 to %cpre step %c1 iter_args(%y = %c0, %a = %zero) -> (index, f32) {
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
  %r:2 = scf.for %o = %c0 to %c2 step %c1 iter_args(%x = %pre#0, %acc = %pre#1) -> (index, f32) {
    %sel = arith.minui %n, %c1 : index
    %in:2 = scf.index_switch %sel -> index, f32
    case 0 {
      %s0 = arith.andi %x, %c3 : index
      %src0 = arith.andi %x, %c63 : index
      apipe.copy %A[%src0], %tile[%s0, %c0], 1 : memref<64xf32> to memref<4x1xf32>
      apipe.mbarrier_arrive_copies %ring[%s0] : memref<4xi64, 3>
      %hi0 = arith.andi %x, %c4 : index
      %p0 = arith.cmpi ne, %hi0, %c0 : index
      apipe.mbarrier_wait %ring[%s0], %p0 : memref<4xi64, 3>
      %v0 = memref.load %tile[%s0, %c0] : memref<4x1xf32>
      %a1 = arith.addf %acc, %v0 : f32
      %x1 = arith.addi %x, %c1 : index
      scf.yield %x1, %a1 : index, f32
    }
    default {
      %s1 = arith.andi %x, %c3 : index
      %src1 = arith.andi %x, %c63 : index
      apipe.copy %A[%src1], %tile[%s1, %c0], 1 : memref<64xf32> to memref<4x1xf32>
      apipe.mbarrier_arrive_copies %ring[%s1] : memref<4xi64, 3>
      %hi1 = arith.andi %x, %c4 : index
      %p1 = arith.cmpi ne, %hi1, %c0 : index
      apipe.mbarrier_wait %ring[%s1], %p1 : memref<4xi64, 3>
      %v1 = memref.load %tile[%s1, %c0] : memref<4x1xf32>
      %a1 = arith.addf %acc, %v1 : f32
      %x1 = arith.addi %x, %c1 : index
      %s2 = arith.andi %x1, %c3 : index
      %src2 = arith.andi %x1, %c63 : index
      apipe.copy %A[%src2], %tile[%s2, %c0], 1 : memref<64xf32> to memref<4x1xf32>
      apipe.mbarrier_arrive_copies %ring[%s2] : memref<4xi64, 3>
      %hi2 = arith.andi %x1, %c4 : index
      %p2 = arith.cmpi ne, %hi2, %c0 : index
      apipe.mbarrier_wait %ring[%s2], %p2 : memref<4xi64, 3>
      %v2 = memref.load %tile[%s2, %c0] : memref<4x1xf32>
      %a2 = arith.addf %a1, %v2 : f32
      %x2 = arith.addi %x1, %c1 : index
      scf.yield %x2, %a2 : index, f32
    }
    %w = arith.subi %in#0, %c1 : index
    %low = arith.andi %w, %c3 : index
    %whi = arith.andi %w, %c4 : index
    %wp = arith.cmpi eq, %whi, %c0 : index
    %m = arith.addi %low, %c1 : index
    %ws = arith.remui %m, %c4 : index
    // CHECK: check-hazards-mbarrier-switch-cases-run.mlir:[[@LINE+1]]:5: error: 'apipe.mbarrier_wait' op can deadlock
    apipe.mbarrier_wait %ring[%ws], %wp : memref<4xi64, 3>
    scf.yield %in#0, %in#1 : index, f32
  }
  return %r#1 : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %j = %c0 to %c64 step %c1 {
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    memref.store %jf, %A[%j] : memref<64xf32>
  }
  %r0 = func.call @cases(%A, %c0) : (memref<64xf32>, index) -> f32
  vector.print %r0 : f32
  %r1 = func.call @cases(%A, %c1) : (memref<64xf32>, index) -> f32
  vector.print %r1 : f32
  return
}

func.func @main_broken() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %j = %c0 to %c64 step %c1 {
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    memref.store %jf, %A[%j] : memref<64xf32>
  }
  %r0 = func.call @broken(%A, %c0) : (memref<64xf32>, index) -> f32
  vector.print %r0 : f32
  %r1 = func.call @broken(%A, %c1) : (memref<64xf32>, index) -> f32
  vector.print %r1 : f32
  return
}
