// apipe-check-hazards on CUTLASS-style pipeline state: the broken twins of
// check-hazards-mbarrier-state.mlir (@two_stages), each reported at the op
// that is wrong.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s

// The consumer's phase is not flipped on the wrap: from the second pass
// over the ring on, (index, phase) names a group K groups too old; the
// recurrence no longer relates to the ring's arrivals. (The next arrive
// re-arms a slot no wait completed: no error in a host function, whose
// one thread's arrivals count in order.)
func.func @phase_not_flipped(%A: memref<64xf32>, %out: memref<15xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %false = arith.constant false
  %true = arith.constant true
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:4 = scf.for %i = %c0 to %c15 step %c1 iter_args(%pidx = %c1, %pph = %false, %cidx = %c0, %cph = %false) -> (index, i1, index, i1) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%pidx] : memref<2xi64, 3>
    %pinc = arith.addi %pidx, %c1 : index
    %pwrap = arith.cmpi eq, %pinc, %c2 : index
    %pnext = arith.select %pwrap, %c0, %pinc : index
    %pphn = arith.xori %pph, %pwrap : i1
    // CHECK: check-hazards-mbarrier-state-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op waits on a slot and parity that apipe-check-hazards cannot relate to its ring's arrivals: expected slot `x & 1` and parity `(x & 2) != 0` (or `== 0`, the phase before) of one count x of the ring, constants, or a CUTLASS-style (index, phase) pair advanced once per arrive
    apipe.mbarrier_wait %ring[%cidx], %cph : memref<2xi64, 3>
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<15xf32>
    %cinc = arith.addi %cidx, %c1 : index
    %cwrap = arith.cmpi eq, %cinc, %c2 : index
    %cnext = arith.select %cwrap, %c0, %cinc : index
    %cph1 = arith.xori %cph, %true : i1
    %cphn = arith.select %cwrap, %cph, %cph : i1
    scf.yield %pnext, %pphn, %cnext, %cphn : index, i1, index, i1
  }
  return
}

// -----

// The consumer's index wraps at 4 on a ring of 2: slots 2 and 3 do not exist.
func.func @wraps_late(%A: memref<64xf32>, %out: memref<15xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %false = arith.constant false
  %true = arith.constant true
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:4 = scf.for %i = %c0 to %c15 step %c1 iter_args(%pidx = %c1, %pph = %false, %cidx = %c0, %cph = %false) -> (index, i1, index, i1) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%pidx] : memref<2xi64, 3>
    %pinc = arith.addi %pidx, %c1 : index
    %pwrap = arith.cmpi eq, %pinc, %c2 : index
    %pnext = arith.select %pwrap, %c0, %pinc : index
    %pphn = arith.xori %pph, %pwrap : i1
    // CHECK: check-hazards-mbarrier-state-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op waits on a slot and parity that apipe-check-hazards cannot relate to its ring's arrivals
    apipe.mbarrier_wait %ring[%cidx], %cph : memref<2xi64, 3>
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<15xf32>
    %cinc = arith.addi %cidx, %c1 : index
    %cwrap = arith.cmpi eq, %cinc, %c4 : index
    %cnext = arith.select %cwrap, %c0, %cinc : index
    %cph1 = arith.xori %cph, %true : i1
    %cphn = arith.select %cwrap, %cph1, %cph : i1
    scf.yield %pnext, %pphn, %cnext, %cphn : index, i1, index, i1
  }
  return
}

// -----

// The read comes before the consumer's wait: read-after-write, at the read,
// naming the prologue's copy.
func.func @read_before_wait(%A: memref<64xf32>, %out: memref<15xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %false = arith.constant false
  %true = arith.constant true
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:4 = scf.for %i = %c0 to %c15 step %c1 iter_args(%pidx = %c1, %pph = %false, %cidx = %c0, %cph = %false) -> (index, i1, index, i1) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.mbarrier_arrive_copies %ring[%pidx] : memref<2xi64, 3>
    %pinc = arith.addi %pidx, %c1 : index
    %pwrap = arith.cmpi eq, %pinc, %c2 : index
    %pnext = arith.select %pwrap, %c0, %pinc : index
    %pphn = arith.xori %pph, %pwrap : i1
    %u = arith.remui %i, %c2 : index
    // CHECK: check-hazards-mbarrier-state-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    apipe.mbarrier_wait %ring[%cidx], %cph : memref<2xi64, 3>
    memref.store %x, %out[%i] : memref<15xf32>
    %cinc = arith.addi %cidx, %c1 : index
    %cwrap = arith.cmpi eq, %cinc, %c2 : index
    %cnext = arith.select %cwrap, %c0, %cinc : index
    %cph1 = arith.xori %cph, %true : i1
    %cphn = arith.select %cwrap, %cph1, %cph : i1
    scf.yield %pnext, %pphn, %cnext, %cphn : index, i1, index, i1
  }
  return
}

