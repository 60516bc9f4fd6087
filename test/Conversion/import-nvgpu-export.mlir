// Import of an upstream depth-2 pipeline with no numGroups (token form),
// exact counts from apipe-tokens-to-counting, and export with numGroups:
// 1 in the loop (the other in-flight group is newer), then 1 and 0 in the
// epilogue.
//
// RUN: apipe-opt %s --apipe-import-nvgpu --apipe-tokens-to-counting --apipe-to-nvgpu | FileCheck %s

// The forced groups come from earlier iterations or from the loop, so the
// export names them with placeholder tokens (dropped by the lowering).
// CHECK-LABEL: func.func @depth_two
// CHECK: scf.for
// CHECK-NEXT: %[[P0:.*]] = builtin.unrealized_conversion_cast to !nvgpu.device.async.token
// CHECK-NEXT: nvgpu.device_async_wait %[[P0]] {numGroups = 1 : i32}
// CHECK: nvgpu.device_async_create_group
// CHECK-NEXT: }
// CHECK-NEXT: %[[P1:.*]] = builtin.unrealized_conversion_cast to !nvgpu.device.async.token
// CHECK-NEXT: nvgpu.device_async_wait %[[P1]] {numGroups = 1 : i32}
// CHECK-NEXT: %[[P2:.*]] = builtin.unrealized_conversion_cast to !nvgpu.device.async.token
// CHECK-NEXT: nvgpu.device_async_wait %[[P2]] {numGroups = 0 : i32}
// CHECK-NOT: apipe.
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
