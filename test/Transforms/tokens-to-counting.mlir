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
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 2{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: return
func.func @straight_line_three_commits() {
  %t0 = apipe.commit_group
  %t1 = apipe.commit_group
  %t2 = apipe.commit_group
  apipe.wait %t0
  apipe.wait %t2
  return
}

// -----

// CHECK-LABEL: func.func @commit_in_then_branch_only
// CHECK: scf.if
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0{{$}}
func.func @commit_in_then_branch_only(%c: i1) {
  %t0 = apipe.commit_group
  scf.if %c {
    apipe.commit_group
  }
  apipe.wait %t0
  return
}

// -----

// The newest token decides: waiting for it completes the older ones (FIFO).
// CHECK-LABEL: func.func @multi_token_wait_takes_newest
// CHECK-COUNT-4: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: return
func.func @multi_token_wait_takes_newest() {
  %t0 = apipe.commit_group
  %t1 = apipe.commit_group
  %t2 = apipe.commit_group
  %t3 = apipe.commit_group
  apipe.wait %t0, %t2, %t1
  return
}

// -----

// Tokens of two queues: one wait_group per queue, counted on its own queue.
// CHECK-LABEL: func.func @two_queues_one_wait
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 1{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 1{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 0 queue 1{{$}}
// CHECK-NEXT: return
func.func @two_queues_one_wait() {
  %a0 = apipe.commit_group
  %b0 = apipe.commit_group queue 1
  %a1 = apipe.commit_group
  %b1 = apipe.commit_group queue 1
  apipe.wait %a0, %b1
  return
}

// -----

// A wait on `ready` has nothing to wait for and disappears.
// CHECK-LABEL: func.func @wait_on_ready_disappears
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: return
func.func @wait_on_ready_disappears() {
  %r = apipe.ready
  %t = apipe.commit_group
  apipe.wait %r
  return
}

// -----

// A pipeliner's depth-2 output with a dynamic trip count: the loop may run
// zero times, then its results are the prologue tokens, at the same
// distances as after any iteration.
// CHECK-LABEL: func.func @double_buffer_dynamic_trip_count
// CHECK: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: return
func.func @double_buffer_dynamic_trip_count(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = apipe.commit_group
  %t1 = apipe.commit_group
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t0, %b = %t1) -> (!apipe.token, !apipe.token) {
    apipe.wait %a
    %t = apipe.commit_group
    scf.yield %b, %t : !apipe.token, !apipe.token
  }
  apipe.wait %r#0
  apipe.wait %r#1
  return
}

// -----

// Triton-style multi-buffering: four rotating tokens in iter_args, the
// oldest waited on inside both branches of an scf.if.
// CHECK-LABEL: func.func @triton_four_rotating_tokens_wait_in_both_branches
// CHECK-COUNT-4: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.if
// CHECK-NEXT: apipe.wait_group 3{{$}}
// CHECK-NEXT: memref.load
// CHECK-NEXT: } else {
// CHECK-NEXT: apipe.wait_group 3{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: return
func.func @triton_four_rotating_tokens_wait_in_both_branches(%buf: memref<4xf32, 3>, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = apipe.commit_group
  %t1 = apipe.commit_group
  %t2 = apipe.commit_group
  %t3 = apipe.commit_group
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t0, %b = %t1, %d = %t2, %e = %t3) -> (!apipe.token, !apipe.token, !apipe.token, !apipe.token) {
    scf.if %c {
      apipe.wait %a
      %v = memref.load %buf[%c0] : memref<4xf32, 3>
    } else {
      apipe.wait %a
    }
    %t = apipe.commit_group
    scf.yield %b, %d, %e, %t : !apipe.token, !apipe.token, !apipe.token, !apipe.token
  }
  apipe.wait %r#3
  return
}

// -----

// A static trip count excludes the zero-trip path: exactly four groups
// follow the token committed before the loop.
// CHECK-LABEL: func.func @static_trip_count_counts_every_iteration
// CHECK: scf.for
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 4{{$}}
func.func @static_trip_count_counts_every_iteration() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = apipe.commit_group
  scf.for %i = %c0 to %c4 step %c1 {
    apipe.commit_group
  }
  apipe.wait %t0
  return
}

// -----

// Nested loops: the token of the outer iteration, waited on after an inner
// loop of three iterations that commits twice per iteration.
// CHECK-LABEL: func.func @nested_loops_inner_static
// CHECK: scf.for
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: scf.for
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 6{{$}}
// CHECK-NEXT: }
func.func @nested_loops_inner_static(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = apipe.commit_group
    scf.for %j = %c0 to %c3 step %c1 {
      apipe.commit_group
      apipe.commit_group
    }
    apipe.wait %t
  }
  return
}

// -----

