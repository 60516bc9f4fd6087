// apipe-make-sync: every copy becomes a synchronous scf.for of loads and
// stores, every synchronization op and every !apipe.token value disappears.
// RUN: apipe-opt %s --split-input-file --apipe-make-sync | FileCheck %s
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(apipe-make-sync))' | FileCheck %s

// CHECK-LABEL: func.func @copy_one_dimensional
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[BUF:.*]]: memref<4xf32, 3>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-NOT: apipe
// CHECK-DAG: %[[LB:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[UB:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[STEP:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK-NEXT: %[[SRC_AT:.*]] = arith.addi %[[I]], %[[K]] : index
// CHECK-NEXT: %[[DST_AT:.*]] = arith.addi %[[J]], %[[K]] : index
// CHECK-NEXT: %[[V:.*]] = memref.load %[[A]][%[[SRC_AT]]] : memref<64xf32>
// CHECK-NEXT: memref.store %[[V]], %[[BUF]][%[[DST_AT]]] : memref<4xf32, 3>
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: apipe
func.func @copy_one_dimensional(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index, %j: index) {
  apipe.copy %A[%i], %buf[%j], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// CHECK-LABEL: func.func @copy_zero_fill_f32
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[BUF:.*]]: memref<4xf32, 3>, %[[I:.*]]: index, %[[J:.*]]: index, %[[N:.*]]: index)
// CHECK-NOT: apipe
// CHECK-DAG: %[[LB:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[UB:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[STEP:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK-NEXT: %[[SRC_AT:.*]] = arith.addi %[[I]], %[[K]] : index
// CHECK-NEXT: %[[DST_AT:.*]] = arith.addi %[[J]], %[[K]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[K]], %[[N]] : index
// CHECK-NEXT: %[[V:.*]] = scf.if %[[IN]] -> (f32) {
// CHECK-NEXT: %[[L:.*]] = memref.load %[[A]][%[[SRC_AT]]] : memref<64xf32>
// CHECK-NEXT: scf.yield %[[L]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: scf.yield %[[ZERO]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[V]], %[[BUF]][%[[DST_AT]]] : memref<4xf32, 3>
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: apipe
func.func @copy_zero_fill_f32(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index, %j: index, %n: index) {
  apipe.copy %A[%i], %buf[%j], 4, %n : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

// CHECK-LABEL: func.func @copy_zero_fill_i32_constant_src_elements
// CHECK-SAME: (%[[A:.*]]: memref<64xi32>, %[[BUF:.*]]: memref<8xi32, 3>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-NOT: apipe
// CHECK-DAG: %[[N:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[LB:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[UB:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[STEP:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK-NEXT: %[[SRC_AT:.*]] = arith.addi %[[I]], %[[K]] : index
// CHECK-NEXT: %[[DST_AT:.*]] = arith.addi %[[J]], %[[K]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[K]], %[[N]] : index
// CHECK-NEXT: %[[V:.*]] = scf.if %[[IN]] -> (i32) {
// CHECK-NEXT: %[[L:.*]] = memref.load %[[A]][%[[SRC_AT]]] : memref<64xi32>
// CHECK-NEXT: scf.yield %[[L]] : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: scf.yield %[[ZERO]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[V]], %[[BUF]][%[[DST_AT]]] : memref<8xi32, 3>
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: apipe
func.func @copy_zero_fill_i32_constant_src_elements(%A: memref<64xi32>, %buf: memref<8xi32, 3>, %i: index, %j: index) {
  %c3 = arith.constant 3 : index
  apipe.copy %A[%i], %buf[%j], 8, %c3 : memref<64xi32> to memref<8xi32, 3>
  return
}

// -----

// Only the innermost index of each side moves; queue and bypass_l1 do not
// change the synchronous copy.
// CHECK-LABEL: func.func @copy_two_dimensional_into_three_dimensional
// CHECK-SAME: (%[[A:.*]]: memref<32x64xf16>, %[[BUF:.*]]: memref<2x16x8xf16, 3>, %[[R:.*]]: index, %[[C:.*]]: index, %[[S:.*]]: index, %[[T:.*]]: index)
// CHECK-NOT: apipe
// CHECK-DAG: %[[LB:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[UB:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[STEP:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK-NEXT: %[[SRC_AT:.*]] = arith.addi %[[C]], %[[K]] : index
// CHECK-NEXT: %[[DST_AT:.*]] = arith.addi %[[R]], %[[K]] : index
// CHECK-NEXT: %[[V:.*]] = memref.load %[[A]][%[[R]], %[[SRC_AT]]] : memref<32x64xf16>
// CHECK-NEXT: memref.store %[[V]], %[[BUF]][%[[S]], %[[T]], %[[DST_AT]]] : memref<2x16x8xf16, 3>
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: apipe
func.func @copy_two_dimensional_into_three_dimensional(%A: memref<32x64xf16>, %buf: memref<2x16x8xf16, 3>, %r: index, %c: index, %s: index, %t: index) {
  apipe.copy %A[%r, %c], %buf[%s, %t, %r], 8 queue 1 {bypass_l1} : memref<32x64xf16> to memref<2x16x8xf16, 3>
  apipe.commit_group queue 1
  apipe.wait_group 0 queue 1
  return
}

// -----

// CHECK-LABEL: func.func @synchronization_ops_removed
// CHECK-SAME: (%[[X:.*]]: index) -> index
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[X]], %[[X]] : index
// CHECK-NEXT: return %[[Y]] : index
// CHECK-NOT: apipe
func.func @synchronization_ops_removed(%x: index) -> index {
  apipe.commit_group
  apipe.commit_group queue 2
  apipe.wait_group 1
  apipe.wait_group 0 queue 2
  %t = apipe.commit_group queue 1
  %unused = apipe.commit_group
  %r = apipe.ready
  %y = arith.addi %x, %x : index
  apipe.wait %t
  apipe.wait %t, %r
  return %y : index
}

