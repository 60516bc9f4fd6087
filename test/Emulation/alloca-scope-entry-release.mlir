// A memref.alloca_scope in a function's entry block releases its allocas
// at its end: a copy still pending into one there stops the run (trial 29:
// LLVM makes such an alloca part of the frame, above the stack pointer the
// scope saved, and the run went on). A copy waited for inside the scope is
// fine. apipe-check-hazards reports the same scope
// (test/Analysis/check-hazards-stack-release.mlir).
// RUN: not apipe-run %s -e pending_at_end 2>&1 | FileCheck %s --check-prefix=PENDING
// RUN: not apipe-run %s -e pending_at_end --completion=eager 2>&1 | FileCheck %s --check-prefix=PENDING
// RUN: apipe-run %s -e waited --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefix=WAITED
// PENDING: alloca-scope-entry-release.mlir:[[#@LINE+7]]:3: error: stack memory is released here (a function with 'memref.alloca' returned, or a 'memref.alloca_scope' ended) while a pending 'apipe.copy' still writes it
// PENDING-NEXT: alloca-scope-entry-release.mlir:[[#@LINE+8]]:5: note: the pending copy
// WAITED-COUNT-3: 7
func.func private @printF32(f32)
func.func @pending_at_end() {
  %c0 = arith.constant 0 : index
  %src = memref.alloc() : memref<8xf32>
  memref.alloca_scope {
    %t = memref.alloca() : memref<8xf32>
    apipe.copy %src[%c0], %t[%c0], 8 : memref<8xf32> to memref<8xf32>
    apipe.commit_group
  }
  apipe.wait_group 0
  memref.dealloc %src : memref<8xf32>
  return
}
func.func @waited() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %seven = arith.constant 7.0 : f32
  %src = memref.alloc() : memref<8xf32>
  linalg.fill ins(%seven : f32) outs(%src : memref<8xf32>)
  %v = memref.alloca_scope -> f32 {
    %t = memref.alloca() : memref<8xf32>
    apipe.copy %src[%c0], %t[%c0], 8 : memref<8xf32> to memref<8xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %t[%c5] : memref<8xf32>
    memref.alloca_scope.return %x : f32
  }
  func.call @printF32(%v) : (f32) -> ()
  memref.dealloc %src : memref<8xf32>
  return
}
