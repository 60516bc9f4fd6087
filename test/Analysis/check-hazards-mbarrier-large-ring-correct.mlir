// apipe-check-hazards on correct loops over rings of many slots: the
// two-stage loop of check-hazards-mbarrier.mlir (@loop), slot `count & (K-1)`
// and parity `(count & K) != 0`, on K = 32 and K = 2^31. Both are silent
// and left unchanged (a fixed point of 24 rounds gave up on K = 32 before;
// its broken twins are in check-hazards-mbarrier-large-ring.mlir).
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards | FileCheck %s
// The ring of 32 runs to the values of the synchronous program:
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %s --entry=main32 --completion=lazy,eager,random:5 | FileCheck %s --check-prefix=VALUES
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main32 | FileCheck %s --check-prefix=VALUES
// VALUES: [1,  5,  9,  13,  17,  21,  25,  29,  33,  37,  41,  45,  49,  53,  57,  0]

// CHECK-LABEL: func.func @ring_of_32
// CHECK: apipe.mbarrier_wait
func.func @ring_of_32(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %cK = arith.constant 32 : index
  %cM = arith.constant 31 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<32xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<32xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<32xi64, 3>
  %r:2 = scf.for %i = %c0 to %c15 step %c1 iter_args(%prev = %c0, %count = %c1) -> (index, index) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %slot = arith.andi %count, %cM : index
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<32xi64, 3>
    %next = arith.addi %count, %c1 : index
    %ps = arith.andi %prev, %cM : index
    %pb = arith.andi %prev, %cK : index
    %parity = arith.cmpi ne, %pb, %c0 : index
    apipe.mbarrier_wait %ring[%ps], %parity : memref<32xi64, 3>
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %count, %next : index, index
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main32() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %out = memref.alloc() : memref<16xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<16xf32>)
  func.call @ring_of_32(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // %A is not freed: the last group (the copy of element 60) is still in
  // flight when @ring_of_32 returns, as in @loop.
  memref.dealloc %out : memref<16xf32>
  return
}

// -----

// CHECK-LABEL: func.func @ring_of_2_31
// CHECK: apipe.mbarrier_wait
func.func @ring_of_2_31(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c15 = arith.constant 15 : index
  %cK = arith.constant 2147483648 : index
  %cM = arith.constant 2147483647 : index
  %buf = memref.alloc() : memref<2x4xf32>
  %ring = memref.alloca() : memref<2147483648xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2147483648xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2147483648xi64, 3>
  %r:2 = scf.for %i = %c0 to %c15 step %c1 iter_args(%prev = %c0, %count = %c1) -> (index, index) {
    %n = arith.addi %i, %c1 : index
    %off = arith.muli %n, %c4 : index
    %v = arith.remui %n, %c2 : index
    apipe.copy %A[%off], %buf[%v, %c0], 4 : memref<64xf32> to memref<2x4xf32>
    %slot = arith.andi %count, %cM : index
    apipe.mbarrier_arrive_copies %ring[%slot] : memref<2147483648xi64, 3>
    %next = arith.addi %count, %c1 : index
    %ps = arith.andi %prev, %cM : index
    %pb = arith.andi %prev, %cK : index
    %parity = arith.cmpi ne, %pb, %c0 : index
    apipe.mbarrier_wait %ring[%ps], %parity : memref<2147483648xi64, 3>
    %u = arith.remui %i, %c2 : index
    %x = memref.load %buf[%u, %c1] : memref<2x4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    scf.yield %count, %next : index, index
  }
  return
}
