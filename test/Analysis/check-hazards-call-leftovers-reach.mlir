// The copies a callee returns with in flight reach the caller through a
// call by value and through a buffer the callee allocates and returns
// (trial 61). A function called through `func.constant` +
// `func.call_indirect` left its copies unseen, so a read of its
// destination before the wait was silent; so was a read or write of a
// buffer the callee allocated, filled by a copy and returned (also through
// a view of it or a choice of buffers), though apipe-run reports each.
// A call through a value now takes in the copies of every function of the
// module whose address is taken and whose arity is the call's; a buffer
// the callee returns is the whole buffer of the result that returns it.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %s --entry=indirect_waited --completion=lazy | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=indirect_waited --completion=random:2 | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=returned_waited --completion=lazy | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=returned_waited --completion=eager | FileCheck %s --check-prefix=ONE
// ONE: 1
// RUN: not apipe-run %s --entry=indirect_read --completion=lazy 2>&1 | FileCheck %s --check-prefix=READ
// RUN: not apipe-run %s --entry=returned_read --completion=eager 2>&1 | FileCheck %s --check-prefix=READ
// RUN: not apipe-run %s --entry=returned_uncommitted --completion=random:1 2>&1 | FileCheck %s --check-prefix=READ
// RUN: not apipe-run %s --entry=returned_either --completion=lazy 2>&1 | FileCheck %s --check-prefix=READ
// READ: error: the host reads global memory byte 4 of the destination buffer of its own asynchronous copy still in flight
// RUN: not apipe-run %s --entry=returned_view --completion=lazy 2>&1 | FileCheck %s --check-prefix=VIEW
// VIEW: error: the host reads global memory byte 20 of the destination buffer of its own asynchronous copy still in flight
// RUN: not apipe-run %s --entry=returned_store --completion=eager 2>&1 | FileCheck %s --check-prefix=WRITE
// RUN: not apipe-run %s --entry=indirect_chosen --completion=eager 2>&1 | FileCheck %s --check-prefix=WRITE
// A copy a callee returns with in flight into an argument is at the
// positions the call's index operands give (trial 58: a helper copying one
// element by index, called twice, was a false write-after-write on the
// whole buffer): only the read of element 1 meets a copy.
// RUN: not apipe-run %s --entry=indexed_twice --completion=lazy 2>&1 | FileCheck %s --check-prefix=INDEXED
// INDEXED: error: the host reads global memory byte 4 of the destination buffer of its own asynchronous copy still in flight
// WRITE: error: the host writes global memory byte 4 of the destination buffer of its own asynchronous copy still in flight

func.func private @printF32(f32)

func.func @issue_into(%A: memref<8xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %b[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  return
}
func.func @other(%A: memref<8xf32>, %b: memref<8xf32>) {
  return
}

func.func @indirect_read() {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  %fp = func.constant @issue_into : (memref<8xf32>, memref<8xf32>) -> ()
  func.call_indirect %fp(%A, %buf) : (memref<8xf32>, memref<8xf32>) -> ()
  // CHECK: check-hazards-call-leftovers-reach.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %buf[%c1] : memref<8xf32>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}

func.func @indirect_chosen() {
  %c = arith.constant false
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  %f = func.constant @other : (memref<8xf32>, memref<8xf32>) -> ()
  %g = func.constant @issue_into : (memref<8xf32>, memref<8xf32>) -> ()
  %fp = arith.select %c, %f, %g : (memref<8xf32>, memref<8xf32>) -> ()
  func.call_indirect %fp(%A, %buf) : (memref<8xf32>, memref<8xf32>) -> ()
  // CHECK: check-hazards-call-leftovers-reach.mlir:[[# @LINE + 1]]:3: error: 'memref.store' op writes a buffer region that an async copy may still be writing (its destination): the copy may land after this write and erase it (write-after-write)
  memref.store %one, %buf[%c1] : memref<8xf32>
  apipe.wait_group 0
  return
}

func.func @indirect_waited() {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  %fp = func.constant @issue_into : (memref<8xf32>, memref<8xf32>) -> ()
  func.call_indirect %fp(%A, %buf) : (memref<8xf32>, memref<8xf32>) -> ()
  apipe.wait_group 0
  %x = memref.load %buf[%c1] : memref<8xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}

func.func @fresh(%A: memref<8xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %b[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  return %b : memref<8xf32>
}
func.func @fresh_uncommitted(%A: memref<8xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %b[%c0], 4 : memref<8xf32> to memref<8xf32>
  return %b : memref<8xf32>
}
func.func @fresh_tail(%A: memref<8xf32>) -> (i32, memref<4xf32, strided<[1], offset: 4>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %b = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %b[%c4], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %t = memref.subview %b[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  return %z, %t : i32, memref<4xf32, strided<[1], offset: 4>>
}
func.func @fresh_either(%A: memref<8xf32>, %c: i1) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %b = memref.alloc() : memref<8xf32>
  %d = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %b[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %r = scf.if %c -> memref<8xf32> {
    scf.yield %b : memref<8xf32>
  } else {
    scf.yield %d : memref<8xf32>
  }
  return %r : memref<8xf32>
}

func.func @returned_read() {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  %b = func.call @fresh(%A) : (memref<8xf32>) -> memref<8xf32>
  // CHECK: check-hazards-call-leftovers-reach.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %b[%c1] : memref<8xf32>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
func.func @returned_store() {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %b = func.call @fresh(%A) : (memref<8xf32>) -> memref<8xf32>
  // CHECK: check-hazards-call-leftovers-reach.mlir:[[# @LINE + 1]]:3: error: 'memref.store' op writes a buffer region that an async copy may still be writing (its destination): the copy may land after this write and erase it (write-after-write)
  memref.store %one, %b[%c1] : memref<8xf32>
  apipe.wait_group 0
  return
}
func.func @returned_uncommitted() {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  %b = func.call @fresh_uncommitted(%A) : (memref<8xf32>) -> memref<8xf32>
  apipe.commit_group
  // CHECK: check-hazards-call-leftovers-reach.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %b[%c1] : memref<8xf32>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
func.func @returned_view() {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  %z, %t = func.call @fresh_tail(%A) : (memref<8xf32>) -> (i32, memref<4xf32, strided<[1], offset: 4>>)
  // CHECK: check-hazards-call-leftovers-reach.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %t[%c1] : memref<4xf32, strided<[1], offset: 4>>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
func.func @returned_either() {
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  %b = func.call @fresh_either(%A, %true) : (memref<8xf32>, i1) -> memref<8xf32>
  // CHECK: check-hazards-call-leftovers-reach.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %b[%c1] : memref<8xf32>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
func.func @returned_waited() {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  %b = func.call @fresh(%A) : (memref<8xf32>) -> memref<8xf32>
  apipe.wait_group 0
  %x = memref.load %b[%c1] : memref<8xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}

func.func @put(%src: memref<8xf32>, %d: memref<8xf32>, %i: index) {
  apipe.copy %src[%i], %d[%i], 1 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  return
}
func.func @indexed_twice() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %f1 = arith.constant 1.0 : f32
  %src = memref.alloc() : memref<8xf32>
  %d = memref.alloc() : memref<8xf32>
  func.call @put(%src, %d, %c0) : (memref<8xf32>, memref<8xf32>, index) -> ()
  func.call @put(%src, %d, %c1) : (memref<8xf32>, memref<8xf32>, index) -> ()
  memref.store %f1, %d[%c5] : memref<8xf32>
  // CHECK: check-hazards-call-leftovers-reach.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %d[%c1] : memref<8xf32>
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}
