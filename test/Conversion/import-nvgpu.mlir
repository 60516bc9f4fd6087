// RUN: apipe-opt %s --split-input-file --apipe-import-nvgpu | FileCheck %s

// An upstream depth-2 pipeline (prologue of two groups, tokens rotating
// through iter_args, waits without numGroups). Each wait becomes a wait on
// its token: the op's documented intent (upstream lowers it to "wait for
// everything" for want of an analysis). apipe-tokens-to-counting then gives
// the exact counts (import-nvgpu-export.mlir).

// CHECK-LABEL: func.func @depth_two
// CHECK-SAME: (%[[A:.*]]: memref<1024xf32>, %[[BUF:.*]]: memref<2x4xf32, 3>, %[[N:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: apipe.copy %[[A]][%[[C0]]], %[[BUF]][%[[C0]], %[[C0]]], 4 {bypass_l1} : memref<1024xf32> to memref<2x4xf32, 3>{{$}}
// CHECK-NEXT: %[[G0:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: apipe.copy %[[A]][%[[C4]]], %[[BUF]][%[[C1]], %[[C0]]], 4 {bypass_l1}
// CHECK-NEXT: %[[G1:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: %[[R:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[GA:.*]] = %[[G0]], %[[GB:.*]] = %[[G1]]) -> (!apipe.token, !apipe.token) {
// CHECK-NEXT: apipe.wait %[[GA]]{{$}}
// CHECK: apipe.copy %[[A]][%{{.*}}], %[[BUF]][%{{.*}}, %[[C0]]], 4 {bypass_l1}
// CHECK-NEXT: %[[G:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: scf.yield %[[GB]], %[[G]] : !apipe.token, !apipe.token
// CHECK: apipe.wait %[[R]]#0{{$}}
// CHECK-NEXT: apipe.wait %[[R]]#1{{$}}
// CHECK-NOT: nvgpu.
func.func @depth_two(%A: memref<1024xf32>, %buf: memref<2x4xf32, 3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t0 = nvgpu.device_async_copy %A[%c0], %buf[%c0, %c0], 4 {bypassL1} : memref<1024xf32> to memref<2x4xf32, 3>
  %g0 = nvgpu.device_async_create_group %t0
  %t1 = nvgpu.device_async_copy %A[%c4], %buf[%c1, %c0], 4 {bypassL1} : memref<1024xf32> to memref<2x4xf32, 3>
  %g1 = nvgpu.device_async_create_group %t1
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%ga = %g0, %gb = %g1) -> (!nvgpu.device.async.token, !nvgpu.device.async.token) {
    nvgpu.device_async_wait %ga
    %s = arith.remui %i, %c2 : index
    %x = memref.load %buf[%s, %c0] : memref<2x4xf32, 3>
    %next = arith.addi %i, %c2 : index
    %off = arith.muli %next, %c4 : index
    %t = nvgpu.device_async_copy %A[%off], %buf[%s, %c0], 4 {bypassL1} : memref<1024xf32> to memref<2x4xf32, 3>
    %g = nvgpu.device_async_create_group %t
    scf.yield %gb, %g : !nvgpu.device.async.token, !nvgpu.device.async.token
  }
  nvgpu.device_async_wait %r#0
  nvgpu.device_async_wait %r#1
  return
}

// -----

// numGroups gives counting form; srcElements becomes src_elements; a token
// that no token wait uses leaves a plain commit.

// CHECK-LABEL: func.func @counted_waits_and_zero_fill
// CHECK: apipe.copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 4, %[[K:.*]] : memref<64xf32> to memref<8xf32, 3>{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: return
func.func @counted_waits_and_zero_fill(%a: memref<64xf32>, %b: memref<8xf32, 3>, %i: index, %k: index) {
  %t0 = nvgpu.device_async_copy %a[%i], %b[%i], 4, %k : memref<64xf32> to memref<8xf32, 3>
  %g0 = nvgpu.device_async_create_group %t0
  %t1 = nvgpu.device_async_copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, 3>
  %g1 = nvgpu.device_async_create_group %t1
  nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
  nvgpu.device_async_wait %g1 {numGroups = 0 : i32}
  return
}
