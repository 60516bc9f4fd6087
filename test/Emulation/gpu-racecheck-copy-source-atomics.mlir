// Atomic updates of global memory (memref.atomic_rmw,
// memref.generic_atomic_rmw) into the source of an asynchronous copy in
// flight are races like plain stores: atomicity orders atomics among
// themselves, not against the copy's read (PTX cp.async reads its source
// at some point before the wait_group that completes it). The race
// checker reports them at the atomic op with a note at the copy, in the
// same words as for a store ("atomically updates"), whatever the thread
// order; exit 1. Atomics of many threads and blocks into one counter are
// not races.
//
// Thread t of block b (g = 4 b + t) copies 16 bytes of %A from element
// 4 g; every thread adds 1 to %out[32] atomically; thread %storer adds 10
// to %A[%at] atomically before the wait (%late = 0), or after wait +
// barrier (2).
//
// Clean: no update into a source, or after wait + barrier; the values of
// apipe-make-sync in every mode and order (%out[32] counts the 8 threads):
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - 2>&1 | FileCheck %s --check-prefix=SYNC
// SYNC: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  8]
// RUN: apipe-run %s --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN-COUNT-6: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  8]
// CLEAN-NOT: error
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=after_barrier 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: apipe-run %s --entry=after_barrier --completion=lazy,eager,random:1 --schedule=forward,reverse -j 2 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31,  8]
// BARRIER-NOT: error
//
// The issuing thread itself, before its wait:
// RUN: not apipe-run %s --entry=own --completion=lazy,eager,random:4 2>&1 | FileCheck %s --check-prefix=OWN
// OWN-COUNT-3: :80:14: error: thread (0,0,0) of block (0,0,0) atomically updates global memory byte 4 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.atomic_rmw' and 'apipe.copy'){{$}}
// OWN-NOT: [
// Another thread of the block, into byte 12 of thread 0's copy: WAR in
// forward order (thread 0's copy completed, no barrier since), RAW in
// reverse order (the copy comes after the update in the same epoch):
// RUN: not apipe-run %s --entry=same_block 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: :80:14: error: race (WAR) on global memory byte 12 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) atomically updates it, and the copy of thread (0,0,0), completed by a wait, reads it with no gpu.barrier between ('memref.atomic_rmw' and 'apipe.copy'){{$}}
// SAME-NEXT: :74:7: note: the asynchronous copy, by thread (0,0,0)
// SAME-NEXT: :138:5: error: the kernel has races
// RUN: not apipe-run %s --entry=same_block --schedule=reverse 2>&1 | FileCheck %s --check-prefix=SAME-REVERSE
// SAME-REVERSE: :80:14: error: race (RAW) on global memory byte 12 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) atomically updates it, and the copy of thread (0,0,0), issued after it, reads it with no gpu.barrier between ('memref.atomic_rmw' and 'apipe.copy'){{$}}
// SAME-REVERSE-NEXT: :74:7: note: the asynchronous copy, by thread (0,0,0) (after the write)
// Another block (found at the end of the launch, 1 or 2 OS threads):
// RUN: not apipe-run %s --entry=other_block --completion=lazy,eager -j 2 2>&1 | FileCheck %s --check-prefix=BLOCK
// BLOCK-COUNT-2: :80:14: error: race (WAR) on global memory byte 36 of an asynchronous copy's source buffer: thread (0,0,0) of block (1,0,0) atomically updates it, and the copy of thread (2,0,0) of block (0,0,0) reads it (the order of blocks is unspecified)
// BLOCK-NOT: [
// memref.generic_atomic_rmw (integer elements) of thread 1 into thread
// 0's source in flight:
// RUN: not apipe-run %s --entry=generic --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=GENERIC
// GENERIC-COUNT-2: :109:14: error: race ({{RAW|WAR}}) on global memory byte 0 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) atomically updates it, and the copy of thread (0,0,0), {{.*}}, reads it with no gpu.barrier between ('memref.generic_atomic_rmw' and 'apipe.copy'){{$}}
// GENERIC-NOT: [
//
// With the race checker off, the race shows as wrong data (lazy: the copy
// reads the updated 1 + 10 = 11):
// RUN: apipe-run %s --entry=own --no-racecheck 2>&1 | FileCheck %s --check-prefix=VALUES
// VALUES: [0,  11,  2,  3,

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<32xf32>, %out: memref<33xf32>, %storer: index, %at: index, %late: index) workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %one = arith.constant 1.0 : f32
      %ten = arith.constant 10.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %b4 = arith.muli %bid, %c4 : index
      %g = arith.addi %b4, %tid : index
      %src = arith.muli %g, %c4 : index
      %dst = arith.muli %tid, %c4 : index
      %n = memref.atomic_rmw addf %one, %out[%c32] : (f32, memref<33xf32>) -> f32
      apipe.copy %A[%src], %buf[%dst], 4 : memref<32xf32> to memref<16xf32, 3>
      apipe.commit_group
      %me = arith.cmpi eq, %g, %storer : index
      %early = arith.cmpi eq, %late, %c0 : index
      %now0 = arith.andi %me, %early : i1
      scf.if %now0 {
        %x = memref.atomic_rmw addf %ten, %A[%at] : (f32, memref<32xf32>) -> f32
      }
      apipe.wait_group 0
      gpu.barrier
      %after_barrier = arith.cmpi eq, %late, %c2 : index
      %now2 = arith.andi %me, %after_barrier : i1
      scf.if %now2 {
        %x = memref.atomic_rmw addf %ten, %A[%at] : (f32, memref<32xf32>) -> f32
      }
      scf.for %j = %c0 to %c4 step %c1 {
        %d = arith.addi %dst, %j : index
        %o = arith.addi %src, %j : index
        %x = memref.load %buf[%d] : memref<16xf32, 3>
        memref.store %x, %out[%o] : memref<33xf32>
      }
      gpu.return
    }
    // Thread 1 updates %A[0], the source of thread 0's copy in flight.
    gpu.func @ki(%A: memref<8xi32>, %out: memref<8xi32>) workgroup(%buf: memref<8xi32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %seven = arith.constant 7 : i32
      %tid = gpu.thread_id x
      %at = arith.muli %tid, %c4 : index
      apipe.copy %A[%at], %buf[%at], 4 : memref<8xi32> to memref<8xi32, 3>
      apipe.commit_group
      %is1 = arith.cmpi eq, %tid, %c1 : index
      scf.if %is1 {
        %x = memref.generic_atomic_rmw %A[%c0] : memref<8xi32> {
        ^bb0(%old: i32):
          %new = arith.addi %old, %seven : i32
          memref.atomic_yield %new : i32
        }
      }
      apipe.wait_group 0
      %y = memref.load %buf[%at] : memref<8xi32, 3>
      memref.store %y, %out[%at] : memref<8xi32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run(%storer: index, %at: index, %late: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<32xf32>
    %out = memref.alloc() : memref<33xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<32xf32>
      memref.store %zero, %out[%i] : memref<33xf32>
    }
    memref.store %zero, %out[%c32] : memref<33xf32>
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<32xf32>, %out : memref<33xf32>, %storer : index, %at : index, %late : index)
    %u = memref.cast %out : memref<33xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %A : memref<32xf32>
    memref.dealloc %out : memref<33xf32>
    return
  }
  // No update into a source.
  func.func @main() {
    %none = arith.constant -1 : index
    %c0 = arith.constant 0 : index
    call @run(%none, %c0, %c0) : (index, index, index) -> ()
    return
  }
  // Thread 1 updates thread 0's source after wait + barrier (the out
  // values are the copies': unchanged).
  func.func @after_barrier() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    call @run(%c1, %c1, %c2) : (index, index, index) -> ()
    return
  }
  // Thread 0 of block 0 into its own copy's source (element 1).
  func.func @own() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    call @run(%c0, %c1, %c0) : (index, index, index) -> ()
    return
  }
  // Thread 1 of block 0 into element 3, read by thread 0's copy.
  func.func @same_block() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    call @run(%c1, %c3, %c0) : (index, index, index) -> ()
    return
  }
  // Thread 0 of block 1 into element 9, read by thread 2 of block 0.
  func.func @other_block() {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c9 = arith.constant 9 : index
    call @run(%c4, %c9, %c0) : (index, index, index) -> ()
    return
  }
  func.func @generic() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<8xi32>
    %out = memref.alloc() : memref<8xi32>
    gpu.launch_func @kernels::@ki blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<8xi32>, %out : memref<8xi32>)
    return
  }
}
