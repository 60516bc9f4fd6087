// The same double-buffered stream as double_buffer_counting.mlir, in token
// form: each commit names its group, and the token of the group in flight
// travels through the scf.for iter_args, so each wait names exactly the
// group whose data it needs.
//
//   apipe-opt examples/double_buffer_tokens.mlir --apipe-make-sync
func.func @stream_sum(%A: memref<1024xf32>, %buf: memref<2x4xf32, 3>, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  apipe.copy %A[%c0], %buf[%c0, %c0], 4 : memref<1024xf32> to memref<2x4xf32, 3>
  %t0 = apipe.commit_group
  %res:2 = scf.for %j = %c0 to %c256 step %c1 iter_args(%acc = %zero, %pending = %t0) -> (f32, !apipe.token) {
    %next = arith.addi %j, %c1 : index
    %in_range = arith.cmpi ult, %next, %c256 : index
    scf.if %in_range {
      %src = arith.muli %next, %c4 : index
      %v = arith.remui %next, %c2 : index
      apipe.copy %A[%src], %buf[%v, %c0], 4 : memref<1024xf32> to memref<2x4xf32, 3>
    }
    %t = apipe.commit_group
    apipe.wait %pending
    %cur = arith.remui %j, %c2 : index
    %tile = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %acc) -> (f32) {
      %x = memref.load %buf[%cur, %k] : memref<2x4xf32, 3>
      %s2 = arith.addf %s, %x : f32
      scf.yield %s2 : f32
    }
    scf.yield %tile, %t : f32, !apipe.token
  }
  memref.store %res#0, %out[%c0] : memref<1xf32>
  return
}
