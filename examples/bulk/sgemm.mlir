// sgemm (examples/sgemm.mlir) in the mbarrier form with Hopper bulk copies
// (docs/mbarrier.md, "Bulk copies"), 3 stages as examples/pipelined/
// sgemm.mlir: one elected thread per tile row. The A tile (64x16) is 64
// rows of 64 bytes: thread r (r < 64) copies row r; the B tile (16x64) is
// 16 rows of 256 bytes: thread 64 + r (r < 16) copies row r. Each copying
// thread expects its own row's bytes (apipe.mbarrier_expect_tx) on the K
// tile's slot before its apipe.bulk_copy; every thread arrives once per K
// tile and waits on the tile's (slot, parity). A ring of 3 slots, the count
// of tiles issued carried as an iter_arg: slot `count mod 3`, parity
// `((count div 3) & 1) != 0`. The barrier after the wait keeps the copies
// of tile kt + 2 from overwriting the version iteration kt - 1 still reads
// (write-after-read).
//
//   apipe-translate examples/bulk/sgemm.mlir --to-ptx --sm=90
//
// Launch: grid (32, 32), block 256.
gpu.module @kernels {
  gpu.func @sgemm(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>)
      workgroup(%ring: memref<3xi64, 3>, %As: memref<3x64x16xf32, 3>, %Bs: memref<3x16x64xf32, 3>) kernel {
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
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %dz = gpu.block_dim z
    %dxy = arith.muli %dx, %dy : index
    %threads = arith.muli %dxy, %dz : index
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      apipe.mbarrier_init %ring, %threads : memref<3xi64, 3>
    }
    gpu.barrier
    // Row assignment: threads 0..63 the A rows, 64..79 the B rows.
    %copies_a = arith.cmpi ult, %tid, %c64 : index
    %b_row = arith.subi %tid, %c64 : index
    %copies_b = arith.cmpi ult, %b_row, %c16 : index
    // Micro-tile: thread (ty, tx) computes C rows ty*4..+4, columns tx*4..+4.
    %ty = arith.divui %tid, %c16 : index
    %tx = arith.remui %tid, %c16 : index
    %ty4 = arith.muli %ty, %c4 : index
    %tx4 = arith.muli %tx, %c4 : index
    %row0 = arith.muli %by, %c64 : index
    %col0 = arith.muli %bx, %c64 : index
    %a_grow = arith.addi %row0, %tid : index
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %zero, %acc[%i] : memref<16xf32>
    }
    // Prologue: K tiles 0 and 1 into versions (and slots) 0 and 1.
    scf.if %copies_a {
      apipe.mbarrier_expect_tx %ring[%c0], 64 : memref<3xi64, 3>
      apipe.bulk_copy %A[%a_grow, %c0], %As[%c0, %tid, %c0], 16, %ring[%c0] : memref<2048x2048xf32> to memref<3x64x16xf32, 3>, memref<3xi64, 3>
    }
    scf.if %copies_b {
      apipe.mbarrier_expect_tx %ring[%c0], 256 : memref<3xi64, 3>
      apipe.bulk_copy %B[%b_row, %col0], %Bs[%c0, %b_row, %c0], 64, %ring[%c0] : memref<2048x2048xf32> to memref<3x16x64xf32, 3>, memref<3xi64, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<3xi64, 3>
    scf.if %copies_a {
      apipe.mbarrier_expect_tx %ring[%c1], 64 : memref<3xi64, 3>
      apipe.bulk_copy %A[%a_grow, %c16], %As[%c1, %tid, %c0], 16, %ring[%c1] : memref<2048x2048xf32> to memref<3x64x16xf32, 3>, memref<3xi64, 3>
    }
    scf.if %copies_b {
      %b_grow1 = arith.addi %c16, %b_row : index
      apipe.mbarrier_expect_tx %ring[%c1], 256 : memref<3xi64, 3>
      apipe.bulk_copy %B[%b_grow1, %col0], %Bs[%c1, %b_row, %c0], 64, %ring[%c1] : memref<2048x2048xf32> to memref<3x16x64xf32, 3>, memref<3xi64, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%c1] : memref<3xi64, 3>
    %end = scf.for %kt = %c0 to %c128 step %c1 iter_args(%count = %c2) -> (index) {
      // K tile kt is group count - 2.
      %g = arith.subi %count, %c2 : index
      %ws = arith.remui %g, %c3 : index
      %phase = arith.divui %g, %c3 : index
      %bit = arith.andi %phase, %c1 : index
      %parity = arith.cmpi ne, %bit, %c0 : index
      apipe.mbarrier_wait %ring[%ws], %parity : memref<3xi64, 3>
      gpu.barrier
      // K tile kt + 2 (an empty group past the end keeps the ring in step).
      %next = arith.addi %kt, %c2 : index
      %in_range = arith.cmpi ult, %next, %c128 : index
      %slot = arith.remui %count, %c3 : index
      %v = arith.remui %next, %c3 : index
      %k0 = arith.muli %next, %c16 : index
      %issue_a = arith.andi %in_range, %copies_a : i1
      scf.if %issue_a {
        apipe.mbarrier_expect_tx %ring[%slot], 64 : memref<3xi64, 3>
        apipe.bulk_copy %A[%a_grow, %k0], %As[%v, %tid, %c0], 16, %ring[%slot] : memref<2048x2048xf32> to memref<3x64x16xf32, 3>, memref<3xi64, 3>
      }
      %issue_b = arith.andi %in_range, %copies_b : i1
      scf.if %issue_b {
        %b_grow = arith.addi %k0, %b_row : index
        apipe.mbarrier_expect_tx %ring[%slot], 256 : memref<3xi64, 3>
        apipe.bulk_copy %B[%b_grow, %col0], %Bs[%v, %b_row, %c0], 64, %ring[%slot] : memref<2048x2048xf32> to memref<3x16x64xf32, 3>, memref<3xi64, 3>
      }
      apipe.mbarrier_arrive_copies %ring[%slot] : memref<3xi64, 3>
      %count1 = arith.addi %count, %c1 : index
      %cur = arith.remui %kt, %c3 : index
      scf.for %k = %c0 to %c16 step %c1 {
        scf.for %i = %c0 to %c4 step %c1 {
          %r = arith.addi %ty4, %i : index
          %a = memref.load %As[%cur, %r, %k] : memref<3x64x16xf32, 3>
          %i4 = arith.muli %i, %c4 : index
          scf.for %j = %c0 to %c4 step %c1 {
            %c = arith.addi %tx4, %j : index
            %b = memref.load %Bs[%cur, %k, %c] : memref<3x16x64xf32, 3>
            %s = arith.addi %i4, %j : index
            %old = memref.load %acc[%s] : memref<16xf32>
            %prod = arith.mulf %a, %b fastmath<contract> : f32
            %new = arith.addf %old, %prod fastmath<contract> : f32
            memref.store %new, %acc[%s] : memref<16xf32>
          }
        }
      }
      scf.yield %count1 : index
    }
    // Epilogue: the 4x4 micro-tile to C.
    scf.for %i = %c0 to %c4 step %c1 {
      %r = arith.addi %ty4, %i : index
      %grow = arith.addi %row0, %r : index
      %i4 = arith.muli %i, %c4 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %c = arith.addi %tx4, %j : index
        %gcol = arith.addi %col0, %c : index
        %s = arith.addi %i4, %j : index
        %x = memref.load %acc[%s] : memref<16xf32>
        memref.store %x, %C[%grow, %gcol] : memref<2048x2048xf32>
      }
    }
    gpu.return
  }
}
