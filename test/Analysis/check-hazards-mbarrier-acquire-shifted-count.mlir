// apipe-check-hazards, mbarrier form: an acquire written with the parity
// of another count on the same slot. Before each arrive on slot `c & 1`
// (K = 2), the loop waits with the parity of `c - K`, the slot's previous
// group (trial 79: "cannot relate its ring's arrivals", though the slot of
// `c - K` is the slot of `c`). For c < K the count is negative and its
// parity names the phase before phase 0, which has completed (K is a
// power of two, so `x & K` reads x mod 2K). The checker is silent, and
// apipe-run prints what make-sync prints in every completion mode.
// RUN: apipe-opt %s --apipe-check-hazards -o %t.checked
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// The twin that waits with the parity of `c - 2K` (the slot's phase before
// the previous one): reported at its acquire (apipe-run: a deadlock in
// eager mode, the previous group complete when the loop waits).
// RUN: sed -n '/^\/\/ TWIN-BEGIN/,$p' %s | sed '1d; s#^// ##' | not apipe-opt - --apipe-check-hazards -o %t.twin 2>&1 | FileCheck %s --check-prefix=TWIN

// VALUES: [0,   1,   2,   3],
// VALUES-NEXT: [4,   5,   6,   7],
// VALUES: [40,   41,   42,   43]]

