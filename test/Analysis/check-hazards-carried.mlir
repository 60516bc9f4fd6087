// apipe-check-hazards on loops that carry their synchronization or their
// indices through scf.for iter_args, and on kernels whose block size is
// known: each correct case is silent, each racy twin is reported at its
// exact line and column, and nothing else is.
//
// 1. Token windows through iter_args: a wait on an iter_arg names the init's
//    group in the first iteration (an `apipe.ready` token: none; a prologue
//    commit: an older one) and the previous yield's later: the check splits
//    the iterations and completes each part with its own distance.
// 2. Offsets and versions carried in iter_args: `x + c` per iteration is
//    `init + c * iv`, `(x + c) mod V` from a constant init is
//    `(init + c * iv) mod V`, so in-flight regions compare exactly.
// 3. Thread-id bounds: `gpu.thread_id d < block size d` where the kernel
//    states it (`known_block_size`, `upper_bound`, a `gpu.launch` with
//    constant sizes), so `ty * 32 + tx` is one element per thread.
//
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

// The first iteration waits on `apipe.ready` (nothing to wait for) and
// reads nothing; later ones read the previous tile.
func.func @ready_init(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %r = apipe.ready
  %last = scf.for %j = %c0 to %c8 step %c1 iter_args(%prev = %r) -> (!apipe.token) {
    %src = arith.muli %j, %c4 : index
    %v = arith.remui %j, %c2 : index
    apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %t = apipe.commit_group
    apipe.wait %prev
    %has = arith.cmpi uge, %j, %c1 : index
    scf.if %has {
      %jm = arith.subi %j, %c1 : index
      %u = arith.remui %jm, %c2 : index
      %x = memref.load %buf[%u, %c0] : memref<2x4xf32>
      memref.store %x, %out[%jm] : memref<8xf32>
    }
    scf.yield %t : !apipe.token
  }
  apipe.wait %last
  %x = memref.load %buf[%c1, %c0] : memref<2x4xf32>
  memref.store %x, %out[%c0] : memref<8xf32>
  return
}

// -----

// Racy: the current tile is read; its group is the newest.
func.func @ready_init_reads_current(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %r = apipe.ready
  %last = scf.for %j = %c0 to %c8 step %c1 iter_args(%prev = %r) -> (!apipe.token) {
    %src = arith.muli %j, %c4 : index
    %v = arith.remui %j, %c2 : index
    apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %t = apipe.commit_group
    apipe.wait %prev
    %has = arith.cmpi uge, %j, %c1 : index
    scf.if %has {
      %jm = arith.subi %j, %c1 : index
      %u = arith.remui %j, %c2 : index
      // CHECK: check-hazards-carried.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %buf[%u, %c0] : memref<2x4xf32>
      memref.store %x, %out[%jm] : memref<8xf32>
    }
    scf.yield %t : !apipe.token
  }
  apipe.wait %last
  %x = memref.load %buf[%c1, %c0] : memref<2x4xf32>
  memref.store %x, %out[%c0] : memref<8xf32>
  return
}

// -----

// The init is the older of two prologue groups: distance 2 in the first
// iteration, 1 in the later ones.
func.func @prologue_two(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %other = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  %t0 = apipe.commit_group
  apipe.copy %A[%c4], %other[%c0], 4 : memref<64xf32> to memref<4xf32>
  %t1 = apipe.commit_group
  %last = scf.for %j = %c0 to %c8 step %c1 iter_args(%prev = %t0) -> (!apipe.token) {
    %j1 = arith.addi %j, %c1 : index
    %src = arith.muli %j1, %c4 : index
    %v = arith.remui %j1, %c3 : index
    apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    apipe.wait %prev
    %u = arith.remui %j, %c3 : index
    %x = memref.load %buf[%u, %c0] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<8xf32>
    scf.yield %t : !apipe.token
  }
  apipe.wait %last
  return
}

// -----

