// The caller of ../conversions-entry-groups-run.mlir: appended to the
// converted helper and run.
func.func private @printMemrefF32(memref<*xf32>)

// Issues a copy, lets the helper wait for it, reads it; then waits for the
// helper's copy and reads that. (Nothing in this function waits for its own
// first group: the helper does.)
func.func @caller(%A: memref<64xf32>, %buf: memref<2x4xf32, 3>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  apipe.copy %A[%c8], %buf[%c0, %c0], 4 : memref<64xf32> to memref<2x4xf32, 3>
  apipe.commit_group
  func.call @issue_next_wait_previous(%A, %buf, %c16) : (memref<64xf32>, memref<2x4xf32, 3>, index) -> ()
  scf.for %j = %c0 to %c4 step %c1 {
    %x = memref.load %buf[%c0, %j] : memref<2x4xf32, 3>
    memref.store %x, %out[%j] : memref<16xf32>
  }
  apipe.wait_group 0
  scf.for %j = %c0 to %c4 step %c1 {
    %x = memref.load %buf[%c1, %j] : memref<2x4xf32, 3>
    %k = arith.addi %j, %c4 : index
    memref.store %x, %out[%k] : memref<16xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %m1 = arith.constant -1.0 : f32
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  %buf = memref.alloc() : memref<2x4xf32, 3>
  func.call @caller(%A, %buf, %out) : (memref<64xf32>, memref<2x4xf32, 3>, memref<16xf32>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
