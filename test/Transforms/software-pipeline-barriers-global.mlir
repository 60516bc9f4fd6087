// The user's gpu.barriers of a loop that writes no global memory are
// replaced by the pipeliner's own placement; the order they gave the loop's
// global reads against another thread's global writes after the loop is
// kept: all of global memory counts as one buffer, so the epilogue ends
// with a barrier between the last read of %G and the store to %G after the
// loop (the barrier in the kernel loop covers the other iterations).
// RUN: apipe-opt %s --apipe-software-pipeline 2>/dev/null | FileCheck %s
// CHECK-LABEL: gpu.func @global_after
// CHECK: scf.for
// CHECK-NEXT: apipe.wait_group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %arg1[%arg3] : memref<256xf32>
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %arg1[%c7] : memref<256xf32>
// CHECK-NOT: gpu.barrier
// CHECK: apipe.commit_group queue 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %arg1[%thread_id_x] : memref<256xf32>
// CHECK-NEXT: gpu.return
gpu.module @k {
  gpu.func @global_after(%A: memref<4096xf32>, %G: memref<256xf32>)
      workgroup(%buf: memref<512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %r = scf.for %t = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
      %tile = arith.muli %t, %c512 : index
      %off = arith.addi %tile, %lane : index
      apipe.copy %A[%off], %buf[%lane], 4 : memref<4096xf32> to memref<512xf32, 3>
      gpu.barrier
      %x = memref.load %buf[%c0] : memref<512xf32, 3>
      %g = memref.load %G[%t] : memref<256xf32>
      %s = arith.addf %x, %g : f32
      %n = arith.addf %acc, %s : f32
      gpu.barrier
      scf.yield %n : f32
    } {apipe.num_stages = 2 : i64}
    memref.store %r, %G[%tid] : memref<256xf32>
    gpu.return
  }
}
