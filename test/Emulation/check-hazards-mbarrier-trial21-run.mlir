// Found by trial 21 (a fresh user's programs): the checker was silent on
// each of these functions, and each deadlocks at run time in every
// completion mode (make-sync runs them).
//   @switch_types: two switches whose selectors are `extui(trunci %n)` to
//     i1 and to i8, spelled alike but for the types: they were taken as
//     one selector (the check by cases), though for %n = 2 the first
//     takes case 0 (no arrive) and the second case 2 (a wait on slot 0,
//     never armed). The spelling now has the types.
//   @unsigned_loop: `scf.for unsigned` from -2 to 2 runs no iteration;
//     its bounds were read as signed (4 iterations of one arrive each).
//   @trip_overflow: a loop of 3 iterations whose `ub - lb + step - 1`
//     overflows i64; it was taken as arriving nothing.
//   @region_blocks: an arrive in the second block of an
//     `scf.execute_region`, which the analysis did not visit; apipe ops
//     in a region of several blocks are now refused, as copies were
//     (and a function with mbarrier ops but no copy is checked for it).
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=main_switch 2>&1 | FileCheck %s --check-prefix=RT1
// RUN: not apipe-run %s --entry=main_unsigned 2>&1 | FileCheck %s --check-prefix=RT2
// RUN: not apipe-run %s --entry=main_overflow 2>&1 | FileCheck %s --check-prefix=RT3
// RUN: not apipe-run %s --entry=main_blocks 2>&1 | FileCheck %s --check-prefix=RT4

func.func @switch_types(%n: i64) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  %t1 = arith.trunci %n : i64 to i1
  %e1 = arith.extui %t1 : i1 to i64
  %s1 = arith.index_cast %e1 : i64 to index
  %t2 = arith.trunci %n : i64 to i8
  %e2 = arith.extui %t2 : i8 to i64
  %s2 = arith.index_cast %e2 : i64 to index
  scf.index_switch %s1
  case 2 {
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
    scf.yield
  }
  default {
    scf.yield
  }
  %r = scf.index_switch %s2 -> f32
  case 2 {
    // CHECK-DAG: check-hazards-mbarrier-trial21-run.mlir:[[@LINE+2]]:5: error: 'apipe.mbarrier_wait' op can deadlock
    // RT1: check-hazards-mbarrier-trial21-run.mlir:[[@LINE+1]]:5: error: deadlock: this 'apipe.mbarrier_wait' can never return
    apipe.mbarrier_wait %ring[%c0], %false : memref<4xi64, 3>
    scf.yield %one : f32
  }
  default {
    scf.yield %zero : f32
  }
  return %r : f32
}

func.func @main_switch() {
  %n = arith.constant 2 : i64
  %r = func.call @switch_types(%n) : (i64) -> f32
  vector.print %r : f32
  return
}

func.func @unsigned_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cm2 = arith.constant -2 : index
  %false = arith.constant false
  %true = arith.constant true
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %false : memref<4xi64, 3>
  %n = scf.for unsigned %i = %cm2 to %c2 step %c1 iter_args(%x = %c1) -> (index) {
    %c3 = arith.constant 3 : index
    %s = arith.andi %x, %c3 : index
    apipe.mbarrier_arrive_copies %ring[%s] : memref<4xi64, 3>
    %x1 = arith.addi %x, %c1 : index
    scf.yield %x1 : index
  }
  // Group 4 (slot 0, phase 1) after 4 iterations; none ran.
  // CHECK-DAG: check-hazards-mbarrier-trial21-run.mlir:[[@LINE+2]]:3: error: 'apipe.mbarrier_wait' op waits on a constant slot and parity, but the number of earlier arrives on its ring
  // RT2: check-hazards-mbarrier-trial21-run.mlir:[[@LINE+1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return
  apipe.mbarrier_wait %ring[%c0], %true : memref<4xi64, 3>
  return
}

func.func @main_unsigned() {
  func.call @unsigned_loop() : () -> ()
  return
}

func.func @trip_overflow() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %lb = arith.constant -9223372036854775807 : index
  %ub = arith.constant 4611686018427387905 : index
  %step = arith.constant 4611686018427387904 : index
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  %n = scf.for %i = %lb to %ub step %step iter_args(%x = %c0) -> (index) {
    %s = arith.andi %x, %c1 : index
    apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
    %x1 = arith.addi %x, %c1 : index
    scf.yield %x1 : index
  }
  // Three groups (slots 0, 1, 0): slot 1 is in phase 1, which no arrive
  // completes.
  // CHECK-DAG: check-hazards-mbarrier-trial21-run.mlir:[[@LINE+2]]:3: error: 'apipe.mbarrier_wait' op waits for a phase that has already completed
  // RT3: check-hazards-mbarrier-trial21-run.mlir:[[@LINE+1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return
  apipe.mbarrier_wait %ring[%c1], %true : memref<2xi64, 3>
  return
}

func.func @main_overflow() {
  func.call @trip_overflow() : () -> ()
  return
}

func.func @region_blocks() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  scf.execute_region {
    cf.br ^bb1
  ^bb1:
    // CHECK-DAG: check-hazards-mbarrier-trial21-run.mlir:[[@LINE+1]]:5: error: 'apipe.mbarrier_arrive_copies' op in a region of several blocks: apipe-check-hazards follows async copies, commits and waits only through structured control flow (scf)
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<4xi64, 3>
    scf.yield
  }
  // RT4: check-hazards-mbarrier-trial21-run.mlir:[[@LINE+1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return
  apipe.mbarrier_wait %ring[%c0], %true : memref<4xi64, 3>
  return
}

func.func @main_blocks() {
  func.call @region_blocks() : () -> ()
  return
}
