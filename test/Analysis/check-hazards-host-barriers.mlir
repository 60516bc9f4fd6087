// Host code runs on one thread: none of its barriers can diverge (trial
// 56). A host function that loops over `gpu.barrier` with a trip count
// loaded after an external call (which may write any global, so the count
// was taken as thread-dependent) was reported as a divergent barrier, and
// so was the output of `apipe-software-pipeline{barriers=conservative}` on
// a host loop. A function runs on threads when it is a `gpu.func`, a
// `gpu.launch` body, a function of a `gpu.module`, a function they call
// through any chain of calls, or a function whose address is taken; the
// same barriers there are still checked (the second part).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-software-pipeline='num-stages=3 barriers=conservative' 2>/dev/null | FileCheck %s --check-prefix=PIPELINED
// RUN: apipe-opt %s --apipe-software-pipeline='num-stages=3 barriers=conservative' 2>/dev/null | not apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINED-CHECK --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-software-pipeline='num-stages=3 barriers=conservative' 2>/dev/null | apipe-run - --entry=main --completion=random:1 | FileCheck %s --check-prefix=OUT
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main | FileCheck %s --check-prefix=OUT
// PIPELINED-LABEL: func.func @pipelined
// PIPELINED: gpu.barrier
// PIPELINED: scf.for
// PIPELINED: gpu.barrier
// PIPELINED-LABEL: func.func @main
// OUT: 28

func.func private @printMemrefF32(memref<*xf32>)
func.func @barriers(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.barrier
  }
  return
}
func.func @pipelined(%A: memref<16xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<1xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    apipe.copy %A[%i], %buf[%c0], 1 : memref<16xf32> to memref<1xf32>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %buf[%c0] : memref<1xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  } {apipe.num_stages = 3 : i64}
  return %r : f32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %ns = memref.alloc() : memref<1xindex>
  %o = memref.alloc() : memref<1xf32>
  %u = memref.cast %o : memref<1xf32> to memref<*xf32>
  memref.store %c3, %ns[%c0] : memref<1xindex>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %n = memref.load %ns[%c0] : memref<1xindex>
  func.call @barriers(%n) : (index) -> ()
  %A = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %A[%i] : memref<16xf32>
  }
  %s = func.call @pipelined(%A, %c8) : (memref<16xf32>, index) -> f32
  vector.print %s : f32
  return
}

// The same loop called from a `gpu.launch` body with a thread-dependent
// trip count: a divergent barrier.
func.func @device_barriers(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.barrier
  }
  return
}
func.func @launcher() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // CHECK: check-hazards-host-barriers.mlir:[[# @LINE + 2]]:5: error: 'func.call' op may be reached by only some threads of the block
    // PIPELINED-CHECK: error: 'func.call' op may be reached by only some threads of the block
    func.call @device_barriers(%tx) : (index) -> ()
    gpu.terminator
  }
  return
}
