// apipe-check-hazards on kernels of 2-D and 3-D blocks whose threads copy
// into disjoint bytes: silent. Threads differ in some dimension; the regions
// must be disjoint for each (a dimension of size 1, stated or assumed for a
// kernel that never reads that id and is launched with size 1 in the
// module, cannot differ). apipe-run's race checker agrees. The broken twins
// are in check-hazards-threads-2d-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %s --entry=main_linear --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// RUN: apipe-run %s --entry=main_y_of_size_1 --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// RUN: apipe-run %s --entry=main_x_only --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// RUN: apipe-run %s --entry=main_unused_y --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// RUN: apipe-run %s --entry=main_linear_3d --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// EMU-COUNT-2: // apipe-run: completion=lazy

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Block 2x2: thread (x, y) copies into buf[2 * y + x].
    gpu.func @linear(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 1>} {
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %s0 = arith.muli %ty, %c2 : index
      %s1 = arith.addi %s0, %tx : index
      apipe.copy %A[%s1], %buf[%s1], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%s1] : memref<64xf32, 3>
      memref.store %x, %out[%s1] : memref<64xf32>
      gpu.return
    }
    // Reads its y id, but the block is stated 2x1: y cannot differ.
    gpu.func @y_of_size_1(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %s0 = arith.muli %ty, %c4 : index
      %s1 = arith.addi %s0, %tx : index
      apipe.copy %A[%s1], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%s1] : memref<64xf32>
      gpu.return
    }
    // Reads only its x id and is launched 1-D by the module: y and z are
    // taken to be of size 1.
    gpu.func @x_only(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %tx = gpu.thread_id x
      apipe.copy %A[%tx], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
    // Declares its y id but never uses it, states no block size and is
    // launched 2x1: only thread 0 copies, waits and reads its own copy.
    gpu.func @unused_y(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %t0 = arith.cmpi eq, %tx, %c0 : index
      scf.if %t0 {
        apipe.copy %A[%c0], %buf[%c0], 4 : memref<64xf32> to memref<64xf32, 3>
        apipe.commit_group
        apipe.wait_group 0
        %x = memref.load %buf[%c2] : memref<64xf32, 3>
        memref.store %x, %out[%c0] : memref<64xf32>
      }
      gpu.return
    }
    // Block 2x2x2 (stated): thread (x, y, z) copies into buf[4 * z + 2 * y + x].
    gpu.func @linear_3d(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 2, 2, 2>} {
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %s0 = arith.muli %ty, %c2 : index
      %s1 = arith.addi %s0, %tx : index
      %s2 = arith.muli %tz, %c4 : index
      %s3 = arith.addi %s2, %s1 : index
      apipe.copy %A[%s3], %buf[%s3], 1 : memref<64xf32> to memref<64xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%s3] : memref<64xf32, 3>
      memref.store %x, %out[%s3] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main_linear() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@linear blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_y_of_size_1() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@y_of_size_1 blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_x_only() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@x_only blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_unused_y() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@unused_y blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_linear_3d() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@linear_3d blocks in (%c1, %c1, %c1) threads in (%c2, %c2, %c2) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
}
