// Calls and the waits and indices of their callees (apipe-check-hazards):
// a callee's `wait_group`s in its entry block complete the caller's
// groups, those before its first access before the call's accesses, and
// every one before its copies join the caller's; waits under a condition
// are not counted. An index the call passes places the callee's access
// (through the caller's views). Each function here was run under
// apipe-run (lazy, eager, random) against make-sync: the silent ones are
// correct, each error is a truly broken program.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:

// The callee waits for every group before it reads: silent (it was a
// false read-after-write: the callee's wait was not seen).
func.func @consume(%b: memref<8xf32>, %o: memref<16xf32>, %i: index) {
  apipe.wait_group 0
  %x = memref.load %b[%i] : memref<8xf32>
  memref.store %x, %o[%i] : memref<16xf32>
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  func.call @consume(%buf, %out, %c5) : (memref<8xf32>, memref<16xf32>, index) -> ()
  return
}

// -----

// The callee reads before its wait: the call reads the copy in flight.
func.func @consume(%b: memref<8xf32>, %o: memref<16xf32>, %i: index) {
  %x = memref.load %b[%i] : memref<8xf32>
  apipe.wait_group 0
  memref.store %x, %o[%i] : memref<16xf32>
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  // CHECK: check-hazards-call-waits.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @consume(%buf, %out, %c5) : (memref<8xf32>, memref<16xf32>, index) -> ()
  return
}

// -----

// The callee's `wait_group 1` leaves the caller's only group in flight.
func.func @consume(%b: memref<8xf32>, %o: memref<16xf32>, %i: index) {
  apipe.wait_group 1
  %x = memref.load %b[%i] : memref<8xf32>
  memref.store %x, %o[%i] : memref<16xf32>
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  // CHECK: check-hazards-call-waits.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @consume(%buf, %out, %c5) : (memref<8xf32>, memref<16xf32>, index) -> ()
  return
}

// -----

// A helper that only waits completes the caller's groups.
func.func @drain() {
  apipe.wait_group 0
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  func.call @drain() : () -> ()
  %x = memref.load %buf[%c5] : memref<8xf32>
  memref.store %x, %out[%c5] : memref<16xf32>
  return
}

// -----

// A helper that waits only under a condition may not.
func.func @drain(%c: i1) {
  scf.if %c {
    apipe.wait_group 0
  }
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  func.call @drain(%false) : (i1) -> ()
  // CHECK: check-hazards-call-waits.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %buf[%c5] : memref<8xf32>
  memref.store %x, %out[%c5] : memref<16xf32>
  return
}

// -----

// The callee reads %b[%i] with %i = 1: element 1, not the copy's 4..8
// (it was a false read-after-write: the whole buffer).
func.func @consume(%b: memref<8xf32>, %o: memref<16xf32>, %i: index) {
  %x = memref.load %b[%i] : memref<8xf32>
  memref.store %x, %o[%i] : memref<16xf32>
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 2.0 : f32
  %buf = memref.alloc() : memref<8xf32>
  memref.store %z, %buf[%c1] : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  func.call @consume(%buf, %out, %c1) : (memref<8xf32>, memref<16xf32>, index) -> ()
  apipe.wait_group 0
  return
}

// -----

// With %i = 7 the callee reads an element the copy may still write.
func.func @consume(%b: memref<8xf32>, %o: memref<16xf32>, %i: index) {
  %x = memref.load %b[%i] : memref<8xf32>
  memref.store %x, %o[%i] : memref<16xf32>
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  // CHECK: check-hazards-call-waits.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @consume(%buf, %out, %c7) : (memref<8xf32>, memref<16xf32>, index) -> ()
  apipe.wait_group 0
  return
}

// -----

// Through the caller's subview at 2: %b[2] is %buf[4], in flight.
func.func @consume(%b: memref<4xf32, strided<[1], offset: ?>>, %o: memref<16xf32>, %i: index) {
  %x = memref.load %b[%i] : memref<4xf32, strided<[1], offset: ?>>
  memref.store %x, %o[%i] : memref<16xf32>
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  %zz = arith.constant 2.0 : f32
  memref.store %zz, %buf[%c1] : memref<8xf32>
  memref.store %zz, %buf[%c2] : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c4], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  %v = memref.subview %buf[%c2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  // CHECK: check-hazards-call-waits.mlir:[[# @LINE + 1]]:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
  func.call @consume(%v, %out, %c2) : (memref<4xf32, strided<[1], offset: ?>>, memref<16xf32>, index) -> ()
  apipe.wait_group 0
  return
}

// -----

// The callee waits, then issues a copy: the wait does not complete it.
func.func @issue(%A: memref<64xf32>, %b: memref<8xf32>) {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  apipe.wait_group 0
  apipe.copy %A[%c8], %b[%c4], 4 : memref<64xf32> to memref<8xf32>
  return
}
func.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c5 = arith.constant 5 : index
  %buf = memref.alloc() : memref<8xf32>
  func.call @issue(%A, %buf) : (memref<64xf32>, memref<8xf32>) -> ()
  apipe.commit_group
  // CHECK: check-hazards-call-waits.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %buf[%c5] : memref<8xf32>
  memref.store %x, %out[%c5] : memref<16xf32>
  apipe.wait_group 0
  return
}
