// num-stages scheduling: a write into the copy's destination before the
// copy, at elements the copy does not write in that iteration, is no
// conflict; the schedule puts it with its reader in the last stage and
// the pipelined loop prints what make-sync prints. The rule compares the
// write's and the copy's regions in one iteration (before, the whole
// buffer: trial 73 found the store of element 5 beside a copy into
// elements 0-3 refused). Other iterations are the dependence test's: a
// write into the source that the next iteration's copy reads is refused
// where the schedule runs that copy first
// (software-pipeline-schedule-invalid.mlir, @store_into_next_source).
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep '^\[' | FileCheck %s --check-prefix=TWO
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-run - --completion=lazy,eager,random:1 | grep '^\[' | FileCheck %s --check-prefix=SIX
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy,eager,random:2 | grep '^\[' | FileCheck %s --check-prefix=SIX
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4 order=copies-first" 2>/dev/null | apipe-run - --completion=lazy,eager | grep '^\[' | FileCheck %s --check-prefix=FOUR
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt - --apipe-check-hazards -o /dev/null

// REMARK: beside-copy-run.mlir:[[# @LINE + 10]]:8: remark: scheduled 3 stages (num_stages = 3): stage 0: 2 ops, stage 2: 8 ops; versions: memref<8xf32> x 3 (96 bytes)
// out[i] = sum over j <= i of A[4j + 1] * j, the j stored into element 5.
func.func @constant_element(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<8xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    memref.store %fi, %buf[%c5] : memref<8xf32>
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%c1] : memref<8xf32>
    %y = memref.load %buf[%c5] : memref<8xf32>
    %d = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %d : f32
    memref.store %s, %out[%i] : memref<16xf32>
    scf.yield %s : f32
  }
  return
}

// REMARK: beside-copy-run.mlir:[[# @LINE + 9]]:8: remark: scheduled 3 stages (num_stages = 3): stage 0: 2 ops, stage 2: 10 ops; versions: memref<8xf32> x 3 (96 bytes)
// The same with j stored into element 4 + j mod 4 (rotating, never 0-3).
func.func @rotating_element(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<8xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %m = arith.remui %i, %c4 : index
    %e = arith.addi %m, %c4 : index
    memref.store %fi, %buf[%e] : memref<8xf32>
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%c1] : memref<8xf32>
    %y = memref.load %buf[%e] : memref<8xf32>
    %d = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %d : f32
    memref.store %s, %out[%i] : memref<16xf32>
    scf.yield %s : f32
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

// A[k] = k; both functions print sum over j <= i of (4j + 1) * j.
// TWO-COUNT-2: [0,  5,  23,  62,  130,  235,  385,  588,  852,  1185,  1595,  2090,  2678,  3367,  4165,  5080]
// TWO-NOT: [
// SIX-COUNT-6: [0,  5,  23,  62,  130,  235,  385,  588,  852,  1185,  1595,  2090,  2678,  3367,  4165,  5080]
// SIX-NOT: [
// FOUR-COUNT-4: [0,  5,  23,  62,  130,  235,  385,  588,  852,  1185,  1595,  2090,  2678,  3367,  4165,  5080]
// FOUR-NOT: [
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @constant_element(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @rotating_element(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