// -----

// The token iter_args go; the index and f32 ones keep their order and uses.
// CHECK-LABEL: func.func @tokens_in_for_iter_args_removed
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[BUF:.*]]: memref<4xf32, 3>, %[[N:.*]]: index) -> (index, f32)
// CHECK-NOT: apipe
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[F:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[FOR:.*]]:2 = scf.for %[[IV:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[C0]], %[[X:.*]] = %[[F]]) -> (index, f32) {
// CHECK: scf.for
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[ACC]], %[[IV]] : index
// CHECK-NEXT: %[[TWICE:.*]] = arith.addf %[[X]], %[[X]] : f32
// CHECK-NEXT: scf.yield %[[SUM]], %[[TWICE]] : index, f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[FOR]]#0, %[[FOR]]#1 : index, f32
// CHECK-NOT: apipe
func.func @tokens_in_for_iter_args_removed(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %n: index) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  %r = apipe.ready
  %res:4 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %c0, %t0 = %r, %x = %f, %t1 = %r) -> (index, !apipe.token, f32, !apipe.token) {
    apipe.copy %A[%iv], %buf[%c0], 4 queue 1 : memref<64xf32> to memref<4xf32, 3>
    %t = apipe.commit_group queue 1
    apipe.wait %t0
    %sum = arith.addi %acc, %iv : index
    %twice = arith.addf %x, %x : f32
    scf.yield %sum, %t1, %twice, %t : index, !apipe.token, f32, !apipe.token
  }
  apipe.wait %res#1, %res#3
  return %res#0, %res#2 : index, f32
}

// -----

// CHECK-LABEL: func.func @loop_carrying_only_tokens
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: apipe
func.func @loop_carrying_only_tokens(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = apipe.ready
  %o = scf.for %i = %c0 to %n step %c1 iter_args(%t = %r) -> (!apipe.token) {
    apipe.wait %t
    %nt = apipe.commit_group
    scf.yield %nt : !apipe.token
  }
  %o2 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %o) -> (!apipe.token) {
    scf.yield %t : !apipe.token
  }
  apipe.wait %o2
  return
}

// -----

// CHECK-LABEL: func.func @token_captured_by_loop_body
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: apipe
func.func @token_captured_by_loop_body(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.wait %t
  }
  return
}

// -----

// CHECK-LABEL: func.func @tokens_in_if_results_removed
// CHECK-SAME: (%[[B:.*]]: i1, %[[V:.*]]: index, %[[W:.*]]: index) -> index
// CHECK-NEXT: %[[IF:.*]] = scf.if %[[B]] -> (index) {
// CHECK-NEXT: scf.yield %[[V]] : index
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[W]] : index
// CHECK-NEXT: }
// CHECK-NEXT: return %[[IF]] : index
// CHECK-NOT: apipe
func.func @tokens_in_if_results_removed(%b: i1, %v: index, %w: index) -> index {
  %r:3 = scf.if %b -> (!apipe.token, index, !apipe.token) {
    %t = apipe.commit_group
    scf.yield %t, %v, %t : !apipe.token, index, !apipe.token
  } else {
    %t = apipe.ready
    scf.yield %t, %w, %t : !apipe.token, index, !apipe.token
  }
  apipe.wait %r#0, %r#2
  return %r#1 : index
}

// -----

// CHECK-LABEL: func.func @if_with_only_token_result
// CHECK-SAME: (%[[B:.*]]: i1)
// CHECK-NEXT: scf.if %[[B]] {
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: apipe
func.func @if_with_only_token_result(%b: i1) {
  %r = scf.if %b -> (!apipe.token) {
    %t = apipe.commit_group
    scf.yield %t : !apipe.token
  } else {
    %t = apipe.ready
    scf.yield %t : !apipe.token
  }
  apipe.wait %r
  return
}

// -----

