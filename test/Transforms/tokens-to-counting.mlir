// apipe-tokens-to-counting: every apipe.wait becomes one wait_group per
// queue whose pending count is the fewest groups committed on that queue
// after the waited group, over all paths; every !apipe.token disappears.
// RUN: apipe-opt %s --split-input-file --apipe-tokens-to-counting 2>/dev/null | FileCheck %s
// RUN: apipe-opt %s --split-input-file --apipe-tokens-to-counting 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(apipe-tokens-to-counting))' 2>/dev/null | FileCheck %s

// REMARK-NOT: remark
// REMARK: tokens-to-counting.mlir:[[# @LINE + 31]]:3: remark: 'apipe.wait' op on queue 0: the paths commit 0 to 1 groups after the waited group; using the minimum, pending = 0
// REMARK-NOT: remark

// CHECK-LABEL: func.func @straight_line_three_commits
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 2 : i64} : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64} : () -> ()
// CHECK-NEXT: return
func.func @straight_line_three_commits() {
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  %t1 = "apipe.commit_group"() : () -> !apipe.token
  %t2 = "apipe.commit_group"() : () -> !apipe.token
  "apipe.wait"(%t0) : (!apipe.token) -> ()
  "apipe.wait"(%t2) : (!apipe.token) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @commit_in_then_branch_only
// CHECK: scf.if
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64} : () -> ()
func.func @commit_in_then_branch_only(%c: i1) {
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  scf.if %c {
    "apipe.commit_group"() : () -> ()
  }
  "apipe.wait"(%t0) : (!apipe.token) -> ()
  return
}

// -----

// The newest token decides: waiting for it completes the older ones (FIFO).
// CHECK-LABEL: func.func @multi_token_wait_takes_newest
// CHECK-COUNT-4: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 1 : i64} : () -> ()
// CHECK-NEXT: return
func.func @multi_token_wait_takes_newest() {
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  %t1 = "apipe.commit_group"() : () -> !apipe.token
  %t2 = "apipe.commit_group"() : () -> !apipe.token
  %t3 = "apipe.commit_group"() : () -> !apipe.token
  "apipe.wait"(%t0, %t2, %t1) : (!apipe.token, !apipe.token, !apipe.token) -> ()
  return
}

// -----

// Tokens of two queues: one wait_group per queue, counted on its own queue.
// CHECK-LABEL: func.func @two_queues_one_wait
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.commit_group"() {queue = 1 : i64} : () -> ()
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.commit_group"() {queue = 1 : i64} : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 1 : i64} : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64, queue = 1 : i64} : () -> ()
// CHECK-NEXT: return
func.func @two_queues_one_wait() {
  %a0 = "apipe.commit_group"() : () -> !apipe.token
  %b0 = "apipe.commit_group"() {queue = 1 : i64} : () -> !apipe.token
  %a1 = "apipe.commit_group"() : () -> !apipe.token
  %b1 = "apipe.commit_group"() {queue = 1 : i64} : () -> !apipe.token
  "apipe.wait"(%a0, %b1) : (!apipe.token, !apipe.token) -> ()
  return
}

// -----

// A wait on `ready` has nothing to wait for and disappears.
// CHECK-LABEL: func.func @wait_on_ready_disappears
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: return
func.func @wait_on_ready_disappears() {
  %r = "apipe.ready"() : () -> !apipe.token
  %t = "apipe.commit_group"() : () -> !apipe.token
  "apipe.wait"(%r) : (!apipe.token) -> ()
  return
}

// -----

// A pipeliner's depth-2 output with a dynamic trip count: the loop may run
// zero times, then its results are the prologue tokens, at the same
// distances as after any iteration.
// CHECK-LABEL: func.func @double_buffer_dynamic_trip_count
// CHECK: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: "apipe.wait_group"() {pending = 1 : i64} : () -> ()
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 1 : i64} : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64} : () -> ()
// CHECK-NEXT: return
func.func @double_buffer_dynamic_trip_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  %t1 = "apipe.commit_group"() : () -> !apipe.token
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t0, %b = %t1) -> (!apipe.token, !apipe.token) {
    "apipe.wait"(%a) : (!apipe.token) -> ()
    %t = "apipe.commit_group"() : () -> !apipe.token
    scf.yield %b, %t : !apipe.token, !apipe.token
  }
  "apipe.wait"(%r#0) : (!apipe.token) -> ()
  "apipe.wait"(%r#1) : (!apipe.token) -> ()
  return
}

// -----

// Triton-style multi-buffering: four rotating tokens in iter_args, the
// oldest waited on inside both branches of an scf.if.
// CHECK-LABEL: func.func @triton_four_rotating_tokens_wait_in_both_branches
// CHECK-COUNT-4: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.if
// CHECK-NEXT: "apipe.wait_group"() {pending = 3 : i64} : () -> ()
// CHECK-NEXT: memref.load
// CHECK-NEXT: } else {
// CHECK-NEXT: "apipe.wait_group"() {pending = 3 : i64} : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64} : () -> ()
// CHECK-NEXT: return
func.func @triton_four_rotating_tokens_wait_in_both_branches(%buf: memref<4xf32, 3>, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  %t1 = "apipe.commit_group"() : () -> !apipe.token
  %t2 = "apipe.commit_group"() : () -> !apipe.token
  %t3 = "apipe.commit_group"() : () -> !apipe.token
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t0, %b = %t1, %d = %t2, %e = %t3) -> (!apipe.token, !apipe.token, !apipe.token, !apipe.token) {
    scf.if %c {
      "apipe.wait"(%a) : (!apipe.token) -> ()
      %v = memref.load %buf[%c0] : memref<4xf32, 3>
    } else {
      "apipe.wait"(%a) : (!apipe.token) -> ()
    }
    %t = "apipe.commit_group"() : () -> !apipe.token
    scf.yield %b, %d, %e, %t : !apipe.token, !apipe.token, !apipe.token, !apipe.token
  }
  "apipe.wait"(%r#3) : (!apipe.token) -> ()
  return
}

// -----

// A static trip count excludes the zero-trip path: exactly four groups
// follow the token committed before the loop.
// CHECK-LABEL: func.func @static_trip_count_counts_every_iteration
// CHECK: scf.for
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 4 : i64} : () -> ()
func.func @static_trip_count_counts_every_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  scf.for %i = %c0 to %c4 step %c1 {
    "apipe.commit_group"() : () -> ()
  }
  "apipe.wait"(%t0) : (!apipe.token) -> ()
  return
}

