func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %t = "apipe.commit_group"() : () -> i32
  return
}
