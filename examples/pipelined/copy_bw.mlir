// copy_bw (examples/copy_bw.mlir) pipelined by hand in counting form, as
// apipe-software-pipeline will produce it: 3 versions of the tile buffer,
// a prologue that issues tiles 0 and 1, and a steady state that issues tile
// t + 2 (an empty group past the end keeps the counts uniform), then waits
// with `pending = 2` so that tile t has landed, and writes it back.
//
//   apipe-translate examples/pipelined/copy_bw.mlir --to-ptx --sm=90
//
// Launch: grid 1024, block 128; src and dst hold 16777216 floats (64 MiB).
gpu.module @kernels {
  gpu.func @copy_bw(%src: memref<16777216xf32>, %dst: memref<16777216xf32>)
      workgroup(%buf: memref<3x512xf32, 3>) kernel {
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
    %lane = arith.muli %tid, %c4 : index
    %block_base = arith.muli %bid, %c16384 : index
    %thread_base = arith.addi %block_base, %lane : index
    // Prologue: tiles 0 and 1 into versions 0 and 1.
    apipe.copy %src[%thread_base], %buf[%c0, %lane], 4 {bypass_l1} : memref<16777216xf32> to memref<3x512xf32, 3>
    apipe.commit_group
    %off1 = arith.addi %thread_base, %c512 : index
    apipe.copy %src[%off1], %buf[%c1, %lane], 4 {bypass_l1} : memref<16777216xf32> to memref<3x512xf32, 3>
    apipe.commit_group
    scf.for %t = %c0 to %c32 step %c1 {
      %next = arith.addi %t, %c2 : index
      %in_range = arith.cmpi ult, %next, %c32 : index
      scf.if %in_range {
        %tile = arith.muli %next, %c512 : index
        %off = arith.addi %thread_base, %tile : index
        %v = arith.remui %next, %c3 : index
        apipe.copy %src[%off], %buf[%v, %lane], 4 {bypass_l1} : memref<16777216xf32> to memref<3x512xf32, 3>
      }
      apipe.commit_group
      // Tile t has landed once at most the two newer groups are pending.
      apipe.wait_group 2
      %cur = arith.remui %t, %c3 : index
      %tile = arith.muli %t, %c512 : index
      %out = arith.addi %thread_base, %tile : index
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %lane, %k : index
        %x = memref.load %buf[%cur, %i] : memref<3x512xf32, 3>
        %o = arith.addi %out, %k : index
        memref.store %x, %dst[%o] : memref<16777216xf32>
      }
    }
    gpu.return
  }
}
