// apipe-check-hazards: races between two threads' plain accesses of
// workgroup memory, with no gpu.barrier between them (a fresh-user trial:
// a scratch buffer written synchronously in a pipelined loop, its barrier
// removed, went unreported, and so did a kernel with no async copy at all).
// Each racy kernel has a twin with the barrier, which is silent; apipe-run
// reports the races and runs the twins clean.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=run_racy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: apipe-run %s --entry=run_clean --schedule=forward,reverse,random:3 2>&1 | FileCheck %s --check-prefix=CLEAN --implicit-check-not=error
// RACE: error: {{.*}}race
// CLEAN: [31,  30,  29,
// CLEAN: [93,  90,  87,
// CLEAN: [31,  30,  29,
// CLEAN: [93,  90,  87,
// CLEAN: [31,  30,  29,
// CLEAN: [93,  90,  87,
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread writes its element, then reads its mirror's.
    gpu.func @mirror(%out: memref<32xf32>) workgroup(%scr: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c31 = arith.constant 31 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %scr[%tid] : memref<32xf32, 3>
      %o = arith.subi %c31, %tid : index
      // CHECK: plain-races.mlir:[[# @LINE + 1]]:12: error: 'memref.load' op reads workgroup memory that another thread wrote, with no gpu.barrier between the two (this thread has x = 0, the other x = 31) (read-after-write between threads)
      %y = memref.load %scr[%o] : memref<32xf32, 3>
      memref.store %y, %out[%tid] : memref<32xf32>
      gpu.return
    }
    gpu.func @mirror_barrier(%out: memref<32xf32>) workgroup(%scr: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c31 = arith.constant 31 : index
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %scr[%tid] : memref<32xf32, 3>
      gpu.barrier
      %o = arith.subi %c31, %tid : index
      %y = memref.load %scr[%o] : memref<32xf32, 3>
      memref.store %y, %out[%tid] : memref<32xf32>
      gpu.return
    }
    // A loop: the next iteration's write of the scratch element may come
    // before the mirror thread's read of this iteration.
    gpu.func @loop(%out: memref<32xf32>, %n: index) workgroup(%scr: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %z = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %o = arith.subi %c31, %tid : index
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
        // CHECK: plain-races.mlir:[[# @LINE + 1]]:9: error: 'memref.store' op writes workgroup memory that another thread read, with no gpu.barrier between the two
        memref.store %f, %scr[%tid] : memref<32xf32, 3>
        gpu.barrier
        %y = memref.load %scr[%o] : memref<32xf32, 3>
        %a = arith.addf %acc, %y : f32
        scf.yield %a : f32
      }
      memref.store %r, %out[%tid] : memref<32xf32>
      gpu.return
    }
    gpu.func @loop_barrier(%out: memref<32xf32>, %n: index) workgroup(%scr: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %z = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %o = arith.subi %c31, %tid : index
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
        memref.store %f, %scr[%tid] : memref<32xf32, 3>
        gpu.barrier
        %y = memref.load %scr[%o] : memref<32xf32, 3>
        %a = arith.addf %acc, %y : f32
        gpu.barrier
        scf.yield %a : f32
      }
      memref.store %r, %out[%tid] : memref<32xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run_racy() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = memref.alloc() : memref<32xf32>
    gpu.launch_func @kernels::@mirror blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    return
  }
  func.func @run_clean() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %out = memref.alloc() : memref<32xf32>
    gpu.launch_func @kernels::@mirror_barrier blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>)
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %c3 = arith.constant 3 : index
    gpu.launch_func @kernels::@loop_barrier blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xf32>, %c3 : index)
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
