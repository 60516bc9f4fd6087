func.func @f(%A: memref<8x8xf32, strided<[16, 1], offset: ?>>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  "apipe.copy"(%A, %buf, %i, %i, %c0) {elements = 4 : i64} : (memref<8x8xf32, strided<[16, 1], offset: ?>>, memref<4xf32, 3>, index, index, index) -> ()
  return
}
