// The mbarrier form under apipe-run (docs/mbarrier.md): real phases,
// arrival and transaction counts; a wait that can never return is a
// deadlock at the op's location, never a hang.
//
// A double-buffered stream in mbarrier form: the same values as the
// synchronous program in every completion mode.
// RUN: apipe-run %s --entry=stream --completion=lazy,eager,random:1,random:4 | FileCheck %s --check-prefix=STREAM
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=stream | FileCheck %s --check-prefix=SYNC
// STREAM-COUNT-4: [21,  25,  29,  33]
// SYNC: [21,  25,  29,  33]
//
// Without the wait, lazy completion shows the stale data (the copy has not
// landed when the loads run); eager shows the copied data.
// RUN: apipe-run %s --entry=missing_wait --completion=lazy | FileCheck %s --check-prefix=STALE
// STALE: [0,  0]
// RUN: apipe-run %s --entry=missing_wait --completion=eager | FileCheck %s --check-prefix=FRESH
// FRESH: [10,  11]
//
// A bulk copy completes its bytes on the slot; the phase completes once
// the bytes and the arrival are in.
// RUN: apipe-run %s --entry=bulk --completion=lazy,eager,random:2 | FileCheck %s --check-prefix=BULK
// BULK-COUNT-3: [10,  11,  12,  13]
//
// Deadlocks (on a GPU, hangs), each at the wait that can never return.
// RUN: not apipe-run %s --entry=phase_never_armed 2>&1 | FileCheck %s --check-prefix=NEVER
// RUN: not apipe-run %s --entry=arrival_count_too_high 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not apipe-run %s --entry=slot_reused_too_early 2>&1 | FileCheck %s --check-prefix=REUSED
// RUN: not apipe-run %s --entry=phase_out_of_step --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=STEP
// RUN: apipe-run %s --entry=bulk_without_expect_tx --completion=lazy 2>&1 | FileCheck %s --check-prefix=NOEXPECT-LAZY
// NOEXPECT-LAZY: [0,  0,  0,  0]
// RUN: not apipe-run %s --entry=bulk_without_expect_tx --completion=eager 2>&1 | FileCheck %s --check-prefix=NOEXPECT-EAGER
// RUN: not apipe-run %s --entry=expect_tx_without_bulk 2>&1 | FileCheck %s --check-prefix=NOBULK
// RUN: not apipe-run %s --entry=uninitialised 2>&1 | FileCheck %s --check-prefix=UNINIT
// RUN: not apipe-run %s --entry=overwritten 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN

func.func private @printMemrefI32(memref<*xi32>)

func.func @fill(%A: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    %c10 = arith.constant 10 : i32
    %x = arith.addi %v, %c10 : i32
    memref.store %x, %A[%i] : memref<8xi32>
  }
  return
}

// Tile j (2 x i32) of %A into version j mod 2 of %buf, one tile ahead; slot
// j mod 2 of a 2-slot ring, phase j div 2; the consumer stores each tile's
// sum: out = [21, 25, 29, 33].
func.func @stream() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<8xi32>
  %buf = memref.alloc() : memref<2x2xi32, 3>
  %out = memref.alloc() : memref<4xi32>
  %ring = memref.alloca() : memref<2xi64, 3>
  func.call @fill(%A) : (memref<8xi32>) -> ()
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 2 : memref<8xi32> to memref<2x2xi32, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  scf.for %j = %c0 to %c4 step %c1 {
    %next = arith.addi %j, %c1 : index
    %more = arith.cmpi ult, %next, %c4 : index
    scf.if %more {
      %v = arith.remui %next, %c2 : index
      %src = arith.muli %next, %c2 : index
      apipe.copy %A[%src], %buf[%v, %c0], 2 : memref<8xi32> to memref<2x2xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%v] : memref<2xi64, 3>
    }
    %slot = arith.remui %j, %c2 : index
    %phase = arith.divui %j, %c2 : index
    %odd = arith.remui %phase, %c2 : index
    %parity = arith.index_cast %odd : index to i1
    apipe.mbarrier_wait %ring[%slot], %parity : memref<2xi64, 3>
    %x = memref.load %buf[%slot, %c0] : memref<2x2xi32, 3>
    %y = memref.load %buf[%slot, %c1] : memref<2x2xi32, 3>
    %s = arith.addi %x, %y : i32
    memref.store %s, %out[%j] : memref<4xi32>
  }
  %u = memref.cast %out : memref<4xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @missing_wait() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %A = memref.alloc() : memref<8xi32>
  %buf = memref.alloc() : memref<2xi32, 3>
  %ring = memref.alloca() : memref<1xi64, 3>
  func.call @fill(%A) : (memref<8xi32>) -> ()
  memref.store %zero, %buf[%c0] : memref<2xi32, 3>
  memref.store %zero, %buf[%c1] : memref<2xi32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.copy %A[%c0], %buf[%c0], 2 : memref<8xi32> to memref<2xi32, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  %u = memref.cast %buf : memref<2xi32, 3> to memref<*xi32, 3>
  %h = memref.memory_space_cast %u : memref<*xi32, 3> to memref<*xi32>
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  return
}

