// The largest stated sizes a launch can have (see ../translate-launch-bounds.mlir).
gpu.module @kernels {
  gpu.func @wide(%p: memref<4xf32>) kernel attributes {known_block_size = array<i32: 1024, 1, 1>, known_grid_size = array<i32: 2147483647, 65535, 65535>} {
    gpu.return
  }
  gpu.func @cube(%p: memref<4xf32>) kernel attributes {known_block_size = array<i32: 8, 8, 16>, nvvm.maxnreg = 32 : i32, nvvm.minctasm = 2 : i32} {
    gpu.return
  }
}
