// apipe-check-hazards on races between the threads of a block where one
// side is an async copy: the same apipe.copy run by every thread into bytes
// that do not depend on the thread id alone (a uniform index, tid floordiv 2,
// tid mod 2), in straight-line code, in loops, in token and mbarrier form
// and in a gpu.launch body; two different copies of different threads into
// the same bytes; another thread's plain write or read of a copy's
// destination while it is in flight, or before it with no gpu.barrier
// since; another thread's write of a copy's shared source. A wait completes
// only the waiting thread's copies, so no gpu.barrier can order two threads'
// copies in flight. Each is an error at the access (exact line:col) saying
// that the two accesses are by different threads, with the thread ids, and
// a note at the other op. Every kernel is also run by `apipe-run`, whose
// race checker reports the same pair of ops. The correct twins are in
// check-hazards-cross-thread-copies.mlir.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// Each kernel under apipe-run's race checker (lazy and eager completion, two
// thread orders): a race between the same two ops.
// RUN: not apipe-run %s --entry=main_uniform --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-UNIFORM
// RUN: not apipe-run %s --entry=main_floordiv --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-FLOORDIV
// RUN: not apipe-run %s --entry=main_modulo --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-MODULO
// RUN: not apipe-run %s --entry=main_two_copies --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-TWO-COPIES
// RUN: not apipe-run %s --entry=main_store_in_flight --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-STORE-IN-FLIGHT
// RUN: not apipe-run %s --entry=main_store_then_copy --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-STORE-THEN-COPY
// RUN: not apipe-run %s --entry=main_read_in_flight --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-READ-IN-FLIGHT
// RUN: not apipe-run %s --entry=main_shared_source_written --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-SHARED-SOURCE-WRITTEN
// RUN: not apipe-run %s --entry=main_shared_source_stored_before --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-SHARED-SOURCE-STORED-BEFORE
// RUN: not apipe-run %s --entry=main_uniform_in_loop --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-UNIFORM-IN-LOOP
// RUN: not apipe-run %s --entry=main_versions_in_loop --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-VERSIONS-IN-LOOP
// RUN: not apipe-run %s --entry=main_token_form --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-TOKEN-FORM
// RUN: not apipe-run %s --entry=main_mbarrier_form --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-MBARRIER-FORM
// RUN: not apipe-run %s --entry=main_launch --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=RUN-LAUNCH

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Every thread copies its element of A into buf[0].
    gpu.func @uniform(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      apipe.copy %A[%tid], %buf[%c0], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: copies of different threads in flight land in either order (any two threads; a wait completes the waiting thread's copies only, so no gpu.barrier can order two threads' copies in flight) (write-after-write between threads)
// CHECK: :[[@LINE-2]]:7: note: the same async copy, issued by the other thread
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%c0] : memref<16xf32, 3>
// RUN-UNIFORM: // apipe-run: completion=lazy schedule=forward
// RUN-UNIFORM-NEXT: :[[@LINE-8]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-UNIFORM-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // Threads 2k and 2k + 1 copy into buf[k].
    gpu.func @floordiv(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %h = arith.divui %tid, %c2 : index
      apipe.copy %A[%tid], %buf[%h], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: copies of different threads in flight land in either order (this thread has x = 0, the other x = 1; {{.*}}) (write-after-write between threads)
// CHECK: :[[@LINE-2]]:7: note: the same async copy, issued by the other thread
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%h] : memref<16xf32, 3>
// RUN-FLOORDIV: // apipe-run: completion=lazy schedule=forward
// RUN-FLOORDIV-NEXT: :[[@LINE-8]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-FLOORDIV-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // Threads k and k + 2 copy into buf[k mod 2].
    gpu.func @modulo(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %m = arith.remui %tid, %c2 : index
      apipe.copy %A[%tid], %buf[%m], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: {{.*}} (this thread has x = 0, the other x = 2; {{.*}}) (write-after-write between threads)
// CHECK: :[[@LINE-2]]:7: note: the same async copy, issued by the other thread
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%m] : memref<16xf32, 3>
// RUN-MODULO: // apipe-run: completion=lazy schedule=forward
// RUN-MODULO-NEXT: :[[@LINE-8]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-MODULO-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // Each thread copies into its own element, then into its neighbour's:
    // the second copy meets the neighbour's first, both in flight.
    gpu.func @two_copies(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<16xf32> to memref<16xf32, 3>
      apipe.copy %A[%t1], %buf[%nb], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that another thread's async copy may still be writing: copies of different threads in flight land in either order (this thread has x = 0, the other x = 1; only the wait of the thread that issued it, then a gpu.barrier, orders the two) (write-after-write between threads)
// CHECK: :[[@LINE-3]]:7: note: the other thread's async copy still in flight; its group is not committed yet
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
// RUN-TWO-COPIES: // apipe-run: completion=lazy schedule=forward
// RUN-TWO-COPIES-NEXT: :[[@LINE-9]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-TWO-COPIES-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // A store into the neighbour's element while the neighbour's copy into it
    // is in flight.
    gpu.func @store_in_flight(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      memref.store %f7, %buf[%nb] : memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'memref.store' op writes bytes that another thread's async copy may still be writing: the copy may land after this write and erase it (this thread has x = 0, the other x = 1; {{.*}}) (write-after-write between threads)
// CHECK: :[[@LINE-4]]:7: note: the other thread's async copy still in flight; 0 newer group(s) committed on queue 0 since its group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
// RUN-STORE-IN-FLIGHT: // apipe-run: completion=lazy schedule=forward
// RUN-STORE-IN-FLIGHT-NEXT: :[[@LINE-9]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'memref.store')
// RUN-STORE-IN-FLIGHT-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // A store into the own element, then a copy into the neighbour's, with no
    // barrier between.
    gpu.func @store_then_copy(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      memref.store %f7, %buf[%tid] : memref<16xf32, 3>
      apipe.copy %A[%tid], %buf[%nb], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that another thread wrote, with no gpu.barrier between that write and this copy (this thread has x = 0, the other x = 1) (write-after-write between threads)
// CHECK: :[[@LINE-3]]:7: note: the other thread's write: no gpu.barrier follows it before the copy on some path
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
// RUN-STORE-THEN-COPY: // apipe-run: completion=lazy schedule=forward
// RUN-STORE-THEN-COPY-NEXT: :[[@LINE-9]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('memref.store' and 'apipe.copy')
// RUN-STORE-THEN-COPY-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // A read of the neighbour's element while the neighbour's copy into it is
    // in flight.
    gpu.func @read_in_flight(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      %x = memref.load %buf[%nb] : memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing (this thread has x = 0, the other x = 1; {{.*}}) (read-after-write between threads)
// CHECK: :[[@LINE-4]]:7: note: the other thread's async copy still in flight
      apipe.wait_group 0
      gpu.barrier
// RUN-READ-IN-FLIGHT: // apipe-run: completion=lazy schedule=forward
// RUN-READ-IN-FLIGHT-NEXT: :[[@LINE-8]]:7: error: race (WAR) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'memref.load')
// RUN-READ-IN-FLIGHT-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // A copy from shared buf to buf2, and a store into the neighbour's source
    // element while the neighbour's copy reads it.
    gpu.func @shared_source_written(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      memref.store %f7, %buf[%tid] : memref<16xf32, 3>
      gpu.barrier
      apipe.copy %buf[%tid], %buf2[%tid], 1 : memref<16xf32, 3> to memref<16xf32, 3>
      apipe.commit_group
      memref.store %f7, %buf[%nb] : memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'memref.store' op writes bytes that another thread's async copy may still be reading (its source) (this thread has x = 0, the other x = 1; {{.*}}) (write-after-read between threads)
// CHECK: :[[@LINE-4]]:7: note: the other thread's async copy still in flight
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf2[%tid] : memref<16xf32, 3>
// RUN-SHARED-SOURCE-WRITTEN: // apipe-run: completion=lazy schedule=forward
// RUN-SHARED-SOURCE-WRITTEN-NEXT: :[[@LINE-9]]:7: error: race (RAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'memref.store')
// RUN-SHARED-SOURCE-WRITTEN-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // A store into the neighbour's element, then a copy from the own element
    // of shared buf, with no barrier between.
    gpu.func @shared_source_stored_before(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      memref.store %f7, %buf[%nb] : memref<16xf32, 3>
      apipe.copy %buf[%tid], %buf2[%tid], 1 : memref<16xf32, 3> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op reads (as its source) bytes that another thread wrote, with no gpu.barrier between that write and this copy (this thread has x = 0, the other x = 3) (read-after-write between threads)
// CHECK: :[[@LINE-3]]:7: note: the other thread's write: no gpu.barrier follows it before the copy on some path
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf2[%tid] : memref<16xf32, 3>
// RUN-SHARED-SOURCE-STORED-BEFORE: // apipe-run: completion=lazy schedule=forward
// RUN-SHARED-SOURCE-STORED-BEFORE-NEXT: :[[@LINE-8]]:7: error: race (RAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'memref.store')
// RUN-SHARED-SOURCE-STORED-BEFORE-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // In every iteration every thread copies into buf[0]; the wait and the
    // barrier order the iterations, not the threads of one iteration.
    gpu.func @uniform_in_loop(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %x = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %f7) -> (f32) {
        %i4 = arith.muli %i, %c4 : index
        %at = arith.addi %i4, %tid : index
        apipe.copy %A[%at], %buf[%c0], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:9: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: {{.*}} (any two threads; {{.*}}) (write-after-write between threads)
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %v = memref.load %buf[%c0] : memref<16xf32, 3>
        %s = arith.addf %acc, %v : f32
        gpu.barrier
        scf.yield %s : f32
      }
// RUN-UNIFORM-IN-LOOP: // apipe-run: completion=lazy schedule=forward
// RUN-UNIFORM-IN-LOOP-NEXT: :[[@LINE-11]]:9: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-UNIFORM-IN-LOOP-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // Two versions of a double buffer, each element shared by threads k and
    // k + 2 (index (i mod 2) * 4 + tid mod 2).
    gpu.func @versions_in_loop(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %m = arith.remui %tid, %c2 : index
      %x = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %f7) -> (f32) {
        %v2 = arith.remui %i, %c2 : index
        %v4 = arith.muli %v2, %c4 : index
        %slot = arith.addi %v4, %m : index
        %i4 = arith.muli %i, %c4 : index
        %at = arith.addi %i4, %tid : index
        apipe.copy %A[%at], %buf[%slot], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:9: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: {{.*}} (this thread has x = 0, the other x = 2; {{.*}}) (write-after-write between threads)
        apipe.commit_group
        apipe.wait_group 0
        gpu.barrier
        %v = memref.load %buf[%slot] : memref<16xf32, 3>
        %s = arith.addf %acc, %v : f32
        scf.yield %s : f32
      }
// RUN-VERSIONS-IN-LOOP: // apipe-run: completion=lazy schedule=forward
// RUN-VERSIONS-IN-LOOP-NEXT: :[[@LINE-10]]:9: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-VERSIONS-IN-LOOP-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // Token form: every thread copies into buf[0] and waits on its token.
    gpu.func @token_form(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %buf2: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      apipe.copy %A[%tid], %buf[%c0], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: {{.*}} (write-after-write between threads)
      %t = apipe.commit_group
      apipe.wait %t
      gpu.barrier
      %x = memref.load %buf[%c0] : memref<16xf32, 3>
// RUN-TOKEN-FORM: // apipe-run: completion=lazy schedule=forward
// RUN-TOKEN-FORM-NEXT: :[[@LINE-7]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-TOKEN-FORM-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
    // mbarrier form: every thread copies into buf[tid floordiv 2], arrives and
    // waits on the ring (which completes every thread's copies, but only
    // once all of them arrived: the copies are still in flight together).
    gpu.func @mbarrier_form(%A: memref<16xf32>, %out: memref<4xf32>) workgroup(%buf: memref<16xf32, 3>, %ring: memref<2xi64, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %f7 = arith.constant 7.0 : f32
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %false = arith.constant false
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c4 : memref<2xi64, 3>
      }
      gpu.barrier
      %h = arith.divui %tid, %c2 : index
      apipe.copy %A[%tid], %buf[%h], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: {{.*}} (this thread has x = 0, the other x = 1; {{.*}}) (write-after-write between threads)
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %x = memref.load %buf[%h] : memref<16xf32, 3>
// RUN-MBARRIER-FORM: // apipe-run: completion=lazy schedule=forward
// RUN-MBARRIER-FORM-NEXT: :[[@LINE-6]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-MBARRIER-FORM-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @inputs() -> (memref<16xf32>, memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<16xf32>
    %out = memref.alloc() : memref<4xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<16xf32>
    }
    linalg.fill ins(%z : f32) outs(%out : memref<4xf32>)
    return %A, %out : memref<16xf32>, memref<4xf32>
  }

  func.func @main_uniform() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@uniform blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_floordiv() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@floordiv blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_modulo() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@modulo blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_two_copies() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@two_copies blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_store_in_flight() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@store_in_flight blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_store_then_copy() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@store_then_copy blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_read_in_flight() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@read_in_flight blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_shared_source_written() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@shared_source_written blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_shared_source_stored_before() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@shared_source_stored_before blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_uniform_in_loop() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@uniform_in_loop blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_versions_in_loop() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@versions_in_loop blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_token_form() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@token_form blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main_mbarrier_form() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@mbarrier_form blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xf32>, %out : memref<4xf32>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  // gpu.launch with constant sizes: every thread copies into buf[0].
  func.func @main_launch() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<16xf32>, memref<4xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) workgroup(%buf : memref<16xf32, 3>) {
      apipe.copy %A[%tx], %buf[%c0], 1 : memref<16xf32> to memref<16xf32, 3>
// CHECK: :[[@LINE-1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing: {{.*}} (write-after-write between threads)
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%c0] : memref<16xf32, 3>
// RUN-LAUNCH: // apipe-run: completion=lazy schedule=forward
// RUN-LAUNCH-NEXT: :[[@LINE-7]]:7: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} with no gpu.barrier between ('apipe.copy' and 'apipe.copy')
// RUN-LAUNCH-COUNT-4: error: the kernel has races
      memref.store %x, %out[%tx] : memref<4xf32>
      gpu.terminator
    }
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
