// apipe-run erases memory spaces for emulation (every memory is host
// memory). A function value's type (`func.constant`) is retyped with its
// function's signature: a `func.call_indirect`, in a kernel, of a function
// taking a workgroup memref failed to verify after the erasure (trial 62).
// RUN: apipe-run %s --completion=lazy | FileCheck %s
// RUN: apipe-run %s --completion=eager --racecheck | FileCheck %s
// CHECK: 3
module attributes {gpu.container_module} {
func.func private @printF32(f32)
func.func @rd(%b: memref<4xf32, 3>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %b[%c0] : memref<4xf32, 3>
  return %v : f32
}
func.func @main() {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 3.0 : f32
  %out = memref.alloc() : memref<1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%buf : memref<4xf32, 3>) {
    memref.store %f, %buf[%c0] : memref<4xf32, 3>
    %fp = func.constant @rd : (memref<4xf32, 3>) -> f32
    %v = func.call_indirect %fp(%buf) : (memref<4xf32, 3>) -> f32
    memref.store %v, %out[%c0] : memref<1xf32>
    gpu.terminator
  }
  %x = memref.load %out[%c0] : memref<1xf32>
  func.call @printF32(%x) : (f32) -> ()
  return
}
}
