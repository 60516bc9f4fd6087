func.func @f(%A: memref<4611686018427387904x4611686018427387904xf32>, %buf: memref<4xf32, 3>) {
  %c0 = arith.constant 0 : index
  "apipe.copy"(%A, %buf, %c0, %c0, %c0) {elements = 4 : i64} : (memref<4611686018427387904x4611686018427387904xf32>, memref<4xf32, 3>, index, index, index) -> ()
  return
}
