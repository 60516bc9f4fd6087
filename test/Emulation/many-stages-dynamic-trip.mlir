// A reduction with a dynamic trip count pipelined with many stages (trial
// 43): the checker is silent on the pipeliner's output at 48 and 64
// stages (it reported one false race per stage from about 40 stages on,
// when its work budget ran out). The 48-stage output printed 1225, what
// make-sync prints, in every completion mode of the trial; the emulator
// takes about 10 s per mode on its 10,000 lines, so 6 stages are run here.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=48 | apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=64 | apipe-opt --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=6 -o %t.6.mlir
// RUN: apipe-opt %t.6.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.6.mlir --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=MODES
// CHECK: [1225,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// MODES-COUNT-3: [1225,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
func.func private @printMemrefF32(memref<*xf32>)
func.func @k(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<1xf32>
  %r = scf.for %j = %c0 to %ub step %c1 iter_args(%acc = %zero) -> f32 {
    apipe.copy %A[%j], %tile[%c0], 1 : memref<64xf32> to memref<1xf32>
    %x = memref.load %tile[%c0] : memref<1xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  memref.store %r, %out[%c0] : memref<16xf32>
  memref.dealloc %tile : memref<1xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c50 = arith.constant 50 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%zf : f32) outs(%out : memref<16xf32>)
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @k(%A, %out, %c50) : (memref<64xf32>, memref<16xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
