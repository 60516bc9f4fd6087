// The pipeliner's output for an `scf.for unsigned` with dynamic bounds
// computes its trip count with `arith.cmpi ult` (trial 27): the checker
// takes it as nonnegative as the signed form's, so it is silent on the
// output (before: a read-after-write error in the epilogue), and still
// reports the output with its kernel wait weakened.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=4 sync=tokens" 2>/dev/null | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | sed -e 's/^\(        \)apipe.wait_group 1$/\1apipe.wait_group 2/' | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=WEAK
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=random:5 | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// WEAK: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK: [0,  5,  9,  13,  17,  0]
func.func @sum_pairs(%A: memref<64xf32> {llvm.noalias}, %out: memref<6xf32> {llvm.noalias}, %lb: index, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pair = memref.alloc() : memref<2xf32>
  scf.for unsigned %i = %lb to %ub step %c1 {
    %src = arith.muli %i, %c2 : index
    apipe.copy %A[%src], %pair[%c0], 2 : memref<64xf32> to memref<2xf32>
    apipe.commit_group
    apipe.wait_group 0
    %a = memref.load %pair[%c0] : memref<2xf32>
    %b = memref.load %pair[%c1] : memref<2xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%i] : memref<6xf32>
  }
  memref.dealloc %pair : memref<2xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<6xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c6 step %c1 {
    memref.store %zero, %out[%i] : memref<6xf32>
  }
  func.call @sum_pairs(%A, %out, %c1, %c5) : (memref<64xf32>, memref<6xf32>, index, index) -> ()
  %u = memref.cast %out : memref<6xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
