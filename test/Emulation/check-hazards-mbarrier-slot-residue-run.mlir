// Waits in a loop whose slot and parity are not those of one count, but
// name one group on every path because the ring's count is known modulo K
// or 2K: each iteration arrives a multiple of K (or 2K) times, so the
// count's residue at the loop's top is that at its entry.
//   @shifted: 4 groups per iteration on a ring of 4 slots, counted by the
//     iter_arg %x (a multiple of 4). The wait on slot `((x & 3) + 1) mod 4`
//     with the parity of x's phase names group x + 1 (x mod 4 = 0: the
//     slot moved by one stays in x's phase), and the one moved by 3 names
//     group x + 3. Correct; the checker reported "cannot relate" before.
//   @shifted_short: the second wait removed; the read of group x + 2's
//     data races (apipe-run stops there in lazy completion).
//   @constants: 4 groups per iteration on a ring of 2 slots (the count is
//     0 mod 4 at the top), waits on constant slots and parities: slot 1,
//     parity 0 names group x + 1, slot 1, parity 1 group x + 3. Correct;
//     the checker reported "the number of earlier arrives is not known".
//   @moved_arrive: an arrive on `((x & 3) + 1) mod 4` of the count x one
//     behind the ring's: the slot of x + 1, the ring's next one. Correct;
//     the checker reported "not provably the ring's next slot" before.
//   @constants_short: the first wait on slot 0 instead (group x only);
//     the read of group x + 1's data races (its wait comes after it).
// The checker and apipe-run agree; the correct functions print what
// make-sync prints in every mode. A[i] = i.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1,random:2,random:3 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=broken_shifted --completion=lazy 2>&1 | FileCheck %s --check-prefix=LAZY-SHIFTED
// RUN: not apipe-run %s --entry=broken_constants --completion=lazy 2>&1 | FileCheck %s --check-prefix=LAZY-CONSTANTS
// SYNC: 120
// SYNC-NEXT: 120
// SYNC-NEXT: 1
// MODES-COUNT-5: 120{{[[:space:]]+}}120{{[[:space:]]+}}1{{$}}

func.func @shifted(%A: memref<32xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4x4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %c0, %acc = %zero) -> (index, f32) {
    %base = arith.muli %i, %c16 : index
    %src1 = arith.addi %base, %c4 : index
    %src2 = arith.addi %src1, %c4 : index
    %src3 = arith.addi %src2, %c4 : index
    apipe.copy %A[%base], %buf[%c0, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %g0 = arith.andi %x, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%g0] : memref<4xi64, 3>
    apipe.copy %A[%src1], %buf[%c1, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %x1 = arith.addi %x, %c1 : index
    %g1 = arith.andi %x1, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%g1] : memref<4xi64, 3>
    apipe.copy %A[%src2], %buf[%c2, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %x2 = arith.addi %x1, %c1 : index
    %g2 = arith.andi %x2, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%g2] : memref<4xi64, 3>
    apipe.copy %A[%src3], %buf[%c3, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %x3 = arith.addi %x2, %c1 : index
    %g3 = arith.andi %x3, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%g3] : memref<4xi64, 3>
    %low = arith.andi %x, %c3 : index
    %hi = arith.andi %x, %c4 : index
    %parity = arith.cmpi ne, %hi, %c0 : index
    %m1 = arith.addi %low, %c1 : index
    %s1 = arith.remui %m1, %c4 : index
    // CHECK-NOT: cannot relate
    apipe.mbarrier_wait %ring[%s1], %parity : memref<4xi64, 3>
    %v0 = memref.load %buf[%c0, %c1] : memref<4x4xf32>
    %v1 = memref.load %buf[%c1, %c1] : memref<4x4xf32>
    %m3 = arith.addi %low, %c3 : index
    %s3 = arith.remui %m3, %c4 : index
    apipe.mbarrier_wait %ring[%s3], %parity : memref<4xi64, 3>
    %v2 = memref.load %buf[%c2, %c1] : memref<4x4xf32>
    %v3 = memref.load %buf[%c3, %c1] : memref<4x4xf32>
    %a0 = arith.addf %acc, %v0 : f32
    %a1 = arith.addf %a0, %v1 : f32
    %a2 = arith.addf %a1, %v2 : f32
    %a3 = arith.addf %a2, %v3 : f32
    %next = arith.addi %x, %c4 : index
    scf.yield %next, %a3 : index, f32
  }
  return %r#1 : f32
}

func.func @shifted_short(%A: memref<32xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4x4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%x = %c0, %acc = %zero) -> (index, f32) {
    %base = arith.muli %i, %c16 : index
    %src1 = arith.addi %base, %c4 : index
    %src2 = arith.addi %src1, %c4 : index
    %src3 = arith.addi %src2, %c4 : index
    apipe.copy %A[%base], %buf[%c0, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %g0 = arith.andi %x, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%g0] : memref<4xi64, 3>
    apipe.copy %A[%src1], %buf[%c1, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %x1 = arith.addi %x, %c1 : index
    %g1 = arith.andi %x1, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%g1] : memref<4xi64, 3>
    apipe.copy %A[%src2], %buf[%c2, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %x2 = arith.addi %x1, %c1 : index
    %g2 = arith.andi %x2, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%g2] : memref<4xi64, 3>
    apipe.copy %A[%src3], %buf[%c3, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %x3 = arith.addi %x2, %c1 : index
    %g3 = arith.andi %x3, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%g3] : memref<4xi64, 3>
    %low = arith.andi %x, %c3 : index
    %hi = arith.andi %x, %c4 : index
    %parity = arith.cmpi ne, %hi, %c0 : index
    %m1 = arith.addi %low, %c1 : index
    %s1 = arith.remui %m1, %c4 : index
    apipe.mbarrier_wait %ring[%s1], %parity : memref<4xi64, 3>
    %v0 = memref.load %buf[%c0, %c1] : memref<4x4xf32>
    %v1 = memref.load %buf[%c1, %c1] : memref<4x4xf32>
    // CHECK: check-hazards-mbarrier-slot-residue-run.mlir:[[# @LINE + 2]]:11: error: 'memref.load' op reads a buffer region that an async copy may still be writing
    // LAZY-SHIFTED: check-hazards-mbarrier-slot-residue-run.mlir:[[# @LINE + 1]]:11: error: the host reads global memory byte 36 of the destination buffer of its own asynchronous copy still in flight
    %v2 = memref.load %buf[%c2, %c1] : memref<4x4xf32>
    %a0 = arith.addf %acc, %v0 : f32
    %a1 = arith.addf %a0, %v1 : f32
    %a2 = arith.addf %a1, %v2 : f32
    %m3 = arith.addi %low, %c3 : index
    %s3 = arith.remui %m3, %c4 : index
    apipe.mbarrier_wait %ring[%s3], %parity : memref<4xi64, 3>
    %next = arith.addi %x, %c4 : index
    scf.yield %next, %a2 : index, f32
  }
  return %r#1 : f32
}

