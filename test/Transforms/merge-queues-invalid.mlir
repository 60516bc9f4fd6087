// apipe-merge-queues refuses what counting-to-tokens and tokens-to-counting
// refuse, before it changes anything.
// RUN: apipe-opt %s --split-input-file --apipe-merge-queues --verify-diagnostics

func.func @commit_inside_scf_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op commits groups inside its regions: the token form (apipe-counting-to-tokens, which apipe-merge-queues also runs) carries tokens only through scf.for, scf.if, scf.index_switch, scf.while and scf.execute_region}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    apipe.commit_group queue 1
    scf.reduce
  }
  apipe.wait_group 0 queue 1
  return
}

// -----

func.func @token_returned(%c: i1) -> !apipe.token {
  %t = apipe.commit_group queue 1
  apipe.wait_group 0
  // expected-error @+1 {{'func.return' op uses an !apipe.token value: tokens cannot cross function boundaries}}
  return %t : !apipe.token
}
