// apipe-check-hazards on gpu.barriers that only some threads of the block
// reach: under an scf.if / scf.index_switch on the thread id, in an scf.for
// whose trip count depends on it, in an scf.while whose condition does, and
// in a gpu.launch body under its %tx. Every thread must reach each barrier
// (MLIR gpu.barrier); the threads that skip it leave the others waiting.
// Each is an error at the barrier with a note at the diverging op (the
// checker was silent). apipe-run reports the deadlock of the first. A
// barrier under a uniform condition (a kernel argument, the block id) is
// not reported, nor is a barrier after the divergent region.
// RUN: apipe-opt %s --apipe-check-hazards --verify-diagnostics -o /dev/null
// RUN: not apipe-run %s 2>&1 | FileCheck %s --check-prefix=EMU
// EMU: :[[# @LINE + 15]]:9: error: deadlock: thread (0,0,0) of block (0,0,0) waits at this 'gpu.barrier', but thread (2,0,0) of the block has returned and never reaches it (a barrier in divergent control flow)

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Threads 0 and 1 wait at the barrier; threads 2 and 3 skip it.
    gpu.func @under_if(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      apipe.copy %A[%tx], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %low = arith.cmpi ult, %tx, %c2 : index
      // expected-note @+1 {{the 'scf.if' whose condition depends on the thread id}}
      scf.if %low {
        // expected-error @+1 {{'gpu.barrier' op may be reached by only some threads of the block: every thread must reach each barrier, and the threads that skip it leave the others waiting (a deadlock) (divergent barrier)}}
        gpu.barrier
      }
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@under_if blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }

  gpu.module @more_kernels {
    // Thread t runs t iterations, each with a barrier; through a
    // thread-dependent value (tid + 1) and in a nested uniform if.
    gpu.func @trip_count(%A: memref<64xf32>, %out: memref<64xf32>, %flag: i1) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tx = gpu.thread_id x
      %n = arith.addi %tx, %c1 : index
      // expected-note @+1 {{the 'scf.for' whose bounds or step depend on the thread id (so does its trip count)}}
      scf.for %i = %c0 to %n step %c1 {
        apipe.copy %A[%i], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        scf.if %flag {
          // expected-error @+1 {{'gpu.barrier' op may be reached by only some threads of the block}}
          gpu.barrier
        }
      }
      gpu.return
    }

    // A loop that runs while a value from the thread's y id is below a
    // bound.
    gpu.func @while_cond(%bound: index) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %lane = gpu.thread_id y
      %r = scf.while (%x = %lane) : (index) -> index {
        %more = arith.cmpi ult, %x, %bound : index
        // expected-note @-2 {{the 'scf.while' whose condition depends on the thread id}}
        scf.condition(%more) %x : index
      } do {
      ^bb0(%y: index):
        // expected-error @+1 {{'gpu.barrier' op may be reached by only some threads of the block}}
        gpu.barrier
        %z = arith.addi %y, %c1 : index
        scf.yield %z : index
      }
      gpu.return
    }

    // One case of a switch on the warp of the thread.
    gpu.func @switch_warp(%A: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %w = arith.divui %tx, %c32 : index
      // expected-note @+1 {{the 'scf.index_switch' whose condition depends on the thread id}}
      scf.index_switch %w
      case 0 {
        // expected-error @+1 {{'gpu.barrier' op may be reached by only some threads of the block}}
        gpu.barrier
        scf.yield
      }
      default {
      }
      gpu.return
    }

    // Uniform: under a kernel argument and the block id, and after (not
    // in) a divergent branch. Not reported.
    gpu.func @uniform(%A: memref<64xf32>, %flag: i1) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %low = arith.cmpi ult, %tx, %c2 : index
      scf.if %low {
        apipe.copy %A[%tx], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      scf.if %flag {
        gpu.barrier
      }
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        gpu.barrier
      }
      gpu.return
    }
  }

  gpu.module @branch_kernels {
    // A block that a cf.cond_br on the thread id decides; the entry block
    // (every thread runs it) is not reported.
    gpu.func @cond_br() kernel {
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      gpu.barrier
      %low = arith.cmpi ult, %tx, %c8 : index
      // expected-note @+1 {{the 'cf.cond_br' whose condition depends on the thread id}}
      cf.cond_br %low, ^bb1, ^bb2
    ^bb1:
      // expected-error @+1 {{'gpu.barrier' op may be reached by only some threads of the block}}
      gpu.barrier
      cf.br ^bb2
    ^bb2:
      gpu.return
    }
  }

  // A gpu.launch body: its thread ids are block arguments.
  func.func @launch(%A: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %first = arith.cmpi eq, %tx, %c0 : index
      // expected-note @+1 {{the 'scf.if' whose condition depends on the thread id}}
      scf.if %first {
        // expected-error @+1 {{'gpu.barrier' op may be reached by only some threads of the block}}
        gpu.barrier
      }
      gpu.terminator
    }
    return
  }
}
