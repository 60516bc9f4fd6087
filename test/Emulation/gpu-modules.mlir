// Kernels of several gpu.modules, whose names would collide if joined with
// underscores (@a_b::@c and @a::@b_c), each run as themselves; a kernel calls
// a device function of its own module.
//
// RUN: apipe-run %s | FileCheck %s
// CHECK: [1,  2]

module attributes {gpu.container_module} {
  gpu.module @a_b {
    func.func @value() -> f32 {
      %one = arith.constant 1.0 : f32
      return %one : f32
    }
    gpu.func @c(%out: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @value() : () -> f32
      memref.store %v, %out[%c0] : memref<2xf32>
      gpu.return
    }
  }
  gpu.module @a {
    func.func @value() -> f32 {
      %two = arith.constant 2.0 : f32
      return %two : f32
    }
    gpu.func @b_c(%out: memref<2xf32>) kernel {
      %c1 = arith.constant 1 : index
      %v = func.call @value() : () -> f32
      memref.store %v, %out[%c1] : memref<2xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %out = memref.alloc() : memref<2xf32>
    gpu.launch_func @a_b::@c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<2xf32>)
    gpu.launch_func @a::@b_c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<2xf32>)
    %u = memref.cast %out : memref<2xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
