// apipe-check-hazards on a kernel whose two workgroup buffers are swapped
// through scf.for iter_args (`scf.yield %next, %cur`), one thread's
// element read by its neighbour: a barrier after the wait (read side) and
// one before the next iteration's copy (write side) are both needed. The
// checker follows the swap to the buffers: the kernel is silent, and each
// twin without one of the barriers is a missing-barrier error (before,
// all three were "possible hazard" remarks). The emulator agrees: the
// correct kernel prints what make-sync prints in every completion mode
// and schedule, and each twin has races.
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error: --implicit-check-not=remark:
// RUN: awk '/^\/\/ -----$/{n++; next} n==0' %s > %t.0.mlir
// RUN: awk '/^\/\/ -----$/{n++; next} n==1' %s > %t.1.mlir
// RUN: awk '/^\/\/ -----$/{n++; next} n==2' %s > %t.2.mlir
// RUN: apipe-opt %t.0.mlir --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %t.0.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=ALL
// RUN: not apipe-run %t.1.mlir 2>&1 | FileCheck %s --check-prefix=EMU1
// RUN: not apipe-run %t.2.mlir 2>&1 | FileCheck %s --check-prefix=EMU2
// CHECK: [904,  912,  920,  928,  936,  944,  952,  960,  968,  976,  984,  992,  1000,  1008,  1016,  1024,  1032,  1040,  1048,  1056,  1064,  1072,  1080,  1088,  1096,  1104,  1112,  1120,  1128,  1136,  1144,  896]
// ALL-COUNT-6: [904,  912,  920,  928,  936,  944,  952,  960,  968,  976,  984,  992,  1000,  1008,  1016,  1024,  1032,  1040,  1048,  1056,  1064,  1072,  1080,  1088,  1096,  1104,  1112,  1120,  1128,  1136,  1144,  896]
// EMU2: error: race (WAR) on shared memory

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c4096 = arith.constant 4096 : index
    %A = memref.alloc() : memref<4096xf32>
    scf.for %i = %c0 to %c4096 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4096xf32>
    }
    %out = memref.alloc() : memref<128xf32>
    gpu.launch_func @pp::@pp blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %out : memref<128xf32>)
    %s = memref.subview %out[0] [32] [1] : memref<128xf32> to memref<32xf32, strided<[1]>>
    %u = memref.cast %s : memref<32xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
