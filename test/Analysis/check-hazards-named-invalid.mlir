// The broken twins of check-hazards-named.mlir: a token yielded with
// `apipe.ready` on another branch, or carried past optional commits, that
// does not name the copy's group on some path. Each is reported at the
// access, in token form (exact locations) and in the mbarrier form
// apipe-tokens-to-mbarrier makes of it.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-opt %s --split-input-file --apipe-tokens-to-mbarrier=slots=4 --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// With fewer slots the conversion waits for each slot's previous group
// before arming it again (2 groups back with 2 slots, 1 with 1 slot), which
// repairs some of them (MB2, MB1 list what stays broken):
// RUN: not apipe-opt %s --split-input-file --apipe-tokens-to-mbarrier=slots=2 --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=MB2 --implicit-check-not=error:
// RUN: not apipe-opt %s --split-input-file --apipe-tokens-to-mbarrier=slots=1 --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=MB1 --implicit-check-not=error:

// No wait: the then path's copy is in flight at the read.
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 15]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 14]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB1: check-hazards-named-invalid.mlir:[[# @LINE + 13]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @if_ready_no_wait(%A: memref<64xf32>, %out: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xf32>
  %xt = scf.if %c -> !apipe.token {
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    scf.yield %e : !apipe.token
  } else {
    %rr = apipe.ready
    scf.yield %rr : !apipe.token
  }
  %x = memref.load %buf[%c2] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<4xf32>
  return
}

// -----

// The then path yields the token of the group before its copy's.
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 17]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 16]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB1: check-hazards-named-invalid.mlir:[[# @LINE + 15]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @if_ready_older_token(%A: memref<64xf32>, %out: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xf32>
  %xt = scf.if %c -> !apipe.token {
    %e0 = apipe.commit_group
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    scf.yield %e0 : !apipe.token
  } else {
    %rr = apipe.ready
    scf.yield %rr : !apipe.token
  }
  apipe.wait %xt
  %x = memref.load %buf[%c2] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<4xf32>
  return
}

// -----

// The else path copies too, but yields `ready`.
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 19]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 18]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB1: check-hazards-named-invalid.mlir:[[# @LINE + 17]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @if_ready_else_copies(%A: memref<64xf32>, %out: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  %xt = scf.if %c -> !apipe.token {
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    scf.yield %e : !apipe.token
  } else {
    apipe.copy %A[%c4], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    %rr = apipe.ready
    scf.yield %rr : !apipe.token
  }
  apipe.wait %xt
  %x = memref.load %buf[%c2] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<4xf32>
  return
}

// -----

// scf.index_switch: case 1 yields the token of the group before its copy.
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 25]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 24]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB1: check-hazards-named-invalid.mlir:[[# @LINE + 23]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @switch_older_token(%A: memref<64xf32>, %out: memref<4xf32>, %sel: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  %xt = scf.index_switch %sel -> !apipe.token
  case 0 {
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    scf.yield %e : !apipe.token
  }
  case 1 {
    %e0 = apipe.commit_group
    apipe.copy %A[%c4], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %e = apipe.commit_group
    scf.yield %e0 : !apipe.token
  }
  default {
    %rr = apipe.ready
    scf.yield %rr : !apipe.token
  }
  apipe.wait %xt
  %x = memref.load %buf[%c2] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<4xf32>
  return
}

// -----

// The token of iteration i - 2, past an optional commit, and a read of
// the slot of iteration i - 1, whose group that token does not name.
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 23]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 22]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @carried_read_newer(%A: memref<256xf32>, %out: memref<64xf32>, %T: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %r0 = apipe.ready
  %res:2 = scf.for %i = %c0 to %T step %c1 iter_args(%t1 = %r0, %t2 = %r0) -> (!apipe.token, !apipe.token) {
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c3 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    scf.if %c {
      %e = apipe.commit_group
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      apipe.wait %t2
      %j = arith.subi %i, %c1 : index
      %u = arith.remui %j, %c3 : index
      %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
      memref.store %x, %out[%j] : memref<64xf32>
    }
    scf.yield %t, %t1 : !apipe.token, !apipe.token
  }
  apipe.wait %res#0
  return
}

