// The user's gpu.barriers stay when the loop writes global memory (they may
// order those writes); the pipeliner then puts its wait before the user's
// barrier that leads up to the first read of the tile (`wait; barrier;
// read`, from synchronous `copy; barrier; read`), so that barrier also
// orders the other threads' copies before the read and none is added. The
// remark counts every barrier of a kernel iteration, the user's included.
// (test/Emulation/gpu-budget-run.mlir runs this shape under apipe-run
// against apipe-make-sync.)
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" | apipe-opt --apipe-check-hazards -o /dev/null

// REMARK: software-pipeline-user-barriers.mlir:[[#@LINE+30]]:5: remark: scheduled 2 stages (num_stages = 2): stage 0: 3 ops, stage 1: 4 ops; versions: memref<512xf32, 3> x 2 (4096 bytes); shared memory: 4096 of 49152 bytes; 2 gpu.barrier per iteration

// CHECK-LABEL: gpu.func @rotate
// CHECK: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.for
// CHECK-NEXT: apipe.wait_group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.load
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: apipe.copy
// CHECK-NEXT: apipe.commit_group queue 0
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0
// CHECK-NEXT: gpu.barrier
gpu.module @kernels {
  gpu.func @rotate(%src: memref<8192xf32>, %dst: memref<8192xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c512 = arith.constant 512 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %next = arith.addi %lane, %c4 : index
    %neighbour = arith.remui %next, %c512 : index
    scf.for %t = %c0 to %c16 step %c1 {
      %tile = arith.muli %t, %c512 : index
      %off = arith.addi %tile, %lane : index
      apipe.copy %src[%off], %buf[%lane], 4 : memref<8192xf32> to memref<512xf32, 3>
      gpu.barrier
      %x = memref.load %buf[%neighbour] : memref<512xf32, 3>
      memref.store %x, %dst[%off] : memref<8192xf32>
      gpu.barrier
    }
    gpu.return
  }
}
