// An `apipe.mbarrier_arrive_copies` tracks every earlier copy of the
// thread, committed or not; apipe-run retires them with the arrival, so a
// `wait_group` after it completes none of them (trial 58: a copy committed
// before the arrive was taken as completed by the `wait_group 0` after
// it; the checker was silent, and apipe-run reported the read under
// `eager`). Only a wait on the ring's phase completes them.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=committed_then_arrive --completion=eager 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not apipe-run %s --entry=arrive_then_committed --completion=eager 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: apipe-run %s --entry=phase_wait --completion=eager,lazy,random:3 | FileCheck %s --check-prefix=OK
// RACE: error: the host reads global memory byte 4 of the destination buffer of its own asynchronous copy still in flight
// OK-COUNT-3: 3

func.func @data() -> (memref<8xf32>, memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<8xf32>
  %B = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %A[%i] : memref<8xf32>
  }
  return %A, %B : memref<8xf32>, memref<2xf32>
}
func.func @committed_then_arrive() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %A, %B = func.call @data() : () -> (memref<8xf32>, memref<2xf32>)
  apipe.copy %A[%c2], %B[%c0], 2 : memref<8xf32> to memref<2xf32>
  apipe.commit_group
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c2] : memref<4xi64, 3>
  apipe.wait_group 0
  // CHECK: check-hazards-arrive-then-wait-group.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %B[%c1] : memref<2xf32>
  // vector.print has unknown memory effects: a write of any memory.
  // CHECK: check-hazards-arrive-then-wait-group.mlir:[[# @LINE + 1]]:3: error: 'vector.print' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
  vector.print %x : f32
  return
}
func.func @arrive_then_committed() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %A, %B = func.call @data() : () -> (memref<8xf32>, memref<2xf32>)
  apipe.copy %A[%c2], %B[%c0], 2 : memref<8xf32> to memref<2xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c2] : memref<4xi64, 3>
  apipe.commit_group
  apipe.wait_group 0
  // CHECK: check-hazards-arrive-then-wait-group.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %B[%c1] : memref<2xf32>
  // CHECK: check-hazards-arrive-then-wait-group.mlir:[[# @LINE + 1]]:3: error: 'vector.print' op writes a buffer region that an async copy may still be reading (its source) (write-after-read)
  vector.print %x : f32
  return
}
// The wait on the arrive's phase completes the copy: silent.
func.func @phase_wait() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %A, %B = func.call @data() : () -> (memref<8xf32>, memref<2xf32>)
  apipe.copy %A[%c2], %B[%c0], 2 : memref<8xf32> to memref<2xf32>
  apipe.commit_group
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c2] : memref<4xi64, 3>
  apipe.mbarrier_wait %ring[%c2], %false : memref<4xi64, 3>
  %x = memref.load %B[%c1] : memref<2xf32>
  vector.print %x : f32
  return
}
