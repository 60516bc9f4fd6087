func.func @f() {
  %t = "apipe.commit_group"() : () -> !apipe.token
  cf.br ^bb1(%t : !apipe.token)
^bb1(%u: !apipe.token):
  "apipe.wait"(%u) : (!apipe.token) -> ()
  return
}
