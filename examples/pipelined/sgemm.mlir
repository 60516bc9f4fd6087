// sgemm (examples/sgemm.mlir) pipelined by hand in counting form, as
// apipe-software-pipeline will produce it for 3 stages: 3 versions of the A
// and B tiles; the prologue issues K tiles 0 and 1 (one group each); at the
// top of iteration kt the wait with `pending = 1` leaves only tile kt + 1 in
// flight, so tile kt has landed; the barrier makes every thread's copies
// visible and also guarantees that every thread has finished iteration
// kt - 1, whose version the copies of tile kt + 2 then overwrite (an empty
// group past the end keeps the counts uniform).
//
//   apipe-translate examples/pipelined/sgemm.mlir --to-ptx --sm=90
//
// Launch: grid (32, 32), block 256.
gpu.module @kernels {
  gpu.func @sgemm(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>)
      workgroup(%As: memref<3x64x16xf32, 3>, %Bs: memref<3x16x64xf32, 3>) kernel {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
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
    // Prologue: K tiles 0 and 1 into versions 0 and 1.
    %k0_t0 = arith.muli %c0, %c16 : index
    %a_gcol_t0 = arith.addi %k0_t0, %a_col : index
    apipe.copy %A[%a_grow, %a_gcol_t0], %As[%c0, %a_row, %a_col], 4 {bypass_l1} : memref<2048x2048xf32> to memref<3x64x16xf32, 3>
    %b_grow_t0 = arith.addi %k0_t0, %b_row : index
    apipe.copy %B[%b_grow_t0, %b_gcol], %Bs[%c0, %b_row, %b_col], 4 {bypass_l1} : memref<2048x2048xf32> to memref<3x16x64xf32, 3>
    apipe.commit_group
    %k0_t1 = arith.muli %c1, %c16 : index
    %a_gcol_t1 = arith.addi %k0_t1, %a_col : index
    apipe.copy %A[%a_grow, %a_gcol_t1], %As[%c1, %a_row, %a_col], 4 {bypass_l1} : memref<2048x2048xf32> to memref<3x64x16xf32, 3>
    %b_grow_t1 = arith.addi %k0_t1, %b_row : index
    apipe.copy %B[%b_grow_t1, %b_gcol], %Bs[%c1, %b_row, %b_col], 4 {bypass_l1} : memref<2048x2048xf32> to memref<3x16x64xf32, 3>
    apipe.commit_group
    scf.for %kt = %c0 to %c128 step %c1 {
      apipe.wait_group 1
      gpu.barrier
      %next = arith.addi %kt, %c2 : index
      %in_range = arith.cmpi ult, %next, %c128 : index
      scf.if %in_range {
        %v = arith.remui %next, %c3 : index
        %k0_n = arith.muli %next, %c16 : index
        %a_gcol_n = arith.addi %k0_n, %a_col : index
        apipe.copy %A[%a_grow, %a_gcol_n], %As[%v, %a_row, %a_col], 4 {bypass_l1} : memref<2048x2048xf32> to memref<3x64x16xf32, 3>
        %b_grow_n = arith.addi %k0_n, %b_row : index
        apipe.copy %B[%b_grow_n, %b_gcol], %Bs[%v, %b_row, %b_col], 4 {bypass_l1} : memref<2048x2048xf32> to memref<3x16x64xf32, 3>
      }
      apipe.commit_group
      %cur = arith.remui %kt, %c3 : index
      scf.for %k = %c0 to %c16 step %c1 {
        scf.for %i = %c0 to %c4 step %c1 {
          %r = arith.addi %ty4, %i : index
          %a = memref.load %As[%cur, %r, %k] : memref<3x64x16xf32, 3>
          %i4 = arith.muli %i, %c4 : index
          scf.for %j = %c0 to %c4 step %c1 {
            %c = arith.addi %tx4, %j : index
            %b = memref.load %Bs[%cur, %k, %c] : memref<3x16x64xf32, 3>
            %slot = arith.addi %i4, %j : index
            %old = memref.load %acc[%slot] : memref<16xf32>
            %prod = arith.mulf %a, %b fastmath<contract> : f32
            %new = arith.addf %old, %prod fastmath<contract> : f32
            memref.store %new, %acc[%slot] : memref<16xf32>
          }
        }
      }
    }
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
