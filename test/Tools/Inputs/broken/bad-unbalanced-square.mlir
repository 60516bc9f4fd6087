func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  "apipe.wait_group"() {pending = 0 : i64, x = [1, 2} : () -> ()
  return
}
