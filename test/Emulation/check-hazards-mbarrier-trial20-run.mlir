// Found by a fresh-user trial of the checker's handling of skipped and
// moved slots (each was silent in the checker, or wrong in apipe-run).
//   @lazy_three_phases: a ring of 1 slot armed three times, then a wait
//     for phase 0 and a read of the third group's data. The wait returns
//     once the first group landed: the read races. apipe-run's lazy mode
//     landed every arrival queued on the slot at the wait (it now lands
//     them only until the waited phase completes) and printed the value.
//   @negative_count: a wait on `x mod 3` and `((x div 3) & 1) != 0` with
//     x = 0 - 1. `arith.remui` and `arith.divui` read x as 2^64 - 1: slot
//     0, parity 1, a phase no arrive armed (a deadlock). The checker took
//     x mod 3 = 2 and the group before phase 0, and was silent.
//   @slot_outside: a wait on `(x & 3) + 5`, slot 5 of a ring of 4. The
//     checker knew x & 3 = 0 and took slot 5 as slot 1.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s --entry=run_three --completion=lazy 2>&1 | FileCheck %s --check-prefix=LAZY
// RUN: not apipe-run %s --entry=run_negative --completion=lazy 2>&1 | FileCheck %s --check-prefix=LAZY-NEG
// RUN: not apipe-run %s --entry=run_outside --completion=lazy 2>&1 | FileCheck %s --check-prefix=LAZY-OUT

func.func @lazy_three_phases(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %false = arith.constant false
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.copy %A[%c8], %buf[%c2, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  // CHECK-DAG: check-hazards-mbarrier-trial20-run.mlir:[[# @LINE + 2]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  // LAZY: check-hazards-mbarrier-trial20-run.mlir:[[# @LINE + 1]]:8: error: the host reads global memory byte 36 of the destination buffer of its own asynchronous copy still in flight
  %a = memref.load %buf[%c2, %c1] : memref<3x4xf32>
  return %a : f32
}

func.func @run_three() {
  %A = memref.alloc() : memref<16xf32>
  %r = func.call @lazy_three_phases(%A) : (memref<16xf32>) -> f32
  // The callee returns with copies in flight, and `vector.print` declares
  // a write of no particular value (all memory, as MLIR's effects say).
  // CHECK-DAG: check-hazards-mbarrier-trial20-run.mlir:[[# @LINE + 1]]:3: error: 'vector.print' op writes a buffer region that an async copy may still be reading
  vector.print %r : f32
  return
}

func.func @negative_count(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %buf = memref.alloc() : memref<4xf32>
  %ring = memref.alloca() : memref<3xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<3xi64, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xf32> to memref<4xf32>
  %s0 = arith.remui %c0, %c3 : index
  apipe.mbarrier_arrive_copies %ring[%s0] : memref<3xi64, 3>
  %d0 = arith.divui %c0, %c3 : index
  %h0 = arith.andi %d0, %c1 : index
  %p0 = arith.cmpi ne, %h0, %c0 : index
  apipe.mbarrier_wait %ring[%s0], %p0 : memref<3xi64, 3>
  %x = arith.subi %c0, %c1 : index
  %s = arith.remui %x, %c3 : index
  %d = arith.divui %x, %c3 : index
  %h = arith.andi %d, %c1 : index
  %p = arith.cmpi ne, %h, %c0 : index
  // The count -1 is 2^64 - 1 to `arith.remui` and `arith.divui` (MLIR's
  // folders compute them in 64 bits): slot 0 and parity 1, phase 1 of slot
  // 0, which no arrive ever completes here.
  // CHECK-DAG: check-hazards-mbarrier-trial20-run.mlir:[[# @LINE + 2]]:3: error: 'apipe.mbarrier_wait' op can deadlock: on some path the group it names is 4 groups old on its ring of 3 slots
  // LAZY-NEG: check-hazards-mbarrier-trial20-run.mlir:[[# @LINE + 1]]:3: error: deadlock: this 'apipe.mbarrier_wait' can never return: it waits for phase 1 (parity 1) of the slot
  apipe.mbarrier_wait %ring[%s], %p : memref<3xi64, 3>
  %a = memref.load %buf[%c1] : memref<4xf32>
  return %a : f32
}

func.func @run_negative() {
  %A = memref.alloc() : memref<16xf32>
  %r = func.call @negative_count(%A) : (memref<16xf32>) -> f32
  vector.print %r : f32
  return
}

func.func @slot_outside(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %buf = memref.alloc() : memref<4xf32>
  %ring = memref.alloca() : memref<4xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<4xi64, 3>
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<16xf32> to memref<4xf32>
  %s0 = arith.andi %c0, %c3 : index
  apipe.mbarrier_arrive_copies %ring[%s0] : memref<4xi64, 3>
  %h = arith.andi %c0, %c4 : index
  %p = arith.cmpi ne, %h, %c0 : index
  %s = arith.addi %s0, %c5 : index
  // CHECK-DAG: check-hazards-mbarrier-trial20-run.mlir:[[# @LINE + 2]]:3: error: 'apipe.mbarrier_wait' op waits on slot 5, outside its ring of 4 slots
  // LAZY-OUT: check-hazards-mbarrier-trial20-run.mlir:[[# @LINE + 1]]:3: error: {{.*}}outside its ring
  apipe.mbarrier_wait %ring[%s], %p : memref<4xi64, 3>
  %a = memref.load %buf[%c1] : memref<4xf32>
  return %a : f32
}

func.func @run_outside() {
  %A = memref.alloc() : memref<16xf32>
  %r = func.call @slot_outside(%A) : (memref<16xf32>) -> f32
  vector.print %r : f32
  return
}
