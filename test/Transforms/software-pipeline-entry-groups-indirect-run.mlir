// A function called through a value (func.constant, then
// func.call_indirect) with its caller's copy in flight: the pipeliner's
// entry check cannot find that caller by name, so a function whose address
// is taken may be entered with groups in flight, and its loop starts with a
// commit and a wait (trial 25: before, none was added and apipe-run
// reported the read of a copy still in flight, in every mode).
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" | apipe-run - --completion=random:7 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" | FileCheck %s --check-prefix=ENTRY

// CHECK: [100,  105,  110,  115]

// ENTRY-LABEL: func.func @callee_loop
// ENTRY: apipe.commit_group{{$}}
// ENTRY-NEXT: apipe.wait_group 0
// ENTRY: scf.for
func.func private @printMemrefF32(memref<*xf32>)
func.func @callee_loop(%A: memref<64xf32> {llvm.noalias}, %x: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %src = arith.muli %i, %c4 : index
    apipe.copy %A[%src], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 0
    %v = memref.load %x[%i] : memref<4xf32>
    %w = memref.load %buf[%c0] : memref<4xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %out[%i] : memref<4xf32>
  }
  memref.dealloc %buf : memref<4xf32>
  return
}
func.func @get() -> ((memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()) {
  %f = func.constant @callee_loop : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
  return %f : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
}
func.func @invoke(%f: (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> (), %A: memref<64xf32>, %x: memref<4xf32>, %out: memref<4xf32>) {
  func.call_indirect %f(%A, %x, %out) : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
  return
}
func.func @caller(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  apipe.copy %X[%c0], %x[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  %f = func.constant @callee_loop : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.call_indirect %f(%A, %x, %out) : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
  apipe.wait_group 0
  memref.dealloc %x : memref<4xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100.0 : f32
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %X = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %g = arith.addf %f, %c100 : f32
    memref.store %g, %X[%i] : memref<4xf32>
  }
  %o4 = memref.alloc() : memref<4xf32>
  %o4u = memref.cast %o4 : memref<4xf32> to memref<*xf32>
  func.call @caller(%A, %X, %o4) : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%o4u) : (memref<*xf32>) -> ()
  return
}
