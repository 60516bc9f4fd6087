// The `upper_bound` of a kernel's `gpu.thread_id` / `gpu.block_id` states
// that the id is below it (MLIR GPUOps.td); upstream lowering gives the id
// that range, and apipe-check-hazards relies on it (trial 55: a barrier
// under `bid < 2` with `gpu.block_id x upper_bound 2` is reached by every
// block). apipe-run now refuses a launch whose block or grid size exceeds
// it in some dimension, as it refuses one against `known_block_size`;
// launches within it run.
//
// RUN: apipe-run %s --entry=within --completion=lazy,eager | FileCheck %s --check-prefix=WITHIN
// WITHIN-COUNT-2: [1,  1,  1,  1,  2,  2,  2,  2]
// RUN: apipe-run %s --entry=smaller | FileCheck %s --check-prefix=SMALLER
// SMALLER: [1,  1,  0,  0,  0,  0,  0,  0]
// RUN: not apipe-run %s --entry=more_blocks 2>&1 | FileCheck %s --check-prefix=GRID --implicit-check-not=error
// GRID: gpu-launch-id-upper-bound.mlir:[[@LINE+30]]:5: error: launch of @kernels::@bounded with grid size 3 x 1 x 1, but the kernel states gpu.block_id upper_bound = 2 x any x any: its ids were declared below those sizes
// RUN: not apipe-run %s --entry=more_threads 2>&1 | FileCheck %s --check-prefix=BLOCK --implicit-check-not=error
// BLOCK: gpu-launch-id-upper-bound.mlir:[[@LINE+28]]:5: error: launch of @kernels::@bounded with block size 8 x 1 x 1, but the kernel states gpu.thread_id upper_bound = 4 x any x any: its ids were declared below those sizes

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bounded(%out: memref<8xf32>) kernel {
      %tid = gpu.thread_id x upper_bound 4
      %bid = gpu.block_id x upper_bound 2
      %c4 = arith.constant 4 : index
      %base = arith.muli %bid, %c4 : index
      %i = arith.addi %base, %tid : index
      %b1 = arith.index_cast %bid : index to i64
      %f = arith.sitofp %b1 : i64 to f32
      %one = arith.constant 1.0 : f32
      %v = arith.addf %f, %one : f32
      memref.store %v, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run(%grid: index, %block: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %out = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %zero, %out[%i] : memref<8xf32>
    }
    gpu.launch_func @kernels::@bounded blocks in (%grid, %c1, %c1) threads in (%block, %c1, %c1) args(%out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func @within() {
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    func.call @run(%c2, %c4) : (index, index) -> ()
    return
  }
  func.func @smaller() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    func.call @run(%c1, %c2) : (index, index) -> ()
    return
  }
  func.func @more_blocks() {
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    func.call @run(%c3, %c4) : (index, index) -> ()
    return
  }
  func.func @more_threads() {
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    func.call @run(%c2, %c8) : (index, index) -> ()
    return
  }
}
