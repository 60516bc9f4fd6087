// The race checker's watch on the global sources of copies that an
// mbarrier phase completes, for a thread that never waits on the phase
// (gpu-racecheck-copy-source-mbarrier.mlir has the other cases and the
// correct programs; apipe-make-sync refuses these kernels: a wait under
// thread-dependent control flow). Thread 0 copies A[0 .. 3] into buf,
// arrives and waits; thread 1 stores -7 into A[0] with no wait of its own
// and no gpu.barrier after thread 0's wait, so nothing orders the store
// after the copy's read, whatever the completion mode and thread order:
//   @arrives: the slot expects 2 arrivals; thread 1 arrives, then stores
//             (the copy is in flight until a wait returns);
//   @bystander: the slot expects 1 arrival; thread 1 neither arrives nor
//               waits (under the forward order it stores after thread 0's
//               wait returned: the copy is complete, but not for thread 1).
// RUN: not apipe-run %s --entry=arrives --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=ARRIVES
// RUN: not apipe-run %s --entry=bystander --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=BYSTANDER
// ARRIVES-NOT: [0,
// BYSTANDER-NOT: [0,
// Under the forward order thread 0's wait returned before the store:
// RUN: not apipe-run %s --entry=bystander --completion=lazy,eager --schedule=forward 2>&1 | FileCheck %s --check-prefix=AFTER-WAIT

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%A: memref<8xi32>, %out: memref<8xi32>, %count: index)
        workgroup(%buf: memref<8xi32, 3>, %ring: memref<1xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %false = arith.constant false
      %m7 = arith.constant -7 : i32
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %count : memref<1xi64, 3>
      }
      gpu.barrier
      scf.if %first {
        apipe.copy %A[%c0], %buf[%c0], 4 : memref<8xi32> to memref<8xi32, 3>
        apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
        apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
      } else {
        %two = arith.cmpi eq, %count, %c2 : index
        scf.if %two {
          apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
        }
        // AFTER-WAIT-COUNT-2: gpu-racecheck-copy-source-mbarrier-no-wait.mlir:[[# @LINE + 3]]:9: error: race (WAR) on global memory byte 0 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) writes it, and the copy of thread (0,0,0), completed by a wait, reads it with no gpu.barrier between ('memref.store' and 'apipe.copy')
        // ARRIVES-COUNT-6: gpu-racecheck-copy-source-mbarrier-no-wait.mlir:[[# @LINE + 2]]:9: error: race ({{RAW|WAR}}) on global memory byte 0 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) writes it, and the copy of thread (0,0,0), {{issued after it|still in flight}}, reads it with no gpu.barrier between ('memref.store' and 'apipe.copy')
        // BYSTANDER-COUNT-6: gpu-racecheck-copy-source-mbarrier-no-wait.mlir:[[# @LINE + 1]]:9: error: race ({{RAW|WAR}}) on global memory byte 0 of an asynchronous copy's source buffer: thread (1,0,0) of block (0,0,0) writes it, and the copy of thread (0,0,0), {{issued after it|still in flight|completed by a wait}}, reads it with no gpu.barrier between ('memref.store' and 'apipe.copy')
        memref.store %m7, %A[%c0] : memref<8xi32>
      }
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<8xi32, 3>
      memref.store %x, %out[%tid] : memref<8xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @run(%count: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<8xi32>
    %out = memref.alloc() : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %A[%i] : memref<8xi32>
      memref.store %v, %out[%i] : memref<8xi32>
    }
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<8xi32>, %out : memref<8xi32>, %count : index)
    %u = memref.cast %out : memref<8xi32> to memref<*xi32>
    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %A : memref<8xi32>
    memref.dealloc %out : memref<8xi32>
    return
  }

  func.func @arrives() {
    %c2 = arith.constant 2 : index
    func.call @run(%c2) : (index) -> ()
    return
  }
  func.func @bystander() {
    %c1 = arith.constant 1 : index
    func.call @run(%c1) : (index) -> ()
    return
  }
}
