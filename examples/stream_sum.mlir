// stream_sum: 32 threads (one warp per block) stream 32 tiles of 128 floats
// through workgroup memory. Each thread copies 16 bytes of a tile, then
// sums the 4 floats its neighbour (lane + 1 mod 32) copied, so a wait is not
// enough: a barrier must make the other threads' copies visible.
//
// This is the loop as a user writes it, with no pipelining annotations: the
// neighbour's read sits between two barriers, which the synchronous program
// needs (apipe-make-sync of this file is the reference kernel).
// apipe-software-pipeline picks the stages itself:
//
//   apipe-opt examples/stream_sum.mlir --apipe-software-pipeline="num-stages=2"
//
// The copy goes in stage 0, the read and the sum in stage 1; `%buf` gets 2
// versions, and the CUTLASS order (wait, barrier, read tile t, copy tile
// t + 1 into the version tile t - 1 used) needs one gpu.barrier per
// iteration in place of the user's two. The hand-pipelined counting form
// is examples/pipelined/stream_sum.mlir.
//
// Launch: grid 256, block 32; A holds 1048576 floats, out 8192.
gpu.module @kernels {
  gpu.func @stream_sum(%A: memref<1048576xf32> {llvm.noalias}, %out: memref<8192xf32> {llvm.noalias})
      workgroup(%buf: memref<128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
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
    // The running sum is carried in iter_args (a register): the inner loop
    // reads and yields it, so the pipeliner carries it at stage distance 1
    // (read and yielded by the same stage).
    %sum = scf.for %t = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> (f32) {
      %tile = arith.muli %t, %c128 : index
      %off = arith.addi %thread_base, %tile : index
      apipe.copy %A[%off], %buf[%lane], 4 {bypass_l1} : memref<1048576xf32> to memref<128xf32, 3>
      gpu.barrier
      %tile_sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%p = %acc) -> (f32) {
        %i = arith.addi %neighbour_lane, %k : index
        %x = memref.load %buf[%i] : memref<128xf32, 3>
        %p2 = arith.addf %p, %x : f32
        scf.yield %p2 : f32
      }
      gpu.barrier
      scf.yield %tile_sum : f32
    }
    %bid32 = arith.muli %bid, %c32 : index
    %slot = arith.addi %bid32, %tid : index
    memref.store %sum, %out[%slot] : memref<8192xf32>
    gpu.return
  }
}
