// apipe-check-hazards on loop nests whose fixed points would take many
// rounds: a `wait_group` with a huge `pending` in an inner loop (the
// function then keeps up to 68 rounds before widening) under an outer loop
// of 128 iterations that issues a copy per iteration, alone and with a
// commit (the shape of a fuzz find: 01-timeout-apipe-opt-no-output). A loop that issues no
// copy and closes no group gets the fewest rounds, one with a static trip
// count T at most T + 2, and the function's loop bodies share one work
// budget past which every loop widens at once (sound; only precision
// drops). These once took 28 s (release build) and now take about a second
// each (debug build). The diagnostics are exact, in any order (the load's error
// comes before the copy's, which the outer fixed point finds).
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

gpu.module @kernels {
  gpu.func @huge_pending(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>) workgroup(%a : memref<64x16xf32, 3>, %b : memref<16x64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
    %bx = gpu.block_id x
    %tid = gpu.thread_id x
    %row = arith.divui %tid, %c16 : index
    %lane = arith.remui %tid, %c16 : index
    %col = arith.muli %lane, %c4 : index
    %base = arith.muli %bx, %c64 : index
    %gcol = arith.addi %base, %col : index
    %acc = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %zero) -> (vector<4xf32>) {
      %k16 = arith.muli %k, %c16 : index
      %grow = arith.addi %k16, %row : index
      apipe.copy %B[%grow, %gcol], %b[%row, %col], 4 : memref<2048x2048xf32> to memref<16x64xf32, 3>
// CHECK-DAG: :[[# @LINE - 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// CHECK-DAG: :[[# @LINE - 2]]:7: error: 'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)
      %r = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %s) -> (vector<4xf32>) {
        %v = vector.load %b[%j, %col] : memref<16x64xf32, 3>, vector<4xf32>
// CHECK-DAG: :[[# @LINE - 1]]:14: error: 'vector.load' op reads a buffer region that an async copy may still be writing (read-after-write)
        %x = memref.load %a[%row, %j] : memref<64x16xf32, 3>
        apipe.wait_group 65536
        %y = vector.broadcast %x : f32 to vector<4xf32>
        %f = vector.fma %y, %v, %t : vector<4xf32>
        scf.yield %f : vector<4xf32>
      }
      scf.yield %r : vector<4xf32>
    }
    gpu.return
  }
}

// -----

// The same with a commit after the copy.
gpu.module @kernels {
  gpu.func @huge_pending_commit(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>) workgroup(%a : memref<64x16xf32, 3>, %b : memref<16x64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant dense<0.000000e+00> : vector<4xf32>
    %bx = gpu.block_id x
    %tid = gpu.thread_id x
    %row = arith.divui %tid, %c16 : index
    %lane = arith.remui %tid, %c16 : index
    %col = arith.muli %lane, %c4 : index
    %base = arith.muli %bx, %c64 : index
    %gcol = arith.addi %base, %col : index
    %acc = scf.for %k = %c0 to %c128 step %c1 iter_args(%s = %zero) -> (vector<4xf32>) {
      %k16 = arith.muli %k, %c16 : index
      %grow = arith.addi %k16, %row : index
      apipe.copy %B[%grow, %gcol], %b[%row, %col], 4 : memref<2048x2048xf32> to memref<16x64xf32, 3>
// CHECK-DAG: :[[# @LINE - 1]]:7: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing: the final content depends on which lands last (write-after-write)
// CHECK-DAG: :[[# @LINE - 2]]:7: error: 'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)
      apipe.commit_group
      %r = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %s) -> (vector<4xf32>) {
        %v = vector.load %b[%j, %col] : memref<16x64xf32, 3>, vector<4xf32>
// CHECK-DAG: :[[# @LINE - 1]]:14: error: 'vector.load' op reads a buffer region that an async copy may still be writing (read-after-write)
        %x = memref.load %a[%row, %j] : memref<64x16xf32, 3>
        apipe.wait_group 65536
        %y = vector.broadcast %x : f32 to vector<4xf32>
        %f = vector.fma %y, %v, %t : vector<4xf32>
        scf.yield %f : vector<4xf32>
      }
      scf.yield %r : vector<4xf32>
    }
    gpu.return
  }
}

