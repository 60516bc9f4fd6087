// apipe-check-hazards: a branch inside a loop whose condition the body
// computes from values defined outside the loop (the trip-count switch and
// guards that the pipeliner emits for a pipelined loop nested in another
// loop) takes the same region in every iteration. A copy left in flight by
// one region is not in flight when a later iteration enters another region
// (a false write-after-write on a differential mutant). The twin computes
// its selector from the induction variable: there the copy left in flight
// by case 1 (iteration 1) meets the default region's copy (iteration 2).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --entry=run_invariant --completion=lazy,eager,random:5 | FileCheck %s --check-prefix=MODES
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=run_invariant | FileCheck %s --check-prefix=SYNC
// RUN: not apipe-run %s --entry=run_variant 2>&1 | FileCheck %s --check-prefix=RACE
// (the last iteration copies elements 2-5 of A = [1, 2, ...] either way)
// MODES-COUNT-6: [3,  4,  5,  6]
// MODES-NOT: [
// SYNC-COUNT-2: [3,  4,  5,  6]
// SYNC-NOT: [
// RACE: error: {{.*}}copy
func.func @invariant(%A: memref<64xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = memref.alloc() : memref<4xf32>
  scf.for %o = %c0 to %c2 step %c1 {
    %s = arith.minui %n, %c2 : index
    %o2 = arith.muli %o, %c2 : index
    scf.index_switch %s
    case 1 {
      // Leaves this copy in flight into the next iteration, which (case 1
      // again) waits before it copies.
      apipe.wait_group 0
      apipe.copy %A[%o2], %b[%c0], 4 : memref<64xf32> to memref<4xf32>
      apipe.commit_group
      scf.yield
    }
    default {
      apipe.copy %A[%o2], %b[%c0], 4 : memref<64xf32> to memref<4xf32>
      apipe.commit_group
      apipe.wait_group 0
      scf.yield
    }
  }
  apipe.wait_group 0
  memref.copy %b, %out : memref<4xf32> to memref<4xf32>
  return
}
func.func @variant(%A: memref<64xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %b = memref.alloc() : memref<4xf32>
  scf.for %o = %c0 to %c3 step %c1 {
    %s = arith.minui %o, %c2 : index
    %o2 = arith.muli %o, %c2 : index
    scf.index_switch %s
    case 1 {
      apipe.wait_group 0
      apipe.copy %A[%o2], %b[%c0], 4 : memref<64xf32> to memref<4xf32>
      apipe.commit_group
      scf.yield
    }
    default {
      // CHECK: branch.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
      apipe.copy %A[%o2], %b[%c0], 4 : memref<64xf32> to memref<4xf32>
      apipe.commit_group
      apipe.wait_group 0
      scf.yield
    }
  }
  apipe.wait_group 0
  memref.copy %b, %out : memref<4xf32> to memref<4xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @fill() -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  scf.for %j = %c0 to %c64 step %c1 {
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %v = arith.addf %jf, %one : f32
    memref.store %v, %A[%j] : memref<64xf32>
  }
  return %A : memref<64xf32>
}
func.func @run_invariant() {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %A = func.call @fill() : () -> memref<64xf32>
  %out = memref.alloc() : memref<4xf32>
  %u = memref.cast %out : memref<4xf32> to memref<*xf32>
  // n = 5: the default region twice, then n = 1: case 1 twice.
  func.call @invariant(%A, %c5, %out) : (memref<64xf32>, index, memref<4xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @invariant(%A, %c1, %out) : (memref<64xf32>, index, memref<4xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @run_variant() {
  %c1 = arith.constant 1 : index
  %A = func.call @fill() : () -> memref<64xf32>
  %out = memref.alloc() : memref<4xf32>
  func.call @variant(%A, %c1, %out) : (memref<64xf32>, index, memref<4xf32>) -> ()
  return
}
