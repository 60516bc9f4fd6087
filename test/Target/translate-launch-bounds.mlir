// A kernel's stated block and grid sizes must be ones a launch can have:
// each component at least 1; blocks of at most 1024 threads (x, y <= 1024,
// z <= 64), grids of at most 2^31-1 x 65535 x 65535 blocks. Before this
// check, a negative size failed inside the NVVM translation without a
// location, and a zero size gave PTX that ptxas refuses
// (".maxntid 4, 0, 1": "Positive non-zero value expected for maxntid").
// The same holds for the NVVM tuning attributes that become directives:
// nvvm.maxnreg, nvvm.minctasm, nvvm.cluster_max_blocks, nvvm.cluster_dim.
// Every offending kernel is a located error, before anything is lowered;
// apipe-run refuses the same kernels.
//
// RUN: not apipe-translate %s --sm=80 -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: not apipe-run %s 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: apipe-translate %S/Inputs/launch-bounds-valid.mlir --sm=80 -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o /dev/null
// PTX: .maxntid 1024, 1, 1
// PTX: .maxntid 8, 8, 16
// PTX: .minnctapersm 2
// PTX: .maxnreg 32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: translate-launch-bounds.mlir:[[@LINE+1]]:5: error: 'gpu.func' op states known_block_size = array<i32: -4, 1, 1>, which no launch can have: launch with block size -4 in x: every grid and block size must be at least 1
    gpu.func @negative(%p: memref<4xf32>) kernel attributes {known_block_size = array<i32: -4, 1, 1>} {
      gpu.return
    }
    // CHECK: translate-launch-bounds.mlir:[[@LINE+1]]:5: error: 'gpu.func' op states known_block_size = array<i32: 4, 0, 1>, which no launch can have: launch with block size 0 in y
    gpu.func @zero(%p: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, 0, 1>} {
      gpu.return
    }
    // CHECK: translate-launch-bounds.mlir:[[@LINE+1]]:5: error: 'gpu.func' op states known_block_size = array<i32: 64, 32, 1>, which no launch can have: launch of 2048 threads per block (64 x 32 x 1): at most 1024
    gpu.func @too_many(%p: memref<4xf32>) kernel attributes {known_block_size = array<i32: 64, 32, 1>} {
      gpu.return
    }
    // CHECK: translate-launch-bounds.mlir:[[@LINE+1]]:5: error: 'gpu.func' op states known_block_size = array<i32: 1, 1, 128>, which no launch can have: launch with block size 128 in z: at most 64
    gpu.func @deep(%p: memref<4xf32>) kernel attributes {known_block_size = array<i32: 1, 1, 128>} {
      gpu.return
    }
    // CHECK: translate-launch-bounds.mlir:[[@LINE+1]]:5: error: 'gpu.func' op states known_grid_size = array<i32: 2, 1, 70000>, which no launch can have: launch with grid size 70000 in z: at most 65535
    gpu.func @grid(%p: memref<4xf32>) kernel attributes {known_grid_size = array<i32: 2, 1, 70000>} {
      gpu.return
    }
    // CHECK: translate-launch-bounds.mlir:[[@LINE+1]]:5: error: 'gpu.func' op states nvvm.maxntid = array<i32: 0>, which no launch can have: launch with block size 0 in x
    gpu.func @maxntid(%p: memref<4xf32>) kernel attributes {nvvm.maxntid = array<i32: 0>} {
      gpu.return
    }
    // CHECK: translate-launch-bounds.mlir:[[@LINE+3]]:5: error: 'gpu.func' op states nvvm.maxnreg = 0 : i32, which no launch can have: it must be at least 1
    // CHECK: translate-launch-bounds.mlir:[[@LINE+2]]:5: error: 'gpu.func' op states nvvm.minctasm = -3 : i32, which no launch can have: it must be at least 1
    // CHECK: translate-launch-bounds.mlir:[[@LINE+1]]:5: error: 'gpu.func' op states nvvm.cluster_dim = array<i32: -1, 1, 1>, which no launch can have: every component must be at least 1
    gpu.func @tuning(%p: memref<4xf32>) kernel attributes {nvvm.maxnreg = 0 : i32, nvvm.minctasm = -3 : i32, nvvm.cluster_dim = array<i32: -1, 1, 1>} {
      gpu.return
    }
    // CHECK: translate-launch-bounds.mlir:[[@LINE+1]]:5: error: 'gpu.func' op states nvvm.cluster_max_blocks = -2 : i32, which no launch can have: it must be at least 1
    gpu.func @rank(%p: memref<4xf32>) kernel attributes {nvvm.cluster_max_blocks = -2 : i32} {
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
