// A memref a call returns is the call's argument where each return of the
// callee gives that argument (the same region) or a view of it (its whole
// buffer): an access through it meets the copies of that buffer (was a
// buffer of unknown origin: a write through it while a copy read the
// argument was silent, a read got a remark). A write through a buffer of
// still unknown origin (an unregistered op's result) is a possible hazard,
// a remark, as a read through one is (it was silent).
// RUN: head -n 32 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: not apipe-opt %s --split-input-file --allow-unregistered-dialect --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:48:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:65:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:87:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-results.mlir:102:3: remark: possible hazard (the buffers may alias): 'memref.store' op writes a buffer region that an async copy may still be
// CHECK-NOT: {{error|remark}}
func.func private @same(%m: memref<8xf32>) -> memref<8xf32> {
  return %m : memref<8xf32>
}
func.func @disjoint(%A: memref<8xf32> {llvm.noalias}, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @same(%O) : (memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// The callee returns its argument: the store writes A[2] while the copy
// reads A[0..3].
func.func private @same(%m: memref<8xf32>) -> memref<8xf32> {
  return %m : memref<8xf32>
}
func.func @returned_argument(%A: memref<8xf32>, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @same(%A) : (memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// The callee returns a view of its argument: any element of D.
func.func private @tail(%m: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 4>> {
  %v = memref.subview %m[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  return %v : memref<4xf32, strided<[1], offset: 4>>
}
func.func @returned_view(%A: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}) -> f32 {
  %c0 = arith.constant 0 : index
  %T = func.call @tail(%D) : (memref<8xf32>) -> memref<4xf32, strided<[1], offset: 4>>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %x = memref.load %T[%c0] : memref<4xf32, strided<[1], offset: 4>>
  apipe.wait_group 0
  return %x : f32
}

// -----

// Two returns, each an argument: either buffer.
func.func private @either(%c: i1, %m: memref<8xf32>, %n: memref<8xf32>) -> memref<8xf32> {
  cf.cond_br %c, ^first, ^second
^first:
  return %m : memref<8xf32>
^second:
  return %n : memref<8xf32>
}
func.func @returned_either(%A: memref<8xf32> {llvm.noalias}, %O: memref<8xf32> {llvm.noalias}, %D: memref<8xf32> {llvm.noalias}, %c: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = func.call @either(%c, %O, %A) : (i1, memref<8xf32>, memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}

// -----

// A buffer an unregistered op makes from A: of unknown origin.
func.func @unknown_origin(%A: memref<8xf32>, %D: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7.0 : f32
  %S = "test.opaque"(%A) : (memref<8xf32>) -> memref<8xf32>
  apipe.copy %A[%c0], %D[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  memref.store %seven, %S[%c2] : memref<8xf32>
  apipe.wait_group 0
  return
}
