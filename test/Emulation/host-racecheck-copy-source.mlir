// The host (code outside kernels) writes into the source of one of its
// own asynchronous copies while the copy is in flight: issued, and no wait
// has completed its group yet. PTX cp.async reads its source at some
// moment before that wait, so the copy's value is undefined; the emulator
// shows it with the race checker off (lazy lands the new value, eager the
// old one). With the race checker (on by default) apipe-run stops at the
// write with a located error, a note at the copy and the byte offset in
// the copy's source buffer, in every completion mode; exit 1. Atomic
// updates count as writes (atomicity does not order them against the
// copy's read). The JIT code calls the check only while a host copy is in
// flight.
//
// Silent: writes after the wait, beside the bytes, into an older group's
// source after wait_group 1; the values are those of apipe-make-sync in
// every mode:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: apipe-run %s --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefixes=SILENT,SILENT3
// SILENT:       [0,  1,  2,  3,  -7,  0,  2,  3,  0,  1,  6,  7,  4,  5,  5,  0]
// SILENT3-NEXT: // apipe-run: completion=eager
// SILENT3:      [0,  1,  2,  3,  -7,  0,  2,  3,  0,  1,  6,  7,  4,  5,  5,  0]
// SILENT3-NEXT: // apipe-run: completion=random:3
// SILENT3:      [0,  1,  2,  3,  -7,  0,  2,  3,  0,  1,  6,  7,  4,  5,  5,  0]
// SILENT-NOT: error
// The same after the conversions to token form and to the mbarrier form
// (copies then complete through mbarrier phases):
// RUN: apipe-opt %s --apipe-counting-to-tokens --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: apipe-opt %s --apipe-counting-to-tokens --apipe-tokens-to-mbarrier | not apipe-run - --entry=pipeline --completion=eager 2>&1 | FileCheck %s --check-prefix=MBARRIER
// MBARRIER: error: the host writes global memory byte 8 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
// MBARRIER-NEXT: note: the copy in flight
//
// With the race checker off, a store into the source in flight shows as
// different values in lazy and eager modes:
// RUN: apipe-run %s --entry=store --no-racecheck --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=VALUES
// VALUES: [0,  -7,  2,  3]
// VALUES: [0,  1,  2,  3]
//
// Broken, each stopped at its write in every mode (the checks are next to
// the ops below):
// RUN: not apipe-run %s --entry=store --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not apipe-run %s --entry=vector_store 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not apipe-run %s --entry=memref_copy --completion=eager 2>&1 | FileCheck %s --check-prefix=MCOPY
// RUN: not apipe-run %s --entry=atomic --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: not apipe-run %s --entry=generic_atomic 2>&1 | FileCheck %s --check-prefix=GENERIC
// RUN: not apipe-run %s --entry=newer_group --completion=random:7 2>&1 | FileCheck %s --check-prefix=NEWER
// RUN: not apipe-run %s --entry=token 2>&1 | FileCheck %s --check-prefix=TOKEN
// RUN: not apipe-run %s --entry=callee 2>&1 | FileCheck %s --check-prefix=CALLEE
// RUN: not apipe-run %s --entry=stack 2>&1 | FileCheck %s --check-prefix=STACK
// RUN: not apipe-run %s --entry=pipeline --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=PIPE
// An apipe.bulk_copy stays in flight until the host's wait on its
// mbarrier phase returns (also under eager, where it lands at issue):
// RUN: not apipe-run %s --entry=bulk --completion=lazy,eager,random:2 2>&1 | FileCheck %s --check-prefix=BULK
// RUN: apipe-run %s --entry=bulk_after_wait --completion=lazy,eager,random:2 2>&1 | FileCheck %s --check-prefix=BULK-SILENT
// BULK-SILENT-COUNT-3: [0,  1,  2,  3]
// BULK-SILENT-NOT: error
// The program stops at the first error: nothing is printed after it.
// STORE-NOT: [
// VECTOR-NOT: [
// PIPE-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

// %A[i] = i.
func.func @fill(%A: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<8xf32>
  }
  return
}

