// Driver of conversion-tests-kernels-run.mlir for
// test/Conversion/to-nvgpu-invalid.mlir @workgroup_alloca_dynamic (spliced
// in at the marker), which apipe-run refuses. Not a test of its own.
module attributes {gpu.container_module} {
// @dynamic
  // 1 block x 1 thread, n = 8, i = 0.
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %a = memref.alloc() : memref<64xf32>
    gpu.launch_func @m::@workgroup_alloca_dynamic blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>, %c8 : index, %c0 : index)
    memref.dealloc %a : memref<64xf32>
    return
  }
}
