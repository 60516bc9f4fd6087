// The budget across the loops of a kernel, and for annotated schedules.
//
// @two: two scheduled loops share the kernel's budget. The first takes 3
// versions of its 8 KiB tile (24 KiB, next to the second loop's 10 KiB tile:
// 34816 bytes); the second would then need 24 + 30 KiB with 3 versions and
// gets 2 (24 + 20 KiB = 45056 bytes).
// @big: an annotated schedule (stages 0 and 3: 4 versions of 16 KiB) over
// the budget is refused with a located error.
// RUN: not apipe-opt %s --split-input-file --apipe-software-pipeline="num-stages=3" 2>&1 >/dev/null | FileCheck %s
// CHECK: software-pipeline-budget-kernels.mlir:[[#@LINE+15]]:5: remark: scheduled 3 stages (num_stages = 3): {{.*}}; versions: memref<2048xf32, 3> x 3 (24576 bytes); shared memory: 34816 of 49152 bytes
// CHECK: software-pipeline-budget-kernels.mlir:[[#@LINE+21]]:5: remark: 3 stages need 55296 bytes of shared memory, over the budget of 49152 bytes (max-shared-bytes): trying 2 stages
// CHECK: software-pipeline-budget-kernels.mlir:[[#@LINE+20]]:5: remark: scheduled 2 stages (num_stages = 2): {{.*}}; versions: memref<2560xf32, 3> x 2 (20480 bytes); shared memory: 45056 of 49152 bytes
// CHECK: software-pipeline-budget-kernels.mlir:[[#@LINE+40]]:5: error: the annotated schedule needs 65536 bytes of shared memory, over the budget of 49152 bytes (max-shared-bytes); use fewer stages
// -----
gpu.module @two_loops {
  gpu.func @two(%A: memref<65536xf32> {llvm.noalias}, %out: memref<65536xf32> {llvm.noalias})
      workgroup(%t1: memref<2048xf32, 3>, %t2: memref<2560xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c2048 = arith.constant 2048 : index
    %tid = gpu.thread_id x
    %t4 = arith.muli %tid, %c4 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c2048 : index
      %src = arith.addi %base, %t4 : index
      apipe.copy %A[%src], %t1[%t4], 4 : memref<65536xf32> to memref<2048xf32, 3>
      %x = memref.load %t1[%t4] : memref<2048xf32, 3>
      memref.store %x, %out[%src] : memref<65536xf32>
    }
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c2048 : index
      %src = arith.addi %base, %t4 : index
      apipe.copy %A[%src], %t2[%t4], 4 : memref<65536xf32> to memref<2560xf32, 3>
      %x = memref.load %t2[%t4] : memref<2560xf32, 3>
      memref.store %x, %out[%src] : memref<65536xf32>
    }
    gpu.return
  }
}
// -----
gpu.module @annotated {
  gpu.func @big(%A: memref<65536xf32> {llvm.noalias}, %out: memref<65536xf32> {llvm.noalias})
      workgroup(%tile: memref<4096xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c4096 = arith.constant 4096 : index
    %tid = gpu.thread_id x
    %t4 = arith.muli %tid, %c4 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c4096 {apipe.stage = 0 : i64} : index
      %src = arith.addi %base, %t4 {apipe.stage = 0 : i64} : index
      apipe.copy %A[%src], %tile[%t4], 4 {apipe.stage = 0 : i64} : memref<65536xf32> to memref<4096xf32, 3>
      %x = memref.load %tile[%t4] {apipe.stage = 3 : i64} : memref<4096xf32, 3>
      memref.store %x, %out[%src] {apipe.stage = 3 : i64} : memref<65536xf32>
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}
