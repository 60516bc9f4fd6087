// The helper of ../conversions-entry-groups-run.mlir, converted alone.
// A helper entered with its caller's group in flight: it issues its own
// copy and waits for the caller's (wait_group 1).
func.func @issue_next_wait_previous(%A: memref<64xf32>, %buf: memref<2x4xf32, 3>, %off: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  apipe.copy %A[%off], %buf[%c1, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group
  apipe.wait_group 1
  return
}

