// The mbarrier form in kernels under apipe-run (docs/mbarrier.md): every
// thread of the block arrives on each phase; a wait returns once all have
// arrived and their copies have landed, and then sees every thread's copy
// (no barrier between the wait and the reads of other threads' data).
//
// @exchange: 4 threads; thread t copies A[4t .. 4t+3] into buf, arrives,
// waits, then reads element 4 ((t+1) mod 4) of buf, copied by the next
// thread: out = [4, 8, 12, 0] (A[i] = i).
// RUN: apipe-run %s --entry=exchange --completion=lazy,eager,random:1 --schedule=forward,reverse,random:5 | FileCheck %s --check-prefix=EXCHANGE
// EXCHANGE-COUNT-9: [4,  8,  12,  0]
//
// The ring expects 5 arrivals in a block of 4: nothing completes phase 0.
// RUN: not apipe-run %s --entry=count_too_high 2>&1 | FileCheck %s --check-prefix=COUNT
//
// Thread 3 returns before it arrives (a commit under thread-dependent
// control flow): the others wait for good.
// RUN: not apipe-run %s --entry=thread_skips_its_arrival 2>&1 | FileCheck %s --check-prefix=SKIP
//
// Without the barrier that orders the reads of a buffer before the copies
// that overwrite it (write after read), the race checker reports the race.
// RUN: not apipe-run %s --entry=no_war_barrier --schedule=forward 2>&1 | FileCheck %s --check-prefix=WAR
// WAR: error: race (WAR) on shared memory byte

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // mode 0: correct; 1: arrival count 5; 2: thread 3 returns early;
    // 3: two rounds through one buffer without a barrier between the reads
    // and the next copies.
    gpu.func @exchange(%A: memref<16xi32>, %out: memref<4xi32>, %mode: index)
        workgroup(%buf: memref<16xi32, 3>, %ring: memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      %too_high = arith.cmpi eq, %mode, %c1 : index
      %count = arith.select %too_high, %c5, %c4 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %count : memref<2xi64, 3>
      }
      gpu.barrier
      %skip = arith.cmpi eq, %mode, %c2 : index
      %last = arith.cmpi eq, %tid, %c3 : index
      %leave = arith.andi %skip, %last : i1
      %lane = arith.muli %tid, %c4 : index
      %next = arith.addi %tid, %c1 : index
      %neighbour = arith.remui %next, %c4 : index
      %at = arith.muli %neighbour, %c4 : index
      scf.if %leave {
      } else {
        apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
        apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
        // COUNT: gpu-mbarrier.mlir:[[# @LINE + 2]]:9: error: deadlock: thread ({{[0-3]}},0,0) of block (0,0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 0 (parity 0) of the slot, which has 4 of 5 arrivals
        // SKIP: gpu-mbarrier.mlir:[[# @LINE + 1]]:9: error: deadlock: thread ({{[0-2]}},0,0) of block (0,0,0) waits at this 'apipe.mbarrier_wait' and no thread of the block can make progress: it waits for phase 0 (parity 0) of the slot, which has 3 of 4 arrivals
        apipe.mbarrier_wait %ring[%c0], %false : memref<2xi64, 3>
        %x = memref.load %buf[%at] : memref<16xi32, 3>
        memref.store %x, %out[%tid] : memref<4xi32>
        %twice = arith.cmpi eq, %mode, %c3 : index
        scf.if %twice {
          apipe.copy %A[%lane], %buf[%lane], 4 : memref<16xi32> to memref<16xi32, 3>
          apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
          apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
        }
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @run(%mode: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %A = memref.alloc() : memref<16xi32>
    %out = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<16xi32>
    }
    gpu.launch_func @kernels::@exchange blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<16xi32>, %out : memref<4xi32>, %mode : index)
    %u = memref.cast %out : memref<4xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }

  func.func @exchange() {
    %m = arith.constant 0 : index
    func.call @run(%m) : (index) -> ()
    return
  }
  func.func @count_too_high() {
    %m = arith.constant 1 : index
    func.call @run(%m) : (index) -> ()
    return
  }
  func.func @thread_skips_its_arrival() {
    %m = arith.constant 2 : index
    func.call @run(%m) : (index) -> ()
    return
  }
  func.func @no_war_barrier() {
    %m = arith.constant 3 : index
    func.call @run(%m) : (index) -> ()
    return
  }
}
