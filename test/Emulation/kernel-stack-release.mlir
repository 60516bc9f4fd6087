// A kernel's gpu.return ends its thread and releases its stack memory: a
// copy still pending out of (or into) a memref.alloca of the kernel stops
// the run there (trial 31: the run went on; a func.call checked its
// callee's frame, a kernel's return was not checked). Waiting for the copy
// first is fine, in every thread and completion mode.
// apipe-check-hazards reports the same return
// (test/Analysis/check-hazards-stack-release-kernel.mlir).
// RUN: not apipe-run %s -e pending 2>&1 | FileCheck %s --check-prefix=PENDING
// RUN: not apipe-run %s -e pending --completion=eager 2>&1 | FileCheck %s --check-prefix=PENDING
// RUN: apipe-run %s -e waited --completion=lazy,eager,random:3 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=WAITED
// PENDING: kernel-stack-release.mlir:[[#@LINE+18]]:7: error: stack memory is released here (a function with 'memref.alloca' returned, or a 'memref.alloca_scope' ended) while a pending 'apipe.copy' still reads it: no wait completes the copy before (thread (0,0,0) of block (0,0,0))
// PENDING-NEXT: kernel-stack-release.mlir:[[#@LINE+15]]:7: note: the pending copy
// PENDING-NOT: error
// WAITED-NOT: error
// WAITED-COUNT-6: [7,  7,  7,  7,  7,  7,  7,  7]
// WAITED-NOT: error
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @pending_kernel(%out: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %seven = arith.constant 7.0 : f32
      %s = scf.execute_region -> memref<8xf32> {
        %a = memref.alloca() : memref<8xf32>
        scf.yield %a : memref<8xf32>
      }
      linalg.fill ins(%seven : f32) outs(%s : memref<8xf32>)
      apipe.copy %s[%c0], %out[%c0], 8 : memref<8xf32> to memref<8xf32>
      apipe.commit_group
      gpu.return
    }
    gpu.func @waited_kernel(%out: memref<8xf32>) kernel {
      %tid = gpu.thread_id x
      %seven = arith.constant 7.0 : f32
      %s = memref.alloca() : memref<1xf32>
      %c0 = arith.constant 0 : index
      memref.store %seven, %s[%c0] : memref<1xf32>
      apipe.copy %s[%c0], %out[%tid], 1 : memref<1xf32> to memref<8xf32>
      apipe.commit_group
      apipe.wait_group 0
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @pending() {
    %c1 = arith.constant 1 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @k::@pending_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func @waited() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @k::@waited_kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
