// `memref.realloc` runs under apipe-run (upstream `expand-realloc` turns it
// into alloc + copy + dealloc before the emulator's allocation checks): the
// old elements survive, static and dynamic sizes, growing and shrinking.
// Freeing the old buffer after a realloc is a double free, located at the
// dealloc, with a note at the realloc that freed it.
//
// RUN: apipe-run %s --entry=grow --completion=lazy,eager,random:5 | FileCheck %s --check-prefix=GROW
// GROW-COUNT-3: [0,  1,  2,  3,  1.5,  1.5,  1.5,  1.5]
// GROW-NOT: error
// RUN: apipe-run %s --entry=dynamic | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: [0,  1,  2]
// DYNAMIC: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9]
// DYNAMIC-NOT: error
// RUN: not apipe-run %s --entry=free_old 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: realloc.mlir:[[# @LINE + 60]]:3: error: 'memref.dealloc' of a buffer that is already freed (double free)
// OLD-NEXT: realloc.mlir:[[# @LINE + 56]]:8: note: the buffer was allocated here
// OLD-NEXT: realloc.mlir:[[# @LINE + 56]]:8: note: and freed here
// OLD-NOT: {{.}}

func.func private @printMemrefF32(memref<*xf32>)

func.func @grow() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.5 : f32
  %a = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = arith.index_cast %i : index to i32
    %x = arith.sitofp %v : i32 to f32
    memref.store %x, %a[%i] : memref<4xf32>
  }
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  scf.for %i = %c4 to %c8 step %c1 {
    memref.store %f, %b[%i] : memref<8xf32>
  }
  %u = memref.cast %b : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %b : memref<8xf32>
  return
}

func.func @dynamic() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %a = memref.alloc(%c10) : memref<?xf32>
  scf.for %i = %c0 to %c10 step %c1 {
    %v = arith.index_cast %i : index to i32
    %x = arith.sitofp %v : i32 to f32
    memref.store %x, %a[%i] : memref<?xf32>
  }
  // Shrinks to 3 elements, then grows back to 10 and refills the tail.
  %s = memref.realloc %a(%c3) : memref<?xf32> to memref<?xf32>
  %us = memref.cast %s : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%us) : (memref<*xf32>) -> ()
  %g = memref.realloc %s(%c10) : memref<?xf32> to memref<?xf32>
  scf.for %i = %c3 to %c10 step %c1 {
    %v = arith.index_cast %i : index to i32
    %x = arith.sitofp %v : i32 to f32
    memref.store %x, %g[%i] : memref<?xf32>
  }
  %ug = memref.cast %g : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%ug) : (memref<*xf32>) -> ()
  memref.dealloc %g : memref<?xf32>
  return
}

func.func @free_old() {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
