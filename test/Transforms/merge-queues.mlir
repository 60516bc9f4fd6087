// apipe-merge-queues: every queue onto queue 0 (hardware cp.async has one),
// with every count recomputed over the merged FIFO order.
// RUN: apipe-opt %s --split-input-file --apipe-merge-queues 2>/dev/null | FileCheck %s
// RUN: apipe-opt %s --split-input-file --apipe-merge-queues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// REMARK-NOT: remark
// REMARK: merge-queues.mlir:[[# @LINE + 88]]:3: remark: 'apipe.wait_group' op on queue 0: the paths commit 1 to 2 groups after the waited group; using the minimum, pending = 1
// REMARK-NOT: remark

// Two async stages on queues 0 and 1, one group each per iteration: the
// previous stage-0 group has three groups after it in the merged order,
// the previous stage-1 group two; of the two adjacent waits the smaller
// count (it completes everything the other does) stays.
// CHECK-LABEL: func.func @two_stages_two_queues
// CHECK-NOT: queue
// CHECK: apipe.copy {{.*}}], 4
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.copy {{.*}}], 4
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: scf.for
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 2{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: return
func.func @two_stages_two_queues(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  apipe.copy %A[%c0], %buf[%c0], 4 queue 1 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group queue 1
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.commit_group queue 1
    apipe.wait_group 1
    apipe.wait_group 1 queue 1
  }
  apipe.wait_group 0
  apipe.wait_group 0 queue 1
  return
}

// -----

// Already on one queue: the counts stay.
// CHECK-LABEL: func.func @single_queue_unchanged
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: return
func.func @single_queue_unchanged() {
  apipe.commit_group
  apipe.commit_group
  apipe.wait_group 1
  return
}

// -----

// Queue 2 commits in between: the queue-0 count grows by its groups; a wait
// that no group can satisfy on its queue (a no-op) disappears.
// CHECK-LABEL: func.func @interleaved_three_queues
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 2{{$}}
// CHECK-NEXT: return
func.func @interleaved_three_queues() {
  apipe.commit_group
  apipe.commit_group queue 2
  apipe.commit_group queue 2
  apipe.wait_group 0
  apipe.wait_group 2 queue 2
  return
}

// -----

// Queue 1 commits in one branch only: the merged distance differs by path,
// so the count is the minimum (safe), with a remark.
// CHECK-LABEL: func.func @branch_commits_other_queue
// CHECK: scf.if
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
func.func @branch_commits_other_queue(%c: i1) {
  apipe.commit_group
  scf.if %c {
    apipe.commit_group queue 1
  }
  apipe.commit_group
  apipe.wait_group 1
  return
}

// -----

// Everything on queue 0 already: nothing to merge, the IR is left as it is,
// even with a helper that waits (which counting-to-tokens would reject).
// CHECK-LABEL: func.func @one_queue_with_waiting_helper
// CHECK-NEXT:    apipe.copy
// CHECK-NEXT:    {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT:    call @drain() : () -> ()
// CHECK-NEXT:    apipe.wait_group 1{{$}}
// CHECK-NEXT:    return
func.func @drain() {
  apipe.wait_group 0
  return
}
func.func @one_queue_with_waiting_helper(%src: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  apipe.copy %src[%i], %buf[%i], 4 : memref<64xf32> to memref<4xf32, 3>
  apipe.commit_group
  func.call @drain() : () -> ()
  apipe.wait_group 1
  return
}
