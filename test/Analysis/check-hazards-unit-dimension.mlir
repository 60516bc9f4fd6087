// A thread id along a dimension the kernel states to be of size 1
// (`known_block_size`) is 0 in every thread: a branch on it sends every
// thread the same way (trial 90, in the pipeliner's divergence analysis;
// the checker follows the same rule). Along a dimension of size 2 the
// threads may split, and another thread's copy races with the read.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: check-hazards-unit-dimension.mlir:38:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
gpu.module @k {
  gpu.func @y_of_size_one(%A: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %ty = gpu.thread_id y
    %zero = arith.cmpi eq, %ty, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @y_of_size_two(%A: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 2, 1>} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %ty = gpu.thread_id y
    %zero = arith.cmpi eq, %ty, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
}
