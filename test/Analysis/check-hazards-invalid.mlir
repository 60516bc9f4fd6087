// apipe-check-hazards on synchronization bugs, one case per hazard class and
// variant: read-after-write (a read the waits do not cover), write-after-read
// (a write into a copy's source in flight), write-after-write (two copies in
// flight into the same elements, a store a copy may erase), and the missing
// barriers of a gpu.func. Each is a located error; the notes say at the copy
// how many newer groups are committed, at the wait which `pending` would
// complete it, and at the loop or branch which path decides. Each correct twin
// is in check-hazards.mlir.
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
  // expected-note @+2 {{the async copy still in flight; 1 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{the async copy still in flight; 1 newer group(s) committed on queue 0 since its group}}
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %c2 : index
    // expected-error @+1 {{'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)}}
    apipe.copy %A[%src], %buf[%vn, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    // expected-note @+2 {{`pending = 1` leaves this copy's group in flight: 0 newer group(s) are committed on queue 0 when it waits; `pending <= 0` completes it}}
    // expected-note @+1 {{`pending = 1` leaves this copy's group in flight: 0 newer group(s) are committed on queue 0 when it waits; `pending <= 0` completes it}}
    apipe.wait_group 1
    apipe.commit_group
    %v = arith.remui %j, %c2 : index
    // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
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
  // expected-note @+2 {{the copy is carried in flight across the back edge of this loop}}
  // expected-note @+1 {{the copy is carried in flight across 2 back edges of this loop}}
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %c2 : index
    // expected-note @+3 {{the async copy still in flight, issued in the previous iteration; 1 newer group(s) committed on queue 0 since its group}}
    // expected-error @+2 {{'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)}}
    // expected-note @+1 {{the async copy still in flight, issued 2 iterations earlier; 1 newer group(s) committed on queue 0 since its group}}
    apipe.copy %A[%src], %buf[%vn, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.commit_group
    // expected-note @+2 {{`pending = 2` leaves this copy's group in flight: 1 newer group(s) are committed on queue 0 when it waits; `pending <= 1` completes it}}
    // expected-note @+1 {{`pending = 2` leaves this copy's group in flight: 1 newer group(s) are committed on queue 0 when it waits; `pending <= 1` completes it}}
    apipe.wait_group 2
    %v = arith.remui %j, %c2 : index
    // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
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
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    // expected-error @+2 {{'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)}}
    // expected-note @+1 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
    apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    // expected-note @+1 {{`pending = 1` leaves this copy's group in flight: 0 newer group(s) are committed on queue 0 when it waits; `pending <= 0` completes it}}
    apipe.wait_group 1
    // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
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
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  // expected-note @+1 {{the copy stays in flight when this scf.if takes its else branch}}
  scf.if %cond {
    apipe.wait_group 0
  }
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x : f32
}

// -----

// The same in token form: the wait names the token on one path only.
func.func @token_wait_on_one_path(%A: memref<64xf32>, %cond: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  %t = apipe.commit_group
  // expected-note @+1 {{the copy stays in flight when this scf.if takes its else branch}}
  scf.if %cond {
    apipe.wait %t
  }
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x : f32
}

// -----

// A copy never committed: `wait_group 0` does not wait for it.
func.func @uncommitted_copy(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32, 3>
  // expected-note @+1 {{the async copy still in flight; its group is not committed yet}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  // expected-note @+1 {{`pending = 0` cannot complete this copy's group: the group is committed after this wait (commit it before waiting)}}
  apipe.wait_group 0
  // expected-error @+1 {{'vector.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
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
    // expected-note @+1 {{the async copy, issued by every thread: other threads' copies may not have landed}}
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
      // expected-note @+1 {{this wait completes the copy for the waiting thread only; no gpu.barrier follows it on some path to the access}}
      apipe.wait_group 1
      %cur = arith.remui %j, %c2 : index
      // expected-error @+1 {{'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)}}
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
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 1 since its group}}
  // expected-note @+1 {{no wait on queue 1 follows this copy before the access on this path}}
  apipe.copy %shared[%c0], %local[%c0], 4 queue 1 : memref<4xf32, 3> to memref<4xf32, 5>
  apipe.commit_group queue 1
  // expected-error @+1 {{'apipe.copy' op overwrites a buffer region that an earlier async copy may still be reading (its source) (write-after-read)}}
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
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %shared[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  // expected-error @+1 {{'apipe.copy' op reads (as its source) a buffer region that an async copy may still be writing (read-after-write)}}
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
  // expected-note @+4 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+3 {{no wait on queue 0 follows this copy before the access on this path}}
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  // expected-remark @+1 {{possible hazard (the buffers may alias): 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %x = memref.load %other[%c0] : memref<4xf32, 3>
  // expected-error @+1 {{'func.call' op reads a buffer region that an async copy may still be writing (read-after-write): it has no memory-effect information, so it may read and write any part of the buffers it receives}}
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
    // expected-note @+1 {{the read is carried into the next iteration of this loop with no gpu.barrier after it}}
    %sum = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      %next = arith.addi %j, %c1 : index
      %in_range = arith.cmpi ult, %next, %c8 : index
      scf.if %in_range {
        %base = arith.muli %next, %c128 : index
        %src = arith.addi %base, %lane : index
        %v = arith.remui %next, %c2 : index
        // expected-error @+1 {{'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)}}
        apipe.copy %A[%src], %buf[%v, %lane], 4 : memref<4096xf32> to memref<2x128xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 1
      gpu.barrier
      %cur = arith.remui %j, %c2 : index
      // expected-note @+1 {{the read of other threads' data in the previous iteration: no gpu.barrier follows it before the copy on some path}}
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
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c0], 1 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  // expected-error @+1 {{'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)}}
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
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c0], 1 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  // expected-error @+1 {{'memref.store' op writes a buffer region that an async copy may still be writing (its destination): the copy may land after this write and erase it (write-after-write)}}
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
  // expected-note @+4 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+3 {{no wait on queue 0 follows this copy before the access on this path}}
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c4], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  // expected-error @+1 {{'vector.store' op writes a buffer region that an async copy may still be writing (its destination): the copy may land after this write and erase it (write-after-write)}}
  vector.store %v, %buf[%c2] : memref<8xf32>, vector<4xf32>
  // expected-error @+1 {{'memref.copy' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)}}
  memref.copy %B, %A : memref<8xf32> to memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// Two copies in flight into the same elements (write-after-write): the
