// apipe-run gives every workgroup and private attribution of a kernel its
// bytes by position in the attribution lists, whatever memory space its type
// names; an attribution without a static shape is a located error before the
// program runs. A fuzz find (campaign seed 1206, run:eager): a workgroup
// attribution mutated to `memref<?xf32, 4>` got no bytes and the kernel
// segfaulted.
// RUN: not apipe-run %s 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: gpu-attribution-shapes.mlir:[[# @LINE + 10]]:5: error: the attribution memref<?xf32, 4> needs a static shape of whole bytes to be emulated
// DYNAMIC-NOT: error
// A static attribution in the workgroup list with memory space 4 is a
// workgroup buffer like any other: each thread copies its element and reads
// its neighbour's after wait + barrier.
// RUN: sed -e 's/memref<?xf32, 4>/memref<4xf32, 4>/g' %s | apipe-run - --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=STATIC
// STATIC-COUNT-4: [1,  2,  3,  0]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rotate(%A: memref<4xf32>, %out: memref<4xf32>) workgroup(%tile : memref<?xf32, 4>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %t = gpu.thread_id x
      apipe.copy %A[%t], %tile[%t], 1 : memref<4xf32> to memref<?xf32, 4>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %n = arith.addi %t, %c1 : index
      %m = arith.remui %n, %c4 : index
      %x = memref.load %tile[%m] : memref<?xf32, 4>
      memref.store %x, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<4xf32>
    }
    %out = memref.alloc() : memref<4xf32>
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<4xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
