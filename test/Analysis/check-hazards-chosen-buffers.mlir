// apipe-check-hazards on buffers chosen at run time: a ping-pong double
// buffer swapped through scf.for iter_args (`scf.yield %next, %cur`), a
// rotation of three, subviews of one buffer swapped, buffers chosen by
// arith.select and by scf.if on the iteration's parity (an `eq` compare:
// its `ne` side is two alternatives) or on a loaded value, and a swap
// inside an outer loop. Each waits for exactly the group it reads, so the
// checker is silent (before, every one was a "possible hazard" remark, and
// so was each broken twin in check-hazards-chosen-buffers-invalid.mlir).
// So is a read after the loop of the swapped buffer it completed last.
// @main runs them all; every completion mode prints what make-sync prints.
// RUN: apipe-opt %s --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=ALL
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// CHECK: [3,  5,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  0,  0,  0,  0,  0,  0,  0,  0]
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// CHECK: [13,  5,  9,  13,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [3,  5,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [13,  5,  9,  13,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [3,  5,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [13,  5,  9,  13,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [3,  5,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [13,  5,  9,  13,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [3,  5,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  0,  0,  0,  0,  0,  0,  0,  0]
// ALL: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61]
// ALL: [13,  5,  9,  13,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0]

func.func @swap(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  %r:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%cur = %a, %next = %b) -> (memref<4xf32>, memref<4xf32>) {
    %more = arith.cmpi ult, %i, %c15 : index
    scf.if %more {
      %i1 = arith.addi %i, %c1 : index
      %off = arith.muli %i1, %c4 : index
      apipe.copy %A[%off], %next[%c0], 4 : memref<64xf32> to memref<4xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %cur[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %next, %cur : memref<4xf32>, memref<4xf32>
  }
  apipe.wait_group 0
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  return
}

func.func @select_parity(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %c14 = arith.constant 14 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c16 step %c1 {
    %p = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %p, %c0 : index
    %cur = arith.select %even, %a, %b : memref<4xf32>
    %next = arith.select %even, %b, %a : memref<4xf32>
    %more = arith.cmpi ult, %i, %c15 : index
    scf.if %more {
      %i1 = arith.addi %i, %c1 : index
      %off = arith.muli %i1, %c4 : index
      apipe.copy %A[%off], %next[%c0], 4 : memref<64xf32> to memref<4xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %cur[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  apipe.wait_group 0
  return
}

func.func @if_parity(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %c14 = arith.constant 14 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c16 step %c1 {
    %p = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %p, %c0 : index
    %cur, %next = scf.if %even -> (memref<4xf32>, memref<4xf32>) {
      scf.yield %a, %b : memref<4xf32>, memref<4xf32>
    } else {
      scf.yield %b, %a : memref<4xf32>, memref<4xf32>
    }
    %more = arith.cmpi ult, %i, %c15 : index
    scf.if %more {
      %i1 = arith.addi %i, %c1 : index
      %off = arith.muli %i1, %c4 : index
      apipe.copy %A[%off], %next[%c0], 4 : memref<64xf32> to memref<4xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %cur[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  apipe.wait_group 0
  return
}

func.func @rotate3(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %c14 = arith.constant 14 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %b[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  %r:3 = scf.for %i = %c0 to %c16 step %c1 iter_args(%x0 = %a, %x1 = %b, %x2 = %d) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
    %more = arith.cmpi ult, %i, %c14 : index
    scf.if %more {
      %i2 = arith.addi %i, %c2 : index
      %off = arith.muli %i2, %c4 : index
      apipe.copy %A[%off], %x2[%c0], 4 : memref<64xf32> to memref<4xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    %x = memref.load %x0[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %x1, %x2, %x0 : memref<4xf32>, memref<4xf32>, memref<4xf32>
  }
  apipe.wait_group 0
  return
}

func.func @swap_subviews(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %c14 = arith.constant 14 : index
  %ab = memref.alloc() : memref<8xf32>
  %a = memref.subview %ab[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %b = memref.subview %ab[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %a2 = memref.cast %a : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[1], offset: ?>>
  %b2 = memref.cast %b : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, strided<[1], offset: ?>>
  apipe.copy %A[%c0], %a2[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
  apipe.commit_group
  %r:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%cur = %a2, %next = %b2) -> (memref<4xf32, strided<[1], offset: ?>>, memref<4xf32, strided<[1], offset: ?>>) {
    %more = arith.cmpi ult, %i, %c15 : index
    scf.if %more {
      %i1 = arith.addi %i, %c1 : index
      %off = arith.muli %i1, %c4 : index
      apipe.copy %A[%off], %next[%c0], 4 : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
    }
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %cur[%c1] : memref<4xf32, strided<[1], offset: ?>>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %next, %cur : memref<4xf32, strided<[1], offset: ?>>, memref<4xf32, strided<[1], offset: ?>>
  }
  apipe.wait_group 0
  return
}

func.func @select_arg(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %c14 = arith.constant 14 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %fl = memref.load %A[%c0] : memref<64xf32>
  %z = arith.constant 0.5 : f32
  %c = arith.cmpf ogt, %fl, %z : f32
  %s = arith.select %c, %a, %b : memref<4xf32>
  %t = arith.select %c, %b, %a : memref<4xf32>
  %zz = arith.constant 3.0 : f32
  memref.store %zz, %a[%c1] : memref<4xf32>
  memref.store %zz, %b[%c1] : memref<4xf32>
  apipe.copy %A[%c4], %s[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 0
  %x = memref.load %t[%c1] : memref<4xf32>
  memref.store %x, %out[%c0] : memref<16xf32>
  apipe.wait_group 0
  %y = memref.load %s[%c1] : memref<4xf32>
  memref.store %y, %out[%c1] : memref<16xf32>
  apipe.wait_group 0
  return
}

func.func @nested_pingpong(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %c14 = arith.constant 14 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  scf.for %o = %c0 to %c2 step %c1 {
    %base = arith.muli %o, %c16 : index
    apipe.copy %A[%base], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%cur = %a, %next = %b) -> (memref<4xf32>, memref<4xf32>) {
      %more = arith.cmpi ult, %i, %c3 : index
      scf.if %more {
        %i1 = arith.addi %i, %c1 : index
        %o4 = arith.muli %i1, %c4 : index
        %off = arith.addi %o4, %base : index
        apipe.copy %A[%off], %next[%c0], 4 : memref<64xf32> to memref<4xf32>
      }
      apipe.commit_group
      apipe.wait_group 1
      %x = memref.load %cur[%c1] : memref<4xf32>
      %oi = arith.muli %o, %c4 : index
      %idx = arith.addi %oi, %i : index
      memref.store %x, %out[%idx] : memref<16xf32>
      scf.yield %next, %cur : memref<4xf32>, memref<4xf32>
    }
  }
  apipe.wait_group 0
  return
}

func.func @pingpong_store(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c15 = arith.constant 15 : index
  %c14 = arith.constant 14 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %zz = arith.constant 7.0 : f32
  apipe.copy %A[%c0], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  %r:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%cur = %a, %next = %b) -> (memref<4xf32>, memref<4xf32>) {
    %more = arith.cmpi ult, %i, %c15 : index
    scf.if %more {
      %i1 = arith.addi %i, %c1 : index
      %off = arith.muli %i1, %c4 : index
      apipe.copy %A[%off], %next[%c0], 4 : memref<64xf32> to memref<4xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %cur[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    memref.store %zz, %cur[%c2] : memref<4xf32>
    scf.yield %next, %cur : memref<4xf32>, memref<4xf32>
  }
  apipe.wait_group 0
  return
}

// After the loop, %r#1 is the buffer of the last completed copy (%b
// after 4 iterations); %r#0, in flight, is not read before the wait.
func.func @after_loop(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %a[%c1] : memref<4xf32>
  memref.store %z, %b[%c1] : memref<4xf32>
  apipe.copy %A[%c0], %a[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%cur = %a, %next = %b) -> (memref<4xf32>, memref<4xf32>) {
    %i1 = arith.addi %i, %c1 : index
    %off = arith.muli %i1, %c4 : index
    apipe.copy %A[%off], %next[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %cur[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %next, %cur : memref<4xf32>, memref<4xf32>
  }
  %y = memref.load %r#1[%c1] : memref<4xf32>
  memref.store %y, %out[%c0] : memref<16xf32>
  apipe.wait_group 0
  return
}

func.func @main() {
  %A = memref.alloc() : memref<64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @swap(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @select_parity(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @if_parity(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @rotate3(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @swap_subviews(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @select_arg(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @nested_pingpong(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @pingpong_store(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @after_loop(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<16xf32>
  memref.dealloc %A : memref<64xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
