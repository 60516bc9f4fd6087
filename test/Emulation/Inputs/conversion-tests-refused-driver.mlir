// Driver of conversion-tests-kernels-run.mlir for the kernels of
// test/Conversion/to-nvgpu-invalid.mlir that apipe-to-nvgpu refuses
// (spliced in at the markers). Not a test of its own.
module attributes {gpu.container_module} {
// @under_condition
// @not_a_kernel
  func.func private @printString(!llvm.ptr)
  func.func private @printNewline()
  llvm.mlir.global internal constant @done_text("done\00") {addr_space = 0 : i32}

  // a[i] = i, 64 elements.
  func.func @input() -> memref<64xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %a[%i] : memref<64xf32>
    }
    return %a : memref<64xf32>
  }

  // 2 blocks x 1 thread, i = 0: c = true, c = false, then @not_a_kernel.
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %true = arith.constant true
    %false = arith.constant false
    %a = func.call @input() : () -> memref<64xf32>
    gpu.launch_func @under_condition::@workgroup_alloc_under_condition blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>, %true : i1, %c0 : index)
    gpu.launch_func @under_condition::@workgroup_alloc_under_condition blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>, %false : i1, %c0 : index)
    gpu.launch_func @not_a_kernel::@not_a_kernel blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>, %c0 : index)
    %done = llvm.mlir.addressof @done_text : !llvm.ptr
    func.call @printString(%done) : (!llvm.ptr) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %a : memref<64xf32>
    return
  }

  // The same launches with 2 threads in a block: both race (WAW).
  func.func @two_threads() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %true = arith.constant true
    %a = func.call @input() : () -> memref<64xf32>
    gpu.launch_func @under_condition::@workgroup_alloc_under_condition blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%a : memref<64xf32>, %true : i1, %c0 : index)
    gpu.launch_func @not_a_kernel::@not_a_kernel blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%a : memref<64xf32>, %c0 : index)
    memref.dealloc %a : memref<64xf32>
    return
  }
}
