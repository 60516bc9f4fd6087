func.func @f(%A: memref<99999999999999999999xf32>) {
  return
}
