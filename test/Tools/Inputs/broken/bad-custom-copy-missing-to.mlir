func.func @f(%A: memref<64xf32>, %buf: memref<4xf32, 3>, %i: index) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%i], %buf[%c0], 4 : memref<64xf32>, memref<4xf32, 3>
  return
}
