// `-o FILE` writes the result to FILE and nothing to stdout; `-o -` (and no
// `-o`) write to stdout; `-o=FILE` is accepted as mlir-opt accepts it.
// RUN: apipe-opt %s -o %t | count 0
// RUN: FileCheck %s --input-file=%t
// RUN: apipe-opt -o %t.2 %s
// RUN: FileCheck %s < %t.2
// RUN: apipe-opt %s -o=%t.3
// RUN: FileCheck %s --input-file=%t.3
// RUN: apipe-opt %s -o - | FileCheck %s
// RUN: apipe-opt -apipe-make-sync %s -o %t.sync
// RUN: FileCheck %s --check-prefix=SYNC --input-file=%t.sync
// An output file that cannot be created is an error (exit 1).
// RUN: not apipe-opt %s -o %t.no-such-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=NODIR

// CHECK:      module {
// CHECK-NEXT:   func.func @counting(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>, %arg2: index) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     apipe.copy %arg0[%arg2], %arg1[%c0], 4 : memref<64xf32> to memref<4xf32, 3>{{$}}
// CHECK-NEXT:     {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT:     apipe.wait_group 0{{$}}
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// SYNC-LABEL: func.func @counting
// SYNC-NOT:   apipe.
// SYNC:       scf.for
// SYNC:       memref.load %arg0
// SYNC:       memref.store
// SYNC-NOT:   apipe.

// NODIR: error: could not open output file '{{.*}}no-such-dir/out.mlir'

func.func @counting(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}
