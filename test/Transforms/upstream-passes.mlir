// Upstream canonicalize, cse and loop-invariant-code-motion see the memory
// effects that ODS declares for the apipe ops (apipe.copy reads src and
// writes dst; commit_group, wait_group and wait read and write memory;
// ready has none), so they keep the synchronization semantics: no load moves
// across a wait, and no copy, commit or wait is dropped or merged.
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion,canonicalize))' | FileCheck %s
//
// End to end: every pipelined program of software-pipeline-run.mlir, after
// the same upstream passes, still prints what apipe-make-sync prints, with
// each copy landing at its wait (lazy: a load moved above its wait reads
// stale data) and at issue (eager).
// RUN: apipe-opt %S/software-pipeline-run.mlir --apipe-software-pipeline | apipe-opt --pass-pipeline='builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion))' | apipe-run - --completion=lazy | FileCheck %S/software-pipeline-run.mlir
// RUN: apipe-opt %S/software-pipeline-run.mlir --apipe-software-pipeline="sync=tokens" | apipe-opt --pass-pipeline='builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion))' | apipe-run - --completion=lazy | FileCheck %S/software-pipeline-run.mlir
// RUN: apipe-opt %S/software-pipeline-run.mlir --apipe-software-pipeline | apipe-opt --pass-pipeline='builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion))' | apipe-run - --completion=eager | FileCheck %S/software-pipeline-run.mlir

// Two loads of the same element, before and after the wait: CSE keeps both
// (the wait writes memory in between), and the second stays below the wait.
// CHECK-LABEL: func.func @cse_keeps_loads_on_both_sides_of_wait_group
// CHECK: apipe.copy
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: %[[X:.*]] = memref.load %[[BUF:.*]][%{{.*}}] : memref<4xf32, 3>
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: %[[Y:.*]] = memref.load %[[BUF]][%{{.*}}] : memref<4xf32, 3>
// CHECK-NEXT: return %[[X]], %[[Y]]
func.func @cse_keeps_loads_on_both_sides_of_wait_group(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32, 3> {llvm.noalias}, %i: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  apipe.wait_group 0
  %y = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x, %y : f32, f32
}

// -----

// The same in token form: the wait on %t orders the loads.
// CHECK-LABEL: func.func @cse_keeps_loads_on_both_sides_of_wait
// CHECK: %[[T:.*]] = apipe.commit_group queue 1{{$}}
// CHECK-NEXT: %[[X:.*]] = memref.load
// CHECK-NEXT: apipe.wait %[[T]]{{$}}
// CHECK-NEXT: %[[Y:.*]] = memref.load
// CHECK-NEXT: return %[[X]], %[[Y]]
func.func @cse_keeps_loads_on_both_sides_of_wait(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32, 3> {llvm.noalias}, %i: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 queue 1 : memref<64xf32> to memref<4xf32, 3>
  %t = apipe.commit_group queue 1
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  apipe.wait %t
  %y = memref.load %buf[%c0] : memref<4xf32, 3>
  return %x, %y : f32, f32
}

// -----

// Identical copies, commits and waits are not merged, a commit whose token
// is unused and a copy into a buffer nobody reads are not dropped. Only
// apipe.ready, which has no memory effect, is merged (both name an already
// complete group) and an unused one is dropped.
// CHECK-LABEL: func.func @nothing_dropped_or_merged
// CHECK-COUNT-2: apipe.copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 4 : memref<64xf32> to memref<4xf32, 3>
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: %{{.*}} = apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: %[[R:.*]] = apipe.ready{{$}}
// CHECK-NEXT: apipe.wait %[[R]]{{$}}
// CHECK-NEXT: apipe.wait %[[R]]{{$}}
// CHECK-NEXT: %[[DEAD:.*]] = memref.alloc()
// CHECK-NEXT: apipe.copy %{{.*}}[%{{.*}}], %[[DEAD]][%{{.*}}], 4
// CHECK-NEXT: return
func.func @nothing_dropped_or_merged(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32, 3> {llvm.noalias}, %i: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.commit_group
  %unused = apipe.commit_group
  apipe.wait_group 1
  apipe.wait_group 1
  %r = apipe.ready
  %s = apipe.ready
  %dropped = apipe.ready queue 2
  apipe.wait %r
  apipe.wait %s
  %dead = memref.alloc() : memref<4xf32, 3>
  apipe.copy %A[%i], %dead[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  return
}

// -----

// In a loop: the address arithmetic and apipe.ready are loop-invariant and
// hoisted; the load of the multi-buffered slot, the copy, the commit and the
// wait stay in the loop in their order.
// CHECK-LABEL: func.func @licm_keeps_sync_in_loop
// CHECK: %[[OFF:.*]] = arith.muli
// CHECK-NEXT: %[[R:.*]] = apipe.ready queue 3{{$}}
// CHECK-NEXT: scf.for
// CHECK-NEXT: apipe.copy %{{.*}}[%[[OFF]]], %{{.*}}[%{{.*}}], 4 : memref<64xf32> to memref<4xf32, 3>
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: apipe.wait %[[R]]{{$}}
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
func.func @licm_keeps_sync_in_loop(%A: memref<64xf32> {llvm.noalias}, %buf: memref<4xf32, 3> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %k, %c4 : index
    %r = apipe.ready queue 3
    apipe.copy %A[%off], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    apipe.wait %r
    %x = memref.load %buf[%c1] : memref<4xf32, 3>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}
