// apipe-run's watch of the host's copies in flight, against the host's
// next copies: PTX orders no two cp.async of a thread before the wait that
// completes the first, so a copy that writes the destination of a copy
// still in flight (write-after-write), writes its source (write-after-
// read) or reads its destination (read-after-write) is a located error at
// the second copy with a note at the first, in every completion mode. (A
// fresh-user trial found these silent: the emulator lands a thread's
// copies in issue order, so the race never showed in the output.) With
// the wait between, each is correct and prints what make-sync prints.
// apipe-check-hazards reports the same three.
//
// RUN: not apipe-run %s --entry=waw --completion=lazy,eager,random:1 2>&1 | FileCheck %s --check-prefix=WAW
// RUN: not apipe-run %s --entry=war --completion=lazy,eager,random:1 2>&1 | FileCheck %s --check-prefix=WAR
// RUN: not apipe-run %s --entry=raw --completion=lazy,eager,random:1 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: apipe-run %s --entry=waited --completion=lazy,eager,random:1 2>&1 | FileCheck %s --check-prefix=OK --implicit-check-not=error
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=waited 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK --implicit-check-not=error:
// SYNC: ( 8, 9, 10, 11 )
// OK-COUNT-3: ( 8, 9, 10, 11 )

func.func @waw() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<16xi32>
  %buf = memref.alloc() : memref<4xi32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xi32> to memref<4xi32>
  apipe.commit_group
  // WAW-COUNT-3: host-racecheck-copy-over-copy.mlir:[[# @LINE + 2]]:3: error: the host writes global memory byte 0 of the destination buffer of its own asynchronous copy still in flight, which may write it after this access: no wait completes the copy first ('apipe.copy' and 'apipe.copy')
  // CHECK: host-racecheck-copy-over-copy.mlir:[[# @LINE + 1]]:3: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<16xi32> to memref<4xi32>
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xi32>
  memref.dealloc %A : memref<16xi32>
  return
}

func.func @war() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<16xi32>
  %buf = memref.alloc() : memref<4xi32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xi32> to memref<4xi32>
  apipe.commit_group
  // WAR-COUNT-3: host-racecheck-copy-over-copy.mlir:[[# @LINE + 2]]:3: error: the host writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet
  // CHECK: host-racecheck-copy-over-copy.mlir:[[# @LINE + 1]]:3: error: 'apipe.copy' op
  apipe.copy %A[%c8], %A[%c0], 4 : memref<16xi32> to memref<16xi32>
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xi32>
  memref.dealloc %A : memref<16xi32>
  return
}

func.func @raw() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<16xi32>
  %buf = memref.alloc() : memref<4xi32>
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<16xi32> to memref<4xi32>
  apipe.commit_group
  // RAW-COUNT-3: host-racecheck-copy-over-copy.mlir:[[# @LINE + 2]]:3: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet
  // CHECK: host-racecheck-copy-over-copy.mlir:[[# @LINE + 1]]:3: error: 'apipe.copy' op
  apipe.copy %buf[%c0], %A[%c0], 4 : memref<4xi32> to memref<16xi32>
  apipe.commit_group
  apipe.wait_group 0
  memref.dealloc %buf : memref<4xi32>
  memref.dealloc %A : memref<16xi32>
  return
}

func.func @waited() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %A = memref.alloc() : memref<16xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %A[%i] : memref<16xi32>
  }
  %buf = memref.alloc() : memref<4xi32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xi32> to memref<4xi32>
  apipe.commit_group
  apipe.wait_group 0
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<16xi32> to memref<4xi32>
  apipe.commit_group
  apipe.wait_group 0
  %z = arith.constant 0 : i32
  %r = vector.transfer_read %buf[%c0], %z {in_bounds = [true]} : memref<4xi32>, vector<4xi32>
  vector.print %r : vector<4xi32>
  memref.dealloc %buf : memref<4xi32>
  memref.dealloc %A : memref<16xi32>
  return
}
