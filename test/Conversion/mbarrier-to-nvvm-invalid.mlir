// apipe-mbarrier-to-nvvm refuses what it does not lower yet (bulk copies:
// expect_tx and cp.async.bulk), each at its op, and changes nothing.
// RUN: apipe-opt %s --apipe-mbarrier-to-nvvm --verify-diagnostics
// RUN: not apipe-translate %s --sm=90 2>&1 | FileCheck %s
// CHECK: mbarrier-to-nvvm-invalid.mlir:21:5: error: 'apipe.mbarrier_expect_tx' op: bulk copies (cp.async.bulk with complete_tx) are not lowered to PTX yet; use apipe.copy (cp.async) with apipe.mbarrier_arrive_copies
// CHECK: mbarrier-to-nvvm-invalid.mlir:23:5: error: 'apipe.bulk_copy' op: bulk copies

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @bulk(%src: memref<1024xf32>) workgroup(%ring: memref<1xi64, 3>, %buf: memref<512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %false = arith.constant false
    %tid = gpu.thread_id x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
    }
    gpu.barrier
    // expected-error @+1 {{'apipe.mbarrier_expect_tx' op: bulk copies (cp.async.bulk with complete_tx) are not lowered to PTX yet}}
    apipe.mbarrier_expect_tx %ring[%c0], 64 : memref<1xi64, 3>
    // expected-error @+1 {{'apipe.bulk_copy' op: bulk copies (cp.async.bulk with complete_tx) are not lowered to PTX yet}}
    apipe.bulk_copy %src[%c0], %buf[%c0], 16, %ring[%c0] : memref<1024xf32> to memref<512xf32, 3>, memref<1xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
    gpu.return
  }
}
}
