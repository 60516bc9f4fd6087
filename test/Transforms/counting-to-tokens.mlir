// apipe-counting-to-tokens: each wait_group {pending = N} becomes apipe.wait
// on the token of the (N+1)-th newest group of its queue, with a window of
// the K = 1 + max N newest tokens per queue carried through scf.for /
// scf.if / scf.while. Where the function has no such group on some path,
// the window holds apipe.ready: in a kernel (its FIFO starts empty) the wait
// is on it; in any other function the wait_group stays (it waits for the
// caller's groups; see counting-tokens-entry-groups.mlir).
// RUN: apipe-opt %s --split-input-file --apipe-counting-to-tokens | FileCheck %s
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(apipe-counting-to-tokens))' | FileCheck %s

// The first two waits reach past the function's own groups: kept.
// CHECK-LABEL: func.func @straight_line_window_of_two
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: %[[T1:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait %[[T0]]{{$}}
// CHECK-NEXT: apipe.wait %[[T1]]{{$}}
// CHECK-NEXT: return
func.func @straight_line_window_of_two() {
  apipe.wait_group 0
  apipe.commit_group
  apipe.wait_group 1
  apipe.commit_group
  apipe.wait_group 1
  apipe.wait_group 0
  return
}

// -----

// Two queues keep separate windows; the wait keeps its other attributes.
// No window position is ready when a wait reads it: no ready op is left.
// CHECK-LABEL: func.func @two_queues_separate_windows
// CHECK-NOT: apipe.ready
// CHECK: %[[A:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: %[[B:.*]] = apipe.commit_group queue 1{{$}}
// CHECK-NEXT: %[[C:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait %[[A]] {note = "stage 0"}{{$}}
// CHECK-NEXT: apipe.wait %[[B]]{{$}}
// CHECK-NEXT: return
func.func @two_queues_separate_windows() {
  apipe.commit_group
  apipe.commit_group queue 1
  apipe.commit_group
  apipe.wait_group 1 {note = "stage 0"}
  apipe.wait_group 0 queue 1
  return
}

// -----

// The RFC's double buffering: the window of two tokens rotates through the
// iter_args; the first iteration of a loop without prologue waits on ready.
// CHECK-LABEL: func.func @double_buffer_loop_window_in_iter_args
// CHECK: %[[READY:.*]] = apipe.ready{{$}}
// CHECK: %[[P:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[NEW:.*]] = %[[P]], %[[OLD:.*]] = %[[READY]]) -> (!apipe.token, !apipe.token) {
// CHECK-NEXT: %[[T:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait %[[NEW]]{{$}}
// CHECK-NEXT: scf.yield %[[T]], %[[NEW]] : !apipe.token, !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait %[[R]]#0{{$}}
// CHECK-NEXT: return
func.func @double_buffer_loop_window_in_iter_args(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}

// -----

// A commit in one branch of an scf.if without else: the if gets token
// results and an else that yields the window unchanged.
// CHECK-LABEL: func.func @commit_in_if_without_else
// CHECK: %[[TA:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: %[[W:.*]]:2 = scf.if %{{.*}} -> (!apipe.token, !apipe.token) {
// CHECK-NEXT: %[[T1:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: scf.yield %[[T1]], %[[T0]] : !apipe.token, !apipe.token
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[T0]], %[[TA]] : !apipe.token, !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait %[[W]]#1{{$}}
// CHECK-NEXT: return
func.func @commit_in_if_without_else(%c: i1) {
  apipe.commit_group
  apipe.commit_group
  scf.if %c {
    apipe.commit_group
  }
  apipe.wait_group 1
  return
}

// -----

// Waits inside a region that does not commit read the outer window as is.
// CHECK-LABEL: func.func @wait_in_branch_without_commit
// CHECK: %[[T0:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: apipe.wait %[[T0]]{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @wait_in_branch_without_commit(%c: i1) {
  apipe.commit_group
  scf.if %c {
    apipe.wait_group 0
  }
  return
}

// -----

