// Several pipelined loops in one block: each reuses the index constants
// before it in the block, including those an earlier loop's pipelining
// made, and the block is scanned once for all of them (not once per loop).
// Loops whose neighbours the pipeliner erases (the buffer's alloc before,
// its dealloc after), a loop that never runs, and a dynamic trip count.
// RUN: apipe-opt %s --apipe-software-pipeline | FileCheck %s --check-prefix=IR
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-opt --apipe-check-hazards -o /dev/null
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=random:2 | FileCheck %s

// One constant per value in the function, except the input's own `2`
// (defined after the first loop, which made one before it) and those
// defined between loops, each where the input has it.
// IR-LABEL: func.func @three_loops
// IR-COUNT-9: arith.constant {{[0-9]+}} : index
// IR-NOT: arith.constant
// IR: scf.for
// IR-NOT: memref.alloc() : memref<4xf32>
// IR: %[[C2:.*]] = arith.constant 2 : index
// IR-NEXT: arith.constant 8 : index
// IR-NOT: arith.constant
// IR: arith.constant 24 : index
// IR-NOT: arith.constant
// IR: scf.for
// IR-NOT: arith.constant
// IR: return

func.func private @printMemrefF32(memref<*xf32>)

func.func @three_loops(%A: memref<64xf32> {llvm.noalias}, %out: memref<48xf32> {llvm.noalias}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 2 : i64} : memref<48xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %buf2 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %off = arith.muli %i, %c8 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf2[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf2[%c2] {apipe.stage = 1 : i64} : memref<4xf32>
    %j = arith.addi %i, %c16 {apipe.stage = 1 : i64} : index
    memref.store %x, %out[%j] {apipe.stage = 1 : i64} : memref<48xf32>
  } {apipe.async_stages = array<i64: 0>}
  %buf3 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c0 step %c1 {
    apipe.copy %A[%c0], %buf3[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf3[%c2] {apipe.stage = 1 : i64} : memref<4xf32>
    memref.store %x, %out[%i] {apipe.stage = 1 : i64} : memref<48xf32>
  } {apipe.async_stages = array<i64: 0>}
  %c24 = arith.constant 24 : index
  %buf4 = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c2 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf4[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf4[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    %j = arith.addi %i, %c24 {apipe.stage = 2 : i64} : index
    memref.store %x, %out[%j] {apipe.stage = 2 : i64} : memref<48xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf4 : memref<4xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %m1 = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<48xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c48 step %c1 {
    memref.store %m1, %out[%i] : memref<48xf32>
  }
  // out[i] = A[4i + 1] (16), out[16 + i] = A[8i + 2] (8), out[24 + i] =
  // A[2i + 1] (5), the rest untouched.
  // CHECK: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  61,  2,  10,  18,  26,  34,  42,  50,  58,  1,  3,  5,  7,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @three_loops(%A, %out, %c5) : (memref<64xf32>, memref<48xf32>, index) -> ()
  %u = memref.cast %out : memref<48xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
