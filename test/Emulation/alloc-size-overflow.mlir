// A `memref.alloc` whose size in bytes does not fit in an i64 (static
// extents, dynamic sizes whose product overflows, or a product that wraps
// to a small number such as 0), or that has a negative dynamic size, is a
// located error and exit 1 before `malloc` runs: the size computation must
// not wrap to a small buffer that the program then overruns. Sizes that fit
// allocate as before (@fits, in every completion mode, like its
// apipe-make-sync version).
//
// RUN: not apipe-run %s --entry=static_elements 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: alloc-size-overflow.mlir:[[# @LINE + 21]]:8: error: 'memref.alloc' size in bytes overflows: the buffer would be more than 2^63 - 1 bytes
// STATIC-NOT: {{.}}
// RUN: not apipe-run %s --entry=dynamic_product --completion=eager 2>&1 | FileCheck %s --check-prefix=PRODUCT
// PRODUCT: alloc-size-overflow.mlir:[[# @LINE + 29]]:8: error: 'memref.alloc' size in bytes overflows: the buffer would be more than 2^63 - 1 bytes
// PRODUCT-NOT: {{.}}
// RUN: not apipe-run %s --entry=wraps_to_zero --completion=random:3 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: alloc-size-overflow.mlir:[[# @LINE + 36]]:8: error: 'memref.alloc' size in bytes overflows: the buffer would be more than 2^63 - 1 bytes
// ZERO-NOT: {{.}}
// RUN: not apipe-run %s --entry=mixed 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: alloc-size-overflow.mlir:[[# @LINE + 42]]:8: error: 'memref.alloc' size in bytes overflows: the buffer would be more than 2^63 - 1 bytes
// RUN: not apipe-run %s --entry=negative 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: alloc-size-overflow.mlir:[[# @LINE + 46]]:8: error: 'memref.alloc' of a negative size
// NEGATIVE-NOT: {{.}}
// RUN: apipe-run %s --entry=fits --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=FITS
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=fits | FileCheck %s --check-prefix=FITS
// FITS: 1.5
// FITS-NOT: error

// 2^62 f32: 2^64 bytes.
func.func @static_elements() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4611686018427387904xf32>
  %x = memref.load %a[%c0] : memref<4611686018427387904xf32>
  vector.print %x : f32
  return
}

// 2^32 x 2^30 f32: 2^64 bytes.
func.func @dynamic_product() {
  %c0 = arith.constant 0 : index
  %n = arith.constant 4294967296 : index
  %m = arith.constant 1073741824 : index
  %a = memref.alloc(%n, %m) : memref<?x?xf32>
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0, %c0] : memref<?x?xf32>
  return
}

// 2^62 f32 wrap to 0 bytes in 64 bits.
func.func @wraps_to_zero() {
  %c0 = arith.constant 0 : index
  %n = arith.constant 4611686018427387904 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0] : memref<?xf32>
  return
}

// 2^61 x 8 x f64 (the static 8 with the element size).
func.func @mixed() {
  %n = arith.constant 2305843009213693952 : index
  %a = memref.alloc(%n) : memref<?x8xf64>
  return
}

func.func @negative() {
  %n = arith.constant -4 : index
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

func.func @fits() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3 : index
  %a = memref.alloc(%n) : memref<?x2xf32>
  %b = memref.alloc(%n) : memref<?x2xf32>
  %f = arith.constant 1.5 : f32
  memref.store %f, %a[%c1, %c1] : memref<?x2xf32>
  apipe.copy %a[%c1, %c0], %b[%c0, %c0], 2 : memref<?x2xf32> to memref<?x2xf32>
  apipe.commit_group
  apipe.wait_group 0
  %x = memref.load %b[%c0, %c1] : memref<?x2xf32>
  vector.print %x : f32
  memref.dealloc %a : memref<?x2xf32>
  memref.dealloc %b : memref<?x2xf32>
  return
}
