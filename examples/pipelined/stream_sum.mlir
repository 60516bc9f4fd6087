// stream_sum (examples/stream_sum.mlir) pipelined by hand in counting form,
// as apipe-software-pipeline will produce it: 2 versions of the tile
// buffer; the prologue issues tile 0; each iteration issues tile t + 1 (an
// empty group past the end keeps the counts uniform), waits with
// `pending = 1` for tile t, and a barrier makes every thread's copy visible
// before the neighbour's floats are read. The second barrier keeps the next
// iteration's copy from overwriting a version that a slower thread still
// reads.
//
//   apipe-translate examples/pipelined/stream_sum.mlir --to-ptx --sm=90
//
// Launch: grid 256, block 32; A holds 1048576 floats, out 8192.
gpu.module @kernels {
  gpu.func @stream_sum(%A: memref<1048576xf32>, %out: memref<8192xf32>)
      workgroup(%buf: memref<2x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c4096 = arith.constant 4096 : index
    %zero = arith.constant 0.0 : f32
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %block_base = arith.muli %bid, %c4096 : index
    %thread_base = arith.addi %block_base, %lane : index
    %tid1 = arith.addi %tid, %c1 : index
    %neighbour = arith.remui %tid1, %c32 : index
    %neighbour_lane = arith.muli %neighbour, %c4 : index
    // Prologue: tile 0 into version 0.
    apipe.copy %A[%thread_base], %buf[%c0, %lane], 4 {bypass_l1} : memref<1048576xf32> to memref<2x128xf32, 3>
    apipe.commit_group
    %sum = scf.for %t = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (f32) {
      %next = arith.addi %t, %c1 : index
      %in_range = arith.cmpi ult, %next, %c32 : index
      scf.if %in_range {
        %tile = arith.muli %next, %c128 : index
        %off = arith.addi %thread_base, %tile : index
        %v = arith.remui %next, %c2 : index
        apipe.copy %A[%off], %buf[%v, %lane], 4 {bypass_l1} : memref<1048576xf32> to memref<2x128xf32, 3>
      }
      apipe.commit_group
      apipe.wait_group 1
      gpu.barrier
      %cur = arith.remui %t, %c2 : index
      %part = scf.for %k = %c0 to %c4 step %c1 iter_args(%p = %acc) -> (f32) {
        %i = arith.addi %neighbour_lane, %k : index
        %x = memref.load %buf[%cur, %i] : memref<2x128xf32, 3>
        %p2 = arith.addf %p, %x : f32
        scf.yield %p2 : f32
      }
      gpu.barrier
      scf.yield %part : f32
    }
    %bid32 = arith.muli %bid, %c32 : index
    %slot = arith.addi %bid32, %tid : index
    memref.store %sum, %out[%slot] : memref<8192xf32>
    gpu.return
  }
}
