// The entry function's return releases its stack too: a copy still pending
// into or out of its own memref.alloca there stops the run (trial 34: the
// check ran after a func.call of the module, and no call reaches the entry;
// the run went on). Waiting first is fine. apipe-check-hazards reports the
// same return (test/Analysis/check-hazards-stack-release.mlir).
// RUN: not apipe-run %s -e pending 2>&1 | FileCheck %s --check-prefix=PENDING
// RUN: not apipe-run %s -e pending --completion=eager,random:2 2>&1 | FileCheck %s --check-prefix=PENDING
// RUN: apipe-run %s -e waited --completion=lazy,eager,random:3 2>&1 | FileCheck %s --check-prefix=WAITED
// A function with an alloca that is called only through a value
// (func.constant) is a callee, not an entry: its return does not release
// its caller's frame, whose copy is still pending there.
// RUN: apipe-run %s -e through_value --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=WAITED2
// PENDING: entry-stack-release.mlir:[[#@LINE+18]]:3: error: stack memory is released here (a function with 'memref.alloca' returned, or a 'memref.alloca_scope' ended) while a pending 'apipe.copy' still writes it
// PENDING-NEXT: entry-stack-release.mlir:[[#@LINE+15]]:3: note: the pending copy
// WAITED-NOT: error
// WAITED-COUNT-3: 5
// WAITED-NOT: error
// WAITED2-NOT: error
// WAITED2-COUNT-2: 5
// WAITED2-NOT: error
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
func.func @helper(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %t = memref.alloca() : memref<8xf32>
  %v = memref.load %x[%c0] : memref<8xf32>
  memref.store %v, %t[%c0] : memref<8xf32>
  return
}
func.func @through_value() {
  %c0 = arith.constant 0 : index
  %src = memref.alloc() : memref<8xf32>
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%src : memref<8xf32>)
  %mine = memref.alloca() : memref<8xf32>
  apipe.copy %src[%c0], %mine[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %f = func.constant @helper : (memref<8xf32>) -> ()
  func.call_indirect %f(%src) : (memref<8xf32>) -> ()
  apipe.wait_group 0
  %x = memref.load %mine[%c0] : memref<8xf32>
  func.call @printF32(%x) : (f32) -> ()
  func.call @printNewline() : () -> ()
  memref.dealloc %src : memref<8xf32>
  return
}
