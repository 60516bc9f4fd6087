// Regressions from fuzzing apipe-run, with variants: huge queue numbers,
// a long loop of copies, out-of-bounds accesses of the program itself, and
// loops whose step is not positive. Each is a located error and exit 1, or a
// normal run; never a panic, an abort, a signal or a hang.
//
// Queues are sparse: a queue number costs one entry, whatever its value.
// RUN: apipe-run %s --entry=copy_on_queue_int64_max --completion=random:1 2>&1 | FileCheck %s --check-prefix=QMAX
// QMAX: fuzz-regressions.mlir:[[# @LINE + 60]]:3: warning: 1 copy on queue 9223372036854775807 was never committed
// RUN: apipe-run %s --entry=commit_on_queue_int64_max --completion=random:1 2>&1 | FileCheck %s --check-prefix=EMPTY --allow-empty
// EMPTY-NOT: {{.}}
// RUN: apipe-run %s --entry=huge_queues --completion=random:1 | FileCheck %s --check-prefix=HUGE
// RUN: apipe-run %s --entry=huge_queues --completion=lazy | FileCheck %s --check-prefix=HUGE
// HUGE: 4294967296
// HUGE-NEXT: 2147483648
// HUGE-NEXT: 1099511627776
// HUGE-NEXT: 3
//
// A copy into a subview made in the loop body: no stack grows per
// iteration (30 million iterations).
// RUN: apipe-run %s --entry=thirty_million_copies --completion=random:1 | FileCheck %s --check-prefix=LONG
// LONG: 30000000
//
// Out-of-bounds accesses of the program: located errors (MLIR's
// generate-runtime-verification, and apipe's own checks for vector ops);
// the program stops there.
// RUN: not apipe-run %s --entry=load_at_int64_min 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: fuzz-regressions.mlir:[[# @LINE + 107]]:8: error: 'memref.load' out-of-bounds access
// LOAD-NOT: {{.}}
// RUN: not apipe-run %s --entry=store_past_the_end 2>&1 | FileCheck %s --check-prefix=STORE
// STORE: 1
// STORE-NEXT: 1
// STORE-NEXT: 1
// STORE-NEXT: fuzz-regressions.mlir:[[# @LINE + 113]]:5: error: 'memref.store' out-of-bounds access
// STORE-NOT: {{.}}
// RUN: not apipe-run %s --entry=vector_load_past_the_end 2>&1 | FileCheck %s --check-prefix=VECTOR
// VECTOR: fuzz-regressions.mlir:[[# @LINE + 118]]:8: error: 'vector.load' out-of-bounds access
// RUN: not apipe-run %s --entry=vector_store_before_the_start 2>&1 | FileCheck %s --check-prefix=VSTORE
// VSTORE: fuzz-regressions.mlir:[[# @LINE + 125]]:3: error: 'vector.store' out-of-bounds access
// RUN: not apipe-run %s --entry=failed_assert 2>&1 | FileCheck %s --check-prefix=ASSERT
// ASSERT: fuzz-regressions.mlir:[[# @LINE + 129]]:3: error: 'cf.assert' failed: the program's own check
//
// A dynamic step that is not positive: undefined behaviour for scf.for,
// reported when the loop starts, never a hang.
// RUN: not apipe-run %s --entry=step_zero 2>&1 | FileCheck %s --check-prefix=STEP0
// STEP0: fuzz-regressions.mlir:[[# @LINE + 133]]:3: error: 'scf.for' with step 0: the step must be positive
// RUN: not apipe-run %s --entry=step_negative 2>&1 | FileCheck %s --check-prefix=STEPNEG
// STEPNEG: fuzz-regressions.mlir:[[# @LINE + 144]]:5: error: 'scf.for' with step -9223372036854775808: the step must be positive
// RUN: not apipe-run %s --entry=unsigned_step_zero 2>&1 | FileCheck %s --check-prefix=STEPU
// STEPU: fuzz-regressions.mlir:[[# @LINE + 151]]:3: error: 'scf.for' with step 0: the step must be positive
// An unsigned loop with a step that is negative as a signed number runs.
// RUN: apipe-run %s --entry=unsigned_huge_step | FileCheck %s --check-prefix=UHUGE
// UHUGE: 1
// UHUGE-NOT: {{.}}

