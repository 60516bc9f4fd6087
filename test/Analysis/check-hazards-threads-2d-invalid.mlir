// apipe-check-hazards on races between threads that differ in a dimension
// other than the one the compared regions name: two distinct threads differ
// in at least one of x, y, z, and each dimension whose size may exceed 1 is
// a case of its own (a dimension whose size is known to be 1 cannot
// differ). Threads (x, 0) and (x, 1) copying into buf[x] write the same
// element, whatever y's role in the source. Each is an error at the copy
// (exact line:col) with thread ids that meet, and apipe-run's race checker
// reports the same copy. The correct twins are in
// check-hazards-threads-2d.mlir.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=main_dst_x --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-DST-X
// RUN: not apipe-run %s --entry=main_dst_y --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-DST-Y
// RUN: not apipe-run %s --entry=main_no_block_size --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-NO-BLOCK-SIZE
// RUN: not apipe-run %s --entry=main_x_only_launched_2d --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-X-ONLY
// RUN: not apipe-run %s --entry=main_dst_x_3d --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-DST-X-3D
// RUN: not apipe-run %s --entry=main_launch --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-LAUNCH

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Block 2x2: thread (x, y) copies A[4 * y + x] into buf[x].
    gpu.func @dst_x(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 1>} {
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %s0 = arith.muli %ty, %c4 : index
      %s1 = arith.addi %s0, %tx : index
      apipe.copy %A[%s1], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: copies of different threads in flight land in either order (this thread has x = 0, y = 0, the other x = 0, y = 1; a wait completes the waiting thread's copies only, so no gpu.barrier can order two threads' copies in flight) (write-after-write between threads)
// CHECK: :[[# @LINE - 2]]:7: note: the same async copy, issued by the other thread
// RUN-DST-X: // apipe-run: completion=lazy schedule=forward
// RUN-DST-X-NEXT: :[[# @LINE - 4]]:7: error: race (WAW) on shared memory byte 0 {{.*}}: thread (0,1,0) of block (0,0,0) writes it, and thread (0,0,0) writes it with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-DST-X: // apipe-run: completion=lazy schedule=reverse
// RUN-DST-X-NEXT: :[[# @LINE - 6]]:7: error: race (WAW)
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%s1] : memref<64xf32>
      gpu.return
    }
    // Block 2x2: thread (x, y) copies A[4 * y + x] into buf[y].
    gpu.func @dst_y(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 1>} {
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %s0 = arith.muli %ty, %c4 : index
      %s1 = arith.addi %s0, %tx : index
      apipe.copy %A[%s1], %buf[%ty], 1 : memref<64xf32> to memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: copies of different threads in flight land in either order (this thread has x = 0, y = 0, the other x = 1, y = 0; {{.*}}) (write-after-write between threads)
// CHECK: :[[# @LINE - 2]]:7: note: the same async copy, issued by the other thread
// RUN-DST-Y: // apipe-run: completion=lazy schedule=forward
// RUN-DST-Y-NEXT: :[[# @LINE - 4]]:7: error: race (WAW) on shared memory byte 0 {{.*}} ('apipe.copy' and 'apipe.copy')
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%ty] : memref<64xf32, 3>
      memref.store %x, %out[%s1] : memref<64xf32>
      gpu.return
    }
    // No known_block_size: the kernel reads its y id, so y may differ.
    gpu.func @no_block_size(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %s0 = arith.muli %ty, %c4 : index
      %s1 = arith.addi %s0, %tx : index
      apipe.copy %A[%s1], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: copies of different threads in flight land in either order (this thread has x = 0, y = 0, the other x = 0, y = 1; {{.*}}) (write-after-write between threads)
// CHECK: :[[# @LINE - 2]]:7: note: the same async copy, issued by the other thread
// RUN-NO-BLOCK-SIZE: // apipe-run: completion=lazy schedule=forward
// RUN-NO-BLOCK-SIZE-NEXT: :[[# @LINE - 4]]:7: error: race (WAW) on shared memory byte 0 {{.*}} ('apipe.copy' and 'apipe.copy')
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%s1] : memref<64xf32>
      gpu.return
    }
    // Reads only its x id, states no block size, and the module launches
    // it 2x2: threads (x, 0) and (x, 1) both copy A[x] into buf[x], and
    // each reads buf[x] after its own wait with no gpu.barrier, while the
    // other's copy may still be in flight. (The two copies write equal
    // values, which the checker does not report; apipe-run reports them
    // first.)
    gpu.func @x_only_launched_2d(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %tx = gpu.thread_id x
      apipe.copy %A[%tx], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
// RUN-X-ONLY: // apipe-run: completion=lazy schedule=forward
// RUN-X-ONLY-NEXT: :[[# @LINE - 2]]:7: error: race (WAW) on shared memory byte 0 {{.*}} ('apipe.copy' and 'apipe.copy')
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// CHECK: :[[# @LINE - 7]]:7: note: the async copy, issued by every thread: other threads' copies may not have landed
// CHECK: :[[# @LINE - 4]]:7: note: this wait completes the copy for the waiting thread only; no gpu.barrier follows it on some path to the access
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
    // Block 2x1x2: thread (x, 0, z) copies A[4 * z + x] into buf[x].
    gpu.func @dst_x_3d(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 2>} {
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %tz = gpu.thread_id z
      %s0 = arith.muli %tz, %c4 : index
      %s1 = arith.addi %s0, %tx : index
      apipe.copy %A[%s1], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: copies of different threads in flight land in either order (this thread has x = 0, z = 0, the other x = 0, z = 1; {{.*}}) (write-after-write between threads)
// CHECK: :[[# @LINE - 2]]:7: note: the same async copy, issued by the other thread
// RUN-DST-X-3D: // apipe-run: completion=lazy schedule=forward
// RUN-DST-X-3D-NEXT: :[[# @LINE - 4]]:7: error: race (WAW) on shared memory byte 0 {{.*}}: thread (0,0,1) of block (0,0,0) writes it, and thread (0,0,0) writes it {{.*}}
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%s1] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main_dst_x() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@dst_x blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_dst_y() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@dst_y blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_no_block_size() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@no_block_size blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_x_only_launched_2d() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@x_only_launched_2d blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_dst_x_3d() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@dst_x_3d blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c2) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  // A gpu.launch body of 2x2 threads: thread (x, y) copies A[4 * y + x]
  // into buf[x].
  func.func @main_launch() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1) workgroup(%buf : memref<64xf32, 3>) {
      %s0 = arith.muli %ty, %c4 : index
      %s1 = arith.addi %s0, %tx : index
      apipe.copy %A[%s1], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
// CHECK: :[[# @LINE - 1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: copies of different threads in flight land in either order (this thread has x = 0, y = 0, the other x = 0, y = 1; {{.*}}) (write-after-write between threads)
// CHECK: :[[# @LINE - 2]]:7: note: the same async copy, issued by the other thread
// RUN-LAUNCH: // apipe-run: completion=lazy schedule=forward
// RUN-LAUNCH-NEXT: :[[# @LINE - 4]]:7: error: race (WAW) on shared memory byte 0 {{.*}} ('apipe.copy' and 'apipe.copy')
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%s1] : memref<64xf32>
      gpu.terminator
    }
    return
  }
}
