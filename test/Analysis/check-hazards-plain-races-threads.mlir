// apipe-check-hazards: plain accesses of workgroup memory that two threads
// make at the same time with no gpu.barrier between them, where only one op
// or one branch op is involved (a fresh-user trial: every thread storing
// into one element, and a thread-dependent scf.if / scf.index_switch whose
// then region writes what its else region reads, went unreported while
// apipe-run reported the races).
// - The same op in two threads: its write against the other thread's
//   write (or read) of the same op.
// - Two regions of a branch op that threads split between: a read in one
//   against a write in the other (at the read), a write against a write.
// Silent: each thread on its own element, one elected thread, atomic
// updates of one element, regions apart, and ops whose regions are hulls
// of what they touch (a strided view, a masked load), whose hulls meet
// where the elements interleave.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=run_same_store 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=run_sibling_if 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=run_sibling_switch 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: apipe-run %s --entry=run_clean --schedule=forward,reverse,random:3 2>&1 | FileCheck %s --check-prefix=CLEAN --implicit-check-not=error
// RACE: error: race
// CLEAN-COUNT-3: [0,  1,  2,  3,  5,  0,  1,  5]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @same_store(%out: memref<8xf32>) workgroup(%s: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      // CHECK: threads.mlir:[[# @LINE + 1]]:7: error: 'memref.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
      memref.store %f, %s[%c0] : memref<8xf32, 3>
      gpu.barrier
      %y = memref.load %s[%c0] : memref<8xf32, 3>
      memref.store %y, %out[%tid] : memref<8xf32>
      gpu.return
    }
    // The same in a loop, with a barrier after the store: the next
    // iteration's store is ordered after the read, not the other thread's
    // store of this one.
    gpu.func @same_store_loop(%out: memref<8xf32>, %n: index) workgroup(%s: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      scf.for %k = %c0 to %n step %c1 {
        %e = arith.remui %tid, %c1 : index
        // CHECK: threads.mlir:[[# @LINE + 1]]:9: error: 'memref.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (any two threads) (write-after-write between threads)
        memref.store %f, %s[%e] : memref<8xf32, 3>
        gpu.barrier
        %y = memref.load %s[%c0] : memref<8xf32, 3>
        memref.store %y, %out[%tid] : memref<8xf32>
        gpu.barrier
      }
      gpu.return
    }
    // A `memref.copy` of a view every thread runs: its source is the
    // element another thread's run writes.
    gpu.func @same_copy(%out: memref<8xf32>) workgroup(%s: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %tid = gpu.thread_id x
      %src = memref.subview %s[%tid] [2] [1] : memref<8xf32, 3> to memref<2xf32, strided<[1], offset: ?>, 3>
      %t1 = arith.addi %tid, %tid : index
      %dst = memref.subview %s[%t1] [2] [1] : memref<8xf32, 3> to memref<2xf32, strided<[1], offset: ?>, 3>
      // CHECK: threads.mlir:[[# @LINE + 1]]:7: error: 'memref.copy' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two (this thread has x = 1, the other x = 0) (read-after-write between threads)
      memref.copy %src, %dst : memref<2xf32, strided<[1], offset: ?>, 3> to memref<2xf32, strided<[1], offset: ?>, 3>
      gpu.return
    }
    gpu.func @sibling_if(%out: memref<8xf32>) workgroup(%s: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      %r = scf.if %first -> f32 {
        memref.store %one, %s[%c0] : memref<8xf32, 3>
        scf.yield %one : f32
      } else {
        // CHECK: threads.mlir:[[# @LINE + 1]]:14: error: 'memref.load' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two (this thread has x = 1, the other x = 0) (read-after-write between threads)
        %y = memref.load %s[%c0] : memref<8xf32, 3>
        scf.yield %y : f32
      }
      memref.store %r, %out[%tid] : memref<8xf32>
      gpu.return
    }
    gpu.func @sibling_switch(%out: memref<8xf32>) workgroup(%s: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %tid = gpu.thread_id x
      scf.index_switch %tid
      case 0 {
        // CHECK: threads.mlir:[[# @LINE + 1]]:9: error: 'memref.store' op writes workgroup memory that another thread wrote, with no gpu.barrier between the two (this thread has x = 0, the other x = 1) (write-after-write between threads)
        memref.store %one, %s[%c1] : memref<8xf32, 3>
        scf.yield
      }
      case 1 {
        memref.store %one, %s[%c1] : memref<8xf32, 3>
        scf.yield
      }
      default {
        %y = memref.load %s[%c0] : memref<8xf32, 3>
        memref.store %y, %out[%tid] : memref<8xf32>
      }
      gpu.return
    }
    // Silent: a block of one thread has no other thread (trial 15: the
    // store and the load were reported between threads).
    gpu.func @one_thread(%out: memref<8xf32>) workgroup(%s: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %s[%c0] : memref<8xf32, 3>
      %y = memref.load %s[%c0] : memref<8xf32, 3>
      memref.store %y, %out[%c0] : memref<8xf32>
      gpu.return
    }
    // Silent: the elected thread stores, the others read after the
    // barrier; every thread adds to one element atomically; the then
    // region writes elements 0-3, the else region reads element 4 + tid;
    // thread t copies s[t::2] into s[4 + t::2] (strided views that
    // interleave); the masked load of the else region reads elements 5 and
    // 6 of its hull 4-7, which thread 0 does not write.
    gpu.func @clean(%out: memref<8xf32>) workgroup(%s: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %five = arith.constant 5.0 : f32
      %z = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        linalg.fill ins(%z : f32) outs(%s : memref<8xf32, 3>)
      }
      gpu.barrier
      %old = memref.atomic_rmw addf %five, %s[%c4] : (f32, memref<8xf32, 3>) -> f32
      gpu.barrier
      %r = scf.if %first -> f32 {
        scf.for %k = %c0 to %c4 step %c1 {
          %ki = arith.index_cast %k : index to i32
          %kf = arith.sitofp %ki : i32 to f32
          memref.store %kf, %s[%k] : memref<8xf32, 3>
        }
        scf.yield %z : f32
      } else {
        %e = arith.addi %tid, %c4 : index
        %y = memref.load %s[%e] : memref<8xf32, 3>
        scf.yield %y : f32
      }
      gpu.barrier
      %src = memref.subview %s[%tid] [2] [2] : memref<8xf32, 3> to memref<2xf32, strided<[2], offset: ?>, 3>
      %t4 = arith.addi %tid, %c4 : index
      %dst = memref.subview %s[%t4] [2] [2] : memref<8xf32, 3> to memref<2xf32, strided<[2], offset: ?>, 3>
      memref.copy %src, %dst : memref<2xf32, strided<[2], offset: ?>, 3> to memref<2xf32, strided<[2], offset: ?>, 3>
      gpu.barrier
      %m = arith.constant dense<[false, true, true, false]> : vector<4xi1>
      %pass = arith.constant dense<0.0> : vector<4xf32>
      %w = scf.if %first -> f32 {
        memref.store %five, %s[%c4] : memref<8xf32, 3>
        scf.yield %z : f32
      } else {
        %v = vector.maskedload %s[%c4], %m, %pass : memref<8xf32, 3>, vector<4xi1>, vector<4xf32> into vector<4xf32>
        %v1 = vector.extract %v[1] : f32 from vector<4xf32>
        scf.yield %v1 : f32
      }
      gpu.barrier
      // out = [s[0..4) (thread 0), then from thread 1: s[4], r (s[5]
      // before the copy), w (s[5] after it: thread 1's copy of s[1]), s[4]].
      %is1 = arith.cmpi eq, %tid, %c1 : index
      scf.if %first {
        %a = vector.load %s[%c0] : memref<8xf32, 3>, vector<4xf32>
        vector.store %a, %out[%c0] : memref<8xf32>, vector<4xf32>
      }
      scf.if %is1 {
        %c5 = arith.constant 5 : index
        %c6 = arith.constant 6 : index
        %c7 = arith.constant 7 : index
        %b = memref.load %s[%c4] : memref<8xf32, 3>
        memref.store %b, %out[%c4] : memref<8xf32>
        memref.store %r, %out[%c5] : memref<8xf32>
        memref.store %w, %out[%c6] : memref<8xf32>
        memref.store %b, %out[%c7] : memref<8xf32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run_same_store() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@same_store blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<8xf32>)
    return
  }
  func.func @run_sibling_if() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@sibling_if blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<8xf32>)
    return
  }
  func.func @run_sibling_switch() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@sibling_switch blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<8xf32>)
    return
  }
  func.func @run_clean() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %out = memref.alloc() : memref<8xf32>
    gpu.launch_func @kernels::@clean blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%out : memref<8xf32>)
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
