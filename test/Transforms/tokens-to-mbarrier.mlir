// apipe-tokens-to-mbarrier: each group gets slot (count mod K) of its
// queue's ring, each wait names the slot and phase parity of its group
// (docs/mbarrier.md). Checked after canonicalize, which folds the slot and
// parity of constant counts, so the CHECK lines read the exact slots and
// parities; RAW checks the arithmetic the pass emits for a count carried
// through iter_args.
// RUN: apipe-opt %s --split-input-file --apipe-tokens-to-mbarrier --canonicalize | FileCheck %s
// RUN: apipe-opt %s --split-input-file --apipe-tokens-to-mbarrier | FileCheck %s --check-prefix=RAW
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-tokens-to-mbarrier{slots=8},canonicalize)' | FileCheck %s --check-prefix=SLOTS8

// Two groups in flight, waited in order: K = 2 (the largest distance, 1,
// plus one), group 0 on slot 0 and group 1 on slot 1, both in phase 0. The
// wait keeps its other attributes.
// CHECK-LABEL: func.func @straight_line
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[RING:.*]] = memref.alloca() : memref<2xi64, 3>
// CHECK-NEXT: apipe.mbarrier_init %[[RING]], %[[C1]] : memref<2xi64, 3>
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%[[C0]]] : memref<2xi64, 3>
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%[[C1]]] : memref<2xi64, 3>
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%[[C0]]], %[[FALSE]] {tag = 1 : i64} : memref<2xi64, 3>
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%[[C1]]], %[[FALSE]] : memref<2xi64, 3>
// CHECK-NEXT: return
// SLOTS8-LABEL: func.func @straight_line
// SLOTS8: memref.alloca() : memref<8xi64, 3>
func.func @straight_line(%A: memref<64xf32>, %buf: memref<2x4xf32, 3>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  %t0 = apipe.commit_group
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  %t1 = apipe.commit_group
  apipe.wait %t0 {tag = 1 : i64}
  apipe.wait %t1
  return
}

// -----

// The distance depends on the path (0 or 2 groups after %t0): counting form
// can only wait with pending = 0 (it waits for the younger groups too); the
// mbarrier form waits for slot 0, phase 0, on both paths. K = 4 (2 + 1,
// rounded up to a power of two); the count leaves the scf.if as a result.
// CHECK-LABEL: func.func @path_dependent_distance
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[RING:.*]] = memref.alloca() : memref<4xi64, 3>
// CHECK-NEXT: apipe.mbarrier_init %[[RING]], %[[C1]]
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%[[C0]]]
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%[[C1]]]
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%[[C2]]]
// CHECK-NEXT: }
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%[[C0]]], %[[FALSE]] : memref<4xi64, 3>
// CHECK-NEXT: return
// RAW-LABEL: func.func @path_dependent_distance
// RAW: %[[N:.*]] = scf.if %{{.*}} -> (index) {
// RAW: scf.yield %{{.*}} : index
// RAW-NEXT: } else {
// RAW-NEXT: scf.yield %{{.*}} : index
func.func @path_dependent_distance(%p: i1) {
  %t0 = apipe.commit_group
  scf.if %p {
    %u = apipe.commit_group
    %v = apipe.commit_group
  }
  apipe.wait %t0
  return
}

// -----

