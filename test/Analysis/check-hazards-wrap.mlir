// The checker reads integer arithmetic as it wraps (trial 35): an i8 index
// i + 4 stays at or above 4 while i < 252, and wraps to 0..3 from there.
// A store at it while a copy of A[0..3] is in flight is silent where the
// loop stops at 252, and an error where it runs to 300 (it was silent: the
// index was read as i + 4). The same for a buffer an i8 comparison
// chooses (the comparison was not decided: a false error).
// RUN: head -n 32 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: check-hazards-wrap.mlir:48:5: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-wrap.mlir:95:5: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: error
// CHECK: check-hazards-wrap.mlir:{{[0-9]+}}:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NOT: error
func.func @no_wrap(%A: memref<260xf32>, %D: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c252 = arith.constant 252 : index
  %k = arith.constant 4 : i8
  %seven = arith.constant 7.0 : f32
  apipe.copy %A[%c0], %D[%c0], 4 : memref<260xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c252 step %c1 {
    %t = arith.index_cast %i : index to i8
    %s = arith.addi %t, %k : i8
    %w = arith.index_castui %s : i8 to index
    memref.store %seven, %A[%w] : memref<260xf32>
  }
  apipe.wait_group 0
  return
}

// -----

func.func @wraps(%A: memref<260xf32>, %D: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c300 = arith.constant 300 : index
  %k = arith.constant 4 : i8
  %seven = arith.constant 7.0 : f32
  apipe.copy %A[%c0], %D[%c0], 4 : memref<260xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c300 step %c1 {
    %t = arith.index_cast %i : index to i8
    %s = arith.addi %t, %k : i8
    %w = arith.index_castui %s : i8 to index
    memref.store %seven, %A[%w] : memref<260xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// A buffer chosen by an i8 comparison: i + 4 <u 4 holds only once i + 4
// wraps (i >= 252), so below that the store writes O (silent: it was a
// false error, trial 37), and a loop to 300 may write A (an error).
func.func @narrow_choice(%A: memref<260xf32>, %O: memref<260xf32> {llvm.noalias}, %D: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c252 = arith.constant 252 : index
  %k = arith.constant 4 : i8
  %seven = arith.constant 7.0 : f32
  apipe.copy %A[%c0], %D[%c0], 4 : memref<260xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c252 step %c1 {
    %t = arith.index_cast %i : index to i8
    %s = arith.addi %t, %k : i8
    %c = arith.cmpi ult, %s, %k : i8
    %b = arith.select %c, %A, %O : memref<260xf32>
    memref.store %seven, %b[%c2] : memref<260xf32>
  }
  apipe.wait_group 0
  return
}

// -----

func.func @narrow_choice_wraps(%A: memref<260xf32>, %O: memref<260xf32> {llvm.noalias}, %D: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c300 = arith.constant 300 : index
  %k = arith.constant 4 : i8
  %seven = arith.constant 7.0 : f32
  apipe.copy %A[%c0], %D[%c0], 4 : memref<260xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c300 step %c1 {
    %t = arith.index_cast %i : index to i8
    %s = arith.addi %t, %k : i8
    %c = arith.cmpi ult, %s, %k : i8
    %b = arith.select %c, %A, %O : memref<260xf32>
    memref.store %seven, %b[%c2] : memref<260xf32>
  }
  apipe.wait_group 0
  return
}

// -----

// x & (2^63 - 1) is x mod 2^63, past the forms' range: any index (an
// error; it was read as meeting nothing, trial 38).
func.func @mask_63_bits(%A: memref<64xi32>, %out: memref<4xi32> {llvm.noalias}, %x: index) {
  %c0 = arith.constant 0 : index
  %kmax = arith.constant 9223372036854775807 : index
  %buf = memref.alloc() : memref<4xi32>
  apipe.copy %A[%c0], %buf[%c0], 1 : memref<64xi32> to memref<4xi32>
  apipe.commit_group
  %m = arith.andi %x, %kmax : index
  %v = memref.load %buf[%m] : memref<4xi32>
  memref.store %v, %out[%c0] : memref<4xi32>
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xi32>
  return
}
