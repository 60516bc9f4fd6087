// Upstream canonicalize, cse and loop-invariant-code-motion see the memory
// effects ODS declares for the ops of the mbarrier form (docs/mbarrier.md):
// arrive_copies, expect_tx, bulk_copy and wait read and write memory, init
// writes its ring. So no load moves across a wait, and no op is dropped,
// merged or hoisted.
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion,canonicalize))' | FileCheck %s
//
// End to end: the pipelined programs of software-pipeline-run.mlir in the
// mbarrier form, after the same upstream passes, still print what
// apipe-make-sync prints (lazy: a load moved above its wait reads stale
// data).
// RUN: apipe-opt %S/software-pipeline-run.mlir --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-tokens-to-mbarrier | apipe-opt --pass-pipeline='builtin.module(func.func(canonicalize,cse,loop-invariant-code-motion))' | apipe-run - --completion=lazy | FileCheck %S/software-pipeline-run.mlir

// CSE keeps both loads, the second below the wait; both waits stay.
// CHECK-LABEL: func.func @cse_keeps_loads_on_both_sides_of_a_wait
// CHECK: %[[X:.*]] = memref.load %[[B:.*]][%[[C0:.*]]] : memref<4xf32, 3>
// CHECK-NEXT: apipe.mbarrier_wait
// CHECK-NEXT: %[[Y:.*]] = memref.load %[[B]][%[[C0]]] : memref<4xf32, 3>
// CHECK-NEXT: apipe.mbarrier_wait
// CHECK-NEXT: arith.addf %[[X]], %[[Y]]
func.func @cse_keeps_loads_on_both_sides_of_a_wait(%buf: memref<4xf32, 3> {llvm.noalias}, %ring: memref<2xi64, 3> {llvm.noalias}, %p: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %x = memref.load %buf[%c0] : memref<4xf32, 3>
  apipe.mbarrier_wait %ring[%c0], %p : memref<2xi64, 3>
  %y = memref.load %buf[%c0] : memref<4xf32, 3>
  apipe.mbarrier_wait %ring[%c0], %p : memref<2xi64, 3>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// A loop-invariant load stays in the loop: the wait in the body writes
// memory; the arrive and the wait are not hoisted either.
// CHECK-LABEL: func.func @licm_keeps_the_load_in_the_loop
// CHECK: scf.for
// CHECK-NEXT: apipe.mbarrier_arrive_copies
// CHECK-NEXT: apipe.mbarrier_wait
// CHECK-NEXT: memref.load
func.func @licm_keeps_the_load_in_the_loop(%buf: memref<4xf32, 3> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %ring: memref<2xi64, 3> {llvm.noalias}, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<2xi64, 3>
    apipe.mbarrier_wait %ring[%c0], %p : memref<2xi64, 3>
    %x = memref.load %buf[%c0] : memref<4xf32, 3>
    memref.store %x, %out[%i] : memref<8xf32>
  }
  return
}

// -----

// Two identical inits, expect_tx and bulk copies are all kept.
// CHECK-LABEL: func.func @nothing_merged
// CHECK: apipe.mbarrier_init
// CHECK-NEXT: apipe.mbarrier_init
// CHECK-NEXT: apipe.mbarrier_expect_tx
// CHECK-NEXT: apipe.mbarrier_expect_tx
// CHECK-NEXT: apipe.bulk_copy
// CHECK-NEXT: apipe.bulk_copy
func.func @nothing_merged(%A: memref<64xf32> {llvm.noalias}, %buf: memref<64xf32, 3> {llvm.noalias}, %ring: memref<2xi64, 3> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.mbarrier_init %ring, %c1 : memref<2xi64, 3>
  apipe.mbarrier_expect_tx %ring[%c0], 16 : memref<2xi64, 3>
  apipe.mbarrier_expect_tx %ring[%c0], 16 : memref<2xi64, 3>
  apipe.bulk_copy %A[%c0], %buf[%c0], 4, %ring[%c0] : memref<64xf32> to memref<64xf32, 3>, memref<2xi64, 3>
  apipe.bulk_copy %A[%c0], %buf[%c0], 4, %ring[%c0] : memref<64xf32> to memref<64xf32, 3>, memref<2xi64, 3>
  return
}
