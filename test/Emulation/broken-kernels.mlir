// Deliberately broken kernels: the completion policies expose each bug as
// printed values that differ from the synchronous reference
// (apipe-make-sync), which lands every copy at issue. %A = [10 .. 17].
//
// A missing wait: the tile is read before any wait forces it. Lazy mode
// reads the stale zeros; the reference reads the tile.
// RUN: apipe-run %s --entry=missing_wait --completion=lazy | FileCheck %s --check-prefix=MISSING-LAZY
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=missing_wait | FileCheck %s --check-prefix=MISSING-REF
// MISSING-LAZY: sizes = [4] strides = [1] data =
// MISSING-LAZY-NEXT: [0,  0,  0,  0]
// MISSING-REF: sizes = [4] strides = [1] data =
// MISSING-REF-NEXT: [10,  11,  12,  13]
//
// A count one too large: `pending = 2` with two groups in flight forces
// neither, though the consumer reads the older one. Lazy mode shows both
// rows stale; the reference shows both tiles (and pending = 1, the right
// count, lands the first row under lazy).
// RUN: apipe-run %s --entry=count_too_large --completion=lazy | FileCheck %s --check-prefix=COUNT-LAZY
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=count_too_large | FileCheck %s --check-prefix=COUNT-REF
// RUN: sed 's/apipe.wait_group 2/apipe.wait_group 1/' %s | apipe-run - --entry=count_too_large --completion=lazy | FileCheck %s --check-prefix=COUNT-FIXED
// COUNT-LAZY: sizes = [2, 2] strides = [2, 1] data =
// COUNT-LAZY-NEXT: {{\[\[}}0,   0],
// COUNT-LAZY-NEXT:  [0,   0]]
// COUNT-REF: sizes = [2, 2] strides = [2, 1] data =
// COUNT-REF-NEXT: {{\[\[}}10,   11],
// COUNT-REF-NEXT:  [12,   13]]
// COUNT-FIXED: sizes = [2, 2] strides = [2, 1] data =
// COUNT-FIXED-NEXT: {{\[\[}}10,   11],
// COUNT-FIXED-NEXT:  [0,   0]]
//
// An early overwrite: one buffer, consumed one stage after its copy, so the
// copy of tile j + 1 is in flight while tile j is read. The result depends
// on timing: lazy reads each tile before the next lands (21, 25, 29 are the
// sums of tiles 0, 1, 2); eager and the reference read the next tile over
// it (25, 29, then tile 2 again).
// (The race checker, on by default, stops the program at the first read
// of the tile in flight instead: host reads of a host copy's destination
// in flight are located errors; the values are shown with it off.)
// RUN: apipe-run %s --entry=early_overwrite --completion=lazy --no-racecheck | FileCheck %s --check-prefix=WAR-LAZY
// RUN: apipe-run %s --entry=early_overwrite --completion=eager --no-racecheck | FileCheck %s --check-prefix=WAR-EAGER
// RUN: not apipe-run %s --entry=early_overwrite --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=WAR-RACE
// WAR-RACE-COUNT-2: broken-kernels.mlir:[[# @LINE + 80]]:10: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet: no wait completes the copy first ('memref.load' and 'apipe.copy')
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=early_overwrite | FileCheck %s --check-prefix=WAR-EAGER
// WAR-LAZY: sizes = [3] strides = [1] data =
// WAR-LAZY-NEXT: [21,  25,  29]
// WAR-EAGER: sizes = [3] strides = [1] data =
// WAR-EAGER-NEXT: [25,  29,  29]

func.func private @printMemrefI32(memref<*xi32>)

func.func @init(%A: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.addi %i, %c10 : index
    %vi = arith.index_cast %v : index to i32
    memref.store %vi, %A[%i] : memref<8xi32>
  }
  return
}

func.func @missing_wait() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %A = memref.alloca() : memref<8xi32>
  %b = memref.alloca() : memref<4xi32, 3>
  func.call @init(%A) : (memref<8xi32>) -> ()
  linalg.fill ins(%zero : i32) outs(%b : memref<4xi32, 3>)
  apipe.copy %A[%c0], %b[%c0], 4 : memref<8xi32> to memref<4xi32, 3>
  apipe.commit_group
  %u = memref.cast %b : memref<4xi32, 3> to memref<*xi32, 3>
  %h = memref.memory_space_cast %u : memref<*xi32, 3> to memref<*xi32>
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  // Too late: the read above already happened.
  apipe.wait_group 0
  return
}

func.func @count_too_large() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  %A = memref.alloca() : memref<8xi32>
  %b = memref.alloca() : memref<2x2xi32, 3>
  func.call @init(%A) : (memref<8xi32>) -> ()
  linalg.fill ins(%zero : i32) outs(%b : memref<2x2xi32, 3>)
  apipe.copy %A[%c0], %b[%c0, %c0], 2 : memref<8xi32> to memref<2x2xi32, 3>
  apipe.commit_group
  apipe.copy %A[%c2], %b[%c1, %c0], 2 : memref<8xi32> to memref<2x2xi32, 3>
  apipe.commit_group
  apipe.wait_group 2
  %u = memref.cast %b : memref<2x2xi32, 3> to memref<*xi32, 3>
  %h = memref.memory_space_cast %u : memref<*xi32, 3> to memref<*xi32>
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  apipe.wait_group 0
  return
}

func.func @early_overwrite() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %A = memref.alloca() : memref<8xi32>
  %buf = memref.alloca() : memref<2xi32, 3>
  %out = memref.alloca() : memref<3xi32>
  func.call @init(%A) : (memref<8xi32>) -> ()
  apipe.copy %A[%c0], %buf[%c0], 2 : memref<8xi32> to memref<2xi32, 3>
  apipe.commit_group
  apipe.wait_group 0
  scf.for %j = %c0 to %c3 step %c1 {
    %next = arith.addi %j, %c1 : index
    %in_range = arith.cmpi ult, %next, %c3 : index
    scf.if %in_range {
      %src = arith.muli %next, %c2 : index
      apipe.copy %A[%src], %buf[%c0], 2 : memref<8xi32> to memref<2xi32, 3>
    }
    apipe.commit_group
    %x = memref.load %buf[%c0] : memref<2xi32, 3>
    %y = memref.load %buf[%c1] : memref<2xi32, 3>
    %s = arith.addi %x, %y : i32
    memref.store %s, %out[%j] : memref<3xi32>
    apipe.wait_group 0
  }
  %u = memref.cast %out : memref<3xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
