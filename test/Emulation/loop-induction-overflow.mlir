// apipe-run: an scf.for whose induction variable would overflow stops with a
// located run-time error before the loop. The lowering steps `iv + step`
// and compares it with the upper bound; past the largest value of the type
// it wraps below the bound and the loop runs on, so such a program hung
// (trial 73: dynamic bounds 2^63 - 11 to 2^63 - 1, step 3). Loops whose
// last value leaves room for the step run as before, up to the largest
// value itself.
// RUN: apipe-run %s 2>&1 | FileCheck %s --check-prefix=ROOM
// RUN: not apipe-run %s -e index_step_3 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not apipe-run %s -e i8_signed 2>&1 | FileCheck %s --check-prefix=I8
// RUN: not apipe-run %s -e i8_unsigned 2>&1 | FileCheck %s --check-prefix=U8
// RUN: not apipe-run %s -e constant_bounds 2>&1 | FileCheck %s --check-prefix=CONST
// RUN: not apipe-run %s -e negative_i32_step 2>&1 | FileCheck %s --check-prefix=STEP

func.func private @printI64(i64)
func.func private @printNewline()

// The trip count of `lb to ub step s`, with the bounds passed in (dynamic).
func.func @trips(%lb: index, %ub: index, %step: index) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %lb to %ub step %step iter_args(%n = %c0) -> i64 {
    %m = arith.addi %n, %c1 : i64
    scf.yield %m : i64
  }
  return %r : i64
}

func.func @trips_i8(%lb: i8, %ub: i8, %step: i8) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %lb to %ub step %step iter_args(%n = %c0) -> i64 : i8 {
    %m = arith.addi %n, %c1 : i64
    scf.yield %m : i64
  }
  return %r : i64
}

func.func @trips_u8(%lb: i8, %ub: i8, %step: i8) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for unsigned %i = %lb to %ub step %step iter_args(%n = %c0) -> i64 : i8 {
    %m = arith.addi %n, %c1 : i64
    scf.yield %m : i64
  }
  return %r : i64
}

// Room for the step on every loop: 2^63 - 12 to 2^63 - 2 step 1 (10
// trips), 2^63 - 12 to 2^63 - 1 step 1 (11 trips, the last value 2^63 - 2),
// 2^63 - 11 to 2^63 - 1 step 5 (2 trips: 2^63 - 6 + 5 is the largest value
// itself), 250 to 255 unsigned i8 step 5 (1 trip: 250 + 5 = 255), 121 to
// 127 signed i8 step 2 (3 trips: 125 + 2 = 127).
// ROOM: 10
// ROOM-NEXT: 11
// ROOM-NEXT: 2
// ROOM-NEXT: 1
// ROOM-NEXT: 3
// ROOM-NOT: error
func.func @main() {
  %lb = arith.constant 9223372036854775796 : index
  %ub = arith.constant 9223372036854775806 : index
  %max = arith.constant 9223372036854775807 : index
  %s1 = arith.constant 1 : index
  %s5 = arith.constant 5 : index
  %lb5 = arith.constant 9223372036854775797 : index
  %a = func.call @trips(%lb, %ub, %s1) : (index, index, index) -> i64
  func.call @printI64(%a) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %b = func.call @trips(%lb, %max, %s1) : (index, index, index) -> i64
  func.call @printI64(%b) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %c = func.call @trips(%lb5, %max, %s5) : (index, index, index) -> i64
  func.call @printI64(%c) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %u250 = arith.constant 250 : i8
  %u255 = arith.constant 255 : i8
  %u5 = arith.constant 5 : i8
  %d = func.call @trips_u8(%u250, %u255, %u5) : (i8, i8, i8) -> i64
  func.call @printI64(%d) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %i121 = arith.constant 121 : i8
  %i127 = arith.constant 127 : i8
  %i2 = arith.constant 2 : i8
  %e = func.call @trips_i8(%i121, %i127, %i2) : (i8, i8, i8) -> i64
  func.call @printI64(%e) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

// INDEX: loop-induction-overflow.mlir:22:8: error: 'scf.for' induction variable overflows: the last iteration's value plus the step passes the largest signed index value, so the loop would wrap around instead of ending
func.func @index_step_3() {
  %lb = arith.constant 9223372036854775796 : index
  %max = arith.constant 9223372036854775807 : index
  %s3 = arith.constant 3 : index
  %a = func.call @trips(%lb, %max, %s3) : (index, index, index) -> i64
  func.call @printI64(%a) : (i64) -> ()
  return
}

// 120, 123, 126; 126 + 3 > 127.
// I8: loop-induction-overflow.mlir:32:8: error: 'scf.for' induction variable overflows: the last iteration's value plus the step passes the largest signed i8 value
func.func @i8_signed() {
  %i120 = arith.constant 120 : i8
  %i127 = arith.constant 127 : i8
  %i3 = arith.constant 3 : i8
  %e = func.call @trips_i8(%i120, %i127, %i3) : (i8, i8, i8) -> i64
  func.call @printI64(%e) : (i64) -> ()
  return
}

// 250 to 255 step 6: 250 + 6 > 255.
// U8: loop-induction-overflow.mlir:42:8: error: 'scf.for' induction variable overflows: the last iteration's value plus the step passes the largest unsigned i8 value
func.func @i8_unsigned() {
  %u250 = arith.constant 250 : i8
  %u255 = arith.constant 255 : i8
  %u6 = arith.constant 6 : i8
  %d = func.call @trips_u8(%u250, %u255, %u6) : (i8, i8, i8) -> i64
  func.call @printI64(%d) : (i64) -> ()
  return
}

// Constant bounds that overflow are checked too.
// 100, 110, 120; 120 + 10 > 127.
// CONST: loop-induction-overflow.mlir:[[# @LINE + 7]]:8: error: 'scf.for' induction variable overflows
func.func @constant_bounds() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %lb = arith.constant 100 : i8
  %ub = arith.constant 127 : i8
  %step = arith.constant 10 : i8
  %r = scf.for %i = %lb to %ub step %step iter_args(%n = %c0) -> i64 : i8 {
    %m = arith.addi %n, %c1 : i64
    scf.yield %m : i64
  }
  func.call @printI64(%r) : (i64) -> ()
  return
}

// A non-positive step is reported as the loop reads it: -1, not the
// unsigned 4294967295 of its i32 bits (trial 74).
// STEP: loop-induction-overflow.mlir:[[# @LINE + 7]]:8: error: 'scf.for' with step -1: the step must be positive
func.func @negative_i32_step() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %lb = arith.constant 0 : i32
  %ub = arith.constant 5 : i32
  %step = arith.constant -1 : i32
  %r = scf.for %i = %lb to %ub step %step iter_args(%n = %c0) -> i64 : i32 {
    %m = arith.addi %n, %c1 : i64
    scf.yield %m : i64
  }
  func.call @printI64(%r) : (i64) -> ()
  return
}
