// Round trip: apipe-counting-to-tokens then apipe-tokens-to-counting gives
// back every count unchanged, exactly (strict=true: all paths agree), in
// one pipeline and through two tool runs.
// RUN: apipe-opt %s --split-input-file --apipe-counting-to-tokens --apipe-tokens-to-counting='strict=true' | FileCheck %s
// RUN: apipe-opt %s --split-input-file --apipe-counting-to-tokens | apipe-opt --split-input-file --apipe-tokens-to-counting='strict=true' | FileCheck %s

// The pipeliner's shape: a two-group prologue under scf.if guards (dynamic trip
// count), a steady-state loop, and an epilogue that drains.
// CHECK-LABEL: func.func @guarded_prologue_loop_epilogue
// CHECK: scf.if
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK: scf.if
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK: scf.for
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: return
func.func @guarded_prologue_loop_epilogue(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.if %c {
    apipe.commit_group
  } else {
    apipe.commit_group
  }
  scf.if %c {
    apipe.commit_group
  } else {
    apipe.commit_group
  }
  scf.for %i = %c0 to %n step %c1 {
    apipe.wait_group 1
    apipe.commit_group
  }
  apipe.wait_group 1
  apipe.wait_group 0
  return
}

// -----

// A commit in one branch only: the window tells which group each count
// names on each path, so even this converts back exactly (and the else
// that carried the window goes away again).
// CHECK-LABEL: func.func @commit_in_one_branch
// CHECK: scf.if
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 1{{$}}
// CHECK-NEXT: apipe.wait_group 0{{$}}
func.func @commit_in_one_branch(%c: i1) {
  apipe.commit_group
  apipe.commit_group
  scf.if %c {
    apipe.commit_group
  }
  apipe.wait_group 1
  apipe.wait_group 0
  return
}

// -----

// Two queues, a while loop and waits in both branches of an scf.if.
// CHECK-LABEL: func.func @two_queues_while_and_branches
// CHECK: scf.while
// CHECK-NEXT: {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT: {{^ *}}apipe.commit_group queue 1{{$}}
// CHECK-NEXT: scf.condition
// CHECK-NEXT: } do {
// CHECK-NEXT: scf.if
// CHECK-NEXT: apipe.wait_group 0{{$}}
// CHECK-NEXT: } else {
// CHECK-NEXT: apipe.wait_group 0 queue 1{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: apipe.wait_group 0 queue 1{{$}}
func.func @two_queues_while_and_branches(%c: i1) {
  apipe.commit_group
  scf.while : () -> () {
    apipe.commit_group
    apipe.commit_group queue 1
    scf.condition(%c)
  } do {
    scf.if %c {
      apipe.wait_group 0
    } else {
      apipe.wait_group 0 queue 1
    }
    scf.yield
  }
  apipe.wait_group 0 queue 1
  return
}

// -----

// A deep window: 41 rotating tokens through the iter_args of a loop with a
// dynamic trip count; every path agrees on 40 (the fixed point waits for the
// whole window to settle before widening).
// CHECK-LABEL: func.func @deep_window
// CHECK:         scf.for
// CHECK-NEXT:      {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT:      apipe.wait_group 40{{$}}
func.func @deep_window(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    apipe.commit_group
    apipe.wait_group 40
  }
  return
}

// -----

// The longest window counting-to-tokens supports (pending = 1023: 1024
// rotating tokens) beside a short one: both counts come back exactly, and
// the fixed point stays fast (a window of k tokens settles in k rounds;
// the analysis waits at most 64 rounds before widening, then forgets the
// window's facts at once instead of moving one slot per round).
// CHECK-LABEL: func.func @longest_window
// CHECK:         scf.for
// CHECK-NEXT:      apipe.copy
// CHECK-NEXT:      {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT:      apipe.wait_group 1023{{$}}
// CHECK-NEXT:      apipe.copy
// CHECK-NEXT:      {{^ *}}apipe.commit_group{{$}}
// CHECK-NEXT:      apipe.wait_group 1{{$}}
// CHECK-NEXT:    }
// CHECK-NEXT:    apipe.wait_group 0{{$}}
func.func @longest_window(%n: index, %A: memref<64xf32>, %buf: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 1023
    apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32>
    apipe.commit_group
    apipe.wait_group 1
  }
  apipe.wait_group 0
  return
}