// Racy: the init is `apipe.ready`, so the first iteration reads the
// prologue tile with nothing waited.
func.func @ready_init_prologue_copy(%A: memref<64xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %other = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  %t0 = apipe.commit_group
  apipe.copy %A[%c4], %other[%c0], 4 : memref<64xf32> to memref<4xf32>
  %t1 = apipe.commit_group
  %r = apipe.ready
  %last = scf.for %j = %c0 to %c8 step %c1 iter_args(%prev = %r) -> (!apipe.token) {
    %j1 = arith.addi %j, %c1 : index
    %src = arith.muli %j1, %c4 : index
    %v = arith.remui %j1, %c3 : index
    apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    apipe.wait %prev
    %u = arith.remui %j, %c3 : index
    // CHECK: check-hazards-carried.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%u, %c0] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<8xf32>
    scf.yield %t : !apipe.token
  }
  apipe.wait %last
  return
}

// -----

// A rotating window of two tokens from `apipe.ready`: iterations 0 and 1
// wait for nothing and read nothing, later ones read tile j - 2.
func.func @window2(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %r = apipe.ready
  %last:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%p1 = %r, %p2 = %r) -> (!apipe.token, !apipe.token) {
    %src = arith.muli %j, %c4 : index
    %v = arith.remui %j, %c3 : index
    apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    apipe.wait %p2
    %has = arith.cmpi uge, %j, %c2 : index
    scf.if %has {
      %jm = arith.subi %j, %c2 : index
      %u = arith.remui %jm, %c3 : index
      %x = memref.load %buf[%u, %c0] : memref<3x4xf32>
      memref.store %x, %out[%jm] : memref<16xf32>
    }
    scf.yield %t, %p1 : !apipe.token, !apipe.token
  }
  apipe.wait %last#0
  return
}

// -----

// Racy: tile j - 1 is read, its group not waited for.
func.func @window2_reads_in_flight(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %r = apipe.ready
  %last:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%p1 = %r, %p2 = %r) -> (!apipe.token, !apipe.token) {
    %src = arith.muli %j, %c4 : index
    %v = arith.remui %j, %c3 : index
    apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    apipe.wait %p2
    %has = arith.cmpi uge, %j, %c2 : index
    scf.if %has {
      %jm = arith.subi %j, %c1 : index
      %u = arith.remui %jm, %c3 : index
      // CHECK: check-hazards-carried.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %buf[%u, %c0] : memref<3x4xf32>
      memref.store %x, %out[%jm] : memref<16xf32>
    }
    scf.yield %t, %p1 : !apipe.token, !apipe.token
  }
  apipe.wait %last#0
  return
}

// -----

// In place: tiles two ahead are copied from A[off + 8] while A[off] is
// overwritten, `off` carried (+4 per iteration).
func.func @inplace_offsets(%A: memref<72xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<72xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<72xf32> to memref<3x4xf32>
  apipe.commit_group
  %end = scf.for %j = %c0 to %c16 step %c1 iter_args(%off = %c0) -> (index) {
    %ahead = arith.addi %off, %c8 : index
    %j2 = arith.addi %j, %c2 : index
    %v = arith.remui %j2, %c3 : index
    apipe.copy %A[%ahead], %buf[%v, %c0], 4 : memref<72xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    %u = arith.remui %j, %c3 : index
    %x = memref.load %buf[%u, %c0] : memref<3x4xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %A[%off] : memref<72xf32>
    %next = arith.addi %off, %c4 : index
    scf.yield %next : index
  }
  apipe.wait_group 0
  return
}

// -----