// -----

// The consumer's phase starts at 1: the first wait names the phase before
// phase 0 of slot 0, which counts as complete, so on hardware it returns at
// once while group 0 is in flight and completes nothing: the next copy
// writes into a buffer whose copy may be in flight, and the read races.
func.func @phase_starts_odd(%A: memref<64xf32>, %out: memref<15xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %false = arith.constant false
  %true = arith.constant true
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:4 = scf.for %i = %c0 to %c15 step %c1 iter_args(%pidx = %c1, %pph = %false, %cidx = %c0, %cph = %true) -> (index, i1, index, i1) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%pidx] : memref<2xi64, 3>
    %pinc = arith.addi %pidx, %c1 : index
    %pwrap = arith.cmpi eq, %pinc, %c2 : index
    %pnext = arith.select %pwrap, %c0, %pinc : index
    %pphn = arith.xori %pph, %pwrap : i1
    // CHECK: check-hazards-mbarrier-state-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed: its parity names the group 4 groups old on its ring of 2 slots, and the slot was armed again since by a group 2 groups old that this wait does not wait for, so it returns at once while that group's copies are in flight
    apipe.mbarrier_wait %ring[%cidx], %cph : memref<2xi64, 3>
    %u = arith.remui %i, %c2 : index
    // CHECK: check-hazards-mbarrier-state-invalid.mlir:[[# @LINE - 10]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
    // CHECK: check-hazards-mbarrier-state-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<15xf32>
    %cinc = arith.addi %cidx, %c1 : index
    %cwrap = arith.cmpi eq, %cinc, %c2 : index
    %cnext = arith.select %cwrap, %c0, %cinc : index
    %cph1 = arith.xori %cph, %true : i1
    %cphn = arith.select %cwrap, %cph1, %cph : i1
    scf.yield %pnext, %pphn, %cnext, %cphn : index, i1, index, i1
  }
  return
}

// -----

// The consumer waits for the group the producer arms next (its state is the
// producer's, and the wait comes before the arrive): slot 1 has never been
// armed on the first pass, so the wait blocks on a phase only the arrive
// after it completes.
func.func @consumer_ahead(%A: memref<64xf32>, %out: memref<15xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %false = arith.constant false
  %true = arith.constant true
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  %r:4 = scf.for %i = %c0 to %c15 step %c1 iter_args(%pidx = %c1, %pph = %false, %cidx = %c1, %cph = %false) -> (index, i1, index, i1) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    // CHECK: check-hazards-mbarrier-state-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.mbarrier_wait' op can deadlock: on some path the group it names is 4 groups old on its ring of 2 slots, and the slot's latest group (2 groups old) is complete there or not armed yet
    apipe.mbarrier_wait %ring[%cidx], %cph : memref<2xi64, 3>
    // CHECK-NOT: reuses its slot too early
    apipe.mbarrier_arrive_copies %ring[%pidx] : memref<2xi64, 3>
    %pinc = arith.addi %pidx, %c1 : index
    %pwrap = arith.cmpi eq, %pinc, %c2 : index
    %pnext = arith.select %pwrap, %c0, %pinc : index
    %pphn = arith.xori %pph, %pwrap : i1
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<15xf32>
    %cinc = arith.addi %cidx, %c1 : index
    %cwrap = arith.cmpi eq, %cinc, %c2 : index
    %cnext = arith.select %cwrap, %c0, %cinc : index
    %cph1 = arith.xori %cph, %true : i1
    %cphn = arith.select %cwrap, %cph1, %cph : i1
    scf.yield %pnext, %pphn, %cnext, %cphn : index, i1, index, i1
  }
  return
}
