// An input without a gpu.module is a located error (at its first op), exit 1,
// for every output kind.
//
// RUN: not apipe-translate %s --sm=80 2>&1 | FileCheck %s
// RUN: not apipe-translate %s --to-llvmir 2>&1 | FileCheck %s

// CHECK: translate-no-gpu-module.mlir:[[@LINE+2]]:1: error: the input has no 'gpu.module' to translate
// CHECK-NEXT: func.func @k(
func.func @k(%src: memref<1024xf32>, %buf: memref<512xf32, 3>, %i: index) {
  apipe.copy %src[%i], %buf[%i], 4 : memref<1024xf32> to memref<512xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}
