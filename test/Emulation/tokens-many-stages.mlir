// The token form with many stages (trial 44): a loop carries a window of
// `S - 1` tokens, and the checker's fixed point now waits that many rounds
// before widening, as it does for `pending = S - 2` in the counting form
// (it widened after 6, and from 9 stages on reported false races with the
// note "`pending = 7` leaves this copy's group in flight" on a token
// wait). Silent at 9 and 16 stages; the 9-stage output prints what
// make-sync prints in every completion mode.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=9 sync=tokens" -o %t.9.mlir
// RUN: apipe-opt %t.9.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.9.mlir --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=MODES
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=16 sync=tokens" | apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | count 0
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// MODES-COUNT-4: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
func.func private @printMemrefF32(memref<*xf32>)
func.func @f(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %tile = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %n step %c1 {
    %off = arith.muli %j, %c4 : index
    apipe.copy %A[%off], %tile[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %tile[%c1] : memref<4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  memref.dealloc %tile : memref<4xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @f(%A, %out, %c16) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
