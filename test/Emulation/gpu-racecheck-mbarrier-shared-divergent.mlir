// The race checker on the workgroup bytes of a copy that an mbarrier
// phase completes, when only some threads wait on the phase
// (gpu-racecheck-mbarrier-shared.mlir has the waits of every thread;
// apipe-make-sync refuses these kernels: a wait under thread-dependent
// control flow, so the correct ones check their values). Thread 0 copies
// A into buf and arrives (the slot expects 1 arrival); gpu.barrier; then
// one thread waits on the phase:
//   @other_reads: thread 0 waits, thread 1 reads buf[0] with no wait and
//                 no gpu.barrier after thread 0's wait (broken);
//   @issuer_reads: thread 1 waits, thread 0 (the issuer) reads buf[0]
//                  with no wait of its own and no gpu.barrier after
//                  thread 1's wait (broken);
//   @barrier_after_issuer_wait: thread 0 waits, gpu.barrier, thread 1
//                               reads (correct);
//   @barrier_after_other_wait: thread 1 waits, gpu.barrier, thread 0
//                              reads (correct).
// Then every thread copies its half of buf to out after a gpu.barrier.
// RUN: not apipe-run %s --entry=other_reads --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not apipe-run %s --entry=issuer_reads --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=ISSUER
// OTHER-NOT: [0,
// ISSUER-NOT: [0,
// Under the forward order the wait (of thread 0) returned before the read:
// RUN: not apipe-run %s --entry=other_reads --completion=lazy,eager,random:1 --schedule=forward 2>&1 | FileCheck %s --check-prefix=OTHER-AFTER-WAIT
// Under the reverse order the wait (of thread 1) returned before the read:
// RUN: not apipe-run %s --entry=issuer_reads --completion=lazy,eager,random:1 --schedule=reverse 2>&1 | FileCheck %s --check-prefix=ISSUER-AFTER-WAIT
// RUN: apipe-run %s --entry=barrier_after_issuer_wait --completion=lazy,eager,random:1 --schedule=forward,reverse,random:2 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: apipe-run %s --entry=barrier_after_other_wait --completion=lazy,eager,random:1 --schedule=forward,reverse,random:2 2>&1 | FileCheck %s --check-prefix=CLEAN
// CLEAN-COUNT-9: [0,  1,  2,  3,  4,  5,  6,  7]
// CLEAN-NOT: error

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%A: memref<8xi32>, %out: memref<8xi32>, %waiter: index, %reader: index, %barrier: i1)
        workgroup(%buf: memref<8xi32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
      }
      gpu.barrier
      scf.if %first {
        apipe.copy %A[%c0], %buf[%c0], 8 : memref<8xi32> to memref<8xi32, 3>
        apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
      }
      gpu.barrier
      %waits = arith.cmpi eq, %tid, %waiter : index
      scf.if %waits {
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      }
      scf.if %barrier {
        gpu.barrier
      }
      %reads = arith.cmpi eq, %tid, %reader : index
      scf.if %reads {
        // OTHER-COUNT-6: gpu-racecheck-mbarrier-shared-divergent.mlir:[[# @LINE + 4]]:14: error: race (RAW) on shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it{{( with no gpu.barrier between|, as an asynchronous copy that another thread's 'apipe.mbarrier_wait' completed, with no wait of thread \(1,0,0\) on that phase and no gpu.barrier after the wait)}} ('memref.load' and 'apipe.copy')
        // OTHER-AFTER-WAIT-COUNT-3: gpu-racecheck-mbarrier-shared-divergent.mlir:[[# @LINE + 3]]:14: error: race (RAW) on shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}): thread (1,0,0) of block (0,0,0) reads it, and thread (0,0,0) writes it, as an asynchronous copy that another thread's 'apipe.mbarrier_wait' completed, with no wait of thread (1,0,0) on that phase and no gpu.barrier after the wait ('memref.load' and 'apipe.copy')
        // ISSUER-COUNT-6: gpu-racecheck-mbarrier-shared-divergent.mlir:[[# @LINE + 2]]:14: error: thread (0,0,0) of block (0,0,0) reads shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}) that its own asynchronous copy {{(still in flight writes: no wait completes the copy first|writes, which another thread's 'apipe.mbarrier_wait' completed: this thread did not wait on that phase, and no gpu.barrier orders the other thread's wait first)}} ('memref.load' and 'apipe.copy')
        // ISSUER-AFTER-WAIT-COUNT-3: gpu-racecheck-mbarrier-shared-divergent.mlir:[[# @LINE + 1]]:14: error: thread (0,0,0) of block (0,0,0) reads shared memory byte 0 (byte 0 of the workgroup buffer at {{.*}}) that its own asynchronous copy writes, which another thread's 'apipe.mbarrier_wait' completed: this thread did not wait on that phase, and no gpu.barrier orders the other thread's wait first ('memref.load' and 'apipe.copy')
        %x = memref.load %buf[%c0] : memref<8xi32, 3>
        memref.store %x, %out[%c0] : memref<8xi32>
      }
      gpu.barrier
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

  func.func @run(%waiter: index, %reader: index, %barrier: i1) {
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
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<8xi32>, %out : memref<8xi32>, %waiter : index, %reader : index, %barrier : i1)
    %u = memref.cast %out : memref<8xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %A : memref<8xi32>
    memref.dealloc %out : memref<8xi32>
    return
  }

  func.func @other_reads() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant false
    func.call @run(%c0, %c1, %f) : (index, index, i1) -> ()
    return
  }
  func.func @issuer_reads() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant false
    func.call @run(%c1, %c0, %f) : (index, index, i1) -> ()
    return
  }
  func.func @barrier_after_issuer_wait() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = arith.constant true
    func.call @run(%c0, %c1, %t) : (index, index, i1) -> ()
    return
  }
  func.func @barrier_after_other_wait() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = arith.constant true
    func.call @run(%c1, %c0, %t) : (index, index, i1) -> ()
    return
  }
}
