// Every refusal of apipe-tokens-to-mbarrier, located, one case per chunk.
// RUN: apipe-opt %s --split-input-file --apipe-tokens-to-mbarrier --verify-diagnostics
// Options out of range are pass option errors when the pipeline is parsed
// (no IR location: they are not about the IR), as MLIR reports a malformed
// value; nothing runs.
// RUN: echo 'func.func @f() { return }' | not apipe-opt - --pass-pipeline='builtin.module(apipe-tokens-to-mbarrier{slots=-1})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: for the --slots option: -1 is out of range: expected 0 to 65536
// OPTION-NEXT: failed to add `apipe-tokens-to-mbarrier` with options `slots=-1`
// RUN: echo 'func.func @f() { return }' | not apipe-opt - --pass-pipeline='builtin.module(apipe-tokens-to-mbarrier{max-slots=0})' 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: echo 'func.func @f() { return }' | not apipe-opt - --apipe-tokens-to-mbarrier=max-slots=0 2>&1 | FileCheck %s --check-prefix=MAX
// MAX: error: for the --max-slots option: 0 is out of range: expected 1 to 65536
// MAX-NOT: 0:0
// RUN: echo 'func.func @f() { return }' | not apipe-opt - --apipe-tokens-to-mbarrier=slots=65537 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: error: for the --slots option: 65537 is out of range: expected 0 to 65536

func.func @counting_form() {
  %t = apipe.commit_group
  // expected-error @+1 {{'apipe.wait_group' op is in counting form; apipe-tokens-to-mbarrier converts token form (run apipe-counting-to-tokens first; a wait_group it keeps waits for groups committed before the function's entry, which no slot of this function names)}}
  apipe.wait_group 0
  apipe.wait %t
  return
}

// -----

gpu.module @kernels {
  gpu.func @commit_under_thread_condition(%A: memref<64xf32>) workgroup(%buf: memref<4xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %first = arith.cmpi eq, %tid, %c0 : index
    // expected-note @+1 {{the 'scf.if' whose control flow depends on the thread id}}
    scf.if %first {
      apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
      // expected-error @+1 {{'apipe.commit_group' op runs under control flow that depends on the thread id: every thread of the block must arrive on each group's mbarrier slot (the arrival count is the block size)}}
      %t = apipe.commit_group
      apipe.wait %t
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @commit_in_thread_dependent_loop(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tid = gpu.thread_id x
    %lane = arith.remui %tid, %n : index
    // expected-note @+1 {{the 'scf.for' whose control flow depends on the thread id}}
    scf.for %i = %c0 to %lane step %c1 {
      // expected-error @+1 {{'apipe.commit_group' op runs under control flow that depends on the thread id}}
      %t = apipe.commit_group
      apipe.wait %t
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // The copy may diverge; the commit after it does not: accepted, and so
  // is a wait under a thread-dependent condition.
  gpu.func @divergent_copy_and_wait(%A: memref<64xf32>) workgroup(%buf: memref<4xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<4xf32, 3>
    }
    %t = apipe.commit_group
    scf.if %first {
      apipe.wait %t
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op is a device function that commits groups: the mbarrier form needs the groups of a whole kernel (every thread of the block arrives on each slot); inline it into its kernel first}}
  gpu.func @device_function() {
    %t = apipe.commit_group
    apipe.wait %t
    gpu.return
  }
}

// -----

// The refused launch runs under apipe-run as written (one empty group and
// its wait), in every completion mode and two schedules:
// RUN: sed -n '/^func.func @inline_launch/,/^}/p' %s | sed -e '/expected-/d' > %t.launch.mlir
// RUN: apipe-run %t.launch.mlir --entry=inline_launch --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=LAUNCH-RUN
// LAUNCH-RUN-COUNT-6: // apipe-run: completion={{.*}} schedule={{.*}}
// LAUNCH-RUN-NOT: {{.}}
func.func @inline_launch() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' body commits groups: apipe-tokens-to-mbarrier places the ring of mbarrier slots in a kernel's workgroup attributions; outline the launch into a gpu.func kernel first (gpu-kernel-outlining)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t = apipe.commit_group
    apipe.wait %t
    gpu.terminator
  }
  return
}

// -----

func.func private @consume(!apipe.token)

func.func @token_crosses_a_call() {
  %t = apipe.commit_group
  // expected-error @+1 {{'func.call' op uses an !apipe.token value: tokens cannot cross function boundaries}}
  func.call @consume(%t) : (!apipe.token) -> ()
  apipe.wait %t
  return
}

// -----

// A callee that only waits, reached through a chain (trial 25): once
// converted, its wait_group completes no mbarrier group, so the caller's
// count would be wrong. Refused at the call.
func.func @waits_only() {
  apipe.wait_group 0
  return
}

func.func @forwards_wait() {
  func.call @waits_only() : () -> ()
  return
}

func.func @call_of_waiting_chain(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %a[%c0], %b[%c0], 4 : memref<4xf32> to memref<4xf32>
  %t = apipe.commit_group
  // expected-error @+1 {{'func.call' op calls @forwards_wait, which commits or waits (itself or through the functions it calls): apipe counts groups only within a function}}
  func.call @forwards_wait() : () -> ()
  apipe.wait %t
  return
}
