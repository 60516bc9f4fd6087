// A barrier under a block-uniform condition on the block id (trial 52
// F3). Every thread of a block takes the same branch, so the barrier is
// either reached by the whole block or skipped by it; the checker proves it
// is reached when the condition holds for every block id. Block ids are
// bounded like thread ids: by `gpu.block_id`'s `upper_bound`, by the
// kernel's `known_grid_size`, by a `gpu.launch`'s constant grid size, and a
// `gpu.grid_dim` of a stated size is that constant. Before, a block id was
// only `>= 0`, and every kernel here reported a missing barrier.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --entry=run_bounded --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=OUT
// RUN: not apipe-run %s --entry=run_one_block --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// OUT-COUNT-4: [1,  2,  3,  4,  5,  6,  7,  0,  1,  2,  3,  4,  5,  6,  7,  0]
// RACE: error: {{.*}}race
module attributes {gpu.container_module} {
  gpu.module @k {
    // Grid size 2 stated, `bid < 2` always holds: silent.
    gpu.func @bounded(%A: memref<8xf32>, %out: memref<16xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %cond = arith.cmpi ult, %bid, %c2 : index
      scf.if %cond {
        gpu.barrier
      }
      %t1 = arith.addi %tid, %c1 : index
      %next = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%next] : memref<8xf32, 3>
      %b8 = arith.muli %bid, %c8 : index
      %o = arith.addi %b8, %tid : index
      memref.store %x, %out[%o] : memref<16xf32>
      gpu.return
    }

    // `gpu.block_id x upper_bound 3`, `bid <= 2`: silent.
    gpu.func @upper_bound(%A: memref<8xf32>, %out: memref<16xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x upper_bound 3
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %cond = arith.cmpi ule, %bid, %c2 : index
      scf.if %cond {
        gpu.barrier
      }
      %t1 = arith.addi %tid, %c1 : index
      %next = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%next] : memref<8xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }

    // `bid < gpu.grid_dim x` with the grid size stated (4): silent.
    gpu.func @grid_dim(%A: memref<8xf32>, %out: memref<16xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %gd = gpu.grid_dim x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %cond = arith.cmpi slt, %bid, %gd : index
      scf.if %cond {
        gpu.barrier
      }
      %t1 = arith.addi %tid, %c1 : index
      %next = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%next] : memref<8xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }

    // Grid size 2 stated, but `bid < 1`: block 1 skips the barrier.
    // CHECK: [[@LINE+15]]:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
    gpu.func @one_block(%A: memref<8xf32>, %out: memref<16xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %cond = arith.cmpi ult, %bid, %c1 : index
      scf.if %cond {
        gpu.barrier
      }
      %t1 = arith.addi %tid, %c1 : index
      %next = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%next] : memref<8xf32, 3>
      %b8 = arith.muli %bid, %c8 : index
      %o = arith.addi %b8, %tid : index
      memref.store %x, %out[%o] : memref<16xf32>
      gpu.return
    }

    // No grid size stated: `bid < 2` may fail.
    // CHECK: [[@LINE+16]]:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
    gpu.func @unstated(%A: memref<8xf32>, %out: memref<16xf32>) workgroup(%buf: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %cond = arith.cmpi ult, %bid, %c2 : index
      scf.if %cond {
        gpu.barrier
      }
      %t1 = arith.addi %tid, %c1 : index
      %next = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%next] : memref<8xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }
  }

  // A `gpu.launch` of constant grid size 2, `bid < 2`: silent.
  func.func @launch(%A: memref<8xf32>, %out: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) workgroup(%buf : memref<8xf32, 3>) {
      apipe.copy %A[%tx], %buf[%tx], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %cond = arith.cmpi ult, %bx, %c2 : index
      scf.if %cond {
        gpu.barrier
      }
      %t1 = arith.addi %tx, %c1 : index
      %next = arith.remui %t1, %c8 : index
      %x = memref.load %buf[%next] : memref<8xf32, 3>
      memref.store %x, %out[%tx] : memref<16xf32>
      gpu.terminator
    }
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @input() -> (memref<8xf32>, memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<8xf32>
    }
    return %A, %out : memref<8xf32>, memref<16xf32>
  }

  func.func @run_bounded() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %A, %out = func.call @input() : () -> (memref<8xf32>, memref<16xf32>)
    gpu.launch_func @k::@bounded blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<8xf32>, %out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @run_one_block() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %A, %out = func.call @input() : () -> (memref<8xf32>, memref<16xf32>)
    gpu.launch_func @k::@one_block blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<8xf32>, %out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
