// A double-buffered tile stream in counting form, as the software pipeliner
// (apipe-software-pipeline) will produce it: each thread copies 4 floats per
// tile into workgroup memory with cp.async semantics, keeps one tile in
// flight (`wait_group {pending = 1}`), and sums the tile that has landed.
//
//   apipe-opt examples/double_buffer_counting.mlir
//   apipe-opt examples/double_buffer_counting.mlir --apipe-make-sync
gpu.module @kernels {
  gpu.func @stream_sum(%A: memref<4096xf32>, %out: memref<128xf32>)
      workgroup(%buf: memref<2x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    // Prologue: tile 0 into version 0.
    apipe.copy %A[%lane], %buf[%c0, %lane], 4 {bypass_l1} : memref<4096xf32> to memref<2x128xf32, 3>
    apipe.commit_group
    %sum = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
      // Issue tile j + 1 (an empty group past the end keeps counts uniform).
      %next = arith.addi %j, %c1 : index
      %in_range = arith.cmpi ult, %next, %c8 : index
      scf.if %in_range {
        %base = arith.muli %next, %c128 : index
        %src = arith.addi %base, %lane : index
        %v = arith.remui %next, %c2 : index
        apipe.copy %A[%src], %buf[%v, %lane], 4 {bypass_l1} : memref<4096xf32> to memref<2x128xf32, 3>
      }
      apipe.commit_group
      // Tile j has landed once at most one newer group is pending.
      apipe.wait_group 1
      gpu.barrier
      %cur = arith.remui %j, %c2 : index
      %x = memref.load %buf[%cur, %tid] : memref<2x128xf32, 3>
      %acc2 = arith.addf %acc, %x : f32
      gpu.barrier
      scf.yield %acc2 : f32
    }
    memref.store %sum, %out[%tid] : memref<128xf32>
    gpu.return
  }
}
