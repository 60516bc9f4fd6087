// apipe-check-hazards on CUTLASS-style pipeline state (docs/mbarrier.md,
// "Checking"): a slot index and a phase bit carried by hand in scf.for
// iter_args, advanced with `index + 1 == K ? 0 : index + 1` and the phase
// flipped on the wrap, as CUTLASS's `PipelineState {index, phase}`. The
// check follows the recurrence: these correct programs are silent and left
// unchanged; their broken twins are in check-hazards-mbarrier-state-invalid.mlir.
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards | FileCheck %s
// They run to the values of the synchronous program in every completion mode:
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:3 | FileCheck %s --check-prefix=VALUES
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main | FileCheck %s --check-prefix=SYNC
// VALUES-COUNT-12: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57]
// SYNC-COUNT-4: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57]

func.func private @printMemrefF32(memref<*xf32>)

// Two stages on a ring of 2: the producer state (1, 0) after the prologue's
// group, the consumer state (0, 0); the producer's phase flips with
// `phase ^ wrap`, the consumer's with `select(wrap, phase ^ 1, phase)`.
// CHECK-LABEL: func.func @two_stages
// CHECK: apipe.mbarrier_wait
func.func @two_stages(%A: memref<64xf32>, %out: memref<15xf32>) {
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
    apipe.mbarrier_wait %ring[%cidx], %cph : memref<2xi64, 3>
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

// Three stages on a ring of 3 (not a power of two), two groups in flight;
// the phase an `index` (0 or 1) made `i1` by `!= 0`, the index advanced by
// `(index + 1) mod 3` and the wrap tested as `index == K - 1`.
// CHECK-LABEL: func.func @three_stages
func.func @three_stages(%A: memref<64xf32>, %out: memref<15xf32>) {
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
      apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<3x4xf32>
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
    %x = memref.load %buf[%u, %c1] : memref<3x4xf32>
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

// The same two stages with the buffers indexed by the pipeline state
// itself (the producer's index for the copy, the consumer's for the read),
// as CUTLASS indexes its stage buffers: the check folds the index to
// `(init + iv) mod 2`, so the copy and the read compare exactly.
// CHECK-LABEL: func.func @two_stages_slots
func.func @two_stages_slots(%A: memref<64xf32>, %out: memref<15xf32>) {
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
    %x = memref.load %buf[%cidx, %c1] : memref<2x4xf32>
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

// Three stages, the buffers indexed by the pipeline state.
// CHECK-LABEL: func.func @three_stages_slots
func.func @three_stages_slots(%A: memref<64xf32>, %out: memref<15xf32>) {
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
      apipe.copy %A[%off], %buf[%pidx, %c0], 4 : memref<64xf32> to memref<3x4xf32>
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

// CHECK-LABEL: func.func @main
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %j = arith.index_cast %i : index to i32
    %f = arith.sitofp %j : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<15xf32>
  func.call @two_stages(%A, %out) : (memref<64xf32>, memref<15xf32>) -> ()
  %u = memref.cast %out : memref<15xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @three_stages(%A, %out) : (memref<64xf32>, memref<15xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @two_stages_slots(%A, %out) : (memref<64xf32>, memref<15xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @three_stages_slots(%A, %out) : (memref<64xf32>, memref<15xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
