// Bad launches and broken kernels under apipe-run: each is a located error
// naming the threads involved, and exit 1; never a hang or a crash.
//
// RUN: not apipe-run %s --entry=grid_zero 2>&1 | FileCheck %s --check-prefix=GRID0
// RUN: not apipe-run %s --entry=block_negative 2>&1 | FileCheck %s --check-prefix=BLOCKNEG
// RUN: not apipe-run %s --entry=block_too_large 2>&1 | FileCheck %s --check-prefix=BLOCKBIG
// RUN: not apipe-run %s --entry=threads_too_many 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not apipe-run %s --entry=barrier_after_return 2>&1 | FileCheck %s --check-prefix=EXITED
// RUN: not apipe-run %s --entry=barrier_after_return --schedule=reverse 2>&1 | FileCheck %s --check-prefix=EXITED
// RUN: not apipe-run %s --entry=different_barriers 2>&1 | FileCheck %s --check-prefix=DIFFERENT
// RUN: not apipe-run %s --entry=barrier_in_uneven_loop 2>&1 | FileCheck %s --check-prefix=UNEVEN
// RUN: not apipe-run %s --entry=out_of_bounds 2>&1 | FileCheck %s --check-prefix=OOB
// The reverse schedule runs the last block first:
// RUN: not apipe-run %s --entry=out_of_bounds --schedule=reverse 2>&1 | FileCheck %s --check-prefix=OOB-REVERSE
// RUN: not apipe-run %s --entry=copy_read_without_barrier --schedule=reverse 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: not apipe-run %s --entry=copy_read_without_barrier 2>&1 | FileCheck %s --check-prefix=WAR
// RUN: not apipe-run %s --entry=copy_read_in_flight 2>&1 | FileCheck %s --check-prefix=INFLIGHT
// RUN: not apipe-run %s --entry=own_copy_read_before_wait 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: not apipe-run %s --entry=blocks_write_the_same_bytes 2>&1 | FileCheck %s --check-prefix=WAW
// RUN: not apipe-run %s --entry=blocks_write_the_same_bytes --jobs=2 2>&1 | FileCheck %s --check-prefix=WAW
//
// Without the race checker, a missing barrier shows as wrong data under
// the schedule that runs a reader before the writer.
// RUN: apipe-run %s --entry=copy_read_without_barrier --no-racecheck --schedule=forward | FileCheck %s --check-prefix=FORWARD
// RUN: apipe-run %s --entry=copy_read_without_barrier --racecheck=false --schedule=reverse | FileCheck %s --check-prefix=REVERSE
// FORWARD: [-nan,  -nan,  -nan,  -nan]
// REVERSE: [1,  2,  3,  -nan]
//
// The correct version of that kernel, and a kernel with a device function
// and an inline gpu.launch, run in every mode.
// RUN: apipe-run %s --entry=copy_read_after_barrier --completion=lazy,eager,random:4 --schedule=forward,reverse,random:1 | FileCheck %s --check-prefix=FIXED
// FIXED-COUNT-9: [1,  2,  3,  0]
// RUN: apipe-run %s --entry=inline_launch_and_device_function --completion=lazy,random:9 --schedule=forward,reverse | FileCheck %s --check-prefix=INLINE
// INLINE-COUNT-4: [10,  11,  12,  13,  18,  19,  20,  21]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @nothing() kernel {
      gpu.return
    }

    gpu.func @barrier_after_return() kernel {
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %few = arith.cmpi ult, %tid, %c2 : index
      scf.if %few {
        // EXITED: gpu-errors.mlir:[[# @LINE + 1]]:9: error: deadlock: thread ({{[01]}},0,0) of block (0,0,0) waits at this 'gpu.barrier', but thread ({{[23]}},0,0) of the block has returned and never reaches it (a barrier in divergent control flow)
        gpu.barrier
      }
      gpu.return
    }

    gpu.func @different_barriers() kernel {
      %c2 = arith.constant 2 : index
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %r = arith.remui %tid, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      scf.if %even {
        // DIFFERENT: gpu-errors.mlir:[[# @LINE + 1]]:9: error: deadlock: threads of block (0,0,0) wait at different barriers: thread (0,0,0) here, thread (1,0,0) at another 'gpu.barrier' (a barrier in divergent control flow)
        gpu.barrier
      } else {
        // DIFFERENT: gpu-errors.mlir:[[# @LINE + 1]]:9: note: the barrier where thread (1,0,0) waits
        gpu.barrier
      }
      gpu.return
    }

    gpu.func @barrier_in_uneven_loop() kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %tid step %c1 {
        // UNEVEN: gpu-errors.mlir:[[# @LINE + 1]]:9: error: deadlock: thread (1,0,0) of block (0,0,0) waits at this 'gpu.barrier', but thread (0,0,0) of the block has returned
        gpu.barrier
      }
      gpu.return
    }

    gpu.func @out_of_bounds() workgroup(%w: memref<6xf32, 3>) kernel {
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c2 : index
      // OOB-REVERSE: gpu-errors.mlir:[[# @LINE + 2]]:12: error: 'memref.load' out-of-bounds access (thread (3,0,0) of block (1,0,0))
      // OOB: gpu-errors.mlir:[[# @LINE + 1]]:12: error: 'memref.load' out-of-bounds access (thread (3,0,0) of block (0,0,0))
      %x = memref.load %w[%i] : memref<6xf32, 3>
      gpu.return
    }

    // Thread t copies A[t] into buf[t], waits for its own copy, and reads
    // buf[t + 1], which thread t + 1 copied.
    gpu.func @copy_read_without_barrier(%A: memref<4xf32>, %out: memref<4xf32>)
        workgroup(%buf: memref<5xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      // WAR: gpu-errors.mlir:[[# @LINE + 1]]:7: error: race (WAR) on shared memory byte 4 (byte 4 of the workgroup buffer at {{.*}}gpu-errors.mlir:{{[0-9]+}}:{{[0-9]+}}): thread (1,0,0) of block (0,0,0) writes it, and thread (0,0,0) reads it with no gpu.barrier between
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4xf32> to memref<5xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %next = arith.addi %tid, %c1 : index
      // RAW: gpu-errors.mlir:[[# @LINE + 2]]:12: error: race (RAW) on shared memory byte 12 (byte 12 of the workgroup buffer at {{.*}}gpu-errors.mlir:{{[0-9]+}}:{{[0-9]+}}): thread (2,0,0) of block (0,0,0) reads it, and thread (3,0,0) writes it with no gpu.barrier between
      // WAR: gpu-errors.mlir:[[# @LINE + 1]]:12: note: the other access, by thread (0,0,0)
      %x = memref.load %buf[%next] : memref<5xf32, 3>
      // RAW: gpu-errors.mlir:[[# @LINE - 7]]:7: note: the other access, by thread (3,0,0)
      // RAW: error: the kernel has races (see above); run with --racecheck=false to run it anyway
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    gpu.func @copy_read_after_barrier(%A: memref<4xf32>, %out: memref<4xf32>)
        workgroup(%buf: memref<5xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4xf32> to memref<5xf32, 3>
      apipe.commit_group
      %last = arith.cmpi eq, %tid, %c3 : index
      scf.if %last {
        memref.store %zero, %buf[%c4] : memref<5xf32, 3>
      }
      apipe.wait_group 0
      gpu.barrier
      %next = arith.addi %tid, %c1 : index
      %x = memref.load %buf[%next] : memref<5xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    // Thread t reads buf[t + 1] while thread t + 1's copy into it is in
    // flight (the barrier comes before the waits).
    gpu.func @copy_read_in_flight(%A: memref<4xf32>, %out: memref<4xf32>)
        workgroup(%buf: memref<5xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4xf32> to memref<5xf32, 3>
      apipe.commit_group
      gpu.barrier
      %next = arith.addi %tid, %c1 : index
      // INFLIGHT: gpu-errors.mlir:[[# @LINE + 1]]:12: error: race (RAW) on shared memory byte 4 {{.*}}: thread (0,0,0) of block (0,0,0) reads it, and thread (1,0,0) writes it with no gpu.barrier between
      %x = memref.load %buf[%next] : memref<5xf32, 3>
      // INFLIGHT: note: the other access, by thread (1,0,0) (an asynchronous copy still in flight)
      apipe.wait_group 0
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    gpu.func @own_copy_read_before_wait(%A: memref<4xf32>, %out: memref<4xf32>)
        workgroup(%buf: memref<4xf32, 3>) kernel {
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<4xf32> to memref<4xf32, 3>
      apipe.commit_group
      // OWN: gpu-errors.mlir:[[# @LINE + 1]]:12: error: thread (0,0,0) of block (0,0,0) reads shared memory byte 0 {{.*}} that its own asynchronous copy still in flight writes: no wait completes the copy first
      %x = memref.load %buf[%tid] : memref<4xf32, 3>
      apipe.wait_group 0
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }

    gpu.func @write_slot_zero(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        // WAW: gpu-errors.mlir:[[# @LINE + 1]]:9: error: race (WAW) on global memory at address 0x{{[0-9a-f]+}}: thread (0,0,0) of block (1,0,0) and thread (0,0,0) of block (0,0,0) write the same bytes, neither atomically (the order of blocks is unspecified)
        memref.store %one, %out[%c0] : memref<4xf32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  // A device function with a barrier (outlining copies it into the kernel's
  // gpu.module; on the host the barrier is a no-op).
  func.func @plus_ten(%x: f32) -> f32 {
    %ten = arith.constant 10.0 : f32
    gpu.barrier
    %y = arith.addf %x, %ten : f32
    return %y : f32
  }

  func.func @grid_zero() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // GRID0: gpu-errors.mlir:[[# @LINE + 1]]:5: error: launch with grid size 0 in x: every grid and block size must be at least 1
    gpu.launch_func @kernels::@nothing blocks in (%c0, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }

  func.func @block_negative() {
    %m = arith.constant -4 : index
    %c1 = arith.constant 1 : index
    // BLOCKNEG: gpu-errors.mlir:[[# @LINE + 1]]:5: error: launch with block size -4 in y: every grid and block size must be at least 1
    gpu.launch_func @kernels::@nothing blocks in (%c1, %c1, %c1) threads in (%c1, %m, %c1)
    return
  }

  func.func @block_too_large() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 2048 : index
    // BLOCKBIG: gpu-errors.mlir:[[# @LINE + 1]]:5: error: launch with block size 2048 in x: at most 1024
    gpu.launch_func @kernels::@nothing blocks in (%c1, %c1, %c1) threads in (%big, %c1, %c1)
    return
  }

  func.func @threads_too_many() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    // THREADS: gpu-errors.mlir:[[# @LINE + 1]]:5: error: launch of 2048 threads per block (32 x 32 x 2): at most 1024
    gpu.launch_func @kernels::@nothing blocks in (%c1, %c1, %c1) threads in (%c32, %c32, %c2)
    return
  }

  func.func @barrier_after_return() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@barrier_after_return blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }

  func.func @different_barriers() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@different_barriers blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }

  func.func @barrier_in_uneven_loop() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@barrier_in_uneven_loop blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }

  func.func @out_of_bounds() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    // 3 threads stay in bounds; thread 3 of block (0,0,0) of the second
    // launch does not.
    gpu.launch_func @kernels::@out_of_bounds blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1)
    gpu.launch_func @kernels::@out_of_bounds blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }

  func.func @inputs() -> (memref<4xf32>, memref<4xf32>) {
    %A = memref.alloc() : memref<4xf32>
    %out = memref.alloc() : memref<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4xf32>
    }
    return %A, %out : memref<4xf32>, memref<4xf32>
  }

  func.func @print(%m: memref<4xf32>) {
    %u = memref.cast %m : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @copy_read_without_barrier() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<4xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@copy_read_without_barrier blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<4xf32>, %out : memref<4xf32>)
    func.call @print(%out) : (memref<4xf32>) -> ()
    return
  }

  func.func @copy_read_after_barrier() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<4xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@copy_read_after_barrier blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<4xf32>, %out : memref<4xf32>)
    func.call @print(%out) : (memref<4xf32>) -> ()
    return
  }

  func.func @copy_read_in_flight() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<4xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@copy_read_in_flight blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<4xf32>, %out : memref<4xf32>)
    return
  }

  func.func @own_copy_read_before_wait() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<4xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@own_copy_read_before_wait blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<4xf32>, %out : memref<4xf32>)
    return
  }

  func.func @blocks_write_the_same_bytes() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %A, %out = func.call @inputs() : () -> (memref<4xf32>, memref<4xf32>)
    gpu.launch_func @kernels::@write_slot_zero blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    return
  }

  // Each of 8 threads (2 blocks of 4) writes A[i] + 10 through a device
  // function that waits at a barrier, then the block's id times 10.
  func.func @inline_launch_and_device_function() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %bx4 = arith.muli %bx, %c4 : index
      %bxi = arith.index_cast %bx4 : index to i32
      %bf = arith.sitofp %bxi : i32 to f32
      %g = arith.addf %f, %bf : f32
      %y = func.call @plus_ten(%g) : (f32) -> f32
      memref.store %y, %out[%i] : memref<8xf32>
      gpu.terminator
    }
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
