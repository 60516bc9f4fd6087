// The shared-memory budget counts the workgroup memref.globals a kernel
// reads, directly or in a function it calls, each once; a global only
// another kernel reads does not count (trial 27: globals were left out,
// and a kernel pipelined under the budget was refused by ptxas).
//
// @kernel: its tile (8192 bytes per version), @direct (8192 bytes, read
// twice, counted once) and @through_call (16384 bytes, read by @helper,
// which @kernel calls through @middle). @other (32768 bytes) belongs to
// @other_kernel. 4 stages need 4 x 8192 + 24576 = 57344 bytes, over 48
// KiB; 3 stages need 49152, which fits.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4" 2>&1 >/dev/null | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4" 2>/dev/null | FileCheck %s --check-prefix=IR
// CHECK: software-pipeline-budget-globals.mlir:[[#LOOP:]]:5: remark: 4 stages need 57344 bytes of shared memory, over the budget of 49152 bytes (max-shared-bytes): trying 3 stages
// CHECK: software-pipeline-budget-globals.mlir:[[#LOOP]]:5: remark: scheduled 3 stages (num_stages = 3): {{.*}}; shared memory: 49152 of 49152 bytes
// CHECK-NOT: remark
// IR: gpu.func @kernel({{.*}}) workgroup(%{{.*}} : memref<3x2048xf32, 3>) kernel
gpu.module @kernels {
  memref.global "private" @direct : memref<2048xf32, 3>
  memref.global "private" @through_call : memref<4096xf32, 3>
  memref.global "private" @other : memref<8192xf32, 3>
  func.func @helper(%v: f32) {
    %c0 = arith.constant 0 : index
    %g = memref.get_global @through_call : memref<4096xf32, 3>
    memref.store %v, %g[%c0] : memref<4096xf32, 3>
    return
  }
  func.func @middle(%v: f32) {
    func.call @helper(%v) : (f32) -> ()
    return
  }
  gpu.func @kernel(%A: memref<65536xf32> {llvm.noalias}, %out: memref<65536xf32> {llvm.noalias})
      workgroup(%tile: memref<2048xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c2048 = arith.constant 2048 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %t4 = arith.muli %tid, %c4 : index
    %d1 = memref.get_global @direct : memref<2048xf32, 3>
    memref.store %zero, %d1[%tid] : memref<2048xf32, 3>
    %d2 = memref.get_global @direct : memref<2048xf32, 3>
    memref.store %zero, %d2[%t4] : memref<2048xf32, 3>
    func.call @middle(%zero) : (f32) -> ()
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c2048 : index
      %src = arith.addi %base, %t4 : index
      apipe.copy %A[%src], %tile[%t4], 4 : memref<65536xf32> to memref<2048xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %tile[%t4] : memref<2048xf32, 3>
      memref.store %x, %out[%src] : memref<65536xf32>
    }
    gpu.return
  }
  gpu.func @other_kernel(%out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %g = memref.get_global @other : memref<8192xf32, 3>
    %v = memref.load %g[%c0] : memref<8192xf32, 3>
    memref.store %v, %out[%c0] : memref<4xf32>
    gpu.return
  }
}
