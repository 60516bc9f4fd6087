// The race checker on global memory across blocks: a plain write of one
// block and an atomic update (memref.atomic_rmw, memref.generic_atomic_rmw)
// of another block to the same bytes are a race (the final value depends
// on the order of the blocks, which is unspecified; an atomic is atomic
// only with respect to other atomics), reported at the plain write with a
// note at the atomic, whatever the block order (--jobs) and thread order;
// exit 1. Two atomics never race, and disjoint bytes are no race: those
// print what apipe-make-sync prints. (Two plain writes:
// gpu-racecheck-effects.mlir and gpu-broken-kernels.mlir.)
//
// @k: 2 blocks of 2 threads; thread 0 of block 0 does %first on m[0],
// thread 0 of block 1 does %second on m[%at] (a plain store of 5, an
// atomic_rmw addi 1, or a generic_atomic_rmw adding 1):
// RUN: not apipe-run %s --entry=atomic_then_plain --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not apipe-run %s --entry=atomic_then_plain --jobs=2 2>&1 | FileCheck %s --check-prefix=MIXED1
// RUN: not apipe-run %s --entry=plain_then_atomic --completion=lazy,eager --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=MIXED2
// RUN: not apipe-run %s --entry=generic_then_plain --completion=lazy --schedule=forward 2>&1 | FileCheck %s --check-prefix=GENERIC
// MIXED-NOT: [
// MIXED1-NOT: [
// MIXED2-NOT: [
// GENERIC-NOT: [
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=clean 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: apipe-opt %s --apipe-make-sync > %t.sync.mlir
// RUN: apipe-run %t.sync.mlir --entry=clean --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v base@ > %t.sync.out
// RUN: apipe-run %s --entry=clean --completion=lazy,eager,random:1 --schedule=forward,reverse --jobs=2 2>&1 | grep -v base@ > %t.out
// RUN: diff %t.sync.out %t.out
// RUN: FileCheck %s --check-prefix=CLEAN6 < %t.out
// CLEAN: [2,  0,  0,  0]
// CLEAN: [1,  5,  0,  0]
// CLEAN: [2,  0,  0,  0]
// CLEAN-NOT: error
// CLEAN6-COUNT-6: [2,  0,  0,  0]
// CLEAN6-NOT: error

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // kind: 0 plain store of 5, 1 atomic_rmw addi 1, 2 generic_atomic_rmw + 1.
    func.func @write(%m: memref<4xi32>, %at: index, %kind: index) {
      %one = arith.constant 1 : i32
      %five = arith.constant 5 : i32
      scf.index_switch %kind
      case 0 {
        // MIXED-COUNT-6: gpu-racecheck-global-atomic.mlir:[[# @LINE + 4]]:9: error: race (WAW) on global memory at address {{0x[0-9a-f]+}}: thread (0,0,0) of block (1,0,0) writes the bytes that thread (0,0,0) of block (0,0,0) atomically updates (an atomic update is atomic only with respect to other atomics; the order of blocks is unspecified)
        // MIXED1: gpu-racecheck-global-atomic.mlir:[[# @LINE + 3]]:9: error: race (WAW) on global memory at address {{0x[0-9a-f]+}}: thread (0,0,0) of block (1,0,0) writes the bytes that thread (0,0,0) of block (0,0,0) atomically updates
        // MIXED2-COUNT-4: gpu-racecheck-global-atomic.mlir:[[# @LINE + 2]]:9: error: race (WAW) on global memory at address {{0x[0-9a-f]+}}: thread (0,0,0) of block (0,0,0) writes the bytes that thread (0,0,0) of block (1,0,0) atomically updates
        // GENERIC: gpu-racecheck-global-atomic.mlir:[[# @LINE + 1]]:9: error: race (WAW) on global memory at address {{0x[0-9a-f]+}}: thread (0,0,0) of block (1,0,0) writes the bytes that thread (0,0,0) of block (0,0,0) atomically updates
        memref.store %five, %m[%at] : memref<4xi32>
        scf.yield
      }
      case 1 {
        // MIXED: gpu-racecheck-global-atomic.mlir:[[# @LINE + 1]]:14: note: the atomic update, by thread (0,0,0) of block (0,0,0)
        %r = memref.atomic_rmw addi %one, %m[%at] : (i32, memref<4xi32>) -> i32
        scf.yield
      }
      default {
        // GENERIC: gpu-racecheck-global-atomic.mlir:[[# @LINE + 1]]:14: note: the atomic update, by thread (0,0,0) of block (0,0,0)
        %r = memref.generic_atomic_rmw %m[%at] : memref<4xi32> {
        ^bb0(%old: i32):
          %new = arith.addi %old, %one : i32
          memref.atomic_yield %new : i32
        }
      }
      return
    }

    gpu.func @k(%m: memref<4xi32>, %first: index, %second: index, %at: index) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %b0 = arith.cmpi eq, %bid, %c0 : index
      scf.if %t0 {
        scf.if %b0 {
          func.call @write(%m, %c0, %first) : (memref<4xi32>, index, index) -> ()
        } else {
          func.call @write(%m, %at, %second) : (memref<4xi32>, index, index) -> ()
        }
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @run(%first: index, %second: index, %at: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %m = memref.alloc() : memref<4xi32>
    %z = arith.constant 0 : i32
    linalg.fill ins(%z : i32) outs(%m : memref<4xi32>)
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c2, %c1, %c1) args(%m : memref<4xi32>, %first : index, %second : index, %at : index)
    %u = memref.cast %m : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %m : memref<4xi32>
    return
  }

  func.func @atomic_then_plain() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    call @run(%c1, %c0, %c0) : (index, index, index) -> ()
    return
  }
  func.func @plain_then_atomic() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    call @run(%c0, %c1, %c0) : (index, index, index) -> ()
    return
  }
  func.func @generic_then_plain() {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    call @run(%c2, %c0, %c0) : (index, index, index) -> ()
    return
  }
  // Two atomics on m[0]; an atomic on m[0] and a store on m[1]; an
  // atomic_rmw and a generic_atomic_rmw on m[0].
  func.func @clean() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    call @run(%c1, %c1, %c0) : (index, index, index) -> ()
    call @run(%c1, %c0, %c1) : (index, index, index) -> ()
    call @run(%c1, %c2, %c0) : (index, index, index) -> ()
    return
  }
}
