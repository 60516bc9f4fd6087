// A host function converted to the mbarrier form gets a ring of its own
// (a `memref.alloca`): a group it returns with in flight can be completed
// by no wait after the return. In counting form a `wait_group` in the
// caller, or in a function called later, completes it (trial 56:
// `@issue` committed and returned, `@consume` waited with `wait_group 0`,
// `@main` called both; apipe-tokens-to-mbarrier converted `@issue`, and
// the read in `@consume` raced). Such a function is now refused, and
// apipe-select-sync keeps it in counting form, when a `wait_group` may run
// after it returns: in the module, when the module has a `wait_group` and
// something calls the function; under `func.func`, always (its callers are
// not visible).
// RUN: apipe-opt %s --split-input-file --apipe-tokens-to-mbarrier --verify-diagnostics
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-select-sync{remarks=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// The input is correct: the same output in every completion mode.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - --entry=main --completion=eager | FileCheck %s --check-prefix=OUT
// RUN: apipe-run %s --entry=main --completion=lazy | FileCheck %s --check-prefix=OUT
// RUN: apipe-run %s --entry=main --completion=random:2 | FileCheck %s --check-prefix=OUT
// RUN: not apipe-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(apipe-tokens-to-mbarrier))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED --implicit-check-not=error:
// OUT: 0
// OUT-NEXT: 5
// OUT-NEXT: 3
// OUT-NEXT: 5
// OUT-NEXT: 6

func.func @issue(%A: memref<8xf32>, %X: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %X[%c0], 4 : memref<8xf32> to memref<8xf32>
  // expected-note @+1 {{a commit of that queue}}
  %t = apipe.commit_group
  // expected-error @+1 {{'func.return' op may return with a group of queue 0 in flight: in the mbarrier form each group is a slot of this function's own ring, which no wait after the return can name (wait for its token before the return, or keep the function in counting form, where the caller's wait_group completes it)}}
  return
}
// NESTED: tokens-to-mbarrier-return-in-flight.mlir:[[# @LINE - 2]]:3: error: 'func.return' op may return with a group of queue 0 in flight

// Waited on one path only.
func.func @one_path(%A: memref<8xf32>, %X: memref<8xf32>, %p: i1) {
  %c4 = arith.constant 4 : index
  apipe.copy %A[%c4], %X[%c4], 4 : memref<8xf32> to memref<8xf32>
  // expected-note @+1 {{a commit of that queue}}
  %t = apipe.commit_group
  scf.if %p {
    apipe.wait %t
  }
  // expected-error @+1 {{'func.return' op may return with a group of queue 0 in flight}}
  return
}
// NESTED: tokens-to-mbarrier-return-in-flight.mlir:[[# @LINE - 2]]:3: error: 'func.return' op may return with a group of queue 0 in flight

// Each iteration waits for the previous one's group: the last one is in
// flight after the loop.
func.func @loop_last(%A: memref<8xf32>, %Y: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = apipe.ready
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %r) -> (!apipe.token) {
    apipe.wait %prev
    apipe.copy %A[%i], %Y[%i], 1 : memref<8xf32> to memref<8xf32>
    // expected-note @+1 {{a commit of that queue}}
    %u = apipe.commit_group
    scf.yield %u : !apipe.token
  }
  // expected-error @+1 {{'func.return' op may return with a group of queue 0 in flight}}
  return
}
// NESTED: tokens-to-mbarrier-return-in-flight.mlir:[[# @LINE - 2]]:3: error: 'func.return' op may return with a group of queue 0 in flight

// Inexact (0 or 1 groups after %t0's when it is waited): apipe-select-sync
// would pick the mbarrier form, and keeps the counting form instead.
func.func @inexact(%A: memref<8xf32>, %W: memref<8xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  apipe.copy %A[%c0], %W[%c0], 1 : memref<8xf32> to memref<8xf32>
  // expected-note @+1 {{a commit of that queue}}
  %t0 = apipe.commit_group
  scf.if %p {
    %u = apipe.commit_group
  }
  apipe.wait %t0
  apipe.copy %A[%c6], %W[%c6], 1 : memref<8xf32> to memref<8xf32>
  %t1 = apipe.commit_group
  // expected-error @+1 {{'func.return' op may return with a group of queue 0 in flight}}
  return
}
// NESTED: tokens-to-mbarrier-return-in-flight.mlir:[[# @LINE - 2]]:3: error: 'func.return' op may return with a group of queue 0 in flight
// AUTO: tokens-to-mbarrier-return-in-flight.mlir:[[# @LINE - 16]]:1: remark: sync=auto: counting form kept with inexact counts (the paths commit 0 to 1 groups after the group of a wait on queue 0); the mbarrier form is refused here: 'func.return' op may return with a group of queue 0 in flight

// Waits for its group: converted.
func.func @waits_all(%A: memref<8xf32>, %Z: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %Z[%c0], 8 : memref<8xf32> to memref<8xf32>
  %t = apipe.commit_group
  apipe.wait %t
  return
}

func.func @consume(%X: memref<8xf32>, %Y: memref<8xf32>, %Z: memref<8xf32>, %W: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  apipe.wait_group 0
  %x0 = memref.load %X[%c0] : memref<8xf32>
  %x5 = memref.load %X[%c5] : memref<8xf32>
  %y = memref.load %Y[%c3] : memref<8xf32>
  %z = memref.load %Z[%c5] : memref<8xf32>
  %c6 = arith.constant 6 : index
  %w = memref.load %W[%c6] : memref<8xf32>
  vector.print %x0 : f32
  vector.print %x5 : f32
  vector.print %y : f32
  vector.print %z : f32
  vector.print %w : f32
  return
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %false = arith.constant false
  %A = memref.alloc() : memref<8xf32>
  %X = memref.alloc() : memref<8xf32>
  %Y = memref.alloc() : memref<8xf32>
  %Z = memref.alloc() : memref<8xf32>
  %W = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    %g = arith.divf %f, %f : f32
    %h = arith.select %false, %g, %f : f32
    memref.store %h, %A[%i] : memref<8xf32>
  }
  func.call @issue(%A, %X) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @one_path(%A, %X, %false) : (memref<8xf32>, memref<8xf32>, i1) -> ()
  func.call @loop_last(%A, %Y, %c4) : (memref<8xf32>, memref<8xf32>, index) -> ()
  func.call @waits_all(%A, %Z) : (memref<8xf32>, memref<8xf32>) -> ()
  func.call @inexact(%A, %W, %false) : (memref<8xf32>, memref<8xf32>, i1) -> ()
  func.call @consume(%X, %Y, %Z, %W) : (memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

// No `wait_group` in the module: nothing after the return could wait for
// the group, so the conversion keeps the program's meaning (the read in
// @main was a race before it too; apipe-check-hazards reports it).
func.func @issue_alone(%A: memref<8xf32>, %X: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %X[%c0], 4 : memref<8xf32> to memref<8xf32>
  %t = apipe.commit_group
  return
}
// NESTED: tokens-to-mbarrier-return-in-flight.mlir:[[# @LINE - 2]]:3: error: 'func.return' op may return with a group of queue 0 in flight
func.func @main_alone() {
  %A = memref.alloc() : memref<8xf32>
  %X = memref.alloc() : memref<8xf32>
  func.call @issue_alone(%A, %X) : (memref<8xf32>, memref<8xf32>) -> ()
  return
}
