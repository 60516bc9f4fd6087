// The input is read from stdin when it is `-` or absent; diagnostics then
// name `<stdin>`.
// RUN: apipe-opt - < %s | FileCheck %s
// RUN: cat %s | apipe-opt | FileCheck %s
// RUN: cat %s | apipe-opt -apipe-make-sync - | FileCheck %s --check-prefix=SYNC
// RUN: apipe-opt --mlir-print-debuginfo < %s | FileCheck %s --check-prefix=LOC
// RUN: echo 'func.func @f() {' | not apipe-opt - 2>&1 | FileCheck %s --check-prefix=ERR
// Empty stdin is an empty module.
// RUN: echo '' | apipe-opt - | FileCheck %s --check-prefix=EMPTY

// CHECK:      module {
// CHECK-NEXT:   func.func @from_stdin(%arg0: memref<8xf32>, %arg1: memref<8xf32, 3>) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     apipe.copy %arg0[%c0], %arg1[%c0], 8 : memref<8xf32> to memref<8xf32, 3>{{$}}
// CHECK-NEXT:     %0 = apipe.commit_group{{$}}
// CHECK-NEXT:     apipe.wait %0{{$}}
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// SYNC-LABEL: func.func @from_stdin
// SYNC-NOT:   apipe.
// SYNC:       memref.store
// SYNC-NOT:   apipe.

// LOC-DAG: #loc = loc("<stdin>":0:0)

// ERR: <stdin>:1:17: error: expected operation name in quotes

// EMPTY:      module {
// EMPTY-NEXT: }
func.func @from_stdin(%A: memref<8xf32>, %buf: memref<8xf32, 3>) {
  %c0 = arith.constant 0 : index
  // LOC-DAG: #loc{{[0-9]+}} = loc("<stdin>":[[@LINE+1]]:3)
  apipe.copy %A[%c0], %buf[%c0], 8 : memref<8xf32> to memref<8xf32, 3>
  %t = apipe.commit_group
  apipe.wait %t
  return
}
