// apipe-check-hazards on slot indices written in more of the ways
// hand-pipelined kernels write them (each was a false read-after-write and
// write-after-write): a ring advanced by an order comparison (`inc < 3 ?
// inc : 0`, `inc >= 3 ? 0 : inc`, `2 > index ? inc : 0`), the low bit as
// `extui(trunci j to i1)`, a 0/1 select of a parity test, and an offset
// `(slot * 4) | 3`. Each loop waits for exactly what it reads and is
// silent; its twin in check-hazards-slot-forms-invalid.mlir waits for one
// group too few and is an error. @main runs them all: every completion
// mode prints what make-sync prints.
// RUN: apipe-opt %s --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2 | FileCheck %s --check-prefix=ALL
// CHECK: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// CHECK: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// CHECK: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// CHECK: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// CHECK: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]
// ALL: [3,  7,  11,  15,  19,  23,  27,  31,  35,  39,  43,  47,  51,  55,  59,  63]

// A CUTLASS-style ring of 3 whose slots advance as `inc < 3 ? inc : 0`.
func.func @wrap_ult(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%rd = %c0, %wr = %c2) -> (index, index) {
    %n = arith.addi %j, %c2 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      apipe.copy %A[%off], %buf[%wr, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    %x = memref.load %buf[%rd, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %rd1 = arith.addi %rd, %c1 : index
    %wr1 = arith.addi %wr, %c1 : index
    %rdw = arith.cmpi ult, %rd1, %c3 : index
    %rdn = arith.select %rdw, %rd1, %c0 : index
    %wrw = arith.cmpi ult, %wr1, %c3 : index
    %wrn = arith.select %wrw, %wr1, %c0 : index
    scf.yield %rdn, %wrn : index, index
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x4xf32>
  return
}

// The same ring as `inc >= 3 ? 0 : inc`, and as `2 > index ? inc : 0`
// (the constant on the left).
func.func @wrap_uge_index(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<3x4xf32>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<64xf32> to memref<3x4xf32>
  apipe.commit_group
  %r:2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%rd = %c0, %wr = %c2) -> (index, index) {
    %n = arith.addi %j, %c2 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      apipe.copy %A[%off], %buf[%wr, %c0], 4 : memref<64xf32> to memref<3x4xf32>
    }
    apipe.commit_group
    apipe.wait_group 2
    %x = memref.load %buf[%rd, %c3] : memref<3x4xf32>
    memref.store %x, %out[%j] : memref<16xf32>
    %rd1 = arith.addi %rd, %c1 : index
    %wr1 = arith.addi %wr, %c1 : index
    %rdw = arith.cmpi uge, %rd1, %c3 : index
    %rdn = arith.select %rdw, %c0, %rd1 : index
    %wrw = arith.cmpi sgt, %c2, %wr : index
    %wrn = arith.select %wrw, %wr1, %c0 : index
    scf.yield %rdn, %wrn : index, index
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<3x4xf32>
  return
}

// A double buffer whose slot is the low bit, `extui(trunci j to i1)`.
func.func @parity_trunci(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c16 step %c1 {
    %n = arith.addi %j, %c1 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      %ni = arith.index_cast %n : index to i64
      %nb = arith.trunci %ni : i64 to i1
      %ne = arith.extui %nb : i1 to i64
      %sn = arith.index_cast %ne : i64 to index
      %dst = arith.muli %sn, %c4 : index
      apipe.copy %A[%off], %buf[%dst], 4 : memref<64xf32> to memref<8xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %ji = arith.index_cast %j : index to i64
    %jb = arith.trunci %ji : i64 to i1
    %je = arith.extui %jb : i1 to i64
    %sj = arith.index_cast %je : i64 to index
    %base = arith.muli %sj, %c4 : index
    %at = arith.addi %base, %c3 : index
    %x = memref.load %buf[%at] : memref<8xf32>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<8xf32>
  return
}

// Slots `select(n mod 2 != 0, 1, 0)` and `select(j mod 2 == 0, 0, 1)`.
func.func @parity_select(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c16 step %c1 {
    %n = arith.addi %j, %c1 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      %p = arith.remui %n, %c2 : index
      %odd = arith.cmpi ne, %p, %c0 : index
      %sn = arith.select %odd, %c1, %c0 : index
      %dst = arith.muli %sn, %c4 : index
      apipe.copy %A[%off], %buf[%dst], 4 : memref<64xf32> to memref<8xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %q = arith.remui %j, %c2 : index
    %even = arith.cmpi eq, %q, %c0 : index
    %sj = arith.select %even, %c0, %c1 : index
    %base = arith.muli %sj, %c4 : index
    %at = arith.addi %base, %c3 : index
    %x = memref.load %buf[%at] : memref<8xf32>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<8xf32>
  return
}

// Element 3 of the slot read as `(slot * 4) | 3`: the low bits are
// zero, so it is `slot * 4 + 3`.
func.func @offset_ori(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  scf.for %j = %c0 to %c16 step %c1 {
    %n = arith.addi %j, %c1 : index
    %inr = arith.cmpi ult, %n, %c16 : index
    scf.if %inr {
      %off = arith.muli %n, %c4 : index
      %sn = arith.remui %n, %c2 : index
      %dst = arith.muli %sn, %c4 : index
      apipe.copy %A[%off], %buf[%dst], 4 : memref<64xf32> to memref<8xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %sj = arith.remui %j, %c2 : index
    %base = arith.muli %sj, %c4 : index
    %at = arith.ori %base, %c3 : index
    %x = memref.load %buf[%at] : memref<8xf32>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  apipe.wait_group 0
  memref.dealloc %buf : memref<8xf32>
  return
}

// @main runs every loop above once.
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
  func.call @wrap_ult(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @wrap_uge_index(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @parity_trunci(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @parity_select(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %z, %out[%i] : memref<16xf32>
  }
  func.call @offset_ori(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<16xf32>
  memref.dealloc %A : memref<64xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
