// The entry function's return releases its stack too: a copy still pending
// into or out of its own memref.alloca there stops the run (trial 34: the
// check ran after a func.call of the module, and no call reaches the entry;
// the run went on). Waiting first is fine. apipe-check-hazards reports the
// same return (test/Analysis/check-hazards-stack-release.mlir).
// RUN: not apipe-run %s -e pending 2>&1 | FileCheck %s --check-prefix=PENDING
// RUN: not apipe-run %s -e pending --completion=eager,random:2 2>&1 | FileCheck %s --check-prefix=PENDING
// RUN: apipe-run %s -e waited --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefix=WAITED
// PENDING: entry-stack-release.mlir:[[#@LINE+15]]:3: error: stack memory is released here (a function with 'memref.alloca' returned, or a 'memref.alloca_scope' ended) while a pending 'apipe.copy' still writes it
// PENDING-NEXT: entry-stack-release.mlir:[[#@LINE+12]]:3: note: the pending copy
// WAITED-NOT: error
// WAITED-COUNT-3: 5
// WAITED-NOT: error
func.func private @printF32(f32)
func.func private @printNewline()
func.func @pending() {
  %c0 = arith.constant 0 : index
  %src = memref.alloc() : memref<8xf32>
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%src : memref<8xf32>)
  %t = memref.alloca() : memref<8xf32>
  apipe.copy %src[%c0], %t[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  return
}
func.func @waited() {
  %c0 = arith.constant 0 : index
  %src = memref.alloc() : memref<8xf32>
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%src : memref<8xf32>)
  %t = memref.alloca() : memref<8xf32>
  apipe.copy %src[%c0], %t[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  %x = memref.load %t[%c0] : memref<8xf32>
  func.call @printF32(%x) : (f32) -> ()
  func.call @printNewline() : () -> ()
  memref.dealloc %src : memref<8xf32>
  return
}
