func.func @f() {
  %t = scf.execute_region -> !apipe.token {
    %u = "apipe.commit_group"() : () -> !apipe.token
    scf.yield %u : !apipe.token
  }
  "apipe.wait"(%t) : (!apipe.token) -> ()
  return
}
