// A memref of vector<3xf32> elements is laid out 16 bytes per element (as
// LLVM allocates <3 x float>): a copy of two elements moves both whole.
// Before, the emulator moved 12 bytes per element and printed (4, 5, 0)
// where the synchronous program prints (4, 5, 6).
// RUN: apipe-run %s --completion=lazy,eager,random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=SYNC
// CHECK-COUNT-3: ( 4, 5, 6 )
// CHECK-NOT: error
// SYNC: ( 4, 5, 6 )
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xvector<3xf32>>
  %b = memref.alloc() : memref<4xvector<3xf32>>
  %v1 = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %v2 = arith.constant dense<[4.0, 5.0, 6.0]> : vector<3xf32>
  %z = arith.constant dense<0.0> : vector<3xf32>
  memref.store %v1, %a[%c0] : memref<4xvector<3xf32>>
  memref.store %v2, %a[%c1] : memref<4xvector<3xf32>>
  memref.store %z, %b[%c0] : memref<4xvector<3xf32>>
  memref.store %z, %b[%c1] : memref<4xvector<3xf32>>
  apipe.copy %a[%c0], %b[%c0], 2 : memref<4xvector<3xf32>> to memref<4xvector<3xf32>>
  apipe.commit_group
  apipe.wait_group 0
  %r = memref.load %b[%c1] : memref<4xvector<3xf32>>
  vector.print %r : vector<3xf32>
  memref.dealloc %a : memref<4xvector<3xf32>>
  memref.dealloc %b : memref<4xvector<3xf32>>
  return
}
