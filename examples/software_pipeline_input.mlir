// Input of apipe-software-pipeline: a tile stream whose copy (stage 0,
// asynchronous) runs two iterations ahead of its consumer (stage 2).
//
//   apipe-opt examples/software_pipeline_input.mlir --apipe-software-pipeline
//   apipe-opt examples/software_pipeline_input.mlir --apipe-software-pipeline | apipe-run - --completion=lazy
//   apipe-opt examples/software_pipeline_input.mlir --apipe-make-sync | apipe-run -
//
// The pipelined output has 3 versions of %tile, two prologue commits, and a
// steady-state `wait_group {pending = 2}`; it prints the same sums as the
// synchronous reference: out[j] = 4 * (4j) + 6 = [6, 22, 38, 54, ...].
func.func private @printMemrefF32(memref<*xf32>)

func.func @stream_sum(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %tile = memref.alloc() : memref<4xf32>
  scf.for %j = %c0 to %c16 step %c1 {
    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %tile[%k] : memref<4xf32>
      %acc2 = arith.addf %acc, %x : f32
      scf.yield %acc2 : f32
    } {apipe.stage = 2 : i64}
    memref.store %sum, %out[%j] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %tile : memref<4xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  func.call @stream_sum(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
