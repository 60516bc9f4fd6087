// Token form and several queues go through apipe-tokens-to-counting and
// apipe-merge-queues inside apipe-translate's pipeline (apipe-to-nvgpu alone
// rejects this input with located errors, see Conversion/to-nvgpu-invalid.mlir).
//
// RUN: apipe-translate %s --sm=80 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: apipe-translate %s --sm=90 -o %t.90.ptx
// RUN: FileCheck %s < %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin

// Waiting on %t0 with %t1 committed after it: one group may stay pending.
// Then queue 1's group, committed last, is merged behind queue 0's: waiting
// on %t1 would leave the queue-1 group pending (wait_group 1), but the wait
// on %u right after it completes all (wait_group 0), and apipe-merge-queues
// keeps only the stronger of two adjacent waits.
// CHECK-LABEL: .entry tokens_two_queues(
// CHECK: cp.async.cg.shared.global
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.cg.shared.global
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 1;
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: ret;
gpu.module @kernels {
  gpu.func @tokens_two_queues(%src: memref<1024xf32>) workgroup(%buf: memref<3x512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%c0, %lane], 4 {bypass_l1} : memref<1024xf32> to memref<3x512xf32, 3>
    %t0 = apipe.commit_group
    apipe.copy %src[%lane], %buf[%c1, %lane], 4 {bypass_l1} : memref<1024xf32> to memref<3x512xf32, 3>
    %t1 = apipe.commit_group
    apipe.wait %t0
    apipe.copy %src[%lane], %buf[%c2, %lane], 4 queue 1 {bypass_l1} : memref<1024xf32> to memref<3x512xf32, 3>
    %u = apipe.commit_group queue 1
    apipe.wait %t1
    apipe.wait %u
    gpu.return
  }
}
