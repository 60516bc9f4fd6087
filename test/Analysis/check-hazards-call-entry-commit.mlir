// A callee's commits and waits in its entry block before its first access
// act on the caller's groups, in order (trial 56). The entry
// `commit_group; wait_group 0` that the pipeliner puts before each loop
// that waits (docs/pipelining.md, rule 12) was not counted: a false
// read-after-write at a call of a pipelined function after a call that
// returned with copies in flight. A commit there also closes the
// caller's uncommitted copies into a group. And copies that an
// `apipe.mbarrier_arrive_copies` tracks (a callee in the mbarrier form
// returned with them in flight) are completed by no `wait_group`: the
// checker took the next callee's `wait_group 0` to complete them, and was
// silent on the read that apipe-run shows racing. A token `apipe.wait` on a
// group committed there counts too (trial 57): the `wait_group` that
// keeps the groups committed after it.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --entry=commit_then_wait_0 --completion=lazy | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=commit_then_wait_0 --completion=random:3 | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=commit_then_wait_1 --completion=lazy | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=uncommitted_then_commit_wait_0 --completion=lazy | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=uncommitted_then_commit_wait_0 --completion=eager | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=token_commit_wait --completion=lazy | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=token_commit_wait --completion=random:1 | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=mbarrier_entry_wait --completion=lazy | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=own_copy_then_commit_wait_0 --completion=eager | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=own_copy_then_commit_wait_0 --completion=random:7 | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=mbarrier_entry_wait --completion=random:2 | FileCheck %s --check-prefix=ONE
// ONE: 1
// RUN: not apipe-run %s --entry=commit_then_wait_2 --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=uncommitted_then_commit_wait_1 --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=mbarrier_leftover --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=token_wait_other_queue --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=mbarrier_entry_wrong_parity --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=own_copy_then_wait_1 --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=uncommitted_then_wait_commit --completion=eager 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=committed_then_wait_1_commit --completion=random:2 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight

