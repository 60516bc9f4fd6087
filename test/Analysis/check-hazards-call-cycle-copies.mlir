// A cycle of calls through a function that issues async copies is refused
// at the call that closes it, in either order of the functions: the copies
// a function returns with in flight are known only once it is walked
// (trial 28: with one order a read of a copy still in flight passed).
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK: check-hazards-call-cycle-copies.mlir:22:3: error: 'func.call' op calls @left in a cycle of calls, and @left may issue async copies
// CHECK: check-hazards-call-cycle-copies.mlir:50:5: error: 'func.call' op calls @self in a cycle of calls
memref.global "private" @tile : memref<4xf32> = uninitialized
memref.global "private" @src : memref<4xf32> = uninitialized
func.func @left(%again: i1) {
  %c0 = arith.constant 0 : index
  %t = memref.get_global @tile : memref<4xf32>
  %s = memref.get_global @src : memref<4xf32>
  scf.if %again {
    %no = arith.constant false
    func.call @right(%no) : (i1) -> ()
  }
  apipe.copy %s[%c0], %t[%c0], 4 : memref<4xf32> to memref<4xf32>
  return
}
func.func @right(%again: i1) {
  func.call @left(%again) : (i1) -> ()
  return
}
func.func @reads(%o: memref<4xf32>) {
  %c2 = arith.constant 2 : index
  %yes = arith.constant true
  func.call @right(%yes) : (i1) -> ()
  apipe.commit_group
  %t = memref.get_global @tile : memref<4xf32>
  %v = memref.load %t[%c2] : memref<4xf32>
  memref.store %v, %o[%c2] : memref<4xf32>
  apipe.wait_group 0
  return
}

// -----

memref.global "private" @tile : memref<4xf32> = uninitialized
memref.global "private" @src : memref<4xf32> = uninitialized
func.func @self(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.get_global @tile : memref<4xf32>
  %s = memref.get_global @src : memref<4xf32>
  apipe.copy %s[%c0], %t[%c0], 4 : memref<4xf32> to memref<4xf32>
  %more = arith.cmpi sgt, %n, %c0 : index
  scf.if %more {
    %m = arith.subi %n, %c1 : index
    func.call @self(%m) : (index) -> ()
  }
  return
}
