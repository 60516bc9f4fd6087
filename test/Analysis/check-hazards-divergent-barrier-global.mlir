// A thread-dependent value that goes through global memory decides a
// gpu.barrier (trial 45 F1, its global form). The race checker does not
// compare plain accesses to global memory between threads, and the
// divergence analysis took a load at a uniform address as uniform: the
// deadlock was missed. A global buffer that an op writes with a
// thread-dependent operand now makes its loads thread-dependent, through
// views and across `memref.get_global` ops of one symbol; so does one
// written atomically or by some threads only (under a branch or loop that
// depends on the thread id, trial 49 F2 and F3, also by a linalg op, trial
// 50 F1), or passed to a call (the callee may read its own thread id,
// trial 50 F2); also a copy out of a thread's own buffer, a linalg body
// yielding the thread id, and a callee writing a global it names itself
// (trial 51 F1-F3). A buffer
// written only with uniform operands, or never written, keeps uniform
// loads uniform.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=run_subview 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: apipe-run %s --entry=run_uniform | FileCheck %s --check-prefix=UNIFORM
// RUN: not apipe-run %s --entry=run_atomic --completion=lazy 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// DEADLOCK: error: deadlock: thread
// UNIFORM: [1,  1,  1,  1]
module attributes {gpu.container_module} {
  gpu.module @k {
    memref.global "private" @flag : memref<2xindex> = dense<0>
    memref.global "private" @sum : memref<2xf32> = dense<0.0>
    gpu.func @subview(%out: memref<4xf32>, %g: memref<8xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %t2 = arith.muli %tid, %c2 : index
      %view = memref.subview %g[4] [4] [1] : memref<8xindex> to memref<4xindex, strided<[1], offset: 4>>
      memref.store %t2, %view[%c0] : memref<4xindex, strided<[1], offset: 4>>
      %c4 = arith.constant 4 : index
      %v = memref.load %g[%c4] : memref<8xindex>
      %cond = arith.cmpi eq, %v, %c0 : index
      scf.if %cond {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      %f = arith.constant 1.0 : f32
      memref.store %f, %out[%tid] : memref<4xf32>
      gpu.return
    }
    gpu.func @global(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %w = memref.get_global @flag : memref<2xindex>
      memref.store %tid, %w[%c1] : memref<2xindex>
      %r = memref.get_global @flag : memref<2xindex>
      %v = memref.load %r[%c1] : memref<2xindex>
      %n = arith.addi %v, %c1 : index
      scf.for %i = %c0 to %n step %c1 {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      gpu.return
    }
    gpu.func @elected(%out: memref<4xf32>, %g: memref<8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %five = arith.constant 5 : i32
      %tid = gpu.thread_id x
      // A uniform value at a uniform index, stored by thread 3 only
      // (trial 49 F2): the threads may load different values.
      %last = arith.cmpi eq, %tid, %c3 : index
      scf.if %last {
        memref.store %five, %g[%c1] : memref<8xi32>
      }
      %v = memref.load %g[%c1] : memref<8xi32>
      %n = arith.index_cast %v : i32 to index
      scf.for %i = %c0 to %n step %c1 {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      gpu.return
    }
    gpu.func @atomic(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %four = arith.constant 4.0 : f32
      %tid = gpu.thread_id x
      // Uniform operands, but each thread sees the updates of the threads
      // before it (trial 49 F3).
      %w = memref.get_global @sum : memref<2xf32>
      %old = memref.atomic_rmw addf %one, %w[%c0] : (f32, memref<2xf32>) -> f32
      %v = memref.load %w[%c0] : memref<2xf32>
      %all = arith.cmpf oeq, %v, %four : f32
      scf.if %all {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      memref.store %v, %out[%tid] : memref<4xf32>
      gpu.return
    }
    gpu.func @filled(%out: memref<4xf32>, %g: memref<8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %seven = arith.constant 7 : i32
      %tid = gpu.thread_id x
      // A linalg op (it has a body) under a branch on the thread id
      // (trial 50 F1).
      %two = arith.cmpi eq, %tid, %c2 : index
      scf.if %two {
        %half = memref.subview %g[4] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 4>>
        linalg.fill ins(%seven : i32) outs(%half : memref<4xi32, strided<[1], offset: 4>>)
      }
      %v = memref.load %g[%c4] : memref<8xi32>
      %set = arith.cmpi eq, %v, %seven : i32
      scf.if %set {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      gpu.return
    }
    func.func @mark(%g: memref<8xi32>) {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %one, %g[%c0] : memref<8xi32>
      }
      return
    }
    gpu.func @helper(%out: memref<4xf32>, %g: memref<8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      // The callee reads its own thread id (trial 50 F2).
      func.call @mark(%g) : (memref<8xi32>) -> ()
      %v = memref.load %g[%c0] : memref<8xi32>
      %set = arith.cmpi eq, %v, %one : i32
      scf.if %set {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      gpu.return
    }
    gpu.func @copied_own(%out: memref<4xf32>, %g: memref<8xindex>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      // A buffer of the thread's own, holding its id, copied into the
      // global (trial 51 F1).
      %own = memref.alloca() : memref<1xindex>
      memref.store %tid, %own[%c0] : memref<1xindex>
      %head = memref.subview %g[0] [1] [1] : memref<8xindex> to memref<1xindex, strided<[1]>>
      memref.copy %own, %head : memref<1xindex> to memref<1xindex, strided<[1]>>
      %v = memref.load %g[%c0] : memref<8xindex>
      %zero = arith.cmpi eq, %v, %c0 : index
      scf.if %zero {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      gpu.return
    }
    gpu.func @generic(%out: memref<4xf32>, %g: memref<8xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      // The body yields a value from outside it (trial 51 F2).
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%g : memref<8xindex>) {
      ^bb0(%x: index):
        linalg.yield %tid : index
      }
      %v = memref.load %g[%c1] : memref<8xindex>
      scf.for %i = %c0 to %v step %c1 {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      gpu.return
    }
    func.func @stamp() {
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %w = memref.get_global @flag : memref<2xindex>
      memref.store %tid, %w[%c1] : memref<2xindex>
      return
    }
    gpu.func @helper_global(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // The callee writes a global it names itself (trial 51 F3).
      func.call @stamp() : () -> ()
      %r = memref.get_global @flag : memref<2xindex>
      %v = memref.load %r[%c1] : memref<2xindex>
      %zero = arith.cmpi eq, %v, %c0 : index
      scf.if %zero {
        // CHECK: check-hazards-divergent-barrier-global.mlir:[[# @LINE + 1]]:9: error: 'gpu.barrier' op may be reached by only some threads of the block
        gpu.barrier
      }
      gpu.return
    }
    gpu.func @uniform(%out: memref<4xf32>, %g: memref<8xindex>, %params: memref<2xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %tid = gpu.thread_id x
      // Every thread stores the same value: a uniform load.
      memref.store %c7, %g[%c0] : memref<8xindex>
      %v = memref.load %g[%c0] : memref<8xindex>
      // A buffer the kernel never writes with a thread-dependent operand.
      %p = memref.load %params[%c0] : memref<2xindex>
      %cond = arith.cmpi ult, %p, %v : index
      scf.if %cond {
        gpu.barrier
      }
      %f = arith.constant 1.0 : f32
      memref.store %f, %out[%tid] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run_subview() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<4xf32>
    %g = memref.alloc() : memref<8xindex>
    gpu.launch_func @k::@subview blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>, %g : memref<8xindex>)
    return
  }
  func.func @run_uniform() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<4xf32>
    %g = memref.alloc() : memref<8xindex>
    %params = memref.alloc() : memref<2xindex>
    memref.store %c1, %params[%c0] : memref<2xindex>
    gpu.launch_func @k::@uniform blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>, %g : memref<8xindex>, %params : memref<2xindex>)
    %u = memref.cast %out : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func @run_atomic() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc() : memref<4xf32>
    gpu.launch_func @k::@atomic blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    return
  }
}