func.func private @printMemrefF32(memref<*xf32>)
func.func @f(%A: memref<44xf32> {llvm.noalias}, %buf: memref<11x4xf32> {llvm.noalias}, %out: memref<11x4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c11 = arith.constant 11 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %cnt = scf.for %i = %c0 to %c11 step %c1 iter_args(%c = %c0) -> (index) {
    %src = arith.muli %i, %c4 : index
    apipe.copy %A[%src], %buf[%i, %c0], 4 : memref<44xf32> to memref<11x4xf32>
    %sl = arith.andi %c, %c1 : index
    %pv = arith.subi %c, %c2 : index
    %pq1 = arith.andi %pv, %c2 : index
    %pp = arith.cmpi ne, %pq1, %c0 : index
    apipe.mbarrier_wait %ring[%sl], %pp : memref<2xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%sl] : memref<2xi64, 3>
    %cn = arith.addi %c, %c1 : index
    scf.yield %cn : index
  }
  %dd = arith.constant 1 : index
  %x = arith.subi %cnt, %dd : index
  %ws = arith.remui %x, %c2 : index
  %q = arith.divui %x, %c2 : index
  %q1 = arith.andi %q, %c1 : index
  %wp = arith.cmpi ne, %q1, %c0 : index
  apipe.mbarrier_wait %ring[%ws], %wp : memref<2xi64, 3>
  %rr0 = arith.constant 0 : index
  %v0_0 = memref.load %buf[%rr0, %c0] : memref<11x4xf32>
  memref.store %v0_0, %out[%rr0, %c0] : memref<11x4xf32>
  %v0_1 = memref.load %buf[%rr0, %c1] : memref<11x4xf32>
  memref.store %v0_1, %out[%rr0, %c1] : memref<11x4xf32>
  %v0_2 = memref.load %buf[%rr0, %c2] : memref<11x4xf32>
  memref.store %v0_2, %out[%rr0, %c2] : memref<11x4xf32>
  %v0_3 = memref.load %buf[%rr0, %c3] : memref<11x4xf32>
  memref.store %v0_3, %out[%rr0, %c3] : memref<11x4xf32>
  %rr1 = arith.constant 1 : index
  %v1_0 = memref.load %buf[%rr1, %c0] : memref<11x4xf32>
  memref.store %v1_0, %out[%rr1, %c0] : memref<11x4xf32>
  %v1_1 = memref.load %buf[%rr1, %c1] : memref<11x4xf32>
  memref.store %v1_1, %out[%rr1, %c1] : memref<11x4xf32>
  %v1_2 = memref.load %buf[%rr1, %c2] : memref<11x4xf32>
  memref.store %v1_2, %out[%rr1, %c2] : memref<11x4xf32>
  %v1_3 = memref.load %buf[%rr1, %c3] : memref<11x4xf32>
  memref.store %v1_3, %out[%rr1, %c3] : memref<11x4xf32>
  %rr2 = arith.constant 2 : index
  %v2_0 = memref.load %buf[%rr2, %c0] : memref<11x4xf32>
  memref.store %v2_0, %out[%rr2, %c0] : memref<11x4xf32>
  %v2_1 = memref.load %buf[%rr2, %c1] : memref<11x4xf32>
  memref.store %v2_1, %out[%rr2, %c1] : memref<11x4xf32>
  %v2_2 = memref.load %buf[%rr2, %c2] : memref<11x4xf32>
  memref.store %v2_2, %out[%rr2, %c2] : memref<11x4xf32>
  %v2_3 = memref.load %buf[%rr2, %c3] : memref<11x4xf32>
  memref.store %v2_3, %out[%rr2, %c3] : memref<11x4xf32>
  %rr3 = arith.constant 3 : index
  %v3_0 = memref.load %buf[%rr3, %c0] : memref<11x4xf32>
  memref.store %v3_0, %out[%rr3, %c0] : memref<11x4xf32>
  %v3_1 = memref.load %buf[%rr3, %c1] : memref<11x4xf32>
  memref.store %v3_1, %out[%rr3, %c1] : memref<11x4xf32>
  %v3_2 = memref.load %buf[%rr3, %c2] : memref<11x4xf32>
  memref.store %v3_2, %out[%rr3, %c2] : memref<11x4xf32>
  %v3_3 = memref.load %buf[%rr3, %c3] : memref<11x4xf32>
  memref.store %v3_3, %out[%rr3, %c3] : memref<11x4xf32>
  %rr4 = arith.constant 4 : index
  %v4_0 = memref.load %buf[%rr4, %c0] : memref<11x4xf32>
  memref.store %v4_0, %out[%rr4, %c0] : memref<11x4xf32>
  %v4_1 = memref.load %buf[%rr4, %c1] : memref<11x4xf32>
  memref.store %v4_1, %out[%rr4, %c1] : memref<11x4xf32>
  %v4_2 = memref.load %buf[%rr4, %c2] : memref<11x4xf32>
  memref.store %v4_2, %out[%rr4, %c2] : memref<11x4xf32>
  %v4_3 = memref.load %buf[%rr4, %c3] : memref<11x4xf32>
  memref.store %v4_3, %out[%rr4, %c3] : memref<11x4xf32>
  %rr5 = arith.constant 5 : index
  %v5_0 = memref.load %buf[%rr5, %c0] : memref<11x4xf32>
  memref.store %v5_0, %out[%rr5, %c0] : memref<11x4xf32>
  %v5_1 = memref.load %buf[%rr5, %c1] : memref<11x4xf32>
  memref.store %v5_1, %out[%rr5, %c1] : memref<11x4xf32>
  %v5_2 = memref.load %buf[%rr5, %c2] : memref<11x4xf32>
  memref.store %v5_2, %out[%rr5, %c2] : memref<11x4xf32>
  %v5_3 = memref.load %buf[%rr5, %c3] : memref<11x4xf32>
  memref.store %v5_3, %out[%rr5, %c3] : memref<11x4xf32>
  %rr6 = arith.constant 6 : index
  %v6_0 = memref.load %buf[%rr6, %c0] : memref<11x4xf32>
  memref.store %v6_0, %out[%rr6, %c0] : memref<11x4xf32>
  %v6_1 = memref.load %buf[%rr6, %c1] : memref<11x4xf32>
  memref.store %v6_1, %out[%rr6, %c1] : memref<11x4xf32>
  %v6_2 = memref.load %buf[%rr6, %c2] : memref<11x4xf32>
  memref.store %v6_2, %out[%rr6, %c2] : memref<11x4xf32>
  %v6_3 = memref.load %buf[%rr6, %c3] : memref<11x4xf32>
  memref.store %v6_3, %out[%rr6, %c3] : memref<11x4xf32>
  %rr7 = arith.constant 7 : index
  %v7_0 = memref.load %buf[%rr7, %c0] : memref<11x4xf32>
  memref.store %v7_0, %out[%rr7, %c0] : memref<11x4xf32>
  %v7_1 = memref.load %buf[%rr7, %c1] : memref<11x4xf32>
  memref.store %v7_1, %out[%rr7, %c1] : memref<11x4xf32>
  %v7_2 = memref.load %buf[%rr7, %c2] : memref<11x4xf32>
  memref.store %v7_2, %out[%rr7, %c2] : memref<11x4xf32>
  %v7_3 = memref.load %buf[%rr7, %c3] : memref<11x4xf32>
  memref.store %v7_3, %out[%rr7, %c3] : memref<11x4xf32>
  %rr8 = arith.constant 8 : index
  %v8_0 = memref.load %buf[%rr8, %c0] : memref<11x4xf32>
  memref.store %v8_0, %out[%rr8, %c0] : memref<11x4xf32>
  %v8_1 = memref.load %buf[%rr8, %c1] : memref<11x4xf32>
  memref.store %v8_1, %out[%rr8, %c1] : memref<11x4xf32>
  %v8_2 = memref.load %buf[%rr8, %c2] : memref<11x4xf32>
  memref.store %v8_2, %out[%rr8, %c2] : memref<11x4xf32>
  %v8_3 = memref.load %buf[%rr8, %c3] : memref<11x4xf32>
  memref.store %v8_3, %out[%rr8, %c3] : memref<11x4xf32>
  %rr9 = arith.constant 9 : index
  %v9_0 = memref.load %buf[%rr9, %c0] : memref<11x4xf32>
  memref.store %v9_0, %out[%rr9, %c0] : memref<11x4xf32>
  %v9_1 = memref.load %buf[%rr9, %c1] : memref<11x4xf32>
  memref.store %v9_1, %out[%rr9, %c1] : memref<11x4xf32>
  %v9_2 = memref.load %buf[%rr9, %c2] : memref<11x4xf32>
  memref.store %v9_2, %out[%rr9, %c2] : memref<11x4xf32>
  %v9_3 = memref.load %buf[%rr9, %c3] : memref<11x4xf32>
  memref.store %v9_3, %out[%rr9, %c3] : memref<11x4xf32>
  %rr10 = arith.constant 10 : index
  %v10_0 = memref.load %buf[%rr10, %c0] : memref<11x4xf32>
  memref.store %v10_0, %out[%rr10, %c0] : memref<11x4xf32>
  %v10_1 = memref.load %buf[%rr10, %c1] : memref<11x4xf32>
  memref.store %v10_1, %out[%rr10, %c1] : memref<11x4xf32>
  %v10_2 = memref.load %buf[%rr10, %c2] : memref<11x4xf32>
  memref.store %v10_2, %out[%rr10, %c2] : memref<11x4xf32>
  %v10_3 = memref.load %buf[%rr10, %c3] : memref<11x4xf32>
  memref.store %v10_3, %out[%rr10, %c3] : memref<11x4xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 44 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<44xf32>
  %buf = memref.alloc() : memref<11x4xf32>
  %out = memref.alloc() : memref<11x4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<44xf32>
  }
  linalg.fill ins(%z : f32) outs(%buf : memref<11x4xf32>)
  linalg.fill ins(%z : f32) outs(%out : memref<11x4xf32>)
  func.call @f(%A, %buf, %out) : (memref<44xf32>, memref<11x4xf32>, memref<11x4xf32>) -> ()
  %u = memref.cast %out : memref<11x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// TWIN: <stdin>:{{[0-9]+}}:5: error: 'apipe.mbarrier_wait' op can deadlock: on some path the group it names is 4 groups old on its ring of 2 slots
