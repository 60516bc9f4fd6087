// A function called with its caller's copies in flight (docs/semantics.md:
// a called function starts with its caller's groups): its loop in the
// synchronous form completed them before its reads, so the pipelined code
// starts with a commit and a wait. (apipe-check-hazards and the form
// conversions count groups within a function and refuse such calls; the
// pipeliner and apipe-run follow them.)
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=2" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 sync=tokens" 2>/dev/null | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | FileCheck %s --check-prefix=COUNTING
// Nested under func.func, the pass sees one function and not its callers
// (MLIR runs it on the siblings in parallel): every func.func loop that
// waits starts with the commit and the wait, and the program prints the
// same values.
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-software-pipeline{num-stages=3}))' 2>/dev/null | apipe-run - --completion=random:2 | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-software-pipeline{num-stages=3}))' 2>/dev/null | FileCheck %s --check-prefix=NESTED

// CHECK: [100,  105,  110,  115]
// CHECK-NEXT: Unranked
// CHECK-NEXT: [100,  105,  110,  115]

func.func private @printMemrefF32(memref<*xf32>)

  // Copies of the caller, committed before its call (docs/semantics.md: a
  // called function starts with its caller's groups in flight); the
  // loop's wait completed them before its reads.
  // COUNTING-LABEL: func.func @callee_loop
  // COUNTING: apipe.commit_group{{$}}
  // COUNTING-NEXT: apipe.wait_group 0
  // COUNTING: scf.for
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

  func.func @caller(%A: memref<64xf32> {llvm.noalias}, %X: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
    %c0 = arith.constant 0 : index
    %x = memref.alloc() : memref<4xf32>
    apipe.copy %X[%c0], %x[%c0], 4 : memref<4xf32> to memref<4xf32>
    apipe.commit_group
    func.call @callee_loop(%A, %x, %out) : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
    apipe.wait_group 0
    memref.dealloc %x : memref<4xf32>
    return
  }

  // Called by @main before anything that copies (printMemrefF32 is a
  // declaration: it issues nothing): no wait added.
  // COUNTING-LABEL: func.func @quiet_caller_loop
  // COUNTING-NOT: apipe.wait_group 0
  // COUNTING: scf.for
  // NESTED-LABEL: func.func @quiet_caller_loop
  // NESTED: apipe.commit_group{{$}}
  // NESTED-NEXT: apipe.wait_group 0
  // NESTED: scf.for
  func.func @quiet_caller_loop(%A: memref<64xf32> {llvm.noalias}, %x: memref<4xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
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
  func.call @quiet_caller_loop(%A, %X, %o4) : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%o4u) : (memref<*xf32>) -> ()
  func.call @caller(%A, %X, %o4) : (memref<64xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.call @printMemrefF32(%o4u) : (memref<*xf32>) -> ()
  return
}
