// apipe-check-hazards reports nothing on correct kernels and leaves the IR
// unchanged: the correct twins of check-hazards-invalid.mlir below, every
// pipeliner output of the test suite and the examples (token and counting
// form), and the examples as written.
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards --verify-diagnostics | FileCheck %s
//
// Pipeliner outputs (multi-buffered loops with `(iv + s) mod V` versions,
// static and dynamic trip counts, gpu.func with barriers):
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline.mlir --split-input-file --apipe-software-pipeline="sync=counting" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-trip-counts.mlir --split-input-file --apipe-software-pipeline="sync=tokens" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-trip-counts.mlir --split-input-file --apipe-software-pipeline="sync=counting" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-gpu.mlir --apipe-software-pipeline="sync=tokens" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-gpu.mlir --apipe-software-pipeline="sync=counting" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-run.mlir --apipe-software-pipeline="sync=tokens" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-run.mlir --apipe-software-pipeline="sync=counting" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/test/Emulation/pipeline-stress.mlir --apipe-software-pipeline --apipe-make-sync --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/examples/software_pipeline_input.mlir --apipe-software-pipeline="sync=tokens" --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/examples/software_pipeline_input.mlir --apipe-software-pipeline="sync=counting" --apipe-check-hazards --verify-diagnostics -o /dev/null
//
// The examples as written (the pipeliner input's annotated loop is left to
// the pipeliner, which places its synchronization):
// RUN: apipe-opt %apipe_root/examples/double_buffer_counting.mlir --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/examples/double_buffer_tokens.mlir --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/examples/software_pipeline_input.mlir --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/examples/double_buffer_tokens.mlir --apipe-tokens-to-counting --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/examples/double_buffer_counting.mlir --apipe-counting-to-tokens --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %apipe_root/examples/double_buffer_tokens.mlir --apipe-tokens-to-counting --apipe-counting-to-tokens --apipe-check-hazards --verify-diagnostics -o /dev/null
//
// The checker is not vacuous on those outputs: without the barriers the GPU
// pipeline reads other threads' data unsynchronized (in the loop and after
// it) and copies over data other threads may still be reading (each thread
// copies its own 4-element tile, so no two threads' copies meet), and a
// count one too large (pending = 3 where 2 is exact) leaves the tile in
// flight; the notes give the count that completes it.
// RUN: not apipe-opt %apipe_root/test/Transforms/software-pipeline-gpu.mlir --apipe-software-pipeline="barriers=false" --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBAR
// NOBAR: error: 'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)
// NOBAR: note: the read of other threads' data in the previous iteration: no gpu.barrier follows it before the copy on some path
// NOBAR: note: the read is carried into the next iteration of this loop with no gpu.barrier after it
// NOBAR: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// NOBAR: note: the async copy, issued by every thread: other threads' copies may not have landed
// NOBAR: note: this wait completes the copy for the waiting thread only; no gpu.barrier follows it on some path to the access
// NOBAR: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// NOBAR-NOT: error:
// RUN: apipe-opt %apipe_root/examples/software_pipeline_input.mlir --apipe-software-pipeline -o %t.mlir
// RUN: sed 's/apipe.wait_group 2/apipe.wait_group 3/' %t.mlir | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOO-LARGE
// TOO-LARGE: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// TOO-LARGE: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// TOO-LARGE-NEXT: %{{.*}} = memref.load %subview_4[%arg3]
// TOO-LARGE: note: the async copy still in flight; 2 newer group(s) committed on queue 0 since its group
// TOO-LARGE: note: `pending = 3` leaves this copy's group in flight: 2 newer group(s) are committed on queue 0 when it waits; `pending <= 2` completes it
// TOO-LARGE: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// TOO-LARGE: note: `pending = 3` leaves this copy's group in flight: 2 newer group(s) are committed on queue 0 when it waits; `pending <= 2` completes it

// The same mutation on dynamic trip counts (switch on min(n, 3), kernel
// over n - 3 iterations, epilogue versions (n - k) mod 4).
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-run.mlir --apipe-software-pipeline -o %t.run.mlir
// RUN: sed 's/apipe.wait_group 3/apipe.wait_group 4/' %t.run.mlir | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// DYNAMIC: note: the async copy still in flight; 3 newer group(s) committed on queue 0 since its group
// DYNAMIC: note: `pending = 4` leaves this copy's group in flight: 3 newer group(s) are committed on queue 0 when it waits; `pending <= 3` completes it

