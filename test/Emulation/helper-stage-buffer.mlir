// A helper that picks a buffer under a condition on its arguments: the
// call's result is each buffer under the condition mapped to the caller
// (an `i1` argument is the call's operand's truth, an index argument the
// operand's form). The double buffer below picks its stage buffer by the
// parity of the iteration through a helper: the checker is silent, and
// every completion mode prints what make-sync prints (the conditions were
// dropped: both buffers were possible, two false errors). With `pending =
// 2` the read's group may still be in flight, and the next copy may land
// on the previous one into the same buffer: two errors, and the emulator
// reports the read.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=SYNC
// RUN: sed 's/apipe.wait_group 1/apipe.wait_group 2/' %s > %t.mlir
// RUN: not apipe-opt %t.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not apipe-run %t.mlir --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// CHECK: completion=lazy
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29]
// CHECK: completion=eager
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29]
// CHECK: completion=random:1
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29]
// CHECK: completion=random:2
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29]
// CHECK: completion=random:3
// CHECK: [1,  5,  9,  13,  17,  21,  25,  29]
// SYNC: [1,  5,  9,  13,  17,  21,  25,  29]
// BROKEN-NOT: error
// BROKEN: .mlir:59:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// BROKEN-NOT: error
// BROKEN: .mlir:63:10: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// BROKEN-NOT: error
// RACE: error
func.func private @printMemrefF32(memref<*xf32>)
func.func private @stage_buffer(%i: index, %m: memref<4xf32>, %n: memref<4xf32>) -> memref<4xf32> {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %r = arith.remui %i, %c2 : index
  %z = arith.cmpi eq, %r, %c0 : index
  %s = arith.select %z, %m, %n : memref<4xf32>
  return %s : memref<4xf32>
}
func.func @kernel(%G: memref<32xf32>, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<4xf32>
  %B = memref.alloc() : memref<4xf32>
  apipe.copy %G[%c0], %A[%c0], 4 : memref<32xf32> to memref<4xf32>
  apipe.commit_group
  scf.for %i = %c0 to %c8 step %c1 {
    %cur = func.call @stage_buffer(%i, %A, %B) : (index, memref<4xf32>, memref<4xf32>) -> memref<4xf32>
    %n = arith.addi %i, %c1 : index
    %more = arith.cmpi slt, %n, %c8 : index
    scf.if %more {
      %nxt = func.call @stage_buffer(%n, %A, %B) : (index, memref<4xf32>, memref<4xf32>) -> memref<4xf32>
      %off = arith.muli %n, %c4 : index
      apipe.copy %G[%off], %nxt[%c0], 4 : memref<32xf32> to memref<4xf32>
    }
    apipe.commit_group
    apipe.wait_group 1
    %x = memref.load %cur[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<8xf32>
  }
  apipe.wait_group 0
  memref.dealloc %A : memref<4xf32>
  memref.dealloc %B : memref<4xf32>
  return
}
func.func @main() {
  %G = memref.alloc() : memref<32xf32>
  %out = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %G[%i] : memref<32xf32>
  }
  func.call @kernel(%G, %out) : (memref<32xf32>, memref<8xf32>) -> ()
  %o = memref.cast %out : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%o) : (memref<*xf32>) -> ()
  return
}
