// Reads that feed a copy's operands (an index loaded from memory, a gather)
// may sit in an async stage: they at most read memory, and the dependence
// test proves that no write of the loop is reordered against them. The
// pipelined programs (hand stages, and num-stages without annotations)
// print what apipe-make-sync of the input prints under apipe-run in lazy,
// eager and random completion.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=random:2 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4" 2>/dev/null | apipe-run - --completion=random:3 | FileCheck %s
// The loads run in the prologue, ahead of the stores of earlier iterations:
// RUN: apipe-opt %s --apipe-software-pipeline | FileCheck %s --check-prefix=IR
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

func.func private @printMemrefF32(memref<*xf32>)

// A gather: the copy of iteration i reads the row that idx[i] names.
// out[i] = A[4 * idx[i] + 1].
// Stage 3: 4 versions, and the prologue loads idx[0], idx[1], idx[2]
// before any element of out is stored.
// IR-LABEL: func.func @gather
// IR: memref.alloc() : memref<4x4xf32>
// IR-NEXT: memref.load %arg1[%c0] : memref<16xindex>
// IR-NEXT: arith.muli
// IR-NEXT: memref.subview
// IR-NEXT: apipe.copy
// IR-NEXT: apipe.commit_group queue 0
// IR-NEXT: memref.load %arg1[%c1] : memref<16xindex>
// IR: apipe.commit_group queue 0
// IR-NEXT: memref.load %arg1[%c2] : memref<16xindex>
// IR: apipe.commit_group queue 0
// IR-NEXT: scf.for %[[K:.*]] = %c0 to %c13 step %c1 {
// IR-NEXT: %[[I3:.*]] = arith.addi %[[K]], %c3 : index
// IR-NEXT: memref.load %arg1[%[[I3]]] : memref<16xindex>
// IR: apipe.copy
// IR-NEXT: apipe.commit_group queue 0
// IR-NEXT: apipe.wait_group 3
// IR: memref.store %{{.*}}, %arg2[%[[K]]] : memref<16xf32>
// IR-NEXT: }
func.func @gather(%A: memref<64xf32> {llvm.noalias}, %idx: memref<16xindex> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %j = memref.load %idx[%i] {apipe.stage = 0 : i64} : memref<16xindex>
    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 3 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 3 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// The index buffer is rewritten in a later stage, at the element that its
// own iteration read: iteration i + d reads idx[i + d], never idx[i], so
// the reordered load and store are disjoint. idx[i] becomes idx[i] + 100.
// out[i] = A[4 * idx[i] + 2].
func.func @index_rewritten_in_place(%A: memref<64xf32> {llvm.noalias}, %idx: memref<16xindex> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %j = memref.load %idx[%i] {apipe.stage = 0 : i64} : memref<16xindex>
    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c2] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<16xf32>
    %k = memref.load %idx[%i] {apipe.stage = 2 : i64} : memref<16xindex>
    %k1 = arith.addi %k, %c100 {apipe.stage = 2 : i64} : index
    memref.store %k1, %idx[%i] {apipe.stage = 2 : i64} : memref<16xindex>
  } {apipe.async_stages = array<i64: 0>}
  return
}

// The same gather without stage annotations (apipe.num_stages = 3 on the
// loop, which the num-stages option does not override): the scheduler puts
// the index load in stage 0 with the copy that uses it.
// REMARK: software-pipeline-async-reads-run.mlir:[[#@LINE+8]]:3: remark: scheduled 3 stages (num_stages = 3): stage 0: 3 ops, stage 2: 2 ops;
func.func @gather_unannotated(%A: memref<64xf32> {llvm.noalias}, %idx: memref<16xindex> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %j = memref.load %idx[%i] : memref<16xindex>
    %off = arith.muli %j, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c3] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 3 : i64}
  return
}

func.func @reset(%out: memref<16xf32> {llvm.noalias}) {
  %m = arith.constant -1.0 : f32
  linalg.fill ins(%m : f32) outs(%out : memref<16xf32>)
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %A = memref.alloc() : memref<64xf32>
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  // idx[i] = 5i mod 16, a permutation.
  %idx = memref.alloc() : memref<16xindex>
  scf.for %i = %c0 to %c16 step %c1 {
    %p = arith.muli %i, %c5 : index
    %q = arith.remui %p, %c16 : index
    memref.store %q, %idx[%i] : memref<16xindex>
  }
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>

  // 4 * (5i mod 16) + 1:
  // CHECK: [1,  21,  41,  61,  17,  37,  57,  13,  33,  53,  9,  29,  49,  5,  25,  45]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @gather(%A, %idx, %out) : (memref<64xf32>, memref<16xindex>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // 4 * (5i mod 16) + 3:
  // CHECK: [3,  23,  43,  63,  19,  39,  59,  15,  35,  55,  11,  31,  51,  7,  27,  47]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @gather_unannotated(%A, %idx, %out) : (memref<64xf32>, memref<16xindex>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [2,  22,  42,  62,  18,  38,  58,  14,  34,  54,  10,  30,  50,  6,  26,  46]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @index_rewritten_in_place(%A, %idx, %out) : (memref<64xf32>, memref<16xindex>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // The rewritten indices: a second call reads 4 * (idx + 100) + 2, out of
  // A's bounds, so print them instead (100 + 5i mod 16).
  %idxf = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %idx[%i] : memref<16xindex>
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    memref.store %vf, %idxf[%i] : memref<16xf32>
  }
  %ui = memref.cast %idxf : memref<16xf32> to memref<*xf32>
  // CHECK: [100,  105,  110,  115,  104,  109,  114,  103,  108,  113,  102,  107,  112,  101,  106,  111]
  func.call @printMemrefF32(%ui) : (memref<*xf32>) -> ()
  return
}