// The commit before the wait: `wait_group 1` leaves only tile j + 1 pending.
// CHECK-LABEL: func.func @double_buffer_commit_then_wait
// CHECK: scf.for
// CHECK: apipe.copy
// CHECK-NEXT: apipe.commit_group
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NEXT: arith.remui
// CHECK-NEXT: memref.load
func.func @double_buffer_commit_then_wait(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %c2 : index
    apipe.copy %A[%src], %buf[%vn, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.commit_group
    apipe.wait_group 1
    %v = arith.remui %j, %c2 : index
    %x = memref.load %buf[%v, %c0] : memref<2x4xf32>
    memref.store %x, %out[%j] : memref<8xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// Three versions read two iterations later: `pending = 2` is exact, and the
// versions `(j + 2) mod 3` written and `j mod 3` read never meet in flight.
// CHECK-LABEL: func.func @three_versions_exact_count
// CHECK: apipe.wait_group 2
func.func @three_versions_exact_count(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c2 : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %c3 : index
    apipe.copy %A[%src], %buf[%vn, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    %v = arith.remui %j, %c3 : index
    %x = memref.load %buf[%v, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<8xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// Two buffers, the consumer one stage later: the next tile goes to the other
// buffer, so the read never meets the copy in flight.
// CHECK-LABEL: func.func @two_buffers_consumer_one_stage_later
func.func @two_buffers_consumer_one_stage_later(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %c2 : index
    %view = memref.subview %buf[%vn, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %A[%src], %view[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group
    apipe.wait_group 1
    %v = arith.remui %j, %c2 : index
    %cur = memref.subview %buf[%v, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %cur[%k] : memref<4xf32, strided<[1], offset: ?>>
      %acc2 = arith.addf %acc, %x : f32
      scf.yield %acc2 : f32
    }
    memref.store %sum, %out[%j] : memref<8xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// The wait on both paths (and a token wait after the if) covers the read.
// CHECK-LABEL: func.func @wait_on_every_path
// CHECK-LABEL: func.func @token_wait_after_if
func.func @wait_on_every_path(%A: memref<64xf32> {llvm.noalias}, %cond: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  scf.if %cond {
    apipe.wait_group 0
  } else {
    apipe.wait_group 0
  }
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x : f32
}

func.func @token_wait_after_if(%A: memref<64xf32> {llvm.noalias}, %cond: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  %t = apipe.commit_group
  scf.if %cond {
    apipe.commit_group
  }
  apipe.wait %t
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x : f32
}

// -----

// Same-thread data needs no barrier: each thread reads the element it
// copied (the indices provably match).
// CHECK-LABEL: gpu.func @same_thread_no_barrier
gpu.module @kernels {
  gpu.func @same_thread_no_barrier(%A: memref<4096xf32> {llvm.noalias}, %out: memref<128xf32> {llvm.noalias})
      workgroup(%buf: memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    apipe.copy %A[%tid], %buf[%tid], 1 : memref<4096xf32> to memref<128xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%tid] : memref<128xf32, 3>
    memref.store %x, %out[%tid] : memref<128xf32>
    gpu.return
  }
}

// -----

// The async reader is waited on (queue 1) before its source is overwritten.
// CHECK-LABEL: func.func @async_reader_waited
func.func @async_reader_waited(%A: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %shared = memref.alloc() : memref<4xf32, 3>
  %local = memref.alloca() : memref<4xf32, 5>
  apipe.copy %A[%c0], %shared[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  apipe.copy %shared[%c0], %local[%c0], 4 queue 1 : memref<4xf32, 3> to memref<4xf32, 5>
  apipe.commit_group queue 1
  apipe.wait_group 0 queue 1
  apipe.copy %A[%c4], %shared[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// Disjoint regions of one buffer and distinct buffers need no wait.
// CHECK-LABEL: func.func @disjoint_regions
func.func @disjoint_regions(%A: memref<64xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<8xf32, 3>
  %other = memref.alloc() : memref<8xf32, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32, 3>
  apipe.commit_group
  %x = memref.load %buf[%c4] : memref<8xf32, 3>
  %y = memref.load %other[%c0] : memref<8xf32, 3>
  %z = arith.addf %x, %y : f32
  apipe.wait_group 0
  return %z : f32
}

// -----

// Plain stores into a copy's source and destination after the wait that
// completes its group (the twins of the in-flight stores in
// check-hazards-invalid.mlir), and a store into a disjoint part of the
// destination while the copy is in flight.
// CHECK-LABEL: func.func @stores_after_wait
func.func @stores_after_wait(%v: vector<4xf32>, %B: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  vector.store %v, %buf[%c0] : memref<8xf32>, vector<4xf32>
  apipe.wait_group 0
  memref.store %f, %A[%c0] : memref<8xf32>
  memref.store %f, %buf[%c4] : memref<8xf32>
  vector.store %v, %buf[%c4] : memref<8xf32>, vector<4xf32>
  memref.copy %B, %A : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Copies issued in an inner loop and committed after it: the last copy's
// group has exactly one newer group at the wait, so `pending = 1` completes
// every copy before the read.
// CHECK-LABEL: func.func @copies_in_inner_loop
func.func @copies_in_inner_loop(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %r = %c0 to %c2 step %c1 {
      apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    }
    apipe.commit_group
  }
  apipe.commit_group
  apipe.wait_group 1
  %x = memref.load %buf[%c1] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<16xf32>
  return
}

// -----

// Row-by-row tile copies in an inner loop of a dynamic trip count, into
// rows of a double buffer picked by the outer iteration, then one commit:
// the wait `pending = 1` leaves only the next tile's group in flight.
// CHECK-LABEL: func.func @row_copies_double_buffer
func.func @row_copies_double_buffer(%A: memref<64x8xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2x8x8xf32>
  scf.for %r = %c0 to %rows step %c1 {
    apipe.copy %A[%r, %c0], %buf[%c0, %r, %c0], 8 : memref<64x8xf32> to memref<2x8x8xf32>
  }
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %vn = arith.remui %next, %c2 : index
    scf.for %r = %c0 to %rows step %c1 {
      apipe.copy %A[%r, %c0], %buf[%vn, %r, %c0], 8 : memref<64x8xf32> to memref<2x8x8xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %v = arith.remui %j, %c2 : index
    %x = memref.load %buf[%v, %c0, %c1] : memref<2x8x8xf32>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// A wait inside an inner loop of a static trip count (>= 1) completes the
// copy before the read after that loop: the loop cannot run zero times.
// CHECK-LABEL: func.func @wait_in_static_inner_loop
func.func @wait_in_static_inner_loop(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %c16 step %c1 {
    %s0 = arith.muli %j, %c4 : index
    apipe.copy %A[%s0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    scf.for %k = %c0 to %c4 step %c1 {
      apipe.wait_group 0
      %x = memref.load %buf[%k] : memref<4xf32>
    }
    %x3 = memref.load %buf[%c3] : memref<4xf32>
    memref.store %x3, %out[%j] : memref<16xf32>
  }
  return
}

// -----

// The same with a trip count of one, and with a dynamic trip count known to
// be positive where the read is (the read sits under `scf.if %n > 0`).
// CHECK-LABEL: func.func @wait_in_inner_loop_that_runs
func.func @wait_in_inner_loop_that_runs(%A: memref<64xf32> {llvm.noalias}, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %k = %c0 to %c1 step %c1 {
    apipe.wait_group 0
  }
  %x = memref.load %buf[%c0] : memref<4xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  %runs = arith.cmpi sgt, %n, %c0 : index
  %y = scf.if %runs -> (f32) {
    scf.for %k = %c0 to %n step %c1 {
      apipe.wait_group 0
    }
    %v = memref.load %buf[%c1] : memref<4xf32>
    scf.yield %v : f32
  } else {
    apipe.wait_group 0
    scf.yield %zero : f32
  }
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// The standard double buffer with one barrier per iteration: wait, barrier,
// read version j mod 2, copy the next tile into version (j + 1) mod 2. The
// copy of iteration j overwrites what iteration j - 1 read, and every
// thread's read of iteration j - 1 precedes its arrival at the barrier of
// iteration j, which precedes the copy.
// CHECK-LABEL: gpu.func @one_barrier_double_buffer
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @one_barrier_double_buffer(%A: memref<8192xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%buf: memref<2x128xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c31 = arith.constant 31 : index
    %c128 = arith.constant 128 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %my = arith.muli %tid, %c4 : index
    %n0 = arith.addi %tid, %c1 : index
    %n1 = arith.andi %n0, %c31 : index
    %nb = arith.muli %n1, %c4 : index
    apipe.copy %A[%my], %buf[%c0, %my], 4 : memref<8192xf32> to memref<2x128xf32, #gpu.address_space<workgroup>>
    apipe.commit_group
    %s = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      apipe.wait_group 0
      gpu.barrier
      %v = arith.remui %j, %c2 : index
      %x = memref.load %buf[%v, %nb] : memref<2x128xf32, #gpu.address_space<workgroup>>
      %acc2 = arith.addf %acc, %x : f32
      %j1 = arith.addi %j, %c1 : index
      %w = arith.remui %j1, %c2 : index
      %g0 = arith.muli %j1, %c128 : index
      %g = arith.addi %g0, %my : index
      apipe.copy %A[%g], %buf[%w, %my], 4 : memref<8192xf32> to memref<2x128xf32, #gpu.address_space<workgroup>>
      apipe.commit_group
      scf.yield %acc2 : f32
    }
    memref.store %s, %out[%tid] : memref<32xf32>
    gpu.return
  }
}
}

// -----

// The same with three versions and the copy two tiles ahead: `pending = 1`
// and one barrier; the copy into version (j + 2) mod 3 overwrites what
// iteration j - 1 read, behind the barrier of iteration j.
// CHECK-LABEL: gpu.func @one_barrier_triple_buffer
gpu.module @m {
  gpu.func @one_barrier_triple_buffer(%A: memref<8192xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%buf: memref<3x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %my = arith.muli %tid, %c4 : index
    %g1 = arith.addi %my, %c128 : index
    apipe.copy %A[%my], %buf[%c0, %my], 4 : memref<8192xf32> to memref<3x128xf32, 3>
    apipe.commit_group
    apipe.copy %A[%g1], %buf[%c1, %my], 4 : memref<8192xf32> to memref<3x128xf32, 3>
    apipe.commit_group
    %s = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      apipe.wait_group 1
      gpu.barrier
      %v = arith.remui %j, %c3 : index
      %x = memref.load %buf[%v, %tid] : memref<3x128xf32, 3>
      %acc2 = arith.addf %acc, %x : f32
      %j2 = arith.addi %j, %c2 : index
      %w = arith.remui %j2, %c3 : index
      %g0 = arith.muli %j2, %c128 : index
      %g = arith.addi %g0, %my : index
      apipe.copy %A[%g], %buf[%w, %my], 4 : memref<8192xf32> to memref<3x128xf32, 3>
      apipe.commit_group
      scf.yield %acc2 : f32
    }
    memref.store %s, %out[%tid] : memref<32xf32>
    gpu.return
  }
}

// -----

// Each thread copies a tile of several elements and reads only its own
// tile: no barrier is needed, in one version or in a multi-buffered loop
// (thread t's tile [4t, 4t + 4) meets no element 4t' of another thread
// t' != t, which the solver proves by elimination: thread ids have no
// upper bound here).
// CHECK-LABEL: gpu.func @own_tile_no_barrier
// CHECK-LABEL: gpu.func @own_tile_2d_no_barrier
// CHECK-LABEL: gpu.func @own_tile_double_buffer_no_barrier
gpu.module @own_tiles {
  gpu.func @own_tile_no_barrier(%A: memref<4096xf32> {llvm.noalias}, %out: memref<128xf32> {llvm.noalias}) workgroup(%buf: memref<128xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %my = arith.muli %tid, %c4 : index
    apipe.copy %A[%my], %buf[%my], 4 : memref<4096xf32> to memref<128xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%my] : memref<128xf32, 3>
    memref.store %x, %out[%tid] : memref<128xf32>
    gpu.return
  }
  gpu.func @own_tile_2d_no_barrier(%A: memref<4096xf32> {llvm.noalias}, %out: memref<128xf32> {llvm.noalias}) workgroup(%buf: memref<2x128xf32, 3>) kernel {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %tid = gpu.thread_id x
    %my = arith.muli %tid, %c2 : index
    %last = arith.addi %my, %c1 : index
    apipe.copy %A[%my], %buf[%c1, %my], 2 : memref<4096xf32> to memref<2x128xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%c1, %last] : memref<2x128xf32, 3>
    memref.store %x, %out[%tid] : memref<128xf32>
    gpu.return
  }
  gpu.func @own_tile_double_buffer_no_barrier(%A: memref<8192xf32> {llvm.noalias}, %out: memref<32xf32> {llvm.noalias}) workgroup(%buf: memref<2x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %my = arith.muli %tid, %c4 : index
    apipe.copy %A[%my], %buf[%c0, %my], 4 : memref<8192xf32> to memref<2x128xf32, 3>
    apipe.commit_group
    %s = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      apipe.wait_group 0
      %v = arith.remui %j, %c2 : index
      %x = memref.load %buf[%v, %my] : memref<2x128xf32, 3>
      %acc2 = arith.addf %acc, %x : f32
      %j1 = arith.addi %j, %c1 : index
      %w = arith.remui %j1, %c2 : index
      %g0 = arith.muli %j1, %c128 : index
      %g = arith.addi %g0, %my : index
      apipe.copy %A[%g], %buf[%w, %my], 4 : memref<8192xf32> to memref<2x128xf32, 3>
      apipe.commit_group
      scf.yield %acc2 : f32
    }
    memref.store %s, %out[%tid] : memref<32xf32>
    gpu.return
  }
}

// -----

// A copy under a condition that folds to false (`(1 mod 3) != 1`, as in an
// unrolled iteration of the pipeliner's prologue) never runs: the read
// before the wait is no hazard.
// CHECK-LABEL: func.func @copy_in_dead_branch
func.func @copy_in_dead_branch(%A: memref<64xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %buf = memref.alloc() : memref<4xf32>
  %m = arith.remui %c1, %c3 : index
  %q = arith.cmpi ne, %m, %c1 : index
  scf.if %q {
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  }
  apipe.commit_group
  %x = memref.load %buf[%c0] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<4xf32>
  apipe.wait_group 0
  return
}
