func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %r = "apipe.ready"() : () -> !apipe.token
  %c1 = arith.constant 1 : index
  %last = scf.for %k = %c0 to %i step %c1 iter_args(%t = %r) -> (!apipe.token) {
    scf.yield %k : index
  }
  return
}
