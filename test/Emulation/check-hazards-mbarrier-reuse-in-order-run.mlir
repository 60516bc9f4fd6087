// A host function's ring (one thread, arrival count 1) re-armed before the
// slot's previous group was waited for. Each arrival of one thread counts
// once every earlier copy of the thread has landed (PTX ISA 9.7.9.25.3,
// `cp.async.mbarrier.arrive.noinc`), so the previous group's arrival
// completes the slot's previous phase first and the re-arm is no error.
// A wait on the re-armed slot's new phase returns at once while the
// previous phase is still current (it has the other parity), so it proves
// nothing until the previous group is known complete.
//   @waited_later: groups 0, 1, 2 on a ring of 2 slots (group 2 re-arms
//     slot 0 while group 0 may be in flight); the wait for group 1
//     completes group 0 too, then the wait for group 2: correct, silent
//     (the checker reported "reuses its slot too early" before).
//   @no_earlier_wait: the wait for group 1 removed: the wait for group 2
//     may return at once, and the read of group 2's data races (lazy
//     completion stops at the read: the copy is still in flight).
//   @empty_groups: two groups with no copy of their own arm both slots,
//     then a group with a copy re-arms slot 0 with no wait for the first.
//     Called from @main, which has no copy in flight, it is correct: the
//     first arrival tracks no copy and counts at once. But it is reported
//     (a known false alarm, conservative): its first arrive also tracks
//     any copy a caller or an earlier call left in flight, which the
//     checker does not follow, as @after_caller_copy shows.
//   @after_caller_copy: the same, called by @caller_copy with a copy in
//     flight: the first arrive tracks the caller's copy too, the wait may
//     return at once and the read races (apipe-run stops at it in lazy
//     completion).
// Apart from @empty_groups, the checker and apipe-run agree; the correct
// functions print what make-sync prints in every mode. A[i] = i.
//
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: apipe-run %s --entry=main --completion=lazy,eager,random:1,random:2,random:3 2>&1 | FileCheck %s --check-prefix=MODES --implicit-check-not=error
// RUN: not apipe-run %s --entry=broken --completion=lazy 2>&1 | FileCheck %s --check-prefix=LAZY
// RUN: apipe-run %s --entry=broken --completion=eager 2>&1 | FileCheck %s --check-prefix=EAGER
// SYNC: ( 1, 5, 9 )
// SYNC-NEXT: ( 8 )
// MODES-COUNT-5: ( 1, 5, 9 )
// RUN: not apipe-run %s --entry=broken_caller --completion=lazy 2>&1 | FileCheck %s --check-prefix=CALLER
// RUN: apipe-run %s --entry=broken_caller --completion=eager 2>&1 | FileCheck %s --check-prefix=EAGER
// CALLER: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE + 100]]:8: error: the host reads global memory byte 0 of the destination buffer of its own asynchronous copy still in flight
// EAGER: 8
// LAZY: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE + 53]]:8: error: the host reads global memory byte 32 of the destination buffer of its own asynchronous copy still in flight

func.func @waited_later(%A: memref<16xf32>) -> vector<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %false = arith.constant false
  %true = arith.constant true
  %buf = memref.alloc() : memref<3x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  apipe.copy %A[%c8], %buf[%c2, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  // CHECK-NOT: reuses its slot too early
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  // Group 1: slot 1, phase 0.
  apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
  // Group 2: slot 0, phase 1.
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  %x = memref.load %buf[%c0, %c1] : memref<3x4xf32>
  %y = memref.load %buf[%c1, %c1] : memref<3x4xf32>
  %z = memref.load %buf[%c2, %c1] : memref<3x4xf32>
  %r = vector.from_elements %x, %y, %z : vector<3xf32>
  return %r : vector<3xf32>
}

func.func @no_earlier_wait(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %true = arith.constant true
  %buf = memref.alloc() : memref<3x4xf32>
  %z0 = arith.constant 0.0 : f32
  memref.store %z0, %buf[%c2, %c0] : memref<3x4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.copy %A[%c4], %buf[%c1, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  apipe.copy %A[%c8], %buf[%c2, %c0], 4 : memref<16xf32> to memref<3x4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  // CHECK: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE + 3]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  // CHECK: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE - 4]]:3: note: the async copy still in flight
  // CHECK: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE - 3]]:3: note: this wait may return at once: on some path its slot was armed again while the slot's previous group could still be in flight
  %z = memref.load %buf[%c2, %c0] : memref<3x4xf32>
  // Every group complete before the return: group 1, then group 2.
  %false = arith.constant false
  apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  return %z : f32
}

func.func @empty_groups(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %true = arith.constant true
  %buf = memref.alloc() : memref<4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<16xf32> to memref<4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  // CHECK: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE + 2]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  // CHECK: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE - 2]]:3: note: this wait may return at once
  %z = memref.load %buf[%c0] : memref<4xf32>
  %false = arith.constant false
  apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  return %z : f32
}

func.func @after_caller_copy(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %true = arith.constant true
  %buf = memref.alloc() : memref<4xf32>
  %ring = memref.alloca() : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.mbarrier_arrive_copies %ring[%c1] : memref<2xi64, 3>
  apipe.copy %A[%c8], %buf[%c0], 4 : memref<16xf32> to memref<4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  // CHECK: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE + 2]]:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
  // CHECK: check-hazards-mbarrier-reuse-in-order-run.mlir:[[# @LINE - 2]]:3: note: this wait may return at once
  %z = memref.load %buf[%c0] : memref<4xf32>
  %false = arith.constant false
  apipe.mbarrier_wait %ring[%c1], %false : memref<2xi64, 3>
  apipe.mbarrier_wait %ring[%c0], %true : memref<2xi64, 3>
  return %z : f32
}

func.func @caller_copy(%A: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %false = arith.constant false
  %own = memref.alloc() : memref<4xf32>
  %ring = memref.alloca() : memref<1xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<1xi64, 3>
  apipe.copy %A[%c0], %own[%c0], 4 : memref<16xf32> to memref<4xf32>
  apipe.mbarrier_arrive_copies %ring[%c0] : memref<1xi64, 3>
  %z = func.call @after_caller_copy(%A) : (memref<16xf32>) -> f32
  apipe.mbarrier_wait %ring[%c0], %false : memref<1xi64, 3>
  return %z : f32
}

func.func @init(%A: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<16xf32>
  }
  return
}

func.func @main() {
  %A = memref.alloc() : memref<16xf32>
  func.call @init(%A) : (memref<16xf32>) -> ()
  %v = func.call @waited_later(%A) : (memref<16xf32>) -> vector<3xf32>
  vector.print %v : vector<3xf32>
  %e = func.call @empty_groups(%A) : (memref<16xf32>) -> f32
  %ev = vector.broadcast %e : f32 to vector<1xf32>
  vector.print %ev : vector<1xf32>
  return
}

func.func @broken() {
  %A = memref.alloc() : memref<16xf32>
  func.call @init(%A) : (memref<16xf32>) -> ()
  %z = func.call @no_earlier_wait(%A) : (memref<16xf32>) -> f32
  vector.print %z : f32
  return
}

func.func @broken_caller() {
  %A = memref.alloc() : memref<16xf32>
  func.call @init(%A) : (memref<16xf32>) -> ()
  %z = func.call @caller_copy(%A) : (memref<16xf32>) -> f32
  vector.print %z : f32
  return
}
