// A barrier decided by what each thread loads back from a `memref.alloc`
// that the kernel runs: every thread allocates a buffer of its own, so the
// thread id it stored there is its own (trial 45: the load was taken as the
// same in every thread, and the deadlock went unreported). The emulator
// reports the deadlock.
// RUN: apipe-opt %s --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: not apipe-run %s 2>&1 | FileCheck %s --check-prefix=EMU
// EMU: :[[# @LINE + 14]]:7: error: deadlock: thread (0,0,0) of block (0,0,0) waits at this 'gpu.barrier'
module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @kern(%out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %pa = memref.alloc() : memref<1xindex>
    memref.store %tid, %pa[%c0] : memref<1xindex>
    %v = memref.load %pa[%c0] : memref<1xindex>
    memref.dealloc %pa : memref<1xindex>
    %cond = arith.cmpi eq, %v, %c0 : index
    // expected-note @+1 {{the 'scf.if' whose condition depends on the thread id}}
    scf.if %cond {
      // expected-error @+1 {{'gpu.barrier' op may be reached by only some threads of the block}}
      gpu.barrier
    }
    %f = arith.constant 1.0 : f32
    memref.store %f, %out[%tid] : memref<4xf32>
    gpu.return
  }
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = memref.alloc() : memref<4xf32>
  gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
  %u = memref.cast %out : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
}
