// apipe-check-hazards, mbarrier form: the broken twins of
// check-hazards-mbarrier-drain-loop.mlir's @pipe3 (ring of 3 slots,
// prologue loop of 2 groups, drain loop of 2 waits) and @pipe1, each
// reported at the op that makes it wrong; and waits after a prologue loop
// on its first group only (trial 77: an arrive visited once per iteration
// armed both groups' numbers, and the wait on the first completed the
// second's copy), with their correct twin.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

// The drain runs one iteration: the last group stays in flight when the
// function returns and its ring buffer (an alloca) is released.
// CHECK-LABEL: drain-loop-invalid.mlir:{{[0-9]+}}:3: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be writing
// CHECK: note: this wait's slot and parity name the group 2 groups back on its ring; this copy's group is 1 group(s) back
func.func @drain_one_short(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %ring = memref.alloca() : memref<3xi64, 3>
  %buf = memref.alloca() : memref<3x4xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  // Prologue: K - 1 groups, empty past the trip count.
  %pro:2 = scf.for %t = %c0 to %cKm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %src = arith.muli %t, %c4 : index
      %v = arith.remui %t, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  // Main loop: the producer state runs K - 1 groups ahead of the consumer
  // state.
  %res:4 = scf.for %t = %c0 to %n step %c1 iter_args(%pi = %pro#0, %pp = %pro#1, %ci = %c0, %cp = %false) -> (index, i1, index, i1) {
    %nt = arith.addi %t, %cKm1 : index
    %ok = arith.cmpi ult, %nt, %n : index
    scf.if %ok {
      %src = arith.muli %nt, %c4 : index
      %v = arith.remui %nt, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    apipe.mbarrier_wait %ring[%ci], %cp : memref<3xi64, 3>
    %cur = arith.remui %t, %cK : index
    %x0 = memref.load %buf[%cur, %c0] : memref<3x4xf32, 3>
    %x1 = memref.load %buf[%cur, %c1] : memref<3x4xf32, 3>
    %s = arith.addf %x0, %x1 : f32
    memref.store %s, %out[%t] : memref<16xf32>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %ni, %np, %nci, %ncp : index, i1, index, i1
  }
  // Drain: one wait per group still armed, the consumer state advancing.
  %dr:2 = scf.for %d = %c1 to %cKm1 step %c1 iter_args(%ci = %res#2, %cp = %res#3) -> (index, i1) {
    apipe.mbarrier_wait %ring[%ci], %cp : memref<3xi64, 3>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %nci, %ncp : index, i1
  }
  return
}

// -----

// The drain's consumer state does not advance: both iterations wait on
// the same group.
// CHECK-LABEL: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be writing
// CHECK: note: this wait's slot and parity name the group 2 groups back on its ring; this copy's group is 1 group(s) back
func.func @drain_stuck(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %ring = memref.alloca() : memref<3xi64, 3>
  %buf = memref.alloca() : memref<3x4xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  // Prologue: K - 1 groups, empty past the trip count.
  %pro:2 = scf.for %t = %c0 to %cKm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %src = arith.muli %t, %c4 : index
      %v = arith.remui %t, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  // Main loop: the producer state runs K - 1 groups ahead of the consumer
  // state.
  %res:4 = scf.for %t = %c0 to %n step %c1 iter_args(%pi = %pro#0, %pp = %pro#1, %ci = %c0, %cp = %false) -> (index, i1, index, i1) {
    %nt = arith.addi %t, %cKm1 : index
    %ok = arith.cmpi ult, %nt, %n : index
    scf.if %ok {
      %src = arith.muli %nt, %c4 : index
      %v = arith.remui %nt, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    apipe.mbarrier_wait %ring[%ci], %cp : memref<3xi64, 3>
    %cur = arith.remui %t, %cK : index
    %x0 = memref.load %buf[%cur, %c0] : memref<3x4xf32, 3>
    %x1 = memref.load %buf[%cur, %c1] : memref<3x4xf32, 3>
    %s = arith.addf %x0, %x1 : f32
    memref.store %s, %out[%t] : memref<16xf32>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %ni, %np, %nci, %ncp : index, i1, index, i1
  }
  // Drain: one wait per group still armed, the consumer state advancing.
  %dr:2 = scf.for %d = %c0 to %cKm1 step %c1 iter_args(%ci = %res#2, %cp = %res#3) -> (index, i1) {
    apipe.mbarrier_wait %ring[%ci], %cp : memref<3xi64, 3>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %ci, %cp : index, i1
  }
  return
}

// -----

// The drain runs K = 3 iterations: the third waits on a phase that no
// arrive arms.
// CHECK-LABEL: error: 'apipe.mbarrier_wait' op can deadlock: on some path the group it names is 6 groups old on its ring of 3 slots
func.func @drain_one_long(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %ring = memref.alloca() : memref<3xi64, 3>
  %buf = memref.alloca() : memref<3x4xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  // Prologue: K - 1 groups, empty past the trip count.
  %pro:2 = scf.for %t = %c0 to %cKm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %src = arith.muli %t, %c4 : index
      %v = arith.remui %t, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  // Main loop: the producer state runs K - 1 groups ahead of the consumer
  // state.
  %res:4 = scf.for %t = %c0 to %n step %c1 iter_args(%pi = %pro#0, %pp = %pro#1, %ci = %c0, %cp = %false) -> (index, i1, index, i1) {
    %nt = arith.addi %t, %cKm1 : index
    %ok = arith.cmpi ult, %nt, %n : index
    scf.if %ok {
      %src = arith.muli %nt, %c4 : index
      %v = arith.remui %nt, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    apipe.mbarrier_wait %ring[%ci], %cp : memref<3xi64, 3>
    %cur = arith.remui %t, %cK : index
    %x0 = memref.load %buf[%cur, %c0] : memref<3x4xf32, 3>
    %x1 = memref.load %buf[%cur, %c1] : memref<3x4xf32, 3>
    %s = arith.addf %x0, %x1 : f32
    memref.store %s, %out[%t] : memref<16xf32>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %ni, %np, %nci, %ncp : index, i1, index, i1
  }
  // Drain: one wait per group still armed, the consumer state advancing.
  %dr:2 = scf.for %d = %c0 to %cK step %c1 iter_args(%ci = %res#2, %cp = %res#3) -> (index, i1) {
    apipe.mbarrier_wait %ring[%ci], %cp : memref<3xi64, 3>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %nci, %ncp : index, i1
  }
  return
}

// -----

// The drain waits with the other parity: the phase before, already
// complete, so it returns at once.
// CHECK-LABEL: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 5 groups old on its ring of 3 slots
// CHECK: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be writing
func.func @drain_other_parity(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %ring = memref.alloca() : memref<3xi64, 3>
  %buf = memref.alloca() : memref<3x4xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  // Prologue: K - 1 groups, empty past the trip count.
  %pro:2 = scf.for %t = %c0 to %cKm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %src = arith.muli %t, %c4 : index
      %v = arith.remui %t, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  // Main loop: the producer state runs K - 1 groups ahead of the consumer
  // state.
  %res:4 = scf.for %t = %c0 to %n step %c1 iter_args(%pi = %pro#0, %pp = %pro#1, %ci = %c0, %cp = %false) -> (index, i1, index, i1) {
    %nt = arith.addi %t, %cKm1 : index
    %ok = arith.cmpi ult, %nt, %n : index
    scf.if %ok {
      %src = arith.muli %nt, %c4 : index
      %v = arith.remui %nt, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    apipe.mbarrier_wait %ring[%ci], %cp : memref<3xi64, 3>
    %cur = arith.remui %t, %cK : index
    %x0 = memref.load %buf[%cur, %c0] : memref<3x4xf32, 3>
    %x1 = memref.load %buf[%cur, %c1] : memref<3x4xf32, 3>
    %s = arith.addf %x0, %x1 : f32
    memref.store %s, %out[%t] : memref<16xf32>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %ni, %np, %nci, %ncp : index, i1, index, i1
  }
  // Drain: one wait per group still armed, the consumer state advancing.
  %dr:2 = scf.for %d = %c0 to %cKm1 step %c1 iter_args(%ci = %res#2, %cp = %res#3) -> (index, i1) {
    %np = arith.xori %cp, %true : i1
    apipe.mbarrier_wait %ring[%ci], %np : memref<3xi64, 3>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %nci, %ncp : index, i1
  }
  return
}

// -----

// @pipe1 (K = 1, prologue and drain of no iteration) without its consumer
// wait: each copy is overwritten and read in flight.
// CHECK-LABEL: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
// CHECK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: error: 'func.return' op releases the stack memory of a buffer region that an async copy may still be writing
func.func @pipe1_no_wait(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 1 : index
  %cKm1 = arith.constant 0 : index
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %ring = memref.alloca() : memref<1xi64, 3>
  %buf = memref.alloca() : memref<1x4xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  // Prologue: K - 1 groups, empty past the trip count.
  %pro:2 = scf.for %t = %c0 to %cKm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %src = arith.muli %t, %c4 : index
      %v = arith.remui %t, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<1x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<1xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  // Main loop: the producer state runs K - 1 groups ahead of the consumer
  // state.
  %res:4 = scf.for %t = %c0 to %n step %c1 iter_args(%pi = %pro#0, %pp = %pro#1, %ci = %c0, %cp = %false) -> (index, i1, index, i1) {
    %nt = arith.addi %t, %cKm1 : index
    %ok = arith.cmpi ult, %nt, %n : index
    scf.if %ok {
      %src = arith.muli %nt, %c4 : index
      %v = arith.remui %nt, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<1x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<1xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    %cur = arith.remui %t, %cK : index
    %x0 = memref.load %buf[%cur, %c0] : memref<1x4xf32, 3>
    %x1 = memref.load %buf[%cur, %c1] : memref<1x4xf32, 3>
    %s = arith.addf %x0, %x1 : f32
    memref.store %s, %out[%t] : memref<16xf32>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %ni, %np, %nci, %ncp : index, i1, index, i1
  }
  // Drain: one wait per group still armed, the consumer state advancing.
  %dr:2 = scf.for %d = %c0 to %cKm1 step %c1 iter_args(%ci = %res#2, %cp = %res#3) -> (index, i1) {
    apipe.mbarrier_wait %ring[%ci], %cp : memref<1xi64, 3>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %nci, %ncp : index, i1
  }
  return
}

// -----

// A prologue loop of 2 groups, then a wait on the first group only: the
// second group's copy (into buf[1]) is still in flight at the read. The
// loop's arrive arms group 0 in its first iteration and group 1 in its
// second, so it names neither.
// CHECK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NEXT: %x = memref.load %buf[%c1]
// CHECK: error: 'memref.dealloc' op writes a buffer region that an async copy may still be writing (its destination)
func.func @wait_on_the_first_group(%A: memref<8xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %false = arith.constant false
  %ring = memref.alloca() : memref<3xi64, 3>
  %buf = memref.alloc() : memref<3xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  %p:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    apipe.copy %A[%i], %buf[%i], 1 : memref<8xf32> to memref<3xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %n1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %n1, %c3 : index
    %ni = arith.select %w, %c0, %n1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  apipe.mbarrier_wait %ring[%c0], %false : memref<3xi64, 3>
  %x = memref.load %buf[%c1] : memref<3xf32, 3>
  memref.store %x, %out[%c0] : memref<1xf32>
  memref.dealloc %buf : memref<3xf32, 3>
  return
}

// -----

// The same with the slot computed from a count carried by the loop
// (`count mod 3`).
// CHECK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NEXT: %x = memref.load %buf[%c1]
// CHECK: error: 'memref.dealloc' op writes a buffer region that an async copy may still be writing (its destination)
func.func @wait_on_the_first_count(%A: memref<8xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %false = arith.constant false
  %ring = memref.alloca() : memref<3xi64, 3>
  %buf = memref.alloc() : memref<3xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  %n = scf.for %i = %c0 to %c2 step %c1 iter_args(%count = %c0) -> (index) {
    apipe.copy %A[%i], %buf[%i], 1 : memref<8xf32> to memref<3xf32, 3>
    %s = arith.remui %count, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%s] : memref<3xi64, 3>
    %next = arith.addi %count, %c1 : index
    scf.yield %next : index
  }
  apipe.mbarrier_wait %ring[%c0], %false : memref<3xi64, 3>
  %x = memref.load %buf[%c1] : memref<3xf32, 3>
  memref.store %x, %out[%c0] : memref<1xf32>
  memref.dealloc %buf : memref<3xf32, 3>
  return
}

// -----

// Its correct twin waits on the second group (slot 1, phase 0), which
// completes both: silent.
func.func @wait_on_the_last_group(%A: memref<8xf32>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %false = arith.constant false
  %ring = memref.alloca() : memref<3xi64, 3>
  %buf = memref.alloc() : memref<3xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  %p:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    apipe.copy %A[%i], %buf[%i], 1 : memref<8xf32> to memref<3xf32, 3>
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<3xi64, 3>
    %n1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %n1, %c3 : index
    %ni = arith.select %w, %c0, %n1 : index
    %np = arith.xori %pp, %w : i1
    scf.yield %ni, %np : index, i1
  }
  apipe.mbarrier_wait %ring[%c1], %false : memref<3xi64, 3>
  %x = memref.load %buf[%c1] : memref<3xf32, 3>
  memref.store %x, %out[%c0] : memref<1xf32>
  memref.dealloc %buf : memref<3xf32, 3>
  return
}
