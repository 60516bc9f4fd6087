// apipe-software-pipeline with four stages (0 and 3) and trip counts smaller
// than the stage count, and unknown: no stage ever runs for an iteration
// outside [lb, ub), and every step still commits one group.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" | FileCheck %s

// CHECK-LABEL: func.func @trip_count_zero
// CHECK-NEXT: arith.constant 0
// CHECK-NEXT: arith.constant 1
// CHECK-NEXT: arith.constant 4
// CHECK-NEXT: memref.alloc() : memref<4xf32, 3>
// CHECK-NEXT: return
func.func @trip_count_zero(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c0 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 3 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// One iteration: the copy of iteration 0, then three empty steps, then the
// consumer of iteration 0 waits on the first group; no steady-state loop.
// CHECK-LABEL: func.func @trip_count_one
// CHECK: apipe.copy
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group
// CHECK-NEXT: apipe.commit_group
// CHECK-NEXT: apipe.commit_group
// CHECK-NEXT: apipe.commit_group
// CHECK-NEXT: apipe.wait %[[T0]]
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store
// CHECK-NEXT: return
// CHECK-NOT: scf.for
func.func @trip_count_one(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c1 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 3 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Two iterations: copies of iterations 0 and 1, two empty steps, then the
// consumers of iterations 0 and 1 (the second after one more empty commit).
// CHECK-LABEL: func.func @trip_count_two
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: apipe.copy
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group
// CHECK: apipe.copy
// CHECK-NEXT: %[[T1:.*]] = apipe.commit_group
// CHECK-NEXT: apipe.commit_group
// CHECK-NEXT: apipe.commit_group
// CHECK-NEXT: apipe.wait %[[T0]]
// CHECK-NEXT: memref.subview %{{.*}}[%[[C0]], 0]
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[C0]]]
// CHECK-NEXT: apipe.commit_group
// CHECK-NEXT: apipe.wait %[[T1]]
// CHECK-NEXT: memref.subview %{{.*}}[%[[C1]], 0]
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[C1]]]
// CHECK-NEXT: return
func.func @trip_count_two(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c2 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 3 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// Dynamic bounds and step: N = max(0, ceildiv(ub - lb, step)); a switch on
// min(N, 3) picks the exact schedule of 0, 1 or 2 iterations, or (default)
// the prologue, a kernel over N - 3 iterations and an epilogue indexed from
// the end (iterations N - 3, N - 2, N - 1).
// CHECK-LABEL: func.func @dynamic_trip_count
// CHECK-SAME: (%{{.*}}: memref<64xf32>, %{{.*}}: memref<16xf32>, %[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[D:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK-NEXT: %[[Q:.*]] = arith.ceildivsi %[[D]], %[[STEP]] : index
// CHECK-NEXT: %[[N:.*]] = arith.maxsi %[[Q]], %[[C0]] : index
// CHECK-NEXT: %[[SEL:.*]] = arith.minsi %[[N]], %[[C3]] : index
// CHECK-NEXT: scf.index_switch %[[SEL]]
// CHECK-NEXT: case 0 {
// CHECK-NEXT:   scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: case 1 {
// CHECK-COUNT-1: apipe.copy
// CHECK-COUNT-4: apipe.commit_group
// CHECK:        scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: case 2 {
// CHECK-COUNT-2: apipe.copy
// CHECK:        scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: default {
// CHECK:        %[[KN:.*]] = arith.subi %[[N]], %[[C3]] : index
// CHECK-NEXT:   %[[K:.*]]:3 = scf.for %{{.*}} = %[[C0]] to %[[KN]]
// CHECK:        apipe.wait %[[K]]#2
// CHECK-NEXT:   %[[I3:.*]] = arith.subi %[[N]], %[[C3]] : index
// CHECK-NEXT:   %[[V3:.*]] = arith.remui %[[I3]], %[[C4:.*]] : index
// CHECK-NEXT:   memref.subview %{{.*}}[%[[V3]], 0]
// CHECK-NEXT:   memref.load
// CHECK-NEXT:   %[[IV3:.*]] = arith.muli %[[I3]], %[[STEP]] : index
// CHECK-NEXT:   %[[IV:.*]] = arith.addi %[[LB]], %[[IV3]] : index
// CHECK-NEXT:   memref.store %{{.*}}, %{{.*}}[%[[IV]]]
// CHECK:        apipe.wait %[[K]]#1
// CHECK:        apipe.wait %[[K]]#0
// CHECK:        memref.store
// CHECK-NEXT: }
func.func @dynamic_trip_count(%A: memref<64xf32>, %out: memref<16xf32>, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %lb to %ub step %step {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 3 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
