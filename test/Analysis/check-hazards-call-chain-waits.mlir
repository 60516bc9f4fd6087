// A wait behind a chain of calls (@k -> @d1 -> @d2, which waits): the
// wait completes @k's group before its read, so the checker is silent
// (trial 25: before, only a direct call's waits were seen, a false alarm).
// A weaker wait behind the same chain, and a read in @d1 before its call
// of @d2, are still reported (apipe-run reads a copy in flight in both).
// RUN: head -n 61 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: apipe-opt %s --split-input-file --apipe-make-sync | FileCheck %s --check-prefix=SYNC
// RUN: head -n 61 %s | apipe-run - --completion=lazy | FileCheck %s
// RUN: head -n 61 %s | apipe-run - --completion=random:3 | FileCheck %s

// CHECK: [9,  0,  0,  0,  0,  0,  0,  0]
// SYNC-NOT: apipe.
// BROKEN-NOT: error
// BROKEN: check-hazards-call-chain-waits.mlir:75:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// BROKEN-NOT: error
// BROKEN: check-hazards-call-chain-waits.mlir:99:3: error: 'func.call' op reads a buffer region that an async copy may still be writing (read-after-write)
// BROKEN-NOT: error
func.func @d1() {
  func.call @d2() : () -> ()
  return
}
func.func @k(%A: memref<8xf32> {llvm.noalias}, %buf: memref<8xf32> {llvm.noalias}, %o: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  apipe.copy %A[%c0], %buf[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  func.call @d1() : () -> ()
  %x = memref.load %buf[%c3] : memref<8xf32>
  memref.store %x, %o[%c0] : memref<8xf32>
  return
}
func.func @d2() {
  apipe.wait_group 0
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  %buf = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %g = arith.addf %f, %f : f32
    %h = arith.addf %g, %f : f32
    memref.store %h, %A[%i] : memref<8xf32>
    %z = arith.constant 0.0 : f32
    memref.store %z, %o[%i] : memref<8xf32>
    memref.store %z, %buf[%i] : memref<8xf32>
  }
  func.call @k(%A, %buf, %o) : (memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

func.func @d1() {
  func.call @d2() : () -> ()
  return
}
func.func @k(%A: memref<8xf32> {llvm.noalias}, %buf: memref<8xf32> {llvm.noalias}, %o: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  apipe.copy %A[%c0], %buf[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  func.call @d1() : () -> ()
  // The load: reported.
  %x = memref.load %buf[%c3] : memref<8xf32>
  memref.store %x, %o[%c0] : memref<8xf32>
  return
}
func.func @d2() {
  apipe.wait_group 1
  return
}

// -----

func.func @d1(%b: memref<8xf32>, %o: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %v = memref.load %b[%c1] : memref<8xf32>
  memref.store %v, %o[%c1] : memref<8xf32>
  func.call @d2() : () -> ()
  return
}
func.func @k(%A: memref<8xf32> {llvm.noalias}, %buf: memref<8xf32> {llvm.noalias}, %o: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  apipe.copy %A[%c0], %buf[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  // The call, whose @d1 reads before its wait: reported.
  func.call @d1(%buf, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %x = memref.load %buf[%c3] : memref<8xf32>
  memref.store %x, %o[%c0] : memref<8xf32>
  return
}
func.func @d2() {
  apipe.wait_group 0
  return
}
