func.func @f(%A: memref<*xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<*xf32> to memref<4xf32, 3>
  return
}
