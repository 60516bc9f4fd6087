// Host driver of @pool::@pool (check-hazards-byte-views.mlir): A[i] = i, one
// block of 32 threads, prints out[0..32).
module attributes {gpu.container_module} {
// @pool-driver
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c4096 = arith.constant 4096 : index
    %A = memref.alloc() : memref<4096xf32>
    scf.for %i = %c0 to %c4096 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %A[%i] : memref<4096xf32>
    }
    %out = memref.alloc() : memref<128xf32>
    gpu.launch_func @pool::@pool blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : memref<4096xf32>, %out : memref<128xf32>)
    %s = memref.subview %out[0] [32] [1] : memref<128xf32> to memref<32xf32, strided<[1]>>
    %u = memref.cast %s : memref<32xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
