// --to-llvmir: the gpu.module as LLVM IR with the NVPTX triple and data
// layout, the kernel as a ptx_kernel, workgroup memory in addrspace(3), and
// the cp.async intrinsics.
//
// RUN: apipe-translate %s --to-llvmir | FileCheck %s
// RUN: apipe-translate %s --to-llvmir --sm=90 | FileCheck %s

// CHECK: target datalayout = "e-{{.*}}"
// CHECK: target triple = "nvptx64-nvidia-cuda"
// CHECK: @__wg_copy_commit_wait_0 = internal addrspace(3) global [512 x float]
// CHECK-LABEL: define ptx_kernel void @copy_commit_wait(
// CHECK: call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %{{.*}}, ptr addrspace(1) %{{.*}})
// CHECK-NEXT: call void @llvm.nvvm.cp.async.commit.group()
// CHECK-NEXT: call void @llvm.nvvm.cp.async.wait.group(i32 0)
// CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
gpu.module @kernels {
  gpu.func @copy_commit_wait(%src: memref<1024xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4 {bypass_l1} : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.barrier
    gpu.return
  }
}
