// apipe-run checks the dims of vector.transfer_read / transfer_write that
// claim `in_bounds` (an access past the end there is undefined behaviour;
// MLIR's generate-runtime-verification does not check them): a located
// error, exit 1, before the access. Dims that are not `in_bounds` are
// masked and run. A fuzz find: a permuted transfer_write one row past the
// end of a workgroup tile corrupted the heap ("double free or corruption").
// RUN: apipe-run %s --entry=clean | FileCheck %s --check-prefix=CLEAN
// RUN: not apipe-run %s --entry=permuted_past_end 2>&1 | FileCheck %s --check-prefix=PERMUTED
// RUN: not apipe-run %s --entry=read_past_end 2>&1 | FileCheck %s --check-prefix=READ
// RUN: not apipe-run %s --entry=negative 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not apipe-run %s --entry=two_d 2>&1 | FileCheck %s --check-prefix=TWOD
// RUN: not apipe-run %s --entry=kernel --completion=lazy,eager 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: apipe-run %s --entry=clean --no-runtime-verification | FileCheck %s --check-prefix=CLEAN

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  // In bounds, and past the end on masked dims only: every value lands
  // where it should, the masked lanes are dropped (writes) or padded
  // (reads, -1).
  // CLEAN: [0,  1,  0,  0],
  // CLEAN-NEXT: [0,  1,  0,  0],
  // CLEAN-NEXT: [0,  1,  0,  2],
  // CLEAN-NEXT: [0,  1,  0,  2]
  // CLEAN: [0,  2,  -1,  -1]
  // CLEAN: [1,  1,  1,  1]
  func.func @clean() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %pad = arith.constant -1.0 : f32
    %m = memref.alloc() : memref<4x4xf32>
    linalg.fill ins(%zero : f32) outs(%m : memref<4x4xf32>)
    %ones = arith.constant dense<1.0> : vector<4xf32>
    %twos = arith.constant dense<2.0> : vector<4xf32>
    // Column 1, rows 0-3: in bounds.
    vector.transfer_write %ones, %m[%c0, %c1] {permutation_map = affine_map<(d0, d1) -> (d0)>, in_bounds = [true]} : vector<4xf32>, memref<4x4xf32>
    // Column 3 from row 2: rows 4 and 5 are past the end, masked.
    vector.transfer_write %twos, %m[%c2, %c3] {permutation_map = affine_map<(d0, d1) -> (d0)>, in_bounds = [false]} : vector<4xf32>, memref<4x4xf32>
    %u = memref.cast %m : memref<4x4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // Row 3 from column 2: columns 4 and 5 padded.
    %r = vector.transfer_read %m[%c3, %c2], %pad {in_bounds = [false]} : memref<4x4xf32>, vector<4xf32>
    %out = memref.alloc() : memref<4xf32>
    vector.store %r, %out[%c0] : memref<4xf32>, vector<4xf32>
    %uo = memref.cast %out : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
    // A broadcast: one element, read 4 times.
    %b = vector.transfer_read %m[%c3, %c1], %pad {permutation_map = affine_map<(d0, d1) -> (0)>, in_bounds = [true]} : memref<4x4xf32>, vector<4xf32>
    vector.store %b, %out[%c0] : memref<4xf32>, vector<4xf32>
    func.call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
    memref.dealloc %out : memref<4xf32>
    memref.dealloc %m : memref<4x4xf32>
    return
  }

  // PERMUTED: transfer-bounds.mlir:[[# @LINE + 5]]:5: error: 'vector.transfer_write' out-of-bounds access
  func.func @permuted_past_end() {
    %c1 = arith.constant 1 : index
    %m = memref.alloc() : memref<4x4xf32>
    %v = arith.constant dense<1.0> : vector<4xf32>
    vector.transfer_write %v, %m[%c1, %c1] {permutation_map = affine_map<(d0, d1) -> (d0)>, in_bounds = [true]} : vector<4xf32>, memref<4x4xf32>
    memref.dealloc %m : memref<4x4xf32>
    return
  }

  // READ: transfer-bounds.mlir:[[# @LINE + 5]]:10: error: 'vector.transfer_read' out-of-bounds access
  func.func @read_past_end() {
    %c2 = arith.constant 2 : index
    %pad = arith.constant 0.0 : f32
    %m = memref.alloc() : memref<4x4xf32>
    %r = vector.transfer_read %m[%c2, %c2], %pad {in_bounds = [true]} : memref<4x4xf32>, vector<4xf32>
    %e = vector.extract %r[0] : f32 from vector<4xf32>
    memref.dealloc %m : memref<4x4xf32>
    return
  }

  // A dim the transfer does not run along is accessed at its index alone.
  // NEGATIVE: transfer-bounds.mlir:[[# @LINE + 6]]:5: error: 'vector.transfer_write' out-of-bounds access
  func.func @negative() {
    %c0 = arith.constant 0 : index
    %cm1 = arith.constant -1 : index
    %m = memref.alloc() : memref<4x4xf32>
    %v = arith.constant dense<1.0> : vector<4xf32>
    vector.transfer_write %v, %m[%cm1, %c0] {in_bounds = [false]} : vector<4xf32>, memref<4x4xf32>
    memref.dealloc %m : memref<4x4xf32>
    return
  }

  // 2-D: rows masked, columns claimed in bounds and past the end.
  // TWOD: transfer-bounds.mlir:[[# @LINE + 6]]:10: error: 'vector.transfer_read' out-of-bounds access
  func.func @two_d() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %pad = arith.constant 0.0 : f32
    %m = memref.alloc() : memref<4x4xf32>
    %r = vector.transfer_read %m[%c3, %c1], %pad {in_bounds = [false, true]} : memref<4x4xf32>, vector<2x4xf32>
    memref.dealloc %m : memref<4x4xf32>
    return
  }

  // The fuzz find, in a kernel: each thread writes a column of the tile
  // from row 1.
  // KERNEL-COUNT-2: transfer-bounds.mlir:[[# @LINE + 8]]:7: error: 'vector.transfer_write' out-of-bounds access (thread (0,0,0) of block (0,0,0))
  gpu.module @kernels {
    gpu.func @columns() workgroup(%tile: memref<4x4xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %v = vector.broadcast %tf : f32 to vector<4xf32>
      vector.transfer_write %v, %tile[%c1, %t] {permutation_map = affine_map<(d0, d1) -> (d0)>, in_bounds = [true]} : vector<4xf32>, memref<4x4xf32, 3>
      gpu.return
    }
  }
  func.func @kernel() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@columns blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }
}
