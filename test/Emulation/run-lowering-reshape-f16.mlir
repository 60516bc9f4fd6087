// apipe-run's lowering and JIT on ops a fresh user's trial (22) found
// wrong or refused after the lowering became one convert-to-llvm and the
// JIT's code generation followed -O:
//   @reshape: `memref.reshape` with a shape read from memory (dynamic
//     result) and from a constant global: convert-to-llvm's memref
//     patterns leave the first, so finalize-memref-to-llvm runs on its own.
//   @half: vector<4xf16> arithmetic and i8 -> f16 conversion, at -O0 as at
//     -O3: the code is generated at -O2 whatever -O is (at -O0 the sum's
//     inf printed as -inf and sitofp 0 printed garbage).
// The values are mlir-runner's on the same program.
//
// RUN: apipe-run %s --entry=reshape 2>&1 | FileCheck %s --check-prefix=RESHAPE --implicit-check-not=error
// RUN: apipe-run %s --entry=half -O 0 2>&1 | FileCheck %s --check-prefix=HALF --implicit-check-not=error
// RUN: apipe-run %s --entry=half -O 3 2>&1 | FileCheck %s --check-prefix=HALF --implicit-check-not=error
// RESHAPE: {{^}}23{{$}}
// RESHAPE-NEXT: {{^}}13{{$}}
// HALF: ( 2, 5, -0.25, inf )
// HALF-NEXT: ( 127, -128, 1, 0 )

memref.global "private" constant @shape : memref<2xi32> = dense<[3, 8]>

func.func @reshape() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c24 = arith.constant 24 : index
  %m = memref.alloc() : memref<24xf32>
  scf.for %i = %c0 to %c24 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %m[%i] : memref<24xf32>
  }
  %dims = memref.alloca() : memref<2xindex>
  memref.store %c4, %dims[%c0] : memref<2xindex>
  memref.store %c6, %dims[%c1] : memref<2xindex>
  %dynamic = memref.reshape %m(%dims) : (memref<24xf32>, memref<2xindex>) -> memref<?x?xf32>
  %a = memref.load %dynamic[%c3, %c5] : memref<?x?xf32>
  vector.print %a : f32
  %global = memref.get_global @shape : memref<2xi32>
  %static = memref.reshape %m(%global) : (memref<24xf32>, memref<2xi32>) -> memref<3x8xf32>
  %b = memref.load %static[%c1, %c5] : memref<3x8xf32>
  vector.print %b : f32
  memref.dealloc %m : memref<24xf32>
  return
}

func.func @half() {
  %h = arith.constant dense<[1.0, 2.5, -0.125, 65504.0]> : vector<4xf16>
  %sum = arith.addf %h, %h : vector<4xf16>
  vector.print %sum : vector<4xf16>
  %bytes = arith.constant dense<[127, -128, 1, 0]> : vector<4xi8>
  %converted = arith.sitofp %bytes : vector<4xi8> to vector<4xf16>
  vector.print %converted : vector<4xf16>
  return
}
