// A helper whose barrier runs under its `i1` argument, called with a
// constant that takes that branch: the call synchronizes the block (trial
// 41: only a barrier directly in the helper's entry block was counted, a
// false missing-barrier error). Each thread reads its neighbour's element
// after the call: the checker is silent, and every completion mode prints
// what make-sync prints. Called with the other constant, the barrier does
// not run: a missing-barrier error, and the emulator reports the read.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %s --completion=lazy,eager,random:1,random:2,random:3 | FileCheck %s
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s --check-prefix=SYNC
// RUN: sed -e 's/@sync_if(%go)/@sync_if(%keep)/' %s > %t.mlir
// RUN: not apipe-opt %t.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIPPED
// RUN: not apipe-run %t.mlir --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// CHECK-COUNT-5: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  0]
// SYNC: [1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  0]
// SKIPPED: helper-barrier-flag.mlir.tmp.mlir:43:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// RACE: error
module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  gpu.module @k {
    // The barrier is in the `else` region: it runs when %c is false.
    func.func @sync_if(%c: i1) {
      scf.if %c {
      } else {
        gpu.barrier
      }
      return
    }
    gpu.func @kern(%A: memref<16xf32>, %out: memref<16xf32>) workgroup(%buf: memref<16xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      // Folds to false: take the barrier. `%keep` is true: skip it.
      %go = arith.cmpi eq, %c0, %c1 : index
      %keep = arith.constant true
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      func.call @sync_if(%go) : (i1) -> ()
      %t1 = arith.addi %tid, %c1 : index
      %n = arith.remui %t1, %c16 : index
      %x = memref.load %buf[%n] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %A = memref.alloc() : memref<16xf32>
    %out = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<16xf32>
    }
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<16xf32>, %out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
