// A thread stores into the global source of its own asynchronous copy
// while the copy is in flight (no wait completes it first). PTX gives the
// copy no defined value then (cp.async reads its source at some point
// before the wait_group that completes it), and the emulator shows it with
// the race checker off: in lazy mode the copy lands the stored -7, in
// eager mode the old value. apipe-check-hazards reports the WAR statically
// (HAZARD), and `apipe-run --racecheck` at run time, with the thread, the
// byte of the source buffer and a note at the copy (CHECK), in every
// completion mode. gpu-racecheck-copy-source-variants.mlir has the other
// threads, blocks, sizes and orders.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=HAZARD
// HAZARD: :41:7: error: 'memref.store' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
// HAZARD: :39:7: note: the async copy still in flight
// RUN: apipe-run %s --no-racecheck --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=VALUES
// VALUES: [-6,  -6]
// VALUES: [1,  2]
// RUN: not apipe-run %s --completion=lazy,eager,random:3 2>&1 | FileCheck %s
// Once per pair of ops and run (thread 1's store is the same pair):
// CHECK: // apipe-run: completion=lazy
// CHECK-NEXT: :41:7: error: thread (0,0,0) of block (0,0,0) writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
// CHECK-NEXT: :39:7: note: the copy in flight
// CHECK-NEXT: :60:5: error: the kernel has races (see above)
// CHECK-NEXT: // apipe-run: completion=
// CHECK-NEXT: :41:7: error: thread (0,0,0) of block (0,0,0) writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
// CHECK-NEXT: :39:7: note: the copy in flight
// CHECK-NEXT: :60:5: error: the kernel has races (see above)
// CHECK-NEXT: // apipe-run: completion=
// CHECK-NEXT: :41:7: error: thread (0,0,0) of block (0,0,0) writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy'){{$}}
// CHECK-NEXT: :39:7: note: the copy in flight
// CHECK-NEXT: :60:5: error: the kernel has races (see above)
// CHECK-NOT: [

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<2xf32>, %out: memref<2xf32>) workgroup(%buf: memref<2xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %one = arith.constant 1.0 : f32
      %bad = arith.constant -7.0 : f32
      %tid = gpu.thread_id x
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<2xf32> to memref<2xf32, 3>
      apipe.commit_group
      memref.store %bad, %A[%tid] : memref<2xf32>
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<2xf32, 3>
      %y = arith.addf %x, %one : f32
      memref.store %y, %out[%tid] : memref<2xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %f0 = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32
    %A = memref.alloc() : memref<2xf32>
    %out = memref.alloc() : memref<2xf32>
    memref.store %f0, %A[%c0] : memref<2xf32>
    memref.store %f1, %A[%c1] : memref<2xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<2xf32>, %out : memref<2xf32>)
    %u = memref.cast %out : memref<2xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
