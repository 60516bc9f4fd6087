// KNOWN FALSE ALARM (trial 12, finding 3), expected to fail until fixed.
// This is a host loop in the shape apipe-tokens-to-mbarrier emits: a
// 2-slot ring, a guarded wait on the previous group (the ready sentinel
// -2^40 as the first x), and a dynamic trip count. The acquire wait
// before each arrive is left out: it is redundant, because the previous
// iteration's guarded wait (or its guard's else branch, c = 2 >= K)
// completed the slot's previous group. The checker reports "reuses its
// slot too early" and follow-on errors. apipe-run prints [24, 0, 0, 0] in
// lazy, eager and 3 random modes, as make-sync does.
// XFAIL: *
// RUN: apipe-opt %s --apipe-check-hazards
func.func private @printMemrefI32(memref<*xi32>)
func.func @k(%A: memref<64xi32>, %out: memref<4xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %ready = arith.constant -1099511627776 : index
  %buf = memref.alloc() : memref<3x4xi32, 3>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %w:3 = scf.while (%i = %c0, %p = %ready, %cnt = %c0) : (index, index, index) -> (index, index, index) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %i, %p, %cnt : index, index, index
  } do {
  ^bb0(%i: index, %p: index, %cnt: index):
    %v = arith.remui %i, %c3 : index
    %src = arith.muli %i, %c4 : index
    apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xi32> to memref<3x4xi32, 3>
    %slot = arith.andi %cnt, %c1 : index
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
    %next = arith.addi %cnt, %c1 : index
    %ps = arith.andi %p, %c1 : index
    %pb = arith.andi %p, %c2 : index
    %pp = arith.cmpi ne, %pb, %c0 : index
    %age = arith.subi %next, %p : index
    %recent = arith.cmpi ule, %age, %c2 : index
    scf.if %recent {
      apipe.mbarrier_wait %ring[%ps], %pp : memref<2xi64, 3>
    }
    %in = arith.addi %i, %c1 : index
    scf.yield %in, %cnt, %next : index, index, index
  }
  // wait for the last group (count %w#1): slot %w#1 & 1, parity (%w#1 & 2) != 0
  %ls = arith.andi %w#1, %c1 : index
  %lb = arith.andi %w#1, %c2 : index
  %lp = arith.cmpi ne, %lb, %c0 : index
  %lage = arith.subi %w#2, %w#1 : index
  %lrecent = arith.cmpi ule, %lage, %c2 : index
  scf.if %lrecent {
    apipe.mbarrier_wait %ring[%ls], %lp : memref<2xi64, 3>
  }
  %nm1 = arith.subi %n, %c1 : index
  %lv = arith.remui %nm1, %c3 : index
  %x = memref.load %buf[%lv, %c0] : memref<3x4xi32, 3>
  memref.store %x, %out[%c0] : memref<4xi32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i32
  %A = memref.alloc() : memref<64xi32>
  %out = memref.alloc() : memref<4xi32>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %A[%i] : memref<64xi32>
  }
  linalg.fill ins(%z : i32) outs(%out : memref<4xi32>)
  %n = arith.constant 7 : index
  func.call @k(%A, %out, %n) : (memref<64xi32>, memref<4xi32>, index) -> ()
  %u = memref.cast %out : memref<4xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
