// Loops that num-stages scheduling refuses, with a located error and the IR
// unchanged: a read of a copy's buffer before the copy (it would read the
// previous iteration's tile, which the versions do not keep), a write before
// a copy to memory the copy may read (the copy would move ahead of it), a
// hand-pipelined loop (its own waits with groups in flight), a stage count
// below 2 (the attribute and the option).
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline --verify-diagnostics
// RUN: not apipe-opt %s --split-input-file --apipe-software-pipeline="num-stages=1" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not apipe-opt %s --split-input-file --apipe-software-pipeline="num-stages=66" 2>&1 | FileCheck %s --check-prefix=OPTION66
// OPTION: software-pipeline-schedule-invalid.mlir:[[#@LINE+14]]:3: error: apipe-software-pipeline: num-stages must be in [2, 65], got 1
// OPTION66: software-pipeline-schedule-invalid.mlir:[[#@LINE+13]]:3: error: apipe-software-pipeline: num-stages must be in [2, 65], got 66
// When no loop would use the option (every loop is annotated by hand), the
// error points at the first loop, not at the file (`:0:0`):
// RUN: not apipe-opt %apipe_root/examples/software_pipeline_input.mlir --apipe-software-pipeline="num-stages=1" 2>&1 | FileCheck %s --check-prefix=ANNOTATED
// ANNOTATED: software_pipeline_input.mlir:20:3: error: apipe-software-pipeline: num-stages must be in [2, 65], got 1
// ANNOTATED-NOT: error

func.func @no_attribute(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}

// -----

func.func @read_before_copy(%A: memref<64xf32>, %out: memref<16xf32, 1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-error @+1 {{'memref.load' op reads a buffer before the copy of the same iteration writes it (it reads the previous iteration's data, which multi-buffering does not keep: each iteration's copy gets a version of its own, so no schedule, automatic or annotated, keeps this read); move it after the copy, or carry the previous iteration's value in an iter_arg}}
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32, 1>
    %off = arith.muli %i, %c4 : index
    // expected-note @+1 {{the copy}}
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  } {apipe.num_stages = 2 : i64}
  return
}

// -----

// The copy's address depends, through an iter_arg, on data the loop loads
// from the copy's own destination (trial 56: the error named stage 0, a
// stage the user never wrote). And in the same iteration, through a
// second copy's address.
func.func @copy_address_from_copied_data(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%at = %c0) -> (index) {
    // expected-note @+1 {{the copy whose destination it reads}}
    apipe.copy %A[%at], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    // expected-error @+1 {{'memref.load' op reads the destination of an async copy, and the operands of the loop's copies depend on what it reads (through the iter_args, or in the same iteration): no copy can be issued ahead of this read, so the loop cannot be pipelined; compute the copies' addresses from data that no copy of the loop writes}}
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
    %xi = arith.fptosi %x : f32 to i64
    %xx = arith.index_cast %xi : i64 to index
    %step = arith.remui %xx, %c3 : index
    %next = arith.addi %at, %step : index
    scf.yield %next : index
  } {apipe.num_stages = 3 : i64}
  return
}

// -----

func.func @second_copy_from_copied_data(%A: memref<64xf32>, %idx: memref<64xindex>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %slot = memref.alloc() : memref<1xindex>
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-note @+1 {{the copy whose destination it reads}}
    apipe.copy %idx[%i], %slot[%c0], 1 : memref<64xindex> to memref<1xindex>
    // expected-error @+1 {{'memref.load' op reads the destination of an async copy}}
    %at = memref.load %slot[%c0] : memref<1xindex>
    apipe.copy %A[%at], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 3 : i64}
  return
}

// -----

func.func @write_before_copy(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-error @+1 {{'memref.store' op writes memory that a later copy of the same iteration may access, but the schedule puts it in stage 1 and the copy in stage 0: the copy would run first; move it after the copy, or annotate the loop by hand}}
    memref.store %f, %A[%i] : memref<64xf32>
    %off = arith.muli %i, %c4 : index
    // expected-note @+1 {{the copy}}
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 2 : i64}
  return
}

// -----

