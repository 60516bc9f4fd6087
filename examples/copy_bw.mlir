// copy_bw: a bandwidth probe. Each block of 128 threads streams 32 tiles of
// 512 floats (2 KiB) from `src` through workgroup memory to `dst`; each
// thread moves 16 bytes per tile with one asynchronous copy.
//
// This is the pipeliner's input (DESIGN.md section 4): the copy is stage 0
// and asynchronous (`apipe.async_stages`), the write-back is stage 2, so
// apipe-software-pipeline keeps 3 tiles in flight (3 versions of `%buf`).
// Each thread reads back only what it copied itself: no barrier is needed.
// The hand-pipelined counting form is examples/pipelined/copy_bw.mlir.
//
//   apipe-opt examples/copy_bw.mlir --apipe-make-sync | apipe-translate --to-ptx
//
// Launch: grid 1024, block 128; src and dst hold 16777216 floats (64 MiB).
gpu.module @kernels {
  gpu.func @copy_bw(%src: memref<16777216xf32>, %dst: memref<16777216xf32>)
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
      %tile = arith.muli %t, %c512 {apipe.stage = 0 : i64} : index
      %off = arith.addi %thread_base, %tile {apipe.stage = 0 : i64} : index
      apipe.copy %src[%off], %buf[%lane], 4 {bypass_l1, apipe.stage = 0 : i64} : memref<16777216xf32> to memref<512xf32, 3>
      scf.for %k = %c0 to %c4 step %c1 {
        %i = arith.addi %lane, %k : index
        %x = memref.load %buf[%i] : memref<512xf32, 3>
        %o = arith.addi %off, %k : index
        memref.store %x, %dst[%o] : memref<16777216xf32>
      } {apipe.stage = 2 : i64}
    } {apipe.async_stages = array<i64: 0>}
    gpu.return
  }
}
