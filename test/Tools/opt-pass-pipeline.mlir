// `--pass-pipeline` mixes apipe and upstream passes, with nesting and
// options, and runs them in the order written.
//
// make-sync, then canonicalize: the copy loop is folded (the `%c0 + %iv`
// destination index becomes the induction variable).
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync),canonicalize)' | FileCheck %s --check-prefix=FOLDED
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync),canonicalize{max-iterations=2})' | FileCheck %s --check-prefix=FOLDED
// RUN: apipe-opt %s --pass-pipeline='builtin.module(apipe-make-sync,func.func(cse),canonicalize{max-iterations=2 region-simplify=disabled})' | FileCheck %s --check-prefix=FOLDED
// RUN: apipe-opt %s --pass-pipeline='builtin.module( func.func( apipe-make-sync{} ) , canonicalize )' | FileCheck %s --check-prefix=FOLDED
// RUN: apipe-opt %s -pass-pipeline='builtin.module(func.func(apipe-make-sync),canonicalize)' | FileCheck %s --check-prefix=FOLDED
// RUN: apipe-opt %s --pass-pipeline 'builtin.module(func.func(apipe-make-sync),canonicalize)' | FileCheck %s --check-prefix=FOLDED
//
// The option reaches the upstream pass: with no iterations nothing folds.
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync),canonicalize{max-iterations=0})' | FileCheck %s --check-prefix=SYNC
//
// make-sync alone, and canonicalize *before* make-sync: the constants and the
// `arith.addi %c0, %iv` that make-sync creates stay.
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync))' | FileCheck %s --check-prefix=SYNC
// RUN: apipe-opt %s --pass-pipeline='builtin.module(canonicalize,func.func(apipe-make-sync))' | FileCheck %s --check-prefix=SYNC
//
// make-sync then cse: the duplicated constant is merged, the add is not folded.
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(apipe-make-sync,cse))' | FileCheck %s --check-prefix=CSE
//
// An empty pipeline and an upstream-only pipeline leave the apipe ops.
// RUN: apipe-opt %s --pass-pipeline='builtin.module()' | FileCheck %s --check-prefix=NONE
// RUN: apipe-opt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize)' | FileCheck %s --check-prefix=NONE

// FOLDED-LABEL: func.func @counting(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>, %arg2: index) {
// FOLDED-NEXT:    %c0 = arith.constant 0 : index
// FOLDED-NEXT:    %c4 = arith.constant 4 : index
// FOLDED-NEXT:    %c1 = arith.constant 1 : index
// FOLDED-NEXT:    scf.for %arg3 = %c0 to %c4 step %c1 {
// FOLDED-NEXT:      %0 = arith.addi %arg2, %arg3 : index
// FOLDED-NEXT:      %1 = memref.load %arg0[%0] : memref<64xf32>
// FOLDED-NEXT:      memref.store %1, %arg1[%arg3] : memref<4xf32, 3>
// FOLDED-NEXT:    }
// FOLDED-NEXT:    return
// FOLDED-NEXT:  }

// SYNC-LABEL: func.func @counting(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>, %arg2: index) {
// SYNC-NEXT:    %c0 = arith.constant 0 : index
// SYNC-NEXT:    %c0_0 = arith.constant 0 : index
// SYNC-NEXT:    %c4 = arith.constant 4 : index
// SYNC-NEXT:    %c1 = arith.constant 1 : index
// SYNC-NEXT:    scf.for %arg3 = %c0_0 to %c4 step %c1 {
// SYNC-NEXT:      %0 = arith.addi %arg2, %arg3 : index
// SYNC-NEXT:      %1 = arith.addi %c0, %arg3 : index
// SYNC-NEXT:      %2 = memref.load %arg0[%0] : memref<64xf32>
// SYNC-NEXT:      memref.store %2, %arg1[%1] : memref<4xf32, 3>
// SYNC-NEXT:    }
// SYNC-NEXT:    return
// SYNC-NEXT:  }

// CSE-LABEL: func.func @counting(%arg0: memref<64xf32>, %arg1: memref<4xf32, 3>, %arg2: index) {
// CSE-NEXT:    %c0 = arith.constant 0 : index
// CSE-NEXT:    %c4 = arith.constant 4 : index
// CSE-NEXT:    %c1 = arith.constant 1 : index
// CSE-NEXT:    scf.for %arg3 = %c0 to %c4 step %c1 {
// CSE-NEXT:      %0 = arith.addi %arg2, %arg3 : index
// CSE-NEXT:      %1 = arith.addi %c0, %arg3 : index
// CSE-NEXT:      %2 = memref.load %arg0[%0] : memref<64xf32>
// CSE-NEXT:      memref.store %2, %arg1[%1] : memref<4xf32, 3>
// CSE-NEXT:    }
// CSE-NEXT:    return
// CSE-NEXT:  }

// NONE-LABEL: func.func @counting
// NONE:         apipe.copy %arg0[%arg2], %arg1[%c0], 4
// NONE-NEXT:    {{^ *}}apipe.commit_group{{$}}
// NONE-NEXT:    apipe.wait_group 0{{$}}
// NONE-NEXT:    return

func.func @counting(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}
