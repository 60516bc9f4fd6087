// apipe-software-pipeline{num-stages=3} on a kernel that gives each tile a
// slot of its own (`j mod K` of a buffer of K = 3 rows), with K written as
// `arith.index_cast %c3_i32` (trial 84). K folds to 3 ("Constants" in
// docs/passes.md), so the slot is plain index arithmetic and the buffer
// keeps its own slots: 48 bytes, which fit a budget of 64. Before, the
// cast counted as a narrower type that may wrap: 3 versions, 144 bytes, and
// the loop was refused under max-shared-bytes=64 (its literal twin was
// not). The result runs as make-sync does.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3 max-shared-bytes=64" -o %t.pipelined.mlir 2>&1 | FileCheck %s
// RUN: apipe-opt %t.pipelined.mlir --apipe-check-hazards -o %t.checked.mlir
// RUN: apipe-run %t.pipelined.mlir --completion=lazy,eager,random:1 --schedule=forward,reverse | grep -v -e Unranked -e "apipe-run: " > %t.values
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | grep -v Unranked > %t.sync
// RUN: FileCheck %s --check-prefix=VALUES < %t.sync
// RUN: cat %t.sync %t.sync %t.sync %t.sync %t.sync %t.sync > %t.sync6
// RUN: diff %t.sync6 %t.values
// CHECK: remark: scheduled 3 stages (num_stages = 3): stage 0: 4 ops, stage 2: 8 ops; versions: memref<3x4xf32, 3> x 1 (48 bytes, its own slots
// CHECK-SAME: shared memory: 48 of 64 bytes
// VALUES: {{^}}[-1,  -1,  -1,  -1,  9,  11,  13,  11,  -1,  -1,  -1,  -1,  25,  27,  29,  27,
// VALUES-NOT: [
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<64xf32> {llvm.noalias})
      workgroup(%buf: memref<3x4xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %k3i = arith.constant 3 : i32
    %K = arith.index_cast %k3i : i32 to index
    %ub2 = arith.constant 13 : index
    %st = arith.constant 2 : index
    %tid = gpu.thread_id x
    scf.for %j = %c1 to %ub2 step %st {
      %slot = arith.remui %j, %K : index
      %base = arith.muli %j, %c4 : index
      %off = arith.addi %base, %tid : index
      apipe.copy %A[%off], %buf[%slot, %tid], 1 : memref<64xf32> to memref<3x4xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      gpu.barrier
      %t1 = arith.addi %tid, %c1 : index
      %nb = arith.remui %t1, %c4 : index
      %x = memref.load %buf[%slot, %nb] : memref<3x4xf32, 3>
      %y = memref.load %buf[%slot, %tid] : memref<3x4xf32, 3>
      %s = arith.addf %x, %y : f32
      memref.store %s, %out[%off] : memref<64xf32>
      gpu.barrier
    }
    gpu.return
  }
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<64xf32>
  %z = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
    memref.store %z, %out[%i] : memref<64xf32>
  }
  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<64xf32>, %out : memref<64xf32>)
  %u = memref.cast %out : memref<64xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
}
