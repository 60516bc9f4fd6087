// apipe-check-hazards: the gpu.barrier that publishes a ring's
// apipe.mbarrier_init (one thread initialises it; the others may arrive or
// wait only after a barrier that follows the init on every path) may sit
// inside the op that follows: first in an scf.for's body (before every use
// of the body, in each iteration), or in every arm of an scf.if. Each
// kernel runs a loop with one group per iteration (slot count & 1, parity
// count & 2) and reads its neighbour's element after the wait:
//   @loop_first: the loop's body starts with the barrier (correct: it
//                publishes the ring and orders the reads before the next
//                copy);
//   @both_arms:  a barrier in both arms of an scf.if before the loop, and
//                one at the end of the body (correct);
//   @loop_last:  the only barrier is at the end of the body, after the
//                first arrive (broken: the first arrive may see the ring
//                before its init);
//   @then_only:  a barrier in the then arm only (broken: the else path
//                has none).
// The checker and apipe-run agree: the correct kernels are silent and
// print what make-sync prints; the broken ones are reported by the checker
// at the init and by the race checker at the ring.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=loop_last --completion=lazy,eager,random:1 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not apipe-run %s --entry=then_only --completion=lazy,eager,random:1 2>&1 | FileCheck %s --check-prefix=BROKEN
// SYNC-COUNT-2: ( 1, 2, 3, 0 )
// MODES-COUNT-12: ( 1, 2, 3, 0 )
// BROKEN-COUNT-3: error: race (WAW) on shared memory byte {{[0-9]+}} {{.*}} atomically updates it

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loop_first(%A: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}, %n: index) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
      }
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
        gpu.barrier
        apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
        %slot = arith.andi %count, %c1 : index
        apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
        %b = arith.andi %count, %c2 : index
        %parity = arith.cmpi ne, %b, %c0 : index
        apipe.mbarrier_wait %ring[%slot], %parity : memref<2xi64, 3>
        %next = arith.addi %tid, %c1 : index
        %other = arith.remui %next, %threads : index
        %x = memref.load %buf[%other] : memref<256xf32, 3>
        memref.store %x, %out[%tid] : memref<1024xf32>
        %c = arith.addi %count, %c1 : index
        scf.yield %c : index
      }
      gpu.return
    }
    gpu.func @both_arms(%A: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}, %n: index) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
      }
      %few = arith.cmpi ult, %n, %c2 : index
      scf.if %few {
        gpu.barrier
      } else {
        gpu.barrier
      }
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
        apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
        %slot = arith.andi %count, %c1 : index
        apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
        %b = arith.andi %count, %c2 : index
        %parity = arith.cmpi ne, %b, %c0 : index
        apipe.mbarrier_wait %ring[%slot], %parity : memref<2xi64, 3>
        %next = arith.addi %tid, %c1 : index
        %other = arith.remui %next, %threads : index
        %x = memref.load %buf[%other] : memref<256xf32, 3>
        memref.store %x, %out[%tid] : memref<1024xf32>
        gpu.barrier
        %c = arith.addi %count, %c1 : index
        scf.yield %c : index
      }
      gpu.return
    }
    gpu.func @loop_last(%A: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}, %n: index) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        // CHECK: check-hazards-mbarrier-publish-run.mlir:[[# @LINE + 1]]:9: error: 'apipe.mbarrier_init' op initialises its ring in one thread with no gpu.barrier before the ring's first arrive or wait: other threads may use it before it is initialised
        apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
      }
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
        apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
        %slot = arith.andi %count, %c1 : index
        apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
        %b = arith.andi %count, %c2 : index
        %parity = arith.cmpi ne, %b, %c0 : index
        apipe.mbarrier_wait %ring[%slot], %parity : memref<2xi64, 3>
        %next = arith.addi %tid, %c1 : index
        %other = arith.remui %next, %threads : index
        %x = memref.load %buf[%other] : memref<256xf32, 3>
        memref.store %x, %out[%tid] : memref<1024xf32>
        gpu.barrier
        %c = arith.addi %count, %c1 : index
        scf.yield %c : index
      }
      gpu.return
    }
    gpu.func @then_only(%A: memref<1024xf32> {llvm.noalias}, %out: memref<1024xf32> {llvm.noalias}, %n: index) workgroup(%buf : memref<256xf32, 3>, %ring : memref<2xi64, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %bx = gpu.block_dim x
      %by = gpu.block_dim y
      %bz = gpu.block_dim z
      %bxy = arith.muli %bx, %by : index
      %threads = arith.muli %bxy, %bz : index
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        // CHECK: check-hazards-mbarrier-publish-run.mlir:[[# @LINE + 1]]:9: error: 'apipe.mbarrier_init' op initialises its ring in one thread with no gpu.barrier before the ring's first arrive or wait: other threads may use it before it is initialised
        apipe.mbarrier_init %ring, %threads : memref<2xi64, 3>
      }
      %few = arith.cmpi ult, %n, %c2 : index
      scf.if %few {
        gpu.barrier
      }
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (index) {
        apipe.copy %A[%tid], %buf[%tid], 1 : memref<1024xf32> to memref<256xf32, 3>
        %slot = arith.andi %count, %c1 : index
        apipe.mbarrier_arrive_copies %ring[%slot] : memref<2xi64, 3>
        %b = arith.andi %count, %c2 : index
        %parity = arith.cmpi ne, %b, %c0 : index
        apipe.mbarrier_wait %ring[%slot], %parity : memref<2xi64, 3>
        %next = arith.addi %tid, %c1 : index
        %other = arith.remui %next, %threads : index
        %x = memref.load %buf[%other] : memref<256xf32, 3>
        memref.store %x, %out[%tid] : memref<1024xf32>
        gpu.barrier
        %c = arith.addi %count, %c1 : index
        scf.yield %c : index
      }
      gpu.return
    }
  }

  func.func @launch(%kernel: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c0f = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<1024xf32>
    %out = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %v = arith.index_cast %i : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %A[%i] : memref<1024xf32>
    }
    scf.index_switch %kernel
    case 0 {
      gpu.launch_func @kernels::@loop_first blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<1024xf32>, %c3 : index)
      scf.yield
    }
    case 1 {
      gpu.launch_func @kernels::@both_arms blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<1024xf32>, %c3 : index)
      scf.yield
    }
    case 2 {
      gpu.launch_func @kernels::@loop_last blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<1024xf32>, %c3 : index)
      scf.yield
    }
    default {
      gpu.launch_func @kernels::@then_only blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<1024xf32>, %out : memref<1024xf32>, %c3 : index)
    }
    %v = vector.transfer_read %out[%c0], %c0f {in_bounds = [true]} : memref<1024xf32>, vector<4xf32>
    vector.print %v : vector<4xf32>
    memref.dealloc %A : memref<1024xf32>
    memref.dealloc %out : memref<1024xf32>
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    func.call @launch(%c0) : (index) -> ()
    func.call @launch(%c1) : (index) -> ()
    return
  }
  func.func @loop_last() {
    %c2 = arith.constant 2 : index
    func.call @launch(%c2) : (index) -> ()
    return
  }
  func.func @then_only() {
    %c3 = arith.constant 3 : index
    func.call @launch(%c3) : (index) -> ()
    return
  }
}
