// apipe-make-sync of a kernel in the mbarrier form: each apipe.mbarrier_wait
// becomes a gpu.barrier. The wait returns once every thread of the block
// arrived and makes all their copies visible; with synchronous copies that
// is a barrier. Before, the wait was simply erased and the reference raced
// (thread t reads the tile thread t+1 copies: racecheck errors, or wrong
// values without it). A wait under thread-dependent control flow has no
// such equivalent and is refused at the wait.
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-make-sync | FileCheck %s
// RUN: sed '/^\/\/ -----/q' %s | apipe-opt --apipe-make-sync | apipe-run - --completion=lazy --schedule=forward,reverse,random:3 | FileCheck %s --check-prefix=VALUES
// RUN: sed '/^\/\/ -----/q' %s | apipe-run - --completion=lazy,eager,random:2 --schedule=forward,reverse | FileCheck %s --check-prefix=VALUES
// VALUES-COUNT-3: [4,  8,  12,  0]
// RUN: not apipe-opt %s --split-input-file --apipe-make-sync -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIVERGENT

// CHECK-LABEL: gpu.func @exchange
// CHECK: memref.store
// CHECK-NOT: apipe.
// CHECK: gpu.barrier
// CHECK-NEXT: memref.load
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exchange(%A: memref<16xi32>, %out: memref<4xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %bdz = gpu.block_dim z
      %bxy = arith.muli %bdx, %bdy : index
      %bd = arith.muli %bxy, %bdz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %bd : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      %next = arith.addi %tid, %c1 : index
      %nb = arith.remui %next, %c4 : index
      %at = arith.muli %nb, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %x = memref.load %buf[%at] : memref<16xi32, 3>
      memref.store %x, %out[%tid] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %A = memref.alloc() : memref<16xi32>
    %out = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<16xi32>
    }
    gpu.launch_func @kernels::@exchange blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xi32>, %out : memref<4xi32>)
    %u = memref.cast %out : memref<4xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}

// -----

// Only thread 0 waits: a gpu.barrier there would not be reached by the
// others.
// DIVERGENT: make-sync-mbarrier.mlir:[[# @LINE + 19]]:9: error: 'apipe.mbarrier_wait' op waits under control flow that depends on the thread id: apipe-make-sync would make it a gpu.barrier, which not every thread of the block would reach
// DIVERGENT: make-sync-mbarrier.mlir:[[# @LINE + 15]]:7: note: the thread-dependent control flow
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @producer_only(%A: memref<16xi32>)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
      }
      gpu.barrier
      scf.if %first {
        apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xi32> to memref<16xi32, 3>
        apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      gpu.return
    }
  }
}
