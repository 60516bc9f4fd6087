// Two pipelined kernel loops, the second bounded by a count the first
// carries (trial 44): the checker took that count, a result of the first
// loop's pipelined form (an `scf.index_switch` around a loop), as one that
// may differ between threads, so the second kernel loop's barrier as one
// some threads skip, and reported a false missing barrier. Each output
// prints what make-sync prints, 2 and 3 stages, and the checker is silent.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=2 -o %t.2.mlir
// RUN: apipe-opt %t.2.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.2.mlir --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=MODES
// RUN: apipe-opt %s --apipe-software-pipeline=num-stages=3 -o %t.3.mlir
// RUN: apipe-opt %t.3.mlir --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: apipe-run %t.3.mlir --completion=lazy,eager,random:1 | FileCheck %s --check-prefix=MODES
// CHECK: [48,  54,  60,  66,  72,  78,  84,  90,  0,
// MODES-COUNT-3: [48,  54,  60,  66,  72,  78,  84,  90,  0,
module attributes {gpu.container_module} {
func.func private @printMemrefF32(memref<*xf32>)
gpu.module @kernels {
  gpu.func @k(%A: memref<256xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias}, %n: index)
      workgroup(%buf: memref<8xf32, 3>, %buf2: memref<8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %t1 = arith.addi %tid, %c1 : index
    %nb = arith.remui %t1, %c8 : index
    %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%a = %zero, %k = %c0) -> (f32, index) {
      %b = arith.muli %j, %c8 : index
      %off = arith.addi %b, %tid : index
      apipe.copy %A[%off], %buf[%tid], 1 : memref<256xf32> to memref<8xf32, 3>
      gpu.barrier
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
      %a2 = arith.addf %a, %x : f32
      %k2 = arith.addi %k, %c1 : index
      gpu.barrier
      scf.yield %a2, %k2 : f32, index
    }
    %r2 = scf.for %j = %c0 to %r#1 step %c1 iter_args(%a = %r#0) -> (f32) {
      %b = arith.muli %j, %c8 : index
      %off = arith.addi %b, %nb : index
      apipe.copy %A[%off], %buf2[%nb], 1 : memref<256xf32> to memref<8xf32, 3>
      gpu.barrier
      %x = memref.load %buf2[%tid] : memref<8xf32, 3>
      %a2 = arith.addf %a, %x : f32
      gpu.barrier
      scf.yield %a2 : f32
    }
    memref.store %r2, %out[%tid] : memref<64xf32>
    gpu.return
  }
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %cb = arith.constant 8 : index
  %A = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<256xf32>
  }
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %z, %out[%i] : memref<64xf32>
  }
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  %c3 = arith.constant 3 : index
  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%cb, %c1, %c1) args(%A : memref<256xf32>, %out : memref<64xf32>, %c3 : index)
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
}
