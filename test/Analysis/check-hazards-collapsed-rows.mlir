// A copy of part of one row through a `memref.collapse_shape` view is that
// part of the row in the source buffer (trial 67: it was any position, a
// false read-after-write with the next row, on the apipe form and after
// apipe-import-nvgpu). A range that crosses a row is still any position.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %s --entry=main --completion=lazy,eager | FileCheck %s --check-prefix=VALUES
// VALUES-COUNT-2: ( 4, 8, 104, 4 )

// Row 0 of a 2x4 buffer, then element (1, 0): no hazard; element (0, 2):
// read-after-write.
func.func @two_rows(%A: memref<8xf32>, %S: memref<2x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %flat = memref.collapse_shape %S [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  apipe.copy %A[%c0], %flat[%c0], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  %next = memref.load %flat[%c4] : memref<8xf32>
  // CHECK: check-hazards-collapsed-rows.mlir:[[# @LINE + 1]]:9: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %in = memref.load %S[%c0, %c2] : memref<2x4xf32>
  apipe.wait_group 0
  %sum = arith.addf %next, %in : f32
  return %sum : f32
}

// Three collapsed dimensions (2x2x4): elements 1-3 of row %i (its part
// from column 1), then element 0 of the next row and element (0, 0, 0).
func.func @three_dims(%A: memref<16xf32>, %S: memref<2x2x4xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %flat = memref.collapse_shape %S [[0, 1, 2]] : memref<2x2x4xf32> into memref<16xf32>
  %row = arith.muli %i, %c4 : index
  %at = arith.addi %row, %c1 : index
  apipe.copy %A[%c0], %flat[%at], 3 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %n = arith.addi %row, %c4 : index
  %next = memref.load %flat[%n] : memref<16xf32>
  %own = memref.load %flat[%row] : memref<16xf32>
  apipe.wait_group 0
  %sum = arith.addf %next, %own : f32
  return %sum : f32
}

// Columns 2-5: across rows 0 and 1, any position.
func.func @across_rows(%A: memref<8xf32>, %S: memref<2x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %flat = memref.collapse_shape %S [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  apipe.copy %A[%c0], %flat[%c2], 4 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  // CHECK: check-hazards-collapsed-rows.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %S[%c1, %c1] : memref<2x4xf32>
  apipe.wait_group 0
  return %x : f32
}

// The shape of @three_dims with %i = 1, run: the copy writes elements
// 5-7 (row 1 from column 1) with 104-106; element 4 of the row, read
// while it is in flight, and element 8 of the next row keep their values.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %A = memref.alloc() : memref<16xf32>
  %S = memref.alloc() : memref<2x2x4xf32>
  %flat = memref.collapse_shape %S [[0, 1, 2]] : memref<2x2x4xf32> into memref<16xf32>
  scf.for %j = %c0 to %c16 step %c1 {
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %hundred = arith.constant 100.0 : f32
    %af = arith.addf %jf, %hundred : f32
    memref.store %af, %A[%j] : memref<16xf32>
    memref.store %jf, %flat[%j] : memref<16xf32>
  }
  %a = memref.load %flat[%c4] : memref<16xf32>
  %row = arith.muli %c1, %c4 : index
  %at = arith.addi %row, %c1 : index
  %b0 = memref.load %flat[%row] : memref<16xf32>
  apipe.copy %A[%c4], %flat[%at], 3 : memref<16xf32> to memref<16xf32>
  apipe.commit_group
  %n = arith.addi %row, %c4 : index
  %next = memref.load %flat[%n] : memref<16xf32>
  apipe.wait_group 0
  %b1 = memref.load %flat[%at] : memref<16xf32>
  %v0 = vector.broadcast %a : f32 to vector<4xf32>
  %v1 = vector.insert %next, %v0 [1] : f32 into vector<4xf32>
  %v2 = vector.insert %b1, %v1 [2] : f32 into vector<4xf32>
  %v3 = vector.insert %b0, %v2 [3] : f32 into vector<4xf32>
  vector.print %v3 : vector<4xf32>
  return
}
