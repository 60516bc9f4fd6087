// Unsigned comparisons of integers narrower than 64 bits in branch
// conditions (trial 54 B2): the forms of narrow integers are their two's-
// complement values, and an unsigned predicate compared those, so
// `ule x, 7 : i3` (always true; 7 is -1 as a signed i3) could fail, and a
// wait under it seemed skipped on some path: a false read-after-write
// between threads. An unsigned predicate now compares `x mod 2^bits`.
// `ugt x, -1 : i3` never holds (-1 is 7 unsigned), so its wait never
// runs: reported. Waits that
// only threads 0-3 or 4-7 run leave the others' copies in flight: reported.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=OUT
// OUT-COUNT-4: [1,  2,  3,  4,  5,  6,  7,  0]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @always(%A: memref<8xf32>, %O: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      %x3 = arith.index_cast %tid : index to i3
      %z3 = arith.constant 7 : i3
      %cond = arith.cmpi ule, %x3, %z3 : i3
      scf.if %cond {
        apipe.wait_group 0
      }
      gpu.barrier
      %t1 = arith.addi %tid, %c1 : index
      %n = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%n] : memref<8xf32, 3>
      memref.store %x, %O[%tid] : memref<8xf32>
      gpu.return
    }
    gpu.func @i2_always(%A: memref<8xf32>, %O: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      %x3 = arith.index_cast %tid : index to i2
      %z3 = arith.constant 3 : i2
      %cond = arith.cmpi ule, %x3, %z3 : i2
      scf.if %cond {
        apipe.wait_group 0
      }
      gpu.barrier
      %t1 = arith.addi %tid, %c1 : index
      %n = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%n] : memref<8xf32, 3>
      memref.store %x, %O[%tid] : memref<8xf32>
      gpu.return
    }
    // CHECK: [[@LINE+18]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
    gpu.func @never_above(%A: memref<8xf32>, %O: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      %x3 = arith.index_cast %tid : index to i3
      %z3 = arith.constant -1 : i3
      %cond = arith.cmpi ugt, %x3, %z3 : i3
      scf.if %cond {
        apipe.wait_group 0
      }
      gpu.barrier
      %t1 = arith.addi %tid, %c1 : index
      %n = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%n] : memref<8xf32, 3>
      memref.store %x, %O[%tid] : memref<8xf32>
      gpu.return
    }
    // CHECK: [[@LINE+18]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
    gpu.func @half(%A: memref<8xf32>, %O: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      %x3 = arith.index_cast %tid : index to i3
      %z3 = arith.constant 4 : i3
      %cond = arith.cmpi ult, %x3, %z3 : i3
      scf.if %cond {
        apipe.wait_group 0
      }
      gpu.barrier
      %t1 = arith.addi %tid, %c1 : index
      %n = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%n] : memref<8xf32, 3>
      memref.store %x, %O[%tid] : memref<8xf32>
      gpu.return
    }
    // CHECK: [[@LINE+18]]:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
    gpu.func @upper(%A: memref<8xf32>, %O: memref<8xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      %x3 = arith.index_cast %tid : index to i3
      %z3 = arith.constant 4 : i3
      %cond = arith.cmpi uge, %x3, %z3 : i3
      scf.if %cond {
        apipe.wait_group 0
      }
      gpu.barrier
      %t1 = arith.addi %tid, %c1 : index
      %n = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%n] : memref<8xf32, 3>
      memref.store %x, %O[%tid] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<8xf32>
    %O = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<8xf32>
    }
    gpu.launch_func @k::@always blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<8xf32>, %O : memref<8xf32>)
    %u = memref.cast %O : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
