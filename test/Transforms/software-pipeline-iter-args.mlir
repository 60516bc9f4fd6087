// Loop-carried values (scf.for iter_args): the value of iteration i is the
// yield of iteration i - 1, which rotates through the kernel's iter_args
// like any value that crosses stages; the loop results are the yields of
// the last iteration, taken after the epilogue.
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="sync=tokens" | FileCheck %s

// Stages [0, 1], 8 iterations: the accumulator is read and yielded in stage
// 1, so the kernel carries it in one iter_arg, initialized with the init
// (iteration -1), and the epilogue's add gives the result.
// CHECK-LABEL: func.func @sum_two_stages_eight_iterations
// CHECK-SAME: (%[[A:.*]]: memref<64xf32> {llvm.noalias}, %[[INIT:.*]]: f32) -> f32
// CHECK: apipe.copy
// CHECK: %[[T0:.*]] = apipe.commit_group
// CHECK: %[[K:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]], %[[T:.*]] = %[[T0]]) -> (f32, !apipe.token) {
// CHECK:   apipe.copy
// CHECK:   %[[T1:.*]] = apipe.commit_group
// CHECK:   apipe.wait %[[T]]
// CHECK:   %[[X:.*]] = memref.load
// CHECK:   %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK:   scf.yield %[[S]], %[[T1]] : f32, !apipe.token
// CHECK: }
// CHECK: apipe.wait %[[K]]#1
// CHECK: %[[XL:.*]] = memref.load
// CHECK: %[[R:.*]] = arith.addf %[[K]]#0, %[[XL]] : f32
// CHECK: return %[[R]] : f32
func.func @sum_two_stages_eight_iterations(%A: memref<64xf32> {llvm.noalias}, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (f32) {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 1 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}

// -----

// A counter yielded by stage 0 and read by stage 0 for a 3-stage loop: the
// loop result is the last iteration's value, which the kernel hands out.
// CHECK-LABEL: func.func @counter_in_stage_zero
// CHECK-SAME: (%[[A:.*]]: memref<64xf32> {llvm.noalias}, %[[OUT:.*]]: memref<8xi32> {llvm.noalias}) -> i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[N0:.*]] = arith.addi %[[ZERO]], %[[ONE]] : i32
// CHECK: %[[N1:.*]] = arith.addi %[[N0]], %[[ONE]] : i32
// CHECK: %[[K:.*]]:{{[0-9]+}} = scf.for %{{.*}} iter_args(%[[C:.*]] = %[[N1]],
// CHECK:   %[[N:.*]] = arith.addi %[[C]], %[[ONE]] : i32
// CHECK:   scf.yield %[[N]],
// CHECK: }
// CHECK-NOT: arith.addi %{{.*}}, %[[ONE]] : i32
// CHECK: return %[[K]]#0 : i32
func.func @counter_in_stage_zero(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xi32> {llvm.noalias}) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%count = %zero) -> (i32) {
    %next = arith.addi %count, %one {apipe.stage = 0 : i64} : i32
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    %y = arith.fptosi %x {apipe.stage = 2 : i64} : f32 to i32
    memref.store %y, %out[%i] {apipe.stage = 2 : i64} : memref<8xi32>
    scf.yield %next : i32
  } {apipe.async_stages = array<i64: 0>}
  return %r : i32
}

// -----

// Zero iterations: the loop and its buffer are gone, the result is the init.
// CHECK-LABEL: func.func @zero_iterations_give_the_init
// CHECK-SAME: (%[[A:.*]]: memref<64xf32> {llvm.noalias}, %[[INIT:.*]]: f32) -> f32
// CHECK-NOT: scf.for
// CHECK-NOT: apipe.copy
// CHECK: return %[[INIT]] : f32
func.func @zero_iterations_give_the_init(%A: memref<64xf32> {llvm.noalias}, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%acc = %init) -> (f32) {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 1 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}

// -----

// Dynamic trip count, 2 stages: the switch yields the init for 0 iterations
// and the last sum otherwise; the function returns the switch result.
// CHECK-LABEL: func.func @dynamic_sum
// CHECK-SAME: (%[[A:.*]]: memref<64xf32> {llvm.noalias}, %[[N:.*]]: index, %[[INIT:.*]]: f32) -> f32
// CHECK: %[[SW:.*]] = scf.index_switch %{{.*}} -> f32
// CHECK-NEXT: case 0 {
// CHECK-NEXT:   scf.yield %[[INIT]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: default {
// CHECK: %[[K:.*]]:2 = scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]], %{{.*}} = %{{.*}}) -> (f32, !apipe.token)
// CHECK: %[[R:.*]] = arith.addf %[[K]]#0, %{{.*}} : f32
// CHECK-NEXT: scf.yield %[[R]] : f32
// CHECK: return %[[SW]] : f32
func.func @dynamic_sum(%A: memref<64xf32> {llvm.noalias}, %n: index, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f32) {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 1 : i64} : memref<4xf32>
    %s = arith.addf %acc, %x {apipe.stage = 1 : i64} : f32
    scf.yield %s : f32
  } {apipe.async_stages = array<i64: 0>}
  return %r : f32
}