// A store into the copy's own destination before the copy (under a
// condition), into an element the copy writes: one error, the write's (it was also reported as a read of
// the buffer before the copy; trial 8, finding 10).
func.func @store_into_destination_before_copy(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %first = arith.cmpi eq, %i, %c0 : index
    // expected-error @+1 {{'scf.if' op writes memory that a later copy of the same iteration may access, but the schedule puts it in stage 1 and the copy in stage 0}}
    scf.if %first {
      memref.store %f, %buf[%c1] : memref<8xf32>
    }
    %off = arith.muli %i, %c4 : index
    // expected-note @+1 {{the copy}}
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
    %x = memref.load %buf[%c1] : memref<8xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 2 : i64}
  return
}

// -----

func.func @hand_pipelined(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    // expected-error @+1 {{'apipe.commit_group' op in a loop to pipeline: the pipeliner places all synchronization itself}}
    apipe.commit_group
    // expected-error @+1 {{'apipe.wait_group' op in a loop to pipeline: the pipeliner places all synchronization itself}}
    apipe.wait_group 1
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 2 : i64}
  return
}

// -----

func.func @one_stage(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  // expected-error @+1 {{'scf.for' op 'apipe.num_stages' must be at least 2 (one stage copies, a later one reads), got 1}}
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 1 : i64}
  return
}

// -----

// Nothing to make asynchronous: a warning, and the loop is left as it is.
func.func @no_copies(%out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  // expected-warning @+1 {{loop not pipelined: 'apipe.num_stages' asks for stages, but the loop has no 'apipe.copy' of its own (outside nested loops) to make asynchronous}}
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %f, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 3 : i64}
  return
}

// -----

func.func @too_many(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<4xf32>
  // expected-error @+1 {{the pipeliner schedules 2 to 65 stages, got num_stages = 100}}
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 100 : i64}
  return
}

// -----

// The load reads the copied buffer through a view made before the loop:
// the waits and versions would not follow it (it read stale data, with no
// wait, before this was refused).
func.func @view_reader(%A: memref<64xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %buf = memref.alloc() : memref<8xf32>
  %sv = memref.subview %buf[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 : index
    // expected-note @+1 {{the copy}}
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<8xf32>
    // expected-error @+1 {{'memref.load' op accesses a buffer that an async copy writes (or one that may alias it) through another value; the pipeliner tracks a buffer by the value the copy writes (its waits and versions follow that value's uses): access it through that value}}
    %x = memref.load %sv[%c1] : memref<4xf32, strided<[1]>>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 3 : i64}
  return
}

// -----

// A loop under a condition on the thread id: the barriers its pipelined
// form needs (after the wait, before the next copy into the tile) would be
// reached by some threads only, a deadlock (they were placed there before
// this was refused).
gpu.module @kernels {
  gpu.func @divergent_loop(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %rem = arith.remui %tid, %c3 : index
    %some = arith.cmpi ne, %rem, %c0 : index
    // expected-note @+1 {{the 'scf.if' whose control flow depends on the thread id}}
    scf.if %some {
      // expected-error @+1 {{'scf.for' op runs under control flow that depends on the thread id, and its pipelined form needs gpu.barriers, which every thread of the block must reach}}
      scf.for %i = %c0 to %c4 step %c1 {
        %base = arith.muli %i, %c8 : index
        %d = arith.addi %base, %tid : index
        apipe.copy %A[%d], %tile[%tid], 1 : memref<64xf32> to memref<8xf32, 3>
        %nb = arith.addi %tid, %c1 : index
        %n = arith.remui %nb, %c8 : index
        %y = memref.load %tile[%n] : memref<8xf32, 3>
        memref.store %y, %out[%d] : memref<64xf32>
      } {apipe.num_stages = 3 : i64}
    }
    gpu.return
  }
}

// -----

