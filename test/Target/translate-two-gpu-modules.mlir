// Two gpu.modules in one input: a located error at the second, before any
// lowering, exit 1 (apipe-translate emits one PTX module per input).
//
// RUN: not apipe-translate %s --sm=80 2>&1 | FileCheck %s

gpu.module @first {
  gpu.func @k() kernel {
    gpu.return
  }
}
// CHECK: translate-two-gpu-modules.mlir:[[@LINE+1]]:1: error: expected one 'gpu.module' to translate, found 2; apipe-translate emits one PTX module per input
gpu.module @second {
  gpu.func @k() kernel {
    gpu.return
  }
}
