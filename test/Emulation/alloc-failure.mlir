// A `memref.alloc` that the process cannot get (malloc returns null) is a
// located error and exit 1 before the program touches the buffer, never a
// fault or an abort in the runtime (a copy from a null buffer).
//
// RUN: not apipe-run %s --entry=static_size 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: alloc-failure.mlir:[[# @LINE + 13]]:8: error: 'memref.alloc' failed: out of memory
// STATIC-NOT: {{.}}
// RUN: not apipe-run %s --entry=dynamic_size --completion=random:0 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: alloc-failure.mlir:[[# @LINE + 21]]:8: error: 'memref.alloc' failed: out of memory
// DYNAMIC-NOT: {{.}}
// RUN: apipe-run %s --entry=small | FileCheck %s --check-prefix=SMALL
// SMALL: 7

func.func private @printI64(i64)

// 2^62 bytes.
func.func @static_size() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<1152921504606846976xf32>
  %b = memref.alloc() : memref<4xf32>
  apipe.copy %a[%c0], %b[%c0], 4 : memref<1152921504606846976xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 0
  return
}

func.func @dynamic_size() {
  %c0 = arith.constant 0 : index
  %n = arith.constant 4611686018427387904 : index
  %a = memref.alloc(%n) : memref<?xi8>
  %b = memref.alloc() : memref<4xi8>
  apipe.copy %a[%c0], %b[%c0], 4 : memref<?xi8> to memref<4xi8>
  apipe.commit_group
  apipe.wait_group 0
  return
}

func.func @small() {
  %c0 = arith.constant 0 : index
  %v = arith.constant 7 : i64
  %a = memref.alloc() : memref<4xi64>
  memref.store %v, %a[%c0] : memref<4xi64>
  %r = memref.load %a[%c0] : memref<4xi64>
  func.call @printI64(%r) : (i64) -> ()
  memref.dealloc %a : memref<4xi64>
  return
}