func.func @constants(%A: memref<32xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (f32) {
    %base = arith.muli %i, %c16 : index
    %a4 = arith.addi %base, %c4 : index
    %a8 = arith.addi %base, %c8 : index
    %a12 = arith.addi %base, %c12 : index
    apipe.copy %A[%base], %buf[%c0, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.copy %A[%a4], %buf[%c1, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
    // CHECK-NOT: not known here
    apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
    %v0 = memref.load %buf[%c0, %c1] : memref<4x4xf32>
    %v1 = memref.load %buf[%c1, %c1] : memref<4x4xf32>
    apipe.copy %A[%a8], %buf[%c2, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.copy %A[%a12], %buf[%c3, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c1], %true : memref<2xi64, 3>
    %v2 = memref.load %buf[%c2, %c1] : memref<4x4xf32>
    %v3 = memref.load %buf[%c3, %c1] : memref<4x4xf32>
    %s0 = arith.addf %acc, %v0 : f32
    %s1 = arith.addf %s0, %v1 : f32
    %s2 = arith.addf %s1, %v2 : f32
    %s3 = arith.addf %s2, %v3 : f32
    scf.yield %s3 : f32
  }
  return %r : f32
}

func.func @constants_short(%A: memref<32xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (f32) {
    %base = arith.muli %i, %c16 : index
    %a4 = arith.addi %base, %c4 : index
    apipe.copy %A[%base], %buf[%c0, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.copy %A[%a4], %buf[%c1, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
    %v0 = memref.load %buf[%c0, %c1] : memref<4x4xf32>
    // CHECK: check-hazards-mbarrier-slot-residue-run.mlir:[[# @LINE + 2]]:11: error: 'memref.load' op reads a buffer region that an async copy may still be writing
    // LAZY-CONSTANTS: check-hazards-mbarrier-slot-residue-run.mlir:[[# @LINE + 1]]:11: error: the host reads global memory byte 20 of the destination buffer of its own asynchronous copy still in flight
    %v1 = memref.load %buf[%c1, %c1] : memref<4x4xf32>
    apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c1], %true : memref<2xi64, 3>
    %s0 = arith.addf %acc, %v0 : f32
    %s1 = arith.addf %s0, %v1 : f32
    scf.yield %s1 : f32
  }
  return %r : f32
}

func.func @moved_arrive(%A: memref<32xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %c0, %acc = %c0) -> (index, index) {
    apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %s = arith.andi %x, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%s] : memref<4xi64, 3>
    apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<32xf32> to memref<4x4xf32>
    %m = arith.addi %s, %c1 : index
    %s1 = arith.remui %m, %c4 : index
    // CHECK-NOT: not provably
    apipe.mbarrier_arrive_copies %ring[%s1] : memref<4xi64, 3>
    %x1 = arith.addi %x, %c1 : index
    %h = arith.andi %x1, %c4 : index
    %p = arith.cmpi ne, %h, %c0 : index
    %w = arith.andi %x1, %c3 : index
    apipe.mbarrier_wait %ring[%w], %p : memref<4xi64, 3>
    %v = memref.load %buf[%c1, %c1] : memref<4x4xf32>
    %x2 = arith.addi %x, %c1 : index
    %x3 = arith.addi %x2, %c1 : index
    scf.yield %x3, %acc : index, index
  }
  %z = memref.load %buf[%c0, %c1] : memref<4x4xf32>
  return %z : f32
}

func.func @init(%A: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<32xf32>
  }
  return
}

func.func @main() {
  %A = memref.alloc() : memref<32xf32>
  func.call @init(%A) : (memref<32xf32>) -> ()
  %a = func.call @shifted(%A) : (memref<32xf32>) -> f32
  vector.print %a : f32
  %b = func.call @constants(%A) : (memref<32xf32>) -> f32
  vector.print %b : f32
  %c = func.call @moved_arrive(%A) : (memref<32xf32>) -> f32
  vector.print %c : f32
  return
}

func.func @broken_shifted() {
  %A = memref.alloc() : memref<32xf32>
  func.call @init(%A) : (memref<32xf32>) -> ()
  %a = func.call @shifted_short(%A) : (memref<32xf32>) -> f32
  vector.print %a : f32
  return
}

func.func @broken_constants() {
  %A = memref.alloc() : memref<32xf32>
  func.call @init(%A) : (memref<32xf32>) -> ()
  %a = func.call @constants_short(%A) : (memref<32xf32>) -> f32
  vector.print %a : f32
  return
}
