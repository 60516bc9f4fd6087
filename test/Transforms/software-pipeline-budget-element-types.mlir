// The shared-memory budget counts each element as NVPTX lays it out:
// `index` 8 bytes, a vector its elements, a complex number two parts, an
// `i1` one byte (trial 28: index, vector and complex buffers counted 0
// bytes, an i1 one bit, and ptxas refused kernels under the budget).
// A vector takes its size under MLIR's data layout, as LLVM allocates it:
// vector<3xf32> 16 bytes, not 12 (trial 33: ptxas refused a kernel the
// budget accepted).
// Here: the tile (4096 bytes per version) x 3, 8192 (1024 x index), 4096
// (256 x vector<4xf32>), 1024 (128 x complex<f32>), 112 (100 x i1,
// padded to 16) and 160 (10 x vector<3xf32>): 25872 bytes.
// RUN: apipe-opt %s --apipe-software-pipeline="num-stages=3" 2>&1 >/dev/null | FileCheck %s
// CHECK: remark: scheduled 3 stages (num_stages = 3): {{.*}}; shared memory: 25872 of 49152 bytes
gpu.module @kernels {
  gpu.func @kernel(%A: memref<65536xf32> {llvm.noalias}, %out: memref<65536xf32> {llvm.noalias})
      workgroup(%tile: memref<1024xf32, 3>, %ids: memref<1024xindex, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %tid = gpu.thread_id x
    %vecs = memref.alloc() : memref<256xvector<4xf32>, 3>
    %pairs = memref.alloc() : memref<128xcomplex<f32>, 3>
    %flags = memref.alloc() : memref<100xi1, 3>
    %triples = memref.alloc() : memref<10xvector<3xf32>, 3>
    memref.store %tid, %ids[%tid] : memref<1024xindex, 3>
    scf.for %i = %c0 to %c16 step %c1 {
      %base = arith.muli %i, %c1024 : index
      %src = arith.addi %base, %tid : index
      apipe.copy %A[%src], %tile[%tid], 1 : memref<65536xf32> to memref<1024xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %tile[%tid] : memref<1024xf32, 3>
      memref.store %x, %out[%src] : memref<65536xf32>
    }
    gpu.return
  }
}