func.func @issue(%A: memref<4xf32>, %X: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %X[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  return
}
func.func @issue_uncommitted(%A: memref<4xf32>, %X: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %X[%c0], 4 : memref<4xf32> to memref<4xf32>
  return
}
// A caller that waits on tokens may not call a function that commits or
// waits: its token distances would shift.
func.func @token_caller(%A: memref<4xf32>, %X: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %X[%c0], 4 : memref<4xf32> to memref<4xf32>
  %t = apipe.commit_group
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op calls @commit_wait_0, which commits or waits (itself or through the functions it calls): apipe counts groups only within a function
  func.call @commit_wait_0(%X) : (memref<4xf32>) -> ()
  apipe.wait %t
  return
}

// The mbarrier form of @issue (apipe-tokens-to-mbarrier now refuses to
// make it: the group is in flight at the return).
func.func @issue_mbarrier(%A: memref<4xf32>, %X: memref<4xf32>) {
  %ring = memref.alloca() : memref<2xi64, 3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %X[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  return
}
func.func @read_after(%X: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %y = memref.load %X[%c0] : memref<4xf32>
  vector.print %y : f32
  return
}
func.func @commit_wait_0(%X: memref<4xf32>) {
  apipe.commit_group
  apipe.wait_group 0
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
// The caller's group is one older than the empty group committed here:
// `wait_group 1` completes it.
func.func @commit_wait_1(%X: memref<4xf32>) {
  apipe.commit_group
  apipe.wait_group 1
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
func.func @commit_wait_2(%X: memref<4xf32>) {
  apipe.commit_group
  apipe.wait_group 2
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
func.func @wait_0(%X: memref<4xf32>) {
  apipe.wait_group 0
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
// Token form (trial 57): waiting for the newest group of a queue
// completes its older groups too (FIFO), the caller's among them.
func.func @token_commit_wait_same_queue(%X: memref<4xf32>) {
  %t = apipe.commit_group
  %u = apipe.commit_group queue 1
  apipe.wait %t
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
func.func @token_commit_wait_queue_1(%X: memref<4xf32>) {
  %t = apipe.commit_group queue 1
  apipe.wait %t
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
// The mbarrier form of an entry `commit_group; wait_group 0`
// (apipe-tokens-to-mbarrier's output): the arrive tracks every earlier
// copy of the thread, the caller's among them, and the wait on the first
// phase of its slot waits for them (trial 57).
func.func @mbarrier_entry(%X: memref<4xf32>) {
  %ring = memref.alloca() : memref<2xi64, 3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %slot = arith.andi %c0, %c1 : index
  apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%slot], %false : memref<2xi64, 3>
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
// The wait names the phase before (parity 1): it returns at once.
func.func @mbarrier_entry_parity_1(%X: memref<4xf32>) {
  %ring = memref.alloca() : memref<2xi64, 3>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
func.func @buffers() -> (memref<4xf32>, memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<4xf32>
  %X = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%A : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%X : memref<4xf32>)
  return %A, %X : memref<4xf32>, memref<4xf32>
}

// Silent: each callee's entry waits complete the caller's group first.
func.func @commit_then_wait_0() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @commit_wait_0(%X) : (memref<4xf32>) -> ()
  return
}
func.func @commit_then_wait_1() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @commit_wait_1(%X) : (memref<4xf32>) -> ()
  return
}
// The callee's commit closes the caller's uncommitted copy.
func.func @uncommitted_then_commit_wait_0() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue_uncommitted(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @commit_wait_0(%X) : (memref<4xf32>) -> ()
  return
}

func.func @token_commit_wait() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @token_commit_wait_same_queue(%X) : (memref<4xf32>) -> ()
  return
}

func.func @mbarrier_entry_wait() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @mbarrier_entry(%X) : (memref<4xf32>) -> ()
  return
}

// A caller with copies of its own may call such a function too (trial
// 58: it was refused, "apipe counts groups only within a function", and
// so was the pipeliner's output called from such a caller); it still may
// not where it waits on tokens.
func.func @own_copy_then_commit_wait_0() {
  %c0 = arith.constant 0 : index
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  apipe.copy %A[%c0], %X[%c0], 4 : memref<4xf32> to memref<4xf32>
  func.call @commit_wait_0(%X) : (memref<4xf32>) -> ()
  return
}

// Errors: the caller's group stays in flight.
// A wait before the commit (trial 59): the wait finds the caller's copy
// uncommitted (or its group within `pending`), and the commit after it
// closes the copy into a group still in flight. Were the prefix's waits
// applied again after the call, they would complete it.
func.func @wait_0_commit(%X: memref<4xf32>) {
  apipe.wait_group 0
  apipe.commit_group
  return
}
func.func @wait_1_commit() {
  apipe.wait_group 1
  apipe.commit_group
  return
}
func.func @uncommitted_then_wait_commit() {
  %c0 = arith.constant 0 : index
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  apipe.copy %A[%c0], %X[%c0], 4 : memref<4xf32> to memref<4xf32>
  func.call @wait_0_commit(%X) : (memref<4xf32>) -> ()
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
func.func @committed_then_wait_1_commit() {
  %c0 = arith.constant 0 : index
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  apipe.copy %A[%c0], %X[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  func.call @wait_1_commit() : () -> ()
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @read_after(%X) : (memref<4xf32>) -> ()
  return
}
// The caller's copy is closed by the callee's commit, the newest group:
// `wait_group 1` leaves it in flight.
func.func @own_copy_then_wait_1() {
  %c0 = arith.constant 0 : index
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  apipe.copy %A[%c0], %X[%c0], 4 : memref<4xf32> to memref<4xf32>
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @commit_wait_1(%X) : (memref<4xf32>) -> ()
  return
}
func.func @mbarrier_entry_wrong_parity() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @mbarrier_entry_parity_1(%X) : (memref<4xf32>) -> ()
  return
}
// The caller's group is on queue 0.
func.func @token_wait_other_queue() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @token_commit_wait_queue_1(%X) : (memref<4xf32>) -> ()
  return
}
func.func @commit_then_wait_2() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @commit_wait_2(%X) : (memref<4xf32>) -> ()
  return
}
func.func @uncommitted_then_commit_wait_1() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue_uncommitted(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @commit_wait_1(%X) : (memref<4xf32>) -> ()
  return
}
func.func @mbarrier_leftover() {
  %A, %X = func.call @buffers() : () -> (memref<4xf32>, memref<4xf32>)
  func.call @issue_mbarrier(%A, %X) : (memref<4xf32>, memref<4xf32>) -> ()
  // CHECK: check-hazards-call-entry-commit.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @wait_0(%X) : (memref<4xf32>) -> ()
  return
}
