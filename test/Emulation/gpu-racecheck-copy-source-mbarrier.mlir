// The race checker's watch on the global sources of copies that an
// mbarrier phase completes (apipe.mbarrier_arrive_copies, then
// apipe.mbarrier_wait): a copy's source stays watched after its arrival
// retires it (at once under --completion=eager) until a wait on that
// phase returns; the waiting thread is then ordered after the copy, every
// other thread only after a gpu.barrier that follows such a wait. A store
// into the source before that is a located error at the store, whatever
// the completion mode and the thread order; exit 1.
//
// @pair: 2 threads; thread t copies A[4t .. 4t+3] into buf[4t], arrives
// on the slot (2 arrivals), waits, then copies buf[4t .. 4t+3] to out.
// One thread stores -7 into A[0] (the source of thread 0's copy):
//   mode 0: thread 0, between its arrival and its wait (broken);
//   mode 1: thread 1, between its arrival and its wait (broken);
//   (a thread that never waits: gpu-racecheck-copy-source-mbarrier-no-wait.mlir)
//   mode 3: thread 1, after its own wait (ordered by that wait);
//   mode 4: thread 1, after the wait and a gpu.barrier.
// @reissue: 1 thread issues the same copy op from the same address twice,
// the first counted on slot 0, the second on slot 1, then waits on slot 0:
//   mode 0: stores into A[0] before the wait on slot 1 (broken: the
//           second copy is still in flight);
//   mode 1: stores after both waits and a gpu.barrier.
//
// Correct programs print what make-sync prints, in every mode and order:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=after_barrier 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=waiter 2>&1 | FileCheck %s --check-prefix=SYNC
// SYNC: [0,  1,  2,  3,  4,  5,  6,  7]
// SYNC: [-7,  1,  2,  3,  4,  5,  6,  7]
// RUN: apipe-run %s --entry=after_barrier --completion=lazy,eager,random:1 --schedule=forward,reverse,random:2 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: apipe-run %s --entry=waiter --completion=lazy,eager,random:1 --schedule=forward,reverse,random:2 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN-NOT: error
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=reissue_after_barrier 2>&1 | FileCheck %s --check-prefix=SYNC1
// SYNC1: [0,  1,  2,  3,  0,  1,  2,  3]
// SYNC1: [-7,  1,  2,  3,  4,  5,  6,  7]
// RUN: apipe-run %s --entry=reissue_after_barrier --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=CLEAN1
// CLEAN1: [0,  1,  2,  3,  0,  1,  2,  3]
// CLEAN1: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN1: [0,  1,  2,  3,  0,  1,  2,  3]
// CLEAN1: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN1: [0,  1,  2,  3,  0,  1,  2,  3]
// CLEAN1: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN1: [0,  1,  2,  3,  0,  1,  2,  3]
// CLEAN1: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN1: [0,  1,  2,  3,  0,  1,  2,  3]
// CLEAN1: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN1: [0,  1,  2,  3,  0,  1,  2,  3]
// CLEAN1: [-7,  1,  2,  3,  4,  5,  6,  7]
// CLEAN1-NOT: error
//
// Broken programs, in every completion mode and thread order:
// RUN: not apipe-run %s --entry=own --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: not apipe-run %s --entry=other --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not apipe-run %s --entry=reissue --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=REISSUE
// (each mode stops at the first run-time error: one report per run)
// OWN-NOT: [0,
// OTHER-NOT: [0,
// REISSUE-NOT: [0,

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @pair(%A: memref<8xi32>, %out: memref<8xi32>, %mode: index)
        workgroup(%buf: memref<8xi32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %m7 = arith.constant -7 : i32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c2 : memref<1xi64, 3>
      }
      gpu.barrier
      %lane = arith.muli %tid, %c4 : index
      apipe.copy %A[%lane], %buf[%lane], 4 : memref<8xi32> to memref<8xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      %m0 = arith.cmpi eq, %mode, %c0 : index
      %own = arith.andi %m0, %first : i1
      scf.if %own {
        // OWN-COUNT-6: gpu-racecheck-copy-source-mbarrier.mlir:[[# @LINE + 1]]:9: error: thread (0,0,0) of block (0,0,0) writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy')
        memref.store %m7, %A[%c0] : memref<8xi32>
      }
      %m1 = arith.cmpi eq, %mode, %c1 : index
      %second = arith.cmpi eq, %tid, %c1 : index
      %other = arith.andi %m1, %second : i1
      scf.if %other {
        // OTHER-COUNT-6: gpu-racecheck-copy-source-mbarrier.mlir:[[# @LINE + 1]]:9: error: race ({{RAW|WAR}}) on global memory byte 0 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) writes it, and the copy of thread (0,0,0), {{issued after it|still in flight}}, reads it with no gpu.barrier between ('memref.store' and 'apipe.copy')
        memref.store %m7, %A[%c0] : memref<8xi32>
      }
      apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      %m3 = arith.cmpi eq, %mode, %c3 : index
      %waiter = arith.andi %m3, %second : i1
      scf.if %waiter {
        memref.store %m7, %A[%c0] : memref<8xi32>
      }
      gpu.barrier
      %m4 = arith.cmpi eq, %mode, %c4 : index
      %late = arith.andi %m4, %second : i1
      scf.if %late {
        memref.store %m7, %A[%c0] : memref<8xi32>
      }
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %lane, %k : index
        %x = memref.load %buf[%i] : memref<8xi32, 3>
        memref.store %x, %out[%i] : memref<8xi32>
      }
      gpu.return
    }

    gpu.func @reissue(%A: memref<8xi32>, %out: memref<8xi32>, %mode: index)
        workgroup(%buf: memref<8xi32, 3>, %ring: memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %false = arith.constant false
      %m7 = arith.constant -7 : i32
      apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
      scf.for %s = %c0 to %c2 step %c1 {
        %at = arith.muli %s, %c4 : index
        apipe.copy %A[%c0], %buf[%at], 4 : memref<8xi32> to memref<8xi32, 3>
        apipe.mbarrier_arrive_copies %ring[%s] : memref<2xi64, 3>
      }
      apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
      %broken = arith.cmpi eq, %mode, %c0 : index
      scf.if %broken {
        // REISSUE-COUNT-6: gpu-racecheck-copy-source-mbarrier.mlir:[[# @LINE + 1]]:9: error: thread (0,0,0) of block (0,0,0) writes global memory byte 0 of the source buffer of its own asynchronous copy still in flight, which may not have read it yet: no wait completes the copy first ('memref.store' and 'apipe.copy')
        memref.store %m7, %A[%c0] : memref<8xi32>
      }
      apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
      gpu.barrier
      scf.if %broken {
      } else {
        memref.store %m7, %A[%c0] : memref<8xi32>
      }
      scf.for %i = %c0 to %c8 step %c1 {
        %x = memref.load %buf[%i] : memref<8xi32, 3>
        memref.store %x, %out[%i] : memref<8xi32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @run(%mode: index, %reissue: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<8xi32>
    %out = memref.alloc() : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<8xi32>
    }
    scf.if %reissue {
      gpu.launch_func @kernels::@reissue blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<8xi32>, %out : memref<8xi32>, %mode : index)
    } else {
      gpu.launch_func @kernels::@pair blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<8xi32>, %out : memref<8xi32>, %mode : index)
    }
    %u = memref.cast %out : memref<8xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %a = memref.cast %A : memref<8xi32> to memref<*xi32>
    func.call @printMemrefI32(%a) : (memref<*xi32>) -> ()
    memref.dealloc %A : memref<8xi32>
    memref.dealloc %out : memref<8xi32>
    return
  }

  func.func @own() {
    %m = arith.constant 0 : index
    %f = arith.constant false
    func.call @run(%m, %f) : (index, i1) -> ()
    return
  }
  func.func @other() {
    %m = arith.constant 1 : index
    %f = arith.constant false
    func.call @run(%m, %f) : (index, i1) -> ()
    return
  }
  func.func @waiter() {
    %m = arith.constant 3 : index
    %f = arith.constant false
    func.call @run(%m, %f) : (index, i1) -> ()
    return
  }
  func.func @after_barrier() {
    %m = arith.constant 4 : index
    %f = arith.constant false
    func.call @run(%m, %f) : (index, i1) -> ()
    return
  }
  func.func @reissue() {
    %m = arith.constant 0 : index
    %t = arith.constant true
    func.call @run(%m, %t) : (index, i1) -> ()
    return
  }
  func.func @reissue_after_barrier() {
    %m = arith.constant 1 : index
    %t = arith.constant true
    func.call @run(%m, %t) : (index, i1) -> ()
    return
  }
}
