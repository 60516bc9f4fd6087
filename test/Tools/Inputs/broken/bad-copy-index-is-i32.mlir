func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  %j = arith.constant 0 : i32
  "apipe.copy"(%A, %buf, %j, %j) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, i32, i32) -> ()
  return
}
