// apipe-check-hazards takes the in-bounds rule of an access that every
// thread of a kernel runs (directly in its body) as a bound on the thread
// ids for every comparison between threads in the kernel: the copy into
// buf[tid] of a memref<16xf32, 3> means no thread has an id of 16 or more,
// so the copies into keep[tid] and keep[tid + 16], both in flight, never
// meet between two threads. Before, only the two accesses compared gave
// bounds, and a thread 16 was assumed (a false write-after-write between
// threads on the pipeliner's 3-stage output of such a kernel; the input,
// which waits every iteration, passed). When that copy runs under a
// branch on the thread id (@bound_not_in_every_thread) it bounds nothing,
// and the copies may meet: an error.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// EMU-COUNT-4: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  32]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bounded(%A: memref<64xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%buf: memref<16xf32, 3>, %keep: memref<64xf32, 3>) kernel {
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<64xf32> to memref<16xf32, 3>
      apipe.copy %A[%tid], %keep[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      %t16 = arith.addi %tid, %c16 : index
      apipe.copy %A[%t16], %keep[%t16], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %keep[%tid] : memref<64xf32, 3>
      %y = memref.load %keep[%t16] : memref<64xf32, 3>
      memref.store %x, %out[%tid] : memref<32xf32>
      memref.store %y, %out[%t16] : memref<32xf32>
      gpu.return
    }

    gpu.func @bound_not_in_every_thread(%A: memref<64xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%buf: memref<16xf32, 3>, %keep: memref<64xf32, 3>) kernel {
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %low = arith.cmpi ult, %tid, %c2 : index
      scf.if %low {
        apipe.copy %A[%tid], %buf[%tid], 1 : memref<64xf32> to memref<16xf32, 3>
      }
      apipe.copy %A[%tid], %keep[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      %t16 = arith.addi %tid, %c16 : index
// CHECK: :[[# @LINE + 1]]:7: error: 'apipe.copy' op writes bytes that another thread's async copy may still be writing: copies of different threads in flight land in either order (this thread has x = 0, the other x = 16; only the wait of the thread that issued it, then a gpu.barrier, orders the two) (write-after-write between threads)
      apipe.copy %A[%t16], %keep[%t16], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %f1 = arith.constant 1.0 : f32
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<32xf32>
    scf.for %j = %c0 to %c64 step %c1 {
      %ji = arith.index_cast %j : index to i64
      %jf = arith.sitofp %ji : i64 to f32
      %v = arith.addf %jf, %f1 : f32
      memref.store %v, %A[%j] : memref<64xf32>
    }
    gpu.launch_func @kernels::@bounded blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<64xf32>, %out : memref<32xf32>)
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
