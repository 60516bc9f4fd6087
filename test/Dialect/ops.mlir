// Every apipe op and the pipelining annotations, written in custom syntax,
// round-trip through apipe-opt: printed in custom syntax, twice, and through
// the generic form (--mlir-print-op-generic) and back.
// (generic-form.mlir is the same program written in generic form.)
// RUN: apipe-opt %s | FileCheck %s
// RUN: apipe-opt %s | apipe-opt | FileCheck %s
// RUN: apipe-opt %s --mlir-print-op-generic | apipe-opt | FileCheck %s

// CHECK-LABEL: func.func @copy_one_dimensional_counting_form
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[BUF:.*]]: memref<4xf32, 3>, %[[I:.*]]: index)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: apipe.copy %[[A]][%[[I]]], %[[BUF]][%[[C0]]], 4 : memref<64xf32> to memref<4xf32, 3>{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: return
func.func @copy_one_dimensional_counting_form(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 1
  return
}

// CHECK-LABEL: func.func @copy_zero_fill_on_queue_two_bypassing_l1
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[BUF:.*]]: memref<4xf32, 3>, %[[I:.*]]: index, %[[N:.*]]: index)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: apipe.copy %[[A]][%[[I]]], %[[BUF]][%[[C0]]], 4, %[[N]] queue 2 {bypass_l1} : memref<64xf32> to memref<4xf32, 3>{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 2{{$}}
// CHECK-NEXT: apipe.wait_group 0 queue 2{{$}}
// CHECK-NEXT: return
func.func @copy_zero_fill_on_queue_two_bypassing_l1(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index, %n: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4, %n queue 2 {bypass_l1} : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group queue 2
  apipe.wait_group 0 queue 2
  return
}

// CHECK-LABEL: func.func @copy_two_dimensional_into_three_dimensional
// CHECK-SAME: (%[[A:.*]]: memref<32x64xf16>, %[[BUF:.*]]: memref<2x16x8xf16, 3>, %[[R:.*]]: index, %[[C:.*]]: index, %[[S:.*]]: index)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: apipe.copy %[[A]][%[[R]], %[[C]]], %[[BUF]][%[[S]], %[[C0]], %[[C0]]], 8 : memref<32x64xf16> to memref<2x16x8xf16, 3>{{$}}
func.func @copy_two_dimensional_into_three_dimensional(%A: memref<32x64xf16>, %buf: memref<2x16x8xf16, 3>, %r: index, %c: index, %s: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%r, %c], %buf[%s, %c0, %c0], 8 : memref<32x64xf16> to memref<2x16x8xf16, 3>
  return
}

// CHECK-LABEL: func.func @token_form_wait_one_and_several
// CHECK-NEXT: %[[T:.*]] = apipe.commit_group queue 1{{$}}
// CHECK-NEXT: %[[U:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: %[[R:.*]] = apipe.ready{{$}}
// CHECK-NEXT: %[[RQ:.*]] = apipe.ready queue 3{{$}}
// CHECK-NEXT: apipe.wait %[[T]]{{$}}
// CHECK-NEXT: apipe.wait %[[U]], %[[R]], %[[RQ]]{{$}}
// CHECK-NEXT: return
func.func @token_form_wait_one_and_several() {
  %t = apipe.commit_group queue 1
  %u = apipe.commit_group
  %r = apipe.ready
  %rq = apipe.ready queue 3
  apipe.wait %t
  apipe.wait %u, %r, %rq
  return
}

// CHECK-LABEL: func.func @token_through_for_iter_args
// CHECK-SAME: (%[[N:.*]]: index) -> index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[R:.*]] = apipe.ready{{$}}
// CHECK-NEXT: %[[FOR:.*]]:2 = scf.for %[[IV:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[C0]], %[[TOK:.*]] = %[[R]]) -> (index, !apipe.token) {
// CHECK-NEXT: apipe.wait %[[TOK]]{{$}}
// CHECK-NEXT: %[[NEXT:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[ACC]], %[[IV]] : index
// CHECK-NEXT: scf.yield %[[SUM]], %[[NEXT]] : index, !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait %[[FOR]]#1{{$}}
// CHECK-NEXT: return %[[FOR]]#0 : index
func.func @token_through_for_iter_args(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = apipe.ready
  %res:2 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %c0, %t = %r) -> (index, !apipe.token) {
    apipe.wait %t
    %next = apipe.commit_group
    %sum = arith.addi %acc, %iv : index
    scf.yield %sum, %next : index, !apipe.token
  }
  apipe.wait %res#1
  return %res#0 : index
}

// CHECK-LABEL: func.func @token_through_if_results
// CHECK-SAME: (%[[B:.*]]: i1, %[[V:.*]]: index) -> index
// CHECK-NEXT: %[[IF:.*]]:2 = scf.if %[[B]] -> (!apipe.token, index) {
// CHECK-NEXT: %[[T:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: scf.yield %[[T]], %[[V]] : !apipe.token, index
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[R:.*]] = apipe.ready{{$}}
// CHECK-NEXT: scf.yield %[[R]], %[[V]] : !apipe.token, index
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait %[[IF]]#0{{$}}
// CHECK-NEXT: return %[[IF]]#1 : index
func.func @token_through_if_results(%b: i1, %v: index) -> index {
  %r:2 = scf.if %b -> (!apipe.token, index) {
    %t = apipe.commit_group
    scf.yield %t, %v : !apipe.token, index
  } else {
    %t = apipe.ready
    scf.yield %t, %v : !apipe.token, index
  }
  apipe.wait %r#0
  return %r#1 : index
}

// CHECK-LABEL: func.func @pipelining_annotations_two_stages
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>, %[[N:.*]]: index)
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[BUF:.*]] = memref.alloc() : memref<4xf32, 3>
// CHECK-NEXT: scf.for %[[IV:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT: apipe.copy %[[A]][%[[IV]]], %[[BUF]][%[[C0]]], 4 {apipe.order = 0 : i64, apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group {apipe.order = 1 : i64, apipe.stage = 0 : i64}{{$}}
// CHECK-NEXT: apipe.wait_group 0 {apipe.stage = 1 : i64}{{$}}
// CHECK-NEXT: %{{.*}} = memref.load %[[BUF]][%[[C0]]] {apipe.order = -1 : i64, apipe.stage = 1 : i64} : memref<4xf32, 3>
// CHECK-NEXT: } {apipe.async_stages = array<i64: 0>}
// CHECK-NEXT: return
func.func @pipelining_annotations_two_stages(%A: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %iv = %c0 to %n step %c1 {
    apipe.copy %A[%iv], %buf[%c0], 4 {apipe.stage = 0 : i64, apipe.order = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group {apipe.stage = 0 : i64, apipe.order = 1 : i64}
    apipe.wait_group 0 {apipe.stage = 1 : i64}
    %x = memref.load %buf[%c0] {apipe.stage = 1 : i64, apipe.order = -1 : i64} : memref<4xf32, 3>
  } {apipe.async_stages = array<i64: 0>}
  return
}
