// The shared-memory budget follows every way a kernel reaches workgroup
// memory by symbol (trial 31: both cases below were left out, and the
// kernels were pipelined past the budget):
// - a function called through a value (func.constant + func.call_indirect)
//   reads a 24580-byte workgroup memref.global (24592 padded): 3 stages
//   need 3 x 8192 + 24592 = 49168 bytes, over 48 KiB; 2 stages fit;
// - an llvm.mlir.global with addr_space = 3, read through
//   llvm.mlir.addressof, of type !llvm.array<1000 x struct<(i8, f64)>>:
//   16000 bytes under MLIR's data layout (each struct padded to 16 bytes,
//   not 9). With max-shared-bytes=45000, 4 stages need 4 x 8192 + 16000 =
//   48768 bytes; 3 stages fit (40576).
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="num-stages=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=INDIRECT
// RUN: apipe-opt %s --split-input-file --apipe-software-pipeline="num-stages=4 max-shared-bytes=45000" 2>&1 >/dev/null | FileCheck %s --check-prefix=LLVM
// INDIRECT: software-pipeline-budget-references.mlir:[[#@LINE+24]]:5: remark: 3 stages need 49168 bytes of shared memory, over the budget of 49152 bytes (max-shared-bytes): trying 2 stages
// INDIRECT: software-pipeline-budget-references.mlir:[[#@LINE+23]]:5: remark: scheduled 2 stages (num_stages = 2): {{.*}}; shared memory: 40976 of 49152 bytes
// LLVM: software-pipeline-budget-references.mlir:[[#@LINE+51]]:5: remark: 4 stages need 48768 bytes of shared memory, over the budget of 45000 bytes (max-shared-bytes): trying 3 stages
// LLVM: software-pipeline-budget-references.mlir:[[#@LINE+50]]:5: remark: scheduled 3 stages (num_stages = 3): {{.*}}; shared memory: 40576 of 45000 bytes
gpu.module @indirect {
  memref.global "private" @G : memref<6145xf32, 3>
  func.func @helper(%v: f32) {
    %c0 = arith.constant 0 : index
    %g = memref.get_global @G : memref<6145xf32, 3>
    memref.store %v, %g[%c0] : memref<6145xf32, 3>
    return
  }
  gpu.func @kernel(%A: memref<65536xf32> {llvm.noalias}, %out: memref<65536xf32> {llvm.noalias})
      workgroup(%tile: memref<2048xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c2048 = arith.constant 2048 : index
    %zero = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %t4 = arith.muli %tid, %c4 : index
    %f = func.constant @helper : (f32) -> ()
    func.call_indirect %f(%zero) : (f32) -> ()
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c2048 : index
      %src = arith.addi %base, %t4 : index
      apipe.copy %A[%src], %tile[%t4], 4 : memref<65536xf32> to memref<2048xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %tile[%t4] : memref<2048xf32, 3>
      memref.store %x, %out[%src] : memref<65536xf32>
    }
    gpu.return
  }
}

// -----

gpu.module @llvm_global {
  llvm.mlir.global internal @S() {addr_space = 3 : i32} : !llvm.array<1000 x struct<(i8, f64)>>
  gpu.func @kernel(%A: memref<65536xf32> {llvm.noalias}, %out: memref<65536xf32> {llvm.noalias})
      workgroup(%tile: memref<2048xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c2048 = arith.constant 2048 : index
    %tid = gpu.thread_id x
    %t4 = arith.muli %tid, %c4 : index
    %p = llvm.mlir.addressof @S : !llvm.ptr<3>
    %byte = llvm.mlir.constant(0 : i8) : i8
    llvm.store %byte, %p : i8, !llvm.ptr<3>
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c2048 : index
      %src = arith.addi %base, %t4 : index
      apipe.copy %A[%src], %tile[%t4], 4 : memref<65536xf32> to memref<2048xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %tile[%t4] : memref<2048xf32, 3>
      memref.store %x, %out[%src] : memref<65536xf32>
    }
    gpu.return
  }
}
