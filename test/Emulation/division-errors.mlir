// Integer division by zero, and the minimum signed value divided by -1, are
// undefined behaviour in `arith`: apipe-run stops at the op with a located
// error before it runs (never a SIGFPE, or a poisoned index that reaches a
// copy or a load unchecked), for every unsigned and signed division op, on
// index and integer types, with constant and run-time divisors. Divisions
// that stay defined run unchanged (@clean).
//
// RUN: not apipe-run %s --entry=remui_zero_index 2>&1 | FileCheck %s --check-prefix=REMUI
// REMUI: division-errors.mlir:[[# @LINE + 23]]:10: error: 'arith.remui' division by zero
// REMUI-NOT: {{.}}
// RUN: not apipe-run %s --entry=divsi_dynamic --completion=eager 2>&1 | FileCheck %s --check-prefix=DIVSI
// DIVSI: 3
// DIVSI-NEXT: division-errors.mlir:[[# @LINE + 35]]:10: error: 'arith.divsi' division by zero
// RUN: not apipe-run %s --entry=overflow_i32 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: division-errors.mlir:[[# @LINE + 41]]:8: error: 'arith.remsi' overflow: the minimum value divided by -1
// RUN: not apipe-run %s --entry=overflow_i8_floor 2>&1 | FileCheck %s --check-prefix=FLOOR
// FLOOR: division-errors.mlir:[[# @LINE + 47]]:8: error: 'arith.floordivsi' overflow: the minimum value divided by -1
// RUN: not apipe-run %s --entry=ceildivui_zero 2>&1 | FileCheck %s --check-prefix=CEIL
// CEIL: division-errors.mlir:[[# @LINE + 53]]:8: error: 'arith.ceildivui' division by zero
// RUN: not apipe-run %s --entry=index_into_copy --completion=random:4 2>&1 | FileCheck %s --check-prefix=COPY
// COPY: division-errors.mlir:[[# @LINE + 61]]:8: error: 'arith.remui' division by zero
// RUN: apipe-run %s --entry=clean --completion=lazy,eager | FileCheck %s --check-prefix=CLEAN
// CLEAN-COUNT-2: 7
// CLEAN-NOT: error

func.func @remui_zero_index() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %b = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.remui %i, %c0 : index
    %x = memref.load %b[%r] : memref<4xf32>
  }
  memref.dealloc %b : memref<4xf32>
  return
}

func.func @divsi_dynamic() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %c9 = arith.constant 9 : i64
  %q = arith.divsi %c9, %c3 : i64
  vector.print %q : i64
  // The divisor is 0 only at run time (3 - 3).
  %d = arith.subi %c3, %q : i64
  %bad = arith.divsi %c9, %d : i64
  vector.print %bad : i64
  return
}

func.func @overflow_i32() {
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %r = arith.remsi %min, %m1 : i32
  vector.print %r : i32
  return
}

func.func @overflow_i8_floor() {
  %min = arith.constant -128 : i8
  %m1 = arith.constant -1 : i8
  %r = arith.floordivsi %min, %m1 : i8
  vector.print %r : i8
  return
}

func.func @ceildivui_zero() {
  %a = arith.constant 7 : i16
  %z = arith.constant 0 : i16
  %r = arith.ceildivui %a, %z : i16
  vector.print %r : i16
  return
}

func.func @index_into_copy() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 0 : index
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<2x4xf32>
  %v = arith.remui %c0, %c2 : index
  apipe.copy %A[%c0], %buf[%v, %c0], 4 : memref<8xf32> to memref<2x4xf32>
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %A : memref<8xf32>
  memref.dealloc %buf : memref<2x4xf32>
  return
}

func.func @clean() {
  %a = arith.constant 22 : i32
  %b = arith.constant 3 : i32
  %m1 = arith.constant -1 : i32
  %q = arith.divsi %a, %b : i32
  // 22 / -1 is defined: only the minimum value overflows.
  %n = arith.divsi %q, %m1 : i32
  %p = arith.divsi %n, %m1 : i32
  vector.print %p : i32
  return
}

// Wider than 64 bits: the minimum i128 divided by -1 (both computed at run
// time), and a defined i128 division.
func.func @overflow_i128() {
  %one = arith.constant 1 : i128
  %shift = arith.constant 127 : i128
  %zero = arith.constant 0 : i128
  %min = arith.shli %one, %shift : i128
  %m1 = arith.subi %zero, %one : i128
  %r = arith.divsi %min, %m1 : i128
  %t = arith.trunci %r : i128 to i64
  vector.print %t : i64
  return
}

func.func @clean_i128() {
  %a = arith.constant -9 : i128
  %b = arith.constant 2 : i128
  %m1 = arith.constant -1 : i128
  %q = arith.divsi %a, %b : i128
  %n = arith.remsi %q, %m1 : i128
  %s = arith.addi %q, %n : i128
  %t = arith.trunci %s : i128 to i64
  vector.print %t : i64
  return
}
// RUN: not apipe-run %s --entry=overflow_i128 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: division-errors.mlir:[[# @LINE - 18]]:8: error: 'arith.divsi' overflow: the minimum value divided by -1
// RUN: apipe-run %s --entry=clean_i128 | FileCheck %s --check-prefix=WIDE-CLEAN
// WIDE-CLEAN: -4
