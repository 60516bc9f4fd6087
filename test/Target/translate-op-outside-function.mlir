// An apipe op outside any function is a located verifier error before any
// IR is built: apipe-translate exits 1 (a fuzzed input, this file's first
// case, once crashed it in LLVM's NVVM translation). Every completion path
// of the tools verifies first.
// RUN: not apipe-translate %s --to-ptx 2>&1 | FileCheck %s
// RUN: not apipe-translate %s --to-llvmir 2>&1 | FileCheck %s
// RUN: not apipe-opt %s --apipe-merge-queues 2>&1 | FileCheck %s
// RUN: not apipe-run %s 2>&1 | FileCheck %s

gpu.module @kernels {
  // CHECK: translate-op-outside-function.mlir:[[@LINE+1]]:3: error: 'apipe.commit_group' op must be inside a function body
  apipe.commit_group
  // CHECK: translate-op-outside-function.mlir:[[@LINE+1]]:3: error: 'apipe.wait_group' op must be inside a function body
  apipe.wait_group 0
  gpu.func @k() kernel {
    gpu.return
  }
}
