// The lowering pipeline of apipe-translate, as text, runs in apipe-opt too
// and leaves only llvm and nvvm ops in the gpu.module: the kernel is an
// llvm.func with nvvm.kernel, copies are nvvm.cp.async.shared.global with
// the cache operator and src-size, commits and waits keep their counts.
//
// RUN: apipe-translate --print-pipeline --sync=counting | FileCheck %s --check-prefix=TEXT
// The default, sync=auto, adds apipe-select-sync and apipe-mbarrier-to-nvvm
// (docs/mbarrier.md); on this counting-form input it lowers the same.
// RUN: apipe-translate --print-pipeline | FileCheck %s --check-prefix=AUTO-TEXT
// AUTO-TEXT: builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu,apipe-mbarrier-to-nvvm{sm=80},gpu.module(convert-vector-to-scf{full-unroll=true},convert-scf-to-cf,
// RUN: apipe-opt %s --pass-pipeline="builtin.module(apipe-select-sync,apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu,apipe-mbarrier-to-nvvm{sm=80},gpu.module(convert-vector-to-scf{full-unroll=true},convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-vector-to-llvm,convert-nvgpu-to-nvvm,convert-gpu-to-nvvm,convert-arith-to-llvm,convert-index-to-llvm,convert-nvvm-to-llvm,reconcile-unrealized-casts,canonicalize,cse))" | FileCheck %s
// RUN: apipe-opt %s --pass-pipeline="builtin.module(apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu,gpu.module(convert-vector-to-scf{full-unroll=true},convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-vector-to-llvm,convert-nvgpu-to-nvvm,convert-gpu-to-nvvm,convert-arith-to-llvm,convert-index-to-llvm,convert-nvvm-to-llvm,reconcile-unrealized-casts,canonicalize,cse))" | FileCheck %s

// TEXT: builtin.module(apipe-tokens-to-counting,apipe-merge-queues,apipe-to-nvgpu,apipe-mbarrier-to-nvvm{sm=80},gpu.module(convert-vector-to-scf{full-unroll=true},convert-scf-to-cf,expand-strided-metadata,lower-affine,convert-vector-to-llvm,convert-nvgpu-to-nvvm,convert-gpu-to-nvvm,convert-arith-to-llvm,convert-index-to-llvm,convert-nvvm-to-llvm,reconcile-unrealized-casts,canonicalize,cse))

// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global internal @__wg_copy_zero_fill_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<512 x f32>
// CHECK: llvm.func @copy_zero_fill(
// CHECK-SAME: attributes {gpu.kernel, nvvm.kernel}
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.barrier
// CHECK-NOT: apipe.
// CHECK-NOT: nvgpu.
// CHECK-NOT: memref.
gpu.module @kernels {
  gpu.func @copy_zero_fill(%src: memref<1024xf32>, %valid: index) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4, %valid {bypass_l1} : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.copy %src[%lane], %buf[%lane], 2 : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 1
    gpu.barrier
    gpu.return
  }
}
