// Waits on groups committed before the function was entered. PTX
// cp.async.wait_group counts per thread, so a wait_group whose count reaches
// past the function's own commits waits for the caller's groups (a helper
// that issues the next stage and waits for the previous one). Only a
// gpu.func kernel (or a gpu.launch body) starts with an empty FIFO.
// counting-to-tokens keeps such a wait_group (the count is the explicit
// window of "groups pending at entry"); the round trip gives every count
// back, also with strict=true. A report: the round trip deleted the wait.
// RUN: apipe-opt %s --split-input-file --apipe-counting-to-tokens | FileCheck %s --check-prefix=TOK
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | FileCheck %s --check-prefix=RT
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true},apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | FileCheck %s --check-prefix=RT
// RUN: apipe-opt %s --split-input-file --apipe-merge-queues | FileCheck %s --check-prefix=MERGE

// The reported helper: one group of its own, then wait_group 1.
// TOK-LABEL: func.func @issue_next_wait_previous
// TOK: apipe.commit_group{{$}}
// TOK-NEXT: apipe.wait_group 1{{$}}
// TOK-NOT: apipe.wait"
// RT-LABEL: func.func @issue_next_wait_previous
// RT: {{^ *}}apipe.commit_group{{$}}
// RT-NEXT: apipe.wait_group 1{{$}}
// MERGE-LABEL: func.func @issue_next_wait_previous
// MERGE: apipe.wait_group 1{{$}}
func.func @issue_next_wait_previous(%src: memref<64xf32>, %buf: memref<2x4xf32, 3>, %off: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  apipe.copy %src[%off], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group
  apipe.wait_group 1
  return
}

// -----

// No commit of its own at all: wait_group 0 completes the caller's groups.
// TOK-LABEL: func.func @wait_for_the_caller
// TOK-NEXT: apipe.wait_group 0{{$}}
// RT-LABEL: func.func @wait_for_the_caller
// RT-NEXT: apipe.wait_group 0{{$}}
func.func @wait_for_the_caller() {
  apipe.wait_group 0
  return
}

// -----

// A group on one path only: on the other, wait_group 0 completes the
// caller's newest group. Kept; an unconditional wait after the commit on
// the other queue is converted.
// TOK-LABEL: func.func @group_on_one_path
// TOK: scf.if
// TOK: apipe.wait_group 0{{$}}
// TOK: %[[T:.*]] = apipe.commit_group queue 1{{$}}
// TOK-NEXT: apipe.wait %[[T]]
// RT-LABEL: func.func @group_on_one_path
// RT: apipe.wait_group 0{{$}}
// RT: {{^ *}}apipe.commit_group queue 1{{$}}
// RT-NEXT: apipe.wait_group 0 queue 1{{$}}
func.func @group_on_one_path(%c: i1) {
  scf.if %c {
    apipe.commit_group
  }
  apipe.wait_group 0
  apipe.commit_group queue 1
  apipe.wait_group 0 queue 1
  return
}

// -----

// The same in a kernel: its FIFO starts empty, so the path without a group
// has nothing to wait for; the wait names the if's token.
// TOK-LABEL: gpu.func @kernel_group_on_one_path
// TOK: %[[T:.*]] = scf.if
// TOK: apipe.wait %[[T]]
// RT-LABEL: gpu.func @kernel_group_on_one_path
// RT: scf.if
// RT: apipe.wait_group 0{{$}}
gpu.module @m {
  gpu.func @kernel_group_on_one_path(%c: i1) kernel {
    scf.if %c {
      apipe.commit_group
    }
    apipe.wait_group 0
    gpu.return
  }
}

// -----

// A loop that commits one group per iteration and waits for the previous
// iteration's: in the first iteration that is the caller's group. Kept.
// TOK-LABEL: func.func @loop_waits_for_previous_iteration
// TOK: scf.for
// TOK: apipe.commit_group{{$}}
// TOK-NEXT: apipe.wait_group 1{{$}}
// RT-LABEL: func.func @loop_waits_for_previous_iteration
// RT: scf.for
// RT: {{^ *}}apipe.commit_group{{$}}
// RT-NEXT: apipe.wait_group 1{{$}}
func.func @loop_waits_for_previous_iteration(%src: memref<64xf32>, %buf: memref<4xf32, 3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    apipe.copy %src[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    apipe.wait_group 1
  }
  return
}

// -----

// A prologue group makes the loop's wait name a group of the function on
// every path: converted to a token carried in the iter_args.
// TOK-LABEL: func.func @prologue_then_loop
// TOK: %[[P:.*]] = apipe.commit_group{{$}}
// TOK: scf.for {{.*}} iter_args(%[[W:.*]] = %[[P]]
// TOK: apipe.commit_group{{$}}
// TOK-NEXT: apipe.wait %[[W]]
// RT-LABEL: func.func @prologue_then_loop
// RT: scf.for
// RT: {{^ *}}apipe.commit_group{{$}}
// RT-NEXT: apipe.wait_group 1{{$}}
func.func @prologue_then_loop(%src: memref<64xf32>, %buf: memref<4xf32, 3>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    apipe.copy %src[%i], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    apipe.wait_group 1
  }
  return
}

// -----

// A kernel: wait_group 1 after its only group can never find a group: a
// no-op (its FIFO started empty), which the round trip drops.
// TOK-LABEL: gpu.func @kernel_no_op_wait
// TOK: %[[R:.*]] = apipe.ready
// TOK: apipe.wait %[[R]]
// RT-LABEL: gpu.func @kernel_no_op_wait
// RT: {{^ *}}apipe.commit_group{{$}}
// RT-NEXT: gpu.return
gpu.module @m {
  gpu.func @kernel_no_op_wait(%src: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) kernel {
    apipe.copy %src[%i], %buf[%i], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    apipe.wait_group 1
    gpu.return
  }
}
