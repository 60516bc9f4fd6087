// apipe-tokens-to-counting refuses, with a located error and the IR
// unchanged: tokens that cross function boundaries, commits the analysis
// cannot follow, tokens of two queues in one value, and (strict=true)
// counts that the paths do not agree on.
// RUN: apipe-opt %s --split-input-file --allow-unregistered-dialect --apipe-tokens-to-counting='strict=true' --verify-diagnostics

func.func @strict_commit_in_one_branch(%c: i1) {
  %t0 = apipe.commit_group
  scf.if %c {
    apipe.commit_group
  }
  // expected-error @+1 {{'apipe.wait' op on queue 0: the paths commit 0 to 1 groups after the waited group, so no count is exact (strict=true)}}
  apipe.wait %t0
  return
}

// -----

// One distance where the tokens name groups, but one token is ready on a
// path: the message says so (it read "the paths commit 0 groups ..., so no
// count is exact", trial 29). (The count is 0 on both paths here; the
// analysis keeps one distance per token, not per path, and refuses.)
func.func @strict_ready_token_on_a_path(%c: i1) {
  %a = apipe.commit_group
  %b = scf.if %c -> !apipe.token {
    %t = apipe.commit_group
    scf.yield %t : !apipe.token
  } else {
    %r = apipe.ready
    scf.yield %r : !apipe.token
  }
  // expected-error @+1 {{'apipe.wait' op on queue 0: the token that gives 0 groups after its group may name no group on some path (an `apipe.ready` token), and the other tokens do not give 0 on every path, so the count is not known where it names none, so no count is exact (strict=true)}}
  apipe.wait %a, %b
  return
}

// -----

func.func @strict_pre_loop_token_in_dynamic_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = apipe.commit_group
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'apipe.wait' op on queue 0: the paths commit 0 or more groups after the waited group, so no count is exact (strict=true)}}
    apipe.wait %t0
    apipe.commit_group
  }
  return
}

// -----

func.func @token_returned_from_function() -> !apipe.token {
  %t = apipe.commit_group
  // expected-error @+1 {{'func.return' op uses an !apipe.token value: tokens cannot cross function boundaries}}
  return %t : !apipe.token
}

// -----

// expected-error @+1 {{'func.func' op has an !apipe.token argument: tokens cannot cross function boundaries}}
func.func @token_function_argument(%t: !apipe.token) {
  apipe.wait %t
  return
}

// -----

func.func @commits() {
  apipe.commit_group
  return
}

func.func @call_to_committing_function() {
  %t = apipe.commit_group
  // expected-error @+1 {{'func.call' op calls @commits, which commits or waits (itself or through the functions it calls): apipe counts groups only within a function}}
  func.call @commits() : () -> ()
  apipe.wait %t
  return
}

// A chain through a function with no apipe op of its own (trial 24), and
// a call through a value, whose callee is unknown.
func.func @forwards() {
  func.call @commits() : () -> ()
  return
}

func.func @call_through_a_chain() {
  %t = apipe.commit_group
  // expected-error @+1 {{'func.call' op calls @forwards, which commits or waits (itself or through the functions it calls): apipe counts groups only within a function}}
  func.call @forwards() : () -> ()
  apipe.wait %t
  return
}

func.func @call_indirect() {
  %f = func.constant @commits : () -> ()
  %t = apipe.commit_group
  // expected-error @+1 {{'func.call_indirect' op calls a function that no flat symbol names: apipe cannot tell whether the callee commits or waits (call it by name with func.call, or inline it)}}
  func.call_indirect %f() : () -> ()
  apipe.wait %t
  return
}

// -----

func.func @commit_inside_scf_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = apipe.commit_group
  // expected-error @+1 {{'scf.parallel' op commits groups inside its regions: apipe follows groups only through scf.for, scf.if, scf.index_switch, scf.while and scf.execute_region}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    apipe.commit_group
    scf.reduce
  }
  apipe.wait %t
  return
}

// -----

func.func @tokens_of_two_queues_meet(%c: i1) {
  // expected-error @+1 {{!apipe.token values of queues 0 and 1 meet in result 0: a token names a group of one queue}}
  %r = scf.if %c -> !apipe.token {
    %a = apipe.commit_group
    scf.yield %a : !apipe.token
  } else {
    %b = apipe.commit_group queue 1
    scf.yield %b : !apipe.token
  }
  apipe.wait %r
  return
}

// -----

func.func @token_from_unknown_op() {
  // expected-error @+1 {{'test.make_token' op produces an !apipe.token value that cannot be removed}}
  %t = "test.make_token"() : () -> !apipe.token
  apipe.wait %t
  return
}

// -----

// Refused by the verifier before the pass runs.
// expected-error @+1 {{'apipe.commit_group' op must be inside a function body}}
%t = apipe.commit_group
// expected-error @+1 {{'apipe.wait' op must be inside a function body}}
apipe.wait %t
