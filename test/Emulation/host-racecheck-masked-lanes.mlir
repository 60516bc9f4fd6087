// The host's watch of its copies' sources counts only the lanes a masked
// or indexed vector store writes (vector dialect: a masked-off lane leaves
// memory unchanged): the host copies src[0 .. 3] (bytes 0 .. 15) and,
// before the wait, stores 2.0 into src with one of these ops; %hit picks
// a mask (a run-time value) whose enabled lanes reach the copy's source,
// or one whose enabled lanes miss it while masked-off lanes cover it:
//   0 vector.maskedstore at src[2], 4 lanes: hit [f,t,t,t] (src[3], byte
//     12), miss [f,f,t,t] (src[4 .. 5]);
//   1 vector.scatter at src[0] to [1, 6]: hit [t,t] (src[1], byte 4),
//     miss [f,t] (src[6]);
//   2 vector.compressstore of 2 enabled lanes of 4, at src[3] (hit:
//     src[3 .. 4], byte 12) or src[4] (miss: src[4 .. 5]);
//   3 vector.transfer_write with a mask at src[2], 4 lanes: hit
//     [f,t,t,t] (byte 12), miss [f,f,t,t].
// A hit is a located error at the store, at the byte the enabled lane
// writes, in every completion mode; a miss prints what apipe-make-sync
// prints (dst, then src with the stored lanes).
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=misses | FileCheck %s --check-prefix=MISS
// RUN: apipe-run %s --entry=misses --completion=lazy,eager,random:5 | FileCheck %s --check-prefix=MISS
// MISS-COUNT-4: [7,  7,  7,  7]
// MISS-NOT: error
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=misses | FileCheck %s --check-prefix=MISS-SRC
// MISS-SRC: [7,  7,  7,  7,  2,  2,  7,  7]
// MISS-SRC: [7,  7,  7,  7,  7,  7,  2,  7]
// MISS-SRC: [7,  7,  7,  7,  2,  2,  7,  7]
// MISS-SRC: [7,  7,  7,  7,  2,  2,  7,  7]
// RUN: not apipe-run %s --entry=hit_maskedstore --completion=lazy,eager,random:5 2>&1 | FileCheck %s --check-prefix=HIT0
// RUN: not apipe-run %s --entry=hit_scatter --completion=lazy,eager,random:5 2>&1 | FileCheck %s --check-prefix=HIT1
// RUN: not apipe-run %s --entry=hit_compressstore --completion=lazy,eager,random:5 2>&1 | FileCheck %s --check-prefix=HIT2
// RUN: not apipe-run %s --entry=hit_transfer --completion=lazy,eager,random:5 2>&1 | FileCheck %s --check-prefix=HIT3
// HIT0-NOT: [7,
// HIT1-NOT: [7,
// HIT2-NOT: [7,
// HIT3-NOT: [7,

func.func private @printMemrefF32(memref<*xf32>)

func.func @run(%kind: index, %hit: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 7.0 : f32
  %src = memref.alloc() : memref<8xf32>
  %dst = memref.alloc() : memref<4xf32>
  linalg.fill ins(%f : f32) outs(%src : memref<8xf32>)
  apipe.copy %src[%c0], %dst[%c0], 4 : memref<8xf32> to memref<4xf32>
  apipe.commit_group
  %v4 = arith.constant dense<2.0> : vector<4xf32>
  %v2 = arith.constant dense<2.0> : vector<2xf32>
  %hit4 = arith.constant dense<[false, true, true, true]> : vector<4xi1>
  %miss4 = arith.constant dense<[false, false, true, true]> : vector<4xi1>
  %m4 = arith.select %hit, %hit4, %miss4 : vector<4xi1>
  scf.index_switch %kind
  case 0 {
    // HIT0-COUNT-3: host-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:5: error: the host writes global memory byte 12 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('vector.maskedstore' and 'apipe.copy')
    vector.maskedstore %src[%c2], %m4, %v4 : memref<8xf32>, vector<4xi1>, vector<4xf32>
    scf.yield
  }
  case 1 {
    %idx = arith.constant dense<[1, 6]> : vector<2xi32>
    %hit2 = arith.constant dense<[true, true]> : vector<2xi1>
    %miss2 = arith.constant dense<[false, true]> : vector<2xi1>
    %m2 = arith.select %hit, %hit2, %miss2 : vector<2xi1>
    // HIT1-COUNT-3: host-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:5: error: the host writes global memory byte 4 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('vector.scatter' and 'apipe.copy')
    vector.scatter %src[%c0][%idx], %m2, %v2 : memref<8xf32>, vector<2xi32>, vector<2xi1>, vector<2xf32>
    scf.yield
  }
  case 2 {
    %at = arith.select %hit, %c3, %c4 : index
    %m = arith.constant dense<[false, true, false, true]> : vector<4xi1>
    // HIT2-COUNT-3: host-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:5: error: the host writes global memory byte 12 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('vector.compressstore' and 'apipe.copy')
    vector.compressstore %src[%at], %m, %v4 : memref<8xf32>, vector<4xi1>, vector<4xf32>
    scf.yield
  }
  case 3 {
    // HIT3-COUNT-3: host-racecheck-masked-lanes.mlir:[[# @LINE + 1]]:5: error: the host writes global memory byte 12 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('vector.transfer_write' and 'apipe.copy')
    vector.transfer_write %v4, %src[%c2], %m4 {in_bounds = [true]} : vector<4xf32>, memref<8xf32>
    scf.yield
  }
  default {
  }
  apipe.wait_group 0
  %d = memref.cast %dst : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%d) : (memref<*xf32>) -> ()
  %s = memref.cast %src : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%s) : (memref<*xf32>) -> ()
  memref.dealloc %src : memref<8xf32>
  memref.dealloc %dst : memref<4xf32>
  return
}

func.func @misses() {
  %f = arith.constant false
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  call @run(%c0, %f) : (index, i1) -> ()
  call @run(%c1, %f) : (index, i1) -> ()
  call @run(%c2, %f) : (index, i1) -> ()
  call @run(%c3, %f) : (index, i1) -> ()
  return
}
func.func @hit_maskedstore() {
  %t = arith.constant true
  %k = arith.constant 0 : index
  call @run(%k, %t) : (index, i1) -> ()
  return
}
func.func @hit_scatter() {
  %t = arith.constant true
  %k = arith.constant 1 : index
  call @run(%k, %t) : (index, i1) -> ()
  return
}
func.func @hit_compressstore() {
  %t = arith.constant true
  %k = arith.constant 2 : index
  call @run(%k, %t) : (index, i1) -> ()
  return
}
func.func @hit_transfer() {
  %t = arith.constant true
  %k = arith.constant 3 : index
  call @run(%k, %t) : (index, i1) -> ()
  return
}