// Silent: every write into a copy's source comes after the wait that
// completes the copy, or misses its bytes. Each variant leaves its values
// in %R.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %c14 = arith.constant 14 : index
  %bad = arith.constant -7.0 : f32
  %zero = arith.constant 0.0 : f32
  %c16 = arith.constant 16 : index
  %R = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %zero, %R[%i] : memref<16xf32>
  }
  %A = memref.alloc() : memref<8xf32>
  // A store after wait_group 0: R[0..4) = A[0..4), R[4] = A[1] = -7.
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c0], %R[%c0], 4 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  apipe.wait_group 0
  memref.store %bad, %A[%c1] : memref<8xf32>
  %a1 = memref.load %A[%c1] : memref<8xf32>
  memref.store %a1, %R[%c4] : memref<16xf32>
  // A store beside the copy in flight (A[4], the copy reads A[2..4)):
  // R[6..8) = 2, 3.
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c2], %R[%c6], 2 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  memref.store %bad, %A[%c4] : memref<8xf32>
  apipe.wait_group 0
  // wait_group 1 completes the older group: a store into its source is
  // fine while the newer one is in flight. R[8..10) = 0, 1; R[10..12) =
  // 6, 7.
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c0], %R[%c8], 2 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  apipe.copy %A[%c6], %R[%c10], 2 : memref<8xf32> to memref<16xf32>
  apipe.commit_group
  apipe.wait_group 1
  memref.store %bad, %A[%c0] : memref<8xf32>
  apipe.wait_group 0
  // Token form, an atomic update and a memref.copy after the wait:
  // R[12..14) = 4, 5; R[14] = A[4] + 1 = 5.
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c4], %R[%c12], 2 : memref<8xf32> to memref<16xf32>
  %t = apipe.commit_group
  apipe.wait %t
  %one = arith.constant 1.0 : f32
  %x = memref.atomic_rmw addf %one, %A[%c4] : (f32, memref<8xf32>) -> f32
  %a4 = memref.load %A[%c4] : memref<8xf32>
  memref.store %a4, %R[%c14] : memref<16xf32>
  %C = memref.alloc() : memref<8xf32>
  call @fill(%C) : (memref<8xf32>) -> ()
  memref.copy %C, %A : memref<8xf32> to memref<8xf32>
  memref.dealloc %C : memref<8xf32>
  %u = memref.cast %R : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<8xf32>
  memref.dealloc %R : memref<16xf32>
  return
}

func.func @print4(%B: memref<4xf32>) {
  %u = memref.cast %B : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// A store into A[1] while the copy of A[0..4) is in flight.
func.func @store() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bad = arith.constant -7.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<4xf32>
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c0], %B[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  // STORE-COUNT-3: :[[@LINE+2]]:3: error: the host writes global memory byte 4 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
  // STORE-NEXT: :[[@LINE-3]]:3: note: the copy in flight
  memref.store %bad, %A[%c1] : memref<8xf32>
  apipe.wait_group 0
  call @print4(%B) : (memref<4xf32>) -> ()
  return
}

// A vector store of A[3..7) partly over the copy of A[0..4) (byte 12).
func.func @vector_store() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = arith.constant dense<-7.0> : vector<4xf32>
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<4xf32>
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c0], %B[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  // VECTOR: :[[@LINE+2]]:3: error: the host writes global memory byte 12 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('vector.store' and 'apipe.copy'){{$}}
  // VECTOR-NEXT: :[[@LINE-3]]:3: note: the copy in flight
  vector.store %v, %A[%c3] : memref<8xf32>, vector<4xf32>
  apipe.wait_group 0
  call @print4(%B) : (memref<4xf32>) -> ()
  return
}

