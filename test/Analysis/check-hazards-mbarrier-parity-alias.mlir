// apipe-check-hazards, mbarrier form: waits whose count names a group more
// than 2K back. The hardware tells a slot's phases apart by parity only,
// so a wait on group `n - (2K·j + e)` (1 <= e <= 2K) is a wait on the group
// `e` back: for e <= K it waits for a newer group than its count names,
// which is enough (trial 78: such waits were reported as deadlocks). The
// checker is silent; apipe-run prints what make-sync prints in every
// completion mode. The broken twins (e > K) are in
// check-hazards-mbarrier-parity-alias-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards -o %t.checked
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values

// out[t] = A[4t + 2] = 4t + 2 for the rows each function reads.
// VALUES: [2,  6,  10,  14,  -1,  -1,  -1,  -1]
// VALUES-NEXT: [2,  6,  10,  14,  18,  22,  -1,  -1]
// VALUES-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

// K = 1: one prologue group, three in the loop (n = 4); the tail waits on
// group m - 3 with parity `!= 0`: 3 = 2K + 1 groups back, the slot and
// parity of the newest group.
func.func @k1_three_back(%A: memref<256xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
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
  %x0 = arith.subi %m, %c3 : index
  %a0 = arith.andi %x0, %c1 : index
  %p0 = arith.cmpi ne, %a0, %c0 : index
  apipe.mbarrier_wait %ring[%c0], %p0 : memref<1xi64, 3>
  %v = memref.load %buf[%c3, %c2] : memref<4x4xf32>
  memref.store %v, %out[%c3] : memref<8xf32>
  return
}

// K = 2: two prologue groups, four in the loop (n = 6); the tail waits on
// group m - 5: 2K + 1 groups back, slot 1 and the parity of group 5, the
// newest, whose arrive comes after group 4's.
func.func @k2_five_back(%A: memref<256xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %buf = memref.alloca() : memref<6x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<256xf32> to memref<6x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<256xf32> to memref<6x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  %m = scf.for %i = %c0 to %c4 step %c1 iter_args(%n = %c2) -> (index) {
    // The group n - 2 = i: slot n mod 2, the phase before n's.
    %s = arith.andi %n, %c1 : index
    %q = arith.andi %n, %c2 : index
    %par = arith.cmpi eq, %q, %c0 : index
    apipe.mbarrier_wait %ring[%s], %par : memref<2xi64, 3>
    %x = memref.load %buf[%i, %c2] : memref<6x4xf32>
    memref.store %x, %out[%i] : memref<8xf32>
    %g = arith.addi %i, %c2 : index
    %o = arith.muli %g, %c4 : index
    apipe.copy %A[%o], %buf[%g, %c0], 4 : memref<256xf32> to memref<6x4xf32>
    apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
    %n1 = arith.addi %n, %c1 : index
    scf.yield %n1 : index
  }
  %x0 = arith.subi %m, %c5 : index
  %s0 = arith.andi %x0, %c1 : index
  %a0 = arith.andi %x0, %c2 : index
  %p0 = arith.cmpi ne, %a0, %c0 : index
  apipe.mbarrier_wait %ring[%s0], %p0 : memref<2xi64, 3>
  %r4 = arith.constant 4 : index
  %v4 = memref.load %buf[%r4, %c2] : memref<6x4xf32>
  memref.store %v4, %out[%r4] : memref<8xf32>
  %v5 = memref.load %buf[%c5, %c2] : memref<6x4xf32>
  memref.store %v5, %out[%c5] : memref<8xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %m1 = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %u = memref.cast %out : memref<8xf32> to memref<*xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %m1, %out[%i] : memref<8xf32>
  }
  func.call @k1_three_back(%A, %out) : (memref<256xf32>, memref<8xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %m1, %out[%i] : memref<8xf32>
  }
  func.call @k2_five_back(%A, %out) : (memref<256xf32>, memref<8xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
