// RUN: apipe-opt %s --split-input-file --apipe-to-nvgpu=tokens=true | FileCheck %s
// RUN: apipe-opt %s --split-input-file --apipe-to-nvgpu=tokens=true | apipe-opt --split-input-file --apipe-import-nvgpu --apipe-tokens-to-counting 2>&1 | FileCheck %s --check-prefix=BACK

// tokens=true: every wait names the group it completes with a real token,
// carried through iter_args as upstream nvgpu pipelines do (windows of
// apipe-counting-to-tokens); numGroups keeps the count. Importing it back
// gives the same counts, and no warning: the tokens agree with the counts.

// CHECK-LABEL: func.func @double_buffer_loop
// CHECK: %[[READY:.*]] = builtin.unrealized_conversion_cast to !nvgpu.device.async.token
// CHECK: %[[T0:.*]] = nvgpu.device_async_copy
// CHECK-NEXT: %[[G0:.*]] = nvgpu.device_async_create_group %[[T0]]
// CHECK-NEXT: %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%[[NEWEST:.*]] = %[[G0]], %[[OLDER:.*]] = %[[READY]]) -> (!nvgpu.device.async.token, !nvgpu.device.async.token) {
// CHECK-NEXT: %[[T:.*]] = nvgpu.device_async_copy
// CHECK-NEXT: %[[G:.*]] = nvgpu.device_async_create_group %[[T]]
// CHECK-NEXT: nvgpu.device_async_wait %[[NEWEST]] {numGroups = 1 : i32}
// CHECK-NEXT: scf.yield %[[G]], %[[NEWEST]] : !nvgpu.device.async.token, !nvgpu.device.async.token
// CHECK-NEXT: }
// CHECK-NEXT: nvgpu.device_async_wait %[[R]]#0 {numGroups = 0 : i32}
// CHECK-NOT: apipe.

// BACK-NOT: warning
// BACK-LABEL: func.func @double_buffer_loop
// BACK: {{^ *}}apipe.commit_group{{$}}
// BACK-NEXT: scf.for
// BACK-NEXT: apipe.copy
// BACK-NEXT: {{^ *}}apipe.commit_group{{$}}
// BACK-NEXT: apipe.wait_group 1{{$}}
// BACK-NEXT: }
// BACK-NEXT: apipe.wait_group 0{{$}}
func.func @double_buffer_loop(%a: memref<64xf32>, %b: memref<2x4xf32, 3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.copy %a[%c0], %b[%c0, %c0], 4 {bypass_l1} : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.copy %a[%i], %b[%c1, %c0], 4 {bypass_l1} : memref<64xf32> to memref<2x4xf32, 3>
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

// -----

// A wait with fewer groups of the function than pending + 1 waits for a
// group of the caller (which no token here names): a placeholder, numGroups
// kept.

// CHECK-LABEL: func.func @wait_before_enough_groups
// CHECK: nvgpu.device_async_create_group
// CHECK-NEXT: %[[P:.*]] = builtin.unrealized_conversion_cast to !nvgpu.device.async.token
// CHECK-NEXT: nvgpu.device_async_wait %[[P]] {numGroups = 1 : i32}
// BACK-LABEL: func.func @wait_before_enough_groups
// BACK: {{^ *}}apipe.commit_group{{$}}
// BACK-NEXT: apipe.wait_group 1{{$}}
func.func @wait_before_enough_groups(%a: memref<64xf32>, %b: memref<8xf32, 3>) {
  %c0 = arith.constant 0 : index
  apipe.copy %a[%c0], %b[%c0], 4 : memref<64xf32> to memref<8xf32, 3>
  apipe.commit_group
  apipe.wait_group 1
  return
}
