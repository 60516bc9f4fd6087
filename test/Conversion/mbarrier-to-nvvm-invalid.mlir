// apipe-mbarrier-to-nvvm refuses the bulk copies it cannot lower, each at
// its op, and changes nothing: before sm_90 (cp.async.bulk and
// mbarrier.expect_tx need sm_90; sm_80 keeps apipe.copy / cp.async), and on
// sm_90 a copy that breaks a rule of cp.async.bulk (a positive multiple of
// 16 bytes, global to shared, 16-byte aligned constant offsets, a
// contiguous span in a static strided layout).
// The rules on sm_90: mbarrier-to-nvvm-bulk-invalid.mlir.
// RUN: apipe-opt %s --apipe-mbarrier-to-nvvm --verify-diagnostics
// RUN: not apipe-translate %s --sm=80 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// TRANSLATE: mbarrier-to-nvvm-invalid.mlir:[[# @LINE + 15]]:5: error: 'apipe.mbarrier_expect_tx' op needs sm_90 (cp.async.bulk and mbarrier.expect_tx); on sm_80 copy with apipe.copy (cp.async) and apipe.mbarrier_arrive_copies

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
    // expected-error @+1 {{'apipe.mbarrier_expect_tx' op needs sm_90 (cp.async.bulk and mbarrier.expect_tx); on sm_80 copy with apipe.copy (cp.async) and apipe.mbarrier_arrive_copies}}
    apipe.mbarrier_expect_tx %ring[%c0], 64 : memref<1xi64, 3>
    // expected-error @+1 {{'apipe.bulk_copy' op needs sm_90}}
    apipe.bulk_copy %src[%c0], %buf[%c0], 16, %ring[%c0] : memref<1024xf32> to memref<512xf32, 3>, memref<1xi64, 3>
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
    gpu.return
  }
}
}
