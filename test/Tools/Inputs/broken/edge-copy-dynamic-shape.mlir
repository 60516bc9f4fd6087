func.func @f(%A: memref<?x?xf32>, %buf: memref<?xf32, 3>, %i: index) {
  "apipe.copy"(%A, %buf, %i, %i, %i, %i) {elements = 4 : i64} : (memref<?x?xf32>, memref<?xf32, 3>, index, index, index, index) -> ()
  return
}
