// Two function arguments may be the same buffer (the caller may pass one
// buffer twice), so a dependence between them blocks a schedule that
// reverses it; an argument marked `llvm.noalias` (LLVM `noalias`, CUDA
// `__restrict__`) overlaps no other buffer, and the loop pipelines. Here an
// index table `%idx` feeds the copy's offset in stage 0, and stage 2 writes
// `%w[i + 1]`: refused while `%w` may be `%idx`
// (software-pipeline-dependences-invalid.mlir), pipelined once `%w` is
// marked. With distinct buffers, the pipelined program (counting and token
// form, lazy, eager and random completion) prints what make-sync prints.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: apipe-opt %s --apipe-software-pipeline 2>/dev/null | apipe-run - --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefixes=CHECK,MODES
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" 2>/dev/null | apipe-run - --completion=lazy,eager,random:3 | FileCheck %s --check-prefixes=CHECK,MODES3
// REMARK: software-pipeline-noalias-run.mlir:[[# @LINE + 20]]:3: remark: scheduled 3 stages (num_stages = 3)
// out[i] = A[4 idx[i] + 1] with idx[i] = 5i mod 16 (w[i + 1] gets out[i]
// mod 15; were %w the table itself, the loop would chain it).
// CHECK: [1,  21,  41,  61,  17,  37,  57,  13,  33,  53,  9,  29,  49,  5,  25,  45]
// MODES: apipe-run: completion=eager
// MODES: [1,  21,  41,  61,  17,  37,  57,  13,  33,  53,  9,  29,  49,  5,  25,  45]
// MODES: apipe-run: completion=random:2
// MODES: [1,  21,  41,  61,  17,  37,  57,  13,  33,  53,  9,  29,  49,  5,  25,  45]
// MODES3: apipe-run: completion=random:3
// MODES3: [1,  21,  41,  61,  17,  37,  57,  13,  33,  53,  9,  29,  49,  5,  25,  45]

func.func private @printMemrefF32(memref<*xf32>)

func.func @chained_table(%A: memref<64xf32>, %idx: memref<17xindex>, %w: memref<17xindex> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %j = memref.load %idx[%i] : memref<17xindex>
    %off = arith.muli %j, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    %xi = arith.fptosi %x : f32 to i32
    %xx = arith.index_cast %xi : i32 to index
    %n = arith.remui %xx, %c15 : index
    %i1 = arith.addi %i, %c1 : index
    memref.store %n, %w[%i1] : memref<17xindex>
  } {apipe.num_stages = 3 : i64}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %idx = memref.alloc() : memref<17xindex>
  scf.for %i = %c0 to %c17 step %c1 {
    %p = arith.muli %i, %c5 : index
    %q = arith.remui %p, %c16 : index
    memref.store %q, %idx[%i] : memref<17xindex>
  }
  %w = memref.alloc() : memref<17xindex>
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @chained_table(%A, %idx, %w, %out) : (memref<64xf32>, memref<17xindex>, memref<17xindex>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
