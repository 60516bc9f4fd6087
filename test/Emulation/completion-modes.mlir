// One double-buffered program, in counting form (@main) and in token form
// (@tokens), under every completion policy. Tile j (2 x i32) of %A goes into
// version j mod 2 of %buf one iteration ahead of its consumer, which stores
// the tile's sum into %out[j]. The synchronization is correct, so %out is
// the reference's in every mode: A = [10 .. 17], so out = [21, 25, 29, 33].
// Only the snapshot of %buf taken right after the prologue's commit (before
// any wait) depends on the policy: lazy has landed nothing, eager has landed
// tile 0, random either.
//
// RUN: apipe-run %s --completion=lazy | FileCheck %s --check-prefixes=CHECK,LAZY
// RUN: apipe-run %s --completion=eager | FileCheck %s --check-prefixes=CHECK,EAGER
// RUN: apipe-run %s --completion=random:1 | FileCheck %s
// RUN: apipe-run %s --completion=random:2 | FileCheck %s
// RUN: apipe-run %s --completion=random:3 | FileCheck %s --check-prefixes=CHECK,LAZY
// Seed 5 lands tile 0 before the first wait (seeds are reproducible).
// RUN: apipe-run %s --completion=random:5 | FileCheck %s --check-prefixes=CHECK,EAGER
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefixes=CHECK,EAGER
// The default policy is lazy.
// RUN: apipe-run %s | FileCheck %s --check-prefixes=CHECK,LAZY
//
// RUN: apipe-run %s --entry=tokens --completion=lazy | FileCheck %s --check-prefixes=CHECK,LAZY
// RUN: apipe-run %s --entry=tokens --completion=eager | FileCheck %s --check-prefixes=CHECK,EAGER
// RUN: apipe-run %s --entry=tokens --completion=random:1 | FileCheck %s
// RUN: apipe-run %s --entry=tokens --completion=random:7 | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=tokens | FileCheck %s --check-prefixes=CHECK,EAGER

// Snapshot of %buf after the prologue.
// CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
// LAZY-NEXT:  {{\[\[}}0,   0],
// LAZY-NEXT:   [0,   0]]
// EAGER-NEXT: {{\[\[}}10,   11],
// EAGER-NEXT:  [0,   0]]
// %out at the end.
// CHECK: rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [21,  25,  29,  33]

func.func private @printMemrefI32(memref<*xi32>)

func.func @init(%A: memref<8xi32>, %buf: memref<2x2xi32, 3>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.addi %i, %c10 : index
    %vi = arith.index_cast %v : index to i32
    memref.store %vi, %A[%i] : memref<8xi32>
  }
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%buf : memref<2x2xi32, 3>)
  return
}

// out[j] = buf[v][0] + buf[v][1]
func.func @consume(%buf: memref<2x2xi32, 3>, %v: index, %out: memref<4xi32>, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %buf[%v, %c0] : memref<2x2xi32, 3>
  %y = memref.load %buf[%v, %c1] : memref<2x2xi32, 3>
  %s = arith.addi %x, %y : i32
  memref.store %s, %out[%j] : memref<4xi32>
  return
}

func.func @print(%buf: memref<2x2xi32, 3>) {
  %u = memref.cast %buf : memref<2x2xi32, 3> to memref<*xi32, 3>
  %h = memref.memory_space_cast %u : memref<*xi32, 3> to memref<*xi32>
  func.call @printMemrefI32(%h) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloca() : memref<8xi32>
  %buf = memref.alloca() : memref<2x2xi32, 3>
  %out = memref.alloca() : memref<4xi32>
  func.call @init(%A, %buf) : (memref<8xi32>, memref<2x2xi32, 3>) -> ()
  apipe.copy %A[%c0], %buf[%c0, %c0], 2 : memref<8xi32> to memref<2x2xi32, 3>
  apipe.commit_group
  func.call @print(%buf) : (memref<2x2xi32, 3>) -> ()
  scf.for %j = %c0 to %c4 step %c1 {
    %next = arith.addi %j, %c1 : index
    %in_range = arith.cmpi ult, %next, %c4 : index
    scf.if %in_range {
      %src = arith.muli %next, %c2 : index
      %vn = arith.remui %next, %c2 : index
      apipe.copy %A[%src], %buf[%vn, %c0], 2 : memref<8xi32> to memref<2x2xi32, 3>
    }
    apipe.commit_group
    apipe.wait_group 1
    %v = arith.remui %j, %c2 : index
    func.call @consume(%buf, %v, %out, %j) : (memref<2x2xi32, 3>, index, memref<4xi32>, index) -> ()
  }
  %u = memref.cast %out : memref<4xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

// The same pipeline in token form: the token of the group in flight travels
// through the loop's iter_args, and each iteration waits on it.
func.func @tokens() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloca() : memref<8xi32>
  %buf = memref.alloca() : memref<2x2xi32, 3>
  %out = memref.alloca() : memref<4xi32>
  func.call @init(%A, %buf) : (memref<8xi32>, memref<2x2xi32, 3>) -> ()
  apipe.copy %A[%c0], %buf[%c0, %c0], 2 : memref<8xi32> to memref<2x2xi32, 3>
  %t0 = apipe.commit_group
  func.call @print(%buf) : (memref<2x2xi32, 3>) -> ()
  %last = scf.for %j = %c0 to %c4 step %c1 iter_args(%prev = %t0) -> (!apipe.token) {
    %next = arith.addi %j, %c1 : index
    %in_range = arith.cmpi ult, %next, %c4 : index
    scf.if %in_range {
      %src = arith.muli %next, %c2 : index
      %vn = arith.remui %next, %c2 : index
      apipe.copy %A[%src], %buf[%vn, %c0], 2 : memref<8xi32> to memref<2x2xi32, 3>
    }
    %t = apipe.commit_group
    apipe.wait %prev
    %v = arith.remui %j, %c2 : index
    func.call @consume(%buf, %v, %out, %j) : (memref<2x2xi32, 3>, index, memref<4xi32>, index) -> ()
    scf.yield %t : !apipe.token
  }
  apipe.wait %last
  %u = memref.cast %out : memref<4xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
