// apipe-check-hazards on the classic synchronization bugs (issue 6): each
// read that an async copy's group does not cover is a located error with a
// note at the copy; each correct twin is in check-hazards.mlir.
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards --verify-diagnostics

// The commit placed after the wait (off by one): `wait_group 1` runs before
// the group of tile j + 1 is committed, so it leaves tile j's group pending.
func.func @commit_after_wait(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2x4xf32>
  // expected-note @+1 {{the copy whose group is not complete (seen from iteration 0 of the loop: at least 2 group(s) committed on queue 0 after it; the waits complete only the groups committed 2 or more groups earlier)}}
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %c2 : index
    apipe.copy %A[%src], %buf[%vn, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.wait_group 1
    apipe.commit_group
    %v = arith.remui %j, %c2 : index
    // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing: no wait completes the copy's group on every path from the copy to this read}}
    %x = memref.load %buf[%v, %c0] : memref<2x4xf32>
    memref.store %x, %out[%j] : memref<8xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// A count one too large: two versions, but `pending = 2` lets the group of
// the tile being read stay in flight. Here the prologue copy is complete
// (first iteration), so the error names the copy of the previous iteration.
func.func @count_one_too_large(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  apipe.wait_group 0
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %c2 : index
    // expected-note @+1 {{the copy whose group is not complete (issued 1 iteration(s) earlier: at least 2 group(s) committed on queue 0 after it; the waits complete only the groups committed 2 or more groups earlier)}}
    apipe.copy %A[%src], %buf[%vn, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    %v = arith.remui %j, %c2 : index
    // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing}}
    %x = memref.load %buf[%v, %c3] : memref<2x4xf32>
    memref.store %x, %out[%j] : memref<8xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// A single buffer with its consumer one stage later: the copy of tile j + 1
// overwrites the buffer while tile j is read (early overwrite).
func.func @single_buffer_consumer_one_stage_later(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    // expected-note @+1 {{the copy whose group is not complete (issued earlier in this iteration: at least 1 group(s) committed on queue 0 after it; the waits complete only the groups committed 1 or more groups earlier)}}
    apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 1
    // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing}}
    %x = memref.load %buf[%c2] : memref<4xf32>
    memref.store %x, %out[%j] : memref<8xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// A wait inside an `scf.if` that only one path takes: on the other path the
// read sees the copy in flight.
func.func @wait_on_one_path(%A: memref<64xf32>, %cond: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-note @+1 {{the copy whose group is not complete (at least 1 group(s) committed on queue 0 after it; on some path no wait completes any group of queue 0)}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  scf.if %cond {
    apipe.wait_group 0
  }
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing}}
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x : f32
}

// -----

// The same in token form: the wait names the token on one path only.
func.func @token_wait_on_one_path(%A: memref<64xf32>, %cond: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-note @+1 {{the copy whose group is not complete}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  %t = apipe.commit_group
  scf.if %cond {
    apipe.wait %t
  }
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing}}
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x : f32
}

// -----

// A copy never committed: `wait_group 0` does not wait for it.
func.func @uncommitted_copy(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-note @+1 {{the copy whose group is not complete (not committed yet; the waits complete only the groups committed 0 or more groups earlier)}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.wait_group 0
  // expected-error @+1 {{'vector.load' op reads a buffer region that an async copy may still be writing}}
  %v = vector.load %buf[%c0] : memref<4xf32, 3>, vector<2xf32>
  %x = vector.extract %v[0] : f32 from vector<2xf32>
  return %x : f32
}

// -----

// A missing barrier: each thread copies 4 floats and reads one, so a thread
// reads what another copied; its own wait is not enough.
gpu.module @kernels {
  gpu.func @missing_barrier(%A: memref<4096xf32>, %out: memref<128xf32>)
      workgroup(%buf: memref<2x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    // expected-note @+1 {{the copy, issued by every thread, whose data other threads read (seen from iteration 0 of the loop: at least 2 group(s) committed on queue 0 after it; the waits complete it for the copying thread, but no gpu.barrier follows them before this read)}}
    apipe.copy %A[%lane], %buf[%c0, %lane], 4 : memref<4096xf32> to memref<2x128xf32, 3>
    apipe.commit_group
    %sum = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %next = arith.addi %j, %c1 : index
      %in_range = arith.cmpi ult, %next, %c8 : index
      scf.if %in_range {
        %base = arith.muli %next, %c128 : index
        %src = arith.addi %base, %lane : index
        %v = arith.remui %next, %c2 : index
        apipe.copy %A[%src], %buf[%v, %lane], 4 : memref<4096xf32> to memref<2x128xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 1
      %cur = arith.remui %j, %c2 : index
      // expected-error @+1 {{'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read}}
      %x = memref.load %buf[%cur, %tid] : memref<2x128xf32, 3>
      %acc2 = arith.addf %acc, %x : f32
      gpu.barrier
      scf.yield %acc2 : f32
    }
    memref.store %sum, %out[%tid] : memref<128xf32>
    gpu.return
  }
}

// -----

// An early overwrite of a region an async copy still reads: the copy into
// %shared is issued while the shared -> local copy (queue 1) may not have
// read it yet.
func.func @async_reader_overwritten(%A: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %shared = memref.alloc() : memref<4xf32, 3>
  %local = memref.alloca() : memref<4xf32, 5>
  apipe.copy %A[%c0], %shared[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  // expected-note @+1 {{the copy that reads the region, whose group is not complete (at least 1 group(s) committed on queue 1 after it; on some path no wait completes any group of queue 1)}}
  apipe.copy %shared[%c0], %local[%c0], 4 queue 1 : memref<4xf32, 3> to memref<4xf32, 5>
  apipe.commit_group queue 1
  // expected-error @+1 {{'apipe.copy' op overwrites a buffer region that an earlier async copy may still be reading (early overwrite): no wait completes the reading copy's group before this copy is issued}}
  apipe.copy %A[%c4], %shared[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  apipe.wait_group 0 queue 1
  return
}

// -----

// An async copy that reads (src) a region another copy is still writing.
func.func @async_read_of_pending_data(%A: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %shared = memref.alloc() : memref<4xf32, 3>
  %local = memref.alloca() : memref<4xf32, 5>
  // expected-note @+1 {{the copy whose group is not complete}}
  apipe.copy %A[%c0], %shared[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  // expected-error @+1 {{'apipe.copy' op reads a buffer region that an async copy may still be writing}}
  apipe.copy %shared[%c0], %local[%c0], 4 queue 1 : memref<4xf32, 3> to memref<4xf32, 5>
  apipe.commit_group queue 1
  apipe.wait_group 0
  apipe.wait_group 0 queue 1
  return
}

// -----

// Conservative answers are remarks, not errors: two arguments that may
// alias, and a call that may read any part of the buffer it is passed.
func.func private @consume(memref<4xf32, 3>)

func.func @may_alias(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %other: memref<4xf32, 3>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-note @+2 {{the copy whose group is not complete}}
  // expected-note @+1 {{the copy whose group is not complete}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  // expected-remark @+1 {{possible hazard (checked conservatively: the buffers may alias): 'memref.load' op reads a buffer region}}
  %x = memref.load %other[%c0] : memref<4xf32, 3>
  // expected-remark @+1 {{possible hazard (checked conservatively: a callee may read any part of the buffers it is passed)}}
  func.call @consume(%buf) : (memref<4xf32, 3>) -> ()
  apipe.wait_group 0
  return %x : f32
}

// -----

// A missing barrier before the overwrite: thread t reads element t of a
// version that other threads' copies of a later tile overwrite; without the
// barrier at the end of the iteration, a fast thread may issue that copy
// while a slow one still reads.
gpu.module @kernels {
  gpu.func @overwrite_before_barrier(%A: memref<4096xf32>, %out: memref<128xf32>)
      workgroup(%buf: memref<2x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %A[%lane], %buf[%c0, %lane], 4 : memref<4096xf32> to memref<2x128xf32, 3>
    apipe.commit_group
    %sum = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %next = arith.addi %j, %c1 : index
      %in_range = arith.cmpi ult, %next, %c8 : index
      scf.if %in_range {
        %base = arith.muli %next, %c128 : index
        %src = arith.addi %base, %lane : index
        %v = arith.remui %next, %c2 : index
        // expected-error @+1 {{'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy}}
        apipe.copy %A[%src], %buf[%v, %lane], 4 : memref<4096xf32> to memref<2x128xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 1
      gpu.barrier
      %cur = arith.remui %j, %c2 : index
      // expected-note @+1 {{the read of other threads' data (1 iteration(s) earlier: no gpu.barrier follows it on some path to the copy)}}
      %x = memref.load %buf[%cur, %tid] : memref<2x128xf32, 3>
      %acc2 = arith.addf %acc, %x : f32
      scf.yield %acc2 : f32
    }
    memref.store %sum, %out[%tid] : memref<128xf32>
    gpu.return
  }
}

// -----

// A plain store into the source of a copy still in flight: the copy may read
// its source at any moment until its group completes (write-after-read).
func.func @store_over_source_in_flight() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<4xf32>
  %buf = memref.alloc() : memref<4xf32>
  // expected-note @+1 {{the copy that reads the region, whose group is not complete (at least 1 group(s) committed on queue 0 after it; on some path no wait completes any group of queue 0)}}
  apipe.copy %A[%c0], %buf[%c0], 1 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  // expected-error @+1 {{'memref.store' op writes a buffer region that an async copy may still be reading (its source; write-after-read): no wait completes the copy's group on every path from the copy to this store}}
  memref.store %f, %A[%c0] : memref<4xf32>
  apipe.wait_group 0
  return
}

// -----

// A plain store into the destination of a copy still in flight: the copy
// may land after the store and erase it (write-after-write).
func.func @store_over_destination_in_flight() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<4xf32>
  %buf = memref.alloc() : memref<4xf32>
  // expected-note @+1 {{the copy that writes the region, whose group is not complete (at least 1 group(s) committed on queue 0 after it; on some path no wait completes any group of queue 0)}}
  apipe.copy %A[%c0], %buf[%c0], 1 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  // expected-error @+1 {{'memref.store' op writes a buffer region that an async copy may still be writing (its destination; write-after-write: the copy may land later and erase this store): no wait completes the copy's group on every path from the copy to this store}}
  memref.store %f, %buf[%c0] : memref<4xf32>
  apipe.wait_group 0
  return
}

// -----

// The other writes: a vector.store over the destination, and a memref.copy
// whose target is the source of a copy in flight.
func.func @vector_store_and_memref_copy_in_flight(%v: vector<4xf32>, %B: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  // expected-note @+2 {{the copy that writes the region, whose group is not complete}}
  // expected-note @+1 {{the copy that reads the region, whose group is not complete}}
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  // expected-error @+1 {{'vector.store' op writes a buffer region that an async copy may still be writing}}
  vector.store %v, %buf[%c2] : memref<8xf32>, vector<4xf32>
  // expected-error @+1 {{'memref.copy' op writes a buffer region that an async copy may still be reading}}
  memref.copy %B, %A : memref<8xf32> to memref<8xf32>
  apipe.wait_group 0
  return
}
