func.func @f() {
  "apipe.frobnicate"() : () -> ()
  return
}
