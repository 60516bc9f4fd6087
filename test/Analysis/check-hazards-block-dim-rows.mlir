// apipe-check-hazards: a row-major thread index `ty * bdx + tx` through
// `gpu.block_dim x`, in a kernel that states no block size (a fresh-user
// trial: reported as a race between threads, plain and async, though each
// thread has its own element). The product of two values is no affine
// form; the checker knows `0 <= tx < bdx`, that threads with equal `ty`
// have equal rows, and that `ty < ty'` puts the row at least `bdx` lower.
// Reported still: a shifted index (thread x reads what x - 1 wrote), the
// row alone (every thread of a row on one element), and a row of the wrong
// size (`ty * bdy + tx` collides where bdx > bdy), as apipe-run reports.
// Rows `(t + d) * (B + e)` are followed (`e >= 0`): `(ty + 1) * bdx + tx`,
// `ty * (bdx + 1) + tx`, and column-major `tx * bdy + ty`.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --entry=run_rows --schedule=forward,reverse,random:3 2>&1 | FileCheck %s --check-prefix=CLEAN --implicit-check-not=error
// RUN: not apipe-run %s --entry=run_shifted 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=run_wrong_size 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: apipe-run %s --entry=run_variants --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=VARIANTS --implicit-check-not=error
// VARIANTS: apipe-run: completion=lazy schedule=reverse
// CLEAN-COUNT-3: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// RACE: error: race
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Silent: plain stores and loads, then an async copy of each thread's
    // own element, waited for by that thread alone.
    gpu.func @rows(%A: memref<32xf32>, %out: memref<32xf32>) workgroup(%s: memref<32xf32, 3>, %c: memref<32xf32, 3>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %row = arith.muli %ty, %bdx : index
      %t = arith.addi %row, %tx : index
      %i = arith.index_cast %t : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %s[%t] : memref<32xf32, 3>
      %y = memref.load %s[%t] : memref<32xf32, 3>
      apipe.copy %A[%t], %c[%t], 1 : memref<32xf32> to memref<32xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %z = memref.load %c[%t] : memref<32xf32, 3>
      %w = arith.addf %y, %z : f32
      memref.store %w, %out[%t] : memref<32xf32>
      gpu.return
    }
    // Silent too: rows one down, padded rows and column-major indices
    // (trial 15: each was reported).
    gpu.func @variants(%out: memref<32xf32>) workgroup(%a: memref<64xf32, 3>, %b: memref<64xf32, 3>, %c: memref<64xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %f = arith.constant 1.0 : f32
      %ty1 = arith.addi %ty, %c1 : index
      %down = arith.muli %ty1, %bdx : index
      %ia = arith.addi %down, %tx : index
      memref.store %f, %a[%ia] : memref<64xf32, 3>
      %bdx1 = arith.addi %bdx, %c1 : index
      %padded = arith.muli %ty, %bdx1 : index
      %ib = arith.addi %padded, %tx : index
      memref.store %f, %b[%ib] : memref<64xf32, 3>
      %column = arith.muli %tx, %bdy : index
      %ic = arith.addi %column, %ty : index
      memref.store %f, %c[%ic] : memref<64xf32, 3>
      gpu.return
    }
    gpu.func @shifted(%out: memref<32xf32>) workgroup(%s: memref<33xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %row = arith.muli %ty, %bdx : index
      %t = arith.addi %row, %tx : index
      %t1 = arith.addi %t, %c1 : index
      %i = arith.index_cast %t : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %s[%t1] : memref<33xf32, 3>
      // CHECK: block-dim-rows.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two
      %y = memref.load %s[%t] : memref<33xf32, 3>
      memref.store %y, %out[%t] : memref<32xf32>
      gpu.return
    }
    gpu.func @row_only(%out: memref<32xf32>) workgroup(%s: memref<32xf32, 3>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %row = arith.muli %ty, %bdx : index
      %i = arith.index_cast %tx : index to i32
      %f = arith.sitofp %i : i32 to f32
      // CHECK: block-dim-rows.mlir:[[# @LINE + 1]]:7: error: 'memref.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
      memref.store %f, %s[%row] : memref<32xf32, 3>
      gpu.return
    }
    gpu.func @wrong_size(%out: memref<32xf32>) workgroup(%s: memref<32xf32, 3>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdy = gpu.block_dim y
      %row = arith.muli %ty, %bdy : index
      %t = arith.addi %row, %tx : index
      %i = arith.index_cast %t : index to i32
      %f = arith.sitofp %i : i32 to f32
      // CHECK: block-dim-rows.mlir:[[# @LINE + 1]]:7: error: 'memref.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two
      memref.store %f, %s[%t] : memref<32xf32, 3>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run_rows() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %z = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<32xf32>
    scf.for %j = %c0 to %c32 step %c1 {
      memref.store %z, %A[%j] : memref<32xf32>
    }
    %out = memref.alloc() : memref<32xf32>
    gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1) threads in (%c8, %c4, %c1) args(%A : memref<32xf32>, %out : memref<32xf32>)
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func @run_variants() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<32xf32>
    gpu.launch_func @kernels::@variants blocks in (%c1, %c1, %c1) threads in (%c8, %c4, %c1) args(%out : memref<32xf32>)
    return
  }
  func.func @run_shifted() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<32xf32>
    gpu.launch_func @kernels::@shifted blocks in (%c1, %c1, %c1) threads in (%c8, %c4, %c1) args(%out : memref<32xf32>)
    return
  }
  func.func @run_wrong_size() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<32xf32>
    gpu.launch_func @kernels::@wrong_size blocks in (%c1, %c1, %c1) threads in (%c8, %c4, %c1) args(%out : memref<32xf32>)
    return
  }
}
