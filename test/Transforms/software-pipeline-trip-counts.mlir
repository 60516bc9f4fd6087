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
func.func @trip_count_zero(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
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
func.func @trip_count_one(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
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
func.func @trip_count_two(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
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

// Dynamic bounds and step: N = lb < ub ? ceildivui(ub - lb, step) : 0 (the
// difference read unsigned is exact even when ub - lb overflows i64; a zero
// step, undefined for scf.for, does not trap); a switch on min(N, 3) picks
// the exact schedule of 0, 1 or 2 iterations, or (default) the prologue, a
// kernel over N - 3 iterations (compared unsigned: N may exceed i64::MAX
// when lb is negative) and an epilogue indexed from the end (iterations
// N - 3, N - 2, N - 1).
// CHECK-LABEL: func.func @dynamic_trip_count
// CHECK-SAME: (%{{.*}}: memref<64xf32> {llvm.noalias}, %{{.*}}: memref<16xf32> {llvm.noalias}, %[[LB:.*]]: index, %[[UB:.*]]: index, %[[STEP:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : index
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK-NEXT: %[[S:.*]] = arith.maxui %[[STEP]], %[[C1]] : index
// CHECK-NEXT: %[[Q:.*]] = arith.ceildivui %[[D]], %[[S]] : index
// CHECK-NEXT: %[[N:.*]] = arith.select %[[RUNS]], %[[Q]], %[[C0]] : index
// CHECK-NEXT: %[[SEL:.*]] = arith.minui %[[N]], %[[C3]] : index
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
// CHECK-NEXT:   %[[K:.*]]:3 = scf.for unsigned %{{.*}} = %[[C0]] to %[[KN]]
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
func.func @dynamic_trip_count(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
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

// -----

// An unsigned loop compares unsigned: [-10, -4) step 2 is the three
// iterations 2^64 - 10, 2^64 - 8, 2^64 - 6 (a signed reading has none).
// CHECK-LABEL: func.func @dynamic_unsigned
// CHECK-SAME: %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index)
// CHECK: %[[RUNS:.*]] = arith.cmpi ult, %[[LB]], %[[UB]] : index
// CHECK: scf.for unsigned
func.func @dynamic_unsigned(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for unsigned %i = %lb to %ub step %c1 {
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%c0] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A signed loop with a constant lower bound >= 0 has N <= i64::MAX: its
// kernel compares signed.
// CHECK-LABEL: func.func @dynamic_nonnegative_lower_bound
// CHECK: arith.cmpi slt
// CHECK: scf.for %
func.func @dynamic_nonnegative_lower_bound(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c1 to %ub step %c1 {
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%c0] {apipe.stage = 1 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// ub = i64::MAX (a fuzzed input once panicked here): N = i64::MAX, the
// kernel runs N - 1 iterations; the epilogue's iteration N - 1 has
// iv = i64::MAX - 1.
// CHECK-LABEL: func.func @upper_bound_index_max
// CHECK-DAG: %[[KN:.*]] = arith.constant 9223372036854775806 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KN]] step
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[KN]]]
// CHECK-NEXT: return
func.func @upper_bound_index_max(%A: memref<64xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 9223372036854775807 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %big step %c1 {
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<4xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// [0, i64::MAX) step 2: N = 2^62 (rounded up), kernel 2^62 - 1 iterations;
// the last iteration has iv = 2^63 - 2.
// CHECK-LABEL: func.func @upper_bound_index_max_step_two
// CHECK-DAG: %[[KN:.*]] = arith.constant 4611686018427387903 : index
// CHECK-DAG: %[[LAST:.*]] = arith.constant 9223372036854775806 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KN]] step
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[LAST]]]
// CHECK-NEXT: return
func.func @upper_bound_index_max_step_two(%A: memref<64xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %big = arith.constant 9223372036854775807 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %big step %c2 {
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<4xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// -----

// A signed loop whose upper bound is below its lower bound never runs,
// whatever the distance (here more than i64::MAX): the loop goes away.
// CHECK-LABEL: func.func @signed_empty_across_sign_bit
// CHECK-NOT: scf.for
// CHECK-NOT: apipe.copy
// CHECK: return
func.func @signed_empty_across_sign_bit(%A: memref<64xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lb = arith.constant 9223372036854775805 : index
  %ub = arith.constant -9223372036854775805 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %lb to %ub step %c1 {
    apipe.copy %A[%c0], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%c0] {apipe.stage = 1 : i64} : memref<4xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