gpu.module @pp {
  gpu.func @pp(%A: memref<4096xf32>, %out: memref<128xf32>) workgroup(%a: memref<32xf32, 3>, %b: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    %c7 = arith.constant 7 : index
    %tid = gpu.thread_id x
    apipe.copy %A[%tid], %a[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
    apipe.commit_group
    %acc0 = arith.constant 0.0 : f32
    %r:3 = scf.for %i = %c0 to %c8 step %c1 iter_args(%cur = %a, %next = %b, %acc = %acc0) -> (memref<32xf32, 3>, memref<32xf32, 3>, f32) {
      %more = arith.cmpi ult, %i, %c7 : index
      scf.if %more {
        %i1 = arith.addi %i, %c1 : index
        %o = arith.muli %i1, %c32 : index
        %src = arith.addi %o, %tid : index
        apipe.copy %A[%src], %next[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 1
      gpu.barrier
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c32 : index
      %x = memref.load %cur[%nb] : memref<32xf32, 3>
      %s = arith.addf %acc, %x : f32
      gpu.barrier
      scf.yield %next, %cur, %s : memref<32xf32, 3>, memref<32xf32, 3>, f32
    }
    apipe.wait_group 0
    memref.store %r#2, %out[%tid] : memref<128xf32>
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c4096 = arith.constant 4096 : index
    %A = memref.alloc() : memref<4096xf32>
    scf.for %i = %c0 to %c4096 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4096xf32>
    }
    %out = memref.alloc() : memref<128xf32>
    gpu.launch_func @pp::@pp blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %out : memref<128xf32>)
    %s = memref.subview %out[0] [32] [1] : memref<128xf32> to memref<32xf32, strided<[1]>>
    %u = memref.cast %s : memref<32xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
gpu.module @pp {
  gpu.func @pp(%A: memref<4096xf32>, %out: memref<128xf32>) workgroup(%a: memref<32xf32, 3>, %b: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    %c7 = arith.constant 7 : index
    %tid = gpu.thread_id x
    apipe.copy %A[%tid], %a[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
    apipe.commit_group
    %acc0 = arith.constant 0.0 : f32
    %r:3 = scf.for %i = %c0 to %c8 step %c1 iter_args(%cur = %a, %next = %b, %acc = %acc0) -> (memref<32xf32, 3>, memref<32xf32, 3>, f32) {
      %more = arith.cmpi ult, %i, %c7 : index
      scf.if %more {
        %i1 = arith.addi %i, %c1 : index
        %o = arith.muli %i1, %c32 : index
        %src = arith.addi %o, %tid : index
        apipe.copy %A[%src], %next[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 1
      // ERR: check-hazards-chosen-buffers-kernel.mlir:[[# @LINE + 4]]:12: error: 'memref.load' op reads data that other threads copied asynchronously, with no gpu.barrier between the wait that completes it and this read (missing barrier)
      // EMU1: error: race (RAW) on shared memory
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c32 : index
      %x = memref.load %cur[%nb] : memref<32xf32, 3>
      %s = arith.addf %acc, %x : f32
      gpu.barrier
      scf.yield %next, %cur, %s : memref<32xf32, 3>, memref<32xf32, 3>, f32
    }
    apipe.wait_group 0
    memref.store %r#2, %out[%tid] : memref<128xf32>
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c4096 = arith.constant 4096 : index
    %A = memref.alloc() : memref<4096xf32>
    scf.for %i = %c0 to %c4096 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4096xf32>
    }
    %out = memref.alloc() : memref<128xf32>
    gpu.launch_func @pp::@pp blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %out : memref<128xf32>)
    %s = memref.subview %out[0] [32] [1] : memref<128xf32> to memref<32xf32, strided<[1]>>
    %u = memref.cast %s : memref<32xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
gpu.module @pp {
  gpu.func @pp(%A: memref<4096xf32>, %out: memref<128xf32>) workgroup(%a: memref<32xf32, 3>, %b: memref<32xf32, 3>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    %c7 = arith.constant 7 : index
    %tid = gpu.thread_id x
    apipe.copy %A[%tid], %a[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
    apipe.commit_group
    %acc0 = arith.constant 0.0 : f32
    %r:3 = scf.for %i = %c0 to %c8 step %c1 iter_args(%cur = %a, %next = %b, %acc = %acc0) -> (memref<32xf32, 3>, memref<32xf32, 3>, f32) {
      %more = arith.cmpi ult, %i, %c7 : index
      scf.if %more {
        %i1 = arith.addi %i, %c1 : index
        %o = arith.muli %i1, %c32 : index
        %src = arith.addi %o, %tid : index
        // ERR: check-hazards-chosen-buffers-kernel.mlir:[[# @LINE + 1]]:9: error: 'apipe.copy' op overwrites data that other threads may still be reading, with no gpu.barrier between their read and this copy (missing barrier)
        apipe.copy %A[%src], %next[%tid], 1 : memref<4096xf32> to memref<32xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 1
      gpu.barrier
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c32 : index
      %x = memref.load %cur[%nb] : memref<32xf32, 3>
      %s = arith.addf %acc, %x : f32
      scf.yield %next, %cur, %s : memref<32xf32, 3>, memref<32xf32, 3>, f32
    }
    apipe.wait_group 0
    memref.store %r#2, %out[%tid] : memref<128xf32>
    gpu.return
  }
}
}
