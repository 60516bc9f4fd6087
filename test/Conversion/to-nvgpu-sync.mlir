// apipe-to-nvgpu{sync=...}: the choice of apipe-translate --sync, usable in
// apipe-opt pipelines (docs/mbarrier.md). Each form gives exactly what its
// passes give when run one by one.
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-to-nvgpu{sync=counting})' -o %t.counting.mlir
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu)' | diff - %t.counting.mlir
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-to-nvgpu{sync=mbarrier})' -o %t.mbarrier.mlir
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier,apipe-to-nvgpu)' | diff - %t.mbarrier.mlir
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-to-nvgpu{sync=auto})' -o %t.auto.mlir
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu)' | diff - %t.auto.mlir
// RUN: FileCheck %s --check-prefix=COUNTING < %t.counting.mlir
// RUN: FileCheck %s --check-prefix=MBARRIER < %t.mbarrier.mlir
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto.mlir
// Then to PTX with apipe-mbarrier-to-nvvm and the upstream lowering, as
// apipe-translate prints its pipeline:
// RUN: apipe-opt %t.auto.mlir --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=80})' | FileCheck %s --check-prefix=NVVM
//
// An unknown form is an option error.
// RUN: not apipe-opt %s --pass-pipeline='builtin.module(apipe-to-nvgpu{sync=fifo})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: fifo
//
// A refusal after the conversions: the copy is not global -> shared, which
// the export refuses after tokens-to-counting has run (on a clone, so the
// IR is left as it was: the unit test `with_sync_failure_leaves_ir`).
// RUN: not apipe-opt %S/Inputs/to-nvgpu-sync-host.mlir --apipe-to-nvgpu=sync=counting 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: to-nvgpu-sync-host.mlir:6:3: error:

// Two queues: counting form merges them (the wait on %t0 also waits for
// queue 1's group); auto and mbarrier keep each wait exact with one ring
// per queue.
// COUNTING-LABEL: gpu.func @two_queues
// COUNTING-COUNT-2: nvgpu.device_async_create_group
// COUNTING: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// COUNTING-NOT: apipe.
// MBARRIER-LABEL: gpu.func @two_queues
// MBARRIER: apipe.mbarrier_init
// MBARRIER-COUNT-2: apipe.mbarrier_arrive_copies
// MBARRIER: apipe.mbarrier_wait
// MBARRIER-NOT: nvgpu.device_async_create_group
// AUTO-LABEL: gpu.func @two_queues
// AUTO: apipe.mbarrier_init
// AUTO-NOT: nvgpu.device_async_create_group
// NVVM-LABEL: gpu.func @two_queues
// NVVM: nvvm.cp.async.mbarrier.arrive
// NVVM-NOT: apipe.
gpu.module @kernels {
  gpu.func @two_queues(%A: memref<1024xf32>) workgroup(%buf : memref<2x256xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %i = arith.muli %tid, %c4 : index
    apipe.copy %A[%i], %buf[%c0, %i], 4 : memref<1024xf32> to memref<2x256xf32, 3>
    %t0 = apipe.commit_group
    apipe.copy %A[%i], %buf[%c1, %i], 4 queue 1 : memref<1024xf32> to memref<2x256xf32, 3>
    %t1 = apipe.commit_group queue 1
    apipe.wait %t0
    apipe.wait %t1
    gpu.barrier
    gpu.return
  }
}