// memref.copy over the whole source, into a copy of A[4..8) in flight
// (landed already in eager mode: still undefined).
func.func @memref_copy() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<4xf32>
  %C = memref.alloc() : memref<8xf32>
  call @fill(%A) : (memref<8xf32>) -> ()
  call @fill(%C) : (memref<8xf32>) -> ()
  apipe.copy %A[%c4], %B[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  // MCOPY: :[[@LINE+2]]:3: error: the host writes global memory byte 16 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.copy' and 'apipe.copy'){{$}}
  // MCOPY-NEXT: :[[@LINE-3]]:3: note: the copy in flight
  memref.copy %C, %A : memref<8xf32> to memref<8xf32>
  apipe.wait_group 0
  call @print4(%B) : (memref<4xf32>) -> ()
  return
}

// An atomic update of A[2] while the copy of A[0..4) is in flight.
func.func @atomic() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<4xf32>
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c0], %B[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  // ATOMIC-COUNT-2: :[[@LINE+2]]:8: error: the host atomically updates global memory byte 8 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.atomic_rmw' and 'apipe.copy'){{$}}
  // ATOMIC-NEXT: :[[@LINE-3]]:3: note: the copy in flight
  %x = memref.atomic_rmw addf %one, %A[%c2] : (f32, memref<8xf32>) -> f32
  apipe.wait_group 0
  call @print4(%B) : (memref<4xf32>) -> ()
  return
}

// memref.generic_atomic_rmw of an i32 source element in flight.
func.func @generic_atomic() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i32
  %A = memref.alloc() : memref<8xi32>
  %B = memref.alloc() : memref<4xi32>
  memref.store %one, %A[%c3] : memref<8xi32>
  apipe.copy %A[%c0], %B[%c0], 4 : memref<8xi32> to memref<4xi32>
  apipe.commit_group
  // GENERIC: :[[@LINE+2]]:8: error: the host atomically updates global memory byte 12 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.generic_atomic_rmw' and 'apipe.copy'){{$}}
  // GENERIC-NEXT: :[[@LINE-3]]:3: note: the copy in flight
  %x = memref.generic_atomic_rmw %A[%c3] : memref<8xi32> {
  ^bb0(%old: i32):
    %new = arith.addi %old, %one : i32
    memref.atomic_yield %new : i32
  }
  apipe.wait_group 0
  return
}

// wait_group 1 completes only the older group: a store into the newer
// group's source (A[6]) is still in flight.
func.func @newer_group() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %bad = arith.constant -7.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<4xf32>
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c0], %B[%c0], 2 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  apipe.copy %A[%c6], %B[%c2], 2 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 1
  memref.store %bad, %A[%c0] : memref<8xf32>
  // NEWER: :[[@LINE+2]]:3: error: the host writes global memory byte 24 of the source buffer of its own asynchronous copy still in flight
  // NEWER-NEXT: :[[@LINE-5]]:3: note: the copy in flight
  memref.store %bad, %A[%c6] : memref<8xf32>
  apipe.wait_group 0
  call @print4(%B) : (memref<4xf32>) -> ()
  return
}

// Token form: a store between the commit and the wait on its token.
func.func @token() {
  %c0 = arith.constant 0 : index
  %bad = arith.constant -7.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<4xf32>
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c0], %B[%c0], 4 queue 1 : memref<8xf32> to memref<4xf32>
  %t = apipe.commit_group queue 1
  // TOKEN: :[[@LINE+2]]:3: error: the host writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight
  // TOKEN-NEXT: :[[@LINE-3]]:3: note: the copy in flight
  memref.store %bad, %A[%c0] : memref<8xf32>
  apipe.wait %t
  return
}

// The store is in a callee; the copy in flight is the caller's.
func.func @overwrite(%A: memref<8xf32>) {
  %c5 = arith.constant 5 : index
  %bad = arith.constant -7.0 : f32
  // CALLEE: :[[@LINE+1]]:3: error: the host writes global memory byte 20 of the source buffer
  memref.store %bad, %A[%c5] : memref<8xf32>
  return
}
func.func @callee() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<4xf32>
  call @fill(%A) : (memref<8xf32>) -> ()
  // CALLEE-NEXT: :[[@LINE+1]]:3: note: the copy in flight
  apipe.copy %A[%c4], %B[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  call @overwrite(%A) : (memref<8xf32>) -> ()
  apipe.wait_group 0
  return
}

