// apipe-run checks a host `llvm.load` / `llvm.store` (one value at its
// pointer) against the host's copies in flight, as it does `memref.load` /
// `memref.store` (trial 61: an `llvm.load` through the aligned pointer of a
// copy's destination in flight read stale data, unreported). A load of a
// byte the copy does not write, or after the wait, is not an error.
// RUN: not apipe-run %s --entry=read_in_flight --completion=lazy 2>&1 | FileCheck %s --check-prefix=READ
// RUN: not apipe-run %s --entry=read_in_flight --completion=eager 2>&1 | FileCheck %s --check-prefix=READ
// READ: host-llvm-pointer-access.mlir:44:8: error: the host reads global memory byte 4 of the destination buffer of its own asynchronous copy still in flight, which may not have written it yet: no wait completes the copy first ('llvm.load' and 'apipe.copy')
// RUN: not apipe-run %s --entry=write_source --completion=lazy 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: error: the host writes global memory byte 4 of the source buffer of its own asynchronous copy still in flight
// RUN: apipe-run %s --entry=read_waited --completion=lazy | FileCheck %s --check-prefix=ONE
// RUN: apipe-run %s --entry=read_waited --completion=random:3 | FileCheck %s --check-prefix=ONE
// ONE: 1
// RUN: apipe-run %s --entry=read_outside --completion=lazy | FileCheck %s --check-prefix=TWO
// TWO: 2
// An aggregate takes its size from the data layout, and `memset.inline`
// its `len` (trial 64: both were unchecked).
// RUN: not apipe-run %s --entry=aggregate_store --completion=lazy 2>&1 | FileCheck %s --check-prefix=DEST
// RUN: not apipe-run %s --entry=memset_inline --completion=eager 2>&1 | FileCheck %s --check-prefix=DEST
// DEST: error: the host writes global memory byte 4 of the destination buffer of its own asynchronous copy still in flight

func.func private @printF32(f32)

// %buf element `i` through an `!llvm.ptr`.
func.func private @element(%m: memref<8xf32>, %i: i64) -> !llvm.ptr {
  %p = memref.extract_aligned_pointer_as_index %m : memref<8xf32> -> index
  %pi = arith.index_cast %p : index to i64
  %pp = llvm.inttoptr %pi : i64 to !llvm.ptr
  %g = llvm.getelementptr %pp[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  return %g : !llvm.ptr
}

func.func @read_in_flight() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i1 = arith.constant 1 : i64
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %g = func.call @element(%buf, %i1) : (memref<8xf32>, i64) -> !llvm.ptr
  %x = llvm.load %g : !llvm.ptr -> f32
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}

func.func @write_source() {
  %c0 = arith.constant 0 : index
  %i1 = arith.constant 1 : i64
  %two = arith.constant 2.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %g = func.call @element(%A, %i1) : (memref<8xf32>, i64) -> !llvm.ptr
  llvm.store %two, %g : f32, !llvm.ptr
  apipe.wait_group 0
  return
}

func.func @read_waited() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i1 = arith.constant 1 : i64
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  memref.store %one, %A[%c1] : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  %g = func.call @element(%buf, %i1) : (memref<8xf32>, i64) -> !llvm.ptr
  %x = llvm.load %g : !llvm.ptr -> f32
  func.call @printF32(%x) : (f32) -> ()
  return
}

// Element 5: the copy writes elements 0..3 only.
func.func @read_outside() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %i5 = arith.constant 5 : i64
  %two = arith.constant 2.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  memref.store %two, %buf[%c5] : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %g = func.call @element(%buf, %i5) : (memref<8xf32>, i64) -> !llvm.ptr
  %x = llvm.load %g : !llvm.ptr -> f32
  apipe.wait_group 0
  func.call @printF32(%x) : (f32) -> ()
  return
}

// Bytes 4..11 of %buf: elements 1 and 2, which the copy writes.
func.func @aggregate_store() {
  %c0 = arith.constant 0 : index
  %i1 = arith.constant 1 : i64
  %five = arith.constant 5.0 : f32
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %g = func.call @element(%buf, %i1) : (memref<8xf32>, i64) -> !llvm.ptr
  %u = llvm.mlir.undef : !llvm.array<2 x f32>
  %v = llvm.insertvalue %five, %u[0] : !llvm.array<2 x f32>
  llvm.store %v, %g : !llvm.array<2 x f32>, !llvm.ptr
  apipe.wait_group 0
  return
}

func.func @memset_inline() {
  %c0 = arith.constant 0 : index
  %i1 = arith.constant 1 : i64
  %z = arith.constant 0 : i8
  %A = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %g = func.call @element(%buf, %i1) : (memref<8xf32>, i64) -> !llvm.ptr
  "llvm.intr.memset.inline"(%g, %z) <{isVolatile = false, len = 4 : i64}> : (!llvm.ptr, i8) -> ()
  apipe.wait_group 0
  return
}
