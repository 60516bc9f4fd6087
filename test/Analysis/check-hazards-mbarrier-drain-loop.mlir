// apipe-check-hazards, mbarrier form: a CUTLASS-style pipeline state
// (index, phase) advanced by hand, with a prologue loop of K - 1 groups
// and a drain loop of K - 1 waits, each loop of constant trip count:
//  - @pipe1 (K = 1): both loops run no iteration; their results are their
//    inits;
//  - @pipe3 (K = 3), @pipe4 (K = 4): the drain's consumer state names
//    another group in each iteration (on a ring of 3 slots: 2, then 1
//    groups back), so the check follows such a loop iteration by
//    iteration, and the walk completes each iteration's group.
// The checker is silent; apipe-run prints what make-sync prints in every
// completion mode. The broken twins are in
// check-hazards-mbarrier-drain-loop-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values

// @pipe3, @pipe4, then @pipe1, each at n = 0, 1, 2, 5, 16: out[t] =
// A[4t] + A[4t + 1] = 8t + 1 for t < n.
// VALUES: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  17,  25,  33,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  17,  25,  33,  41,  49,  57,  65,  73,  81,  89,  97,  105,  113,  121]
// VALUES: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  17,  25,  33,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  17,  25,  33,  41,  49,  57,  65,  73,  81,  89,  97,  105,  113,  121]
// VALUES: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  17,  25,  33,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// VALUES: [1,  9,  17,  25,  33,  41,  49,  57,  65,  73,  81,  89,  97,  105,  113,  121]
// VALUES-NOT: [

func.func @pipe1(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
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
    apipe.mbarrier_wait %ring[%ci], %cp : memref<1xi64, 3>
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
func.func @pipe3(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
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
    scf.yield %nci, %ncp : index, i1
  }
  return
}
func.func @pipe4(%A: memref<64xf32>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cK = arith.constant 4 : index
  %cKm1 = arith.constant 3 : index
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %ring = memref.alloca() : memref<4xi64, 3>
  %buf = memref.alloca() : memref<4x4xf32, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  // Prologue: K - 1 groups, empty past the trip count.
  %pro:2 = scf.for %t = %c0 to %cKm1 step %c1 iter_args(%pi = %c0, %pp = %false) -> (index, i1) {
    %ok = arith.cmpi ult, %t, %n : index
    scf.if %ok {
      %src = arith.muli %t, %c4 : index
      %v = arith.remui %t, %cK : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<4x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<4xi64, 3>
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
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<64xf32> to memref<4x4xf32, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%pi] : memref<4xi64, 3>
    %i1 = arith.addi %pi, %c1 : index
    %w = arith.cmpi eq, %i1, %cK : index
    %ni = arith.select %w, %c0, %i1 : index
    %np = arith.xori %pp, %w : i1
    apipe.mbarrier_wait %ring[%ci], %cp : memref<4xi64, 3>
    %cur = arith.remui %t, %cK : index
    %x0 = memref.load %buf[%cur, %c0] : memref<4x4xf32, 3>
    %x1 = memref.load %buf[%cur, %c1] : memref<4x4xf32, 3>
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
    apipe.mbarrier_wait %ring[%ci], %cp : memref<4xi64, 3>
    %j1 = arith.addi %ci, %c1 : index
    %w2 = arith.cmpi eq, %j1, %cK : index
    %nci = arith.select %w2, %c0, %j1 : index
    %ncp = arith.xori %cp, %w2 : i1
    scf.yield %nci, %ncp : index, i1
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
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe3_0 = arith.constant 0 : index
  func.call @pipe3(%A, %out, %n_pipe3_0) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe3_1 = arith.constant 1 : index
  func.call @pipe3(%A, %out, %n_pipe3_1) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe3_2 = arith.constant 2 : index
  func.call @pipe3(%A, %out, %n_pipe3_2) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe3_5 = arith.constant 5 : index
  func.call @pipe3(%A, %out, %n_pipe3_5) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe3_16 = arith.constant 16 : index
  func.call @pipe3(%A, %out, %n_pipe3_16) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe4_0 = arith.constant 0 : index
  func.call @pipe4(%A, %out, %n_pipe4_0) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe4_1 = arith.constant 1 : index
  func.call @pipe4(%A, %out, %n_pipe4_1) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe4_2 = arith.constant 2 : index
  func.call @pipe4(%A, %out, %n_pipe4_2) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe4_5 = arith.constant 5 : index
  func.call @pipe4(%A, %out, %n_pipe4_5) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe4_16 = arith.constant 16 : index
  func.call @pipe4(%A, %out, %n_pipe4_16) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe1_0 = arith.constant 0 : index
  func.call @pipe1(%A, %out, %n_pipe1_0) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe1_1 = arith.constant 1 : index
  func.call @pipe1(%A, %out, %n_pipe1_1) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe1_2 = arith.constant 2 : index
  func.call @pipe1(%A, %out, %n_pipe1_2) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe1_5 = arith.constant 5 : index
  func.call @pipe1(%A, %out, %n_pipe1_5) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %n_pipe1_16 = arith.constant 16 : index
  func.call @pipe1(%A, %out, %n_pipe1_16) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %A : memref<64xf32>
  memref.dealloc %out : memref<16xf32>
  return
}
