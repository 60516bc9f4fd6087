// Stress test of the emulation runtime: a hand-written 3-stage software
// pipeline in counting form (prologue, steady state with wait_group,
// epilogue) over 10,000 iterations. Stage 0 copies tile i (4 x i32) of %A
// into version i mod 3 of %buf, two iterations ahead of stage 2, which sums
// the tile into %out[i]. The synchronization is correct, so every completion
// policy, and every random seed, prints what the synchronous reference
// (apipe-make-sync) prints: no wrong tile, and the checksum
// sum_i (16 i + 6) = 8 N (N - 1) + 6 N = 799980000 for N = 10000.
//
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %s --completion=lazy | FileCheck %s
// RUN: apipe-run %s --completion=eager | FileCheck %s
// RUN: apipe-run %s --completion=random:1 | FileCheck %s
// RUN: apipe-run %s --completion=random:2 | FileCheck %s
// RUN: apipe-run %s --completion=random:3 | FileCheck %s
// RUN: apipe-run %s --completion=random:4 | FileCheck %s
// RUN: apipe-run %s --completion=random:5 | FileCheck %s
// RUN: apipe-run %s --completion=random:6 | FileCheck %s
// RUN: apipe-run %s --completion=random:7 | FileCheck %s
// RUN: apipe-run %s --completion=random:8 | FileCheck %s
// RUN: apipe-run %s --completion=random:9 | FileCheck %s
// RUN: apipe-run %s --completion=random:10 | FileCheck %s
// RUN: apipe-run %s --completion=random:11 | FileCheck %s
// RUN: apipe-run %s --completion=random:12 | FileCheck %s
// RUN: apipe-run %s --completion=random:13 | FileCheck %s
// RUN: apipe-run %s --completion=random:14 | FileCheck %s
// RUN: apipe-run %s --completion=random:15 | FileCheck %s
// RUN: apipe-run %s --completion=random:16 | FileCheck %s
// RUN: apipe-run %s --completion=random:17 | FileCheck %s
// RUN: apipe-run %s --completion=random:18 | FileCheck %s
// RUN: apipe-run %s --completion=random:19 | FileCheck %s
// RUN: apipe-run %s --completion=random:20 | FileCheck %s
//
// The same loop with counts one too large (pending = 3 in the steady state,
// and the last epilogue wait is pending = 1) reads tiles that have not
// landed: lazy mode shows wrong tiles where the reference has none, and the
// last tile is still in flight when its buffers are freed (with the race
// checker off; on, the first read of a tile in flight stops the program).
// RUN: sed -e 's/apipe.wait_group 2/apipe.wait_group 3/' -e 's/apipe.wait_group 0/apipe.wait_group 1/' %s > %t.weak.mlir
// RUN: not apipe-run %t.weak.mlir --completion=lazy --no-racecheck 2>&1 | FileCheck %s --check-prefix=WEAK
// RUN: not apipe-run %t.weak.mlir --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=WEAK-RACE
// WEAK-RACE-COUNT-2: weak.mlir:125:10: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet: no wait completes the copy first ('memref.load' and 'apipe.copy')
// RUN: apipe-opt %t.weak.mlir --apipe-make-sync | apipe-run - | FileCheck %s

// CHECK: wrong tiles
// CHECK-NEXT: 0
// CHECK-NEXT: checksum
// CHECK-NEXT: 799980000

// Steady state: tile i is read before it lands (9998 tiles); the first
// epilogue wait (pending = 1) lands tile N - 2, the second lands nothing, so
// tile N - 1 is wrong too: 9999 wrong tiles.
// WEAK: wrong tiles
// WEAK-NEXT: 9999
// WEAK-NEXT: checksum
// WEAK-NEXT: 799500126
// WEAK-NEXT: weak.mlir:[[@LINE+55]]:3: error: 'memref.dealloc' frees a buffer that the pending 'apipe.copy' at {{.*}}weak.mlir:[[@LINE+40]]:5 still uses

func.func private @printI64(i64)
func.func private @printNewline()
func.func private @printString(!llvm.ptr)

