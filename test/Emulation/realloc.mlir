// `memref.realloc` runs under apipe-run (it becomes alloc + copy + dealloc
// before the emulator's allocation checks): the old elements survive,
// static and dynamic sizes, growing and shrinking (a static shrinking
// realloc too, which upstream `expand-realloc` cannot expand). Freeing the
// old buffer after a realloc is a double free, located at the dealloc, with
// a note at the realloc that freed it. Errors inside a realloc name
// `memref.realloc` (not the alloc, copy or dealloc it becomes): a realloc of
// a freed buffer, of an alloca, of a buffer a pending copy uses, to a size
// whose bytes overflow.
//
// RUN: apipe-run %s --entry=shrink_static --completion=lazy,eager,random:2 | FileCheck %s --check-prefix=SHRINK
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=shrink_static | FileCheck %s --check-prefix=SHRINK
// SHRINK: [0,  1,  2]
// SHRINK-NOT: error
// RUN: not apipe-run %s --entry=of_freed 2>&1 | FileCheck %s --check-prefix=FREED
// FREED: realloc.mlir:[[# @LINE + 107]]:8: error: 'memref.realloc' uses a buffer that is already freed (use after free)
// FREED-NEXT: realloc.mlir:[[# @LINE + 104]]:8: note: the buffer was allocated here
// FREED-NEXT: realloc.mlir:[[# @LINE + 104]]:3: note: and freed here
// RUN: not apipe-run %s --entry=of_alloca 2>&1 | FileCheck %s --check-prefix=ALLOCA
// ALLOCA: realloc.mlir:[[# @LINE + 110]]:8: error: 'memref.realloc' of memory that no live 'memref.alloc' returned
// RUN: not apipe-run %s --entry=pending --completion=lazy 2>&1 | FileCheck %s --check-prefix=PENDING
// PENDING: realloc.mlir:[[# @LINE + 119]]:8: error: 'memref.realloc' frees a buffer that the pending 'apipe.copy' at
// RUN: not apipe-run %s --entry=huge 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: realloc.mlir:[[# @LINE + 127]]:8: error: 'memref.realloc' size in bytes overflows: the buffer would be more than 2^63 - 1 bytes
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

func.func @shrink_static() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    %x = arith.sitofp %v : i32 to f32
    memref.store %x, %a[%i] : memref<8xf32>
  }
  %b = memref.alloc() : memref<8xf32>
  apipe.copy %a[%c0], %b[%c0], 8 : memref<8xf32> to memref<8xf32>
  apipe.commit_group
  apipe.wait_group 0
  %s = memref.realloc %b : memref<8xf32> to memref<3xf32>
  %u = memref.cast %s : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %s : memref<3xf32>
  memref.dealloc %a : memref<8xf32>
  return
}

func.func @of_freed() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

func.func @of_alloca() {
  %a = memref.alloca() : memref<4xf32>
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

func.func @pending() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  apipe.copy %a[%c0], %d[%c0], 4 : memref<4xf32> to memref<4xf32>
  apipe.commit_group
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  apipe.wait_group 0
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %d : memref<4xf32>
  return
}

func.func @huge() {
  %n = arith.constant 4611686018427387904 : index
  %a = memref.alloc() : memref<4xf32>
  %b = memref.realloc %a(%n) : memref<4xf32> to memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
