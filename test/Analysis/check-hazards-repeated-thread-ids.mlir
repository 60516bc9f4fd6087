// A kernel that reads `gpu.thread_id y` twice (trial 48 F1; the mbarrier
// conversion adds its own thread-id ops to elect thread (0, 0, 0)). Every
// `gpu.thread_id y` of a function is one value, but the checker gave each
// op a symbol of its own, and with the row-major index `ty * bdx + tx`
// through a view it compared threads (0, 0) and (0, 1) on different ids:
// a false write-after-write between threads and a false missing barrier.
// Every thread and block id and size of a function now has the symbol of
// its first op. @own_element is silent; @shared_column (each row of
// threads copies into the same elements) is still a race.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: apipe-run %s --entry=run_own --completion=lazy,eager --schedule=forward,reverse | FileCheck %s --check-prefix=OWN
// OWN-COUNT-4: [0,  3,  6,  9,  12,  15,  18,  21,  24,  27,  30,  33,  36,  39,  42,  45]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @own_element(%A: memref<64xf32>, %out: memref<16xf32>) workgroup(%tile: memref<3x16xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %ty0 = gpu.thread_id y
      %tx0 = gpu.thread_id x
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %row = arith.muli %ty, %bdx : index
      %lin = arith.addi %row, %tx : index
      %c3 = arith.constant 3 : index
      %src = arith.muli %lin, %c3 : index
      %buf = memref.subview %tile[%c1, 0] [1, 16] [1, 1] : memref<3x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
      apipe.copy %A[%src], %buf[%lin], 1 : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%lin] : memref<16xf32, strided<[1], offset: ?>, 3>
      memref.store %x, %out[%lin] : memref<16xf32>
      gpu.return
    }
    gpu.func @shared_column(%A: memref<64xf32>, %out: memref<16xf32>) workgroup(%tile: memref<3x16xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %ty0 = gpu.thread_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bdx = gpu.block_dim x
      %row = arith.muli %ty, %bdx : index
      %lin = arith.addi %row, %tx : index
      %buf = memref.subview %tile[%c1, 0] [1, 16] [1, 1] : memref<3x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
      // CHECK: check-hazards-repeated-thread-ids.mlir:[[# @LINE + 1]]:7: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing
      apipe.copy %A[%lin], %buf[%tx], 1 : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %x = memref.load %buf[%tx] : memref<16xf32, strided<[1], offset: ?>, 3>
      memref.store %x, %out[%lin] : memref<16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @run_own() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %A = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f32
      memref.store %f, %A[%i] : memref<64xf32>
    }
    gpu.launch_func @k::@own_element blocks in (%c1, %c1, %c1) threads in (%c8, %c2, %c1) args(%A : memref<64xf32>, %out : memref<16xf32>)
    %u = memref.cast %out : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