func.func @bulk() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %A = memref.alloc() : memref<8xi32>
  %buf = memref.alloc() : memref<4xi32, 3>
  %ring = memref.alloca() : memref<1xi64, 3>
  func.call @fill(%A) : (memref<8xi32>) -> ()
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.mbarrier_expect_tx %ring[%c0], 16 : memref<1xi64, 3>
  apipe.bulk_copy %A[%c0], %buf[%c0], 4, %ring[%c0] : memref<8xi32> to memref<4xi32, 3>, memref<1xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  %u = memref.cast %buf : memref<4xi32, 3> to memref<*xi32, 3>
  %h = memref.memory_space_cast %u : memref<*xi32, 3> to memref<*xi32>
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  return
}

// Phase 0 of the slot gets no arrival at all.
func.func @phase_never_armed() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  // NEVER: mbarrier.mlir:[[# @LINE + 1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return: it waits for phase 0 (parity 0) of the slot, which has 0 of 1 arrivals, and the host thread is the only one that could arrive
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  return
}

// The ring expects two arrivals per phase; one thread arrives once.
func.func @arrival_count_too_high() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c2 : memref<1xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  // COUNT: mbarrier.mlir:[[# @LINE + 1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return: it waits for phase 0 (parity 0) of the slot, which has 1 of 2 arrivals
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  return
}

// Group 1 reuses the one slot before group 0's phase was waited for: both
// phases complete, the slot is at phase 2, and the wait for group 0
// (parity 0) now waits for phase 2, which nothing arms (the phase bit is
// out of step).
func.func @slot_reused_too_early() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %true = arith.constant true
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<1xi64, 3>
  // REUSED: mbarrier.mlir:[[# @LINE + 1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return: it waits for phase 2 (parity 0) of the slot, which has 0 of 1 arrivals
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  return
}

// The phase bit is out of step: after phase 0 completed, a second wait
// flips the parity to 1 although nothing arms phase 1.
func.func @phase_out_of_step() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %true = arith.constant true
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  // STEP: mbarrier.mlir:[[# @LINE + 1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return: it waits for phase 1 (parity 1) of the slot, which has 0 of 1 arrivals
  apipe.mbarrier_wait %ring[%c0], %true : memref<1xi64, 3>
  return
}

// A bulk copy completes 16 bytes that nobody expected. Lazy: the arrival
// completes the phase before the copy lands, so the wait returns early and
// the loads read stale data (the copy's bytes then count on the next
// phase). Eager: the copy lands first, the transaction count goes below
// zero and the phase never completes.
func.func @bulk_without_expect_tx() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %false = arith.constant false
  %zero = arith.constant 0 : i32
  %A = memref.alloc() : memref<8xi32>
  %buf = memref.alloc() : memref<4xi32, 3>
  %ring = memref.alloca() : memref<1xi64, 3>
  func.call @fill(%A) : (memref<8xi32>) -> ()
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %zero, %buf[%i] : memref<4xi32, 3>
  }
  memref.store %zero, %buf[%c3] : memref<4xi32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.bulk_copy %A[%c0], %buf[%c0], 4, %ring[%c0] : memref<8xi32> to memref<4xi32, 3>, memref<1xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  // NOEXPECT-EAGER: mbarrier.mlir:[[# @LINE + 1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return: it waits for phase 0 (parity 0) of the slot, which has 1 of 1 arrivals and -16 transaction bytes outstanding
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  %u = memref.cast %buf : memref<4xi32, 3> to memref<*xi32, 3>
  %h = memref.memory_space_cast %u : memref<*xi32, 3> to memref<*xi32>
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  return
}

func.func @expect_tx_without_bulk() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.mbarrier_expect_tx %ring[%c0], 32 : memref<1xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  // NOBULK: mbarrier.mlir:[[# @LINE + 1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return: it waits for phase 0 (parity 0) of the slot, which has 1 of 1 arrivals and 32 transaction bytes outstanding
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  return
}

func.func @uninitialised() {
  %c0 = arith.constant 0 : index
  %ring = memref.alloca() : memref<1xi64, 3>
  %zero = arith.constant 0 : i64
  memref.store %zero, %ring[%c0] : memref<1xi64, 3>
  // UNINIT: mbarrier.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_arrive_copies' on an mbarrier slot that no 'apipe.mbarrier_init' initialised
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  return
}

func.func @overwritten() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  memref.store %zero, %ring[%c0] : memref<1xi64, 3>
  // OVERWRITTEN: mbarrier.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_arrive_copies' on an mbarrier slot whose bytes were overwritten since its 'apipe.mbarrier_init' (a store into the ring, or the ring's memory reused)
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  return
}
