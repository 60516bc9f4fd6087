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
// pipeline reads other threads' data unsynchronized and overwrites data
// other threads may still read, and a count one too
// large (pending = 3 where 2 is exact) leaves the tile in flight.
// RUN: not apipe-opt %apipe_root/test/Transforms/software-pipeline-gpu.mlir --apipe-software-pipeline="barriers=false" --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBAR
// NOBAR: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read
// NOBAR: note: the copy, issued by every thread, whose data other threads read
// NOBAR: error: 'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy
// NOBAR: note: the read of other threads' data (1 iteration(s) earlier: no gpu.barrier follows it on some path to the copy)
// RUN: apipe-opt %apipe_root/examples/software_pipeline_input.mlir --apipe-software-pipeline -o %t.mlir
// RUN: sed 's/apipe.wait_group 2/apipe.wait_group 3/' %t.mlir | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOO-LARGE
// TOO-LARGE: error: 'memref.load' op reads a buffer region that an async copy may still be writing
// TOO-LARGE-NEXT: %{{.*}} = memref.load %subview_4[%arg3]
// TOO-LARGE: note: the copy whose group is not complete (seen from iteration 0 of the loop: at least 3 group(s) committed on queue 0 after it; the waits complete only the groups committed 3 or more groups earlier)
// TOO-LARGE: error: 'memref.load' op reads a buffer region that an async copy may still be writing
// TOO-LARGE: note: the copy whose group is not complete (in the last iteration of its loop: at least 3 group(s) committed on queue 0 after it; the waits complete only the groups committed 3 or more groups earlier)

// The same mutation on dynamic trip counts (switch on min(n, 3), kernel
// over n - 3 iterations, epilogue versions (n - k) mod 4): the prologue copy
// meets the epilogue read across the kernel loop.
// RUN: apipe-opt %apipe_root/test/Transforms/software-pipeline-run.mlir --apipe-software-pipeline -o %t.run.mlir
// RUN: sed 's/apipe.wait_group 3/apipe.wait_group 4/' %t.run.mlir | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: error: 'memref.load' op reads a buffer region that an async copy may still be writing
// DYNAMIC: note: the copy whose group is not complete (across 0 iteration(s) of the loop between: at least 4 group(s) committed on queue 0 after it; the waits complete only the groups committed 4 or more groups earlier)

// The commit before the wait: `wait_group 1` leaves only tile j + 1 pending.
// CHECK-LABEL: func.func @double_buffer_commit_then_wait
// CHECK: scf.for
// CHECK: apipe.copy
// CHECK-NEXT: apipe.commit_group
// CHECK-NEXT: apipe.wait_group 1
// CHECK-NEXT: arith.remui
// CHECK-NEXT: memref.load
func.func @double_buffer_commit_then_wait(%A: memref<64xf32>, %out: memref<8xf32>) {
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
func.func @three_versions_exact_count(%A: memref<64xf32>, %out: memref<8xf32>) {
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
func.func @two_buffers_consumer_one_stage_later(%A: memref<64xf32>, %out: memref<8xf32>) {
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
func.func @wait_on_every_path(%A: memref<64xf32>, %cond: i1) -> f32 {
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

func.func @token_wait_after_if(%A: memref<64xf32>, %cond: i1) -> f32 {
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
  gpu.func @same_thread_no_barrier(%A: memref<4096xf32>, %out: memref<128xf32>)
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
func.func @async_reader_waited(%A: memref<64xf32>) {
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
func.func @disjoint_regions(%A: memref<64xf32>) -> f32 {
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
func.func @stores_after_wait(%v: vector<4xf32>, %B: memref<8xf32>) {
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
