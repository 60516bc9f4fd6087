// apipe-check-hazards on apipe-software-pipeline's output for an in-place
// update A[tile i] += 1 (A[4i .. 4i+3], or the tile two ahead): the kernel
// loop carries the tiles' offsets in a window of iter_args, and the
// epilogue stores at the loop's results. An offset carried so is followed
// as a function of the iteration, and a loop result at its trip count
// `ub - lb` where that is nonnegative (here: the epilogue runs only when
// the kernel loop's count is), so the stores are known to write tiles
// whose copies are complete. Silent for 2 and 3 stages; the output prints
// the synchronous program's values in every completion mode. The broken
// twins are in check-hazards-inplace-pipelined-invalid.mlir.
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=2 | apipe-opt --apipe-check-hazards | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 | apipe-opt --apipe-check-hazards | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 | apipe-run - --completion=lazy,eager,random:1,random:2,random:3 | grep -v -e Unranked -e "apipe-run: completion=" > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync5
// RUN: diff %t.sync5 %t.values
// CHECK-LABEL: func.func @inner
// CHECK-LABEL: func.func @inner_ahead
// VALUES: {{^}}[1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,
// VALUES-NEXT: {{^}}[0,  1,  2,  3,  4,  5,  6,  7,  1,  2,  3,  4,  5,  6,  7,  8,  2,  3,
// VALUES-NEXT: {{^}}[2,  3,  4,  5,  5,  6,  7,  8,  8,  9,  10,  11,  12,

func.func private @printMemrefF32(memref<*xf32>)

// Tile i in place, the copy of tile i read from the same tiles.
func.func @inner(%A: memref<256xf32>, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %T step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<256xf32> to memref<4xf32>
    scf.for %k = %c0 to %c4 step %c1 {
      %x = memref.load %buf[%k] : memref<4xf32>
      %y = arith.addf %x, %one : f32
      %o = arith.addi %off, %k : index
      memref.store %y, %A[%o] : memref<256xf32>
    }
  }
  return
}

// Tile i + 2 written from tile i (a dependence at distance 2, which 2 and
// 3 stages keep).
func.func @inner_ahead(%A: memref<256xf32>, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %T step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<256xf32> to memref<4xf32>
    scf.for %k = %c0 to %c4 step %c1 {
      %x = memref.load %buf[%k] : memref<4xf32>
      %y = arith.addf %x, %one : f32
      %o0 = arith.addi %off, %k : index
      %o = arith.addi %o0, %c8 : index
      memref.store %y, %A[%o] : memref<256xf32>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %A = memref.alloc() : memref<256xf32>
  %u = memref.cast %A : memref<256xf32> to memref<*xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  func.call @inner(%A, %c16) : (memref<256xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  func.call @inner_ahead(%A, %c16) : (memref<256xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  func.call @inner(%A, %c2) : (memref<256xf32>, index) -> ()
  func.call @inner(%A, %c1) : (memref<256xf32>, index) -> ()
  func.call @inner(%A, %c0) : (memref<256xf32>, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
