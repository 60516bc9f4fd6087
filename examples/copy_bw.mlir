// copy_bw: a bandwidth probe. Each block of 128 threads streams 32 tiles of
// 512 floats (2 KiB) from `src` through workgroup memory to `dst`; each
// thread moves 16 bytes per tile with one asynchronous copy.
//
// This is the loop as a user writes it, with no pipelining annotations;
// apipe-software-pipeline picks the stages itself:
//
//   apipe-opt examples/copy_bw.mlir --apipe-software-pipeline="num-stages=3"
//
// The copy (and its offset) goes in stage 0, the write-back in stage 2, so
// 3 tiles are in flight (3 versions of `%buf`). Each thread reads back only
// what it copied itself, but the pipeliner does not prove that, so it
// places one gpu.barrier per iteration (wait, barrier, write back tile t,
// copy tile t + 2). apipe-make-sync of this file is the reference kernel;
// the hand-pipelined counting form is examples/pipelined/copy_bw.mlir.
//
// Launch: grid 1024, block 128; src and dst hold 16777216 floats (64 MiB).
gpu.module @kernels {
  gpu.func @copy_bw(%src: memref<16777216xf32> {llvm.noalias}, %dst: memref<16777216xf32> {llvm.noalias})
      workgroup(%buf: memref<512xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %c16384 = arith.constant 16384 : index
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    %block_base = arith.muli %bid, %c16384 : index
    %thread_base = arith.addi %block_base, %lane : index
    scf.for %t = %c0 to %c32 step %c1 {
      %tile = arith.muli %t, %c512 : index
      %off = arith.addi %thread_base, %tile : index
      apipe.copy %src[%off], %buf[%lane], 4 {bypass_l1} : memref<16777216xf32> to memref<512xf32, 3>
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %lane, %k : index
        %x = memref.load %buf[%i] : memref<512xf32, 3>
        %o = arith.addi %off, %k : index
        memref.store %x, %dst[%o] : memref<16777216xf32>
      }
    }
    gpu.return
  }
}
