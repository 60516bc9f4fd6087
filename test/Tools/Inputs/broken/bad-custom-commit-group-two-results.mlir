func.func @f() {
  %t, %u = apipe.commit_group queue 1
  return
}
