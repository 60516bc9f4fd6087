// Once something has been freed, each checked access looks its buffer up
// in the run's heap table, except that a thread remembers the buffers it
// found live since the last free anywhere in the process: a free makes
// that memory stale, so a buffer freed after it was found live is still
// caught at its next use, and the others still run. The functions
// receive their memrefs as arguments (unknown provenance: every access is
// checked).
// RUN: not apipe-run %s --completion=lazy,eager 2>&1 | FileCheck %s
// CHECK: // apipe-run: completion=lazy
// CHECK-NEXT: 4
// CHECK-NEXT: 8
// CHECK-NEXT: 8
// CHECK-NEXT: use-after-free-cache.mlir:[[# @LINE + 29]]:8: error: 'memref.load' uses a buffer that is already freed (use after free)
// CHECK-NEXT: use-after-free-cache.mlir:[[# @LINE + 38]]:8: note: the buffer was allocated here
// CHECK-NEXT: use-after-free-cache.mlir:[[# @LINE + 24]]:3: note: and freed here
// CHECK-NEXT: // apipe-run: completion=eager
// CHECK-NEXT: 4

// Adds 1 to each element of %B, 4 times; prints %B[0].
func.func @touch(%B: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    %j = arith.remui %i, %c4 : index
    %x = memref.load %B[%j] : memref<4xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %B[%j] : memref<4xf32>
  }
  %x = memref.load %B[%c0] : memref<4xf32>
  vector.print %x : f32
  return
}

func.func @free_then_use(%B: memref<4xf32>, %C: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  memref.dealloc %B : memref<4xf32>
  %y = memref.load %C[%c0] : memref<4xf32>
  vector.print %y : f32
  %x = memref.load %B[%c0] : memref<4xf32>
  vector.print %x : f32
  return
}

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %X = memref.alloc() : memref<4xf32>
  memref.dealloc %X : memref<4xf32>
  %B = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%B : memref<4xf32>)
  %C = memref.alloc() : memref<4xf32>
  linalg.fill ins(%four : f32) outs(%C : memref<4xf32>)
  // %B and %C are found live (and remembered) in @touch.
  call @touch(%B) : (memref<4xf32>) -> ()
  call @touch(%C) : (memref<4xf32>) -> ()
  call @free_then_use(%B, %C) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}
