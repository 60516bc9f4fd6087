// A kernel loop whose trip count is an element of a constant vector
// (`vector.extract`, the same in every thread), pipelined from num-stages
// (trial 87). The checker is silent on the output (it took the bound to
// differ between threads and reported races and a missing barrier), and the
// pipelined kernel prints what apipe-make-sync of the input prints, for trip
// counts 0, 1, 2, 3 and 7, in lazy, eager and random completion and both
// thread orders.
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-opt --apipe-check-hazards | apipe-run - --completion=lazy --schedule=forward,reverse | FileCheck %s --check-prefixes=CHECK,TWICE
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>/dev/null | apipe-run - --completion=eager,random:2 | FileCheck %s --check-prefixes=CHECK,TWICE
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: software-pipeline-vector-bound.mlir:40:10: remark: scheduled 3 stages (num_stages = 3): stage 0: 5 ops, stage 2: 6 ops; versions: memref<3x8xf32, 3> x 1 (96 bytes, its own slots); shared memory: 96 of 49152 bytes; 1 gpu.barrier per iteration
// CHECK-COUNT-2: [0,   0,   0,   0,   0,   0,   0,   0]
// CHECK: [3,   4,   5,   6,   7,   0,   1,   2]
// CHECK-NEXT: [11,   12,   13,   14,   15,   8,   9,   10]
// CHECK: [38,   40,   42,   44,   46,   32,   34,   36]
// CHECK-NEXT: [54,   56,   58,   60,   62,   48,   50,   52]
// CHECK: [105,   108,   111,   114,   117,   96,   99,   102]
// CHECK-NEXT: [129,   132,   135,   138,   141,   120,   123,   126]
// CHECK: [693,   700,   707,   714,   721,   672,   679,   686]
// CHECK-NEXT: [749,   756,   763,   770,   777,   728,   735,   742]
// TWICE: [693,   700,   707,   714,   721,   672,   679,   686]
// TWICE-NEXT: [749,   756,   763,   770,   777,   728,   735,   742]
module attributes {gpu.container_module} {
func.func private @printMemrefF32(memref<*xf32>)
gpu.module @kernels {
  gpu.func @k(%A: memref<512xf32>, %out: memref<2x8xf32> {llvm.noalias}, %n: index)
      workgroup(%buf: memref<3x8xf32, 3>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %z = arith.constant 0.0 : f32
    %bx = gpu.block_id x
    %tx = gpu.thread_id x
    %bb = arith.muli %bx, %c8 : index
    %vv = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xindex>
    %nn = vector.extract %vv[%n] : index from vector<8xindex>
    %r = scf.for %t = %c0 to %nn step %c1 iter_args(%acc = %z) -> (f32) {
      %slot = arith.remui %t, %c3 : index
      %tb = arith.muli %t, %c32 : index
      %o0 = arith.addi %tb, %bb : index
      %o = arith.addi %o0, %tx : index
      apipe.copy %A[%o], %buf[%slot, %tx], 1 : memref<512xf32> to memref<3x8xf32, 3>
      gpu.barrier
      %nb = arith.addi %tx, %c3 : index
      %nbm = arith.remui %nb, %c8 : index
      %x = memref.load %buf[%slot, %nbm] : memref<3x8xf32, 3>
      %a2 = arith.addf %acc, %x : f32
      gpu.barrier
      scf.yield %a2 : f32
    }
    memref.store %r, %out[%bx, %tx] : memref<2x8xf32>
    gpu.return
  }
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %z = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<512xf32>
  %out = memref.alloc() : memref<2x8xf32>
  scf.for %i = %c0 to %c512 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<512xf32>
  }
  %ns = arith.constant dense<[0, 1, 2, 3, 7]> : vector<5xindex>
  %c5 = arith.constant 5 : index
  scf.for %q = %c0 to %c5 step %c1 {
    %n = vector.extract %ns[%q] : index from vector<5xindex>
    linalg.fill ins(%z : f32) outs(%out : memref<2x8xf32>)
    gpu.launch_func @kernels::@k blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1) args(%A : memref<512xf32>, %out : memref<2x8xf32>, %n : index)
    %u = memref.cast %out : memref<2x8xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}
}
