// The race checker on the workgroup bytes of copies that an mbarrier phase
// completes (apipe.mbarrier_arrive_copies or apipe.bulk_copy, then
// apipe.mbarrier_wait): a copy's shared destination (and a shared source)
// stays in flight after its arrival retires it (at once under
// --completion=eager) until a wait on that phase returns; the waiting
// thread is then ordered after the copy, every other thread only after a
// gpu.barrier that follows such a wait. An access before that is a
// located error at the access, whatever the completion mode and the
// thread order; exit 1. (Waits that only some threads perform:
// gpu-racecheck-mbarrier-shared-divergent.mlir.)
//
// @pair: 2 threads; thread t copies A[4t .. 4t+3] into buf[4t], arrives
// on the slot (2 arrivals), waits, then copies the OTHER thread's half of
// buf to out (ordered by its own wait, no barrier):
//   mode 0: thread 0 reads buf[0] between its arrival and its wait
//           (broken: its own copy is in flight);
//   mode 1: thread 1 reads buf[0] after a gpu.barrier, before its wait
//           (broken: thread 0's copy is in flight; a barrier alone does
//           not order a copy);
//   mode 2: no such read (correct).
// @shared_src: the same with a shared source: thread t stores A's half
// into src, gpu.barrier, copies src[4t ..] into dst[4t ..], arrives,
// gpu.barrier, waits, gpu.barrier, copies dst to out:
//   mode 0: thread 1 stores -7 into src[0] before its wait (broken: thread
//           0's copy may not have read it);
//   mode 1: thread 1 stores -7 into src[0] after its wait (correct).
// @bulk: thread 0 moves A into buf with one apipe.bulk_copy after
// apipe.mbarrier_expect_tx; both threads arrive, wait and copy buf to out:
//   mode 0: thread 1 reads buf[0] after a gpu.barrier, before its wait
//           (broken);
//   mode 1: no such read (correct).
//
// Correct programs print what make-sync prints, in every mode and order:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=pair_clean 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=bulk_clean 2>&1 | FileCheck %s --check-prefix=SYNC
// SYNC: [0,  1,  2,  3,  4,  5,  6,  7]
// SYNC-NOT: error
// RUN: apipe-run %s --entry=pair_clean --completion=lazy,eager,random:1 --schedule=forward,reverse,random:2 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: apipe-run %s --entry=bulk_clean --completion=lazy,eager,random:1 --schedule=forward,reverse,random:2 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN-COUNT-9: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN-NOT: error
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=src_clean 2>&1 | FileCheck %s --check-prefix=SYNC-SRC
// SYNC-SRC: [0,  1,  2,  3,  4,  5,  6,  7]
// SYNC-SRC-NOT: error
// RUN: apipe-run %s --entry=src_clean --completion=lazy,eager,random:1 --schedule=forward,reverse,random:2 2>&1 | FileCheck %s --check-prefix=CLEAN-SRC
// CLEAN-SRC-COUNT-9: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN-SRC-NOT: error
//
// Broken programs, in every completion mode and thread order (each mode
// stops at the first run-time error: one report per run):
// RUN: not apipe-run %s --entry=pair_own --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: not apipe-run %s --entry=pair_other --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not apipe-run %s --entry=src_other --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=SRC
// RUN: not apipe-run %s --entry=bulk_other --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=BULK
// OWN-NOT: [0,
// OTHER-NOT: [0,
// SRC-NOT: [0,
// BULK-NOT: [0,

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @pair(%A: memref<8xi32>, %out: memref<8xi32>, %mode: index)
        workgroup(%buf: memref<8xi32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      %second = arith.cmpi eq, %tid, %c1 : index
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
        // OWN-COUNT-6: gpu-racecheck-mbarrier-shared.mlir:[[# @LINE + 1]]:14: error: thread (0,0,0) of block (0,0,0) reads shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}) that its own asynchronous copy still in flight writes: no wait completes the copy first ('memref.load' and 'apipe.copy')
        %x = memref.load %buf[%c0] : memref<8xi32, 3>
        memref.store %x, %out[%c0] : memref<8xi32>
      }
      gpu.barrier
      %m1 = arith.cmpi eq, %mode, %c1 : index
      %other = arith.andi %m1, %second : i1
      scf.if %other {
        // OTHER-COUNT-6: gpu-racecheck-mbarrier-shared.mlir:[[# @LINE + 1]]:14: error: race (RAW) on shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it{{( with no gpu.barrier between|, as an asynchronous copy that another thread's 'apipe.mbarrier_wait' completed, with no wait of thread \(1,0,0\) on that phase and no gpu.barrier after the wait)}} ('memref.load' and 'apipe.copy')
        %x = memref.load %buf[%c0] : memref<8xi32, 3>
        memref.store %x, %out[%c0] : memref<8xi32>
      }
      apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      %mine = arith.subi %c4, %lane : index
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %mine, %k : index
        %x = memref.load %buf[%i] : memref<8xi32, 3>
        memref.store %x, %out[%i] : memref<8xi32>
      }
      gpu.return
    }

    gpu.func @shared_src(%A: memref<8xi32>, %out: memref<8xi32>, %mode: index)
        workgroup(%src: memref<8xi32, 3>, %dst: memref<8xi32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %m7 = arith.constant -7 : i32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      %second = arith.cmpi eq, %tid, %c1 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c2 : memref<1xi64, 3>
      }
      %lane = arith.muli %tid, %c4 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %lane, %k : index
        %x = memref.load %A[%i] : memref<8xi32>
        memref.store %x, %src[%i] : memref<8xi32, 3>
      }
      gpu.barrier
      apipe.copy %src[%lane], %dst[%lane], 4 : memref<8xi32, 3> to memref<8xi32, 3>
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      gpu.barrier
      %m0 = arith.cmpi eq, %mode, %c0 : index
      %early = arith.andi %m0, %second : i1
      scf.if %early {
        // SRC-COUNT-6: gpu-racecheck-mbarrier-shared.mlir:[[# @LINE + 1]]:9: error: race (WAR) on shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) writes it, and thread (0,0,0) reads it{{( with no gpu.barrier between|, as an asynchronous copy that another thread's 'apipe.mbarrier_wait' completed, with no wait of thread \(1,0,0\) on that phase and no gpu.barrier after the wait)}} ('memref.store' and 'apipe.copy')
        memref.store %m7, %src[%c0] : memref<8xi32, 3>
      }
      apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      %m1 = arith.cmpi eq, %mode, %c1 : index
      %late = arith.andi %m1, %second : i1
      scf.if %late {
        memref.store %m7, %src[%c0] : memref<8xi32, 3>
      }
      gpu.barrier
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %lane, %k : index
        %x = memref.load %dst[%i] : memref<8xi32, 3>
        memref.store %x, %out[%i] : memref<8xi32>
      }
      gpu.return
    }

    gpu.func @bulk(%A: memref<8xi32>, %out: memref<8xi32>, %mode: index)
        workgroup(%buf: memref<8xi32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      %second = arith.cmpi eq, %tid, %c1 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c2 : memref<1xi64, 3>
      }
      gpu.barrier
      scf.if %first {
        apipe.mbarrier_expect_tx %ring[%c0], 32 : memref<1xi64, 3>
        apipe.bulk_copy %A[%c0], %buf[%c0], 8, %ring[%c0] : memref<8xi32> to memref<8xi32, 3>, memref<1xi64, 3>
      }
      apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      gpu.barrier
      %m0 = arith.cmpi eq, %mode, %c0 : index
      %other = arith.andi %m0, %second : i1
      scf.if %other {
        // BULK-COUNT-6: gpu-racecheck-mbarrier-shared.mlir:[[# @LINE + 1]]:14: error: race (RAW) on shared memory byte 4 (byte 4 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it{{( with no gpu.barrier between|, as an asynchronous copy that another thread's 'apipe.mbarrier_wait' completed, with no wait of thread \(1,0,0\) on that phase and no gpu.barrier after the wait)}} ('memref.load' and 'apipe.bulk_copy')
        %x = memref.load %buf[%c1] : memref<8xi32, 3>
        memref.store %x, %out[%c1] : memref<8xi32>
      }
      apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      %lane = arith.muli %tid, %c4 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %lane, %k : index
        %x = memref.load %buf[%i] : memref<8xi32, 3>
        memref.store %x, %out[%i] : memref<8xi32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  // kernel: 0 @pair, 1 @shared_src, 2 @bulk.
  func.func @run(%kernel: index, %mode: index) {
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
    scf.index_switch %kernel
    case 0 {
      gpu.launch_func @kernels::@pair blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<8xi32>, %out : memref<8xi32>, %mode : index)
      scf.yield
    }
    case 1 {
      gpu.launch_func @kernels::@shared_src blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<8xi32>, %out : memref<8xi32>, %mode : index)
      scf.yield
    }
    default {
      gpu.launch_func @kernels::@bulk blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<8xi32>, %out : memref<8xi32>, %mode : index)
    }
    %u = memref.cast %out : memref<8xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %A : memref<8xi32>
    memref.dealloc %out : memref<8xi32>
    return
  }

  func.func @pair_own() {
    %k = arith.constant 0 : index
    %m = arith.constant 0 : index
    func.call @run(%k, %m) : (index, index) -> ()
    return
  }
  func.func @pair_other() {
    %k = arith.constant 0 : index
    %m = arith.constant 1 : index
    func.call @run(%k, %m) : (index, index) -> ()
    return
  }
  func.func @pair_clean() {
    %k = arith.constant 0 : index
    %m = arith.constant 2 : index
    func.call @run(%k, %m) : (index, index) -> ()
    return
  }
  func.func @src_other() {
    %k = arith.constant 1 : index
    %m = arith.constant 0 : index
    func.call @run(%k, %m) : (index, index) -> ()
    return
  }
  func.func @src_clean() {
    %k = arith.constant 1 : index
    %m = arith.constant 1 : index
    func.call @run(%k, %m) : (index, index) -> ()
    return
  }
  func.func @bulk_other() {
    %k = arith.constant 2 : index
    %m = arith.constant 0 : index
    func.call @run(%k, %m) : (index, index) -> ()
    return
  }
  func.func @bulk_clean() {
    %k = arith.constant 2 : index
    %m = arith.constant 1 : index
    func.call @run(%k, %m) : (index, index) -> ()
    return
  }
}