// The source is stack memory (memref.alloca) of the host.
func.func @stack() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 3.0 : f32
  %S = memref.alloca() : memref<2xf32>
  %B = memref.alloc() : memref<4xf32>
  memref.store %f, %S[%c0] : memref<2xf32>
  memref.store %f, %S[%c1] : memref<2xf32>
  apipe.copy %S[%c0], %B[%c0], 2 : memref<2xf32> to memref<4xf32>
  apipe.commit_group
  // STACK: :[[@LINE+2]]:3: error: the host writes global memory byte 4 of the source buffer
  // STACK-NEXT: :[[@LINE-3]]:3: note: the copy in flight
  memref.store %f, %S[%c1] : memref<2xf32>
  apipe.wait_group 0
  return
}

// A hand-pipelined loop (two stages) that scales each chunk of 2
// elements of %A in place after its copy, but before the wait of the
// copy that reads the next chunk: the scaling of chunk i + 1 at
// iteration i runs while that copy is in flight.
func.func @pipeline() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<8xf32>
  call @fill(%A) : (memref<8xf32>) -> ()
  apipe.copy %A[%c0], %B[%c0], 2 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c3 step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %next = arith.muli %i1, %c2 : index
    apipe.copy %A[%next], %B[%next], 2 : memref<8xf32> to memref<8xf32>
    apipe.commit_group
    %x = memref.load %A[%next] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    // Once per mode (lazy, eager):
    // PIPE: :[[@LINE+5]]:5: error: the host writes global memory byte 8 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
    // PIPE-NEXT: :[[@LINE-6]]:5: note: the copy in flight
    // PIPE-NEXT: // apipe-run: completion=eager
    // PIPE-NEXT: :[[@LINE+2]]:5: error: the host writes global memory byte 8 of the source buffer
    // PIPE-NEXT: :[[@LINE-9]]:5: note: the copy in flight
    memref.store %y, %A[%next] : memref<8xf32>
    apipe.wait_group 1
  }
  apipe.wait_group 0
  %u = memref.cast %B : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// apipe.bulk_copy of A[0..4): the store into A[2] comes after the arrival
// but before the wait on the phase.
func.func @bulk_copy_then_store(%store_early: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %bad = arith.constant -7 : i32
  %A = memref.alloc() : memref<8xi32>
  %buf = memref.alloc() : memref<4xi32, 3>
  %ring = memref.alloca() : memref<1xi64, 3>
  scf.for %i = %c0 to %c2 step %c1 {
    %ii = arith.index_cast %i : index to i32
    memref.store %ii, %A[%i] : memref<8xi32>
  }
  %c3 = arith.constant 3 : index
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  memref.store %two, %A[%c2] : memref<8xi32>
  memref.store %three, %A[%c3] : memref<8xi32>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.mbarrier_expect_tx %ring[%c0], 16 : memref<1xi64, 3>
  apipe.bulk_copy %A[%c0], %buf[%c0], 4, %ring[%c0] : memref<8xi32> to memref<4xi32, 3>, memref<1xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  scf.if %store_early {
    // BULK: :[[@LINE+3]]:5: error: the host writes global memory byte 8 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.bulk_copy'){{$}}
    // BULK-NEXT: :[[@LINE-4]]:3: note: the copy in flight
    // BULK-COUNT-2: :[[@LINE+1]]:5: error: the host writes global memory byte 8 of the source buffer
    memref.store %bad, %A[%c2] : memref<8xi32>
  }
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  memref.store %bad, %A[%c2] : memref<8xi32>
  %u = memref.cast %buf : memref<4xi32, 3> to memref<*xi32, 3>
  %h = memref.memory_space_cast %u : memref<*xi32, 3> to memref<*xi32>
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
func.func @bulk() {
  %true = arith.constant true
  call @bulk_copy_then_store(%true) : (i1) -> ()
  return
}
func.func @bulk_after_wait() {
  %false = arith.constant false
  call @bulk_copy_then_store(%false) : (i1) -> ()
  return
}
