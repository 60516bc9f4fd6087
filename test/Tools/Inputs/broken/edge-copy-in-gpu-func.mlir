gpu.module @k {
  gpu.func @f(%A: memref<64xf32>, %i: index) workgroup(%buf: memref<4xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    "apipe.copy"(%A, %buf, %i, %c0) {elements = 4 : i64} : (memref<64xf32>, memref<4xf32, 3>, index, index) -> ()
    "apipe.commit_group"() : () -> ()
    "apipe.wait_group"() {pending = 0 : i64} : () -> ()
    gpu.return
  }
}
