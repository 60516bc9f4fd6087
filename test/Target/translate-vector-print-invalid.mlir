// apipe-translate refuses vector.print in a kernel, at the op and before any
// lowering: convert-vector-to-llvm calls the CPU runner's print functions
// and refers to its string global from the host module, which MLIR's
// verifier rejected inside the gpu.module with an internal message about
// 'llvm.mlir.addressof' (trial 15, finding 8). vector.print in host code
// does not stop the translation of the kernels. apipe-run emulates the
// kernel and prints; without the prints the kernel translates and ptxas
// assembles it.
// RUN: not apipe-translate %s --to-ptx --sm=80 -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s | FileCheck %s --check-prefix=EMU
// RUN: sed -e '/vector.print/d' %s | apipe-translate - --to-ptx --sm=80 -o %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @show(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<4xf32>
      // CHECK: translate-vector-print-invalid.mlir:[[# @LINE + 1]]:7: error: 'vector.print' op in a kernel is not lowered to PTX
      vector.print str "x = "
      // CHECK: translate-vector-print-invalid.mlir:[[# @LINE + 1]]:7: error: 'vector.print' op in a kernel is not lowered to PTX
      vector.print %x : f32
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 2.5 : f32
    %a = memref.alloc() : memref<4xf32>
    memref.store %f, %a[%c0] : memref<4xf32>
    gpu.launch_func @kernels::@show blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    %y = memref.load %a[%c0] : memref<4xf32>
    // EMU: x = 2.5
    // EMU-NEXT: 5
    vector.print %y : f32
    memref.dealloc %a : memref<4xf32>
    return
  }
}
