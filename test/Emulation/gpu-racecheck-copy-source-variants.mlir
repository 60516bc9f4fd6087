// The race checker (`apipe-run --racecheck`) watches the global source of
// every asynchronous copy from its issue until its group completes, and
// until a gpu.barrier after that for the other threads (PTX cp.async reads
// its source at some point before the wait_group that completes it). A
// store into those bytes is a located error at the store with a note at
// the copy, both threads and the byte offset in the source buffer; exit 1.
// Thread t of block b copies 4, 8 or 16 bytes of %A from element 4 (4 b +
// t); one thread stores -7 into %A[%at] before the wait, after it, or
// after wait + barrier. The reports do not depend on the thread order.
//
// Clean (no store; a store beside the copies; a store after wait +
// barrier), in every mode and order, as make-sync prints:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - 2>&1 | FileCheck %s --check-prefix=SYNC
// SYNC: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// SYNC: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// SYNC: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// RUN: apipe-run %s --completion=lazy,eager,random:1 --schedule=forward,reverse,random:2 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN: [0,  0,  0,  0,  4,  0,  0,  0,  8,  0,  0,  0,  12,  0,  0,  0,  16,  0,  0,  0,  20,  0,  0,  0,  24,  0,  0,  0,  28,  0,  0,  0]
// CLEAN: [0,  1,  0,  0,  4,  5,  0,  0,  8,  9,  0,  0,  12,  13,  0,  0,  16,  17,  0,  0,  20,  21,  0,  0,  24,  25,  0,  0,  28,  29,  0,  0]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// CLEAN-NOT: error
// RUN: apipe-run %s --entry=beside --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=BESIDE
// BESIDE-COUNT-2: [0,  0,  0,  0,  4,  0,  0,  0,  8,
// BESIDE-NOT: error
// RUN: apipe-run %s --entry=after_barrier --completion=lazy,eager --schedule=forward,reverse -j 2 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER-COUNT-4: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,
// BARRIER-NOT: error
//
// The issuing thread itself, before its wait (16 and 4 bytes):
// RUN: not apipe-run %s --entry=own --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=OWN
// OWN-COUNT-2: :126:9: error: thread (0,0,0) of block (0,0,0) writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy')
// OWN-NOT: [
// RUN: not apipe-run %s --entry=own_4_bytes 2>&1 | FileCheck %s --check-prefix=OWN4
// OWN4: :126:9: error: thread (0,0,0) of block (0,0,0) writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight
// OWN4-NEXT: :113:9: note: the copy in flight
// OWN4-NEXT: :165:5: error: the kernel has races (see above); run with --racecheck=false to run it anyway
//
// Another thread of the block, into the last element of a 16-byte copy
// (partial overlap: byte 12). In forward order thread 0 has issued and
// completed its copy (no barrier since); in reverse order the copy comes
// after the store in the same epoch:
// RUN: not apipe-run %s --entry=same_block 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: :126:9: error: race (WAR) on global memory byte 12 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) writes it, and the copy of thread (0,0,0), completed by a wait, reads it with no gpu.barrier between ('memref.store' and 'apipe.copy')
// SAME-NEXT: :118:11: note: the asynchronous copy, by thread (0,0,0)
// SAME-NEXT: :165:5: error: the kernel has races
// RUN: not apipe-run %s --entry=same_block --schedule=reverse 2>&1 | FileCheck %s --check-prefix=SAME-REVERSE
// SAME-REVERSE: :126:9: error: race (RAW) on global memory byte 12 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) writes it, and the copy of thread (0,0,0), issued after it, reads it with no gpu.barrier between ('memref.store' and 'apipe.copy')
// SAME-REVERSE-NEXT: :118:11: note: the asynchronous copy, by thread (0,0,0) (after the write)
// Thread 0 into the 8-byte copy of thread 1 (byte 20 = element 5):
// RUN: not apipe-run %s --entry=same_block_8_bytes --schedule=forward,reverse,random:5 2>&1 | FileCheck %s --check-prefix=SAME8
// SAME8-COUNT-3: :126:9: error: race ({{RAW|WAR}}) on global memory byte 20 of an asynchronous copy's source buffer: thread (0,0,0) of block (0,0,0) writes it, and the copy of thread (1,0,0), {{.*}}, reads it with no gpu.barrier between ('memref.store' and 'apipe.copy')
// SAME8-NOT: [
// Thread 1 after its own wait, into thread 0's source with no barrier
// since thread 0's wait:
// RUN: not apipe-run %s --entry=after_wait 2>&1 | FileCheck %s --check-prefix=AFTER-WAIT
// AFTER-WAIT: :132:9: error: race (WAR) on global memory byte 0 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) writes it, and the copy of thread (0,0,0), completed by a wait, reads it with no gpu.barrier between
//
// Another block (blocks are unordered: found at the end of the launch,
// with 1 or 2 OS threads running blocks):
// RUN: not apipe-run %s --entry=other_block --completion=lazy,eager -j 2 2>&1 | FileCheck %s --check-prefix=BLOCK
// BLOCK-COUNT-2: :126:9: error: race (WAR) on global memory byte 36 of an asynchronous copy's source buffer: thread (0,0,0) of block (1,0,0) writes it, and the copy of thread (2,0,0) of block (0,0,0) reads it (the order of blocks is unspecified)
// BLOCK-NOT: [
//
// With the race checker off, the races show as wrong data:
// RUN: apipe-run %s --entry=same_block_8_bytes --no-racecheck 2>&1 | FileCheck %s --check-prefix=VALUES
// VALUES: [0,  1,  0,  0,  4,  -7,  0,  0,

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread t of block b (g = 4 b + t) copies %n elements (4, 8 or 16
    // bytes) of %A from element 4 g into its part of %buf; thread %storer
    // (a linear id over the grid, -1: none) stores -7 into %A[%at]: before
    // the wait (%late = 0), after the wait (1), or after wait + barrier (2).
    gpu.func @k(%A: memref<32xf32>, %out: memref<32xf32>, %n: index, %storer: index, %at: index, %late: index) workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %bad = arith.constant -7.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %b4 = arith.muli %bid, %c4 : index
      %g = arith.addi %b4, %tid : index
      %src = arith.muli %g, %c4 : index
      %dst = arith.muli %tid, %c4 : index
      %is1 = arith.cmpi eq, %n, %c1 : index
      %is2 = arith.cmpi eq, %n, %c2 : index
      scf.if %is1 {
        apipe.copy %A[%src], %buf[%dst], 1 : memref<32xf32> to memref<16xf32, 3>
      } else {
        scf.if %is2 {
          apipe.copy %A[%src], %buf[%dst], 2 : memref<32xf32> to memref<16xf32, 3>
        } else {
          apipe.copy %A[%src], %buf[%dst], 4 : memref<32xf32> to memref<16xf32, 3>
        }
      }
      apipe.commit_group
      %me = arith.cmpi eq, %g, %storer : index
      %early = arith.cmpi eq, %late, %c0 : index
      %now0 = arith.andi %me, %early : i1
      scf.if %now0 {
        memref.store %bad, %A[%at] : memref<32xf32>
      }
      apipe.wait_group 0
      %after_wait = arith.cmpi eq, %late, %c1 : index
      %now1 = arith.andi %me, %after_wait : i1
      scf.if %now1 {
        memref.store %bad, %A[%at] : memref<32xf32>
      }
      gpu.barrier
      %after_barrier = arith.cmpi eq, %late, %c2 : index
      %now2 = arith.andi %me, %after_barrier : i1
      scf.if %now2 {
        memref.store %bad, %A[%at] : memref<32xf32>
      }
      scf.for %j = %c0 to %n step %c1 {
        %d = arith.addi %dst, %j : index
        %o = arith.addi %src, %j : index
        %x = memref.load %buf[%d] : memref<16xf32, 3>
        memref.store %x, %out[%o] : memref<32xf32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run(%n: index, %storer: index, %at: index, %late: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<32xf32>
    %out = memref.alloc() : memref<32xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<32xf32>
      memref.store %zero, %out[%i] : memref<32xf32>
    }
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<32xf32>, %out : memref<32xf32>, %n : index, %storer : index, %at : index, %late : index)
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %A : memref<32xf32>
    memref.dealloc %out : memref<32xf32>
    return
  }
  // No store: clean, for each copy size.
  func.func @main() {
    %none = arith.constant -1 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    call @run(%c1, %none, %c0, %c0) : (index, index, index, index) -> ()
    call @run(%c2, %none, %c0, %c0) : (index, index, index, index) -> ()
    call @run(%c4, %none, %c0, %c0) : (index, index, index, index) -> ()
    return
  }
  // Thread 0 of block 0 stores into the source of its own copy in flight
  // (16 bytes, 4 bytes: the byte offsets are those of %A).
  func.func @own() {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    call @run(%c4, %c0, %c0, %c0) : (index, index, index, index) -> ()
    return
  }
  func.func @own_4_bytes() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    call @run(%c1, %c0, %c0, %c0) : (index, index, index, index) -> ()
    return
  }
  // Thread 1 of block 0 stores into the last element of thread 0's 16-byte
  // copy (partial overlap: byte 12).
  func.func @same_block() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    call @run(%c4, %c1, %c3, %c0) : (index, index, index, index) -> ()
    return
  }
  // The same store into an 8-byte copy that covers elements 4-5 of thread 1.
  func.func @same_block_8_bytes() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    call @run(%c2, %c0, %c5, %c0) : (index, index, index, index) -> ()
    return
  }
  // Thread 1 of block 0 stores into element 1, which the 4-byte copy of
  // thread 0 does not read: silent.
  func.func @beside() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    call @run(%c1, %c1, %c1, %c0) : (index, index, index, index) -> ()
    return
  }
  // Thread 0 of block 1 stores into the source of thread 2 of block 0.
  func.func @other_block() {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c9 = arith.constant 9 : index
    call @run(%c4, %c4, %c9, %c0) : (index, index, index, index) -> ()
    return
  }
  // Thread 1 stores into thread 0's source after its own wait, with no
  // barrier since thread 0's wait: still a race.
  func.func @after_wait() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    call @run(%c4, %c1, %c0, %c1) : (index, index, index, index) -> ()
    return
  }
  // After wait + barrier: silent (the copies have read their sources).
  func.func @after_barrier() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    call @run(%c4, %c1, %c0, %c2) : (index, index, index, index) -> ()
    return
  }
}
