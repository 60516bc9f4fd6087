// apipe-check-hazards: a kernel that calls a device function which has no
// apipe op itself but calls one that does (trial 79: the message said the
// first callee "has async copies", though only its callee has). Refused
// at each call, located, once per call (the device functions' own calls
// of each other are not in GPU code).
// RUN: not apipe-opt %s --apipe-check-hazards -o %t.checked 2>&1 | FileCheck %s --implicit-check-not=error:

gpu.module @kernels {
  func.func @outer(%A: memref<256xf32>, %buf: memref<256xf32, 3>, %i: index) {
    func.call @inner(%A, %buf, %i) : (memref<256xf32>, memref<256xf32, 3>, index) -> ()
    return
  }
  func.func @inner(%A: memref<256xf32>, %buf: memref<256xf32, 3>, %i: index) {
    apipe.copy %A[%i], %buf[%i], 1 : memref<256xf32> to memref<256xf32, 3>
    apipe.commit_group
    return
  }
  gpu.func @k(%A: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias})
      workgroup(%buf: memref<256xf32, 3>) kernel {
    %tid = gpu.thread_id x
    // CHECK: check-hazards-gpu-call-chain.mlir:[[# @LINE + 1]]:5: error: 'func.call' op in GPU code calls @outer, which has async copies, commits or waits, or calls a function that does: apipe-check-hazards checks each function on its own
    func.call @outer(%A, %buf, %tid) : (memref<256xf32>, memref<256xf32, 3>, index) -> ()
    // CHECK: check-hazards-gpu-call-chain.mlir:[[# @LINE + 1]]:5: error: 'func.call' op in GPU code calls @inner, which has async copies, commits or waits, or calls a function that does
    func.call @inner(%A, %buf, %tid) : (memref<256xf32>, memref<256xf32, 3>, index) -> ()
    apipe.wait_group 0
    gpu.barrier
    %v = memref.load %buf[%tid] : memref<256xf32, 3>
    memref.store %v, %out[%tid] : memref<256xf32>
    gpu.return
  }
}
