// The shape of upstream's own pipeline_shared_memory_copies tests: a copy
// and a device_async_wait on the copy's token, no device_async_create_group
// (this input is written for this suite). cp.async.wait_group waits for
// committed groups only (PTX ISA 9.7.9.25.3), so such a wait waits for
// nothing. Upstream's transform pipelines the loop as it is: it creates no
// group and gives the waits numGroups = 1 (kernel) and 1, 0 (epilogue).
// apipe-import-nvgpu refuses both the input and upstream's output with a
// located error, so neither pipeliner's result can be wrong here.
// RUN: %mlir_opt %s --transform-preload-library=transform-library-paths=%S/Inputs/pipeline-shared-memory-copies.mlir --transform-interpreter > %t.up.mlir
// RUN: FileCheck %s --check-prefix=UP < %t.up.mlir
// RUN: not apipe-opt %t.up.mlir --apipe-import-nvgpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=UP-IMPORT
// RUN: not apipe-opt %s --apipe-import-nvgpu --apipe-software-pipeline=num-stages=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=IMPORT

// UP-LABEL: gpu.func @token_wait
// UP-NOT: nvgpu.device_async_create_group
// UP: nvgpu.device_async_copy
// UP: nvgpu.device_async_copy
// UP: scf.for {{.*}} -> (!nvgpu.device.async.token, !nvgpu.device.async.token, index, index)
// UP-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// UP: nvgpu.device_async_copy
// UP-NEXT: scf.yield
// UP: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// UP: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// UP-NOT: nvgpu.device_async_create_group
// UP: gpu.return

// UP-IMPORT: up.mlir:[[#]]:[[#]]: error: 'scf.for' op uses the token of a copy; only 'nvgpu.device_async_create_group' may
// UP-IMPORT: note: the copy

// IMPORT: software-pipeline-vs-upstream-groups.mlir:[[#@LINE+14]]:9: error: 'nvgpu.device_async_wait' op uses the token of a copy; only 'nvgpu.device_async_create_group' may
// IMPORT: software-pipeline-vs-upstream-groups.mlir:[[#@LINE+12]]:14: note: the copy
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @token_wait(%g: memref<256xf32>, %dst: memref<32xf32>) workgroup(%buf: memref<256xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %c8 step %c1 {
        %base = arith.muli %i, %c32 : index
        %off = arith.addi %base, %tid : index
        %t = nvgpu.device_async_copy %g[%off], %buf[%off], 1 : memref<256xf32> to memref<256xf32, 3>
        nvgpu.device_async_wait %t
        %x = memref.load %buf[%off] : memref<256xf32, 3>
        memref.store %x, %dst[%tid] : memref<32xf32>
      }
      gpu.return
    }
  }
}
