// In a kernel, an op whose only memory effect is on no value (`gpu.printf`
// writes the host's print buffer) is no access of the buffers the threads
// share: every thread's printf between a store and a read of its own
// element is silent (it raced with everything once accesses of all memory
// became accesses of every buffer in kernels). A pointer of unknown origin
// is still every buffer: the same kernel with a store through a loaded
// pointer is reported.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:

gpu.module @kernels {
  gpu.func @print_between(%out: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %tid = gpu.thread_id x
    %one = arith.constant 1.0 : f32
    memref.store %one, %buf[%tid] : memref<8xf32, 3>
    gpu.printf "thread %f\n", %one : f32
    %x = memref.load %buf[%tid] : memref<8xf32, 3>
    memref.store %x, %out[%tid] : memref<8xf32>
    gpu.return
  }

  gpu.func @loaded_pointer(%out: memref<8xf32>, %table: memref<1xi64>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %one = arith.constant 1.0 : f32
    memref.store %one, %buf[%tid] : memref<8xf32, 3>
    %address = memref.load %table[%c0] : memref<1xi64>
    %p = llvm.inttoptr %address : i64 to !llvm.ptr
    // CHECK: check-hazards-effects-no-value-threads.mlir:[[# @LINE + 1]]:5: error: 'llvm.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
    llvm.store %one, %p : f32, !llvm.ptr
    gpu.return
  }
}
