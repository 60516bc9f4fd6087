// Token form whose copy apipe-to-nvgpu refuses (global -> global): used by
// to-nvgpu-sync.mlir to check that a refusal after the conversions leaves
// the IR unchanged.
func.func @host(%A: memref<64xf32>, %B: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  apipe.copy %A[%c0], %B[%c0], 4 : memref<64xf32> to memref<64xf32>
  %t = apipe.commit_group
  apipe.wait %t
  return
}
