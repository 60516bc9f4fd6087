// apipe-check-hazards on the broken twins of check-hazards-slots.mlir:
// multi-buffered loops whose slot index is carried through scf.for
// iter_args with one wait too weak, a slot that is not advanced, or fewer
// slots than copies in flight; and CUTLASS-style pipeline state on
// mbarriers whose index addresses the wrong slot. Following the slot as
// `(init + iv) mod K` must not hide any of them: each is reported at the
// exact op.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

// K = 3 with `wait_group 3`: tile j may still be in flight when it is read,
// and the copy of tile j + 2 lands in the slot of tile j - 1, maybe still in
// flight.
func.func @k3_select_weak(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %cD = arith.constant 2 : index
  %cW = arith.constant 2 : index
  %cN = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %p1 = arith.constant 1 : index
  %ps1 = arith.constant 4 : index
  apipe.copy %A[%ps1], %buf[%p1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%src], %buf[%ws, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 3
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%rs, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rw = arith.cmpi eq, %r1, %cK : index
    %rn = arith.select %rw, %c0, %r1 : index
    %w1 = arith.addi %ws, %c1 : index
    %ww = arith.cmpi eq, %w1, %cK : index
    %wn = arith.select %ww, %c0, %w1 : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// -----

// K = 4, the wrap tested on the slot, `wait_group 4`.
func.func @k4_select_index_weak(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 4 : index
  %cKm1 = arith.constant 3 : index
  %cD = arith.constant 3 : index
  %cW = arith.constant 3 : index
  %cN = arith.constant 13 : index
  %buf = memref.alloc() : memref<4x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<4x4xf32>
  apipe.commit_group
  %p1 = arith.constant 1 : index
  %ps1 = arith.constant 4 : index
  apipe.copy %A[%ps1], %buf[%p1, %c0], 4 : memref<64xf32> to memref<4x4xf32>
  apipe.commit_group
  %p2 = arith.constant 2 : index
  %ps2 = arith.constant 8 : index
  apipe.copy %A[%ps2], %buf[%p2, %c0], 4 : memref<64xf32> to memref<4x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%src], %buf[%ws, %c0], 4 : memref<64xf32> to memref<4x4xf32>
    apipe.commit_group
    apipe.wait_group 4
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%rs, %c3] : memref<4x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rw = arith.cmpi eq, %rs, %cKm1 : index
    %rn = arith.select %rw, %c0, %r1 : index
    %w1 = arith.addi %ws, %c1 : index
    %ww = arith.cmpi eq, %ws, %cKm1 : index
    %wn = arith.select %ww, %c0, %w1 : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// -----

// K = 3, `arith.remui`, subview offsets, `wait_group 3`.
func.func @k3_remui_subview_weak(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %cD = arith.constant 2 : index
  %cW = arith.constant 2 : index
  %cN = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %p1 = arith.constant 1 : index
  %ps1 = arith.constant 4 : index
  apipe.copy %A[%ps1], %buf[%p1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    %dst = memref.subview %buf[%ws, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%src], %dst[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group
    apipe.wait_group 3
    %tile = memref.subview %buf[%rs, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %tile[%c3] : memref<4xf32, strided<[1], offset: ?>>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rn = arith.remui %r1, %cK : index
    %w1 = arith.addi %ws, %c1 : index
    %wn = arith.remui %w1, %cK : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// -----

// The write slot is not advanced: every copy lands in slot 1 while the
// previous one may be in flight, and reads of slot 1 meet the newest copy.
func.func @k2_write_slot_not_advanced(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 2 : index
  %cKm1 = arith.constant 1 : index
  %cD = arith.constant 1 : index
  %cW = arith.constant 1 : index
  %cN = arith.constant 15 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%src], %buf[%ws, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.commit_group
    apipe.wait_group 1
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%rs, %c3] : memref<2x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rw = arith.cmpi eq, %r1, %cK : index
    %rn = arith.select %rw, %c0, %r1 : index
    %wn = arith.addi %ws, %c0 : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// -----

// Two slots for two tiles in flight: the copy of tile j + 2 lands in the
// slot of tile j, which is read after it.
func.func @k2_too_small(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 2 : index
  %cKm1 = arith.constant 1 : index
  %cD = arith.constant 2 : index
  %cW = arith.constant 0 : index
  %cN = arith.constant 14 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %p0 = arith.constant 0 : index
  %ps0 = arith.constant 0 : index
  apipe.copy %A[%ps0], %buf[%p0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  %p1 = arith.constant 1 : index
  %ps1 = arith.constant 4 : index
  apipe.copy %A[%ps1], %buf[%p1, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cW) -> (index, index) {
    %jn = arith.addi %j, %cD : index
    %src = arith.muli %jn, %c4 : index
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%src], %buf[%ws, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.commit_group
    apipe.wait_group 2
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%rs, %c3] : memref<2x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %r1 = arith.addi %rs, %c1 : index
    %rw = arith.cmpi eq, %r1, %cK : index
    %rn = arith.select %rw, %c0, %r1 : index
    %w1 = arith.addi %ws, %c1 : index
    %ww = arith.cmpi eq, %w1, %cK : index
    %wn = arith.select %ww, %c0, %w1 : index
    scf.yield %rn, %wn : index, index
  }
  apipe.wait_group 0
  return
}

// -----

// The window of slots with `wait_group 3` in the loop and one weaker wait
// in the epilogue.
func.func @window_k3_weak(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %c14 step %c1 iter_args(%s0 = %c0, %s1 = %c1) -> (index, index) {
    %n1 = arith.addi %s1, %c1 : index
    %wrap = arith.cmpi eq, %n1, %c3 : index
    %s2 = arith.select %wrap, %c0, %n1 : index
    %jn = arith.addi %j, %c2 : index
    %src = arith.muli %jn, %c4 : index
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:5: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
    apipe.copy %A[%src], %buf[%s2, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    apipe.commit_group
    apipe.wait_group 3
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%s0, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    scf.yield %s1, %s2 : index, index
  }
  apipe.wait_group 2
  // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %y = memref.load %buf[%r#0, %c3] : memref<3x4xf32>
  memref.store %y, %out[%c14] : memref<16xf32>
  apipe.wait_group 0
  %z = memref.load %buf[%r#1, %c3] : memref<3x4xf32>
  memref.store %z, %out[%c15] : memref<16xf32>
  return
}

// -----

// The nested loop with `wait_group 3`.
func.func @nested_k3_weak(%A: memref<3x64xf32>, %out: memref<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 3 : index
  %cKm1 = arith.constant 2 : index
  %cN = arith.constant 14 : index
  %buf = memref.alloc() : memref<3x4xf32>
  scf.for %row = %c0 to %c3 step %c1 {
    %p0 = arith.constant 0 : index
    %ps0 = arith.constant 0 : index
    apipe.copy %A[%row, %ps0], %buf[%p0, %c0], 4 : memref<3x64xf32> to memref<3x4xf32>
    apipe.commit_group
    %p1 = arith.constant 1 : index
    %ps1 = arith.constant 4 : index
    apipe.copy %A[%row, %ps1], %buf[%p1, %c0], 4 : memref<3x64xf32> to memref<3x4xf32>
    apipe.commit_group
    %r:2 = scf.for %j = %c0 to %cN step %c1 iter_args(%rs = %c0, %ws = %cKm1) -> (index, index) {
      %jn = arith.addi %j, %cKm1 : index
      %src = arith.muli %jn, %c4 : index
      // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%row, %src], %buf[%ws, %c0], 4 : memref<3x64xf32> to memref<3x4xf32>
      apipe.commit_group
      apipe.wait_group 3
      // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %buf[%rs, %c3] : memref<3x4xf32>
      memref.store %x, %out[%row, %j] : memref<3x16xf32>
      %r1 = arith.addi %rs, %c1 : index
      %rw = arith.cmpi ne, %r1, %cK : index
      %rn = arith.select %rw, %r1, %c0 : index
      %w1 = arith.addi %ws, %c1 : index
      %ww = arith.cmpi eq, %ws, %cKm1 : index
      %wn = arith.select %ww, %c0, %w1 : index
      scf.yield %rn, %wn : index, index
    }
    apipe.wait_group 0
  }
  return
}

// -----

// CUTLASS-style pipeline state on mbarriers, the buffers indexed by it:
// the read at the producer's index (the slot of the copy just armed, still
// in flight).
func.func @mbarrier_reads_producer_slot(%A: memref<64xf32>, %out: memref<15xf32>) {
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
    apipe.copy %A[%off], %buf[%pidx, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    apipe.mbarrier_arrive_copies %ring[%pidx] : memref<2xi64, 3>
    %pinc = arith.addi %pidx, %c1 : index
    %pwrap = arith.cmpi eq, %pinc, %c2 : index
    %pnext = arith.select %pwrap, %c0, %pinc : index
    %pphn = arith.xori %pph, %pwrap : i1
    apipe.mbarrier_wait %ring[%cidx], %cph : memref<2xi64, 3>
    %u = arith.remui %i, %c2 : index
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%pidx, %c1] : memref<2x4xf32>
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

// The copy into the consumer's slot: the slot the wait below completes
// and the read takes, while the group of that slot may be in flight.
func.func @mbarrier_copies_into_consumer_slot(%A: memref<64xf32>, %out: memref<15xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c13 = arith.constant 13 : index
  %c15 = arith.constant 15 : index
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<3xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<3xi64, 3>
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<3xi64, 3>
  %r:4 = scf.for %i = %c0 to %c15 step %c1 iter_args(%pidx = %c2, %pph = %c0, %cidx = %c0, %cph = %c0) -> (index, index, index, index) {
    %more = arith.cmpi ult, %i, %c13 : index
    scf.if %more {
      %n = arith.addi %i, %c2 : index
      %off = arith.muli %n, %c4 : index
      %v = arith.remui %n, %c3 : index
      // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
      apipe.copy %A[%off], %buf[%cidx, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    }
    apipe.mbarrier_arrive_copies %ring[%pidx] : memref<3xi64, 3>
    %pinc = arith.addi %pidx, %c1 : index
    %pwrap = arith.cmpi eq, %pidx, %c2 : index
    %pnext = arith.remui %pinc, %c3 : index
    %pph1 = arith.xori %pph, %c1 : index
    %pphn = arith.select %pwrap, %pph1, %pph : index
    %parity = arith.cmpi ne, %cph, %c0 : index
    apipe.mbarrier_wait %ring[%cidx], %parity : memref<3xi64, 3>
    %u = arith.remui %i, %c3 : index
    // CHECK-DAG: check-hazards-slots-invalid.mlir:[[# @LINE + 1]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
    %x = memref.load %buf[%cidx, %c1] : memref<3x4xf32>
    memref.store %x, %out[%i] : memref<15xf32>
    %cinc = arith.addi %cidx, %c1 : index
    %cwrap = arith.cmpi eq, %cidx, %c2 : index
    %cnext = arith.remui %cinc, %c3 : index
    %cph1 = arith.xori %cph, %c1 : index
    %cphn = arith.select %cwrap, %cph1, %cph : index
    scf.yield %pnext, %pphn, %cnext, %cphn : index, index, index, index
  }
  return
}