// Racy: the store hits A[off + 4], the source of the copy issued one
// iteration earlier, still in flight.
func.func @inplace_overwrites_in_flight_source(%A: memref<72xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<72xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<72xf32> to memref<3x4xf32>
  apipe.commit_group
  %end = scf.for %j = %c0 to %c16 step %c1 iter_args(%off = %c0) -> (index) {
    %ahead = arith.addi %off, %c8 : index
    %j2 = arith.addi %j, %c2 : index
    %v = arith.remui %j2, %c3 : index
    apipe.copy %A[%ahead], %buf[%v, %c0], 4 : memref<72xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    %u = arith.remui %j, %c3 : index
    %x = memref.load %buf[%u, %c0] : memref<3x4xf32>
    %y = arith.addf %x, %x : f32
    %ahead4 = arith.addi %off, %c4 : index
    // CHECK: check-hazards-carried.mlir:[[# @LINE + 1]]:5: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
    memref.store %y, %A[%ahead4] : memref<72xf32>
    %next = arith.addi %off, %c4 : index
    scf.yield %next : index
  }
  apipe.wait_group 0
  return
}

// -----

// Source offset and both version indices carried ((v + 1) mod 3).
func.func @carried_versions(%A: memref<128xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<128xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c8], %buf[%c1, %c0], 4 : memref<128xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:3 = scf.for %j = %c0 to %c32 step %c2 iter_args(%src = %c16, %w = %c2, %u = %c0) -> (index, index, index) {
    apipe.copy %A[%src], %buf[%w, %c0], 4 : memref<128xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    %x = memref.load %buf[%u, %c0] : memref<3x4xf32>
    %jh = arith.divui %j, %c2 : index
    memref.store %x, %out[%jh] : memref<16xf32>
    %w1 = arith.addi %w, %c1 : index
    %w2 = arith.remui %w1, %c3 : index
    %u1 = arith.addi %u, %c1 : index
    %u2 = arith.remui %u1, %c3 : index
    %src2 = arith.addi %src, %c8 : index
    scf.yield %src2, %w2, %u2 : index, index, index
  }
  apipe.wait_group 0
  return
}

// -----

// Racy: the read version starts one ahead: it reads the newest tile.
func.func @carried_version_one_ahead(%A: memref<128xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<128xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c8], %buf[%c1, %c0], 4 : memref<128xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:3 = scf.for %j = %c0 to %c32 step %c2 iter_args(%src = %c16, %w = %c2, %u = %c1) -> (index, index, index) {
    apipe.copy %A[%src], %buf[%w, %c0], 4 : memref<128xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    // CHECK: check-hazards-carried.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%u, %c0] : memref<3x4xf32>
    %jh = arith.divui %j, %c2 : index
    memref.store %x, %out[%jh] : memref<16xf32>
    %w1 = arith.addi %w, %c1 : index
    %w2 = arith.remui %w1, %c3 : index
    %u1 = arith.addi %u, %c1 : index
    %u2 = arith.remui %u1, %c3 : index
    %src2 = arith.addi %src, %c8 : index
    scf.yield %src2, %w2, %u2 : index, index, index
  }
  apipe.wait_group 0
  return
}

// -----

// Known block sizes: each thread copies and reads its own element
// (`ty * 32 + tx` with tx < 32; `tx + 64` with tx < 64 is no thread's).
gpu.module @bounds {
  gpu.func @own_2d(%A: memref<4096xf32>, %out: memref<128xf32>) workgroup(%buf: memref<128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 4, 1>} {
    %c32 = arith.constant 32 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %row = arith.muli %ty, %c32 : index
    %my = arith.addi %row, %tx : index
    apipe.copy %A[%my], %buf[%my], 1 : memref<4096xf32> to memref<128xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%my] : memref<128xf32, 3>
    memref.store %x, %out[%my] : memref<128xf32>
    gpu.return
  }
  gpu.func @halves(%A: memref<4096xf32>, %out: memref<64xf32>) workgroup(%buf: memref<128xf32, 3>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c64 = arith.constant 64 : index
    %tx = gpu.thread_id x
    %hi = arith.addi %tx, %c64 : index
    apipe.copy %A[%tx], %buf[%tx], 1 : memref<4096xf32> to memref<128xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%tx] : memref<128xf32, 3>
    memref.store %x, %buf[%hi] : memref<128xf32, 3>
    memref.store %x, %out[%tx] : memref<64xf32>
    gpu.return
  }
}

// -----

