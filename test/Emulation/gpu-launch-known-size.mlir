// A kernel that states its block or grid size (known_block_size,
// known_grid_size, nvvm.reqntid, nvvm.maxntid) is compiled for that size:
// upstream lowering folds gpu.block_dim / gpu.grid_dim to it and emits
// `.maxntid` from it. apipe-run compares every launch with it and stops at
// the first launch with other sizes: a located error at the launch with a
// note at the kernel, exit 1. Launches of the stated sizes run as before.
//
// RUN: apipe-run %s --entry=match --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=MATCH
// MATCH-COUNT-6: [4,  4,  4,  4,  2,  2,  2,  2]
// RUN: not apipe-run %s --entry=more_threads 2>&1 | FileCheck %s --check-prefix=BLOCK --implicit-check-not=error
// RUN: not apipe-run %s --entry=fewer_threads_y 2>&1 | FileCheck %s --check-prefix=BLOCKY --implicit-check-not=error
// RUN: not apipe-run %s --entry=other_grid 2>&1 | FileCheck %s --check-prefix=GRID --implicit-check-not=error
// RUN: not apipe-run %s --entry=maxntid 2>&1 | FileCheck %s --check-prefix=MAXNTID --implicit-check-not=error
// RUN: not apipe-run %s --entry=dynamic 2>&1 | FileCheck %s --check-prefix=DYNAMIC --implicit-check-not=error

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // BLOCK-DAG: gpu-launch-known-size.mlir:[[@LINE+4]]:5: note: @kernels::@sizes states its block size here
    // BLOCKY-DAG: gpu-launch-known-size.mlir:[[@LINE+3]]:5: note: @kernels::@sizes states its block size here
    // GRID-DAG: gpu-launch-known-size.mlir:[[@LINE+2]]:5: note: @kernels::@sizes states its grid size here
    // DYNAMIC-DAG: gpu-launch-known-size.mlir:[[@LINE+1]]:5: note: @kernels::@sizes states its block size here
    gpu.func @sizes(%out: memref<8xindex>) kernel attributes {known_block_size = array<i32: 4, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bd = gpu.block_dim x
      %gd = gpu.grid_dim x
      %c4 = arith.constant 4 : index
      %c6 = arith.constant 6 : index
      %base = arith.muli %bid, %c4 : index
      %i = arith.addi %base, %tid : index
      %small = arith.cmpi ult, %i, %c4 : index
      %v = arith.select %small, %bd, %gd : index
      memref.store %v, %out[%i] : memref<8xindex>
      gpu.return
    }
    // MAXNTID-DAG: gpu-launch-known-size.mlir:[[@LINE+1]]:5: note: @kernels::@bounded states its block size here
    gpu.func @bounded(%out: memref<8xindex>) kernel attributes {nvvm.maxntid = array<i32: 8>} {
      %tid = gpu.thread_id x
      memref.store %tid, %out[%tid] : memref<8xindex>
      gpu.return
    }
  }

  func.func @match() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xindex>
    gpu.launch_func @kernels::@sizes blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<8xindex>)
    %u = memref.cast %out : memref<8xindex> to memref<*xindex>
    call @printMemrefInd(%u) : (memref<*xindex>) -> ()
    memref.dealloc %out : memref<8xindex>
    return
  }

  func.func @more_threads() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<16xindex>
    %o = memref.subview %out[0] [8] [1] : memref<16xindex> to memref<8xindex, strided<[1]>>
    %view = memref.cast %o : memref<8xindex, strided<[1]>> to memref<8xindex>
    // BLOCK-DAG: gpu-launch-known-size.mlir:[[@LINE+1]]:5: error: launch of @kernels::@sizes with block size 8 x 1 x 1, but the kernel states known_block_size = 4 x 1 x 1: it was compiled for that size (upstream lowering folds gpu.block_dim to it)
    gpu.launch_func @kernels::@sizes blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%view : memref<8xindex>)
    return
  }

  func.func @fewer_threads_y() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %out = memref.alloc() : memref<8xindex>
    // BLOCKY-DAG: gpu-launch-known-size.mlir:[[@LINE+1]]:5: error: launch of @kernels::@sizes with block size 2 x 2 x 1, but the kernel states known_block_size = 4 x 1 x 1
    gpu.launch_func @kernels::@sizes blocks in (%c2, %c1, %c1) threads in (%c2, %c2, %c1) args(%out : memref<8xindex>)
    return
  }

  func.func @other_grid() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<8xindex>
    // GRID-DAG: gpu-launch-known-size.mlir:[[@LINE+1]]:5: error: launch of @kernels::@sizes with grid size 1 x 1 x 1, but the kernel states known_grid_size = 2 x 1 x 1: it was compiled for that size (upstream lowering folds gpu.grid_dim to it)
    gpu.launch_func @kernels::@sizes blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<8xindex>)
    return
  }

  func.func @maxntid() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<8xindex>
    // MAXNTID-DAG: gpu-launch-known-size.mlir:[[@LINE+1]]:5: error: launch of @kernels::@bounded with block size 4 x 1 x 1, but the kernel states nvvm.maxntid = 8 x 1 x 1
    gpu.launch_func @kernels::@bounded blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<8xindex>)
    return
  }

  // The size is known only at run time: checked at the launch all the same.
  func.func @dynamic() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xindex>
    %c0 = arith.constant 0 : index
    %d = memref.dim %out, %c0 : memref<8xindex>
    %n0 = arith.divui %d, %c8 : index
    %n = arith.addi %n0, %c2 : index
    // DYNAMIC-DAG: gpu-launch-known-size.mlir:[[@LINE+1]]:5: error: launch of @kernels::@sizes with block size 3 x 1 x 1, but the kernel states known_block_size = 4 x 1 x 1
    gpu.launch_func @kernels::@sizes blocks in (%c2, %c1, %c1) threads in (%n, %c1, %c1) args(%out : memref<8xindex>)
    return
  }

  func.func private @printMemrefInd(memref<*xindex>)
}
