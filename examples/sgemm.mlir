// sgemm: C = A * B for 2048x2048 fp32 row-major matrices, the mainloop of
// a tiled GEMM: 64x64 C tiles per block of 256 threads, K in steps of 16,
// each thread computing a 4x4 micro-tile. Each K step copies a 64x16 tile of
// A and a 16x64 tile of B into workgroup memory, one 16-byte copy per
// thread and matrix.
//
// This is the kernel as a user writes it: a synchronous K loop (copy the
// tiles, barrier, compute, barrier) with no stage annotations: only
// `apipe.num_stages = 3` on the K loop (the same as the pass option
// num-stages=3). The accumulators are four vector<4xf32> iter_args of the K
// loop (registers), one per row of the micro-tile. apipe-software-pipeline
// picks the stages itself:
//
//   apipe-opt examples/sgemm.mlir --apipe-software-pipeline
//
// The copies and their index arithmetic go in stage 0, the compute loop
// that reads %As and %Bs (and the accumulators it yields) in stage 2;
// %As and %Bs get 3 versions each (24 KiB of shared memory), and the
// CUTLASS order (wait, barrier, compute tile k, copy tile k + 2 into the
// version tile k - 1 used) needs one gpu.barrier per iteration: the user's
// two barriers only ordered the accesses to %As and %Bs, which the
// pipeliner now orders itself. apipe-make-sync of this file is the
// reference kernel; the hand-pipelined counting form is
// examples/pipelined/sgemm.mlir.
//
// Launch: grid (32, 32), block 256.
gpu.module @kernels {
  gpu.func @sgemm(%A: memref<2048x2048xf32> {llvm.noalias}, %B: memref<2048x2048xf32> {llvm.noalias}, %C: memref<2048x2048xf32> {llvm.noalias})
      workgroup(%As: memref<64x16xf32, 3>, %Bs: memref<16x64xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant dense<0.0> : vector<4xf32>
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
    %r0 = arith.muli %ty, %c4 : index
    %r1 = arith.addi %r0, %c1 : index
    %r2 = arith.addi %r0, %c2 : index
    %r3 = arith.addi %r0, %c3 : index
    %tx4 = arith.muli %tx, %c4 : index
    %row0 = arith.muli %by, %c64 : index
    %col0 = arith.muli %bx, %c64 : index
    %a_grow = arith.addi %row0, %a_row : index
    %b_gcol = arith.addi %col0, %b_col : index
    %acc:4 = scf.for %kt = %c0 to %c128 step %c1
        iter_args(%c_0 = %zero, %c_1 = %zero, %c_2 = %zero, %c_3 = %zero)
        -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
      %k0 = arith.muli %kt, %c16 : index
      %a_gcol = arith.addi %k0, %a_col : index
      apipe.copy %A[%a_grow, %a_gcol], %As[%a_row, %a_col], 4 {bypass_l1} : memref<2048x2048xf32> to memref<64x16xf32, 3>
      %b_grow = arith.addi %k0, %b_row : index
      apipe.copy %B[%b_grow, %b_gcol], %Bs[%b_row, %b_col], 4 {bypass_l1} : memref<2048x2048xf32> to memref<16x64xf32, 3>
      gpu.barrier
      %s:4 = scf.for %k = %c0 to %c16 step %c1
          iter_args(%q0 = %c_0, %q1 = %c_1, %q2 = %c_2, %q3 = %c_3)
          -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
        %b = vector.load %Bs[%k, %tx4] : memref<16x64xf32, 3>, vector<4xf32>
        %a0 = memref.load %As[%r0, %k] : memref<64x16xf32, 3>
        %a1 = memref.load %As[%r1, %k] : memref<64x16xf32, 3>
        %a2 = memref.load %As[%r2, %k] : memref<64x16xf32, 3>
        %a3 = memref.load %As[%r3, %k] : memref<64x16xf32, 3>
        %v0 = vector.broadcast %a0 : f32 to vector<4xf32>
        %v1 = vector.broadcast %a1 : f32 to vector<4xf32>
        %v2 = vector.broadcast %a2 : f32 to vector<4xf32>
        %v3 = vector.broadcast %a3 : f32 to vector<4xf32>
        %n0 = vector.fma %v0, %b, %q0 : vector<4xf32>
        %n1 = vector.fma %v1, %b, %q1 : vector<4xf32>
        %n2 = vector.fma %v2, %b, %q2 : vector<4xf32>
        %n3 = vector.fma %v3, %b, %q3 : vector<4xf32>
        scf.yield %n0, %n1, %n2, %n3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
      }
      gpu.barrier
      scf.yield %s#0, %s#1, %s#2, %s#3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
    } {apipe.num_stages = 3 : i64}
    // Epilogue: the 4x4 micro-tile to C, one 16-byte store per row.
    %gcol = arith.addi %col0, %tx4 : index
    %g0 = arith.addi %row0, %r0 : index
    %g1 = arith.addi %row0, %r1 : index
    %g2 = arith.addi %row0, %r2 : index
    %g3 = arith.addi %row0, %r3 : index
    vector.store %acc#0, %C[%g0, %gcol] : memref<2048x2048xf32>, vector<4xf32>
    vector.store %acc#1, %C[%g1, %gcol] : memref<2048x2048xf32>, vector<4xf32>
    vector.store %acc#2, %C[%g2, %gcol] : memref<2048x2048xf32>, vector<4xf32>
    vector.store %acc#3, %C[%g3, %gcol] : memref<2048x2048xf32>, vector<4xf32>
    gpu.return
  }
}
