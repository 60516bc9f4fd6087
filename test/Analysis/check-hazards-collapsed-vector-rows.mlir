// A vector read of a row-major buffer through `memref.collapse_shape`
// stays in one row of the innermost dimension when its start lies `c`
// past a multiple of `g` (the gcd of the row length and the start's
// coefficients) with `c + lanes <= g`: `[4 tid, 4 tid + 4)` in rows of 128
// is in row `4 tid div 128` (trial 88: it was any position, a false
// read-after-write with the other slot's copy in flight, on correct
// hand-pipelined kernels). `[4 tid + 2, 4 tid + 6)` may cross into the
// next row, and a read of the slot in flight is reported.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: check-hazards-collapsed-vector-rows.mlir:85:10: error: 
// CHECK: check-hazards-collapsed-vector-rows.mlir:111:10: error: 
gpu.module @kernels {
  gpu.func @row_of_the_complete_slot(%A: memref<1024xf32>, %out: memref<32xf32>) workgroup(%buf: memref<2x128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %lane128 = arith.addi %lane, %c128 : index
    %lane2 = arith.addi %lane, %c2 : index
    %v0 = memref.subview %buf[%c0, 0] [1, 128] [1, 1] : memref<2x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.copy %A[%lane], %v0[%lane], 4 : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.barrier
    %v1 = memref.subview %buf[%c1, 0] [1, 128] [1, 1] : memref<2x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.copy %A[%lane], %v1[%lane], 4 : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.commit_group
    %fl = memref.collapse_shape %buf [[0, 1]] : memref<2x128xf32, 3> into memref<256xf32, 3>
    %x = vector.transfer_read %fl[%lane], %pad {in_bounds = [true]} : memref<256xf32, 3>, vector<4xf32>
    %r = vector.reduction <add>, %x : vector<4xf32> into f32
    apipe.wait_group 0
    memref.store %r, %out[%tid] : memref<32xf32>
    gpu.return
  }
  gpu.func @vector_load_of_the_complete_slot(%A: memref<1024xf32>, %out: memref<32xf32>) workgroup(%buf: memref<2x128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %lane128 = arith.addi %lane, %c128 : index
    %lane2 = arith.addi %lane, %c2 : index
    %v0 = memref.subview %buf[%c0, 0] [1, 128] [1, 1] : memref<2x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.copy %A[%lane], %v0[%lane], 4 : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.barrier
    %v1 = memref.subview %buf[%c1, 0] [1, 128] [1, 1] : memref<2x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.copy %A[%lane], %v1[%lane], 4 : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.commit_group
    %fl = memref.collapse_shape %buf [[0, 1]] : memref<2x128xf32, 3> into memref<256xf32, 3>
    %x = vector.load %fl[%lane] : memref<256xf32, 3>, vector<4xf32>
    %r = vector.reduction <add>, %x : vector<4xf32> into f32
    apipe.wait_group 0
    memref.store %r, %out[%tid] : memref<32xf32>
    gpu.return
  }
  gpu.func @row_of_the_slot_in_flight(%A: memref<1024xf32>, %out: memref<32xf32>) workgroup(%buf: memref<2x128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %lane128 = arith.addi %lane, %c128 : index
    %lane2 = arith.addi %lane, %c2 : index
    %v0 = memref.subview %buf[%c0, 0] [1, 128] [1, 1] : memref<2x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.copy %A[%lane], %v0[%lane], 4 : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.barrier
    %v1 = memref.subview %buf[%c1, 0] [1, 128] [1, 1] : memref<2x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.copy %A[%lane], %v1[%lane], 4 : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.commit_group
    %fl = memref.collapse_shape %buf [[0, 1]] : memref<2x128xf32, 3> into memref<256xf32, 3>
    %x = vector.transfer_read %fl[%lane128], %pad {in_bounds = [true]} : memref<256xf32, 3>, vector<4xf32>
    %r = vector.reduction <add>, %x : vector<4xf32> into f32
    apipe.wait_group 0
    memref.store %r, %out[%tid] : memref<32xf32>
    gpu.return
  }
  gpu.func @range_across_the_row_end(%A: memref<1024xf32>, %out: memref<32xf32>) workgroup(%buf: memref<2x128xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %pad = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %lane128 = arith.addi %lane, %c128 : index
    %lane2 = arith.addi %lane, %c2 : index
    %v0 = memref.subview %buf[%c0, 0] [1, 128] [1, 1] : memref<2x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.copy %A[%lane], %v0[%lane], 4 : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.barrier
    %v1 = memref.subview %buf[%c1, 0] [1, 128] [1, 1] : memref<2x128xf32, 3> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.copy %A[%lane], %v1[%lane], 4 : memref<1024xf32> to memref<128xf32, strided<[1], offset: ?>, 3>
    apipe.commit_group
    %fl = memref.collapse_shape %buf [[0, 1]] : memref<2x128xf32, 3> into memref<256xf32, 3>
    %x = vector.load %fl[%lane2] : memref<256xf32, 3>, vector<4xf32>
    %r = vector.reduction <add>, %x : vector<4xf32> into f32
    apipe.wait_group 0
    memref.store %r, %out[%tid] : memref<32xf32>
    gpu.return
  }
}
