// apipe-check-hazards: a branch whose condition folds to a constant
// (arith.constant, or andi / ori / xori / cmpi of constants) runs only the
// region it picks (trial 15: `andi %true, %true` around the wait was not
// folded, and the read after it was reported). The twins whose condition
// folds to false skip the wait: their reads race, as apipe-run shows.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --entry=run_folded --completion=lazy,eager,random:3 | FileCheck %s --check-prefix=OUT
// RUN: not apipe-run %s --entry=run_skipped 2>&1 | FileCheck %s --check-prefix=RACE
// OUT-COUNT-9: [5,  6,  7,  8]
// RACE: error: the host reads
func.func @folded(%A: memref<16xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %false = arith.constant false
  %b = memref.alloc() : memref<4xf32>
  %and = arith.andi %true, %true : i1
  %xor = arith.xori %true, %false : i1
  %k = arith.remui %c4, %c1 : index
  %cmp = arith.cmpi eq, %k, %c0 : index
  %all = arith.andi %and, %xor : i1
  %both = arith.andi %all, %cmp : i1
  apipe.copy %A[%c4], %b[%c0], 4 : memref<16xf32> to memref<4xf32>
  apipe.commit_group
  scf.if %both {
    apipe.wait_group 0
  }
  memref.copy %b, %out : memref<4xf32> to memref<4xf32>
  apipe.wait_group 0
  return
}
func.func @skipped(%A: memref<16xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %false = arith.constant false
  %b = memref.alloc() : memref<4xf32>
  %and = arith.andi %true, %false : i1
  apipe.copy %A[%c4], %b[%c0], 4 : memref<16xf32> to memref<4xf32>
  apipe.commit_group
  scf.if %and {
    apipe.wait_group 0
  }
  // CHECK: constant-conditions.mlir:[[# @LINE + 1]]:3: error: 'memref.copy' op reads a buffer region that an async copy may still be writing (read-after-write)
  memref.copy %b, %out : memref<4xf32> to memref<4xf32>
  apipe.wait_group 0
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @fill() -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<16xf32>
  scf.for %j = %c0 to %c16 step %c1 {
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %v = arith.addf %jf, %one : f32
    memref.store %v, %A[%j] : memref<16xf32>
  }
  return %A : memref<16xf32>
}
func.func @run_folded() {
  %A = func.call @fill() : () -> memref<16xf32>
  %out = memref.alloc() : memref<4xf32>
  %u = memref.cast %out : memref<4xf32> to memref<*xf32>
  func.call @folded(%A, %out) : (memref<16xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @folded(%A, %out) : (memref<16xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @folded(%A, %out) : (memref<16xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @run_skipped() {
  %A = func.call @fill() : () -> memref<16xf32>
  %out = memref.alloc() : memref<4xf32>
  func.call @skipped(%A, %out) : (memref<16xf32>, memref<4xf32>) -> ()
  return
}
