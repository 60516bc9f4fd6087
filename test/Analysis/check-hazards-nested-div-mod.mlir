// apipe-check-hazards: a remainder of a quotient, `((ty * 8 + tx) divui 8)
// remui 4` in an 8x4 block, is `ty`: each thread copies into its own
// element tb[tx, ty] (trial 16, finding 5: a false write-after-write
// between threads (0, 0) and (0, 1)). The solver defines an atom whose
// dividend is another atom once that atom is defined. Silent, and
// apipe-run prints 0..31 in 3 modes and 2 schedules with its race checker.
// The twin that divides by 16 puts two rows of threads on one element:
// reported, and apipe-run reports the race.
// RUN: apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error:
// RUN: apipe-run %s --completion=lazy,eager,random:1 --schedule=forward,reverse | FileCheck %s --check-prefix=OUT
// RUN: sed -e 's/divui %%lin, %%c8/divui %%lin, %%c16/' %s > %t.twin.mlir
// RUN: not apipe-opt %t.twin.mlir --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWIN
// RUN: not apipe-run %t.twin.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// OUT-COUNT-6: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22,  23,  24,  25,  26,  27,  28,  29,  30,  31]
// TWIN: error: 'apipe.copy' op writes bytes that the same copy issued by another thread may also be writing
// RACE: error:
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @k(%B: memref<64xf32>, %out: memref<32xf32> {llvm.noalias})
      workgroup(%tb: memref<8x4xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 4, 1>} {
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %row = arith.muli %ty, %c8 : index
    %lin = arith.addi %row, %tx : index
    %tj0 = arith.divui %lin, %c8 : index
    %c4i = arith.constant 4 : index
    %tj = arith.remui %tj0, %c4i : index
    apipe.copy %B[%lin], %tb[%tx, %tj], 1 : memref<64xf32> to memref<8x4xf32, 3>
    %t = apipe.commit_group
    apipe.wait %t
    gpu.barrier
    %b = memref.load %tb[%tx, %ty] : memref<8x4xf32, 3>
    memref.store %b, %out[%lin] : memref<32xf32>
    gpu.return
  }
}
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %B = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<32xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %B[%i] : memref<64xf32>
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c4, %c1) args(%B : memref<64xf32>, %out : memref<32xf32>)
    %u = memref.cast %out : memref<32xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
