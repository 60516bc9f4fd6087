// A reported kernel: a 24-byte workgroup buffer written by 16-byte copies and
// read two stages later (3 versions). See ../software-pipeline-gpu-legality.mlir.
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @k(%A: memref<4096xf32>, %out: memref<32xf32>) workgroup(%tile: memref<6xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %s = scf.for %t = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      %off = arith.muli %t, %c4 {apipe.stage = 0 : i64} : index
      apipe.copy %A[%off], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<4096xf32> to memref<6xf32, #gpu.address_space<workgroup>>
      %x = memref.load %tile[%c1] {apipe.stage = 2 : i64} : memref<6xf32, #gpu.address_space<workgroup>>
      %a2 = arith.addf %acc, %x {apipe.stage = 2 : i64} : f32
      scf.yield %a2 : f32
    } {apipe.async_stages = array<i64: 0>}
    memref.store %s, %out[%tid] : memref<32xf32>
    gpu.return
  }
}
}
