// Run-time errors, notes and warnings of the emulation runtime: each names
// the op's source location; errors make apipe-run exit 1 (never a crash),
// notes and warnings do not. Messages appear in program order among the
// program's own prints (stdout and stderr merged).
//
// RUN: not apipe-run %s --entry=copy_reads_out_of_bounds 2>&1 | FileCheck %s --check-prefix=OOB-SRC
// OOB-SRC: 1
// OOB-SRC-NEXT: runtime-errors.mlir:[[# @LINE + 77]]:3: error: 'apipe.copy' reads outside its source: indices [6] + 4 elements, sizes [8]
// The program stops at its first run-time error: nothing after it runs
// (the '2' it would print next).
// OOB-SRC-NOT: {{.}}
//
// RUN: not apipe-run %s --entry=copy_writes_out_of_bounds --completion=eager 2>&1 | FileCheck %s --check-prefix=OOB-DST
// OOB-DST: runtime-errors.mlir:[[# @LINE + 83]]:3: error: 'apipe.copy' writes outside its destination: indices [2, 0] + 2 elements, sizes [2, 2]
//
// RUN: not apipe-run %s --entry=zero_fill_count_too_large 2>&1 | FileCheck %s --check-prefix=SRC-ELEMENTS
// SRC-ELEMENTS: runtime-errors.mlir:[[# @LINE + 96]]:3: error: 'apipe.copy' src_elements = 5 exceeds elements = 4
//
// RUN: not apipe-run %s --entry=wait_on_uncommitted_token 2>&1 | FileCheck %s --check-prefix=TOKEN
// TOKEN: runtime-errors.mlir:[[# @LINE + 101]]:3: error: 'apipe.wait' on token 42, which no 'apipe.commit_group' produced
//
// A note, once per op, in order between the prints; the run succeeds.
// RUN: apipe-run %s --entry=wait_group_without_commits 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: 1
// NOTE-NEXT: runtime-errors.mlir:[[# @LINE + 108]]:5: note: 'apipe.wait_group' on queue 1, which has no commits yet: it waits for nothing
// NOTE-NEXT: 2
// NOTE-NEXT: 2
// NOTE-NEXT: 2
// NOTE-NOT: {{.}}
//
// A warning at exit, at the first uncommitted copy; the run succeeds.
// RUN: apipe-run %s --entry=uncommitted_at_exit 2>&1 | FileCheck %s --check-prefix=UNCOMMITTED
// UNCOMMITTED: 7
// UNCOMMITTED-NEXT: runtime-errors.mlir:[[# @LINE + 111]]:3: warning: 2 copies on queue 2 were never committed: no 'apipe.commit_group' follows (this copy is the first)
//
// A buffer freed while a copy into it is in flight (the wait comes after the
// dealloc): an error at the dealloc naming the copy. printMemref (C++
// std::cout) output comes before it, in program order.
// RUN: not apipe-run %s --entry=dealloc_with_copy_in_flight 2>&1 | FileCheck %s --check-prefix=DEALLOC
// DEALLOC: sizes = [4] strides = [1] data =
// DEALLOC-NEXT: [0,  0,  0,  0]
// DEALLOC-NEXT: runtime-errors.mlir:[[# @LINE + 23]]:3: error: 'memref.dealloc' frees a buffer that the pending 'apipe.copy' at {{.*}}runtime-errors.mlir:[[# @LINE + 19]]:3 still uses: no wait completes that copy before
// Eager mode moved the data at issue, but no wait has completed the group: the same error.
// RUN: not apipe-run %s --entry=dealloc_with_copy_in_flight --completion=eager 2>&1 | FileCheck %s --check-prefix=DEALLOC-EAGER
// DEALLOC-EAGER: [1,  1,  1,  1]
// DEALLOC-EAGER-NEXT: runtime-errors.mlir:[[# @LINE + 19]]:3: error: 'memref.dealloc' frees a buffer that the pending 'apipe.copy' at {{.*}}runtime-errors.mlir:[[# @LINE + 15]]:3 still uses: no wait completes that copy before

func.func private @printI64(i64)
func.func private @printNewline()

func.func private @printMemrefI32(memref<*xi32>)

func.func @dealloc_with_copy_in_flight() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %A = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<4xi32>
  linalg.fill ins(%one : i32) outs(%A : memref<4xi32>)
  linalg.fill ins(%zero : i32) outs(%b : memref<4xi32>)
  apipe.copy %A[%c0], %b[%c0], 4 : memref<4xi32> to memref<4xi32>
  apipe.commit_group
  %u = memref.cast %b : memref<4xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %b : memref<4xi32>
  apipe.wait_group 0
  memref.dealloc %A : memref<4xi32>
  return
}

func.func @print(%x: i64) {
  func.call @printI64(%x) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

func.func @copy_reads_out_of_bounds() {
  %c6 = arith.constant 6 : index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %A = memref.alloca() : memref<8xi32>
  %b = memref.alloca() : memref<4xi32>
  func.call @print(%one) : (i64) -> ()
  apipe.copy %A[%c6], %b[%c0], 4 : memref<8xi32> to memref<4xi32>
  apipe.commit_group
  apipe.wait_group 0
  func.call @print(%two) : (i64) -> ()
  return
}

func.func @copy_writes_out_of_bounds() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %A = memref.alloca() : memref<8xf32>
  %b = memref.alloca() : memref<2x2xf32, 3>
  apipe.copy %A[%c0], %b[%c2, %c0], 2 : memref<8xf32> to memref<2x2xf32, 3>
  apipe.commit_group
  return
}

// A run-time count: the verifier checks constant ones.
func.func @five() -> index {
  %c5 = arith.constant 5 : index
  return %c5 : index
}

func.func @zero_fill_count_too_large() {
  %c0 = arith.constant 0 : index
  %c5 = func.call @five() : () -> index
  %A = memref.alloca() : memref<8xf32>
  %b = memref.alloca() : memref<8xf32>
  apipe.copy %A[%c0], %b[%c0], 4, %c5 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  return
}

func.func @wait_on_uncommitted_token() {
  %c42 = arith.constant 42 : i64
  %t = builtin.unrealized_conversion_cast %c42 : i64 to !apipe.token
  apipe.wait %t
  return
}

func.func @wait_group_without_commits() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  func.call @print(%one) : (i64) -> ()
  scf.for %i = %c0 to %c3 step %c1 {
    apipe.wait_group 0 queue 1
    func.call @print(%two) : (i64) -> ()
  }
  return
}

func.func @uncommitted_at_exit() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7 : i64
  %A = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %b[%c0], 4 queue 2 : memref<8xf32> to memref<8xf32>
  apipe.copy %A[%c4], %b[%c4], 4 queue 2 : memref<8xf32> to memref<8xf32>
  func.call @print(%seven) : (i64) -> ()
  return
}
