// apipe-translate refuses, at the op and before any lowering, the vector
// ops that convert-vector-to-llvm lowers to invalid LLVM IR:
// vector.expandload and vector.compressstore on workgroup memory (it
// declares llvm.masked.expandload / compressstore with a generic pointer
// and calls them with an addrspace(3) one; LLVM's verifier then failed
// without a location, found by a fuzz campaign). The same ops on global
// memory, and maskedload / maskedstore on workgroup memory, translate.
// RUN: not apipe-translate %s --to-ptx --sm=80 -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: sed -e 's/%%b\[%%c0\], %%m/%%o[%%c0], %%m/' -e 's/: memref<64xf32, 3>, vector<4xi1>/: memref<64xf32>, vector<4xi1>/' %s | apipe-translate - --to-ptx --sm=80 -o %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
gpu.module @kernels {
  gpu.func @expand(%o: memref<64xf32>, %m: vector<4xi1>) workgroup(%b: memref<64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %x = memref.load %o[%tid] : memref<64xf32>
    memref.store %x, %b[%tid] : memref<64xf32, 3>
    gpu.barrier
    %p = arith.constant dense<0.0> : vector<4xf32>
    // CHECK: translate-vector-invalid.mlir:[[# @LINE + 1]]:10: error: 'vector.expandload' op on a memref in memory space 3 : i64 is not lowered
    %v = vector.expandload %b[%c0], %m, %p : memref<64xf32, 3>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    %w = vector.maskedload %b[%c0], %m, %p : memref<64xf32, 3>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    %s = arith.addf %v, %w : vector<4xf32>
    vector.store %s, %o[%c0] : memref<64xf32>, vector<4xf32>
    gpu.return
  }
  gpu.func @compress(%o: memref<64xf32>, %m: vector<4xi1>) workgroup(%b: memref<64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %v = vector.load %o[%c0] : memref<64xf32>, vector<4xf32>
    // CHECK: translate-vector-invalid.mlir:[[# @LINE + 1]]:5: error: 'vector.compressstore' op on a memref in memory space 3 : i64 is not lowered
    vector.compressstore %b[%c0], %m, %v : memref<64xf32, 3>, vector<4xi1>, vector<4xf32>
    vector.maskedstore %b[%c0], %m, %v : memref<64xf32, 3>, vector<4xi1>, vector<4xf32>
    gpu.barrier
    %x = memref.load %b[%c0] : memref<64xf32, 3>
    memref.store %x, %o[%c0] : memref<64xf32>
    gpu.return
  }
}
