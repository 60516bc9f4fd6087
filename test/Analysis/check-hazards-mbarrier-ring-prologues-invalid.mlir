// apipe-check-hazards, mbarrier form: broken twins of
// check-hazards-mbarrier-ring-prologues.mlir's @rings_2_3, each reported.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

// Ring B's consumer wait takes ring A's pipeline state, which counts ring
// A's arrives.
// CHECK-LABEL: error: 'apipe.mbarrier_wait' op waits on a slot and parity that apipe-check-hazards cannot relate to its ring's arrivals: expected slot `x mod 3`
func.func @rings_2_3_wrong_state(%A: memref<64xf32>, %B: memref<64xf32>, %out: memref<16xf32>, %n: index) {
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
    apipe.mbarrier_wait %ringB[%cAi], %cAp : memref<3xi64, 3>
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

// -----

// Ring B's drain loop is gone: its last groups are in flight when the
// function returns and releases ring B's buffer.
// (The notes name ring A's last copy: with two rings the walk completes
// copies by their count of groups over both rings, and on the path where
// the main loop runs no iteration ring A's last group has one follower
// more, so ring A's drain wait is not taken to complete it.)
// CHECK-LABEL: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be writing
func.func @rings_2_3_no_drain_b(%A: memref<64xf32>, %B: memref<64xf32>, %out: memref<16xf32>, %n: index) {
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
  return
}

// -----

// Ring B's prologue arms one group instead of 2: the consumer state runs
// ahead of the producer, and a wait names a phase no arrive has armed.
// CHECK-LABEL: error: 'apipe.mbarrier_wait' op can deadlock
func.func @rings_2_3_short_prologue_b(%A: memref<64xf32>, %B: memref<64xf32>, %out: memref<16xf32>, %n: index) {
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
  %proB:2 = scf.for %t = %c1 to %cBm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
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