// CHECK-LABEL: func.func @tokens_in_index_switch_and_execute_region_removed
// CHECK-SAME: (%[[X:.*]]: index) -> i32
// CHECK-NEXT: %[[SW:.*]] = scf.index_switch %[[X]] -> i32
// CHECK-NEXT: case 1 {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: scf.yield %[[ONE]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: default {
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: scf.yield %[[TWO]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: scf.execute_region {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[SW]] : i32
// CHECK-NOT: apipe
func.func @tokens_in_index_switch_and_execute_region_removed(%x: index) -> i32 {
  %r:2 = scf.index_switch %x -> !apipe.token, i32
  case 1 {
    %t = apipe.commit_group
    %c = arith.constant 1 : i32
    scf.yield %t, %c : !apipe.token, i32
  }
  default {
    %t = apipe.ready
    %c = arith.constant 2 : i32
    scf.yield %t, %c : !apipe.token, i32
  }
  %e = scf.execute_region -> !apipe.token {
    %t = apipe.commit_group
    scf.yield %t : !apipe.token
  }
  apipe.wait %r#0, %e
  return %r#1 : i32
}

// -----

// CHECK-LABEL: func.func @while_carrying_token
// CHECK-SAME: (%[[N:.*]]: index) -> index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[W:.*]] = scf.while (%[[I:.*]] = %[[C0]]) : (index) -> index {
// CHECK-NEXT: %[[COND:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK-NEXT: scf.condition(%[[COND]]) %[[I]] : index
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NEXT: %[[J1:.*]] = arith.addi %[[J]], %[[C1]] : index
// CHECK-NEXT: scf.yield %[[J1]] : index
// CHECK-NEXT: }
// CHECK-NEXT: return %[[W]] : index
// CHECK-NOT: apipe
func.func @while_carrying_token(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = apipe.ready
  %w:2 = scf.while (%i = %c0, %t = %r) : (index, !apipe.token) -> (index, !apipe.token) {
    %cond = arith.cmpi slt, %i, %n : index
    scf.condition(%cond) %i, %t : index, !apipe.token
  } do {
  ^bb0(%j: index, %u: !apipe.token):
    apipe.wait %u
    %nt = apipe.commit_group
    %j1 = arith.addi %j, %c1 : index
    scf.yield %j1, %nt : index, !apipe.token
  }
  apipe.wait %w#1
  return %w#0 : index
}

// -----

// The token is made in the before region and only passed to the after region.
// CHECK-LABEL: func.func @while_token_only_after_region
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %{{.*}} = scf.while (%[[I:.*]] = %[[C0]]) : (index) -> index {
// CHECK-NEXT: %[[COND:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK-NEXT: scf.condition(%[[COND]]) %[[I]] : index
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NEXT: scf.yield %[[J]] : index
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: apipe
func.func @while_token_only_after_region(%n: index) {
  %c0 = arith.constant 0 : index
  %w:2 = scf.while (%i = %c0) : (index) -> (index, !apipe.token) {
    %t = apipe.commit_group
    %cond = arith.cmpi slt, %i, %n : index
    scf.condition(%cond) %i, %t : index, !apipe.token
  } do {
  ^bb0(%j: index, %u: !apipe.token):
    apipe.wait %u
    scf.yield %j : index
  }
  apipe.wait %w#1
  return
}

// -----

// CHECK-LABEL: func.func @nested_loops_carrying_tokens
// CHECK-SAME: (%[[N:.*]]: index) -> index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[OUTER:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[S:.*]] = %[[C0]]) -> (index) {
// CHECK-NEXT: %[[INNER:.*]] = scf.for %[[J:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[S2:.*]] = %[[S]]) -> (index) {
// CHECK-NEXT: %[[S3:.*]] = arith.addi %[[S2]], %[[J]] : index
// CHECK-NEXT: scf.yield %[[S3]] : index
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[INNER]] : index
// CHECK-NEXT: }
// CHECK-NEXT: return %[[OUTER]] : index
// CHECK-NOT: apipe
func.func @nested_loops_carrying_tokens(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = apipe.ready
  %o:2 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %r, %s = %c0) -> (!apipe.token, index) {
    %in:2 = scf.for %j = %c0 to %n step %c1 iter_args(%u = %t, %s2 = %s) -> (!apipe.token, index) {
      apipe.wait %u
      %nt = apipe.commit_group
      %s3 = arith.addi %s2, %j : index
      scf.yield %nt, %s3 : !apipe.token, index
    }
    scf.yield %in#0, %in#1 : !apipe.token, index
  }
  apipe.wait %o#0
  return %o#1 : index
}

// -----

// Does not crash: nothing to do.
// CHECK-LABEL: func.func @no_apipe_ops
// CHECK-NEXT: return
func.func @no_apipe_ops() {
  return
}

// -----

// The pipelining annotations go too: the synchronous reference has no async
// stages left, and the result verifies.
// CHECK-LABEL: func.func @annotated_loop
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for
// CHECK: memref.load
// CHECK: memref.store
// CHECK-NOT: apipe
// CHECK: return
func.func @annotated_loop(%A: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %n step %c1 {
    apipe.copy %A[%i], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group {apipe.stage = 0 : i64}
    apipe.wait_group 0 {apipe.stage = 1 : i64, apipe.order = 2 : i64}
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64} : memref<4xf32, 3>
  } {apipe.async_stages = array<i64: 0>}
  return
}