func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%x: i64) {
  func.call @printI64(%x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @copy_on_queue_int64_max() {
  %c0 = arith.constant 0 : index
  %A = memref.alloc() : memref<4xf32>
  %B = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %B[%c0], 4 queue 9223372036854775807 : memref<4xf32> to memref<4xf32>
  return
}

func.func @commit_on_queue_int64_max() {
  apipe.commit_group queue 9223372036854775807
  return
}

func.func @huge_queues() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %A = memref.alloc() : memref<4xi64>
  %B = memref.alloc() : memref<4xi64>
  %q0 = arith.constant 4294967296 : i64
  %q1 = arith.constant 2147483648 : i64
  %q2 = arith.constant 1099511627776 : i64
  %three = arith.constant 3 : i64
  memref.store %q0, %A[%c0] : memref<4xi64>
  memref.store %q1, %A[%c1] : memref<4xi64>
  memref.store %q2, %A[%c2] : memref<4xi64>
  memref.store %three, %A[%c3] : memref<4xi64>
  apipe.copy %A[%c0], %B[%c0], 1 queue 4294967296 : memref<4xi64> to memref<4xi64>
  apipe.commit_group queue 4294967296
  apipe.copy %A[%c1], %B[%c1], 1 queue 2147483648 : memref<4xi64> to memref<4xi64>
  %t = apipe.commit_group queue 2147483648
  apipe.copy %A[%c2], %B[%c2], 2 queue 1099511627776 : memref<4xi64> to memref<4xi64>
  apipe.commit_group queue 1099511627776
  apipe.wait_group 0 queue 4294967296
  apipe.wait %t
  apipe.wait_group 0 queue 1099511627776
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %B[%i] : memref<4xi64>
    func.call @print(%v) : (i64) -> ()
  }
  %v3 = memref.load %B[%c3] : memref<4xi64>
  func.call @print(%v3) : (i64) -> ()
  return
}

func.func @thirty_million_copies() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 30000000 : index
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<2x4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.remui %i, %c2 : index
    %s = memref.subview %B[%v, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %A[%v], %s[%c0], 4 : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group
    apipe.wait_group 0
  }
  memref.dealloc %A : memref<8xf32>
  memref.dealloc %B : memref<2x4xf32>
  %n64 = arith.index_cast %n : index to i64
  func.call @print(%n64) : (i64) -> ()
  return
}

func.func @load_at_int64_min() {
  %min = arith.constant -9223372036854775808 : index
  %b = memref.alloc() : memref<2xf16>
  %h = memref.load %b[%min] : memref<2xf16>
  return
}

func.func @store_past_the_end() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 4611686018427387904 : index
  %one = arith.constant 1 : i64
  %b = memref.alloc() : memref<2xi64>
  scf.for %i = %c0 to %big step %c1 {
    func.call @print(%one) : (i64) -> ()
    memref.store %one, %b[%i] : memref<2xi64>
  }
  return
}

func.func @vector_load_past_the_end() {
  %c6 = arith.constant 6 : index
  %b = memref.alloc() : memref<8xf32>
  %v = vector.load %b[%c6] : memref<8xf32>, vector<4xf32>
  return
}

func.func @vector_store_before_the_start() {
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1 : index
  %b = memref.alloc() : memref<2x8xf32>
  %v = arith.constant dense<1.0> : vector<4xf32>
  vector.store %v, %b[%c0, %m1] : memref<2x8xf32>, vector<4xf32>
  return
}

func.func @failed_assert() {
  %false = arith.constant false
  cf.assert %false, "the program's own check"
  return
}

func.func @step_zero() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<4xf32>
  %B = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c0 {
    apipe.copy %A[%c0], %B[%c0], 4 : memref<4xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
  }
  return
}

func.func @step_negative() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %min = arith.constant -9223372036854775808 : index
  scf.for %j = %c0 to %c4 step %c4 {
    scf.for %i = %c0 to %c4 step %min {
    }
  }
  return
}

func.func @unsigned_step_zero() {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  scf.for unsigned %i = %c0 to %c4 step %c0 : i32 {
  }
  return
}

func.func @unsigned_huge_step() {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 3 : i32
  %step = arith.constant -2 : i32
  %one = arith.constant 1 : i64
  scf.for unsigned %i = %c0 to %c4 step %step : i32 {
    func.call @print(%one) : (i64) -> ()
  }
  return
}
