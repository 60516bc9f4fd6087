func.func @f() {
  apipe.wait_group 1 queue
  return
}
