// A long function of many ordinary pipelined loops keeps the checker's
// precision: its work budget (against loop nests with huge trip counts) is
// per outermost loop nest, not per function. The pipeliner's output on 300
// tile streams in one function (about 9,600 ops) is hazard-free, and the
// checker says so; with one budget for the whole function it ran out after
// about 200 streams, widened, and reported false read-after-write errors.
// RUN: python3 %S/Inputs/tile_streams.py 300 > %t.mlir
// RUN: apipe-opt %t.mlir --apipe-software-pipeline --apipe-check-hazards | FileCheck %s
// The pipelined output: 300 loops, each with its prologue and epilogue.
// CHECK-LABEL: func.func @streams
// CHECK-COUNT-300: scf.for
// CHECK-NOT: scf.for
// A read of a copy before its wait, appended after the 300 loops, is still
// reported at its line:
// RUN: sed -e '$d' %t.mlir | sed -e '$d' > %t.broken.mlir
// RUN: echo '  %bt = memref.alloc() : memref<4xf32>' >> %t.broken.mlir
// RUN: echo '  apipe.copy %A[%c0], %bt[%c0], 4 : memref<64xf32> to memref<4xf32>' >> %t.broken.mlir
// RUN: echo '  %g = apipe.commit_group' >> %t.broken.mlir
// RUN: echo '  %bx = memref.load %bt[%c1] : memref<4xf32>' >> %t.broken.mlir
// RUN: echo '  apipe.wait %g' >> %t.broken.mlir
// RUN: echo '  memref.store %bx, %out[%c0] : memref<16xf32>' >> %t.broken.mlir
// RUN: echo '  return' >> %t.broken.mlir
// RUN: echo '}' >> %t.broken.mlir
// RUN: not apipe-opt %t.broken.mlir --apipe-software-pipeline --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: check-hazards-long-function.mlir.tmp.broken.mlir:2109:9: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// BROKEN-NOT: error:
