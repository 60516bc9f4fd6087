// Loop and branch results that are the same in every thread (trial 44): a
// loop bounded by an earlier loop's count holds a barrier every thread
// reaches (it was a divergent barrier, and in the pipeliner's output of two
// chained kernel loops a false missing-barrier error). A count that adds
// the thread id, one carried through another iter_arg from the thread id,
// and a branch result that is the thread id on one side still vary.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: check-hazards-uniform-loop-results.mlir:29:7: error: 'gpu.barrier' op may be reached by only some threads of the block
// CHECK: check-hazards-uniform-loop-results.mlir:36:7: error: 'gpu.barrier' op may be reached by only some threads of the block
// CHECK: check-hazards-uniform-loop-results.mlir:45:7: error: 'gpu.barrier' op may be reached by only some threads of the block
gpu.module @k {
  gpu.func @kern(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %u = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {
      %b = arith.addi %a, %c1 : index
      scf.yield %b : index
    }
    scf.for %j = %c0 to %u step %c1 {
      gpu.barrier
    }
    %v = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %c0) -> (index) {
      %b = arith.addi %a, %tid : index
      scf.yield %b : index
    }
    scf.for %j = %c0 to %v step %c1 {
      gpu.barrier
    }
    %w:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %c0, %x = %c0) -> (index, index) {
      %b = arith.addi %x, %c1 : index
      scf.yield %b, %tid : index, index
    }
    scf.for %j = %c0 to %w#0 step %c1 {
      gpu.barrier
    }
    %is = arith.cmpi eq, %n, %c0 : index
    %s = scf.if %is -> index {
      scf.yield %tid : index
    } else {
      scf.yield %c0 : index
    }
    scf.for %j = %c0 to %s step %c1 {
      gpu.barrier
    }
    gpu.return
  }
}
