// The broken twins of check-hazards-inplace-pipelined.mlir: the pipeliner's
// output for an in-place update with one store moved onto the tile whose
// copy is still in flight, reported at the store.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

// apipe-software-pipeline=num-stages=3 of an in-place update A[tile i] += 1,
// with the kernel loop's store at the offset of tile j + 1 (the iter_arg one
// iteration newer), whose copy is in flight.
func.func @loop_store_newer_tile(%arg0: memref<256xf32>, %arg1: index, %arg2: index) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %cst = arith.constant 1.000000e+00 : f32
  %alloc = memref.alloc() : memref<3x4xf32>
  %0 = arith.cmpi slt, %c0, %arg1 : index
  %1 = arith.subi %arg1, %c0 : index
  %2 = arith.ceildivui %1, %c1 : index
  %3 = arith.select %0, %2, %c0 : index
  %4 = arith.minui %3, %c2 : index
  scf.index_switch %4 
  case 0 {
    scf.yield
  }
  case 1 {
    %5 = arith.muli %c0, %c4 : index
    %subview = memref.subview %alloc[%c0, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %arg0[%5], %subview[%c0], 4 queue 0 : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group queue 0
    apipe.commit_group queue 0
    apipe.wait_group 1
    %subview_0 = memref.subview %alloc[%c0, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %6 = memref.load %subview_0[%arg3] : memref<4xf32, strided<[1], offset: ?>>
      %7 = arith.addf %6, %cst : f32
      %8 = arith.addi %5, %arg3 : index
      %9 = arith.addi %8, %c0 : index
      memref.store %7, %arg0[%9] : memref<256xf32>
    }
    apipe.commit_group queue 0
    scf.yield
  }
  default {
    %5 = arith.muli %c0, %c4 : index
    %subview = memref.subview %alloc[%c0, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %arg0[%5], %subview[%c0], 4 queue 0 : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group queue 0
    %6 = arith.muli %c1, %c4 : index
    %subview_0 = memref.subview %alloc[%c1, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %arg0[%6], %subview_0[%c0], 4 queue 0 : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group queue 0
    %7 = arith.subi %3, %c2 : index
    %8:2 = scf.for %arg3 = %c0 to %7 step %c1 iter_args(%arg4 = %6, %arg5 = %5) -> (index, index) {
      apipe.wait_group 1
      %13 = arith.remui %arg3, %c3 : index
      %subview_3 = memref.subview %alloc[%13, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      scf.for %arg6 = %c0 to %c4 step %c1 {
        %17 = memref.load %subview_3[%arg6] : memref<4xf32, strided<[1], offset: ?>>
        %18 = arith.addf %17, %cst : f32
        %19 = arith.addi %arg4, %arg6 : index
        %20 = arith.addi %19, %c0 : index
        // CHECK: check-hazards-inplace-pipelined-invalid.mlir:[[# @LINE + 1]]:9: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
        memref.store %18, %arg0[%20] : memref<256xf32>
      }
      %14 = arith.addi %arg3, %c2 : index
      %15 = arith.muli %14, %c4 : index
      %16 = arith.remui %14, %c3 : index
      %subview_4 = memref.subview %alloc[%16, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      apipe.copy %arg0[%15], %subview_4[%c0], 4 queue 0 : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
      apipe.commit_group queue 0
      scf.yield %15, %arg4 : index, index
    }
    apipe.wait_group 1
    %9 = arith.subi %3, %c2 : index
    %10 = arith.remui %9, %c3 : index
    %subview_1 = memref.subview %alloc[%10, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %13 = memref.load %subview_1[%arg3] : memref<4xf32, strided<[1], offset: ?>>
      %14 = arith.addf %13, %cst : f32
      %15 = arith.addi %8#1, %arg3 : index
      %16 = arith.addi %15, %c0 : index
      memref.store %14, %arg0[%16] : memref<256xf32>
    }
    apipe.commit_group queue 0
    apipe.wait_group 1
    %11 = arith.subi %3, %c1 : index
    %12 = arith.remui %11, %c3 : index
    %subview_2 = memref.subview %alloc[%12, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %13 = memref.load %subview_2[%arg3] : memref<4xf32, strided<[1], offset: ?>>
      %14 = arith.addf %13, %cst : f32
      %15 = arith.addi %8#0, %arg3 : index
      %16 = arith.addi %15, %c0 : index
      memref.store %14, %arg0[%16] : memref<256xf32>
    }
    apipe.commit_group queue 0
  }
  return
}

// -----

// The same, with the first epilogue store at the offset of the last tile (the
// loop's newer result), whose copy is still in flight.
func.func @epilogue_store_newer_tile(%arg0: memref<256xf32>, %arg1: index, %arg2: index) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %cst = arith.constant 1.000000e+00 : f32
  %alloc = memref.alloc() : memref<3x4xf32>
  %0 = arith.cmpi slt, %c0, %arg1 : index
  %1 = arith.subi %arg1, %c0 : index
  %2 = arith.ceildivui %1, %c1 : index
  %3 = arith.select %0, %2, %c0 : index
  %4 = arith.minui %3, %c2 : index
  scf.index_switch %4 
  case 0 {
    scf.yield
  }
  case 1 {
    %5 = arith.muli %c0, %c4 : index
    %subview = memref.subview %alloc[%c0, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %arg0[%5], %subview[%c0], 4 queue 0 : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group queue 0
    apipe.commit_group queue 0
    apipe.wait_group 1
    %subview_0 = memref.subview %alloc[%c0, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %6 = memref.load %subview_0[%arg3] : memref<4xf32, strided<[1], offset: ?>>
      %7 = arith.addf %6, %cst : f32
      %8 = arith.addi %5, %arg3 : index
      %9 = arith.addi %8, %c0 : index
      memref.store %7, %arg0[%9] : memref<256xf32>
    }
    apipe.commit_group queue 0
    scf.yield
  }
  default {
    %5 = arith.muli %c0, %c4 : index
    %subview = memref.subview %alloc[%c0, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %arg0[%5], %subview[%c0], 4 queue 0 : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group queue 0
    %6 = arith.muli %c1, %c4 : index
    %subview_0 = memref.subview %alloc[%c1, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.copy %arg0[%6], %subview_0[%c0], 4 queue 0 : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
    apipe.commit_group queue 0
    %7 = arith.subi %3, %c2 : index
    %8:2 = scf.for %arg3 = %c0 to %7 step %c1 iter_args(%arg4 = %6, %arg5 = %5) -> (index, index) {
      apipe.wait_group 1
      %13 = arith.remui %arg3, %c3 : index
      %subview_3 = memref.subview %alloc[%13, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      scf.for %arg6 = %c0 to %c4 step %c1 {
        %17 = memref.load %subview_3[%arg6] : memref<4xf32, strided<[1], offset: ?>>
        %18 = arith.addf %17, %cst : f32
        %19 = arith.addi %arg5, %arg6 : index
        %20 = arith.addi %19, %c0 : index
        memref.store %18, %arg0[%20] : memref<256xf32>
      }
      %14 = arith.addi %arg3, %c2 : index
      %15 = arith.muli %14, %c4 : index
      %16 = arith.remui %14, %c3 : index
      %subview_4 = memref.subview %alloc[%16, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      apipe.copy %arg0[%15], %subview_4[%c0], 4 queue 0 : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
      apipe.commit_group queue 0
      scf.yield %15, %arg4 : index, index
    }
    apipe.wait_group 1
    %9 = arith.subi %3, %c2 : index
    %10 = arith.remui %9, %c3 : index
    %subview_1 = memref.subview %alloc[%10, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %13 = memref.load %subview_1[%arg3] : memref<4xf32, strided<[1], offset: ?>>
      %14 = arith.addf %13, %cst : f32
      %15 = arith.addi %8#0, %arg3 : index
      %16 = arith.addi %15, %c0 : index
      // CHECK: check-hazards-inplace-pipelined-invalid.mlir:[[# @LINE + 1]]:7: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
      memref.store %14, %arg0[%16] : memref<256xf32>
    }
    apipe.commit_group queue 0
    apipe.wait_group 1
    %11 = arith.subi %3, %c1 : index
    %12 = arith.remui %11, %c3 : index
    %subview_2 = memref.subview %alloc[%12, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.for %arg3 = %c0 to %c4 step %c1 {
      %13 = memref.load %subview_2[%arg3] : memref<4xf32, strided<[1], offset: ?>>
      %14 = arith.addf %13, %cst : f32
      %15 = arith.addi %8#0, %arg3 : index
      %16 = arith.addi %15, %c0 : index
      memref.store %14, %arg0[%16] : memref<256xf32>
    }
    apipe.commit_group queue 0
  }
  return
}
