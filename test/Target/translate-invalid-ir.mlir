// IR errors reach apipe-translate's output as located diagnostics, from
// the apipe passes of the pipeline, and stop the translation. (A queue
// other than 0 is merged by apipe-merge-queues inside the pipeline: no
// error; without that pass, apipe-to-nvgpu reports it, see
// Conversion/to-nvgpu-invalid.mlir.)
//
// RUN: not apipe-translate %s --to-ptx 2>&1 | FileCheck %s

gpu.module @kernels {
  gpu.func @bad_copies(%src: memref<1024xf32>, %g: memref<512xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    // CHECK: translate-invalid-ir.mlir:[[@LINE+1]]:5: error: 'apipe.copy' op moves 12 bytes; cp.async copies 4, 8 or 16 bytes
    apipe.copy %src[%c0], %buf[%c0], 3 : memref<1024xf32> to memref<512xf32, 3>
    // CHECK: translate-invalid-ir.mlir:[[@LINE+1]]:5: error: 'apipe.copy' op writes memref<512xf32>; cp.async writes shared (workgroup) memory
    apipe.copy %src[%c0], %g[%c0], 4 : memref<1024xf32> to memref<512xf32>
    apipe.commit_group
    // CHECK-NOT: error
    // CHECK-NOT: .entry
    gpu.return
  }
}
