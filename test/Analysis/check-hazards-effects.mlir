// apipe-check-hazards learns what non-apipe ops read and write from MLIR's
// MemoryEffectOpInterface (effects on DefaultResource), follows views
// through ViewLikeOpInterface and enters regions of ops with
// HasRecursiveMemoryEffects. One case per path, each with a twin that must
// stay clean (the access is narrowed to its indices, the view to its offset,
// or a wait completes the copy). This file is in the plugin suite
// (test/plugin): there the interfaces are asked inside upstream mlir-opt,
// from the plugin's C++, of ops that libMLIR.so registered.
// Every diagnostic is checked with its line and column, in order, and no
// other error may appear (the twins stay clean).
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s

// A read of the destination before the wait: memref.load's Read effect.
// CHECK: check-hazards-effects.mlir:[[# @LINE + 8]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NEXT: %x = memref.load %buf[%c0] : memref<4xf32, 3>
// CHECK: check-hazards-effects.mlir:[[# @LINE + 4]]:3: note: the async copy still in flight; 0 newer group(s) committed on queue 0 since its group
// CHECK: check-hazards-effects.mlir:[[# @LINE + 3]]:3: note: no wait on queue 0 follows this copy before the access on this path
func.func @load_before_wait(%A: memref<64xf32>, %buf: memref<4xf32, 3>) -> f32 {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  apipe.wait_group 0
  return %x : f32
}

// -----

// The twin: the load after the wait.
func.func @load_after_wait(%A: memref<64xf32>, %buf: memref<4xf32, 3>) -> f32 {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x : f32
}

// -----

// A write of the source inside the copied elements (A[2] of A[0..4)) before
// the wait: memref.store's Write effect.
// CHECK: check-hazards-effects.mlir:[[# @LINE + 9]]:3: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// CHECK-NEXT: memref.store %v, %A[%c2] : memref<64xf32>
// CHECK: check-hazards-effects.mlir:[[# @LINE + 5]]:3: note: the async copy still in flight; 0 newer group(s) committed on queue 0 since its group
// CHECK: check-hazards-effects.mlir:[[# @LINE + 4]]:3: note: no wait on queue 0 follows this copy before the access on this path
func.func @store_to_source_before_wait(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  memref.store %v, %A[%c2] : memref<64xf32>
  apipe.wait_group 0
  return
}

// -----

// The twin: A[4] is outside the copied elements.
func.func @store_beside_source(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  memref.store %v, %A[%c4] : memref<64xf32>
  apipe.wait_group 0
  return
}

// -----

// A write of the destination before the wait.
// CHECK: check-hazards-effects.mlir:[[# @LINE + 9]]:3: error: 'memref.store' op writes a buffer region that an async copy may still be writing (its destination): the copy may land after this write and erase it (write-after-write)
// CHECK-NEXT: memref.store %v, %buf[%c3] : memref<4xf32, 3>
// CHECK: check-hazards-effects.mlir:[[# @LINE + 5]]:3: note: the async copy still in flight; 0 newer group(s) committed on queue 0 since its group
// CHECK: check-hazards-effects.mlir:[[# @LINE + 4]]:3: note: no wait on queue 0 follows this copy before the access on this path
func.func @store_to_destination_before_wait(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  memref.store %v, %buf[%c3] : memref<4xf32, 3>
  apipe.wait_group 0
  return
}

// -----

// A vector.load of a subview of the row the copy writes: the view is
// followed to %buf at offset 4.
// CHECK: check-hazards-effects.mlir:[[# @LINE + 10]]:8: error: 'vector.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NEXT: %x = vector.load %row[%c0]
// CHECK: check-hazards-effects.mlir:[[# @LINE + 5]]:3: note: the async copy still in flight; 0 newer group(s) committed on queue 0 since its group
// CHECK: check-hazards-effects.mlir:[[# @LINE + 4]]:3: note: no wait on queue 0 follows this copy before the access on this path
func.func @vector_load_of_subview(%A: memref<64xf32>, %buf: memref<2x4xf32, 3>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group
  %row = memref.subview %buf[1, 0] [1, 4] [1, 1] : memref<2x4xf32, 3> to memref<4xf32, strided<[1], offset: 4>, 3>
  %x = vector.load %row[%c0] : memref<4xf32, strided<[1], offset: 4>, 3>, vector<4xf32>
  apipe.wait_group 0
  return %x : vector<4xf32>
}

// -----

// The twin: a subview of the other row.
func.func @vector_load_of_other_row(%A: memref<64xf32>, %buf: memref<2x4xf32, 3>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group
  %row = memref.subview %buf[0, 0] [1, 4] [1, 1] : memref<2x4xf32, 3> to memref<4xf32, strided<[1]>, 3>
  %x = vector.load %row[%c0] : memref<4xf32, strided<[1]>, 3>, vector<4xf32>
  apipe.wait_group 0
  return %x : vector<4xf32>
}

// -----

// A read inside scf.if (HasRecursiveMemoryEffects: its region's ops are
// visited).
// CHECK: check-hazards-effects.mlir:[[# @LINE + 10]]:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// CHECK-NEXT: %l = memref.load %buf[%c0] : memref<4xf32, 3>
// CHECK: check-hazards-effects.mlir:[[# @LINE + 5]]:3: note: the async copy still in flight; 0 newer group(s) committed on queue 0 since its group
// CHECK: check-hazards-effects.mlir:[[# @LINE + 4]]:3: note: no wait on queue 0 follows this copy before the access on this path
func.func @load_in_scf_if(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %p: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  %x = scf.if %p -> f32 {
    %l = memref.load %buf[%c0] : memref<4xf32, 3>
    scf.yield %l : f32
  } else {
    scf.yield %zero : f32
  }
  apipe.wait_group 0
  return %x : f32
}

// CHECK-NOT: error:
