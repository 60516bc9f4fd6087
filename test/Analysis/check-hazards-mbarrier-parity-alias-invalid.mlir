// apipe-check-hazards, mbarrier form: the broken twins of
// check-hazards-mbarrier-parity-alias.mlir. Each tail wait's count names a
// group 2K·j + e back with K < e <= 2K: its slot and parity are those of
// the group e back, whose slot was armed again by a group still in flight,
// so the wait returns at once (apipe-run: a read of a copy in flight in
// lazy mode, a deadlock in eager mode, where that group landed first).
// Each is reported at the wait, and each read it leaves exposed.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o %t.checked 2>&1 | FileCheck %s --implicit-check-not=error:

// K = 1, the tail's count 4 = 2K + 2 back: the slot and parity of group
// 2 back, which group 3 (1 back, in flight) armed again.
// CHECK-LABEL: parity-alias-invalid.mlir:45:3: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 2 groups old on its ring of 1 slots, and the slot was armed again since by a group 1 groups old that this wait does not wait for
// CHECK-SAME: (its count names the group 4 groups old, which has the same slot and parity: a slot's phases differ by parity only)
// CHECK: parity-alias-invalid.mlir:46:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: note: this wait's slot and parity name the group 2 groups back on its ring; this copy's group is 1 group(s) back
// CHECK: parity-alias-invalid.mlir:48:3: error: 'func.return' op releases the stack memory
func.func @k1_four_back(%A: memref<256xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  %buf = memref.alloca() : memref<4x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<256xf32> to memref<4x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  %m = scf.for %i = %c0 to %c3 step %c1 iter_args(%n = %c1) -> (index) {
    // The group n - 1 (`== 0`: the phase before n's).
    %q = arith.andi %n, %c1 : index
    %par = arith.cmpi eq, %q, %c0 : index
    apipe.mbarrier_wait %ring[%c0], %par : memref<1xi64, 3>
    %x = memref.load %buf[%i, %c2] : memref<4x4xf32>
    memref.store %x, %out[%i] : memref<8xf32>
    %g = arith.addi %i, %c1 : index
    %o = arith.muli %g, %c4 : index
    apipe.copy %A[%o], %buf[%g, %c0], 4 : memref<256xf32> to memref<4x4xf32>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
    %n1 = arith.addi %n, %c1 : index
    scf.yield %n1 : index
  }
  %x0 = arith.subi %m, %c4 : index
  %a0 = arith.andi %x0, %c1 : index
  %p0 = arith.cmpi ne, %a0, %c0 : index
  apipe.mbarrier_wait %ring[%c0], %p0 : memref<1xi64, 3>
  %v = memref.load %buf[%c3, %c2] : memref<4x4xf32>
  memref.store %v, %out[%c3] : memref<8xf32>
  return
}


// -----

// K = 2, the tail's count 7 = 2K + 3 back: the slot and parity of group
// 3 back, which group 7 (1 back, in flight) armed again; group 6 (2 back)
// is in flight too.
// CHECK-LABEL: parity-alias-invalid.mlir:{{[0-9]+}}:3: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 3 groups old on its ring of 2 slots
// CHECK-SAME: (its count names the group 7 groups old
// CHECK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: note: this wait's slot and parity name the group 3 groups back on its ring; this copy's group is 2 group(s) back
// CHECK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: note: this wait's slot and parity name the group 3 groups back on its ring; this copy's group is 1 group(s) back
// CHECK: error: 'func.return' op releases the stack memory
func.func @k2_seven_back(%A: memref<256xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %buf = memref.alloca() : memref<8x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<256xf32> to memref<8x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<256xf32> to memref<8x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  %m = scf.for %i = %c0 to %c6 step %c1 iter_args(%n = %c2) -> (index) {
    // The group n - 2 = i: slot n mod 2, the phase before n's.
    %s = arith.andi %n, %c1 : index
    %q = arith.andi %n, %c2 : index
    %par = arith.cmpi eq, %q, %c0 : index
    apipe.mbarrier_wait %ring[%s], %par : memref<2xi64, 3>
    %x = memref.load %buf[%i, %c2] : memref<8x4xf32>
    memref.store %x, %out[%i] : memref<8xf32>
    %g = arith.addi %i, %c2 : index
    %o = arith.muli %g, %c4 : index
    apipe.copy %A[%o], %buf[%g, %c0], 4 : memref<256xf32> to memref<8x4xf32>
    apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
    %n1 = arith.addi %n, %c1 : index
    scf.yield %n1 : index
  }
  %x0 = arith.subi %m, %c7 : index
  %s0 = arith.andi %x0, %c1 : index
  %a0 = arith.andi %x0, %c2 : index
  %p0 = arith.cmpi ne, %a0, %c0 : index
  apipe.mbarrier_wait %ring[%s0], %p0 : memref<2xi64, 3>
  %r4 = arith.constant 6 : index
  %v4 = memref.load %buf[%r4, %c2] : memref<8x4xf32>
  memref.store %v4, %out[%r4] : memref<8xf32>
  %v5 = memref.load %buf[%c7, %c2] : memref<8x4xf32>
  memref.store %v5, %out[%c7] : memref<8xf32>
  return
}

