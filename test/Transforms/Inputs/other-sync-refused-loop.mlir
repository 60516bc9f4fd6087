// A function with the user's own token code (a path-dependent wait) and a
// loop the pipeliner refuses: the output must equal the input. See
// ../software-pipeline-other-sync.mlir.
func.func @refused(%A: memref<64xf32>, %B: memref<64xf32>, %pre: memref<4xf32, 3>, %out: memref<16xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  apipe.copy %B[%c0], %pre[%c0], 4 queue 5 : memref<64xf32> to memref<4xf32, 3>
  %t = apipe.commit_group queue 5
  scf.if %c {
    apipe.commit_group queue 5
  }
  apipe.wait %t
  %buf = memref.alloc() : memref<4xf32, 3>
  scf.for %i = %c0 to %c16 step %c1 {
    %off = arith.muli %i, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32, 3>
    %x = memref.load %buf[%c1] {apipe.stage = 0 : i64} : memref<4xf32, 3>
    memref.store %x, %out[%i] {apipe.stage = 0 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  return
}
