// apipe-check-hazards on the pipeliner's output for a loop of constant
// bounds whose step is loaded from memory (2 here; trial 83). The
// pipeliner's trip count is `ceildivui(16 - 0, max(step, 1))`, selected
// under `0 < 16`, which folds to true: the count is the quotient itself.
// That quotient of a nonnegative dividend is in [0, 16], so the switch's
// default case (`min(T, 2)` none of 0 and 1) has T >= 2, and after a
// kernel loop of T - 2 iterations that runs none, T = 2: the epilogue's
// first read is of slot 0, not of the prologue's copy into slot 1 still in
// flight. The checker is silent (it reported that read as racing when the
// quotient had no facts), and the result runs as make-sync in every mode.
// RUN: apipe-opt %s --apipe-software-pipeline -o %t.pipelined.mlir
// RUN: apipe-opt %t.pipelined.mlir --apipe-check-hazards | FileCheck %s --check-prefix=PIPELINED --implicit-check-not=error:
// RUN: apipe-run %t.pipelined.mlir --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// PIPELINED: scf.index_switch
// VALUES: {{^}}[6,  -1,  38,  -1,  70,  -1,  102,  -1,  134,  -1,  166,  -1,  198,  -1,  230,  -1]
// VALUES-NOT: [

func.func private @printMemrefF32(memref<*xf32>)

func.func @stream_sum(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %steps: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4xf32>
  %s = memref.load %steps[%c0] : memref<1xindex>
  scf.for %j = %c0 to %c16 step %s {
    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %tile[%k] : memref<4xf32>
      %acc2 = arith.addf %acc, %x : f32
      scf.yield %acc2 : f32
    } {apipe.stage = 2 : i64}
    memref.store %sum, %out[%j] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %tile : memref<4xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %m1 = arith.constant -1.0 : f32
  linalg.fill ins(%m1 : f32) outs(%out : memref<16xf32>)
  %steps = memref.alloc() : memref<1xindex>
  memref.store %c2, %steps[%c0] : memref<1xindex>
  func.call @stream_sum(%A, %out, %steps) : (memref<64xf32>, memref<16xf32>, memref<1xindex>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
