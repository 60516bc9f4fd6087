// apipe-check-hazards assumes that every access stays inside its buffer (an
// access out of bounds is undefined behaviour), in a kernel that states no
// block size: `apipe.copy %A[%tid], %buf[%tid]` into a `memref<32xf32, 3>`
// bounds the ids of the threads that run it by 32, and when every thread
// runs it on the same path, of every thread. A read of `buf[tid mod 32]`
// is then the thread's own element: no barrier is needed between the wait
// and the read, nor between the read and a later copy into `buf[tid]`.
// Before, both got a "missing barrier" error (the pipeliner's output with a
// barrier removed, in the differential test, when the kernel stated no
// block size).
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
//
// The silent kernels run race-free under apipe-run with 32 threads and print
// what make-sync prints: out[t] = A[t] = t.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=ALL
// SYNC-COUNT-2: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// SYNC-NOT: {{.}}
// ALL-COUNT-12: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]

module attributes {gpu.container_module} {
  gpu.module @k {
    // Silent: each thread reads the element it copied.
    gpu.func @own(%A: memref<4096xf32>, %out: memref<32xf32>) workgroup(%buf: memref<32xf32, 3>) kernel {
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %at = arith.remui %tid, %c32 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%at] : memref<32xf32, 3>
      memref.store %x, %out[%tid] : memref<32xf32>
      gpu.return
    }
    // Silent: the read of its own element comes before its own copy.
    gpu.func @read_then_copy(%A: memref<4096xf32>, %out: memref<32xf32>) workgroup(%buf: memref<32xf32, 3>) kernel {
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %at = arith.remui %tid, %c32 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%at] : memref<32xf32, 3>
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      memref.store %x, %out[%tid] : memref<32xf32>
      gpu.return
    }
    // Racy twin: a buffer of 64 allows thread 32, which reads element 0,
    // copied by thread 0.
    gpu.func @wider(%A: memref<4096xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %at = arith.remui %tid, %c32 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      // CHECK: check-hazards-in-bounds.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
      %x = memref.load %buf[%at] : memref<64xf32, 3>
      memref.store %x, %out[%tid] : memref<64xf32>
      gpu.return
    }
    // Racy twin: the copy runs in threads 0-15 only, which bounds no other
    // thread: thread 32 reads element 0, copied by thread 0.
    gpu.func @divergent_copy(%A: memref<4096xf32>, %out: memref<64xf32>) workgroup(%buf: memref<32xf32, 3>) kernel {
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %at = arith.remui %tid, %c32 : index
      %low = arith.cmpi ult, %tid, %c16 : index
      scf.if %low {
        apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      // CHECK: check-hazards-in-bounds.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
      %x = memref.load %buf[%at] : memref<32xf32, 3>
      memref.store %x, %out[%tid] : memref<64xf32>
      gpu.return
    }
    // Racy twins whose regions run past the buffer where the op touches
    // nothing: lanes 3 of `vector.transfer_read` at 29 (padded) and of a
    // `vector.maskedload` (masked off) are element 32 of a 32-element
    // buffer, so their regions are not taken to be in bounds (they once
    // hid these races): every thread reads elements 29-31, which threads
    // 29-31 copied.
    gpu.func @transfer_read_padded(%A: memref<4096xf32>, %out: memref<64xf32>) workgroup(%buf: memref<32xf32, 3>) kernel {
      %c29 = arith.constant 29 : index
      %pad = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      // CHECK: check-hazards-in-bounds.mlir:[[# @LINE + 1]]:12: error: 'vector.transfer_read' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
      %v = vector.transfer_read %buf[%c29], %pad : memref<32xf32, 3>, vector<4xf32>
      %x = vector.extract %v[0] : f32 from vector<4xf32>
      memref.store %x, %out[%tid] : memref<64xf32>
      gpu.return
    }
    gpu.func @masked_load(%A: memref<4096xf32>, %out: memref<64xf32>) workgroup(%buf: memref<32xf32, 3>) kernel {
      %c29 = arith.constant 29 : index
      %pad = arith.constant dense<0.0> : vector<4xf32>
      %m = arith.constant dense<[true, true, true, false]> : vector<4xi1>
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      // CHECK: check-hazards-in-bounds.mlir:[[# @LINE + 1]]:12: error: 'vector.maskedload' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
      %v = vector.maskedload %buf[%c29], %m, %pad : memref<32xf32, 3>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      %x = vector.extract %v[0] : f32 from vector<4xf32>
      memref.store %x, %out[%tid] : memref<64xf32>
      gpu.return
    }
    // Racy twin: a copy with `src_elements` = 2 reads A[4094..4095] only,
    // but its region is 4 elements (up to 4097): not taken to be in
    // bounds. Thread 1 stores into A[4095] while thread 0's copy reads it.
    gpu.func @src_elements_at_the_end(%A: memref<4096xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4094 = arith.constant 4094 : index
      %c4095 = arith.constant 4095 : index
      %f = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %z = arith.cmpi eq, %tid, %c0 : index
      scf.if %z {
        apipe.copy %A[%c4094], %buf[%c0], 4, %c2 : memref<4096xf32> to memref<64xf32, 3>
      }
      apipe.commit_group
      %o = arith.cmpi eq, %tid, %c1 : index
      scf.if %o {
        // CHECK: check-hazards-in-bounds.mlir:[[# @LINE + 1]]:9: error: 'memref.store' op writes bytes that another thread's async copy may still be reading (its source) (this thread has x = 1, the other x = 0; only the wait of the thread that issued it, then a gpu.barrier, orders the two) (write-after-read between threads)
        memref.store %f, %A[%c4095] : memref<4096xf32>
      }
      apipe.wait_group 0
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c4096 = arith.constant 4096 : index
    %A = memref.alloc() : memref<4096xf32>
    scf.for %i = %c0 to %c4096 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4096xf32>
    }
    %out = memref.alloc() : memref<32xf32>
    gpu.launch_func @k::@own blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %out : memref<32xf32>)
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.launch_func @k::@read_then_copy blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %out : memref<32xf32>)
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<32xf32>
    memref.dealloc %A : memref<4096xf32>
    return
  }
}