// -----

// Two versions for a token carried two iterations: the copy overwrites the
// slot of iteration i - 2 while that copy is in flight, and the read of
// that slot races with the new copy.
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 25]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 24]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB1: check-hazards-named-invalid.mlir:[[# @LINE + 23]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 12]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 11]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
func.func @carried_two_versions(%A: memref<256xf32>, %out: memref<64xf32>, %T: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %r0 = apipe.ready
  %res:2 = scf.for %i = %c0 to %T step %c1 iter_args(%t1 = %r0, %t2 = %r0) -> (!apipe.token, !apipe.token) {
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<2x4xf32>
    %t = apipe.commit_group
    scf.if %c {
      %e = apipe.commit_group
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      apipe.wait %t2
      %j = arith.subi %i, %c2 : index
      %u = arith.remui %j, %c2 : index
      %x = memref.load %buf[%u, %c2] : memref<2x4xf32>
      memref.store %x, %out[%j] : memref<64xf32>
    }
    scf.yield %t, %t1 : !apipe.token, !apipe.token
  }
  apipe.wait %res#0
  return
}

// -----

// The window is not rotated: `%t2` stays the `ready` token of the init, so
// its wait completes nothing.
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 23]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 12]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
func.func @carried_not_rotated(%A: memref<256xf32>, %out: memref<64xf32>, %T: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %r0 = apipe.ready
  %res:2 = scf.for %i = %c0 to %T step %c1 iter_args(%t1 = %r0, %t2 = %r0) -> (!apipe.token, !apipe.token) {
    %off = arith.muli %i, %c4 : index
    %v = arith.remui %i, %c3 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<256xf32> to memref<3x4xf32>
    %t = apipe.commit_group
    scf.if %c {
      %e = apipe.commit_group
    }
    %ge = arith.cmpi uge, %i, %c2 : index
    scf.if %ge {
      apipe.wait %t2
      %j = arith.subi %i, %c2 : index
      %u = arith.remui %j, %c3 : index
      %x = memref.load %buf[%u, %c2] : memref<3x4xf32>
      memref.store %x, %out[%j] : memref<64xf32>
    }
    scf.yield %t, %t2 : !apipe.token, !apipe.token
  }
  apipe.wait %res#0
  return
}

// -----

// In a loop, the carried token is never updated (the loop yields the
// token it received): the read of the previous iteration's slot races.
// With 1 slot, the wait for the slot's previous group comes after the next
// even iteration's copy, which overwrites that group's copy in flight: a
// write-after-write that apipe-run reports too, and that the checker
// missed while the counts of the two paths of the scf.if merged.
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 31]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 30]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// MB1: check-hazards-named-invalid.mlir:[[# @LINE + 29]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: check-hazards-named-invalid.mlir:[[# @LINE + 16]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// MB2: check-hazards-named-invalid.mlir:[[# @LINE + 15]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// MB1: check-hazards-named-invalid.mlir:[[# @LINE + 14]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
func.func @loop_if_ready_stale(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %r0 = apipe.ready
  %res = scf.for %i = %c0 to %c16 step %c1 iter_args(%tp = %r0) -> (!apipe.token) {
    %v = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %v, %c0 : index
    %t = scf.if %even -> !apipe.token {
      %off = arith.muli %i, %c4 : index
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
      %e = apipe.commit_group
      scf.yield %e : !apipe.token
    } else {
      %rr = apipe.ready
      scf.yield %rr : !apipe.token
    }
    apipe.wait %tp
    %ge = arith.cmpi uge, %i, %c1 : index
    scf.if %ge {
      %j = arith.subi %i, %c1 : index
      %u = arith.remui %j, %c2 : index
      %x = memref.load %buf[%u, %c0] : memref<2x4xf32>
      memref.store %x, %out[%i] : memref<16xf32>
    }
    scf.yield %tp : !apipe.token
  }
  apipe.wait %res
  return
}
