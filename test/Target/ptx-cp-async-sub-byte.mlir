// Sub-byte elements: 32 x i4 is one 16-byte cp.async (as upstream
// convert-nvgpu-to-nvvm lowers nvgpu.device_async_copy of i4), assembled by
// ptxas; 3 x i4 is not whole bytes.
// RUN: apipe-translate %s --sm=80 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: not apipe-translate %S/Inputs/cp-async-odd-nibbles.mlir --sm=80 2>&1 | FileCheck %s --check-prefix=ODD
// CHECK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-NEXT: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// ODD: cp-async-odd-nibbles.mlir:4:5: error: 'apipe.copy' op: cp.async copies whole bytes; 3 elements of i4 are 12 bits
gpu.module @m {
  gpu.func @k(%src: memref<128x64xi4>, %i: index) workgroup(%dst: memref<128x128xi4, 3>) kernel {
    apipe.copy %src[%i, %i], %dst[%i, %i], 32 : memref<128x64xi4> to memref<128x128xi4, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.return
  }
}
