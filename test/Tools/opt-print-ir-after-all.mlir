// `--mlir-print-ir-after-all` prints the IR after each pass, apipe and
// upstream alike, in pipeline order, to stderr; stdout keeps the result.
// RUN: apipe-opt %s --apipe-make-sync --canonicalize --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s
// RUN: apipe-opt %s -apipe-make-sync -canonicalize -mlir-print-ir-after-all 2>/dev/null | FileCheck %s --check-prefix=OUT
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync,cse),canonicalize)' --mlir-print-ir-after-all -o %t 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: apipe-opt %s --apipe-make-sync --mlir-print-ir-before-all -o %t 2>&1 | FileCheck %s --check-prefix=BEFORE
// No passes, no dumps.
// RUN: apipe-opt %s --mlir-print-ir-after-all -o %t 2>&1 | count 0

// CHECK:      // -----// IR Dump After ApipeMakeSync (apipe-make-sync) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @counting(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>, %arg2: index) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c0_0 = arith.constant 0 : index
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     scf.for %arg3 = %c0_0 to %c4 step %c1 {
// CHECK-NEXT:       %0 = arith.addi %arg2, %arg3 : index
// CHECK-NEXT:       %1 = arith.addi %c0, %arg3 : index
// CHECK-NEXT:       %2 = memref.load %arg0[%0] : memref<64xf32>
// CHECK-NEXT:       memref.store %2, %arg1[%1] : memref<4xf32, 3>
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @counting(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>, %arg2: index) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     scf.for %arg3 = %c0 to %c4 step %c1 {
// CHECK-NEXT:       %0 = arith.addi %arg2, %arg3 : index
// CHECK-NEXT:       %1 = memref.load %arg0[%0] : memref<64xf32>
// CHECK-NEXT:       memref.store %1, %arg1[%arg3] : memref<4xf32, 3>
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:  IR Dump

// OUT-NOT:   IR Dump
// OUT:       module {
// OUT:         memref.store %1, %arg1[%arg3] : memref<4xf32, 3>
// OUT-NOT:   IR Dump

// A pass nested on func.func dumps the function.
// NESTED:      // -----// IR Dump After ApipeMakeSync (apipe-make-sync) //----- //
// NESTED-NEXT: func.func @counting(
// NESTED-NOT:  apipe.copy
// NESTED:      // -----// IR Dump After CSE (cse) //----- //
// NESTED-NEXT: func.func @counting(
// NESTED:      // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// NESTED-NEXT: module {
// NESTED-NOT:  IR Dump

// BEFORE:      // -----// IR Dump Before ApipeMakeSync (apipe-make-sync) //----- //
// BEFORE-NEXT: module {
// BEFORE:        apipe.copy %arg0[%arg2], %arg1[%c0], 4
// BEFORE-NOT:  IR Dump

func.func @counting(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}
