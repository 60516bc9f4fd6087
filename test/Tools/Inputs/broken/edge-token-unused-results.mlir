func.func @f() -> !apipe.token {
  %t = "apipe.ready"() : () -> !apipe.token
  return %t : !apipe.token
}
