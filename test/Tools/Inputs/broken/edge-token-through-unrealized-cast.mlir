func.func @f() -> i32 {
  %t = "apipe.commit_group"() : () -> !apipe.token
  %x = builtin.unrealized_conversion_cast %t : !apipe.token to i32
  return %x : i32
}