// scf.while: the window goes through the before-region arguments, the
// scf.condition operands, the after-region arguments and the yield.
// CHECK-LABEL: func.func @while_loop_window
// CHECK: %[[READY:.*]] = apipe.ready{{$}}
// CHECK-NEXT: %[[W:.*]] = scf.while (%[[B:.*]] = %[[READY]]) : (!apipe.token) -> !apipe.token {
// CHECK-NEXT: %[[T:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: scf.condition(%{{.*}}) %[[T]] : !apipe.token
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[A:.*]]: !apipe.token):
// CHECK-NEXT: apipe.wait %[[A]]{{$}}
// CHECK-NEXT: scf.yield %[[A]] : !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait %[[W]]{{$}}
func.func @while_loop_window(%c: i1) {
  scf.while : () -> () {
    apipe.commit_group
    scf.condition(%c)
  } do {
    apipe.wait_group 0
    scf.yield
  }
  apipe.wait_group 0
  return
}

// -----

// Nested loops: the window threads through both loops (a group before
// them, so the wait always finds one of the function's groups).
// CHECK-LABEL: func.func @nested_loops_window
// CHECK: %[[T0:.*]] = apipe.commit_group{{$}}
// CHECK: %[[O:.*]] = scf.for %{{.*}} iter_args(%[[X:.*]] = %[[T0]]) -> (!apipe.token) {
// CHECK-NEXT: %[[I:.*]] = scf.for %{{.*}} iter_args(%[[Y:.*]] = %[[X]]) -> (!apipe.token) {
// CHECK-NEXT: %[[T:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: scf.yield %[[T]] : !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait %[[I]]{{$}}
// CHECK-NEXT: scf.yield %[[I]] : !apipe.token
// CHECK-NEXT: }
func.func @nested_loops_window(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      apipe.commit_group
    }
    apipe.wait_group 0
  }
  return
}

// -----

// A commit that already has a token (mixed form) joins the window as is.
// CHECK-LABEL: func.func @mixed_form_keeps_tokens
// CHECK: %[[T:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait %[[T]]{{$}}
// CHECK-NEXT: apipe.wait %[[T]]{{$}}
func.func @mixed_form_keeps_tokens() {
  %t = apipe.commit_group
  apipe.wait %t
  apipe.wait_group 0
  return
}

// -----

// A count no path of the function can reach (at most 4 groups exist here)
// needs no window, however large: in a function it waits for the caller's
// groups and stays (in a kernel it would wait on ready).
// CHECK-LABEL: func.func @pending_beyond_every_path_is_ready
// CHECK-NOT: apipe.ready
// CHECK: scf.for
// CHECK-NEXT: %{{.*}} = apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 9223372036854775807{{$}}
// CHECK-NEXT: return
func.func @pending_beyond_every_path_is_ready() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    apipe.commit_group
  }
  apipe.wait_group 9223372036854775807
  return
}

// -----

// scf.index_switch and scf.execute_region carry the window as results;
// every case yields its own.
// CHECK-LABEL: func.func @index_switch_and_execute_region_window
// CHECK: %[[READY:.*]] = apipe.ready{{$}}
// CHECK-NEXT: %[[T0:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: %[[S:.*]]:2 = scf.index_switch %{{.*}} -> !apipe.token, !apipe.token
// CHECK-NEXT: case 0 {
// CHECK-NEXT: %[[A:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: scf.yield %[[A]], %[[T0]] : !apipe.token, !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: default {
// CHECK-NEXT: scf.yield %[[T0]], %[[READY]] : !apipe.token, !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: %[[E:.*]]:2 = scf.execute_region -> (!apipe.token, !apipe.token) {
// CHECK-NEXT: %[[B:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT: scf.yield %[[B]], %[[S]]#0 : !apipe.token, !apipe.token
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait %[[E]]#1{{$}}
// CHECK-NEXT: return
func.func @index_switch_and_execute_region_window(%k: index) {
  apipe.commit_group
  scf.index_switch %k
  case 0 {
    apipe.commit_group
    scf.yield
  }
  default {
    scf.yield
  }
  scf.execute_region {
    apipe.commit_group
    scf.yield
  }
  apipe.wait_group 1
  return
}

// -----

// A caller with no apipe op of its own has no window to shift: calling a
// function that commits and waits is fine there.
// CHECK-LABEL: func.func @drain_helper
// CHECK:         %[[T:.*]] = apipe.commit_group{{$}}
// CHECK-NEXT:    apipe.wait %[[T]]{{$}}
// CHECK-LABEL: func.func @caller_without_apipe_ops
// CHECK-NEXT:    call @drain_helper() : () -> ()
func.func @drain_helper() {
  apipe.commit_group
  apipe.wait_group 0
  return
}
func.func @caller_without_apipe_ops() {
  func.call @drain_helper() : () -> ()
  return
}
