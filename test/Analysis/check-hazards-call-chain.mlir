// A chain of 12 helpers, each calling the next 4 times and writing its
// second argument: each function's accesses and returns are summarised
// once, so the check takes time linear in the chain (it took time
// exponential in its depth: 8 levels of 8 calls ran past 60 s; trial 38).
// @f0(%A, %B, 0) writes A[63] and B[63] and returns A[12, 20): the first
// store through it writes A[16], the second A[12], which the copy reads.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-chain.mlir:167:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NOT: {{error|remark}}
func.func private @f12(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %v = memref.subview %m[%o] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1], offset: ?>>
  return %v : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f11(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f12(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f12(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f12(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f12(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f10(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f11(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f11(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f11(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f11(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f9(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f10(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f10(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f10(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f10(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f8(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f9(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f9(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f9(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f9(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f7(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f8(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f8(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f8(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f8(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f6(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f7(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f7(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f7(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f7(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f5(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f6(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f6(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f6(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f6(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f4(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f5(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f5(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f5(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f5(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f3(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f4(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f4(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f4(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f4(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f2(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f3(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f3(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f3(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f3(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f1(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f2(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f2(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f2(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f2(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func private @f0(%m: memref<64xf32>, %n: memref<64xf32>, %o: index) -> memref<8xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %x = arith.constant 1.0 : f32
  %p = arith.addi %o, %c1 : index
  %v0 = func.call @f1(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v1 = func.call @f1(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v2 = func.call @f1(%n, %m, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  %v3 = func.call @f1(%m, %n, %p) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %x, %n[%c63] : memref<64xf32>
  return %v3 : memref<8xf32, strided<[1], offset: ?>>
}
func.func @chain(%A: memref<64xf32> {llvm.noalias}, %B: memref<64xf32> {llvm.noalias}, %D: memref<64xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %seven = arith.constant 7.0 : f32
  apipe.copy %A[%c0], %D[%c0], 16 : memref<64xf32> to memref<64xf32>
  apipe.commit_group
  %S = func.call @f0(%A, %B, %c0) : (memref<64xf32>, memref<64xf32>, index) -> memref<8xf32, strided<[1], offset: ?>>
  memref.store %seven, %S[%c4] : memref<8xf32, strided<[1], offset: ?>>
  memref.store %seven, %S[%c0] : memref<8xf32, strided<[1], offset: ?>>
  apipe.wait_group 0
  return
}
