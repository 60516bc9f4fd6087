// apipe-check-hazards on apipe-software-pipeline's own output: pipelined
// loops inside outer loops (three and four versions), copies in an inner
// loop, consumers in an inner loop, dynamic trip counts. The output is
// correct, so the check reports nothing; with every steady-state wait made
// one weaker it reports the reads (and the notes give the count).
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=SILENT
// SILENT-NOT: error
// SILENT-NOT: remark
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline -o %t.mlir
// RUN: perl -pe 's/apipe\.wait_group (\d+)$/"apipe.wait_group ".($1+1)/e' %t.mlir > %t.weak.mlir
// RUN: not apipe-opt %t.weak.mlir --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WEAK

// Three versions (consumer in stage 2) inside an outer loop.
// WEAK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @outer_loop_three_versions(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %i = %c0 to %c16 step %c1 {
      %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
      apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
      %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
      memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
    } {apipe.async_stages = array<i64: 0>}
  }
  return
}

// -----

// Four versions, two outer loops, a dynamic inner trip count.
// WEAK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @two_outer_loops_dynamic(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %p = %c0 to %c2 step %c1 {
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %i = %c0 to %n step %c1 {
        %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
        apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
        %x = memref.load %buf[%c2] {apipe.stage = 3 : i64} : memref<4xf32>
        memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
      } {apipe.async_stages = array<i64: 0>}
    }
  }
  return
}

// -----

// Row-by-row tile copies in an inner loop (stage 0), the tile read in an
// inner loop (stage 1).
// WEAK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
func.func @inner_loop_copies_and_reads(%A: memref<16x4xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<2x4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %row0 = arith.muli %i, %c2 {apipe.stage = 0 : i64} : index
    scf.for %r = %c0 to %c2 step %c1 {
      %row = arith.addi %row0, %r : index
      apipe.copy %A[%row, %c0], %tile[%r, %c0], 4 : memref<16x4xf32> to memref<2x4xf32>
    } {apipe.stage = 0 : i64}
    %s = scf.for %r = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %tile[%r, %c1] : memref<2x4xf32>
      %acc2 = arith.addf %acc, %x : f32
      scf.yield %acc2 : f32
    } {apipe.stage = 1 : i64}
    memref.store %s, %out[%i] {apipe.stage = 1 : i64} : memref<8xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
