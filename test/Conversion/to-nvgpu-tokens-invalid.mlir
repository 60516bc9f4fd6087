// RUN: apipe-opt %s --split-input-file --verify-diagnostics --apipe-to-nvgpu=tokens=true

// tokens=true also needs apipe-counting-to-tokens' preconditions: a call
// of a function that commits would shift the window of tokens.
func.func private @commits() {
  apipe.commit_group
  return
}

func.func @calls_a_committing_function() {
  // expected-error @+1 {{'func.call' op calls @commits, which commits or waits: its groups would shift the window of tokens of this function}}
  func.call @commits() : () -> ()
  apipe.wait_group 0
  return
}