// A ready token and a group that may be many loops old: their waits are
// guarded by `count - j < K` (a ready token's count is -2^40, which never
// passes). In the loop, the commit of group i + 1 first waits for group
// i - 1 (the slot's previous group, never waited for when i = 1: the
// acquire, on the other parity). The count of the loop and the token
// window travel as index iter_args.
// CHECK-LABEL: func.func @ready_and_dynamic
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[READY:.*]] = arith.constant -1099511627776 : index
// CHECK: %[[RING:.*]] = memref.alloca() : memref<2xi64, 3>
// CHECK: apipe.mbarrier_arrive_copies %[[RING]][%[[C0]]]
// CHECK-NEXT: %[[L:.*]]:2 = scf.for %{{.*}} = %[[C0]] to %{{.*}} step %[[C1]] iter_args(%[[PREV:.*]] = %[[READY]], %[[COUNT:.*]] = %[[C1]]) -> (index, index) {
// CHECK-NEXT: %[[SLOT:.*]] = arith.andi %[[COUNT]], %[[C1]] : index
// CHECK-NEXT: %[[BIT:.*]] = arith.andi %[[COUNT]], %[[C2]] : index
// CHECK-NEXT: %[[BEFORE:.*]] = arith.cmpi eq, %[[BIT]], %[[C0]] : index
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%[[SLOT]]], %[[BEFORE]]
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%[[SLOT]]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[COUNT]], %[[C1]] : index
// CHECK-NEXT: %[[PSLOT:.*]] = arith.andi %[[PREV]], %[[C1]] : index
// CHECK-NEXT: %[[PBIT:.*]] = arith.andi %[[PREV]], %[[C2]] : index
// CHECK-NEXT: %[[PPARITY:.*]] = arith.cmpi ne, %[[PBIT]], %[[C0]] : index
// CHECK-NEXT: %[[AGE:.*]] = arith.subi %[[NEXT]], %[[PREV]] : index
// CHECK-NEXT: %[[RECENT:.*]] = arith.cmpi ule, %[[AGE]], %[[C2]] : index
// CHECK-NEXT: scf.if %[[RECENT]] {
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%[[PSLOT]]], %[[PPARITY]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[COUNT]], %[[NEXT]] : index, index
// CHECK-NEXT: }
// CHECK-NEXT: %[[R0:.*]] = arith.cmpi ule, %[[L]]#1, %[[C2]] : index
// CHECK-NEXT: scf.if %[[R0]] {
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%[[C0]]], %{{.*}}
// CHECK-NEXT: }
// CHECK: arith.subi %[[L]]#1, %[[L]]#0 : index
// CHECK: scf.if
// CHECK-NEXT: apipe.mbarrier_wait
// RAW-LABEL: func.func @ready_and_dynamic
// RAW: scf.for {{.*}} -> (index, index) {
func.func @ready_and_dynamic(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = apipe.ready
  %t = apipe.commit_group
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %r) -> (!apipe.token) {
    %u = apipe.commit_group
    apipe.wait %prev
    scf.yield %u : !apipe.token
  }
  apipe.wait %t
  apipe.wait %last
  return
}

// -----

// One ring per queue; a wait on tokens of two queues waits on both.
// CHECK-LABEL: func.func @two_queues
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[R0:.*]] = memref.alloca() : memref<2xi64, 3>
// CHECK-NEXT: %[[R1:.*]] = memref.alloca() : memref<2xi64, 3>
// CHECK-NEXT: apipe.mbarrier_init %[[R0]], %[[C1]]
// CHECK-NEXT: apipe.mbarrier_init %[[R1]], %[[C1]]
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[R0]][%[[C0]]]
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[R1]][%[[C0]]]
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[R1]][%[[C1]]]
// CHECK-NEXT: apipe.mbarrier_wait %[[R0]][%[[C0]]], %[[FALSE]]
// CHECK-NEXT: apipe.mbarrier_wait %[[R1]][%[[C0]]], %[[FALSE]]
// CHECK-NEXT: return
func.func @two_queues() {
  %a = apipe.commit_group
  %b = apipe.commit_group queue 1
  %c = apipe.commit_group queue 1
  apipe.wait %a, %b
  return
}

// -----