// -----

// Nested loops: the token of the outer iteration, waited on after an inner
// loop of three iterations that commits twice per iteration.
// CHECK-LABEL: func.func @nested_loops_inner_static
// CHECK: scf.for
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: scf.for
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 6 : i64} : () -> ()
// CHECK-NEXT: }
func.func @nested_loops_inner_static(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = "apipe.commit_group"() : () -> !apipe.token
    scf.for %j = %c0 to %c3 step %c1 {
      "apipe.commit_group"() : () -> ()
      "apipe.commit_group"() : () -> ()
    }
    "apipe.wait"(%t) : (!apipe.token) -> ()
  }
  return
}

// -----

// scf.while: the token of the previous iteration travels through the
// before-region argument; `ready` on entry.
// CHECK-LABEL: func.func @while_loop_previous_iteration_token
// CHECK: scf.while : () -> () {
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64, queue = 1 : i64} : () -> ()
// CHECK-NEXT: "apipe.commit_group"() {queue = 1 : i64} : () -> ()
// CHECK-NEXT: scf.condition(%{{.*}})
// CHECK-NEXT: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64, queue = 1 : i64} : () -> ()
// CHECK-NOT: apipe.ready
func.func @while_loop_previous_iteration_token(%c: i1) {
  %r0 = "apipe.ready"() {queue = 1 : i64} : () -> !apipe.token
  %w = scf.while (%a = %r0) : (!apipe.token) -> !apipe.token {
    "apipe.wait"(%a) : (!apipe.token) -> ()
    %t = "apipe.commit_group"() {queue = 1 : i64} : () -> !apipe.token
    scf.condition(%c) %t : !apipe.token
  } do {
  ^bb0(%b: !apipe.token):
    scf.yield %b : !apipe.token
  }
  "apipe.wait"(%w) : (!apipe.token) -> ()
  return
}

// -----

// scf.if results carry tokens: both branches commit once, so the result
// is exact; the older token has one group after it on both paths.
// CHECK-LABEL: func.func @if_results_commit_in_both_branches
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: } else {
// CHECK-NEXT: "apipe.commit_group"() {queue = 0 : i64} : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 1 : i64} : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64} : () -> ()
func.func @if_results_commit_in_both_branches(%c: i1) {
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  %r = scf.if %c -> !apipe.token {
    %a = "apipe.commit_group"() : () -> !apipe.token
    scf.yield %a : !apipe.token
  } else {
    %b = "apipe.commit_group"() {queue = 0 : i64} : () -> !apipe.token
    scf.yield %b : !apipe.token
  }
  "apipe.wait"(%t0) : (!apipe.token) -> ()
  "apipe.wait"(%r) : (!apipe.token) -> ()
  return
}

// -----

// scf.index_switch and scf.execute_region.
// CHECK-LABEL: func.func @index_switch_and_execute_region
// CHECK: scf.index_switch
// CHECK: "apipe.commit_group"() : () -> ()
// CHECK: "apipe.commit_group"() : () -> ()
// CHECK: scf.execute_region {
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 2 : i64} : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 1 : i64} : () -> ()
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64} : () -> ()
func.func @index_switch_and_execute_region(%k: index) {
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  %s = scf.index_switch %k -> !apipe.token
  case 0 {
    %a = "apipe.commit_group"() : () -> !apipe.token
    scf.yield %a : !apipe.token
  }
  default {
    %b = "apipe.commit_group"() : () -> !apipe.token
    scf.yield %b : !apipe.token
  }
  %e = scf.execute_region -> !apipe.token {
    %c = "apipe.commit_group"() : () -> !apipe.token
    scf.yield %c : !apipe.token
  }
  "apipe.wait"(%t0) : (!apipe.token) -> ()
  "apipe.wait"(%s) : (!apipe.token) -> ()
  "apipe.wait"(%e) : (!apipe.token) -> ()
  return
}

// -----

// A loop with a static trip count of zero never runs: its result is the
// init token, and the waits in its body still convert.
// CHECK-LABEL: func.func @zero_trip_loop
// CHECK: scf.for
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64} : () -> ()
// CHECK-NEXT: "apipe.commit_group"() : () -> ()
// CHECK-NEXT: }
// CHECK-NEXT: "apipe.wait_group"() {pending = 0 : i64} : () -> ()
func.func @zero_trip_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = "apipe.commit_group"() : () -> !apipe.token
  %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%a = %t0) -> (!apipe.token) {
    "apipe.wait"(%a) : (!apipe.token) -> ()
    %t = "apipe.commit_group"() : () -> !apipe.token
    scf.yield %t : !apipe.token
  }
  "apipe.wait"(%r) : (!apipe.token) -> ()
  return
}
