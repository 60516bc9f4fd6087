func.func @f(%A: memref<*xf32>, %buf: memref<4xf32, 3>, %i: index) {
  "apipe.copy"(%A, %buf, %i) {elements = 4 : i64} : (memref<*xf32>, memref<4xf32, 3>, index) -> ()
  return
}
