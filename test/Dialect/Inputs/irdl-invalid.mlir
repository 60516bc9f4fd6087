func.func @float_elements(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  "apipe.copy"(%A, %buf, %i) {elements = 4.0 : f32} : (memref<64xf32>, memref<4xf32, 3>, index) -> ()
  return
}
// -----
func.func @missing_dst(%A: memref<64xf32>) {
  "apipe.copy"(%A) {elements = 4 : i64} : (memref<64xf32>) -> ()
  return
}
