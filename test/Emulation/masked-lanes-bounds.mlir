// apipe-run checks that every set lane of a `vector.maskedload` /
// `maskedstore` is in bounds (vector dialect: a set lane out of bounds is
// undefined behaviour), at `base[indices]` moved by its lane number along
// the innermost dimension; masked-off lanes may lie past the end. A set
// lane past the end read the next element unreported (trial 63).
// RUN: not apipe-run %s --entry=load_past_end 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: ( 0, 0.5 )
// LOAD-NEXT: masked-lanes-bounds.mlir:26:8: error: 'vector.maskedload' out-of-bounds access
// RUN: not apipe-run %s --entry=store_past_row 2>&1 | FileCheck %s --check-prefix=STORE
// STORE: masked-lanes-bounds.mlir:40:3: error: 'vector.maskedstore' out-of-bounds access
// RUN: apipe-run %s --entry=store_in_bounds 2>&1 | FileCheck %s --check-prefix=FINE
// FINE: 1

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
