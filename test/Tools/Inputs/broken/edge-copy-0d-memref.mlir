func.func @f(%A: memref<f32>, %buf: memref<f32, 3>) {
  "apipe.copy"(%A, %buf) {elements = 1 : i64} : (memref<f32>, memref<f32, 3>) -> ()
  return
}
