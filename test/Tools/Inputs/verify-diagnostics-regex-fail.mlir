func.func @regex_mismatch() {
  // expected-error-re @+1 {{attribute 'pending' must be {{[0-9]+}}, got -1}}
  apipe.wait_group -1
  return
}
