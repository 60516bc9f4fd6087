func.func @f(%A: memref<64xf32) {
  return
}
