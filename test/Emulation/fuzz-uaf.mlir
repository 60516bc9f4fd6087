// A minimised fuzz find (apipe-fuzz campaign --seed 404, run:eager): it was a
// glibc abort "malloc(): unaligned tcache chunk detected" (SIGABRT).
// It is now a located error, exit 1, in every completion mode.
// RUN: not apipe-run %s --completion=eager 2>&1 | FileCheck %s
// RUN: not apipe-run %s --completion=lazy 2>&1 | FileCheck %s
// RUN: not apipe-run %s --completion=random:3 2>&1 | FileCheck %s
// CHECK: fuzz-uaf.mlir:[[# @LINE + 17]]:3: error: 'apipe.copy' uses a buffer that is already freed (use after free)
// CHECK-NOT: error

func.func private @printI64(i64)
func.func private @printNewline()
func.func private @printString(!llvm.ptr)

llvm.mlir.global internal constant @wrong_label("wrong tiles\0A\00")
llvm.mlir.global internal constant @checksum_label("checksum\0A\00")

func.func @main() {
  %c0 = arith.constant 0 : index
  %n = arith.constant 10000 : index
  %zero = arith.constant 0 : i32
  %A = memref.alloc(%n) : memref<?x4xi32>
  %buf = memref.alloc() : memref<3x4xi32, 3>
  memref.dealloc %buf : memref<3x4xi32, 3>
  apipe.copy %A[%c0, %c0], %buf[%c0, %c0], 4 : memref<?x4xi32> to memref<3x4xi32, 3>
  return
}

func.func @consume(%buf: memref<3x4xi32, 3>, %v: index, %out: memref<?xi32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (i32) {
    %x = memref.load %buf[%v, %k] : memref<3x4xi32, 3>
    %acc2 = arith.addi %acc, %x : i32
    scf.yield %acc2 : i32
  }
  memref.store %sum, %out[%i] : memref<?xi32>
  return
}

func.func @report(%out: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant 1 : i64
  return
}
