// A memref of complex<f32> elements is laid out 8 bytes per element (the
// struct {f32, f32} of the LLVM lowering): a copy of four elements moves
// both parts of each (it was refused: "element type complex<f32> has no
// whole number of bytes", trial 35).
// RUN: apipe-run %s --completion=lazy,eager,random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=SYNC
// CHECK: completion=lazy
// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 2
// CHECK-NEXT: 2
// CHECK-NEXT: 4
// CHECK-NEXT: 3
// CHECK-NEXT: 6
// CHECK: completion=eager
// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 2
// CHECK-NEXT: 2
// CHECK-NEXT: 4
// CHECK-NEXT: 3
// CHECK-NEXT: 6
// CHECK: completion=random:1
// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NEXT: 1
// CHECK-NEXT: 2
// CHECK-NEXT: 2
// CHECK-NEXT: 4
// CHECK-NEXT: 3
// CHECK-NEXT: 6
// CHECK-NOT: error
// SYNC: 0
// SYNC-NEXT: 0
// SYNC-NEXT: 1
// SYNC-NEXT: 2
// SYNC-NEXT: 2
// SYNC-NEXT: 4
// SYNC-NEXT: 3
// SYNC-NEXT: 6
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<4xcomplex<f32>>
  %B = memref.alloc() : memref<4xcomplex<f32>>
  scf.for %i = %c0 to %c4 step %c1 {
    %t = arith.index_cast %i : index to i32
    %f = arith.sitofp %t : i32 to f32
    %two = arith.constant 2.0 : f32
    %g = arith.mulf %f, %two : f32
    %z = complex.create %f, %g : complex<f32>
    memref.store %z, %A[%i] : memref<4xcomplex<f32>>
  }
  apipe.copy %A[%c0], %B[%c0], 4 : memref<4xcomplex<f32>> to memref<4xcomplex<f32>>
  apipe.commit_group
  apipe.wait_group 0
  scf.for %i = %c0 to %c4 step %c1 {
    %z = memref.load %B[%i] : memref<4xcomplex<f32>>
    %re = complex.re %z : complex<f32>
    %im = complex.im %z : complex<f32>
    vector.print %re : f32
    vector.print %im : f32
  }
  return
}
