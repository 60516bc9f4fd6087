// The race checker on a copy that two arrivals track: as
// cp.async.mbarrier.arrive tracks every earlier cp.async of the thread,
// a copy issued before arrivals on slot 0 and then on slot 1 is complete
// when either slot's phase is, and a wait on either phase orders it
// before the waiting thread. The emulator retires it through the earliest
// arrival (slot 0); a wait on slot 1 must order it too.
//
// @kernel: 2 threads; thread t copies A[4t ..] into buf[4t ..] (copy 1),
// arrives on slot 0, copies A[8 + 4t ..] into buf[8 + 4t ..] (copy 2),
// arrives on slot 1, waits on one slot, then copies the OTHER thread's
// half of one copy's bytes to out (no barrier):
//   mode 0: waits on slot 0, reads the other thread's copy 2 (broken:
//           slot 0's arrivals do not track copy 2);
//   mode 1: waits on slot 1, reads the other thread's copy 1 (correct:
//           slot 1's arrivals track copy 1 as well);
//   mode 2: waits on slot 1, reads the other thread's copy 2 (correct);
//   mode 3: waits on slot 1, then stores into A[4(1-t)], the source of
//           the other thread's copy 1, and reads its copy 2 (correct).
//
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=first 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: [0,  1,  2,  3,  4,  5,  6,  7]
// RUN: apipe-run %s --entry=first --completion=lazy,eager,random:1,random:2 --schedule=forward,reverse,random:3 2>&1 | FileCheck %s --check-prefix=FIRST-MODES --implicit-check-not=error
// FIRST-MODES-COUNT-12: [0,  1,  2,  3,  4,  5,  6,  7]
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=second 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: [8,  9,  10,  11,  12,  13,  14,  15]
// RUN: apipe-run %s --entry=second --completion=lazy,eager,random:1,random:2 --schedule=forward,reverse,random:3 2>&1 | FileCheck %s --check-prefix=SECOND-MODES --implicit-check-not=error
// SECOND-MODES-COUNT-12: [8,  9,  10,  11,  12,  13,  14,  15]
// RUN: apipe-run %s --entry=source --completion=lazy,eager,random:1,random:2 --schedule=forward,reverse,random:3 2>&1 | FileCheck %s --check-prefix=SECOND-MODES --implicit-check-not=error
//
// RUN: not apipe-run %s --entry=early --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY-NOT: [8,

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%A: memref<16xi32>, %out: memref<8xi32>, %mode: index)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %false = arith.constant false
      %m7 = arith.constant -7 : i32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c2 : memref<2xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
      %lane2 = arith.addi %lane, %c8 : index
      apipe.copy %A[%lane2], %buf[%lane2], 4 : memref<16xi32> to memref<16xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
      %early = arith.cmpi eq, %mode, %c0 : index
      %slot = arith.select %early, %c0, %c1 : index
      apipe.mbarrier_wait %ring[%slot], %false : memref<2xi64, 3>
      %other = arith.subi %c4, %lane : index
      %in_first = arith.cmpi eq, %mode, %c1 : index
      %m3 = arith.cmpi eq, %mode, %c3 : index
      scf.if %m3 {
        memref.store %m7, %A[%other] : memref<16xi32>
      }
      %base = arith.select %in_first, %c0, %c8 : index
      %start = arith.addi %base, %other : index
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %start, %k : index
        // EARLY-COUNT-6: gpu-racecheck-mbarrier-later-slot.mlir:[[# @LINE + 1]]:14: error: race (RAW) on shared memory byte {{[0-9]+}} {{.*}} thread ({{[01]}},0,0) of block (0,0,0) reads it, and thread ({{[01]}},0,0) writes it
        %x = memref.load %buf[%i] : memref<16xi32, 3>
        %o = arith.addi %other, %k : index
        memref.store %x, %out[%o] : memref<8xi32>
      }
      gpu.return
    }
  }

  func.func @run(%mode: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %A = memref.alloc() : memref<16xi32>
    %out = memref.alloc() : memref<8xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<16xi32>
    }
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<16xi32>, %out : memref<8xi32>, %mode : index)
    %u = memref.cast %out : memref<8xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %A : memref<16xi32>
    memref.dealloc %out : memref<8xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @early() {
    %m = arith.constant 0 : index
    func.call @run(%m) : (index) -> ()
    return
  }
  func.func @first() {
    %m = arith.constant 1 : index
    func.call @run(%m) : (index) -> ()
    return
  }
  func.func @second() {
    %m = arith.constant 2 : index
    func.call @run(%m) : (index) -> ()
    return
  }
  func.func @source() {
    %m = arith.constant 3 : index
    func.call @run(%m) : (index) -> ()
    return
  }
}
