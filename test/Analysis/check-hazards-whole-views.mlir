// Ops that access a view as a whole, without indices (memref.copy,
// linalg.fill, linalg.copy), access only the elements of the root that the
// view covers, not the whole root (which was a false alarm on each of the
// silent functions below; software-pipeline-whole-views-run.mlir is the
// same on the pipeliner's own output).
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:

// The copy lands in bytes 0..16 of %buf; linalg.fill writes bytes 16..32.
func.func @fill_other_half(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %f9 = arith.constant 9.0 : f32
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  %hi = memref.subview %buf[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  linalg.fill ins(%f9 : f32) outs(%hi : memref<4xf32, strided<[1], offset: 4>>)
  %lo = memref.subview %buf[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  // CHECK: check-hazards-whole-views.mlir:[[# @LINE + 1]]:3: error: 'linalg.fill' op writes a buffer region that an async copy may still be writing (its destination): the copy may land after this write and erase it (write-after-write)
  linalg.fill ins(%f9 : f32) outs(%lo : memref<4xf32, strided<[1], offset: 2>>)
  apipe.wait_group 0
  return
}

// -----

// The copy reads %A[8..12]; memref.copy writes %A[0..4] and reads %buf[4..8].
func.func @copy_beside(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  %a0 = memref.subview %A[0] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1]>>
  %b4 = memref.subview %buf[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %b4, %a0 : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, strided<[1]>>
  apipe.wait_group 0
  return
}

// -----

// The same with the views one element too far: the copy's source and
// destination are met.
func.func @copy_over(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
  apipe.commit_group
  %a5 = memref.subview %A[5] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1], offset: 5>>
  %b3 = memref.subview %buf[3] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 3>>
  // (One hazard per pair of ops: the read of %buf[3..7] in flight.)
  // CHECK: check-hazards-whole-views.mlir:[[# @LINE + 1]]:3: error: 'memref.copy' op reads a buffer region that an async copy may still be writing (read-after-write)
  memref.copy %b3, %a5 : memref<4xf32, strided<[1], offset: 3>> to memref<4xf32, strided<[1], offset: 5>>
  apipe.wait_group 0
  return
}