// final content depends on which lands last.
func.func @two_copies_in_flight_into_one_buffer(%A: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  // expected-error @+1 {{'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)}}
  apipe.copy %A[%c4], %buf[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// The same with a partial overlap, and the second copy issued after a wait
// that is one too weak: elements 2..3 of %buf are written by both.
func.func @partial_overlap_after_weak_wait(%A: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<6xf32>
  // expected-note @+1 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xf32> to memref<6xf32>
  apipe.commit_group
  // expected-note @+1 {{`pending = 1` leaves this copy's group in flight: 0 newer group(s) are committed on queue 0 when it waits; `pending <= 0` completes it}}
  apipe.wait_group 1
  // expected-error @+1 {{'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)}}
  apipe.copy %A[%c4], %buf[%c2], 4 : memref<8xf32> to memref<6xf32>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// A wait one too weak: the note gives the count that completes the group.
func.func @wait_one_too_weak(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32>
  // expected-note @+1 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  // expected-note @+1 {{`pending = 1` leaves this copy's group in flight: 0 newer group(s) are committed on queue 0 when it waits; `pending <= 0` completes it}}
  apipe.wait_group 1
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %x = memref.load %buf[%c0] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<16xf32>
  return
}

// -----

// Two groups committed after the copy, the wait leaves three in flight.
func.func @wait_two_too_weak(%A: memref<64xf32>, %B: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32>
  %other = memref.alloc() : memref<4xf32>
  // expected-note @+1 {{the async copy still in flight; 2 newer group(s) committed on queue 0 since its group}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  apipe.copy %B[%c0], %other[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  apipe.commit_group
  // expected-note @+1 {{`pending = 3` leaves this copy's group in flight: 2 newer group(s) are committed on queue 0 when it waits; `pending <= 2` completes it}}
  apipe.wait_group 3
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %x = memref.load %buf[%c0] : memref<4xf32>
  return %x : f32
}

// -----

// Reads that MLIR's memory effects reveal: a linalg op, an atomic update,
// a call passed an unranked cast of the buffer (it may read and write all of
// it), and a free of the buffer, all while the copy is in flight.
func.func private @consume_any(memref<*xf32>)

func.func @effects_of_other_ops(%A: memref<64xf32>, %out: memref<4xf32>, %v: f32, %i: index) {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32>
  // expected-note @+8 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+7 {{no wait on queue 0 follows this copy before the access on this path}}
  // expected-note @+6 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+5 {{no wait on queue 0 follows this copy before the access on this path}}
  // expected-note @+4 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+3 {{no wait on queue 0 follows this copy before the access on this path}}
  // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
  // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  // expected-error @+1 {{'linalg.copy' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  linalg.copy ins(%buf : memref<4xf32>) outs(%out : memref<4xf32>)
  // expected-error @+1 {{'memref.atomic_rmw' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %old = memref.atomic_rmw addf %v, %buf[%i] : (f32, memref<4xf32>) -> f32
  %u = memref.cast %buf : memref<4xf32> to memref<*xf32>
  // expected-error @+1 {{'func.call' op reads a buffer region that an async copy may still be writing (read-after-write): it has no memory-effect information, so it may read and write any part of the buffers it receives}}
  func.call @consume_any(%u) : (memref<*xf32>) -> ()
  // expected-error @+1 {{'memref.dealloc' op writes a buffer region that an async copy may still be writing (its destination): the copy may land after this write and erase it (write-after-write)}}
  memref.dealloc %buf : memref<4xf32>
  apipe.wait_group 0
  return
}

// -----

// A store into the source of a copy that is still in flight, in a
// pipelined loop: the copy of tile j + 1 reads %A[4(j+1) .. 4(j+1)+3] until
// the next iteration's wait; the store of iteration j writes %A[4(j+1)].
func.func @store_into_source_of_next_tile() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  %buf = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c8 step %c1 {
    %next = arith.addi %j, %c1 : index
    %src = arith.muli %next, %c4 : index
    %vn = arith.remui %next, %c2 : index
    // expected-note @+1 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
    apipe.copy %A[%src], %buf[%vn, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.commit_group
    // expected-note @+1 {{`pending = 1` leaves this copy's group in flight: 0 newer group(s) are committed on queue 0 when it waits; `pending <= 0` completes it}}
    apipe.wait_group 1
    // expected-error @+1 {{'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)}}
    memref.store %f, %A[%src] : memref<64xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// Other threads' copies, complete for them after their wait, written again
// before a barrier: thread t copies into elements 4t .. 4t+3 of the next
// version; the neighbour's copy into the same version two tiles later may
// land before this thread has passed its wait.
gpu.module @kernels {
  gpu.func @copy_over_unsynced_copy(%A: memref<4096xf32>)
      workgroup(%buf: memref<2x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %next = arith.addi %tid, %c1 : index
    %nlane = arith.muli %next, %c4 : index
    // expected-note @+1 {{the async copy, issued by every thread: other threads' copies may not be complete}}
    apipe.copy %A[%lane], %buf[%c0, %lane], 4 : memref<4096xf32> to memref<2x128xf32, 3>
    apipe.commit_group
    // expected-note @+1 {{this wait completes the copy for the waiting thread only; no gpu.barrier follows it on some path to the access}}
    apipe.wait_group 0
    // expected-error @+1 {{'apipe.copy' op writes data that other threads' async copies may still be reading or writing (as their source or destination), with no gpu.barrier after the wait that completes them (missing barrier)}}
    apipe.copy %A[%nlane], %buf[%c0, %nlane], 4 : memref<4096xf32> to memref<2x128xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.return
  }
}

// -----

// Tiles of several elements per thread, read by the neighbour thread with
// no barrier: thread t + 1's tile starts at 2t + 2, so thread t's read of
// element 2t + 2 needs the barrier (the elimination that proves own tiles
// disjoint must not hide this).
gpu.module @neighbour_tiles {
  gpu.func @neighbour_tile_no_barrier(%A: memref<4096xf32>, %out: memref<128xf32>) workgroup(%buf: memref<256xf32, 3>) kernel {
    %c2 = arith.constant 2 : index
    %tid = gpu.thread_id x
    %my = arith.muli %tid, %c2 : index
    %next = arith.addi %my, %c2 : index
    // expected-note @+1 {{the async copy, issued by every thread: other threads' copies may not have landed}}
    apipe.copy %A[%my], %buf[%my], 2 : memref<4096xf32> to memref<256xf32, 3>
    apipe.commit_group
    // expected-note @+1 {{this wait completes the copy for the waiting thread only; no gpu.barrier follows it on some path to the access}}
    apipe.wait_group 0
    // expected-error @+1 {{'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)}}
    %x = memref.load %buf[%next] : memref<256xf32, 3>
    memref.store %x, %out[%tid] : memref<128xf32>
    gpu.return
  }
}

// -----

// The same copy under `(2 mod 3) != 1`, which holds: the read before the
// wait is reported.
func.func @copy_in_live_branch(%A: memref<64xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %buf = memref.alloc() : memref<4xf32>
  %m = arith.remui %c2, %c3 : index
  %q = arith.cmpi ne, %m, %c1 : index
  scf.if %q {
    // expected-note @+2 {{the async copy still in flight; 0 newer group(s) committed on queue 0 since its group}}
    // expected-note @+1 {{no wait on queue 0 follows this copy before the access on this path}}
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  }
  apipe.commit_group
  // expected-error @+1 {{'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)}}
  %x = memref.load %buf[%c0] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<4xf32>
  apipe.wait_group 0
  return
}
