// apipe-check-hazards on hand-pipelined loops whose slot is not a plain
// `(τ + c) mod V` of an iter_arg (both were a false read-after-write and
// write-after-write):
// - a loop of step 2 whose slot is the iteration number recomputed from
//   the induction variable, `((j - lb) divui step) mod 3`: `(2τ) div 2` is
//   `τ` exactly, so the slots compare as `τ mod 3`, `(τ + 2) mod 3`;
// - a double buffer whose slot toggles in an iter_arg, `v = 1 - cur` or
//   `v = cur xor 1` from 0: `cur` is `τ mod 2`, `v` is `1 - τ mod 2`.
// Each twin waits for one group too few and is an error at its line and
// column; nothing else is reported.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:

func.func @step_two(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %o1 = arith.muli %c2, %c4 : index
  apipe.copy %A[%o1], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c12 step %c2 {
    %it = arith.divui %j, %c2 : index
    apipe.wait_group 1
    %cur = arith.remui %it, %c3 : index
    %x = memref.load %buf[%cur, %c2] : memref<3x4xf32>
    memref.store %x, %out[%it] : memref<16xf32>
    %it2 = arith.addi %it, %c2 : index
    %jj = arith.muli %it2, %c2 : index
    %inr = arith.cmpi ult, %jj, %c12 : index
    scf.if %inr {
      %off = arith.muli %jj, %c4 : index
      %v = arith.remui %it2, %c3 : index
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    }
    apipe.commit_group
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x4xf32>
  return
}

// -----

// The twin: `wait_group 2` leaves the slot read in flight.
func.func @step_two_weak(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %o1 = arith.muli %c2, %c4 : index
  apipe.copy %A[%o1], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c12 step %c2 {
    %it = arith.divui %j, %c2 : index
    apipe.wait_group 2
    %cur = arith.remui %it, %c3 : index
    // CHECK: check-hazards-step-slots.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%cur, %c2] : memref<3x4xf32>
    memref.store %x, %out[%it] : memref<16xf32>
    %it2 = arith.addi %it, %c2 : index
    %jj = arith.muli %it2, %c2 : index
    %inr = arith.cmpi ult, %jj, %c12 : index
    scf.if %inr {
      %off = arith.muli %jj, %c4 : index
      %v = arith.remui %it2, %c3 : index
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    }
    apipe.commit_group
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x4xf32>
  return
}

// -----

func.func @toggle(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%cur = %c0) -> (index) {
    %nx = arith.addi %j, %c1 : index
    %v = arith.subi %c1, %cur : index
    %inr = arith.cmpi ult, %nx, %n : index
    scf.if %inr {
      %off = arith.muli %nx, %c4 : index
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %buf[%cur, %c2] : memref<2x4xf32>
    memref.store %x, %out[%c0] : memref<16xf32>
    scf.yield %v : index
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x4xf32>
  return
}

// -----

// The twin: `wait_group 2` leaves the slot read in flight, and the next
// copy into the other slot may meet the one still in flight there.
func.func @toggle_weak(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%cur = %c0) -> (index) {
    %nx = arith.addi %j, %c1 : index
    %v = arith.subi %c1, %cur : index
    %inr = arith.cmpi ult, %nx, %n : index
    scf.if %inr {
      %off = arith.muli %nx, %c4 : index
      // CHECK: check-hazards-step-slots.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    // CHECK: check-hazards-step-slots.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%cur, %c2] : memref<2x4xf32>
    memref.store %x, %out[%c0] : memref<16xf32>
    scf.yield %v : index
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x4xf32>
  return
}

// -----

func.func @toggle_xori(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%cur = %c0) -> (index) {
    %nx = arith.addi %j, %c1 : index
    %v = arith.xori %cur, %c1 : index
    %inr = arith.cmpi ult, %nx, %n : index
    scf.if %inr {
      %off = arith.muli %nx, %c4 : index
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %buf[%cur, %c2] : memref<2x4xf32>
    memref.store %x, %out[%c0] : memref<16xf32>
    scf.yield %v : index
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x4xf32>
  return
}

// -----

// Its twin with `wait_group 2`.
func.func @toggle_xori_weak(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%cur = %c0) -> (index) {
    %nx = arith.addi %j, %c1 : index
    %v = arith.xori %cur, %c1 : index
    %inr = arith.cmpi ult, %nx, %n : index
    scf.if %inr {
      %off = arith.muli %nx, %c4 : index
      // CHECK: check-hazards-step-slots.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    // CHECK: check-hazards-step-slots.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%cur, %c2] : memref<2x4xf32>
    memref.store %x, %out[%c0] : memref<16xf32>
    scf.yield %v : index
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<2x4xf32>
  return
}
