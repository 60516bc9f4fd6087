// A function the checker refuses does not hide the hazards of the other
// functions of the module: each function is checked on its own, and every
// error of the module is reported, as mlir-opt reports every error. Before,
// the error that fails the mbarrier analysis of @refused (a wait on slot 1,
// which no arrive armed) was the only one, and the read-after-write in
// @racy went unreported (the differential harness's batch modules, where
// one mutant's refusal hid every other program's hazards, found it).
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @refused(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  // The slot of the group after the one armed: `(0 + 1) mod 2` = 1.
  %next = arith.addi %c0, %c1 : index
  %slot = arith.remui %next, %c2 : index
  // CHECK: check-hazards-refused-function.mlir:[[# @LINE + 1]]:3: error: 'apipe.mbarrier_wait' op can deadlock
  apipe.mbarrier_wait %ring[%slot], %false : memref<2xi64, 3>
  %x = memref.load %buf[%c0] : memref<4xf32>
  return %x : f32
}

func.func @racy(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  // CHECK: check-hazards-refused-function.mlir:[[# @LINE + 1]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  %x = memref.load %buf[%c0] : memref<4xf32>
  apipe.wait_group 0
  return %x : f32
}

// A correct function beside them stays silent.
func.func @covered(%A: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
  apipe.commit_group
  apipe.wait_group 0
  %x = memref.load %buf[%c0] : memref<4xf32>
  return %x : f32
}
