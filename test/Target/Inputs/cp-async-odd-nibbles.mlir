// See ../ptx-cp-async-sub-byte.mlir.
gpu.module @m {
  gpu.func @k(%src: memref<128x64xi4>, %i: index) workgroup(%dst: memref<128x128xi4, 3>) kernel {
    apipe.copy %src[%i, %i], %dst[%i, %i], 3 : memref<128x64xi4> to memref<128x128xi4, 3>
    apipe.commit_group
    gpu.return
  }
}
