// apipe-check-hazards on branches of scf.if whose regions are taken by
// different threads but touch disjoint bytes, and on a branch whose
// condition is uniform across the block (every thread takes the same
// region): silent, and apipe-run's race checker agrees. The broken twins
// are in check-hazards-divergent-invalid.mlir.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error: --implicit-check-not=remark:
// RUN: apipe-run %s --entry=main_disjoint --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// RUN: apipe-run %s --entry=main_uniform --schedule=forward,reverse 2>&1 | FileCheck %s --check-prefix=EMU --implicit-check-not=error:
// EMU-COUNT-2: // apipe-run: completion=lazy

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread 0 copies into buf[0], the others store into buf[tid].
    gpu.func @disjoint(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %f9 = arith.constant 9.0 : f32
      %tx = gpu.thread_id x
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        apipe.copy %A[%c0], %buf[%c0], 1 : memref<64xf32> to memref<64xf32, 3>
      } else {
        memref.store %f9, %buf[%tx] : memref<64xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%c0] : memref<64xf32, 3>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
    // The condition is on the block id: in a block, every thread copies
    // into buf[tid] or every thread stores into buf[tid].
    gpu.func @uniform(%A: memref<64xf32>, %out: memref<64xf32>) workgroup(%buf: memref<64xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %f9 = arith.constant 9.0 : f32
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        apipe.copy %A[%tx], %buf[%tx], 1 : memref<64xf32> to memref<64xf32, 3>
      } else {
        memref.store %f9, %buf[%tx] : memref<64xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tx] : memref<64xf32, 3>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main_disjoint() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@disjoint blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main_uniform() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    gpu.launch_func @kernels::@uniform blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
    return
  }
}