// TWIN-BEGIN
// func.func @f(%A: memref<44xf32> {llvm.noalias}, %buf: memref<11x4xf32> {llvm.noalias}, %out: memref<11x4xf32> {llvm.noalias}) {
//   %c0 = arith.constant 0 : index
//   %c1 = arith.constant 1 : index
//   %c2 = arith.constant 2 : index
//   %c3 = arith.constant 3 : index
//   %c4 = arith.constant 4 : index
//   %c11 = arith.constant 11 : index
//   %ring = memref.alloca() : memref<2xi64, 3>
//   apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
//   %cnt = scf.for %i = %c0 to %c11 step %c1 iter_args(%c = %c0) -> (index) {
//     %src = arith.muli %i, %c4 : index
//     apipe.copy %A[%src], %buf[%i, %c0], 4 : memref<44xf32> to memref<11x4xf32>
//     %sl = arith.andi %c, %c1 : index
//     %pv = arith.subi %c, %c4 : index
//     %pq1 = arith.andi %pv, %c2 : index
//     %pp = arith.cmpi ne, %pq1, %c0 : index
//     apipe.mbarrier_wait %ring[%sl], %pp : memref<2xi64, 3>
//     apipe.mbarrier_arrive_copies %ring[%sl] : memref<2xi64, 3>
//     %cn = arith.addi %c, %c1 : index
//     scf.yield %cn : index
//   }
//   %dd = arith.constant 1 : index
//   %x = arith.subi %cnt, %dd : index
//   %ws = arith.remui %x, %c2 : index
//   %q = arith.divui %x, %c2 : index
//   %q1 = arith.andi %q, %c1 : index
//   %wp = arith.cmpi ne, %q1, %c0 : index
//   apipe.mbarrier_wait %ring[%ws], %wp : memref<2xi64, 3>
//   %rr0 = arith.constant 0 : index
//   %v0_0 = memref.load %buf[%rr0, %c0] : memref<11x4xf32>
//   memref.store %v0_0, %out[%rr0, %c0] : memref<11x4xf32>
//   %v0_1 = memref.load %buf[%rr0, %c1] : memref<11x4xf32>
//   memref.store %v0_1, %out[%rr0, %c1] : memref<11x4xf32>
//   %v0_2 = memref.load %buf[%rr0, %c2] : memref<11x4xf32>
//   memref.store %v0_2, %out[%rr0, %c2] : memref<11x4xf32>
//   %v0_3 = memref.load %buf[%rr0, %c3] : memref<11x4xf32>
//   memref.store %v0_3, %out[%rr0, %c3] : memref<11x4xf32>
//   %rr1 = arith.constant 1 : index
//   %v1_0 = memref.load %buf[%rr1, %c0] : memref<11x4xf32>
//   memref.store %v1_0, %out[%rr1, %c0] : memref<11x4xf32>
//   %v1_1 = memref.load %buf[%rr1, %c1] : memref<11x4xf32>
//   memref.store %v1_1, %out[%rr1, %c1] : memref<11x4xf32>
//   %v1_2 = memref.load %buf[%rr1, %c2] : memref<11x4xf32>
//   memref.store %v1_2, %out[%rr1, %c2] : memref<11x4xf32>
//   %v1_3 = memref.load %buf[%rr1, %c3] : memref<11x4xf32>
//   memref.store %v1_3, %out[%rr1, %c3] : memref<11x4xf32>
//   %rr2 = arith.constant 2 : index
//   %v2_0 = memref.load %buf[%rr2, %c0] : memref<11x4xf32>
//   memref.store %v2_0, %out[%rr2, %c0] : memref<11x4xf32>
//   %v2_1 = memref.load %buf[%rr2, %c1] : memref<11x4xf32>
//   memref.store %v2_1, %out[%rr2, %c1] : memref<11x4xf32>
//   %v2_2 = memref.load %buf[%rr2, %c2] : memref<11x4xf32>
//   memref.store %v2_2, %out[%rr2, %c2] : memref<11x4xf32>
//   %v2_3 = memref.load %buf[%rr2, %c3] : memref<11x4xf32>
//   memref.store %v2_3, %out[%rr2, %c3] : memref<11x4xf32>
//   %rr3 = arith.constant 3 : index
//   %v3_0 = memref.load %buf[%rr3, %c0] : memref<11x4xf32>
//   memref.store %v3_0, %out[%rr3, %c0] : memref<11x4xf32>
//   %v3_1 = memref.load %buf[%rr3, %c1] : memref<11x4xf32>
//   memref.store %v3_1, %out[%rr3, %c1] : memref<11x4xf32>
//   %v3_2 = memref.load %buf[%rr3, %c2] : memref<11x4xf32>
//   memref.store %v3_2, %out[%rr3, %c2] : memref<11x4xf32>
//   %v3_3 = memref.load %buf[%rr3, %c3] : memref<11x4xf32>
//   memref.store %v3_3, %out[%rr3, %c3] : memref<11x4xf32>
//   %rr4 = arith.constant 4 : index
//   %v4_0 = memref.load %buf[%rr4, %c0] : memref<11x4xf32>
//   memref.store %v4_0, %out[%rr4, %c0] : memref<11x4xf32>
//   %v4_1 = memref.load %buf[%rr4, %c1] : memref<11x4xf32>
//   memref.store %v4_1, %out[%rr4, %c1] : memref<11x4xf32>
//   %v4_2 = memref.load %buf[%rr4, %c2] : memref<11x4xf32>
//   memref.store %v4_2, %out[%rr4, %c2] : memref<11x4xf32>
//   %v4_3 = memref.load %buf[%rr4, %c3] : memref<11x4xf32>
//   memref.store %v4_3, %out[%rr4, %c3] : memref<11x4xf32>
//   %rr5 = arith.constant 5 : index
//   %v5_0 = memref.load %buf[%rr5, %c0] : memref<11x4xf32>
//   memref.store %v5_0, %out[%rr5, %c0] : memref<11x4xf32>
//   %v5_1 = memref.load %buf[%rr5, %c1] : memref<11x4xf32>
//   memref.store %v5_1, %out[%rr5, %c1] : memref<11x4xf32>
//   %v5_2 = memref.load %buf[%rr5, %c2] : memref<11x4xf32>
//   memref.store %v5_2, %out[%rr5, %c2] : memref<11x4xf32>
//   %v5_3 = memref.load %buf[%rr5, %c3] : memref<11x4xf32>
//   memref.store %v5_3, %out[%rr5, %c3] : memref<11x4xf32>
//   %rr6 = arith.constant 6 : index
//   %v6_0 = memref.load %buf[%rr6, %c0] : memref<11x4xf32>
//   memref.store %v6_0, %out[%rr6, %c0] : memref<11x4xf32>
//   %v6_1 = memref.load %buf[%rr6, %c1] : memref<11x4xf32>
//   memref.store %v6_1, %out[%rr6, %c1] : memref<11x4xf32>
//   %v6_2 = memref.load %buf[%rr6, %c2] : memref<11x4xf32>
//   memref.store %v6_2, %out[%rr6, %c2] : memref<11x4xf32>
//   %v6_3 = memref.load %buf[%rr6, %c3] : memref<11x4xf32>
//   memref.store %v6_3, %out[%rr6, %c3] : memref<11x4xf32>
//   %rr7 = arith.constant 7 : index
//   %v7_0 = memref.load %buf[%rr7, %c0] : memref<11x4xf32>
//   memref.store %v7_0, %out[%rr7, %c0] : memref<11x4xf32>
//   %v7_1 = memref.load %buf[%rr7, %c1] : memref<11x4xf32>
//   memref.store %v7_1, %out[%rr7, %c1] : memref<11x4xf32>
//   %v7_2 = memref.load %buf[%rr7, %c2] : memref<11x4xf32>
//   memref.store %v7_2, %out[%rr7, %c2] : memref<11x4xf32>
//   %v7_3 = memref.load %buf[%rr7, %c3] : memref<11x4xf32>
//   memref.store %v7_3, %out[%rr7, %c3] : memref<11x4xf32>
//   %rr8 = arith.constant 8 : index
//   %v8_0 = memref.load %buf[%rr8, %c0] : memref<11x4xf32>
//   memref.store %v8_0, %out[%rr8, %c0] : memref<11x4xf32>
//   %v8_1 = memref.load %buf[%rr8, %c1] : memref<11x4xf32>
//   memref.store %v8_1, %out[%rr8, %c1] : memref<11x4xf32>
//   %v8_2 = memref.load %buf[%rr8, %c2] : memref<11x4xf32>
//   memref.store %v8_2, %out[%rr8, %c2] : memref<11x4xf32>
//   %v8_3 = memref.load %buf[%rr8, %c3] : memref<11x4xf32>
//   memref.store %v8_3, %out[%rr8, %c3] : memref<11x4xf32>
//   %rr9 = arith.constant 9 : index
//   %v9_0 = memref.load %buf[%rr9, %c0] : memref<11x4xf32>
//   memref.store %v9_0, %out[%rr9, %c0] : memref<11x4xf32>
//   %v9_1 = memref.load %buf[%rr9, %c1] : memref<11x4xf32>
//   memref.store %v9_1, %out[%rr9, %c1] : memref<11x4xf32>
//   %v9_2 = memref.load %buf[%rr9, %c2] : memref<11x4xf32>
//   memref.store %v9_2, %out[%rr9, %c2] : memref<11x4xf32>
//   %v9_3 = memref.load %buf[%rr9, %c3] : memref<11x4xf32>
//   memref.store %v9_3, %out[%rr9, %c3] : memref<11x4xf32>
//   %rr10 = arith.constant 10 : index
//   %v10_0 = memref.load %buf[%rr10, %c0] : memref<11x4xf32>
//   memref.store %v10_0, %out[%rr10, %c0] : memref<11x4xf32>
//   %v10_1 = memref.load %buf[%rr10, %c1] : memref<11x4xf32>
//   memref.store %v10_1, %out[%rr10, %c1] : memref<11x4xf32>
//   %v10_2 = memref.load %buf[%rr10, %c2] : memref<11x4xf32>
//   memref.store %v10_2, %out[%rr10, %c2] : memref<11x4xf32>
//   %v10_3 = memref.load %buf[%rr10, %c3] : memref<11x4xf32>
//   memref.store %v10_3, %out[%rr10, %c3] : memref<11x4xf32>
//   return
// }
