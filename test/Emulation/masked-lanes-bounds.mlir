// apipe-run checks that every set lane of a `vector.maskedload` /
// `maskedstore` is in bounds (vector dialect: a set lane out of bounds is
// undefined behaviour), at `base[indices]` moved by its lane number along
// the innermost dimension; masked-off lanes may lie past the end. A set
// lane past the end read the next element unreported (trial 63).
// RUN: not apipe-run %s --entry=load_past_end 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: ( 0, 0.5 )
// LOAD-NEXT: masked-lanes-bounds.mlir:40:8: error: 'vector.maskedload' out-of-bounds access
// RUN: not apipe-run %s --entry=store_past_row 2>&1 | FileCheck %s --check-prefix=STORE
// STORE: masked-lanes-bounds.mlir:54:3: error: 'vector.maskedstore' out-of-bounds access
// RUN: apipe-run %s --entry=store_in_bounds 2>&1 | FileCheck %s --check-prefix=FINE
// FINE: 1
// The same for `vector.gather` / `scatter` (lane `j` at the index vector's
// element `j`; trial 64: a lane a million elements past the end crashed
// apipe-run) and `vector.expandload` / `compressstore` (the set lanes
// packed from the base).
// RUN: not apipe-run %s --entry=gather_far 2>&1 | FileCheck %s --check-prefix=GATHER
// GATHER: error: 'vector.gather' out-of-bounds access
// RUN: not apipe-run %s --entry=scatter_negative 2>&1 | FileCheck %s --check-prefix=SCATTER
// SCATTER: error: 'vector.scatter' out-of-bounds access
// RUN: not apipe-run %s --entry=compress_past_end 2>&1 | FileCheck %s --check-prefix=COMPRESS
// COMPRESS: error: 'vector.compressstore' out-of-bounds access
// RUN: apipe-run %s --entry=gather_masked_off 2>&1 | FileCheck %s --check-prefix=OFF
// OFF: ( 0, 3 )
// RUN: apipe-run %s --entry=compress_fits 2>&1 | FileCheck %s --check-prefix=FITS
// FITS: 3

func.func @load_past_end() {
  %c3 = arith.constant 3 : index
  %b = memref.alloc() : memref<4xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%b : memref<4xf32>)
  %pt = arith.constant dense<0.5> : vector<2xf32>
  // Lane 1 (index 4) is off: fine.
  %m0 = arith.constant dense<[true, false]> : vector<2xi1>
  %v0 = vector.maskedload %b[%c3], %m0, %pt : memref<4xf32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
  vector.print %v0 : vector<2xf32>
  // Lane 1 is on.
  %m = arith.constant dense<[false, true]> : vector<2xi1>
  %v = vector.maskedload %b[%c3], %m, %pt : memref<4xf32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
  vector.print %v : vector<2xf32>
  return
}

// Row 0 of a 2x4 buffer, lanes 2..3 of a store at column 2 reach column
// 4: the next row in memory.
func.func @store_past_row() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b = memref.alloc() : memref<2x4xf32>
  %v = arith.constant dense<1.0> : vector<4xf32>
  %n = arith.constant 3 : index
  %m = vector.create_mask %n : vector<4xi1>
  vector.maskedstore %b[%c0, %c2], %m, %v : memref<2x4xf32>, vector<4xi1>, vector<4xf32>
  return
}

// The same store with two lanes set: columns 2..3.
func.func @store_in_bounds() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %b = memref.alloc() : memref<2x4xf32>
  %v = arith.constant dense<1.0> : vector<4xf32>
  %n = arith.constant 2 : index
  %m = vector.create_mask %n : vector<4xi1>
  vector.maskedstore %b[%c0, %c2], %m, %v : memref<2x4xf32>, vector<4xi1>, vector<4xf32>
  %x = memref.load %b[%c0, %c3] : memref<2x4xf32>
  vector.print %x : f32
  return
}

func.func @gather_far() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<8xf32>
  %pt = arith.constant dense<3.0> : vector<2xf32>
  %mask = arith.constant dense<true> : vector<2xi1>
  %idx = arith.constant dense<[0, 1000000]> : vector<2xi32>
  %v = vector.gather %m[%c0][%idx], %mask, %pt : memref<8xf32>, vector<2xi32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
  vector.print %v : vector<2xf32>
  return
}

// Lane 1 (far past the end) is off.
func.func @gather_masked_off() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<8xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%m : memref<8xf32>)
  %pt = arith.constant dense<3.0> : vector<2xf32>
  %mask = arith.constant dense<[true, false]> : vector<2xi1>
  %idx = arith.constant dense<[7, 1000000]> : vector<2xi32>
  %v = vector.gather %m[%c0][%idx], %mask, %pt : memref<8xf32>, vector<2xi32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
  vector.print %v : vector<2xf32>
  return
}

func.func @scatter_negative() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<8xf32>
  %v = arith.constant dense<3.0> : vector<2xf32>
  %mask = arith.constant dense<true> : vector<2xi1>
  %idx = arith.constant dense<[0, -1]> : vector<2xindex>
  vector.scatter %m[%c0][%idx], %mask, %v : memref<8xf32>, vector<2xindex>, vector<2xi1>, vector<2xf32>
  return
}

// Three set lanes from element 6: elements 6, 7 and 8.
func.func @compress_past_end() {
  %c6 = arith.constant 6 : index
  %m = memref.alloc() : memref<8xf32>
  %v = arith.constant dense<3.0> : vector<4xf32>
  %mask = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  vector.compressstore %m[%c6], %mask, %v : memref<8xf32>, vector<4xi1>, vector<4xf32>
  return
}

// From element 5: elements 5, 6 and 7.
func.func @compress_fits() {
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %m = memref.alloc() : memref<8xf32>
  %v = arith.constant dense<3.0> : vector<4xf32>
  %mask = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  vector.compressstore %m[%c5], %mask, %v : memref<8xf32>, vector<4xi1>, vector<4xf32>
  %x = memref.load %m[%c7] : memref<8xf32>
  vector.print %x : f32
  return
}
