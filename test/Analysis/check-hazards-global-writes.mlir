// A thread's plain store into global memory that another thread's
// apipe.copy then reads as its source, with no gpu.barrier between: the
// copy may read before or after the store (a race between threads; the
// checker was silent, as it kept only workgroup writes; trial 8, finding
// 8). apipe-run's race checker reports the same pair. With a barrier after
// the store (@ordered) nothing is reported and the runs agree.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=main_racy 2>&1 | FileCheck %s --check-prefix=RUN-RACY
// RUN: apipe-run %s --entry=main_ordered --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-ORDERED --implicit-check-not=error:
// RUN-RACY: error: race (RAW) on global memory
// RUN-ORDERED-COUNT-4: [0,  1,  2,  3,  4,  99,  6,  7]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @racy(%A: memref<64xf32>, %out: memref<8xf32> {llvm.noalias}) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c5 = arith.constant 5 : index
      %v = arith.constant 99.0 : f32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %v, %A[%c5] : memref<64xf32>
      }
// CHECK: :[[# @LINE + 1]]:7: error: 'apipe.copy' op reads (as its source) bytes that another thread wrote, with no gpu.barrier between that write and this copy (this thread has x = 5, the other x = 0
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<64xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }
    gpu.func @ordered(%A: memref<64xf32>, %out: memref<8xf32> {llvm.noalias}) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c5 = arith.constant 5 : index
      %v = arith.constant 99.0 : f32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %v, %A[%c5] : memref<64xf32>
      }
      gpu.barrier
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<64xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
      memref.store %x, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }

  func.func @fill(%A: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %j = %c0 to %c64 step %c1 {
      %ji = arith.index_cast %j : index to i64
      %jf = arith.sitofp %ji : i64 to f32
      memref.store %jf, %A[%j] : memref<64xf32>
    }
    return
  }
  func.func @main_racy() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<8xf32>
    call @fill(%A) : (memref<64xf32>) -> ()
    gpu.launch_func @kernels::@racy blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xf32>, %out : memref<8xf32>)
    return
  }
  func.func @main_ordered() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<8xf32>
    call @fill(%A) : (memref<64xf32>) -> ()
    gpu.launch_func @kernels::@ordered blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<64xf32>, %out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
