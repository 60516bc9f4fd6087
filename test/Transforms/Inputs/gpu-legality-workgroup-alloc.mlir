// A reported kernel: workgroup memory allocated with memref.alloc in the
// kernel (shared by the block), multi-buffered. See
// ../software-pipeline-gpu-legality.mlir.
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @stream(%A: memref<8192xf32>, %out: memref<32xf32>, %ntiles: index) kernel {
    %tile = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c31 = arith.constant 31 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %my = arith.muli %tid, %c4 : index
    %nb0 = arith.addi %tid, %c1 : index
    %nb1 = arith.andi %nb0, %c31 : index
    %nb = arith.muli %nb1, %c4 : index
    %s = scf.for %t = %c0 to %ntiles step %c1 iter_args(%acc = %zero) -> (f32) {
      %base = arith.muli %t, %c128 {apipe.stage = 0 : i64} : index
      %src = arith.addi %base, %my {apipe.stage = 0 : i64} : index
      apipe.copy %A[%src], %tile[%my], 4 {apipe.stage = 0 : i64} : memref<8192xf32> to memref<128xf32, #gpu.address_space<workgroup>>
      %v = vector.load %tile[%nb] {apipe.stage = 2 : i64} : memref<128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %r = vector.reduction <add>, %v {apipe.stage = 2 : i64} : vector<4xf32> into f32
      %acc2 = arith.addf %acc, %r {apipe.stage = 2 : i64} : f32
      scf.yield %acc2 : f32
    } {apipe.async_stages = array<i64: 0>}
    memref.store %s, %out[%tid] : memref<32xf32>
    gpu.return
  }
}
}
