// Copy loops whose bounds depend on the thread id (trial 47 F1): the
// block-stride loop `for i = tid; i < N; i += blockDim` and a trip count
// computed from the thread id. Each iteration of each thread copies other
// bytes, so nothing is in flight twice. The checker compared the copy with
// its own earlier iterations as though another thread had issued them
// (the iteration renamed, unrelated to this one) and reported a false
// write-after-write "issued in the previous iteration". It now compares
// the same thread's iterations exactly and other threads' on their own:
// @stride and @trip are silent and print what make-sync prints in every
// mode; a copy into the same slot every iteration (@same_slot) and a
// stride of half the block (@half_stride, threads t and t + 8 copy into
// the same bytes) are still write-after-write errors.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main | FileCheck %s --check-prefix=REF
// RUN: apipe-run %s --entry=run_stride --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=STRIDE
// RUN: apipe-run %s --entry=run_trip --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=TRIP
// RUN: not apipe-run %s --entry=run_same_slot --completion=eager 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: not apipe-run %s --entry=run_half_stride --completion=eager 2>&1 | FileCheck %s --check-prefix=HALF
// REF: [0,  32,  64,  96,  128,  160,  192,  224,  0,  32,  64,  96,  128,  160,  192,  224]
// REF: [0,  16,  32,  48,  64,  80,  96,  112,  128,  144,  160,  176,  192,  208,  224,  240]
// STRIDE-COUNT-6: [0,  32,  64,  96,  128,  160,  192,  224,  0,  32,  64,  96,  128,  160,  192,  224]
// TRIP-COUNT-6: [0,  16,  32,  48,  64,  80,  96,  112,  128,  144,  160,  176,  192,  208,  224,  240]
// SAME: error: thread (0,0,0) of block (0,0,0) writes shared memory byte 0
// HALF: error: race (WAW) on shared memory byte
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @stride(%A: memref<256xf32>, %out: memref<16xf32>)
        workgroup(%buf: memref<128xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      scf.for %i = %tid to %c128 step %c16 {
        %s = arith.addi %i, %i : index
        apipe.copy %A[%s], %buf[%i], 1 : memref<256xf32> to memref<128xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %r = arith.muli %tid, %c16 : index
      %j = arith.remui %r, %c128 : index
      %x = memref.load %buf[%j] : memref<128xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }
    gpu.func @trip(%A: memref<256xf32>, %out: memref<16xf32>)
        workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %m = arith.remui %tid, %c3 : index
      %n = arith.addi %m, %c1 : index
      %base = arith.muli %tid, %c4 : index
      scf.for %j = %c0 to %n step %c1 {
        %d = arith.addi %base, %j : index
        %s = arith.muli %d, %c4 : index
        apipe.copy %A[%s], %buf[%d], 1 : memref<256xf32> to memref<64xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %o = arith.subi %c15, %tid : index
      %b = arith.muli %o, %c4 : index
      %x = memref.load %buf[%b] : memref<64xf32, 3>
      %p = arith.subi %c15, %tid : index
      memref.store %x, %out[%p] : memref<16xf32>
      gpu.return
    }
    gpu.func @same_slot(%A: memref<256xf32>, %out: memref<16xf32>)
        workgroup(%buf: memref<16xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      scf.for %i = %tid to %c128 step %c16 {
        %slot = arith.remui %i, %c16 : index
        // CHECK: thread-strided-copy-loops.mlir:[[# @LINE + 1]]:9: error: 'apipe.copy' op writes a buffer region that an earlier async copy may still be writing
        apipe.copy %A[%i], %buf[%slot], 1 : memref<256xf32> to memref<16xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<16xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }
    gpu.func @half_stride(%A: memref<256xf32>, %out: memref<16xf32>)
        workgroup(%buf: memref<128xf32, 3>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      scf.for %i = %tid to %c128 step %c8 {
        // CHECK: thread-strided-copy-loops.mlir:[[# @LINE + 1]]:9: error: 'apipe.copy' op writes bytes that another thread's async copy may still be writing
        apipe.copy %A[%i], %buf[%i], 1 : memref<256xf32> to memref<128xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<128xf32, 3>
      memref.store %x, %out[%tid] : memref<16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @inputs() -> (memref<256xf32>, memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %f0 = arith.constant -1.0 : f32
    %A = memref.alloc() : memref<256xf32>
    %out = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<256xf32>
    }
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %f0, %out[%i] : memref<16xf32>
    }
    return %A, %out : memref<256xf32>, memref<16xf32>
  }
  func.func @run_stride() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %A, %out = call @inputs() : () -> (memref<256xf32>, memref<16xf32>)
    gpu.launch_func @kernels::@stride blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<256xf32>, %out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func @run_trip() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %A, %out = call @inputs() : () -> (memref<256xf32>, memref<16xf32>)
    gpu.launch_func @kernels::@trip blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<256xf32>, %out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func @main() {
    call @run_stride() : () -> ()
    call @run_trip() : () -> ()
    return
  }
  func.func @run_same_slot() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %A, %out = call @inputs() : () -> (memref<256xf32>, memref<16xf32>)
    gpu.launch_func @kernels::@same_slot blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<256xf32>, %out : memref<16xf32>)
    return
  }
  func.func @run_half_stride() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %A, %out = call @inputs() : () -> (memref<256xf32>, memref<16xf32>)
    gpu.launch_func @kernels::@half_stride blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%A : memref<256xf32>, %out : memref<16xf32>)
    return
  }
}
