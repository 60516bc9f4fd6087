// Ops that declare no memory effects and receive an `!llvm.ptr`
// (`llvm.atomicrmw`, `llvm.cmpxchg`, `llvm.intr.masked.store`) may access
// any memory, as an effect on a pointer does: the checker was silent on
// their updates of a copy's destination in flight (trial 62), and so was
// apipe-run on the atomics and on `llvm.intr.memset` / `memcpy`. After
// the wait they are no hazard.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: not apipe-run %s --entry=atomic_rmw --completion=lazy 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: not apipe-run %s --entry=compare_exchange --completion=eager 2>&1 | FileCheck %s --check-prefix=ATOMIC
// ATOMIC: error: the host atomically updates global memory byte 36 of the destination buffer of its own asynchronous copy still in flight
// RUN: not apipe-run %s --entry=memset --completion=lazy 2>&1 | FileCheck %s --check-prefix=WRITE
// WRITE: error: the host writes global memory byte 32 of the destination buffer of its own asynchronous copy still in flight
// RUN: not apipe-run %s --entry=memcpy --completion=random:2 2>&1 | FileCheck %s --check-prefix=READ
// READ: error: the host reads global memory byte 32 of the destination buffer of its own asynchronous copy still in flight
// RUN: apipe-run %s --entry=atomic_after_wait --completion=lazy | FileCheck %s --check-prefix=TWO
// RUN: apipe-run %s --entry=atomic_after_wait --completion=eager | FileCheck %s --check-prefix=TWO
// TWO: 2

func.func private @printF32(f32)

// Element `i` of `m` as an `!llvm.ptr`.
func.func private @element(%m: memref<16xf32>, %i: i64) -> !llvm.ptr {
  %p = memref.extract_aligned_pointer_as_index %m : memref<16xf32> -> index
  %pi = arith.index_cast %p : index to i64
  %pp = llvm.inttoptr %pi : i64 to !llvm.ptr
  %g = llvm.getelementptr %pp[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  return %g : !llvm.ptr
}

func.func @atomic_rmw() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %i9 = arith.constant 9 : i64
  %f1 = arith.constant 1.0 : f32
  %src = memref.alloc() : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  apipe.copy %src[%c0], %d[%c8], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %q = func.call @element(%d, %i9) : (memref<16xf32>, i64) -> !llvm.ptr
  // CHECK: check-hazards-pointer-ops.mlir:[[# @LINE + 1]]:8: error: 'llvm.atomicrmw' op reads a buffer region that an async copy may still be writing (read-after-write)
  %r = llvm.atomicrmw fadd %q, %f1 monotonic : !llvm.ptr, f32
  apipe.wait_group 0
  return
}

func.func @compare_exchange() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %i9 = arith.constant 9 : i64
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %src = memref.alloc() : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  apipe.copy %src[%c0], %d[%c8], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %q = func.call @element(%d, %i9) : (memref<16xf32>, i64) -> !llvm.ptr
  // CHECK: check-hazards-pointer-ops.mlir:[[# @LINE + 1]]:9: error: 'llvm.cmpxchg' op reads a buffer region that an async copy may still be writing (read-after-write)
  %cx = llvm.cmpxchg %q, %one, %two monotonic monotonic : !llvm.ptr, i32
  apipe.wait_group 0
  return
}

func.func @masked_store() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %i9 = arith.constant 9 : i64
  %src = memref.alloc() : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  apipe.copy %src[%c0], %d[%c8], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %q = func.call @element(%d, %i9) : (memref<16xf32>, i64) -> !llvm.ptr
  %v = arith.constant dense<1.0> : vector<4xf32>
  %m = arith.constant dense<[true, false, false, false]> : vector<4xi1>
  // CHECK: check-hazards-pointer-ops.mlir:[[# @LINE + 1]]:3: error: 'llvm.intr.masked.store' op reads a buffer region that an async copy may still be writing (read-after-write)
  llvm.intr.masked.store %v, %q, %m {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into !llvm.ptr
  apipe.wait_group 0
  return
}

func.func @memset() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %i0 = arith.constant 0 : i64
  %n = arith.constant 64 : i64
  %z = arith.constant 0 : i8
  %src = memref.alloc() : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  apipe.copy %src[%c0], %d[%c8], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %q = func.call @element(%d, %i0) : (memref<16xf32>, i64) -> !llvm.ptr
  // CHECK: check-hazards-pointer-ops.mlir:[[# @LINE + 1]]:3: error: 'llvm.intr.memset' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
  "llvm.intr.memset"(%q, %z, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  apipe.wait_group 0
  return
}

func.func @memcpy() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %i0 = arith.constant 0 : i64
  %n = arith.constant 64 : i64
  %src = memref.alloc() : memref<16xf32>
  %d = memref.alloc() : memref<16xf32>
  %out = memref.alloc() : memref<16xf32>
  apipe.copy %src[%c0], %d[%c8], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %q = func.call @element(%d, %i0) : (memref<16xf32>, i64) -> !llvm.ptr
  %o = func.call @element(%out, %i0) : (memref<16xf32>, i64) -> !llvm.ptr
  // CHECK: check-hazards-pointer-ops.mlir:[[# @LINE + 1]]:3: error: 'llvm.intr.memcpy' op reads a buffer region that an async copy may still be writing (read-after-write)
  "llvm.intr.memcpy"(%o, %q, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  apipe.wait_group 0
  return
}

func.func @atomic_after_wait() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %i9 = arith.constant 9 : i64
  %f1 = arith.constant 1.0 : f32
  %src = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f1 : f32) outs(%src : memref<16xf32>)
  %d = memref.alloc() : memref<16xf32>
  apipe.copy %src[%c0], %d[%c8], 4 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  apipe.wait_group 0
  %q = func.call @element(%d, %i9) : (memref<16xf32>, i64) -> !llvm.ptr
  %r = llvm.atomicrmw fadd %q, %f1 monotonic : !llvm.ptr, f32
  %x = memref.load %d[%c9] : memref<16xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}
