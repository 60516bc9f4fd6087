// An op that the lowering to the LLVM dialect leaves behind gets an error
// at itself, from apipe-translate and from apipe-run alike (a fresh-user
// trial: an n-D vector.load failed with an error about an
// unrealized_conversion_cast at the function, then one with no location).
// convert-vector-to-llvm lowers vector.load / store of 1-D vectors only;
// the same kernel with 1-D vectors translates, assembles and runs.
// RUN: not apipe-translate %s --to-ptx --sm=80 -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not apipe-run %s 2>&1 | FileCheck %s --check-prefix=JIT --implicit-check-not=error:
// RUN: sed -e 's/vector<2x4xf32>/vector<4xf32>/g' %s | apipe-translate - --to-ptx --sm=80 -o %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: sed -e 's/vector<2x4xf32>/vector<4xf32>/g' %s | apipe-run - | FileCheck %s --check-prefix=ONE-D
// JIT-COUNT-2: translate-unlowered-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'vector.{{load|store}}' op on a 2-D vector (the op written here, or what the lowering made of it, as a vector.maskedload becomes vector.load) is not lowered to the LLVM dialect: convert-vector-to-llvm lowers memory ops of 1-D vectors only (use vector.transfer_read / transfer_write, or 1-D vectors)
// ONE-D: [1,  2,  3,  4,  0,  0,  0,  0]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%A: memref<4x8xf32>, %B: memref<4x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      // CHECK: translate-unlowered-invalid.mlir:[[# @LINE + 1]]:12: error: 'vector.load' op on a 2-D vector (the op written here, or what the lowering made of it, as a vector.maskedload becomes vector.load) is not lowered to the LLVM dialect: convert-vector-to-llvm lowers memory ops of 1-D vectors only (use vector.transfer_read / transfer_write, or 1-D vectors)
      %v = vector.load %A[%c0, %c0] : memref<4x8xf32>, vector<2x4xf32>
      // CHECK: translate-unlowered-invalid.mlir:[[# @LINE + 1]]:7: error: 'vector.store' op on a 2-D vector (the op written here, or what the lowering made of it, as a vector.maskedload becomes vector.load) is not lowered
      vector.store %v, %B[%c0, %c0] : memref<4x8xf32>, vector<2x4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %z = arith.constant 0.0 : f32
    %A = memref.alloc() : memref<4x8xf32>
    %B = memref.alloc() : memref<4x8xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %k = arith.muli %i, %c8 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %lf = arith.sitofp %li : i32 to f32
        %v = arith.addf %lf, %one : f32
        memref.store %v, %A[%i, %j] : memref<4x8xf32>
        memref.store %z, %B[%i, %j] : memref<4x8xf32>
      }
    }
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<4x8xf32>, %B : memref<4x8xf32>)
    %row = memref.subview %B[0, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1]>>
    %u = memref.cast %row : memref<8xf32, strided<[1]>> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