// Racy twins: the block size unknown or wider than the row, an upper bound
// one too large; the gpu.launch with constant sizes is silent. The upper
// bound kernels' buffer has room for `tx + 64` in every thread they allow:
// an access out of bounds in some thread would be undefined behaviour,
// which the checker assumes away (thread 64 storing to `buf[128]` of a
// `memref<128xf32>` would bound the ids by 64 and hide the race).
gpu.module @bounds_racy {
  gpu.func @own_2d_unknown(%A: memref<4096xf32>, %out: memref<128xf32>) workgroup(%buf: memref<128xf32, 3>) kernel {
    %c32 = arith.constant 32 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %row = arith.muli %ty, %c32 : index
    %my = arith.addi %row, %tx : index
    apipe.copy %A[%my], %buf[%my], 1 : memref<4096xf32> to memref<128xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    // CHECK: check-hazards-carried.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
    %x = memref.load %buf[%my] : memref<128xf32, 3>
    memref.store %x, %out[%my] : memref<128xf32>
    gpu.return
  }
  gpu.func @own_2d_wide(%A: memref<4096xf32>, %out: memref<128xf32>) workgroup(%buf: memref<128xf32, 3>) kernel attributes {known_block_size = array<i32: 64, 2, 1>} {
    %c32 = arith.constant 32 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %row = arith.muli %ty, %c32 : index
    %my = arith.addi %row, %tx : index
    apipe.copy %A[%my], %buf[%my], 1 : memref<4096xf32> to memref<128xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    // CHECK: check-hazards-carried.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
    %x = memref.load %buf[%my] : memref<128xf32, 3>
    memref.store %x, %out[%my] : memref<128xf32>
    gpu.return
  }
  gpu.func @upper_bound_attr(%A: memref<4096xf32>, %out: memref<64xf32>) workgroup(%buf: memref<192xf32, 3>) kernel {
    %c64 = arith.constant 64 : index
    %tx = gpu.thread_id x upper_bound 64
    %hi = arith.addi %tx, %c64 : index
    apipe.copy %A[%tx], %buf[%tx], 1 : memref<4096xf32> to memref<192xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%tx] : memref<192xf32, 3>
    memref.store %x, %buf[%hi] : memref<192xf32, 3>
    gpu.return
  }
  gpu.func @upper_bound_too_large(%A: memref<4096xf32>, %out: memref<64xf32>) workgroup(%buf: memref<192xf32, 3>) kernel {
    %c64 = arith.constant 64 : index
    %tx = gpu.thread_id x upper_bound 65
    %hi = arith.addi %tx, %c64 : index
    apipe.copy %A[%tx], %buf[%tx], 1 : memref<4096xf32> to memref<192xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%tx] : memref<192xf32, 3>
    // CHECK: check-hazards-carried.mlir:[[# @LINE + 4]]:5: error: 'memref.store' op writes data that other threads' async copies may still be reading or writing (as their source or destination), with no gpu.barrier after the wait that completes them (missing barrier)
    // Thread 0 stores to element 64, which thread 64 loads: a race of two
    // plain accesses too.
    // CHECK: check-hazards-carried.mlir:[[# @LINE + 1]]:5: error: 'memref.store' op writes workgroup memory that another thread read, with no gpu.barrier between the two (this thread has x = 0, the other x = 64) (write-after-read between threads)
    memref.store %x, %buf[%hi] : memref<192xf32, 3>
    gpu.return
  }
}
func.func @launch(%A: memref<4096xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c4, %sz = %c1) {
    %buf = memref.alloca() : memref<128xf32, #gpu.address_space<workgroup>>
    %row = arith.muli %ty, %sx : index
    %my = arith.addi %row, %tx : index
    apipe.copy %A[%my], %buf[%my], 1 : memref<4096xf32> to memref<128xf32, #gpu.address_space<workgroup>>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%my] : memref<128xf32, #gpu.address_space<workgroup>>
    memref.store %x, %A[%my] : memref<4096xf32>
    gpu.terminator
  }
  return
}