// scf.while: the token of the previous iteration travels through the
// before-region argument; `ready` on entry.
// CHECK-LABEL: func.func @while_loop_previous_iteration_token
// CHECK: scf.while : () -> () {
// CHECK-NEXT: apipe.wait_group 0 queue 1{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 1{{$}}
// CHECK-NEXT: scf.condition(%{{.*}})
// CHECK-NEXT: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0 queue 1{{$}}
// CHECK-NOT: apipe.ready
func.func @while_loop_previous_iteration_token(%c: i1) {
  %r0 = apipe.ready queue 1
  %w = scf.while (%a = %r0) : (!apipe.token) -> !apipe.token {
    apipe.wait %a
    %t = apipe.commit_group queue 1
    scf.condition(%c) %t : !apipe.token
  } do {
  ^bb0(%b: !apipe.token):
    scf.yield %b : !apipe.token
  }
  apipe.wait %w
  return
}

// -----

// scf.if results carry tokens: both branches commit once, so the result
// is exact; the older token has one group after it on both paths.
// CHECK-LABEL: func.func @if_results_commit_in_both_branches
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: } else {
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 0{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
func.func @if_results_commit_in_both_branches(%c: i1) {
  %t0 = apipe.commit_group
  %r = scf.if %c -> !apipe.token {
    %a = apipe.commit_group
    scf.yield %a : !apipe.token
  } else {
    %b = apipe.commit_group queue 0
    scf.yield %b : !apipe.token
  }
  apipe.wait %t0
  apipe.wait %r
  return
}

// -----

// scf.index_switch and scf.execute_region.
// CHECK-LABEL: func.func @index_switch_and_execute_region
// CHECK: scf.index_switch
// CHECK: {{^ *}}apipe.commit_group{{$}}
// CHECK: {{^ *}}apipe.commit_group{{$}}
// CHECK: scf.execute_region {
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 2{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
func.func @index_switch_and_execute_region(%k: index) {
  %t0 = apipe.commit_group
  %s = scf.index_switch %k -> !apipe.token
  case 0 {
    %a = apipe.commit_group
    scf.yield %a : !apipe.token
  }
  default {
    %b = apipe.commit_group
    scf.yield %b : !apipe.token
  }
  %e = scf.execute_region -> !apipe.token {
    %c = apipe.commit_group
    scf.yield %c : !apipe.token
  }
  apipe.wait %t0
  apipe.wait %s
  apipe.wait %e
  return
}

// -----

// A loop with a static trip count of zero never runs: its result is the
// init token, and the waits in its body still convert.
// CHECK-LABEL: func.func @zero_trip_loop
// CHECK: scf.for
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0{{$}}
func.func @zero_trip_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = apipe.commit_group
  %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%a = %t0) -> (!apipe.token) {
    apipe.wait %a
    %t = apipe.commit_group
    scf.yield %t : !apipe.token
  }
  apipe.wait %r
  return
}

// -----

// Beyond the unroll limit, a static trip count still counts every
// iteration: sixteen groups follow the token committed before the loop.
// CHECK-LABEL: func.func @static_trip_count_sixteen
// CHECK: scf.for
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 16{{$}}
func.func @static_trip_count_sixteen() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %t0 = apipe.commit_group
  scf.for %i = %c0 to %c16 step %c1 {
    apipe.commit_group
  }
  apipe.wait %t0
  return
}

// -----

// A gpu.launch body is a kernel: its groups are counted on their own, and
// they do not count for the host function around it. It runs under
// apipe-run (a 1x1x1 launch; only empty groups: nothing to print), as
// written and converted, in every completion mode and two schedules:
// RUN: sed -n '/^func.func @gpu_launch_body_counted_on_its_own/,/^}/p' %s > %t.launch.mlir
// RUN: apipe-run %t.launch.mlir --entry=gpu_launch_body_counted_on_its_own --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=LAUNCH-RUN
// RUN: apipe-opt %t.launch.mlir --apipe-tokens-to-counting | apipe-run - --entry=gpu_launch_body_counted_on_its_own --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=LAUNCH-RUN
// LAUNCH-RUN-COUNT-6: // apipe-run: completion={{.*}} schedule={{.*}}
// LAUNCH-RUN-NOT: {{.}}
// CHECK-LABEL: func.func @gpu_launch_body_counted_on_its_own
// CHECK: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: gpu.launch
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: apipe.wait_group 1{{$}}
func.func @gpu_launch_body_counted_on_its_own() {
  %c1 = arith.constant 1 : index
  %t0 = apipe.commit_group
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = apipe.commit_group
    %b = apipe.commit_group
    apipe.wait %a
    gpu.terminator
  }
  apipe.commit_group
  apipe.wait %t0
  return
}

// -----

// A dynamic loop whose body commits nothing keeps the distance: the wait
// inside and the wait after are both exact.
// CHECK-LABEL: func.func @dynamic_loop_without_commit
// CHECK: scf.for
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 1{{$}}
func.func @dynamic_loop_without_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = apipe.commit_group
  %t1 = apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.wait %t0
  }
  apipe.wait %t0
  return
}

// -----

// Three nested loops of eight iterations (beyond the unroll limit: counted
// per iteration and multiplied): 512 groups follow the token.
// CHECK-LABEL: func.func @nested_static_loops_multiply
// CHECK: apipe.wait_group 512{{$}}
// CHECK-NEXT: return
func.func @nested_static_loops_multiply() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t0 = apipe.commit_group
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      scf.for %k = %c0 to %c8 step %c1 {
        apipe.commit_group
      }
    }
  }
  apipe.wait %t0
  return
}
