func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %t = "apipe.ready"() : () -> !apipe.token
  "apipe.copy"(%A, %buf, %t, %c0) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, !apipe.token, index) -> ()
  return
}
