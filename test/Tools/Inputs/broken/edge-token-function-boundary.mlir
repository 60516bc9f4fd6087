func.func @g(%t: !apipe.token) -> !apipe.token {
  "apipe.wait"(%t) : (!apipe.token) -> ()
  %u = "apipe.commit_group"() : () -> !apipe.token
  return %u : !apipe.token
}
func.func @f() {
  %r = "apipe.ready"() : () -> !apipe.token
  %u = func.call @g(%r) : (!apipe.token) -> !apipe.token
  "apipe.wait"(%u) : (!apipe.token) -> ()
  return
}
