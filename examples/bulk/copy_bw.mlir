// copy_bw (examples/copy_bw.mlir) in the mbarrier form with Hopper bulk
// copies (docs/mbarrier.md, "Bulk copies"): each tile of 512 floats is one
// contiguous 2 KiB span of src, so one elected thread (thread 0) moves it
// with one `apipe.bulk_copy` (cp.async.bulk ... complete_tx::bytes) after
// `apipe.mbarrier_expect_tx` of its 2048 bytes on the tile's slot; every
// thread arrives once per tile (the arrival count is the block size), and
// every thread waits on the tile's (slot, parity) before reading it. A
// ring of 3 slots, one per tile version; the count of tiles issued is
// carried as an iter_arg, slot `count mod 3`, parity
// `((count div 3) & 1) != 0` (what apipe-tokens-to-mbarrier{slots=3}
// writes). The barrier at the end of an iteration keeps the next bulk copy
// into a version from overtaking the reads of its previous tile
// (write-after-read).
//
//   apipe-translate examples/bulk/copy_bw.mlir --to-ptx --sm=90
//
// Launch: grid 1024, block 128; src and dst hold 16777216 floats (64 MiB).
gpu.module @kernels {
  gpu.func @copy_bw(%src: memref<16777216xf32>, %dst: memref<16777216xf32>)
      workgroup(%ring: memref<3xi64, 3>, %buf: memref<3x512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %c16384 = arith.constant 16384 : index
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %bx = gpu.block_dim x
    %by = gpu.block_dim y
    %bz = gpu.block_dim z
    %bxy = arith.muli %bx, %by : index
    %threads = arith.muli %bxy, %bz : index
    %elected = arith.cmpi eq, %tid, %c0 : index
    scf.if %elected {
      apipe.mbarrier_init %ring, %threads : memref<3xi64, 3>
    }
    gpu.barrier
    %lane = arith.muli %tid, %c4 : index
    %block_base = arith.muli %bid, %c16384 : index
    // Prologue: tiles 0 and 1 into versions (and slots) 0 and 1.
    scf.if %elected {
      apipe.mbarrier_expect_tx %ring[%c0], 2048 : memref<3xi64, 3>
      apipe.bulk_copy %src[%block_base], %buf[%c0, %c0], 512, %ring[%c0] : memref<16777216xf32> to memref<3x512xf32, 3>, memref<3xi64, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%c0] : memref<3xi64, 3>
    scf.if %elected {
      %off1 = arith.addi %block_base, %c512 : index
      apipe.mbarrier_expect_tx %ring[%c1], 2048 : memref<3xi64, 3>
      apipe.bulk_copy %src[%off1], %buf[%c1, %c0], 512, %ring[%c1] : memref<16777216xf32> to memref<3x512xf32, 3>, memref<3xi64, 3>
    }
    apipe.mbarrier_arrive_copies %ring[%c1] : memref<3xi64, 3>
    %end = scf.for %t = %c0 to %c32 step %c1 iter_args(%count = %c2) -> (index) {
      // Tile t + 2 (an empty group past the end keeps the ring in step).
      %next = arith.addi %t, %c2 : index
      %in_range = arith.cmpi ult, %next, %c32 : index
      %slot = arith.remui %count, %c3 : index
      %issue = arith.andi %in_range, %elected : i1
      scf.if %issue {
        %tile = arith.muli %next, %c512 : index
        %off = arith.addi %block_base, %tile : index
        %v = arith.remui %next, %c3 : index
        apipe.mbarrier_expect_tx %ring[%slot], 2048 : memref<3xi64, 3>
        apipe.bulk_copy %src[%off], %buf[%v, %c0], 512, %ring[%slot] : memref<16777216xf32> to memref<3x512xf32, 3>, memref<3xi64, 3>
      }
      apipe.mbarrier_arrive_copies %ring[%slot] : memref<3xi64, 3>
      %count1 = arith.addi %count, %c1 : index
      // Tile t is group count - 2.
      %g = arith.subi %count, %c2 : index
      %ws = arith.remui %g, %c3 : index
      %phase = arith.divui %g, %c3 : index
      %bit = arith.andi %phase, %c1 : index
      %parity = arith.cmpi ne, %bit, %c0 : index
      apipe.mbarrier_wait %ring[%ws], %parity : memref<3xi64, 3>
      %cur = arith.remui %t, %c3 : index
      %tile = arith.muli %t, %c512 : index
      %thread_base = arith.addi %block_base, %lane : index
      %out = arith.addi %thread_base, %tile : index
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %lane, %k : index
        %x = memref.load %buf[%cur, %i] : memref<3x512xf32, 3>
        %o = arith.addi %out, %k : index
        memref.store %x, %dst[%o] : memref<16777216xf32>
      }
      gpu.barrier
      scf.yield %count1 : index
    }
    gpu.return
  }
}
