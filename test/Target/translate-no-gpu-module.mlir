// An input without a gpu.module is a located error (at its first op), exit 1,
// for every output kind.
//
// RUN: not apipe-translate %s --sm=80 2>&1 | FileCheck %s
// RUN: not apipe-translate %s --to-llvmir 2>&1 | FileCheck %s

// CHECK: translate-no-gpu-module.mlir:[[@LINE+2]]:1: error: the input has no 'gpu.module' to translate
// CHECK-NEXT: func.func @k(
func.func @k(%src: memref<1024xf32>, %buf: memref<512xf32, 3>, %i: index) {
  "apipe.copy"(%src, %buf, %i, %i) {elements = 4 : i64} : (memref<1024xf32>, memref<512xf32, 3>, index, index) -> ()
  "apipe.commit_group"() : () -> ()
  "apipe.wait_group"() {pending = 0 : i64} : () -> ()
  return
}
