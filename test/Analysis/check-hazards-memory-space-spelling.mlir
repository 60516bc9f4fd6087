// apipe-check-hazards compares memory spaces by number: `3` and
// `#gpu.address_space<workgroup>` are the same workgroup memory
// (attributes::memory_space_number), so a buffer of unknown origin in one
// spelling may be a workgroup buffer in the other. Before, the spellings
// were compared as text and such a read of an in-flight copy's bytes was
// not reported. Each case is reported at its exact line; its twin, which
// waits and synchronizes the block first, is silent; no other error or remark may appear.
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:

// The view comes from an op the analysis does not follow: unknown origin,
// same (workgroup) space as %tile in another spelling: it may be %tile.
// CHECK: check-hazards-memory-space-spelling.mlir:[[# @LINE + 9]]:10: remark: possible hazard (the buffers may alias): 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NEXT: {{^}}    %x = memref.load %v[%c1]
gpu.module @m {
  gpu.func @spelled_apart(%A: memref<64xf32>, %out: memref<4xf32>) workgroup(%tile : memref<4xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = builtin.unrealized_conversion_cast %tile : memref<4xf32, 3> to memref<4xf32, #gpu.address_space<workgroup>>
    apipe.copy %A[%c0], %tile[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    %x = memref.load %v[%c1] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%c1] : memref<4xf32>
    apipe.wait_group 0
    gpu.return
  }

  // The twin: the wait and the barrier complete every thread's copy
  // before the read.
  gpu.func @spelled_apart_waited(%A: memref<64xf32>, %out: memref<4xf32>) workgroup(%tile : memref<4xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = builtin.unrealized_conversion_cast %tile : memref<4xf32, 3> to memref<4xf32, #gpu.address_space<workgroup>>
    apipe.copy %A[%c0], %tile[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.barrier
    %x = memref.load %v[%c1] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%c1] : memref<4xf32>
    gpu.return
  }
}

// -----

// The other way round: the copy writes the GPU-spelled view, the read is of
// an unknown-origin buffer in integer space 3.
// CHECK: check-hazards-memory-space-spelling.mlir:[[# @LINE + 9]]:10: remark: possible hazard (the buffers may alias): 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NEXT: {{^}}    %x = memref.load %v[%c1]
gpu.module @m {
  gpu.func @spelled_apart(%A: memref<64xf32>, %out: memref<4xf32>) workgroup(%tile : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = builtin.unrealized_conversion_cast %tile : memref<4xf32, #gpu.address_space<workgroup>> to memref<4xf32, 3>
    apipe.copy %A[%c0], %tile[%c0], 4 : memref<64xf32> to memref<4xf32, #gpu.address_space<workgroup>>
    apipe.commit_group
    %x = memref.load %v[%c1] : memref<4xf32, 3>
    memref.store %x, %out[%c1] : memref<4xf32>
    apipe.wait_group 0
    gpu.return
  }
}

// -----

// Different spaces stay apart: a global-space buffer of unknown origin is
// not the workgroup tile (silent).
gpu.module @m {
  gpu.func @spaces_apart(%A: memref<64xf32>, %out: memref<4xf32>) workgroup(%tile : memref<4xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = builtin.unrealized_conversion_cast %tile : memref<4xf32, 3> to memref<4xf32, #gpu.address_space<global>>
    apipe.copy %A[%c0], %tile[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    %x = memref.load %v[%c1] : memref<4xf32, #gpu.address_space<global>>
    memref.store %x, %out[%c1] : memref<4xf32>
    apipe.wait_group 0
    gpu.return
  }
}
