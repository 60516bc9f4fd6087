// A helper's barrier under `scf.if` on one of its `i1` arguments counts at
// a call whose operand folds to the branch that holds it (trial 41), and
// nowhere else: not where the operand is unknown, nor where the helper
// accesses memory before its barrier, nor where the other branch is taken.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-barrier-flag.mlir:55:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-barrier-flag.mlir:58:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// CHECK-NOT: {{error|remark}}
// CHECK: check-hazards-call-barrier-flag.mlir:60:7: error: 'func.call' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
// CHECK-NOT: {{error|remark}}

module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @sync_if(%c: i1) {
      scf.if %c {
        gpu.barrier
      }
      return
    }
    func.func @read_then_sync_if(%c: i1, %b: memref<16xf32, 3>) {
      scf.if %c {
        %c1 = arith.constant 1 : index
        %c16 = arith.constant 16 : index
        %tid = gpu.thread_id x
        %t1 = arith.addi %tid, %c1 : index
        %n = arith.remui %t1, %c16 : index
        %v = memref.load %b[%n] : memref<16xf32, 3>
        gpu.barrier
      }
      return
    }
    gpu.func @kern(%A: memref<16xf32>, %flag: i1) workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %true = arith.constant true
      %false = arith.constant false
      %tid = gpu.thread_id x
      %t1 = arith.addi %tid, %c1 : index
      %n = arith.remui %t1, %c16 : index
      // Taken (an `ori` with true folds): silent.
      %taken = arith.ori %flag, %true : i1
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      func.call @sync_if(%taken) : (i1) -> ()
      %x = memref.load %buf[%n] : memref<16xf32, 3>
      gpu.barrier
      // Not taken, then unknown (uniform, but it may be false): errors.
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<16xf32> to memref<16xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      func.call @sync_if(%false) : (i1) -> ()
      %y = memref.load %buf[%n] : memref<16xf32, 3>
      apipe.wait_group 0
      func.call @sync_if(%flag) : (i1) -> ()
      %z = memref.load %buf[%n] : memref<16xf32, 3>
      // The helper reads the neighbour's element before its barrier.
      func.call @read_then_sync_if(%true, %buf) : (i1, memref<16xf32, 3>) -> ()
      gpu.return
    }
  }
}

// -----

// The operand folds to true whatever the thread-dependent value it is
// computed from (`ori %c, true`): every thread reaches the barrier, no
// divergent barrier and no missing one (trial 45).
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @sync_if(%c: i1) {
      scf.if %c {
        gpu.barrier
      }
      return
    }
    gpu.func @kern(%out: memref<4xf32>) workgroup(%buf: memref<4xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %true = arith.constant true
      %tid = gpu.thread_id x
      %ti = arith.index_cast %tid : index to i64
      %tf = arith.sitofp %ti : i64 to f32
      memref.store %tf, %buf[%tid] : memref<4xf32, 3>
      %first = arith.cmpi eq, %tid, %c0 : index
      %always = arith.ori %first, %true : i1
      func.call @sync_if(%always) : (i1) -> ()
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %x = memref.load %buf[%nb] : memref<4xf32, 3>
      memref.store %x, %out[%tid] : memref<4xf32>
      gpu.return
    }
  }
}