// A kernel: the ring is a workgroup attribution, thread (0,0,0)
// initialises it with the block size, then a barrier. The pipelined loop
// waits for each group in turn, so no commit needs an acquire, and no
// wait needs a guard. The program's own barrier stays (write after read).
// CHECK-LABEL: gpu.func @kernel_ring
// CHECK-SAME: workgroup(%{{.*}} : memref<2x256xf32, 3>, %[[RING:.*]] : memref<2xi64, 3> {llvm.align = 8 : i64}) kernel
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[BX:.*]] = gpu.block_dim x
// CHECK-NEXT: %[[TY:.*]] = gpu.thread_id y
// CHECK-NEXT: %[[BY:.*]] = gpu.block_dim y
// CHECK-NEXT: %[[TZ:.*]] = gpu.thread_id z
// CHECK-NEXT: %[[BZ:.*]] = gpu.block_dim z
// CHECK-NEXT: %[[O:.*]] = arith.ori %[[TX]], %[[TY]] : index
// CHECK-NEXT: %[[ANY:.*]] = arith.ori %[[O]], %[[TZ]] : index
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[BX]], %[[BY]] : index
// CHECK-NEXT: %[[N:.*]] = arith.muli %[[M]], %[[BZ]] : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[ANY]], %[[C0]] : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: apipe.mbarrier_init %[[RING]], %[[N]] : memref<2xi64, 3>
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: apipe.mbarrier_arrive_copies %[[RING]][%[[C0]]]
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[PENDING:.*]] = %[[C0]], %[[COUNT:.*]] = %[[C1]]) -> (index, index) {
// CHECK-NEXT: arith.remui
// CHECK-NEXT: apipe.copy
// CHECK-NEXT: %[[SLOT:.*]] = arith.andi %[[COUNT]], %[[C1]] : index
// CHECK-NEXT: apipe.mbarrier_arrive_copies %[[RING]][%[[SLOT]]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[COUNT]], %[[C1]] : index
// CHECK-NEXT: %[[WSLOT:.*]] = arith.andi %[[PENDING]], %[[C1]] : index
// CHECK-NEXT: %[[WBIT:.*]] = arith.andi %[[PENDING]], %{{.*}} : index
// CHECK-NEXT: %[[WPARITY:.*]] = arith.cmpi ne, %[[WBIT]], %[[C0]] : index
// CHECK-NEXT: apipe.mbarrier_wait %[[RING]][%[[WSLOT]]], %[[WPARITY]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.yield %[[COUNT]], %[[NEXT]] : index, index
// CHECK: apipe.mbarrier_wait %[[RING]]
// CHECK-NEXT: gpu.return
gpu.module @kernels {
  gpu.func @kernel_ring(%A: memref<1024xf32>) workgroup(%buf: memref<2x256xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %A[%lane], %buf[%c0, %lane], 4 : memref<1024xf32> to memref<2x256xf32, 3>
    %t0 = apipe.commit_group
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%pending = %t0) -> (!apipe.token) {
      %v = arith.remui %i, %c2 : index
      apipe.copy %A[%lane], %buf[%v, %lane], 4 : memref<1024xf32> to memref<2x256xf32, 3>
      %t = apipe.commit_group
      apipe.wait %pending
      gpu.barrier
      scf.yield %t : !apipe.token
    }
    apipe.wait %r
    gpu.return
  }
}

// -----

// scf.while carries the count through its region arguments and
// scf.condition; scf.index_switch through its results. The after-region's
// commit reuses the slot of a group that may never have been waited for
// (%t0 when the before-region ran once): it acquires it first.
// CHECK-LABEL: func.func @while_and_switch
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[W:.*]] = scf.while (%[[B:.*]] = %[[C1]]) : (index) -> index {
// CHECK-NOT: apipe.mbarrier_wait
// CHECK: apipe.mbarrier_arrive_copies
// CHECK: apipe.mbarrier_wait
// CHECK: scf.condition(%{{.*}}) %{{.*}} : index
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK: apipe.mbarrier_wait
// CHECK-NEXT: apipe.mbarrier_arrive_copies
// CHECK: apipe.mbarrier_wait
// CHECK: scf.yield %{{.*}} : index
// CHECK: %[[S:.*]]:2 = scf.index_switch %{{.*}} -> index, index
// CHECK: default {
// CHECK-NEXT: scf.yield %{{.*}}, %[[W]] : index, index
// CHECK: arith.subi %[[S]]#1, %[[S]]#0 : index
// CHECK: scf.if
// CHECK-NEXT: apipe.mbarrier_wait
func.func @while_and_switch(%p: i1, %k: index) {
  %t0 = apipe.commit_group
  scf.while : () -> () {
    %u = apipe.commit_group
    apipe.wait %u
    scf.condition(%p)
  } do {
    %w = apipe.commit_group
    apipe.wait %w
    scf.yield
  }
  %s = scf.index_switch %k -> !apipe.token
  case 0 {
    %a = apipe.commit_group
    scf.yield %a : !apipe.token
  }
  default {
    scf.yield %t0 : !apipe.token
  }
  apipe.wait %s
  return
}

// -----

// A function without apipe ops is left alone; a wait on ready tokens only
// disappears.
// CHECK-LABEL: func.func @nothing_to_do
// CHECK-NEXT: return
// CHECK-LABEL: func.func @only_ready
// CHECK-NOT: apipe
// CHECK: return
func.func @nothing_to_do() {
  return
}
func.func @only_ready() {
  %r = apipe.ready
  apipe.wait %r
  return
}
