// apipe-translate --sync=mbarrier converts apipe's ops only: upstream
// nvgpu async copies are lowered as they are, with cp.async.commit_group /
// wait_group, and a warning at the first copy says so and how to convert
// them (trial 88: the option was silently without effect). Imported first,
// the same kernel gets mbarriers.
// RUN: apipe-translate %s --sm=80 --sync=mbarrier 2>&1 | FileCheck %s
// RUN: apipe-opt %s --apipe-import-nvgpu | apipe-translate --sm=80 --sync=mbarrier 2>&1 | FileCheck %s --check-prefix=IMPORTED --implicit-check-not=warning:
// CHECK: translate-sync-mbarrier-nvgpu.mlir:[[# @LINE + 16]]:13: warning: --sync=mbarrier converts apipe's ops only: this 'nvgpu.device_async_copy' and its groups are lowered as they are (cp.async.commit_group / wait_group); import them first (apipe-opt --apipe-import-nvgpu) to give them mbarriers
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group {{[[:space:]]*}}0;
// CHECK-NOT: mbarrier
// IMPORTED: mbarrier.init.shared.b64
// IMPORTED: cp.async.cg.shared.global
// IMPORTED: cp.async.mbarrier.arrive.noinc.shared.b64
// IMPORTED: mbarrier.test_wait.parity.shared.b64
// IMPORTED-NOT: cp.async.wait_group
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%A: memref<1024xf32>, %out: memref<1024xf32>) workgroup(%buf: memref<128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %lane = arith.muli %tid, %c4 : index
      %cp = nvgpu.device_async_copy %A[%lane], %buf[%lane], 4 {bypassL1} : memref<1024xf32> to memref<128xf32, 3>
      %g = nvgpu.device_async_create_group %cp
      nvgpu.device_async_wait %g
      %x = memref.load %buf[%lane] : memref<128xf32, 3>
      memref.store %x, %out[%lane] : memref<1024xf32>
      gpu.return
    }
  }
}
