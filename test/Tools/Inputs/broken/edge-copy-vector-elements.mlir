func.func @f(%A: memref<8xvector<4xf32>>, %buf: memref<2xvector<4xf32>, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  "apipe.copy"(%A, %buf, %i, %c0) {elements = 2 : i64} : (memref<8xvector<4xf32>>, memref<2xvector<4xf32>, 3>, index, index) -> ()
  return
}
