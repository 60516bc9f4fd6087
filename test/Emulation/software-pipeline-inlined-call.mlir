// A loop whose consumer is a call (trial 52 F1): the pipeliner refuses a
// call in any stage, and says to inline the callee first; after MLIR's
// `inline` pass the same loop is scheduled, pipelined exactly, and prints
// what the synchronous program prints in every completion mode.
// RUN: not apipe-opt %s --apipe-software-pipeline=num-stages=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: [[@LINE+24]]:5: error: 'func.call' op cannot be moved by the pipeliner: a call may have side effects (calls are refused in every stage; inline the callee first, e.g. run 'inline' before this pass)
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(inline,apipe-software-pipeline{num-stages=3})' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: scheduled 3 stages (num_stages = 3): stage 0: 2 ops, stage 2: 2 ops; versions: memref<4xf32> x 3 (48 bytes)
// RUN: apipe-opt %t.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.mlir --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s --check-prefix=MODES
// CHECK: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// MODES-COUNT-5: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
func.func private @printMemrefF32(memref<*xf32>)
func.func @consume(%b: memref<4xf32>, %o: memref<16xf32>, %j: index) {
  %c3 = arith.constant 3 : index
  %x = memref.load %b[%c3] : memref<4xf32>
  memref.store %x, %o[%j] : memref<16xf32>
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %c16 step %c1 {
    %off = arith.muli %j, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    func.call @consume(%buf, %out, %j) : (memref<4xf32>, memref<16xf32>, index) -> ()
  }
  memref.dealloc %buf : memref<4xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  func.call @k(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