llvm.mlir.global internal constant @wrong_label("wrong tiles\0A\00")
llvm.mlir.global internal constant @checksum_label("checksum\0A\00")

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 10000 : index
  %zero = arith.constant 0 : i32
  %A = memref.alloc(%n) : memref<?x4xi32>
  %out = memref.alloc(%n) : memref<?xi32>
  %buf = memref.alloc() : memref<3x4xi32, 3>
  linalg.fill ins(%zero : i32) outs(%buf : memref<3x4xi32, 3>)
  // A[i][k] = 4 i + k
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %i4 = arith.muli %i, %c4 : index
      %v = arith.addi %i4, %k : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %A[%i, %k] : memref<?x4xi32>
    }
  }
  // Prologue: tiles 0 and 1, one group each.
  apipe.copy %A[%c0, %c0], %buf[%c0, %c0], 4 : memref<?x4xi32> to memref<3x4xi32, 3>
  apipe.commit_group
  apipe.copy %A[%c1, %c0], %buf[%c1, %c0], 4 : memref<?x4xi32> to memref<3x4xi32, 3>
  apipe.commit_group
  // Steady state: issue tile i + 2, wait for tile i, consume it.
  %n2 = arith.subi %n, %c2 : index
  scf.for %i = %c0 to %n2 step %c1 {
    %next = arith.addi %i, %c2 : index
    %vn = arith.remui %next, %c3 : index
    apipe.copy %A[%next, %c0], %buf[%vn, %c0], 4 : memref<?x4xi32> to memref<3x4xi32, 3>
    apipe.commit_group
    apipe.wait_group 2
    %v = arith.remui %i, %c3 : index
    func.call @consume(%buf, %v, %out, %i) : (memref<3x4xi32, 3>, index, memref<?xi32>, index) -> ()
  }
  // Epilogue: tiles n - 2 and n - 1.
  %n1 = arith.subi %n, %c1 : index
  %v2 = arith.remui %n2, %c3 : index
  %v1 = arith.remui %n1, %c3 : index
  apipe.wait_group 1
  func.call @consume(%buf, %v2, %out, %n2) : (memref<3x4xi32, 3>, index, memref<?xi32>, index) -> ()
  apipe.wait_group 0
  func.call @consume(%buf, %v1, %out, %n1) : (memref<3x4xi32, 3>, index, memref<?xi32>, index) -> ()
  func.call @report(%out) : (memref<?xi32>) -> ()
  memref.dealloc %A : memref<?x4xi32>
  memref.dealloc %out : memref<?xi32>
  memref.dealloc %buf : memref<3x4xi32, 3>
  return
}

// out[i] = sum of version v of buf.
func.func @consume(%buf: memref<3x4xi32, 3>, %v: index, %out: memref<?xi32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (i32) {
    %x = memref.load %buf[%v, %k] : memref<3x4xi32, 3>
    %acc2 = arith.addi %acc, %x : i32
    scf.yield %acc2 : i32
  }
  memref.store %sum, %out[%i] : memref<?xi32>
  return
}

// Prints the number of i with out[i] != 16 i + 6, and the sum of out.
func.func @report(%out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %n = memref.dim %out, %c0 : memref<?xi32>
  %wrong, %sum = scf.for %i = %c0 to %n step %c1 iter_args(%w = %zero, %s = %zero) -> (i64, i64) {
    %x = memref.load %out[%i] : memref<?xi32>
    %i16 = arith.muli %i, %c16 : index
    %e = arith.addi %i16, %c6 : index
    %ei = arith.index_cast %e : index to i32
    %bad = arith.cmpi ne, %x, %ei : i32
    %w1 = arith.addi %w, %one : i64
    %w2 = arith.select %bad, %w1, %w : i64
    %x64 = arith.extsi %x : i32 to i64
    %s2 = arith.addi %s, %x64 : i64
    scf.yield %w2, %s2 : i64, i64
  }
  %wl = llvm.mlir.addressof @wrong_label : !llvm.ptr
  func.call @printString(%wl) : (!llvm.ptr) -> ()
  func.call @printI64(%wrong) : (i64) -> ()
  func.call @printNewline() : () -> ()
  %cl = llvm.mlir.addressof @checksum_label : !llvm.ptr
  func.call @printString(%cl) : (!llvm.ptr) -> ()
  func.call @printI64(%sum) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}
