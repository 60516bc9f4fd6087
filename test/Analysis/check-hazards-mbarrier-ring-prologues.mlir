// apipe-check-hazards, mbarrier form: two rings (A: 2 slots, B: 3 slots),
// each with its own prologue loop of K - 1 groups (ring A's first), a main
// loop with a producer and a consumer pipeline state per ring, and a drain
// loop per ring. In the main loop's first iteration fewer groups follow
// ring B's oldest group than in the later ones (ring B's prologue ran after
// ring A's), so no count of groups over both rings that the group's own
// followers give completes it on every path; what each ring has completed
// does (`done`): the copies with more than 3 groups after them. The
// checker is silent; apipe-run prints what make-sync prints in every
// completion mode. The broken twins are in
// check-hazards-mbarrier-ring-prologues-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values

// n = 0, 1, 2, 3, 16: out[t] = A[4t + 1] + B[4t + 2] = 404t + 201 for t < n.
// VALUES: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [201,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [201,  605,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [201,  605,  1009,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [201,  605,  1009,  1413,  1817,  2221,  2625,  3029,  3433,  3837,  4241,  4645,  5049,  5453,  5857,  6261]
// VALUES-NOT: [

func.func @rings_2_3(%A: memref<64xf32>, %B: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %cKA = arith.constant 2 : index
  %cKB = arith.constant 3 : index
  %cAm1 = arith.constant 1 : index
  %cBm1 = arith.constant 2 : index
  %false = arith.constant false
  %ringA = memref.alloca() : memref<2xi64, 3>
  %ringB = memref.alloca() : memref<3xi64, 3>
  %bufA = memref.alloca() : memref<2x4xf32, 3>
  %bufB = memref.alloca() : memref<3x4xf32, 3>
  apipe.mbarrier_init %ringA, %c1 : memref<2xi64, 3>
  apipe.mbarrier_init %ringB, %c1 : memref<3xi64, 3>
  // Each ring's prologue: its K - 1 groups, ring A's first.
  %proA:2 = scf.for %t = %c0 to %cAm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %s = arith.muli %t, %c4 : index
      %v = arith.remui %t, %cKA : index
      apipe.copy %A[%s], %bufA[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ringA[%pi] : memref<2xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cKA : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  %proB:2 = scf.for %t = %c0 to %cBm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %s = arith.muli %t, %c4 : index
      %v = arith.remui %t, %cKB : index
      apipe.copy %B[%s], %bufB[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ringB[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cKB : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  // Main loop: a producer and a consumer state per ring.
  %res:8 = scf.for %t = %c0 to %n step %c1 iter_args(%pAi = %proA#0, %pAp = %proA#1, %pBi = %proB#0, %pBp = %proB#1, %cAi = %c0, %cAp = %false, %cBi = %c0, %cBp = %false) -> (index, i1, index, i1, index, i1, index, i1) {
    %ntA = arith.addi %t, %cAm1 : index
    %okA = arith.cmpi ult, %ntA, %n : index
    scf.if %okA {
      %s = arith.muli %ntA, %c4 : index
      %v = arith.remui %ntA, %cKA : index
      apipe.copy %A[%s], %bufA[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ringA[%pAi] : memref<2xi64, 3>
    %aA1 = arith.addi %pAi, %c1 : index
    %aAw = arith.cmpi eq, %aA1, %cKA : index
    %aAni = arith.select %aAw, %c0, %aA1 : index
    %aAnp = arith.xori %pAp, %aAw : i1
    %ntB = arith.addi %t, %cBm1 : index
    %okB = arith.cmpi ult, %ntB, %n : index
    scf.if %okB {
      %s = arith.muli %ntB, %c4 : index
      %v = arith.remui %ntB, %cKB : index
      apipe.copy %B[%s], %bufB[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ringB[%pBi] : memref<3xi64, 3>
    %aB1 = arith.addi %pBi, %c1 : index
    %aBw = arith.cmpi eq, %aB1, %cKB : index
    %aBni = arith.select %aBw, %c0, %aB1 : index
    %aBnp = arith.xori %pBp, %aBw : i1
    apipe.mbarrier_wait %ringA[%cAi], %cAp : memref<2xi64, 3>
    apipe.mbarrier_wait %ringB[%cBi], %cBp : memref<3xi64, 3>
    %vA = arith.remui %t, %cKA : index
    %vB = arith.remui %t, %cKB : index
    %x = memref.load %bufA[%vA, %c1] : memref<2x4xf32, 3>
    %y = memref.load %bufB[%vB, %c2] : memref<3x4xf32, 3>
    %z = arith.addf %x, %y : f32
    memref.store %z, %out[%t] : memref<16xf32>
    %qA1 = arith.addi %cAi, %c1 : index
    %qAw = arith.cmpi eq, %qA1, %cKA : index
    %qAi = arith.select %qAw, %c0, %qA1 : index
    %qAp = arith.xori %cAp, %qAw : i1
    %qB1 = arith.addi %cBi, %c1 : index
    %qBw = arith.cmpi eq, %qB1, %cKB : index
    %qBi = arith.select %qBw, %c0, %qB1 : index
    %qBp = arith.xori %cBp, %qBw : i1
    scf.yield %aAni, %aAnp, %aBni, %aBnp, %qAi, %qAp, %qBi, %qBp : index, i1, index, i1, index, i1, index, i1
  }
  // Drain: the groups each ring still has armed.
  %dA:2 = scf.for %d = %c0 to %cAm1 step %c1 iter_args(%i = %res#4, %p = %res#5) -> (index, i1) {
    apipe.mbarrier_wait %ringA[%i], %p : memref<2xi64, 3>
    %e1 = arith.addi %i, %c1 : index
    %ew = arith.cmpi eq, %e1, %cKA : index
    %ei = arith.select %ew, %c0, %e1 : index
    %ep = arith.xori %p, %ew : i1
    scf.yield %ei, %ep : index, i1
  }
  %dB:2 = scf.for %d = %c0 to %cBm1 step %c1 iter_args(%i = %res#6, %p = %res#7) -> (index, i1) {
    apipe.mbarrier_wait %ringB[%i], %p : memref<3xi64, 3>
    %e1 = arith.addi %i, %c1 : index
    %ew = arith.cmpi eq, %e1, %cKB : index
    %ei = arith.select %ew, %c0, %e1 : index
    %ep = arith.xori %p, %ew : i1
    scf.yield %ei, %ep : index, i1
  }
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %m1 = arith.constant -1.0 : f32
  %h = arith.constant 100.0 : f32
  %A = memref.alloc() : memref<64xf32>
  %B = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
    %g = arith.mulf %f, %h : f32
    memref.store %g, %B[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_rings_2_3_0 = arith.constant 0 : index
  func.call @rings_2_3(%A, %B, %out, %n_rings_2_3_0) : (memref<64xf32>, memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_rings_2_3_1 = arith.constant 1 : index
  func.call @rings_2_3(%A, %B, %out, %n_rings_2_3_1) : (memref<64xf32>, memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_rings_2_3_2 = arith.constant 2 : index
  func.call @rings_2_3(%A, %B, %out, %n_rings_2_3_2) : (memref<64xf32>, memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_rings_2_3_3 = arith.constant 3 : index
  func.call @rings_2_3(%A, %B, %out, %n_rings_2_3_3) : (memref<64xf32>, memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_rings_2_3_16 = arith.constant 16 : index
  func.call @rings_2_3(%A, %B, %out, %n_rings_2_3_16) : (memref<64xf32>, memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<64xf32>
  memref.dealloc %B : memref<64xf32>
  memref.dealloc %out : memref<16xf32>
  return
}