// The same in a gpu.launch body, with the thread id argument itself as the
// bound (now that launch loops get barriers, it was taken to be a uniform
// argument of the body and a barrier was placed in the loop: a deadlock).
func.func @launch_trip_count_is_the_thread_id(%A: memref<64xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %buf = memref.alloc() : memref<8xf32, 3>
    // expected-error @+2 {{'scf.for' op runs a number of iterations that depends on the thread id, and its pipelined form needs gpu.barriers}}
    // expected-note @+1 {{its bounds or step depend on the thread id (so does its trip count)}}
    %s = scf.for %t = %c0 to %tx step %c1 iter_args(%acc = %zero) -> f32 {
      %tile = arith.muli %t, %c8 : index
      %off = arith.addi %tile, %tx : index
      apipe.copy %A[%off], %buf[%tx], 1 : memref<64xf32> to memref<8xf32, 3>
      %x = memref.load %buf[%tx] : memref<8xf32, 3>
      %a2 = arith.addf %acc, %x : f32
      scf.yield %a2 : f32
    } {apipe.num_stages = 3 : i64}
    memref.store %s, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// The loop's own trip count depends on the thread id: threads leave the
// pipelined loop after different numbers of barriers.
gpu.module @kernels {
  gpu.func @divergent_trip_count(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %rem = arith.remui %tid, %c4 : index
    %ub = arith.addi %rem, %c2 : index
    // expected-error @+2 {{'scf.for' op runs a number of iterations that depends on the thread id, and its pipelined form needs gpu.barriers}}
    // expected-note @+1 {{its bounds or step depend on the thread id (so does its trip count)}}
    scf.for %i = %c0 to %ub step %c1 {
      %base = arith.muli %i, %c8 : index
      %d = arith.addi %base, %tid : index
      apipe.copy %A[%d], %tile[%tid], 1 : memref<64xf32> to memref<8xf32, 3>
      %nb = arith.addi %tid, %c1 : index
      %n = arith.remui %nb, %c8 : index
      %y = memref.load %tile[%n] : memref<8xf32, 3>
      memref.store %y, %out[%d] : memref<64xf32>
    } {apipe.num_stages = 3 : i64}
    gpu.return
  }
}

// -----

// The loop's own barrier under a condition on the thread id (trial 82): it
// deadlocks the input, and would the pipelined loop, which keeps it. Its
// barrier under a condition on the induction variable (the same in every
// thread) is no error.
gpu.module @kernels {
  gpu.func @divergent_own_barrier(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %c4 step %c1 {
      %base = arith.muli %i, %c8 : index
      %d = arith.addi %base, %tid : index
      apipe.copy %A[%d], %tile[%tid], 1 : memref<64xf32> to memref<8xf32, 3>
      %first = arith.cmpi eq, %i, %c0 : index
      scf.if %first {
        gpu.barrier
      }
      %leader = arith.cmpi eq, %tid, %c0 : index
      // expected-note @+1 {{the 'scf.if' whose control flow depends on the thread id}}
      scf.if %leader {
        // expected-error @+1 {{'gpu.barrier' op may be reached by only some threads of the block: it is under control flow that depends on the thread id, and every thread of the block must reach a barrier}}
        gpu.barrier
      }
      %nb = arith.addi %tid, %c1 : index
      %n = arith.remui %nb, %c8 : index
      %y = memref.load %tile[%n] : memref<8xf32, 3>
      memref.store %y, %out[%d] : memref<64xf32>
    } {apipe.num_stages = 3 : i64}
    gpu.return
  }
}

// -----

// Thread dependence through a call's result (the callee returns its own
// thread id), and through gpu.subgroup_id (warps differ): refused. A
// gpu.all_reduce result is the same in every thread: pipelined.
gpu.module @kernels {
  func.func @my_tid() -> index {
    %t = gpu.thread_id x
    return %t : index
  }
  gpu.func @divergent_call(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %t = func.call @my_tid() : () -> index
    %big = arith.cmpi ugt, %t, %c3 : index
    // expected-note @+1 {{the 'scf.if' whose control flow depends on the thread id}}
    scf.if %big {
      // expected-error @+1 {{'scf.for' op runs under control flow that depends on the thread id}}
      scf.for %i = %c0 to %c4 step %c1 {
        apipe.copy %A[%tid], %tile[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
        %nb = arith.addi %tid, %c1 : index
        %n = arith.remui %nb, %c4 : index
        %y = memref.load %tile[%n] : memref<64xf32, 3>
        memref.store %y, %out[%tid] : memref<64xf32>
      } {apipe.num_stages = 3 : i64}
    }
    gpu.return
  }
  gpu.func @divergent_subgroup(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %w = gpu.subgroup_id : index
    %first = arith.cmpi eq, %w, %c0 : index
    // expected-note @+1 {{the 'scf.if' whose control flow depends on the thread id}}
    scf.if %first {
      // expected-error @+1 {{'scf.for' op runs under control flow that depends on the thread id}}
      scf.for %i = %c0 to %c4 step %c1 {
        apipe.copy %A[%tid], %tile[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
        %nb = arith.addi %tid, %c1 : index
        %n = arith.remui %nb, %c4 : index
        %y = memref.load %tile[%n] : memref<64xf32, 3>
        memref.store %y, %out[%tid] : memref<64xf32>
      } {apipe.num_stages = 3 : i64}
    }
    gpu.return
  }
  gpu.func @uniform_all_reduce(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %tid32 = arith.index_cast %tid : index to i32
    %most = gpu.all_reduce maxui %tid32 uniform {} : (i32) -> i32
    %c3i = arith.constant 3 : i32
    %wide = arith.cmpi ugt, %most, %c3i : i32
    scf.if %wide {
      // expected-remark @+1 {{scheduled 3 stages (num_stages = 3)}}
      scf.for %i = %c0 to %c4 step %c1 {
        apipe.copy %A[%tid], %tile[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
        %nb = arith.addi %tid, %c1 : index
        %n = arith.remui %nb, %c4 : index
        %y = memref.load %tile[%n] : memref<64xf32, 3>
        memref.store %y, %out[%tid] : memref<64xf32>
      } {apipe.num_stages = 3 : i64}
    }
    gpu.return
  }
}

// -----

// Thread dependence through an atomic's result (each thread gets the value
// before its own update: a ticket), through a load of thread-private memory
// (a memref.alloca in a kernel: each thread reads what it stored) and of
// the private address space: refused (they were pipelined with barriers
// that the threads skipping the loop never reach, a deadlock).
gpu.module @kernels {
  gpu.func @divergent_atomic(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<64xf32, 3>, %counter: memref<1xi32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1 : i32
    %eight = arith.constant 8 : i32
    %tid = gpu.thread_id x
    %ticket = memref.atomic_rmw addi %one, %counter[%c0] : (i32, memref<1xi32, 3>) -> i32
    %early = arith.cmpi ult, %ticket, %eight : i32
    // expected-note @+1 {{the 'scf.if' whose control flow depends on the thread id}}
    scf.if %early {
      // expected-error @+1 {{'scf.for' op runs under control flow that depends on the thread id}}
      scf.for %i = %c0 to %c4 step %c1 {
        apipe.copy %A[%tid], %tile[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
        %nb = arith.addi %tid, %c1 : index
        %n = arith.remui %nb, %c4 : index
        %y = memref.load %tile[%n] : memref<64xf32, 3>
        memref.store %y, %out[%tid] : memref<64xf32>
      } {apipe.num_stages = 3 : i64}
    }
    gpu.return
  }
  gpu.func @divergent_alloca(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %p = memref.alloca() : memref<1xindex>
    memref.store %tid, %p[%c0] : memref<1xindex>
    %v = memref.subview %p[0] [1] [1] : memref<1xindex> to memref<1xindex, strided<[1]>>
    %own = memref.load %v[%c0] : memref<1xindex, strided<[1]>>
    %low = arith.cmpi ult, %own, %c8 : index
    // expected-note @+1 {{the 'scf.if' whose control flow depends on the thread id}}
    scf.if %low {
      // expected-error @+1 {{'scf.for' op runs under control flow that depends on the thread id}}
      scf.for %i = %c0 to %c4 step %c1 {
        apipe.copy %A[%tid], %tile[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
        %nb = arith.addi %tid, %c1 : index
        %n = arith.remui %nb, %c4 : index
        %y = memref.load %tile[%n] : memref<64xf32, 3>
        memref.store %y, %out[%tid] : memref<64xf32>
      } {apipe.num_stages = 3 : i64}
    }
    gpu.return
  }
  gpu.func @divergent_private(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<64xf32, 3>) private(%q: memref<1xindex, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    memref.store %tid, %q[%c0] : memref<1xindex, #gpu.address_space<private>>
    %own = memref.load %q[%c0] : memref<1xindex, #gpu.address_space<private>>
    %low = arith.cmpi ult, %own, %c8 : index
    // expected-note @+1 {{the 'scf.if' whose control flow depends on the thread id}}
    scf.if %low {
      // expected-error @+1 {{'scf.for' op runs under control flow that depends on the thread id}}
      scf.for %i = %c0 to %c4 step %c1 {
        apipe.copy %A[%tid], %tile[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
        %nb = arith.addi %tid, %c1 : index
        %n = arith.remui %nb, %c4 : index
        %y = memref.load %tile[%n] : memref<64xf32, 3>
        memref.store %y, %out[%tid] : memref<64xf32>
      } {apipe.num_stages = 3 : i64}
    }
    gpu.return
  }
}

// -----

// A loop in a block that a cf.cond_br on the thread id decides (in the
// kernel's body, and in an scf.execute_region): refused (it was pipelined
// with a barrier that the threads taking the other branch never reach).
gpu.module @kernels {
  gpu.func @divergent_cond_br(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %low = arith.cmpi ult, %tid, %c8 : index
    // expected-note @+1 {{the 'cf.cond_br' whose control flow depends on the thread id}}
    cf.cond_br %low, ^bb1, ^bb2
  ^bb1:
    // expected-error @+1 {{'scf.for' op runs under control flow that depends on the thread id}}
    scf.for %i = %c0 to %c4 step %c1 {
      apipe.copy %A[%tid], %tile[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
      %nb = arith.addi %tid, %c1 : index
      %n = arith.remui %nb, %c4 : index
      %y = memref.load %tile[%n] : memref<64xf32, 3>
      memref.store %y, %out[%tid] : memref<64xf32>
    } {apipe.num_stages = 3 : i64}
    cf.br ^bb2
  ^bb2:
    gpu.return
  }
  gpu.func @divergent_execute_region(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}) workgroup(%tile: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %low = arith.cmpi ult, %tid, %c8 : index
    scf.execute_region {
      // expected-note @+1 {{the 'cf.cond_br' whose control flow depends on the thread id}}
      cf.cond_br %low, ^bb1, ^bb2
    ^bb1:
      // expected-error @+1 {{'scf.for' op runs under control flow that depends on the thread id}}
      scf.for %i = %c0 to %c4 step %c1 {
        apipe.copy %A[%tid], %tile[%tid], 1 : memref<64xf32> to memref<64xf32, 3>
        %nb = arith.addi %tid, %c1 : index
        %n = arith.remui %nb, %c4 : index
        %y = memref.load %tile[%n] : memref<64xf32, 3>
        memref.store %y, %out[%tid] : memref<64xf32>
      } {apipe.num_stages = 3 : i64}
      cf.br ^bb2
    ^bb2:
      scf.yield
    }
    gpu.return
  }
}

// -----

// A write into the source that the next iteration's copy reads, before the
// copy: disjoint in one iteration (the schedule's rule passes it), but with
// 3 stages the next iteration's copy runs before the write (the dependence
// test refuses; with 2 stages the write runs first in the shared time step:
// software-pipeline-schedule-beside-copy-run.mlir).
func.func @store_into_next_source(%A: memref<68xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %off = arith.muli %i, %c4 : index
    %next = arith.addi %off, %c4 : index
    // expected-error @+1 {{'memref.store' op in stage 2 writes memory that 'apipe.copy' op in stage 0 reads (its source) 1 iteration later}}
    memref.store %acc, %A[%next] : memref<68xf32>
    // expected-note @+1 {{the 'apipe.copy' op of iteration i + 1}}
    apipe.copy %A[%off], %buf[%c0], 4 : memref<68xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] : memref<4xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %out[%i] : memref<16xf32>
    scf.yield %s : f32
  } {apipe.num_stages = 3 : i64}
  return
}

// -----

// A view of the copied buffer made before the copy, and a store through
// it: the view is the op refused, and the message says it makes a view
// (it read "'memref.subview' op reads a buffer", trial 74).
func.func @view_before_copy(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %f = arith.constant 1.0 : f32
  %tile = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    // expected-error @+1 {{'memref.subview' op makes a view of a buffer before the copy of the same iteration writes it; the pipeliner keeps one value per copied buffer and rewrites its accesses to the iteration's version, which a view made before the copy does not follow; make the view after the copy, or access the buffer itself}}
    %sv = memref.subview %tile[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
    memref.store %f, %sv[%c1] : memref<4xf32, strided<[1], offset: 4>>
    %off = arith.muli %i, %c4 : index
    // expected-note @+1 {{the copy}}
    apipe.copy %A[%off], %tile[%c0], 4 : memref<64xf32> to memref<8xf32>
    %x = memref.load %tile[%c1] : memref<8xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  } {apipe.num_stages = 3 : i64}
  return
}
