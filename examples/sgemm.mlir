// sgemm: C = A * B for 2048x2048 fp32 row-major matrices, the mainloop of
// a tiled GEMM: 64x64 C tiles per block of 256 threads, K in steps of 16,
// each thread computing a 4x4 micro-tile. Each K step copies a 64x16 tile of
// A and a 16x64 tile of B into workgroup memory, one 16-byte copy per
// thread and matrix.
//
// This is the pipeliner's input (DESIGN.md section 4): the copies are
// stage 0 and asynchronous, the compute is stage 2, so
// apipe-software-pipeline gives `%As` and `%Bs` 3 versions each (3 stages,
// 2 tiles in flight). The barriers around the compute belong to the
// synchronous program too (other threads' copies are read), so
// apipe-make-sync of this file is the reference kernel. The hand-pipelined
// counting form is examples/pipelined/sgemm.mlir.
//
//   apipe-opt examples/sgemm.mlir --apipe-make-sync | apipe-translate --to-ptx
//
// Launch: grid (32, 32), block 256.
gpu.module @kernels {
  gpu.func @sgemm(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>)
      workgroup(%As: memref<64x16xf32, 3>, %Bs: memref<16x64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    // The 4x4 accumulators (LLVM promotes them to registers).
    %acc = memref.alloca() : memref<16xf32>
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tid = gpu.thread_id x
    // Copy assignment: each thread moves 16 bytes of the A tile (64x16) and
    // 16 bytes of the B tile (16x64).
    %a_row = arith.divui %tid, %c4 : index
    %a_q = arith.remui %tid, %c4 : index
    %a_col = arith.muli %a_q, %c4 : index
    %b_row = arith.divui %tid, %c16 : index
    %b_q = arith.remui %tid, %c16 : index
    %b_col = arith.muli %b_q, %c4 : index
    // Micro-tile: thread (ty, tx) computes C rows ty*4..+4, columns tx*4..+4.
    %ty = arith.divui %tid, %c16 : index
    %tx = arith.remui %tid, %c16 : index
    %ty4 = arith.muli %ty, %c4 : index
    %tx4 = arith.muli %tx, %c4 : index
    %row0 = arith.muli %by, %c64 : index
    %col0 = arith.muli %bx, %c64 : index
    %a_grow = arith.addi %row0, %a_row : index
    %b_gcol = arith.addi %col0, %b_col : index
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %zero, %acc[%i] : memref<16xf32>
    }
    scf.for %kt = %c0 to %c128 step %c1 {
      %k0 = arith.muli %kt, %c16 {apipe.stage = 0 : i64} : index
      %a_gcol = arith.addi %k0, %a_col {apipe.stage = 0 : i64} : index
      apipe.copy %A[%a_grow, %a_gcol], %As[%a_row, %a_col], 4 {bypass_l1, apipe.stage = 0 : i64} : memref<2048x2048xf32> to memref<64x16xf32, 3>
      %b_grow = arith.addi %k0, %b_row {apipe.stage = 0 : i64} : index
      apipe.copy %B[%b_grow, %b_gcol], %Bs[%b_row, %b_col], 4 {bypass_l1, apipe.stage = 0 : i64} : memref<2048x2048xf32> to memref<16x64xf32, 3>
      gpu.barrier {apipe.stage = 2 : i64}
      scf.for %k = %c0 to %c16 step %c1 {
        scf.for %i = %c0 to %c4 step %c1 {
          %r = arith.addi %ty4, %i : index
          %a = memref.load %As[%r, %k] : memref<64x16xf32, 3>
          %i4 = arith.muli %i, %c4 : index
          scf.for %j = %c0 to %c4 step %c1 {
            %c = arith.addi %tx4, %j : index
            %b = memref.load %Bs[%k, %c] : memref<16x64xf32, 3>
            %slot = arith.addi %i4, %j : index
            %old = memref.load %acc[%slot] : memref<16xf32>
            %prod = arith.mulf %a, %b fastmath<contract> : f32
            %new = arith.addf %old, %prod fastmath<contract> : f32
            memref.store %new, %acc[%slot] : memref<16xf32>
          }
        }
      } {apipe.stage = 2 : i64}
      gpu.barrier {apipe.stage = 2 : i64}
    } {apipe.async_stages = array<i64: 0>}
    // Epilogue: the 4x4 micro-tile to C.
    scf.for %i = %c0 to %c4 step %c1 {
      %r = arith.addi %ty4, %i : index
      %grow = arith.addi %row0, %r : index
      %i4 = arith.muli %i, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %c = arith.addi %tx4, %j : index
        %gcol = arith.addi %col0, %c : index
        %slot = arith.addi %i4, %j : index
        %x = memref.load %acc[%slot] : memref<16xf32>
        memref.store %x, %C[%grow, %gcol] : memref<2048x2048xf32>
      }
    }
    gpu.return
  }
}
