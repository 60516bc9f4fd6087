// apipe-counting-to-tokens refuses, with a located error and the IR
// unchanged: calls of functions that commit or wait, commits in regions it
// cannot carry tokens through, and windows too large to carry.
// RUN: apipe-opt %s --split-input-file --apipe-counting-to-tokens --verify-diagnostics

func.func @waits() {
  apipe.wait_group 0
  return
}

func.func @call_to_waiting_function() {
  apipe.commit_group
  // expected-error @+1 {{'func.call' op calls @waits, which commits or waits: its groups would shift the window of tokens of this function}}
  func.call @waits() : () -> ()
  apipe.wait_group 0
  return
}

// -----

func.func @commit_inside_scf_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op commits groups inside its regions: the token form (apipe-counting-to-tokens, which apipe-merge-queues also runs) carries tokens only through scf.for, scf.if, scf.index_switch, scf.while and scf.execute_region}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    apipe.commit_group
    scf.reduce
  }
  apipe.wait_group 0
  return
}

// -----

// expected-error @+1 {{'func.func' op with several blocks commits or waits: counting-to-tokens follows groups only through structured control flow (scf)}}
func.func @unstructured_control_flow(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  apipe.commit_group
  cf.br ^bb2
^bb2:
  apipe.wait_group 0
  return
}

// -----

// The loop may commit any number of groups, so the window would need 5001
// tokens.
func.func @pending_too_large_after_dynamic_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    apipe.commit_group
  }
  // expected-error @+1 {{'apipe.wait_group' op has pending = 5000: counting-to-tokens carries pending + 1 tokens and supports pending < 1024}}
  apipe.wait_group 5000
  return
}

// -----

// A chain: @forwards only calls @commits, so a call of @forwards shifts the
// window as much (trial 24: before, only direct calls were refused, and
// the wait after this call named the caller's own group).
func.func @commits() {
  apipe.commit_group
  return
}

func.func @forwards() {
  func.call @commits() : () -> ()
  return
}

func.func @call_through_a_chain() {
  apipe.commit_group
  // expected-error @+1 {{'func.call' op calls @forwards, which commits or waits: its groups would shift the window of tokens of this function}}
  func.call @forwards() : () -> ()
  apipe.wait_group 1
  return
}

// -----

// An indirect call: its callee is unknown.
func.func @commits_too() {
  apipe.commit_group
  return
}

func.func @call_indirect() {
  %f = func.constant @commits_too : () -> ()
  apipe.commit_group
  // expected-error @+1 {{'func.call_indirect' op calls a function that no flat symbol names: apipe cannot tell whether the callee commits or waits (call it by name with func.call, or inline it)}}
  func.call_indirect %f() : () -> ()
  apipe.wait_group 0
  return
}
