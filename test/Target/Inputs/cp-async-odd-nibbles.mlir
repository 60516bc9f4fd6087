// See ../ptx-cp-async-sub-byte.mlir.
gpu.module @m {
  gpu.func @k(%src: memref<128x64xi4>, %i: index) workgroup(%dst: memref<128x128xi4, 3>) kernel {
    "apipe.copy"(%src, %dst, %i, %i, %i, %i) {elements = 3 : i64} : (memref<128x64xi4>, memref<128x128xi4, 3>, index, index, index, index) -> ()
    "apipe.commit_group"() : () -> ()
    gpu.return
  }
}
