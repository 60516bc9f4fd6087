// apipe-select-sync (sync=auto, docs/mbarrier.md "Choosing the form"): a
// token-form function whose counts would all be exact keeps token form (for
// apipe-tokens-to-counting); one with an inexact count, or with groups on
// two queues, goes to the mbarrier form; counting form is left alone; where
// the mbarrier form is refused, counting form stays, with a remark.
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-select-sync{remarks=true})' --verify-diagnostics
// RUN: apipe-opt %s --split-input-file --apipe-select-sync 2>/dev/null | FileCheck %s
// The chosen forms run as make-sync does.
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues)' 2>/dev/null | FileCheck %s --check-prefix=LOWERED

// CHECK-LABEL: func.func @exact
// CHECK: %[[T:.*]] = apipe.commit_group
// CHECK: apipe.wait %[[T]]
// CHECK-NOT: mbarrier
// LOWERED-LABEL: func.func @exact
// LOWERED: apipe.wait_group 1
// expected-remark @+1 {{sync=auto: counting form (every count is exact)}}
func.func @exact(%A: memref<64xf32>, %buf: memref<2x4xf32, 3>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  %t0 = apipe.commit_group
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  %t1 = apipe.commit_group
  apipe.wait %t0
  apipe.wait %t1
  return
}

// -----

// CHECK-LABEL: func.func @path_dependent
// CHECK: memref.alloca() : memref<4xi64, 3>
// CHECK: apipe.mbarrier_wait
// CHECK-NOT: apipe.wait
// LOWERED-LABEL: func.func @path_dependent
// LOWERED-NOT: apipe.wait_group
// LOWERED: apipe.mbarrier_wait
// expected-remark @+1 {{sync=auto: mbarrier form (the paths commit 0 to 2 groups after the group of a wait on queue 0)}}
func.func @path_dependent(%p: i1) {
  %t0 = apipe.commit_group
  scf.if %p {
    %u = apipe.commit_group
    %v = apipe.commit_group
  }
  apipe.wait %t0
  return
}

// -----

// CHECK-LABEL: func.func @two_queues
// CHECK-COUNT-2: memref.alloca() : memref<2xi64, 3>
// CHECK-NOT: apipe.wait
// expected-remark @+1 {{sync=auto: mbarrier form (it commits on 2 queues, which cp.async merges into one)}}
func.func @two_queues(%A: memref<64xf32>, %buf: memref<2x4xf32, 3>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  %t0 = apipe.commit_group
  apipe.copy %A[%c0], %buf[%c1, %c0], 4 queue 1 : memref<64xf32> to memref<2x4xf32, 3>
  %t1 = apipe.commit_group queue 1
  apipe.wait %t0
  apipe.wait %t1
  return
}

// -----

// Counting form: its counts are the program, exact by definition.
// CHECK-LABEL: func.func @counting
// CHECK: apipe.commit_group
// CHECK-NEXT: apipe.wait_group 0
// expected-remark @+1 {{sync=auto: counting form (no apipe.wait on a token: no count to make exact)}}
func.func @counting(%A: memref<64xf32>, %buf: memref<4xf32, 3>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.wait_group 0
  return
}

// -----

// Inexact, but the commit runs under a thread-dependent condition: every
// thread must arrive on each phase, so the mbarrier form is refused and the
// kernel keeps counting form (the minimum count).
// CHECK-LABEL: gpu.func @divergent
// CHECK-NOT: mbarrier
// LOWERED-LABEL: gpu.func @divergent
// LOWERED: apipe.wait_group 0
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @+1 {{sync=auto: counting form kept with inexact counts (the paths commit 0 to 1 groups after the group of a wait on queue 0); the mbarrier form is refused here: 'apipe.commit_group' op runs under control flow that depends on the thread id}}
    gpu.func @divergent(%A: memref<64xf32>) workgroup(%buf: memref<2x4xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
      %t0 = apipe.commit_group
      scf.if %first {
        apipe.copy %A[%c0], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
        %u = apipe.commit_group
      }
      apipe.wait %t0
      gpu.return
    }
  }
}
