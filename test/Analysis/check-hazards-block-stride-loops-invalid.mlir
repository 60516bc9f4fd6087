// Copy loops bounded by the thread id whose step is not a constant (the
// block size, `gpu.block_dim x`) or is at least the loop's span (trial 48
// F2). The checker renamed another thread's iteration and trip count of
// such a loop to one symbol, which made `τ <= T - 1` read `-1 >= 0`: every
// access met no copy of the loop, and the races below went unreported.
// Each kernel states its block size (4), so `gpu.block_dim x` is the
// constant step 4 and the loop's variable `tid + 4 τ`: @correct, which
// copies each element once and reads after the wait and a barrier, is
// silent. (Without a stated block size the variable of a block-stride
// loop is a symbol that only grows from one iteration to the next; other
// threads' copies of the loop are then taken to meet its own, a
// documented false write-after-write: docs/passes.md.)
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=run_no_wait --completion=eager 2>&1 | FileCheck %s --check-prefix=NOWAIT
// RUN: apipe-run %s --entry=run_correct --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=CORRECT
// NOWAIT: error: thread (0,0,0) of block (0,0,0) reads shared memory byte 0
// CORRECT-COUNT-4: [30,  28,  26,  24,  22,  20,  18,  16,  14,  12,  10,  8,  6,  4,  2,  0]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @no_wait(%A: memref<64xf32>, %out: memref<16xf32>) workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %bd = gpu.block_dim x
      scf.for %e = %tid to %c16 step %bd {
        apipe.copy %A[%e], %buf[%e], 1 : memref<64xf32> to memref<16xf32, 3>
      }
      // CHECK: check-hazards-block-stride-loops-invalid.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      apipe.commit_group
      apipe.wait_group 0
      gpu.return
    }
    gpu.func @no_barrier(%A: memref<64xf32>, %out: memref<16xf32>) workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %bd = gpu.block_dim x
      scf.for %e = %tid to %c16 step %bd {
        apipe.copy %A[%e], %buf[%e], 1 : memref<64xf32> to memref<16xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      // CHECK: check-hazards-block-stride-loops-invalid.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
      %x = memref.load %buf[%c0] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }
    gpu.func @half_thread(%A: memref<64xf32>, %out: memref<16xf32>) workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %bd = gpu.block_dim x
      %lb = arith.divui %tid, %c2 : index
      scf.for %e = %lb to %c16 step %bd {
        %s = arith.addi %e, %tid : index
        // CHECK: check-hazards-block-stride-loops-invalid.mlir:[[# @LINE + 1]]:9: error: 'apipe.copy' op writes bytes that another thread's async copy may still be writing
        apipe.copy %A[%s], %buf[%e], 1 : memref<64xf32> to memref<16xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }
    gpu.func @one_trip(%A: memref<64xf32>, %out: memref<16xf32>) workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c16 = arith.constant 16 : index
      %c20 = arith.constant 20 : index
      %tid = gpu.thread_id x
      scf.for %e = %tid to %c16 step %c20 {
        apipe.copy %A[%e], %buf[%e], 1 : memref<64xf32> to memref<16xf32, 3>
        // CHECK: check-hazards-block-stride-loops-invalid.mlir:[[# @LINE + 1]]:14: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
        %x = memref.load %buf[%e] : memref<16xf32, 3>
        memref.store %x, %out[%e] : memref<16xf32>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.return
    }
    gpu.func @correct(%A: memref<64xf32>, %out: memref<16xf32>) workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %bd = gpu.block_dim x
      scf.for %e = %tid to %c16 step %bd {
        %s = arith.addi %e, %e : index
        apipe.copy %A[%s], %buf[%e], 1 : memref<64xf32> to memref<16xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      scf.for %e = %tid to %c16 step %bd {
        %r = arith.subi %c15, %e : index
        %x = memref.load %buf[%r] : memref<16xf32, 3>
        memref.store %x, %out[%e] : memref<16xf32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @inputs() -> (memref<64xf32>, memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<64xf32>
    }
    return %A, %out : memref<64xf32>, memref<16xf32>
  }
  func.func @run_no_wait() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = call @inputs() : () -> (memref<64xf32>, memref<16xf32>)
    gpu.launch_func @k::@no_wait blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<16xf32>)
    return
  }
  func.func @run_correct() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = call @inputs() : () -> (memref<64xf32>, memref<16xf32>)
    gpu.launch_func @k::@correct blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
