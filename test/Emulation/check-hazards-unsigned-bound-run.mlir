// apipe-check-hazards with an index bounded by an unsigned comparison: in
// the then region of `scf.if (off ule 2)` the index argument %off is in
// [0, 2] (a negative index is at least 2^63 as an unsigned value, above 2).
// A host loop over a flat buffer of three 4-element versions reads version
// `(i + 1) mod 3` at offsets off and off + 1 while the copy into the next
// version is in flight. (A fresh-user trial found this reported as a
// read-after-write: the comparison was only a symbol, as neither operand was
// known nonnegative.)
//   @sum_within (off ule 2): the reads stay in their version (correct;
//                            run with off = 2);
//   @sum_beyond (off ule 4): off = 3 or 4 reads into the version in flight
//                            (broken, reported by both tools; run with
//                            off = 4).
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=within 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=within --completion=lazy,eager,random:1,random:2 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=beyond --completion=lazy,random:1 2>&1 | FileCheck %s --check-prefix=BROKEN
// SYNC: 105
// MODES-COUNT-4: 105
// BROKEN: error: the host reads global memory byte {{[0-9]+}} of the destination buffer of its own asynchronous copy still in flight

func.func @sum_within(%A: memref<64xi32>, %off: index) -> i32 {
  %bound = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<12xi32>
  %ok = arith.cmpi ule, %off, %bound : index
  %r = scf.if %ok -> (i32) {
    // Versions 1 and 2 first (groups 0 and 1).
    apipe.copy %A[%c0], %buf[%c4], 4 : memref<64xi32> to memref<12xi32>
    apipe.commit_group
    apipe.copy %A[%c4], %buf[%c8], 4 : memref<64xi32> to memref<12xi32>
    apipe.commit_group
    %s = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %z) -> (i32) {
      apipe.wait_group 1
      %ri = arith.addi %i, %c1 : index
      %rv = arith.remui %ri, %c3 : index
      %rb = arith.muli %rv, %c4 : index
      %ra = arith.addi %rb, %off : index
      %x = memref.load %buf[%ra] : memref<12xi32>
      %ra1 = arith.addi %ra, %c1 : index
      %y = memref.load %buf[%ra1] : memref<12xi32>
      %xy = arith.addi %x, %y : i32
      %acc1 = arith.addi %acc, %xy : i32
      %wi = arith.addi %i, %c3 : index
      %wv = arith.remui %wi, %c3 : index
      %wb = arith.muli %wv, %c4 : index
      %g = arith.addi %i, %c2 : index
      %sb = arith.muli %g, %c4 : index
      apipe.copy %A[%sb], %buf[%wb], 4 : memref<64xi32> to memref<12xi32>
      apipe.commit_group
      scf.yield %acc1 : i32
    }
    apipe.wait_group 0
    scf.yield %s : i32
  } else {
    scf.yield %z : i32
  }
  memref.dealloc %buf : memref<12xi32>
  return %r : i32
}

func.func @sum_beyond(%A: memref<64xi32>, %off: index) -> i32 {
  %bound = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %buf = memref.alloc() : memref<12xi32>
  %ok = arith.cmpi ule, %off, %bound : index
  %r = scf.if %ok -> (i32) {
    // Versions 1 and 2 first (groups 0 and 1).
    apipe.copy %A[%c0], %buf[%c4], 4 : memref<64xi32> to memref<12xi32>
    apipe.commit_group
    apipe.copy %A[%c4], %buf[%c8], 4 : memref<64xi32> to memref<12xi32>
    apipe.commit_group
    %s = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %z) -> (i32) {
      apipe.wait_group 1
      %ri = arith.addi %i, %c1 : index
      %rv = arith.remui %ri, %c3 : index
      %rb = arith.muli %rv, %c4 : index
      %ra = arith.addi %rb, %off : index
      // CHECK: check-hazards-unsigned-bound-run.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing
      %x = memref.load %buf[%ra] : memref<12xi32>
      %ra1 = arith.addi %ra, %c1 : index
      // CHECK: check-hazards-unsigned-bound-run.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing
      %y = memref.load %buf[%ra1] : memref<12xi32>
      %xy = arith.addi %x, %y : i32
      %acc1 = arith.addi %acc, %xy : i32
      %wi = arith.addi %i, %c3 : index
      %wv = arith.remui %wi, %c3 : index
      %wb = arith.muli %wv, %c4 : index
      %g = arith.addi %i, %c2 : index
      %sb = arith.muli %g, %c4 : index
      apipe.copy %A[%sb], %buf[%wb], 4 : memref<64xi32> to memref<12xi32>
      apipe.commit_group
      scf.yield %acc1 : i32
    }
    apipe.wait_group 0
    scf.yield %s : i32
  } else {
    scf.yield %z : i32
  }
  memref.dealloc %buf : memref<12xi32>
  return %r : i32
}

func.func @run(%off: index, %which: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xi32>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %A[%i] : memref<64xi32>
  }
  %first = arith.cmpi eq, %which, %c0 : index
  %s = scf.if %first -> (i32) {
    %x = func.call @sum_within(%A, %off) : (memref<64xi32>, index) -> i32
    scf.yield %x : i32
  } else {
    %x = func.call @sum_beyond(%A, %off) : (memref<64xi32>, index) -> i32
    scf.yield %x : i32
  }
  vector.print %s : i32
  memref.dealloc %A : memref<64xi32>
  return
}

func.func @within() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  func.call @run(%c2, %c0) : (index, index) -> ()
  return
}

func.func @beyond() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  func.call @run(%c4, %c1) : (index, index) -> ()
  return
}
