// A call through a value in GPU code is refused only where it may reach a
// function with async copies, commits or waits: one whose address the
// module takes, of the call's arity (trial 62: a kernel's
// `func.call_indirect` was refused in a module without apipe ops).
// RUN: not apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=remark:
// RUN: sed -n '1,/^\/\/ -----/p' %s | apipe-run - --completion=lazy 2>&1 | FileCheck %s --check-prefix=OUT

// No apipe op anywhere: silent, and it runs.
module attributes {gpu.container_module} {
  func.func private @printF32(f32)
  func.func @read(%b: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %v = memref.load %b[%c0] : memref<4xf32>
    return %v : f32
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %seven = arith.constant 7.0 : f32
    %out = memref.alloc() : memref<1xf32>
    %in = memref.alloc() : memref<4xf32>
    memref.store %seven, %in[%c0] : memref<4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %fp = func.constant @read : (memref<4xf32>) -> f32
      %v = func.call_indirect %fp(%in) : (memref<4xf32>) -> f32
      memref.store %v, %out[%c0] : memref<1xf32>
      gpu.terminator
    }
    %x = memref.load %out[%c0] : memref<1xf32>
    func.call @printF32(%x) : (f32) -> ()
    return
  }
}
// OUT: 7

// -----

// The function it may call waits: refused at the call.
module attributes {gpu.container_module} {
  func.func @drain(%b: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    apipe.wait_group 0
    %v = memref.load %b[%c0] : memref<4xf32>
    return %v : f32
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %out = memref.alloc() : memref<1xf32>
    %in = memref.alloc() : memref<4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %fp = func.constant @drain : (memref<4xf32>) -> f32
      // CHECK: check-hazards-gpu-indirect-call.mlir:[[# @LINE + 1]]:12: error: 'func.call_indirect' op in GPU code calls a function through a value, which may be one that has async copies, commits or waits
      %v = func.call_indirect %fp(%in) : (memref<4xf32>) -> f32
      memref.store %v, %out[%c0] : memref<1xf32>
      gpu.terminator
    }
    return
  }
}
